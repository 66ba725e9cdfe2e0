#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Sums the instructions (Ir) of a callgrind output file.

  cgsum.py FILE            the program total (what callgrind collected)
  cgsum.py FILE REGEX      the self cost of every function whose object (shared library or
                           program) has a file name matching REGEX, e.g. the dispatch
                           layer's own libraries without the vendor, libc or ld.so

Reads callgrind's format directly (ob=/fn= name compression, calls= lines whose next cost
line is a callee's inclusive cost, not self cost), so nothing depends on callgrind_annotate's
layout.
"""

import os
import re
import sys


def main():
    if len(sys.argv) not in (2, 3):
        raise SystemExit(__doc__)
    pattern = re.compile(sys.argv[2]) if len(sys.argv) == 3 else None
    names = {}
    obj = ""
    total = 0
    selected = 0
    skip_next = False
    with open(sys.argv[1], encoding="utf-8", errors="replace") as f:
        for line in f:
            c = line[0] if line else ""
            if c.isdigit() or c in "+-*":
                if skip_next:           # the cost line after calls=: inclusive, not self
                    skip_next = False
                    continue
                fields = line.split()
                if len(fields) < 2:
                    continue
                ir = int(fields[1])
                total += ir
                if pattern is not None and pattern.search(obj):
                    selected += ir
                continue
            if line.startswith("calls="):
                skip_next = True
            elif line.startswith(("ob=", "cob=")):
                value = line.split("=", 1)[1].strip()
                m = re.match(r"\((\d+)\)\s*(.*)", value)
                if m:
                    if m.group(2):
                        names[m.group(1)] = m.group(2)
                    value = names.get(m.group(1), "")
                if line.startswith("ob="):
                    obj = os.path.basename(value)
    print(selected if pattern is not None else total)


if __name__ == "__main__":
    main()
