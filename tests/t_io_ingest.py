"""iocensus ingest: logs, directories and archives into the census database.

The oracle is `iostatmon dump` of the same logs (its own tests check it
against tests/lib/diskgen.py's ground truth): v_io must hold exactly its
rows, t and seconds rounded to milliseconds. Idempotency is checked on the
bytes of `sqlite3 DB .dump`, and on a canonical form (ids replaced by
names) where the order of loading may change surrogate ids.
"""
import csv
import gzip
import io
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tarfile
import tempfile
from collections import Counter
from decimal import Decimal

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from tap import ok, eq, done, skip    # noqa: E402
from pace import limit  # noqa: E402
from diskgen import Capture           # noqa: E402
from rawgen import Dataset            # noqa: E402
from iolog_py import layout, after_cut, after_damage  # noqa: E402

BUILD = os.environ.get("BUILD", "build")
IOC = os.path.join(BUILD, "iocensus")
MON = os.path.join(BUILD, "iostatmon")
TMP = tempfile.mkdtemp(prefix="t_io_ingest.")
M32, M64 = 1 << 32, 1 << 64
HOST_A = "h1\n<script>alert(1)</script>"


def path(*p):
    return os.path.join(TMP, *p)


def run(*args, timeout=300):
    p = subprocess.run([str(a) for a in args], capture_output=True,
                       text=True, timeout=limit(timeout))
    return p.returncode, p.stdout, p.stderr


def ingest(db, *paths, j=None, fmt="csv"):
    args = [IOC, "ingest", "--db", db, "--format", fmt]
    if j is not None:
        args += ["-j", j]
    return run(*(args + list(paths)))


def sql(db, q):
    con = sqlite3.connect(db)
    try:
        return con.execute(q).fetchall()
    finally:
        con.close()


def dump_db(db):
    """Every row but the census's label key, which each database draws at
    random when it is made."""
    return "\n".join(l for l in run("sqlite3", db, ".dump")[1].split("\n")
                     if not l.startswith("INSERT INTO census_key"))


# ---- test data -------------------------------------------------------

def capture_a():
    """Every column variant, wraps of 32- and 64-bit counters, a device
    that leaves and comes back, a reboot, cciss/c0d0."""
    c = Capture(long_bits=64, seed=11)
    c.add("sda", 8, 0, 20)
    c.add("sdb", 8, 16, 18)
    c.add("sdc1", 8, 33, 7)
    c.add("cciss/c0d0", 104, 0, 14)
    c.add("nvme0n1", 259, 0, 20,
          start={f: M32 - 30000 for f in (3, 7, 9, 10, 14, 16)})
    c.add("sde", 8, 64, 20, start={0: M64 - 500, 2: M64 - 100000})
    for i in range(150):
        if i == 40:
            c.remove("sdb")
        if i == 50:
            c.add("sdb", 8, 16, 18)
        if i == 90:
            c.reboot()
        c.sample(60, active=0.6)
    return c


def capture_b():
    """A 32-bit kernel: every counter wraps at 2^32."""
    c = Capture(long_bits=32, seed=12, t0=1700000000 + 3600 * 2)
    c.add("sda", 8, 0, 14, start={0: M32 - 2000, 2: M32 - 70000})
    c.add("dm-0", 253, 0, 14)
    for _ in range(120):
        c.sample(60, active=0.7)
    return c


def write(name, text):
    with open(path(name), "w") as f:
        f.write(text)
    return path(name)


def import_log(raw, host, log):
    rc, _, err = run(MON, "import", raw, "--host", host, "--out", log)
    ok(rc == 0, "import %s" % os.path.basename(log), err)
    return log


def dump_rows(*logs):
    """Expected v_io rows from `iostatmon dump`: (host, device, t_ms,
    dur_ms, rd_ios, wr_ios, rd_bytes, wr_bytes, io_ms)."""
    rc, out, err = run(MON, "dump", *logs)
    rows = []
    r = csv.reader(io.StringIO(out))
    head = next(r)
    for x in r:
        d = dict(zip(head, x))
        t_ns = int(Decimal(d["t"]) * 10 ** 9)
        s_ns = int(Decimal(d["seconds"]) * 10 ** 9)
        rows.append((d["host"], d["device"], (t_ns + 500000) // 10 ** 6,
                     (s_ns + 500000) // 10 ** 6, int(d["rd_ios"] or 0),
                     int(d["wr_ios"] or 0), int(d["rd_sectors"] or 0) * 512,
                     int(d["wr_sectors"] or 0) * 512, int(d["io_ms"] or 0)))
    return sorted(rows), rc, err


def ms(v):
    """v_io's t or seconds (int when whole, else a real) in ms."""
    return int(Decimal(repr(v)) * 1000)


