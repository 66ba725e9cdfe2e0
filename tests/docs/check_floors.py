#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# The floor tables of docs/egl.md and docs/glx.md, checked against the object files: every
# source file of the library is in its doc's table ("| floor | file | holds |", a file cell may
# name several files), and no file uses (a global symbol undefined in it and defined in the
# other, as nm shows) a file on a higher floor. Generated files and files of other folders
# built into the library are not in the tables and not checked. docs/architecture.md ("Floors inside a library") says why.
#   check_floors.py [--nm NM] --doc DOC --lib OBJ[;OBJ...] [--doc DOC --lib ...]
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "abi"))
from check_circles import graph, short_names, symbols  # noqa: E402


def read_floors(doc):
    """{file.c: floor} from the first table whose header row starts with '| floor | file'."""
    floors, in_table = {}, False
    with open(doc, encoding="utf-8") as f:
        for line in f:
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if not in_table:
                in_table = len(cells) >= 2 and cells[0] == "floor" and cells[1] == "file"
                continue
            if not line.startswith("|"):
                break
            if not cells[0].isdigit():
                continue
            for name in re.findall(r"`([A-Za-z0-9_]+\.c)`", cells[1]):
                floors[name] = int(cells[0])
    return floors


def check(nm, doc, objs):
    floors = read_floors(doc)
    problems = []
    if not floors:
        return [f"{doc}: no floor table ('| floor | file | holds |')"]
    syms = {o: symbols(nm, o) for o in objs}
    edges = graph(syms)
    short = short_names(sorted(syms))
    # The library's own folder: generated files (gen/) and files of other folders built into
    # it (util/library_mark.c) are in no floor table.
    mine = {o: short[o] for o in objs if os.sep not in short[o]}
    for o, name in sorted(mine.items(), key=lambda x: x[1]):
        if name not in floors:
            problems.append(f"{doc}: {name} is a file of the library but not in the floor table")
    for name in sorted(set(floors) - set(mine.values())):
        problems.append(f"{doc}: the floor table names {name}, which the library has not")
    for a, name in mine.items():
        for b, used in sorted(edges[a].items()):
            if b in mine and name in floors and mine[b] in floors and \
                    floors[mine[b]] > floors[name]:
                problems.append(f"{doc}: {name} (floor {floors[name]}) uses {mine[b]} (floor "
                                f"{floors[mine[b]]}, above it): {', '.join(used[:4])}")
    print(f"{doc}: {len(mine)} files on {len(set(floors.values()))} floors, "
          f"{len(problems)} problem(s)")
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--nm", default="nm")
    ap.add_argument("--doc", action="append", default=[])
    ap.add_argument("--lib", action="append", default=[])
    args = ap.parse_args()
    if len(args.doc) != len(args.lib) or not args.doc:
        ap.error("give one --lib after each --doc")
    problems = []
    for doc, lib in zip(args.doc, args.lib):
        objs = [o for o in lib.split(";") if o.endswith(".o")]
        missing = [o for o in objs if not os.path.exists(o)]
        if not objs or missing:
            print(f"{doc}: object files missing: build the library first", file=sys.stderr)
            return 1
        problems += check(args.nm, doc, objs)
    for p in problems:
        print("FAIL:", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
