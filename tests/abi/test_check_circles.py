#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# The circle test's own test: object files compiled here from tiny C files whose functions call
# each other in a ring. A ring of four files fails check_circles.py when its library is
# enforced and passes when it is only reported; a ring of three fails unless the allowed list
# names it; a ring of two and a chain pass; a weak reference makes no use; a ring closed through
# a static library's member is found, and a member the link does not pull in is not read. So a
# check that always passed (or always failed) would be seen.
#   test_check_circles.py --cc CC --nm NM WORKDIR
import argparse
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def compile_ring(cc, work, name, links, weak=()):
    """links: {file: [files it calls]}; returns the object paths."""
    d = os.path.join(work, name)
    os.makedirs(d, exist_ok=True)
    objs = []
    for f, calls in sorted(links.items()):
        src = os.path.join(d, f + ".c")
        with open(src, "w") as out:
            for c in calls:
                attr = "__attribute__((weak)) " if (f, c) in weak else ""
                out.write(f"{attr}int fn_{c}(void);\n")
            body = " + ".join(f"(fn_{c} ? fn_{c}() : 0)" if (f, c) in weak else f"fn_{c}()"
                              for c in calls) or "0"
            out.write(f"int fn_{f}(void) {{ return {body}; }}\n")
        obj = os.path.join(d, f + ".o")
        subprocess.run([cc, "-c", "-O0", src, "-o", obj], check=True)
        objs.append(obj)
    return objs


def check(nm, name, objs, enforce, allowed=None):
    args = [sys.executable, os.path.join(HERE, "check_circles.py"), "--nm", nm,
            "--lib", f"{name}={';'.join(objs)}"]
    if enforce:
        args += ["--enforce", name]
    if allowed:
        args += ["--allowed", allowed]
    r = subprocess.run(args, capture_output=True, text=True)
    return r.returncode, r.stdout + r.stderr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cc", required=True)
    ap.add_argument("--nm", default="nm")
    ap.add_argument("work")
    args = ap.parse_args()
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    failures = []

    four = compile_ring(args.cc, args.work, "four", {"a": ["b"], "b": ["c"], "c": ["d"],
                                                      "d": ["a"], "e": ["a"]})
    rc, out = check(args.nm, "four", four, True)
    if rc == 0 or "circle of 4: a, b, c, d" not in out:
        failures.append(f"a ring of four files, enforced: exit {rc}\n{out}")
    rc, out = check(args.nm, "four", four, False)
    if rc != 0 or "circle of 4" not in out:
        failures.append(f"a ring of four files, reported only: exit {rc}\n{out}")

    three = compile_ring(args.cc, args.work, "three", {"a": ["b"], "b": ["c"], "c": ["a", "d"],
                                                        "d": []})
    rc, out = check(args.nm, "three", three, True)
    if rc == 0 or "circle of 3: a, b, c" not in out:
        failures.append(f"a ring of three files, not listed: exit {rc}\n{out}")
    doc = os.path.join(args.work, "allowed.md")
    with open(doc, "w") as f:
        f.write("| library | files | why |\n|---|---|---|\n| three | `a.c`, `b.c`, `c.c` | a "
                "reason |\n")
    rc, out = check(args.nm, "three", three, True, doc)
    if rc != 0 or "circle of 3: a, b, c (listed" not in out:
        failures.append(f"a ring of three files, listed: exit {rc}\n{out}")

    two = compile_ring(args.cc, args.work, "two", {"a": ["b"], "b": ["a"]})
    rc, out = check(args.nm, "two", two, True)
    if rc != 0 or "circle of 2: a, b" not in out:
        failures.append(f"a ring of two files: exit {rc}\n{out}")

    # A ring closed through a static library: lib.o -> s1 -> s2 -> s3 -> lib.o, with s1..s3 and
    # an unused member (u, which would close another ring) in an archive.
    ring = compile_ring(args.cc, args.work, "archive", {"lib": ["s1"], "s1": ["s2"],
                                                         "s2": ["s3"], "s3": ["lib"],
                                                         "u": ["lib", "zz"], "zz": ["u"]})
    archive = os.path.join(args.work, "archive", "libstatic.a")
    subprocess.run(["ar", "rcs", archive] + [o for o in ring if not o.endswith("lib.o")],
                   check=True)
    lib = [o for o in ring if o.endswith("lib.o")]
    rc, out = check(args.nm, "archive", lib + [archive], True)
    if rc == 0 or "circle of 4: lib, s1, s2, s3" not in out or "zz" in out:
        failures.append(f"a ring through a static library's members: exit {rc}\n{out}")

    chain = compile_ring(args.cc, args.work, "weak", {"a": ["b"], "b": ["c"], "c": ["d"],
                                                       "d": ["a"]}, weak={("d", "a")})
    rc, out = check(args.nm, "weak", chain, True)
    if rc != 0 or "circle of" in out:
        failures.append(f"a chain closed by a weak reference only: exit {rc}\n{out}")

    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
