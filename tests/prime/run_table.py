#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""glmux tests: the PRIME table. Every DRI_PRIME spelling, GLMUX_GPU value and the NVIDIA
offload pair, on each recorded machine (tests/cli/beds), with the display's GPU unknown (an X
server without DRI3, like Xvfb) and known (fake_x.py's DRI3 names a GPU: X on the iGPU, on the
dGPU in reverse PRIME, on virtio-gpu in a VM, on a Raspberry Pi's display-only vc4), compared
with the answer of an independent oracle (oracle.py: Mesa's OpenGL loader rule for DRI_PRIME,
Vulkan device-select's boot_vga rule when no display names its GPU, NVIDIA's offload, glmux's
documented GLMUX_GPU).

For each case three answers must match the oracle's GPU:
  * `glmux explain --json`: the chosen GPU, the first EGL vendor (of the default display when
    glmux asked the display) and screen 0's GLX vendor;
  * libEGL (probe.c, eglGetDisplay(EGL_DEFAULT_DISPLAY)): the vendor that serves, and the GPU
    that vendor renders on given what it saw when glmux loaded it (oracle.renders_on: Mesa
    applies its own loader rule to the DRI_PRIME it sees; NVIDIA needs the offload variables
    unless X runs on it);
  * libGLX (the same process, screen 0 of the fake X server): likewise.
With a known display GPU, the fake server's DRI3Open requests are counted too: the libraries ask
the display for its GPU exactly when its answer can change the vendor or whether the request is
met (display_asked), a GPU variable set or not, and explain never asks where one vendor serves
every GPU. The libraries' warning that a request cannot be met comes exactly where it cannot
with the display's GPU (check_warning: the reverse-PRIME and VM rows). With --compositor, each
known display GPU is also a Wayland compositor's (prime_compositor: linux-dmabuf feedback names
it): the default EGL display under WAYLAND_DISPLAY, in libEGL and explain, for every setting.
Where glmux deliberately differs from the reference, a rule in DIFFERENCES gives glmux's answer
and the words docs/compatibility.md uses for it; each row it changes says so, and the test
checks the document.

Each bed runs in one `umockdev-run` (this script again, with --inner), the fake X server a thread
of it. Device nodes for DRI3 need mknod (root with CAP_MKNOD); without it the known-display rows
are left out, and the test says so. Exit 0 pass, 77 skip, 1 fail.
Usage: run_table.py GLMUX PROBE BEDS EGL_VENDOR_DIR GLX_LIBRARY_PATH WORK [--quick]
       [--compositor=PRIME_COMPOSITOR] [BED...]
(--quick: three machines, the common forms, two displays each).
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import oracle  # noqa: E402
from fake_x import FakeX, Screen  # noqa: E402
from prime_env import Setup  # noqa: E402

INTEGRATED, DISCRETE, VIRTUAL = "integrated", "discrete", "virtual"

# Each bed: what kind of GPU each render-capable device is (hardware facts, for GLMUX_GPU),
# the GPUs an X server may run on there, and whether every spelling is tried on it ("full") or
# the common forms only.
BEDS = {
    "intel-nvidia-rprime": {
        "classes": {"pci-0000_00_02_0": INTEGRATED, "pci-0000_01_00_0": DISCRETE},
        "displays": ["pci-0000_00_02_0", "pci-0000_01_00_0"], "full": True},
    "apu-dgpu": {
        "classes": {"pci-0000_03_00_0": DISCRETE, "pci-0000_13_00_0": INTEGRATED},
        "displays": ["pci-0000_03_00_0", "pci-0000_13_00_0"], "full": True},
    "intel-amd-egpu": {
        "classes": {"pci-0000_00_02_0": INTEGRATED, "pci-0000_30_00_0": DISCRETE},
        "displays": ["pci-0000_00_02_0"], "full": False},
    "vm-passthrough": {
        "classes": {"pci-0000_00_01_0": VIRTUAL, "pci-0000_01_00_0": DISCRETE},
        "displays": ["pci-0000_00_01_0", "pci-0000_01_00_0"], "full": False},
    "headless-2nvidia": {
        "classes": {"pci-0000_17_00_0": DISCRETE, "pci-0000_65_00_0": DISCRETE},
        "displays": [], "full": False},
    "rpi3": {"classes": {"platform-gpu": INTEGRATED}, "displays": ["platform-gpu"],
             "full": False},
    "rpi4": {"classes": {"platform-7ec04000_v3d": INTEGRATED}, "displays": ["platform-gpu"],
             "full": False},
    "rpi5": {"classes": {"platform-1002000000_v3d": INTEGRATED}, "displays": ["platform-gpu"],
             "full": True},
}

