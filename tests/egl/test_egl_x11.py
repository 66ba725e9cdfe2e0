#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Starts a private Xvfb on a free display number, runs the egl_x11 test program against it
and stops the server.

  test_egl_x11.py PROGRAM

Exit: the program's status; 77 when Xvfb is not installed.
"""
import os
import shutil
import subprocess
import sys
import time


def free_display():
    for n in range(60, 200):
        if not os.path.exists(f"/tmp/.X{n}-lock") and \
           not os.path.exists(f"/tmp/.X11-unix/X{n}"):
            return n
    return None


def main():
    prog = sys.argv[1]
    xvfb = shutil.which("Xvfb")
    if xvfb is None:
        print("skipped: Xvfb is not installed (apt-get install xvfb)")
        return 77
    for _ in range(5):
        n = free_display()
        if n is None:
            break
        server = subprocess.Popen([xvfb, f":{n}", "-nolisten", "tcp", "-screen", "0",
                                   "64x64x24"], stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL)
        for _ in range(100):
            if os.path.exists(f"/tmp/.X11-unix/X{n}") or server.poll() is not None:
                break
            time.sleep(0.05)
        if server.poll() is None:
            break
    else:
        print("FAIL: could not start Xvfb")
        return 1
    try:
        env = dict(os.environ, DISPLAY=f":{n}")
        return subprocess.run([prog], env=env, timeout=120).returncode
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    sys.exit(main())
