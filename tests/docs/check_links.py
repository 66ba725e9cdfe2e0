#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Every reference a document makes resolves inside the repository.

  check_links.py SOURCE_DIR             check the tree; exit 1 with one line per broken reference
  check_links.py --self-test            check the checker on small documents of its own

What is checked, in every Markdown file, man page and text file of the tree (the build trees,
.git and the test fixtures excepted):
  * Markdown links [text](target#anchor): the file exists (relative to the document), and the
    anchor is a heading of that file (GitHub's rule: lower case, punctuation dropped, spaces to
    hyphens, a -N suffix for repeated headings);
  * a named document, NAME.md or dir/NAME.md, anywhere in the text: it is a file of the tree,
    relative to the top or to the referring file (a bare name that is nowhere in the tree, such
    as a file of another project, fails);
  * a numbered section, "FILE.md §N": FILE has a heading numbered N;
  * a titled section, 'FILE.md, "Title"': FILE has a heading that starts with Title;
  * in documents (Markdown, man pages), a path of the tree in backticks or in running text,
    `src/egl/current.c`, docs/vendors.md: the file or directory exists. Build outputs
    (programs the build makes) and placeholders (ARCH, <name>, *, {a,b}) are not checked.
"""
import os
import re
import sys

import checker

SKIP_DIRS = {".git", "fixtures", "golden", "__pycache__"}
TEXT_EXT = (".md", ".1", ".c", ".h", ".py", ".sh", ".txt", ".symbols", ".cmake", ".in", ".tsv",
            ".example", ".spec", ".json", ".xml", ".rules", ".install")
DOC_EXT = (".md", ".1")
# The top-level folders of the tree: a path in a document that starts with one is checked.
TOP_DIRS = ("docs", "src", "tests", "bench", "scripts", "demo", "include", "packaging", "data",
            "cmake", "filesystem-layout", "pkgconfig", ".ci")
# What the build makes (named in documents, never in the source tree).
BUILD_OUTPUTS = re.compile(
    r"^(bench/(egl/bench_egl|glx/bench_glx|dispatch/bench_gl_call|remote/bench_frames|"
    r"soak/glmux_soak)|demo/glmux-demo[a-z0-9-]*|tests/cross/[a-z0-9]+)$")
PLACEHOLDER = re.compile(r"[<>*{}$%]|\.\.\.|\b[A-Z][A-Z_]{2,}\b")
# Test programs write documents of their own; their non-document files are not read.
NOT_READ = ("tests/",)

MD_LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
NAMED_DOC = re.compile(r"(?<![\w./-])((?:[\w.-]+/)*[\w-]+\.md)(?!\w|\.\w)")
NUMBERED = re.compile(r"(?<![\w./-])((?:[\w.-]+/)*[\w-]+\.md) ?§ ?([0-9]+(?:\.[0-9]+)*[a-z]?)")
TITLED = re.compile(r"(?<![\w./-])((?:[\w.-]+/)*[\w-]+\.md)\)?, "
                    r"\\?[\"“]([^\"”\\]{3,80})\\?[\"”]")
TREE_PATH = re.compile(r"(?<![\w./$-])((?:%s)/[\w./+{},*<>-]*)"
                       % "|".join(re.escape(d) for d in TOP_DIRS))


def headings(path):
    """The headings of a Markdown file (text) or a man page (.SH/.SS)."""
    out = []
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except (OSError, UnicodeDecodeError):
        return out
    fence = False
    for line in lines:
        if line.startswith("```"):
            fence = not fence
        elif not fence and re.match(r"#{1,6} ", line):
            out.append(line.lstrip("#").strip())
        elif line.startswith((".SH ", ".SS ")):
            out.append(line[4:].strip().strip('"'))
    return out


def plain(heading):
    """A heading without its Markdown markup."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    return text.replace("`", "").replace("*", "").strip()


def slugs(path):
    seen = {}
    out = set()
    for h in headings(path):
        s = plain(h).lower()
        s = re.sub(r"[^\w\- ]", "", s).replace(" ", "-")
        n = seen.get(s, 0)
        seen[s] = n + 1
        out.add(s if n == 0 else "%s-%d" % (s, n))
    return out


def resolve(top, referrer, name):
    """The file NAME names, from the referring file's folder or the top; None when neither."""
    for base in (os.path.dirname(referrer), top, os.path.join(top, "docs")):
        p = os.path.normpath(os.path.join(base, name))
        if os.path.exists(p) and (p + os.sep).startswith(top + os.sep):
            return p
    return None


def tree_files(top):
    for root, dirs, files in os.walk(top):
        rel = os.path.relpath(root, top)
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and
                         not (rel == "." and d.startswith("build")))
        for name in sorted(files):
            if rel.startswith(NOT_READ) and not name.endswith(DOC_EXT):
                continue
            if name.endswith(TEXT_EXT) or name == "CMakeLists.txt" or root.endswith(".ci"):
                yield os.path.join(root, name)


def strip_code_blocks(text):
    """Markdown without its fenced code blocks (commands, not references), lines kept."""
    out, fence = [], False
    for line in text.split("\n"):
        if line.lstrip().startswith("```"):
            fence = not fence
            out.append("")
        else:
            out.append("" if fence else line)
    return "\n".join(out)


def check_file(top, path, errors):
    rel = os.path.relpath(path, top)
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError):
        return
    is_doc = path.endswith(DOC_EXT)
    if path.endswith(".1"):
        text = text.replace("\\-", "-").replace("\\(lq", "\"").replace("\\(rq", "\"")
        text = re.sub(r"\\f[BIRP]", "", text)
    if path.endswith(".md"):
        text = strip_code_blocks(text)
    lines = text.split("\n")

    def err(lineno, msg):
        errors.append("%s:%d: %s" % (rel, lineno, msg))

    for lineno, line in enumerate(lines, 1):
        if path.endswith(".md"):
            for m in MD_LINK.finditer(line):
                target = m.group(1)
                if re.match(r"[a-z]+:", target):
                    continue
                name, _, anchor = target.partition("#")
                dest = path if name == "" else resolve(top, path, name)
                if dest is None:
                    err(lineno, "link to %s: no such file in the repository" % name)
                elif anchor and anchor not in slugs(dest):
                    err(lineno, "link to %s#%s: no such section" % (name or rel, anchor))
        for m in NAMED_DOC.finditer(line):
            name = m.group(1)
            if resolve(top, path, name) is None:
                err(lineno, "%s: no such file in the repository" % name)
        for m in NUMBERED.finditer(line):
            dest = resolve(top, path, m.group(1))
            number = m.group(2)
            if dest is not None and not any(
                    re.match(re.escape(number) + r"[.\s]", plain(h) + " ")
                    for h in headings(dest)):
                err(lineno, "%s §%s: no such section" % (m.group(1), number))
        for m in TITLED.finditer(line):
            dest = resolve(top, path, m.group(1))
            title = m.group(2).replace("`", "").lower()
            if dest is not None and not any(
                    re.sub(r"^[0-9.]+ ", "", plain(h)).lower().startswith(title) or
                    plain(h).lower().startswith(title) for h in headings(dest)):
                err(lineno, '%s, "%s": no such section' % (m.group(1), m.group(2)))
        if not is_doc:
            continue
        for m in TREE_PATH.finditer(line):
            name = m.group(1).rstrip(".,:;")
            if name.endswith(":") or PLACEHOLDER.search(name) or BUILD_OUTPUTS.match(name):
                continue
            name = re.sub(r":[0-9]+$", "", name)   # file:line
            if not os.path.exists(os.path.join(top, name)):
                err(lineno, "%s: no such file or directory in the repository" % name)


