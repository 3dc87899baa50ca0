"""iostatmon_run: running the iostatmon daemon from tests.

Daemon starts it in the background and collects its stderr; with -v it
prints "iostatmon: sample NS written to FILE" after each record is written,
which written() returns. Notify is an abstract-namespace AF_UNIX datagram
socket collecting sd_notify messages.
"""
import glob
import gzip
import os
import re
import signal
import socket
import subprocess
import threading
import time

from iolog_py import frame_bytes
from pace import limit

BIN = os.path.join(os.environ.get("BUILD", "build"), "iostatmon")
BIN = os.path.abspath(BIN)
WRITTEN = re.compile(r"^iostatmon: sample (\d+) written to ")


class Notify:
    """A datagram socket collecting sd_notify messages: in the abstract
    namespace, or at path. env is the NOTIFY_SOCKET value to give."""

    def __init__(self, path=None):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        if path:
            self.sock.bind(path)
            self.env = path
        else:
            name = "iostatmon-test-%d-%d" % (os.getpid(), id(self))
            self.sock.bind("\0" + name)
            self.env = "@" + name
        self.sock.settimeout(0.2)
        self.msgs = []
        self._stop = False
        self._t = threading.Thread(target=self._run, daemon=True)
        self._t.start()

    def _run(self):
        while not self._stop:
            try:
                self.msgs.append(self.sock.recv(4096).decode())
            except socket.timeout:
                continue
            except OSError:
                break

    def close(self):
        self._stop = True
        self._t.join()
        self.sock.close()

    def keys(self):
        """Every KEY=VALUE line received, in order."""
        return [ln for m in list(self.msgs) for ln in m.split("\n")]


class Daemon:
    """iostatmon running in the background, its stderr collected."""

    def __init__(self, args, env=None, prefix=()):
        e = dict(os.environ)
        e.update(env or {})
        self.p = subprocess.Popen(list(prefix) + [BIN] + args, env=e,
                                  stderr=subprocess.PIPE, text=True)
        self.lines = []
        self._t = threading.Thread(target=self._read, daemon=True)
        self._t.start()

    def _read(self):
        for ln in self.p.stderr:
            self.lines.append(ln.rstrip("\n"))

    def written(self):
        return [int(m.group(1)) for m in map(WRITTEN.match, list(self.lines))
                if m]

    def wait_written(self, n, timeout=30):
        end = time.time() + limit(timeout)
        while len(self.written()) < n and time.time() < end:
            if self.p.poll() is not None:
                break
            time.sleep(0.05)
        return len(self.written()) >= n

    def said(self, text, timeout=20, since=0):
        """Wait until a stderr line (from line `since` on) contains text."""
        return wait_for(lambda: any(text in ln for ln in self.lines[since:]),
                        timeout)

    def stop(self):
        """SIGTERM; the exit status."""
        self.p.send_signal(signal.SIGTERM)
        return self.finish()

    def reap(self):
        """Kill it if it still runs (a test's finally)."""
        if self.p.poll() is None:
            self.p.kill()
            self.finish()

    def finish(self, timeout=30):
        try:
            rc = self.p.wait(timeout=limit(timeout))
        except subprocess.TimeoutExpired:
            self.p.kill()
            rc = self.p.wait()
        self._t.join()
        return rc


def wait_for(pred, timeout=30):
    end = time.time() + limit(timeout)
    while time.time() < end:
        if pred():
            return True
        time.sleep(0.05)
    return False


def common(root, logdir, interval="1"):
    return ["-i", interval, "--all-devices", "--proc", root.proc, "--sys",
            root.sys, "-o", logdir, "--host", "testhost", "-v"]


def gzip_ok(paths):
    return subprocess.run(["gzip", "-t"] + paths,
                          capture_output=True).returncode == 0


def logs(logdir):
    return sorted(glob.glob(os.path.join(logdir, "*.iolog.gz")))


def log_bytes(host, boot="", writer="iostatmon test"):
    """A log as docs/iolog-format.md has it (tests/lib/iolog_py.py): one
    gzip member holding a header frame of host."""
    return gzip.compress(frame_bytes(("H", host.encode(), b"", b"", 64,
                                      60000, boot.encode(), 0,
                                      writer.encode())))


def day_name(host, day):
    """The daemon's file name of host for a UTC day number."""
    return "iostatmon-%s-%s.iolog.gz" % (
        host, time.strftime("%Y%m%d", time.gmtime(day * 86400)))
