#!/usr/bin/env python3
"""iostatmon daemon behaviour on a fake --proc/--sys whose diskstats a
thread rewrites every interval (tests/lib/fakeproc.py).

Checks: every decoded delta equals the one computed here from the
fixture's counters (32-bit ms wraps included); sd_notify messages on an
abstract AF_UNIX datagram socket (READY, STATUS, WATCHDOG, RELOADING,
STOPPING); the pidfile; SIGHUP reopening without losing an interval;
devices leaving and coming back; retention (of this host's real logs:
tests/t_attack_iostatmon.py tries the rest); usage and fatal exit codes;
running unprivileged; a full disk (ENOSPC on a small tmpfs, when root);
a restart on a full disk after a kill (the torn tail repaired in place,
never copied); an empty or foreign diskstats; today's log deleted, its directory removed, or not
recreatable for a while (a new log, nothing reported written lost); no
device sampled: a warning on stderr at the start and after each SIGHUP,
once each, and `iocensus ingest` says the log holds no samples (on stderr
and in the sources table).
"""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
from tap import ok, eq, done, skip  # noqa: E402
from pace import limit  # noqa: E402
import fakeproc  # noqa: E402
from iostatmon_run import (BIN, Daemon, Notify, wait_for, common,  # noqa
                           gzip_ok, logs, log_bytes, day_name)


def test_count_notify_pidfile(tmp):
    root = fakeproc.FakeRoot(os.path.join(tmp, "r1"), 1.0)
    root.start()
    logdir = os.path.join(tmp, "log1")
    pidfile = os.path.join(tmp, "iostatmon.pid")
    nt = Notify()
    d = Daemon(common(root, logdir) + ["-c", "3", "--pidfile", pidfile],
               env={"NOTIFY_SOCKET": nt.env,
                    "WATCHDOG_USEC": "4000000"})
    ok(d.wait_written(1), "count: first sample written")
    second = subprocess.run([BIN] + common(root, logdir) + ["-c", "1"],
                            capture_output=True, text=True, timeout=limit(30))
    ok(second.returncode == 3 and "another iostatmon" in second.stderr,
       "a second daemon for the same host and directory exits 3",
       "%d %s" % (second.returncode, second.stderr.strip()))
    try:
        with open(pidfile) as f:
            eq(f.read().strip(), str(d.p.pid), "pidfile holds the pid")
    except OSError as e:
        ok(False, "pidfile holds the pid", str(e))
    rc = d.finish()
    root.stop()
    eq(rc, 0, "count: exit 0 after -c 3")
    ok(not os.path.exists(pidfile), "pidfile removed at exit")
    ok(wait_for(lambda: "STOPPING=1" in nt.keys(), 5), "notify: STOPPING=1")
    nt.close()
    keys = nt.keys()
    ok("READY=1" in keys, "notify: READY=1", repr(keys[:5]))
    status = [k for k in keys if k.startswith("STATUS=")]
    ok(any(re.match(r"STATUS=sampling 4 of 4 devices, last sample "
                    r"\d\d:\d\d:\d\d", s) for s in status),
       "notify: STATUS with device counts", repr(status[:3]))
    ok("WATCHDOG=1" in keys, "notify: WATCHDOG=1 with WATCHDOG_USEC set")
    ok(keys and keys[-1] == "STOPPING=1", "notify: STOPPING=1 last",
       repr(keys[-3:]))
    files = logs(logdir)
    ok(files and all(re.search(r"/iostatmon-testhost-\d{8}\.iolog\.gz$", f)
                     for f in files), "log named iostatmon-HOST-YYYYMMDD",
       repr(files))
    ok(gzip_ok(files), "log is a complete gzip file (gzip -t)")
    rows, err, st = fakeproc.dump(BIN, files)
    eq(st, 0, "dump exits 0")
    n, problems = fakeproc.check_rows(rows)
    eq(problems, [], "count: every delta equals the fixture's")
    eq(n, 3 * 4, "count: 3 intervals x 4 devices")
    want_t = d.written()[1:]
    got_t = sorted({fakeproc.t_ns(r["t"]) for r in rows})
    eq(got_t, want_t, "count: one interval per sample after the first")


