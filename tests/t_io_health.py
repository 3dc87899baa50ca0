#!/usr/bin/env python3
"""t_io_health: `iocensus health`, the slow device found among its peers.

Fleets of 4 servers x 6 data disks over one or two days under one steady
load (tests/lib/fleetgen.py: M/M/1 latencies per minute) go through
`iostatmon import` and `iocensus ingest`. Each fleet has one fault, and
its negative (the same seed without the fault) has none. The answer of
`iocensus health` (JSON and CSV) is checked two ways:

- against the truth the fleet was made with (independent of both
  implementations): a disk 10x slower in reads only for 18 of 24 hours
  is slow in reads since 06:00; the same in writes; 2.5x in writes from
  day 2 is slow in writes since day 2 at K = 2 and not slow at K = 3; a
  20-minute 5x episode is one episode of a healthy disk; a daily one is
  intermittent; 10x from 06:45 is slow since 06:45 to the minute, 4x
  from 06:30 under hourly noise since 06:30; a disk with 3 times its
  peers' requests (its await about 3 times theirs, by M/M/1) is called
  and healthy; a host whose disks are all 2x
  has healthy disks and is itself healthy at K = 3 and slow at K = 1.5;
  heavy-tailed noise flags nothing; a slow final hour leaves its disk
  called (slow 0). Every negative: every device healthy, no episode.
- against tests/lib/health_oracle.py (the rule of docs/analyses.md from
  the raw captures, with tests/lib/io_oracle.py's minutes): every row
  and every column of the tables devices, hosts, episodes and summary
  (counts and times exact, values to 1e-9 relative), each slow device's
  figure (slow_N: its compared hours, await and peers' band), the metrics
  iocensus_device_slow and iocensus_device_slow_episodes of each device
  (promtool check metrics when promtool is installed).

Also: --factor (bad values are usage errors), --host, --from inside the
slow period, a host with two devices (not called: too few peers), an
idle disk (not called: no busy hour, no metric sample), the report's
section and summary, and an empty database.
"""
import csv
import io
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import traceback

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "lib"))
from tap import ok, eq, skip, done  # noqa: E402
from fleetgen import Fleet  # noqa: E402
import health_oracle  # noqa: E402
import reportdb  # noqa: E402
import snapgen  # noqa: E402

BUILD = os.environ["BUILD"]
IOCENSUS = os.path.join(BUILD, "iocensus")
T0 = 1267401600                 # 2010-03-01 00:00 UTC
H = 3600
D = 86400
REL = 1e-9


def run(*args, want=0):
    p = subprocess.run([IOCENSUS] + list(args), capture_output=True,
                       text=True)
    if p.returncode != want:
        raise RuntimeError("iocensus %s: exit %d: %s" % (
            " ".join(args), p.returncode, p.stderr[-500:]))
    return p.stdout


class Fl:
    """A fleet ingested into its own database, its captures kept."""
    def __init__(self, tmp, name, seed, days, setup=None, **kw):
        self.f = Fleet(seed=seed, hosts=kw.pop("hosts", 4),
                       disks=kw.pop("disks", 6), start=T0,
                       minutes=days * 1440, **kw)
        if setup:
            setup(self.f)
        self.dir = os.path.join(tmp, name)
        os.makedirs(self.dir)
        self.db = snapgen.new_db(self.dir, BUILD)
        reportdb.ingest(self.db, BUILD, self.dir, self.f)
        self.raw = os.path.join(self.dir, "raw")

    def oracle(self, k=3.0, **kw):
        return health_oracle.analyse(self.raw, k, **kw)

    def json(self, *extra):
        return json.loads(run("health", "--db", self.db, "--format", "json",
                              *extra))["tables"]

    def csv(self, key, *extra):
        return csv_table(self.db, key, *extra)


def csv_table(db, key, *extra):
    out = run("health", "--db", db, "--format", "csv", "--table", key,
              *extra)
    return list(csv.DictReader(io.StringIO(out)))


