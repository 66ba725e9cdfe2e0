#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks that libraries never write the process environment (another thread may
read it meanwhile, and glibc's setenv is not thread-safe).

  check_no_env_writes.py [--nm NM] LIB...

Each library's undefined dynamic symbols (nm -D --undefined-only) must not include setenv,
putenv, unsetenv or clearenv: a library linked into a threaded program must not change what
getenv returns under another thread, nor what the program's children inherit. Exit 0 pass,
1 fail.
"""
import argparse
import subprocess
import sys

WRITERS = {"setenv", "putenv", "unsetenv", "clearenv"}


def imports(nm, path):
    out = subprocess.run([nm, "-D", "--undefined-only", path], check=True,
                         capture_output=True, text=True).stdout
    return {line.split()[-1].split("@")[0] for line in out.splitlines() if line.split()}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--nm", default="nm")
    parser.add_argument("libs", nargs="+")
    args = parser.parse_args()
    failures = 0
    for lib in args.libs:
        found = sorted(imports(args.nm, lib) & WRITERS)
        if found:
            failures += 1
            print("FAIL %s imports %s: a library must not write the environment"
                  % (lib, ", ".join(found)))
        else:
            print("ok   %s imports none of %s" % (lib, ", ".join(sorted(WRITERS))))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