def test_hup_and_churn(tmp):
    root = fakeproc.FakeRoot(os.path.join(tmp, "r2"), 1.0)
    root.start()
    logdir = os.path.join(tmp, "log2")
    nt = Notify(os.path.join(tmp, "notify.sock"))     # a path this time
    d = Daemon(common(root, logdir), env={"NOTIFY_SOCKET": nt.env})
    ok(d.wait_written(2), "hup: two samples")
    root.set_devices([0, 1, 2])              # sdc1 goes away
    ok(d.wait_written(4), "hup: samples after a device left")
    d.p.send_signal(signal.SIGHUP)
    ok(wait_for(lambda: "RELOADING=1" in nt.keys()), "notify: RELOADING=1")
    ok(wait_for(lambda: any(k.startswith("MONOTONIC_USEC=")
                            for k in nt.keys())), "notify: MONOTONIC_USEC")
    ok(wait_for(lambda: nt.keys().count("READY=1") >= 2),
       "notify: READY=1 again after the reload")
    n_before = len(d.written())
    ok(d.wait_written(n_before + 2), "hup: samples after SIGHUP")
    root.set_devices([0, 1, 2, 3])           # and comes back
    ok(d.wait_written(len(d.written()) + 3), "hup: samples after re-add")
    d.p.send_signal(signal.SIGTERM)
    rc = d.finish()
    root.stop()
    eq(rc, 0, "SIGTERM: exit 0")
    ok(wait_for(lambda: "STOPPING=1" in nt.keys(), 5),
       "notify: STOPPING=1 on SIGTERM")
    nt.close()
    files = logs(logdir)
    ok(gzip_ok(files), "after SIGHUP: gzip -t passes (two members)")
    rows, err, st = fakeproc.dump(BIN, files)
    n, problems = fakeproc.check_rows(rows)
    eq(problems, [], "hup: every delta equals the fixture's")
    sda_t = sorted(fakeproc.t_ns(r["t"]) for r in rows
                   if r["device"] == "sda")
    eq(sda_t, d.written()[1:], "hup: no interval lost across SIGHUP")
    sdc1 = [r for r in rows if r["device"] == "sdc1"]
    ok(0 < len(sdc1) < len(sda_t) - 2,
       "hup: sdc1 has no interval while gone or when it came back",
       "%d of %d" % (len(sdc1), len(sda_t)))
    ok(any("SIGHUP" in ln for ln in d.lines), "hup: reload logged")


def test_retention(tmp):
    root = fakeproc.FakeRoot(os.path.join(tmp, "r3"), 1.0)
    root.publish(5)
    logdir = os.path.join(tmp, "log3")
    os.makedirs(logdir)
    today = int(time.time()) // 86400
    old = day_name("testhost", today - 40)
    kept = [day_name("testhost", today - 20), day_name("otherhost", today - 40),
            "iostatmon-testhost-2000011.iolog.gz", "notes.txt"]
    for f in [old] + kept:
        with open(os.path.join(logdir, f), "wb") as fh:
            fh.write(log_bytes("otherhost" if "other" in f else "testhost"))
    d = Daemon(common(root, logdir) + ["-c", "1", "--retain", "31"])
    eq(d.finish(), 0, "retention: run exits 0")
    left = set(os.listdir(logdir))
    ok(old not in left, "retention: this host's log of 40 days ago deleted")
    eq(sorted(k for k in kept if k in left), sorted(kept),
       "retention: other hosts, recent days and other names kept")
    ok(any("deleted 1 log file older than 31 days" in ln for ln in d.lines),
       "retention: the deletion is said", "\n".join(d.lines[-5:]))


