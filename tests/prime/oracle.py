# SPDX-License-Identifier: MIT
"""glmux tests: which GPU a program should land on, decided independently of glmux.

Written from Mesa's documented behaviour (docs.mesa3d.org, "envvars": DRI_PRIME) and from what
its source does (the OpenGL loader's loader_get_user_preferred_fd for every DRI_PRIME form; the
Vulkan device-select layer for the default GPU when no display names one: boot_vga),
from NVIDIA's PRIME render offload documentation, and from glmux's user documentation
(docs/hybrid-gpus.md) for glmux's own GLMUX_GPU; never from glmux's src/select. The device list
is libdrm's, read under the bed by drm_devices.py, in libdrm's order, as Mesa sees it.

A device is a dict from drm_devices.py plus "tag" (Mesa's name for it) and "vendor" ("mesa" or
"nvidia": the OpenGL driver that serves its kernel driver). Every function returns a tag or None.
"""
import re

# Kernel drivers served by NVIDIA's OpenGL driver; every other one is Mesa's in these beds.
NVIDIA_DRIVERS = ("nvidia", "nvidia-drm")
# Render-only GPUs Mesa's kmsro pairs with a display-only device (Raspberry Pi: vc4 + v3d).
KMSRO_RENDER = ("v3d", "etnaviv", "lima", "panfrost", "panthor", "asahi", "powervr")


def mesa_tag(d):
    """Mesa's ID_PATH_TAG for a device: pci-DDDD_BB_DD_F, or platform-ADDRESS_NAME from the
    last component NAME@ADDRESS of the device tree full name (platform-NAME without '@')."""
    if d["bus"] == "pci":
        return "pci-%04x_%02x_%02x_%1u" % tuple(d["pci"])
    if d["bus"] in ("platform", "host1x"):
        name = d["fullname"].rsplit("/", 1)[-1]
        name, at, address = name.partition("@")
        return "platform-%s_%s" % (address, name) if at else "platform-%s" % name
    return None


def annotate(devices):
    for d in devices:
        d["tag"] = mesa_tag(d)
        d["vendor"] = "nvidia" if d.get("driver") in NVIDIA_DRIVERS else "mesa"
        d["renders"] = "render" in d["nodes"]
    return devices


def by_tag(devices, tag):
    return next((d for d in devices if d["tag"] == tag), None)


# ---- C library parsing, as Mesa calls it --------------------------------------------------
_HEX = r"\s*([+-]?)(?:0[xX])?([0-9a-fA-F]+)"


def scanf_hex_pair(text, bits):
    """sscanf(text, "%hx:%hx") (bits 16) or "%x:%x" (bits 32) == 2: the pair, else None."""
    m = re.match(_HEX + ":" + _HEX, text)
    if not m:
        return None
    mask = (1 << bits) - 1
    values = []
    for sign, digits in (m.group(1, 2), m.group(3, 4)):
        v = int(digits, 16)
        values.append((-v if sign == "-" else v) & mask)
    return tuple(values)


def atoi(text):
    m = re.match(r"\s*([+-]?\d+)", text)
    return int(m.group(1)) if m else 0


# ---- Mesa's OpenGL loader -------------------------------------------------------------------
def kmsro(devices, tag):
    """The GPU Mesa renders on when it drives device tag: itself if it renders, else (a
    display-only SoC device) the first render-only platform GPU kmsro pairs it with."""
    d = by_tag(devices, tag)
    if d is None or d["renders"]:
        return tag
    r = next((x for x in devices if x["renders"] and x["bus"] == "platform" and
              x.get("driver") in KMSRO_RENDER), None)
    return r["tag"] if r else None


def mesa_loader(devices, default_tag, dri_prime):
    """Mesa's loader_get_user_preferred_fd: the device Mesa's OpenGL (EGL, GLX) renders on when
    the display's device is default_tag and DRI_PRIME is dri_prime (None: unset).

    DRI_PRIME is read as "vid:did" when sscanf("%hx:%hx") finds two numbers (the first
    render-capable PCI device with those ids, in libdrm's order), else as an integer N by atoi
    (N < 0 or exactly "0": invalid, the default; N >= number of DRM devices: that number - 1;
    N > 0: the N-th render-capable device that is not the default, in libdrm's order), else
    (atoi gives 0) as a tag compared exactly. Anything that matches nothing: the default."""
    if dri_prime is None or default_tag is None:
        return kmsro(devices, default_tag)
    chosen = None
    pair = scanf_hex_pair(dri_prime, 16)
    if pair is not None:
        chosen = next((d for d in devices if d["renders"] and d["bus"] == "pci" and
                       tuple(d["ids"]) == pair), None)
    else:
        n = atoi(dri_prime)
        if n < 0 or dri_prime == "0":
            chosen = None
        elif n == 0:
            chosen = next((d for d in devices if d["renders"] and d["tag"] == dri_prime), None)
        else:
            n = min(n, len(devices) - 1)
            for d in devices:
                if not d["renders"] or d["tag"] == default_tag:
                    continue
                n -= 1
                if n <= 0:
                    chosen = d
                    break
    return chosen["tag"] if chosen else kmsro(devices, default_tag)


# ---- Vulkan's device-select layer -----------------------------------------------------------
def vk_devices(devices):
    """The physical devices Vulkan lists: the render-capable GPUs (libdrm's order)."""
    return [d for d in devices if d["renders"]]


