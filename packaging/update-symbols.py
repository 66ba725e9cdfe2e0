#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Writes or checks the committed Debian symbols files, packaging/debian/<package>.symbols.

Each runtime package's file lists every name of the library's committed export lists
(src/*/lib<Name>*.symbols) with the minimal package version a program built against it needs:
Debian's own minimal version for each name libglvnd has (from Debian's symbols file of the
package of the same name: /var/lib/dpkg/info/<package>:<arch>.symbols where Debian's libglvnd is
installed, else the committed file's version), and, for a name libglvnd lacks, the glmux package
version that first exported it (kept from the committed file; new names get the current one).
So programs rebuilt against glmux depend on `libgl1 (>= 0)`-style versions that Debian's
libglvnd also satisfies, and only programs that use glmux-only names need glmux.

  update-symbols.py            rewrite packaging/debian/*.symbols
  update-symbols.py --check    exit 1 (naming each difference) when a rewrite would change them,
                               or when a name of Debian's file is versioned above Debian's version
"""
import glob
import os
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# package: (soname, export lists, -dev package whose Build-Depends raise the minimal version)
LIBS = {
    "libglvnd0": ("libGLdispatch.so.0", ["src/dispatch/libGLdispatch.symbols"], "libglvnd-dev"),
    "libgl1": ("libGL.so.1", ["src/gl/libGL.symbols", "src/gl/libGL_glx.symbols"], "libgl-dev"),
    "libglx0": ("libGLX.so.0", ["src/glx/libGLX.symbols"], "libglx-dev"),
    "libopengl0": ("libOpenGL.so.0", ["src/opengl/libOpenGL.symbols"], "libopengl-dev"),
    "libegl1": ("libEGL.so.1", ["src/egl/libEGL.symbols"], "libegl-dev"),
    "libgles1": ("libGLESv1_CM.so.1", ["src/gles/libGLESv1_CM.symbols"], "libgles-dev"),
    "libgles2": ("libGLESv2.so.2", ["src/gles/libGLESv2.symbols"], "libgles-dev"),
}


def package_version():
    env = subprocess.run(["bash", "-c", f'top="{TOP}"; . "$top/packaging/version.sh"; '
                          'echo "$GLMUX_PKG_VERSION"'], capture_output=True, text=True, check=True)
    return env.stdout.strip()


def read_symbols(path):
    """name -> version of a Debian symbols file (name@Base lines only)."""
    out = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.startswith(" "):
                continue
            fields = line.split()
            if len(fields) >= 2 and fields[0].endswith("@Base"):
                out[fields[0][:-5]] = fields[1]
    return out


def debian_file(pkg):
    """Debian's installed symbols file of pkg, unless the installed package is glmux's."""
    native = subprocess.run(["dpkg", "--print-architecture"], capture_output=True,
                            text=True).stdout.strip()
    paths = glob.glob(f"/var/lib/dpkg/info/{pkg}:*.symbols") + \
        glob.glob(f"/var/lib/dpkg/info/{pkg}.symbols")
    # The native architecture's file first (libgl1:i386 may be installed next to it).
    for path in sorted(paths, key=lambda p: (f":{native}." not in p, p)):
        arch = os.path.basename(path)[len(pkg):].lstrip(":").rsplit(".", 1)[0] or None
        q = subprocess.run(["dpkg-query", "-W", "-f", "${Version}",
                            f"{pkg}:{arch}" if arch else pkg], capture_output=True, text=True)
        if q.returncode == 0 and "glmux" not in q.stdout:
            return path, q.stdout
    return None, None


def exports(lists):
    names = set()
    for rel in lists:
        with open(os.path.join(TOP, rel), encoding="utf-8") as f:
            for line in f:
                line = line.split("#", 1)[0].strip()
                if line:
                    names.add(line.split()[0])
    return sorted(names)


def main():
    check = "--check" in sys.argv[1:]
    current = package_version()
    problems = []
    for pkg, (soname, lists, devpkg) in LIBS.items():
        path = os.path.join(TOP, "packaging", "debian", f"{pkg}.symbols")
        committed = read_symbols(path) if os.path.exists(path) else {}
        deb_path, deb_version = debian_file(pkg)
        debian = read_symbols(deb_path) if deb_path else {}
        lines = [f"{soname} {pkg} #MINVER#", f"* Build-Depends-Package: {devpkg}"]
        for name in exports(lists):
            if name in debian:
                version = debian[name]
            elif name in committed:
                version = committed[name]
            else:
                version = current
            if deb_path and name not in debian and "glmux" not in version:
                problems.append(f"{pkg}: {name} is not in Debian's {pkg} {deb_version} but has "
                                f"version {version}, not a glmux version")
            lines.append(f" {name}@Base {version}")
        for name in sorted(set(debian) - set(exports(lists))):
            problems.append(f"{pkg}: {soname} does not export {name} of Debian's {pkg}")
        text = "\n".join(lines) + "\n"
        old = open(path, encoding="utf-8").read() if os.path.exists(path) else ""
        if check:
            if old != text:
                problems.append(f"packaging/debian/{pkg}.symbols is out of date "
                                "(run packaging/update-symbols.py and review the diff)")
        elif old != text:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            print(f"wrote packaging/debian/{pkg}.symbols")
        glmux_only = sum(1 for n in exports(lists) if n not in debian)
        print(f"{pkg}: {len(exports(lists))} symbols, {glmux_only} not in Debian's "
              f"({'compared with ' + deb_path if deb_path else 'Debian libglvnd not installed'})")
    for p in problems:
        print(f"update-symbols.py: {p}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