def test_restart_flags(tmp):
    """The first keyframe of a run says the daemon had been stopped (gap)
    and, when boot_id changed, that the machine rebooted."""
    root = fakeproc.FakeRoot(os.path.join(tmp, "r7"), 1.0)
    root.publish(7)
    logdir = os.path.join(tmp, "log7")
    for boot in ("0f0e0d0c-0b0a-4009-8807-060504030201",) * 2 + (
            "11111111-2222-4333-8444-555555555555",):
        root.set_boot_id(boot)
        d = Daemon(common(root, logdir) + ["-c", "1"])
        eq(d.finish(), 0, "restart: run exits 0")
    files = logs(logdir)
    try:
        frames = [f for p in files for f in fakeproc.frame_clocks(p)]
    except (ValueError, OSError) as e:
        ok(False, "restart: log decodes", str(e))
        return
    firsts = [f[4] for f in frames if f[1] == "K" and f[2] == 0]
    eq(firsts, [0, 2, 2 | 16], "restart: first keyframes flagged: none, "
       "gap, gap + new boot")


def test_usage(tmp):
    for args, want, what in [
            (["-i", "0.05"], 2, "interval below 0.1 s"),
            (["-i", "abc"], 2, "interval not a number"),
            (["-i", "1.0005"], 2, "interval not whole ms"),
            (["-c", "-1"], 2, "negative count"),
            (["-c", "0", "-o", os.path.join(tmp, "log0")], 2,
             "count 0 (it would never stop)"),
            (["--bogus"], 2, "unknown option"),
            (["extra"], 2, "stray argument"),
            (["--proc", os.path.join(tmp, "nonexistent"), "-o",
              os.path.join(tmp, "log4"), "-c", "1"], 3, "missing --proc")]:
        try:
            p = subprocess.run([BIN] + args, capture_output=True, text=True,
                               timeout=limit(30))
        except subprocess.TimeoutExpired as e:
            p = subprocess.CompletedProcess(args, None, "", str(e))
        eq(p.returncode, want, "exit %d: %s" % (want, what))
        if args[:2] == ["-c", "0"]:
            ok(p.stderr.startswith("iostatmon: --count 0: "),
               "count 0: the message says why", p.stderr)
        if want == 3:
            ok("nonexistent/diskstats" in p.stderr and
               "No such file" in p.stderr,
               "fatal message names the file and errno", p.stderr)
    for cmd, prefix in (([], "iostatmon: "),
                        (["devices"], "iostatmon devices: "),
                        (["dump"], "iostatmon dump: "),
                        (["import"], "iostatmon import: ")):
        p = subprocess.run([BIN] + cmd + ["--bogus"], capture_output=True,
                           text=True, timeout=limit(30))
        ok(os.path.isabs(BIN) and p.returncode == 2 and
           p.stderr.startswith(prefix + "unknown option '--bogus'"),
           "a message of %s starts with %r, not the binary's path" % (
               " ".join(["iostatmon"] + cmd), prefix), p.stderr)
    p = subprocess.run([BIN, "--version"], capture_output=True, text=True)
    ok(p.returncode == 0 and p.stdout.startswith("iostatmon "),
       "--version", p.stdout)
    p = subprocess.run([BIN, "--help"], capture_output=True, text=True)
    ok(p.returncode == 0 and "--interval" in p.stdout, "--help")


