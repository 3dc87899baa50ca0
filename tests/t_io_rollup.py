#!/usr/bin/env python3
"""t_io_rollup: the derived I/O tables and the minute loaders, end to end.

Generated raw captures (tests/lib/rawgen.py: several hosts over three days,
bursts, an idle run of exactly 60 minutes, a window missing for every host
and one missing for one host, a reboot, a device added late and one removed
early, a host whose T lines jitter by milliseconds) go through `iostatmon
import` and `iocensus ingest`. Every row of io_minute, io_host_hour (r127
decoded here), io_dev_hour, io_hour and io_day must equal what
tests/lib/io_oracle.py computes from the raw text alone; so must the
minutes, host scans and device totals of report/query/ (through the
dump mode of build/tests/report/test_rollup). Ingesting the same data in two
overlapping halves, later half first, must give the same tables.

The expected end (sql/io.sql): a host that stops logging, or whose log is
truncated, is expected, hence missing, to the end of the data; a disk
removed from a host that goes on logging is not; a stopped host that
resumes in a later ingest fills its gap. Pieces of the captures ingested
in several runs and in any order give the tables of one ingest of all,
and after every run those of the oracle of the pieces so far.
"""
import json
import os
import random
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
from tap import ok, eq, done                      # noqa: E402
from rawgen import Dataset                        # noqa: E402
from io_oracle import load_raw, build, r127_decode  # noqa: E402

BUILD = os.environ.get("BUILD", "build")
IOCENSUS = os.path.join(BUILD, "iocensus")
IOSTATMON = os.path.join(BUILD, "iostatmon")
DUMP = os.path.join(BUILD, "tests", "report", "test_rollup")

DAY = 86400
S = 1262304000                  # 2010-01-01 00:00 UTC
IDLE_AT = S + 5 * 3600          # the exact 60-minute idle run
REBOOT_AT = S + DAY + 15 * 3600 + 30


def dataset():
    ds = Dataset(seed=4, hosts=4, devs_per_host=3, start=S, minutes=3 * 1440)
    ds.idle_run(IDLE_AT, 60)
    ds.idle(S + 2 * DAY + 3600, S + 2 * DAY + 3 * 3600, hosts=["h001"])
    ds.burst(S + 9 * 3600, S + 9 * 3600 + 600, level=0.9)
    ds.missing(S + DAY + 2 * 3600, S + DAY + 4 * 3600)
    ds.missing(S + 2 * DAY + 6 * 3600, S + 2 * DAY + 9 * 3600 + 120,
               host="h001")
    ds.reboot("h002", REBOOT_AT)
    ds.device_window("h003", "sdb", t_from=S + 10 * 3600 + 7 * 60)
    ds.device_window("h000", "sdc", t_to=S + 2 * DAY + 12 * 3600)
    ds.jitter("h003", ms=4)
    return ds


def run(cmd, want=(0,)):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode not in want:
        raise RuntimeError("%s: exit %d: %s" % (" ".join(cmd), p.returncode,
                                                p.stderr[-2000:]))
    return p.stdout


def import_all(rawdir, logdir):
    os.makedirs(logdir, exist_ok=True)
    for f in sorted(os.listdir(rawdir)):
        h = f[:-4]
        run([IOSTATMON, "import", os.path.join(rawdir, f), "--host", h,
             "--out", os.path.join(logdir, h + ".log")])


def ingest(db, *paths):
    return subprocess.run([IOCENSUS, "ingest", "--db", db] + list(paths),
                          capture_output=True, text=True)


def blocks(path):
    return [b for b in re.split(r"(?m)^(?=T )", open(path).read()) if b]


def split_raw(rawdir, outdir, keep):
    """outdir/HOST.raw with the blocks whose T satisfies keep(T)."""
    os.makedirs(outdir, exist_ok=True)
    for f in sorted(os.listdir(rawdir)):
        with open(os.path.join(outdir, f), "w") as out:
            out.write("".join(b for b in blocks(os.path.join(rawdir, f))
                              if keep(float(b.split()[1]))))


# ---- the derived tables, read back

