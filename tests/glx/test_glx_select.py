#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""glmux GLX tests: libGLX's GPU-aware vendor choice on umockdev test beds.

Two fake GLX vendors, `mesa` and `nvidia` (tests/glx/fake_vendor.c), live in folders of a
test-local GLMUX_VENDOR_DIRS directory whose manifests name their GLX libraries by relative path
and list their kernel drivers; nothing is on LD_LIBRARY_PATH. For each bed and each variable a
user can set, `umockdev-run -d BED -- glx_select` makes a context of screen 0 of the fixture's
Xvfb current with glXMakeCurrent; the fake vendors record the environment they saw in
__glx_Main and which of them served glXMakeCurrent. The Xvfb's GLX names "mesa" as its vendor,
as an X server on an Intel (or virtio-gpu) display does; on the NVIDIA-only desktop bed the
server is still this Xvfb, so without a request the server's "mesa" serves there too.
Asserted: the vendor that served glXMakeCurrent, that every vendor saw exactly the variables
the case set (libGLX writes no environment), that each vendor loaded once,
that GPUs are enumerated only when a variable asks, manifests naming absolute paths, and
libGLX_<name>.so.0 on the linker path without any manifest (built-in driver table).
Every case also runs `glmux explain --json` under the same bed and environment and checks that
the tool and libGLX agree: screen 0's vendor (or, when the rule's vendor cannot be loaded, the
X server's "mesa").
Usage: test_glx_select.py PROGRAM GLMUX BEDS_DIR GPU_DIR WORK_DIR. Exit 0 pass, 77 skip, 1 fail.
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from select_driver import (D3, I, N1, OFFLOAD, SELECT_VARS, Report, Runner,  # noqa: E402
                           SkipTest, case_label, enumerated, parse_main, sampled)

SERVER_VENDOR = "mesa"          # what the fixture's Xvfb names
LOADABLE = ("mesa", "nvidia")   # the fake vendors that exist
NAME = "__GLX_VENDOR_LIBRARY_NAME"

# (bed, variables, vendor serving glXMakeCurrent). Whatever the case, each vendor sees exactly
# the GPU variables the case set: libGLX writes no environment (check_case asserts it).
CASES = [
    # Intel iGPU + NVIDIA dGPU laptop: the server (on Intel) names mesa. NVIDIA's own variable
    # moves the app to nvidia, which reads it; DRI_PRIME or GLMUX_GPU naming the NVIDIA GPU
    # cannot be passed on to NVIDIA's driver by a library: the server's vendor, one warning.
    ("intel-nvidia", {}, "mesa"),
    ("intel-nvidia", {"DRI_PRIME": "1"}, "mesa"),
    ("intel-nvidia", {"DRI_PRIME": N1}, "mesa"),
    ("intel-nvidia", {"DRI_PRIME": "10de:25a2"}, "mesa"),
    ("intel-nvidia", {"GLMUX_GPU": "discrete"}, "mesa"),
    ("intel-nvidia", OFFLOAD, "nvidia"),
    ("intel-nvidia", dict(OFFLOAD, GLMUX_GPU="integrated"), "nvidia"),
    ("intel-nvidia", {"GLMUX_GPU": "integrated"}, "mesa"),
    ("intel-nvidia", {"DRI_PRIME": I}, "mesa"),
    # libglvnd's override wins.
    ("intel-nvidia", dict(OFFLOAD, __GLX_VENDOR_LIBRARY_NAME="mesa"), "mesa"),
    ("intel-nvidia", {NAME: "nvidia"}, "nvidia"),
    # switcheroo-control's NVIDIA entry, whole.
    ("intel-nvidia", dict(OFFLOAD, __GLX_VENDOR_LIBRARY_NAME="nvidia",
                          __VK_LAYER_NV_optimus="NVIDIA_only"), "nvidia"),
    # An override that fails to load still keeps the selector out: the server decides, as
    # libglvnd does.
    ("intel-nvidia", dict(OFFLOAD, __GLX_VENDOR_LIBRARY_NAME="nosuch"), "mesa"),
    # NVIDIA-only desktop: the NVIDIA GPU is the default one, so no request moves anything;
    # the (Xvfb) server's vendor serves.
    ("nvidia-desktop", {}, "mesa"),
    ("nvidia-desktop", {"DRI_PRIME": "1"}, "mesa"),
    ("nvidia-desktop", {"DRI_PRIME": N1}, "mesa"),
    ("nvidia-desktop", {"DRI_PRIME": "10de:2684"}, "mesa"),
    ("nvidia-desktop", {"GLMUX_GPU": "discrete"}, "mesa"),
    ("nvidia-desktop", OFFLOAD, "mesa"),
    ("nvidia-desktop", {NAME: "nvidia"}, "nvidia"),
    # No GPU at all: the server's vendor.
    ("no-gpu", {}, "mesa"),
    ("no-gpu", {"DRI_PRIME": "1"}, "mesa"),
    ("no-gpu", {"DRI_PRIME": N1}, "mesa"),
    ("no-gpu", {"DRI_PRIME": "10de:25a2"}, "mesa"),
    ("no-gpu", {"GLMUX_GPU": "discrete"}, "mesa"),
    ("no-gpu", OFFLOAD, "mesa"),
    ("no-gpu", {NAME: "nvidia"}, "nvidia"),
    # A VM with virtio-gpu: Mesa serves it whatever is asked.
    ("vm-virtio", {}, "mesa"),
    ("vm-virtio", {"DRI_PRIME": "1"}, "mesa"),
    ("vm-virtio", {"DRI_PRIME": I}, "mesa"),
    ("vm-virtio", {"DRI_PRIME": "1af4:1050"}, "mesa"),
    ("vm-virtio", {"GLMUX_GPU": "discrete"}, "mesa"),
    ("vm-virtio", OFFLOAD, "mesa"),
    ("vm-virtio", {NAME: "nvidia"}, "nvidia"),
]

