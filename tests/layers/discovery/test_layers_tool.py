#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""glmux layer tests: the tool's `layers` (text and --json), `manifest --layer`, `run --layer`
and `env --layer`, on a layer folder of this test's own (GLMUX_LAYER_PATH) holding a good
layer, an implicit one, a duplicate, a broken manifest, a wrong-architecture library and an
off layer, and the user's implicit_layer.d and explicit_layer.d (an explicit layer the tool
shows though a program would not read its folder, and one in the implicit folder: wrong
folder); then, as root with setcap, the same tool with a file capability (AT_SECURE, as a
setuid program) run as nobody, which must ignore GLMUX_LAYER_PATH and GLMUX_LAYERS.

  test_layers_tool.py GLMUX GOOD_LAYER_LIBRARY WORKDIR [LIB32]

Exit 0 pass, 1 fail (77 is never returned: the secure part is skipped with a note when it
cannot run, the rest still counts).
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def run(cmd, env, expect_rc=0):
    r = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=60)
    print("$ " + " ".join(cmd) + "\n" + r.stdout + r.stderr)
    if expect_rc is not None and r.returncode != expect_rc:
        fail(f"exit status {r.returncode}, want {expect_rc}")
    return r


def manifest(folder, file, layer):
    with open(os.path.join(folder, file), "w") as f:
        json.dump({"file_format_version": "1.0.0", "layer": layer}, f)


