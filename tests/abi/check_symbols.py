#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks a built library's exports and soname.

  check_symbols.py --lib PATH --symbols FILE --soname NAME [--reference-cc CC]

The dynamic symbols it defines (nm -D --defined-only, minus the linker's own) must equal the
committed list. With --reference-cc they must also include every export of libglvnd's build of
the same library, found through that compiler (reference.py); where the system has none, or has
glmux's own, the comparison is left out and the output says why. Exit 0 pass, 1 fail.
"""
import argparse
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "scripts", "gen"))
from glmux_registry import read_list  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reference  # noqa: E402

# Linker-made symbols (the aarch64 and arm linkers of older binutils also export the __bss_end__
# family); not part of any API.
LINKER_SYMBOLS = {"_edata", "_end", "__bss_start", "_init", "_fini", "__bss_start__",
                  "__bss_end__", "_bss_end__", "__end__", "__end"}


def exports(path):
    out = subprocess.run(["nm", "-D", "--defined-only", path], check=True,
                         capture_output=True, text=True).stdout
    names = set()
    for line in out.splitlines():
        fields = line.split()
        if len(fields) >= 3 and fields[2] not in LINKER_SYMBOLS:
            names.add(fields[2].split("@")[0])
    return names


def soname(path):
    out = subprocess.run(["readelf", "-d", path], check=True, capture_output=True,
                         text=True).stdout
    for line in out.splitlines():
        if "(SONAME)" in line:
            return line.split("[", 1)[1].rstrip("]")
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lib", required=True)
    ap.add_argument("--symbols", required=True, action="append")
    ap.add_argument("--soname", required=True)
    ap.add_argument("--reference-cc")
    args = ap.parse_args()

    ok = True
    have = exports(args.lib)
    want = set()
    for f in args.symbols:
        want |= set(read_list(f))
    if soname(args.lib) != args.soname:
        print(f"FAIL: {args.lib}: soname {soname(args.lib)}, expected {args.soname}")
        ok = False
    if have != want:
        print(f"FAIL: {args.lib}: exports differ from {', '.join(args.symbols)}: "
              f"unexpected {sorted(have - want)[:10]}, missing {sorted(want - have)[:10]}")
        ok = False
    ref_path, why = (reference.find_library(args.reference_cc, args.soname)
                     if args.reference_cc else (None, "no --reference-cc given"))
    if ref_path is None:
        print(f"{args.lib}: not compared with libglvnd: {why}")
    else:
        ref = exports(ref_path)
        missing = sorted(ref - have)
        if missing:
            print(f"FAIL: {args.lib} lacks {len(missing)} exports of {ref_path}: {missing[:10]}")
            ok = False
        else:
            print(f"{args.lib}: {len(have)} exports, a superset of {ref_path}'s {len(ref)}")
    print(f"{args.lib}: soname {args.soname}, {len(have)} exports as committed" if ok else "")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