def same(got, want):
    """Counts, times and words exact; values to REL; missing only to
    missing (None in JSON)."""
    if isinstance(want, float) and math.isnan(want):
        want = None
    if want is None or got is None:
        return got is None and want is None
    if isinstance(want, str) or isinstance(got, str):
        return got == want
    if isinstance(want, float) or isinstance(got, float):
        return math.isclose(got, want, rel_tol=REL, abs_tol=1e-12)
    return got == want


def verdict_ok(got, word):
    return isinstance(got, str) and got.startswith(word)


def row_diff(got, want, cols):
    bad = []
    for c in cols:
        if c not in got:
            bad.append("no column %s" % c)
        elif c == "verdict":
            if not verdict_ok(got[c], want[c]):
                bad.append("verdict %r, oracle %r" % (got[c], want[c]))
        elif not same(got[c], want[c]):
            bad.append("%s %r, oracle %r" % (c, got[c], want[c]))
    return bad


HOST_COLS = ("host", "kind", "slow", "since", "direction", "await_ms",
             "peers_await_ms", "factor", "read_factor", "write_factor",
             "threshold", "peers", "busy_hours", "compared_hours",
             "hours_above", "period_hours", "confidence", "verdict")


def check_tables(name, fl, res, *extra):
    """Every row and column of devices, hosts, episodes and summary."""
    t = fl.json(*extra)
    devs = t.get("devices", {}).get("rows", [])
    got = {(r["host"], r["device"]): r for r in devs}
    eq(sorted(got), sorted(res.devices), name + ": a row per device")
    bad = {"%s %s" % k: row_diff(got[k], v.row(), health_oracle.COLUMNS)
           for k, v in res.devices.items() if k in got}
    eq({k: v for k, v in bad.items() if v}, {},
       name + ": every device, every column, as the oracle has it")
    hosts = {(r["host"], r["kind"]): r
             for r in t.get("hosts", {}).get("rows", [])}
    eq(sorted(hosts), sorted(res.hosts), name + ": a row per host and kind")
    bad = {"%s %s" % k: row_diff(hosts[k], dict(v.row(), kind=k[1]),
                                 HOST_COLS)
           for k, v in res.hosts.items() if k in hosts}
    eq({k: v for k, v in bad.items() if v}, {},
       name + ": every host, every column, as the oracle has it")
    eps = t.get("episodes", {}).get("rows")
    if eps is not None:
        eps = sorted(eps, key=lambda e: (e.get("host"), e.get("device"),
                                         e.get("start")))
    want = sorted((e.row() for e in res.episodes),
                  key=lambda e: (e["host"], e["device"], e["start"]))
    ok(eps is not None and len(eps) == len(want) and all(
        not row_diff(g, w, health_oracle.EPISODE_COLUMNS)
        for g, w in zip(eps, want)),
       name + ": the episodes as the oracle has them",
       "%r against %r" % ((eps or [])[:3], want[:3]))
    check_figures(name, t, res)
    summ = (t.get("summary", {}).get("rows") or [{}])[0]
    eq({k: summ.get(k) for k in res.summary}, res.summary,
       name + ": the summary's counts")
    # CSV: the same cells as the JSON, as text
    rows = fl.csv("devices", *extra)
    eq([{k: r.get(k) for k in health_oracle.COLUMNS} for r in rows],
       [{k: csv_cell(r.get(k)) for k in health_oracle.COLUMNS}
        for r in devs], name + ": CSV devices rows are the JSON's")
    return got, hosts, eps or []


def check_figures(name, t, res):
    """Table slow_N: the Nth slow device's compared hours, its await and
    its peers' band and median."""
    slow = sorted((k for k, v in res.devices.items() if v.word == "slow"),
                  key=lambda k: (k[0].encode(), k[1].encode()))
    for n, dv in enumerate(slow, 1):
        rows = t.get("slow_%d" % n, {}).get("rows", [])
        got = [tuple(r.get(c) for c in ("t", "await_ms", "peers_min_ms",
                                        "peers_max_ms", "peers_median_ms"))
               for r in rows]
        want = [(x[0], x[1], x[2], x[3], x[4]) for x in res.series[dv]]
        ok(len(got) == len(want) and all(
            all(same(a, b) for a, b in zip(g, w))
            for g, w in zip(got, want)),
           "%s: figure %d: %s %s's compared hours, await and peers' band"
           % (name, n, dv[0], dv[1]), "%d rows against %d" % (len(got),
                                                             len(want)))