def test_diskstats_unusable(tmp):
    """An empty diskstats, or one with no diskstats line, at start-up: a
    fatal error that says so. While running: said once, those samples
    missing, the next flagged as a gap, sampling on when it is good again."""
    root = fakeproc.FakeRoot(os.path.join(tmp, "r9"), 0.2)
    for text, what in (("", "empty"), ("garbage\n", "not a diskstats file")):
        root._write("proc/diskstats", text)
        p = subprocess.run([BIN] + common(root, os.path.join(tmp, "log9"),
                                          "0.2") + ["-c", "1"],
                           capture_output=True, text=True, timeout=limit(30))
        eq(p.returncode, 3, "%s diskstats at start-up: exit 3" % what)
        ok("r9/proc/diskstats: " + what in p.stderr,
           "%s diskstats at start-up: said, naming the file" % what,
           p.stderr)
    root.publish(10)
    logdir = os.path.join(tmp, "log10")
    d = Daemon(common(root, logdir, "0.2"))
    try:
        ok(d.wait_written(2), "diskstats goes bad: sampling first")
        root._write("proc/diskstats", "garbage\n")
        ok(d.said("not a diskstats file"), "diskstats goes bad: said")
        time.sleep(0.6)
        root.publish(11)
        ok(d.said("readable again"), "diskstats good again: said")
        n = len(d.written())
        ok(d.wait_written(n + 2), "diskstats good again: sampling goes on")
        eq(d.stop(), 0, "diskstats bad for a while: exit 0")
    finally:
        d.reap()
    eq(sum("not a diskstats file" in ln for ln in d.lines), 1,
       "diskstats bad for a while: said once")
    frames = [f for p in logs(logdir) for f in fakeproc.frame_clocks(p)]
    ok(any(f[1] == "S" and f[4] & 2 for f in frames),
       "the sample after the bad reads is flagged as a gap")


def test_unprivileged(tmp):
    if os.geteuid() != 0 or not shutil.which("setpriv"):
        skip("unprivileged run", "nobody's run is made with setpriv, as root",
             needs="root" if os.geteuid() else "setpriv")
        return
    root = fakeproc.FakeRoot(os.path.join(tmp, "r5"), 1.0)
    root.start()
    logdir = os.path.join(tmp, "log5")
    os.makedirs(logdir)
    os.chown(logdir, 65534, 65534)
    d = Daemon(common(root, logdir) + ["-c", "2"],
               prefix=["setpriv", "--reuid=65534", "--regid=65534",
                       "--clear-groups", "--inh-caps=-all"])
    rc = d.finish()
    root.stop()
    eq(rc, 0, "unprivileged (nobody, no capabilities): exit 0")
    files = logs(logdir)
    ok(files and os.stat(files[0]).st_uid == 65534,
       "unprivileged: log written by nobody")
    rows, err, st = fakeproc.dump(BIN, files)
    n, problems = fakeproc.check_rows(rows)
    ok(n == 8 and not problems, "unprivileged: 2 intervals decode right",
       "%d rows; %s" % (n, problems[:3]))


SAMPLE = re.compile(r"^iostatmon: sample (\d+) (written to|held for) ")


def on_small_tmpfs(tmp, name, size, what, run):
    """run(tmp, mnt) on a tmpfs of size mounted at tmp/name (as root)."""
    mnt = os.path.join(tmp, name)
    os.makedirs(mnt)
    if os.geteuid() != 0:
        skip(what, "mounting a small tmpfs needs root", needs="root")
        return
    p = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=" + size,
                        "tmpfs", mnt], capture_output=True, text=True)
    if p.returncode != 0:
        skip(what, "mount tmpfs: %s" % p.stderr.strip())
        return
    try:
        run(tmp, mnt)
    finally:
        if subprocess.run(["umount", mnt], capture_output=True).returncode:
            subprocess.run(["umount", "-l", mnt], capture_output=True)


def fill(mnt):
    """Fill the file system of mnt; the filler's path."""
    filler = os.path.join(mnt, "filler")
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o644)
    try:
        while os.write(fd, b"\0" * 4096) > 0:
            pass
    except OSError:
        pass
    os.close(fd)
    return filler


def test_disk_full(tmp):
    """ENOSPC on a small tmpfs: sampling goes on, one report per episode,
    the backlog reaches the file when space comes back."""
    on_small_tmpfs(tmp, "small", "64k", "disk full", disk_full)


