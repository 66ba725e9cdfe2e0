#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""glmux tests: the selector's variables are ignored in a secure-execution process.

GLMUX_VENDOR_DIRS is ignored when setuid; so are the GPU requests (GLMUX_GPU,
DRI_PRIME, __NV_PRIME_RENDER_OFFLOAD), GLMUX_DRIVER_VENDORS and libglvnd's
__EGL_VENDOR_LIBRARY_* (hybrid-gpus.md, "All the variables"). The glmux tool reads them through
the same glmux_select code as libEGL and libGLX, so a copy of it with a file capability (which
sets AT_SECURE, as setuid does) shows what a secure process sees. A plain run with the same
environment first proves that the variables do take effect otherwise.

  run_secure.py GLMUX WORKDIR VENDORS_DIR

Exit 0 pass, 1 fail, 77 skip (no setcap, not root, no setpriv, or no xattr support).
"""
import json
import os
import shutil
import subprocess
import sys


def run(cmd, env):
    r = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=60)
    try:
        return r.returncode, json.loads(r.stdout), r.stderr
    except ValueError:
        return r.returncode, None, r.stdout + r.stderr


def main():
    glmux, work, vendors = sys.argv[1:4]
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("GLMUX_", "__NV_", "__EGL_", "__GLX_", "DRI_PRIME", "DISPLAY"))}
    env.update(GLMUX_VENDOR_DIRS=vendors, DRI_PRIME="1", GLMUX_GPU="discrete",
               __NV_PRIME_RENDER_OFFLOAD="1", GLMUX_DRIVER_VENDORS="i915=nvidia")
    failures = []

    def check(cond, what):
        print(("ok   " if cond else "FAIL ") + what)
        if not cond:
            failures.append(what)

    # Control: an ordinary process honours every variable.
    rc, out, err = run([glmux, "vendors", "--json", "--no-load"], env)
    check(rc == 0 and out is not None and out["dirs"] == [vendors],
          "ordinary process: GLMUX_VENDOR_DIRS replaces the directory list" +
          ("" if out else " (%s)" % err))
    rc, out, err = run([glmux, "explain", "--json"], env)
    check(rc == 0 and out is not None and out["request"] is not None
          and out["request"]["variable"] == "__NV_PRIME_RENDER_OFFLOAD",
          "ordinary process: __NV_PRIME_RENDER_OFFLOAD asks for a GPU (over DRI_PRIME and "
          "GLMUX_GPU)" + ("" if out else " (%s)" % err))

    setcap = shutil.which("setcap") or "/usr/sbin/setcap"
    if not os.path.exists(setcap):
        print("skipped: setcap is not installed (apt-get install libcap2-bin)")
        return 77 if not failures else 1
    os.makedirs(work, exist_ok=True)
    copy = os.path.join(work, "glmux_secure")
    shutil.copy2(glmux, copy)
    r = subprocess.run([setcap, "cap_net_bind_service=ep", copy], capture_output=True, text=True)
    if r.returncode != 0:
        print("skipped: setcap failed (it needs root and a file system with xattrs): " +
              r.stderr.strip())
        return 77 if not failures else 1
    cmd = [copy]
    if os.geteuid() == 0:
        # Root gains nothing from a file capability, so AT_SECURE would stay 0: run as nobody.
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            print("skipped: running as root, and setpriv (util-linux) is missing")
            return 77 if not failures else 1
        os.chmod(work, 0o755)
        os.chmod(copy, 0o755)
        cmd = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", "--", copy]

    rc, out, err = run(cmd + ["vendors", "--json", "--no-load"], env)
    check(rc == 0 and out is not None and vendors not in out["dirs"] and out["dirs"],
          "secure process: GLMUX_VENDOR_DIRS ignored, the built-in list searched (%s)"
          % (out["dirs"] if out else err))
    rc, out, err = run(cmd + ["explain", "--json"], env)
    check(rc == 0 and out is not None and out["request"] is None,
          "secure process: GLMUX_GPU, DRI_PRIME and __NV_PRIME_RENDER_OFFLOAD ignored (%s)"
          % (out["request"] if out else err))
    print("%d failure(s)" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