def tables(db):
    c = sqlite3.connect(db)
    hosts = dict(c.execute("SELECT id, name FROM io_host"))
    devs = {r[0]: (hosts[r[1]], r[2]) for r in
            c.execute("SELECT id, host_id, name FROM io_dev")}
    t = {}
    t["io_minute"] = {r[0]: tuple(r[1:]) for r in c.execute(
        "SELECT t, expected, valid, rd_bytes, wr_bytes, ios FROM io_minute")}
    t["io_host_hour"] = {
        (hosts[h], t0): (e, cm, r127_decode(rd, 60), r127_decode(wr, 60),
                         r127_decode(ios, 60))
        for h, t0, e, cm, rd, wr, ios in c.execute(
            "SELECT host_id, t0, expected, complete, rd, wr, ios "
            "FROM io_host_hour")}
    t["io_dev_hour"] = {devs[r[0]] + (r[1],): tuple(r[2:]) for r in c.execute(
        "SELECT dev_id, t0, minutes, samples, rd_bytes, wr_bytes, ios, "
        "rd_ios, wr_ios, oth_ios, rd_ms, wr_ms, io_ms, peak_bytes, peak_t, "
        "peak_ios FROM io_dev_hour")}
    for name in ("io_hour", "io_day"):
        t[name] = {r[0]: tuple(r[1:]) for r in c.execute(
            "SELECT t, minutes, rd_bytes, wr_bytes, ios, peak_bytes, "
            "peak_rd, peak_wr FROM %s" % name)}
    t["dirty"] = c.execute("SELECT count(*) FROM io_dirty").fetchone()[0]
    c.close()
    return t


def expected_tables(m):
    return {"io_minute": m.minute_rows, "io_host_hour": m.host_hours(),
            "io_dev_hour": m.dev_hours(), "io_hour": m.hours(),
            "io_day": m.days(), "dirty": 0}


def compare(got, want, what):
    for name in ("io_minute", "io_host_hour", "io_dev_hour", "io_hour",
                 "io_day", "dirty"):
        eq(got[name], want[name], "%s: %s" % (what, name))


# ---- the loaders, through test_rollup's dump mode

def dump(cmd, db, frm, to, hosts):
    args = [DUMP, cmd, db, str(frm or 0), str(to or 0)] + list(hosts or [])
    return run(args).splitlines()


def check_loaders(db, m, frm, to, hosts, what):
    lines = dump("minutes", db, frm, to, hosts)
    got = [tuple(x.split()) for x in lines[1:]]
    want = [(str(t), st, str(rd), str(wr), str(ios))
            for t, st, rd, wr, ios in m.series(hosts, frm, to)]
    eq(got, want, "%s: minutes" % what)
    hl = m.hosts_in_window(hosts, frm, to)
    lines = dump("scan", db, frm, to, hosts)
    eq([x[5:] for x in lines if x.startswith("host ")], hl,
       "%s: hosts with data" % what)
    win = m.resolve(hosts, frm, to)
    want = []
    for t in (range(win[0], win[1], 60) if win else []):
        want.append(" ".join([str(t)] + [
            "%s:%d:%d:%d" % m.host[h].get(t, ("none", 0, 0, 0)) for h in hl]))
    eq([x for x in lines if not x.startswith("host ")], want,
       "%s: host minutes" % what)
    lines = dump("devstats", db, frm, to, hosts)
    got = {tuple(x.split()[:2]): tuple(int(v) for v in x.split()[2:])
           for x in lines}
    eq(got, m.dev_stats(hosts, frm, to), "%s: device totals" % what)
    keys = [tuple(x.split()[:2]) for x in lines]
    eq(keys, sorted(keys), "%s: devices by host, then name" % what)


def check_dataset(m):
    """The generator made what the other tests rely on."""
    ser = {t: (st, rd + wr) for t, st, rd, wr, ios in m.series()}
    run60 = [ser.get(IDLE_AT + 60 * i) for i in range(60)]
    ok(all(x == ("complete", 0) for x in run60),
       "dataset: 60 complete minutes without I/O", repr(run60[:3]))
    before, after = ser.get(IDLE_AT - 60), ser.get(IDLE_AT + 3600)
    ok(before[0] == after[0] == "complete" and before[1] > 0 and after[1] > 0,
       "dataset: a busy complete minute on each side of the idle run",
       "%r %r" % (before, after))
    gap = [ser[t][0] for t in range(S + DAY + 2 * 3600, S + DAY + 4 * 3600, 60)]
    ok(set(gap) == {"missing"}, "dataset: the missing window is missing",
       repr(set(gap)))
    t = REBOOT_AT // 60 * 60         # the block after the reboot ends it
    ok(m.host["h002"][t][0] == "missing",
       "dataset: the reboot's interval is missing on h002")
    late = m.expected[("h003", "sdb")]
    ok(late[0] > S + 10 * 3600, "dataset: h003/sdb expected only from late")


