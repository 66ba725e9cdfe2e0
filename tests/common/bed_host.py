# SPDX-License-Identifier: MIT
"""glmux tests: one umockdev testbed per bed, shared by every program a driver runs on it.

`umockdev-run -d BED -- PROGRAM` builds a testbed (a directory tree of the bed's /sys and /dev)
and removes it again for every program: about 35 ms of mostly system time, several times what
`glmux explain` itself takes, and the bed drivers run hundreds of programs. Beds starts, for
each bed it is asked for, one `umockdev-run -d BED -- python3 bed_host.py` that stays up and
runs the programs it is sent, one at a time, in that testbed. The programs only read the
testbed, so sharing it changes nothing they see. A program gets exactly the environment it
is given, plus umockdev's UMOCKDEV_DIR and its preload library after the program's own
LD_PRELOAD, as umockdev-run sets them.

Protocol: one JSON line per program on the host's stdin ({"argv", "env", "timeout"}), one JSON
line back ({"returncode", "stdout", "stderr"}, or {"timeout": true}); end of input ends the
host, and with it umockdev-run and its testbed.
"""
import atexit
import json
import os
import subprocess
import sys


class Beds:
    """run(bed, argv, env, timeout) runs argv in bed's testbed (bed: a .umockdev file, or None
    for an empty testbed) and returns a subprocess.CompletedProcess (text); raises
    subprocess.TimeoutExpired as subprocess.run does. close() ends every host (also at exit)."""

    def __init__(self):
        self.hosts = {}
        atexit.register(self.close)

    def host(self, bed):
        proc = self.hosts.get(bed)
        if proc is not None and proc.poll() is not None:
            self.end(proc)          # a host that died: its pipes closed before another starts
            proc = None
        if proc is None:
            env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
            cmd = ["umockdev-run"] + (["-d", bed] if bed else []) + \
                  ["--", sys.executable, os.path.abspath(__file__)]
            proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                    text=True, env=env)
            self.hosts[bed] = proc
        return proc

    def run(self, bed, argv, env, timeout=60):
        proc = self.host(bed)
        try:
            proc.stdin.write(json.dumps({"argv": list(argv), "env": dict(env),
                                         "timeout": timeout}) + "\n")
            proc.stdin.flush()
            line = proc.stdout.readline()
        except BrokenPipeError:
            line = ""
        if not line:
            self.hosts.pop(bed, None)
            raise RuntimeError("umockdev-run for %s ended (exit status %s)" % (bed, self.end(proc)))
        reply = json.loads(line)
        if reply.get("timeout"):
            raise subprocess.TimeoutExpired(argv, timeout)
        return subprocess.CompletedProcess(argv, reply["returncode"], reply["stdout"],
                                           reply["stderr"])

    @staticmethod
    def end(proc):
        """Ends a host (closing its input ends it, and its testbed goes), closes its pipes and
        returns its exit status; also for a host that has died."""
        try:
            proc.stdin.close()
        except BrokenPipeError:
            pass                    # it died with input unread
        status = proc.wait()
        proc.stdout.close()
        return status

    def close(self):
        for proc in self.hosts.values():
            self.end(proc)
        self.hosts.clear()


def serve():
    """The host: runs under umockdev-run, which set UMOCKDEV_DIR and LD_PRELOAD for it."""
    testbed = os.environ["UMOCKDEV_DIR"]
    preload = os.environ.get("LD_PRELOAD", "").strip(":")
    for line in sys.stdin:
        request = json.loads(line)
        env = dict(request["env"])
        env["UMOCKDEV_DIR"] = testbed
        env["LD_PRELOAD"] = ":".join(p for p in (env.get("LD_PRELOAD", ""), preload) if p)
        try:
            r = subprocess.run(request["argv"], env=env, stdin=subprocess.DEVNULL,
                               capture_output=True, text=True, errors="replace",
                               timeout=request["timeout"])
            reply = {"returncode": r.returncode, "stdout": r.stdout, "stderr": r.stderr}
        except subprocess.TimeoutExpired:
            reply = {"timeout": True}
        except OSError as e:
            reply = {"returncode": 127, "stdout": "", "stderr": "%s: %s" % (request["argv"][0], e)}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    serve()