# The rest of the matrix: every bed under every variable. Two Mesa GPUs (AMD APU + AMD
# dGPU, Intel + AMD dGPU): Mesa serves either way and reads DRI_PRIME itself; the NVIDIA
# variable finds no NVIDIA GPU.
def _two_mesa(bed, pci_id):
    return [
        (bed, {}, "mesa"),
        (bed, {"DRI_PRIME": "1"}, "mesa"),
        (bed, {"DRI_PRIME": D3}, "mesa"),
        (bed, {"DRI_PRIME": pci_id}, "mesa"),
        (bed, {"GLMUX_GPU": "discrete"}, "mesa"),
        (bed, OFFLOAD, "mesa"),
        (bed, {"DRI_PRIME": "1", NAME: "nvidia"}, "nvidia"),
    ]


# An NVIDIA dGPU next to an AMD iGPU that drives the display: at a lower PCI address than the
# iGPU (dgpu-first), or with boot_display on the APU and no boot_vga anywhere (boot-display).
def _nvidia_dgpu(bed, pci_id):
    return [
        (bed, {}, "mesa"),
        (bed, {"DRI_PRIME": "1"}, "mesa"),
        (bed, {"DRI_PRIME": N1}, "mesa"),
        (bed, {"DRI_PRIME": pci_id}, "mesa"),
        (bed, {"GLMUX_GPU": "discrete"}, "mesa"),
        (bed, OFFLOAD, "nvidia"),
        (bed, dict(OFFLOAD, __GLX_VENDOR_LIBRARY_NAME="mesa"), "mesa"),
    ]


CASES += (_two_mesa("amd-amd", "1002:73ef") + _two_mesa("intel-amd", "1002:7340") +
          _nvidia_dgpu("dgpu-first", "10de:2860") + _nvidia_dgpu("boot-display", "10de:28a0"))

