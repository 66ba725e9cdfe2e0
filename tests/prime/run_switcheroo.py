#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""glmux tests: switcheroo-control, the launcher GNOME and KDE use, as a real client.

Runs under umockdev-wrapper with umockdev's GObject API (python3-gi, gir1.2-umockdev-1.0). For
each recorded machine it starts Debian's switcheroo-control daemon inside the bed, on a private
system bus (a dbus-daemon of its own, whose policy lets anyone own net.hadess.SwitcherooControl;
DBUS_SYSTEM_BUS_ADDRESS), reads the daemon's D-Bus property GPUs, and for every GPU applies the
GPU's published Environment on top of a session environment, as a launcher does: nothing, then
GLMUX_GPU=integrated, GLMUX_GPU=discrete and DRI_PRIME naming another GPU set for the whole
session (a launcher's per-program request must win over a session default). The probe (one
EGL and one GLX program in one process, through glmux, on a fake X server that runs on the
default GPU) must land on that GPU's vendor and device, as the oracle reads what each vendor saw
(oracle.renders_on). Then `switcherooctl launch PROBE` must run the probe through glmux on the
first non-default GPU, and on an Intel laptop the daemon must publish an AMD eGPU plugged in
while it runs (umockdev's uevents) and launching on it must work.

Known limitation: for two NVIDIA GPUs switcheroo-control publishes the same
variables (no __NV_PRIME_RENDER_OFFLOAD_PROVIDER), so both entries land on the first NVIDIA GPU;
the test asserts exactly that. Skipped (77) when a piece is missing (umockdev's API, the
daemon, switcherooctl, dbus-daemon, the right to make device nodes).
Usage: run_switcheroo.py GLMUX PROBE BEDS EGL_VENDOR_DIR GLX_LIBRARY_PATH WORK
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "common"))
import oracle  # noqa: E402
from umockdev_gi import new_testbed, skip, umockdev_api  # noqa: E402
from fake_x import FakeX, Screen  # noqa: E402
from prime_env import Setup  # noqa: E402

DAEMON = "/usr/libexec/switcheroo-control"
NAME, PATH = "net.hadess.SwitcherooControl", "/net/hadess/SwitcherooControl"
LIMIT = 60          # seconds: the most any one wait may take before the test gives up
BEDS = {
    # bed: (GPU classes (hardware facts, for GLMUX_GPU), the GPU X runs on)
    "intel-nvidia-rprime": ({"pci-0000_00_02_0": "integrated", "pci-0000_01_00_0": "discrete"},
                            "pci-0000_00_02_0"),
    "apu-dgpu": ({"pci-0000_03_00_0": "discrete", "pci-0000_13_00_0": "integrated"},
                 "pci-0000_03_00_0"),
    "vm-passthrough": ({"pci-0000_00_01_0": "virtual", "pci-0000_01_00_0": "discrete"},
                       "pci-0000_00_01_0"),
    "headless-2nvidia": ({"pci-0000_17_00_0": "discrete", "pci-0000_65_00_0": "discrete"}, None),
    "rpi4": ({"platform-7ec04000_v3d": "integrated"}, "platform-gpu"),
}
HOTPLUG = "intel-amd-egpu"
ENCLOSURE = ("0000:2c:00.0", "/0-1")      # the records plugged in later
BUS_CONFIG = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <listen>unix:path=%s</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/>
    <allow own="*"/>
    <allow send_destination="*"/>
    <allow receive_sender="*"/>
  </policy>
