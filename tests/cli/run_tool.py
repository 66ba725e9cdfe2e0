#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""glmux tests: the glmux tool's commands, outputs and exit codes.

--help/--version/usage errors (0/1/2), `check` diagnostics in file:line form, `vendors --json`
with libraries that load, lack their entry point or are missing, the sysfs-missing fallback,
and, under umockdev, `gpus --json`, `env --gpu` and `run --gpu`. Exit 0 pass, 1 fail, 77 when every check
that could run passed but the umockdev or Xvfb ones could not run here.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

FAILURES = []
SKIPPED = []   # checks that could not run here: the test then exits 77, not 0


def skip(why):
    print("note: " + why)
    SKIPPED.append(why)


def check(cond, what):
    if cond:
        print("ok   " + what)
    else:
        print("FAIL " + what)
        FAILURES.append(what)


def clean_env(**extra):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("GLMUX_", "__NV_", "__EGL_", "__GLX_", "DRI_PRIME", "DISPLAY"))}
    env.update(extra)
    return env


def run(cmd, env=None, bed=None, cwd=None):
    if bed is not None:
        cmd = ["umockdev-run", "-d", bed, "--"] + cmd
    return subprocess.run(cmd, env=env or clean_env(), capture_output=True, text=True,
                          timeout=60, cwd=cwd)


def test_basics(glmux):
    r = run([glmux, "--help"])
    check(r.returncode == 0 and "Usage: glmux" in r.stdout, "--help exits 0 with usage")
    r = run([glmux, "explain", "--help"])
    check(r.returncode == 0 and r.stdout.startswith("Usage: glmux explain"),
          "COMMAND --help exits 0 with the command's usage")
    r = run([glmux, "--version"])
    check(r.returncode == 0 and r.stdout.startswith("glmux "), "--version")
    for args in ([], ["frobnicate"], ["gpus", "--bogus"], ["manifest"], ["env", "--gpu"],
                 ["env", "--gpu", "0"], ["env", "--gpu", "x y"], ["run", "--gpu", "discrete"]):
        r = run([glmux] + args)
        check(r.returncode == 2 and "glmux:" in r.stderr, "usage error exits 2: %s" % args)


def test_check(glmux, tests):
    mdir = os.path.join(tests, "select", "manifests")
    expect = {
        "bad-syntax.json": ":4: error: trailing comma",
        "bad-types.json": ":6: error: \"drivers\" must be an array, not a string",
        "bad-version.json": ":2: error: file_format_version \"2.0.0\"",
        "bad-nolib.json": ":1: error: the manifest names no library",
        "bad-duplicate.json": ":4: error: duplicate key \"ICD\" (first at line 3)",
        "bad-name.json": ":4: error: vendor name \"no/slashes\"",
        "bad-truncated.json": ":4: error: unexpected end of file",
    }
    for name, text in sorted(expect.items()):
        path = os.path.join(mdir, name)
        r = run([glmux, "check", path])
        check(r.returncode == 1 and (path + text) in r.stderr,
              "check %s -> exit 1, '%s' (got %r)" % (name, text, r.stderr.strip()))
    good = [os.path.join(mdir, n) for n in ("good-full.json", "20_legacy.json", "glx-only.json")]
    r = run([glmux, "check"] + good)
    # Their libraries are not installed: a warning each (a file named may be checked before its
    # package installs the library), not an error.
    missing = [l for l in r.stderr.splitlines() if ": warning: " in l and " is missing: " in l]
    check(r.returncode == 0 and r.stdout.count(": ok: ") == 3 and
          len(missing) == len(r.stderr.splitlines()),
          "check of good manifests exits 0, warning only that their libraries are missing: %s"
          % r.stderr)
    r = run([glmux, "check", os.path.join(mdir, "warn-unknown.json")])
    check(r.returncode == 0 and ":4: warning: unknown key \"colour\"" in r.stderr,
          "warnings do not fail check")
    r = run([glmux, "check", os.path.join(mdir, "good-full.json"),
             os.path.join(mdir, "bad-syntax.json")])
    check(r.returncode == 1 and ": ok: " in r.stdout, "one bad file among good ones exits 1")
    r = run([glmux, "check", "/nonexistent/x.json"])
    check(r.returncode == 1 and "/nonexistent/x.json: error: cannot open" in r.stderr,
          "missing file")


