# SPDX-License-Identifier: MIT
"""Reading the Khronos GL registry (gl.xml) and glmux's own ABI lists.

Everything the generators know about GL commands comes through here: the commands with their
C prototypes, the commands each API feature or extension requires, the typedefs, the frozen
static slot list (src/dispatch/gl_slots.txt) and the extra commands that libglvnd 1.6 gives a
static slot although Debian's gl.xml lacks them (src/dispatch/gl_extra_commands.txt). It also
holds write_if_changed, the one way every generator that reads it writes a file.
"""

import os
import re
import xml.etree.ElementTree as ET


def write_if_changed(path, text, make_dirs=False):
    """Write text to path through a temporary file, unless path already holds exactly that text
    (so an unchanged output keeps its time stamp and nothing downstream rebuilds). make_dirs
    creates the file's folder first."""
    try:
        with open(path, encoding="utf-8") as f:
            if f.read() == text:
                return
    except FileNotFoundError:
        pass
    if make_dirs:
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(path + ".tmp", path)


class Command:
    """One GL command: its name, return type and parameters as (type text, name) pairs."""

    def __init__(self, name, ret, params):
        self.name = name
        self.ret = ret.strip()
        self.params = params

    def param_decl(self):
        if not self.params:
            return "void"
        return ", ".join(f"{t} {n}" for t, n in self.params)

    def param_types(self):
        if not self.params:
            return "void"
        return ", ".join(t for t, _ in self.params)

    def param_names(self):
        return ", ".join(n for _, n in self.params)

    def returns_void(self):
        return self.ret == "void"


def _text_without_name(elem):
    """The C text of a <proto> or <param>, without its <name> child."""
    parts = [elem.text or ""]
    for child in elem:
        if child.tag != "name":
            parts.append("".join(child.itertext()))
        parts.append(child.tail or "")
    return re.sub(r"\s+", " ", "".join(parts)).strip()


class Registry:
    def __init__(self, path):
        self.root = ET.parse(path).getroot()
        self.commands = {}
        for cmd in self.root.find("commands").findall("command"):
            proto = cmd.find("proto")
            name = proto.find("name").text
            params = [(_text_without_name(p), p.find("name").text) for p in cmd.findall("param")]
            self.commands[name] = Command(name, _text_without_name(proto), params)

    def typedefs(self):
        """The <types> block as C text, one line a type, the first of each name only."""
        seen = set()
        lines = []
        for t in self.root.find("types").findall("type"):
            name = t.get("name") or (t.find("name").text if t.find("name") is not None else None)
            if name in seen:
                continue
            seen.add(name)
            text = []
            text.append(t.text or "")
            for child in t:
                text.append("APIENTRY" if child.tag == "apientry" else "".join(child.itertext()))
                text.append(child.tail or "")
            line = "".join(text).strip()
            if line:
                lines.append(line)
        return lines

    def required_commands(self, api, features, extensions=()):
        """Names of the commands the named features (of api) and extensions require."""
        wanted = set()
        found = set()
        blocks = [f for f in self.root.findall("feature")
                  if f.get("api") == api and f.get("name") in features]
        found.update(f.get("name") for f in blocks)
        for ext in self.root.find("extensions").findall("extension"):
            if ext.get("name") in extensions:
                blocks.append(ext)
                found.add(ext.get("name"))
        missing = (set(features) | set(extensions)) - found
        if missing:
            raise SystemExit(f"gl.xml has no {', '.join(sorted(missing))} for api {api}")
        for block in blocks:
            for req in block.findall("require"):
                if req.get("api") not in (None, api):
                    continue
                for c in req.findall("command"):
                    wanted.add(c.get("name"))
        return wanted


def _parse_param_list(text):
    text = text.strip()
    if text in ("", "void"):
        return []
    params = []
    for part in text.split(","):
        part = part.strip()
        m = re.match(r"^(.*?)(\w+)$", part)
        if not m:
            raise SystemExit(f"cannot parse parameter '{part}'")
        params.append((re.sub(r"\s+", " ", m.group(1)).strip(), m.group(2)))
    return params


def read_list(path):
    """A one-name-a-line file with '#' comments (the .symbols and slot-list format)."""
    names = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                names.append(line.split()[0])
    return names


def read_extra_commands(path):
    """Commands from gl_extra_commands.txt: 'name | return | parameters' lines."""
    extras = {}
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            fields = [x.strip() for x in line.split("|")]
            if len(fields) != 3:
                raise SystemExit(f"{path}:{lineno}: error: expected 'name | return | parameters'")
            extras[fields[0]] = Command(fields[0], fields[1], _parse_param_list(fields[2]))
    return extras


def load_slots(registry, slots_path, extras_path):
    """The frozen slot list, checked, and a name -> Command map covering every slot."""
    slots = read_list(slots_path)
    if slots != sorted(slots) or len(set(slots)) != len(slots):
        raise SystemExit(f"{slots_path}: error: the slot list must be sorted and unique")
    commands = dict(registry.commands)
    for name, cmd in read_extra_commands(extras_path).items():
        commands.setdefault(name, cmd)
    missing = [n for n in slots if n not in commands]
    if missing:
        raise SystemExit(f"{slots_path}: error: no prototype for {', '.join(missing[:5])}")
    return slots, commands