def vio_rows(db):
    rows = sql(db, "SELECT host, device, t, seconds, rd_ios, wr_ios, "
               "rd_bytes, wr_bytes, busy_ms FROM v_io")
    return sorted((h, d, ms(t), ms(s), a, b, c, e, f)
                  for h, d, t, s, a, b, c, e, f in rows)


def vio_types_exact(db):
    """t and seconds are integers exactly when they are whole."""
    bad = sql(db, "SELECT count(*) FROM v_io WHERE "
              "(typeof(t) = 'integer') != (t = CAST(t AS INTEGER)) OR "
              "(typeof(seconds) = 'integer') != "
              "(seconds = CAST(seconds AS INTEGER))")
    return bad[0][0] == 0


def canonical(db):
    """Every table with surrogate ids replaced by names, sorted; io_source
    and io_damage are left out (they name the sources)."""
    out = {}
    out["dev"] = sorted(sql(db, "SELECT h.name, d.name, d.interval_ms, "
                            "d.first_ms, d.last_ms FROM io_dev d JOIN io_host h"
                            " ON h.id = d.host_id"))
    out["chunk"] = sorted(sql(db, "SELECT h.name, d.name, c.t0, c.n, c.t1_ms,"
                              " c.step_ms, c.t_dev, c.s_dev, c.rd_ios, "
                              "c.wr_ios, c.rd_sec, c.wr_sec, c.rd_ms, c.wr_ms,"
                              " c.io_ms, c.oth_ios FROM io_chunk c JOIN io_dev"
                              " d ON d.id = c.dev_id JOIN io_host h ON "
                              "h.id = d.host_id"))
    for t in ("io_minute", "io_hour", "io_day", "io_dirty"):
        out[t] = sorted(sql(db, "SELECT * FROM " + t))
    out["host_hour"] = sorted(sql(db, "SELECT h.name, x.t0, x.expected, "
                                  "x.complete, x.rd, x.wr, x.ios FROM "
                                  "io_host_hour x JOIN io_host h ON "
                                  "h.id = x.host_id"))
    out["dev_hour"] = sorted(sql(db, "SELECT h.name, d.name, x.* FROM "
                                 "io_dev_hour x JOIN io_dev d ON d.id = "
                                 "x.dev_id JOIN io_host h ON h.id = "
                                 "d.host_id"))
    out["dev_hour"] = [r[:2] + r[3:] for r in out["dev_hour"]]  # no dev_id
    return out


def csv_tables(text):
    """{key: [dict rows]} from iocensus' CSV output."""
    tables, key, lines = {}, None, []

    def flush():
        if key is not None:
            tables[key] = list(csv.DictReader(io.StringIO("\n".join(lines))))
    for line in text.split("\n"):
        if line.startswith("# "):
            flush()
            key, lines = line[2:].strip(), []
        elif key is not None and line:
            lines.append(line)
    flush()
    return tables


def source_col(out, col):
    """A column of the first row of the "sources" table."""
    t = csv_tables(out).get("sources") or [{}]
    return t[0].get(col)


def total(out, col):
    t = csv_tables(out).get("totals") or [{}]
    return t[0].get(col)


def same_canonical(a, b, name):
    ca, cb = canonical(a), canonical(b)
    diffs = [k for k in ca if ca[k] != cb[k]]
    ok(not diffs, name, "tables differ: %s" % ", ".join(diffs))


def without_sources(dump):
    return "\n".join(l for l in dump.split("\n")
                     if not l.startswith(("INSERT INTO io_source ",
                                          "INSERT INTO io_damage ")))


# ---- the checks --------------------------------------------------------

