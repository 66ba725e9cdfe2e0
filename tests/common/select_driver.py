# SPDX-License-Identifier: MIT
"""glmux tests: what the EGL and GLX selector drivers share (tests/egl/test_egl_select.py,
tests/glx/test_glx_select.py).

A Runner runs a test program under a umockdev bed (tests/cli/beds/BED.umockdev; bed None is an
empty testbed, which has no /sys/devices) with a clean environment, a fresh record file for the
fake vendors and a GLMUX_DEBUG_FILE, and runs `glmux explain --json` under exactly the same bed
and environment, so that a driver can check that the tool and the library decided alike. The
runs on one bed share one testbed (bed_host.py). A Report counts failures and prints one line
per check.
"""
import json
import os
import shutil
import subprocess

from bed_host import Beds

I = "pci-0000_00_02_0"      # Intel iGPU (intel-nvidia), virtio-gpu (vm-virtio)
N1 = "pci-0000_01_00_0"     # NVIDIA dGPU (intel-nvidia, nvidia-desktop, dgpu-first, boot-display)
D3 = "pci-0000_03_00_0"     # AMD dGPU (amd-amd, intel-amd)
OFFLOAD = {"__NV_PRIME_RENDER_OFFLOAD": "1"}

# Variables a user may set to ask for a GPU, and what the drivers always clear.
SELECT_VARS = ("DRI_PRIME", "__NV_PRIME_RENDER_OFFLOAD", "__NV_PRIME_RENDER_OFFLOAD_PROVIDER",
               "__GLX_VENDOR_LIBRARY_NAME", "__VK_LAYER_NV_optimus", "GLMUX_GPU")
CLEAR = SELECT_VARS + ("GLMUX_VENDOR_DIRS", "GLMUX_DEBUG", "GLMUX_DEBUG_FILE",
                       "GLMUX_DRIVER_VENDORS", "EGL_PLATFORM", "LD_LIBRARY_PATH", "DISPLAY",
                       "WAYLAND_DISPLAY")
CLEAR_PREFIXES = ("__EGL_", "__GLX_", "__NV_", "FAKE_EGL_", "FAKE_GLX_")


class SkipTest(Exception):
    pass


def sampled(cases):
    """The cases to run: all of them, or with GLMUX_TEST_STRIDE=N every Nth, the first included
    (tests/CMakeLists.txt, GLMUX_TEST_BEDS_STRIDE, says when and why)."""
    try:
        stride = max(1, int(os.environ.get("GLMUX_TEST_STRIDE", "1")))
    except ValueError:
        stride = 1
    return list(cases)[::stride]


def umockdev_available(beds):
    """None when umockdev-run works here, else why not."""
    if shutil.which("umockdev-run") is None:
        return "umockdev-run not installed (apt-get install umockdev)"
    probe = subprocess.run(["umockdev-run", "-d", os.path.join(beds, "intel-nvidia.umockdev"),
                            "--", "sh", "-c", "test -e /sys/bus/pci/devices/0000:01:00.0"],
                           capture_output=True, text=True, timeout=60)
    if probe.returncode != 0:
        return "umockdev-run does not work here: " + probe.stderr.strip()
    return None


class Runner:
    """record_var: the fake vendors' record-file variable (FAKE_EGL_RECORD, FAKE_GLX_RECORD);
    keep: variables of the caller's environment to keep although they are in CLEAR."""

    def __init__(self, program, beds, work, record_var, glmux=None, keep=()):
        self.program, self.beds, self.work = program, beds, work
        self.record_var, self.glmux, self.keep = record_var, glmux, keep
        self.count = 0
        self.testbeds = Beds()

    def env(self, dirs, variables, libpath=None):
        env = {k: v for k, v in os.environ.items()
               if k in self.keep or (k not in CLEAR and not k.startswith(CLEAR_PREFIXES))}
        env["GLMUX_VENDOR_DIRS"] = dirs
        if libpath:
            env["LD_LIBRARY_PATH"] = libpath
        env.update(variables)
        return env

    def in_bed(self, bed, args, env):
        """args run under bed, in a testbed shared with the other runs on that bed."""
        return self.testbeds.run(os.path.join(self.beds, bed + ".umockdev") if bed else None,
                                 args, env, timeout=60)

    def run(self, bed, dirs, variables, debug, libpath=None):
        """Runs the program under a bed; returns (stdout lines, records, log text)."""
        self.count += 1
        record = os.path.join(self.work, "record-%d.txt" % self.count)
        log = os.path.join(self.work, "log-%d.txt" % self.count)
        for path in (record, log):
            if os.path.exists(path):
                os.unlink(path)
        env = self.env(dirs, variables, libpath)
        env[self.record_var] = record
        env["GLMUX_DEBUG"] = debug
        env["GLMUX_DEBUG_FILE"] = log
        r = self.in_bed(bed, [self.program], env)
        records = open(record).read().splitlines() if os.path.exists(record) else []
        text = open(log).read() if os.path.exists(log) else ""
        if r.returncode == 77:
            raise SkipTest(r.stdout + r.stderr)
        if r.returncode != 0:
            raise RuntimeError("exit status %d: %s %s" % (r.returncode, r.stdout, r.stderr))
        return r.stdout.splitlines(), records, text

    def explain(self, bed, dirs, variables, libpath=None):
        """`glmux explain --json` under the same bed and environment (None without a tool)."""
        if self.glmux is None:
            return None
        env = self.env(dirs, variables, libpath)
        r = self.in_bed(bed, [self.glmux, "explain", "--json"], env)
        if r.returncode != 0:
            raise RuntimeError("glmux explain: exit status %d: %s" % (r.returncode, r.stderr))
        return json.loads(r.stdout)


def enumerated(log):
    """Whether the selector listed the GPUs (GLMUX_DEBUG=select says so for each)."""
    return "default GPU:" in log or "GPU 0:" in log or "no GPU found" in log


def parse_main(records):
    """{vendor: [{VAR: value}, ...]} from the fake vendors' "main NAME VAR=value ..." lines."""
    seen = {}
    for line in records:
        words = line.split()
        if words and words[0] == "main":
            seen.setdefault(words[1], []).append(dict(w.split("=", 1) for w in words[2:]))
    return seen


def set_by_glmux(seen, variables):
    """What glmux set for a vendor: the variables it saw that the case did not set itself."""
    return {k: v for k, v in seen.items() if variables.get(k) != v}


def explained_env(explain, vendor):
    """The variables `glmux explain` says vendor is given."""
    return {k: v for k, v in explain["vendor_env"].get(vendor, {}).items() if v}


def case_label(case, dirs=None):
    where = " [%s]" % os.path.basename(dirs) if dirs else ""
    return "%s%s %s" % (case[0] or "(no /sys)", where,
                        " ".join("%s=%s" % kv for kv in case[1].items()) or "(none)")


class Report:
    def __init__(self):
        self.failures = 0

    def __call__(self, label, problems, log=""):
        if problems:
            self.failures += 1
            print("FAIL %s: %s" % (label, "; ".join(problems)))
            if log:
                print("  log:\n    " + log.replace("\n", "\n    "))
        else:
            print("ok   %s" % label)

    def finish(self, runner):
        print("%d run(s), %d failure(s)" % (runner.count, self.failures))
        return 1 if self.failures else 0
