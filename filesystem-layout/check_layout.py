#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks filesystem-layout/: glmux's API packages and three vendor packages (Mesa, NVIDIA,
AMD-style) installed together share no path, vendors ship nothing of the API's, and the
manifest reader discovers each vendor exactly once with its drivers and libraries, and each
GL layer manifest names a library its own package installs (with --layer-manifests DIR, the
build's installed manifests are the ones described here).

Usage: check_layout.py --glmux PATH/TO/glmux [--layer-manifests DIR] LAYOUT_DIR. Exit 0 pass,
1 fail.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

# A vendor library's stand-in: the header `glmux check` reads (tests/cli/elfstub.py).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "cli"))
from elfstub import library_stub  # noqa: E402

LIBDIR = "usr/lib/x86_64-linux-gnu"
VENDOR_DIR = LIBDIR + "/glvnd/vendors"
# The layer folders (docs/layers.md): the packages' (this architecture's) first, then the
# administrator's; each folder holds layers of its kind only.
PACKAGE_LAYER_DIRS = {LIBDIR + "/glvnd/implicit_layer.d": "implicit",
                      LIBDIR + "/glvnd/explicit_layer.d": "explicit"}
LAYER_DIRS = tuple(PACKAGE_LAYER_DIRS) + ("etc/glmux/implicit_layer.d",
                                          "etc/glmux/explicit_layer.d")
API_NAMES = re.compile(r"^(libGL|libGLX|libEGL|libOpenGL|libGLESv1_CM|libGLESv2|libGLdispatch)"
                       r"\.so(\.|$)")
API_PREFIXES = ("usr/include/GL/", "usr/include/EGL/", "usr/include/GLES", "usr/include/KHR/",
                "usr/include/glvnd/", "usr/include/glmux/")


def parse(path):
    """Returns (vendor or None, {package: [(kind, path, extra)]})."""
    vendor, packages, current = None, {}, None
    with open(path) as f:
        for n, raw in enumerate(f, 1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            if line.startswith("vendor "):
                vendor = line.split()[1]
            elif line.startswith("[") and line.endswith("]"):
                current = line[1:-1]
                packages.setdefault(current, [])
            elif current is None:
                raise SystemExit("%s:%d: a path before any [package]" % (path, n))
            elif " -> " in line:
                p, target = line.split(" -> ")
                packages[current].append(("link", p, target))
            elif " = " in line:
                p, source = line.split(" = ")
                packages[current].append(("file", p, source))
            elif line.endswith("/"):
                packages[current].append(("dir", line.rstrip("/"), None))
            else:
                packages[current].append(("file", line, None))
    return vendor, packages


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--glmux", required=True)
    ap.add_argument("--layer-manifests",
                    help="the build's installed layer manifests, to compare with layers/")
    ap.add_argument("layout")
    args = ap.parse_args()
    failures = []

    def check(cond, what):
        print(("ok   " if cond else "FAIL ") + what)
        if not cond:
            failures.append(what)

    groups = {}
    for name in sorted(os.listdir(args.layout)):
        if name.endswith(".list"):
            groups[name] = parse(os.path.join(args.layout, name))
    check("api-packages.list" in groups and len(groups) == 4,
          "the API packages and three vendors are described: %s" % sorted(groups))

    # 1. No file or link is owned twice; directories may be shared.
    owner = {}
    for group, (vendor, packages) in groups.items():
        for package, entries in packages.items():
            for kind, path, _ in entries:
                if kind == "dir":
                    continue
                check(path not in owner, "%s owned once (%s%s)" % (
                    path, package, (", also " + owner[path]) if path in owner else ""))
                owner[path] = package

    # 2. Vendors ship nothing of the API, and exactly one manifest in the vendor directory.
    vendors = {}
    manifest_files = {}
    for group, (vendor, packages) in groups.items():
        if vendor is None:
            for package, entries in packages.items():
                for kind, path, _ in entries:
                    check(kind == "dir" or not path.startswith(VENDOR_DIR + "/"),
                          "API package %s puts no file in the vendor directory: %s" % (
                              package, path))
            continue
        vendors[vendor] = packages
        manifests = []
        for package, entries in packages.items():
            for kind, path, _ in entries:
                base = os.path.basename(path)
                check(not API_NAMES.match(base) and not path.startswith(API_PREFIXES),
                      "vendor %s ships no API file: %s" % (vendor, path))
                if os.path.dirname(path) == VENDOR_DIR and base.endswith(".json"):
                    manifests.append(base)
        # NN_<vendor>.json, NN the manifest's priority: the name libglvnd's egl_vendor.d uses
        # (50_mesa.json), so a vendor's two files have one name.
        named = [m for m in manifests if re.fullmatch(r"[0-9]{2}_%s\.json" % re.escape(vendor), m)]
        check(len(manifests) == 1 and named == manifests,
              "vendor %s ships one manifest, NN_%s.json: %s" % (vendor, vendor, manifests))
        manifest_files[vendor] = manifests[0] if manifests else vendor + ".json"
    check(sorted(vendors) == ["amd", "mesa", "nvidia"], "vendors: %s" % sorted(vendors))

    # 3. Install everything into one root and let the manifest reader find the vendors.
    with tempfile.TemporaryDirectory(prefix="glmux-layout-") as root:
        for group, (vendor, packages) in groups.items():
            for package, entries in packages.items():
                for kind, path, extra in entries:
                    full = os.path.join(root, path)
                    if kind == "dir":
                        os.makedirs(full, exist_ok=True)
                        continue
                    os.makedirs(os.path.dirname(full), exist_ok=True)
                    if kind == "link":
                        os.symlink(extra, full)
                    elif extra is not None:
                        with open(os.path.join(args.layout, extra)) as src, \
                                open(full, "w") as dst:
                            dst.write(src.read())
                    elif re.search(r"\.so(\.|$)", os.path.basename(path)):
                        with open(full, "wb") as dst:
                            dst.write(library_stub(args.glmux))
                    else:
                        open(full, "w").close()
        installed = [os.path.join(root, VENDOR_DIR, manifest_files[v]) for v in sorted(vendors)]
        for v in sorted(vendors):
            with open(os.path.join(root, VENDOR_DIR, manifest_files[v])) as f:
                prio = json.load(f).get("vendor", {}).get("priority")
            check("%02d_%s.json" % (prio if isinstance(prio, int) else -1, v) == manifest_files[v],
                  "%s: the file name's number is the priority (%s)" % (manifest_files[v], prio))
        # Libraries named by file name are looked up in the root's library directory.
        env = dict(os.environ, LD_LIBRARY_PATH=os.path.join(root, LIBDIR))
        r = subprocess.run([args.glmux, "check"] + installed, capture_output=True, text=True,
                           env=env)
        check(r.returncode == 0 and r.stderr == "",
              "glmux check passes every installed manifest (%s)" % r.stderr.strip())
        dirs = ":".join(os.path.join(root, d) for d in (
            "etc/glvnd/egl_vendor.d", VENDOR_DIR, "usr/share/glvnd/egl_vendor.d"))
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("GLMUX_", "__EGL_", "__GLX_"))}
        env["GLMUX_VENDOR_DIRS"] = dirs
        r = subprocess.run([args.glmux, "vendors", "--json", "--no-load"], env=env,
                           capture_output=True, text=True)
        check(r.returncode == 0, "glmux vendors runs (%s)" % r.stderr.strip())
        out = json.loads(r.stdout)
        found = {v["name"]: v for v in out["vendors"]}
        check([v["name"] for v in out["vendors"]] == ["nvidia", "mesa", "amd"],
              "each vendor found once, in priority order: %s" % [v["name"] for v in
                                                                 out["vendors"]])
        check(out["rejected"] == 0, "no manifest rejected")
        check(len(found.get("mesa", {}).get("manifests", [])) == 2 and
              len(found.get("nvidia", {}).get("manifests", [])) == 2,
              "Mesa's and NVIDIA's two files (libglvnd JSON + manifest) are one vendor each")
        check(found.get("nvidia", {}).get("drivers") == ["nvidia", "nvidia-drm"] and
              "amdgpu" in found.get("mesa", {}).get("drivers", []) and
              found.get("amd", {}).get("drivers") == ["amdgpu"], "driver lists read")
        for name, v in found.items():
            for key in ("egl_library", "glx_library"):
                lib = v[key]
                path = lib if lib.startswith("/") else os.path.join(root, LIBDIR, lib)
                check(os.path.lexists(path), "%s %s %s is installed" % (name, key, lib))
    check_layers(args, groups, check)
    print("%d failure(s)" % len(failures))
    return 1 if failures else 0


