#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""glmux tests: data/glx-to-egl.tsv against the Khronos registries.

  check_table.py TABLE GLX_XML [EGL_XML]

Fails when glx.xml has a GLX function, token, type, version or extension that the table does not
classify, when the table names a GLX identifier glx.xml lacks or gives it the wrong origin, and
(with egl.xml) when an EGL name in the table is not in the EGL registry, or an EGL name that only
an extension defines comes without that extension in the 'requires' column.
"""
import os
import re
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "scripts", "gen"))
import glmux_port_table  # noqa: E402

# EGL names in use outside the Khronos registry: Chromium's sync control (Mesa implements it)
# and the device extension string of Mesa's software device.
NOT_IN_REGISTRY = {"EGL_CHROMIUM_sync_control", "eglGetSyncValuesCHROMIUM",
                   "EGL_MESA_device_software"}


def requires_of(node, tag):
    return [x.get("name") for req in node.findall("require") for x in req.findall(tag)]


def glx_registry(path):
    root = ET.parse(path).getroot()
    owner = {}
    features = [f.get("name") for f in root.iter("feature")]
    extensions = [e.get("name") for e in root.iter("extension")]
    for node in list(root.iter("feature")) + list(root.iter("extension")):
        for name in requires_of(node, "command") + requires_of(node, "enum"):
            owner.setdefault(name, []).append(node.get("name"))
    commands = [c.find("proto/name").text for c in root.find("commands").findall("command")]
    enums = [e.get("name") for es in root.findall("enums") for e in es.findall("enum")]
    types = [t.get("name") or t.findtext("name") for t in root.find("types").findall("type")]
    types = [t for t in types if t and (t.startswith("GLX") or t.startswith("__GLX"))]
    return commands, enums, types, features + extensions, owner


def egl_registry(path):
    root = ET.parse(path).getroot()
    names = {}
    for node in list(root.iter("feature")) + list(root.iter("extension")):
        names.setdefault(node.get("name"), set())
        for req in node.findall("require"):
            for x in req:
                if x.get("name"):
                    names.setdefault(x.get("name"), set()).add(node.get("name"))
    for t in root.find("types").findall("type"):
        n = t.get("name") or t.findtext("name")
        if n:
            names.setdefault(n, set())
    for es in root.findall("enums"):
        for e in es.findall("enum"):
            names.setdefault(e.get("name"), set())
    return names


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    table, glx_xml = sys.argv[1], sys.argv[2]
    egl_xml = sys.argv[3] if len(sys.argv) > 3 else ""
    if not os.path.exists(glx_xml):
        print(f"skipped: {glx_xml} is missing (apt-get install khronos-api)")
        return 77
    errors = []
    entries = glmux_port_table.load(table)
    by_name = {e.name: e for e in entries}
    commands, enums, types, versions_exts, owner = glx_registry(glx_xml)

    for kind, names in (("function", commands), ("token", enums), ("type", types),
                        ("extension", versions_exts)):
        missing = [n for n in names if n not in by_name]
        for n in missing:
            errors.append(f"glx.xml has the {kind} {n}, which {table} does not classify")
        wrong = [n for n in names if n in by_name and by_name[n].kind != kind]
        for n in wrong:
            errors.append(f"{table}:{by_name[n].line}: {n} is a {kind} in glx.xml, "
                          f"not a {by_name[n].kind}")
    known = set(commands) | set(enums) | set(types) | set(versions_exts)
    for e in entries:
        if e.kind in ("header", "macro"):
            continue
        if e.name not in known:
            errors.append(f"{table}:{e.line}: {e.name} is not in glx.xml")
        elif e.kind in ("function", "token") and e.origin not in owner.get(e.name, []):
            errors.append(f"{table}:{e.line}: {e.name} comes from {', '.join(owner[e.name])}, "
                          f"not {e.origin}")
        elif e.kind == "extension" and e.origin != e.name:
            errors.append(f"{table}:{e.line}: the origin of an extension is itself")
        elif e.kind == "type" and e.origin not in versions_exts:
            errors.append(f"{table}:{e.line}: {e.origin} is not a GLX version or extension")

    checked_egl = 0
    if egl_xml and os.path.exists(egl_xml):
        egl = egl_registry(egl_xml)
        word = re.compile(r"\b(?:__)?(?:egl[A-Z]\w*|EGL_\w+|EGL[A-Z][a-z]\w*)")
        for e in entries:
            required = set(re.findall(r"EGL_[A-Z]+_\w+", e.requires))
            for col in ("egl", "requires", "note"):
                for name in word.findall(getattr(e, col)):
                    checked_egl += 1
                    if name in NOT_IN_REGISTRY or name == "EGL_EGLEXT_PROTOTYPES" \
                            or name == "EGL_EGLEXT_VERSION":
                        continue
                    if name.endswith("s") and name[:-1] in egl:
                        continue  # a plural in prose: "EGLConfigs"
                    if name not in egl:
                        errors.append(f"{table}:{e.line}: {name} ({col} of {e.name}) is not in "
                                      f"the EGL registry")
                        continue
                    if col != "egl":
                        continue
                    defined_by = egl[name]
                    if defined_by and not any(d.startswith("EGL_VERSION_") for d in defined_by) \
                            and not (defined_by & required) and name not in required:
                        errors.append(f"{table}:{e.line}: {name} ({e.name}) needs one of "
                                      f"{', '.join(sorted(defined_by))} in 'requires'")
            for ext in required:
                if ext not in egl and ext not in NOT_IN_REGISTRY:
                    errors.append(f"{table}:{e.line}: {ext} is not an EGL extension")
    else:
        print("note: no egl.xml given or found; EGL names not checked")

    for err in errors:
        print("FAIL:", err)
    counts = {k: sum(1 for e in entries if e.kind == k) for k in glmux_port_table.KINDS}
    print(f"{len(entries)} entries ({', '.join(f'{v} {k}s' for k, v in counts.items())}); "
          f"glx.xml: {len(commands)} functions, {len(enums)} tokens, {len(types)} types, "
          f"{len(versions_exts)} versions and extensions; {checked_egl} EGL names checked")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
