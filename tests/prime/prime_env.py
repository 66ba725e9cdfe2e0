# SPDX-License-Identifier: MIT
"""glmux tests: what the PRIME tests (run_table.py, run_switcheroo.py) share.

The fake vendors are the GPU tests' own (tests/egl/fake_vendor.c built as "mesa" and "nvidia",
tests/glx/fake_vendor.c likewise), installed the way Debian installs real ones: libglvnd JSON
files without driver lists in one EGL vendor directory (so glmux's built-in kernel-driver table
decides which vendor serves a GPU), and libGLX_mesa.so.0 / libGLX_nvidia.so.0 found on the
library path. Each run gets a clean environment (no user GPU variable leaks in), fresh record
files, and the records are read back as {vendor: {VAR: value}} of what the vendor saw when
glmux loaded it.
"""
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle  # noqa: E402

# What a run never inherits from the caller.
CLEAR = ("DRI_PRIME", "GLMUX_GPU", "GLMUX_VENDOR_DIRS", "GLMUX_DEBUG", "GLMUX_DEBUG_FILE",
         "GLMUX_DRIVER_VENDORS", "GLMUX_GLX_REMOTE", "EGL_PLATFORM", "LD_LIBRARY_PATH",
         "DISPLAY", "WAYLAND_DISPLAY", "WAYLAND_SOCKET", "XDG_RUNTIME_DIR", "XAUTHORITY",
         "DBUS_SYSTEM_BUS_ADDRESS", "DBUS_SESSION_BUS_ADDRESS")
CLEAR_PREFIXES = ("__EGL_", "__GLX_", "__NV_", "__VK_", "FAKE_EGL_", "FAKE_GLX_")
GPU_VARS = ("DRI_PRIME", "GLMUX_GPU", "__NV_PRIME_RENDER_OFFLOAD",
            "__NV_PRIME_RENDER_OFFLOAD_PROVIDER", "__GLX_VENDOR_LIBRARY_NAME",
            "__VK_LAYER_NV_optimus")


def parse_main(text):
    """The fake vendors' "NAME VAR=value VAR=value": (NAME, {VAR: value}); a value may hold
    spaces (DRI_PRIME=' 1'), so it ends where the next known variable begins."""
    name, _, rest = text.partition(" ")
    parts = re.split(r"(?:^| )(%s)=" % "|".join(map(re.escape, GPU_VARS)), rest)
    return name, dict(zip(parts[1::2], parts[2::2]))


class Setup:
    """The programs and vendors of a build: glmux, the probe, the EGL vendor directory and the
    GLX vendors' library path."""

    def __init__(self, glmux, probe, egl_dir, glx_path, work):
        self.glmux, self.probe = glmux, probe
        self.egl_dir, self.glx_path, self.work = egl_dir, glx_path, work
        self.count = 0
        self.display = None

    def env(self, display, variables, base=None):
        base = os.environ if base is None else base
        env = {k: v for k, v in base.items()
               if k not in CLEAR and not k.startswith(CLEAR_PREFIXES)}
        env["GLMUX_VENDOR_DIRS"] = self.egl_dir
        env["LD_LIBRARY_PATH"] = self.glx_path
        if display:
            env["DISPLAY"] = display
        env.update(variables)
        return env

    def explain(self, env, prefix=()):
        r = subprocess.run(list(prefix) + [self.glmux, "explain", "--json"], env=env,
                           capture_output=True, text=True, timeout=120)
        try:
            return json.loads(r.stdout), r
        except ValueError:
            return None, r

    def run_text(self, env, prefix=()):
        """`glmux explain` (its text) with env."""
        return subprocess.run(list(prefix) + [self.glmux, "explain"], env=env,
                              capture_output=True, text=True, timeout=120)

    def probe_run(self, env, prefix=(), what="both"):
        """Runs the probe (or prefix + probe); returns (result, {"egl"|"glx": {vendor: seen}},
        {"egl"|"glx": vendor that served}, stderr)."""
        self.count += 1
        records = {}
        env = dict(env)
        for api in ("egl", "glx"):
            path = os.path.join(self.work, "%s-%d.txt" % (api, self.count))
            if os.path.exists(path):
                os.unlink(path)
            records[api] = path
            env["FAKE_%s_RECORD" % api.upper()] = path
        r = subprocess.run(list(prefix) + [self.probe, what], env=env, capture_output=True,
                           text=True, timeout=120)
        seen, served = {}, {}
        for api, path in records.items():
            seen[api] = {}
            lines = open(path).read().splitlines() if os.path.exists(path) else []
            for line in lines:
                if line.startswith("main "):
                    name, saw = parse_main(line[len("main "):])
                    seen[api][name] = saw
        for line in r.stdout.splitlines():
            words = line.split()
            if len(words) >= 2 and words[0] in ("egl", "glx"):
                served[words[0]] = words[1]
        return r, seen, served

    def probe_check(self, devices, display, env, want, glx_server_vendor=None, prefix=(),
                    what="both"):
        """Runs the probe with env; the problems found when its EGL and GLX vendors do not render
        on the GPU wanted (oracle.renders_on). want: a tag for both APIs, or {"egl"|"glx":
        (tag, vendor_only)} where vendor_only means the vendor must be the tag's, wherever its
        own variables then take it. glx_server_vendor: the X server's vendor is an acceptable
        GLX answer too (nothing asked a GPU of an X server that does not name its own). what:
        "both", or the one API the probe runs ("egl"). The probe's stderr (the libraries'
        warnings) is kept in self.last_stderr."""
        if not isinstance(want, dict):
            want = {"egl": (want, False), "glx": (want, False)}
        r, seen, served = self.probe_run(env, prefix, what)
        self.last_stderr = r.stderr
        if r.returncode != 0:
            return ["probe: exit %d: %s" % (r.returncode, (r.stdout + r.stderr).strip())]
        problems = []
        for api in ("egl", "glx") if what == "both" else (what,):
            tag, vendor_only = want[api]
            d = oracle.by_tag(devices, tag)
            vendor = served.get(api)
            saw = seen[api].get(vendor, {})
            on = oracle.renders_on(devices, display, vendor, saw)
            if api == "glx" and glx_server_vendor is not None and vendor == glx_server_vendor:
                continue
            if vendor != (d["vendor"] if d else None) or (on != tag and not vendor_only):
                problems.append("lib%s: %s on %s (saw %s)" % (
                    api.upper(), vendor, on,
                    " ".join("%s=%s" % kv for kv in sorted(saw.items())) or "nothing"))
        return problems
