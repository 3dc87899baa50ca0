#!/usr/bin/env python3
"""iostatmon against another user's links, FIFOs and files.

The daemon runs as root (admins run it so), and uid 65534 (nobody) plants
links and files where it may write: in a sticky world-writable directory
(mode 1777, root's) and in a directory of its own. os.lchown/os.chown make
nobody their owner. Planted at the pidfile, the pidfile's directory, the
lock file (a dangling link), the log directory, today's log (a link to a
root-owned victim, a dangling link, a FIFO, a link to /dev/null) and the
files of `iostatmon import -o DIR`: each victim must keep its bytes, no
link's target may come to exist, and the daemon must say why, as it keeps
sampling into its backlog where a log is refused. Then --retain, which
must delete only what it verifies as this host's logs.

The oracles are the victims' bytes and os.lstat/os.listdir, taken here.
"""
import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
from tap import ok, eq, done, skip  # noqa: E402
from pace import limit  # noqa: E402
import fakeproc  # noqa: E402
from iostatmon_run import (BIN, Daemon, common, day_name, log_bytes,  # noqa
                           logs, wait_for)

NOBODY = 65534
VICTIM = b"root's file: must not change\n"


class Scene:
    """A temporary tree: victims/ of root's, and arenas nobody plants in."""

    def __init__(self, tmp):
        self.tmp = tmp
        self.victims = os.path.join(tmp, "victims")
        os.makedirs(self.victims)
        self.n = 0
        self.root = fakeproc.FakeRoot(os.path.join(tmp, "fake"), 0.2)
        self.root.publish(5)

    def arena(self, kind):
        """A fresh directory nobody may plant in: "sticky" (1777, root's)
        or "theirs" (nobody's own, 0755)."""
        self.n += 1
        d = os.path.join(self.tmp, "%s%d" % (kind, self.n))
        os.makedirs(d)
        if kind == "sticky":
            os.chmod(d, 0o1777)
        else:
            os.chown(d, NOBODY, NOBODY)
            os.chmod(d, 0o755)
        return d

    def victim(self, name, data=VICTIM):
        """A root-owned file (0644) with known bytes."""
        path = os.path.join(self.victims, name)
        with open(path, "wb") as f:
            f.write(data)
        os.chmod(path, 0o644)
        return path

    def absent(self, name):
        """A path in victims/ that must never come to exist."""
        return os.path.join(self.victims, name)


def link(path, target):
    """nobody's symbolic link at path."""
    os.symlink(target, path)
    os.lchown(path, NOBODY, NOBODY)


def rm(path):
    """Remove what a step left, whatever the daemon made of it."""
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


def text(path):
    """The file's text, or None."""
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return None


def fifo(path):
    os.mkfifo(path, 0o666)
    os.chown(path, NOBODY, NOBODY)


def intact(path, data=VICTIM):
    """The victim still holds its bytes, as a regular file."""
    try:
        st = os.lstat(path)
        with open(path, "rb") as f:
            return stat.S_ISREG(st.st_mode) and f.read() == data
    except OSError:
        return False


def run(args, timeout=60):
    """iostatmon ARGS to the end: (status, stderr)."""
    try:
        p = subprocess.run([BIN] + args, capture_output=True, text=True,
                           timeout=limit(timeout))
        return p.returncode, p.stderr
    except subprocess.TimeoutExpired as e:
        return None, "timed out after %ds: %s" % (timeout, e.stderr)


def daemon_args(sc, logdir, count="1"):
    return common(sc.root, logdir, "0.2") + ["-c", count]


def said(err, *parts):
    """Does one stderr line hold every part?"""
    return any(all(p in ln for p in parts) for ln in err.splitlines())


def today_names():
    """Today's log name, and tomorrow's in case the run crosses midnight."""
    day = int(time.time()) // 86400
    return [day_name("testhost", day), day_name("testhost", day + 1)]


def dir_link_refused(sc, kind, what, name, args):
    """nobody's link ARENA/name to root's victims/, given to iostatmon as
    args(link): exit 3, said whose, nothing made in victims/. The link."""
    path = os.path.join(sc.arena(kind), name)
    before = sorted(os.listdir(sc.victims))
    link(path, sc.victims)
    rc, err = run(args(path))
    eq(rc, 3, "%s: %s nobody's link: exit 3" % (kind, what))
    ok(said(err, name + ": a symbolic link owned by uid 65534"),
       "%s: %s a link: says whose" % (kind, what), err)
    eq(sorted(os.listdir(sc.victims)), before,
       "%s: %s a link: nothing made in its target" % (kind, what))
    return path


