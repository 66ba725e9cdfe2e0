# SPDX-License-Identifier: MIT
"""glmux tests: umockdev's GObject API for the tests that drive a testbed from Python
(tests/cli/run_watch.py, tests/prime/run_switcheroo.py), or a skip (exit 77) that says what to
install; new_testbed, a testbed whose directory goes at exit."""
import atexit
import shutil
import sys


def skip(why):
    print("skipped:", why)
    sys.exit(77)


def umockdev_api():
    """(Gio, GLib, UMockdev) from python3-gi and gir1.2-umockdev-1.0; skips without them."""
    try:
        import gi
        gi.require_version("UMockdev", "1.0")
        from gi.repository import Gio, GLib, UMockdev
    except (ImportError, ValueError) as e:
        skip("umockdev's GObject API is missing (apt-get install python3-gi "
             "gir1.2-umockdev-1.0): %s" % e)
    return Gio, GLib, UMockdev


def new_testbed(UMockdev):
    """UMockdev.Testbed.new(), its directory (in $TMPDIR) removed when the test exits: the
    testbed's own finalizer removes it only if Python happens to free the object, which at
    interpreter exit, or with a thread still holding it, it may not."""
    bed = UMockdev.Testbed.new()
    atexit.register(shutil.rmtree, bed.get_root_dir(), True)
    return bed
