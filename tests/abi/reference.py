#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The reference libglvnd that comparison tests hold glmux against, and a guard that skips them.

A reference library is found the way the linker finds it: the compiler's answer to
-print-file-name=SONAME (/usr/lib/x86_64-linux-gnu on Debian, /usr/lib64 on Fedora, the target's
directory for a cross compiler). It must be libglvnd's: a file that carries the mark every glmux
library is built with (src/util/library_mark.c) is glmux's own build, e.g. an earlier glmux
package installed in place of libglvnd, and comparing glmux with itself proves nothing. A
reference header (libglvnd's glvnd/*.h) must likewise not be glmux's.

  reference.py --cc CC [--lib SONAME]... [--header PATH]... [-- COMMAND ARG...]

Without COMMAND: prints each reference path. With it: runs COMMAND with "{SONAME}" anywhere in
its arguments replaced by that library's path and "{SONAME:dir}" by its directory. Either way,
when a reference is missing or is glmux's, prints "SKIP: <why>" and exits 77.
"""
import os
import shlex
import subprocess
import sys

# Kept equal to the string of src/util/library_mark.c.
LIBRARY_MARK = b"glmux: vendor-neutral GL dispatch, not libglvnd"
HEADER_MARK = b"glmux"


def _is_glmux(path, mark):
    with open(path, "rb") as f:
        return mark in f.read()


def find_library(cc, soname):
    """(path, None) for libglvnd's SONAME as the compiler finds it, else (None, why not)."""
    # The compiler's path is one word though it may hold spaces; "gcc -m32" is a command line.
    argv = [cc] if os.path.isfile(cc) else shlex.split(cc)
    try:
        out = subprocess.run(argv + [f"-print-file-name={soname}"], capture_output=True,
                             text=True, check=False).stdout.strip()
    except OSError as e:
        return None, f"cannot run the compiler {cc}: {e}"
    if not os.path.isabs(out) or not os.path.exists(out):
        return None, (f"the compiler ({cc}) finds no {soname}: libglvnd's library, the reference "
                      f"of this comparison, is not installed (Debian: libglvnd0, libgl1, "
                      f"libopengl0, libglx0, libegl1, libgles*; Fedora: libglvnd-*)")
    path = os.path.realpath(out)
    if _is_glmux(path, LIBRARY_MARK):
        return None, (f"{out} is glmux's own {soname} (it carries glmux's mark), not libglvnd's: "
                      f"comparing glmux with itself proves nothing")
    return path, None


def check_header(path):
    """None when PATH is a libglvnd header, else why it cannot serve as the reference."""
    if not os.path.exists(path):
        return f"{path} is missing: libglvnd's headers (Debian: libglvnd-core-dev) are not installed"
    if _is_glmux(path, HEADER_MARK):
        return f"{path} is glmux's own header, not libglvnd's: comparing glmux with itself proves nothing"
    return None


def main(argv):
    cc, libs, headers, command = "cc", [], [], []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--":
            command = argv[i + 1:]
            break
        if a in ("--cc", "--lib", "--header") and i + 1 < len(argv):
            value = argv[i + 1]
            if a == "--cc":
                cc = value
            else:
                (libs if a == "--lib" else headers).append(value)
            i += 2
            continue
        print(f"usage: reference.py --cc CC [--lib SONAME]... [--header PATH]... [-- COMMAND...]"
              f" (bad argument {a!r})", file=sys.stderr)
        return 2
    found = {}
    for soname in libs:
        path, why = find_library(cc, soname)
        if path is None:
            print(f"SKIP: {why}")
            return 77
        found[soname] = path
    for header in headers:
        why = check_header(header)
        if why:
            print(f"SKIP: {why}")
            return 77
    if not command:
        for soname, path in found.items():
            print(f"{soname} {path}")
        return 0
    subst = {}
    for soname, path in found.items():
        subst["{" + soname + "}"] = path
        subst["{" + soname + ":dir}"] = os.path.dirname(path)
    for key, value in subst.items():
        command = [a.replace(key, value) for a in command]
    print("reference: " + ", ".join(f"{s} = {p}" for s, p in found.items()) +
          (", " if found and headers else "") + ", ".join(headers), flush=True)
    os.execvp(command[0], command)
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
