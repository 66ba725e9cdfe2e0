#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""glmux tests: a minimal fake X server whose DRI3 extension names a chosen GPU.

Xvfb has no DRI3, so it cannot say which GPU a display runs on; reverse PRIME (X on the discrete
GPU) and a VM whose X runs on virtio-gpu need a display that does. This server speaks just enough
of the X11 protocol for Xlib/xcb clients, glmux's libGLX and glmux's own DRI3 question:

* connection setup (no authorisation), one or more screens of 640x480, depth 24, TrueColor;
* QueryExtension and ListExtensions: "DRI3" (when the screen has a device) and "GLX";
* DRI3 QueryVersion, and DRI3 Open, answered with one file descriptor passed with SCM_RIGHTS: an
  O_PATH descriptor of a character-device node made with mknod with the chosen GPU's device
  number (226:N). umockdev's /dev/dri nodes are pseudo-terminals whose fstat reports another
  number, so the node is made here, in the server's own directory; O_PATH never opens a driver.
  A screen without a device answers DRI3 Open with a BadMatch error, as a remote server would;
* GLX QueryVersion, QueryServerString and QueryExtensionsString: GLX_EXTENSIONS lists
  GLX_EXT_libglvnd, GLX_VENDOR_NAMES_EXT names each screen's vendor (what the X driver would
  say: "mesa" for a Mesa-driven GPU, "nvidia" for NVIDIA's);
* every other core request that has a reply gets a plausible empty one (InternAtom, GetProperty,
  GetInputFocus, GetGeometry, ...); requests without a reply are accepted silently.

It listens on the abstract Unix socket "@/tmp/.X11-unix/X<n>" (where libxcb looks first) for a
free display number n >= 600, never on TCP. Used as a module (FakeX: start, configure, stop, with
a count of connections), or run on its own for a manual check:
    fake_x.py DIR 226:128=mesa [226:0=nvidia ...]   (one screen per argument; "-" = no DRI3)
