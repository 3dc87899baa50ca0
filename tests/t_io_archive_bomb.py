"""iocensus ingest: small archives that expand to gigabytes.

A few hundred KB of zstd, xz or gzip can hold a tar whose member is a
real log followed by gigabytes of zeros (or of any one byte). Ingest must
read every such input in bounded memory (peak RSS under 256 MiB), load
the log's samples, and report what it could not read: which archive,
which member, why, with exit status 1.

The archives are made at test time by tests/lib/bombgen.py (one
compressed block repeated), so the test stays small and fast. The oracle
for the samples is `iostatmon dump` of the log alone; for where the
zeros start, the log's size.
"""
import contextlib
import io
import os
import sqlite3
import subprocess
import sys
import tarfile
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from tap import ok, eq, done          # noqa: E402
from rawgen import Dataset            # noqa: E402
from peakrss import run_peak          # noqa: E402
from iodump import dump_rows, view_rows  # noqa: E402
import bombgen                        # noqa: E402

BUILD = os.environ.get("BUILD", "build")
IOC = os.path.join(BUILD, "iocensus")
MON = os.path.join(BUILD, "iostatmon")
TMP = tempfile.mkdtemp(prefix="t_io_archive_bomb.")
START = 1700000000 // 3600 * 3600
RSS_MAX_KIB = 256 * 1024
# Under AddressSanitizer freed memory is held in a quarantine (256 MiB by
# default) before it is reused; keep it small so that RSS measures what
# iocensus holds.
ENV = dict(os.environ, ASAN_OPTIONS=os.environ.get("ASAN_OPTIONS", "") +
           ":quarantine_size_mb=16")
GIB = 1 << 30
MIB = 1 << 20


def path(*p):
    return os.path.join(TMP, *p)


def sql(db, q):
    with contextlib.closing(sqlite3.connect(db)) as con:
        return con.execute(q).fetchall()


def make_log(host, seed):
    raw = path("raw", host)
    os.makedirs(raw, exist_ok=True)
    Dataset(seed=seed, hosts=[host], devs_per_host=2, start=START,
            minutes=360).write(raw)
    out = path(host + ".iolog.gz")
    subprocess.run([MON, "import", os.path.join(raw, host + ".raw"),
                    "--host", host, "--out", out], check=True)
    return out


def ingest(name, p):
    db = path(name + ".db")
    rc, out, err, kib = run_peak([IOC, "ingest", "--db", db, "--format",
                                  "csv", p], env=ENV)
    return db, rc, out, err, kib


def bounded(kib, what):
    print("# %s: peak RSS %d KiB" % (what, kib))
    ok(kib < RSS_MAX_KIB, "%s: read in bounded memory (under 256 MiB)" %
       what, "peak RSS %d KiB" % kib)


def check_zero_bombs(log):
    """The log, then GiBs of zeros, under each compressor."""
    data = open(log, "rb").read()
    want = dump_rows(MON, [log])
    for kind, extra in (("zst", 2 * GIB), ("gz", GIB), ("xz", 512 * MIB)):
        name = "zeros.tar." + kind
        p = path(name)
        with open(p, "wb") as f:
            f.write(bombgen.tar_bomb(data, extra, kind))
        db, rc, out, err, kib = ingest(name, p)
        eq(rc, 1, "%s (%d MiB of zeros in %d KiB): exit 1, the zeros are "
           "damage (%s)" % (name, extra >> 20, os.path.getsize(p) >> 10,
                            err.strip()))
        eq(view_rows(db, "v_io"), want,
           "%s: the log's samples loaded" % name)
        eq(sql(db, "SELECT source, offset, reason FROM io_damage"),
           [(p + ":h000.iolog.gz", len(data), "not a gzip member header")],
           "%s: the damage named ARCHIVE:MEMBER, where the zeros start"
           % name)
        bounded(kib, name)
        os.unlink(p)


