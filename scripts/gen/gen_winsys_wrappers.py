#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Generates libEGL's or libGLX's exported functions as thin wrappers over glmux's own ones.

  gen_winsys_wrappers.py --api egl|glx --xml REGISTRY.xml --symbols LIB.symbols OUT_DIR

For every function the symbol list exports (names that start with "__" are libGL's interface,
not API functions, and are skipped), from its prototype in the Khronos registry (egl.xml or
glx.xml), it writes:

  OUT_DIR/glmux_<api>_impl.h      the prototypes of glmux's own implementations,
                                  glmux_<api>_<Name> (the bodies behind the exports; libEGL's
                                  and libGLX's sources define them and include this header, so
                                  the compiler checks them against the registry);
  OUT_DIR/glmux_<api>_wrappers.c  the exports: each calls the top of its chain of GL layers
                                  when a loaded layer intercepts it, else the implementation
                                  (docs/layers.md; src/winsys/layer.h). With no layer the cost
                                  is one load and one branch before a tail call.

For EGL it also writes the table glmux_egl_exported (own index -> export), what
eglGetProcAddress answers for an own name that no layer intercepts. A symbol the registry does
not know stops the generator with a message naming the file. Output is deterministic (sorted
by name); a file whose text did not change is not rewritten.
"""

import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from glmux_registry import Registry, read_list, write_if_changed  # noqa: E402

APIS = {
    "egl": {
        "prefix": "egl",
        "impl": "glmux_egl_",
        "lib": "libEGL",
        "headers": ["<EGL/egl.h>"],
        "local": ['"funcs.h"'],
        "export": "GLMUX_EGL_EXPORT",
        "entry": "EGLAPIENTRY",
        "layer_api": "GLMUX_LAYER_API_EGL",
        "table": ("__eglMustCastToProperFunctionPointerType", "glmux_egl_exported",
                  "GLMUX_EGL_IDX_COUNT", "GLMUX_EGL_IDX_"),
    },
    "glx": {
        "prefix": "glX",
        "impl": "glmux_glx_",
        "lib": "libGLX",
        "headers": ["<GL/glx.h>"],
        "local": ['"glx/glx_core_table.h"'],
        "export": "GLMUX_GLX_PUBLIC",
        "entry": "",
        "layer_api": "GLMUX_LAYER_API_GLX",
        "table": None,
    },
}

# Local names of every wrapper; a parameter of the same name would shadow them.
RESERVED = {"top", "top_fn", "cache", "ret"}


def with_entry(ret, entry):
    """'ret EGLAPIENTRY' for a declaration (pointer return types keep their '*' tight)."""
    if not entry:
        return ret + ("" if ret.endswith("*") else " ")
    return f"{ret}{'' if ret.endswith('*') else ' '}{entry} "


def ctype(text):
    """A registry type as the sources write it: 'const EGLint *', not 'const EGLint * '."""
    return re.sub(r"\s*\*\s*", " *", text).replace("* *", "**").strip()


def decl(cmd):
    """The parameter list of a declaration, as a list ('void' when empty)."""
    out = []
    for t, n in cmd.params:
        t = ctype(t)
        out.append(f"{t}{n}" if t.endswith("*") else f"{t} {n}")
    return out or ["void"]


def types(cmd):
    return ", ".join(ctype(t) for t, _ in cmd.params) or "void"


def wrap(head, items, tail, width=100):
    """head + items joined by ', ' + tail, broken after commas and aligned within width."""
    line = head + ", ".join(items) + tail
    if len(line) <= width:
        return line
    lines, cur, pad = [], head, " " * len(head)
    for i, item in enumerate(items):
        piece = item + ("," if i + 1 < len(items) else tail)
        if cur not in (head, pad) and len(cur) + 1 + len(piece) > width:
            lines.append(cur.rstrip())
            cur = pad
        cur += (piece if cur in (head, pad) else " " + piece)
    lines.append(cur)
    return "\n".join(lines)


def prototype(cfg, cmd, name, prefix="", tail=")", width=100, split=False):
    """A declaration, its parameters wrapped; the name starts a line of its own when split or
    when the line would not fit otherwise."""
    ret = f"{prefix}{with_entry(ctype(cmd.ret), cfg['entry'])}"
    text = wrap(f"{ret}{name}(", decl(cmd), tail)
    if split or max(len(x) for x in text.split("\n")) > width:
        text = ret.rstrip() + "\n" + wrap(f"{name}(", decl(cmd), tail)
    return text


def wrapper(cfg, cmd):
    """The export, and its out-of-line path for when layers may be loaded: with no layer the
    export is a load, a branch and a tail call into the body."""
    short = cmd.name[len(cfg["prefix"]):]
    impl = cfg["impl"] + short
    layered = "layered_" + cmd.name
    clash = RESERVED & {n for _, n in cmd.params}
    if clash:
        raise SystemExit(f"error: a parameter of {cmd.name} is named {sorted(clash)[0]}, a local "
                         f"name of the generated wrapper; rename the wrapper's locals")
    entry = f"{cfg['entry']} " if cfg["entry"] else ""
    args = cmd.param_names()
    ret = ctype(cmd.ret)
    void = cmd.returns_void()
    cold = "static __attribute__((noinline, cold)) "
    out = [prototype(cfg, cmd, layered, cold, split=True), "\n{\n",
           wrap(f"    typedef {ret}{'' if ret.endswith('*') else ' '}({entry}*top_fn)(",
                types(cmd).split(", "), ");"), "\n",
           "    static void *cache;\n",
           wrap("    top_fn top = (top_fn)glmux_winsys_layer_top(",
                [f'"{cmd.name}"', cfg["layer_api"], f"(void *){impl}", "&cache"], ");"),
           "\n"]
    if void:
        out += ["\n", f"    glmux_winsys_layer_check(\"{cmd.name}\");\n",
                "    if (top == NULL) {\n", f"        {impl}({args});\n", "        return;\n",
                "    }\n", "    glmux_winsys_layer_enter();\n", f"    top({args});\n",
                "    glmux_winsys_layer_leave();\n}\n\n"]
    else:
        out += [f"    {ret}{'' if ret.endswith('*') else ' '}ret;\n\n",
                f"    glmux_winsys_layer_check(\"{cmd.name}\");\n",
                "    if (top == NULL)\n", f"        return {impl}({args});\n",
                "    glmux_winsys_layer_enter();\n", f"    ret = top({args});\n",
                "    glmux_winsys_layer_leave();\n", "    return ret;\n}\n\n"]
    out += [prototype(cfg, cmd, cmd.name, cfg["export"] + " "), "\n{\n",
            "    if (glmux_winsys_layers_maybe())\n"]
    if void:
        out += [f"        {layered}({args});\n", "    else\n", f"        {impl}({args});\n}}\n\n"]
    else:
        out += [f"        return {layered}({args});\n", f"    return {impl}({args});\n}}\n\n"]
    return "".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--api", required=True, choices=sorted(APIS))
    ap.add_argument("--xml", required=True)
    ap.add_argument("--symbols", required=True)
    ap.add_argument("out_dir")
    args = ap.parse_args()
    cfg = APIS[args.api]

    reg = Registry(args.xml)
    names = sorted(n for n in read_list(args.symbols) if not n.startswith("__"))
    missing = [n for n in names if n not in reg.commands or not n.startswith(cfg["prefix"])]
    if missing:
        sys.exit(f"{args.symbols}: error: {os.path.basename(args.xml)} has no {cfg['prefix']}* "
                 f"command {', '.join(missing[:5])}; fix the symbol list or the registry path")
    cmds = [reg.commands[n] for n in names]
    xml = os.path.basename(args.xml)
    sym = os.path.basename(args.symbols)
    banner = f"/* generated by gen_winsys_wrappers.py from {xml} and {sym} -- do not edit */\n"
    guard = f"GLMUX_{args.api.upper()}_IMPL_H"

    h = [banner,
         f"/* glmux's own implementations of {cfg['lib']}'s exported functions (the bodies behind\n"
         f" * the exports of glmux_{args.api}_wrappers.c), typed from the registry. */\n",
         f"#ifndef {guard}\n#define {guard}\n\n"]
    h += [f"#include {i}\n" for i in cfg["headers"]]
    if cfg["table"]:
        h += [f"#include {i}\n" for i in cfg["local"]]
    h.append("\n")
    h += [prototype(cfg, c, cfg["impl"] + c.name[len(cfg["prefix"]):], tail=");") + "\n"
          for c in cmds]
    if cfg["table"]:
        typ, table, count, _ = cfg["table"]
        h.append("\n/* Own index -> the export, NULL for own functions that are not exported. */\n")
        h.append(f"extern const {typ} {table}[{count}];\n")
    h.append(f"\n#endif /* {guard} */\n")

    c = [banner,
         f"/* {cfg['lib']}'s exported functions: each calls the top of its chain of GL layers\n"
         " * when a loaded layer intercepts it, else glmux's own "
         f"{cfg['impl']}<Name> (winsys/layer.h). With\n"
         " * no layer an export is a load, a branch and a tail call; layered_<export> is the path\n"
         " * for when layers may be loaded, out of line. */\n"
         "#include <stddef.h>\n\n"]
    c += [f"#include {i}\n" for i in cfg["local"]]
    c += [f'#include "glmux_{args.api}_impl.h"\n', '#include "glmux/glmux_layer.h"\n',
          '#include "winsys/layer.h"\n\n']
    c += [wrapper(cfg, cmd) for cmd in cmds]
    if cfg["table"]:
        typ, table, count, index = cfg["table"]
        c.append(f"const {typ} {table}[{count}] = {{\n")
        for cmd in cmds:
            entry = f"    [{index}{cmd.name[len(cfg['prefix']):]}] = (void (*)(void)){cmd.name},"
            c.append((entry if len(entry) <= 100 else entry.replace("= ", "=\n        ")) + "\n")
        c.append("};\n")
    else:
        c[-1] = c[-1].rstrip("\n") + "\n"

    write_if_changed(os.path.join(args.out_dir, f"glmux_{args.api}_impl.h"), "".join(h),
                     make_dirs=True)
    write_if_changed(os.path.join(args.out_dir, f"glmux_{args.api}_wrappers.c"), "".join(c),
                     make_dirs=True)


if __name__ == "__main__":
    main()
