#!/bin/bash
# SPDX-License-Identifier: MIT
# Packaging test: builds the .debs with packaging/build-deb.sh and checks the split: the package
# set (Debian's names; every part of glmux is built now, so none may be left out), what each
# package ships, each package's paths against Debian's package of the same name where that is
# installed here, Multi-Arch, vendor dependencies through the virtual packages, the vendor
# directories (the ones the packaged libraries search), symbols files and ldconfig triggers, no
# file in two packages, glmux's own layers run from the packages (glxgears through the frame
# limiter and the frame-time log; the call counter's and the log's counts equal to the frames
# glxgears reports), and lintian (source package and .debs) with no errors.
# Leaves the .debs in WORK/debs for packaging_vendor_debs.
# MODE nocheck (packaging_deb, CI's run): DEB_BUILD_OPTIONS=nocheck, and the log must show that
# the test suite was not even built (BUILD_TESTING=OFF, no object under tests/): the suite the
# package build would run is the one the default configuration has just run.
# MODE check (packaging_deb_check, label fulltests): dh_auto_test runs the suite, which must pass
# inside the package build; with FIRST_DEBS (packaging_deb's), every .deb must be byte-identical
# to the nocheck build's: building and running the tests changes no installed file.
# Usage: check_debs.sh SOURCE_DIR WORK_DIR nocheck|check [FIRST_DEBS_DIR]
set -eu
top=$1 work=$2 mode=$3 first=${4:-}
fail() { echo "FAIL: $*" >&2; exit 1; }
for tool in dpkg-buildpackage dh dpkg-deb; do
    command -v $tool > /dev/null || { echo "SKIP: $tool missing (apt-get install dpkg-dev debhelper)" >&2; exit 77; }
done
. "$top/packaging/version.sh"
rm -rf "$work"
mkdir -p "$work"
case $mode in
    nocheck) export DEB_BUILD_OPTIONS="nocheck${DEB_BUILD_OPTIONS:+ $DEB_BUILD_OPTIONS}" ;;
    check) DEB_BUILD_OPTIONS=$(echo " ${DEB_BUILD_OPTIONS:-} " | sed 's/ nocheck / /g; s/^ *//; s/ *$//')
           export DEB_BUILD_OPTIONS ;;
    *) fail "mode must be nocheck or check, not '$mode'" ;;
esac
"$top/packaging/build-deb.sh" "$work/debs" > "$work/build.log" 2>&1 ||
    { tail -50 "$work/build.log" >&2; fail "build-deb.sh failed (log: $work/build.log)"; }
# In check mode dh_auto_test ran the suite (ctest -LE packaging) inside the package build.
. "$top/tests/packaging/build_log.sh"
build_log_check "$mode" "$work/build.log" "the $mode package build"
cd "$work/debs"
M=usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH)

[ ! -s glmux-left-out ] || fail "build-deb.sh left parts out: $(cat glmux-left-out | tr '\n' ' ')"
want="libglvnd0 libgl1 libglx0 libglx-glmux-pixels0 libopengl0 libegl1 libgles1 libgles2
      libglvnd-core-dev libglvnd-dev libgl-dev libglx-dev libopengl-dev libegl-dev libgles-dev
      glmux-tools glmux-layers"
got=$(ls *.deb | grep -v -- '-dbgsym_' | sed 's/_.*//' | sort | tr '\n' ' ')
[ "$got" = "$(echo $want | tr ' ' '\n' | sort | tr '\n' ' ')" ] ||
    fail "package set is '$got', expected '$want'"
echo "ok: packages $got"

deb() { ls "$1"_*.deb; }
files() { dpkg-deb -c "$(deb "$1")" | awk '{print $6}' | grep -v '/$' | sed 's|^\./||' |
          grep -v '^usr/share/doc/\|^usr/share/lintian/'; }