def test_pidfile(sc):
    for kind in ("sticky", "theirs"):
        a = sc.arena(kind)
        pid = os.path.join(a, "iostatmon.pid")
        v = sc.victim("pid-%s" % kind)
        link(pid, v)
        logdir = os.path.join(sc.tmp, "logs-pid-%s" % kind)
        rc, err = run(daemon_args(sc, logdir) + ["--pidfile", pid])
        eq(rc, 3, "%s: pidfile a link to root's file: exit 3" % kind)
        ok(said(err, "--pidfile " + pid, "symbolic link"),
           "%s: pidfile a link: the daemon says why" % kind, err)
        ok(intact(v), "%s: pidfile a link: the victim unchanged" % kind)
        ok(os.path.islink(pid) and os.readlink(pid) == v,
           "%s: pidfile a link: the link left as it was" % kind)
        eq(sorted(f for f in os.listdir(a)), ["iostatmon.pid"],
           "%s: pidfile a link: no temporary left beside it" % kind)

        rm(pid)
        gone = sc.absent("pid-dangling-%s" % kind)
        link(pid, gone)
        rc, err = run(daemon_args(sc, logdir) + ["--pidfile", pid])
        ok(rc == 3 and not os.path.lexists(gone),
           "%s: pidfile a dangling link: exit 3, its target not created"
           % kind, err)

        inside = sc.victim("iostatmon.pid")
        dir_link_refused(sc, kind, "pidfile's directory", "run",
                         lambda d: daemon_args(sc, logdir) + [
                             "--pidfile", d + "/iostatmon.pid"])
        ok(intact(inside), "%s: pidfile's directory a link: root's "
           "iostatmon.pid there unchanged" % kind)
        rm(inside)


def test_pidfile_mode_and_removal(sc):
    """0644 less the umask whatever the umask; removed at exit only while
    it holds this daemon's pid."""
    a = sc.arena("sticky")
    pid = os.path.join(a, "iostatmon.pid")
    logdir = os.path.join(sc.tmp, "logs-pidmode")
    d = Daemon(common(sc.root, logdir, "0.2") + ["--pidfile", pid],
               prefix=["sh", "-c", 'umask 0; exec "$@"', "sh"])
    try:
        ok(wait_for(lambda: os.path.exists(pid)), "pidfile written")
        mode = os.lstat(pid).st_mode if os.path.lexists(pid) else 0
        eq(oct(mode & 0o7777), oct(0o644),
           "pidfile: 0644 under umask 0, never writable by others")
        eq(text(pid), "%d\n" % d.p.pid, "pidfile holds the pid")
        logm = [os.lstat(f).st_mode & 0o7777 for f in logs(logdir)]
        eq([oct(m) for m in logm], [oct(0o644)],
           "a log under umask 0: 0644 (0644 less the umask)")
        with open(pid, "w") as f:
            f.write("1\n")
        eq(d.stop(), 0, "pidfile replaced: the daemon stops normally")
    finally:
        d.reap()
    eq(text(pid), "1\n", "a pidfile that holds another pid is left")
    ok(any("no longer holds this process's id" in ln for ln in d.lines),
       "and the daemon says why", "\n".join(d.lines[-3:]))


def test_lock(sc):
    for kind in ("sticky", "theirs"):
        a = sc.arena(kind)
        gone = sc.absent("lock-target-%s" % kind)
        lock = os.path.join(a, ".iostatmon-testhost.lock")
        link(lock, gone)
        rc, err = run(daemon_args(sc, a))
        eq(rc, 3, "%s: lock file a dangling link: exit 3" % kind)
        ok(said(err, lock, "symbolic link"),
           "%s: lock file a link: the daemon says why" % kind, err)
        ok(not os.path.lexists(gone),
           "%s: lock file a dangling link: its target not created" % kind)
        eq(logs(a), [], "%s: lock file refused: no log written" % kind)

        b = sc.arena(kind)
        lock = os.path.join(b, ".iostatmon-testhost.lock")
        fifo(lock)
        rc, err = run(daemon_args(sc, b), timeout=30)
        ok(rc == 3 and said(err, lock, "is a FIFO"),
           "%s: lock file a FIFO: exit 3, said, not waited on" % kind, err)


def test_logdir(sc):
    for kind in ("sticky", "theirs"):
        logdir = dir_link_refused(sc, kind, "log directory", "logs",
                                  lambda d: daemon_args(sc, d))
        gone = sc.absent("logdir-%s" % kind)
        rm(logdir)
        link(logdir, gone)
        rc, err = run(daemon_args(sc, logdir))
        ok(rc == 3 and not os.path.lexists(gone),
           "%s: log directory a dangling link: exit 3, its target not made"
           % kind, err)