prints "DISPLAY=:n" and serves until killed.
"""
import os
import selectors
import socket
import struct
import sys
import threading

DRI3_OPCODE, GLX_OPCODE = 128, 129
GLX_VENDOR, GLX_VERSION, GLX_EXTENSIONS, GLX_VENDOR_NAMES_EXT = 1, 2, 3, 0x20F6
BAD_MATCH, BAD_IMPLEMENTATION = 8, 17
ROOT_BASE, COLORMAP, VISUAL = 0x100, 0x20, 0x21

# Core requests that have a reply (X11 protocol, "Requests"); the others get none.
CORE_REPLIES = {3, 14, 15, 16, 17, 20, 21, 23, 26, 31, 38, 39, 40, 43, 44, 47, 48, 49, 52, 73,
                83, 84, 85, 86, 87, 91, 92, 97, 98, 99, 101, 103, 106, 108, 110, 116, 117, 118,
                119}
# GLX requests with a reply that a fake direct-rendering vendor or libGLX may send.
GLX_REPLIES = {5, 6, 7, 14, 17, 18, 19, 21, 25, 26, 29}


def pad(data):
    return data + b"\0" * (-len(data) % 4)


class Screen:
    """What one screen tells: dev is the DRM device number (major, minor) or None, vendor the
    GLX vendor name it reports."""

    def __init__(self, dev, vendor):
        self.dev, self.vendor = dev, vendor


class FakeX:
    def __init__(self, workdir, screens):
        self.workdir = workdir
        self.screens = screens
        self.lock = threading.Lock()
        self.connections = 0
        self.dri3_opens = 0
        self.log = []
        self.sock = None
        self.display = None
        self._stop_r, self._stop_w = os.pipe()
        self._thread = None
        self.mknod_error = None

    # ---- set-up -------------------------------------------------------------------------
    def node(self, dev):
        """An O_PATH descriptor of a character device with number dev, made once."""
        path = os.path.join(self.workdir, "node-%d-%d" % dev)
        if not os.path.exists(path):
            os.mknod(path, 0o600 | 0o020000, os.makedev(*dev))
        return os.open(path, os.O_PATH | os.O_CLOEXEC)

    def can_mknod(self):
        """Whether device nodes can be made here (root with CAP_MKNOD); else why not."""
        try:
            os.close(self.node((226, 255)))
            return True
        except OSError as e:
            self.mknod_error = str(e)
            return False

    def start(self):
        for n in range(600, 700):
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM | socket.SOCK_CLOEXEC)
            try:
                s.bind("\0/tmp/.X11-unix/X%d" % n)
            except OSError:
                s.close()
                continue
            s.listen(16)
            self.sock, self.display = s, ":%d" % n
            break
        if self.sock is None:
            raise RuntimeError("no free display number for the fake X server")
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()
        return self.display

    def configure(self, screens):
        with self.lock:
            self.screens = screens

    def stop(self):
        if self._thread is not None:
            os.write(self._stop_w, b"x")
            self._thread.join(30)
            self._thread = None
        if self.sock is not None:
            self.sock.close()
            self.sock = None
        os.close(self._stop_r)
        os.close(self._stop_w)

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()

    # ---- the server loop ----------------------------------------------------------------
    def _serve(self):
        sel = selectors.DefaultSelector()
        sel.register(self.sock, selectors.EVENT_READ, None)
        sel.register(self._stop_r, selectors.EVENT_READ, "stop")
        clients = {}
        try:
            while True:
                for key, _ in sel.select():
                    if key.data == "stop":
                        return
                    if key.data is None:
                        conn, _ = self.sock.accept()
                        with self.lock:
                            self.connections += 1
                        client = Client(self, conn)
                        clients[conn] = client
                        sel.register(conn, selectors.EVENT_READ, client)
                        continue
                    client = key.data
                    try:
                        data = client.conn.recv(65536)
                    except OSError:
                        data = b""
                    if not data or not client.feed(data):
                        sel.unregister(client.conn)
                        client.conn.close()
                        del clients[client.conn]
        finally:
            for conn in clients:
                conn.close()
            sel.close()


class Client:
    def __init__(self, server, conn):
        self.server, self.conn = server, conn
        self.buf = b""
        self.seq = 0
        self.setup_done = False
        self.atoms = {}

    def send(self, data, fds=()):
        if fds:
            self.conn.sendmsg([data], [(socket.SOL_SOCKET, socket.SCM_RIGHTS,
                                        struct.pack("%di" % len(fds), *fds))])
        else:
            self.conn.sendall(data)

    def feed(self, data):
        self.buf += data
        if not self.setup_done:
            if len(self.buf) < 12:
                return True
            if self.buf[0:1] != b"l":
                return False          # only little-endian clients (every x86/arm Linux)
            n, d = struct.unpack_from("<HH", self.buf, 6)
            need = 12 + len(pad(b"\0" * n)) + len(pad(b"\0" * d))
            if len(self.buf) < need:
                return True
            self.buf = self.buf[need:]
            self.send(self.setup_reply())
            self.setup_done = True
        while len(self.buf) >= 4:
            length = struct.unpack_from("<H", self.buf, 2)[0] * 4
            if length == 0:
                return False          # BIG-REQUESTS is never enabled
            if len(self.buf) < length:
                return True
            req, self.buf = self.buf[:length], self.buf[length:]
            self.seq = (self.seq + 1) & 0xFFFF
            self.request(req)
        return True

    # ---- replies ------------------------------------------------------------------------
    def setup_reply(self):
        with self.server.lock:
            screens = list(self.server.screens)
        vendor = pad(b"glmux tests fake X server")
        formats = struct.pack("<BBB5x", 1, 1, 32) + struct.pack("<BBB5x", 24, 32, 32)
        body = b""
        for i, _ in enumerate(screens):
            visual = struct.pack("<IBBHIII4x", VISUAL, 4, 8, 256, 0xFF0000, 0xFF00, 0xFF)
            depth = struct.pack("<BxH4x", 24, 1) + visual
            body += struct.pack("<IIIIIHHHHHHIBBBB", ROOT_BASE + i, COLORMAP, 0xFFFFFF, 0, 0,
                                640, 480, 169, 127, 1, 1, VISUAL, 0, 0, 24, 1) + depth
        data = struct.pack("<IIIIHHBBBBBBBB4x", 11300000, 0x00400000, 0x001FFFFF, 256,
                           len(b"glmux tests fake X server"), 65535, len(screens), 2, 0, 0,
                           32, 32, 8, 255) + vendor + formats + body
        return struct.pack("<BxHHH", 1, 11, 0, len(data) // 4) + data

    def reply(self, data1=0, body=b"", extra=b"", fds=()):
        """A reply: body fills bytes 8..31, extra follows (padded)."""
        body = body.ljust(24, b"\0")
        extra = pad(extra)
        self.send(struct.pack("<BBHI", 1, data1, self.seq, len(extra) // 4) + body + extra, fds)

    def error(self, code, major, minor, value=0):
        self.send(struct.pack("<BBHIHB21x", 0, code, self.seq, value, minor, major))

    def note(self, text):
        with self.server.lock:
            self.server.log.append(text)

    def request(self, req):
        op = req[0]
        if op == DRI3_OPCODE:
            return self.dri3(req)
        if op == GLX_OPCODE:
            return self.glx(req)
        if op == 98:                                                    # QueryExtension
            n = struct.unpack_from("<H", req, 4)[0]
            name = req[8:8 + n].decode("latin-1")
            with self.server.lock:
                has_dri3 = any(s.dev is not None for s in self.server.screens)
            if name == "DRI3" and has_dri3:
                return self.reply(0, struct.pack("<BBBB", 1, DRI3_OPCODE, 0, 0))
            if name == "GLX":
                return self.reply(0, struct.pack("<BBBB", 1, GLX_OPCODE, 64, 160))
            return self.reply(0, struct.pack("<BBBB", 0, 0, 0, 0))
        if op == 99:                                                    # ListExtensions
            names = b"".join(bytes([len(n)]) + n for n in (b"DRI3", b"GLX"))
            return self.reply(2, b"", names)
        if op == 16:                                                    # InternAtom
            n = struct.unpack_from("<H", req, 4)[0]
            name = req[8:8 + n]
            atom = self.atoms.setdefault(name, 1000 + len(self.atoms))
            return self.reply(0, struct.pack("<I", atom))
        if op == 43:                                                    # GetInputFocus
            return self.reply(1, struct.pack("<I", ROOT_BASE))
        if op == 14:                                                    # GetGeometry
            return self.reply(24, struct.pack("<IhhHHH", ROOT_BASE, 0, 0, 640, 480, 0))
        if op == 3:                                                     # GetWindowAttributes
            return self.reply(0, struct.pack("<IHBBIIBBBBI", VISUAL, 1, 0, 0, 0xFFFFFFFF, 0,
                                             0, 1, 2, 0, COLORMAP), b"\0" * 12)
        if op == 15:                                                    # QueryTree
            return self.reply(0, struct.pack("<IIH", ROOT_BASE, 0, 0))
        if op in CORE_REPLIES:
            return self.reply(0)
        # requests without a reply (CreateWindow, CreateColormap, FreeGC, ...): accepted

    def dri3(self, req):
        minor = req[1]
        if minor == 0:                                                  # DRI3QueryVersion
            return self.reply(0, struct.pack("<II", 1, 2))
        if minor == 1:                                                  # DRI3Open
            drawable = struct.unpack_from("<I", req, 4)[0]
            index = drawable - ROOT_BASE
            with self.server.lock:
                screens = self.server.screens
                dev = screens[index].dev if 0 <= index < len(screens) else None
                self.server.dri3_opens += 1
            self.note("DRI3Open screen %d -> %s" % (index, dev))
            if dev is None:
                return self.error(BAD_MATCH, DRI3_OPCODE, minor, drawable)
            fd = self.server.node(dev)
            try:
                return self.reply(1, b"", b"", [fd])
            finally:
                os.close(fd)
        self.note("DRI3 request %d answered with an error" % minor)
        return self.error(BAD_IMPLEMENTATION, DRI3_OPCODE, minor)

    def glx(self, req):
        minor = req[1]
        if minor == 7:                                                  # QueryVersion
            return self.reply(0, struct.pack("<II", 1, 4))
        if minor in (18, 19):                           # QueryExtensionsString, QueryServerString
            screen = struct.unpack_from("<I", req, 4)[0]
            name = struct.unpack_from("<I", req, 8)[0] if minor == 19 else GLX_EXTENSIONS
            with self.server.lock:
                screens = self.server.screens
                vendor = screens[screen].vendor if screen < len(screens) else ""
            text = {GLX_VENDOR: "glmux tests", GLX_VERSION: "1.4",
                    GLX_EXTENSIONS: "GLX_ARB_create_context GLX_EXT_libglvnd",
                    GLX_VENDOR_NAMES_EXT: vendor}.get(name, "")
            data = text.encode() + b"\0"
            return self.reply(0, struct.pack("<4xI", len(data)), data)
        if minor in GLX_REPLIES:                        # GetFBConfigs etc.: nothing to offer
            self.note("GLX request %d answered empty" % minor)
            return self.reply(0)


def main():
    workdir, specs = sys.argv[1], sys.argv[2:]
    screens = []
    for spec in specs or ["-"]:
        dev, _, vendor = spec.partition("=")
        if dev == "-":
            screens.append(Screen(None, vendor or "mesa"))
        else:
            major, minor = dev.split(":")
            screens.append(Screen((int(major), int(minor)), vendor or "mesa"))
    server = FakeX(workdir, screens)
    server.start()
    print("DISPLAY=%s" % server.display, flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        pass
    server.stop()


if __name__ == "__main__":
    main()
