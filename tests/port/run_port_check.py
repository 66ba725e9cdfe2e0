#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""glmux tests: `glmux port-check` on fixtures.

  run_port_check.py GLMUX FIXTURES_DIR WORK_DIR

The committed tree (fixtures/tree) has GLX names in code, comments, strings, raw strings,
macros, a split identifier, a non-C file and a binary one; tree.expected lists the uses it must
report, in order. Files that cannot be read are made here in WORK_DIR (tests run as root, so
a dangling symbolic link, a FIFO, and a mode-000 file and directory read as user nobody).
Checks the text and --json outputs (the JSON parses and agrees with the text) and the exit
status: 0 no use, 1 uses, 2 usage error or unreadable path.
"""
import json
import os
import re
import shutil
import subprocess
import sys

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)
    return cond


def run(glmux, args, cwd=None, preexec=None, prefix=()):
    p = subprocess.run(list(prefix) + [glmux, "port-check"] + args, cwd=cwd, capture_output=True,
                       text=True, errors="replace", timeout=60)
    return p.returncode, p.stdout, p.stderr


def use_lines(out):
    return [m.group(1) for m in re.finditer(r"^(\S+:\d+:\d+: \S+)", out, re.M)]


def test_tree(glmux, fixtures):
    expected = open(os.path.join(fixtures, "tree.expected")).read().split("\n")
    expected = [e for e in expected if e]
    rc, out, err = run(glmux, ["fixtures/tree"], cwd=os.path.dirname(fixtures))
    print(out + err)
    got = use_lines(out)
    check(rc == 1, f"fixtures: exit status {rc}, expected 1 (uses found)")
    check(got == expected, "fixtures: uses differ from tree.expected:\n  got      " +
          "\n           ".join(got) + "\n  expected " + "\n           ".join(expected))
    check("notes.py" not in out and "README" not in out, "a file that is not C was scanned")
    check("blob.c: binary" in err, "the binary .c file was not reported as skipped")
    check(re.search(r"16 GLX uses \(13 distinct identifiers\) in 2 of 3 C/C\+\+ files scanned; "
                    r"3 other files skipped; 0 errors", out), "fixtures: summary line")
    check(re.search(r"^  total +16: 7 with a direct counterpart, 6 changed, 1 without, 2 unknown",
                    out, re.M), "fixtures: total line")
    check(re.search(r"^  function +6: 0 direct, 4 changed, 1 without a counterpart, 1 unknown",
                    out, re.M), "fixtures: per-kind line")
    line = [l for l in out.splitlines() if ": glXUseXFont -> " in l]
    check(line and "-> no counterpart: " in line[0], "glXUseXFont is not 'no counterpart'")
    line = [l for l in out.splitlines() if ": glXSwapIntervalEXT -> " in l]
    check(line and "-> eglSwapInterval (EGL 1.1; changed): " in line[0],
          "glXSwapIntervalEXT does not name eglSwapInterval")

    rc, jout, err = run(glmux, ["--json", "fixtures/tree"], cwd=os.path.dirname(fixtures))
    check(rc == 1, f"--json: exit status {rc}, expected 1")
    try:
        doc = json.loads(jout)
    except ValueError as e:
        check(False, f"--json output is not JSON: {e}\n{jout}")
        return
    uses = doc.get("uses", [])
    got = [f"{u['file']}:{u['line']}:{u['column']}: {u['identifier']}" for u in uses]
    check(got == expected, "--json: uses differ from the text output")
    keys = {"file", "line", "column", "identifier", "kind", "entry", "origin", "match", "egl",
            "requires", "note", "in_directive"}
    check(all(set(u) == keys for u in uses), "--json: a use lacks a key")
    check(all(isinstance(u["line"], int) and isinstance(u["in_directive"], bool) for u in uses),
          "--json: wrong types")
    by_id = {u["identifier"]: u for u in uses}
    u = by_id.get("glXUseXFont", {})
    check(u.get("match") == "none" and u.get("egl") is None, "--json: glXUseXFont")
    u = by_id.get("PFNGLXSWAPINTERVALEXTPROC", {})
    check(u.get("entry") == "glXSwapIntervalEXT" and u.get("kind") == "type", "--json: PFN type")
    u = by_id.get("GLX_ARB_create_context", {})
    check(u.get("in_directive") is True and u.get("kind") == "extension", "--json: #ifdef name")
    s = doc.get("summary", {})
    check(s.get("uses") == 16 and s.get("direct") == 7 and s.get("changed") == 6 and
          s.get("none") == 1 and s.get("unknown") == 2 and s.get("files_scanned") == 3 and
          s.get("files_skipped") == 3 and s.get("errors") == 0, f"--json: summary {s}")
    per_kind = s.get("by_kind", {})
    check(sum(k["uses"] for k in per_kind.values()) == 16, "--json: by_kind does not add up")
    check(doc.get("errors") == [], "--json: errors should be empty")


def test_status(glmux, fixtures):
    clean = os.path.join(fixtures, "tree", "sub", "clean.h")
    rc, out, err = run(glmux, [clean])
    check(rc == 0 and "0 GLX uses" in out, f"a file without GLX: exit {rc}, expected 0")
    rc, out, err = run(glmux, [])
    check(rc == 2 and "no PATH" in err, f"no PATH: exit {rc}, expected 2")
    rc, out, err = run(glmux, ["--frobnicate", clean])
    check(rc == 2 and "unknown option '--frobnicate'" in err, f"unknown option: exit {rc}")
    rc, out, err = run(glmux, ["/nonexistent/dir"])
    check(rc == 2 and "/nonexistent/dir: cannot access: No such file or directory" in err,
          f"missing path: exit {rc}, stderr {err!r}")
    notc = os.path.join(fixtures, "tree", "notes.py")
    rc, out, err = run(glmux, [notc])
    check(rc == 0 and "not a C or C++ source" in err and "glXSwapBuffers" not in out,
          f"explicit non-C file: exit {rc}, stderr {err!r}")
    rc, out, err = run(glmux, ["--", clean])
    check(rc == 0, f"'--' before PATH: exit {rc}")


def test_unreadable(glmux, work):
    d = os.path.join(work, "unreadable")
    os.makedirs(d)
    with open(os.path.join(d, "ok.c"), "w") as f:
        f.write("void f(void) { glXWaitGL(); }\n")
    os.symlink(os.path.join(d, "missing.c"), os.path.join(d, "gone.c"))
    os.symlink(os.path.join(d, "missing.txt"), os.path.join(d, "gone.txt"))  # not C: ignored
    os.mkfifo(os.path.join(d, "pipe.c"))
    os.mkfifo(os.path.join(d, "pipe.txt"))  # not C: ignored
    rc, out, err = run(glmux, [d, os.path.join(d, "pipe.c")])
    print(out + err)
    check(rc == 2, f"unreadable files: exit {rc}, expected 2")
    check(f"{d}/gone.c: a symbolic link to nothing (No such file or directory); not scanned" in err,
          "the dangling symbolic link is not reported clearly")
    check(err.count(f"{d}/pipe.c: a FIFO, not a regular file; not scanned") == 2,
          "the FIFO is not reported clearly (in the tree and as an argument)")
    check("gone.txt" not in err and "pipe.txt" not in err, "a non-C special file was reported")
    check(f"{d}/ok.c:1:16: glXWaitGL -> eglWaitClient" in out, "the readable file was not scanned")
    check("3 errors" in out, "the summary does not count the errors")
    rc, jout, err = run(glmux, ["--json", d])
    try:
        doc = json.loads(jout)
        check(rc == 2 and len(doc["errors"]) == 2 and doc["summary"]["errors"] == 2 and
              {e["path"] for e in doc["errors"]} == {f"{d}/gone.c", f"{d}/pipe.c"},
              f"--json errors: {doc.get('errors')}")
    except (ValueError, KeyError) as e:
        check(False, f"--json with errors: {e}")

    # Permission denied: only real for another user when we are root.
    locked = os.path.join(work, "locked")
    os.makedirs(os.path.join(locked, "closed"))
    with open(os.path.join(locked, "secret.c"), "w") as f:
        f.write("int glXSecret;\n")
    with open(os.path.join(locked, "closed", "inner.c"), "w") as f:
        f.write("int glXInner;\n")
    os.chmod(os.path.join(locked, "secret.c"), 0)
    os.chmod(os.path.join(locked, "closed"), 0)
    prefix = ()
    if os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            print("note: setpriv is missing; the permission case is skipped")
            return
        os.chmod(work, 0o755)
        prefix = (setpriv, "--reuid=nobody", "--regid=nogroup", "--clear-groups", "--")
    rc, out, err = run(glmux, [locked], prefix=prefix)
    print(out + err)
    check(rc == 2, f"permission denied: exit {rc}, expected 2")
    check(f"{locked}/secret.c: cannot open: Permission denied" in err,
          "the unreadable file is not reported clearly")
    check(f"{locked}/closed: cannot read the directory: Permission denied" in err,
          "the unreadable directory is not reported clearly")
    os.chmod(os.path.join(locked, "closed"), 0o755)
    os.chmod(os.path.join(locked, "secret.c"), 0o644)


def test_late_nul(glmux, work):
    """A NUL byte past the first 4 KiB still makes the file binary: before,
    only the first 4,096 bytes were looked at, and `#include <GL/glx.h\\0...>` was reported as
    GL/glx.h."""
    d = os.path.join(work, "late-nul")
    os.makedirs(d)
    path = os.path.join(d, "late.c")
    with open(path, "wb") as f:
        f.write(b"int x;\n" * 700 + b"#include <GL/glx.h\0tail>\nvoid f(void) { glXWaitGL(); }\n")
    rc, out, err = run(glmux, [path])
    check(rc == 0 and "late.c: binary (a NUL byte); skipped" in err and "GL/glx.h" not in out,
          f"a NUL byte after 4 KiB: exit {rc}, stdout {out!r}, stderr {err!r}")


def main():
    glmux, fixtures, work = sys.argv[1:4]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    test_tree(glmux, fixtures)
    test_status(glmux, fixtures)
    test_unreadable(glmux, work)
    test_late_nul(glmux, work)
    if failures:
        print(f"{len(failures)} check(s) failed")
        return 1
    shutil.rmtree(work, ignore_errors=True)
    print("ok: port-check fixtures")
    return 0


if __name__ == "__main__":
    sys.exit(main())