def csv_cell(v):
    if v is None:
        return ""
    if isinstance(v, float):
        return repr(v) if v != int(v) else "%d" % v
    return str(v)


def check_metrics(name, fl, res):
    p = subprocess.run([IOCENSUS, "metrics", "--db", fl.db],
                       capture_output=True, text=True)
    got_slow, got_eps = {}, {}
    for line in p.stdout.splitlines():
        m = re.match(r'(iocensus_device_slow(?:_episodes)?)\{(.*)\} (\S+)$',
                     line)
        if not m:
            continue
        lb = dict(re.findall(r'(\w+)="([^"]*)"', m.group(2)))
        (got_slow if m.group(1) == "iocensus_device_slow" else got_eps)[
            (lb.get("host"), lb.get("device"))] = float(m.group(3))
    called = {k: v for k, v in res.devices.items() if v.word != "not called"}
    eq(got_slow, {k: float(v.slow) for k, v in called.items()},
       name + ": iocensus_device_slow of every called device")
    eq(got_eps, {k: float(v.episodes) for k, v in called.items()},
       name + ": iocensus_device_slow_episodes of every called device")
    if shutil.which("promtool"):
        q = subprocess.run(["promtool", "check", "metrics"], input=p.stdout,
                           capture_output=True, text=True)
        ok(q.returncode == 0, name + ": promtool check metrics",
           q.stdout[-300:] + q.stderr[-300:])
    else:
        skip(name + ": promtool check metrics", "promtool not installed",
             "prometheus")


# ---------------------------------------------------------------- cases

def truth_only(name, devs, bad_key, word, direction, since):
    """The faulty device's verdict, direction and onset; every other
    device healthy."""
    r = devs.get(bad_key, {})
    eq((r.get("verdict", "")[:len(word)], r.get("direction"),
        r.get("since")), (word, direction, since),
       "%s: %s %s is %s %s since %s" % (name, bad_key[0], bad_key[1], word,
                                       direction, since))
    eq(sorted(k for k, v in devs.items() if k != bad_key and
              not verdict_ok(v["verdict"], "healthy")), [],
       name + ": every other device healthy")


def case_read(tmp):
    return ("10x in reads only, 18 of 24 hours", 1, 1,
            lambda f: f.slow("h001", "sdc", T0 + 6 * H, 10, "read"),
            lambda n, fl, devs, hosts, eps: (
                truth_only(n, devs, ("h001", "sdc"), "slow", "read",
                           T0 + 6 * H),
                eq([(e["host"], e["device"], e["start"], e["end"],
                     e["direction"]) for e in eps],
                   [("h001", "sdc", T0 + 6 * H, T0 + D, "read")],
                   n + ": one episode, in reads, from 06:00 to the end")))


def case_write(tmp):
    return ("10x in writes only", 2, 1,
            lambda f: f.slow("h002", "sdb", T0 + 6 * H, 10, "write"),
            lambda n, fl, devs, hosts, eps: truth_only(
                n, devs, ("h002", "sdb"), "slow", "write",
                T0 + 6 * H))


def check_w25(n, fl, devs, hosts, eps):
    r = devs[("h000", "sdd")]
    # Healthy at K = 3, its period every compared hour: a day at 1, a
    # day at 2.5.
    wf = r.get("write_factor")
    ok(verdict_ok(r.get("verdict"), "healthy") and wf is not None and
       1.5 < wf < 2,
       n + ": at K = 3 healthy, its write factor between 1.5 and 2", str(r))
    res = fl.oracle(k=2.0)
    got, _, _ = check_tables(n + ", K = 2", fl, res, "--factor", "2")
    truth_only(n + ", K = 2", got, ("h000", "sdd"), "slow", "write",
               T0 + D)


