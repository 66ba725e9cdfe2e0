#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the seed corpus of one fuzz target, generated from the project's own test inputs
(nothing binary is committed): the JSON manifests under tests/ for json and manifest, the
variable values the tests set for env, the vendor names and GLX extension names the tests and
sources use for glx_reply. Deterministic: the same tree gives the same files (named by content).

    make_corpus.py TARGET OUTDIR [--top SOURCE_DIR]
"""
import argparse
import hashlib
import pathlib
import re
import struct
import sys



def test_files(top, pattern):
    return sorted(p for p in (top / "tests").rglob(pattern) if p.is_file())


def json_seeds(top):
    seeds = [p.read_bytes() for p in test_files(top, "*.json")]
    # The manifests of the installed-layout documentation, when present.
    layout = top / "filesystem-layout"
    if layout.is_dir():
        seeds += [p.read_bytes() for p in sorted(layout.rglob("*.json"))]
    return seeds


VARIABLES = ("GLMUX_GPU", "DRI_PRIME", "__NV_PRIME_RENDER_OFFLOAD",
             "__NV_PRIME_RENDER_OFFLOAD_PROVIDER", "GLMUX_DEBUG", "GLMUX_DRIVER_VENDORS")
# NAME="value", NAME='value', "NAME": "value", "NAME", "value" (Python and C test sources).
VALUE_RE = re.compile(r"""\b(%s)["']?\s*(?:=|:|,)\s*["']([^"'\n]{0,80})["']"""
                      % "|".join(sorted(VARIABLES, key=len, reverse=True)))


def env_values(top):
    values = {v: set() for v in VARIABLES}
    for path in test_files(top, "*.py") + test_files(top, "*.c") + test_files(top, "*.txt"):
        for m in VALUE_RE.finditer(path.read_text(errors="replace")):
            values[m.group(1)].add(m.group(2))
    return {k: sorted(v) for k, v in values.items()}


