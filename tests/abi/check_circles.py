#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# The circle test: from a library's object files and the static libraries it links (nm), which
# file uses which other file's globals (a symbol undefined in A and defined in B: A -> B), the
# strongly connected components of that graph, and a failure for any component of more than
# --max files (two) in an enforced library that --allowed does not list. Of a static library
# (an .a given with the objects) only the members the link pulls in count: those that define a
# symbol still undefined, until none is left, as the linker takes them. Every component of two
# or more files is printed, with the uses inside it, for every library given (enforced or not),
# so that a reader sees what still binds the files together. docs/architecture.md ("Floors
# inside a library") says why: a file can be read, changed and tested alone only when it is in
# no large circle; its table of remaining circles (each with its reason) is what --allowed
# reads: a row "| LIBRARY | `a.c`, `b.c`, `c.c` | reason |" allows exactly that circle.
#   check_circles.py [--nm NM] [--max N] [--allowed DOC] --lib NAME=OBJ_OR_A[;...] ...
#                    [--enforce NAME ...]
import argparse
import os
import subprocess
import sys


def parse(lines):
    """(defined, undefined) global symbol sets from nm --format=posix lines of one object."""
    defined, undefined = set(), set()
    for line in lines:
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


def symbols(nm, obj):
    """(defined, undefined) global symbol sets of one object file."""
    out = subprocess.run([nm, "--format=posix", obj], check=True, capture_output=True,
                         text=True).stdout
    return parse(out.splitlines())


def archive_members(nm, archive):
    """{"archive(member)": (defined, undefined)} of a static library's members."""
    out = subprocess.run([nm, "--format=posix", archive], check=True, capture_output=True,
                         text=True).stdout
    members, current, lines = {}, None, []
    for line in out.splitlines():
        # A member's heading: "lib.a[member.o]:" from GNU nm, "member.o:" from llvm-nm (the
        # clang configurations' CMAKE_NM). A symbol line has spaces, a heading none.
        if line.endswith(":") and not any(c.isspace() for c in line):
            if current is not None:
                members[current] = parse(lines)
            member = line[line.rindex("[") + 1:-2] if line.endswith("]:") else line[:-1]
            current = "%s(%s)" % (archive, member)
            lines = []
        elif current is not None:
            lines.append(line)
    if current is not None:
        members[current] = parse(lines)
    return members


def linked(nm, objs, archives):
    """The objects' symbols, and those of each archive member the link pulls in."""
    syms = {o: symbols(nm, o) for o in objs}
    pool = {}
    for a in archives:
        pool.update(archive_members(nm, a))
    changed = True
    while changed:
        changed = False
        defined = set().union(*(d for d, _ in syms.values())) if syms else set()
        wanted = set().union(*(u for _, u in syms.values())) - defined if syms else set()
        for m in sorted(pool):
            if m not in syms and pool[m][0] & wanted:
                syms[m] = pool[m]
                changed = True
    return syms


def short_names(paths):
    """Object paths shortened to what tells them apart (state.c, not the .dir path)."""
    names = {}
    common = os.path.commonpath([os.path.dirname(p) for p in paths]) if paths else ""
    for p in paths:
        n = p
        if p.endswith(")") and "(" in p:       # an archive member: "libglmux_winsys.a(thread.c.o)"
            n = p[p.rindex("(") + 1:-1]
            n = n[:-2] if n.endswith(".o") else n
            names[p] = n
            continue
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


def graph(syms):
    objs = sorted(syms)
    defs, undefs = {}, {}
    for o in objs:
        defs[o], undefs[o] = syms[o]
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


def read_allowed(doc):
    """{library: {frozenset(files)}} from the rows of the allowed-circles table in doc."""
    allowed = {}
    with open(doc, encoding="utf-8") as f:
        for line in f:
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) < 3 or "`" not in cells[1]:
                continue
            files = [w.strip().strip("`") for w in cells[1].split(",")]
            if len(files) > 1 and all(x.endswith(".c") for x in files):
                allowed.setdefault(cells[0].strip("`"), set()).add(
                    frozenset(x[:-2] for x in files))
    return allowed


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--nm", default="nm")
    ap.add_argument("--max", type=int, default=2, help="largest circle allowed (files)")
    ap.add_argument("--lib", action="append", default=[], metavar="NAME=OBJ;OBJ...")
    ap.add_argument("--enforce", action="append", default=[], metavar="NAME",
                    help="a library whose circles fail the test ('all': every --lib)")
    ap.add_argument("--allowed", metavar="DOC",
                    help="a Markdown file whose table rows '| LIBRARY | `a.c`, `b.c` | why |' "
                         "list the larger circles that are allowed, each with its reason")
    args = ap.parse_args()
    enforce = set(args.enforce)
    allowed = read_allowed(args.allowed) if args.allowed else {}
    failed = []
    for spec in args.lib:
        name, _, paths = spec.partition("=")
        paths = [p for p in paths.split(";") if p]
        objs = [o for o in paths if o.endswith(".o")]
        archives = [a for a in paths if a.endswith(".a")]
        if not objs:
            print(f"{name}: no object files given", file=sys.stderr)
            return 1
        missing = [o for o in objs + archives if not os.path.exists(o)]
        if missing:
            print(f"{name}: {len(missing)} file(s) missing, e.g. {missing[0]}: build the "
                  "library first", file=sys.stderr)
            return 1
        syms = linked(args.nm, objs, archives)
        edges = graph(syms)
        short = short_names(sorted(syms))
        comps = [c for c in components(edges) if len(c) > 1]
        enforced = "all" in enforce or name in enforce
        bare = {o: short[o][:-2] if short[o].endswith(".c") else short[o] for o in short}
        listed = [c for c in comps if len(c) > args.max and
                  frozenset(bare[o] for o in c) in allowed.get(name, set())]
        largest = max((len(c) for c in comps if c not in listed), default=1)
        state = "enforced" if enforced else "reported only, not enforced yet"
        print(f"== {name}: {len(objs)} files and {len(syms) - len(objs)} members of "
              f"{len(archives)} static libraries, largest circle not listed {largest} "
              f"(allowed {args.max}; {state})")
        for c in sorted(comps, key=lambda c: (-len(c), c)):
            note = " (listed in the allowed circles, with its reason)" if c in listed else ""
            print(f"  circle of {len(c)}: {', '.join(short[o] for o in c)}{note}")
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
