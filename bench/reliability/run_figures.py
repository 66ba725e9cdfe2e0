#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The reliability figures of docs/reliability.md, glmux and Debian's libglvnd side by side.

  bench/reliability/run_figures.py BUILD fork [FORKS]        (default 400)
  bench/reliability/run_figures.py BUILD unload [RUNS]       (default 20 per library)
  bench/reliability/run_figures.py BUILD privileged
  bench/reliability/run_figures.py BUILD soak [SECONDS] [THREADS]   (default 600 8)
  bench/reliability/run_figures.py BUILD fuzz [SECONDS]      (default 600 per target)

fork: bench/reliability/fork_storm.c with 4 threads inside the libraries (lookups of new names
  through libEGL and libGLX, GLMUX_DEBUG=all for glmux); a child not exited 30 s after its fork
  is hung, one ended by a signal crashed.
unload: tests/winsys' lifetime_unload with Debian's Mesa (llvmpipe), once per run and library:
  dlopen libGL.so.1, libGLX.so.0 or libEGL.so.1, contexts current on 4 threads, dlclose, the
  threads exit, load again and render; a run survives when the process exits 0.
privileged: bench/reliability/secure_probe.c as a setuid-root copy and as a file-capability
  copy, run as nobody, once per override variable (__EGL_VENDOR_LIBRARY_FILENAMES,
  __EGL_VENDOR_LIBRARY_DIRS naming a fake vendor; GLMUX_VENDOR_DIRS and GLMUX_DEBUG_FILE for
  glmux only): an attempt is refused when the fake vendor is not loaded (the file not written).
soak: bench/soak/run_soak.sh through each (SOAK_LIBS=libglvnd): RSS growth and descriptors.
fuzz: scripts/fuzz.sh all SECONDS (libglvnd has no fuzz target).
Needs Xvfb and Debian's Mesa and libglvnd; privileged needs root, setcap and setpriv.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MESA_JSON = "/usr/share/glvnd/egl_vendor.d/50_mesa.json"


def multiarch_dir():
    try:
        ma = subprocess.run(["gcc", "-print-multiarch"], capture_output=True,
                            text=True).stdout.strip()
    except OSError:
        ma = ""
    return "/usr/lib/" + (ma or "x86_64-linux-gnu")


SYSTEM = multiarch_dir()


def glmux_libdir(build, work):
    """glmux's libraries in one directory (symbolic links into the build)."""
    d = os.path.join(work, "glmux-lib")
    os.makedirs(d, exist_ok=True)
    for lib in ("egl/libEGL.so.1", "glx/libGLX.so.0", "gl/libGL.so.1",
                "dispatch/libGLdispatch.so.0", "opengl/libOpenGL.so.0"):
        link = os.path.join(d, os.path.basename(lib))
        if not os.path.lexists(link):
            os.symlink(os.path.join(build, "src", lib), link)
    return d


class Xvfb:
    def __enter__(self):
        r, w = os.pipe()
        self.proc = subprocess.Popen(["Xvfb", "-displayfd", str(w), "-nolisten", "tcp",
                                      "-screen", "0", "64x64x24"], pass_fds=(w,),
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(w)
        with os.fdopen(r) as f:
            self.display = ":" + f.readline().strip()
        return self

    def __exit__(self, *exc):
        self.proc.terminate()
        self.proc.wait()


def clean_env(extra):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("GLMUX_", "__EGL_", "__GLX_", "LD_LIBRARY_PATH"))}
    env.update(extra)
    return env


def fork(build, work, forks=400):
    prog = os.path.join(build, "bench", "reliability", "glmux_fork_storm")
    rows = []
    for who, libdir, extra in (
            ("glmux", glmux_libdir(build, work), {"GLMUX_DEBUG": "all",
                                                  "GLMUX_DEBUG_FILE": "/dev/null"}),
            ("libglvnd", SYSTEM, {})):
        env = clean_env(dict(extra, __EGL_VENDOR_LIBRARY_FILENAMES=MESA_JSON,
                             EGL_PLATFORM="surfaceless"))
        r = subprocess.run([prog, "--libdir", libdir, "--forks", str(forks), "--threads", "4"],
                           env=env, capture_output=True, text=True, errors="replace")
        m = re.search(r"forks (\d+) exited (\d+) hung (\d+) crashed (\d+)", r.stdout)
        result = ("%s forks: %s hung, %s crashed" % m.group(1, 3, 4)) if m else \
            "did not run: " + r.stderr.strip()[-200:]
        rows.append((who, result))
    return rows