def disk_full(tmp, mnt):
    root = fakeproc.FakeRoot(os.path.join(tmp, "r6"), 0.2)
    root.start()
    logdir = os.path.join(mnt, "log")
    d = Daemon(common(root, logdir, "0.2"))
    try:
        ok(d.wait_written(2), "disk full: sampling")
        filler = fill(mnt)
        full = lambda: any("No space left" in ln for ln in d.lines)  # noqa
        ok(wait_for(full, 40), "disk full: ENOSPC reported")
        n = len(d.lines)
        ok(wait_for(lambda: len([ln for ln in d.lines[n:]
                                 if SAMPLE.match(ln)]) >= 3, 20),
           "disk full: sampling goes on")
        os.unlink(filler)
        again = lambda: any("writing again" in ln for ln in d.lines)  # noqa
        ok(wait_for(again, 20), "disk full: recovery reported")
        d.p.send_signal(signal.SIGTERM)
        eq(d.finish(), 0, "disk full: SIGTERM exits 0")
    finally:
        if d.p.poll() is None:
            d.p.kill()
            d.finish()
        root.stop()
    eq(sum("No space left" in ln for ln in d.lines), 1,
       "disk full: reported once per episode")
    samples = [int(m.group(1)) for m in map(SAMPLE.match, d.lines) if m]
    ok(any(m and m.group(2) == "held for"
           for m in map(SAMPLE.match, d.lines)),
       "disk full: some samples were held in memory")
    rows, err, st = fakeproc.dump(BIN, logs(logdir))
    n, problems = fakeproc.check_rows(rows)
    eq(problems, [], "disk full: every delta right")
    sda_t = sorted(fakeproc.t_ns(r["t"]) for r in rows
                   if r["device"] == "sda")
    eq(sda_t, samples[1:], "disk full: no sample lost")


def after(d, pattern):
    """Samples the daemon reported (written or held) after its first
    stderr line containing pattern, and whether there was one."""
    idx = next((i for i, ln in enumerate(d.lines) if pattern in ln), None)
    if idx is None:
        return False, []
    return True, [int(m.group(1)) for m in map(SAMPLE.match,
                                               d.lines[idx + 1:]) if m]


def deleted_run(tmp, name, remove, restore=None, notify=None):
    """Run the daemon, remove its log (remove(logdir)), let it sample on
    (restore(logdir, daemon) then, when given), stop it. Returns (daemon, exit
    status, log dir)."""
    root = fakeproc.FakeRoot(os.path.join(tmp, "r-" + name), 0.2)
    root.start()
    logdir = os.path.join(tmp, name, "log")
    os.makedirs(logdir)
    env = {"NOTIFY_SOCKET": notify.env} if notify else None
    d = Daemon(common(root, logdir, "0.2"), env=env)
    try:
        ok(d.wait_written(3), "%s: sampling" % name)
        remove(logdir)
        ok(d.said(" was deleted while open"),
           "%s: the deletion is noticed and said" % name,
           "\n".join(d.lines[-5:]))
        n = len(d.lines)
        ok(wait_for(lambda: len([ln for ln in d.lines[n:]
                                 if SAMPLE.match(ln)]) >= 4, 20),
           "%s: sampling goes on" % name)
        if restore:
            restore(logdir, d)
            ok(d.said("writing to a new log", since=n),
               "%s: a new log once the directory can be made" % name)
            m = len(d.lines)
            wait_for(lambda: len([ln for ln in d.lines[m:]
                                  if SAMPLE.match(ln)]) >= 2, 20)
        rc = d.stop()
    finally:
        d.reap()
        root.stop()
    return d, rc, logdir


def check_new_log(name, d, rc, logdir):
    eq(rc, 0, "%s: exit 0, nothing lost" % name)
    seen, want = after(d, " was deleted while open")
    files = logs(logdir)
    ok(len(files) == 1 and gzip_ok(files), "%s: a new, whole log" % name,
       repr(files))
    rows, err, st = fakeproc.dump(BIN, files)
    n, problems = fakeproc.check_rows(rows)
    eq(problems, [], "%s: every delta in the new log right" % name)
    got = sorted(fakeproc.t_ns(r["t"]) for r in rows if r["device"] == "sda")
    ok(seen and len(want) >= 4, "%s: samples after the deletion" % name)
    eq(got, want, "%s: every sample reported after the deletion is in the "
       "new log, the first interval too" % name)


