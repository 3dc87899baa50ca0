#!/usr/bin/env python3
"""t_io_burst: `iocensus burst` (El Sayed I, rho, P; Beacon load classes)
and `iocensus devices` against tests/lib/burst_oracle.py.

Raw captures from rawgen (4 hosts x 3 devices x 2 days: bursts on some
hosts only, a missing window on one host, a counter reset, a host without
I/O for some hours, a device removed early) go through `iostatmon import`
and `iocensus ingest`; the oracle computes the same tables from the
captures through io_oracle. Also: one host (P undefined), no I/O at all
(rho and P undefined, every hour idle), an empty window, and a hand-
computed fixture for the oracle itself. Devices: windows across a gap,
inside one (no minute complete anywhere: the devices with data still
appear), and with edges inside samples (45 s samples off the minute);
in every device row covered time = 60 s a valid minute, never more than
the window, and the average never exceeds the peak.
"""
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "lib"))
from tap import ok, eq, done  # noqa: E402
from rawgen import Dataset  # noqa: E402
from io_oracle import load_raw, build  # noqa: E402
import burst_oracle as bo  # noqa: E402

BUILD = os.environ.get("BUILD", os.path.join(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__))), "build"))
IOCENSUS = os.path.join(BUILD, "iocensus")
IOSTATMON = os.path.join(BUILD, "iostatmon")
START = 1700000000 // 3600 * 3600
H = 3600
GIB = 2 ** 30


def run(args, want_rc=0):
    p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    if p.returncode != want_rc:
        raise RuntimeError("%s: exit %d: %s" % (" ".join(args), p.returncode,
                                                p.stderr.strip()[-500:]))
    return p.stdout


def make_db(tmp, ds, name):
    """Captures -> logs -> database; returns (db path, oracle model)."""
    d = os.path.join(tmp, name)
    return ingest(d, ds.write(d), ds.hosts)


def ingest(d, paths, hosts):
    logs = []
    for p, h in zip(paths, hosts):
        log = os.path.join(d, h + ".iolog.gz")
        run([IOSTATMON, "import", p, "--host", h, "--interval", "60",
             "--out", log])
        logs.append(log)
    db = os.path.join(d, "census.db")
    run([IOCENSUS, "ingest", "--db", db] + logs)
    return db, build([load_raw(p, h, 60) for p, h in zip(paths, hosts)])


def query(db, cmd, *opts):
    out = run([IOCENSUS, cmd, "--db", db, "--format", "json"] + list(opts))
    return json.loads(out)


def rows(res, key):
    t = res["tables"].get(key)
    return None if t is None else t["rows"]


def same(got, want):
    """Ints and texts exact, floats to 1e-9 relative."""
    if isinstance(want, float):
        if not isinstance(got, (int, float)) or isinstance(got, bool):
            return False
        return math.isclose(got, want, rel_tol=1e-9, abs_tol=1e-300)
    if isinstance(want, int) and not isinstance(want, bool):
        return isinstance(got, int) and got == want
    return got == want


def cmp_rows(got, want, name):
    """Compare row lists cell by cell; report the first differences."""
    if got is None:
        return ok(False, name, "table missing")
    if len(got) != len(want):
        return ok(False, name, "%d rows, want %d; first got %r want %r" % (
            len(got), len(want), got[:1], want[:1]))
    bad = []
    for i, (g, w) in enumerate(zip(got, want)):
        if set(g) != set(w):
            bad.append("row %d columns %s vs %s" % (
                i, sorted(set(g) - set(w)), sorted(set(w) - set(g))))
            continue
        for k in w:
            if not same(g[k], w[k]):
                bad.append("row %d %s: got %r want %r" % (i, k, g[k], w[k]))
    return ok(not bad, name, "; ".join(bad[:6]) +
              (" ... %d more" % (len(bad) - 6) if len(bad) > 6 else ""))


def check_burst(db, m, name, opts=(), hosts=None, frm=None, to=None,
                cs=bo.DEFAULT_C, host_peak=None):
    res = query(db, "burst", *opts)
    cmp_rows(rows(res, "burst"), bo.burst(m, hosts, frm, to, cs),
             name + ": burst")
    classes, counts, ref = bo.load(m, hosts, frm, to, host_peak)
    cmp_rows(rows(res, "load_classes"), classes, name + ": load_classes")
    cmp_rows(rows(res, "load_counts"), counts, name + ": load_counts")
    return res, classes, ref


def check_devices(db, m, name, opts=(), hosts=None, frm=None, to=None):
    res = query(db, "devices", *opts)
    devs, hrows, imb = bo.devices(m, hosts, frm, to)
    cmp_rows(rows(res, "devices"), devs, name + ": devices")
    cmp_rows(rows(res, "hosts"), hrows, name + ": hosts")
    cmp_rows(rows(res, "imbalance"), imb, name + ": imbalance")
    return res, devs


