#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""glmux tests: "the display's GPU" through fake_x.py, the fake X server whose DRI3 names a GPU.

For each recorded machine where the display's GPU decides between two EGL vendors (Intel +
NVIDIA; a VM with virtio-gpu and a passed-through NVIDIA GPU) and each GPU an X server can run
on there (the iGPU, or the dGPU in reverse PRIME; virtio-gpu, or the passed-through GPU),
`glmux explain --json` runs under the bed with DISPLAY on the fake server, which answers DRI3Open
with that GPU's node; asserted: glmux names that GPU as the default display's, and it asked
through DRI3Open. Also an X server without DRI3 (like Xvfb): no GPU named. Then the text of
`glmux explain`, with nothing set and with DRI_PRIME=1 (text_problems): where each EGL vendor
renders is said under the default display's heading, for the display's GPU; in reverse PRIME
DRI_PRIME=1 takes Mesa to the Intel GPU, with no warning and no "cannot render" line; with X on
virtio-gpu it names the passed-through NVIDIA GPU, which Mesa cannot drive: a warning that
names `glmux run`. Skipped (77) without umockdev-run or without the right to make device nodes
(mknod, which needs root or CAP_MKNOD).
Usage: run_display.py GLMUX BEDS VENDOR_DIR WORK
"""
import os
import re
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from fake_x import FakeX, Screen  # noqa: E402
from prime_env import Setup  # noqa: E402

# bed: [(the display GPU's tag, its node's device number, the vendor the X server names)]. Only
# machines where the display's GPU changes which vendor serves (glmux need not ask otherwise).
DISPLAYS = {
    "intel-nvidia-rprime": [("pci-0000_00_02_0", (226, 129), "mesa"),
                            ("pci-0000_01_00_0", (226, 128), "nvidia")],
    "vm-passthrough": [("pci-0000_00_01_0", (226, 128), "mesa"),
                       ("pci-0000_01_00_0", (226, 129), "nvidia")],
}


def text_problems(setup, server, prefix, bed, tag, variables):
    """What is wrong in the text of `glmux explain` with the display on tag."""
    r = setup.run_text(setup.env(server.display, variables), prefix)
    lines = r.stdout.splitlines()
    problems = []
    heading = next((i for i, l in enumerate(lines)
                    if re.match(r"EGL default display: GPU (pci|platform)-", l)), None)
    views = [i for i, l in enumerate(lines) if re.match(r"\s+\S+ (renders on|cannot render on)",
                                                        l)]
    if tag is not None and heading is None:
        problems.append("no line for the default display's GPU")
    if heading is not None and any(i < heading for i in views):
        problems.append("where the vendors render is said above the display's heading")
    if heading is not None and not lines[heading].startswith("EGL default display: GPU %s " % tag):
        problems.append("the heading names another GPU: %s" % lines[heading])
    warned = "glmux run" in r.stderr
    if variables.get("DRI_PRIME") == "1" and tag is not None:
        # Mesa's rule, with the display's GPU as the default device: the other GPU.
        # (The NVIDIA GPU is pci-0000_01_00_0 on both machines: Mesa cannot drive it.)
        other = [t for t, _, _ in DISPLAYS[bed] if t != tag][0]
        mesa_can = other != "pci-0000_01_00_0"
        if mesa_can and (warned or any("mesa cannot render" in l for l in lines)):
            problems.append("a false warning or 'cannot render' line for DRI_PRIME=1")
        if not mesa_can and not warned:
            problems.append("no warning that DRI_PRIME=1 names a GPU Mesa cannot drive")
        if mesa_can and not any(l.strip().startswith("mesa renders on %s (DRI_PRIME)" % other)
                                for l in lines):
            problems.append("Mesa is not said to render on %s" % other)
        if any(re.match(r"\s+mesa needs DRI_PRIME=", l) for l in lines) and mesa_can:
            problems.append("Mesa, which DRI_PRIME=1 sends there, is said to need DRI_PRIME")
    return ["text: " + p for p in problems] + (["(text was: %r; stderr %r)" % (
        r.stdout, r.stderr)] if problems else [])


def main():
    glmux, beds, vendors, work = sys.argv[1:5]
    if shutil.which("umockdev-run") is None:
        print("skipped: umockdev-run not installed (apt-get install umockdev)")
        return 77
    os.makedirs(work, exist_ok=True)
    work = tempfile.mkdtemp(dir=work)
    server = FakeX(work, [Screen(None, "mesa")])
    if not server.can_mknod():
        print("skipped: cannot make device nodes here (%s)" % server.mknod_error)
        return 77
    setup = Setup(glmux, None, vendors, "", work)
    failures = runs = 0
    with server:
        for bed, displays in DISPLAYS.items():
            prefix = ["umockdev-run", "-d", os.path.join(beds, bed + ".umockdev"), "--"]
            for tag, dev, vendor in [(None, None, "mesa")] + displays:
                server.configure([Screen(dev, vendor)])
                before = server.dri3_opens
                out, r = setup.explain(setup.env(server.display, {}), prefix)
                runs += 1
                got = ((out or {}).get("default_display") or {}).get("gpu")
                problems = []
                if out is None:
                    problems.append("no JSON (exit %d): %s" % (r.returncode, r.stderr.strip()))
                elif got != tag:
                    problems.append("the default display's GPU is %s" % got)
                if tag is not None and server.dri3_opens == before:
                    problems.append("glmux did not ask DRI3Open")
                what = "%s, X on %s" % (bed, tag or "a server without DRI3")
                for variables in ({}, {"DRI_PRIME": "1"}):
                    problems += text_problems(setup, server, prefix, bed, tag, variables)
                if problems:
                    failures += 1
                    print("FAIL %s: %s" % (what, "; ".join(problems)))
                else:
                    print("ok   %s: %s" % (what, got))
    shutil.rmtree(work, ignore_errors=True)
    print("%d run(s), %d failure(s)" % (runs, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
