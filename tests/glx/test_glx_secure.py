#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""glmux GLX tests: libGLX ignores __GLX_FORCE_VENDOR_LIBRARY_<n> and __GLX_VENDOR_LIBRARY_NAME
in a secure-execution (AT_SECURE) process.

  test_glx_secure.py GLX_BAD_UNKNOWN FAKEA_LIBRARY WORKDIR

First the program runs plainly with both variables naming fakea and must get fakea (the
variables work). Then a copy of it that carries a file capability runs, which makes the kernel
set AT_SECURE, as for a setuid program; with the same variables it must get the server's vendor
(Mesa on Debian), not fakea. As root the copy is run as nobody, since root gains nothing from
a file capability. Exit 0 pass, 1 fail, 77 skip (no setcap, no xattrs, no setpriv as root).
"""
import os
import shutil
import subprocess
import sys


def run(cmd, env):
    r = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)
    print("$ " + " ".join(cmd) + "\n" + r.stdout + r.stderr)
    return r.returncode


def main():
    prog, fakea, work = sys.argv[1], sys.argv[2], sys.argv[3]
    env = dict(os.environ, __GLX_FORCE_VENDOR_LIBRARY_0="fakea",
               __GLX_VENDOR_LIBRARY_NAME="fakea")
    rc = run([prog, "secure", "forced", fakea], env)
    if rc != 0:
        return rc
    setcap = shutil.which("setcap") or "/usr/sbin/setcap"
    if not os.path.exists(setcap):
        print("skipped: setcap is not installed (apt-get install libcap2-bin)")
        return 77
    os.makedirs(work, exist_ok=True)
    copy = os.path.join(work, "glx_bad_unknown_secure")
    shutil.copy2(prog, copy)
    r = subprocess.run([setcap, "cap_net_bind_service=ep", copy], capture_output=True, text=True)
    if r.returncode != 0:
        print("skipped: setcap failed (it needs root and a file system with xattrs): " +
              r.stderr.strip())
        return 77
    cmd = [copy, "secure", "ignored", fakea]
    if os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            print("skipped: running as root, and setpriv (util-linux) is missing")
            return 77
        os.chmod(work, 0o755)
        cmd = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", "--"] + cmd
    return run(cmd, env)


if __name__ == "__main__":
    sys.exit(main())