def log_refused(sc, kind, what, plant, reason):
    """A log name planted (plant(path) for each of today's names): the
    daemon samples into its backlog, says why, and loses the samples."""
    a = sc.arena(kind)
    for name in today_names():
        plant(os.path.join(a, name))
    d = Daemon(daemon_args(sc, a, "2"))
    rc = d.finish(timeout=60)
    err = "\n".join(d.lines)
    eq(rc, 1, "%s: today's log %s: runs to -c 2, exit 1 (samples kept "
       "nowhere)" % (kind, what))
    ok(said(err, today_names()[0], reason, "sampling goes on"),
       "%s: today's log %s: the daemon says why" % (kind, what), err)
    held = [ln for ln in d.lines if " held for " in ln]
    ok(len(held) >= 2, "%s: today's log %s: the samples wait in memory"
       % (kind, what), err)
    eq(sum(reason in ln for ln in d.lines), 1,
       "%s: today's log %s: said once" % (kind, what))
    return a


def test_log_file(sc):
    for kind in ("sticky", "theirs"):
        v = sc.victim("log-victim-%s" % kind)
        log_refused(sc, kind, "a link to root's file",
                    lambda p: link(p, v), "is a symbolic link")
        ok(intact(v), "%s: log a link: the victim unchanged" % kind)

        # an empty file cannot say it is no log: it must not become one
        e = sc.victim("log-empty-victim-%s" % kind, b"")
        log_refused(sc, kind, "a link to root's empty file",
                    lambda p: link(p, e), "is a symbolic link")
        ok(intact(e, b""), "%s: log a link: the empty victim still empty"
           % kind)

        gone = sc.absent("log-dangling-%s" % kind)
        log_refused(sc, kind, "a dangling link", lambda p: link(p, gone),
                    "is a symbolic link")
        ok(not os.path.lexists(gone),
           "%s: log a dangling link: its target not created" % kind)

        a = log_refused(sc, kind, "a FIFO", fifo, "is a FIFO")
        ok(stat.S_ISFIFO(os.lstat(os.path.join(a, today_names()[0]))
                         .st_mode), "%s: log a FIFO: left as it was" % kind)

        null = os.stat("/dev/null")
        log_refused(sc, kind, "a link to /dev/null",
                    lambda p: link(p, "/dev/null"), "is a symbolic link")
        st = os.stat("/dev/null")
        ok(stat.S_ISCHR(st.st_mode) and st.st_rdev == null.st_rdev and
           st.st_mode == null.st_mode,
           "%s: log a link to /dev/null: the device untouched" % kind)


def test_log_recovers(sc):
    """A link planted at today's log: refused; once it is removed the
    samples that waited reach a new log, every one of them."""
    a = sc.arena("theirs")
    v = sc.victim("log-victim-recover")
    name = today_names()[0]
    link(os.path.join(a, name), v)
    root = fakeproc.FakeRoot(os.path.join(sc.tmp, "fake-moving"), 0.2)
    root.start()
    d = Daemon(common(root, a, "0.2"))
    try:
        ok(wait_for(lambda: len([ln for ln in d.lines
                                 if " held for " in ln]) >= 3, 30),
           "recovery: samples wait while the link is there")
        rm(os.path.join(a, name))
        ok(d.said("writing to a new log"), "recovery: a new log once the "
           "link is gone")
        n = len(d.written())
        ok(d.wait_written(n + 2), "recovery: sampling goes on into it")
        eq(d.stop(), 0, "recovery: SIGTERM exits 0, nothing lost")
    finally:
        d.reap()
        root.stop()
    ok(intact(v), "recovery: the victim unchanged")
    rows, err, st = fakeproc.dump(BIN, logs(a))
    n, problems = fakeproc.check_rows(rows)
    eq(problems, [], "recovery: every delta right")
    reported = sorted(int(ln.split()[2]) for ln in d.lines
                      if ln.startswith("iostatmon: sample ") and
                      (" written to " in ln or " held for " in ln))
    got = sorted({fakeproc.t_ns(r["t"]) for r in rows})
    eq(got, reported[1:], "recovery: the samples that waited are in the log")


def raw_capture(sc):
    path = os.path.join(sc.tmp, "capture.raw")
    with open(path, "w") as f:
        for k in range(3):
            f.write("T %d\n" % (1795219200 + 60 * k))
            f.write("".join(fakeproc.line(i, k + 1) for i in range(4)))
    return path