def unload(build, work, runs=20):
    prog = os.path.join(build, "tests", "winsys", "lifetime_unload")
    base = {"__EGL_VENDOR_LIBRARY_FILENAMES": MESA_JSON, "LIBGL_ALWAYS_SOFTWARE": "1",
            "MESA_SHADER_CACHE_DISABLE": "true"}
    rows = []
    with Xvfb() as x:
        # The test programs find their X server through the ctest fixture's file.
        with open(os.path.join(work, "two.display"), "w") as f:
            f.write(x.display + "\n")
        base["GLMUX_TEST_XVFB_DIR"] = work
        for who in ("glmux", "libglvnd"):
            parts = []
            for api, lib, ours in (("glx", "libGL.so.1", "gl"), ("glx", "libGLX.so.0", "glx"),
                                   ("egl", "libEGL.so.1", "egl")):
                if who == "glmux":
                    path = os.path.join(build, "src", ours, lib)
                    env = clean_env(dict(base, DISPLAY=x.display))
                else:
                    path = os.path.join(SYSTEM, lib)
                    env = clean_env(dict(base, DISPLAY=x.display, LD_LIBRARY_PATH=SYSTEM,
                                         GLMUX_TEST_LIB_DIR=SYSTEM))
                ok = signals = 0
                for _ in range(runs):
                    r = subprocess.run([prog, "unload", api, "mesa", path], env=env,
                                       capture_output=True, text=True, errors="replace",
                                       timeout=300)
                    ok += r.returncode == 0
                    signals += r.returncode < 0
                parts.append("%s %d/%d%s" % (lib, ok, runs,
                                             " (%d crashed)" % signals if signals else ""))
            rows.append((who, "survived: " + ", ".join(parts)))
    return rows


def privileged(build, work):
    if os.geteuid() != 0:
        return [("both", "not measured: needs root (setuid copies, setcap)")]
    setcap = shutil.which("setcap") or "/usr/sbin/setcap"
    setpriv = shutil.which("setpriv")
    if not os.path.exists(setcap) or setpriv is None:
        return [("both", "not measured: setcap (libcap2-bin) or setpriv (util-linux) missing")]
    d = tempfile.mkdtemp(prefix="glmux-priv-", dir=work)
    os.chmod(d, 0o755)
    fake = os.path.join(build, "tests", "egl", "vendors", "libEGL_fake1.so.0")
    vdir = os.path.join(d, "vendors")
    os.makedirs(vdir)
    json_path = os.path.join(vdir, "10_marker.json")
    with open(json_path, "w") as f:
        f.write('{"file_format_version": "1.0.0", "ICD": {"library_path": "%s"}}\n' % fake)
    probe = os.path.join(build, "bench", "reliability", "glmux_secure_probe")
    copies = {}
    for kind in ("setuid", "capability"):
        copy = os.path.join(d, "probe-" + kind)
        shutil.copy2(probe, copy)
        if kind == "setuid":
            os.chown(copy, 0, 0)
            os.chmod(copy, 0o4755)
        else:
            os.chmod(copy, 0o755)
            if subprocess.run([setcap, "cap_net_bind_service=ep", copy]).returncode != 0:
                continue
        copies[kind] = copy
    debug_file = os.path.join(d, "debug.log")
    attempts = [("__EGL_VENDOR_LIBRARY_FILENAMES", json_path, False),
                ("__EGL_VENDOR_LIBRARY_DIRS", vdir, False),
                ("GLMUX_VENDOR_DIRS", vdir, True),
                ("GLMUX_DEBUG_FILE", debug_file, True)]
    os.chmod(d, 0o777)   # nobody may create the debug file, if the library lets it
    rows = []
    for who, libegl in (("glmux", os.path.join(build, "src", "egl", "libEGL.so.1")),
                        ("libglvnd", os.path.join(SYSTEM, "libEGL.so.1"))):
        refused = total = 0
        honoured = []
        for kind, copy in sorted(copies.items()):
            for var, value, glmux_only in attempts:
                if glmux_only and who == "libglvnd":
                    continue
                if os.path.exists(debug_file):
                    os.unlink(debug_file)
                env = clean_env({var: value, "GLMUX_PROBE_DEBUG_FILE": debug_file,
                                 "EGL_PLATFORM": "surfaceless"})
                if var == "GLMUX_DEBUG_FILE":
                    env["GLMUX_DEBUG"] = "all"
                r = subprocess.run([setpriv, "--reuid=65534", "--regid=65534", "--clear-groups",
                                    "--", copy, libegl, "libEGL_fake1"], env=env,
                                   capture_output=True, text=True, errors="replace", timeout=120)
                m = re.search(r"secure=(\d) marker=(\w+) debug_file=(\w+)", r.stdout)
                if m is None or m.group(1) != "1":
                    honoured.append("%s/%s: probe did not run securely (%s)"
                                    % (kind, var, (r.stdout + r.stderr).strip()[-120:]))
                    continue
                total += 1
                took = m.group(2) == "loaded" or m.group(3) == "written"
                refused += not took
                if took:
                    honoured.append("%s under %s" % (var, kind))
        rows.append((who, "%d/%d refused%s" % (refused, total,
                                               "; honoured: " + ", ".join(honoured)
                                               if honoured else "")))
    return rows