# --quick (the sanitizer and pure-C configurations): these machines, the common forms, the
# display unknown and on the first GPU listed.
QUICK_BEDS = ["intel-nvidia-rprime", "apu-dgpu", "rpi5"]


class Difference:
    """Where glmux deliberately answers otherwise than the reference: a rule that says when it
    applies and what glmux answers then, with the words of docs/compatibility.md that explain
    it. Every row it changes says so in the output; the words are checked in the document."""

    def __init__(self, name, words, answer, vendor_only=False):
        self.name, self.words, self.answer = name, words, answer
        # vendor_only: the libraries' vendor is checked, not the GPU it then renders on
        self.vendor_only = vendor_only


def not_told(devices, display, variables, want):
    """glmux writes no environment, so a vendor renders on another GPU than the reference (the
    display's, else the default) only when its own variable already says so: Mesa's DRI_PRIME
    read as Mesa reads it, NVIDIA's offload pair. Otherwise glmux keeps the reference GPU's
    vendors (and warns); that vendor then goes where its own variables take it."""
    ref = oracle.vk_default(devices, display)
    d = oracle.by_tag(devices, want)
    if d is None or want == ref:
        return None
    if d["vendor"] == "mesa":
        told = oracle.mesa_loader(devices, display or ref, variables.get("DRI_PRIME")) == want
    else:
        told = variables.get("__NV_PRIME_RENDER_OFFLOAD") == "1" and oracle.nvidia_gpu(
            devices, variables.get("__NV_PRIME_RENDER_OFFLOAD_PROVIDER")) == want
    return None if told else ref


# answer(devices, display, variables, want) -> glmux's GPU, or None where the rule does not apply
DIFFERENCES = [
    Difference("a vendor is moved to another GPU only by its own variable",
               "glmux reorders vendors only where that lands on the GPU asked for", not_told,
               vendor_only=True),
]

SWITCHEROO_NV = {"__GLX_VENDOR_LIBRARY_NAME": "nvidia", "__NV_PRIME_RENDER_OFFLOAD": "1",
                 "__VK_LAYER_NV_optimus": "NVIDIA_only"}


def launcher_env(d):
    """What switcheroo-control publishes for a GPU (its D-Bus GPUs property)."""
    if d["vendor"] == "nvidia":
        return dict(SWITCHEROO_NV)
    return {"DRI_PRIME": d["tag"]}


def variable_sets(devices, spec, quick):
    gpus = [d for d in devices if d["renders"]]
    nvidia = [d for d in gpus if d["vendor"] == "nvidia"]
    sets = [{}, {"DRI_PRIME": "1"}, {"GLMUX_GPU": "discrete"}, {"GLMUX_GPU": "integrated"}]
    for d in gpus:
        sets.append({"DRI_PRIME": d["tag"]})
        if "ids" in d:
            sets.append({"DRI_PRIME": "%04x:%04x" % tuple(d["ids"])})
    if nvidia:
        sets.append({"__NV_PRIME_RENDER_OFFLOAD": "1"})
    # A session default and a launcher's per-program request (switcheroo-control's variables).
    for d in gpus:
        for session in ({"GLMUX_GPU": "integrated"}, {"GLMUX_GPU": "discrete"}):
            sets.append(dict(session, **launcher_env(d)))
    if quick:
        return sets
    sets += [{"GLMUX_GPU": "default"}, {"GLMUX_GPU": "1"}, {"GLMUX_GPU": "discrete!"},
             {"DRI_PRIME": "2"}, {"DRI_PRIME": "0"}, {"DRI_PRIME": "-1"}, {"DRI_PRIME": ""},
             {"DRI_PRIME": "garbage"}, {"GLMUX_GPU": "fastest"}]
    if len(nvidia) > 1:
        sets += [{"__NV_PRIME_RENDER_OFFLOAD": "1",
                  "__NV_PRIME_RENDER_OFFLOAD_PROVIDER": "NVIDIA-G%d" % i}
                 for i in range(len(nvidia))]
    if spec["full"]:
        sets += [{"DRI_PRIME": v} for v in ("1abc", " 1", "1!", "+1", "01", "1 ")]
        for d in gpus:
            sets += [{"DRI_PRIME": d["tag"] + "!"}, {"DRI_PRIME": d["tag"].upper()},
                     {"GLMUX_GPU": d["tag"]}]
            if "ids" in d:
                ids = "%04x:%04x" % tuple(d["ids"])
                sets += [{"DRI_PRIME": ids.upper()}, {"DRI_PRIME": ids + "!"},
                         {"DRI_PRIME": "%04x:%02x:%02x.%x" % tuple(d["pci"])},
                         {"GLMUX_GPU": ids}]
        sets.append({"GLMUX_GPU": "default", "DRI_PRIME": "1"})
    return sets