# An NVIDIA eGPU behind a Thunderbolt enclosure next to the Intel iGPU (egpu), and a VM whose
# boot VGA (QEMU's standard VGA, bochs-drm) cannot render next to a virtio-gpu-pci that can
# (vm-bochs-virtio): the virtio-gpu is the default.
E2E = "pci-0000_2e_00_0"
V4 = "pci-0000_00_04_0"
CASES += [
    ("egpu", {}, "mesa"),
    ("egpu", {"DRI_PRIME": "1"}, "mesa"),
    ("egpu", {"DRI_PRIME": E2E}, "mesa"),
    ("egpu", {"DRI_PRIME": "10de:2206"}, "mesa"),
    ("egpu", {"GLMUX_GPU": "discrete"}, "mesa"),
    ("egpu", OFFLOAD, "nvidia"),
    ("egpu", {"GLMUX_GPU": "integrated"}, "mesa"),
    ("vm-bochs-virtio", {}, "mesa"),
    ("vm-bochs-virtio", {"DRI_PRIME": "1"}, "mesa"),
    ("vm-bochs-virtio", {"DRI_PRIME": V4}, "mesa"),
    ("vm-bochs-virtio", {"DRI_PRIME": "1af4:1050"}, "mesa"),
    ("vm-bochs-virtio", OFFLOAD, "mesa"),
]

# Bad input and requests no vendor can be told about: the X server's vendor, exactly
# one warning.
BAD = [
    ("intel-nvidia", {"DRI_PRIME": "0"}, "mesa"),
    ("intel-nvidia", {"DRI_PRIME": "pci-0000_09_00_0"}, "mesa"),
    ("intel-nvidia", {"DRI_PRIME": "ffff:0001"}, "mesa"),
    ("intel-nvidia", {"DRI_PRIME": "1"}, "mesa"),
    ("intel-nvidia", {"GLMUX_GPU": "fastest"}, "mesa"),
    ("vm-virtio", {"GLMUX_GPU": "discrete"}, "mesa"),
    ("vm-bochs-virtio", {"GLMUX_GPU": "discrete"}, "mesa"),
    ("vm-bochs-virtio", {"DRI_PRIME": I}, "mesa"),
    ("no-gpu", {"DRI_PRIME": "1"}, "mesa"),
    # sysfs missing (a container without /sys): the X server's vendor.
    (None, {"DRI_PRIME": "1"}, "mesa"),
]

# A manifest naming its library by absolute path (abs/10_nvidia.json), the other by a path
# relative to another folder (abs/50_mesa.json).
ABS = [
    ("intel-nvidia", {}, "mesa"),
    ("intel-nvidia", OFFLOAD, "nvidia"),
]

# Mesa alone (gpu/solo): a request for the NVIDIA GPU finds no vendor for it; one warning, the
# default GPU's.
SOLO = [
    ("intel-nvidia", {}, "mesa"),
    ("intel-nvidia", {"DRI_PRIME": "1"}, "mesa"),
    ("intel-nvidia", OFFLOAD, "mesa"),
]

# No manifest at all, the libraries on the linker path as libGLX_<name>.so.0: the built-in
# table maps i915 to mesa and nvidia to nvidia.
PLAIN = [
    ("intel-nvidia", {}, "mesa"),
    ("intel-nvidia", OFFLOAD, "nvidia"),
    ("intel-nvidia", {"DRI_PRIME": "1"}, "mesa"),
    ("nvidia-desktop", {"DRI_PRIME": "1"}, "mesa"),
]

def agree(explain, vendor):
    """Whether `glmux explain` says what libGLX did."""
    rule = explain["glx"]["vendor"]
    expected = rule if rule in LOADABLE else SERVER_VENDOR
    if vendor != expected:
        return ["glmux explain names GLX vendor %s, libGLX used %s" % (rule, vendor)]
    return []


def check_case(runner, dirs, case, libpath=None, debug="warn,select,vendor"):
    bed, variables, vendor = case
    out, records, log = runner.run(bed, dirs, variables, debug, libpath)
    problems = []
    got = next((l.split()[1] for l in out if l.startswith("vendor ")), None)
    if got != vendor:
        problems.append("GL_VENDOR after glXMakeCurrent is %s, expected %s" % (got, vendor))
    served = sorted(set(l.split()[1] for l in records if l.startswith("makecurrent ")))
    if served != [vendor]:
        problems.append("vendors that served glXMakeCurrent: %s" % served)
    seen = parse_main(records)
    for name, envs in seen.items():
        if len(envs) != 1:
            problems.append("%s initialised %d times" % (name, len(envs)))
    # Nothing written: every vendor saw exactly what the case set.
    venv = {k: v for k, v in variables.items() if k in SELECT_VARS}
    for name, envs in seen.items():
        if envs and envs[0] != venv:
            problems.append("%s saw %s, expected %s" % (name, envs[0], venv))
    if not any(k in variables for k in ("DRI_PRIME", "GLMUX_GPU", "__NV_PRIME_RENDER_OFFLOAD")) \
            and enumerated(log):
        problems.append("GPUs enumerated although no variable asks for one")
    explain = runner.explain(bed, dirs, variables, libpath)
    problems += agree(explain, vendor)
    return problems, log