def soak(build, work, seconds=600, threads=8):
    rows = []
    for who in ("glmux", "libglvnd"):
        env = clean_env({"SOAK_LIBS": who})
        r = subprocess.run(["sh", os.path.join(TOP, "bench", "soak", "run_soak.sh"), build,
                            "%ds" % seconds, str(threads)], env=env, capture_output=True,
                           text=True, errors="replace")
        out = r.stdout + r.stderr
        rss = re.search(r"mean of 2nd quarter (\d+) KiB, of last quarter (\d+) KiB", out)
        peak = re.search(r"RSS after warm-up (\d+) KiB, peak (\d+) KiB", out)
        fds = re.search(r"open file descriptors: (\d+) at the start, (\d+) after warm-up, (\d+) "
                        r"at the last sample, (\d+) after", out)
        verdict = re.search(r"soak: (PASS|FAIL)", out)
        if rss and fds:
            result = ("RSS 2nd→last quarter %+d KiB (peak %+d KiB), descriptors %s→%s→%s→%s, %s"
                      % (int(rss.group(2)) - int(rss.group(1)),
                         int(peak.group(2)) - int(peak.group(1)), *fds.groups(),
                         verdict.group(1) if verdict else "status %d" % r.returncode))
        else:
            result = "did not finish (status %d): %s" % (r.returncode, out.strip()[-300:])
        rows.append((who, result))
    return rows


def fuzz(build, work, seconds=600):
    r = subprocess.run(["sh", os.path.join(TOP, "scripts", "fuzz.sh"), "all", str(seconds)],
                       capture_output=True, text=True, errors="replace")
    table = [l for l in r.stdout.splitlines() if re.match(r"^\S+ +\d+ +[\d,]+  ", l)]
    return [("glmux", "; ".join(" ".join(l.split()) for l in table) + " (status %d)"
             % r.returncode), ("libglvnd", "no fuzz target")]


def main():
    if len(sys.argv) < 3 or sys.argv[2] not in ("fork", "unload", "privileged", "soak", "fuzz"):
        print(__doc__)
        return 2
    build = os.path.abspath(sys.argv[1])
    args = [int(a) for a in sys.argv[3:]]
    work = tempfile.mkdtemp(prefix="glmux-figures-")
    os.chmod(work, 0o755)   # the privileged probe runs as nobody
    try:
        rows = globals()[sys.argv[2]](build, work, *args)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    for who, result in rows:
        print("%s %s: %s" % (sys.argv[2], who, result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