def check_removed_disk(db):
    """h000/sdc leaves at S + 2 DAY + 12 h while h000 logs on: from then
    on h000 is complete (no other gap of h000 there by design), and sdc is
    expected only to its last sample."""
    c = sqlite3.connect(db)
    t0 = S + 2 * DAY + 13 * 3600
    row = c.execute("SELECT expected, complete FROM io_host_hour hh JOIN "
                    "io_host h ON h.id = hh.host_id WHERE h.name = 'h000' "
                    "AND t0 = ?", (t0,)).fetchone()
    eq(row, ((1 << 60) - 1, (1 << 60) - 1),
       "removed disk: its host's later hour is complete")
    ends = dict(c.execute("SELECT d.name, e.end_ms - d.last_ms FROM "
                          "io_expect e JOIN io_dev d ON d.id = e.dev_id "
                          "JOIN io_host h ON h.id = d.host_id WHERE "
                          "h.name = 'h000'"))
    last = c.execute("SELECT max(last_ms) FROM io_dev").fetchone()[0]
    eq(ends["sdc"], 0, "removed disk: expected to its own last sample")
    ok(all(v > 0 for k, v in ends.items() if k != "sdc") and
       last // 1000 == S + 3 * DAY, "removed disk: the others to the end "
       "of the data", repr(ends))
    c.close()


def piece(raw, out, keep):
    """out: the blocks of capture raw whose T satisfies keep(T)."""
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, "w") as f:
        f.write("".join(b for b in blocks(raw) if keep(float(b.split()[1]))))


def import_one(raw, host, log):
    run([IOSTATMON, "import", raw, "--host", host, "--out", log])


def load_piece(p):
    return load_raw(p, os.path.basename(os.path.dirname(p)).split("-")[0],
                    interval=None)


