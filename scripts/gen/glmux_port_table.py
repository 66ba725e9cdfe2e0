# SPDX-License-Identifier: MIT
"""Reading data/glx-to-egl.tsv, the GLX -> EGL table behind docs/porting-glx-to-egl.md and
`glmux port-check`. Shared by gen_port_table.py (C table, Markdown tables) and the tests.
"""

KINDS = ("function", "token", "type", "extension", "header", "macro")
MATCHES = ("direct", "changed", "none")
COLUMNS = ("name", "kind", "origin", "match", "egl", "requires", "note")


class Entry:
    def __init__(self, fields, line):
        for key, value in zip(COLUMNS, fields):
            setattr(self, key, value)
        self.line = line


def load(path):
    """The entries of the table in file order; raises ValueError naming path:line on bad rows."""
    entries = []
    header = None
    with open(path, encoding="utf-8") as f:
        for number, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            fields = line.split("\t")
            if header is None:
                if tuple(fields) != COLUMNS:
                    raise ValueError(f"{path}:{number}: the column line must be {'/'.join(COLUMNS)}")
                header = fields
                continue
            if len(fields) != len(COLUMNS):
                raise ValueError(f"{path}:{number}: {len(fields)} fields, expected {len(COLUMNS)}")
            e = Entry(fields, number)
            if e.kind not in KINDS:
                raise ValueError(f"{path}:{number}: unknown kind '{e.kind}'")
            if e.match not in MATCHES:
                raise ValueError(f"{path}:{number}: unknown match '{e.match}'")
            if (e.match == "none") != (e.egl == "none") or (e.match == "none") != (e.requires == "-"):
                raise ValueError(f"{path}:{number}: match 'none' goes with egl 'none' and requires '-'")
            entries.append(e)
    if header is None:
        raise ValueError(f"{path}: no column line")
    names = set()
    for e in entries:
        if e.name in names:
            raise ValueError(f"{path}:{e.line}: '{e.name}' is listed twice")
        names.add(e.name)
    return entries
