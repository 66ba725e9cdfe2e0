#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Packaging test: the build reads no file of the packages glmux produces.

  check_build_inputs.py SOURCE_DIR BUILD_DIR

glmux replaces libgl-dev, libegl-dev, libgles-dev, libglx-dev, libopengl-dev, libglvnd-dev and
libglvnd-core-dev, so a distribution that ships glmux must be able to build it without them.
This reads every header each object file of BUILD_DIR was compiled with (the compiler's
dependency lists: `ninja -t deps`, or the .d files of a Makefiles build) and fails when one is
owned (dpkg -S) by those packages. The objects that compare glmux with Debian's libglvnd on
purpose (the ABI layout tests, which are left out when Debian's header is absent) are the only
exception. It also checks that the generated Khronos headers were the ones used, and that
debian/control does not build-depend on the produced packages.
"""
import os
import re
import subprocess
import sys

PRODUCED = {"libgl-dev", "libegl-dev", "libgles-dev", "libglx-dev", "libopengl-dev",
            "libglvnd-dev", "libglvnd-core-dev"}
REFERENCE_OBJECTS = re.compile(r"abi_layout")   # tests that read Debian's header on purpose


def deps(build):
    """object -> list of absolute dependency paths."""
    out = {}
    if os.path.exists(os.path.join(build, "build.ninja")):
        text = subprocess.run(["ninja", "-C", build, "-t", "deps"], capture_output=True,
                              text=True, check=True).stdout
        obj = None
        for line in text.splitlines():
            if line and not line[0].isspace():
                obj = line.split(":", 1)[0]
                out[obj] = []
            elif line.strip().startswith("/") and obj:
                out[obj].append(line.strip())
        return out
    for root, _, files in os.walk(build):
        for f in files:
            if f.endswith(".o.d"):
                with open(os.path.join(root, f)) as fh:
                    text = fh.read().replace("\\\n", " ")
                target, _, rest = text.partition(":")
                out[os.path.relpath(os.path.join(root, f[:-2]), build)] = \
                    [p for p in rest.split() if p.startswith("/")]
    return out


def main():
    src, build = (os.path.abspath(a) for a in sys.argv[1:3])
    table = deps(build)
    if not table:
        print(f"FAIL: no dependency information in {build}")
        return 1
    system = sorted({p for ps in table.values() for p in ps
                     if not p.startswith((src + "/", build + "/"))})
    owners = {}
    if system:
        r = subprocess.run(["dpkg-query", "-S"] + system, capture_output=True, text=True)
        for line in r.stdout.splitlines():
            pkgs, _, path = line.partition(": ")
            owners[path] = {p.split(":")[0].strip() for p in pkgs.split(",")}
    failures = 0
    for obj, paths in sorted(table.items()):
        for p in paths:
            bad = owners.get(p, set()) & PRODUCED
            if bad and not REFERENCE_OBJECTS.search(obj):
                print(f"FAIL: {obj} reads {p} of {', '.join(sorted(bad))}")
                failures += 1
    khr = os.path.join(build, "khronos-include") + "/"
    used = sorted({p for ps in table.values() for p in ps if p.startswith(khr)})
    if not used:
        print(f"FAIL: no object was compiled with the generated headers in {khr}")
        failures += 1
    control = os.path.join(src, "packaging", "debian", "control")
    with open(control) as f:
        text = f.read()
    bd = re.search(r"^Build-Depends:(.*?)^\S", text, re.S | re.M).group(1)
    named = {re.split(r"[\s(\[<]", d.strip())[0] for d in bd.split(",") if d.strip()}
    if named & PRODUCED:
        print(f"FAIL: debian/control build-depends on {', '.join(sorted(named & PRODUCED))}")
        failures += 1
    print(f"{len(table)} objects, {len(system)} system files read, {len(used)} generated "
          f"Khronos headers used; {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
