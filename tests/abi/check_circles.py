#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# The circle test: from a library's object files (nm), which file uses which other file's
# globals (a symbol undefined in A and defined in B: A -> B), the strongly connected components
# of that graph, and a failure for any component of more than --max files (three) in an
# enforced library. Every component of two or more files is printed, with the uses inside it,
# for every library given (enforced or not), so that a reader sees what still binds the files
# together. docs/architecture.md ("Floors inside a library") says why: a file can be read,
# changed and tested alone only when it is in no large circle.
#   check_circles.py [--nm NM] [--max N] --lib NAME=OBJ[;OBJ...] ... [--enforce NAME ...]
import argparse
import os
import subprocess
import sys


def symbols(nm, obj):
    """(defined, undefined) global symbol sets of one object file."""
    out = subprocess.run([nm, "--format=posix", obj], check=True, capture_output=True,
                         text=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) < 2:
            continue
        name, kind = parts[0], parts[1]
        if kind == "U":
            undefined.add(name)
        elif kind in "w":
            continue                 # a weak reference names no file it relies on
        elif kind.isupper() or kind in "uvV":
            defined.add(name)
    return defined, undefined


def short_names(paths):
    """Object paths shortened to what tells them apart (state.c, not the .dir path)."""
    names = {}
    common = os.path.commonpath([os.path.dirname(p) for p in paths]) if paths else ""
    for p in paths:
        n = p
        marker = ".dir" + os.sep
        if marker in n:
            n = n.split(marker, 1)[1]
        elif common:
            n = os.path.relpath(n, common)
        n = n.replace("__" + os.sep, "")
        while n.startswith("." + os.sep):
            n = n[2:]
        if n.endswith(".o"):
            n = n[:-2]
        names[p] = n
    return names


def graph(nm, objs):
    defs, undefs = {}, {}
    for o in objs:
        defs[o], undefs[o] = symbols(nm, o)
    owner = {}
    for o in objs:
        for s in defs[o]:
            owner.setdefault(s, set()).add(o)
    edges = {o: {} for o in objs}   # A -> {B: [symbols]}
    for a in objs:
        for s in sorted(undefs[a]):
            for b in owner.get(s, ()):
                if b != a:
                    edges[a].setdefault(b, []).append(s)
    return edges


def components(edges):
    """Tarjan's strongly connected components, iteratively."""
    index, low, on_stack, stack, out = {}, {}, set(), [], []
    counter = [0]
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, it = work[-1]
            advanced = False
            for nxt in it:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter[0]
                    counter[0] += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(edges[nxt]))))
                    advanced = True
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.append(w)
                    if w == node:
                        break
                out.append(sorted(comp))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--nm", default="nm")
    ap.add_argument("--max", type=int, default=3, help="largest circle allowed (files)")
    ap.add_argument("--lib", action="append", default=[], metavar="NAME=OBJ;OBJ...")
    ap.add_argument("--enforce", action="append", default=[], metavar="NAME",
                    help="a library whose circles fail the test ('all': every --lib)")
    args = ap.parse_args()
    enforce = set(args.enforce)
    failed = []
    for spec in args.lib:
        name, _, objs = spec.partition("=")
        objs = [o for o in objs.split(";") if o.endswith(".o")]
        if not objs:
            print(f"{name}: no object files given", file=sys.stderr)
            return 1
        missing = [o for o in objs if not os.path.exists(o)]
        if missing:
            print(f"{name}: {len(missing)} object file(s) missing, e.g. {missing[0]}: build the "
                  "library first", file=sys.stderr)
            return 1
        edges = graph(args.nm, objs)
        short = short_names(objs)
        comps = [c for c in components(edges) if len(c) > 1]
        enforced = "all" in enforce or name in enforce
        largest = max((len(c) for c in comps), default=1)
        state = "enforced" if enforced else "reported only, not enforced yet"
        print(f"== {name}: {len(objs)} files, largest circle {largest} "
              f"(allowed {args.max}; {state})")
        for c in sorted(comps, key=lambda c: (-len(c), c)):
            print(f"  circle of {len(c)}: {', '.join(short[o] for o in c)}")
            for a in c:
                for b in sorted(edges[a], key=lambda b: short[b]):
                    if b in c:
                        syms = edges[a][b]
                        more = f" (+{len(syms) - 4})" if len(syms) > 4 else ""
                        print(f"    {short[a]} -> {short[b]}: {', '.join(syms[:4])}{more}")
        if enforced and largest > args.max:
            failed.append(f"{name} ({largest} files)")
    if failed:
        print(f"FAIL: a circle through more than {args.max} files in " + ", ".join(failed) +
              ": give the library a ground floor (locks, lifecycle registry) that uses nothing "
              "above it, and let each module register its own steps (docs/architecture.md)",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