def label(bed, display, variables):
    text = " ".join("%s=%r" % kv if kv[1].strip() != kv[1] or not kv[1] else "%s=%s" % kv
                    for kv in sorted(variables.items()))
    return "%s [X on %s] %s" % (bed, display or "? (no DRI3)", text or "(nothing set)")


def decide(devices, display, classes, variables):
    """Where a program on display should land: (tag, how it was decided, vendor_only)."""
    want, reference = oracle.expected(devices, display, classes, variables)
    for rule in DIFFERENCES:
        answer = rule.answer(devices, display, variables, want)
        if answer is not None and answer != want:
            return answer, "documented difference: %s (reference: %s)" % (
                rule.name, want), rule.vendor_only
    return want, reference, False


def one_vendor(devices):
    """Whether every GPU that renders is served by one vendor: then no display's GPU can change
    which vendor serves, and neither library nor explain asks any display for it (no DRI3Open:
    docs/compatibility.md, "GPUs whose vendors differ")."""
    return len({d["vendor"] for d in devices if d["renders"]}) <= 1


def unmet(devices, display, classes, variables):
    """Whether glmux leaves the request unmet with the display on display: the GPU it names is
    not the display's and its vendor is not told by its own variable (not_told)."""
    want, _ = oracle.expected(devices, display, classes, variables)
    return not_told(devices, display, variables, want) is not None


def display_asked(devices, classes, variables):
    """Whether libEGL's default display (over a connection of its own) and libGLX's screen (over
    the application's) are asked for their GPU (docs/hybrid-gpus.md, "The display's GPU"): when
    the GPUs the display could be on lead to different vendors, or, where the GPUs' vendors
    differ, to a request met on one and not on another (whether a warning is true), a GPU
    variable set or not."""
    tags = [d["tag"] for d in devices if d["renders"]]
    vendors = {vendor_of(devices, decide(devices, tag, classes, variables)[0]) for tag in tags}
    unmets = {unmet(devices, tag, classes, variables) for tag in tags}
    return len(vendors) > 1 or (len(unmets) > 1 and not one_vendor(devices))


def check_case(setup, server, devices, spec, bed, display, variables):
    classes = spec["classes"]
    server_vendor = server.screens[0].vendor
    # GLX asks the application's own connection: the display is known.
    want, reference, vendor_only = decide(devices, display, classes, variables)
    # libEGL's default display (and explain) asks over a connection of its own when its answer
    # can change the vendor (display_asked), a GPU variable set or not; else the vendor is the
    # same whichever GPU the display is on, and renders where its own variables take it.
    egl_display = display if display_asked(devices, classes, variables) else None
    egl_want, egl_reference, egl_vendor_only = decide(devices, egl_display, classes, variables)
    if egl_display != display:
        egl_vendor_only = True
    want_vendor = vendor_of(devices, want)
    egl_vendor = vendor_of(devices, egl_want)
    # An X server that does not say its GPU (Xvfb) and nothing that moves the program: GLX is
    # the server's business (libglvnd asks the server for its vendor), whatever GPU it uses.
    glx_server = display is None and want == oracle.vk_default(devices, None)
    problems = []
    env = setup.env(setup.display, variables)

    before_explain = server.dri3_opens
    out, r = setup.explain(env)
    explain_opens = server.dri3_opens - before_explain
    before_probe = server.dri3_opens
    problems += check_explain_egl(out, r, egl_want, egl_vendor)
    if out is not None:
        screens = (out.get("glx") or {}).get("screens") or [{}]
        glx = screens[0].get("vendor")
        if glx == "(X server's choice)":
            glx = server_vendor
        if want_vendor and glx != want_vendor and not (glx_server and glx == server_vendor):
            problems.append("explain: GLX vendor %s" % glx)

    problems += setup.probe_check(devices, display, env,
                                  {"egl": (egl_want, egl_vendor_only),
                                   "glx": (want, vendor_only)},
                                  server_vendor if glx_server else None)
    problems += check_warning(devices, classes, display, variables, setup.last_stderr)
    # The display is asked for its GPU only when its answer can change the vendor: never where
    # one vendor serves every GPU (explain neither), else as display_asked says.
    opens = server.dri3_opens - before_probe
    if display is not None and one_vendor(devices) and explain_opens:
        problems.append("glmux explain asked the display for its GPU (%d DRI3Open) with one "
                        "vendor for every GPU" % explain_opens)
    if display is not None and bool(opens) != display_asked(devices, classes, variables):
        problems.append("libEGL and libGLX %s the display for its GPU (%d DRI3Open)" % (
            "asked" if opens else "did not ask", opens))
    return want, reference, problems


