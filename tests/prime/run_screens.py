#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""glmux tests: `glmux explain` names, screen by screen, the GLX vendor libGLX loads.

An Xvfb with two screens, with GLX and without it (-extension GLX), each with nothing set and
with __GLX_FORCE_VENDOR_LIBRARY_1 (which turns the pixels vendor's rule off for screen 1 only):
  * with GLX, nothing set: Mesa (the server names it) on both screens;
  * with GLX, __GLX_FORCE_VENDOR_LIBRARY_1=glmux-pixels: Mesa on 0, the pixels vendor on 1;
  * without GLX, nothing set: the pixels vendor on both (it comes first on a server without GLX);
  * without GLX, __GLX_FORCE_VENDOR_LIBRARY_1=mesa: the pixels vendor on 0, Mesa on 1.
With the fake GLX vendors of tests/glx (FAKE_DIRS), where explain once re-coded libGLX's walk
and disagreed with it:
  * __GLX_VENDOR_LIBRARY_NAME=fakea, an installed vendor whose __glx_Main refuses: libGLX warns
    and goes on to the server's Mesa, and explain says Mesa, naming fakea as passed over;
  * a "mesa" that loads but whose isScreenSupported refuses screen 0: libGLX falls back to the
    pixels vendor there, and explain says so.
And through an X proxy (long_ext_proxy.c) whose server's GLX_EXTENSIONS string is longer than
4 KiB with GLX_EXT_libglvnd last (the tool once cut it at 4 KiB, missed the extension and so
named no server vendor): Mesa on both screens, the server's list asked, as libGLX does.
For each, `glmux explain --json` and its text give each screen's vendor (and its reasons say why,
never "the X server's vendor" for a screen the pixels vendor serves), and a GLX program
through glmux's libGLX (screens_probe, GLMUX_DEBUG=vendor) shows which vendor libGLX loaded for
each screen ("screen N of :D: vendor ..."): the two must agree, and match the list above. The
vendors are Debian's Mesa (libGLX_mesa.so.0, libEGL_mesa.so.0, which the pixels vendor renders
with) and the build's pixels vendor (GLX_LIBRARY_PATH).
Usage: run_screens.py GLMUX PROBE PIXELS_DIR WORK PROXY [FAKEA_DIR FAKEMESA_DIR]. Exit 0
pass, 77 skip, 1 fail.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

PIXELS = "glmux-pixels"
CASES = [
    (True, {}, ["mesa", "mesa"]),
    (True, {"__GLX_FORCE_VENDOR_LIBRARY_1": PIXELS}, ["mesa", PIXELS]),
    (False, {}, [PIXELS, PIXELS]),
    (False, {"__GLX_FORCE_VENDOR_LIBRARY_1": "mesa"}, [PIXELS, "mesa"]),
]
# (server has GLX, variables, vendor of each screen, the fake vendors' directory: "fakea" or
# "fakemesa", what explain's text must say)
FAKE_CASES = [
    (True, {"__GLX_VENDOR_LIBRARY_NAME": "fakea", "FAKE_GLX_REJECT": "fakea"}, ["mesa", "mesa"],
     "fakea", 'passed over: "fakea" (__GLX_VENDOR_LIBRARY_NAME): '),
    (True, {"FAKE_GLX_UNSUPPORTED_SCREEN": "0"}, [PIXELS, "mesa"], "fakemesa",
     'passed over: "mesa" (named by the X server): its isScreenSupported refuses screen 0'),
]
LOADED = re.compile(r'screen (\d) of \S+: vendor "([^"]+)"')


def skip(why):
    print("skipped:", why)
    sys.exit(77)


def start_xvfb(glx):
    rfd, wfd = os.pipe()
    args = ["Xvfb", "-displayfd", str(wfd), "-nolisten", "tcp", "-noreset",
            "-screen", "0", "64x64x24", "-screen", "1", "64x64x24"]
    if not glx:
        args += ["-extension", "GLX"]
    proc = subprocess.Popen(args, pass_fds=(wfd,), stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    os.close(wfd)
    with os.fdopen(rfd, "rb") as f:
        number = f.readline().strip()
    if not number:
        proc.kill()
        proc.wait()
        return None, None
    return proc, ":" + number.decode()


def clean_env(display, pixels_dir, variables):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("GLMUX_", "__EGL_", "__GLX_", "__NV_", "DRI_PRIME",
                                "LIBGL_", "WAYLAND_"))}
    env.update(variables, DISPLAY=display, LD_LIBRARY_PATH=pixels_dir)
    return env


