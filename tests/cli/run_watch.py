#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""glmux tests: `glmux gpus --watch` follows udev while an eGPU comes and goes.

Runs under umockdev-wrapper (its ctest command) with umockdev's GObject API (python3-gi and
gir1.2-umockdev-1.0): the test builds a testbed from tests/cli/beds/egpu.umockdev without the
Thunderbolt enclosure, starts `glmux gpus --watch --json` in it, and then, checking the JSON line
glmux prints for each step:
  1. plugs the enclosure in (its bridges, the NVIDIA GPU and its DRM nodes; umockdev sends the
     "add" uevents): the eGPU is added, served by nvidia; the default stays the Intel GPU (mesa);
  2. an administrator's rule hides it (GLMUX_IGNORE=1, a "change" uevent), then shows it again;
  3. its driver is unbound (the DRM nodes go, "remove" uevents) and nouveau is bound (new DRM
     nodes come): removed, then added with driver nouveau, served by mesa;
  4. the enclosure is unplugged: removed, the default is still the Intel GPU;
  5. SIGINT ends glmux with status 0.
Then the text form with SIGTERM, and a reader that goes away: status 0 each time. glmux may
take several udev events as one burst; after each burst it prints one "default" object naming
them, so the test reads until every event it caused has been named, never by time. Every read
has a generous limit so that a broken glmux fails the test instead of hanging it.
Usage: run_watch.py GLMUX BEDS_DIR VENDORS_DIR. Exit 0 pass, 77 skip, 1 fail.
"""
import json
import os
import select
import signal
import subprocess
import sys
import time

LIMIT = 60      # seconds any one expected line may take before the test gives up
I = "pci-0000_00_02_0"
EGPU = "pci-0000_2e_00_0"
ENCLOSURE = "/sys/devices/pci0000:00/0000:00:07.0/0000:2c:00.0"
GPU_PCI = ENCLOSURE + "/0000:2d:01.0/0000:2e:00.0"
TB_DEVICE = "/sys/devices/pci0000:00/0000:00:0d.2/domain0/0-0/0-1"


class Fail(Exception):
    pass


sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from umockdev_gi import new_testbed, skip, umockdev_api  # noqa: E402

_, _, UMockdev = umockdev_api()


def records(path):
    """The bed's device records, split into (at boot, plugged in later)."""
    text = open(path).read().strip().split("\n\n")
    later = [r for r in text if "0000:2c:00.0" in r.split("\n")[0] or
             r.split("\n")[0].endswith("/0-1")]
    return [r for r in text if r not in later], later


class Watch:
    """One `glmux gpus --watch` process and the lines it printed."""

    def __init__(self, glmux, bed, vendors, json_mode=True):
        env = {k: v for k, v in os.environ.items()
               if k not in ("DRI_PRIME", "GLMUX_GPU", "GLMUX_DEBUG", "DISPLAY", "WAYLAND_DISPLAY")
               and not k.startswith("__NV_") and not k.startswith("__EGL_")
               and not k.startswith("__GLX_")}
        env["UMOCKDEV_DIR"] = bed.get_root_dir()
        env["GLMUX_VENDOR_DIRS"] = vendors
        args = [glmux, "gpus", "--watch"] + (["--json"] if json_mode else [])
        self.json = json_mode
        self.proc = subprocess.Popen(args, env=env, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE)
        self.buf = b""
        self.seen = []

    def line(self):
        deadline = time.monotonic() + LIMIT
        while b"\n" not in self.buf:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([self.proc.stdout], [], [], max(left, 0))
            if not ready:
                raise Fail("no line from glmux within %d s; so far: %s" % (LIMIT, self.seen))
            chunk = os.read(self.proc.stdout.fileno(), 65536)
            if not chunk:
                raise Fail("glmux ended early (status %s); so far: %s; stderr: %s"
                           % (self.proc.wait(), self.seen, self.proc.stderr.read()))
            self.buf += chunk
        text, self.buf = self.buf.split(b"\n", 1)
        text = text.decode()
        self.seen.append(text)
        if not self.json:
            return text
        try:
            return json.loads(text)
        except ValueError as e:
            raise Fail("not one JSON object per line (%s): %r" % (e, text))

    def until_causes(self, causes):
        """Reads events until "default" objects (one per burst of udev events) have named every
        udev event in causes: then glmux has seen them all, whatever the bursts were."""
        events, left = [], set(causes)
        while left:
            ev = self.line()
            events.append(ev)
            if ev["event"] == "default":
                left -= set(ev["cause"].split(", "))
        return events

    def until(self, done):
        """Reads events until done(event) is true; returns all of them."""
        events = []
        while True:
            ev = self.line()
            events.append(ev)
            if done(ev):
                return events

    def finish(self, how):
        if how is not None:
            self.proc.send_signal(how)
        try:
            rc = self.proc.wait(timeout=LIMIT)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            raise Fail("glmux did not end after %s" % how)
        err = self.proc.stderr.read().decode()
        if rc != 0:
            raise Fail("glmux ended with status %d after %s; stderr: %s" % (rc, how, err))
        if "ERROR" in err or "Sanitizer" in err or "runtime error" in err:
            raise Fail("stderr: %s" % err)
        return err


