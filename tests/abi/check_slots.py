#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Proves the frozen slot list equal to the slot numbers compiled into entry stubs.

  check_slots.py --slots gl_slots.txt --lib PATH [--lib PATH ...] [--min-stubs N]
                 [--objdump PROGRAM]

Reads the slot of every exported gl* stub in a library's wtext section from its disassembly:
x86-64 `jmp *OFFSET(%r11)` (OFFSET / 8), i386 `jmp *OFFSET(%eXX)` (OFFSET / 4), AArch64 our
`mov x17, #OFFSET` or libglvnd's literal that `ldr x1, ADDR` loads (OFFSET / 8), ARMv7 our
`movw r1, #OFFSET` (OFFSET / 4). For every stub, the name at that position of gl_slots.txt must
be the stub's own name. Run against Debian's libglvnd libGL.so.1 and libOpenGL.so.0 of the same
architecture this shows our numbering is libglvnd's; run against ours it shows our stubs use
it. --objdump names a cross objdump (e.g. aarch64-linux-gnu-objdump) for foreign libraries.
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
INSN = re.compile(r"^\s*([0-9a-f]+):\s+((?:[0-9a-f]{2,8} ?)+)\s*(.*)$")
# (pattern, scale): the slot is int(group 1) / scale.
JUMPS = {
    "x86-64": [(re.compile(r"jmp\s+\*(0x[0-9a-f]+)?\(%r11\)"), 8)],
    "i386": [(re.compile(r"jmp\s+\*(0x[0-9a-f]+)?\(%e[abcd]x\)"), 4)],
    "aarch64": [(re.compile(r"mov\s+x17, #(0x[0-9a-f]+|\d+)"), 8)],
    "arm": [(re.compile(r"movw\s+r1, #(0x[0-9a-f]+|\d+)"), 4)],
}
LITERAL = re.compile(r"ldr\s+x1, ([0-9a-f]+) <")


def machine(text):
    m = re.search(r"file format (\S+)", text)
    fmt = m.group(1) if m else ""
    for key, arch in (("x86-64", "x86-64"), ("i386", "i386"), ("aarch64", "aarch64"),
                      ("arm", "arm")):
        if key in fmt:
            return arch
    raise SystemExit(f"check_slots.py: unknown format {fmt!r}")


def stub_slots(path, objdump):
    out = subprocess.run([objdump, "-d", "-z", "-j", "wtext", path],
                         check=True, capture_output=True, text=True).stdout
    arch = machine(out)
    words = {}
    lines = []
    for line in out.splitlines():
        m = INSN.match(line)
        if m:
            words[int(m.group(1), 16)] = m.group(2).split()
            lines.append(m.group(3))
        else:
            lines.append(line.strip())
    current = None
    found = {}
    for text in lines:
        m = LABEL.match(text)
        if m:
            current = m.group(1)
            continue
        if not current:
            continue
        m = LITERAL.search(text) if arch == "aarch64" else None
        if m:
            # libglvnd's aarch64 stub: the byte offset is a little-endian 64-bit literal.
            addr = int(m.group(1), 16)
            lo, hi = words.get(addr, ["0"]), words.get(addr + 4, ["0"])
            found[current] = (int(hi[0], 16) << 32 | int(lo[0], 16)) // 8
            current = None
            continue
        for pattern, scale in JUMPS[arch]:
            m = pattern.search(text)
            if m:
                found[current] = int(m.group(1) or "0", 0) // scale
                current = None
                break
    return found


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--slots", required=True)
    ap.add_argument("--lib", action="append", required=True)
    ap.add_argument("--min-stubs", type=int, default=1)
    ap.add_argument("--objdump", default="objdump")
    args = ap.parse_args()
    slots = read_list(args.slots)
    ok = True
    for lib in args.lib:
        stubs = {n: s for n, s in stub_slots(lib, args.objdump).items() if n.startswith("gl")}
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
