#!/bin/bash
# SPDX-License-Identifier: MIT
# Packaging test: two fake vendor packages ("alpha" and "beta", each a copy of Mesa's
# libEGL_mesa/libGLX_mesa under its own name, with a libglvnd EGL JSON and a glmux manifest)
# built with dpkg-deb, laid out as docs/packaging.md tells a vendor packager. Checks that they
# and glmux's packages (from packaging_deb) own no file twice, then installs them all into one
# private root with `dpkg --root` (as root; dpkg-deb -x otherwise; nothing is installed on the
# machine), where the vendors' Provides satisfy libegl1/libglx0. There, with the default
# vendor directory list rebased into the root (GLMUX_VENDOR_DIRS), the packaged glmux tool
# validates both manifests and lists both vendors, each merged from its manifest and its EGL
# JSON, and the install-test consumer renders through the first vendor and must have loaded
# both vendors and glmux's libraries from the root.
# Usage: check_vendor_debs.sh SOURCE_DIR DEBS_DIR WORK_DIR
set -eu
top=$1 debs=$2 work=$3
fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*" >&2; exit 77; }
command -v dpkg-deb > /dev/null || skip "dpkg-deb missing"
ls "$debs"/libglvnd0_*.deb > /dev/null 2>&1 || fail "no glmux .debs in $debs (packaging_deb makes them)"
rm -rf "$work"
mkdir -p "$work"
arch=$(dpkg-architecture -qDEB_HOST_ARCH)
ma=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
sys=/usr/lib/$ma
have_mesa=1
[ -f "$sys/libEGL_mesa.so.0" ] && [ -f "$sys/libGLX_mesa.so.0" ] || have_mesa=0

# fake_vendor NAME ORDER: a vendor package as a Mesa/NVIDIA/AMD packager would build it.
fake_vendor() {
    local name=$1 order=$2 d="$work/vendor-$1"
    mkdir -p "$d/DEBIAN" "$d/usr/lib/$ma/glvnd/vendors" "$d/usr/share/glvnd/egl_vendor.d" \
        "$d/usr/share/doc/libgl-vendor-$name"
    if [ $have_mesa = 1 ]; then
        cp "$sys/libEGL_mesa.so.0" "$d/usr/lib/$ma/libEGL_$name.so.0"
        cp "$sys/libGLX_mesa.so.0" "$d/usr/lib/$ma/libGLX_$name.so.0"
    else
        echo "fake $name" > "$d/usr/lib/$ma/libEGL_$name.so.0"
        echo "fake $name" > "$d/usr/lib/$ma/libGLX_$name.so.0"
    fi
    cat > "$d/usr/share/glvnd/egl_vendor.d/${order}_$name.json" <<EOJ
{
    "file_format_version" : "1.0.0",
    "ICD" : { "library_path" : "libEGL_$name.so.0" }
}
EOJ
    cat > "$d/usr/lib/$ma/glvnd/vendors/${order}_$name.json" <<EOJ
{
    "file_format_version" : "1.0.0",
    "ICD" : { "library_path" : "libEGL_$name.so.0" },
    "vendor" : {
        "format_version" : 1,
        "name" : "$name",
        "glx_library_path" : "libGLX_$name.so.0",
        "drivers" : [ "fake_$name" ],
        "priority" : $order
    }
}
EOJ
    echo "fake vendor $name for the glmux packaging test" > "$d/usr/share/doc/libgl-vendor-$name/README"
    cat > "$d/DEBIAN/control" <<EOC
Package: libgl-vendor-$name
Version: 1.0
Architecture: $arch
Multi-Arch: same
Maintainer: glmux developers <dev@glmux.org>
Depends: libegl1, libglx0, libglvnd0
Provides: libegl-vendor, libglx-vendor
Section: libs
Priority: optional
Description: fake GL vendor $name (glmux packaging test)
 Installs an EGL and a GLX vendor library, the libglvnd EGL JSON and a
 glmux vendor manifest, side by side with any other vendor.
EOC
    dpkg-deb --root-owner-group --build "$d" "$work/libgl-vendor-${name}_1.0_$arch.deb" > /dev/null
}
fake_vendor alpha 10
fake_vendor beta 20