</busconfig>
"""


Gio, GLib, UMockdev = umockdev_api()


class Fail(Exception):
    pass


class Bus:
    """A private dbus-daemon and our connection to it."""

    def __init__(self, work):
        path = os.path.join(work, "bus")
        config = os.path.join(work, "bus.conf")
        # A D-Bus address escapes every byte but [-0-9A-Za-z_/.\*] as %XX: the build directory
        # may hold a space, '+' or '['.
        escaped = "".join(chr(b) if chr(b).isascii() and (chr(b).isalnum() or chr(b) in "-_/.\\*")
                          else "%%%02x" % b for b in path.encode())
        with open(config, "w") as f:
            f.write(BUS_CONFIG % escaped)
        env = {k: v for k, v in os.environ.items() if k not in ("LD_PRELOAD", "UMOCKDEV_DIR")}
        self.proc = subprocess.Popen(["dbus-daemon", "--config-file=" + config, "--nofork",
                                      "--print-address=1"], env=env, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL)
        self.address = self.proc.stdout.readline().decode().strip()
        if not self.address:
            raise Fail("dbus-daemon did not start (exit %s)" % self.proc.wait())
        self.conn = Gio.DBusConnection.new_for_address_sync(
            self.address, Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT |
            Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION, None, None)

    def wait(self, done, what):
        """Runs the main loop until done() is true (checked on every bus message), or fails."""
        loop = GLib.MainLoop()
        state = {"ok": False, "timer": None}

        def check(*_):
            if not state["ok"] and done():
                state["ok"] = True
                loop.quit()

        def timeout():
            state["timer"] = None
            loop.quit()
            return False

        sub = self.conn.signal_subscribe(None, None, None, None, None, Gio.DBusSignalFlags.NONE,
                                         check)
        check()
        if not state["ok"]:
            state["timer"] = GLib.timeout_add_seconds(LIMIT, timeout)
            loop.run()
            if state["timer"] is not None:
                GLib.source_remove(state["timer"])
        self.conn.signal_unsubscribe(sub)
        if not state["ok"]:
            raise Fail("%s: nothing within %d s" % (what, LIMIT))

    def has_owner(self):
        reply = self.conn.call_sync("org.freedesktop.DBus", "/org/freedesktop/DBus",
                                    "org.freedesktop.DBus", "NameHasOwner",
                                    GLib.Variant("(s)", (NAME,)), None,
                                    Gio.DBusCallFlags.NONE, -1, None)
        return reply.unpack()[0]

    def gpus(self):
        reply = self.conn.call_sync(NAME, PATH, "org.freedesktop.DBus.Properties", "Get",
                                    GLib.Variant("(ss)", (NAME, "GPUs")), None,
                                    Gio.DBusCallFlags.NONE, -1, None)
        return reply.unpack()[0]

    def close(self):
        self.conn.close_sync(None)
        self.proc.terminate()
        self.proc.wait()


def records(path):
    return [r for r in open(path).read().strip().split("\n\n") if r.strip()]


def udev_tags(text):
    """{render node path: udev's ID_PATH_TAG} from a bed's records."""
    tags = {}
    for r in text:
        lines = r.split("\n")
        node = next((l[3:] for l in lines if l.startswith("N: ")), None)
        tag = next((l[len("E: ID_PATH_TAG="):] for l in lines
                    if l.startswith("E: ID_PATH_TAG=")), None)
        if node and tag:
            tags["/dev/" + node] = tag
    return tags


class Machine:
    """A bed with switcheroo-control running in it, and the fake X server on its default GPU."""

    def __init__(self, bus, beds, bed, work, later=()):
        self.bed = new_testbed(UMockdev)
        self.texts = records(os.path.join(beds, bed + ".umockdev"))
        for r in self.texts:
            if not any(k in r.split("\n")[0] for k in later):
                self.bed.add_from_string(r + "\n")
        self.root = self.bed.get_root_dir()
        env = dict(os.environ, UMOCKDEV_DIR=self.root, DBUS_SYSTEM_BUS_ADDRESS=bus.address)
        self.log = open(os.path.join(work, bed + "-daemon.log"), "w")
        self.daemon = subprocess.Popen([DAEMON], env=env, stdout=self.log, stderr=self.log)
        bus.wait(bus.has_owner, "switcheroo-control owning its name")

    def plug(self, later):
        for r in self.texts:
            if any(k in r.split("\n")[0] for k in later):
                self.bed.add_from_string(r + "\n")     # umockdev sends the "add" uevents

    def devices(self):
        env = dict(os.environ, UMOCKDEV_DIR=self.root)
        out = subprocess.run([sys.executable, os.path.join(HERE, "drm_devices.py")], env=env,
                             capture_output=True, text=True, timeout=LIMIT)
        devices = oracle.annotate(json.loads(out.stdout))
        tags = udev_tags(self.texts)
        for d in devices:
            node = (d["nodes"].get("render") or d["nodes"]["card"])["path"]
            d["udev_tag"] = tags.get(node)
        return devices

    def stop(self):
        self.daemon.terminate()
        self.daemon.wait()
        self.log.close()


def intended(devices, entry_env):
    """The GPU a switcheroo entry means: its DRI_PRIME (udev's tag), or the NVIDIA GPU."""
    if "DRI_PRIME" in entry_env:
        return next((d["tag"] for d in devices if d["renders"] and
                     entry_env["DRI_PRIME"] in (d["tag"], d.get("udev_tag"))), None)
    return oracle.nvidia_gpu(devices, entry_env.get("__NV_PRIME_RENDER_OFFLOAD_PROVIDER"))


def entry_env(gpu):
    env = list(gpu["Environment"])
    return dict(zip(env[0::2], env[1::2]))


def sessions(devices, default_tag):
    """Session environments: nothing, GLMUX_GPU, and DRI_PRIME naming (for Mesa) a GPU other
    than the default one, and the default one."""
    out = [{}, {"GLMUX_GPU": "integrated"}, {"GLMUX_GPU": "discrete"}]
    mesa = [d for d in devices if d["renders"] and d["vendor"] == "mesa"]
    other = next((d for d in mesa if d["tag"] != default_tag), None)
    for d in (other, oracle.by_tag(mesa, default_tag)):
        if d is not None:
            out.append({"DRI_PRIME": d["tag"]})
    return out


def run_bed(report, setup, server, bus, beds, bed, work):
    machine = Machine(bus, beds, bed, work)
    try:
        devices = machine.devices()
        gpus = bus.gpus()
        report.check("%s: switcheroo-control publishes %d GPU(s)" % (bed, len(gpus)),
                     [] if len(gpus) == len([d for d in devices if d["renders"]])
                     else ["%d GPU(s) published: %s" % (len(gpus), gpus)])
        classes, display = BEDS[bed]
        d = oracle.by_tag(devices, display)
        if d is not None:
            node = d["nodes"].get("render") or d["nodes"]["card"]
            server.configure([Screen(tuple(node["dev"]), d["vendor"])])
        else:
            server.configure([Screen(None, "mesa")])
        prefix_env = {"UMOCKDEV_DIR": machine.root}
        nvidia = [x for x in devices if x["vendor"] == "nvidia" and x["renders"]]
        for session in sessions(devices, oracle.vk_default(devices, display)):
            for i, gpu in enumerate(gpus):
                launch = entry_env(gpu)
                env = setup.env(server.display, dict(session, **launch))
                env.update(prefix_env)
                want = intended(devices, launch)
                if len(nvidia) > 1 and "__NV_PRIME_RENDER_OFFLOAD" in launch:
                    want = nvidia[0]["tag"]     # item 14: no provider, the first NVIDIA GPU
                problems = []
                agreed, _ = oracle.expected(devices, display, classes, env)
                if agreed != want:
                    problems.append("the oracle says %s (a harness error)" % agreed)
                problems += setup.probe_check(devices, display, env, want)
                report.check("%s [X on %s] session %s, launched on GPU %d (%s) -> %s" % (
                    bed, display or "? (no DRI3)",
                    " ".join("%s=%s" % kv for kv in session.items()) or "(nothing)", i,
                    " ".join("%s=%s" % kv for kv in launch.items()), want), problems)
        # switcherooctl itself: the first non-default GPU, through glmux.
        target = next((g for g in gpus if not g["Default"]), None)
        if target is not None:
            want = intended(devices, entry_env(target))
            env = setup.env(server.display, {})
            env.update(prefix_env, DBUS_SYSTEM_BUS_ADDRESS=bus.address)
            problems = setup.probe_check(devices, display, env, want,
                                         prefix=["switcherooctl", "launch"])
            report.check("%s: switcherooctl launch PROBE -> %s" % (bed, want), problems)
    finally:
        machine.stop()


def run_hotplug(report, setup, server, bus, beds, work):
    machine = Machine(bus, beds, HOTPLUG, work, ENCLOSURE)
    try:
        before = len(bus.gpus())
        machine.plug(ENCLOSURE)
        bus.wait(lambda: len(bus.gpus()) > before, "switcheroo-control publishing the eGPU")
        devices = machine.devices()
        gpus = bus.gpus()
        intel = oracle.by_tag(devices, "pci-0000_00_02_0")
        server.configure([Screen(tuple(intel["nodes"]["render"]["dev"]), "mesa")])
        target = next((g for g in gpus if not g["Default"]), None)
        problems = [] if target else ["no non-default GPU published: %s" % gpus]
        if target:
            want = intended(devices, entry_env(target))
            if want != "pci-0000_30_00_0":
                problems.append("the new GPU's entry means %s" % want)
            env = setup.env(server.display, {})
            env.update(UMOCKDEV_DIR=machine.root, DBUS_SYSTEM_BUS_ADDRESS=bus.address)
            problems += setup.probe_check(devices, intel["tag"], env, want,
                                          prefix=["switcherooctl", "launch"])
        report.check("%s: eGPU plugged in while switcheroo-control runs (%d -> %d GPUs), "
                     "switcherooctl launch" % (HOTPLUG, before, len(gpus)), problems)
    finally:
        machine.stop()


class Report:
    def __init__(self):
        self.failures = self.count = 0

    def check(self, label, problems):
        self.count += 1
        if problems:
            self.failures += 1
            print("FAIL %s: %s" % (label, "; ".join(problems)))
        else:
            print("ok   %s" % label)


def main():
    glmux, probe, beds, egl_dir, glx_path, work = sys.argv[1:7]
    for tool in ("dbus-daemon", "switcherooctl", "umockdev-run"):
        if shutil.which(tool) is None:
            skip("%s is not installed (apt-get install switcheroo-control dbus umockdev)" % tool)
    if not os.access(DAEMON, os.X_OK):
        skip("%s is missing (apt-get install switcheroo-control)" % DAEMON)
    if "libumockdev-preload" not in os.environ.get("LD_PRELOAD", ""):
        skip("not running under umockdev-wrapper")
    os.makedirs(work, exist_ok=True)
    work = tempfile.mkdtemp(dir=work)
    server = FakeX(work, [Screen(None, "mesa")])
    if not server.can_mknod():
        skip("cannot make device nodes here (%s)" % server.mknod_error)
    setup = Setup(glmux, probe, egl_dir, glx_path, work)
    report = Report()
    bus = Bus(work)
    try:
        with server:
            for bed in BEDS:
                try:
                    run_bed(report, setup, server, bus, beds, bed, work)
                except Fail as e:
                    report.check(bed, [str(e)])
            try:
                run_hotplug(report, setup, server, bus, beds, work)
            except Fail as e:
                report.check(HOTPLUG, [str(e)])
    finally:
        bus.close()
    shutil.rmtree(work, ignore_errors=True)
    print("%d check(s), %d failure(s)" % (report.count, report.failures))
    return 1 if report.failures else 0


if __name__ == "__main__":
    sys.exit(main())