def check_layers(args, groups, check):
    """5. GL layers (docs/layers.md): the API package owns the layer folders (implicit_layer.d
    and explicit_layer.d of ${libdir}/glvnd and /etc/glmux) and ships no layer; each layer
    manifest lies in ${libdir}/glvnd/explicit_layer.d, is an explicit layer (the folder's kind)
    named like its file, for this architecture, whose library_path (relative to the manifest's
    folder) is a library the same package installs; with --layer-manifests, the build installs
    exactly these manifests."""
    _, api = groups.get("api-packages.list", (None, {}))
    owned = {path for kind, path, _ in api.get("libglvnd0", []) if kind == "dir"}
    check(all(d in owned for d in LAYER_DIRS), "libglvnd0 owns the layer folders %s" %
          ", ".join(LAYER_DIRS))
    described = {}
    for group, (_, packages) in groups.items():
        for package, entries in packages.items():
            files = {p for kind, p, _ in entries if kind != "dir"}
            for kind, path, source in entries:
                if kind == "dir" or not any(path.startswith(d + "/") for d in LAYER_DIRS):
                    continue
                folder = os.path.dirname(path)
                check(package != "libglvnd0" and folder in PACKAGE_LAYER_DIRS and
                      source is not None, "%s: a layer package's manifest, in a package "
                      "folder, described in full (%s)" % (path, package))
                if source is None:
                    continue
                with open(os.path.join(args.layout, source)) as f:
                    layer = json.load(f).get("layer", {})
                name = os.path.basename(path)[:-len(".json")]
                lib = os.path.normpath(os.path.join(os.path.dirname(path),
                                                    layer.get("library_path", "")))
                check(layer.get("name") == name and layer.get("type") == "explicit" and
                      PACKAGE_LAYER_DIRS.get(folder) == "explicit" and
                      layer.get("library_arch") == "64",
                      "%s: explicit layer %s in explicit_layer.d, library_arch 64" % (
                          path, layer.get("name")))
                check(lib in files, "%s: its library %s is installed by %s" % (
                    path, lib, package))
                described[os.path.basename(path)] = os.path.join(args.layout, source)
    check(len(described) > 0, "layer manifests described: %s" % sorted(described))
    if args.layer_manifests:
        built = sorted(f for f in os.listdir(args.layer_manifests) if f.endswith(".json"))
        check(built == sorted(described), "the build installs the manifests described "
              "(%s)" % built)
        for name in built:
            with open(os.path.join(args.layer_manifests, name)) as a, \
                    open(described.get(name, os.devnull)) as b:
                check(json.load(a) == json.loads(b.read() or "null"),
                      "%s: the build's manifest is the one described" % name)


if __name__ == "__main__":
    sys.exit(main())