field() { dpkg-deb -f "$(deb "$1")" "$2"; }
# expect PACKAGE REGEX...: the package ships exactly files matching these (one each at least).
expect() {
    local pkg=$1 f re ok
    shift
    for re in "$@"; do
        files "$pkg" | grep -Eq "^$re\$" || fail "$pkg lacks $re"
    done
    while read -r f; do
        ok=0
        for re in "$@"; do [[ $f =~ ^$re$ ]] && ok=1; done
        [ $ok = 1 ] || fail "$pkg ships unexpected $f"
    done < <(files "$pkg")
    echo "ok: $pkg ships $(files "$pkg" | wc -l) files as expected"
}
has() { case " $got " in *" $1 "*) return 0 ;; esac; return 1; }

# libGLdispatch and its GL layers' re-entry guard (opened only under GLMUX_DEBUG=layer).
expect libglvnd0 "$M/libGLdispatch\.so\.0(\.0\.0)?" "$M/glmux/libglmux-layer-guard\.so"
expect libopengl0 "$M/libOpenGL\.so\.0(\.0\.0)?"
expect libgles1 "$M/libGLESv1_CM\.so\.1(\.2\.0)?"
expect libgles2 "$M/libGLESv2\.so\.2(\.1\.0)?"
expect libglvnd-core-dev "usr/include/glvnd/[A-Za-z]+\.h" "usr/include/glmux/glmux_layer\.h" \
    "$M/pkgconfig/(libglvnd|glmux|glmux-layer)\.pc"
expect libglvnd-dev "$M/libGLdispatch\.so"
gl_extra=""
has libgl1 && gl_extra="$M/libGL\.so|$M/pkgconfig/gl\.pc"
expect libgl-dev "usr/include/GL/(gl|glext|glcorearb)\.h" "usr/include/KHR/khrplatform\.h" ${gl_extra:+"$gl_extra"}
expect libopengl-dev "$M/libOpenGL\.so" "$M/pkgconfig/opengl\.pc"
expect libgles-dev "usr/include/GLES/[a-z]+\.h" "usr/include/GLES2/[a-z0-9]+\.h" \
    "usr/include/GLES3/[a-z0-9]+\.h" "$M/libGLESv(1_CM|2)\.so" "$M/pkgconfig/glesv(1_cm|2)\.pc"
if has libegl1; then
    expect libegl1 "$M/libEGL\.so\.1(\.1\.0)?"
    expect libegl-dev "usr/include/EGL/[a-z]+\.h" "$M/libEGL\.so" "$M/pkgconfig/egl\.pc"
    field libegl1 Depends | grep -q 'libegl-mesa0 | libegl-vendor' ||
        fail "libegl1 must depend on libegl-mesa0 | libegl-vendor"
    for d in etc/glvnd/egl_vendor.d usr/share/glvnd/egl_vendor.d; do
        dpkg-deb -c "$(deb libegl1)" | awk '{print $6}' | grep -qxF "./$d/" || fail "libegl1 does not own $d"
    done
fi
if has libglx0; then
    expect libglx0 "$M/libGLX\.so\.0(\.0\.0)?"
    expect libglx-dev "usr/include/GL/glx(ext)?\.h" "$M/libGLX\.so" "$M/pkgconfig/glx\.pc"
    field libglx0 Depends | grep -q 'libglx-mesa0 | libglx-vendor' ||
        fail "libglx0 must depend on libglx-mesa0 | libglx-vendor"
    # The pixels vendor is a package of its own (docs/remote.md): libglx0 recommends it, and it
    # recommends what it renders with; it needs nothing of glmux's, so libglvnd's libglx0
    # loads it too.
    expect libglx-glmux-pixels0 "$M/libGLX_glmux-pixels\.so\.0(\.0\.0)?"
    field libglx0 Recommends | grep -q 'libglx-glmux-pixels0' ||
        fail "libglx0 must recommend libglx-glmux-pixels0"
    field libglx-glmux-pixels0 Recommends | grep -q 'libegl1.*libegl-mesa0 | libegl-vendor' ||
        fail "libglx-glmux-pixels0 must recommend libegl1 and libegl-mesa0 | libegl-vendor"
    ! field libglx-glmux-pixels0 Depends | grep -Eq 'libglx0|libglvnd0|libegl1' ||
        fail "libglx-glmux-pixels0 depends on glmux: $(field libglx-glmux-pixels0 Depends)"
