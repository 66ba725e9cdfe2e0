#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""glmux tests: the tool's help, its suggestions, and the debugging advice.

* every command of glmux(1)'s SYNOPSIS answers `--help`, `-h` and `glmux help COMMAND` with its
  own usage (exit 0, nothing on standard error), which names exactly the options the man page
  gives that command; `glmux --help` is the list of commands;
* `run`'s --help counts only before the command to run;
* a misspelt command or option is a usage error (exit 2) that names the nearest one ("did you
  mean 'gpus'?"), and a word near none gets no suggestion;
* the debugging advice keeps warnings (GLMUX_DEBUG=warn,...);
* a vendor directory that does not exist is logged as missing, one that is not a directory
  with the reason, never as "not readable".
  run_help.py GLMUX MAN_PAGE WORK_DIR
Exit 0 pass, 1 fail.
"""
import os
import re
import shutil
import subprocess
import sys

FAILURES = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        FAILURES.append(what)


def run(args, **env):
    e = {k: v for k, v in os.environ.items()
         if not k.startswith(("GLMUX_", "__NV_", "__EGL_", "__GLX_", "DRI_PRIME"))}
    e.update(env)
    return subprocess.run(args, env=e, capture_output=True, text=True, timeout=60)


def man_synopsis(path):
    """{command: set of --options} from the man page's SYNOPSIS."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    synopsis = text.split(".SH SYNOPSIS", 1)[1].split(".SH ", 1)[0]
    commands = {}
    current = None
    for line in synopsis.splitlines():
        m = re.match(r"\.B glmux ([a-z][a-z\\-]*)", line)
        if m:
            current = m.group(1).replace("\\-", "-")
            commands.setdefault(current, set())  # manifest has two forms (--vendor, --layer)
            rest = line[m.end():]
        elif line.startswith(".br"):
            current = None
            continue
        else:
            rest = line
        if current is not None:
            commands[current] |= {"--" + o.replace("\\-", "-")
                                  for o in re.findall(r"\\-\\-([a-z](?:[a-z]|\\-)*)", rest)}
    commands.pop("help", None)
    return commands


def help_options(text):
    """The --options listed under "Options:" in a command's help."""
    part = text.split("\nOptions:\n", 1)
    if len(part) < 2:
        return set()
    block = part[1].split("\n\n", 1)[0]
    return set(re.findall(r"^  (--[a-z-]+)", block, re.M))


def test_help(glmux, man):
    commands = man_synopsis(man)
    check(len(commands) == 9, "the man page's SYNOPSIS lists the commands (%s)" % sorted(commands))
    overview = run([glmux, "--help"])
    check(overview.returncode == 0 and overview.stdout.startswith("Usage: glmux COMMAND"),
          "glmux --help lists the commands")
    texts = set()
    for cmd, options in sorted(commands.items()):
        r = run([glmux, cmd, "--help"])
        check(r.returncode == 0 and r.stderr == "" and
              r.stdout.startswith("Usage: glmux %s" % cmd),
              "glmux %s --help prints its own usage (got %r)" % (cmd, r.stdout[:60]))
        for other in ([glmux, cmd, "-h"], [glmux, "help", cmd]):
            o = run(other)
            check(o.returncode == 0 and o.stdout == r.stdout,
                  "%s prints the same" % " ".join(other[1:]))
        got = help_options(r.stdout) - {"--help"}
        check(got == options, "glmux %s --help names the options of glmux(1): %s (man: %s)"
              % (cmd, sorted(got), sorted(options)))
        texts.add(r.stdout)
    check(len(texts) == len(commands), "every command's help is its own")
    # After the command to run (or --), --help is that command's.
    for args in (["run", "sh", "--help"], ["run", "--gpu", "discrete", "--", "sh", "--help"]):
        r = run([glmux] + args)
        check("Usage: glmux run" not in r.stdout, "glmux %s does not print glmux's help"
              % " ".join(args))
    r = run([glmux, "gpus", "--json", "--help"])
    check(r.returncode == 0 and r.stdout.startswith("Usage: glmux gpus"),
          "--help after another option")


def test_suggestions(glmux):
    for typo, want in (("gpu", "gpus"), ("vendor", "vendors"), ("expalin", "explain"),
                       ("chekc", "check"), ("portcheck", "port-check"), ("port", "port-check"),
                       ("manifets", "manifest"), ("rnu", "run"), ("evn", "env")):
        r = run([glmux, typo])
        check(r.returncode == 2 and "unknown command '%s'; did you mean '%s'?" % (typo, want)
              in r.stderr and "Try 'glmux --help'." in r.stderr,
              "glmux %s suggests %s (got %r)" % (typo, want, r.stderr.strip()))
    for word in ("frobnicate", "x", "gpusvendors"):
        r = run([glmux, word])
        check(r.returncode == 2 and "did you mean" not in r.stderr,
              "glmux %s suggests nothing (got %r)" % (word, r.stderr.strip()))
    r = run([glmux, "help", "gpu"])
    check(r.returncode == 2 and "did you mean 'gpus'?" in r.stderr, "glmux help gpu suggests gpus")
    for args, want in ((["gpus", "--jsn"], "--json"), (["vendors", "--no-lod"], "--no-load"),
                       (["gpus", "--wacth"], "--watch")):
        r = run([glmux] + args)
        check(r.returncode == 2 and "did you mean '%s'?" % want in r.stderr and
              "Try 'glmux %s --help'." % args[0] in r.stderr,
              "glmux %s suggests %s (got %r)" % (" ".join(args), want, r.stderr.strip()))
    for args in (["manifest", "--bogus", "x"], ["port-check", "-x"], ["env", "--gpu"]):
        r = run([glmux] + args)
        check(r.returncode == 2 and "Try 'glmux %s --help'." % args[0] in r.stderr,
              "a usage error of %s points at its own help" % args[0])


def test_debug_advice(glmux):
    texts = [run([glmux, "--help"]).stdout] + [run([glmux, c, "--help"]).stdout
                                               for c in ("gpus", "explain", "run")]
    for t in texts:
        advice = re.findall(r"GLMUX_DEBUG=([a-z,]+)", t)
        check(advice and all("warn" in a.split(",") for a in advice),
              "the help's GLMUX_DEBUG advice keeps warnings: %s" % advice)


def test_missing_dirs(glmux, work):
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    missing = os.path.join(work, "no-such-dir")
    a_file = os.path.join(work, "a-file")
    open(a_file, "w").close()
    r = run([glmux, "vendors", "--no-load"], GLMUX_DEBUG="vendor",
            GLMUX_VENDOR_DIRS=missing + ":" + a_file)
    check("vendor directory %s: missing, skipped" % missing in r.stderr,
          "a missing vendor directory is logged as missing (got %r)" % r.stderr)
    check("vendor directory %s: cannot read it (Not a directory), skipped" % a_file in r.stderr,
          "a file in the directory list is logged with the reason")
    check("not readable" not in r.stderr, "nothing is called \"not readable\"")


def main():
    if len(sys.argv) != 4:
        raise SystemExit(__doc__)
    glmux, man, work = sys.argv[1:]
    test_help(glmux, man)
    test_suggestions(glmux)
    test_debug_advice(glmux)
    test_missing_dirs(glmux, work)
    if FAILURES:
        print("%d failures" % len(FAILURES))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