def check(cond, what, events):
    if not cond:
        raise Fail("%s; events: %s" % (what, json.dumps(events)))


def default_event(ev):
    return ev["event"] == "default"


def egpu_state(events, event_names):
    """The last state of the eGPU among events whose name is in event_names."""
    found = [ev for ev in events if ev["event"] in event_names and ev["gpu"]["tag"] == EGPU]
    return found[-1]["gpu"] if found else None


def plug(bed, later):
    for r in later:
        bed.add_from_string(r + "\n")   # umockdev sends the "add" uevent


def drop_nodes(bed, root, names):
    """A driver unbinding or a device going: its /dev nodes go first, then udev says so."""
    for n in names:
        os.unlink(os.path.join(root, "dev", "dri", n))
    for n in names:
        bed.uevent(GPU_PCI + "/drm/" + n, "remove")


def test_json(glmux, bed_file, vendors):
    base, later = records(bed_file)
    bed = new_testbed(UMockdev)
    root = bed.get_root_dir()
    for r in base:
        bed.add_from_string(r + "\n")
    w = Watch(glmux, bed, vendors)

    start = w.until(default_event)
    present = [ev["gpu"]["tag"] for ev in start if ev["event"] == "present"]
    check(present == [I], "at start: present %s" % present, start)
    check(start[-1]["default_gpu"] == I and start[-1]["vendor"] == "mesa", "start default", start)

    # 1. The enclosure is plugged in. The card node may come before the render node: read
    # until the eGPU has both.
    plug(bed, later)
    events = w.until_causes(["add card1", "add renderD129"])
    check(events[0]["event"] == "added", "plugged in: first event %s" % events[0]["event"],
          events)
    g = egpu_state(events, ("added", "changed"))
    check(g["kind"] == "discrete" and g["driver"] == "nvidia" and g["vendor"] == "nvidia",
          "plugged in: eGPU %s" % g, events)
    check(events[-1]["default_gpu"] == I and events[-1]["vendor"] == "mesa" and
          events[-1]["gpu_count"] == 2 and not events[-1]["changed"], "plugged in: default",
          events)
    check(all(e["cause"].startswith("add ") for e in events), "plugged in: causes", events)

    # 2. A udev rule hides it, then no longer does.
    bed.set_property(GPU_PCI + "/drm/renderD129", "GLMUX_IGNORE", "1")
    bed.uevent(GPU_PCI + "/drm/renderD129", "change")
    events = w.until_causes(["change renderD129"])
    check(events[0]["event"] == "removed" and events[0]["gpu"]["tag"] == EGPU and
          events[0]["cause"] == "change renderD129" and len(events) == 2,
          "hidden by GLMUX_IGNORE=1", events)
    bed.set_property(GPU_PCI + "/drm/renderD129", "GLMUX_IGNORE", "0")
    bed.uevent(GPU_PCI + "/drm/renderD129", "change")
    events = w.until_causes(["change renderD129"])
    check(events[0]["event"] == "added" and events[0]["gpu"]["tag"] == EGPU and
          len(events) == 2, "shown again", events)

    # 3. nvidia is unbound, nouveau bound.
    drop_nodes(bed, root, ("renderD129", "card1"))
    events = w.until_causes(["remove renderD129", "remove card1"])
    removed = [e for e in events if e["event"] == "removed"]
    check(len(removed) == 1 and removed[0]["gpu"]["tag"] == EGPU and
          removed[0]["gpu"]["driver"] == "nvidia", "unbound", events)
    bed.remove_device(GPU_PCI + "/drm/renderD129")
    bed.remove_device(GPU_PCI + "/drm/card1")
    link = os.path.join(root, GPU_PCI[1:], "driver")
    os.unlink(link)
    os.symlink("../../../../../../bus/pci/drivers/nouveau", link)
    # New minors: umockdev 0.17 cannot create a node again under a name it removed.
    for r in later:
        if "/drm/" in r.split("\n")[0]:
            bed.add_from_string(r.replace("card1", "card2").replace("renderD129", "renderD130")
                                .replace("226:1\n", "226:2\n").replace("226:129", "226:130")
                                + "\n")
    events = w.until_causes(["add card2", "add renderD130"])
    g = egpu_state(events, ("added", "changed"))
    check(events[0]["event"] == "added" and g["driver"] == "nouveau" and g["vendor"] == "mesa",
          "nouveau bound: %s" % g, events)

    # 4. The enclosure is unplugged.
    drop_nodes(bed, root, ("renderD130", "card2"))
    events = w.until_causes(["remove renderD130", "remove card2"])
    removed = [e["gpu"]["tag"] for e in events if e["event"] == "removed"]
    check(removed == [EGPU], "unplugged: removed %s" % removed, events)
    check(events[-1]["default_gpu"] == I and events[-1]["vendor"] == "mesa", "unplugged: default",
          events)
    bed.remove_device(ENCLOSURE)
    bed.remove_device(TB_DEVICE)

    # 5. Ctrl-C.
    w.finish(signal.SIGINT)
    print("ok   --watch --json: plugged in, hidden and shown by a udev rule, driver rebound, "
          "unplugged, SIGINT (%d lines)" % len(w.seen))