def test_vendors(glmux, egl_lib, glx_lib):
    with tempfile.TemporaryDirectory(prefix="glmux-cli-") as d:
        with open(os.path.join(d, "05_clifake.json"), "w") as f:
            json.dump({"file_format_version": "1.0.0", "ICD": {"library_path": egl_lib},
                       "vendor": {"name": "clifake", "glx_library_path": glx_lib,
                                  "drivers": ["i915"], "priority": 5}}, f)
        with open(os.path.join(d, "60_missing.json"), "w") as f:
            json.dump({"file_format_version": "1.0.0",
                       "ICD": {"library_path": "libEGL_glmuxnosuchvendor.so.0"}}, f)
        with open(os.path.join(d, "70_broken.json"), "w") as f:
            f.write("{ not json")
        r = run([glmux, "vendors", "--json"], env=clean_env(GLMUX_VENDOR_DIRS=d))
        check(r.returncode == 0, "vendors --json exits 0 (%s)" % r.stderr.strip())
        out = json.loads(r.stdout)
        names = [v["name"] for v in out["vendors"]]
        check(names == ["clifake", "glmuxnosuchvendor"], "vendors in priority order: %s" % names)
        check(out["rejected"] == 1 and "70_broken.json:1: error" in r.stderr,
              "a broken manifest is skipped with one warning")
        fake = out["vendors"][0]
        check(fake["loads"] == {"egl": True, "glx": False}, "EGL loads, GLX lacks __glx_Main")
        check(fake["drivers"] == ["i915"] and fake["priority"] == 5, "driver list and priority")
        missing = out["vendors"][1]
        check(missing["loads"] == {"egl": False, "glx": False} and missing["drivers"] is None
              and missing["priority"] == 60, "missing library, derived name and priority")
        r = run([glmux, "vendors"], env=clean_env(GLMUX_VENDOR_DIRS=d))
        check(r.returncode == 0 and "has no __glx_Main" in r.stdout, "vendors text output")
        r = run([glmux, "vendors", "--json", "--no-load"], env=clean_env(GLMUX_VENDOR_DIRS=d))
        check("loads" not in json.loads(r.stdout)["vendors"][0], "--no-load loads nothing")


def test_no_sysfs(glmux):
    if shutil.which("umockdev-run") is None:
        skip("umockdev-run missing; the no-/sys check skipped")
        return
    # An empty umockdev testbed has no /sys/devices: what a container without /sys shows.
    # (umockdev's preload comes before the ASan runtime of a sanitizer build; ASan copes.)
    env = clean_env(DRI_PRIME="1", ASAN_OPTIONS="verify_asan_link_order=0")
    r = run(["umockdev-run", "--", glmux, "gpus", "--json"], env=env)
    out = json.loads(r.stdout)
    check(r.returncode == 0 and out["sysfs_missing"] and out["gpus"] == []
          and "/sys" in (out["problem"] or ""), "sysfs missing: no GPU, no crash")
    r = run(["umockdev-run", "--", glmux, "explain", "--json"], env=env)
    out = json.loads(r.stdout)
    warnings = [l for l in r.stderr.splitlines() if l.startswith("glmux:")]
    check(r.returncode == 0 and out["gpu"] is None and len(warnings) == 1,
          "sysfs missing with DRI_PRIME=1: one warning (%s)" % warnings)


def run_bytes(cmd, env):
    return subprocess.run(cmd, env=env, capture_output=True, timeout=60)