def check_explain_egl(out, r, egl_want, egl_vendor):
    """What glmux explain said (out, None where it printed no JSON; r its process) against the
    GPU and the EGL vendor (None: any) the default EGL display should get: the problems."""
    if out is None:
        return ["glmux explain: exit %d, no JSON: %s" % (r.returncode, r.stderr.strip())]
    problems = []
    dd = out.get("default_display") or {}
    got = (out.get("gpu") or {}).get("tag")
    if got != egl_want:
        problems.append("explain: GPU %s" % got)
    egl = (dd.get("egl_vendors") or out.get("egl_vendors") or [None])[0]
    if egl_vendor and egl != egl_vendor:
        problems.append("explain: EGL vendor %s" % egl)
    return problems


# The warning for a request a vendor cannot be told about (choose.c).
NOT_TOLD_WARNING = "a library does not write the environment"


def check_warning(devices, classes, display, variables, stderr):
    """The libraries warn that a request cannot be met exactly when it cannot with the display
    where it is (the reverse-PRIME and VM rows: DRI_PRIME=1 names the other GPU of the
    display's, not boot_vga's). Where one vendor serves every GPU, or the display does not say
    its GPU, the default GPU is the reference (docs/hybrid-gpus.md)."""
    reference = display if display is not None and not one_vendor(devices) else None
    expect = unmet(devices, reference, classes, variables)
    got = NOT_TOLD_WARNING in stderr
    if got == expect:
        return []
    return ["the libraries %s: %s" % ("warned that the request cannot be met" if got else
                                      "did not warn that the request cannot be met",
                                      stderr.strip()[-400:] or "nothing on stderr")]


def check_wayland(setup, devices, spec, display, variables, wayland_env):
    """The default EGL display under WAYLAND_DISPLAY (DISPLAY unset), on a compositor whose
    linux-dmabuf feedback names display's GPU: libEGL (the probe) and explain follow the
    compositor's GPU exactly as they follow the X server's."""
    classes = spec["classes"]
    asked = display_asked(devices, classes, variables)
    egl_display = display if asked else None
    egl_want, reference, vendor_only = decide(devices, egl_display, classes, variables)
    vendor_only |= egl_display != display
    env = setup.env(None, variables)
    env.update(wayland_env)
    problems = []
    out, r = setup.explain(env)
    problems += check_explain_egl(out, r, egl_want, vendor_of(devices, egl_want))
    if out is not None:
        dd = out.get("default_display") or {}
        if bool(dd) != asked:
            problems.append("explain %s the compositor" % ("asked" if dd else "did not ask"))
    problems += setup.probe_check(devices, display, env, {"egl": (egl_want, vendor_only)},
                                  what="egl")
    problems += check_warning(devices, classes, display, variables, setup.last_stderr)
    return egl_want, reference, problems