fi
has libgl1 && expect libgl1 "$M/libGL\.so\.1(\.[0-9.]+)?"
expect glmux-tools "usr/bin/glmux" "usr/share/man/man1/glmux\.1\.gz"
[ "$(field glmux-tools Multi-Arch)" = foreign ] || fail "glmux-tools is not Multi-Arch: foreign"
dpkg-deb -c "$(deb libglvnd0)" | awk '{print $6}' | grep -qxF "./$M/glvnd/vendors/" ||
    fail "libglvnd0 does not own $M/glvnd/vendors"
# GL layers (docs/layers.md): libglvnd0, whose libGLdispatch loads them, owns their folders;
# glmux's own layers are a package of their own, libraries in a private folder, manifests in
# this architecture's folder.
for d in "$M/glvnd/implicit_layer.d" "$M/glvnd/explicit_layer.d" etc/glmux/implicit_layer.d \
         etc/glmux/explicit_layer.d; do
    dpkg-deb -c "$(deb libglvnd0)" | awk '{print $6}' | grep -qxF "./$d/" ||
        fail "libglvnd0 does not own $d"
done
expect glmux-layers "$M/glmux/layers/libglmux-layer-[a-z-]+\.so" \
    "$M/glvnd/explicit_layer\.d/glmux_[a-z_]+\.json"

# The directories the packages own are the ones the packaged libraries search, and the ones
# glmux.pc and libglvnd.pc name.
rm -rf root && mkdir root
for p in libglvnd0 libegl1 libglvnd-core-dev; do dpkg-deb -x "$(deb $p)" root; done
pcv() { PKG_CONFIG_LIBDIR="root/$M/pkgconfig" pkg-config --variable="$2" "$1"; }
[ "$(pcv glmux vendordir)" = "/$M/glvnd/vendors" ] || fail "glmux.pc vendordir is $(pcv glmux vendordir)"
grep -qxF "vendordir=\${libdir}/glvnd/vendors" "root/$M/pkgconfig/glmux.pc" ||
    fail "glmux.pc vendordir is not \${libdir}/glvnd/vendors"
[ "$(pcv libglvnd egl_vendor_dirs)" = /etc/glvnd/egl_vendor.d:/usr/share/glvnd/egl_vendor.d ] ||
    fail "libglvnd.pc egl_vendor_dirs is $(pcv libglvnd egl_vendor_dirs)"
[ "$(pcv libglvnd datadir)" = /usr/share ] && [ "$(pcv libglvnd sysconfdir)" = /etc ] ||
    fail "libglvnd.pc datadir/sysconfdir are $(pcv libglvnd datadir) $(pcv libglvnd sysconfdir)"
for d in "/$M/glvnd/vendors" /etc/glvnd/egl_vendor.d /usr/share/glvnd/egl_vendor.d; do
    [ -d "root$d" ] || fail "no package owns $d"
done
strings "root/$M/libEGL.so.1" | grep -qxF "/$M/glvnd/vendors" ||
    fail "the packaged libEGL.so.1 does not search /$M/glvnd/vendors"
strings "root/$M/libEGL.so.1" | grep -qxF /etc/glvnd/egl_vendor.d:/usr/share/glvnd/egl_vendor.d ||
    fail "the packaged libEGL.so.1 does not search /etc and /usr/share glvnd/egl_vendor.d"
rm -rf root
echo "ok: the owned vendor directories are the ones libEGL searches and the .pc files name"

