"""iocensus used the way an HPC storage administrator will, not the way
its authors did: odd inodes in a log directory, damaged and nested
archives, hostile names in every output format, unwritable report paths,
absurd option values, a roll-up left unfinished, an old schema.

Expected values are counted independently: rawgen writes 1 host x 2
devices x MINUTES one-minute blocks, so a log holds 2 * MINUTES samples.
"""
import contextlib
import csv
import io
import json
import os
import re
import shutil
import socket
import sqlite3
import stat
import subprocess
import sys
import tarfile
import tempfile
import zipfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from tap import ok, eq, done, skip    # noqa: E402
from pace import limit  # noqa: E402
from rawgen import Dataset            # noqa: E402
import snapgen                        # noqa: E402
from peakrss import run_peak          # noqa: E402

BUILD = os.environ.get("BUILD", "build")
IOC = os.path.join(BUILD, "iocensus")
MON = os.path.join(BUILD, "iostatmon")
FSSCAN = os.path.join(BUILD, "fsscan")
TMP = tempfile.mkdtemp(prefix="t_io_adversarial.")
START = 1700000000 // 3600 * 3600
MINUTES = 60
PER_LOG = 2 * MINUTES
HOSTILE = ['a,b"c', "tab\there", "nl\nx\r", "<script>alert(1)</script>",
           "q'uo;--"]


def path(*p):
    return os.path.join(TMP, *p)


def run(*args, timeout=120):
    p = subprocess.run([a if isinstance(a, bytes) else str(a) for a in args],
                       capture_output=True, timeout=limit(timeout))
    return (p.returncode, p.stdout.decode("utf-8", "surrogateescape"),
            p.stderr.decode("utf-8", "surrogateescape"))


def sql(db, q):
    with contextlib.closing(sqlite3.connect(db)) as con:
        return con.execute(q).fetchall()


def samples(db):
    return sql(db, "SELECT count(*) FROM v_io")[0][0]


def make_log(name, host, seed):
    """A log of host (any bytes but NUL) with PER_LOG samples."""
    raw = path("raw", name)
    os.makedirs(raw, exist_ok=True)
    Dataset(seed=seed, hosts=["h"], devs_per_host=2, start=START,
            minutes=MINUTES).write(raw)
    out = path(name + ".log")
    rc = subprocess.run([MON, "import", os.path.join(raw, "h.raw"),
                         "--host", host.encode("utf-8", "surrogateescape"),
                         "--out", out]).returncode
    assert rc == 0, "iostatmon import failed"
    return out


def tar_bytes(members, mode="w"):
    bio = io.BytesIO()
    with tarfile.open(fileobj=bio, mode=mode) as t:
        for name, data in members:
            ti = tarfile.TarInfo(name)
            ti.size = len(data)
            t.addfile(ti, io.BytesIO(data))
    return bio.getvalue()


def ingest(db, *paths):
    return run(IOC, "ingest", "--db", db, "--format", "csv", *paths)


# ---- odd inodes in a log directory -----------------------------------

def check_directory(log):
    d = path("weird")
    os.makedirs(os.path.join(d, "sub"))
    shutil.copy(log, os.path.join(d, "good.log"))
    os.symlink("..", os.path.join(d, "sub", "loop"))
    os.symlink("self", os.path.join(d, "self"))
    os.mkfifo(os.path.join(d, "fifo"))
    s = socket.socket(socket.AF_UNIX)
    s.bind(os.path.join(d, "sock"))
    try:
        os.mknod(os.path.join(d, "null"), stat.S_IFCHR | 0o644,
                 os.makedev(1, 3))
    except OSError:
        pass                          # not root: no device node
    open(os.path.join(d, "empty"), "w").close()
    with open(os.path.join(d, "big.bin"), "wb") as f:
        f.write(os.urandom(1 << 20))
    db = path("weird.db")
    rc, out, err = ingest(db, d)
    s.close()
    eq(rc, 0, "directory of odd inodes: exit 0 (%s)" % err.strip())
    eq(samples(db), PER_LOG, "directory of odd inodes: the one log loaded")
    rc, out, err = ingest(db, os.path.join(d, "fifo"))
    eq(rc, 1, "a FIFO named on the command line is refused, not read")
    ok("not a regular file" in err, "FIFO: says why", err)


