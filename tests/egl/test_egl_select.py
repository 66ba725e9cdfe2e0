#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""glmux EGL tests: libEGL's GPU-aware vendor order on umockdev test beds.

Two fake EGL vendors, `mesa` and `nvidia` (tests/egl/fake_vendor.c), are installed in a test-local
GLMUX_VENDOR_DIRS directory with glmux manifests that list their kernel drivers (nvidia has the
lower priority number, as 10_nvidia.json has today). For each bed and each variable a user can
set, `umockdev-run -d BED -- test_egl_select` asks for eglGetDisplay(EGL_DEFAULT_DISPLAY); the
fake vendors record the environment they saw in __egl_Main and whether they served the default
display. Asserted: the vendor that served it, what that vendor saw, the device-list order, and
that GPUs are enumerated only when needed. Also: plain libglvnd files (no driver list, the
built-in table decides), one vendor found in the vendor directory and in egl_vendor.d is loaded
once, and libglvnd's __EGL_VENDOR_LIBRARY_FILENAMES wins. Every case also runs
`glmux explain --json` under the same bed and environment and checks that the tool and libEGL
agree: the same EGL vendor order, and the same variables given to the vendor that serves.
Usage: test_egl_select.py PROGRAM GLMUX BEDS_DIR GPU_DIR WORK_DIR. Exit 0 pass, 77 skip, 1 fail.
"""
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from select_driver import (D3, I, N1, OFFLOAD, Report, Runner, case_label,  # noqa: E402
                           enumerated, explained_env, parse_main, set_by_glmux,
                           umockdev_available)
FILES = "@GPU@/egl_vendor.d/50_mesa.json"
FILES_NV = "@GPU@/egl_vendor.d/10_nvidia.json"

# (bed, variables, vendor serving the default display, variables that vendor saw (exactly the
# GPU-selection ones), device-list vendor order)
MN = ["mesa", "nvidia"]
NM = ["nvidia", "mesa"]
CASES = [
    # Intel iGPU + NVIDIA dGPU laptop: Intel drives the display, so Mesa comes first although
    # nvidia's priority number is lower; any request for the NVIDIA GPU moves NVIDIA first and
    # gives it what render offload needs.
    ("intel-nvidia", {}, "mesa", {}, MN),
    ("intel-nvidia", {"DRI_PRIME": "1"}, "nvidia", dict(OFFLOAD, DRI_PRIME="1"), NM),
    ("intel-nvidia", {"DRI_PRIME": N1}, "nvidia", dict(OFFLOAD, DRI_PRIME=N1), NM),
    ("intel-nvidia", {"DRI_PRIME": "10de:25a2"}, "nvidia", dict(OFFLOAD, DRI_PRIME="10de:25a2"),
     NM),
    ("intel-nvidia", {"GLMUX_GPU": "discrete"}, "nvidia", dict(OFFLOAD, GLMUX_GPU="discrete"), NM),
    ("intel-nvidia", {"__NV_PRIME_RENDER_OFFLOAD": "1"}, "nvidia", OFFLOAD, NM),
    ("intel-nvidia", {"DRI_PRIME": "1!"}, "nvidia", dict(OFFLOAD, DRI_PRIME="1!"), ["nvidia"]),
    ("intel-nvidia", {"GLMUX_GPU": "integrated"}, "mesa", {"GLMUX_GPU": "integrated"}, MN),
    # libglvnd's override wins: exactly that file, nothing reordered, nothing set.
    ("intel-nvidia", {"DRI_PRIME": "1", "__EGL_VENDOR_LIBRARY_FILENAMES": FILES}, "mesa",
     {"DRI_PRIME": "1"}, ["mesa"]),
    ("intel-nvidia", {"__EGL_VENDOR_LIBRARY_FILENAMES": FILES_NV + ":" + FILES}, "nvidia", {},
     NM),
    # __EGL_VENDOR_LIBRARY_DIRS too: libglvnd's order (10_nvidia.json first) although the
    # default GPU is Intel's.
    ("intel-nvidia", {"__EGL_VENDOR_LIBRARY_DIRS": "@GPU@/egl_vendor.d"}, "nvidia", {}, NM),
    # NVIDIA-only desktop: NVIDIA is the default GPU; nothing to offload.
    ("nvidia-desktop", {}, "nvidia", {}, NM),
    ("nvidia-desktop", {"DRI_PRIME": "1"}, "nvidia", {"DRI_PRIME": "1"}, NM),
    ("nvidia-desktop", {"DRI_PRIME": N1}, "nvidia", {"DRI_PRIME": N1}, NM),
    ("nvidia-desktop", {"DRI_PRIME": "10de:2684"}, "nvidia", {"DRI_PRIME": "10de:2684"}, NM),
    ("nvidia-desktop", {"GLMUX_GPU": "discrete"}, "nvidia", {"GLMUX_GPU": "discrete"}, NM),
    ("nvidia-desktop", {"__NV_PRIME_RENDER_OFFLOAD": "1"}, "nvidia", OFFLOAD, NM),
    ("nvidia-desktop", {"__EGL_VENDOR_LIBRARY_FILENAMES": FILES}, "mesa", {}, ["mesa"]),
    # No GPU at all: base order (priority), nothing set.
    ("no-gpu", {}, "nvidia", {}, NM),
    ("no-gpu", {"DRI_PRIME": "1"}, "nvidia", {"DRI_PRIME": "1"}, NM),
    ("no-gpu", {"DRI_PRIME": N1}, "nvidia", {"DRI_PRIME": N1}, NM),
    ("no-gpu", {"DRI_PRIME": "10de:25a2"}, "nvidia", {"DRI_PRIME": "10de:25a2"}, NM),
    ("no-gpu", {"GLMUX_GPU": "discrete"}, "nvidia", {"GLMUX_GPU": "discrete"}, NM),
    ("no-gpu", {"__NV_PRIME_RENDER_OFFLOAD": "1"}, "nvidia", OFFLOAD, NM),
    ("no-gpu", {"__EGL_VENDOR_LIBRARY_FILENAMES": FILES}, "mesa", {}, ["mesa"]),
    # A VM with virtio-gpu: Mesa serves it whatever is asked; a DRI_PRIME that names no other
    # GPU is replaced by the VM GPU's tag so that Mesa stays on it.
    ("vm-virtio", {}, "mesa", {}, MN),
    ("vm-virtio", {"DRI_PRIME": "1"}, "mesa", {"DRI_PRIME": I}, MN),
    ("vm-virtio", {"DRI_PRIME": I}, "mesa", {"DRI_PRIME": I}, MN),
    ("vm-virtio", {"DRI_PRIME": "1af4:1050"}, "mesa", {"DRI_PRIME": I}, MN),
    ("vm-virtio", {"GLMUX_GPU": "discrete"}, "mesa", {"GLMUX_GPU": "discrete"}, MN),
    ("vm-virtio", {"__NV_PRIME_RENDER_OFFLOAD": "1"}, "mesa", OFFLOAD, MN),
    ("vm-virtio", {"__EGL_VENDOR_LIBRARY_FILENAMES": FILES_NV}, "nvidia", {}, ["nvidia"]),
    # The other beds, briefly: Mesa on both GPUs gets DRI_PRIME as the dGPU's PCI tag (Mesa
    # counts GPUs in another order than PCI order); a dGPU at a lower PCI address than the
    # iGPU, and boot_display without boot_vga, still leave the iGPU as the default.
    ("amd-amd", {}, "mesa", {}, MN),
    ("amd-amd", {"DRI_PRIME": "1"}, "mesa", {"DRI_PRIME": "pci-0000_03_00_0"}, MN),
    ("amd-amd", {"GLMUX_GPU": "discrete"}, "mesa",
     {"GLMUX_GPU": "discrete", "DRI_PRIME": "pci-0000_03_00_0"}, MN),
    ("intel-amd", {"DRI_PRIME": "1002:7340"}, "mesa", {"DRI_PRIME": "pci-0000_03_00_0"}, MN),
    ("dgpu-first", {}, "mesa", {}, MN),
    ("dgpu-first", {"DRI_PRIME": "1"}, "nvidia", dict(OFFLOAD, DRI_PRIME="1"), NM),
    ("boot-display", {}, "mesa", {}, MN),
    ("boot-display", {"GLMUX_GPU": "discrete"}, "nvidia", dict(OFFLOAD, GLMUX_GPU="discrete"),
     NM),
    # The rest of issue 5's matrix (every bed under every variable): AMD APU + AMD dGPU, where
    # the NVIDIA variable finds no NVIDIA GPU and Mesa stays on the APU.
    ("amd-amd", {"DRI_PRIME": D3}, "mesa", {"DRI_PRIME": D3}, MN),
    ("amd-amd", {"DRI_PRIME": "1002:73ef"}, "mesa", {"DRI_PRIME": D3}, MN),
    ("amd-amd", {"__NV_PRIME_RENDER_OFFLOAD": "1"}, "mesa", OFFLOAD, MN),
    ("amd-amd", {"DRI_PRIME": "1", "__EGL_VENDOR_LIBRARY_FILENAMES": FILES_NV}, "nvidia",
     {"DRI_PRIME": "1"}, ["nvidia"]),
    # Intel iGPU + AMD dGPU.
    ("intel-amd", {}, "mesa", {}, MN),
    ("intel-amd", {"DRI_PRIME": "1"}, "mesa", {"DRI_PRIME": D3}, MN),
    ("intel-amd", {"DRI_PRIME": D3}, "mesa", {"DRI_PRIME": D3}, MN),
    ("intel-amd", {"GLMUX_GPU": "discrete"}, "mesa", {"GLMUX_GPU": "discrete", "DRI_PRIME": D3},
     MN),
    ("intel-amd", {"__NV_PRIME_RENDER_OFFLOAD": "1"}, "mesa", OFFLOAD, MN),
    ("intel-amd", {"DRI_PRIME": "1", "__EGL_VENDOR_LIBRARY_FILENAMES": FILES_NV}, "nvidia",
     {"DRI_PRIME": "1"}, ["nvidia"]),
    # NVIDIA dGPU at a lower PCI address than the AMD iGPU (the default).
    ("dgpu-first", {"DRI_PRIME": N1}, "nvidia", dict(OFFLOAD, DRI_PRIME=N1), NM),
    ("dgpu-first", {"DRI_PRIME": "10de:2860"}, "nvidia", dict(OFFLOAD, DRI_PRIME="10de:2860"),
     NM),
    ("dgpu-first", {"GLMUX_GPU": "discrete"}, "nvidia", dict(OFFLOAD, GLMUX_GPU="discrete"), NM),
    ("dgpu-first", {"__NV_PRIME_RENDER_OFFLOAD": "1"}, "nvidia", OFFLOAD, NM),
    ("dgpu-first", {"DRI_PRIME": "1", "__EGL_VENDOR_LIBRARY_FILENAMES": FILES}, "mesa",
     {"DRI_PRIME": "1"}, ["mesa"]),
    # boot_display without boot_vga.
    ("boot-display", {"DRI_PRIME": "1"}, "nvidia", dict(OFFLOAD, DRI_PRIME="1"), NM),
    ("boot-display", {"DRI_PRIME": N1}, "nvidia", dict(OFFLOAD, DRI_PRIME=N1), NM),
    ("boot-display", {"DRI_PRIME": "10de:28a0"}, "nvidia", dict(OFFLOAD, DRI_PRIME="10de:28a0"),
     NM),
    ("boot-display", {"__NV_PRIME_RENDER_OFFLOAD": "1"}, "nvidia", OFFLOAD, NM),
    ("boot-display", {"DRI_PRIME": "1", "__EGL_VENDOR_LIBRARY_FILENAMES": FILES}, "mesa",
     {"DRI_PRIME": "1"}, ["mesa"]),
    # libglvnd's override alone on the AMD bed.
    ("amd-amd", {"__EGL_VENDOR_LIBRARY_FILENAMES": FILES}, "mesa", {}, ["mesa"]),
]

# An NVIDIA eGPU behind a Thunderbolt enclosure next to the Intel iGPU (egpu), and a VM whose
# boot VGA (QEMU's standard VGA, bochs-drm) cannot render next to a virtio-gpu-pci that can
# (vm-bochs-virtio): the virtio-gpu is the default, Mesa is kept on it.
E2E = "pci-0000_2e_00_0"
V4 = "pci-0000_00_04_0"
CASES += [
    ("egpu", {}, "mesa", {}, MN),
    ("egpu", {"DRI_PRIME": "1"}, "nvidia", dict(OFFLOAD, DRI_PRIME="1"), NM),
    ("egpu", {"DRI_PRIME": E2E}, "nvidia", dict(OFFLOAD, DRI_PRIME=E2E), NM),
    ("egpu", {"DRI_PRIME": "10de:2206"}, "nvidia", dict(OFFLOAD, DRI_PRIME="10de:2206"), NM),
    ("egpu", {"GLMUX_GPU": "discrete"}, "nvidia", dict(OFFLOAD, GLMUX_GPU="discrete"), NM),
    ("egpu", {"__NV_PRIME_RENDER_OFFLOAD": "1"}, "nvidia", OFFLOAD, NM),
    ("egpu", {"GLMUX_GPU": "integrated"}, "mesa", {"GLMUX_GPU": "integrated"}, MN),
    ("vm-bochs-virtio", {}, "mesa", {}, MN),
    ("vm-bochs-virtio", {"DRI_PRIME": "1"}, "mesa", {"DRI_PRIME": V4}, MN),
    ("vm-bochs-virtio", {"DRI_PRIME": V4}, "mesa", {"DRI_PRIME": V4}, MN),
    ("vm-bochs-virtio", {"DRI_PRIME": "1af4:1050"}, "mesa", {"DRI_PRIME": V4}, MN),
    ("vm-bochs-virtio", {"__NV_PRIME_RENDER_OFFLOAD": "1"}, "mesa", OFFLOAD, MN),
]

# Bad input (issue 5): one clear warning on stderr, the default GPU, never a crash. The vendor
# of the default GPU serves, and a DRI_PRIME Mesa would misread is replaced by its tag.
BAD = [
    ("intel-nvidia", {"DRI_PRIME": "0"}, "mesa", {"DRI_PRIME": I}, MN),
    ("intel-nvidia", {"DRI_PRIME": "pci-0000_09_00_0"}, "mesa", {"DRI_PRIME": I}, MN),
    ("intel-nvidia", {"DRI_PRIME": "ffff:0001"}, "mesa", {"DRI_PRIME": I}, MN),
    ("intel-nvidia", {"GLMUX_GPU": "fastest"}, "mesa", {"GLMUX_GPU": "fastest"}, MN),
    ("intel-nvidia", {"__NV_PRIME_RENDER_OFFLOAD": "1", "__NV_PRIME_RENDER_OFFLOAD_PROVIDER": "x"},
     "nvidia", dict(OFFLOAD, __NV_PRIME_RENDER_OFFLOAD_PROVIDER="x"), NM),
    ("vm-virtio", {"GLMUX_GPU": "discrete"}, "mesa", {"GLMUX_GPU": "discrete"}, MN),
    ("vm-bochs-virtio", {"GLMUX_GPU": "discrete"}, "mesa", {"GLMUX_GPU": "discrete"}, MN),
    ("vm-bochs-virtio", {"DRI_PRIME": I}, "mesa", {"DRI_PRIME": V4}, MN),
    ("no-gpu", {"DRI_PRIME": "1"}, "nvidia", {"DRI_PRIME": "1"}, NM),
    # sysfs missing (a container without /sys): the vendors' own order.
    (None, {"DRI_PRIME": "1"}, "nvidia",
     {"DRI_PRIME": "1"}, NM),
]

# Plain libglvnd files only (no driver lists): the built-in table maps i915 to mesa and nvidia
# to nvidia, so the result is the same as with manifests.
PLAIN = [
    ("intel-nvidia", {}, "mesa", {}, MN),
    ("intel-nvidia", {"DRI_PRIME": "1"}, "nvidia", dict(OFFLOAD, DRI_PRIME="1"), NM),
    ("nvidia-desktop", {}, "nvidia", {}, NM),
    ("vm-virtio", {}, "mesa", {}, MN),
]

def substitute(variables, gpu):
    return {k: v.replace("@GPU@", gpu) for k, v in variables.items()}


def agree(explain, vendor, seen, variables, devices):
    """Whether `glmux explain` says what libEGL did."""
    problems = []
    if explain["egl_vendors"] != devices:
        problems.append("glmux explain orders the EGL vendors %s, libEGL %s"
                        % (explain["egl_vendors"], devices))
    told = explained_env(explain, vendor)
    if any(seen.get(k) != v for k, v in told.items()) or \
            any(k not in told for k in set_by_glmux(seen, variables)):
        problems.append("glmux explain gives %s %s, libEGL gave it %s"
                        % (vendor, told, set_by_glmux(seen, variables)))
    return problems


def check_case(runner, dirs, case, debug=None):
    bed, variables, vendor, venv, devices = case
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
    if seen.get(vendor, [{}])[0] != venv:
        problems.append("%s saw %s, expected %s" % (vendor, seen.get(vendor), venv))
    got_devices = []
    for line in out:
        if line.startswith("devices"):
            for name in line.split()[1:]:
                if not got_devices or got_devices[-1] != name:
                    got_devices.append(name)
    if got_devices != devices:
        problems.append("device list from %s, expected %s" % (got_devices, devices))
    explain = runner.explain(bed, dirs, variables)
    problems += agree(explain, vendor, seen.get(vendor, [{}])[0], variables, got_devices)
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

    for dirs, cases in ((vendors, CASES), (plain, PLAIN)):
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
           "1 EGL vendor(s) and no GPU asked for: no GPU enumeration" not in log else [], log)
    out, records, log = runner.run("intel-nvidia", vendors, {}, "select,vendor")
    report("two vendors: GPUs enumerated", [] if enumerated(log) else ["no enumeration"], log)

    # A GPU with no vendor installed (Mesa alone, DRI_PRIME=1 names the NVIDIA GPU): one
    # warning, and Mesa serves on the default GPU, told so by its tag.
    problems, log = check_case(runner, solo, ("intel-nvidia", {"DRI_PRIME": "1"}, "mesa",
                                              {"DRI_PRIME": I}, ["mesa"]), debug="warn")
    warnings = [l for l in log.splitlines() if l.startswith("glmux:")]
    if len(warnings) != 1 or "no installed EGL vendor serves GPU %s" % N1 not in log:
        problems.append("expected one 'no installed EGL vendor' warning, got %s" % warnings)
    report("no vendor for the chosen GPU: the default GPU, one warning", problems, log)

    # One vendor found in the vendor directory and in egl_vendor.d is one vendor, loaded once,
    # with the vendor directory's driver list.
    out, records, log = runner.run("intel-nvidia", vendors + ":" + plain, {"DRI_PRIME": "1"},
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