def invariants(res, name, frm=None, to=None):
    """What holds of every device row whatever the data: covered time is
    60 s a valid minute and never exceeds the window; the average rate
    never exceeds the peak (to the rounding of the division)."""
    bad = []
    span = (to // 60 - frm // 60) * 60 if frm is not None else None
    for r in rows(res, "devices"):
        who = "%s/%s" % (r["host"], r["device"])
        if r["covered_s"] != 60 * r["minutes"]:
            bad.append("%s covered %r for %r minutes" % (
                who, r["covered_s"], r["minutes"]))
        if span is not None and r["covered_s"] > span:
            bad.append("%s covered %r > window %d" % (
                who, r["covered_s"], span))
        for a, p in (("avg_mib_s", "peak_mib_s"), ("avg_iops", "peak_iops")):
            if r[a] is not None and r[p] is not None and \
                    r[a] > r[p] * (1 + 1e-12):
                bad.append("%s %s %r > %s %r" % (who, a, r[a], p, r[p]))
    return ok(not bad, name + ": device invariants", "; ".join(bad[:4]))


def device_rows(res, host):
    return [r for r in rows(res, "devices") if r["host"] == host]


def devices_gaps(db, m):
    """h002 has no T block in [10 h 30, 12 h): its sample ending at 12 h
    spans the gap (91 min, never bridged), so its minutes 10:29 .. 11:59
    are missing and nothing of them counts (by design)."""
    frm, to = START + 10 * H, START + 13 * H
    res, _ = check_devices(db, m, "devices across a gap",
                           ("--from", str(frm), "--to", str(to)),
                           frm=frm, to=to)
    invariants(res, "devices across a gap", frm, to)
    eq({(r["minutes"], r["covered_s"]) for r in device_rows(res, "h002")},
       {(89, 5340)}, "devices across a gap: h002 has 180 - 91 minutes")
    res, _ = check_devices(db, m, "devices across a gap, h002",
                           ("--host", "h002", "--from", str(frm), "--to",
                            str(to)), hosts=["h002"], frm=frm, to=to)
    invariants(res, "devices across a gap, h002", frm, to)
    # The window is the gap: no minute complete anywhere.
    frm, to = START + 10 * H + 1800, START + 12 * H
    res, devs = check_devices(db, m, "devices in a gap",
                              ("--from", str(frm), "--to", str(to)),
                              frm=frm, to=to)
    invariants(res, "devices in a gap", frm, to)
    eq({(r["minutes"], r["covered_s"], r["samples"])
        for r in device_rows(res, "h002")}, {(0, 0, 0)},
       "devices in a gap: h002 has no minute, no time, no sample")
    ok(len(devs) == 12 and all(r["minutes"] == 90 for r in devs
                               if r["host"] != "h002"),
       "devices in a gap: the other hosts' devices have their 90 minutes",
       repr([(r["host"], r["device"], r["minutes"]) for r in devs]))
    ok(has_note(res, "No minute of the window is complete") and
       not has_note(res, "No I/O data"),
       "devices in a gap: says no minute is complete, not that there is "
       "no data", repr(res["notes"]))
    res, devs = check_devices(db, m, "devices in a gap, h000",
                              ("--host", "h000", "--from", str(frm), "--to",
                               str(to)), hosts=["h000"], frm=frm, to=to)
    eq(len(devs), 3, "devices in a gap, h000: its 3 devices")


def devices_edges(tmp):
    """45 s samples 17 s into a minute: every window edge (rounded down to
    a minute) falls inside a sample, whose parts outside the window must
    not count; h001 has a 6-minute gap."""
    odd = Dataset(seed=31, hosts=2, devs_per_host=2, start=START + 17,
                  minutes=360, interval=45)
    odd.missing(START + 2 * H + 10, START + 2 * H + 370, host="h001")
    db, m = make_db(tmp, odd, "odd")
    res, _ = check_devices(db, m, "devices, 45 s samples")
    invariants(res, "devices, 45 s samples")
    for frm, to in ((START + H + 20, START + 2 * H + 30 * 60 + 50),
                    (START + 2 * H - 300, START + 2 * H + 600),
                    (START + 30, START + 90)):
        name = "devices, 45 s samples, [%d, %d)" % (frm - START, to - START)
        res, _ = check_devices(db, m, name, ("--from", str(frm), "--to",
                                             str(to)), frm=frm, to=to)
        invariants(res, name, frm, to)


def has_note(res, *words):
    return any(all(w in n for w in words) for n in res["notes"])


def oracle_fixture():
    """burst_row by hand: 2 servers, c = 0, read bytes per minute."""
    C, M = "complete", "missing"
    mins = [(0, [(C, 5, 0, 1), (C, 0, 0, 0)]),      # H=1, 1 active
            (60, [(C, 0, 0, 0), (C, 0, 0, 0)]),     # H=0
            (120, [(M, 0, 0, 0), (C, 9, 0, 0)]),    # undefined
            (180, [(C, 3, 0, 0), (C, 7, 0, 0)]),    # H=1, 2 active
            (240, [(C, 3, 0, 0), None]),            # H=1, 1 active
            (300, [(C, 0, 0, 0), None]),            # H=0
            (360, [None, None]),                    # undefined (none)
            (420, [(C, 0, 0, 0), (C, 0, 0, 0)])]    # H=0, new run
    r = bo.burst_row(mins, 2, "read", 0)
    eq((r["valid_minutes"], r["io_minutes"], r["io_runs"], r["noio_runs"]),
       (6, 3, 2, 3), "oracle fixture: counts")
    # runs: [1][0] | [1 1][0] | [0]: l_IO = 3/2, l_noIO = 3/3
    eq((r["i"], r["l_io"], r["l_noio"]), (0.5, 1.5, 1.0),
       "oracle fixture: I and run lengths")
    ok(math.isclose(r["rho"], 1 - math.tanh(1.5), rel_tol=1e-15),
       "oracle fixture: rho", repr(r["rho"]))
    eq((r["pi"], r["p"]), (4 / 6, 2 * (4 / 6) - 1), "oracle fixture: Pi, P")
    r = bo.burst_row(mins, 2, "read", 5)    # only 7 > 5 counts
    eq((r["io_minutes"], r["pi"], r["p"]), (1, 0.5, 0.0),
       "oracle fixture: c = 5")


# Edge capture: one device whose busiest minute per hour sits exactly on
# the class edges of P_ref = 122880 sectors per minute (1 MiB/s, also the
# observed maximum): 90% and 50% are mid, 10% is low, one sector more or
# less crosses; 92160 sectors (75%) is not above 75%, 92161 is.
EDGE_PEAKS = [122880, 110592, 110593, 61440, 61439, 12288, 12287]
EDGE_CLASSES = ["high", "mid", "high", "mid", "low", "low", "idle"]


def edge_capture(path):
    sectors = []
    for peak in EDGE_PEAKS:
        hour = [8] * 60
        hour[17] = peak
        sectors += hour
    sectors[30], sectors[31] = 92160, 92161
    v = [1000] * 17
    v[8] = 0
    out = []
    for j in range(len(sectors) + 1):
        if j:
            s = sectors[j - 1]
            v[0] += -(-s // 8)          # reads
            v[2] += s                   # sectors read
            v[3] += 2                   # ms reading
            v[9] += 100                 # busy ms
        out.append("T %d\n" % (START + 60 * j))
        out.append("   8       0 sda %s\n" % " ".join(map(str, v)))
    with open(path, "w") as f:
        f.write("".join(out))


def edge_checks(tmp):
    d = os.path.join(tmp, "edge")
    os.makedirs(d)
    raw = os.path.join(d, "edge.raw")
    edge_capture(raw)
    db, m = ingest(d, [raw], ["edge"])
    for name, opts, hp in (("edges observed", (), None),
                           ("edges --host-peak 1", ("--host-peak", "1"), 1.0)):
        c = 92160 * 512
        res, classes, _ = check_burst(db, m, name, opts + (
            "--burst-c", "%d,%d" % (c, c + 512)), cs=(c, c + 512),
            host_peak=hp)
        eq([r["class"] for r in rows(res, "load_classes")], EDGE_CLASSES,
           name + ": classes on the edges (by hand)")
        eq([(r["above75_minutes"], r["complete_minutes"])
            for r in rows(res, "load_counts")], [(4, 420)],
           name + ": above 75% is strict (by hand)")
        eq([r["io_minutes"] for r in rows(res, "burst")], [4, 0, 3, 0],
           name + ": delta is bytes > c (by hand)")


def main_dataset(tmp):
    ds = Dataset(seed=41, hosts=4, devs_per_host=3, start=START,
                 minutes=2 * 1440)
    ds.burst(START + 5 * H, START + 5 * H + 1200, level=0.9,
             hosts=["h000", "h001"])
    ds.burst(START + 20 * H, START + 20 * H + 420, level=0.6, hosts=["h002"])
    ds.missing(START + 10 * H + 1800, START + 12 * H, host="h002")
    ds.reboot("h001", START + 30 * H + 900)
    ds.idle(START + 3 * H, START + 6 * H, hosts=["h003"])
    ds.idle(START + 40 * H, START + 41 * H + 1800)
    ds.device_window("h000", "sdc", t_to=START + 44 * H)
    return make_db(tmp, ds, "main")


def main():
    oracle_fixture()
    tmp = tempfile.mkdtemp(prefix="t_io_burst.")
    try:
        edge_checks(tmp)
        db, m = main_dataset(tmp)
        cs = (0, 128 * 1024, 1024 * 1024, 4 * GIB, 16 * GIB)
        clist = "0,128K,1M,4G,16G"

        res, classes, ref = check_burst(db, m, "default")
        ok(has_note(res, "Coverage:"), "default: coverage note",
           repr(res["notes"][:2]))
        ok(has_note(res, "P_ref", "observed", ref["host"]),
           "default: P_ref note names the server", repr(res["notes"]))
        kinds = {r["class"] for r in classes}
        ok({"idle", "missing"} <= kinds and len(kinds) >= 4,
           "default: the data has several load classes", repr(kinds))

        res, _, _ = check_burst(db, m, "c list", ("--burst-c", clist),
                                cs=cs)
        want = bo.burst(m, cs=cs)
        ok(any(r["rho"] not in (None, 0.0) for r in want) and
           any(r["p"] is not None and 0 < r["p"] < 1 for r in want) and
           any(r["noio_runs"] > 1 for r in want),
           "c list: the data has bursts (0 < rho, 0 < P < 1)",
           repr([(r["rho"], r["p"]) for r in want]))

        check_burst(db, m, "host-peak", ("--burst-c", "0,4G",
                                         "--host-peak", "2500.5"),
                    cs=(0, 4 * GIB), host_peak=2500.5)
        check_burst(db, m, "host filter", ("--host", "h00[12]",
                                           "--burst-c", clist),
                    hosts=["h00[12]"], cs=cs)
        frm, to = START + 9 * H + 1830, START + 26 * H + 17 * 60
        check_burst(db, m, "window", ("--from", str(frm), "--to", str(to),
                                      "--burst-c", clist),
                    frm=frm, to=to, cs=cs)
        # a window starting inside the burst hour of h000 and h001
        f2, t2 = START + 5 * H + 630, START + 7 * H
        check_burst(db, m, "window in a burst", ("--from", str(f2), "--to",
                                                 str(t2)), frm=f2, to=t2)

        res, devs = check_devices(db, m, "devices")
        ok(len(devs) == 12 and has_note(res, "Coverage:"),
           "devices: 12 devices and a coverage note", repr(len(devs)))
        check_devices(db, m, "devices host+window",
                      ("--host", "h002", "--from", str(frm), "--to", str(to)),
                      hosts=["h002"], frm=frm, to=to)

        invariants(res, "devices")
        devices_gaps(db, m)
        devices_edges(tmp)

        res = query(db, "burst", "--from", "2001-01-01", "--to",
                    "2001-01-02")
        ok(has_note(res, "No I/O data in the window.") and
           all(not t["rows"] for t in res["tables"].values()),
           "empty window: note and empty tables", repr(res["notes"]))
        res = query(db, "devices", "--from", "2001-01-01", "--to",
                    "2001-01-02")
        ok(has_note(res, "No I/O data in the window.") and
           all(not t["rows"] for t in res["tables"].values()),
           "devices, empty window: note and empty tables",
           repr(res["notes"]))

        one = Dataset(seed=7, hosts=1, devs_per_host=2, start=START,
                      minutes=600)
        one.idle(START + 2 * H, START + 3 * H)
        db1, m1 = make_db(tmp, one, "one")
        res, _, _ = check_burst(db1, m1, "one host",
                                ("--burst-c", "0,1G"), cs=(0, GIB))
        ok(all(r["p"] is None for r in rows(res, "burst")) and
           has_note(res, "one server"), "one host: P is n/a, said so",
           repr(res["notes"]))
        check_devices(db1, m1, "one host devices")

        quiet = Dataset(seed=9, hosts=2, devs_per_host=2, start=START,
                        minutes=240)
        quiet.idle(START, START + 240 * 60)
        db0, m0 = make_db(tmp, quiet, "quiet")
        res, classes, _ = check_burst(db0, m0, "no I/O")
        ok(all(r["i"] == 0 and r["rho"] is None and r["p"] is None
               for r in rows(res, "burst")) and has_note(res, "no I/O"),
           "no I/O: I = 0, rho and P n/a, said so", repr(res["notes"]))
        ok(classes and all(r["class"] == "idle" for r in classes),
           "no I/O: every hour idle (oracle)", repr(classes[:2]))
        check_devices(db0, m0, "no I/O devices")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    done()


if __name__ == "__main__":
    main()