def check_zero_run(la, lb):
    """Zeros between two logs (more than the run held as a count): written
    back out when the second log follows, so both load and the damage is
    where iostatmon dump finds it."""
    p = path("zerorun.log")
    with open(p, "wb") as f:
        f.write(open(la, "rb").read() + bytes(3 << 20) + open(lb, "rb").read())
    db = path("zerorun.db")
    rc, out, err = ingest(db, p)
    eq(samples(db), 2 * PER_LOG, "zeros between two logs: both loaded")
    _, _, derr = run(MON, "dump", p)
    want = sorted((int(o), r) for o, r in re.findall(
        r"damaged at compressed offset (\d+): (.*)", derr))
    ok(want, "zeros between two logs: dump reports damage", derr)
    eq(sorted(sql(db, "SELECT offset, reason FROM io_damage")), want,
       "zeros between two logs: the damage iostatmon dump reports")


def check_zero_tail(log):
    """A log followed by 1 GiB of zeros (a sparse or zero-filled tail, as
    a crash or preallocation leaves): loaded, the tail reported where dump
    reports it, and the zeros never held in memory."""
    d = path("zerotail")
    os.makedirs(d)
    p = os.path.join(d, "z.log")
    shutil.copy(log, p)
    size = os.path.getsize(p)
    os.truncate(p, size + (1 << 30))
    db = path("zerotail.db")
    rc, _, _, kib = run_peak([IOC, "ingest", "--db", db, d], timeout=300)
    eq(rc, 1, "log with a 1 GiB zero tail: exit 1 (the tail is damage)")
    eq(samples(db), PER_LOG, "log with a 1 GiB zero tail: the log loaded")
    eq(sql(db, "SELECT offset, reason FROM io_damage"),
       [(size, "not a gzip member header")],
       "log with a 1 GiB zero tail: damage where the zeros start")
    ok(kib < 256 * 1024, "log with a 1 GiB zero tail: the zeros are not "
       "held in memory", "peak RSS %d KiB" % kib)
    os.unlink(p)


# ---- archives -----------------------------------------------------------