def case_w25(tmp):
    return ("2.5x in writes from day 2", 3, 2,
            lambda f: f.slow("h000", "sdd", T0 + D, 2.5, "write"), check_w25)


def check_episode(n, fl, devs, hosts, eps):
    eq([(e["host"], e["device"], e["start"], e["end"], e["direction"],
         e["slow_minutes"]) for e in eps],
       [("h003", "sda", T0 + D + 2 * H, T0 + D + 2 * H + 1200, "both", 20)],
       n + ": one episode of 20 minutes, listed")
    truth_only(n, devs, ("h003", "sda"), "healthy", None, None)
    eq(devs[("h003", "sda")].get("episodes"), 1, n + ": its episode counted")


def case_episode(tmp):
    return ("a 5x episode of 20 minutes", 4, 2,
            lambda f: f.episode("h003", "sda", T0 + D + 2 * H, 20, 5),
            check_episode)


def check_daily(n, fl, devs, hosts, eps):
    t = T0 + 2 * H + 600
    eq([(e["start"], e["end"]) for e in eps],
       [(t, t + 1200), (t + D, t + D + 1200)],
       n + ": its two episodes, 02:10 to 02:30")
    truth_only(n, devs, ("h003", "sda"), "intermittent", None, None)
    r = devs[("h003", "sda")]
    eq(tuple(r.get(k) for k in ("slow", "episodes", "episode_seconds",
                                 "start", "end")), (0, 2, 2400, t + D, t + D + 1200),
       n + ": slow 0, 2 episodes, 40 minutes, the last one")


def case_daily(tmp):
    return ("a daily 5x episode", 5, 2,
            lambda f: f.episode("h003", "sda", T0 + 2 * H + 600, 20, 5,
                                daily=True), check_daily)


def case_0645(tmp):
    return ("10x from 06:45", 6, 1,
            lambda f: f.slow("h001", "sde", T0 + 6 * H + 45 * 60, 10),
            lambda n, fl, devs, hosts, eps: truth_only(
                n, devs, ("h001", "sde"), "slow", "both",
                T0 + 6 * H + 45 * 60))


def case_0630(tmp):
    def setup(f):
        f.noise("hourly")
        f.slow("h002", "sdf", T0 + 6 * H + 30 * 60, 4)
    return ("4x from 06:30, hourly noise", 7, 1, setup,
            lambda n, fl, devs, hosts, eps: truth_only(
                n, devs, ("h002", "sdf"), "slow", "both",
                T0 + 6 * H + 30 * 60))


def check_busy(n, fl, devs, hosts, eps):
    r = devs[("h000", "sdb")]
    ok(verdict_ok(r.get("verdict"), "healthy") and r.get("slow") == 0 and
       (r.get("compared_hours") or 0) > 0,
       n + ": the busy disk is called healthy, compared", str(r))
    # M/M/1 at 3 times the peers' load: its await is (1 - u) / (1 - 3u)
    # times theirs, about 3 here; the load model, not its speed, explains it.
    ok((r.get("factor") or 0) > 2.5,
       n + ": its await more than 2.5 times its peers'", str(r))
    truth_only(n, devs, ("h000", "sdb"), "healthy", None, None)


def case_busy(tmp):
    return ("a disk with 3x its peers' requests", 8, 1,
            lambda f: f.busier_device("h000", "sdb", 3), check_busy,
            {"iops": 55})


def check_host(n, fl, devs, hosts, eps):
    eq(sorted(k for k, v in devs.items()
              if not verdict_ok(v["verdict"], "healthy")), [],
       n + ": every device healthy against its own host's")
    r = hosts[("h003", "sd")]
    ok(verdict_ok(r.get("verdict"), "healthy") and
       1.5 < (r.get("factor") or 0) < 3,
       n + ": at K = 3 the host is healthy, its factor about 2", str(r))
    res = fl.oracle(k=1.5)
    _, hs, _ = check_tables(n + ", K = 1.5", fl, res, "--factor", "1.5")
    eq(sorted((k, v.get("since")) for k, v in hs.items()
              if verdict_ok(v.get("verdict"), "slow")), [(("h003", "sd"), T0)],
       n + ", K = 1.5: the host slow since the first hour")


