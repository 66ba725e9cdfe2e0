#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""glmux tests: the PRIME selector on umockdev test beds of real machine shapes.

Runs `glmux explain --json` under `umockdev-run -d BED` (one testbed per bed, shared by its
runs: bed_host.py) for every bed under every variable the user
can set, with two vendors installed: `mesa` (a glmux manifest with a driver list) and `nvidia`
(a plain libglvnd JSON file, 10_nvidia.json, so it sorts first as it does today). Asserts the
GPU whose vendors come first, the EGL vendor order, the GLX vendor, what the vendor of the GPU
asked for needs to render there, whether the request is met, that an overruled variable is
named, and one warning exactly for a request that cannot be met. Then the text of
`glmux explain` on every bed, and on a machine without /sys, is checked for contradictions
(explain_text.py).
Exit 0 pass, 77 skip (umockdev-run missing or not working here), 1 fail.
"""
import json
import os
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from bed_host import Beds  # noqa: E402
from select_driver import sampled  # noqa: E402

I = "pci-0000_00_02_0"      # Intel iGPU (intel-nvidia, intel-amd), virtio-gpu (vm-virtio)
N1 = "pci-0000_01_00_0"     # NVIDIA dGPU (intel-nvidia, dgpu-first, nvidia-desktop, boot-display)
D3 = "pci-0000_03_00_0"     # AMD dGPU (amd-amd, intel-amd)
A6 = "pci-0000_06_00_0"     # AMD APU (amd-amd)
A64 = "pci-0000_64_00_0"    # AMD iGPU after the dGPU (dgpu-first)
SC4 = "pci-0000_c4_00_0"    # AMD Strix APU with boot_display (boot-display)
V3D = "platform-7ec04000_v3d"   # Raspberry Pi 4's V3D, Mesa's tag (rpi4)
UDL = "pci-0000_00_14_0-usb-0_1_1_0"   # a DisplayLink adapter, udev's tag (usb-display)
A5 = "pci-0000_05_00_0"     # AMD APU marked integrated by a udev property (udev-override)
E2E = "pci-0000_2e_00_0"    # NVIDIA eGPU behind a Thunderbolt enclosure's bridges (egpu)
V4 = "pci-0000_00_04_0"     # virtio-gpu-pci next to QEMU's standard VGA (vm-bochs-virtio)

NV = ["nvidia", "mesa"]
MESA = ["mesa", "nvidia"]
OFFLOAD = {"nvidia": {"__NV_PRIME_RENDER_OFFLOAD": "1"}}
NVR = {"__NV_PRIME_RENDER_OFFLOAD": "1"}
VENDOR_DIRS = "@VENDORS@/../../select/manifests/one-vendor"


def prime(tag):
    return {"mesa": {"DRI_PRIME": tag}}


# (bed, variables, GPU whose vendors come first, EGL vendor order, GLX vendor, what the vendor
# of the GPU asked for needs to render there (explain's "needs", less the variables set
# already; Mesa sent to the dGPU by DRI_PRIME=1 or vvvv:dddd renders there and needs nothing),
# request matched). A vendor renders on a GPU other than the default only when its own variable
# says so: DRI_PRIME for
# Mesa (which reads it itself), __NV_PRIME_RENDER_OFFLOAD for NVIDIA; a library writes no
# environment, so anything else is unmet (one warning; `glmux run` gives the variables).
# GLX vendor None: the X server's; a name where that vendor serves the screen whichever GPU it
# is on (DRI_PRIME=1 with X on the NVIDIA GPU takes Mesa to the Intel one, so Mesa either way).
CASES = [
    # Intel + NVIDIA laptop.
    ("intel-nvidia", {}, I, MESA, None, {}, None),
    ("intel-nvidia", {"DRI_PRIME": "1"}, I, MESA, "mesa", OFFLOAD, False),
    ("intel-nvidia", {"DRI_PRIME": N1}, I, MESA, None, OFFLOAD, False),
    ("intel-nvidia", {"DRI_PRIME": "10de:25a2"}, I, MESA, None, OFFLOAD, False),
    ("intel-nvidia", {"GLMUX_GPU": "discrete"}, I, MESA, None, OFFLOAD, False),
    ("intel-nvidia", {"GLMUX_GPU": "integrated"}, I, MESA, None, {}, True),
    ("intel-nvidia", NVR, N1, NV, "nvidia", OFFLOAD, True),
    ("intel-nvidia", {"DRI_PRIME": "1!"}, I, MESA, "mesa", OFFLOAD, False),
    # Precedence: a program's own request (NVIDIA's variable, DRI_PRIME, as a launcher sets
    # them) over the session's GLMUX_GPU.
    ("intel-nvidia", dict(NVR, GLMUX_GPU="integrated"), N1, NV, "nvidia", OFFLOAD, True),
    ("intel-nvidia", {"GLMUX_GPU": "discrete", "DRI_PRIME": I}, I, MESA, "mesa", {}, True),
    ("intel-nvidia", {"GLMUX_GPU": "default", "DRI_PRIME": "1"}, I, MESA, "mesa", OFFLOAD, False),
    # libglvnd's explicit variables win: neither library needs to look at the GPUs.
    ("intel-nvidia", dict(NVR, __EGL_VENDOR_LIBRARY_FILENAMES="@VENDORS@/50_mesa.json",
                          __GLX_VENDOR_LIBRARY_NAME="mesa"), None, ["mesa"], "mesa", {}, None),
    ("intel-nvidia", {"__EGL_VENDOR_LIBRARY_DIRS": "@VENDORS@"}, None, NV, None, {}, None),
    ("intel-nvidia", dict(NVR, __GLX_FORCE_VENDOR_LIBRARY_0="mesa"), N1, NV, "mesa", OFFLOAD,
     True),
    # Bad input: one warning, the default choice, never a crash.
    ("intel-nvidia", {"DRI_PRIME": "0"}, I, MESA, None, {}, None),
    ("intel-nvidia", {"DRI_PRIME": "pci-0000_09_00_0"}, I, MESA, None, {}, False),
    ("intel-nvidia", {"DRI_PRIME": "ffff:0001"}, I, MESA, None, {}, False),
    ("intel-nvidia", {"GLMUX_GPU": "fastest"}, I, MESA, None, {}, None),
    ("intel-nvidia", {"DRI_PRIME": "7"}, I, MESA, "mesa", OFFLOAD, False),
    # A GPU with no vendor installed (only Mesa here): one warning, the default order.
    ("intel-nvidia", dict(NVR, GLMUX_VENDOR_DIRS=VENDOR_DIRS), I, ["mesa"], None, {}, False),
    # AMD APU + AMD dGPU: one vendor (Mesa) for both, which reads DRI_PRIME itself.
    ("amd-amd", {}, A6, MESA, None, {}, None),
    ("amd-amd", {"DRI_PRIME": "1"}, D3, MESA, "mesa", {}, True),
    ("amd-amd", {"DRI_PRIME": D3}, D3, MESA, "mesa", prime(D3), True),
    ("amd-amd", {"DRI_PRIME": "1002:73ef"}, D3, MESA, "mesa", {}, True),
    ("amd-amd", {"GLMUX_GPU": "discrete"}, A6, MESA, None, prime(D3), False),
    ("amd-amd", {"GLMUX_GPU": "integrated"}, A6, MESA, None, {}, True),
    ("amd-amd", NVR, A6, MESA, None, {}, False),
    ("amd-amd", {"DRI_PRIME": "1", "__EGL_VENDOR_LIBRARY_FILENAMES": "@VENDORS@/10_nvidia.json"},
     A6, ["nvidia"], "mesa", {}, False),
    # Intel + AMD dGPU.
    ("intel-amd", {}, I, MESA, None, {}, None),
    ("intel-amd", {"DRI_PRIME": "1"}, D3, MESA, "mesa", {}, True),
    ("intel-amd", {"DRI_PRIME": D3}, D3, MESA, "mesa", prime(D3), True),
    ("intel-amd", {"DRI_PRIME": "1002:7340"}, D3, MESA, "mesa", {}, True),
    ("intel-amd", {"GLMUX_GPU": "discrete"}, I, MESA, None, prime(D3), False),
    ("intel-amd", NVR, I, MESA, None, {}, False),
    # dGPU at a lower PCI address than the iGPU: the default is still the iGPU.
    ("dgpu-first", {}, A64, MESA, None, {}, None),
    ("dgpu-first", {"DRI_PRIME": "1"}, A64, MESA, "mesa", OFFLOAD, False),
    ("dgpu-first", {"DRI_PRIME": N1}, A64, MESA, None, OFFLOAD, False),
    ("dgpu-first", {"DRI_PRIME": "10de:2860"}, A64, MESA, None, OFFLOAD, False),
    ("dgpu-first", {"GLMUX_GPU": "discrete"}, A64, MESA, None, OFFLOAD, False),
    ("dgpu-first", {"GLMUX_GPU": "integrated"}, A64, MESA, None, {}, True),
    ("dgpu-first", NVR, N1, NV, "nvidia", OFFLOAD, True),
    # NVIDIA-only desktop: "discrete" is the default GPU, not "the other one".
    ("nvidia-desktop", {}, N1, NV, None, {}, None),
    ("nvidia-desktop", {"DRI_PRIME": "1"}, N1, NV, None, {}, False),
    ("nvidia-desktop", {"DRI_PRIME": N1}, N1, NV, None, {}, True),
    ("nvidia-desktop", {"DRI_PRIME": "10de:2684"}, N1, NV, None, {}, True),
    ("nvidia-desktop", {"GLMUX_GPU": "discrete"}, N1, NV, None, {}, True),
    ("nvidia-desktop", NVR, N1, NV, None, {}, True),
    ("nvidia-desktop", {"GLMUX_GPU": "integrated"}, N1, NV, None, {}, False),
    # boot_vga absent on the APU, boot_display present: the APU is the default.
    ("boot-display", {}, SC4, MESA, None, {}, None),
    ("boot-display", {"DRI_PRIME": "1"}, SC4, MESA, "mesa", OFFLOAD, False),
    ("boot-display", {"DRI_PRIME": N1}, SC4, MESA, None, OFFLOAD, False),
    ("boot-display", {"DRI_PRIME": "10de:28a0"}, SC4, MESA, None, OFFLOAD, False),
    ("boot-display", {"GLMUX_GPU": "discrete"}, SC4, MESA, None, OFFLOAD, False),
    ("boot-display", NVR, N1, NV, "nvidia", OFFLOAD, True),
    # A VM with virtio-gpu.
    ("vm-virtio", {}, I, MESA, None, {}, None),
    ("vm-virtio", {"DRI_PRIME": "1"}, I, MESA, None, {}, False),
    ("vm-virtio", {"DRI_PRIME": I}, I, MESA, None, {}, True),
    ("vm-virtio", {"DRI_PRIME": "1af4:1050"}, I, MESA, None, {}, True),
    ("vm-virtio", {"GLMUX_GPU": "discrete"}, I, MESA, None, {}, False),
    ("vm-virtio", NVR, I, MESA, None, {}, False),
    # A second VM: QEMU's standard VGA (bochs-drm: the boot VGA, but display-only) and a
    # virtio-gpu-pci that renders: virtio-gpu is the default render GPU, bochs is never chosen.
    ("vm-bochs-virtio", {}, V4, MESA, None, {}, None),
    ("vm-bochs-virtio", {"DRI_PRIME": "1"}, V4, MESA, None, {}, False),
    ("vm-bochs-virtio", {"DRI_PRIME": V4}, V4, MESA, None, {}, True),
    ("vm-bochs-virtio", {"DRI_PRIME": I}, V4, MESA, None, {}, False),
    ("vm-bochs-virtio", {"DRI_PRIME": "1af4:1050"}, V4, MESA, None, {}, True),
    ("vm-bochs-virtio", {"DRI_PRIME": "1234:1111"}, V4, MESA, None, {}, False),
    ("vm-bochs-virtio", {"GLMUX_GPU": "discrete"}, V4, MESA, None, {}, False),
    ("vm-bochs-virtio", {"GLMUX_GPU": "integrated"}, V4, MESA, None, {}, False),
    ("vm-bochs-virtio", NVR, V4, MESA, None, {}, False),
    # An Intel laptop with an NVIDIA eGPU in a Thunderbolt enclosure (the state after it was
    # plugged in; run_watch.py plugs it in under `glmux gpus --watch`): Intel stays the default.
    ("egpu", {}, I, MESA, None, {}, None),
    ("egpu", {"DRI_PRIME": "1"}, I, MESA, "mesa", OFFLOAD, False),
    ("egpu", {"DRI_PRIME": E2E}, I, MESA, None, OFFLOAD, False),
    ("egpu", {"DRI_PRIME": "10de:2206"}, I, MESA, None, OFFLOAD, False),
    ("egpu", {"GLMUX_GPU": "discrete"}, I, MESA, None, OFFLOAD, False),
    ("egpu", {"GLMUX_GPU": "integrated"}, I, MESA, None, {}, True),
    ("egpu", NVR, E2E, NV, "nvidia", OFFLOAD, True),
    ("egpu", dict(NVR, __GLX_VENDOR_LIBRARY_NAME="mesa"), E2E, NV, "mesa", OFFLOAD, True),
    # A udev rule marks the APU (2 GiB carve-out, which glmux alone would call discrete)
    # integrated; explain says the udev property decided.
    ("udev-override", {}, A5, MESA, None, {}, None),
    ("udev-override", {"GLMUX_GPU": "integrated"}, A5, MESA, None, {}, True),
    ("udev-override", {"GLMUX_GPU": "discrete"}, A5, MESA, None, OFFLOAD, False),
    ("udev-override", NVR, N1, NV, "nvidia", OFFLOAD, True),
    # Raspberry Pi 4: display-only vc4 (no render node) and render-only v3d. The default render
    # GPU is v3d, never vc4; DRI_PRIME takes Mesa's tag only, as Mesa does.
    ("rpi4", {}, V3D, MESA, None, {}, None),
    ("rpi4", {"DRI_PRIME": "1"}, V3D, MESA, None, {}, False),
    ("rpi4", {"DRI_PRIME": V3D}, V3D, MESA, None, {}, True),
    ("rpi4", {"DRI_PRIME": "platform-fec00000_v3d"}, V3D, MESA, None, {}, False),
    ("rpi4", {"GLMUX_GPU": "platform-fec00000_v3d"}, V3D, MESA, None, {}, True),
    ("rpi4", {"DRI_PRIME": "platform-gpu"}, V3D, MESA, None, {}, False),
    ("rpi4", {"GLMUX_GPU": "integrated"}, V3D, MESA, None, {}, True),
    ("rpi4", {"GLMUX_GPU": "discrete"}, V3D, MESA, None, {}, False),
    # A USB display adapter (udl) next to the Intel iGPU: listed, never a render GPU.
    ("usb-display", {}, I, MESA, None, {}, None),
    ("usb-display", {"DRI_PRIME": "1"}, I, MESA, None, {}, False),
    ("usb-display", {"DRI_PRIME": UDL}, I, MESA, None, {}, False),
    ("usb-display", {"DRI_PRIME": "17e9:4301"}, I, MESA, None, {}, False),
    ("usb-display", {"GLMUX_GPU": "discrete"}, I, MESA, None, {}, False),
    # No GPU at all: vendors keep their base order.
    ("no-gpu", {}, None, NV, None, {}, None),
    ("no-gpu", {"DRI_PRIME": "1"}, None, NV, None, {}, False),
    ("no-gpu", {"DRI_PRIME": N1}, None, NV, None, {}, False),
    ("no-gpu", {"DRI_PRIME": "10de:25a2"}, None, NV, None, {}, False),
    ("no-gpu", {"GLMUX_GPU": "discrete"}, None, NV, None, {}, False),
    ("no-gpu", NVR, None, NV, None, {}, False),
]

CLEAR = ("DRI_PRIME", "GLMUX_GPU", "GLMUX_VENDOR_DIRS", "GLMUX_DEBUG",
         "GLMUX_DRIVER_VENDORS", "DISPLAY", "WAYLAND_DISPLAY")


def base_env(vendors):
    env = {k: v for k, v in os.environ.items()
           if k not in CLEAR and not k.startswith("__NV_") and not k.startswith("__EGL_")
           and not k.startswith("__GLX_")}
    env["GLMUX_VENDOR_DIRS"] = vendors
    return env


TESTBEDS = Beds()


def run(glmux, bed, env, args):
    return TESTBEDS.run(bed, [glmux] + args, env, timeout=60)


# The text of `glmux explain` on every bed, on a machine without /sys (an empty testbed) and
# with one vendor installed (no GPU looked at), under a few variables: it must not contradict
# itself, garble a reason, call a working renderer none, or list as needed what is set.
TEXT_VARIABLES = [{}, {"DRI_PRIME": "1"}, dict(NVR, GLMUX_GPU="integrated"),
                  {"GLMUX_GPU": "discrete"}, NVR, {"DRI_PRIME": "0", **NVR}]


def false_lines(text, variables):
    """What in one `glmux explain` text is garbled or false, given the variables set (DISPLAY
    is never set here)."""
    problems = []
    lines = text.splitlines()
    for l in lines:
        m = re.search(r"\(([^()]+) wins over \1\)", l)
        if m:
            problems.append("garbled precedence: %s" % l.strip())
        if "(nothing names" in l or "renders nowhere" in l:
            problems.append("garbled or false: %s" % l.strip())
        m = re.match(r"\s+\S+ needs (\w+)=(\S+) for ", l)
        if m and variables.get(m.group(1)) == m.group(2):
            problems.append("listed as needed though set: %s" % l.strip())
        if "DISPLAY not reachable" in l or l.startswith("X screen "):
            problems.append("DISPLAY is not set, yet: %s" % l.strip())
        if l.startswith("  - GLX screen "):
            problems.append("a reason for a screen, with no X display: %s" % l.strip())
    if not any(l.startswith("X screens:   none: DISPLAY is not set") for l in lines):
        problems.append("does not say that DISPLAY is not set")
    no_gpu = any(l.startswith("GPU:         none") for l in lines)
    if no_gpu and not any("llvmpipe" in l for l in lines):
        problems.append("no GPU, and no word that Mesa renders with llvmpipe")
    return problems


def contradictions(text):
    """What in one `glmux explain` text says two incompatible things."""
    problems = []
    lines = text.splitlines()
    head = {l.split(":", 1)[0]: l for l in lines if not l.startswith((" ", "why"))}
    why = [l[4:] for l in lines if l.startswith("  - ")]
    looked = not head.get("GPU", "").startswith("GPU:         not looked at")
    listed = [r for r in why if r.startswith(("GPU ", "default GPU:", "no GPU found",
                                              "cannot enumerate GPUs", "chosen GPU:"))]
    said_not = [r for r in why if "does not look at the GPUs" in r or "no GPU enumeration" in r]
    for r in set(why):
        if why.count(r) > 1:
            problems.append("reason given %d times: %s" % (why.count(r), r))
    screens = [r.split(":", 1)[0] for r in why if r.startswith("GLX screen ")]
    for s in set(screens):
        if screens.count(s) > 1:
            problems.append("%d '%s:' lines" % (screens.count(s), s))
    if (not looked or said_not) and listed:
        problems.append("%s, yet the reasons list GPUs: %s" % (
            said_not[0] if said_not else "GPUs not looked at", listed))
    gpu = head.get("GPU", "")
    if "none found" in gpu and any(r.startswith("GPU 0:") for r in why):
        problems.append("'GPU: none found' but a GPU is listed")
    if looked and gpu.startswith("GPU:         pci-") or gpu.startswith("GPU:         platform-"):
        tag = gpu.split()[1]
        if not any(r.startswith("GPU ") and (" %s " % tag) in r for r in why):
            problems.append("GPU %s is not among the GPUs listed" % tag)
    asked = head.get("asked for", "")
    nothing = [r for r in why if r.startswith("no variable asks for a GPU")]
    if ("nothing" in asked) != bool(nothing):
        problems.append("'%s' against the reasons %s" % (asked, nothing))
    order = [r for r in why if r.startswith("EGL vendor order: ")]
    egl = head.get("EGL vendors", "").split()[2:]
    if order and egl and order[0][len("EGL vendor order: "):].split(" (")[0].split(", ") != egl:
        problems.append("'%s' against '%s'" % (head.get("EGL vendors"), order[0]))
    for l in lines:
        if l.startswith("X screen ") and "vendor \"" not in l:
            problems.append("a screen without a named vendor: %s" % l)
    return problems


def check_text(glmux, beds, vendors):
    failures = 0
    runs = [(os.path.join(beds, b), vendors) for b in sorted(os.listdir(beds))
            if b.endswith(".umockdev")]
    empty = tempfile.NamedTemporaryFile("w", suffix=".umockdev", delete=False)
    empty.close()
    one = os.path.join(vendors, "..", "..", "select", "manifests", "one-vendor")
    runs += [(empty.name, vendors), (os.path.join(beds, "no-gpu.umockdev"), one),
             (os.path.join(beds, "intel-nvidia.umockdev"), one)]
    try:
        for bed, dirs in runs:
            for variables in TEXT_VARIABLES:
                env = base_env(dirs)
                env.update(variables)
                r = run(glmux, bed, env, ["explain"])
                label = "explain text: %s [%s] %s" % (
                    os.path.basename(bed) if bed != empty.name else "(no /sys)",
                    os.path.basename(os.path.normpath(dirs)),
                    " ".join("%s=%s" % kv for kv in variables.items()) or "(none)")
                problems = contradictions(r.stdout) + false_lines(r.stdout, variables) \
                    if r.returncode == 0 else ["exit status %d: %s" % (r.returncode, r.stderr)]
                if problems:
                    failures += 1
                    print("FAIL %s: %s\n%s" % (label, "; ".join(problems), r.stdout))
                else:
                    print("ok   %s" % label)
    finally:
        os.unlink(empty.name)
    return failures


def main():
    glmux, beds, vendors = sys.argv[1], sys.argv[2], sys.argv[3]
    if shutil.which("umockdev-run") is None:
        print("skipped: umockdev-run not installed (apt-get install umockdev)")
        return 77
    try:
        probe = run(glmux, os.path.join(beds, "intel-nvidia.umockdev"), base_env(vendors),
                    ["gpus"])
    except RuntimeError as e:
        print("skipped: umockdev-run does not work here:", e)
        return 77
    if probe.returncode != 0 or "pci-0000_01_00_0" not in probe.stdout:
        print("skipped: umockdev-run does not work here:", probe.stderr.strip())
        return 77
    failures = 0
    cases = sampled(CASES)
    for bed, variables, gpu, egl, glx, venv, matched in cases:
        env = base_env(vendors)
        env.update({k: v.replace("@VENDORS@", vendors) for k, v in variables.items()})
        label = "%s %s" % (bed, " ".join("%s=%s" % kv for kv in variables.items()) or "(none)")
        r = run(glmux, os.path.join(beds, bed + ".umockdev"), env, ["explain", "--json"])
        problems = []
        try:
            out = json.loads(r.stdout)
        except ValueError as e:
            print("FAIL %s: bad JSON (%s); rc=%d stderr=%s" % (label, e, r.returncode, r.stderr))
            failures += 1
            continue
        got_gpu = out["gpu"]["tag"] if out["gpu"] else None
        if r.returncode != 0:
            problems.append("exit status %d" % r.returncode)
        if got_gpu != gpu:
            problems.append("gpu %s, expected %s" % (got_gpu, gpu))
        if out["egl_vendors"] != egl:
            problems.append("egl_vendors %s, expected %s" % (out["egl_vendors"], egl))
        if out["glx"]["vendor"] != glx:
            problems.append("glx vendor %s, expected %s" % (out["glx"]["vendor"], glx))
        got_env = {k: v["needs"] for k, v in out["vendors"].items() if v["needs"]}
        # What the vendor needs, less what is set already: explain lists only what is missing.
        venv = {k: {n: v for n, v in need.items() if variables.get(n) != v}
                for k, need in venv.items()}
        venv = {k: need for k, need in venv.items() if need}
        if got_env != venv:
            problems.append("needs %s, expected %s" % (got_env, venv))
        got_matched = out["request"]["matched"] if out["request"] else None
        if matched is not None and got_matched != matched:
            problems.append("request matched %s, expected %s" % (got_matched, matched))
        if out["gpu"] is not None:
            for key in ("pci", "vendor_id", "device_id", "driver", "vendor"):
                if key not in out["gpu"]:
                    problems.append("gpu has no key %s" % key)
        if not isinstance(out.get("reasons"), list) or not out["reasons"]:
            problems.append("no reasons")
        if bed == "udev-override" and not any("udev property GLMUX_GPU_CLASS" in x
                                               for x in out.get("reasons", [])):
            problems.append("explain does not say that a udev property decided")
        # An overruled variable is named, with what overruled it.
        if "GLMUX_GPU" in variables and ("DRI_PRIME" in variables or
                                         "__NV_PRIME_RENDER_OFFLOAD" in variables):
            if not any(x.startswith("GLMUX_GPU=%s ignored: " % variables["GLMUX_GPU"])
                       and "takes precedence" in x for x in out.get("reasons", [])):
                problems.append("explain does not say that GLMUX_GPU was overruled")
        # One clear warning for bad input, none otherwise.
        warnings = [l for l in r.stderr.splitlines() if l.startswith("glmux:")]
        if matched is False or variables.get("DRI_PRIME") in ("0", "7") or \
                variables.get("GLMUX_GPU") == "fastest" or "GLMUX_VENDOR_DIRS" in variables:
            if len(warnings) != 1:
                problems.append("expected one warning, got %s" % warnings)
        elif warnings:
            problems.append("unexpected warnings %s" % warnings)
        if problems:
            failures += 1
            print("FAIL %s: %s" % (label, "; ".join(problems)))
            print("  reasons: %s" % out.get("reasons"))
        else:
            print("ok   %s -> %s %s glx=%s" % (label, got_gpu, out["egl_vendors"], glx))
    print("%d case(s), %d failure(s)" % (len(cases), failures))
    failures += check_text(glmux, beds, vendors)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