def check_case(glmux, probe, pixels_dir, work, display, glx, variables, want, fake_dir=None,
               says=None):
    env = clean_env(display, pixels_dir, variables)
    if fake_dir:
        env["LD_LIBRARY_PATH"] = fake_dir + ":" + pixels_dir
    problems = []
    r = subprocess.run([glmux, "explain", "--json"], env=env, capture_output=True, text=True,
                       timeout=120)
    try:
        screens = json.loads(r.stdout)["glx"]["screens"]
    except (ValueError, KeyError):
        return ["explain --json: exit %d: %s" % (r.returncode, r.stderr.strip())]
    told = [s.get("vendor") for s in screens]
    text = subprocess.run([glmux, "explain"], env=env, capture_output=True, text=True,
                          timeout=120).stdout
    told_text = [m.group(1) for m in re.finditer(r'^X screen \d:  vendor "([^"]+)"', text,
                                                 re.M)]
    log = os.path.join(work, "glx-%d.log" % len(os.listdir(work)))
    env.update(GLMUX_DEBUG="vendor", GLMUX_DEBUG_FILE=log)
    r = subprocess.run([probe], env=env, capture_output=True, text=True, timeout=120)
    if r.returncode != 0:
        return ["the GLX program failed (exit %d): %s" % (r.returncode,
                                                          (r.stdout + r.stderr).strip()[-800:])]
    loaded = [None, None]
    for m in LOADED.finditer(open(log).read() if os.path.exists(log) else ""):
        loaded[int(m.group(1))] = m.group(2)
    if loaded != want:
        problems.append("libGLX loaded %s, expected %s" % (loaded, want))
    if told != loaded:
        problems.append("explain --json names %s, libGLX loaded %s" % (told, loaded))
    if told_text != loaded:
        problems.append("explain's text names %s, libGLX loaded %s" % (told_text, loaded))
    if says and says not in text:
        problems.append("explain's text does not say %r: %r" % (says, text))
    # The reasons agree with the screen lines: a screen the pixels vendor serves first is not
    # said to get the X server's vendor.
    for s, vendor in enumerate(told):
        first = 'GLX screen %d: vendor "%s" comes first' % (s, PIXELS)
        if vendor == PIXELS and "GLX screen %d: the X server's vendor" % s in text:
            problems.append("screen %d: the pixels vendor, yet 'the X server's vendor'" % s)
        if vendor == PIXELS and not glx and "__GLX_FORCE_VENDOR_LIBRARY_%d" % s not in \
                variables and first not in text:
            problems.append("screen %d: the reasons do not say %r" % (s, first))
    return problems


def check_long_extensions(glmux, probe, pixels_dir, work, display, proxy):
    """Through long_ext_proxy: explain and libGLX agree, the server's list asked; 1 on failure."""
    p = subprocess.Popen([proxy, display], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         text=True)
    try:
        name = p.stdout.readline().strip()
        if not name:
            print("FAIL [GLX, extension string over 4 KiB]: the proxy did not start")
            return 1
        problems = check_case(glmux, probe, pixels_dir, work, name, True, {}, ["mesa", "mesa"])
        env = clean_env(name, pixels_dir, {})
        r = subprocess.run([glmux, "explain", "--json"], env=env, capture_output=True, text=True,
                           timeout=120)
        try:
            asked = [s["server_asked"] for s in json.loads(r.stdout)["glx"]["screens"]]
        except (ValueError, KeyError):
            asked = None
        if asked != [True, True]:
            problems.append("the server's vendor names not asked on every screen: %s" % asked)
        if problems:
            print("FAIL [GLX, extension string over 4 KiB]: %s" % "; ".join(problems))
            return 1
        print("ok   [GLX, extension string over 4 KiB]: screens mesa, mesa")
        return 0
    finally:
        p.kill()
        p.wait()


def main():
    glmux, probe, pixels_dir, work, proxy = sys.argv[1:6]
    fakes = dict(zip(("fakea", "fakemesa"), sys.argv[6:8]))
    if shutil.which("Xvfb") is None:
        skip("Xvfb is not installed (apt-get install xvfb)")
    if not os.path.exists("/usr/share/glvnd/egl_vendor.d/50_mesa.json"):
        skip("Debian's Mesa EGL vendor is not installed (apt-get install libegl-mesa0)")
    os.makedirs(work, exist_ok=True)
    work = tempfile.mkdtemp(dir=work)
    failures = 0
    for glx in (True, False):
        proc, display = start_xvfb(glx)
        if proc is None:
            skip("Xvfb did not start")
        try:
            cases = [c + (None, None) for c in CASES]
            cases += [(g, v, w, fakes[f], says) for g, v, w, f, says in FAKE_CASES
                      if f in fakes]
            for server_glx, variables, want, fake_dir, says in cases:
                if server_glx != glx:
                    continue
                label = "[%s] %s" % ("GLX" if glx else "no GLX", " ".join(
                    "%s=%s" % kv for kv in variables.items()) or "(nothing set)")
                problems = check_case(glmux, probe, pixels_dir, work, display, glx, variables,
                                      want, fake_dir, says)
                if problems:
                    failures += 1
                    print("FAIL %s: %s" % (label, "; ".join(problems)))
                else:
                    print("ok   %s: screens %s" % (label, ", ".join(want)))
            if glx:
                failures += check_long_extensions(glmux, probe, pixels_dir, work, display, proxy)
        finally:
            proc.terminate()
            proc.wait()
    shutil.rmtree(work, ignore_errors=True)
    print("%d case(s), %d failure(s)" % (len(CASES) + len(fakes and FAKE_CASES) + 1, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