def test_untrusted(glmux):
    """Control characters and invalid UTF-8 from the environment and from
    manifests never reach the terminal raw, --json stays valid UTF-8 JSON, and numbers out of
    range are named as such instead of being wrapped."""
    def raw_controls(data):
        return [b for b in data if (b < 0x20 and b not in (0x0a, 0x09)) or b == 0x7f] + \
            ([0x9b] if b"\xc2\x9b" in data else [])

    hostile = b"\x1b]0;owned\x07\x1b[2J\xff\xc2\x9b"
    env = clean_env()
    env = {k.encode(): v.encode() for k, v in env.items()}
    env[b"DRI_PRIME"] = hostile
    r = run_bytes([glmux, "explain"], env)
    check(r.returncode == 0 and not raw_controls(r.stdout + r.stderr)
          and b"\\x1b]0;owned\\x07" in r.stdout + r.stderr,
          "explain: an ESC sequence in DRI_PRIME is shown escaped (%r)" % (r.stdout + r.stderr)[:200])
    r = run_bytes([glmux, "explain", "--json"], env)
    try:
        out = json.loads(r.stdout.decode("utf-8", errors="strict"))
        value = out["request"]["value"]
        ok = value.startswith("\x1b]0;owned\x07") and "\ufffd" in value
    except (ValueError, KeyError, TypeError) as e:
        ok, value = False, repr(e)
    check(r.returncode == 0 and ok and not raw_controls(r.stdout),
          "explain --json: valid UTF-8 JSON, controls as \\u escapes (%r)" % value)

    r = run([glmux, "env", "--gpu", "10de:-1"])
    check(r.returncode == 2 and "out of range" in r.stderr, "env --gpu 10de:-1: out of range (%r)"
          % r.stderr.strip())
    r = run([glmux, "env", "--gpu", "10de:123456"])
    check(r.returncode == 2 and "out of range" in r.stderr, "env --gpu 10de:123456: out of range")
    r = run([glmux, "explain"], env=clean_env(DRI_PRIME="99999999999999999999"))
    check(r.returncode == 0 and "out of range" in r.stderr and "9223372036854775807" not in
          r.stdout + r.stderr, "DRI_PRIME=99999999999999999999: out of range, not wrapped (%r)"
          % r.stderr)

    # A manifest whose file name and library path carry escape sequences.
    with tempfile.TemporaryDirectory(prefix="glmux-untrusted-") as d:
        name = os.path.join(d.encode(), b"\x1b[31mevil\xff.json")
        with open(name, "wb") as f:
            f.write(b'{"file_format_version": "1.0.0", '
                    b'"ICD": {"library_path": "/nonexistent/\\u001b[2Jlib\\u009b.so"}, '
                    b'"vendor": {"format_version": 1, "name": "evil"}}')
        env = {k.encode(): v.encode() for k, v in clean_env(GLMUX_VENDOR_DIRS=d).items()}
        env[b"__EGL_VENDOR_LIBRARY_DIRS"] = d.encode()
        r = run_bytes([glmux, "vendors"], env)
        check(b"evil" in r.stdout + r.stderr and not raw_controls(r.stdout + r.stderr),
              "vendors: a manifest's name and library path are shown escaped (%r)"
              % (r.stdout + r.stderr)[:300])
        r = run_bytes([glmux, "vendors", "--json"], env)
        try:
            text = r.stdout.decode("utf-8", errors="strict")
            json.loads(text)
            ok = "evil" in text and "\\u001b[2J" in text
        except ValueError:
            ok = False
        check(ok and not raw_controls(r.stdout), "vendors --json: valid UTF-8 JSON")


