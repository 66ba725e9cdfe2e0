#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""glmux tests: glmux opens no more X connections than Debian's libglvnd, but the one
documented short connection of the default EGL display.

The probe (one EGL program, one GLX program) runs under strace (-f -e trace=connect) on a
private Xvfb, under the intel-nvidia bed (two GPUs), with the same vendors for both libraries,
given to glmux with GLMUX_VENDOR_DIRS and to libglvnd with __EGL_VENDOR_LIBRARY_FILENAMES: Debian's
Mesa alone (its 50_mesa.json, libEGL_mesa.so.0, libGLX_mesa.so.0), then Mesa and the GPU tests'
fake NVIDIA vendor (10_nvidia.json, libGLX_nvidia.so.0), so that glmux has a choice to make.
libglvnd is given the vendor glmux's EGL chose first, so that the same vendor serves on both
sides and any difference is glmux's own connections. For DRI_PRIME=1,
GLMUX_GPU=discrete and (EGL) EGL_PLATFORM=surfaceless, the connections to the X server's socket
that succeed are counted: glmux's count must not exceed libglvnd's, except by one for the
default EGL display where the display's GPU decides the vendor or whether the request is met
(docs/hybrid-gpus.md, "The display's GPU": with Mesa and NVIDIA on the Intel + NVIDIA machine,
DRI_PRIME=1 and GLMUX_GPU=discrete are met only with X on one of the two GPUs). libGLX asks
over the application's connection: never one more. The probe proves each time
which libEGL/libGLX it loaded (glmux's build, or not). Skipped (77) without strace, Xvfb,
umockdev-run or Debian's libglvnd and Mesa.
Usage: run_xconn.py PROBE GLX_LIBRARY_PATH FAKE_NVIDIA_EGL SYSTEM_LIBDIR BEDS WORK
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

MESA_JSON = "/usr/share/glvnd/egl_vendor.d/50_mesa.json"
CASES = [("egl", {"DRI_PRIME": "1"}), ("egl", {"GLMUX_GPU": "discrete"}),
         ("egl", {"EGL_PLATFORM": "surfaceless"}), ("glx", {"DRI_PRIME": "1"}),
         ("glx", {"GLMUX_GPU": "discrete"})]
CLEAR = ("DRI_PRIME", "GLMUX_GPU", "GLMUX_VENDOR_DIRS", "GLMUX_DEBUG", "EGL_PLATFORM",
         "LD_LIBRARY_PATH", "DISPLAY", "WAYLAND_DISPLAY", "XAUTHORITY")
X_SOCKET = re.compile(r'connect\(\d+, \{sa_family=AF_UNIX, sun_path=@?"/tmp/\.X11-unix/X\d+"\}'
                      r'.*= 0$')


def skip(why):
    print("skipped:", why)
    sys.exit(77)


def start_xvfb(work):
    r, w = os.pipe()
    log = open(os.path.join(work, "xvfb.log"), "w")
    proc = subprocess.Popen(["Xvfb", "-displayfd", str(w), "-nolisten", "tcp", "-noreset",
                             "-screen", "0", "320x240x24"], pass_fds=(w,), stdout=log,
                            stderr=log, stdin=subprocess.DEVNULL)
    os.close(w)
    with os.fdopen(r) as f:
        number = f.readline().strip()       # Xvfb writes it once it listens
    if not number:
        proc.wait()
        raise RuntimeError("Xvfb did not start: " + open(log.name).read())
    return proc, ":" + number


def run(probe, bed, work, api, variables, impl, display, glx_path, system_libdir, vendors, n,
        first=None):
    """Runs the probe under strace; returns (result, X connections that succeeded). For
    libglvnd, first: the vendor file to list first (the vendor glmux served)."""
    env = {k: v for k, v in os.environ.items()
           if k not in CLEAR and not k.startswith(("__EGL_", "__GLX_", "__NV_", "FAKE_"))}
    env.update(variables, DISPLAY=display)
    if impl == "glmux":
        env["GLMUX_VENDOR_DIRS"] = vendors
        env["LD_LIBRARY_PATH"] = glx_path
    else:
        files = sorted(os.listdir(vendors), key=lambda f: (f != first, f))
        env["__EGL_VENDOR_LIBRARY_FILENAMES"] = ":".join(os.path.join(vendors, f) for f in files)
        env["LD_LIBRARY_PATH"] = system_libdir + ":" + glx_path
    trace = os.path.join(work, "trace-%d.txt" % n)
    cmd = ["umockdev-run", "-d", bed, "--", "strace", "-f", "-qq", "-e", "trace=connect",
           "-o", trace, probe, api, "ours" if impl == "glmux" else "system"]
    r = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300)
    lines = open(trace).read().splitlines() if os.path.exists(trace) else []
    count = sum(1 for l in lines if X_SOCKET.search(l))
    return r, count


