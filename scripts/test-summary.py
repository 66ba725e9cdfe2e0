#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Prints the closing summary of scripts/test.sh: one table, a row per ctest run.

  test-summary.py ROWS

ROWS has one line per run, tab-separated: the row's name, ctest's JUnit file (--output-junit),
the seconds the row took, and a note ("build failed" when nothing could be tested). Columns:
configuration, tests, passed, failed, skipped, time; under the table, each skipped test with
its reason (its output's last line that says "skip", else its last line, cut at a word's end
when longer than 110 characters) and each failed test.
Exit status 0 when every run passed, 1 otherwise.
"""
import sys
import xml.etree.ElementTree as ET


def reason(output, width=110):
    """The line of output that says why, cut at a word's end to fit width ("..." says so)."""
    lines = [l.strip() for l in (output or "").splitlines() if l.strip()]
    said = [l for l in lines if "skip" in l.lower()]
    text = (said or lines or ["(no output)"])[-1]
    if len(text) <= width:
        return text
    cut = text[:width - 3]
    if text[width - 3] != " " and " " in cut:
        cut = cut.rsplit(" ", 1)[0]
    return cut.rstrip(" ,;:(") + "..."


def minutes(seconds):
    seconds = int(round(seconds))
    return "%d:%02d" % (seconds // 60, seconds % 60)


def read_run(path):
    """(tests, passed, failed names, skipped [(name, reason)]) or None when unreadable."""
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError):
        return None
    passed, failed, skipped = 0, [], []
    for case in root.iter("testcase"):
        status = case.get("status", "")
        name = case.get("name", "?")
        if status == "run":
            passed += 1
        elif status in ("notrun", "disabled"):
            skipped.append((name, reason(case.findtext("system-out"))))
        else:
            failed.append(name)
    return passed + len(failed) + len(skipped), passed, failed, skipped


def main():
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    rows, notes = [], []
    total = [0, 0, 0, 0, 0.0]
    ok = True
    with open(sys.argv[1], encoding="utf-8") as f:
        runs = [line.rstrip("\n").split("\t") for line in f if line.strip()]
    for name, junit, seconds, note in (r + [""] * (4 - len(r)) for r in runs):
        seconds = float(seconds or 0)
        total[4] += seconds
        result = None if note else read_run(junit)
        if result is None:
            ok = False
            rows.append((name, "-", "-", "-", "-", minutes(seconds), note or "no ctest results"))
            continue
        tests, passed, failed, skipped = result
        ok = ok and not failed
        for i, n in enumerate((tests, passed, len(failed), len(skipped))):
            total[i] += n
        rows.append((name, tests, passed, len(failed), len(skipped), minutes(seconds), ""))
        notes += ["  %s: failed: %s" % (name, t) for t in failed]
        notes += ["  %s: skipped: %s: %s" % (name, t, why) for t, why in skipped]
    header = ("configuration", "tests", "passed", "failed", "skipped", "time", "")
    rows.append(("all", *total[:4], minutes(total[4]), ""))
    width = [max(len(str(r[i])) for r in [header] + rows) for i in range(6)]

    def line(r):
        cells = [str(r[0]).ljust(width[0])] + [str(c).rjust(width[i + 1])
                                               for i, c in enumerate(r[1:6])]
        return ("  ".join(cells) + ("  " + r[6] if r[6] else "")).rstrip()

    print("== summary")
    print(line(header))
    for r in rows[:-1]:
        print(line(r))
    print(line(rows[-1]))
    for n in notes:
        print(n)
    print("test.sh: %s" % ("every run passed" if ok else
                          "FAILED (the failed tests' output is above, under their names)"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
