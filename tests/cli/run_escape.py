#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""glmux tests: outside strings reach the terminal escaped (a control sequence in a sysfs
value or a variable must not rewrite the user's terminal).

  run_escape.py GLMUX BEDS_DIR VENDORS_DIR

* a bad GLMUX_DEBUG token holding ESC and BEL (`GLMUX_DEBUG=$'\\e]0;PWN\\a' glmux gpus`) is
  quoted as \\x1b and \\x07 by the libraries' log, which writes to the descriptor directly;
* so is a GLMUX_DEBUG_FILE path that cannot be opened, a newline in it included: one line;
* `glmux gpus --watch` on a umockdev bed whose GPU has boot_vga = "1\\nglmux: forged" reports
  the odd value on one line, the newline as \\x0a: the device cannot forge a line of glmux's;
* a newline in __GLX_VENDOR_LIBRARY_NAME, DRI_PRIME or GLMUX_GPU reaches neither `glmux explain`
  (text) nor `glmux gpus` as a line of its own: no forged "GPU:" line, the newline as \\x0a;
  nor does one in a udev value (power/runtime_status of a bed's GPU) in `glmux gpus` and
  `glmux explain`.
Exit 0 pass, 1 fail; the watch case is skipped (with the reason) when umockdev-run is missing.
"""
import os
import shutil
import signal
import subprocess
import sys
import tempfile

from clitest import check, clean_env, failures


def no_controls(data):
    return not any(b < 0x20 and b != 0x0a for b in data)


def test_log(glmux, vendors):
    env = clean_env({"GLMUX_DEBUG": "warn,\x1b]0;PWN\x07", "GLMUX_VENDOR_DIRS": vendors})
    r = subprocess.run([glmux, "gpus"], env=env, capture_output=True, timeout=60)
    check(no_controls(r.stderr), "bad GLMUX_DEBUG token: no control byte on stderr (%r)"
          % r.stderr[:200])
    check(b'unknown GLMUX_DEBUG token "\\x1b]0;PWN\\x07"' in r.stderr,
          "bad GLMUX_DEBUG token quoted escaped")
    with tempfile.TemporaryDirectory(prefix="glmux-escape-") as d:
        path = os.path.join(d, "missing", "log\x1b[2J\nglmux: forged")
        # The file is opened at the first line to write: an odd GLMUX_GPU makes one (a warning).
        env = clean_env({"GLMUX_DEBUG_FILE": path, "GLMUX_VENDOR_DIRS": vendors,
                         "GLMUX_GPU": "bogus"})
        r = subprocess.run([glmux, "gpus"], env=env, capture_output=True, timeout=60)
        lines = [l for l in r.stderr.split(b"\n") if l]
        check(no_controls(r.stderr) and not any(l.startswith(b"glmux: forged") for l in lines),
              "GLMUX_DEBUG_FILE path: no control byte, no forged line (%r)" % r.stderr[:300])
        check(b"log\\x1b[2J\\x0aglmux: forged: No such file or directory" in r.stderr,
              "GLMUX_DEBUG_FILE path quoted escaped")


def test_watch(glmux, beds, vendors):
    if shutil.which("umockdev-run") is None:
        print("skip watch case: umockdev-run not installed (apt-get install umockdev)")
        return
    with open(os.path.join(beds, "intel-nvidia.umockdev")) as f:
        bed = f.read()
    value = b"1\nglmux: forged"
    check("A: boot_vga=1\n" in bed, "the bed has the Intel GPU's boot_vga")
    bed = bed.replace("A: boot_vga=1\n", "H: boot_vga=%s\n" % value.hex(), 1)
    with tempfile.TemporaryDirectory(prefix="glmux-escape-") as d:
        path = os.path.join(d, "forged.umockdev")
        with open(path, "w") as f:
            f.write(bed)
        # umockdev-run makes its bed in TMPDIR; the SIGTERM that ends the watch can reach it
        # before it removes the bed (seen under load), so the bed goes with this folder.
        env = clean_env({"GLMUX_VENDOR_DIRS": vendors, "TMPDIR": d})
        proc = subprocess.Popen(["umockdev-run", "-d", path, "--", glmux, "gpus", "--watch"],
                                env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                start_new_session=True)
        try:
            # The problem is reported before the listing; the listing ends with this line.
            # readline() returns at the end of output too, so a broken glmux cannot hang this.
            out = b""
            while b"watching udev's drm events" not in out:
                line = proc.stdout.readline()
                if not line:
                    break
                out += line
        finally:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                _, err = proc.communicate(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                _, err = proc.communicate()
        if b"pci-0000_00_02_0" not in out:
            # No bed in the process (umockdev's preload cannot load into this glmux, e.g. of
            # another architecture): nothing to show here.
            print("skip watch case: umockdev's bed is not seen:",
                  (out + err).decode(errors="replace"))
            return
        lines = [l for l in err.split(b"\n") if l]
        check(b'boot_vga="1\\x0aglmux: forged"' in err,
              "watch: the odd sysfs value is reported escaped (%r)" % err[:300])
        check(not any(l.startswith(b"glmux: forged") for l in lines) and no_controls(err),
              "watch: no forged line, no control byte (%r)" % err[:300])


FORGED = "GPU:         forged"


def forged_line(out):
    """Whether some line of out starts with the forged text (at any indent)."""
    return any(l.lstrip().startswith(FORGED.lstrip()) or l.startswith("forged")
               for l in out.split("\n"))


def test_values(glmux, beds, vendors):
    """A newline in a variable the tool prints."""
    value = "x\n" + FORGED
    for name in ("__GLX_VENDOR_LIBRARY_NAME", "DRI_PRIME", "GLMUX_GPU"):
        for cmd in (["explain"], ["gpus"]):
            env = clean_env({name: value, "GLMUX_VENDOR_DIRS": vendors})
            env.pop("DISPLAY", None)
            r = subprocess.run([glmux] + cmd, env=env, capture_output=True, text=True,
                               errors="replace", timeout=60)
            both = r.stdout + r.stderr
            check(r.returncode == 0 and not forged_line(both),
                  "%s with a newline: `glmux %s` prints no forged line (%r)"
                  % (name, " ".join(cmd), both[-600:]))
            if cmd == ["explain"]:
                check("x\\x0a" + FORGED in r.stdout,
                      "%s with a newline: explain shows the value escaped" % name)


def test_udev_value(glmux, beds, vendors):
    """A newline in a udev/sysfs value (the GPU's power/runtime_status)."""
    if shutil.which("umockdev-run") is None:
        print("skip udev value case: umockdev-run not installed (apt-get install umockdev)")
        return
    with open(os.path.join(beds, "intel-nvidia.umockdev")) as f:
        bed = f.read()
    value = b"active\n" + FORGED.encode()
    check("A: power/runtime_status=active\n" in bed, "the bed has a power/runtime_status")
    bed = bed.replace("A: power/runtime_status=active\n",
                      "H: power/runtime_status=%s\n" % value.hex())
    with tempfile.TemporaryDirectory(prefix="glmux-escape-") as d:
        path = os.path.join(d, "forged.umockdev")
        with open(path, "w") as f:
            f.write(bed)
        env = clean_env({"GLMUX_VENDOR_DIRS": vendors, "GLMUX_GPU": "discrete"})
        env.pop("DISPLAY", None)
        for cmd in (["gpus"], ["explain"]):
            r = subprocess.run(["umockdev-run", "-d", path, "--", glmux] + cmd, env=env,
                               capture_output=True, text=True, errors="replace", timeout=60)
            if "pci-0000_00_02_0" not in r.stdout:
                print("skip udev value case: umockdev's bed is not seen:", r.stdout + r.stderr)
                return
            check(not forged_line(r.stdout + r.stderr),
                  "udev value with a newline: `glmux %s` prints no forged line (%r)"
                  % (cmd[0], r.stdout[-600:]))
            if cmd == ["gpus"]:
                # (cut to the field's 15 bytes, escaped)
                check("power active\\x0aGPU:" in r.stdout,
                      "udev value with a newline: gpus shows it escaped (%r)" % r.stdout[-600:])


def main():
    glmux, beds, vendors = sys.argv[1:4]
    test_log(glmux, vendors)
    test_watch(glmux, beds, vendors)
    test_values(glmux, beds, vendors)
    test_udev_value(glmux, beds, vendors)
    print("%d failure(s)" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