# Each package ships the paths of Debian's package of the same name (where Debian's, not
# glmux's, is installed here), plus only glmux's additions: glmux.pc and the vendor directory,
# the layer interface (glmux/glmux_layer.h, glmux-layer.pc), the layer folders and the layers'
# re-entry guard beside libGLdispatch (glmux/libglmux-layer-guard.so).
paths() { dpkg-deb -c "$(deb "$1")" | awk '{print $6}' | sed 's|^\.||; s|/$||' |
          grep -v '^/usr/share/\(doc\|lintian\|bug\)\|^$' | sort; }
compared=""
arch=$(dpkg --print-architecture)
for p in $got; do
    # The native architecture's instance (another one, e.g. :i386, may be installed too).
    v=$(dpkg-query -W -f '${db:Status-Status} ${Version}' "$p:$arch" 2>/dev/null) || continue
    case $v in "installed "*glmux*) continue ;; "installed "*) ;; *) continue ;; esac
    dpkg -L "$p:$arch" | grep -v '^/usr/share/\(doc\|lintian\|bug\)\|^/\.$' | sort > "debian-$p.txt"
    # /etc itself only for libglvnd0 (its /etc/glmux/*_layer.d): Debian's libegl1 owns /etc too.
    etc=/usr/include/glmux
    [ "$p" != libglvnd0 ] || etc=/etc
    paths "$p" | grep -vxF -e "/$M/pkgconfig/glmux.pc" -e "/$M/glvnd" -e "/$M/glvnd/vendors" \
        -e "/$M/glvnd/implicit_layer.d" -e "/$M/glvnd/explicit_layer.d" -e "$etc" \
        -e /etc/glmux -e /etc/glmux/implicit_layer.d -e /etc/glmux/explicit_layer.d \
        -e /usr/include/glmux -e /usr/include/glmux/glmux_layer.h \
        -e "/$M/pkgconfig/glmux-layer.pc" -e "/$M/glmux" \
        -e "/$M/glmux/libglmux-layer-guard.so" > "glmux-$p.txt"
    diff "debian-$p.txt" "glmux-$p.txt" > "diff-$p.txt" ||
        { cat "diff-$p.txt" >&2; fail "$p's paths differ from Debian's $p (< Debian, > glmux)"; }
    compared="$compared $p"
done
echo "ok: same paths as Debian's package of the same name:${compared:- none (no Debian libglvnd package installed here)}"