def test_beds(glmux, tests):
    beds = os.path.join(tests, "cli", "beds")
    vendors = os.path.join(tests, "cli", "vendors")
    if shutil.which("umockdev-run") is None:
        skip("umockdev-run missing; bed checks skipped")
        return
    env = clean_env(GLMUX_VENDOR_DIRS=vendors)
    bed = os.path.join(beds, "intel-nvidia.umockdev")
    probe = run([glmux, "gpus"], env=env, bed=bed)
    if probe.returncode != 0:
        # e.g. an ASan build: the sanitizer runtime must come before umockdev's preload
        skip("umockdev-run does not work with this build; bed checks skipped: %s"
             % probe.stderr.strip()[:200])
        return
    r = run([glmux, "gpus", "--json"], env=env, bed=bed)
    out = json.loads(r.stdout)
    gpus = out["gpus"]
    check([g["tag"] for g in gpus] == ["pci-0000_00_02_0", "pci-0000_01_00_0"], "gpus sorted")
    check(gpus[0]["default"] and not gpus[0]["discrete"] and gpus[0]["vendor"] == "mesa"
          and gpus[0]["driver"] == "i915", "iGPU: default, integrated, mesa")
    keys = {"pci", "tag", "vendor_id", "device_id", "class", "driver", "vendor", "kind",
            "default", "discrete", "boot_vga", "boot_display", "power", "render_node",
            "card_node"}
    check(all(keys <= set(g) for g in gpus), "gpus --json: every field (%s missing)"
          % sorted(keys - set(gpus[0])))
    check(gpus[0]["pci"] == "0000:00:02.0" and gpus[0]["class"] == "030000"
          and gpus[1]["class"] == "030200" and gpus[1]["vendor_id"] == "10de"
          and gpus[1]["device_id"] == "25a2" and gpus[0]["boot_vga"]
          and not gpus[0]["boot_display"], "gpus --json: PCI address, class, ids, boot flags")
    check(not gpus[1]["default"] and gpus[1]["discrete"] and gpus[1]["vendor"] == "nvidia"
          and gpus[1]["power"] == "suspended" and gpus[1]["render_node"] == "renderD129",
          "dGPU: discrete, nvidia, suspended, renderD129")
    r = run([glmux, "gpus"], env=env, bed=bed)
    check(r.returncode == 0 and "default GPU: pci-0000_00_02_0 (boot_vga)" in r.stdout,
          "gpus text output")
    r = run([glmux, "env", "--gpu", "discrete"], env=env, bed=bed)
    check(r.returncode == 0 and r.stdout.splitlines() == [
        "export GLMUX_GPU='pci-0000_01_00_0'",
        "unset DRI_PRIME",
        "export __NV_PRIME_RENDER_OFFLOAD='1'",
        "export __GLX_VENDOR_LIBRARY_NAME='nvidia'",
        "export __VK_LAYER_NV_optimus='NVIDIA_only'"], "env --gpu discrete (NVIDIA): %r"
          % r.stdout)
    r = run([glmux, "env", "--gpu", "integrated"], env=env, bed=bed)
    check(r.returncode == 0 and r.stdout.splitlines() == [
        "export GLMUX_GPU='pci-0000_00_02_0'", "export DRI_PRIME='pci-0000_00_02_0'",
        "unset __NV_PRIME_RENDER_OFFLOAD", "unset __NV_PRIME_RENDER_OFFLOAD_PROVIDER",
        "unset __VK_LAYER_NV_optimus"], "env --gpu integrated (Mesa): %r" % r.stdout)
    # A session's NVIDIA launcher variables do not survive a move to the Mesa GPU.
    r = run([glmux, "run", "--gpu", "integrated", "--", "sh", "-c",
             "echo ${__NV_PRIME_RENDER_OFFLOAD-unset} ${__GLX_VENDOR_LIBRARY_NAME-unset} "
             "$DRI_PRIME"], env=dict(env, __NV_PRIME_RENDER_OFFLOAD="1",
                                     __GLX_VENDOR_LIBRARY_NAME="nvidia"), bed=bed)
    check(r.returncode == 0 and r.stdout.split() == ["unset", "unset", "pci-0000_00_02_0"],
          "run --gpu integrated removes the NVIDIA variables (%r)" % r.stdout)
    # No GPU matches: a warning, and the command runs with its environment unchanged; the exit
    # status is the command's (glmux(1)).
    r = run([glmux, "env", "--gpu", "pci-0000_09_00_0"], env=env, bed=bed)
    check(r.returncode == 0 and r.stdout == "" and "warning" in r.stderr and
          "no GPU has the tag" in r.stderr, "env with an unknown GPU: a warning, nothing "
          "exported (%r)" % r.stderr)
    vm = os.path.join(beds, "vm-virtio.umockdev")
    # env runs no command: its warning says what it prints, not what a command would do.
    r = run([glmux, "env", "--gpu", "discrete"], env=env, bed=vm)
    check(r.returncode == 0 and r.stdout == "" and "nothing to set" in r.stderr and
          "command" not in r.stderr, "env --gpu discrete on a VM: nothing to set, no word of a "
          "command (%r)" % r.stderr)
    nogpu = os.path.join(beds, "no-gpu.umockdev")
    r = run([glmux, "run", "--gpu", "discrete", "--", "true"], env=env, bed=vm)
    check(r.returncode == 0 and "there is no discrete GPU" in r.stderr,
          "run --gpu discrete -- true on a VM: exit 0 and a warning (%d, %r)"
          % (r.returncode, r.stderr))
    for spec in ("discrete", "default"):
        r = run([glmux, "run", "--gpu", spec, "--", "sh", "-c", "exit 3"], env=env, bed=nogpu)
        check(r.returncode == 3 and "warning" in r.stderr,
              "run --gpu %s without any GPU: the command's status and a warning (%d, %r)"
              % (spec, r.returncode, r.stderr))
    r = run([glmux, "run", "--", "sh", "-c", "echo ${DRI_PRIME-unset}"],
            env=dict(env, DRI_PRIME="1"), bed=vm)
    check(r.returncode == 0 and r.stdout.strip() == "1",
          "run without a matching GPU leaves the environment as it was (%r)" % r.stdout)
    amd = os.path.join(beds, "amd-amd.umockdev")
    r = run([glmux, "run", "--gpu", "1", "--", "sh", "-c", "echo $GLMUX_GPU $DRI_PRIME"],
            env=env, bed=amd)
    check(r.returncode == 0 and r.stdout.strip() == "pci-0000_03_00_0 pci-0000_03_00_0",
          "run --gpu 1 sets the variables (%r)" % r.stdout)
    r = run([glmux, "run", "--gpu", "discrete", "--", "sh", "-c", "exit 0"], env=env, bed=amd)
    check(r.returncode == 0, "run passes the command's status")
    # A program that cannot be started: 127 not found, 126 not executable (as env(1) and
    # shells), never 1, which a program's own failure gives.
    r = run([glmux, "run", "--", "/nonexistent/glmux-cmd"], env=env, bed=amd)
    check(r.returncode == 127 and "cannot run" in r.stderr,
          "run of a missing command exits 127 (%d)" % r.returncode)
    # On a PATH of readable directories only: where one of them cannot be searched (a package
    # build's unprivileged user, say) execvp, as env(1) does, ends in EACCES, so 126.
    r = run([glmux, "run", "--", "glmux-no-such-command-anywhere"],
            env=dict(env, PATH="/usr/bin:/bin"), bed=amd)
    check(r.returncode == 127, "run of a command not on PATH exits 127 (%d)" % r.returncode)
    with tempfile.TemporaryDirectory(prefix="glmux-run-") as d:
        plain = os.path.join(d, "not-executable")
        with open(plain, "w") as f:
            f.write("#!/bin/sh\nexit 0\n")
        os.chmod(plain, 0o644)
        r = run([glmux, "run", "--", plain], env=env, bed=amd)
        check(r.returncode == 126 and "cannot run" in r.stderr,
              "run of a file that is not executable exits 126 (%d)" % r.returncode)
        r = run([glmux, "run", "--", d], env=env, bed=amd)
        check(r.returncode == 126, "run of a directory exits 126 (%d)" % r.returncode)
    r = run([glmux, "explain"], env=dict(env, __NV_PRIME_RENDER_OFFLOAD="1"), bed=bed)
    check(r.returncode == 0 and "EGL vendors: nvidia mesa" in r.stdout
          and "nvidia renders on pci-0000_01_00_0 (__NV_PRIME_RENDER_OFFLOAD)" in r.stdout,
          "explain text output: %r" % r.stdout)
    r = run([glmux, "explain"], env=dict(env, DRI_PRIME="1"), bed=bed)
    check(r.returncode == 0 and "EGL vendors: mesa nvidia" in r.stdout
          and "nvidia needs __NV_PRIME_RENDER_OFFLOAD=1 for pci-0000_01_00_0: `glmux run --gpu "
          "pci-0000_01_00_0` sets it" in r.stdout and "glmux run" in r.stderr,
          "explain: DRI_PRIME=1 cannot reach NVIDIA's driver, and says how to (%r)" % r.stdout)
    r = run([glmux, "explain", "--json"], env=env,
            bed=os.path.join(beds, "intel-nvidia.umockdev"))
    out = json.loads(r.stdout)
    check(out["enumerated_for_egl"], "two EGL vendors: GPUs are enumerated")
    one = dict(env, GLMUX_VENDOR_DIRS=os.path.join(tests, "select", "manifests", "one-vendor"))
    r = run([glmux, "explain", "--json"], env=one, bed=bed)
    out = json.loads(r.stdout)
    check(out["egl_vendors"] == ["mesa"] and not out["enumerated_for_egl"],
          "one EGL vendor and no variable: no enumeration")


