"""iocensus ingest: tarballs damaged inside their gzip stream.

A tar.gz cut short in transfer, or with bytes flipped in its compressed
data, must still load every member the damage leaves whole, and what can
be read of the member it breaks into, whatever the archive's size.

The oracle: Python's zlib inflates the damaged stream as far as it can
(byte by byte, so that nothing before the damage is held back), a small
ustar parser finds the members whole in that prefix and the part of the
one cut, and `iostatmon dump` gives the rows of those bytes. v_io must
hold exactly those rows; the damage must be recorded once, with zlib's
reason and the compressed offset where inflate stopped.
"""
import csv
import gzip
import io
import os
import sqlite3
import subprocess
import sys
import tarfile
import tempfile
import zlib
from decimal import Decimal

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from tap import ok, eq, done          # noqa: E402
from pace import limit  # noqa: E402
from rawgen import Dataset            # noqa: E402

BUILD = os.environ.get("BUILD", "build")
IOC = os.path.join(BUILD, "iocensus")
MON = os.path.join(BUILD, "iostatmon")
TMP = tempfile.mkdtemp(prefix="t_io_archive_gzip.")
START = 1700000000 // 3600 * 3600


def path(*p):
    return os.path.join(TMP, *p)


def run(*args):
    p = subprocess.run([str(a) for a in args], capture_output=True,
                       text=True, timeout=limit(300))
    return p.returncode, p.stdout, p.stderr


def sql(db, q, args=()):
    con = sqlite3.connect(db)
    try:
        return con.execute(q, args).fetchall()
    finally:
        con.close()


def make_logs(tag, n, minutes):
    """n logs of one host each, as bytes."""
    hosts = ["g%02d" % i for i in range(n)]
    Dataset(seed=3, hosts=hosts, devs_per_host=2, start=START,
            minutes=minutes).write(path(tag))
    logs = []
    for h in hosts:
        out = path(tag, h + ".log")
        rc, _, err = run(MON, "import", path(tag, h + ".raw"), "--host",
                         h, "--out", out)
        assert rc == 0, err
        logs.append(open(out, "rb").read())
    return logs


def ustar(logs):
    bio = io.BytesIO()
    with tarfile.open(fileobj=bio, mode="w", format=tarfile.USTAR_FORMAT) as t:
        for i, data in enumerate(logs):
            ti = tarfile.TarInfo("g%02d.log" % i)
            ti.size = len(data)
            t.addfile(ti, io.BytesIO(data))
    return bio.getvalue()


def inflate_prefix(gz):
    """Everything zlib can inflate from gz, member after member, and the
    error that stopped it (None at a clean end) with the index of the
    byte that raised it."""
    out, pos = bytearray(), 0
    while pos < len(gz):
        if gz[pos:pos + 2] != b"\x1f\x8b":
            break                         # trailing garbage, as gzip says
        d = zlib.decompressobj(16 + zlib.MAX_WBITS)
        for k in range(pos, len(gz)):
            try:
                out += d.decompress(gz[k:k + 1])
            except zlib.error as e:
                return bytes(out), str(e).split(": ", 1)[1], k
            if d.eof:
                break
        if not d.eof:
            return bytes(out), "truncated gzip input", len(gz)
        pos = len(gz) - len(d.unused_data)
    return bytes(out), None, None


def members_in(prefix):
    """[(bytes, whole)] of the ustar members that start in prefix."""
    got, off = [], 0
    while off + 512 <= len(prefix):
        h = prefix[off:off + 512]
        if h == bytes(512):
            break
        size = int(h[124:136].strip(b"\0 ") or b"0", 8)
        data = prefix[off + 512:off + 512 + size]
        got.append((data, len(data) == size))
        off += 512 + (size + 511) // 512 * 512
    return got


def dump_rows(blobs):
    """v_io rows that `iostatmon dump` reads from these log bytes."""
    rows = []
    for i, b in enumerate(blobs):
        f = path("dump%d.log" % i)
        with open(f, "wb") as fh:
            fh.write(b)
        _, out, _ = run(MON, "dump", f)
        r = csv.reader(io.StringIO(out))
        head = next(r)
        for x in r:
            d = dict(zip(head, x))
            rows.append((d["host"], d["device"],
                         int(Decimal(d["t"]) * 1000 + Decimal("0.5")),
                         int(d["rd_ios"] or 0), int(d["wr_ios"] or 0),
                         int(d["rd_sectors"] or 0) * 512,
                         int(d["wr_sectors"] or 0) * 512))
    return sorted(set(rows))


def vio_rows(db):
    return sorted(set(
        (h, d, int(Decimal(repr(t)) * 1000), a, b, c, e)
        for h, d, t, a, b, c, e in sql(
            db, "SELECT host, device, t, rd_ios, wr_ios, rd_bytes, "
            "wr_bytes FROM v_io")))


def ingest(name, *paths):
    db = path(name + ".db")
    rc, out, err = run(IOC, "ingest", "--db", db, "--format", "csv", *paths)
    return db, rc, err


def expect_from(gz, name):
    prefix, why, at = inflate_prefix(gz)
    mem = members_in(prefix)
    ok(any(w for _, w in mem), "%s: the oracle finds whole members before "
       "the damage" % name, "%d members" % len(mem))
    return dump_rows([d for d, _ in mem]), why, at, mem