def main():
    program, glmux, beds, gpu, work = sys.argv[1:6]
    os.makedirs(work, exist_ok=True)
    runner = Runner(program, beds, work, "FAKE_GLX_RECORD", glmux)
    vendors = os.path.join(gpu, "vendors")
    try:
        runner.run("intel-nvidia", vendors, {}, "warn,select,vendor")
    except SkipTest as e:
        print("skipped:", e)
        return 77
    except FileNotFoundError:
        print("skipped: umockdev-run not installed (apt-get install umockdev)")
        return 77
    except (RuntimeError, subprocess.SubprocessError) as e:
        # Skip only when the program works without umockdev (e.g. a sanitizer build, whose
        # runtime must come before umockdev's preload); a failing program is a failure.
        env = dict(os.environ, GLMUX_VENDOR_DIRS=vendors)
        alone = subprocess.run([program], env=env, capture_output=True, text=True, timeout=60)
        if alone.returncode == 0:
            print("skipped: umockdev-run does not work with this build:", e)
            return 77
        print("FAIL: the program fails even without umockdev:", alone.stdout, alone.stderr)
        return 1
    report = Report()

    libpath = os.path.join(vendors, "mesa") + ":" + os.path.join(vendors, "nvidia")
    for dirs, cases, lp in ((vendors, sampled(CASES), None), (os.path.join(gpu, "abs"), ABS, None),
                            (os.path.join(gpu, "solo"), SOLO, None),
                            (os.path.join(gpu, "empty"), PLAIN, libpath)):
        for case in cases:
            label = case_label(case, dirs)
            try:
                problems, log = check_case(runner, dirs, case, lp)
            except (RuntimeError, SkipTest, subprocess.SubprocessError) as e:
                problems, log = [str(e)], ""
            report(label, problems, log)

    for case in BAD:
        label = "bad input: " + case_label(case)
        try:
            problems, log = check_case(runner, vendors, case, debug="warn")
        except (RuntimeError, SkipTest, subprocess.SubprocessError) as e:
            problems, log = [str(e)], ""
        warnings = [l for l in log.splitlines() if l.startswith("glmux:")]
        if len(warnings) != 1:
            problems.append("expected one warning, got %s" % warnings)
        report(label, problems, log)

    # The vendor directory's library, not a soname, was loaded; a request enumerates GPUs.
    out, records, log = runner.run("intel-nvidia", vendors, OFFLOAD, "warn,select,vendor")
    problems = []
    lib = os.path.join(vendors, "nvidia", "libGLX_nvidia.so.0")
    if "(%s," % lib not in log:
        problems.append("nvidia not loaded from %s" % lib)
    if not enumerated(log):
        problems.append("__NV_PRIME_RENDER_OFFLOAD=1 did not enumerate the GPUs")
    if "GPU selector" not in log:
        problems.append("GLMUX_DEBUG=vendor does not name the GPU selector")
    report("manifest library path; __NV_PRIME_RENDER_OFFLOAD=1 explained by GLMUX_DEBUG",
           problems, log)

    # A GPU whose vendor is not installed: one warning that says so, then the default GPU.
    out, records, log = runner.run("intel-nvidia", os.path.join(gpu, "solo"), OFFLOAD,
                                   "warn,select,vendor")
    n = log.count("no installed vendor serves GPU %s (driver nvidia)" % N1)
    report("no vendor for the chosen GPU: one warning", [] if n == 1 else
           ["%d warnings" % n], log)

    return report.finish(runner)


if __name__ == "__main__":
    sys.exit(main())
