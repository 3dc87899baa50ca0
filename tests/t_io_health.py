#!/usr/bin/env python3
"""t_io_health: `iocensus health`, the slow device found among its peers.

Fleets of 4 servers x 8 data disks over two days under one shared bursty
load (tests/lib/fleetgen.py) go through `iostatmon import` and `iocensus
ingest`. The answer is checked two ways:

- against the truth the fleet was made with: a fleet with one disk
  slowed by a known factor from a known hour has exactly that disk slow,
  since exactly that hour, and no slow host; a fleet whose whole host
  was slowed has that host slow since that hour and no slow device;
  healthy fleets have no slow device and no slow host: plain ones, mixed
  disk models (across hosts and within one), one idle disk (not called,
  never healthy), one host three times busier than the rest, and all of
  these at once. Several seeds each.
- against tests/lib/health_oracle.py, the definitions of docs/analyses.md
  computed from v_io_dev_hour alone: every device's and host's verdict,
  onset, await, peers' await, factor, hours and confidence, and the
  figure rows of each slow device (its await, its peers' band and
  median, hour by hour).

Also: --factor (a higher K clears the slow disk; bad values are usage
errors), --host (peers stay within the host; the hosts table has no
peers), --from inside the slow period (the onset is the window's first
hour), a host with two devices (not called: too few peers), the report's
section, figure and summary item, and an empty database.
"""
import csv
import io
import math
import os
import random
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "lib"))
from tap import ok, eq, done  # noqa: E402
from fleetgen import Fleet, HDD_B  # noqa: E402
import health_oracle  # noqa: E402
import reportdb  # noqa: E402
import snapgen  # noqa: E402

BUILD = os.environ["BUILD"]
IOCENSUS = os.path.join(BUILD, "iocensus")
T0 = 1267401600                 # 2010-03-01 00:00 UTC
H = 3600


def run(*args, want=0):
    p = subprocess.run([IOCENSUS] + list(args), capture_output=True,
                       text=True)
    if p.returncode != want:
        raise RuntimeError("iocensus %s: exit %d: %s" % (
            " ".join(args), p.returncode, p.stderr[-500:]))
    return p.stdout


def make(tmp, name, seed, setup=None, **kw):
    f = Fleet(seed=seed, start=T0, minutes=2 * 1440, **kw)
    if setup:
        setup(f)
    d = os.path.join(tmp, name)
    os.makedirs(d)
    db = snapgen.new_db(d, BUILD)
    reportdb.ingest(db, BUILD, d, f)
    return f, db


def table(db, key, *extra):
    out = run("health", "--db", db, "--format", "csv", "--table", key,
              *extra)
    return list(csv.DictReader(io.StringIO(out)))


def num(s):
    return None if s == "" else float(s)


def confidence(v):
    """The confidence rule of docs/analyses.md, from the oracle's hours."""
    a, n = v.hours_above, v.period_hours
    if v.verdict == "slow":
        return ("high" if a >= 24 and 10 * a >= 9 * n else
                "medium" if a >= 12 and 4 * a >= 3 * n else "low")
    if v.verdict == "healthy":
        return ("high" if n >= 24 and 10 * a <= n else
                "medium" if n >= 12 and 4 * a <= n else "low")
    return ""


VERDICT = {"slow": "slow", "healthy": "healthy", "few_peers": "not called:",
           "few_busy": "not called:", "few_compared": "not called:",
           "too_soon": "not called yet:"}


def close(a, b):
    """Equal to the last bits; a missing value (None, NaN) only to one."""
    a = None if a is None or math.isnan(a) else a
    b = None if b is None or math.isnan(b) else b
    if a is None or b is None:
        return a is b
    return math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-12)


def row_matches(r, v):
    """A row of the devices or hosts table against an oracle verdict."""
    factor = (v.await_ms / v.peers_await_ms if v.peers_await_ms else None)
    want = {
        "slow": {"slow": "1", "healthy": "0"}.get(v.verdict, ""),
        "since": "" if v.since is None else str(v.since),
        "peers": str(v.peers), "busy_hours": str(v.busy),
        "compared_hours": str(v.compared),
        "hours_above": "" if v.hours_above is None else str(v.hours_above),
        "period_hours": "" if v.period_hours is None else str(v.period_hours),
        "confidence": confidence(v),
    }
    got = {k: r[k] for k in want}
    bad = [k for k in want if got[k] != want[k]]
    for k, w in (("await_ms", v.await_ms), ("peers_await_ms",
                                            v.peers_await_ms),
                 ("factor", factor)):
        if not close(num(r[k]), w):
            bad.append("%s %s != %r" % (k, r[k], w))
    if not r["verdict"].startswith(VERDICT[v.verdict]):
        bad.append("verdict %r for %s" % (r["verdict"], v.verdict))
    return bad