def main():
    glmux, good, work = sys.argv[1], sys.argv[2], sys.argv[3]
    lib32 = sys.argv[4] if len(sys.argv) > 4 and sys.argv[4] else None
    ptr_size = int(sys.argv[5]) if len(sys.argv) > 5 and sys.argv[5] else 8
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    folder = os.path.join(work, "path1.d")
    second = os.path.join(work, "second.d")
    user_im = os.path.join(work, ".local/share/glmux/implicit_layer.d")
    user_ex = os.path.join(work, ".local/share/glmux/explicit_layer.d")
    for d in (folder, second, user_im, user_ex):
        os.makedirs(d)
    foreign = os.path.join(work, "libforeign.so")
    if lib32:
        shutil.copy(lib32, foreign)
    elif ptr_size == 8:  # an ELF header of the other word size: i386 for a 64-bit build
        with open(foreign, "wb") as f:
            f.write(b"\x7fELF" + bytes([1, 1, 1]) + bytes(9) + bytes([3, 0, 3, 0]) + bytes(44))
    else:  # x86-64 for a 32-bit build
        with open(foreign, "wb") as f:
            f.write(b"\x7fELF" + bytes([2, 1, 1]) + bytes(9) + bytes([3, 0, 62, 0]) + bytes(48))
    manifest(folder, "10_good.json", {"name": "tl_good", "type": "explicit",
                                      "library_path": good, "apis": ["gl", "egl"],
                                      "description": "the good one"})
    manifest(folder, "20_implicit.json", {"name": "tl_implicit", "type": "implicit",
                                          "library_path": good, "apis": ["glx"],
                                          "disable_environment": {"TL_IMPLICIT_OFF": "1"}})
    manifest(folder, "30_foreign.json", {"name": "tl_foreign", "type": "explicit",
                                         "library_path": foreign, "apis": ["gl"]})
    manifest(folder, "40_off.json", {"name": "tl_off", "type": "explicit",
                                     "library_path": good, "apis": ["gl"]})
    with open(os.path.join(folder, "50_broken.json"), "w") as f:
        f.write('{"file_format_version": "1.0.0", "layer": {"name": "tl_broken"}}\n')
    manifest(second, "10_good.json", {"name": "tl_good", "type": "explicit",
                                      "library_path": good, "apis": ["gl"]})
    manifest(user_ex, "tl_userex.json", {"name": "tl_userex", "type": "explicit",
                                         "library_path": good, "apis": ["gl"]})
    manifest(user_im, "tl_misplaced.json", {"name": "tl_misplaced", "type": "explicit",
                                            "library_path": good, "apis": ["gl"]})
    env = {k: v for k, v in os.environ.items() if not k.startswith("GLMUX_")}
    env.update(GLMUX_LAYER_PATH=folder + ":" + second, GLMUX_LAYERS="tl_good,tl_foreign,nope",
               HOME=work)
    env.pop("XDG_DATA_HOME", None)

    out = run([glmux, "layers"], env).stdout
    for want in ("  GLMUX_LAYERS         tl_good,tl_foreign,nope",
                 f"  1. {folder} (GLMUX_LAYER_PATH): read",
                 f"  3. {user_im} (user, implicit): read",
                 f"  6. {user_ex} (user, explicit): read",
                 "A program started now reads the explicit folders: GLMUX_LAYERS or",
                 "Layer tl_good: would load (1 of 2 in the chain, counted from the top)",
                 "Layer tl_misplaced: wrong folder: its \"type\" is \"explicit\", but "
                 f"{user_im} is a folder of implicit layers; move the manifest to "
                 f"{os.path.dirname(user_im)}/explicit_layer.d or correct its \"type\"",
                 "Layer tl_userex: off because an explicit layer, and neither GLMUX_LAYERS",
                 "  kind:                explicit",
                 f"  manifest:            {folder}/10_good.json (line 1)",
                 f"  library:             {good}",
                 "  apis:                gl, egl",
                 "  description:         the good one",
                 "Layer tl_implicit: would load (2 of 2",
                 "  disable_environment: TL_IMPLICIT_OFF=1 (now: unset)",
                 "Layer tl_foreign: wrong architecture: ",
                 "(not this process's)",
                 "Layer tl_off: off because an explicit layer, and neither GLMUX_LAYERS nor",
                 "Layer tl_broken: broken manifest: line 1: the layer has no \"type\"",
                 f"Layer tl_good: duplicate of tl_good from {folder}/10_good.json",
                 "GLMUX_LAYERS names \"nope\": no layer manifest declares it.",
                 "Chain: program -> tl_good -> tl_implicit -> glmux -> vendor"):
        if want not in out:
            fail(f"no line with {want!r}")

    doc = json.loads(run([glmux, "layers", "--json"], env).stdout)
    if doc["chain"] != ["program", "tl_good", "tl_implicit", "glmux", "vendor"]:
        fail(f"chain {doc['chain']}")
    if doc["variables"]["GLMUX_LAYERS"] != "tl_good,tl_foreign,nope" or doc["secure_execution"]:
        fail("variables")
    if doc["folders"][0] != {"path": folder, "source": "GLMUX_LAYER_PATH", "kind": "any",
                             "state": "read"}:
        fail(f"folders {doc['folders'][0]}")
    if doc["folders"][5] != {"path": user_ex, "source": "user", "kind": "explicit",
                             "state": "read"} or not doc["explicit_folders_read_by_programs"]:
        fail(f"the user's explicit folder {doc['folders'][5]}")
    verdicts = [(layer["name"], layer["verdict"]) for layer in doc["layers"]]
    if verdicts != [("tl_good", "would_load"), ("tl_implicit", "would_load"),
                    ("tl_foreign", "wrong_architecture"), ("tl_off", "off"),
                    ("tl_broken", "broken"), ("tl_good", "duplicate"),
                    ("tl_misplaced", "wrong_folder"), ("tl_userex", "off")]:
        fail(f"verdicts {verdicts}")
    first = doc["layers"][0]
    if (first["kind"] != "explicit" or first["library"] != good or first["chain_position"] != 0
            or first["apis"] != ["gl", "egl"] or not first["architecture"]):
        fail(f"first layer {first}")
    if doc["layers"][1]["disable_environment"] != {"name": "TL_IMPLICIT_OFF", "value": "1",
                                                   "current": None}:
        fail("disable_environment")
    if doc["unknown_names"] != ["nope"]:
        fail("unknown_names")

    # Nothing asks for an explicit layer: the tool still reads the explicit folders, and says
    # that a program would not.
    env2 = dict(env)
    env2.pop("GLMUX_LAYERS")
    out = run([glmux, "layers"], env2).stdout
    for want in ("A program started now does not read the explicit folders (shown here all the "
                 "same):",
                 "Layer tl_userex: off because an explicit layer",
                 "Layer tl_misplaced: wrong folder: ",
                 "Chain: program -> tl_implicit -> glmux -> vendor"):
        if want not in out:
            fail(f"no line with {want!r} when nothing asks for an explicit layer")
    doc = json.loads(run([glmux, "layers", "--json"], env2).stdout)
    if doc["explicit_folders_read_by_programs"] or doc["folders"][5]["state"] != "read":
        fail("explicit folders with nothing asking")

    # Switched off by the layer's own variable, and everything off without a scan.
    env2 = dict(env, TL_IMPLICIT_OFF="1")
    doc = json.loads(run([glmux, "layers", "--json"], env2).stdout)
    if doc["chain"] != ["program", "tl_good", "glmux", "vendor"]:
        fail(f"chain with TL_IMPLICIT_OFF: {doc['chain']}")
    env2 = dict(env, GLMUX_LAYERS_DISABLE="~all~")
    env2.pop("GLMUX_LAYERS")
    doc = json.loads(run([glmux, "layers", "--json"], env2).stdout)
    if not doc["scan_skipped"] or doc["folders"] or doc["layers"]:
        fail("~all~ did not skip the scan")
    run([glmux, "layers", "--bogus"], env, expect_rc=2)

    # glmux explain shows the same chain.
    env4 = {k: v for k, v in env.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    out = run([glmux, "explain"], env4).stdout
    if "GL layers:   program -> tl_good -> tl_implicit -> glmux -> vendor" not in out:
        fail("explain's chain")
    doc = json.loads(run([glmux, "explain", "--json"], env4).stdout)
    if doc["layers"]["chain"] != ["program", "tl_good", "tl_implicit", "glmux", "vendor"]:
        fail(f"explain --json's chain: {doc['layers']}")
    if doc["layers"]["in_unread_explicit_folders"] != 0:
        fail(f"explain --json with GLMUX_LAYERS set: {doc['layers']}")
    # Nothing asks: explain says which layers lie where a program does not look.
    env5 = {k: v for k, v in env4.items() if k != "GLMUX_LAYERS"}
    out = run([glmux, "explain"], env5).stdout
    if "not loaded (1 in explicit_layer.d folders," not in out:
        fail("explain does not say that an explicit folder is not read")
    doc = json.loads(run([glmux, "explain", "--json"], env5).stdout)
    if doc["layers"]["in_unread_explicit_folders"] != 1:
        fail(f"explain --json with nothing asking: {doc['layers']}")

    # manifest --layer writes what the loader reads.
    r = run([glmux, "manifest", "--layer", "tl_made", "--library", good, "--apis", "gl,egl",
             "--type", "implicit", "--disable-env", "TL_MADE_OFF=1", "--description", "made"],
            env)
    made = json.loads(r.stdout)
    if made["layer"]["disable_environment"] != {"TL_MADE_OFF": "1"}:
        fail("manifest --layer")
    with open(os.path.join(folder, "60_made.json"), "w") as f:
        f.write(r.stdout)
    doc = json.loads(run([glmux, "layers", "--json"], env).stdout)
    if doc["chain"] != ["program", "tl_good", "tl_implicit", "tl_made", "glmux", "vendor"]:
        fail(f"chain with the made manifest: {doc['chain']}")
    run([glmux, "manifest", "--layer", "x", "--library", "x.so", "--apis", "gl", "--type",
         "implicit"], env, expect_rc=2)
    run([glmux, "manifest", "--layer", "x", "--library", "x.so", "--apis", "vulkan"], env,
        expect_rc=2)

    # run --layer and env --layer.
    env3 = {k: v for k, v in env.items() if k != "GLMUX_LAYERS"}
    r = run([glmux, "run", "--layer", "tl_good", "--layer", "tl_off", "--", "sh", "-c",
             "echo \"[$GLMUX_LAYERS]\""], env3)
    if r.stdout.strip() != "[tl_good,tl_off]":
        fail("run --layer")
    r = run([glmux, "env", "--layer", "tl_good"], env3)
    if r.stdout.strip() != "export GLMUX_LAYERS='tl_good'":
        fail("env --layer")
    run([glmux, "run", "--layer", "bad name", "--", "true"], env3, expect_rc=2)

    secure_part(glmux, work, env)
    shutil.rmtree(work, ignore_errors=True)
    return 0


def secure_part(glmux, work, env):
    """A copy of the tool with a file capability: AT_SECURE, as a setuid program."""
    setcap = shutil.which("setcap") or "/usr/sbin/setcap"
    setpriv = shutil.which("setpriv")
    if os.geteuid() != 0 or not os.path.exists(setcap) or setpriv is None:
        print("note: the secure-execution part needs root, setcap and setpriv; not run")
        return
    copy = os.path.join(work, "glmux-secure")
    shutil.copy2(glmux, copy)
    r = subprocess.run([setcap, "cap_net_bind_service=ep", copy], capture_output=True,
                       text=True)
    if r.returncode != 0:
        print("note: setcap failed (no xattrs here?); the secure part is not run: " +
              r.stderr.strip())
        return
    for d in (work, os.path.dirname(work)):
        os.chmod(d, os.stat(d).st_mode | 0o755)
    cmd = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", "--", copy, "layers",
           "--json"]
    r = run(cmd, env, expect_rc=None)
    if r.returncode != 0:
        print("note: the copy cannot run as nobody here (a folder it cannot reach?); the "
              "secure part is not run")
        return
    doc = json.loads(r.stdout)
    if not doc["secure_execution"]:
        fail("the copy with a file capability does not run in secure execution")
    if doc["variables"]["GLMUX_LAYERS"] is not None or doc["variables"]["GLMUX_LAYER_PATH"]:
        fail("GLMUX_LAYERS or GLMUX_LAYER_PATH read in secure execution")
    if doc["folders"][0]["state"] != "ignored in secure execution":
        fail(f"GLMUX_LAYER_PATH's folder: {doc['folders'][0]}")
    if doc["explicit_folders_read_by_programs"]:
        fail("GLMUX_LAYERS is ignored in secure execution: no program reads explicit_layer.d")
    if any(f["source"] == "user" and f["state"] != "ignored in secure execution"
           for f in doc["folders"]):
        fail(f"a user's folder read in secure execution: {doc['folders']}")
    if any((layer["name"] or "").startswith("tl_") for layer in doc["layers"]):
        fail("a layer of GLMUX_LAYER_PATH was read in secure execution")
    if doc["chain"][:2] != ["program", doc["chain"][1]] or "tl_good" in doc["chain"]:
        fail(f"chain {doc['chain']}")


if __name__ == "__main__":
    sys.exit(main())