def test_log_deleted(tmp):
    """rm of today's log while the daemon writes it."""
    def rm(logdir):
        for f in logs(logdir):
            os.unlink(f)
    d, rc, logdir = deleted_run(tmp, "deleted", rm)
    check_new_log("log deleted", d, rc, logdir)


def test_logdir_removed(tmp):
    """rm -rf of the log directory: recreated, with its lock file, which
    the daemon holds again."""
    second = []

    def rm_and_race(logdir):
        shutil.rmtree(logdir)
        wait_for(lambda: os.path.exists(logdir), 20)
        time.sleep(0.5)
        second.append(subprocess.run(
            [BIN, "--proc", os.path.join(tmp, "r-removed", "proc"), "-o",
             logdir, "--host", "testhost", "-i", "0.2", "-c", "1",
             "--all-devices"], capture_output=True, text=True, timeout=limit(30)))
    d, rc, logdir = deleted_run(tmp, "removed", rm_and_race)
    ok(second and second[0].returncode == 3 and
       "another iostatmon" in second[0].stderr,
       "log directory removed: a second daemon on the recreated directory "
       "is refused", second and second[0].stderr)
    check_new_log("log directory removed", d, rc, logdir)
    ok(any("log directory recreated" in ln for ln in d.lines),
       "log directory removed: recreation said")
    ok(os.path.exists(os.path.join(logdir, ".iostatmon-testhost.lock")),
       "log directory removed: the lock file is back")


def test_logdir_unmakeable(tmp):
    """The directory's parent goes too: samples wait in memory, said in
    STATUS, until the directory can be made again."""
    nt = Notify()
    parent = []

    def rm(logdir):
        parent.append(os.path.dirname(logdir))
        shutil.rmtree(parent[0])

    def restore(logdir, d):
        ok(any("STATUS=" in k and "cannot open for appending" in k
               for k in nt.keys()),
           "unmakeable directory: the problem is in sd_notify STATUS",
           repr([k for k in nt.keys() if "STATUS" in k][-2:]))
        n = len(d.lines)
        d.p.send_signal(signal.SIGHUP)
        ok(d.said("SIGHUP: sampling", since=n) and d.p.poll() is None,
           "unmakeable directory: SIGHUP meanwhile keeps it running")
        os.makedirs(parent[0])
    d, rc, logdir = deleted_run(tmp, "gone", rm, restore, nt)
    nt.close()
    check_new_log("directory not makeable for a while", d, rc, logdir)
    eq(sum("cannot open for appending" in ln for ln in d.lines), 1,
       "unmakeable directory: reported once")
    ok(any(m and m.group(2) == "held for" for m in map(SAMPLE.match,
                                                       d.lines)),
       "unmakeable directory: samples were held in memory")


def test_restart_full_disk(tmp):
    """Killed, then restarted on a full disk holding a log larger than the
    free space: the torn tail is repaired in place (nothing copied),
    sampling goes on into memory, and everything reaches the log once
    there is room."""
    on_small_tmpfs(tmp, "full", "256k", "restart on a full disk",
                   restart_full_disk)


