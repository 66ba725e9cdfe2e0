# SPDX-License-Identifier: MIT
"""ELF headers that stand for vendor libraries in the tests of `glmux check`, which reads only a
library's header (src/cli/libcheck.c): the class, byte order and machine of the glmux program
under test (the target's, in a cross build), or others on purpose."""
import struct


def program_ident(glmux):
    """(class, byte order, machine) of the program at path glmux."""
    with open(glmux, "rb") as f:
        head = f.read(20)
    return head[4], head[5], struct.unpack(("<" if head[5] == 1 else ">") + "H", head[18:20])[0]


def elf_header(cls, data, etype, machine):
    """The first 64 bytes of an ELF file of that class, byte order (1 little), type and machine."""
    ident = b"\x7fELF" + bytes([cls, data, 1, 0]) + bytes(8)
    return (ident + struct.pack(("<" if data == 1 else ">") + "HH", etype, machine)).ljust(64, b"\0")


def library_stub(glmux):
    """A shared object's header for the machine glmux runs on."""
    cls, data, machine = program_ident(glmux)
    return elf_header(cls, data, 3, machine)
