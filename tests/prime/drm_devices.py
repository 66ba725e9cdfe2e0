#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""glmux tests: the DRM devices of a umockdev bed as Mesa sees them, for the oracle (oracle.py).

Run under `umockdev-run -d BED --`: calls libdrm's drmGetDevices2 (through ctypes, as Mesa's
loader does) and prints, as JSON, one object per device in libdrm's order: its nodes and their
device numbers, bus, PCI address and ids or the platform device's full name, and the sysfs facts
Vulkan's device-select layer reads (boot_vga) plus the kernel driver (the `driver` link of the
node's device). Nothing of glmux is used: the point is an independent view of the machine.
"""
import ctypes
import json
import os
import sys

DRM_NODE_PRIMARY, DRM_NODE_RENDER = 0, 2
DRM_BUS_PCI, DRM_BUS_USB, DRM_BUS_PLATFORM, DRM_BUS_HOST1X = 0, 1, 2, 3


class PciBus(ctypes.Structure):
    _fields_ = [("domain", ctypes.c_uint16), ("bus", ctypes.c_uint8), ("dev", ctypes.c_uint8),
                ("func", ctypes.c_uint8)]


class PciDevice(ctypes.Structure):
    _fields_ = [("vendor_id", ctypes.c_uint16), ("device_id", ctypes.c_uint16),
                ("subvendor_id", ctypes.c_uint16), ("subdevice_id", ctypes.c_uint16),
                ("revision_id", ctypes.c_uint8)]


class PlatformBus(ctypes.Structure):
    _fields_ = [("fullname", ctypes.c_char * 512)]


class Device(ctypes.Structure):
    _fields_ = [("nodes", ctypes.POINTER(ctypes.c_char_p)), ("available_nodes", ctypes.c_int),
                ("bustype", ctypes.c_int), ("businfo", ctypes.c_void_p),
                ("deviceinfo", ctypes.c_void_p)]


def read(path):
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return None


def devices():
    drm = ctypes.CDLL("libdrm.so.2")
    drm.drmGetDevices2.argtypes = [ctypes.c_uint32, ctypes.POINTER(ctypes.POINTER(Device)),
                                   ctypes.c_int]
    drm.drmFreeDevices.argtypes = [ctypes.POINTER(ctypes.POINTER(Device)), ctypes.c_int]
    array = (ctypes.POINTER(Device) * 64)()
    n = drm.drmGetDevices2(0, array, 64)
    out = []
    for i in range(max(n, 0)):
        d = array[i].contents
        nodes = {}
        for kind, name in ((DRM_NODE_PRIMARY, "card"), (DRM_NODE_RENDER, "render")):
            if d.available_nodes & (1 << kind):
                path = d.nodes[kind].decode()
                st = os.stat(path)
                nodes[name] = {"path": path, "dev": [os.major(st.st_rdev), os.minor(st.st_rdev)]}
        entry = {"nodes": nodes, "bus": {DRM_BUS_PCI: "pci", DRM_BUS_USB: "usb",
                                         DRM_BUS_PLATFORM: "platform",
                                         DRM_BUS_HOST1X: "host1x"}.get(d.bustype, "other")}
        if d.bustype == DRM_BUS_PCI:
            bus = ctypes.cast(d.businfo, ctypes.POINTER(PciBus)).contents
            ids = ctypes.cast(d.deviceinfo, ctypes.POINTER(PciDevice)).contents
            entry["pci"] = [bus.domain, bus.bus, bus.dev, bus.func]
            entry["ids"] = [ids.vendor_id, ids.device_id]
            slot = "%04x:%02x:%02x.%x" % tuple(entry["pci"])
            entry["boot_vga"] = read("/sys/bus/pci/devices/%s/boot_vga" % slot) == "1"
        elif d.bustype in (DRM_BUS_PLATFORM, DRM_BUS_HOST1X):
            info = ctypes.cast(d.businfo, ctypes.POINTER(PlatformBus)).contents
            entry["fullname"] = info.fullname.decode()
        node = next(iter(nodes.values()))["path"]
        link = "/sys/class/drm/%s/device/driver" % os.path.basename(node)
        entry["driver"] = os.path.basename(os.readlink(link)) if os.path.islink(link) else None
        out.append(entry)
    if n > 0:
        drm.drmFreeDevices(array, n)
    return out


if __name__ == "__main__":
    json.dump(devices(), sys.stdout)
    sys.stdout.write("\n")
