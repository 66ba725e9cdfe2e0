#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Proves the frozen slot list equal to the slot numbers compiled into x86-64 TLS stubs.

  check_slots.py --slots gl_slots.txt --lib PATH [--lib PATH ...] [--min-stubs N]

Each exported gl* stub in a library's wtext section ends in `jmp *OFFSET(%r11)`; OFFSET / 8 is
its slot. For every stub, the name at that position of gl_slots.txt must be the stub's own name.
Run against Debian's libglvnd libGL.so.1 and libOpenGL.so.0 this shows our numbering is
libglvnd's; run against ours it shows our stubs use it.
"""
import argparse
import re
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "scripts", "gen"))
from glmux_registry import read_list  # noqa: E402

LABEL = re.compile(r"^[0-9a-f]+ <(\w+?)(@@?\w+)?>:$")
JUMP = re.compile(r"jmp\s+\*(0x[0-9a-f]+)?\(%r11\)")




def stub_slots(path):
    out = subprocess.run(["objdump", "-d", "--no-show-raw-insn", "-j", "wtext", path],
                         check=True, capture_output=True, text=True).stdout
    current = None
    found = {}
    for line in out.splitlines():
        m = LABEL.match(line.strip())
        if m:
            current = m.group(1)
            continue
        m = JUMP.search(line)
        if m and current:
            found[current] = int(m.group(1) or "0", 16) // 8
            current = None
    return found


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--slots", required=True)
    ap.add_argument("--lib", action="append", required=True)
    ap.add_argument("--min-stubs", type=int, default=1)
    args = ap.parse_args()
    slots = read_list(args.slots)
    ok = True
    for lib in args.lib:
        stubs = {n: s for n, s in stub_slots(lib).items() if n.startswith("gl")}
        bad = [(n, s) for n, s in stubs.items() if s >= len(slots) or slots[s] != n]
        if len(stubs) < args.min_stubs:
            print(f"FAIL: {lib}: only {len(stubs)} gl stubs found")
            ok = False
        if bad:
            print(f"FAIL: {lib}: {len(bad)} stubs disagree with {args.slots}, e.g. {bad[:5]}")
            ok = False
        else:
            print(f"{lib}: all {len(stubs)} stubs jump through the slot gl_slots.txt gives them")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