def check_truncated(tmp):
    """A log cut in the middle of its gzip stream: ingest keeps what it
    can read, and the host is missing from there to the end of the data.
    The oracle reads the raw capture up to the last sample ingest kept."""
    d = os.path.join(tmp, "trunc")
    ds = Dataset(seed=17, hosts=3, devs_per_host=2, start=S, minutes=720)
    paths = ds.write(os.path.join(d, "raw"))
    logs = []
    for p in paths:
        h = os.path.basename(p)[:-4]
        logs.append(os.path.join(d, h + ".log"))
        import_one(p, h, logs[-1])
    with open(logs[1], "rb") as f:
        data = f.read()
    with open(logs[1], "wb") as f:
        f.write(data[:len(data) // 2])
    db = os.path.join(d, "t.db")
    p = ingest(db, *logs)
    # Cut in the middle of its bytes: inside a frame, so damage (exit 1).
    ok(p.returncode == 1 and "truncated inside a frame" in p.stderr,
       "truncated log: ingest exits 1, the cut reported", p.stderr)
    c = sqlite3.connect(db)
    last = c.execute("SELECT max(d.last_ms) FROM io_dev d JOIN io_host h ON "
                     "h.id = d.host_id WHERE h.name = 'h001'").fetchone()[0]
    missing = c.execute("SELECT count(*), sum(valid = expected) FROM "
                        "io_minute WHERE t >= ?", (last // 1000,)).fetchone()
    c.close()
    ok(S + 3600 < last // 1000 < S + 11 * 3600,
       "truncated log: about half of h001 is kept", repr(last))
    eq(missing, ((S + 720 * 60 - last // 1000) // 60, 0),
       "truncated log: no complete minute after h001's last sample")
    cut = os.path.join(d, "cut", "h001.raw")
    piece(paths[1], cut, lambda t: t * 1000 <= last + 500)
    hs = [load_raw(paths[0], "h000", interval=None),
          load_raw(cut, "h001", interval=None),
          load_raw(paths[2], "h002", interval=None)]
    compare(tables(db), expected_tables(build(hs)), "truncated log")
    check_upgrade(tmp, db)


V2_DEV_HOUR = """CREATE TABLE io_dev_hour (
  dev_id INTEGER NOT NULL REFERENCES io_dev(id), t0 INTEGER NOT NULL,
  samples INTEGER NOT NULL, covered_ms INTEGER NOT NULL,
  rd_ios INTEGER NOT NULL, wr_ios INTEGER NOT NULL,
  rd_bytes INTEGER NOT NULL, wr_bytes INTEGER NOT NULL,
  rd_ms INTEGER NOT NULL, wr_ms INTEGER NOT NULL,
  io_ms INTEGER NOT NULL, oth_ios INTEGER NOT NULL,
  minutes INTEGER NOT NULL, peak_bytes INTEGER, peak_t INTEGER,
  peak_ios INTEGER, PRIMARY KEY (dev_id, t0)) WITHOUT ROWID"""


def check_upgrade(tmp, src):
    """A database of schema version 2 (made here from a current one:
    no io_expect, the old io_dev_hour, and the roll-ups of the old rule,
    in which a stopped host's minutes counted as complete): an analysis
    upgrades it and says the tables are stale; the next ingest (of
    nothing) rebuilds every table as a fresh ingest has it."""
    db = os.path.join(tmp, "v2.db")
    shutil.copy(src, db)
    want = tables(db)
    c = sqlite3.connect(db)
    c.executescript("DROP TABLE io_expect; DROP TABLE io_dev_hour; " +
                    V2_DEV_HOUR + "; INSERT INTO io_dev_hour SELECT dev_id, "
                    "t0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, t0, 1 FROM "
                    "io_chunk; UPDATE io_minute SET expected = valid; "
                    "DELETE FROM io_host_hour WHERE complete = 0; "
                    "PRAGMA user_version = 2;")
    c.close()
    p = subprocess.run([IOCENSUS, "cdf", "--db", db, "--format", "json"],
                       capture_output=True, text=True)
    notes = json.loads(p.stdout)["notes"] if p.returncode == 0 else []
    ok(any("stale" in n for n in notes),
       "version 2: an analysis upgrades it and says it is stale",
       p.stderr + repr(notes))
    c = sqlite3.connect(db)
    eq(c.execute("PRAGMA user_version").fetchone()[0], 13,
       "version 2: now version 13")
    c.close()
    eq(ingest(db).returncode, 0, "version 2: ingest of nothing exits 0")
    compare(tables(db), want, "version 2, upgraded and rebuilt")


def check_orders(tmp):
    """Captures cut into pieces (each its own log; neighbours share their
    edge block, so no sample is lost), with a host that stops for good
    (h001), a disk removed while its host logs on (h002/sdb), a gap, and
    h000 stopped for a while and resuming in a later piece. Ingested all
    at once, one piece per run in several orders, and all in one run in
    reverse: the same tables, and after every run the oracle's of the
    pieces ingested so far."""
    d = os.path.join(tmp, "orders")
    ds = Dataset(seed=23, hosts=3, devs_per_host=2, start=S, minutes=1440)
    ds.missing(S + 18 * 3600, S + DAY + 60, host="h001")
    ds.device_window("h002", "sdb", t_to=S + 10 * 3600)
    ds.missing(S + 3 * 3600, S + 3 * 3600 + 1200, host="h002")
    paths = dict(zip(ds.hosts, ds.write(os.path.join(d, "raw"))))
    cuts = {"h000": [(0, 8 * 3600), (8 * 3600, 20 * 3600),
                     (20 * 3600, DAY)],
            "h001": [(0, 6 * 3600), (6 * 3600, DAY)],
            "h002": [(0, 5 * 3600), (5 * 3600, DAY)]}
    pieces = []
    for h, cs in sorted(cuts.items()):
        for i, (a, b) in enumerate(cs):
            raw = os.path.join(d, "%s-%d" % (h, i), h + ".raw")
            piece(paths[h], raw, lambda t, a=a, b=b: S + a <= t <= S + b)
            log = raw[:-4] + ".log"
            import_one(raw, h, log)
            pieces.append((raw, log))
    whole = os.path.join(d, "whole.db")
    eq(ingest(whole, *[l for _, l in pieces]).returncode, 0,
       "orders: one ingest of every piece exits 0")
    want = tables(whole)
    compare(want, expected_tables(build([load_raw(p, h, interval=None)
                                         for h, p in paths.items()])),
            "orders: one ingest of every piece")
    # h000 resumes after a stop: its gap at 8 h .. 20 h filled later.
    rng = random.Random(5)
    orders = [[pieces[i] for i in (0, 3, 5, 4, 6, 2, 1)]]
    for _ in range(3):
        orders.append(rng.sample(pieces, len(pieces)))
    for k, order in enumerate(orders):
        db = os.path.join(d, "o%d.db" % k)
        bad = []
        for j, (raw, log) in enumerate(order):
            if ingest(db, log).returncode != 0:
                bad.append("run %d failed" % j)
            got = tables(db)
            exp = expected_tables(build([load_piece(r) for r, _ in
                                         order[:j + 1]]))
            bad += ["run %d: %s" % (j, n) for n in exp if got[n] != exp[n]]
        ok(not bad, "orders: order %d, after every run as the oracle" % k,
           "; ".join(bad[:4]))
        compare(tables(db), want, "orders: order %d" % k)
    db = os.path.join(d, "rev.db")
    ingest(db, *[l for _, l in reversed(pieces)])
    compare(tables(db), want, "orders: every piece in one run, reversed")


def check_interval_growth(tmp):
    """A device's interval_ms is the largest of its logs' headers. Its
    first log (60 s) has one 180 s sample, not bridged at 60 s but bridged
    once a later log (120 s) widens the interval: loading the later log
    afterwards must roll the first log's hours up again, so that the
    tables do not depend on the order of the ingests."""
    d = os.path.join(tmp, "ivl")
    a = Dataset(seed=5, hosts=["h"], devs_per_host=1, start=S, minutes=180)
    a.write(os.path.join(d, "ra"))
    bl = blocks(os.path.join(d, "ra", "h.raw"))
    del bl[90:92]                           # one 180 s sample in hour 1
    os.makedirs(os.path.join(d, "ra2"))
    with open(os.path.join(d, "ra2", "h.raw"), "w") as f:
        f.write("".join(bl))
    Dataset(seed=5, hosts=["h"], devs_per_host=1, start=S + 20 * 3600,
            minutes=120, interval=120).write(os.path.join(d, "rb"))
    import_all(os.path.join(d, "ra2"), os.path.join(d, "la"))
    import_all(os.path.join(d, "rb"), os.path.join(d, "lb"))
    la, lb = os.path.join(d, "la", "h.log"), os.path.join(d, "lb", "h.log")
    together, a_then_b, b_then_a = (os.path.join(d, n) for n in
                                    ("ab.db", "a_b.db", "b_a.db"))
    ingest(together, la, lb)
    ingest(a_then_b, la)
    ingest(a_then_b, lb)
    ingest(b_then_a, lb)
    ingest(b_then_a, la)
    want = tables(together)
    gap = [t for t in range(S + 90 * 60, S + 93 * 60, 60)]
    ok(all(want["io_minute"].get(t, (0, 0))[1] == 1 for t in gap),
       "interval growth: the 180 s sample is bridged at 120 s")
    compare(tables(a_then_b), want, "interval growth, 60 s log first")
    compare(tables(b_then_a), want, "interval growth, 120 s log first")


def main():
    for prog in (IOCENSUS, IOSTATMON, DUMP):
        if not os.access(prog, os.X_OK):
            ok(False, "programs built", prog + " missing")
            done()
    tmp = tempfile.mkdtemp(prefix="t_io_rollup.")
    try:
        raw = os.path.join(tmp, "raw")
        paths = dataset().write(raw)
        hosts = [load_raw(p, os.path.basename(p)[:-4], interval=None)
                 for p in paths]
        m = build(hosts)
        check_dataset(m)
        import_all(raw, os.path.join(tmp, "logs"))

        db = os.path.join(tmp, "all.db")
        p = ingest(db, os.path.join(tmp, "logs"))
        eq(p.returncode, 0, "ingest of every log exits 0")
        whole = tables(db)
        compare(whole, expected_tables(m), "one ingest")

        w0, w1 = m.window()
        for frm, to, hs, what in (
                (None, None, None, "all"),
                (None, None, ["h001"], "host h001"),
                (None, None, ["h00[03]"], "hosts h000, h003"),
                (w0 + 5 * 3600 + 1830, w0 + DAY + 3 * 3600 + 59, None,
                 "a window across the gap, not hour-aligned"),
                (w0 + 1234, w0 + 2345, ["h002"], "a window inside an hour"),
                (w0 - 600, w0 + 1200, None, "a window before the data"),
                (None, None, ["nothing*"], "a filter matching nothing")):
            check_loaders(db, m, frm, to, hs, what)

        # Two overlapping halves, the later one first.
        cut = S + DAY + 13 * 3600 + 17
        split_raw(raw, os.path.join(tmp, "raw1"), lambda t: t < cut + 600)
        split_raw(raw, os.path.join(tmp, "raw2"), lambda t: t >= cut - 600)
        import_all(os.path.join(tmp, "raw1"), os.path.join(tmp, "logs1"))
        import_all(os.path.join(tmp, "raw2"), os.path.join(tmp, "logs2"))
        db2 = os.path.join(tmp, "halves.db")
        p2 = ingest(db2, os.path.join(tmp, "logs2"))
        p1 = ingest(db2, os.path.join(tmp, "logs1"))
        ok(p1.returncode == 0 and p2.returncode == 0,
           "ingest of the halves exits 0", p1.stderr + p2.stderr)
        compare(tables(db2), whole, "two halves")

        # Again: nothing changes.
        p = ingest(db2, os.path.join(tmp, "logs"))
        compare(tables(db2), whole, "re-ingest of everything")

        # Cut exactly on an hour, the earlier part first: the sample
        # ending on the hour comes with the later part and is stored in
        # the later hour's chunk, but counts in the earlier hour's
        # io_dev_hour, which that second ingest must rebuild.
        hour = S + DAY + 13 * 3600
        split_raw(raw, os.path.join(tmp, "raw3"), lambda t: t < hour - 30)
        split_raw(raw, os.path.join(tmp, "raw4"), lambda t: t >= hour - 90)
        import_all(os.path.join(tmp, "raw3"), os.path.join(tmp, "logs3"))
        import_all(os.path.join(tmp, "raw4"), os.path.join(tmp, "logs4"))
        db5 = os.path.join(tmp, "onhour.db")
        p3 = ingest(db5, os.path.join(tmp, "logs3"))
        first = tables(db5)
        p4 = ingest(db5, os.path.join(tmp, "logs4"))
        ok(p3.returncode == 0 and p4.returncode == 0,
           "ingest of the parts cut on the hour exits 0",
           p3.stderr + p4.stderr)
        h0 = [k for k in whole["io_dev_hour"] if k[2] == hour - 3600]
        ok(h0 and all(first["io_dev_hour"].get(k) != whole["io_dev_hour"][k]
                      for k in h0),
           "cut on the hour: the first part lacks the sample ending on it")
        compare(tables(db5), whole, "cut on the hour, earlier part first")

        # A gap between two separate ingests is expected, hence missing.
        db3 = os.path.join(tmp, "gap.db")
        split_raw(raw, os.path.join(tmp, "rawa"), lambda t: t < S + 12 * 3600)
        split_raw(raw, os.path.join(tmp, "rawb"),
                  lambda t: t >= S + 2 * DAY + 3600)
        import_all(os.path.join(tmp, "rawa"), os.path.join(tmp, "logsa"))
        import_all(os.path.join(tmp, "rawb"), os.path.join(tmp, "logsb"))
        ingest(db3, os.path.join(tmp, "logsb"))
        ingest(db3, os.path.join(tmp, "logsa"))
        ha = [load_raw(os.path.join(tmp, d, f), f[:-4], interval=None)
              for d in ("rawa", "rawb")
              for f in sorted(os.listdir(os.path.join(tmp, d)))]
        compare(tables(db3), expected_tables(build(ha)),
                "a day between two ingests")

        # 45 s samples starting 17 s into a minute: every sample is split
        # between two minutes, a 100 s gap is bridged by nothing; the first
        # samples last 4 hours (every device is expected from the first T).
        odd = Dataset(seed=9, hosts=2, devs_per_host=2, start=S + 17,
                      minutes=600, interval=45)
        odd.missing(S + 60, S + 4 * 3600)
        odd.missing(S + 5 * 3600 + 10, S + 5 * 3600 + 100, host="h001")
        odd.jitter("h000", ms=900)
        paths = odd.write(os.path.join(tmp, "rawodd"))
        import_all(os.path.join(tmp, "rawodd"), os.path.join(tmp, "logsodd"))
        db4 = os.path.join(tmp, "odd.db")
        eq(ingest(db4, os.path.join(tmp, "logsodd")).returncode, 0,
           "ingest of 45 s samples exits 0")
        mo = build([load_raw(p, os.path.basename(p)[:-4], interval=None)
                    for p in paths])
        compare(tables(db4), expected_tables(mo), "45 s samples")
        check_loaders(db4, mo, S + 3 * 3600 + 17, S + 6 * 3600 + 59, None,
                      "45 s samples, a window inside hours")

        check_removed_disk(db)
        check_truncated(tmp)
        check_orders(tmp)

        check_interval_growth(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    done()


if __name__ == "__main__":
    main()