def check_data_bomb(log):
    """The log, then 256 MiB of one non-zero byte: held up to the limit
    of a member (64 MiB), the rest not read, and said so."""
    data = open(log, "rb").read()
    p = path("ab.tar.zst")
    with open(p, "wb") as f:
        f.write(bombgen.tar_bomb(data, 256 * MIB, "zst", fill=0xAB))
    db, rc, out, err, kib = ingest("ab", p)
    eq(rc, 1, "256 MiB of 0xAB after a log: exit 1")
    eq(view_rows(db, "v_io"), dump_rows(MON, [log]),
       "256 MiB of 0xAB: the log loaded")
    dmg = sql(db, "SELECT source, offset, reason FROM io_damage "
              "ORDER BY offset")
    eq([(s, o) for s, o, _ in dmg], [(p + ":h000.iolog.gz", len(data)),
                                     (p + ":h000.iolog.gz", 64 * MIB)],
       "256 MiB of 0xAB: damage where the log ends and where reading "
       "stopped")
    ok(dmg and "more than 64 MiB" in dmg[-1][2],
       "256 MiB of 0xAB: the reason says why", repr(dmg))
    ok(p + ":h000.iolog.gz: damaged at compressed offset %d: more than 64 "
       "MiB" % (64 * MIB) in err,
       "256 MiB of 0xAB: the message names the archive and the member",
       err)
    bounded(kib, "256 MiB of 0xAB")


def check_many_members(log, log2):
    """Four members of 96 MiB of 0xAB each, then a good log: each capped,
    never all held at once, the good log loaded."""
    data, good = open(log, "rb").read(), open(log2, "rb").read()
    members = [("m%d.log" % i, data, 96 * MIB, 0x5A) for i in range(4)]
    members.append(("good.iolog.gz", good, 0, 0))
    p = path("many.tar.xz")
    with open(p, "wb") as f:
        f.write(bombgen.tar_bombs(members, "xz"))
    db, rc, out, err, kib = ingest("many", p)
    eq(rc, 1, "four capped members: exit 1")
    eq(view_rows(db, "v_io"), dump_rows(MON, [log, log2]),
       "four capped members: their logs and the good one loaded")
    eq(sorted(s for s, in sql(db, "SELECT source FROM io_damage WHERE "
                                "reason LIKE 'more than 64 MiB%'")),
       [p + ":m%d.log" % i for i in range(4)],
       "four capped members: each named")
    bounded(kib, "four capped members")


def check_nested(log, log2):
    """A plain tar holding a zstd bomb and a log: the inner archive is
    walked as it is read, never held."""
    inner = bombgen.tar_bomb(open(log, "rb").read(), 2 * GIB, "zst")
    bio = io.BytesIO()
    with tarfile.open(fileobj=bio, mode="w") as t:
        for name, d in (("inner.tar.zst", inner),
                        ("b.iolog.gz", open(log2, "rb").read())):
            ti = tarfile.TarInfo(name)
            ti.size = len(d)
            t.addfile(ti, io.BytesIO(d))
    p = path("outer.tar")
    with open(p, "wb") as f:
        f.write(bio.getvalue())
    db, rc, out, err, kib = ingest("outer", p)
    eq(rc, 1, "bomb inside a tar: exit 1")
    eq(view_rows(db, "v_io"), dump_rows(MON, [log, log2]),
       "bomb inside a tar: both logs loaded")
    eq(sql(db, "SELECT source FROM io_damage"),
       [(p + ":inner.tar.zst:h000.iolog.gz",)],
       "bomb inside a tar: damage named OUTER:INNER:MEMBER")
    bounded(kib, "bomb inside a tar")


def main():
    log = make_log("h000", 1)
    log2 = make_log("h001", 2)
    check_zero_bombs(log)
    check_data_bomb(log)
    check_many_members(log, log2)
    check_nested(log, log2)
    done()


main()
