#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The locking contract of docs/architecture.md ("Locking") holds in the sources.

  check_contracts.py SOURCE_DIR      exit 1 with one line per broken rule
  check_contracts.py --self-test     the checker on small sources of its own

Rules, over every .c and .h file of src/:
  * a function whose name ends in _locked, or whose header comment says "lock held" (not "no
    lock held"), starts with GLMUX_ASSERT_LOCKED(...): its first statement after its
    declarations (src/util/lock.h);
  * every mutex and read-write lock (pthread_mutex_t, pthread_rwlock_t), condition variable
    (pthread_cond_t) and once-gate (pthread_once_t), at file scope or as a member of a
    structure, is named in the lock table of docs/architecture.md: `name`, or for a member
    `name` or `something.name`.
"""
import os
import re
import sys

import checker

DECL = re.compile(r"^\s*(?:(?:const|static|volatile|unsigned|signed|struct|enum|union)\s+)*"
                  r"[A-Za-z_]\w*(?:\s+|\s*\*+\s*)(?:const\s+)?\**\s*[A-Za-z_]\w*"
                  r"(?:\[[^\]]*\])?(?:\s*=.*)?(?:,\s*\**\s*[A-Za-z_]\w*(?:\s*=[^,;]*)?)*;\s*$")
FUNC_DEF = re.compile(r"^(?!static inline)[A-Za-z_][\w \*]*?\b([A-Za-z_]\w*)\s*\(([^;]*)$")
LOCK_DECL = re.compile(r"^(\s*)(?:static\s+|extern\s+)?pthread_(mutex|rwlock|cond|once)_t\s+(\w+)\s*[;=]")
KIND = {"mutex": "lock", "rwlock": "lock", "cond": "condition variable", "once": "once-gate"}


def sources(top):
    for root, dirs, files in os.walk(os.path.join(top, "src")):
        dirs.sort()
        for name in sorted(files):
            if name.endswith((".c", ".h")):
                yield os.path.join(root, name)


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def documented_lock_held(top):
    """Names of functions whose prototype's comment says the lock is held."""
    names = set()
    for path in sources(top):
        if not path.endswith(".h"):
            continue
        text = read(path)
        for m in re.finditer(r"/\*((?:(?!\*/).)*)\*/\s*\n([^\n;]*?\b(\w+)\s*\([^;]*;)", text, re.S):
            comment = " ".join(m.group(1).split()).lower()
            if re.search(r"(?<!no )lock held", comment) and "documented" not in comment:
                names.add(m.group(3))
    return names


def function_bodies(text):
    """(name, first line number, body lines) of each function defined in a C file."""
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        m = FUNC_DEF.match(lines[i])
        if m and not lines[i].rstrip().endswith(";"):
            j = i
            while j < len(lines) and lines[j] != "{":
                if lines[j].rstrip().endswith(";"):
                    break
                j += 1
            if j < len(lines) and lines[j] == "{":
                k = j + 1
                while k < len(lines) and lines[k] != "}":
                    k += 1
                yield m.group(1), i + 1, lines[j + 1:k]
                i = k
        i += 1


def first_statement(body):
    in_comment = False
    for line in body:
        s = line.strip()
        if in_comment:
            in_comment = "*/" not in s
            continue
        if not s or s.startswith("//"):
            continue
        if s.startswith("/*"):
            in_comment = "*/" not in s
            continue
        if DECL.match(line) and not s.startswith(("return", "GLMUX_ASSERT")):
            continue
        return s
    return ""


def check(top, doc):
    errors = []
    held = documented_lock_held(top)
    for path in sources(top):
        if not path.endswith(".c"):
            continue
        rel = os.path.relpath(path, top)
        for name, lineno, body in function_bodies(read(path)):
            if not (name.endswith("_locked") or name in held):
                continue
            if not first_statement(body).startswith("GLMUX_ASSERT_LOCKED("):
                why = ("ends in _locked" if name.endswith("_locked")
                       else "is documented \"lock held\"")
                errors.append("%s:%d: %s %s but does not start with GLMUX_ASSERT_LOCKED"
                              % (rel, lineno, name, why))
    text = read(doc)
    m = re.search(r"^## Locking\n(.*?)^## ", text, re.S | re.M)
    table = m.group(1) if m else ""
    named = set(re.findall(r"`([^`]+)`", table))
    for path in sources(top):
        rel = os.path.relpath(path, top)
        for lineno, line in enumerate(read(path).split("\n"), 1):
            d = LOCK_DECL.match(line)
            if d is None:
                continue
            indent, kind, name = d.groups()
            ok = name in named or (indent and any(n.endswith("." + name) for n in named))
            if not ok:
                errors.append("%s:%d: the %s %s is not in the lock table of %s"
                              % (rel, lineno, KIND[kind], name, os.path.relpath(doc, top)))
    return errors


SELF_TEST_FILES = {
    "src/a.h": "/* The thing. Lock held. */\nvoid a_thing(int x);\n"
               "/* Called with no lock held. */\nvoid a_free(void);\n",
    "src/a.c": "static pthread_mutex_t a_lock;\nstatic pthread_mutex_t b_lock;\n"
               "struct s {\n    pthread_rwlock_t lock;\n    pthread_mutex_t other;\n};\n"
               "void a_thing(int x)\n{\n    int y = x;\n\n    GLMUX_ASSERT_LOCKED(&a_lock);\n}\n"
               "static void b_locked(void)\n{\n    /* why */\n    do_it();\n"
               "    GLMUX_ASSERT_LOCKED(&b_lock);\n}\n"
               "void a_free(void)\n{\n    do_it();\n}\n"
               "static pthread_cond_t a_cond = PTHREAD_COND_INITIALIZER;\n"
               "static pthread_once_t a_once = PTHREAD_ONCE_INIT;\n"
               "static pthread_once_t b_once = PTHREAD_ONCE_INIT;\n",
    "docs/architecture.md": "## Locking\n| l | `a_lock`, `map.lock`, `b_once` |\n## Next\n",
}
SELF_TEST_WANT = [
    "src/a.c:2: the lock b_lock is not in the lock table of docs/architecture.md",
    "src/a.c:5: the lock other is not in the lock table of docs/architecture.md",
    "src/a.c:13: b_locked ends in _locked but does not start with GLMUX_ASSERT_LOCKED",
    "src/a.c:23: the condition variable a_cond is not in the lock table of docs/architecture.md",
    "src/a.c:24: the once-gate a_once is not in the lock table of docs/architecture.md",
]

if __name__ == "__main__":
    sys.exit(checker.main(__doc__,
                          lambda top: check(top, os.path.join(top, "docs", "architecture.md")),
                          SELF_TEST_FILES, SELF_TEST_WANT,
                          "broken rules of the locking contract "
                          "(docs/architecture.md, \"Locking\")",
                          "the locking contract holds: every _locked or \"lock held\" function "
                          "asserts its lock, every lock is in the table"))