def main():
    probe, glx_path, fake_nvidia, system_libdir, beds, work = sys.argv[1:7]
    for tool in ("strace", "Xvfb", "umockdev-run"):
        if shutil.which(tool) is None:
            skip("%s is not installed (apt-get install strace xvfb umockdev)" % tool)
    if not os.path.exists(MESA_JSON):
        skip("Debian's Mesa EGL vendor is not installed (apt-get install libegl-mesa0)")
    if not os.path.exists(os.path.join(system_libdir, "libEGL.so.1")):
        skip("Debian's libglvnd is not installed in %s (apt-get install libegl1 libglx0)"
             % system_libdir)
    os.makedirs(work, exist_ok=True)
    work = tempfile.mkdtemp(dir=work)
    sets = []
    for name in ("mesa", "mesa+nvidia"):
        vendors = os.path.join(work, name)
        os.makedirs(vendors)
        shutil.copy(MESA_JSON, vendors)
        if name != "mesa":
            with open(os.path.join(vendors, "10_nvidia.json"), "w") as f:
                f.write('{"file_format_version": "1.0.0", "ICD": {"library_path": "%s"}}\n'
                        % fake_nvidia)
        sets.append((name, vendors))
    bed = os.path.join(beds, "intel-nvidia.umockdev")
    xvfb, display = start_xvfb(work)
    failures = n = 0
    try:
        for (name, vendors), (api, variables) in ((s, c) for s in sets for c in CASES):
            counts, problems, first = {}, [], None
            for impl in ("glmux", "libglvnd"):
                n += 1
                r, count = run(probe, bed, work, api, variables, impl, display, glx_path,
                               system_libdir, vendors, n, first)
                counts[impl] = count
                served = next((l.split(None, 1)[1] for l in r.stdout.splitlines()
                               if l.startswith("egl ")), "")
                first = "10_nvidia.json" if served == "nvidia" else "50_mesa.json"
                if r.returncode != 0:
                    problems.append("%s: the probe failed (exit %d): %s" % (
                        impl, r.returncode, (r.stdout + r.stderr).strip()[-1500:]))
            # The default display's own short connection: two vendors, a display server
            # (not surfaceless), and a request whose fate depends on the display's GPU.
            extra = 1 if (name != "mesa" and api == "egl" and
                          "EGL_PLATFORM" not in variables) else 0
            if counts["glmux"] > counts["libglvnd"] + extra:
                problems.append("glmux made %d X connection(s), libglvnd %d (allowed: %d more)"
                                % (counts["glmux"], counts["libglvnd"], extra))
            label = "[%s] %s %s: X connections glmux %d, libglvnd %d" % (
                name, api.upper(), " ".join("%s=%s" % kv for kv in variables.items()),
                counts["glmux"], counts["libglvnd"])
            if problems:
                failures += 1
                print("FAIL %s: %s" % (label, "; ".join(problems)))
            else:
                print("ok   %s" % label)
    finally:
        xvfb.terminate()
        xvfb.wait()
    shutil.rmtree(work, ignore_errors=True)
    print("%d case(s), %d failure(s)" % (len(CASES) * len(sets), failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