def case_host(tmp):
    return ("every disk of a host 2x", 9, 1,
            lambda f: f.slow("h003", "sd*", T0, 2), check_host)


def check_nothing(n, fl, devs, hosts, eps):
    eq(sorted(k for k, v in devs.items()
              if not verdict_ok(v["verdict"], "healthy")), [],
       n + ": every device healthy")
    eq(eps, [], n + ": no episode")
    eq(sorted(k for k, v in hosts.items()
              if not verdict_ok(v["verdict"], "healthy")), [],
       n + ": every host healthy")


def case_heavy(tmp):
    return ("heavy-tailed noise", 10, 1, lambda f: f.noise("heavy"),
            check_nothing)


def check_final(n, fl, devs, hosts, eps):
    r = devs[("h001", "sda")]
    ok(r.get("slow") == 0 and (verdict_ok(r.get("verdict"), "healthy") or
                               verdict_ok(r.get("verdict"), "suspect")),
       n + ": called, slow 0 (healthy or suspect)", str(r))


def case_final(tmp):
    def setup(f):
        f.noise("heavy")
        f.slow("h001", "sda", T0 + 23 * H, 5)
    return ("one noisy final hour", 11, 1, setup, check_final)


CASES = (case_read, case_write, case_w25, case_episode, case_daily,
         case_0645, case_0630, case_busy, case_host, case_heavy, case_final)


def test_cases(tmp):
    for n, case in enumerate(CASES):
        c = case(tmp)
        what, seed, days, setup, check = c[:5]
        kw = c[5] if len(c) > 5 else {}
        for neg in (False, True):
            name = ("%s, negative" if neg else "%s") % what
            fl = Fl(tmp, "c%d%s" % (n, "n" if neg else ""), seed, days,
                    None if neg else setup, **dict(kw))
            res = fl.oracle()
            try:
                devs, hosts, eps = check_tables(name, fl, res)
                check_metrics(name, fl, res)
                if neg:
                    check_nothing(name, fl, devs, hosts, eps)
                else:
                    check(name, fl, devs, hosts, eps)
            except (KeyError, TypeError, IndexError) as e:
                ok(False, name + ": the tables have the rows and columns "
                   "the checks read", traceback.format_exc(limit=2))
            if n == 0 and not neg:
                eq(sorted((k, r.row()) for k, r in
                          health_oracle.analyse(fl.db).devices.items()),
                   sorted((k, r.row()) for k, r in res.devices.items()),
                   "the oracle reads the same from the database's samples")
                cli_checks(fl)


def cli_checks(fl):
    """--factor, --host and --from on the fleet slow in reads."""
    t = T0 + 6 * H
    eq([r["slow"] for r in fl.csv("devices", "--factor", "1000")
        if r["slow"] == "1"], [], "--factor 1000: nothing is slow")
    eq(fl.csv("summary", "--factor", "2.5")[0]["threshold"], "2.5",
       "--factor 2.5: K as typed")
    for bad in ("1", "0.5", "1000.1", "x", "3e0", "-4", "1.0000001"):
        p = subprocess.run([IOCENSUS, "health", "--db", fl.db, "--factor",
                            bad], capture_output=True, text=True)
        ok(p.returncode == 2 and "--factor" in p.stderr,
           "--factor %s: usage error naming it" % bad, p.stderr)
    res = fl.oracle(hosts=["h001"])
    devs, _, _ = check_tables("--host h001", fl, res, "--host", "h001")
    eq({k[0] for k in devs}, {"h001"}, "--host: that host's devices only")
    hosts = fl.csv("hosts", "--host", "h001")
    eq([(r["peers"], r["slow"]) for r in hosts], [("0", "")],
       "--host: a host alone has no peer host, and is not called")
    res = fl.oracle(t_from=t + 6 * H)
    devs, _, _ = check_tables("--from 6 h after the onset", fl, res,
                              "--from", str(t + 6 * H))
    eq(devs[("h001", "sdc")]["since"], t + 6 * H,
       "--from 6 h after the onset: slow since the window's first minute")