def restart_full_disk(tmp, mnt):
    root = fakeproc.FakeRoot(os.path.join(tmp, "r8"), 0.1)
    root.start()
    logdir = os.path.join(mnt, "log")
    first = Daemon(common(root, logdir, "0.1"))
    second = None
    try:
        ok(first.wait_written(40), "full restart: first run samples")
        first.p.send_signal(signal.SIGKILL)
        first.finish()
        log = logs(logdir)[0]
        before = os.stat(log)
        filler = fill(mnt)
        st = os.statvfs(mnt)
        free = st.f_bavail * st.f_frsize
        ok(free < before.st_size, "full restart: the log (%d bytes) is "
           "larger than the free space (%d bytes)" % (before.st_size, free))
        second = Daemon(common(root, logdir, "0.1"))
        ok(second.said("torn tail"), "full restart: the torn tail is found",
           "\n".join(second.lines))
        n = len(second.lines)
        ok(wait_for(lambda: len([ln for ln in second.lines[n:]
                                 if SAMPLE.match(ln)]) >= 5, 20),
           "full restart: sampling goes on", "exit %r: %s" % (
               second.p.poll(), "\n".join(second.lines[-4:])))
        ok(not [f for f in os.listdir(logdir) if "repair" in f] and
           os.stat(log).st_ino == before.st_ino,
           "full restart: repaired in place (same inode, no copy)")
        os.unlink(filler)
        ok(wait_for(lambda: len([ln for ln in second.lines[n:]
                                 if ln.startswith("iostatmon: sample ") and
                                 "written to" in ln]) >= 3, 20),
           "full restart: samples are written once there is room")
        eq(second.stop(), 0, "full restart: SIGTERM exits 0")
    finally:
        for d in (first, second):
            if d is not None:
                d.reap()
        root.stop()
    files = logs(logdir)
    ok(gzip_ok(files), "full restart: the log passes gzip -t")
    rows, err, st = fakeproc.dump(BIN, files)
    eq(st, 0, "full restart: dump exits 0")
    n, problems = fakeproc.check_rows(rows)
    eq(problems, [], "full restart: every delta right")
    got = {fakeproc.t_ns(r["t"]) for r in rows if r["device"] == "sda"}
    mine = [int(m.group(1)) for m in map(SAMPLE.match, second.lines) if m]
    lost = [t for t in first.written()[1:] + mine[1:] if t not in got]
    eq(lost, [], "full restart: every sample of both runs is in the log")


def test_no_device(tmp):
    root = fakeproc.FakeRoot(os.path.join(tmp, "r9"), 1.0)
    root.start()
    logdir = os.path.join(tmp, "log9")
    warn = "warning: no device is sampled"
    d = Daemon(common(root, logdir, "0.2") + ["--exclude", "*"])
    try:
        ok(d.said(warn), "no device: a warning at the start", d.lines[-5:])
        ok(d.wait_written(3), "no device: it runs on")
        eq(sum(warn in ln for ln in d.lines), 1, "no device: warned once")
        n = len(d.lines)
        d.p.send_signal(signal.SIGHUP)
        ok(d.said("SIGHUP: " + warn, since=n), "no device: again after "
           "SIGHUP", d.lines[n:])
        ok(d.wait_written(len(d.written()) + 3), "no device: it runs on "
           "after SIGHUP")
        eq(sum(warn in ln for ln in d.lines), 2,
           "no device: warned once per event")
        eq(d.stop(), 0, "no device: stops with 0")
    finally:
        d.reap()
        root.stop()
    files = logs(logdir)
    db = os.path.join(tmp, "nodev.db")
    p = subprocess.run([os.path.join(os.path.dirname(BIN), "iocensus"),
                        "ingest", "--db", db, "--format", "json"] + files,
                       capture_output=True, text=True)
    rows = json.loads(p.stdout)["tables"]["sources"]["rows"] \
        if p.returncode == 0 else []
    got = [(r["source"], r["samples"], r["status"]) for r in rows]
    ok(files and got == [(f, 0, "no samples") for f in files],
       "ingest: the log's status is 'no samples'", "%r %s" % (got,
                                                            p.stderr))
    ok(files and all("%s: no samples" % f in p.stderr for f in files),
       "ingest: and says so on stderr", p.stderr)


def main():
    tmp = tempfile.mkdtemp(prefix="t_iostatmon_daemon.")
    os.chmod(tmp, 0o755)
    try:
        test_usage(tmp)
        test_count_notify_pidfile(tmp)
        test_hup_and_churn(tmp)
        test_retention(tmp)
        test_restart_flags(tmp)
        test_diskstats_unusable(tmp)
        test_unprivileged(tmp)
        test_disk_full(tmp)
        test_restart_full_disk(tmp)
        test_log_deleted(tmp)
        test_logdir_removed(tmp)
        test_logdir_unmakeable(tmp)
        test_no_device(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    done()


if __name__ == "__main__":
    main()
