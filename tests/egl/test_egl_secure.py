#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Secure execution: a copy of egl_bad_input with a file capability runs with AT_SECURE set,
so libEGL must ignore __EGL_VENDOR_LIBRARY_FILENAMES / __EGL_VENDOR_LIBRARY_DIRS (libglvnd
only checks uid/euid and gid/egid, which a capability does not change).

  test_egl_secure.py EGL_BAD_INPUT WORKDIR

Exit 0 pass, 1 fail, 77 skip (no setcap, not root, or no xattr support).
"""
import os
import shutil
import subprocess
import sys


def main():
    prog, work = sys.argv[1], sys.argv[2]
    setcap = shutil.which("setcap") or "/usr/sbin/setcap"
    if not os.path.exists(setcap):
        print("skipped: setcap is not installed (apt-get install libcap2-bin)")
        return 77
    os.makedirs(work, exist_ok=True)
    copy = os.path.join(work, "egl_bad_input_secure")
    shutil.copy2(prog, copy)
    r = subprocess.run([setcap, "cap_net_bind_service=ep", copy], capture_output=True,
                       text=True)
    if r.returncode != 0:
        print("skipped: setcap failed (it needs root and a file system with xattrs): " +
              r.stderr.strip())
        return 77
    cmd = [copy, "--secure"]
    if os.geteuid() == 0:
        # Root gains no capability from the file, so AT_SECURE would stay 0: drop to nobody.
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            print("skipped: running as root, and setpriv (util-linux) is missing")
            return 77
        os.chmod(work, 0o755)
        cmd = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", "--"] + cmd
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    print(r.stdout + r.stderr)
    return r.returncode


if __name__ == "__main__":
    sys.exit(main())