def check_oracle(name, db, res, *extra):
    devs = table(db, "devices", *extra)
    got = {(r["host"], r["device"]): r for r in devs}
    eq(sorted(got), sorted(res.devices), name + ": a row per device")
    bad = {k: row_matches(got[k], v) for k, v in res.devices.items()
           if k in got and row_matches(got[k], v)}
    eq(bad, {}, name + ": every device as the oracle has it")
    hrows = table(db, "hosts", *extra)
    hosts = {(r["host"], r["kind"]): r for r in hrows}
    eq(sorted(hosts), sorted(res.hosts), name + ": a row per host and kind")
    bad = {k: row_matches(hosts[k], v) for k, v in res.hosts.items()
           if k in hosts and row_matches(hosts[k], v)}
    eq(bad, {}, name + ": every host as the oracle has it")
    return devs, hrows


def slow_set(rows, key="device"):
    return {(r["host"], r[key]): int(r["since"]) for r in rows
            if r["slow"] == "1"}


def check_figures(name, db, res):
    slow = sorted(k for k, v in res.devices.items() if v.verdict == "slow")
    for n, dv in enumerate(slow, 1):
        rows = table(db, "slow_%d" % n)
        got = [(int(r["t"]), num(r["await_ms"]), num(r["peers_min_ms"]),
                num(r["peers_max_ms"]), num(r["peers_median_ms"]))
               for r in rows]
        want = res.series[dv]
        ok(len(got) == len(want) and all(
            g[0] == w[0] and all(close(a, b) for a, b in zip(g[1:], w[1:]))
            for g, w in zip(got, want)),
           "%s: figure %d: %s %s's compared hours, await and peers' band"
           % (name, n, dv[0], dv[1]), "%d rows against %d" % (len(got),
                                                             len(want)))


def slowed(seed):
    """One disk, an onset hour and a factor drawn from the seed."""
    r = random.Random("slowed/%d" % seed)
    host = "h%03d" % r.randrange(4)
    disk = "sd" + "abcdefgh"[r.randrange(8)]
    return host, disk, T0 + r.randrange(8, 40) * H, r.choice((4, 5, 8))