def vk_default(devices, display_tag):
    """device-select's default: the display's GPU, else the boot_vga PCI GPU, else the first."""
    gpus = vk_devices(devices)
    if display_tag is not None:
        d = by_tag(gpus, kmsro(devices, display_tag))
        if d is not None:
            return d["tag"]
    d = next((d for d in gpus if d.get("boot_vga")), None)
    if d is None and gpus:
        d = gpus[0]
    return d["tag"] if d else None


# ---- NVIDIA ---------------------------------------------------------------------------------
def nvidia_gpu(devices, provider):
    """The NVIDIA GPU of PRIME render offload: NVIDIA-G<n> is the n-th NVIDIA GPU (PCI order,
    from 0), no provider the first; None when there is no such GPU."""
    gpus = sorted((d for d in devices if d["vendor"] == "nvidia" and d["renders"]),
                  key=lambda d: d["pci"] if "pci" in d else [])
    n = 0
    if provider:
        m = re.fullmatch(r"NVIDIA-G(\d+)", provider)
        if not m:
            return None
        n = int(m.group(1))
    return gpus[n]["tag"] if n < len(gpus) else None


# ---- glmux's own GLMUX_GPU, from docs/hybrid-gpus.md -----------------------------------------
def pci_order(devices):
    return sorted((d for d in devices if d["renders"]),
                  key=lambda d: (0, d["pci"]) if "pci" in d else (1, d["tag"]))


def glmux_gpu(devices, default_tag, classes, value):
    """GLMUX_GPU as documented: default; integrated / discrete (the default GPU if it is of
    that class, else the first such GPU in PCI order); N (the N-th non-default GPU in PCI
    order, the last if too few); a tag; vvvv:dddd (the first in PCI order); DDDD:BB:DD.F; an
    optional trailing '!'. Anything else, or nothing that matches: the default."""
    text = value[:-1] if value.endswith("!") else value
    gpus = pci_order(devices)
    if text == "default":
        return default_tag
    if text in ("integrated", "discrete"):
        if classes.get(default_tag) == text:
            return default_tag
        d = next((d for d in gpus if classes.get(d["tag"]) == text), None)
        return d["tag"] if d else default_tag
    if re.fullmatch(r"[1-9]\d*", text):
        others = [d for d in gpus if d["tag"] != default_tag]
        return others[min(int(text), len(others)) - 1]["tag"] if others else default_tag
    m = re.fullmatch(r"([0-9a-fA-F]{4}):([0-9a-fA-F]{4})", text)
    if m:
        ids = (int(m.group(1), 16), int(m.group(2), 16))
        d = next((d for d in gpus if tuple(d.get("ids", ())) == ids), None)
        return d["tag"] if d else default_tag
    m = re.fullmatch(r"([0-9a-fA-F]{4}):([0-9a-fA-F]{2}):([0-9a-fA-F]{2})\.([0-7])", text)
    if m:
        text = "pci-%s_%s_%s_%s" % tuple(g.lower() for g in m.groups())
    d = by_tag(gpus, text)
    return d["tag"] if d else default_tag


# ---- everything together ---------------------------------------------------------------------
def expected(devices, display_tag, classes, env):
    """The GPU a program should land on, and which reference decided: (tag, reference).

    Precedence (a launcher's per-program request beats a session-wide default, as it does
    without glmux, where __GLX_VENDOR_LIBRARY_NAME=nvidia and NVIDIA's EGL come first whatever
    DRI_PRIME says): the NVIDIA pair (when the machine has that NVIDIA GPU), then DRI_PRIME
    (Mesa's OpenGL reading), then GLMUX_GPU, else the default GPU: the display's when a display
    names one, else device-select's boot_vga rule."""
    default = vk_default(devices, display_tag)
    if env.get("__NV_PRIME_RENDER_OFFLOAD") == "1":
        tag = nvidia_gpu(devices, env.get("__NV_PRIME_RENDER_OFFLOAD_PROVIDER"))
        if tag is not None:
            return tag, "nvidia offload"
    if "DRI_PRIME" in env:
        # Mesa documents the trailing '!' for Vulkan only: OpenGL reads the value as it is.
        if display_tag is None:
            return (mesa_loader(devices, default, env["DRI_PRIME"]),
                    "mesa loader (boot_vga default)")
        return mesa_loader(devices, display_tag, env["DRI_PRIME"]), "mesa loader"
    if "GLMUX_GPU" in env:
        return glmux_gpu(devices, default, classes, env["GLMUX_GPU"]), "glmux docs"
    return default, "default (display, else boot_vga)"


def renders_on(devices, display_tag, vendor, seen):
    """The GPU a vendor renders on, from the variables it saw when glmux loaded it: Mesa reads
    DRI_PRIME itself (loader rule, the display's device as its default); NVIDIA renders on an
    offload GPU with __NV_PRIME_RENDER_OFFLOAD=1, else on an NVIDIA display (or, with no known
    display, on its first GPU), else nowhere (None)."""
    default = display_tag if display_tag is not None else vk_default(devices, None)
    if vendor == "mesa":
        tag = mesa_loader(devices, default, seen.get("DRI_PRIME"))
        d = by_tag(devices, tag)
        # Mesa has no driver for a GPU of NVIDIA's kernel driver (it falls back to software).
        return None if d is not None and d["vendor"] == "nvidia" else tag
    if vendor == "nvidia":
        if seen.get("__NV_PRIME_RENDER_OFFLOAD") == "1":
            return nvidia_gpu(devices, seen.get("__NV_PRIME_RENDER_OFFLOAD_PROVIDER"))
        d = by_tag(devices, default)
        if d is not None and d["vendor"] == "nvidia":
            return default
        return None
    return None
