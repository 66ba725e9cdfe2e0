#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the Khronos API headers that libglvnd's -dev packages install, from the registries.

The headers (GL/, GLES/, GLES2/, GLES3/, EGL/, KHR/) are made at build time, in the build tree,
from registry data that distributions ship outside libglvnd: gl.xml and glx.xml (Debian:
khronos-api), egl.xml, eglplatform.h and khrplatform.h (Debian: python3-glad's glad/files/).
So glmux builds in a root that holds none of the packages it produces.

* Generated from a registry (the API of a feature range and a set of extensions):
  GL/glext.h, GL/glcorearb.h, GL/glxext.h, GLES/gl.h, GLES/glext.h, GLES2/gl2.h,
  GLES2/gl2ext.h, GLES3/gl3.h, GLES3/gl31.h, GLES3/gl32.h, EGL/egl.h, EGL/eglext.h, and,
  with glmux's own preamble, GL/gl.h (GL 1.0 to 1.3) and GL/glx.h (GLX 1.0 to 1.4).
* Copied unchanged (Khronos platform headers, not generated upstream either):
  KHR/khrplatform.h, EGL/eglplatform.h.
* Written here (a few lines each): GLES/glplatform.h, GLES2/gl2platform.h, GLES3/gl3platform.h,
  GLES/egl.h, GLES3/gl3ext.h.

Selection follows the registry's rules: a header takes the <feature> blocks of its API whose
number its version pattern matches (their <require> lists, minus <remove> lists for its profile)
and the <extension> blocks whose `supported` list names its extension set. Interfaces of
features it considers but does not emit (GL 1.0 and 1.1 in glext.h, which gl.h declares) count
as declared. Each block is wrapped in #ifndef NAME; types first (with what they require), then
enums, then function-pointer typedefs and prototypes (behind the header's prototype macro).
The output depends only on the inputs: no date, no path.

  gen_headers.py --gl-xml F --glx-xml F --egl-xml F --khr-dir D --out DIR [--only HEADER...]
                 [--date YYYYMMDD]
"""

import argparse
import datetime
import os
import re
import sys
import xml.etree.ElementTree as ET

NOMATCH = r"(?!)"

# Header specifications. registry: which XML; api; profile; considered/emitted: version regexes;
# ext: `supported` name of the extensions included; add/remove: extension name regexes;
# guard: prototype guard ('ifdef X', 'if X' or None: always declared); pfn: emit PFN typedefs;
# call/entry/entryp: the macros in prototypes; pre/post: text around the generated blocks.
SPECS = {}


def spec(name, **kw):
    d = dict(registry="gl", api="gl", profile=None, considered=".*", emitted=".*", ext=None,
             add=NOMATCH, remove=NOMATCH, guard=None, pfn=True, call="GLAPI", entry="APIENTRY",
             entryp="APIENTRYP", pre="", post="", include_guard=None, guard_value=" 1",
             extra_types={}, extra="")
    d.update(kw)
    SPECS[name] = d


GL_DEFAULTS = """#ifndef APIENTRY
#define APIENTRY
#endif
#ifndef APIENTRYP
#define APIENTRYP APIENTRY *
#endif
#ifndef GLAPI
#define GLAPI extern
#endif
"""
GLES_ENTRYP = """#ifndef GL_APIENTRYP
#define GL_APIENTRYP GL_APIENTRY*
#endif
"""
GLES_PROTOS = """#ifndef GL_GLES_PROTOTYPES
#define GL_GLES_PROTOTYPES 1
#endif
"""

# Declarations that libglvnd's (Mesa's) gl.h and glx.h have and no Khronos registry has: a few
# old Mesa, ATI and NVIDIA extensions, kept so that programs written against them still build.
GL_EXTRA = """#define GL_ALL_CLIENT_ATTRIB_BITS 0xFFFFFFFF

#ifndef GL_MESA_packed_depth_stencil
#define GL_MESA_packed_depth_stencil 1
#define GL_DEPTH_STENCIL_MESA 0x8750
#define GL_UNSIGNED_INT_24_8_MESA 0x8751
#define GL_UNSIGNED_INT_8_24_REV_MESA 0x8752
#define GL_UNSIGNED_SHORT_15_1_MESA 0x8753
#define GL_UNSIGNED_SHORT_1_15_REV_MESA 0x8754
#endif

#ifndef GL_ATI_blend_equation_separate
#define GL_ATI_blend_equation_separate 1
#define GL_ALPHA_BLEND_EQUATION_ATI 0x883D
GLAPI void GLAPIENTRY glBlendEquationSeparateATI (GLenum modeRGB, GLenum modeA);
typedef void (APIENTRYP PFNGLBLENDEQUATIONSEPARATEATIPROC) (GLenum modeRGB, GLenum modeA);
#endif
"""
GLX_EXTRA = """#ifndef GLX_NV_vertex_array_range
#define GLX_NV_vertex_array_range
extern void *glXAllocateMemoryNV (GLsizei size, GLfloat readfreq, GLfloat writefreq,
                                  GLfloat priority);
extern void glXFreeMemoryNV (GLvoid *pointer);
typedef void *(*PFNGLXALLOCATEMEMORYNVPROC) (GLsizei size, GLfloat readfreq, GLfloat writefreq,
                                             GLfloat priority);
typedef void (*PFNGLXFREEMEMORYNVPROC) (GLvoid *pointer);
#endif

#ifndef GLX_ARB_render_texture
#define GLX_ARB_render_texture 1
extern Bool glXBindTexImageARB (Display *dpy, GLXPbuffer pbuffer, int buffer);
extern Bool glXReleaseTexImageARB (Display *dpy, GLXPbuffer pbuffer, int buffer);
extern Bool glXDrawableAttribARB (Display *dpy, GLXDrawable draw, const int *attribList);
#endif

#ifndef GLX_MESA_swap_frame_usage
#define GLX_MESA_swap_frame_usage 1
extern int glXGetFrameUsageMESA (Display *dpy, GLXDrawable drawable, float *usage);
extern int glXBeginFrameTrackingMESA (Display *dpy, GLXDrawable drawable);
extern int glXEndFrameTrackingMESA (Display *dpy, GLXDrawable drawable);
extern int glXQueryFrameTrackingMESA (Display *dpy, GLXDrawable drawable, int64_t *swapCount,
                                      int64_t *missedFrames, float *lastMissedUsage);
typedef int (*PFNGLXGETFRAMEUSAGEMESAPROC) (Display *dpy, GLXDrawable drawable, float *usage);
typedef int (*PFNGLXBEGINFRAMETRACKINGMESAPROC) (Display *dpy, GLXDrawable drawable);
typedef int (*PFNGLXENDFRAMETRACKINGMESAPROC) (Display *dpy, GLXDrawable drawable);
typedef int (*PFNGLXQUERYFRAMETRACKINGMESAPROC) (Display *dpy, GLXDrawable drawable,
                                                 int64_t *swapCount, int64_t *missedFrames,
                                                 float *lastMissedUsage);
#endif
"""

spec("GL/glext.h", profile="compatibility", emitted=r"1\.[2-9]|[234]\.[0-9]", ext="gl",
     guard="ifdef GL_GLEXT_PROTOTYPES", include_guard="__gl_glext_h_",
     pre=GL_DEFAULTS + "\n#define GL_GLEXT_VERSION @DATE@\n\n#include <KHR/khrplatform.h>\n")
spec("GL/glcorearb.h", profile="core", ext="glcore", guard="ifdef GL_GLEXT_PROTOTYPES",
     include_guard="__gl_glcorearb_h_",
     pre="/* For OpenGL core profile implementations: no deprecated interface of the\n"
         " * compatibility profile, and only the ARB and KHR extensions a core profile has. */\n\n"
         + GL_DEFAULTS)
# GL 1.0 to 1.3 with prototypes always declared, the legacy gl.h of libglvnd and Mesa.
spec("GL/gl.h", profile="compatibility", considered=r"1\.[0-3]", emitted=r"1\.[0-3]",
     add=r"GL_ARB_imaging|GL_ARB_multitexture|GL_OES_EGL_image", include_guard="__gl_h_",
     guard_value="", call="GLAPI", entry="GLAPIENTRY", extra=GL_EXTRA,
     entryp="GLAPIENTRYP", pre="""#if defined(__GNUC__) && __GNUC__ >= 4 && !defined(GLAPI)
#define GLAPI __attribute__((visibility("default")))
#endif
#ifndef GLAPI
#define GLAPI extern
#endif
#ifndef GLAPIENTRY
#define GLAPIENTRY
#endif
#ifndef APIENTRY
#define APIENTRY GLAPIENTRY
#endif
#ifndef APIENTRYP
#define APIENTRYP APIENTRY *
#endif
#ifndef GLAPIENTRYP
#define GLAPIENTRYP GLAPIENTRY *
#endif
""", post="""/* The extensions and later versions, unless the application asks for gl.h alone. */
#ifndef GL_GLEXT_LEGACY
#include <GL/glext.h>
#endif
""")
spec("GL/glxext.h", registry="glx", api="glx", emitted=r"1\.[3-9]", ext="glx",
     guard="ifdef GLX_GLXEXT_PROTOTYPES", call="", entry="", entryp="*",
     include_guard="__glx_glxext_h_", pre="#define GLX_GLXEXT_VERSION @DATE@\n")
spec("GL/glx.h", registry="glx", api="glx", considered=r"1\.[0-4]", emitted=r"1\.[0-4]",
     add=r"GLX_ARB_get_proc_address", call="extern", entry="", entryp="*",
     include_guard="GLX_H", guard_value="", extra=GLX_EXTRA,
     extra_types={"GLX_VERSION_1_3": ["GLXFBConfigID", "GLXPbufferClobberEvent",
                                      "GLXBufferSwapComplete", "GLXEvent"]},
     pre="#include <X11/Xlib.h>\n#include <X11/Xutil.h>\n#include <GL/gl.h>\n",
     post="""/* The extensions, unless the application asks for glx.h alone. */
#ifndef GLX_GLXEXT_LEGACY
#include <GL/glxext.h>
#endif
""")
spec("GLES/gl.h", api="gles1", profile="common",
     add=r"GL_OES_read_format|GL_OES_compressed_paletted_texture|GL_OES_point_size_array|"
         r"GL_OES_point_sprite", pfn=False, call="GL_API", entry="GL_APIENTRY",
     entryp="GL_APIENTRYP", include_guard="__gles1_gl_h_",
     pre="#include <GLES/glplatform.h>\n")
spec("GLES/glext.h", api="gles1", profile="common", emitted=NOMATCH, ext="gles1",
     remove=r"GL_OES_read_format|GL_OES_compressed_paletted_texture|GL_OES_point_size_array|"
            r"GL_OES_point_sprite", guard="ifdef GL_GLEXT_PROTOTYPES", call="GL_API",
     entry="GL_APIENTRY", entryp="GL_APIENTRYP", include_guard="__gles1_glext_h_",
     pre=GLES_ENTRYP)
for header, versions, platform in (("GLES2/gl2.h", r"2\.[0-9]", "GLES2/gl2platform.h"),
                                   ("GLES3/gl3.h", r"2\.[0-9]|3\.0", "GLES3/gl3platform.h"),
                                   ("GLES3/gl31.h", r"2\.[0-9]|3\.[01]", "GLES3/gl3platform.h"),
                                   ("GLES3/gl32.h", r"2\.[0-9]|3\.[012]", "GLES3/gl3platform.h")):
    guard = "__gles2_" + os.path.basename(header).replace(".", "_") + "_"
    spec(header, api="gles2", profile="common", considered=versions, guard="if GL_GLES_PROTOTYPES",
         call="GL_APICALL", entry="GL_APIENTRY", entryp="GL_APIENTRYP", include_guard=guard,
         pre=f"#include <{platform}>\n\n" + GLES_ENTRYP + "\n" + GLES_PROTOS)
spec("GLES2/gl2ext.h", api="gles2", profile="common", considered=r"2\.[0-9]", emitted=NOMATCH,
     ext="gles2", guard="ifdef GL_GLEXT_PROTOTYPES", call="GL_APICALL", entry="GL_APIENTRY",
     entryp="GL_APIENTRYP", include_guard="__gles2_gl2ext_h_", pre=GLES_ENTRYP)
spec("EGL/egl.h", registry="egl", api="egl", guard="if EGL_EGL_PROTOTYPES", call="EGLAPI",
     entry="EGLAPIENTRY", entryp="EGLAPIENTRYP", include_guard="__egl_h_",
     pre="#include <EGL/eglplatform.h>\n\n#ifndef EGL_EGL_PROTOTYPES\n"
         "#define EGL_EGL_PROTOTYPES 1\n#endif\n")
spec("EGL/eglext.h", registry="egl", api="egl", emitted=NOMATCH, ext="egl",
     guard="ifdef EGL_EGLEXT_PROTOTYPES", call="EGLAPI", entry="EGLAPIENTRY",
     entryp="EGLAPIENTRYP", include_guard="__eglext_h_",
     pre="#include <EGL/eglplatform.h>\n\n#define EGL_EGLEXT_VERSION @DATE@\n")

# Written here: the GLES platform headers (API macros on top of khrplatform.h), the legacy
# GLES/egl.h, and the empty GLES3/gl3ext.h that programs written for Mesa include.
PLATFORM = """#ifndef {guard}
#define {guard}

/* OpenGL ES {ver} platform definitions: the call and entry macros of GLES{dir}/ headers,
 * from the Khronos platform header. */
#include <KHR/khrplatform.h>

#ifndef {call}
#define {call} KHRONOS_APICALL
#endif
#ifndef GL_APIENTRY
#define GL_APIENTRY KHRONOS_APIENTRY
#endif

#endif
"""
WRITTEN = {
    "GLES/glplatform.h": PLATFORM.format(guard="__glplatform_h_", ver="1.x", dir="",
                                         call="GL_API"),
    "GLES2/gl2platform.h": PLATFORM.format(guard="__gl2platform_h_", ver="2.0", dir="2",
                                           call="GL_APICALL"),
    "GLES3/gl3platform.h": PLATFORM.format(guard="__gl3platform_h_", ver="3.x", dir="3",
                                           call="GL_APICALL"),
    "GLES/egl.h": """#ifndef __legacy_egl_h_
#define __legacy_egl_h_

/* For OpenGL ES 1.x programs that include only GLES/egl.h: EGL and the GLES 1.x API. */
#include <EGL/egl.h>
#include <GLES/gl.h>

#endif
""",
    "GLES3/gl3ext.h": """#ifndef __gl3ext_h_
#define __gl3ext_h_

/* Empty on purpose: OpenGL ES 3 extensions are declared in GLES2/gl2ext.h. Programs
 * written for Mesa include this file. */

#endif
""",
}
COPIED = {"KHR/khrplatform.h": "khrplatform.h", "EGL/eglplatform.h": "eglplatform.h"}
HEADERS = sorted(set(SPECS) | set(WRITTEN) | set(COPIED))


def ctext(elem, entry):
    """The C text of a <type>, <proto> or <param>, with <apientry/> as the header's macro."""
    parts = [elem.text or ""]
    for child in elem:
        if child.tag == "apientry":
            parts.append(entry)
        elif child.tag != "comment":
            parts.append("".join(child.itertext()))
        parts.append(child.tail or "")
    return "".join(parts)


def squash(text):
    return re.sub(r"\s+", " ", text).strip()


class Registry:
    def __init__(self, path):
        self.path = path
        self.root = ET.parse(path).getroot()
        self.types = []          # (name, api, elem) in registry order
        types = self.root.find("types")
        for t in types.findall("type") if types is not None else []:
            name = t.get("name") or (t.find("name").text if t.find("name") is not None else None)
            if name:
                self.types.append((name, t.get("api"), t))
        self.enums = {}          # name -> [(api, value)]
        for block in self.root.findall("enums"):
            for e in block.findall("enum"):
                value = e.get("value") + (e.get("type") or "")
                self.enums.setdefault(e.get("name"), []).append((e.get("api"), value))
        self.commands = {}       # name -> [(api, elem)]
        for block in self.root.findall("commands"):
            for c in block.findall("command"):
                self.commands.setdefault(c.find("proto").find("name").text, []).append(
                    (c.get("api"), c))

    def mtime_date(self):
        stamp = os.stat(self.path).st_mtime
        return datetime.datetime.fromtimestamp(stamp, datetime.timezone.utc).strftime("%Y%m%d")

    def type_elem(self, name, api):
        chosen = None
        for n, a, t in self.types:
            if n == name and a == api:
                return t
            if n == name and a is None and chosen is None:
                chosen = t
        return chosen

    def pick(self, table, name, api):
        chosen = None
        for a, v in table.get(name, []):
            if a == api:
                return v
            if a is None and chosen is None:
                chosen = v
        return chosen


class Block:
    """One #ifndef NAME block: a feature or an extension, and what it requires."""

    def __init__(self, name, elem):
        self.name = name
        self.elem = elem
        self.types, self.enums, self.commands = [], [], []


def uses(spec_, block_elem, tag):
    """The <require>/<remove> children of tag that apply to this header's API and profile."""
    for r in block_elem.findall(tag):
        if r.get("api") not in (None, spec_["api"]):
            continue
        if r.get("profile") and r.get("profile") != spec_["profile"]:
            continue
        yield r


def version_key(feature):
    return tuple(int(x) for x in feature.get("number").split("."))


def select(reg, sp):
    """The blocks to emit, and the names declared by considered but not emitted features."""
    full = lambda rx: re.compile(r"(?:%s)\Z" % rx)
    considered, emitted = full(sp["considered"]), full(sp["emitted"])
    features = sorted((f for f in reg.root.findall("feature") if f.get("api") == sp["api"] and
                       considered.match(f.get("number"))), key=version_key)
    exts = []
    ext_root = reg.root.find("extensions")
    for e in ext_root.findall("extension") if ext_root is not None else []:
        supported = (e.get("supported") or "").split("|")
        name = e.get("name")
        if full(sp["remove"]).match(name):
            continue
        if (sp["ext"] and sp["ext"] in supported) or full(sp["add"]).match(name):
            exts.append(e)
    category = lambda n: n.split("_")[1] if n.count("_") >= 2 else ""
    exts.sort(key=lambda e: (0 if category(e.get("name")) in ("ARB", "KHR", "OES") else 1,
                             e.get("name")))
    # The registry's order of requirement: features by number, then extensions; a <remove>
    # takes out what earlier blocks required, a later <require> puts it back (GL_QUADS: removed
    # from the core profile by 3.2, required again by 4.0).
    required = set()
    for elem in features + exts:
        for r in uses(sp, elem, "require"):
            required.update((x.tag, x.get("name")) for x in r)
        if sp["profile"]:
            for r in uses(sp, elem, "remove"):
                required.difference_update((x.tag, x.get("name")) for x in r)
    blocks, declared = [], set()
    for elem in features + exts:
        b = Block(elem.get("name"), elem)
        for r in uses(sp, elem, "require"):
            for x in r:
                if (x.tag, x.get("name")) not in required:
                    continue
                {"type": b.types, "enum": b.enums, "command": b.commands}.get(x.tag, []).append(
                    x.get("name"))
        if elem.tag == "feature" and not emitted.match(elem.get("number")):
            declared.update(("type", n) for n in b.types)
            declared.update(("enum", n) for n in b.enums)
            declared.update(("command", n) for n in b.commands)
            for c in b.commands:
                declared.update(("type", t) for t in command_types(reg, c, sp))
            continue
        blocks.append(b)
    return blocks, declared


def command_types(reg, name, sp):
    elem = reg.pick(reg.commands, name, sp["api"])
    if elem is None:
        raise SystemExit(f"{reg.path}: error: no command {name}")
    return [p.text for p in elem.iter("ptype")]


def type_closure(reg, names, sp):
    """names and every type they require, each once, in the registry's (dependency) order."""
    want = set()
    todo = list(names)
    while todo:
        n = todo.pop()
        if n in want:
            continue
        t = reg.type_elem(n, sp["api"])
        if t is None:
            continue          # a C type such as 'int' or a platform type of another header
        want.add(n)
        if t.get("requires"):
            todo.append(t.get("requires"))
        for inner in t.findall("type"):  # typedefs that name other registry types
            todo.append(inner.text)
    seen, out = set(), []
    for n, _, _ in reg.types:
        if n in want and n not in seen:
            seen.add(n)
            out.append(n)
    return out


def render_command(reg, name, sp):
    elem = reg.pick(reg.commands, name, sp["api"])
    proto = elem.find("proto")
    parts = [proto.text or ""]
    for child in proto:
        if child.tag != "name":
            parts.append("".join(child.itertext()))
        parts.append(child.tail or "")
    ret = squash("".join(parts))
    params = [squash(ctext(p, sp["entry"])) for p in elem.findall("param")
              if p.get("api") in (None, sp["api"])]
    plist = ", ".join(params) if params else "void"
    star = "" if ret.endswith("*") else " "
    call = (sp["call"] + " ") if sp["call"] else ""
    entry = (sp["entry"] + " ") if sp["entry"] else ""
    proto_line = f"{call}{ret}{star if not entry else ' '}{entry}{name} ({plist});"
    pfn = f"typedef {ret}{star}({sp['entryp']} PFN{name.upper()}PROC) ({plist});"
    return proto_line, pfn


def generate(reg, sp, header, date=None):
    blocks, declared = select(reg, sp)
    out = []
    done = set(declared)
    for b in blocks:
        types = []
        for c in b.commands:
            types.extend(command_types(reg, c, sp))
        types.extend(sp["extra_types"].get(b.name, []))
        lines = [f"#ifndef {b.name}", f"#define {b.name} 1"]
        for t in type_closure(reg, b.types + types, sp):
            if ("type", t) in done:
                continue
            done.add(("type", t))
            text = ctext(reg.type_elem(t, sp["api"]), sp["entry"] or "").strip()
            if text:
                lines.append(text)
        # An extension that needs a platform header (SGI video, digital media, Android): its
        # types stay visible, its enums and commands only with that header.
        protect = b.elem.get("protect")
        if protect:
            lines.append(f"#ifdef {protect}")
        for e in b.enums:
            if ("enum", e) in done:
                continue
            value = reg.pick(reg.enums, e, sp["api"])
            if value is None:
                raise SystemExit(f"{reg.path}: error: {b.name} requires unknown enum {e}")
            done.add(("enum", e))
            lines.append(f"#define {e.ljust(33)} {value}")
        protos, pfns = [], []
        for c in b.commands:
            if ("command", c) in done:
                continue
            done.add(("command", c))
            proto, pfn = render_command(reg, c, sp)
            protos.append(proto)
            pfns.append(pfn)
        if sp["pfn"]:
            lines.extend(pfns)
        if protos:
            if sp["guard"]:
                lines.append(f"#{sp['guard']}")
            lines.extend(protos)
            if sp["guard"]:
                lines.append("#endif")
        if protect:
            lines.append(f"#endif /* {protect} */")
        lines.append(f"#endif /* {b.name} */")
        out.append("\n".join(lines) + "\n")
    guard = sp["include_guard"]
    head = [f"#ifndef {guard}", f"#define {guard}{sp['guard_value']}", "",
            f"/* {header}: generated by glmux (scripts/gen/gen_headers.py) from the Khronos",
            f" * registry {os.path.basename(reg.path)}. The registry is Copyright The Khronos Group Inc.,",
            " * SPDX-License-Identifier: Apache-2.0 (see the registry file for its notice). */", "",
            sp["pre"].replace("@DATE@", date or reg.mtime_date()).rstrip("\n"), "",
            "#ifdef __cplusplus", 'extern "C" {', "#endif", ""]
    extra = [sp["extra"]] if sp["extra"] else []
    tail = extra + ["#ifdef __cplusplus", "}", "#endif", ""]
    if sp["post"]:
        tail += [sp["post"].rstrip("\n"), ""]
    tail += [f"#endif /* {guard} */", ""]
    return "\n".join(head) + "\n".join(out) + "\n" + "\n".join(tail)


def write_if_changed(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            if f.read() == text:
                return
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--gl-xml")
    ap.add_argument("--glx-xml")
    ap.add_argument("--egl-xml")
    ap.add_argument("--khr-dir", help="directory with khrplatform.h and eglplatform.h")
    ap.add_argument("--out", required=True)
    ap.add_argument("--only", nargs="*", help="headers to write (default: all)")
    ap.add_argument("--list", action="store_true", help="print the header names and exit")
    ap.add_argument("--date", help="the *EXT_VERSION value (default: each registry file's "
                                   "modification date, UTC, which its package fixes)")
    args = ap.parse_args()
    if args.list:
        print("\n".join(HEADERS))
        return 0
    wanted = args.only or HEADERS
    unknown = [h for h in wanted if h not in HEADERS]
    if unknown:
        raise SystemExit(f"gen_headers.py: error: unknown header {', '.join(unknown)}")
    regs = {}
    for h in wanted:
        if h in SPECS:
            which = SPECS[h]["registry"]
            path = getattr(args, f"{which}_xml")
            if not path:
                raise SystemExit(f"gen_headers.py: error: {h} needs --{which}-xml")
            if which not in regs:
                regs[which] = Registry(path)
            text = generate(regs[which], SPECS[h], h, args.date)
        elif h in WRITTEN:
            text = WRITTEN[h]
        else:
            if not args.khr_dir:
                raise SystemExit(f"gen_headers.py: error: {h} needs --khr-dir")
            with open(os.path.join(args.khr_dir, COPIED[h]), encoding="utf-8") as f:
                text = f.read()
        write_if_changed(os.path.join(args.out, h), text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
