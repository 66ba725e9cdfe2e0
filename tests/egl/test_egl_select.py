#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""glmux EGL tests: libEGL's GPU-aware vendor order on umockdev test beds.

Two fake EGL vendors, `mesa` and `nvidia` (tests/egl/fake_vendor.c), are installed in a test-local
GLMUX_VENDOR_DIRS directory with glmux manifests that list their kernel drivers (nvidia has the
lower priority number, as 10_nvidia.json has today). For each bed and each variable a user can
set, `umockdev-run -d BED -- test_egl_select` asks for eglGetDisplay(EGL_DEFAULT_DISPLAY); the
fake vendors record the environment they saw in __egl_Main and whether they served the default
display. Asserted: the vendor that served it, that every vendor saw exactly the variables the
case set (libEGL writes no environment), the device-list order, and that GPUs are enumerated
only when needed. Also: plain libglvnd files (no driver list, the
built-in table decides), one vendor found in the vendor directory and in egl_vendor.d is loaded
once, and libglvnd's __EGL_VENDOR_LIBRARY_FILENAMES wins. Every case also runs
`glmux explain --json` under the same bed and environment and checks that the tool and libEGL
agree on the EGL vendor order.
Usage: test_egl_select.py PROGRAM GLMUX BEDS_DIR GPU_DIR WORK_DIR. Exit 0 pass, 77 skip, 1 fail.
"""
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from select_driver import (D3, I, N1, OFFLOAD, SELECT_VARS, Report, Runner,  # noqa: E402
                           case_label, enumerated, parse_main, sampled, umockdev_available)
FILES = "@GPU@/egl_vendor.d/50_mesa.json"
FILES_NV = "@GPU@/egl_vendor.d/10_nvidia.json"

# (bed, variables, vendor serving the default display, device-list vendor order). Whatever the
# case, each vendor sees exactly the GPU variables the case set: libEGL writes no environment
# (check_case asserts it).
MN = ["mesa", "nvidia"]
NM = ["nvidia", "mesa"]
NV = "__NV_PRIME_RENDER_OFFLOAD"
CASES = [
    # Intel iGPU + NVIDIA dGPU laptop: Intel drives the display, so Mesa comes first although
    # nvidia's priority number is lower. NVIDIA's variable (prime-run, switcheroo-control) moves
    # NVIDIA first; DRI_PRIME or GLMUX_GPU naming the NVIDIA GPU cannot (NVIDIA's driver reads
    # only its own variable, which a library does not set): one warning, Mesa stays first.
    ("intel-nvidia", {}, "mesa", MN),
    ("intel-nvidia", {"DRI_PRIME": "1"}, "mesa", MN),
    ("intel-nvidia", {"DRI_PRIME": N1}, "mesa", MN),
    ("intel-nvidia", {"DRI_PRIME": "10de:25a2"}, "mesa", MN),
    ("intel-nvidia", {"GLMUX_GPU": "discrete"}, "mesa", MN),
    ("intel-nvidia", OFFLOAD, "nvidia", NM),
    ("intel-nvidia", {"DRI_PRIME": "1!"}, "mesa", MN),
    ("intel-nvidia", {"GLMUX_GPU": "integrated"}, "mesa", MN),
    # A launcher's request wins over the session's variables (the launcher asked for this program).
    ("intel-nvidia", dict(OFFLOAD, GLMUX_GPU="integrated"), "nvidia", NM),
    ("intel-nvidia", dict(OFFLOAD, DRI_PRIME=I), "nvidia", NM),
    ("intel-nvidia", {"GLMUX_GPU": "discrete", "DRI_PRIME": I}, "mesa", MN),
    # libglvnd's override wins: exactly that file, nothing reordered.
    ("intel-nvidia", dict(OFFLOAD, __EGL_VENDOR_LIBRARY_FILENAMES=FILES), "mesa", ["mesa"]),
    ("intel-nvidia", {"__EGL_VENDOR_LIBRARY_FILENAMES": FILES_NV + ":" + FILES}, "nvidia", NM),
    # __EGL_VENDOR_LIBRARY_DIRS too: libglvnd's order (10_nvidia.json first) although the
    # default GPU is Intel's.
    ("intel-nvidia", {"__EGL_VENDOR_LIBRARY_DIRS": "@GPU@/egl_vendor.d"}, "nvidia", NM),
    # NVIDIA-only desktop: NVIDIA is the default GPU whatever is asked.
    ("nvidia-desktop", {}, "nvidia", NM),
    ("nvidia-desktop", {"DRI_PRIME": "1"}, "nvidia", NM),
    ("nvidia-desktop", {"DRI_PRIME": N1}, "nvidia", NM),
    ("nvidia-desktop", {"DRI_PRIME": "10de:2684"}, "nvidia", NM),
    ("nvidia-desktop", {"GLMUX_GPU": "discrete"}, "nvidia", NM),
    ("nvidia-desktop", OFFLOAD, "nvidia", NM),
    ("nvidia-desktop", {"__EGL_VENDOR_LIBRARY_FILENAMES": FILES}, "mesa", ["mesa"]),
    # No GPU at all: base order (priority).
    ("no-gpu", {}, "nvidia", NM),
    ("no-gpu", {"DRI_PRIME": "1"}, "nvidia", NM),
    ("no-gpu", {"DRI_PRIME": N1}, "nvidia", NM),
    ("no-gpu", {"DRI_PRIME": "10de:25a2"}, "nvidia", NM),
    ("no-gpu", {"GLMUX_GPU": "discrete"}, "nvidia", NM),
    ("no-gpu", OFFLOAD, "nvidia", NM),
    ("no-gpu", {"__EGL_VENDOR_LIBRARY_FILENAMES": FILES}, "mesa", ["mesa"]),
    # A VM with virtio-gpu: Mesa serves it whatever is asked.
    ("vm-virtio", {}, "mesa", MN),
    ("vm-virtio", {"DRI_PRIME": "1"}, "mesa", MN),
    ("vm-virtio", {"DRI_PRIME": I}, "mesa", MN),
    ("vm-virtio", {"DRI_PRIME": "1af4:1050"}, "mesa", MN),
    ("vm-virtio", {"GLMUX_GPU": "discrete"}, "mesa", MN),
    ("vm-virtio", OFFLOAD, "mesa", MN),
    ("vm-virtio", {"__EGL_VENDOR_LIBRARY_FILENAMES": FILES_NV}, "nvidia", ["nvidia"]),
    # Two Mesa GPUs: Mesa serves either, and reads DRI_PRIME itself.
    ("amd-amd", {}, "mesa", MN),
    ("amd-amd", {"DRI_PRIME": "1"}, "mesa", MN),
    ("amd-amd", {"GLMUX_GPU": "discrete"}, "mesa", MN),
    ("amd-amd", {"DRI_PRIME": D3}, "mesa", MN),
    ("amd-amd", {"DRI_PRIME": "1002:73ef"}, "mesa", MN),
    ("amd-amd", OFFLOAD, "mesa", MN),
    ("amd-amd", {"DRI_PRIME": "1", "__EGL_VENDOR_LIBRARY_FILENAMES": FILES_NV}, "nvidia",
     ["nvidia"]),
    ("amd-amd", {"__EGL_VENDOR_LIBRARY_FILENAMES": FILES}, "mesa", ["mesa"]),
    ("intel-amd", {}, "mesa", MN),
    ("intel-amd", {"DRI_PRIME": "1"}, "mesa", MN),
    ("intel-amd", {"DRI_PRIME": "1!"}, "mesa", ["mesa"]),
    ("intel-amd", {"DRI_PRIME": D3}, "mesa", MN),
    ("intel-amd", {"DRI_PRIME": "1002:7340"}, "mesa", MN),
    ("intel-amd", {"GLMUX_GPU": "discrete"}, "mesa", MN),
    ("intel-amd", OFFLOAD, "mesa", MN),
    ("intel-amd", {"DRI_PRIME": "1", "__EGL_VENDOR_LIBRARY_FILENAMES": FILES_NV}, "nvidia",
     ["nvidia"]),
    # An NVIDIA dGPU next to the AMD iGPU that drives the display: at a lower PCI address
    # (dgpu-first), or with boot_display on the APU and no boot_vga anywhere (boot-display).
    ("dgpu-first", {}, "mesa", MN),
    ("dgpu-first", {"DRI_PRIME": "1"}, "mesa", MN),
    ("dgpu-first", {"DRI_PRIME": N1}, "mesa", MN),
    ("dgpu-first", {"DRI_PRIME": "10de:2860"}, "mesa", MN),
    ("dgpu-first", {"GLMUX_GPU": "discrete"}, "mesa", MN),
    ("dgpu-first", OFFLOAD, "nvidia", NM),
    ("dgpu-first", {"DRI_PRIME": "1", "__EGL_VENDOR_LIBRARY_FILENAMES": FILES}, "mesa",
     ["mesa"]),
    ("boot-display", {}, "mesa", MN),
    ("boot-display", {"GLMUX_GPU": "discrete"}, "mesa", MN),
    ("boot-display", {"DRI_PRIME": "1"}, "mesa", MN),
    ("boot-display", {"DRI_PRIME": N1}, "mesa", MN),
    ("boot-display", {"DRI_PRIME": "10de:28a0"}, "mesa", MN),
    ("boot-display", OFFLOAD, "nvidia", NM),
    ("boot-display", {"DRI_PRIME": "1", "__EGL_VENDOR_LIBRARY_FILENAMES": FILES}, "mesa",
     ["mesa"]),
]

# An NVIDIA eGPU behind a Thunderbolt enclosure next to the Intel iGPU (egpu), and a VM whose
# boot VGA (QEMU's standard VGA, bochs-drm) cannot render next to a virtio-gpu-pci that can
# (vm-bochs-virtio): the virtio-gpu is the default, Mesa is kept on it.
E2E = "pci-0000_2e_00_0"
V4 = "pci-0000_00_04_0"
CASES += [
    ("egpu", {}, "mesa", MN),
    ("egpu", {"DRI_PRIME": "1"}, "mesa", MN),
    ("egpu", {"DRI_PRIME": E2E}, "mesa", MN),
    ("egpu", {"DRI_PRIME": "10de:2206"}, "mesa", MN),
    ("egpu", {"GLMUX_GPU": "discrete"}, "mesa", MN),
    ("egpu", OFFLOAD, "nvidia", NM),
    ("egpu", {"GLMUX_GPU": "integrated"}, "mesa", MN),
    ("vm-bochs-virtio", {}, "mesa", MN),
    ("vm-bochs-virtio", {"DRI_PRIME": "1"}, "mesa", MN),
    ("vm-bochs-virtio", {"DRI_PRIME": V4}, "mesa", MN),
    ("vm-bochs-virtio", {"DRI_PRIME": "1af4:1050"}, "mesa", MN),
    ("vm-bochs-virtio", OFFLOAD, "mesa", MN),
]

# Bad input and requests no vendor can be told about: one clear warning, the default
# GPU's vendor first, never a crash.
BAD = [
    ("intel-nvidia", {"DRI_PRIME": "0"}, "mesa", MN),
    ("intel-nvidia", {"DRI_PRIME": "pci-0000_09_00_0"}, "mesa", MN),
    ("intel-nvidia", {"DRI_PRIME": "ffff:0001"}, "mesa", MN),
    ("intel-nvidia", {"DRI_PRIME": "pci-0000_01_00_0!"}, "mesa", MN),
    ("intel-nvidia", {"DRI_PRIME": "0000:01:00.0"}, "mesa", MN),
    ("intel-nvidia", {"DRI_PRIME": "1"}, "mesa", MN),
    ("intel-nvidia", {"GLMUX_GPU": "discrete"}, "mesa", MN),
    ("intel-nvidia", {"GLMUX_GPU": "fastest"}, "mesa", MN),
    ("intel-nvidia", dict(OFFLOAD, __NV_PRIME_RENDER_OFFLOAD_PROVIDER="x"), "nvidia", NM),
    ("vm-virtio", {"GLMUX_GPU": "discrete"}, "mesa", MN),
    ("vm-bochs-virtio", {"GLMUX_GPU": "discrete"}, "mesa", MN),
    ("vm-bochs-virtio", {"DRI_PRIME": I}, "mesa", MN),
    ("no-gpu", {"DRI_PRIME": "1"}, "nvidia", NM),
    # sysfs missing (a container without /sys): the vendors' own order.
    (None, {"DRI_PRIME": "1"}, "nvidia", NM),
]

# Plain libglvnd files only (no driver lists): the built-in table maps i915 to mesa and nvidia
# to nvidia, so the result is the same as with manifests.
PLAIN = [
    ("intel-nvidia", {}, "mesa", MN),
    ("intel-nvidia", {"DRI_PRIME": "1"}, "mesa", MN),
    ("intel-nvidia", OFFLOAD, "nvidia", NM),
    ("nvidia-desktop", {}, "nvidia", NM),
    ("vm-virtio", {}, "mesa", MN),
]

def substitute(variables, gpu):
    return {k: v.replace("@GPU@", gpu) for k, v in variables.items()}


def agree(explain, devices):
    """Whether `glmux explain` says what libEGL did."""
    problems = []
    if explain["egl_vendors"] != devices:
        problems.append("glmux explain orders the EGL vendors %s, libEGL %s"
                        % (explain["egl_vendors"], devices))
    return problems


def check_case(runner, dirs, case, debug=None):
    bed, variables, vendor, devices = case
    variables = substitute(variables, runner.gpu)
    out, records, log = runner.run(bed, dirs, variables, debug or "select,vendor")
    problems = []
    got = next((l.split()[1] for l in out if l.startswith("vendor ")), None)
    if got != vendor:
        problems.append("default display from %s, expected %s" % (got, vendor))
    defaults = [l.split()[1] for l in records if l.startswith("default ")]
    if defaults != [vendor]:
        problems.append("vendors asked for the default display: %s" % defaults)
    seen = parse_main(records)
    for name, envs in seen.items():
        if len(envs) != 1:
            problems.append("%s initialised %d times" % (name, len(envs)))
    # Nothing written: every vendor saw exactly what the case set.
    venv = {k: v for k, v in variables.items() if k in SELECT_VARS}
    for name, envs in seen.items():
        if envs and envs[0] != venv:
            problems.append("%s saw %s, expected %s" % (name, envs[0], venv))
    got_devices = []
    for line in out:
        if line.startswith("devices"):
            for name in line.split()[1:]:
                if not got_devices or got_devices[-1] != name:
                    got_devices.append(name)
    if got_devices != devices:
        problems.append("device list from %s, expected %s" % (got_devices, devices))
    explain = runner.explain(bed, dirs, variables)
    problems += agree(explain, got_devices)
    return problems, log


def main():
    program, glmux, beds, gpu, work = sys.argv[1:6]
    os.makedirs(work, exist_ok=True)
    why = umockdev_available(beds)
    if why is not None:
        print("skipped:", why)
        return 77
    runner = Runner(program, beds, work, "FAKE_EGL_RECORD", glmux)
    runner.gpu = gpu
    vendors = os.path.join(gpu, "vendors")
    plain = os.path.join(gpu, "egl_vendor.d")
    report = Report()

    for dirs, cases in ((vendors, sampled(CASES)), (plain, PLAIN)):
        for case in cases:
            label = case_label(case, dirs)
            try:
                problems, log = check_case(runner, dirs, case)
            except (RuntimeError, subprocess.SubprocessError) as e:
                problems, log = [str(e)], ""
            report(label, problems, log)

    # Bad input: the cases above, and exactly one warning (GLMUX_DEBUG=warn: only warnings).
    for case in BAD:
        label = "bad input: " + case_label(case)
        try:
            problems, log = check_case(runner, vendors, case, debug="warn")
        except (RuntimeError, subprocess.SubprocessError) as e:
            problems, log = [str(e)], ""
        warnings = [l for l in log.splitlines() if l.startswith("glmux:")]
        if len(warnings) != 1:
            problems.append("expected one warning, got %s" % warnings)
        report(label, problems, log)

    # Laziness: one vendor and no variable: no GPU enumeration; two vendors: enumeration.
    out, records, log = runner.run("intel-nvidia", vendors,
                                   substitute({"__EGL_VENDOR_LIBRARY_FILENAMES": FILES}, gpu),
                                   "select,vendor")
    report("one vendor (libglvnd override), no enumeration",
           ["GPUs enumerated"] if enumerated(log) else [], log)
    solo = os.path.join(work, "solo")
    os.makedirs(solo, exist_ok=True)
    shutil.copy(os.path.join(vendors, "50_mesa.json"), solo)
    link = os.path.join(solo, "mesa")
    if not os.path.lexists(link):
        os.symlink(os.path.join(vendors, "mesa"), link)
    out, records, log = runner.run("intel-nvidia", solo, {}, "select,vendor")
    report("one vendor in the vendor directory, no enumeration",
           ["GPUs enumerated"] if enumerated(log) or
           "libEGL does not look at the GPUs: 1 EGL vendor(s)" not in log else [], log)
    out, records, log = runner.run("intel-nvidia", vendors, {}, "select,vendor")
    report("two vendors: GPUs enumerated", [] if enumerated(log) else ["no enumeration"], log)

    # A GPU with no vendor installed (Mesa alone, NVIDIA's variable names the NVIDIA GPU): one
    # warning, and Mesa serves on the default GPU.
    problems, log = check_case(runner, solo, ("intel-nvidia", OFFLOAD, "mesa", ["mesa"]),
                               debug="warn")
    warnings = [l for l in log.splitlines() if l.startswith("glmux:")]
    if len(warnings) != 1 or "no installed vendor serves GPU %s" % N1 not in log:
        problems.append("expected one 'no installed vendor' warning, got %s" % warnings)
    report("no vendor for the chosen GPU: the default GPU, one warning", problems, log)

    # One vendor found in the vendor directory and in egl_vendor.d is one vendor, loaded once,
    # with the vendor directory's driver list.
    out, records, log = runner.run("intel-nvidia", vendors + ":" + plain, OFFLOAD,
                                   "select,vendor")
    seen = parse_main(records)
    problems = []
    if sorted(seen) != ["mesa", "nvidia"] or any(len(e) != 1 for e in seen.values()):
        problems.append("vendors initialised: %s" % records)
    if log.count("merged into") != 2:
        problems.append("expected two 'merged into' lines")
    if "already loaded" in log:
        problems.append("a library was offered twice")
    if next((l for l in out if l.startswith("vendor ")), None) != "vendor nvidia":
        problems.append("default display: %s" % out)
    report("vendor directory + egl_vendor.d: one vendor each", problems, log)

    return report.finish(runner)


if __name__ == "__main__":
    sys.exit(main())