# No file owned twice across glmux's packages and both vendors.
list() { dpkg-deb -c "$1" | awk '{print $6}' | grep -v '/$' | sed 's|^\./||'; }
pkgs=$(ls "$debs"/*.deb "$work"/libgl-vendor-*.deb | grep -v -- '-dbgsym_')
for p in $pkgs; do list "$p"; done | grep -v '^usr/share/doc/\|^usr/share/lintian/' |
    sort | uniq -d > "$work/dup.txt"
[ ! -s "$work/dup.txt" ] || fail "files owned twice: $(cat "$work/dup.txt")"
echo "ok: $(echo "$pkgs" | wc -l) packages, no file owned twice"
for name in alpha beta; do
    list "$work/libgl-vendor-${name}_1.0_$arch.deb" | grep -qF "usr/lib/$ma/glvnd/vendors/" ||
        fail "vendor $name has no manifest in the vendor directory"
done

# Co-install into one private root. As root: a real `dpkg --root` install of all of them
# (dpkg refuses a file two packages ship; Depends are resolved among these packages, so the
# vendors' Provides must satisfy libegl1/libglx0; only packages from outside the set, such as
# libc6, may be missing). Otherwise: dpkg-deb -x, the same layout without dpkg's checks.
root="$work/root"
mkdir -p "$root"
if [ "$(id -u)" = 0 ]; then
    mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates" "$root/var/lib/dpkg/triggers"
    touch "$root/var/lib/dpkg/status"
    # shellcheck disable=SC2086
    dpkg --root="$root" --log="$work/dpkg.log" --force-depends -i $pkgs > "$work/dpkg-i.log" 2>&1 ||
        { cat "$work/dpkg-i.log" >&2; fail "dpkg --root -i of glmux's and both vendors' packages failed"; }
    ours=$(for p in $pkgs; do dpkg-deb -f "$p" Package; done)
    missing=$(sed -n 's/^ *Package \([^ ]*\) is not installed\.$/\1/p' "$work/dpkg-i.log" | sort -u)
    for m in $missing; do
        case $m in *-vendor|*-mesa0) true ;; *) grep -qxF "$m" <<< "$ours" || continue ;; esac
        cat "$work/dpkg-i.log" >&2
        fail "dependency on $m unresolved among glmux's and the vendors' packages"
    done
    bad=$(dpkg --root="$root" -l | awk '/^[a-z][a-z]/ && $1 != "ii"')
    [ -z "$bad" ] || fail "packages not installed cleanly: $bad"
    echo "ok: dpkg --root installed $(echo "$pkgs" | wc -l) packages; missing from outside the set:" $missing
    dpkg --root="$root" -S "/usr/lib/$ma/glvnd/vendors" /usr/share/glvnd/egl_vendor.d
else
    echo "not root: extracting with dpkg-deb -x instead of installing with dpkg --root"
    for p in $pkgs; do dpkg-deb -x "$p" "$root"; done
fi
ls "$root/usr/share/glvnd/egl_vendor.d" "$root/usr/lib/$ma/glvnd/vendors"
vd=$(PKG_CONFIG_SYSROOT_DIR="$root" PKG_CONFIG_LIBDIR="$root/usr/lib/$ma/pkgconfig" \
     pkg-config --variable=vendordir glmux)
vd=${vd#"$root"}    # pkgconf prefixes variables with the sysroot too
[ "$vd" = "/usr/lib/$ma/glvnd/vendors" ] || fail "glmux.pc vendordir is '$vd'"
[ -f "$root$vd/10_alpha.json" ] && [ -f "$root$vd/20_beta.json" ] ||
    fail "the vendor manifests are not in the vendordir glmux.pc names"
echo "ok: both vendor manifests in $vd (pkg-config --variable=vendordir glmux)"

# Discovery by the packaged tool: the default directory list (libglvnd's two JSON directories
# and the vendor directory, as compiled into the packages), rebased into the root.
for so in libEGL.so.1 libGLX.so.0 libOpenGL.so.0; do
    [ -e "$root/usr/lib/$ma/$so" ] || fail "glmux's packages have no $so"
done
[ -x "$root/usr/bin/glmux" ] || fail "glmux-tools did not install /usr/bin/glmux"
dirs="$root/etc/glvnd/egl_vendor.d:$root$vd:$root/usr/share/glvnd/egl_vendor.d"
"$root/usr/bin/glmux" check "$root$vd/10_alpha.json" "$root$vd/20_beta.json" ||
    fail "glmux check rejects the vendor manifests docs/packaging.md describes"
GLMUX_VENDOR_DIRS="$dirs" "$root/usr/bin/glmux" vendors --json --no-load > "$work/vendors.json"
python3 - "$work/vendors.json" "$root$vd" <<'EOP' || fail "glmux vendors does not list both vendors"
import json, sys
data, vd = json.load(open(sys.argv[1])), sys.argv[2]
got = {v["name"]: v for v in data["vendors"]}
assert data["rejected"] == 0, data
for name, prio in (("alpha", 10), ("beta", 20)):
    v = got[name]
    assert v["source"] == "vendor-dir" and v["priority"] == prio, v
    assert v["manifests"][0] == f"{vd}/{prio}_{name}.json" and len(v["manifests"]) == 2, v
    assert v["egl_library"] == f"libEGL_{name}.so.0" and v["glx_library"] == f"libGLX_{name}.so.0", v
print("ok: glmux vendors lists alpha and beta, each from its manifest and its EGL JSON")
EOP
[ $have_mesa = 1 ] || skip "co-install and tool discovery checked; Mesa's libEGL_mesa/libGLX_mesa are not installed to copy"
# With real (copied Mesa) libraries, the tool loads both vendors' EGL and GLX libraries.
GLMUX_VENDOR_DIRS="$dirs" LD_LIBRARY_PATH="$root/usr/lib/$ma" "$root/usr/bin/glmux" vendors \
    > "$work/vendors.txt" || { cat "$work/vendors.txt" >&2; fail "glmux vendors failed"; }
cat "$work/vendors.txt"
[ "$(grep -cE 'lib(EGL|GLX)_(alpha|beta)\.so\.0: loads' "$work/vendors.txt")" = 4 ] ||
    fail "glmux vendors does not load both vendors' EGL and GLX libraries"
mkdir -p "$work/consumer"
cp "$top/tests/install/consumer-make/Makefile" "$top/tests/install/consumer/render.c" "$work/consumer/"
PKG_CONFIG_SYSROOT_DIR="$root" PKG_CONFIG_LIBDIR="$root/usr/lib/$ma/pkgconfig" \
    make -C "$work/consumer" > "$work/make.log" 2>&1 || { cat "$work/make.log" >&2; fail "consumer build failed"; }
# Discovery by libEGL: the same rebased directory list; the first vendor (alpha, priority 10)
# serves the display and renders, and both were loaded.
env -u DISPLAY -u WAYLAND_DISPLAY LD_LIBRARY_PATH="$root/usr/lib/$ma" \
    GLMUX_VENDOR_DIRS="$dirs" EGL_PLATFORM=surfaceless \
    GLMUX_DEBUG=vendor GLMUX_DEBUG_FILE="$work/egl-vendor.log" \
    LIBGL_ALWAYS_SOFTWARE=1 GALLIUM_DRIVER=llvmpipe \
    "$work/consumer/glmux_consumer" "$root" libEGL.so.1 libOpenGL.so.0 libGLdispatch.so.0 \
    libEGL_alpha.so.0 libEGL_beta.so.0 || fail "co-installed vendors were not both discovered"
grep -E 'display .* from libEGL_alpha\.so\.0' "$work/egl-vendor.log" ||
    { cat "$work/egl-vendor.log" >&2; fail "the display did not come from the first vendor (alpha)"; }
echo "packaging_vendor_debs passed"