def check_cut(logs, gz, cut, name):
    """gz cut to its first `cut` bytes."""
    p = path(name)
    with open(p, "wb") as f:
        f.write(gz[:cut])
    want, why, at, mem = expect_from(gz[:cut], name)
    db, rc, err = ingest(name, p)
    eq(rc, 1, "%s: exit 1 (something was skipped)" % name)
    eq(vio_rows(db), want, "%s: exactly the whole members and the readable "
       "part of the cut one loaded (%d of %d members whole)"
       % (name, sum(w for _, w in mem), len(logs)))
    eq(sql(db, "SELECT source, offset, reason FROM io_damage"),
       [(p, cut, "truncated gzip input")],
       "%s: one damage, at the cut, with the reason" % name)
    ok("%s: damaged at compressed offset %d: truncated gzip input" % (p, cut)
       in err, "%s: says where and why" % name, err)


def check_flipped(logs, gz, name):
    bad = bytearray(gz)
    at = len(gz) * 3 // 5
    for i in range(at, at + 16):
        bad[i] ^= 0xA5
    p = path(name)
    with open(p, "wb") as f:
        f.write(bad)
    # Members the damage leaves whole: those whole in the output before
    # the first inflated byte that differs from the undamaged stream.
    good, _, _ = inflate_prefix(gz)
    prefix, why, k = inflate_prefix(bytes(bad))
    same = next((i for i, (x, y) in enumerate(zip(good, prefix)) if x != y),
                min(len(good), len(prefix)))
    intact = [d for d, w in members_in(prefix[:same]) if w]
    db, rc, err = ingest(name, p)
    eq(rc, 1, "%s: exit 1" % name)
    got = set(vio_rows(db))
    ok(set(dump_rows(intact)) <= got, "%s: the %d members before the damage "
       "loaded whole" % (name, len(intact)), "%d rows" % len(got))
    ok(got <= set(dump_rows(logs)), "%s: nothing loaded that is not in the "
       "logs" % name)
    dmg = sql(db, "SELECT offset, reason FROM io_damage WHERE source = ?",
              (p,))
    ok(why is not None and len(dmg) == 1 and dmg[0][1] == why,
       "%s: one damage with zlib's reason" % name,
       "oracle %r, got %r" % (why, dmg))
    # zlib holds a few bytes in its bit buffer, so where inflate stops
    # differs by a few bytes between byte-at-a-time and bulk input.
    ok(dmg and at <= dmg[0][0] and abs(dmg[0][0] - (k + 1)) <= 8,
       "%s: damage offset where inflate stopped" % name,
       "flip at %d, oracle %s, got %r" % (at, k, dmg))


def check_multimember(logs, tar):
    """pigz-style: the tar split over two gzip members, then zero bytes
    (trailing garbage, which gzip ignores): everything loads."""
    cut = len(tar) // 2 + 123
    data = gzip.compress(tar[:cut]) + gzip.compress(tar[cut:]) + bytes(100)
    p = path("multi.tar.gz")
    with open(p, "wb") as f:
        f.write(data)
    db, rc, err = ingest("multi", p)
    eq(rc, 0, "two gzip members and trailing zeros: exit 0 (%s)" % err)
    eq(vio_rows(db), dump_rows(logs), "two gzip members: every log loaded")
    eq(sql(db, "SELECT count(*) FROM io_damage"), [(0,)],
       "two gzip members: no damage")


def check_nested(logs, gz):
    """A truncated tar.gz inside a plain tar, then a good log."""
    cut = len(gz) * 3 // 5
    outer = io.BytesIO()
    with tarfile.open(fileobj=outer, mode="w") as t:
        for arc, data in (("inner.tar.gz", gz[:cut]), ("last.log", logs[-1])):
            ti = tarfile.TarInfo(arc)
            ti.size = len(data)
            t.addfile(ti, io.BytesIO(data))
    p = path("outer.tar")
    with open(p, "wb") as f:
        f.write(outer.getvalue())
    want, _, _, _ = expect_from(gz[:cut], "nested")
    db, rc, err = ingest("nested", p)
    eq(rc, 1, "nested cut tar.gz: exit 1")
    eq(vio_rows(db), sorted(set(want) | set(dump_rows([logs[-1]]))),
       "nested cut tar.gz: its readable part and the log after it loaded")
    eq(sql(db, "SELECT source, offset, reason FROM io_damage"),
       [(p + ":inner.tar.gz", cut, "truncated gzip input")],
       "nested cut tar.gz: damage named OUTER:INNER")


def check_headless(gz):
    """Cut before the first tar header is whole: nothing to load, but a
    damaged archive in a directory, not a file skipped in silence."""
    d = path("dir")
    os.makedirs(d)
    p = os.path.join(d, "stub.tar.gz")
    with open(p, "wb") as f:
        f.write(gz[:60])
    db, rc, err = ingest("headless", d)
    eq(rc, 1, "tar.gz cut before its first header: exit 1")
    eq(sql(db, "SELECT source, offset, reason FROM io_damage"),
       [(p, 60, "truncated gzip input")],
       "tar.gz cut before its first header: reported as damaged")


def main():
    # Small: the whole tar.gz is less than libarchive's 64 KiB window.
    small = make_logs("small", 3, 90)
    tar = ustar(small)
    gz = gzip.compress(tar, mtime=0)
    ok(len(tar) < 65536, "small archive inflates to under 64 KiB",
       "%d bytes" % len(tar))
    check_cut(small, gz, len(gz) * 3 // 5, "small.tar.gz")
    check_cut(small, gz, len(gz) - 9, "small-trailer.tar.gz")
    check_flipped(small, gz, "flipped.tar.gz")
    check_multimember(small, tar)
    check_nested(small, gz)
    check_headless(gz)
    # Larger: many members; the cut falls well past the first window.
    many = make_logs("many", 16, 240)
    gz = gzip.compress(ustar(many), mtime=0)
    check_cut(many, gz, len(gz) * 7 // 10, "many.tar.gz")
    done()


main()