def start_compositor(compositor, runtime, dev):
    """The fake compositor naming device number dev, in runtime: (process, socket name)."""
    env = dict(os.environ, XDG_RUNTIME_DIR=runtime)
    proc = subprocess.Popen([compositor, str(dev[0]), str(dev[1])], env=env,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    line = proc.stdout.readline().split()
    if len(line) != 2 or line[0] != "ready":
        proc.kill()
        proc.wait()
        return None, None
    return proc, line[1]


def vendor_of(devices, tag):
    d = oracle.by_tag(devices, tag)
    return d["vendor"] if d else None


def inner(args):
    glmux, probe, bed, egl_dir, glx_path, work, quick, compositor = args
    quick = quick == "quick"
    spec = BEDS[bed]
    devices = oracle.annotate(__import__("drm_devices").devices())
    setup = Setup(glmux, probe, egl_dir, glx_path, work)
    server = FakeX(work, [Screen(None, "mesa")])
    can_mknod = server.can_mknod()
    displays = [None] + (spec["displays"] if can_mknod else [])
    if quick:
        displays = displays[:2]
    rows = []
    with server:
        setup.display = server.display
        for display in displays:
            dev = oracle.by_tag(devices, display) if display else None
            if display and dev is None:
                rows.append({"label": label(bed, display, {}), "problems": ["no such GPU"]})
                continue
            if dev is not None:
                node = dev["nodes"].get("render") or dev["nodes"]["card"]
                screen = Screen(tuple(node["dev"]), dev["vendor"])
            else:
                screen = Screen(None, "mesa")
            server.configure([screen])
            for variables in variable_sets(devices, spec, quick):
                want, reference, problems = check_case(setup, server, devices, spec, bed,
                                                       display, variables)
                rows.append({"label": label(bed, display, variables), "want": want,
                             "reference": reference, "problems": problems})
            if dev is not None and compositor != "-":
                rows += wayland_rows(setup, devices, spec, bed, display, node, compositor, work,
                                     quick)
    json.dump({"rows": rows, "mknod": server.mknod_error}, sys.stdout)
    return 0


def wayland_rows(setup, devices, spec, bed, display, node, compositor, work, quick):
    # In TMPDIR, not the build tree: the socket's path must fit a sockaddr_un (108 bytes), and a
    # build directory may be long.
    runtime = tempfile.mkdtemp(prefix="glmux-wl.")
    proc, socket = start_compositor(compositor, runtime, node["dev"])
    if proc is None:
        shutil.rmtree(runtime, ignore_errors=True)
        return [{"label": "%s [Wayland on %s]" % (bed, display),
                 "problems": ["the fake compositor did not start"]}]
    rows = []
    wayland_env = {"WAYLAND_DISPLAY": socket, "XDG_RUNTIME_DIR": runtime,
                   "FAKE_EGL_ANY_WAYLAND": "1"}
    try:
        for variables in variable_sets(devices, spec, quick):
            want, reference, problems = check_wayland(setup, devices, spec, display, variables,
                                                      wayland_env)
            rows.append({"label": label(bed, display, variables).replace(
                "[X on", "[Wayland on", 1), "want": want, "reference": reference,
                "problems": problems})
    finally:
        proc.stdin.close()
        proc.wait()
        shutil.rmtree(runtime, ignore_errors=True)
    return rows


def docs_mention(top, words):
    path = os.path.join(top, "docs", "compatibility.md")
    return os.path.exists(path) and words in open(path).read()


def main():
    if sys.argv[1] == "--inner":
        return inner(sys.argv[2:])
    glmux, probe, beds_dir, egl_dir, glx_path, work = sys.argv[1:7]
    rest = sys.argv[7:]
    quick = "--quick" in rest
    compositor = next((a.split("=", 1)[1] for a in rest if a.startswith("--compositor=")), "-")
    beds = [b for b in rest if not b.startswith("--")] or (QUICK_BEDS if quick else list(BEDS))
    if shutil.which("umockdev-run") is None:
        print("skipped: umockdev-run not installed (apt-get install umockdev)")
        return 77
    os.makedirs(work, exist_ok=True)
    top = os.path.dirname(os.path.dirname(HERE))
    failures, total, notes = 0, 0, set()
    documented = [(r.name, r.words) for r in DIFFERENCES]
    for name, words in documented:
        if not docs_mention(top, words):
            print("FAIL documented difference \"%s\": docs/compatibility.md does not say %r"
                  % (name, words))
            failures += 1
    for bed in beds:
        bed_work = tempfile.mkdtemp(prefix=bed + ".", dir=work)
        cmd = ["umockdev-run", "-d", os.path.join(beds_dir, bed + ".umockdev"), "--",
               sys.executable, os.path.abspath(__file__), "--inner", glmux, probe, bed, egl_dir,
               glx_path, bed_work, "quick" if quick else "full", compositor]
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=1800)
        try:
            result = json.loads(r.stdout)
        except ValueError:
            print("FAIL %s: the bed's run failed (exit %d): %s %s"
                  % (bed, r.returncode, r.stdout[-2000:], r.stderr[-2000:]))
            failures += 1
            continue
        if result["mknod"]:
            notes.add("device nodes cannot be made here (%s): the rows with a known display "
                      "GPU were left out" % result["mknod"])
        for row in result["rows"]:
            total += 1
            if row["problems"]:
                failures += 1
                print("FAIL %s: want %s (%s); %s" % (row["label"], row.get("want"),
                                                     row.get("reference"),
                                                     "; ".join(row["problems"])))
            else:
                print("ok   %s -> %s (%s)" % (row["label"], row["want"], row["reference"]))
        shutil.rmtree(bed_work, ignore_errors=True)
    for note in sorted(notes):
        print("note:", note)
    print("%d case(s), %d failure(s)" % (total, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