def test_slow_disk(tmp):
    for seed in (1, 2, 3):
        host, disk, t, factor = slowed(seed)
        name = "seed %d, %s %s %gx from hour %d" % (seed, host, disk, factor,
                                                     (t - T0) // H)
        f, db = make(tmp, "slow%d" % seed, seed,
                     lambda f: f.slow(host, disk, t, factor))
        res = health_oracle.analyse(db)
        devs, hosts = check_oracle(name, db, res)
        eq(slow_set(devs), {(h, d): tt for (h, d), (tt, _) in
                            f.truth().items()},
           name + ": exactly that disk is slow, since that hour")
        eq(slow_set(hosts, "kind"), {}, name + ": no host is slow")
        r = [x for x in devs if (x["host"], x["device"]) == (host, disk)][0]
        ok(float(r["factor"]) >= 3 and r["confidence"] in ("high", "medium"),
           name + ": its factor and confidence", str(r))
        check_figures(name, db, res)
        if seed == 1:
            cli_checks(tmp, db, host, disk, t)


def cli_checks(tmp, db, host, disk, t):
    """--factor, --host and --from on the first slow fleet."""
    devs = table(db, "devices", "--factor", "1000")
    eq(slow_set(devs), {}, "--factor 1000: nothing is slow")
    eq(table(db, "summary", "--factor", "2.5")[0]["threshold"], "2.5",
       "--factor 2.5: K as typed")
    for bad in ("1", "0.5", "1000.1", "x", "3e0", "-4", "1.0000001"):
        p = subprocess.run([IOCENSUS, "health", "--db", db, "--factor", bad],
                           capture_output=True, text=True)
        ok(p.returncode == 2 and "--factor" in p.stderr,
           "--factor %s: usage error naming it" % bad, p.stderr)
    devs = table(db, "devices", "--host", host)
    eq({r["host"] for r in devs}, {host}, "--host: that host's devices only")
    eq(slow_set(devs), {(host, disk): t}, "--host: its slow disk all the same")
    hosts = table(db, "hosts", "--host", host)
    eq([(r["peers"], r["slow"]) for r in hosts], [("0", "")],
       "--host: a host alone has no peer host, and is not called")
    res = health_oracle.analyse(db, t_from=t + 6 * H)
    devs, _ = check_oracle("--from 6 h after the onset", db, res, "--from",
                           str(t + 6 * H))
    eq(slow_set(devs), {(host, disk): t + 6 * H},
       "--from 6 h after the onset: slow since the window's first hour")
    res = health_oracle.analyse(db, t_to=t + 3 * H)
    devs, _ = check_oracle("--to 3 h after the onset", db, res, "--to",
                           str(t + 3 * H))
    eq([r["verdict"].split(":")[0] for r in devs
        if (r["host"], r["device"]) == (host, disk)], ["not called yet"],
       "--to 3 h after the onset: too soon to call it")


def test_slow_host(tmp):
    for seed in (10, 11):
        f, db = make(tmp, "slowhost%d" % seed, seed,
                     lambda f: f.slow("h002", "sd*", T0 + 20 * H, 4))
        name = "seed %d, every disk of h002 4x from hour 20" % seed
        res = health_oracle.analyse(db)
        devs, hosts = check_oracle(name, db, res)
        eq(slow_set(devs), {}, name + ": no device is slow among its peers")
        eq(slow_set(hosts, "kind"), {("h002", "sd"): T0 + 20 * H},
           name + ": the host is slow against the others, since that hour")


def healthy_fleets():
    def mixed(f):
        f.model("h000", "sd*", HDD_B)
        f.model("h001", "sd[a-d]", HDD_B)

    def idle(f):
        f.idle_device("h003", "sdh")

    def busier(f):
        f.busier("h001", 3)

    def everything(f):
        mixed(f)
        idle(f)
        f.busier("h002", 3)

    return [("plain", 4, None, {}), ("plain", 5, None, {}),
            ("mixed models", 6, mixed, {"sizes": (128, 256)}),
            ("mixed models", 7, mixed, {}),
            ("one idle disk", 8, idle, {}), ("one idle disk", 9, idle, {}),
            ("one host 3x busier", 12, busier, {}),
            ("one host 3x busier", 13, busier, {}),
            ("all of these", 14, everything, {"sizes": (128, 256)})]


def test_healthy(tmp):
    for what, seed, setup, kw in healthy_fleets():
        name = "healthy, %s, seed %d" % (what, seed)
        f, db = make(tmp, "ok%d" % seed, seed, setup, **kw)
        res = health_oracle.analyse(db)
        devs, hosts = check_oracle(name, db, res)
        eq(slow_set(devs), {}, name + ": no device is slow")
        eq(slow_set(hosts, "kind"), {}, name + ": no host is slow")
        idle = {(h, d) for h, d in f.idle_devs}
        eq({(r["host"], r["device"]) for r in devs if r["slow"] == ""}, idle,
           name + ": every device called but the idle one")
        for r in devs:
            if (r["host"], r["device"]) in idle:
                eq((r["busy_hours"], r["verdict"]),
                   ("0", "not called: 0 busy hours, 6 needed"),
                   name + ": the idle disk is said to have no busy hour")


def test_few_peers(tmp):
    f, db = make(tmp, "two", 21, None, hosts=3, disks=2)
    devs = table(db, "devices")
    eq({r["verdict"] for r in devs}, {"not called: 1 peer, 2 needed"},
       "two disks a host: not called, too few peers")
    eq({r["slow"] for r in devs}, {""}, "two disks a host: slow is missing")
    p = subprocess.run([IOCENSUS, "metrics", "--db", db], capture_output=True,
                       text=True)
    ok(p.returncode == 0 and "iocensus_device_slow" not in p.stdout,
       "two disks a host: no iocensus_device_slow sample", p.stdout[-300:])


def bundle_csv(path, member):
    with tarfile.open(path) as tf:
        f = tf.extractfile(member)
        return list(csv.DictReader(io.StringIO(f.read().decode())))


def test_report(tmp):
    host, disk, t, factor = slowed(1)
    db = os.path.join(tmp, "slow1", "census.db")
    out = os.path.join(tmp, "r.html")
    bundle = os.path.join(tmp, "r.tar.gz")
    run("report", "--db", db, "--out", out, "--bundle", bundle)
    with open(out, encoding="utf-8") as fh:
        page = fh.read()
    cols = ["host", "device", "since", "factor", "await_ms",
            "peers_await_ms", "confidence"]
    eq(bundle_csv(bundle, "01-summary/slow_devices.csv"),
       [{k: r[k] for k in cols} for r in table(db, "devices")
        if r["slow"] == "1"],
       "report: the summary's slow devices are health's, cell for cell")
    ok("<h2>Device health</h2>" in page, "report: a Device health section")
    summ = page.split("<h2>", 2)[1]
    ok("Slow devices: each against its peers" in summ and
       re.search(r">%s</td><td[^>]*>%s<" % (host, disk), summ),
       "report: the summary lists the slow device")
    ok("against its peers&#39;</figcaption>" in page or
       "hourly await against its peers" in page,
       "report: the figure of the slow device")
    ok("Sampled level per host" in page, "report: each host's sampled level")
    db = os.path.join(tmp, "ok4", "census.db")
    run("report", "--db", db, "--out", out)
    with open(out, encoding="utf-8") as fh:
        page = fh.read()
    ok("Device health: no slow device; 32 of 32 devices called healthy "
       "against their peers, 0 not called." in page,
       "report: a healthy fleet's summary says so")


def test_empty(tmp):
    d = os.path.join(tmp, "empty")
    os.makedirs(d)
    db = snapgen.new_db(d, BUILD)
    out = run("health", "--db", db)
    ok("No I/O data in the window." in out, "no data: said", out)
    eq(table(db, "devices"), [], "no data: no device rows")


def main():
    tmp = tempfile.mkdtemp(prefix="t_io_health.")
    try:
        test_slow_disk(tmp)
        test_slow_host(tmp)
        test_healthy(tmp)
        test_few_peers(tmp)
        test_report(tmp)
        test_empty(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    done()


if __name__ == "__main__":
    main()
