#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs fuzz targets for ctest (tests/fuzz/CMakeLists.txt) and scripts/fuzz.sh.

  replay  the seeds make_corpus.py generates and every saved input of regressions/TARGET/,
          each once (works with libFuzzer and with the plain driver of driver.c);
  smoke   libFuzzer for --runs executions from the seeds, with a fixed seed;
  long    (scripts/fuzz.sh) libFuzzer for --seconds on one target or on every target of the
          list the build writes (--list, tests/fuzz/targets.tsv: name, executable, wrapper,
          maximum input length), from a corpus kept under --work; every crash, leak, timeout
          or out-of-memory input is minimized and saved in --regressions/TARGET. A target
          that does not start (no execution: it exits at once, or its wrapper is missing) is a
          failure, and so is one whose open descriptors grow: the count at the end more than
          FD_SLACK above the count after the first 100 inputs (both printed; each target
          prints them, fuzz_common.c). Prints one summary line per target. Exit status: 0
          every target ran and found nothing, 1 something was found, a target did not start
          or its descriptors grew.
  fds     (a GLMUX_FUZZ=ON build) libFuzzer for --runs executions from the seeds, with a fixed
          seed, and fails unless the descriptor count at the end equals the count after the
          first 100 inputs (give or take --slack).

Saved inputs ending in .b64 or .hex are decoded first (binary inputs are stored encoded).
Everything is written under --work, which is emptied first (long: but for the corpus).
"""
import argparse
import base64
import hashlib
import os
import pathlib
import re
import shutil
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
# How far a long run's descriptor count may rise between the first 100 inputs and the end
# (a few are opened late and kept: libFuzzer's symbolizer pipes when it names a newly covered
# function, a library's log file).
FD_SLACK = 16


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


def read_list(path):
    """The targets the build lists: [(name, executable, wrapper or None, max_len)]."""
    targets = []
    for line in pathlib.Path(path).read_text().splitlines():
        if not line.strip():
            continue
        name, exe, wrapper, max_len = (line.split("\t") + ["", "", "", ""])[:4]
        targets.append((name, exe, wrapper or None, int(max_len or 4096)))
    return targets


def save_input(raw, out, kind):
    """Saves raw in out as text when short printable text, else base64; returns the path."""
    out.mkdir(parents=True, exist_ok=True)
    name = f"{kind}-{hashlib.sha1(raw).hexdigest()[:12]}"
    try:
        text = raw.decode("ascii")
        printable = all(c.isprintable() or c in "\n\t" for c in text)
    except UnicodeDecodeError:
        printable = False
    if printable and len(raw) <= 4096:
        path = out / name
        path.write_bytes(raw)
    else:
        path = out / (name + ".b64")
        b64 = base64.b64encode(raw).decode()
        path.write_text("\n".join(b64[i:i + 76] for i in range(0, len(b64), 76)) + "\n")
    return path


def executions(output):
    """What libFuzzer says it executed: its final statistics, else its last status line."""
    stat = re.findall(r"^stat::number_of_executed_units: (\d+)", output, re.M)
    if stat:
        return int(stat[-1])
    status = [int(n) for n in re.findall(r"^#(\d+)", output, re.M)]
    return max(status) if status else 0


def descriptors(output):
    """(count after the first inputs, count at the end, inputs at the end) from what the
    target printed (fuzz_common.c); None for a count it did not print (a run of fewer than
    100 inputs, or one that ended by a crash)."""
    first = re.findall(r"^glmux-fuzz: (\d+) open descriptors after the first \d+ inputs", output,
                       re.M)
    end = re.findall(r"^glmux-fuzz: (\d+) open descriptors at the end, after (\d+) inputs",
                     output, re.M)
    return (int(first[-1]) if first else None, int(end[-1][0]) if end else None,
            int(end[-1][1]) if end else None)


def target_failures(output):
    """The failures a target reports itself at exit ("glmux-fuzz: FAIL: ..." lines; the
    select target's when no bed listed a GPU)."""
    return re.findall(r"^glmux-fuzz: FAIL: (.*)$", output, re.M)


def fd_text(fds):
    first, end, n = fds
    if first is None or end is None:
        return "not counted (fewer than 100 inputs, or no clean exit)"
    return f"{first} after the first 100 inputs, {end} at the end (after {n:,} inputs)"


def long_run(target, exe, wrapper, max_len, args, extra):
    """One target for args.seconds; returns (status word, executions, descriptors)."""
    work = args.work / target
    for sub in ("seeds", "regressions", "artifacts"):
        shutil.rmtree(work / sub, ignore_errors=True)
    (work / "corpus").mkdir(parents=True, exist_ok=True)
    (work / "artifacts").mkdir()
    seeds(target, args.top, work / "seeds")
    decode_regressions(target, args.top, work / "regressions")
    if not os.access(exe, os.X_OK) or (wrapper and not os.access(wrapper, os.X_OK)):
        print(f"{target}: cannot start: {exe if not os.access(exe, os.X_OK) else wrapper} "
              "is not there (build the fuzz targets first)")
        return "did not start", 0, (None, None, None)
    fork = [f"-fork={args.jobs}", "-ignore_crashes=1", "-ignore_ooms=1",
            "-ignore_timeouts=1"] if args.jobs else []
    cmd = ([wrapper] if wrapper else []) + [
        exe, f"-max_total_time={args.seconds}", "-timeout=30", "-rss_limit_mb=2048",
        f"-max_len={max_len}", "-print_final_stats=1",
        f"-artifact_prefix={work / 'artifacts'}/"] + fork + extra + [
        str(work / "corpus"), str(work / "seeds"), str(work / "regressions")]
    print(f"== {target}: {args.seconds} s: {' '.join(cmd[:3])} ...", flush=True)
    proc = subprocess.run(cmd, env=sanitizer_env(bool(wrapper)), stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, errors="replace")
    (work / "log.txt").write_text(proc.stdout)
    print("\n".join(proc.stdout.splitlines()[-15:]))
    execs = executions(proc.stdout)
    fds = descriptors(proc.stdout)
    print(f"{target}: open descriptors: {fd_text(fds)}")
    found = []
    for art in sorted((work / "artifacts").iterdir()):
        kind = art.name.split("-")[0]
        if kind not in ("crash", "leak", "timeout", "oom") or art.name.endswith(".min"):
            continue
        small = art.with_name(art.name + ".min")
        # Minimize (a bounded number of tries); keep the original when that fails.
        subprocess.run(([wrapper] if wrapper else []) + [
            exe, "-minimize_crash=1", "-runs=5000", f"-exact_artifact_path={small}", str(art)],
            env=sanitizer_env(bool(wrapper)), stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)
        raw = (small if small.exists() and small.stat().st_size else art).read_bytes()
        path = save_input(raw, args.regressions / target, kind)
        print(f"{target}: saved {path} ({len(raw)} bytes): commit it with the fix")
        art.rename(art.with_name(art.name + ".saved"))
        found.append(kind)
    if found:
        return "found " + ",".join(sorted(set(found))), execs, fds
    if execs == 0 or proc.returncode != 0:
        print(f"{target}: did not start or stopped without an input to blame (status "
              f"{proc.returncode}, {execs} executions); log: {work / 'log.txt'}")
        return ("did not start" if execs == 0 else f"failed (status {proc.returncode})", execs,
                fds)
    for failure in target_failures(proc.stdout):
        print(f"{target}: {failure}")
    if target_failures(proc.stdout):
        return "failed its own check", execs, fds
    if fds[0] is not None and fds[1] is not None and fds[1] > fds[0] + FD_SLACK:
        print(f"{target}: its open descriptors grew from {fds[0]} to {fds[1]}: something the "
              f"target does per input leaks them (its log names them: {work / 'log.txt'})")
        return "descriptors grew", execs, fds
    return "ok", execs, fds


def long_main(argv):
    ap = argparse.ArgumentParser(prog="run_fuzz.py long")
    ap.add_argument("target", help="a target's name, or all")
    ap.add_argument("--list", required=True, help="the build's tests/fuzz/targets.tsv")
    ap.add_argument("--top", required=True, type=pathlib.Path)
    ap.add_argument("--work", required=True, type=pathlib.Path)
    ap.add_argument("--seconds", required=True, type=int)
    ap.add_argument("--jobs", type=int, default=0, help="libFuzzer -fork=N")
    ap.add_argument("--regressions", type=pathlib.Path,
                    help="where found inputs go (default: the source tree's regressions/)")
    extra = argv[argv.index("--") + 1:] if "--" in argv else []   # libFuzzer options
    args = ap.parse_args(argv[:argv.index("--")] if "--" in argv else argv)
    args.extra = extra
    args.regressions = args.regressions or args.top / "tests" / "fuzz" / "regressions"
    targets = read_list(args.list)
    chosen = targets if args.target == "all" else [t for t in targets if t[0] == args.target]
    if not chosen:
        print(f"run_fuzz.py: no fuzz target '{args.target}' in {args.list} (targets: "
              f"{' '.join(t[0] for t in targets) or 'none'})")
        return 2
    results = [(t[0],) + long_run(t[0], t[1], t[2], t[3], args, args.extra) for t in chosen]
    # fds@100, fds@end: open descriptors after the first 100 inputs and at the end ("-": not
    # counted, the run was shorter or did not end cleanly).
    print(f"\n{'target':<14} {'seconds':>8} {'executions':>12} {'fds@100':>8} {'fds@end':>8}  "
          "result")
    for name, result, execs, fds in results:
        first, end = ("-" if fds[0] is None else fds[0]), ("-" if fds[1] is None else fds[1])
        print(f"{name:<14} {args.seconds:>8} {execs:>12,} {first:>8} {end:>8}  {result}")
    bad = [r for r in results if r[1] != "ok"]
    print(f"fuzz: {len(results)} target(s), " +
          ("all ran, nothing found, no descriptor growth" if not bad else
           f"{len(bad)} not clean: {', '.join(n + ' ' + r for n, r, _, _ in bad)}"))
    return 1 if bad else 0


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "long":
        return long_main(sys.argv[2:])
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("mode", choices=("replay", "smoke", "fds"))
    ap.add_argument("--target", required=True)
    ap.add_argument("--exe", required=True)
    ap.add_argument("--top", required=True, type=pathlib.Path)
    ap.add_argument("--work", required=True, type=pathlib.Path)
    ap.add_argument("--runs", type=int, default=100000)
    ap.add_argument("--max-len", type=int, default=4096)
    ap.add_argument("--wrapper", help="a program to run the target under (umockdev-wrapper)")
    ap.add_argument("--slack", type=int, default=None,
                    help="how far the descriptor count may rise (smoke: %d, fds: 0)" % FD_SLACK)
    args = ap.parse_args()
    slack = args.slack if args.slack is not None else (0 if args.mode == "fds" else FD_SLACK)
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
        if args.mode == "fds":
            # Descriptors only: no rerun of each input whose mallocs and frees differ (that
            # doubles the time; the smoke run looks for leaks, and LeakSanitizer still checks
            # at exit), and no symbolizer, which libFuzzer starts (two pipes) to name a newly
            # covered function.
            cmd[1:1] = ["-detect_leaks=0", "-print_funcs=0"]
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
    for failure in target_failures(proc.stdout):
        print(f"FAIL: {args.target}: {failure}")
    if target_failures(proc.stdout):
        return 1
    if args.mode != "replay":
        fds = descriptors(proc.stdout)
        print(f"{args.target}: open descriptors: {fd_text(fds)}")
        if args.mode == "fds" and (fds[0] is None or fds[1] is None):
            print(f"FAIL: {args.target} did not print its descriptor counts (fuzz_common.c)")
            return 1
        if fds[0] is not None and fds[1] is not None and fds[1] > fds[0] + slack:
            print(f"FAIL: {args.target}'s open descriptors grew by {fds[1] - fds[0]} (more "
                  f"than {slack}): something it does per input leaks them")
            return 1
    print(f"ok: {args.target} {args.mode}: {len(seed_files)} seed(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
