#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Tests of `glmux manifest` and of `glmux check` without a file (docs/man/glmux.1).

  run_manifest.py GLMUX WORK_DIR

* `glmux manifest --vendor --egl --glx --drivers --priority` prints JSON that `glmux check`
  accepts with exactly those fields, and `glmux vendors` reads from a vendor directory;
* a GLX-only vendor (no --egl), a description with characters JSON must escape;
* bad options (no vendor, a bad name or driver, a priority out of range, an unknown option)
  are usage errors (exit 2) that print no manifest;
* `glmux check` with no FILE validates every *.json in the vendor directories
  (GLMUX_VENDOR_DIRS here) and finds their libraries (stand-ins in LD_LIBRARY_PATH): exit 0
  when all are valid, 1 naming file:line when one is not.
"""
import json
import os
import shutil
import sys

from clitest import check, failures, run
from elfstub import library_stub


def main():
    glmux, work = sys.argv[1], sys.argv[2]
    shutil.rmtree(work, ignore_errors=True)
    vdir = os.path.join(work, "vendors")
    os.makedirs(vdir)
    # The installed manifests' libraries, found where the loader looks (glmux check reads their
    # ELF headers): stand-ins of this machine in LD_LIBRARY_PATH.
    libs = os.path.join(work, "lib")
    os.makedirs(libs)
    for name in ("libEGL_mesa.so.0", "libGLX_mesa.so.0", "libGLX_glxonly.so.0"):
        with open(os.path.join(libs, name), "wb") as f:
            f.write(library_stub(glmux))
    installed = {"GLMUX_VENDOR_DIRS": vdir, "LD_LIBRARY_PATH": libs}

    r = run([glmux, "manifest", "--vendor", "mesa", "--egl", "libEGL_mesa.so.0",
             "--glx", "libGLX_mesa.so.0", "--drivers", "i915,xe", "--priority", "50"])
    check(r.returncode == 0 and r.stderr == "", "manifest exits 0 (%s)" % r.stderr.strip())
    try:
        m = json.loads(r.stdout)
    except ValueError:
        m = {}
    check(m.get("file_format_version") == "1.0.0" and
          m.get("ICD", {}).get("library_path") == "libEGL_mesa.so.0", "libglvnd keys")
    v = m.get("vendor", {})
    check(v == {"format_version": 1, "name": "mesa", "glx_library_path": "libGLX_mesa.so.0",
                "drivers": ["i915", "xe"], "priority": 50}, "vendor object: %s" % v)
    path = os.path.join(vdir, "50_mesa.json")
    with open(path, "w") as f:
        f.write(r.stdout)
    r = run([glmux, "check", path], {"LD_LIBRARY_PATH": libs})
    check(r.returncode == 0 and "vendor \"mesa\"" in r.stdout and "drivers i915 xe" in r.stdout
          and "priority 50" in r.stdout and r.stderr == "",
          "glmux check accepts it: %s%s" % (r.stdout.strip(), r.stderr.strip()))
    r = run([glmux, "vendors", "--json", "--no-load"], {"GLMUX_VENDOR_DIRS": vdir})
    found = [x for x in json.loads(r.stdout).get("vendors", [])] if r.returncode == 0 else []
    check(len(found) == 1 and found[0]["name"] == "mesa" and found[0]["drivers"] == ["i915", "xe"],
          "glmux vendors reads it from a vendor directory")

    r = run([glmux, "manifest", "--vendor", "glxonly", "--glx", "libGLX_glxonly.so.0",
             "--description", 'quote " and \\ backslash'])
    m = json.loads(r.stdout) if r.returncode == 0 else {}
    check("ICD" not in m and m.get("vendor", {}).get("description") == 'quote " and \\ backslash'
          and "drivers" not in m.get("vendor", {}) and m["vendor"]["priority"] == 50,
          "GLX-only vendor, escaped description, default priority, no driver list")
    with open(os.path.join(vdir, "50_glxonly.json"), "w") as f:
        f.write(r.stdout)

    for args, what in ((["--egl", "x.so"], "no --vendor"),
                       (["--vendor", "a b", "--egl", "x.so"], "bad vendor name"),
                       (["--vendor", "a"], "no library"),
                       (["--vendor", "a", "--egl", "x", "--drivers", "i915,,x/y"], "bad driver"),
                       (["--vendor", "a", "--egl", "x", "--priority", "1000"], "priority 1000"),
                       (["--vendor", "a", "--egl", "x", "--priority", "-1"], "priority -1"),
                       (["--vendor", "a", "--egl", "x", "--frob"], "unknown option"),
                       (["--vendor"], "missing value")):
        r = run([glmux, "manifest"] + args)
        check(r.returncode == 2 and r.stdout == "" and "glmux: manifest" in r.stderr,
              "usage error, nothing printed: %s" % what)

    r = run([glmux, "check"], installed)
    check(r.returncode == 0 and r.stdout.count(": ok:") == 2,
          "check without FILE validates the two installed manifests: %s%s" % (r.stdout.strip(),
                                                                           r.stderr.strip()))
    with open(os.path.join(vdir, "60_broken.json"), "w") as f:
        f.write('{\n  "file_format_version": "1.0.0",\n  "ICD": { "library_path": 3 }\n}\n')
    r = run([glmux, "check"], installed)
    check(r.returncode == 1 and "60_broken.json:3: error:" in r.stderr and
          r.stdout.count(": ok:") == 2, "a broken installed manifest fails check: %s" %
          r.stderr.strip())
    empty = os.path.join(work, "empty")
    os.makedirs(empty)
    r = run([glmux, "check"], {"GLMUX_VENDOR_DIRS": empty})
    check(r.returncode == 0 and "no manifest found" in r.stderr, "no manifest: said, exit 0")
    print("%d failure(s)" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