def check_tree(top):
    errors = []
    for path in tree_files(top):
        check_file(top, path, errors)
    return errors


SELF_TEST_FILES = {
    "README.md": "See [guide](docs/guide.md#2-step-two) and [x](docs/guide.md#nope).\n"
                 "Also `docs/guide.md` §2 and docs/guide.md §9, ABI.md and\n"
                 'docs/guide.md, "Step two" and docs/guide.md, "Missing part".\n'
                 "Code: `src/a.c`, `src/b.c`, `demo/glmux-demo-egl`, `tests/cross/ARCH`.\n"
                 "```\ncat docs/nothing.md\n```\n",
    "docs/guide.md": "# Guide\n## 1. Step one\n## 2. Step `two`\n[up](../README.md#nothing)\n",
    "src/a.c": "/* see docs/guide.md §1 and DESIGN.md */\n",
}
SELF_TEST_WANT = [
    "README.md:1: link to docs/guide.md#nope: no such section",
    "README.md:2: docs/guide.md §9: no such section",
    "README.md:2: ABI.md: no such file in the repository",
    'README.md:3: docs/guide.md, "Missing part": no such section',
    "README.md:4: src/b.c: no such file or directory in the repository",
    "docs/guide.md:4: link to ../README.md#nothing: no such section",
    "src/a.c:1: DESIGN.md: no such file in the repository",
]

if __name__ == "__main__":
    sys.exit(checker.main(__doc__, check_tree, SELF_TEST_FILES, SELF_TEST_WANT,
                          "broken references: every file, section and path a document names "
                          "must be in the repository", "every reference resolves"))