def test_text_and_endings(glmux, bed_file, vendors):
    base, later = records(bed_file)
    bed = new_testbed(UMockdev)
    for r in base:
        bed.add_from_string(r + "\n")

    w = Watch(glmux, bed, vendors, json_mode=False)
    start = w.until(lambda l: l.startswith("watching"))
    if not any(l.startswith("present: " + I) for l in start) or \
            not any(l.startswith("default GPU: %s (boot_vga), vendor mesa" % I) for l in start):
        raise Fail("text start: %s" % start)
    plug(bed, later)
    lines = w.until(lambda l: l.startswith("default GPU:"))
    if not any(l.startswith("added: " + EGPU) and "vendor nvidia" in l and "[udev: add " in l
               for l in lines):
        raise Fail("text, plugged in: %s" % lines)
    w.finish(signal.SIGTERM)
    print("ok   --watch (text): plugged in, SIGTERM")

    # Nobody reads any more: glmux notices and ends, status 0.
    w = Watch(glmux, bed, vendors)
    w.until(default_event)
    w.proc.stdout.close()
    w.finish(None)
    print("ok   --watch --json: ends when stdout closes")


def main():
    glmux, beds, vendors = sys.argv[1], sys.argv[2], sys.argv[3]
    preload = os.environ.get("LD_PRELOAD", "")
    if "libumockdev-preload" not in preload:
        skip("not running under umockdev-wrapper")
    bed_file = os.path.join(beds, "egpu.umockdev")
    try:
        test_json(glmux, bed_file, vendors)
        test_text_and_endings(glmux, bed_file, vendors)
    except Fail as e:
        print("FAIL", e)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
