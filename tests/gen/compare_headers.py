#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Compares generated Khronos headers with a reference tree (Debian's libglvnd headers).

  compare_headers.py GENERATED_DIR REFERENCE_DIR [--allow FILE] [--debian-libglvnd] [HEADER...]

For each header (default: every header gen_headers.py writes that REFERENCE_DIR has), the C
preprocessor is run on a file that defines every *_PROTOTYPES macro and includes the header,
once with GENERATED_DIR first on the include path and once with REFERENCE_DIR. Then:

* every macro the reference defines is defined by ours with the same value;
* every declaration (typedef, prototype) of the reference is in ours, identical after
  whitespace is normalised.

Differences listed in the allow file ('macro NAME' or 'decl NAME', '#' comments, each with its
reason) are reported but accepted. Exit status 0 when no other difference is found. Ours may
declare more (a newer registry).
"""
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts", "gen"))
import gen_headers  # noqa: E402

PROTOTYPES = ["GL_GLEXT_PROTOTYPES", "GLX_GLXEXT_PROTOTYPES", "EGL_EGLEXT_PROTOTYPES"]
CC = os.environ.get("CC", "cc")
# Headers used after another one, as programs include them (glext.h after gl.h).
FIRST = {"GL/glext.h": "GL/gl.h", "GL/glxext.h": "GL/glx.h", "GLES/glext.h": "GLES/gl.h",
         "GLES2/gl2ext.h": "GLES2/gl2.h", "EGL/eglext.h": "EGL/egl.h"}


def preprocess(incdir, header, mode, tmp, protos=True):
    src = os.path.join(tmp, "probe.c")
    with open(src, "w") as f:
        for m in PROTOTYPES if protos else []:
            f.write(f"#define {m} 1\n")
        if header in FIRST:
            f.write(f"#include <{FIRST[header]}>\n")
        if header:
            f.write(f"#include <{header}>\n")
    args = [CC, "-E", "-x", "c", src] + (["-I", incdir] if incdir else [])
    args += ["-dM"] if mode == "macros" else ["-P"]
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"{header} from {incdir}: {r.stderr.strip()[:2000]}")
    return r.stdout


def macros(text):
    out = {}
    for line in text.splitlines():
        m = re.match(r"#define (\w+(?:\([^)]*\))?)\s*(.*)$", line)
        if m:
            out[m.group(1).split("(")[0]] = re.sub(r"\s+", " ", m.group(2)).strip()
    return out


def normalise_params(stmt):
    """Drops parameter names (and decays array parameters) from the last parameter list."""
    m = re.search(r"\(((?:[^()]|\([^()]*\))*)\);$", stmt)
    if not m:
        return stmt
    params = []
    for p in m.group(1).split(","):
        p = p.strip()
        p = re.sub(r"\s*\b\w+\s*\[[^\]]*\]$", "*", p)          # T name[N] -> T*
        if re.search(r"[\w*]\s*\b\w+$", p) and not re.fullmatch(r"(const\s+)?\w+", p):
            p = re.sub(r"\s*\b\w+$", "", p)                         # T name -> T
        params.append(p.strip())
    return stmt[:m.start(1)] + ",".join(params) + stmt[m.end(1):]


INT_SPELLING = re.compile(r"\b(?:(signed|unsigned) )?(char|short|long long|long)?(?: ?\bint\b)?"
                          r"(?<=[a-z])\b")


def canonical_int(m):
    sign, size = m.group(1), m.group(2)
    if not sign and not size and "int" not in m.group(0):
        return m.group(0)
    if size == "char":
        return m.group(0)
    return f"{sign or 'signed'} {size or ''} int".replace("  ", " ")


def resolve(stmt, simple):
    """Replaces simple typedef names by what they stand for (GLvoid == void) and spells the
    integer types one way (short == signed short int)."""
    for _ in range(10):
        new = re.sub(r"\b\w+\b", lambda m: simple.get(m.group(0), m.group(0)), stmt)
        if new == stmt:
            break
        stmt = new
    stmt = INT_SPELLING.sub(canonical_int, re.sub(r"\s+", " ", stmt))
    return re.sub(r"\s*([(),*;\[\]])\s*", r"\1", re.sub(r"\s+", " ", stmt))


def declarations(text):
    """name -> normalised statement, for each top-level typedef or function declaration."""
    out = {}
    text = re.sub(r"\s+", " ", text)
    depth, cur = 0, []
    statements = []
    for ch in text:
        cur.append(ch)
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif ch == ";" and depth == 0:
            statements.append("".join(cur).strip())
            cur = []
    for s in statements:
        s = re.sub(r"\s*([(),*;\[\]])\s*", r"\1", s)
        s = s.replace('extern"C"{', "")
        m = re.search(r"\(\s*\*?\s*(?:\w+\s*\*\s*)?(\w+)\s*\)\s*\(", s)  # function pointer typedef
        if s.startswith("typedef") and m:
            name = m.group(1)
        else:
            m = re.search(r"(\w+)\((?:[^()]|\([^()]*\))*\);$", s) \
                if "(" in s and not s.startswith("typedef") else \
                re.search(r"(\w+)\s*(?:\[[^\]]*\])?;$", s)
            if not m:
                continue
            name = m.group(1)
        out[name] = s
    simple = {}
    for name, s in out.items():
        m = re.fullmatch(r"typedef ([\w ]+?) ?(\w+);", s)
        if m and m.group(2) == name:
            simple[name] = m.group(1)
    return {n: resolve(normalise_params(s), simple) if not s.startswith("typedef") or "(" in s
            else resolve(s.replace(f" {n};", ";"), simple) + n for n, s in out.items()}


def same_value(a, b):
    if a == b:
        return True
    try:
        return int(a, 0) == int(b, 0)
    except (TypeError, ValueError):
        return False


def compare(gen, ref, h, protos, base, allow, tmp):
    """(unaccepted difference messages, number of accepted differences) for one header."""
    ours_m = macros(preprocess(gen, h, "macros", tmp, protos))
    ref_m = macros(preprocess(ref, h, "macros", tmp, protos))
    ours_d = declarations(preprocess(gen, h, "decls", tmp, protos))
    ref_d = declarations(preprocess(ref, h, "decls", tmp, protos))
    problems = []
    for name, value in sorted(ref_m.items()):
        if name not in base and not same_value(ours_m.get(name), value):
            have = repr(ours_m[name]) if name in ours_m else "missing"
            problems.append((("macro", name), f"macro {name}: reference '{value}', ours {have}"))
    for name, stmt in sorted(ref_d.items()):
        if ours_d.get(name) != stmt:
            problems.append((("decl", name), f"decl {name}: reference '{stmt}', "
                                             f"ours '{ours_d.get(name, 'missing')}'"))
    bad = [m for k, m in problems if k not in allow]
    return bad, len(problems) - len(bad)


def main():
    args = [a for a in sys.argv[1:]]
    allow = set()
    if "--allow" in args:
        i = args.index("--allow")
        with open(args[i + 1]) as f:
            for line in f:
                line = line.split("#", 1)[0].split()
                if len(line) == 2:
                    allow.add((line[0], line[1]))
        del args[i:i + 2]
    gen, ref = args[0], args[1]
    if "--debian-libglvnd" in args:
        # Only Debian's own libglvnd headers are a reference; skip where glmux's are installed.
        args.remove("--debian-libglvnd")
        q = subprocess.run(["dpkg-query", "-W", "-f", "${Version}", "libgl-dev", "libegl-dev",
                            "libgles-dev", "libglx-dev"], capture_output=True, text=True)
        if q.returncode != 0 or "glmux" in q.stdout:
            print("SKIP: Debian's libgl-dev, libegl-dev, libgles-dev, libglx-dev are not "
                  "installed (they come with libglvnd-dev)")
            return 77
    headers = args[2:] or [h for h in gen_headers.HEADERS
                           if os.path.exists(os.path.join(ref, h))]
    failures = 0
    accepted = 0
    with tempfile.TemporaryDirectory() as tmp:
        base = macros(preprocess(None, None, "macros", tmp))
        for h in headers:
            for protos in (False, True):
                label = h + (" (with *_PROTOTYPES)" if protos else "")
                bad, ok = compare(gen, ref, h, protos, base, allow, tmp)
                accepted += ok
                failures += len(bad)
                for m in bad:
                    print(f"FAIL {label}: {m}")
                print(f"{'ok  ' if not bad else 'FAIL'} {label}: {ok} accepted differences, "
                      f"{len(bad)} others")
    print(f"{len(headers)} headers compared, {accepted} accepted differences, {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