def test_few_peers(tmp):
    fl = Fl(tmp, "two", 21, 1, hosts=3, disks=2)
    devs = fl.csv("devices")
    eq({r["verdict"] for r in devs}, {"not called: 1 peer, 2 needed"},
       "two disks a host: not called, too few peers")
    eq({r["slow"] for r in devs}, {""}, "two disks a host: slow is missing")
    check_tables("two disks a host", fl, fl.oracle())
    p = subprocess.run([IOCENSUS, "metrics", "--db", fl.db],
                       capture_output=True, text=True)
    ok(p.returncode == 0 and "iocensus_device_slow" not in p.stdout,
       "two disks a host: no iocensus_device_slow sample", p.stdout[-300:])


def test_idle(tmp):
    fl = Fl(tmp, "idle", 22, 1, lambda f: f.idle_device("h001", "sdb"))
    res = fl.oracle()
    devs, _, _ = check_tables("an idle disk", fl, res)
    check_metrics("an idle disk", fl, res)
    eq(sorted(k for k, v in devs.items()
              if not verdict_ok(v.get("verdict"), "healthy")),
       [("h001", "sdb")], "an idle disk: it alone is not healthy")
    r = devs.get(("h001", "sdb"), {})
    eq((r.get("slow"), r.get("busy_hours"), r.get("verdict")),
       (None, 0, "not called: 0 busy hours, 6 needed"),
       "an idle disk: not called, 0 busy hours")


def bundle_csv(path, member):
    """A CSV member of a bundle, or None without it."""
    with tarfile.open(path) as tf:
        try:
            f = tf.extractfile(member)
        except KeyError:
            return None
        return list(csv.DictReader(io.StringIO(f.read().decode())))


def test_report(tmp):
    db = os.path.join(tmp, "c0", "census.db")
    out = os.path.join(tmp, "r.html")
    bundle = os.path.join(tmp, "r.tar.gz")
    run("report", "--db", db, "--out", out, "--bundle", bundle)
    with open(out, encoding="utf-8") as fh:
        page = fh.read()
    # The summary lists the devices found (slow, and any intermittent or
    # suspect one): the same cells as health's rows, in whatever columns
    # it keeps.
    got = bundle_csv(bundle, "01-summary/slow_devices.csv") or []
    cols = [c for c in (got[0] if got else {}) if c in health_oracle.COLUMNS]
    want = [r for r in csv_table(db, "devices")
            if r["slow"] == "1" or r["verdict"].startswith(("intermittent",
                                                            "suspect"))]
    ok("host" in cols and "device" in cols and
       sorted(tuple(r[c] for c in cols) for r in got) ==
       sorted(tuple(r.get(c) for c in cols) for r in want),
       "report: the summary's slow devices are health's, cell for cell",
       "%r against %r" % (got[:2], want[:2]))
    ok("<h2>Device health</h2>" in page, "report: a Device health section")
    summ = page.split("<h2>", 2)[1]
    ok(re.search(r">h001</td><td[^>]*>sdc<", summ),
       "report: the summary lists the slow device")


def test_empty(tmp):
    d = os.path.join(tmp, "empty")
    os.makedirs(d)
    db = snapgen.new_db(d, BUILD)
    out = run("health", "--db", db)
    ok("No I/O data in the window." in out, "no data: said", out)
    eq(run("health", "--db", db, "--format", "csv", "--table", "devices")
       .strip().count("\n"), 0, "no data: no device rows")


def main():
    tmp = tempfile.mkdtemp(prefix="t_io_health.")
    try:
        test_cases(tmp)
        test_few_peers(tmp)
        test_idle(tmp)
        test_report(tmp)
        test_empty(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    done()


if __name__ == "__main__":
    main()
