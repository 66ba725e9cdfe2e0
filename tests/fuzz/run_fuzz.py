#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs a fuzz target for ctest (tests/fuzz/CMakeLists.txt) and scripts/fuzz.sh.

  replay  the seeds make_corpus.py generates and every saved input of regressions/TARGET/,
          each once (works with libFuzzer and with the plain driver of driver.c);
  smoke   libFuzzer for --runs executions from the seeds, with a fixed seed.

Saved inputs ending in .b64 or .hex are decoded first (binary inputs are stored encoded).
Everything is written under --work, which is emptied first.
"""
import argparse
import base64
import os
import pathlib
import shutil
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent


def decode_regressions(target, top, out):
    """Copies (decoding) regressions/TARGET/* into out; returns the files."""
    src = top / "tests" / "fuzz" / "regressions" / target
    out.mkdir(parents=True)
    files = []
    if not src.is_dir():
        return files
    for path in sorted(src.iterdir()):
        if not path.is_file() or path.name.startswith(".") or path.suffix == ".md":
            continue
        raw = path.read_bytes()
        if path.suffix == ".b64":
            raw = base64.b64decode(b"".join(raw.split()))
        elif path.suffix == ".hex":
            raw = bytes.fromhex(raw.decode())
        dest = out / path.name
        dest.write_bytes(raw)
        files.append(dest)
    return files


def seeds(target, top, out):
    subprocess.run([sys.executable, str(HERE / "make_corpus.py"), target, str(out),
                    "--top", str(top)], check=True, stdout=subprocess.DEVNULL)
    return sorted(out.iterdir())


def sanitizer_env(wrapped):
    env = dict(os.environ)
    # Abort on the first report so that libFuzzer or ctest see it; keep symbolized frames.
    # Under a wrapper's LD_PRELOAD (umockdev) a shared ASan runtime is not first; that is fine.
    env.setdefault("ASAN_OPTIONS", "abort_on_error=1:detect_leaks=1" +
                   (":verify_asan_link_order=0" if wrapped else ""))
    env.setdefault("UBSAN_OPTIONS", "print_stacktrace=1:halt_on_error=1")
    return env


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("mode", choices=("replay", "smoke"))
    ap.add_argument("--target", required=True)
    ap.add_argument("--exe", required=True)
    ap.add_argument("--top", required=True, type=pathlib.Path)
    ap.add_argument("--work", required=True, type=pathlib.Path)
    ap.add_argument("--runs", type=int, default=100000)
    ap.add_argument("--max-len", type=int, default=4096)
    ap.add_argument("--wrapper", help="a program to run the target under (umockdev-wrapper)")
    args = ap.parse_args()
    work = args.work
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    seed_files = seeds(args.target, args.top, work / "seeds")
    if args.mode == "replay":
        inputs = seed_files + decode_regressions(args.target, args.top, work / "regressions")
        if not inputs:
            print(f"{args.target}: nothing to replay")
            return 0
        cmd = [args.exe] + [str(p) for p in inputs]
    else:
        (work / "corpus").mkdir()
        (work / "artifacts").mkdir()
        cmd = [args.exe, f"-runs={args.runs}", "-seed=1", "-timeout=30", "-rss_limit_mb=2048",
               f"-max_len={args.max_len}", "-print_final_stats=1",
               f"-artifact_prefix={work / 'artifacts'}/", str(work / "corpus"),
               str(work / "seeds")]
    if args.wrapper:
        cmd = [args.wrapper] + cmd
    print("running:", " ".join(cmd[:8]), "..." if len(cmd) > 8 else "", flush=True)
    proc = subprocess.run(cmd, env=sanitizer_env(bool(args.wrapper)), stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, errors="replace")
    lines = proc.stdout.splitlines()
    # Keep the log short when all is well (the replay prints one line per input).
    shown = lines if proc.returncode != 0 else [l for l in lines if not l.startswith("Running")
                                                 and not l.startswith("running ")
                                                 and not l.startswith("Executed ")][-40:]
    print("\n".join(shown))
    if proc.returncode != 0:
        for art in sorted((work / "artifacts").glob("*")) if (work / "artifacts").is_dir() else []:
            print(f"artifact {art.name} (base64, save it as "
                  f"tests/fuzz/regressions/{args.target}/<name>.b64):")
            print(base64.b64encode(art.read_bytes()).decode())
        print(f"FAIL: fuzz target {args.target} exited with {proc.returncode}")
        return 1
    print(f"ok: {args.target} {args.mode}: {len(seed_files)} seed(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