def test_x_screens(glmux, tests, egl_lib, glx_lib, have_glx):
    """explain lists each X screen's GLX vendor when DISPLAY is reachable (own Xvfb), and loads
    no vendor that would wake the bed's sleeping NVIDIA GPU."""
    if not have_glx:
        skip("this build has no libGLX, so explain cannot ask it for each screen's vendor; "
             "X screen checks skipped")
        return
    if shutil.which("Xvfb") is None or shutil.which("umockdev-run") is None:
        skip("Xvfb or umockdev-run missing; X screen checks skipped")
        return
    if run([glmux, "gpus"], bed=os.path.join(tests, "cli", "beds", "no-gpu.umockdev")).returncode:
        skip("umockdev-run does not work with this build; X screen checks skipped")
        return
    rfd, wfd = os.pipe()
    # -noreset: an X server resets when its last client leaves and refuses connections while
    # it does; explain (and the selector's DRI3 question) connect one after another.
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(wfd), "-nolisten", "tcp", "-noreset",
                             "-screen", "0", "64x64x24", "-screen", "1", "64x64x24"],
                            pass_fds=(wfd,), stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    os.close(wfd)
    try:
        number = b""
        with os.fdopen(rfd, "rb") as f:
            number = f.readline().strip()
        if not number:
            skip("Xvfb did not start; X screen checks skipped")
            return
        display = ":" + number.decode()
        bed = os.path.join(tests, "cli", "beds", "intel-nvidia.umockdev")
        env = clean_env(GLMUX_VENDOR_DIRS=os.path.join(tests, "cli", "vendors"), DISPLAY=display)
        # Sanitized builds: the build's libGLX and libEGL for the tool (tests/cli/CMakeLists.txt).
        tool_libs = os.environ.get("GLMUX_TEST_TOOL_LIBS", "")
        if tool_libs:
            env["LD_LIBRARY_PATH"] = tool_libs
        r = run([glmux, "explain", "--json"], env=env, bed=bed)
        screens = json.loads(r.stdout)["glx"]["screens"]
        check([s["vendor"] for s in screens] == ["mesa"] * 2 and
              all("named by the X server" in s["from"] for s in screens),
              "two X screens, the vendor the server names: %s" % screens)
        r = run([glmux, "explain"], env=env, bed=bed)
        check(r.stdout.count("GLX screen 0:") == 1 and r.stdout.count("GLX screen 1:") == 1
              and 'X screen 0:  vendor "mesa" (named by the X server' in r.stdout
              and "the X server's choice" not in r.stdout,
              "explain text: each GLX screen's reason once, the server's vendor named (%r)"
              % r.stdout)
        env.update(__NV_PRIME_RENDER_OFFLOAD="1", __GLX_FORCE_VENDOR_LIBRARY_1="mesa")
        r = run([glmux, "explain", "--json"], env=env, bed=bed)
        screens = json.loads(r.stdout)["glx"]["screens"]
        # Screen 0's plan puts nvidia first; its library is not installed here, so libGLX goes
        # on to the server's vendor, and explain says so.
        check([s["plan"][0] for s in screens] == ["nvidia", "mesa"] and
              screens[0]["vendor"] == ("mesa" if screens[0]["passed_over"] else "nvidia") and
              screens[1]["vendor"] == "mesa" and "FORCE" in screens[1]["from"],
              "NVIDIA's variable moves screen 0 to nvidia; screen 1 forced to mesa: %s" % screens)
        r = run([glmux, "explain"], env=env, bed=bed)
        check('X screen 1:  vendor "mesa" (__GLX_FORCE_VENDOR_LIBRARY_<screen>)' in r.stdout,
              "explain text lists the X screens: %r" % r.stdout)
        # NVIDIA's libraries installed (stand-ins): the bed's NVIDIA GPU is runtime-suspended,
        # so explain loads neither: screen 0 is undecided at the step it did not take, and
        # libEGL, which would load every EGL vendor, is not asked.
        libdir = tempfile.mkdtemp()
        try:
            os.symlink(glx_lib, os.path.join(libdir, "libGLX_nvidia.so.0"))
            os.symlink(egl_lib, os.path.join(libdir, "libEGL_nvidia.so.0"))
            asleep = dict(env, LD_LIBRARY_PATH=":".join(p for p in (libdir, tool_libs) if p))
            out = json.loads(run([glmux, "explain", "--json"], env=asleep, bed=bed).stdout)
            s0 = out["glx"]["screens"][0]
            last = (s0["tries"] or [{}])[-1]
            check(not s0["decided"] and s0["vendor"] is None and last.get("vendor") == "nvidia"
                  and last.get("result") == "not taken" and "asleep" in (last.get("why") or "")
                  and "asleep" in (out["egl_default_display"]["not_asked"] or ""),
                  "a vendor of the sleeping GPU is not loaded: %s %s"
                  % (s0, out["egl_default_display"]))
            r = run([glmux, "explain"], env=asleep, bed=bed)
            check("X screen 0:  undecided" in r.stdout and 'not loaded by explain: "nvidia"'
                  in r.stdout, "explain text says the step it did not take: %r" % r.stdout)
        finally:
            shutil.rmtree(libdir, ignore_errors=True)
    finally:
        xvfb.terminate()
        xvfb.wait()