# glmux's own layers from the packages (docs/layers.md): the packaged libraries and manifests
# unpacked in one root, glxgears under an Xvfb of its own through the packaged libGL, with
# glmux_frame_limiter at 25 frames a second and glmux_frame_time below it, both found through
# the packaged manifests (library_path relative to their folder): the log has frames (its rate
# is said, not checked); then glxgears with the packaged call counter too, stopped right after
# its first report, whose frames the counter and the log must equal. Skipped (said so) without
# Xvfb, glxgears or Mesa's GLX.
layers_check() {
    command -v Xvfb > /dev/null && command -v glxgears > /dev/null &&
        [ -e "/$M/libGLX_mesa.so.0" ] ||
        { echo "SKIP: the packaged layers' run (no Xvfb, glxgears or Mesa)"; return 0; }
    rm -rf lroot && mkdir lroot
    for p in libglvnd0 libgl1 libglx0 libopengl0 glmux-layers; do
        dpkg-deb -x "$(deb $p)" lroot
    done
    Xvfb -displayfd 3 -nolisten tcp -screen 0 320x240x24 3> lroot/fd > lroot/xvfb.log 2>&1 \
        < /dev/null &
    xvfb=$!
    i=0
    while [ ! -s lroot/fd ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
    env -u GLMUX_LAYERS_DISABLE -u GLMUX_LAYERS_ENABLE DISPLAY=":$(head -n 1 lroot/fd)" \
        LD_LIBRARY_PATH="$PWD/lroot/$M" GLMUX_LAYER_PATH="$PWD/lroot/$M/glvnd/explicit_layer.d" \
        GLMUX_LAYERS=glmux_frame_limiter,glmux_frame_time GLMUX_FRAME_LIMIT=25 \
        GLMUX_FRAMETIME_LOG="$PWD/lroot/frames.csv" timeout 4 glxgears > lroot/gears.log 2>&1 ||
        true
    # What the layers report equals what glxgears draws: layer_gears_frames (the build's, from
    # tests/layers/tools/gears_frames.c, named by GLMUX_TEST_GEARS_FRAMES) stops glxgears right
    # after its first "N frames" report; the packaged call counter's glXSwapBuffers and glClear
    # counts and the packaged frame-time log's lines must be N, and glxgears must have mapped
    # the packaged libraries.
    gears=${GLMUX_TEST_GEARS_FRAMES:-}
    if [ -n "$gears" ] && [ -x "$gears" ]; then
        env -u GLMUX_LAYERS_DISABLE -u GLMUX_LAYERS_ENABLE -u GLMUX_TEST_XVFB_DIR \
            DISPLAY=":$(head -n 1 lroot/fd)" LD_LIBRARY_PATH="$PWD/lroot/$M" \
            GLMUX_LAYER_PATH="$PWD/lroot/$M/glvnd/explicit_layer.d" \
            GLMUX_LAYERS=glmux_call_counter,glmux_frame_time,glmux_frame_limiter \
            GLMUX_FRAME_LIMIT=20 GLMUX_CALL_COUNT_FILE="$PWD/lroot/calls.txt" \
            GLMUX_FRAMETIME_LOG="$PWD/lroot/gears-frames.csv" "$gears" \
            --lib "lroot/$M/libGL.so.1" --lib "lroot/$M/libGLX.so.0" \
            --lib "lroot/$M/libGLdispatch.so.0" \
            --lib "lroot/$M/glmux/layers/libglmux-layer-call-counter.so" \
            --lib "lroot/$M/glmux/layers/libglmux-layer-frame-time.so" \
            --lib "lroot/$M/glmux/layers/libglmux-layer-frame-limiter.so" \
            --mapped libGLX_mesa.so.0 --calls glXSwapBuffers --calls glClear -- glxgears \
            > lroot/gears-frames.log 2>&1 ||
            { kill $xvfb 2> /dev/null; cat lroot/gears-frames.log >&2
              fail "the packaged layers' counts differ from the frames glxgears reported"; }
        grep '^ok: ' lroot/gears-frames.log
    else
        echo "SKIP: the packaged layers' counts against glxgears' frames" \
             "(GLMUX_TEST_GEARS_FRAMES names no layer_gears_frames)"
    fi
    kill $xvfb 2> /dev/null
    # The first run's log must have frames; its rate is only said (a test does not time: the
    # limiter's accuracy is measured by bench/layers/run_layers_bench.sh).
    rate=$(awk -F, 'NR > 2 { if (!n++) a = $2; b = $2 }
        END { if (n > 1) printf "%.1f", (n - 1) * 1000 / (b - a); else print 0 }' \
        lroot/frames.csv 2> /dev/null)
    [ "$(awk -F, 'NR > 1' lroot/frames.csv 2> /dev/null | wc -l)" -ge 2 ] ||
        fail "the packaged frame limiter and frame-time log wrote no frames" \
             "($(head -c 300 lroot/gears.log))"
    echo "ok: the packaged layers, found through the packaged manifests, logged glxgears'" \
         "frames (${rate:-?} a second with 25 asked; measured, not checked)"
    rm -rf lroot
}
layers_check

# Control data: Multi-Arch, symbols, triggers, version above Debian's libglvnd.
for p in $got; do
    case $p in glmux-tools) continue ;; esac
    [ "$(field "$p" Multi-Arch)" = same ] || fail "$p is not Multi-Arch: same"
done
for p in libglvnd0 libopengl0 libgles1 libgles2 libegl1 libglx0 libgl1; do
    has "$p" || continue
    rm -rf ctl && dpkg-deb -e "$(deb "$p")" ctl
    [ -s ctl/symbols ] || fail "$p has no symbols file"
    # The shipped symbols file is the committed one (Debian's minimal versions).
    diff <(grep '@Base' ctl/symbols | sort) <(grep '@Base' "$top/packaging/debian/$p.symbols" | sort) \
        > "symbols-$p.diff" || { cat "symbols-$p.diff" >&2; fail "$p's symbols differ from packaging/debian/$p.symbols"; }
    [ -s ctl/shlibs ] || fail "$p has no shlibs file"
    # shlibs: the highest minimal version of the symbols file (unversioned when all are 0), not
    # this upload's version, which Debian's libglvnd could not satisfy.
    v=0
    for m in $(sed -n 's/^ [^ ]*@Base \([^ ]*\).*/\1/p' ctl/symbols | sort -u); do
        if dpkg --compare-versions "$m" gt "$v"; then v=$m; fi
    done
    dep=$p; [ "$v" = 0 ] || dep="$p (>= $v)"
    awk '{ $1 = ""; $2 = ""; sub(/^ +/, ""); print }' ctl/shlibs | sort -u > shlibs-deps.txt
    [ "$(cat shlibs-deps.txt)" = "$dep" ] ||
        fail "$p's shlibs ask for '$(cat shlibs-deps.txt)', its symbols file for '$dep'"
    grep -q 'activate-noawait ldconfig' ctl/triggers || fail "$p has no ldconfig trigger"
    echo "ok: $p: $(grep -c '@Base' ctl/symbols) symbols, $(cat ctl/shlibs)"
done
rm -rf ctl
# dpkg-gensymbols (-c4) reported no change against the committed files.
! grep -E 'dpkg-gensymbols: (warning|error)' "$work/build.log" ||
    fail "dpkg-gensymbols reported differences (log: $work/build.log)"
dpkg --compare-versions "$(field libglvnd0 Version)" gt 1.6.0-1 || fail "version must sort above 1.6.0-1"

# No file in two packages.
for p in $got; do files "$p"; done | sort | uniq -d > dup.txt
[ ! -s dup.txt ] || fail "files owned twice: $(cat dup.txt)"
echo "ok: no file owned by two packages"

if command -v lintian > /dev/null; then
    # The .changes holds the source package too: lintian checks the .dsc and the tarball
    # (source-is-missing and the other source tags) as well as the .debs.
    grep -q '\.dsc$' ./*.changes || fail "the .changes holds no source package"
    # lintian leaves its mldbm-elf-* caches in TMPDIR: give it a folder of its own, then drop it.
    mkdir -p "$work/lintian-tmp"
    rc=0
    TMPDIR="$work/lintian-tmp" lintian --fail-on error ./*.changes > lintian.txt 2>&1 || rc=$?
    rm -rf "$work/lintian-tmp"
    [ "$rc" = 0 ] || { cat lintian.txt >&2; fail "lintian reports errors"; }
    echo "ok: lintian: $(grep -c '^E:' lintian.txt || true) errors, $(grep -c '^W:' lintian.txt || true) warnings"
    cat lintian.txt
else
    echo "SKIP: lintian not installed (apt-get install lintian)" >&2
    exit 77
fi
if [ -n "$first" ]; then
    n=0
    for deb in "$first"/*.deb; do
        name=$(basename "$deb")
        [ -f "$name" ] || fail "this build made no $name"
        cmp -s "$deb" "$name" || fail "$name differs from the nocheck build's ($first)"
        n=$((n + 1))
    done
    [ "$n" -gt 0 ] || fail "no .debs in $first to compare with"
    echo "ok: $n .debs byte-identical to the nocheck build's: the tests change no installed file"
fi
echo "check_debs.sh ($mode) passed"
