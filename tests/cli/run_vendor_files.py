#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""glmux tests: bad vendor files are reported, never skipped silently.

  run_vendor_files.py GLMUX GOOD_EGL_LIBRARY WORK_DIR [EGL_PROGRAM]

A vendor directory is built with one good manifest (GOOD_EGL_LIBRARY, a shared object with
__egl_Main) and bad ones: libraries that are missing (a path, a bare name), a text file, a
library of the other class, one of another machine, an executable, a FIFO and a directory named
*.json. Then:
* `glmux check` over the directory (GLMUX_VENDOR_DIRS) reports each bad file as an error (the
  library's problem read from its ELF header; nothing is loaded), says "ok" only for the good
  one and exits 1;
* `glmux check FILE`: a missing library is a warning (exit 0), a wrong class an error (exit 1);
* with __EGL_VENDOR_LIBRARY_FILENAMES set, `glmux check` checks the files it names;
* without GLMUX_DEBUG, `glmux gpus` warns once about the FIFO and the directory (discovery in
  the tool's own copy of the selector), and an EGL program (EGL_PROGRAM, tests/egl's
  egl_bad_input, given only the bad files) warns once per bad file, libraries that cannot be
  loaded included: at most 8 of each kind by name, then one line with the count.
Exit 0 pass, 1 fail.
"""
import os
import shutil
import sys

from clitest import check, failures, run
from elfstub import elf_header, program_ident


def manifest(path, library):
    with open(path, "w") as f:
        f.write('{"file_format_version": "1.0.0", "ICD": {"library_path": "%s"}}\n' % library)


def main():
    glmux, good, work = sys.argv[1:4]
    egl_program = sys.argv[4] if len(sys.argv) > 4 else None
    shutil.rmtree(work, ignore_errors=True)
    vdir, lib = os.path.join(work, "vendors"), os.path.join(work, "lib")
    os.makedirs(vdir)
    os.makedirs(lib)

    # The class, byte order and machine of the glmux binary (the target's, in a cross build).
    cls, data, machine = program_ident(glmux)
    # The other class: i386 next to x86-64, else the same machine number.
    other_cls, class_machine = (1, 3) if (cls, machine) == (2, 62) else (3 - cls, machine)
    other_machine = 183 if machine != 183 else 62   # AArch64, or x86-64 on AArch64
    with open(os.path.join(lib, "libEGL_text.so.0"), "w") as f:
        f.write("not a library\n")
    for name, header in (("libEGL_class.so.0", elf_header(other_cls, data, 3, class_machine)),
                         ("libEGL_machine.so.0", elf_header(cls, data, 3, other_machine)),
                         ("libEGL_exec.so.0", elf_header(cls, data, 2, machine))):
        with open(os.path.join(lib, name), "wb") as f:
            f.write(header)

    manifest(os.path.join(vdir, "10_good.json"), good)
    bad = {
        "20_missing.json": ("/nonexistent/libEGL_missing.so.0",
                            "is missing: cannot open: No such file or directory"),
        "21_unknown.json": ("libEGL_glmuxnosuchvendor.so.0",
                            "is missing: not found where the dynamic loader looks"),
        "30_text.json": (os.path.join(lib, "libEGL_text.so.0"),
                         "cannot be loaded: not an ELF file"),
        "31_class.json": (os.path.join(lib, "libEGL_class.so.0"),
                          "cannot be loaded: it is %d-bit" % (32 if other_cls == 1 else 64)),
        "32_machine.json": (os.path.join(lib, "libEGL_machine.so.0"),
                            "cannot be loaded: it is "),
        "33_exec.json": (os.path.join(lib, "libEGL_exec.so.0"),
                         "cannot be loaded: not a shared library (ELF type executable)"),
    }
    for name, (library, _) in bad.items():
        manifest(os.path.join(vdir, name), library)
    os.mkfifo(os.path.join(vdir, "50_fifo.json"))
    os.mkdir(os.path.join(vdir, "51_dir.json"))
    specials = {"50_fifo.json": "not a regular file (a FIFO)",
                "51_dir.json": "not a regular file (a directory)"}

    # glmux check over the installed directory.
    r = run([glmux, "check"], {"GLMUX_VENDOR_DIRS": vdir})
    print(r.stdout + r.stderr)
    check(r.returncode == 1, "check over the directory exits 1 (got %d)" % r.returncode)
    check(not r.stderr.startswith("glmux: "), "check reports each file once, not the log too")
    oks = [l for l in r.stdout.splitlines() if ": ok: " in l]
    check(len(oks) == 1 and "10_good.json: ok: " in oks[0], "only the good manifest is ok")
    for name, (library, why) in bad.items():
        line = "%s: error: EGL library %s %s" % (os.path.join(vdir, name), library, why)
        check(line in r.stderr, "check: %s" % line)
    for name, why in specials.items():
        check("%s: error: %s" % (os.path.join(vdir, name), why) in r.stderr,
              "check: %s is %s" % (name, why))

    # glmux check FILE: a missing library may be installed later (a warning); a broken one not.
    r = run([glmux, "check", os.path.join(vdir, "21_unknown.json")])
    check(r.returncode == 0 and ": warning: EGL library libEGL_glmuxnosuchvendor.so.0 is missing"
          in r.stderr and "(not found here)" in r.stdout,
          "check FILE: missing library is a warning: %s%s" % (r.stdout, r.stderr))
    r = run([glmux, "check", os.path.join(vdir, "31_class.json")])
    check(r.returncode == 1 and ": error: EGL library" in r.stderr and ": ok: " not in r.stdout,
          "check FILE: wrong class is an error")

    # __EGL_VENDOR_LIBRARY_FILENAMES names the files: glmux check checks those.
    files = "%s:%s" % (os.path.join(vdir, "10_good.json"), os.path.join(vdir, "20_missing.json"))
    r = run([glmux, "check"], {"__EGL_VENDOR_LIBRARY_FILENAMES": files})
    check(r.returncode == 1 and "10_good.json: ok: " in r.stdout and
          "20_missing.json: error: EGL library" in r.stderr,
          "check with __EGL_VENDOR_LIBRARY_FILENAMES: %s%s" % (r.stdout, r.stderr))
    r = run([glmux, "check"], {"__EGL_VENDOR_LIBRARY_FILENAMES": os.path.join(vdir, "10_good.json")})
    check(r.returncode == 0 and r.stdout.count(": ok: ") == 1,
          "check with __EGL_VENDOR_LIBRARY_FILENAMES naming a good file")

    # The tool's discovery warns about the FIFO and the directory at the default level, once.
    r = run([glmux, "gpus"], {"GLMUX_VENDOR_DIRS": vdir})
    for name, why in specials.items():
        n = r.stderr.count("%s:0: error: %s" % (os.path.join(vdir, name), why))
        check(n == 1, "glmux gpus warns once about %s (%d times): %s" % (name, n, r.stderr))

    if egl_program is None:
        print("%d failure(s) (the EGL program was not built: its part is left out)" % len(failures))
        return 1 if failures else 0

    # An EGL program, no GLMUX_DEBUG, only the bad files: one warning for each.
    bdir = os.path.join(work, "bad-only")
    os.makedirs(bdir)
    for name in list(bad) + list(specials):
        os.rename(os.path.join(vdir, name), os.path.join(bdir, name))
    log = os.path.join(work, "egl.log")
    r = run([egl_program, "--empty", "cannot be loaded"],
            {"__EGL_VENDOR_LIBRARY_DIRS": bdir, "GLMUX_DEBUG_FILE": log})
    text = open(log).read() if os.path.exists(log) else ""
    print(r.stdout + r.stderr + text)
    check(r.returncode == 0, "the EGL program ran (%d)" % r.returncode)
    for name, (library, _) in bad.items():
        n = text.count("EGL vendor library %s " % library)
        check(n == 1, "EGL warns once about %s (%d times)" % (library, n))
    for name, why in specials.items():
        n = text.count("%s:0: error: %s" % (os.path.join(bdir, name), why))
        check(n == 1, "EGL warns once about %s (%d times)" % (name, n))
    check("trying EGL vendor" not in text, "the default level only")

    # Rate limits: 12 unreadable manifests, 12 libraries that cannot be loaded.
    many = os.path.join(work, "many")
    os.makedirs(many)
    for i in range(12):
        os.mkfifo(os.path.join(many, "%02d_fifo.json" % i))
        manifest(os.path.join(many, "%02d_gone.json" % (i + 20)), "/nonexistent/libEGL_%d.so" % i)
    os.unlink(log)
    r = run([egl_program, "--empty", "cannot be loaded"],
            {"__EGL_VENDOR_LIBRARY_DIRS": many, "GLMUX_DEBUG_FILE": log})
    text = open(log).read() if os.path.exists(log) else ""
    print(text)
    check(text.count("not a regular file (a FIFO)") == 8 and
          "4 more vendor manifests skipped" in text, "at most 8 bad manifests named, then a count")
    check(text.count("EGL vendor library /nonexistent/libEGL_") == 8,
          "at most 8 unusable libraries named")
    print("%d failure(s)" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