def test_import(sc):
    raw = raw_capture(sc)
    name = "iostatmon-testhost-20261121.iolog.gz"   # day of T 1795219200
    imp = ["import", raw, "--host", "testhost", "--all-devices"]
    for kind in ("sticky", "theirs"):
        a = os.path.dirname(dir_link_refused(sc, kind, "import -o", "imp",
                                             lambda d: imp + ["-o", d]))
        v = sc.victim("import-victim-%s" % kind)
        link(os.path.join(a, name), v)
        rc, err = run(imp + ["-o", a])
        ok(rc == 3 and said(err, name, "symbolic link"),
           "%s: import, its log a link: exit 3, said" % kind, err)
        ok(intact(v), "%s: import, its log a link: the victim unchanged"
           % kind)

        b = sc.arena(kind)
        gone = sc.absent("import-dangling-%s" % kind)
        link(os.path.join(b, name), gone)
        rc, err = run(imp + ["-o", b])
        ok(rc == 3 and not os.path.lexists(gone),
           "%s: import, its log a dangling link: exit 3, target not made"
           % kind, err)

        c = sc.arena(kind)
        fifo(os.path.join(c, name))
        rc, err = run(imp + ["-o", c], timeout=30)
        ok(rc == 3 and said(err, name, "is a FIFO"),
           "%s: import, its log a FIFO: exit 3, said, not waited on" % kind,
           err)

        out = os.path.join(c, "one.iolog.gz")
        link(out, v)
        rc, err = run(imp + ["--out", out])
        ok(rc == 3 and intact(v),
           "%s: import --out a link: exit 3, the victim unchanged" % kind,
           err)

    good = os.path.join(sc.arena("sticky"), "new", "deeper")
    rc, err = run(imp + ["-o", good])
    ok(rc == 0 and os.path.isfile(os.path.join(good, name)),
       "import -o a new directory: made, the log in it", err)

    # --ident names a file another user planted: a FIFO must not hold the
    # import up, a device must not fill memory; the capture is imported.
    d = sc.arena("sticky")
    fifo(os.path.join(d, "ident"))
    for what, ident in (("a FIFO", os.path.join(d, "ident")),
                        ("/dev/zero", "/dev/zero")):
        out = os.path.join(sc.arena("sticky"), "ident.iolog.gz")
        rc, err = run(imp + ["--out", out, "--ident", ident], timeout=30)
        ok(rc == 1 and said(err, ident, "not a regular file") and
           os.path.isfile(out), "import --ident %s: not waited on nor read,"
           " said, the capture imported (exit 1)" % what, err)


def test_retain(sc):
    a = sc.arena("sticky")
    today = int(time.time()) // 86400
    elsewhere = os.path.join(sc.tmp, "elsewhere")
    os.makedirs(elsewhere)
    target = os.path.join(elsewhere, "real.iolog.gz")
    real = log_bytes("testhost")
    with open(target, "wb") as f:
        f.write(real)
    files = {
        "real": day_name("testhost", today - 40),
        "keep": day_name("testhost", today - 41),
        "link": day_name("testhost", today - 42),
        "other": day_name("testhost", today - 43),
        "fifo": day_name("testhost", today - 44),
        "recent": day_name("testhost", today - 5),
    }
    for key, data in (("real", real), ("keep", b"keep"),
                      ("other", log_bytes("otherhost")),
                      ("recent", real)):
        path = os.path.join(a, files[key])
        with open(path, "wb") as f:
            f.write(data)
        os.chown(path, NOBODY, NOBODY)
    link(os.path.join(a, files["link"]), target)
    fifo(os.path.join(a, files["fifo"]))
    before = {k: os.lstat(os.path.join(a, f)) for k, f in files.items()}
    rc, err = run(daemon_args(sc, a, "2") + ["--retain", "31"], timeout=60)
    eq(rc, 0, "retain: runs to the end, not held by a FIFO")
    left = set(os.listdir(a))
    ok(files["real"] not in left, "retain: an old real log of this host "
       "deleted")
    for key, what in (("keep", "a file holding \"keep\""),
                      ("link", "a link to a real log"),
                      ("other", "a real log of another host"),
                      ("fifo", "a FIFO"), ("recent", "a recent log")):
        path = os.path.join(a, files[key])
        try:
            st = os.lstat(path)
            same = (st.st_ino, st.st_mode, st.st_size, st.st_mtime_ns) == (
                before[key].st_ino, before[key].st_mode, before[key].st_size,
                before[key].st_mtime_ns)
        except OSError:
            same = False
        ok(same, "retain: %s named like an old log: kept as it was" % what)
    with open(target, "rb") as f:
        ok(f.read() == real, "retain: the link's target intact")
    ok(said(err, a, "4 expired files named like this host's logs left "
            "alone"), "retain: what is left alone is said", err)
    eq(sum("left alone" in ln for ln in err.splitlines()), 1,
       "retain: said once")


def main():
    if os.geteuid() != 0:
        skip("t_attack_iostatmon: every attack", "it plants files as uid"
             " 65534 with chown and runs the daemon as root", needs="root")
        done()
    tmp = tempfile.mkdtemp(prefix="t_attack_iostatmon.")
    os.chmod(tmp, 0o755)
    sc = Scene(tmp)
    try:
        test_pidfile(sc)
        test_pidfile_mode_and_removal(sc)
        test_lock(sc)
        test_logdir(sc)
        test_log_file(sc)
        test_log_recovers(sc)
        test_import(sc)
        test_retain(sc)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    done()


if __name__ == "__main__":
    main()
