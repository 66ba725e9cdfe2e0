# SPDX-License-Identifier: MIT
"""What the glmux tool's test scripts share: check() prints and records each assertion, run()
runs a program with glmux's and libglvnd's variables removed from the environment (plus the
ones a case sets)."""
import os
import subprocess

failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def clean_env(extra=None):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("GLMUX_", "__EGL_", "__GLX_", "DRI_PRIME", "__NV_"))}
    env.update(extra or {})
    return env


def run(args, env=None, timeout=120):
    """args run to completion: text output (bytes that are not UTF-8 replaced)."""
    return subprocess.run(args, capture_output=True, text=True, errors="replace",
                          env=clean_env(env), timeout=timeout)
