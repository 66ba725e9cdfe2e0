#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""libEGL.so.1 must need exactly what Debian's does (libGLdispatch.so.0 and libc.so.6): in
particular no libX11, which libEGL only probes with dlopen(RTLD_NOLOAD).

  check_needed.py LIBRARY NEEDED...
"""
import subprocess
import sys


def main():
    lib, want = sys.argv[1], sys.argv[2:]
    out = subprocess.run(["readelf", "-d", lib], check=True, capture_output=True,
                         text=True).stdout
    have = [l.split("[", 1)[1].rstrip("]") for l in out.splitlines() if "(NEEDED)" in l]
    print(f"{lib}: NEEDED {have}")
    if have != want:
        print(f"FAIL: expected NEEDED {want}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