def env_seeds(top):
    vals = env_values(top)
    gpu_forms = sorted(set(vals["GLMUX_GPU"]) | set(vals["DRI_PRIME"]))
    drivers = sorted({d for spec in vals["GLMUX_DRIVER_VENDORS"]
                      for d in re.findall(r"([\w-]+)=", spec)} | {"i915", "nvidia-drm"})
    seeds = []
    # Lines: GLMUX_GPU, DRI_PRIME, NV offload, NV provider, GLMUX_DEBUG, GLMUX_DRIVER_VENDORS,
    # a driver, --gpu (see fuzz_env.c); a missing line is an unset variable.
    for form in gpu_forms:
        seeds.append([form])
        seeds.append(["", form])
        seeds.append(["", "", "", "", "", "", "", form])
    for nv in vals["__NV_PRIME_RENDER_OFFLOAD"] or ["1"]:
        for provider in vals["__NV_PRIME_RENDER_OFFLOAD_PROVIDER"] or ["NVIDIA-G0"]:
            seeds.append(["", "", nv, provider])
    for debug in vals["GLMUX_DEBUG"]:
        seeds.append(["", "", "", "", debug])
    for spec in vals["GLMUX_DRIVER_VENDORS"]:
        for driver in drivers:
            seeds.append(["", "", "", "", "", spec, driver])
    # Precedence: every variable at once.
    if gpu_forms:
        seeds.append([gpu_forms[0], gpu_forms[-1], "1", "NVIDIA-G1", "select", "i915=mesa",
                      "i915", gpu_forms[len(gpu_forms) // 2]])
    return ["\n".join(s).encode() for s in seeds]


GLX_SCREEN = 0x800C
GLX_FBCONFIG_ID = 0x8013
GLX_WIDTH = 0x801D
GLX_HEIGHT = 0x801E
X_REPLY = 1


def reply(kind, length, count_field, data):
    """One fuzz_glx_reply input: request byte, 32-byte header, data."""
    if kind == 0:    # xGLXQueryServerStringReply: type, pad, seq, length, pad1, n, pad3..6
        header = struct.pack("=BBHIII16x", X_REPLY, 0, 1, length, 0, count_field)
    elif kind == 1:  # xGLXGetDrawableAttributesReply: type, pad, seq, length, numAttribs
        header = struct.pack("=BBHII20x", X_REPLY, 0, 1, length, count_field)
    else:            # xGLXQueryContextReply: type, pad, seq, length, n
        header = struct.pack("=BBHII20x", X_REPLY, 0, 1, length, count_field)
    return bytes([kind]) + header + data


def server_string(text):
    raw = text.encode()
    padded = raw + b"\0" * (-(len(raw) + 1) % 4 + 1)
    return reply(0, len(padded) // 4, len(raw) + 1, padded)


def glx_seeds(top):
    names = set()
    for path in test_files(top, "*.json"):
        names.update(re.findall(r'"name"\s*:\s*"([\w.-]{1,40})"', path.read_text(errors="replace")))
        names.update(re.findall(r"lib(?:EGL|GLX)_([\w.-]{1,40})\.so", path.read_text(errors="replace")))
    extensions = set()
    for path in sorted((top / "src" / "glx").glob("*.[ch]")) + test_files(top, "*.c"):
        extensions.update(re.findall(r"\bGLX_(?:ARB|EXT|MESA|SGI|SGIX|OML|NV|INTEL)_\w+",
                                     path.read_text(errors="replace")))
    names = sorted(names)
    extensions = sorted(extensions | {"GLX_EXT_libglvnd"})
    seeds = [server_string(" ".join(names)), server_string(" ".join(extensions)),
             server_string(" ".join(extensions[: len(extensions) // 2])), server_string("")]
    seeds += [server_string(n) for n in names]
    seeds.append(server_string("  " + "  ".join(names[:3]) + "  "))
    for kind in (1, 2):
        for screen in (0, 1, 2):
            pairs = [(GLX_FBCONFIG_ID, 0x21), (GLX_SCREEN, screen), (GLX_WIDTH, 300),
                     (GLX_HEIGHT, 200)]
            data = b"".join(struct.pack("=II", a, v) for a, v in pairs)
            seeds.append(reply(kind, len(pairs) * 2, len(pairs), data))
        seeds.append(reply(kind, 0, 0, b""))
    return seeds


# The pixmap formats Xvfb announces (tests/glx/run_glx_pixels.sh starts it with these depths).
XVFB_FORMATS = ((1, 1, 32), (4, 8, 32), (8, 8, 32), (15, 16, 32), (16, 16, 32), (24, 32, 32),
                (30, 32, 32), (32, 32, 32))


def pixels_seed(depth, width, height, config_depth, same_root=True, formats=XVFB_FORMATS,
                max_words=4194303, then=b"", by_events=False):
    """One fuzz_pixels_present input: GetGeometry reply, config depth, same root (and whether
    Present's events size the window), maximum request length, pixmap formats, then what the
    server sends the transport (see fuzz_pixels_present.c)."""
    rep = struct.pack("=BBHIIhhHHH10x", X_REPLY, depth, 1, 0, 0x1000, 0, 0, width, height, 0)
    head = struct.pack("=BBI", config_depth, (1 if same_root else 0) | (2 if by_events else 0),
                       max_words)
    return (rep + head + bytes([len(formats)]) +
            b"".join(struct.pack("=BBB5x", d, b, p) for d, b, p in formats) + then)


# What fuzz_pixels_present's transport hears: its window and Present event id.
PIXELS_WINDOW, PIXELS_EID = 0x200002, 0x400001


def pixels_message(kind, payload):
    return struct.pack("=BH", kind, len(payload)) + payload


def present_event(evtype, length, body, extra=b""):
    """A Present GenericEvent's wire bytes (32, then 4 * length more)."""
    return struct.pack("=BBHIH", 35, 1, 7, length, evtype) + body.ljust(22, b"\0")[:22] + extra


def pixels_events():
    """Present's ConfigureNotify and CompleteNotify of every length up to their own, solicited
    and not; GetGeometry replies and errors; X errors to each kind of request."""
    msgs = []
    for length in (0, 1, 2, 3):
        for w, h in ((640, 480), (65535, 65535), (16384, 4097)):
            body = struct.pack("=2xIIhhHHhh", PIXELS_EID, PIXELS_WINDOW, 0, 0, w, h, 0, 0)
            msgs.append(pixels_message(0, present_event(0, length, body, b"\0" * 4 * length)))
        for serial in (0, 1):
            body = struct.pack("=BBIIIQ", 1, 0, PIXELS_EID, PIXELS_WINDOW, serial, 12345)
            msc = struct.pack("=Q", 99)[: 4 * length].ljust(4 * length, b"\0")
            msgs.append(pixels_message(0, present_event(1, length, body, msc)))
    return msgs


def pixels_errors():
    msgs = []
    for code in (3, 4, 8, 9, 11, 128, 150):    # BadWindow, BadPixmap, BadMatch, BadDrawable,
        for req in range(4):                    # BadAlloc, extension errors (BadShmSeg)
            err = struct.pack("=BBHIHB21x", 0, code, 9, PIXELS_WINDOW, 0, 130)
            msgs.append(pixels_message(2, err + bytes([req])))
    return msgs


def pixels_seeds(top):
    """The drawables the depth test uses (tests/glx/test_glx_pixels_present.c), the sizes the
    pixels tests and the bench use, and a few formats and request sizes a server should not
    announce."""
    seeds = []
    for depth in (0, 1, 4, 8, 15, 16, 24, 30, 32):
        for config_depth in (24, 32):
            seeds.append(pixels_seed(depth, 16, 16, config_depth))
    for width, height in ((1, 1), (300, 300), (1920, 1080), (16384, 16384), (65535, 1)):
        for max_words in (4194303, 65535, 4096):
            seeds.append(pixels_seed(24, width, height, 24, max_words=max_words))
    seeds.append(pixels_seed(24, 64, 64, 24, same_root=False))
    seeds.append(pixels_seed(24, 64, 64, 24, formats=((24, 24, 32),)))
    seeds.append(pixels_seed(24, 64, 64, 24, formats=((24, 32, 0),)))
    seeds.append(pixels_seed(24, 64, 64, 24, formats=((24, 32, 32), (24, 16, 32))))
    seeds.append(pixels_seed(24, 64, 64, 24, formats=()))
    seeds.append(pixels_seed(24, 64, 64, 24, max_words=6))
    events, errors = pixels_events(), pixels_errors()
    pace = pixels_message(3, b"")
    reply = pixels_message(1, struct.pack("=BBHIIhhHHH10x", X_REPLY, 24, 1, 0, 0x1000, 0, 0,
                                          800, 600, 0))
    for msg in events:
        seeds.append(pixels_seed(24, 64, 64, 24, then=msg, by_events=True))
        seeds.append(pixels_seed(24, 64, 64, 24, then=pace + msg, by_events=True))
    seeds.append(pixels_seed(24, 64, 64, 24, then=b"".join(events) + reply, by_events=True))
    seeds.append(pixels_seed(24, 64, 64, 24, then=reply + pixels_message(1, b"\0")))
    seeds.append(pixels_seed(24, 64, 64, 24, then=b"".join(errors)))
    seeds += [pixels_seed(24, 64, 64, 24, then=msg) for msg in errors[::4]]
    return seeds


def bed_gpus(path):
    """The PCI display devices of a umockdev bed (tests/cli/beds) as fuzz_select "gpu" lines."""
    records = [r for r in path.read_text(errors="replace").split("\n\n") if r.strip()]
    gpus = {}
    for rec in records:
        lines = rec.splitlines()
        dev = next((l[3:] for l in lines if l.startswith("P: ")), "")
        props = dict(l[3:].split("=", 1) for l in lines if l[:3] in ("E: ", "A: ") and "=" in l)
        if props.get("SUBSYSTEM") == "pci" and "PCI_SLOT_NAME" in props:
            keys = [f"class={props.get('class', '0x030000')}"]
            for key, attr in (("driver", "DRIVER"), ("vga", "boot_vga"),
                              ("display", "boot_display"), ("power", "power/runtime_status"),
                              ("vram", "mem_info_vram_total")):
                if attr in props and " " not in props[attr]:
                    keys.append(f"{key}={props[attr]}")
            gpus[dev] = [props["PCI_SLOT_NAME"], props.get("vendor", "0x0000"),
                         props.get("device", "0x0000")] + keys
        elif props.get("SUBSYSTEM") == "drm" and "/drm/" in dev:
            parent = dev.split("/drm/")[0]
            node = dev.split("/drm/")[1]
            if parent in gpus:
                if node.startswith("renderD"):
                    gpus[parent].append(f"render={int(node[7:]) - 128}")
                    gpus[parent] += [f"prop.{k}={v}" for k, v in props.items()
                                     if k.startswith("GLMUX_") and " " not in v]
                elif node.startswith("card"):
                    gpus[parent].append(f"card={node[4:]}")
    return ["gpu " + " ".join(g) for g in gpus.values()]


def select_seeds(top):
    """Each bed of tests/cli/beds under no variable and the variable values the tests use."""
    vals = env_values(top)
    # Few seeds: each input costs a umockdev bed (a few ms to a few hundred on a busy machine).
    settings = [[]]
    for var in ("DRI_PRIME", "GLMUX_GPU"):
        settings += [[f"env {var}={v}"] for v in vals[var][:1]]
    settings.append(["env __NV_PRIME_RENDER_OFFLOAD=1"])
    vendors = ["vendor mesa i915,amdgpu,radeon,nouveau,virtio_gpu", "vendor nvidia nvidia",
               "vendor fallback"]
    seeds = []
    for bed in sorted((top / "tests" / "cli" / "beds").glob("*.umockdev")):
        gpus = bed_gpus(bed)
        for extra in settings:
            seeds.append("\n".join(gpus + extra + vendors).encode())
        if gpus:
            tag = gpus[-1].split()[1].replace(":", "_").replace(".", "_")
            seeds.append("\n".join(gpus + vendors + [f"display pci-{tag}"]).encode())
    return seeds


def port_lex_seeds(top):
    """port-check's fixture tree and the project's own C test sources (small ones)."""
    paths = [p for p in sorted((top / "tests" / "port").rglob("*")) if p.is_file()]
    paths += [p for p in test_files(top, "*.c") if p.stat().st_size <= 8192]
    return [p.read_bytes() for p in paths]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("target", help="a fuzz target's name; one this file has no seeds for gets "
                    "none (libFuzzer starts from an empty corpus)")
    ap.add_argument("outdir", type=pathlib.Path)
    ap.add_argument("--top", type=pathlib.Path,
                    default=pathlib.Path(__file__).resolve().parents[2])
    args = ap.parse_args()
    top = args.top.resolve()
    make = {"json": json_seeds, "manifest": json_seeds, "layer_manifest": json_seeds,
            "env": env_seeds,
            "glx_reply": glx_seeds, "port_lex": port_lex_seeds,
            "select": select_seeds, "pixels_present": pixels_seeds}.get(args.target)
    seeds = make(top) if make else []
    args.outdir.mkdir(parents=True, exist_ok=True)
    for old in args.outdir.iterdir():
        old.unlink()
    for seed in seeds:
        (args.outdir / hashlib.sha1(seed).hexdigest()).write_bytes(seed)
    print(f"{args.target}: {len(set(seeds))} seed(s) in {args.outdir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