def make_logs():
    logs = {}
    logs["a"] = import_log(write("a.raw", capture_a().text()), HOST_A,
                           path("a.iolog.gz"))
    logs["b"] = import_log(write("b.raw", capture_b().text()), "h2",
                           path("b.iolog.gz"))
    ds = Dataset(seed=5, hosts=["h3"], devs_per_host=2,
                 start=1700000000 // 3600 * 3600, minutes=200)
    ds.jitter("h3", ms=7)                       # t like 1700000060.003
    ds.write(path("c"))
    logs["c"] = import_log(path("c", "h3.raw"), "h3", path("c.iolog.gz"))
    return logs


def check_values(logs):
    db = path("one.db")
    rc, out, err = ingest(db, logs["a"], logs["b"], logs["c"])
    eq(rc, 0, "three logs: exit 0")
    ok(err == "", "three logs: nothing on stderr", err)
    want, drc, _ = dump_rows(logs["a"], logs["b"], logs["c"])
    got = vio_rows(db)
    ok(len(want) > 1000 and drc == 0, "oracle has rows", "%d" % len(want))
    eq(got, want, "v_io rows equal iostatmon dump rows (t, seconds in ms)")
    ok(any(r[2] % 1000 for r in want), "some sample times are fractional")
    ok(vio_types_exact(db), "v_io t/seconds are integers exactly when whole")
    hosts = sorted(h for h, in sql(db, "SELECT name FROM io_host"))
    eq(hosts, sorted([HOST_A, "h2", "h3"]), "host names kept byte for byte")
    devs = {}
    for r in want:
        k = (r[0], r[1])
        lo, hi = devs.get(k, (r[2] - r[3], r[2]))
        devs[k] = (min(lo, r[2] - r[3]), max(hi, r[2]))
    got_devs = {(h, d): (a, b) for h, d, a, b in sql(
        db, "SELECT h.name, d.name, first_ms, last_ms FROM io_dev d "
        "JOIN io_host h ON h.id = d.host_id")}
    eq(got_devs, devs, "io_dev first_ms/last_ms: earliest start, latest end")
    # import's nominal interval: the most common T difference.
    ts = [Decimal(l[2:]) for l in open(path("c", "h3.raw")) if l[:2] == "T "]
    steps = Counter(int((b - a) * 1000) for a, b in zip(ts, ts[1:]))
    mode = max(steps.values())
    want_iv = {HOST_A: {60000}, "h2": {60000},
               "h3": {d for d, n in steps.items() if n == mode}}
    got_iv = sql(db, "SELECT DISTINCT h.name, interval_ms FROM io_dev d "
                 "JOIN io_host h ON h.id = d.host_id")
    ok(len(got_iv) == 3 and all(iv in want_iv[h] for h, iv in got_iv),
       "io_dev interval_ms from the headers", repr(got_iv))
    src = {n: (s, f, l, dmg) for n, s, f, l, dmg in sql(
        db, "SELECT name, samples, first_t, last_t, damaged FROM io_source")}
    for k in ("a", "b", "c"):
        rows = dump_rows(logs[k])[0]
        eq(src.get(logs[k]), (len(rows), min(r[2] for r in rows) // 1000,
                              max(r[2] for r in rows) // 1000, 0),
           "io_source row of %s" % k)
    eq(total(out, "samples"), str(len(want)), "totals: samples")
    eq(total(out, "new_samples"), str(len(want)), "totals: all new")
    eq(total(out, "hosts"), "3", "totals: hosts")
    eq(total(out, "devices"), str(len(devs)), "totals: devices")
    eq(sql(db, "SELECT count(*) FROM io_dirty"), [(0,)],
       "roll-up ran: no dirty hour left")
    eq(sql(db, "SELECT count(*) FROM io_chunk WHERE n > 3600 OR "
           "t0 % 3600 != 0"), [(0,)], "chunks are UTC hours")
    r127 = {"io_chunk": ("t_dev", "s_dev", "rd_ios", "wr_ios", "rd_sec",
                         "wr_sec", "rd_ms", "wr_ms", "io_ms", "oth_ios"),
            "io_host_hour": ("rd", "wr", "ios")}
    kinds = set()
    for table, cols in r127.items():
        for c in cols:
            kinds |= {(table, k) for k, in sql(
                db, "SELECT DISTINCT typeof(%s) FROM %s" % (c, table))}
    ok({k for _, k in kinds} <= {"blob", "null"} and
       {t for t, k in kinds if k == "blob"} == set(r127),
       "r127 columns are BLOBs (NULL when all 0)", repr(sorted(kinds)))
    return db


def check_again(db, logs):
    before = dump_db(db)
    rc, out, err = ingest(db, logs["b"], logs["a"], logs["c"])
    eq(rc, 0, "again: exit 0")
    eq(total(out, "new_samples"), "0", "again: nothing new")
    ok(dump_db(db) == before, "again: .dump byte-identical")
    rows = csv_tables(out).get("sources", [])
    ok(rows and all(r["duplicates"] == r["samples"] for r in rows),
       "again: every sample a duplicate", repr(rows[:1]))


def check_order_free(logs):
    """Threads and argument order change nothing but surrogate ids."""
    d1, d2, d3 = path("j1.db"), path("j4.db"), path("rev.db")
    ingest(d1, logs["a"], logs["b"], logs["c"], j=1)
    ingest(d2, logs["a"], logs["b"], logs["c"], j=4)
    ok(dump_db(d1) == dump_db(d2), "-j 1 and -j 4: .dump byte-identical")
    ingest(d3, logs["c"], logs["b"], logs["a"])
    same_canonical(d1, d3, "reverse order: same tables up to ids")


def split_raw(text, cut_lo, cut_hi):
    """Two captures: blocks [0, cut_hi) and [cut_lo, end): they overlap."""
    blocks = re.split(r"(?m)^(?=T )", text)
    blocks = [b for b in blocks if b]
    return "".join(blocks[:cut_hi]), "".join(blocks[cut_lo:])


def check_overlap(logs):
    p1, p2 = split_raw(open(path("a.raw")).read(), 60, 100)
    l1 = import_log(write("p1.raw", p1), HOST_A, path("p1.iolog.gz"))
    l2 = import_log(write("p2.raw", p2), HOST_A, path("p2.iolog.gz"))
    r1, r2, whole = dump_rows(l1)[0], dump_rows(l2)[0], dump_rows(logs["a"])[0]
    both = len(set(r1) & set(r2))
    ok(both > 100 and set(r1) | set(r2) == set(whole),
       "overlapping parts cover the whole log", "%d shared" % both)
    dx, dy, dw = path("x.db"), path("y.db"), path("w.db")
    ingest(dx, l1)
    rc, out, err = ingest(dx, l2)
    eq(rc, 0, "overlap: exit 0")
    eq(source_col(out, "duplicates"), str(both),
       "overlap: shared samples counted as duplicates")
    ingest(dy, l2)
    ingest(dy, l1)
    ingest(dw, logs["a"])
    eq(vio_rows(dx), whole, "overlap: v_io is the whole log")
    same_canonical(dx, dw, "part 1 then 2 = whole log")
    same_canonical(dy, dw, "part 2 then 1 = whole log")
    before = dump_db(dw)
    ingest(dw, l2, l1)
    ok(without_sources(dump_db(dw)) == without_sources(before),
       "parts after the whole: only io_source rows added")


def tar_of(name, mode, members):
    """members: [(arcname, path or None for a directory, or bytes)]."""
    with tarfile.open(path(name), mode) as t:
        for arc, src in members:
            if src is None:
                ti = tarfile.TarInfo(arc)
                ti.type = tarfile.DIRTYPE
                t.addfile(ti)
            elif isinstance(src, bytes):
                ti = tarfile.TarInfo(arc)
                ti.size = len(src)
                t.addfile(ti, io.BytesIO(src))
            else:
                t.add(src, arcname=arc)
    return path(name)


def check_archives(logs, one):
    members = [("logs", None), ("logs/a.iolog.gz", logs["a"]),
               ("logs/README", b"not a log\n"),
               ("logs/b.iolog.gz", logs["b"]), ("c.iolog.gz", logs["c"])]
    tgz = tar_of("bundle.bin", "w:gz", members)      # no telling name
    tar = tar_of("bundle.tar", "w", members)
    for arch in (tgz, tar):
        db = path(os.path.basename(arch) + ".db")
        rc, out, err = ingest(db, arch)
        kind = os.path.basename(arch)
        eq(rc, 0, "%s: exit 0" % kind)
        ok("1 files skipped: not iostatmon logs" in err,
           "%s: the README member skipped and counted" % kind, err)
        ok("iocensus ingest: %s:logs/README: skipped: neither an iostatmon "
           "log, an archive nor compressed data\n" % arch in err,
           "%s: the README member named, and why" % kind, err)
        eq(total(out, "skipped"), "1", "%s: totals skipped" % kind)
        same_canonical(db, one, "%s: same tables as the files" % kind)
        names = sorted(n for n, in sql(db, "SELECT name FROM io_source"))
        eq(names, sorted(arch + ":" + m for m in
                         ("logs/a.iolog.gz", "logs/b.iolog.gz",
                          "c.iolog.gz")), "%s: sources ARCHIVE:MEMBER" % kind)
    before = dump_db(one)
    rc, _, _ = ingest(one, tgz)
    ok(rc == 0 and without_sources(dump_db(one)) == without_sources(before),
       "archive after the files: only io_source rows added")
    zstd = shutil.which("zstd")
    if zstd is None:
        skip("tar.zst", "the zstd program is missing", needs="zstd")
    else:
        zst = path("bundle.tar.zst")
        rc, _, err = run("tar", "--zstd", "-cf", zst, "-C", TMP,
                         "a.iolog.gz", "b.iolog.gz", "c.iolog.gz")
        if rc != 0:
            skip("tar.zst", "tar --zstd failed: %s" % err)
        else:
            db = path("zst.db")
            rc, _, err = ingest(db, zst)
            eq(rc, 0, "tar.zst: exit 0")
            same_canonical(db, one, "tar.zst: same tables as the files")
    # Cut inside the last of several members: the ones before it load.
    big = tar_of("big.tgz", "w:gz", [("m%d.iolog.gz" % i, logs["abc"[i % 3]])
                                     for i in range(9)])
    data = open(big, "rb").read()
    cut = path("cut.tgz")
    with open(cut, "wb") as f:
        f.write(data[:len(data) * 9 // 10])
    db = path("cut.db")
    rc, _, err = ingest(db, cut)
    eq(rc, 1, "cut archive: exit 1")
    m = re.search(r"cut\.tgz: damaged at compressed offset (\d+): ", err)
    ok(m and 0 < int(m.group(1)) <= len(data) * 9 // 10,
       "cut archive: damage reported with file and offset", err)
    want = set(dump_rows(logs["a"], logs["b"], logs["c"])[0])
    got = vio_rows(db)
    ok(got and set(got) <= want, "cut archive: what was read is loaded, "
       "nothing else", "%d rows" % len(got))
    eq(sql(db, "SELECT count(*) FROM io_damage WHERE source = '%s'" % cut),
       [(1,)], "cut archive: damage recorded")


def flip(src, name, at, n=12):
    data = bytearray(open(src, "rb").read())
    for i in range(at, at + n):
        data[i] ^= 0x5A
    with open(path(name), "wb") as f:
        f.write(data)
    return path(name)


def damage_lines(err, prog, name):
    pat = re.compile(r"^%s: %s: damaged at compressed offset (\d+): (.*)$" %
                     (re.escape(prog), re.escape(name)), re.M)
    return [(int(o), r) for o, r in pat.findall(err)]


def check_damage(logs):
    size = os.path.getsize(logs["a"])
    bad = flip(logs["a"], "flip.iolog.gz", size // 2)
    want, drc, derr = dump_rows(bad)
    where = damage_lines(derr, "iostatmon dump", bad)
    ok(drc == 1 and where, "flipped log: dump reports damage", derr)
    db = path("flip.db")
    rc, out, err = ingest(db, bad)
    eq(rc, 1, "flipped log: exit 1")
    eq(damage_lines(err, "iocensus ingest", bad), where,
       "flipped log: same offsets and reasons as dump")
    eq(vio_rows(db), want, "flipped log: v_io holds what dump reads")
    eq(sorted(sql(db, "SELECT offset, reason FROM io_damage")), sorted(where),
       "flipped log: io_damage rows")
    eq(sql(db, "SELECT damaged FROM io_source"), [(len(where),)],
       "flipped log: io_source.damaged")
    before = dump_db(db)
    rc, _, _ = ingest(db, bad)
    ok(rc == 1 and dump_db(db) == before, "flipped log again: .dump same")

    check_cuts(logs["c"])
    check_resync(logs["c"])


def rows_of(rows, samples):
    """The rows (dump_rows) of the samples (iolog_py frames) kept."""
    ts = {(s.realtime + 500000) // 10 ** 6 for s in samples}
    return [r for r in rows if r[2] in ts]


def check_cuts(log):
    """A log cut where a frame ends (the daemon's file of today, without
    its gzip trailer) is a note, exit 0; cut inside a frame it is damage
    where that frame starts, exit 1; either way every whole frame before
    the cut is loaded (iolog_py says which)."""
    data = open(log, "rb").read()
    members = layout(data)
    clean = dump_rows(log)[0]
    m = members[0]
    ks = [i for i, f in enumerate(m.frames) if f.kind == "S"]
    for k, where in ((ks[len(ks) // 3], "start"), (ks[len(ks) // 3], "mid"),
                     (ks[-1], "mid"), (ks[2 * len(ks) // 3], "start")):
        fr = m.frames[k]
        c = fr.start if where == "start" else (fr.first + fr.last) // 2
        exp = after_cut(data, members, c)
        cut = path("cut%d.iolog.gz" % c)
        with open(cut, "wb") as f:
            f.write(data[:c])
        db = path("cut%d.db" % c)
        rc, out, err = ingest(db, cut)
        name = "log cut at byte %d (%s of frame %d)" % (c, where, k)
        eq(vio_rows(db), rows_of(clean, exp.samples),
           "%s: v_io holds every whole frame before the cut" % name)
        dmg = sql(db, "SELECT offset, reason FROM io_damage")
        if where == "start":
            ok(exp.note == c and not exp.damage, "%s: a clean end" % name)
            eq((rc, dmg), (0, []), "%s: exit 0, no damage recorded" % name)
            ok(re.search(r"^iocensus ingest: %s: note: ends after a whole "
                         r"frame, without its gzip trailer .*, at compressed "
                         r"offset %d$" % (re.escape(cut), c), err, re.M),
               "%s: a note" % name, err)
            eq(source_col(out, "status"), "truncated", "%s: status" % name)
        else:
            at = exp.damage[0][0]
            eq((rc, dmg), (1, [(at, "truncated inside a frame")]),
               "%s: exit 1, damage where the frame starts" % name)
            eq(err, "iocensus ingest: %s: damaged at compressed offset %d: "
               "truncated inside a frame\n" % (cut, at), "%s: says so" % name)
            eq(sql(db, "SELECT damaged FROM io_source"), [(1,)],
               "%s: io_source.damaged" % name)


def check_resync(log):
    """A byte flipped in a sample three samples before a keyframe: the
    samples before it and from the second after it on load (a version 2
    writer stores samples in stored blocks, which refer to no byte before
    them, so reading resumes at the next sample, whose clocks start the
    interval of the one after); one damage row says where the loss
    starts, where reading resumed and how many sample records were
    lost."""
    data = open(log, "rb").read()
    members = layout(data)
    m = members[0]
    kk = [i for i, f in enumerate(m.frames) if f.kind == "K" and i > 10]
    ok(kk, "the log has an hourly keyframe")
    k = kk[0] - 3
    fr = m.frames[k]
    bad = bytearray(data)
    bad[(fr.first + fr.last) // 2] ^= 0xff
    p = path("resync.iolog.gz")
    open(p, "wb").write(bad)
    exp = after_damage(data, members, 0, k)
    (at, res, n), = exp.damage
    eq((res, n), (m.frames[k + 1].start, 2), "oracle: reading resumes at "
       "the next sample, 2 sample records lost")
    db = path("resync.db")
    rc, out, err = ingest(db, p)
    clean = dump_rows(log)[0]
    want = rows_of(clean, exp.samples)
    eq(vio_rows(db), want, "damage before a keyframe: v_io holds the rows "
       "before it and from the second sample after it on (%d of %d)" % (len(want),
                                                        len(clean)))
    dmg = sql(db, "SELECT offset, reason FROM io_damage")
    ok(rc == 1 and len(dmg) == 1 and dmg[0][0] == at and dmg[0][1].endswith(
       "; resumed at compressed offset %d; 2 sample records lost" % res),
       "damage before a keyframe: exit 1, one io_damage row: where the "
       "loss starts, where reading resumed, records lost", repr(dmg))
    ok(err == "iocensus ingest: %s: damaged at compressed offset %d: %s\n"
       % (p, at, dmg[0][1] if dmg else ""), "damage before a keyframe: "
       "the same on stderr", err)


def check_names(logs):
    """Names in messages are escaped as in the tables: a file name holding
    a newline cannot start a line that looks like another message."""
    d = path("names")
    os.makedirs(d)
    data = bytearray(open(logs["c"], "rb").read())
    data[len(data) // 2] ^= 0xff
    open(os.path.join(d, "a\nfake: line.iolog.gz"), "wb").write(data)
    open(os.path.join(d, "b\\x0a.iolog.gz"), "wb").write(data)
    bad = os.path.join(d, "c\udcff\x1b[2J.iolog.gz")
    p = subprocess.run([IOC, "ingest", "--db", path("names.db"), d,
                        bad.encode("utf-8", "surrogateescape")],
                       capture_output=True, timeout=limit(120))
    err = p.stderr.decode("utf-8", "surrogateescape")
    lines = err.splitlines()
    ok(p.returncode == 1 and len(lines) == 3 and
       all(l.startswith("iocensus ingest: ") for l in lines),
       "hostile names: three messages, one line each", err)
    ok("%s/a\\x0afake: line.iolog.gz: damaged at" % d in err and
       "%s/b\\\\x0a.iolog.gz: damaged at" % d in err and
       "%s/c\\xff\\x1b[2J.iolog.gz: No such file" % d in err,
       "hostile names: newline, escape and invalid UTF-8 shown as \\xNN, "
       "a backslash doubled", err)


def check_damaged_header(logs):
    """A log whose header frame is damaged, followed in the same file by
    a good member (a daemon restart), is a log wherever it is found:
    named, in a directory, in an archive. The good member loads; the
    damage is recorded with offset and reason; exit 1. Foreign files are
    still skipped and counted."""
    a, b = (open(logs[k], "rb").read() for k in ("c", "b"))
    ma = layout(a)[0]
    h = ma.frames[0]
    mid = bytearray(a)                  # the magic survives
    mid[(h.first + h.last) // 2] ^= 0xff
    start = bytearray(a)                # inflate fails at once
    for i in range(ma.data, ma.data + 4):
        start[i] ^= 0xff
    want = dump_rows(logs["b"])[0]
    d = path("hdr")
    os.makedirs(d)
    cases = [("mid.iolog.gz", mid), ("mid.gz", mid),
             ("start.iolog.gz", start), ("start.log", start)]
    for name, data in cases:
        open(os.path.join(d, name), "wb").write(bytes(data) + b)
    open(os.path.join(d, "alone.iolog.gz"), "wb").write(bytes(mid))
    open(os.path.join(d, "random.bin"), "wb").write(
        bytes((i * 7919 + 13) % 251 for i in range(5000)))
    open(os.path.join(d, "text.txt"), "w").write("not a log\n" * 50)
    with gzip.open(os.path.join(d, "other.gz"), "wt") as f:
        f.write("gzip, but not a log\n" * 100)
    t = path("hdr.tar")
    with tarfile.open(t, "w") as tf:
        for name, data in cases:
            ti = tarfile.TarInfo(name)
            ti.size = len(data) + len(b)
            tf.addfile(ti, io.BytesIO(bytes(data) + b))
    for what, args in (("directory", [d]), ("archive", [t]),
                       ("named", [os.path.join(d, n) for n, _ in cases])):
        db = path("hdr-%s.db" % what)
        rc, out, err = ingest(db, *args)
        eq(rc, 1, "damaged header frame (%s): exit 1" % what)
        eq(sorted(set(vio_rows(db))), want, "damaged header frame (%s): the "
           "good member after it loads" % what)
        dmg = sql(db, "SELECT source, offset, reason FROM io_damage")
        srcs = [n for n, _ in cases] + (["alone.iolog.gz"]
                                        if what == "directory" else [])
        base = t + ":" if what == "archive" else d + "/"
        ok(sorted(s for s, _, _ in dmg) == sorted(base + n for n in srcs) and
           all(o == ma.data and r.endswith("; resumed at compressed offset "
                                           "%d" % len(a))
               for s, o, r in dmg if "alone" not in s),
           "damaged header frame (%s): one io_damage row per log, where "
           "its data starts, resumed at the next member" % what, repr(dmg))
        if what == "directory":
            ok("3 files skipped: not iostatmon logs" in err, "random bytes, "
               "text and other gzip are still skipped and counted", err)
            eq(sql(db, "SELECT samples, damaged FROM io_source WHERE name = "
                   "'%s'" % os.path.join(d, "alone.iolog.gz")), [(0, 1)],
               "a log with only a damaged header frame: a source, damaged")


def small_log(name, host, seed, t0=1700000000):
    c = Capture(seed=seed, t0=t0)
    c.add("sda", 8, 0, 20)
    for _ in range(30):
        c.sample(60, active=1.0)
    return import_log(write(name + ".raw", c.text()), host,
                      path(name + ".iolog.gz"))


def check_directory(logs):
    tree = path("tree")
    os.makedirs(os.path.join(tree, "sub"))
    shutil.copy(logs["a"], os.path.join(tree, "a.iolog.gz"))
    shutil.copy(logs["b"], os.path.join(tree, "B.iolog.gz"))
    shutil.copy(logs["c"], os.path.join(tree, "sub", "c.iolog.gz"))
    write("tree/README.txt", "hello\n")
    with gzip.open(os.path.join(tree, "notes.gz"), "wt") as f:
        f.write("gzip, but not a log\n" * 100)
    write("tree/empty", "")
    outside = small_log("outside", "h9", 31)
    os.symlink(outside, os.path.join(tree, "link.iolog.gz"))
    db = path("tree.db")
    rc, out, err = ingest(db, tree + "/")
    eq(rc, 0, "directory: exit 0")
    ok("3 files skipped: not iostatmon logs" in err,
       "directory: non-logs skipped and counted", err)
    for name, why in (("README.txt", "neither an iostatmon log nor an "
                       "archive"), ("empty", "neither an iostatmon log nor "
                                    "an archive"),
                      ("notes.gz", "gzip data, not an iostatmon log")):
        ok("iocensus ingest: %s/%s: skipped: %s\n" % (tree, name, why) in err,
           "directory: %s named, and why" % name, err)
    fifos = path("fifos")
    os.makedirs(fifos)
    os.mkfifo(os.path.join(fifos, "pipe"))
    frc, _, ferr = ingest(path("fifos.db"), fifos)
    ok(frc == 0 and "iocensus ingest: %s/pipe: skipped: not a regular "
       "file\n" % fifos in ferr, "directory: a FIFO named, and why", ferr)
    ok("1 symbolic links not followed" in err, "directory: link noted", err)
    eq(vio_rows(db), dump_rows(logs["a"], logs["b"], logs["c"])[0],
       "directory: v_io holds the three logs")
    eq(sql(db, "SELECT count(*) FROM io_host WHERE name = 'h9'"), [(0,)],
       "directory: the symlinked log was not read")
    order = [r["source"] for r in csv_tables(out).get("sources", [])]
    eq(order, [os.path.join(tree, n) for n in
               ("B.iolog.gz", "a.iolog.gz", "sub/c.iolog.gz")],
       "directory: sources in byte order of names")


def check_errors(logs):
    db = path("err.db")
    missing = path("missing.iolog.gz")
    rc, out, err = ingest(db, missing, logs["b"])
    eq(rc, 1, "missing file: exit 1")
    ok("iocensus ingest: %s: No such file or directory" % missing in err,
       "missing file: errno text", err)
    eq(vio_rows(db), dump_rows(logs["b"])[0], "missing file: the rest loaded")
    rc, _, err = ingest(db, path("tree", "README.txt"))
    ok(rc == 1 and "README.txt: not an iostatmon log" in err,
       "named non-log file: exit 1 with a reason", err)
    rc, _, err = ingest(db, logs["b"] + "/")
    ok(rc == 1 and "Not a directory" in err, "path through a file: errno "
       "text", err)
    setpriv = shutil.which("setpriv")
    if os.geteuid() != 0:
        drop = []
    elif setpriv:
        drop = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"]
    else:
        skip("unreadable inputs", "running as root without setpriv",
             needs="setpriv")
        return
    pub = tempfile.mkdtemp(prefix="t_io_ingest_pub.")
    try:
        # nobody's own directory: a database is never made in one that
        # every user may write
        os.chown(pub, 65534, 65534)
        locked = os.path.join(pub, "locked")
        os.mkdir(locked)
        shutil.copy(logs["b"], os.path.join(locked, "b.iolog.gz"))
        os.chmod(locked, 0)
        secret = os.path.join(pub, "secret.iolog.gz")
        shutil.copy(logs["b"], secret)
        os.chmod(secret, 0)
        db = os.path.join(pub, "p.db")
        p = subprocess.run(drop + [IOC, "ingest", "--db", db, locked, secret],
                           capture_output=True, text=True, timeout=limit(120))
        eq(p.returncode, 1, "unreadable dir and file: exit 1")
        ok("%s: Permission denied" % locked in p.stderr and
           "%s: Permission denied" % secret in p.stderr,
           "unreadable dir and file: errno text", p.stderr)
    finally:
        os.chmod(os.path.join(pub, "locked"), 0o755)
        shutil.rmtree(pub, ignore_errors=True)


def dump_values(log):
    """{(host, device, t_ms): (dur_ms, the eight stored fields)}."""
    _, out, _ = run(MON, "dump", log)
    res = {}
    for d in csv.DictReader(io.StringIO(out)):
        n = lambda k: int(d[k] or 0)          # noqa: E731
        t = int(Decimal(d["t"]) * 1000)
        res[(d["host"], d["device"], t)] = (
            int(Decimal(d["seconds"]) * 1000), n("rd_ios"), n("wr_ios"),
            n("rd_sectors"), n("wr_sectors"), n("rd_ms"), n("wr_ms"),
            n("io_ms"), n("dc_ios") + n("fl_ios"))
    return res


def check_conflicts():
    x = small_log("cx", "hc", 41)
    y = small_log("cy", "hc", 42)
    vx, vy = dump_values(x), dump_values(y)
    clash = sum(1 for k in vx if k in vy and vx[k] != vy[k])
    ok(clash > 0 and set(vx) == set(vy), "conflict logs share times")
    db = path("conflict.db")
    ingest(db, x)
    rc, out, err = ingest(db, y)
    eq(rc, 1, "conflicting values: exit 1")
    lines = [l for l in err.split("\n") if "cy.iolog.gz" in l]
    ok(len(lines) == 1 and "kept" in lines[0],
       "conflicting values: one warning for the source", err)
    eq(source_col(out, "conflicts"), str(clash),
       "conflicting values: counted")
    eq(vio_rows(db), dump_rows(x)[0], "conflicting values: stored ones kept")


def check_json(logs):
    rc, out, _ = ingest(path("json.db"), logs["c"], fmt="json")
    try:
        j = json.loads(out)
    except ValueError:
        j = {}
    ok(rc == 0 and set(j.get("tables", {})) >= {"sources", "totals"},
       "--format json: sources and totals", out[:200])


def check_signal(logs):
    """SIGINT mid-ingest: exit 3, loaded sources whole, hours left dirty;
    the next ingest finishes the job as if nothing had happened."""
    many = path("many")
    os.makedirs(many)
    for i in range(60):
        shutil.copy(logs["abc"[i % 3]], os.path.join(many, "l%02d.gz" % i))
    clean, cut = path("clean.db"), path("sig.db")
    ingest(clean, many)
    p = subprocess.Popen([IOC, "ingest", "--db", cut, "--format", "csv",
                          "-j", "1", many], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    n = 0
    while p.poll() is None and n == 0:
        try:
            n = sql(cut, "SELECT count(*) FROM io_source")[0][0]
        except sqlite3.Error:
            pass
    p.send_signal(2)
    out, err = p.communicate(timeout=limit(120))
    if p.returncode == 0:
        skip("SIGINT (3 checks)", "ingest finished before the signal")
    else:
        eq(p.returncode, 3, "SIGINT: exit 3")
        loaded = sql(cut, "SELECT sum(samples) FROM io_source")[0][0] or 0
        eq(len(vio_rows(cut)), len(set(dump_rows(*[
            os.path.join(many, n) for n, in
            sql(cut, "SELECT name FROM io_source")])[0])),
           "SIGINT: the loaded sources are whole")
        ok(loaded > 0, "SIGINT: something was loaded first")
    rc, _, err = ingest(cut, many)
    eq(rc, 0, "after SIGINT: ingest again exits 0")
    same_canonical(cut, clean, "after SIGINT: same tables as one ingest")
    eq(sorted(sql(cut, "SELECT * FROM io_source")),
       sorted(sql(clean, "SELECT * FROM io_source")),
       "after SIGINT: same io_source rows")


def main():
    logs = make_logs()
    one = check_values(logs)
    check_again(one, logs)
    check_order_free(logs)
    check_overlap(logs)
    check_archives(logs, one)
    check_damage(logs)
    check_damaged_header(logs)
    check_names(logs)
    check_directory(logs)
    check_errors(logs)
    check_conflicts()
    check_json(logs)
    check_signal(logs)


try:
    main()
finally:
    shutil.rmtree(TMP, ignore_errors=True)
done()
