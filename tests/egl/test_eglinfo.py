#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs Mesa's eglinfo through glmux's libEGL.so.1 and checks that it reports Mesa's
surfaceless platform and that the dynamic loader really used our libraries.

  test_eglinfo.py EGLINFO LIBDIR...

Exit 0 pass, 1 fail, 77 skip (Mesa's EGL vendor not installed).
"""
import os
import re
import subprocess
import sys
import tempfile


def main():
    eglinfo, libdirs = sys.argv[1], sys.argv[2:]
    if not os.path.exists("/usr/share/glvnd/egl_vendor.d/50_mesa.json"):
        print("skipped: Mesa's EGL vendor is not installed (apt-get install libegl-mesa0)")
        return 77
    env = dict(os.environ)
    env["LD_LIBRARY_PATH"] = ":".join(libdirs + [env.get("LD_LIBRARY_PATH", "")]).rstrip(":")
    env["LD_DEBUG"] = "libs"
    env["GLMUX_DEBUG"] = "vendor"
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)
    # A runtime directory of its own when none is set, removed again: a suite leaves nothing.
    with tempfile.TemporaryDirectory(prefix="glmux-eglinfo-") as runtime:
        env.setdefault("XDG_RUNTIME_DIR", runtime)
        proc = subprocess.run([eglinfo], env=env, capture_output=True, text=True, timeout=300)
    out, err = proc.stdout, proc.stderr
    ok = True

    # Which libEGL/libGLdispatch did ld.so initialise?
    # The whole rest of the line: a build directory's path may hold spaces.
    inits = re.findall(r"calling init: (.+)$", err, re.M)
    for soname in ("libEGL.so.1", "libGLdispatch.so.0"):
        paths = [p for p in inits if os.path.basename(p).startswith(soname)]
        ours = [p for p in paths if any(os.path.realpath(p).startswith(os.path.realpath(d))
                                        for d in libdirs)]
        print(f"{soname}: {paths}")
        if not paths or len(ours) != len(paths):
            print(f"FAIL: {soname} did not come (only) from {libdirs}")
            ok = False
    if "loaded EGL vendor libEGL_mesa.so.0" not in err:
        print("FAIL: glmux's libEGL did not report loading libEGL_mesa.so.0")
        ok = False

    # Mesa's surfaceless platform, served through us.
    section = out.split("Surfaceless platform:", 1)
    if len(section) != 2:
        print("FAIL: no 'Surfaceless platform:' section in eglinfo's output")
        ok = False
    else:
        body = section[1].split(" platform:", 1)[0]
        if "EGL vendor string: Mesa Project" not in body or "eglInitialize failed" in body:
            print("FAIL: the surfaceless platform did not initialise with Mesa")
            ok = False
    client = out.split("EGL client extensions string:", 1)[-1].split("platform:", 1)[0]
    if "EGL_MESA_platform_surfaceless" not in client or "EGL_KHR_debug" not in client:
        print("FAIL: client extensions lack EGL_MESA_platform_surfaceless or EGL_KHR_debug")
        ok = False
    print(out[:3000])
    if not ok:
        print("stderr (filtered):")
        print("\n".join(l for l in err.splitlines() if "glmux" in l or "calling init" in l))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