def check_archives(la, lb):
    a, b = open(la, "rb").read(), open(lb, "rb").read()

    # A damaged header between two good members: libarchive skips to the
    # next header; the damage must be reported, the member after loaded.
    tb = bytearray(tar_bytes([("a.log", a), ("junk", b"x" * 1000),
                              ("b.log", b)]))
    off = 512 + (len(a) + 511) // 512 * 512
    for i in range(off + 100, off + 148):
        tb[i] ^= 0x41
    p = path("badmid.tar")
    open(p, "wb").write(tb)
    db = path("badmid.db")
    rc, out, err = ingest(db, p)
    eq(rc, 1, "tar with a damaged header: exit 1")
    eq(samples(db), 2 * PER_LOG, "tar with a damaged header: both logs "
       "around it loaded")
    eq(sql(db, "SELECT source FROM io_damage"), [(p,)],
       "tar with a damaged header: damage recorded")

    # Cut inside a member: what was read of it loads.
    tb = tar_bytes([("a.log", a), ("b.log", b)])
    p = path("cut.tar")
    open(p, "wb").write(tb[:512 + len(a) // 2])
    db = path("cut.db")
    rc, out, err = ingest(db, p)
    eq(rc, 1, "tar cut inside a member: exit 1")
    n = samples(db)
    ok(0 < n < PER_LOG, "tar cut inside a member: its first part loaded",
       "%d samples" % n)
    ok(",truncated" in out, "tar cut inside a member: status truncated",
       out)

    # A zip member whose first byte is flipped no longer looks like a log,
    # and only its CRC says it is damaged: the CRC is checked (the member
    # is read through, not skipped), the damage named, the rest loaded.
    zb = io.BytesIO()
    with zipfile.ZipFile(zb, "w", zipfile.ZIP_STORED) as z:
        z.writestr("a.log", a)
        z.writestr("b.log", b)
    zb = bytearray(zb.getvalue())
    zb[zb.index(a[:64])] ^= 0x55
    p = path("flip.zip")
    open(p, "wb").write(zb)
    db = path("flipzip.db")
    rc, out, err = ingest(db, p)
    eq(rc, 1, "zip member with a bad CRC: exit 1")
    eq(samples(db), PER_LOG, "zip member with a bad CRC: the other loaded")
    dmg = sql(db, "SELECT source, reason FROM io_damage")
    ok(len(dmg) == 1 and dmg[0][0] == p and
       dmg[0][1].startswith("member a.log: ZIP bad CRC"),
       "zip member with a bad CRC: damage names the member", repr(dmg))

    # A log inside 5 tars loads; inside 6, the innermost tar is inside 5
    # levels of archives: said and not read, never "not a log".
    data, name = a, "a.log"
    for depth in range(1, 7):
        data, name = tar_bytes([(name, data)]), "l%d.tar" % depth
        p = path("nest%d.tar" % depth)
        open(p, "wb").write(data)
    db = path("nest5.db")
    rc, out, err = ingest(db, path("nest5.tar"))
    ok(rc == 0 and samples(db) == PER_LOG, "a log inside 5 tars: loaded",
       err)
    db = path("nest6.db")
    rc, out, err = ingest(db, path("nest6.tar"))
    eq(rc, 1, "a log inside 6 tars: exit 1")
    ok("inside 5 levels of archives: not read (at most 4)" in err and
       "not iostatmon logs" not in err, "a log inside 6 tars: says why", err)

    # A tarball of tarballs, and a damaged log in an archive is still a log.
    bad = bytearray(a)
    for i in range(len(a) // 3, len(a) // 3 + 64):
        bad[i] ^= 0x5a
    inner = tar_bytes([("b.log", b)], "w:gz")
    p = path("nested.tar")
    open(p, "wb").write(tar_bytes([("inner.tar.gz", inner),
                                   ("bad.log", bytes(bad)),
                                   ("core", bytes(1 << 20)),
                                   ("data", b"not a log\n" * 7000)]))
    db = path("nested.db")
    rc, out, err = ingest(db, p)
    eq(rc, 1, "nested archive with a damaged log: exit 1 (the damage)")
    names = [r[0] for r in sql(db, "SELECT name FROM io_source ORDER BY 1")]
    eq(names, [p + ":bad.log", p + ":inner.tar.gz:b.log"],
       "nested archive: inner members are sources")
    n = samples(db)
    ok(PER_LOG < n < 2 * PER_LOG, "nested archive: inner log and the "
       "readable part of the damaged one loaded", "%d samples" % n)
    totals = list(csv.DictReader(io.StringIO(out.split("# totals\n")[1])))
    eq(totals[0]["skipped"], "2", "archive: a zero-filled and a text "
       "member are skipped, not taken for archives")


# ---- hostile names in every format ------------------------------------

def strings(doc):
    """Every string value in a JSON document."""
    if isinstance(doc, str):
        yield doc
    elif isinstance(doc, dict):
        for v in doc.values():
            yield from strings(v)
    elif isinstance(doc, list):
        for v in doc:
            yield from strings(v)


def check_names(logs):
    db = path("names.db")
    rc, out, err = ingest(db, *logs)
    eq(rc, 0, "hostile host names: ingest exit 0")
    for cmd in (["ingest"] + logs, ["devices"], ["burst"], ["throughput"],
                ["cdf"], ["idle"]):
        for fmt in ("table", "csv", "json"):
            rc, out, err = run(IOC, cmd[0], "--db", db, "--format", fmt,
                               *cmd[1:])
            name = "%s --format %s" % (cmd[0], fmt)
            if fmt == "json":
                try:
                    found = set(strings(json.loads(out)))
                except ValueError as e:
                    ok(False, name + ": valid JSON", str(e))
                    continue
                if cmd[0] in ("ingest", "devices", "burst"):
                    eq(sorted(h for h in HOSTILE if h in found),
                       sorted(HOSTILE), name + ": names round-trip")
            elif fmt == "csv":
                widths_ok = True
                hdr = None
                for row in csv.reader(io.StringIO(out, newline=""),
                                      strict=True):
                    if not row or (len(row) == 1 and row[0].startswith("# ")):
                        hdr = None
                    elif hdr is None:
                        hdr = row
                    elif len(row) != len(hdr):
                        widths_ok = False
                ok(widths_ok, name + ": every CSV row as wide as its header")
            else:
                ok("\t" not in out and "\r" not in out and
                   "nl\nx" not in out, name + ": control characters "
                   "escaped in the table")


# ---- report output paths ----------------------------------------------

def check_report_paths(db):
    d = path("out")
    os.makedirs(d)
    good = os.path.join(d, "r.html")
    open(good, "w").write("older report")
    cases = [
        ("missing directory", [os.path.join(d, "no", "x.html")],
         "No such file"),
        ("--out a directory", [d], "is a directory"),
        ("--bundle a directory", [good, "--bundle", d], "is a directory"),
        ("--bundle in a missing directory",
         [good, "--bundle", os.path.join(d, "no", "b.tar.gz")],
         "No such file"),
    ]
    for name, args, why in cases:
        rc, out, err = run(IOC, "report", "--db", db, "--out", *args)
        eq(rc, 3, "report, %s: exit 3" % name)
        ok(why in err, "report, %s: says why" % name, err)
        eq(sorted(os.listdir(d)), ["r.html"], "report, %s: no file or "
           "temporary left behind" % name)
        eq(open(good).read(), "older report", "report, %s: the older "
           "report is untouched" % name)
    bundle = os.path.join(d, "b.tar.gz")
    rc, out, err = run(IOC, "report", "--db", db, "--out", good,
                       "--bundle", bundle)
    eq(rc, 0, "report and bundle: exit 0")
    eq(sorted(os.listdir(d)), ["b.tar.gz", "r.html"], "report and bundle: "
       "both written, no temporaries")
    with tarfile.open(bundle) as t:
        page = t.extractfile("report.html").read()
    eq(page, open(good, "rb").read(), "the bundle holds the page")


# ---- options -------------------------------------------------------------

def check_options(db):
    bad = [("cdf", "--peak", "1e308"), ("burst", "--host-peak", "1e300"),
           ("idle", "--buckets", "0s"), ("idle", "--buckets", "1m,0"),
           ("cdf", "--table", "nope"), ("cdf", "--bogus"),
           ("cdf", "--from", "2023-11-20", "--to", "2023-11-18")]
    for args in bad:
        rc, out, err = run(IOC, args[0], "--db", db, *args[1:])
        eq(rc, 2, "usage error: %s" % " ".join(args))
    rc, out, err = run(IOC, "cdf", "--db", db, "--peak", str(2 ** 40))
    eq(rc, 0, "--peak 2^40 MiB/s is accepted")
    for args in (["--from", "2030-01-01"], ["--to", "2001-01-01"]):
        rc, out, err = run(IOC, "cdf", "--db", db, "--format", "json", *args)
        eq(rc, 0, "cdf %s: exit 0" % " ".join(args))
        ok("No I/O data in the window." in json.loads(out)["notes"],
           "cdf %s: says there is no data" % " ".join(args))
    rc, out, err = run(IOC, "cdf", "--db", db, "--host", "nomatch")
    eq(rc, 2, "cdf --host nomatch: a pattern matching no host is a usage "
       "error")


# ---- growth ---------------------------------------------------------------

def check_growth():
    db = snapgen.new_db(path(), BUILD)
    t = 1264550400
    for fs, when, files in (("same", t, 100), ("same", t, 200),
                            ("far", t, 100), ("far", t + 86400, 200)):
        snapgen.insert(db, snapgen.Snapshot(fs, when, totals=(files, 1, 1)))
    rc, out, err = run(IOC, "growth", "--db", db, "--fs", "same",
                       "--target", "1000", "--format", "json")
    notes = " ".join(json.loads(out)["notes"])
    # Two snapshots at one time are a rescan: one point, and it says so.
    ok("a rescan counts as one point" in notes and "a trend needs two"
       " snapshots a day or more apart" in notes and
       "every value > 0" not in notes,
       "growth, snapshots at one time: one point, says why no trend", notes)
    rc, out, err = run(IOC, "diff", "--db", db, "4", "3", "--format", "json")
    doc = json.loads(out)
    ok(any("taken before A" in n for n in doc["notes"]),
       "diff B A (B older): warns", doc["notes"])
    eq(doc["tables"]["filesystems"]["rows"][0]["d_files_per_day"], None,
       "diff B A (B older): no growth rate over a backwards interval")
    rc, out, err = run(IOC, "growth", "--db", db, "--fs", "far",
                       "--target", "1e300", "--table", "projection")
    longest = max(len(w) for w in out.split() if w.strip("-"))
    ok(rc == 0 and longest < 30, "growth to 1e300: no number hundreds of "
       "digits long", "longest word %d" % longest)


# ---- roll-up, schema, empty database --------------------------------------

def check_rollup(db):
    before = sql(db, "SELECT * FROM io_minute ORDER BY 1")
    con = sqlite3.connect(db)
    con.execute("INSERT INTO io_dirty (t0) SELECT DISTINCT t / 3600 * 3600 "
                "FROM io_minute")
    con.execute("DELETE FROM io_minute")
    con.commit()
    con.close()
    rc, out, err = run(IOC, "cdf", "--db", db, "--format", "json")
    ok(any("stale" in n for n in json.loads(out)["notes"]),
       "unfinished roll-up: analyses say so")
    rc, out, err = run(IOC, "ingest", "--db", db)
    eq(rc, 0, "ingest with no path: exit 0")
    eq(sql(db, "SELECT count(*) FROM io_dirty")[0][0], 0,
       "ingest with no path: finishes the roll-up")
    eq(sql(db, "SELECT * FROM io_minute ORDER BY 1"), before,
       "ingest with no path: the minutes are back")


def check_old_schema(log):
    db = path("v1.db")
    empty = tempfile.mkdtemp(dir=TMP)
    subprocess.run([FSSCAN, "--db", db, "--quiet", empty], check=True)
    con = sqlite3.connect(db)
    objs = con.execute("SELECT type, name FROM sqlite_master WHERE "
                       "name LIKE 'io_%' OR name LIKE 'v_io%'").fetchall()
    for kind, name in sorted(objs, key=lambda o: o[0] == "table"):
        if kind in ("view", "table"):
            con.execute("DROP %s IF EXISTS \"%s\"" % (kind.upper(), name))
    con.execute("PRAGMA user_version=1")
    con.commit()
    con.close()
    rc, out, err = ingest(db, log)
    eq(rc, 0, "schema-1 database: ingest upgrades it")
    eq(sql(db, "PRAGMA user_version")[0][0], 13, "schema-1 database: now 13")
    eq(samples(db), PER_LOG, "schema-1 database: the log loaded")
    rc, out, err = run(IOC, "snapshots", "--db", db, "--format", "csv",
                       "--table", "snapshots")
    eq(len(out.strip().split("\n")), 2, "schema-1 database: its snapshot "
       "is still there")


def check_empty():
    db = path("empty.db")
    empty = tempfile.mkdtemp(dir=TMP)
    rc, out, err = ingest(db, empty)
    eq(rc, 0, "empty database: created by ingest of an empty directory")
    page = path("empty.html")
    rc, out, err = run(IOC, "report", "--db", db, "--out", page)
    eq(rc, 0, "empty database: report exit 0")
    ok("No data" in open(page, encoding="utf-8").read(),
       "empty database: the report says there is no data")


def check_read_only(db):
    """An unprivileged user analyses a database it cannot write (nor its
    directory): read-only, with a note, and the same numbers as root."""
    setpriv = shutil.which("setpriv")
    if os.geteuid() != 0 or not setpriv:
        skip("read-only database", "an unprivileged user is made with"
             " setpriv, as root", needs="root" if os.geteuid() else "setpriv")
        return
    ro = tempfile.mkdtemp(dir=TMP)
    os.chmod(TMP, 0o755)
    os.chmod(ro, 0o755)
    copy = os.path.join(ro, "census.db")
    sql(db, "PRAGMA wal_checkpoint(TRUNCATE)")
    shutil.copyfile(db, copy)
    os.chmod(copy, 0o644)
    want = run(IOC, "cdf", "--db", db, "--format", "json")
    drop = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"]
    rc, out, err = run(*drop, IOC, "cdf", "--db", copy, "--format", "json")
    eq(rc, 0, "read-only database: cdf exit 0 for an unprivileged user")
    eq(out, want[1], "read-only database: the same output as the owner's")
    ok("read-only" in err and copy in err,
       "read-only database: a note says it was opened read-only", err)
    rc, out, err = run(*drop, IOC, "ingest", "--db", copy)
    eq(rc, 3, "read-only database: ingest cannot write it: exit 3")
    ok(copy in err, "read-only database: the message names it", err)

    # Writable directory, read-only file; and the other way round. The
    # directory is the user's own: a database is never made in one that
    # every user may write.
    wd = tempfile.mkdtemp(dir=TMP)
    os.chown(wd, 65534, 65534)
    f = os.path.join(wd, "ro.db")
    shutil.copyfile(db, f)
    os.chmod(f, 0o444)
    rc, out, err = run(*drop, IOC, "ingest", "--db", f)
    ok(rc == 3 and f + ": cannot write it: Permission denied" in err,
       "read-only file: ingest says so, naming it", err)
    ok(sorted(os.listdir(wd)) == ["ro.db"],
       "read-only file: no -wal or -shm left behind", repr(os.listdir(wd)))
    os.chmod(f, 0o666)
    os.chown(wd, 0, 0)
    os.chmod(wd, 0o755)
    rc, out, err = run(*drop, IOC, "ingest", "--db", f)
    ok(rc == 3 and "cannot write in its directory" in err and f in err,
       "read-only directory: ingest says it is the directory", err)


def check_huge_window(db):
    rc, out, err = run(IOC, "throughput", "--db", db, "--every", "1m",
                       "--from", "1990-01-01", "--to", "2100-01-01")
    eq(rc, 2, "huge window: --every 1m over a century is a usage error")
    ok("--every" in err and out == "",
       "huge window: the message suggests a wider --every", err)
    rc, out, err = run(IOC, "throughput", "--db", db, "--every", "1d",
                       "--from", "1990-01-01", "--to", "2100-01-01",
                       "--format", "csv", "--table", "totals")
    eq(rc, 0, "huge window: --every 1d over a century works")


def main():
    try:
        la = make_log("la", "alpha", 1)
        lb = make_log("lb", "beta", 2)
        check_directory(la)
        check_archives(la, lb)
        check_zero_tail(la)
        check_zero_run(la, lb)
        check_names([make_log("n%d" % i, h, 10 + i)
                     for i, h in enumerate(HOSTILE)])
        db = path("two.db")
        ingest(db, la, lb)
        check_report_paths(db)
        check_options(db)
        check_growth()
        check_rollup(db)
        check_old_schema(la)
        check_empty()
        check_read_only(db)
        check_huge_window(db)
    finally:
        shutil.rmtree(TMP, ignore_errors=True)
    done()


main()
