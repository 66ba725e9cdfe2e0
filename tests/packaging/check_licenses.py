#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Every file glmux's packages ship has a licence their metadata states (licensecheck, Debian's).

  check_licenses.py deb DEBS_DIR WORK_DIR
      licensecheck -r over the source package (DEBS_DIR's .tar.xz) finds in each file only licences
      that its debian/copyright states for it (the last Files paragraph matching its path), and
      over the unpacked .debs only licences that debian/copyright states (the headers built
      from the Khronos registry are not in the source; its header Comment names them).
  check_licenses.py rpm RPMS_DIR WORK_DIR
      licensecheck -r over each binary RPM finds only licences of that RPM's License: tag.

licensecheck names a licence by its SPDX identifier where it knows one; ALIASES maps its own
names to the identifier debian/copyright and the spec use. Exit 0 pass, 1 fail, 77 without
licensecheck (Debian package licensecheck).
"""
import glob
import os
import re
import shutil
import subprocess
import sys

# licensecheck's name -> SPDX identifier. "Khronos": khrplatform.h's licence, MIT-Khronos-old.
ALIASES = {"Khronos": "MIT-Khronos-old"}


def licensecheck(root):
    """{path relative to root: set of SPDX names} for every file licensecheck finds one in."""
    out = subprocess.run(["licensecheck", "--recursive", "--check", ".", "--machine",
                          "--shortname-scheme", "spdx", "."], cwd=root, check=True,
                         capture_output=True, text=True).stdout
    found = {}
    for line in out.splitlines():
        path, _, lic = line.partition("\t")
        if lic and lic != "UNKNOWN":
            names = re.split(r"\s+(?:and/or|and|or)\s+", lic.strip())
            found[os.path.normpath(path)] = {ALIASES.get(n, n) for n in names}
    return found


def expression_names(expr):
    """The licence identifiers of a DEP-5 or SPDX expression ("MIT AND (A OR B WITH E)")."""
    words = re.split(r"[\s()]+", expr)
    return {w for w in words if w and w.lower() not in ("and", "or", "with")}


def dep5(path):
    """([(patterns, licence names)] of the Files paragraphs in order, all licence names)."""
    files, names = [], set()
    with open(path, encoding="utf-8") as f:
        paragraphs = f.read().split("\n\n")
    for para in paragraphs:
        fields, key = {}, None
        for line in para.splitlines():
            if line.startswith((" ", "\t")) and key:
                fields[key] += "\n" + line.strip()
            elif ":" in line:
                key, _, value = line.partition(":")
                fields[key] = value.strip()
        if "License" in fields:
            lic = expression_names(fields["License"].split("\n")[0])
            names |= lic
            if "Files" in fields:
                files.append((fields["Files"].split(), lic))
    return files, names


def dep5_match(pattern, path):
    # DEP-5: "*" matches any characters, "/" included; "?" one character.
    return re.fullmatch(".*".join(re.escape(p).replace(r"\?", ".")
                                  for p in pattern.split("*")), path) is not None


def stated_for(files, path):
    lic = None
    for patterns, names in files:
        if any(dep5_match(p, path) for p in patterns):
            lic = names
    return lic


def unpack(cmd, dest):
    shutil.rmtree(dest, ignore_errors=True)
    os.makedirs(dest)
    subprocess.run(cmd, shell=True, check=True, cwd=dest)


def check_deb(debs, work):
    bad = []
    tarballs = glob.glob(os.path.join(glob.escape(debs), "*.tar.xz"))
    if len(tarballs) != 1:
        print(f"FAIL: {len(tarballs)} source tarballs in {debs}, expected one")
        return 1
    tarball = tarballs[0]
    src = os.path.join(work, "source")
    unpack(f"tar -xf '{os.path.abspath(tarball)}'", src)
    (top,) = os.listdir(src)
    files, names = dep5(os.path.join(src, top, "debian", "copyright"))
    found = licensecheck(os.path.join(src, top))
    for path, lic in sorted(found.items()):
        if re.search(r"(^|/)debian/copyright$", path):
            continue   # the copyright file names every licence; it is not licensed under them
        stated = stated_for(files, path) or set()
        if not lic <= stated:
            bad.append(f"source {path}: licensecheck finds {sorted(lic)}, debian/copyright "
                       f"states {sorted(stated) or 'nothing'}")
    print(f"source package: {len(found)} files with a licence, "
          f"{sorted(set().union(*found.values()))}")
    shipped = os.path.join(work, "debs")
    debs_list = [d for d in sorted(glob.glob(os.path.join(glob.escape(debs), "*.deb")))
                 if "-dbgsym_" not in d]
    if not debs_list:
        print(f"FAIL: no .debs in {debs}")
        return 1
    unpack(" && ".join(f"dpkg-deb -x '{os.path.abspath(d)}' ." for d in debs_list), shipped)
    found = licensecheck(shipped)
    for path, lic in sorted(found.items()):
        if re.match(r"usr/share/doc/[^/]+/copyright$", path):
            continue   # the copyright file itself holds every licence's text
        if not lic <= names:
            bad.append(f"shipped {path}: licensecheck finds {sorted(lic)}, which debian/copyright "
                       f"does not state ({sorted(names)})")
    print(f".debs: {len(found)} files with a licence, {sorted(set().union(*found.values()))}; "
          f"debian/copyright states {sorted(names)}")
    for b in bad:
        print("FAIL: " + b)
    return 1 if bad else 0


def check_rpm(rpms, work):
    bad, n = [], 0
    for rpm in sorted(glob.glob(os.path.join(glob.escape(rpms), "*.rpm"))):
        if re.search(r"-debug(info|source)-", os.path.basename(rpm)):
            continue
        tag = subprocess.run(["rpm", "-qp", "--qf", "%{LICENSE}", rpm], check=True,
                             capture_output=True, text=True).stdout
        stated = expression_names(tag)
        root = os.path.join(work, "rpm", os.path.basename(rpm))
        unpack(f"rpm2cpio '{os.path.abspath(rpm)}' | cpio -idm --quiet", root)
        found = licensecheck(root)
        for path, lic in sorted(found.items()):
            if not lic <= stated:
                bad.append(f"{os.path.basename(rpm)}: {path}: licensecheck finds {sorted(lic)}, "
                           f"License: is '{tag}'")
        n += 1
        print(f"{os.path.basename(rpm)}: License: {tag}; found "
              f"{sorted(set().union(*found.values())) if found else 'none'}")
    if n == 0:
        bad.append(f"no RPMs in {rpms}")
    for b in bad:
        print("FAIL: " + b)
    return 1 if bad else 0


def main(argv):
    if shutil.which("licensecheck") is None:
        print("SKIP: licensecheck missing (apt-get install licensecheck)")
        return 77
    if len(argv) == 3 and argv[0] == "deb":
        return check_deb(*argv[1:])
    if len(argv) == 3 and argv[0] == "rpm":
        return check_rpm(*argv[1:])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
