#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""glmux test: scripts/fuzz.sh runs every fuzz target and fails when one cannot start (once,
`scripts/fuzz.sh select` ran nothing, since the target needs umockdev's preload and exits at
once without it, printed "nothing found" and exited 0) or when one's open descriptors grow.

  test_fuzz_script.py SOURCE_DIR BUILD_DIR WORK_DIR     (a GLMUX_FUZZ=ON build)

1. `scripts/fuzz.sh all 1` on this build: exit 0, and one summary line per target of the
   build's list (tests/fuzz/targets.tsv) with executions > 0 and "ok";
2. the runner on a list where the select target has lost its wrapper and the json target is
   /bin/false: exit 1, both "did not start";
3. the runner on a stand-in target that prints, as fuzz_common.c does, 10 open descriptors
   after the first 100 inputs and 40 at the end: exit 1, "descriptors grew", both counts
   printed; and one that ends with 26 (within the slack of 16): "ok".
Findings and corpora go under WORK_DIR, never into the source tree. Exit 0 pass, 1 fail.
"""
import os
import re
import shutil
import subprocess
import sys

failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def summary(out):
    """{target: (executions, result)} from the summary table."""
    rows = {}
    for m in re.finditer(r"^(\S+) +\d+ +([\d,]+) +(\d+|-) +(\d+|-)  (.+)$", out, re.M):
        rows[m.group(1)] = (int(m.group(2).replace(",", "")), m.group(5))
    return rows


def main():
    top, build, work = sys.argv[1:4]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    listed = os.path.join(build, "tests", "fuzz", "targets.tsv")
    entries = [l.split("\t") for l in open(listed).read().splitlines() if l.strip()]
    names = [e[0] for e in entries]
    check(len(names) >= 5 and "json" in names, "the build lists its targets: %s" % names)
    env = dict(os.environ, FUZZ_BUILD=build, FUZZ_WORK=os.path.join(work, "corpora"),
               FUZZ_REGRESSIONS=os.path.join(work, "found"))
    r = subprocess.run(["sh", os.path.join(top, "scripts", "fuzz.sh"), "all", "1"], env=env,
                       capture_output=True, text=True, errors="replace", timeout=1800)
    print(r.stdout[-4000:] + r.stderr[-2000:])
    rows = summary(r.stdout)
    check(r.returncode == 0, "fuzz.sh all 1 exits 0 (got %d)" % r.returncode)
    for name in names:
        execs, result = rows.get(name, (0, "missing from the summary"))
        check(execs > 0 and result == "ok", "%s ran: %d executions, %s" % (name, execs, result))

    # Targets that cannot start are failures.
    bad = os.path.join(work, "bad.tsv")
    with open(bad, "w") as f:
        f.write("json\t/bin/false\t\t64\n")
        for e in entries:
            if e[0] == "select":
                f.write("select\t%s\t\t%s\n" % (e[1], e[3]))   # without umockdev-wrapper
    r = subprocess.run([sys.executable, os.path.join(top, "tests", "fuzz", "run_fuzz.py"), "long",
                        "all", "--list", bad, "--top", top, "--work", os.path.join(work, "bad"),
                        "--seconds", "1", "--regressions", os.path.join(work, "found")],
                       capture_output=True, text=True, errors="replace", timeout=600)
    print(r.stdout[-3000:] + r.stderr[-1000:])
    rows = summary(r.stdout)
    check(r.returncode == 1, "a target that cannot start fails the run (exit %d)" % r.returncode)
    check(rows.get("json", (0, ""))[1] == "did not start", "/bin/false: did not start")
    if "select" in names:
        check(rows.get("select", (0, ""))[1] == "did not start",
              "select without its wrapper: did not start")
    # A target whose descriptors grow is reported, with both counts.
    def stand_in(name, end):
        path = os.path.join(work, name)
        with open(path, "w") as f:
            f.write("#!/bin/sh\necho 'glmux-fuzz: 10 open descriptors after the first 100 inputs'\n"
                    "echo 'Done 5000 runs in 1 second(s)'\n"
                    "echo 'stat::number_of_executed_units: 5000'\n"
                    "echo 'glmux-fuzz: %d open descriptors at the end, after 5000 inputs'\n"
                    % end)
        os.chmod(path, 0o755)
        return path

    fds = os.path.join(work, "fds.tsv")
    with open(fds, "w") as f:
        f.write("json\t%s\t\t64\n" % stand_in("leaky", 40))
        f.write("manifest\t%s\t\t64\n" % stand_in("flat", 26))
    r = subprocess.run([sys.executable, os.path.join(top, "tests", "fuzz", "run_fuzz.py"), "long",
                        "all", "--list", fds, "--top", top, "--work", os.path.join(work, "fds"),
                        "--seconds", "1", "--regressions", os.path.join(work, "found")],
                       capture_output=True, text=True, errors="replace", timeout=600)
    print(r.stdout[-3000:] + r.stderr[-1000:])
    rows = summary(r.stdout)
    check(r.returncode == 1, "a target whose descriptors grow fails the run (exit %d)"
          % r.returncode)
    check(rows.get("json", (0, ""))[1] == "descriptors grew", "10 -> 40: descriptors grew")
    check(re.search(r"^json +1 +5,000 +10 +40  descriptors grew$", r.stdout, re.M) is not None,
          "the summary prints both counts")
    check(rows.get("manifest", (0, ""))[1] == "ok", "10 -> 26: within the slack, ok")
    print("%d failure(s)" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