def test_platform_names(glmux, tests):
    """A platform GPU whose device-tree name gives no tag ("/", or too long for one) is left
    out with a warning that names it, never silently."""
    if shutil.which("umockdev-run") is None:
        skip("umockdev-run missing: platform name checks skipped")
        return
    with open(os.path.join(tests, "cli", "beds", "rpi4.umockdev")) as f:
        bed = f.read()
    old = "E: OF_FULLNAME=/v3dbus/v3d@7ec04000\n"
    check(old in bed, "the rpi4 bed names its V3D in the device tree")
    for name in ("/", "/soc/" + "v" * 90 + "@7ec04000"):
        with tempfile.TemporaryDirectory(prefix="glmux-platform-") as d:
            path = os.path.join(d, "odd.umockdev")
            with open(path, "w") as f:
                f.write(bed.replace(old, "E: OF_FULLNAME=%s\n" % name))
            r = run([glmux, "gpus"], bed=path)
            check(r.returncode == 0 and "platform-7ec04000_v3d" not in r.stdout and
                  "renderD128 (device-tree name \"%s" % name[:40] in r.stderr and
                  "is left out" in r.stderr,
                  "platform GPU named %r: left out with a warning (%r)" % (name[:12], r.stderr))


def test_watch_no_udev(glmux):
    """`glmux gpus --watch` where udevd does not run (no /run/udev, as in a container): it says
    so and exits 1 at once, instead of waiting for events that never come. Run in a mount
    namespace of the test's own whose /run is an empty tmpfs (unshare -m, as root); where that
    cannot be made, directly, if this machine has no /run/udev/control itself."""
    env = clean_env()
    env.pop("UMOCKDEV_DIR", None)
    cmds = []
    if shutil.which("unshare") is not None:
        cmds.append(("a mount namespace without /run/udev",
                     ["unshare", "-m", "sh", "-c", 'mount -t tmpfs none /run && exec "$@"',
                      "sh", glmux, "gpus", "--watch"]))
    if not os.path.exists("/run/udev/control"):
        cmds.append(("this machine, which has no /run/udev", [glmux, "gpus", "--watch"]))
    for where, cmd in cmds:
        try:
            # The limit only keeps a broken glmux from hanging the test.
            r = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=30)
        except subprocess.TimeoutExpired:
            check(False, "gpus --watch without udev (%s): still waiting after 30 s" % where)
            return
        if "glmux" not in r.stderr and r.returncode != 0:
            continue   # no namespace here (not root): the next way
        check(r.returncode == 1 and "udev does not run here" in r.stderr and
              "watching udev" not in r.stdout,
              "gpus --watch without udev (%s): says so, exits 1 (%d, %r)"
              % (where, r.returncode, r.stderr))
        return
    skip("no way to run gpus --watch without udev here (no mount namespace, udev runs)")


def main():
    glmux, tests, egl_lib, glx_lib = sys.argv[1:5]
    # "glx=OFF": a build without libGLX, whose explain finds no libGLX of glmux's to ask.
    have_glx = sys.argv[5:6] != ["glx=OFF"]
    test_basics(glmux)
    test_check(glmux, tests)
    test_vendors(glmux, egl_lib, glx_lib)
    test_no_sysfs(glmux)
    test_untrusted(glmux)
    test_beds(glmux, tests)
    test_x_screens(glmux, tests, egl_lib, glx_lib, have_glx)
    test_watch_no_udev(glmux)
    test_platform_names(glmux, tests)
    print("%d failure(s), %d part(s) skipped" % (len(FAILURES), len(SKIPPED)))
    if FAILURES:
        return 1
    # Every other check passed, but passing would hide the ones that could not run.
    return 77 if SKIPPED else 0


if __name__ == "__main__":
    sys.exit(main())
