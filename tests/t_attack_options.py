#!/usr/bin/env python3
"""t_attack_options: every numeric, time and size option of every program
at its limits.

Each option gets the values that break parsers: 0, 1, -1, -0, +1, both
ends of int64 and uint64, 2^63, 2^64, forty and four thousand nines,
empty, blank, leading and trailing blanks, trailing text, hex, exponents;
time options also dates at the years 0, 1, 1969, 1970, 9999 and 10000,
impossible days, negative unix seconds and the ends of the range
(lib/epoch.h: -62167219200 = 0000-01-01 to 253402300799 =
9999-12-31T23:59:59). For every value the program either runs (exit 0,
or the status its command documents) or refuses it as a usage error
(exit 2) with a message naming the option; it never crashes (134, 139),
never trips a sanitizer (exit 86, and tests/run fails any report), and
which values it takes is decided here by an independent reading of the
documented range, not by the program.

What is taken is taken exactly: fsscan records --as-of, --now, -j, --dirs
and --top as given; a census whose snapshots are dated 0000-01-01 and
1969-12-31T23:59:59 by --as-of is analysed with those points at those
dates (snapshots, growth, capacity with and without a window ending or
starting at 1970-01-01, usage, diff, files, the report), their values
and rates worked out here from the dates; and a database another program
wrote with a time outside the range is refused by the analyses, naming
the snapshot and the column, never read into overflowing arithmetic.

--limits /dev/zero fails at once (a NUL byte) and --limits of 300,000
projects is read whole, every limit recorded.
"""
import datetime
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from decimal import Decimal

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "lib"))
sys.path.insert(0, HERE)
from t_capacity import q  # noqa: E402
from t_mpi import mpi_env  # noqa: E402
from tap import done, eq, ok  # noqa: E402
from pace import limit  # noqa: E402

BUILD = os.environ.get("BUILD") or os.path.join(HERE, "..", "build")
FSSCAN = os.path.join(BUILD, "fsscan")
FSSCAN_MPI = os.path.join(BUILD, "fsscan-mpi")
IOSTATMON = os.path.join(BUILD, "iostatmon")
IOCENSUS = os.path.join(BUILD, "iocensus")

I64_MAX = (1 << 63) - 1
I64_MIN = -(1 << 63)
U64_MAX = (1 << 64) - 1
EPOCH_MIN = -62167219200           # 0000-01-01T00:00:00Z
EPOCH_MAX = 253402300799           # 9999-12-31T23:59:59Z
DAY = 86400
CRASH = {86, 134, 139}             # ASan's exitcode, SIGABRT, SIGSEGV

NUMS = ["0", "1", "2", "-1", "-0", "+1", "00", "007", str((1 << 31) - 1),
        str(1 << 31), str(1 << 32), str((1 << 53) + 1), str(I64_MAX),
        str(I64_MIN), str(1 << 63), str(U64_MAX), str(1 << 64),
        str((1 << 64) + 1), "9" * 40, "9" * 4000, "", " ", "\t", " 1", "1 ",
        "1\n", "1x", "x1", "0x10", "1e3", "1.5", "1,000", "\u0661"]
TIMES = NUMS + ["0000-01-01", "0000-02-29", "0001-01-01",
                "1969-12-31T23:59:59", "1969-12-31T23:59:59Z", "1970-01-01",
                "1970-01-01T00:00", "1970-01-01 00:00:00", "2010-02-30",
                "2100-02-29", "2000-02-29", "9999-12-31",
                "9999-12-31T23:59:59", "9999-12-31T23:59:59Z", "10000-01-01",
                "-0001-01-01", "@0", "@-1", "@", "-", "--1",
                str(EPOCH_MIN), str(EPOCH_MIN - 1), str(EPOCH_MAX),
                str(EPOCH_MAX + 1), "@" + str(EPOCH_MIN), "2010-02-01T24:00",
                "2010-02-01T09:60", "2010-02-01T09:00:60", "2010-02-01T09",
                "1970-01-01T00:00:00+00:00", "1970-01-01 ", " 1970-01-01"]


# ---- independent readings of the documented ranges -------------------

def whole(lo, hi):
    """Decimal digits only, lo to hi."""
    return lambda v: (re.fullmatch(r"[0-9]+", v) is not None and
                      lo <= int(v) <= hi)


def civil_days(y, m, d):
    """Days from 1970-01-01 to a proleptic Gregorian date of the years 0
    to 9999 (datetime has no year 0: year 4 is 1461 days later, both
    leap)."""
    if y == 0:
        return datetime.date(4, m, d).toordinal() - 1461 - \
            datetime.date(1970, 1, 1).toordinal()
    return (datetime.date(y, m, d) - datetime.date(1970, 1, 1)).days


def epoch(v):
    """The unix seconds of a time as documented, or None."""
    m = re.fullmatch(r"@?(-?)([0-9]+)", v)
    if m:
        x = int(m.group(2)) * (-1 if m.group(1) else 1)
        return x if EPOCH_MIN <= x <= EPOCH_MAX else None
    m = re.fullmatch(r"([0-9]{4})-([0-9]{2})-([0-9]{2})"
                     r"(?:[T ]([0-9]{2}):([0-9]{2})(?::([0-9]{2}))?)?Z?", v)
    if not m:
        return None
    y, mo, d = int(m.group(1)), int(m.group(2)), int(m.group(3))
    h, mi, s = (int(m.group(k) or 0) for k in (4, 5, 6))
    try:
        datetime.date(y or 4, mo, d)    # years 0 and 4 are both leap
    except ValueError:
        return None
    if h > 23 or mi > 59 or s > 59:
        return None
    return civil_days(y, mo, d) * DAY + h * 3600 + mi * 60 + s


def interval_ms(v):
    """Seconds as exact decimals, in whole ms; the ms or None."""
    if not re.fullmatch(r"[0-9]*\.?[0-9]*", v) or not re.search("[0-9]", v):
        return None
    ms = Decimal(v) * 1000
    return int(ms) if ms == ms.to_integral_value() else None


def xdec(v):
    """"digits[.digits]", at most 6 decimals after trailing zeros, and
    fewer than 19 significant digits: the Decimal, or None."""
    m = re.fullmatch(r"([0-9]+)(?:\.([0-9]+))?", v)
    if not m:
        return None
    frac = (m.group(2) or "").rstrip("0")
    if len(frac) > 6 or int(m.group(1) + frac) >= 10 ** 18:
        return None
    return Decimal(m.group(1) + "." + frac if frac else m.group(1))


def duration(v):
    m = re.fullmatch(r"([0-9]+)(s|m|min|h|d|w)?", v)
    if not m or int(m.group(1)) > U64_MAX:
        return None
    x = int(m.group(1)) * {None: 1, "s": 1, "m": 60, "min": 60, "h": 3600,
                           "d": DAY, "w": 7 * DAY}[m.group(2)]
    return x if x <= I64_MAX else None


def size(v):
    m = re.fullmatch(r"([0-9]+)(?:([KMGTPkmgtp])(iB|B)?|(B))?", v)
    if not m or int(m.group(1)) > U64_MAX:
        return None
    x = int(m.group(1)) * 1024 ** ("KMGTP".index(m.group(2).upper()) + 1
                                   if m.group(2) else 0)
    return x if x <= U64_MAX else None


def listed(one, v):
    """A comma-separated list of 1 to 64 items of one()."""
    items = v.split(",")
    if len(items) > 64 or any(not i or len(i) > 63 for i in items):
        return None
    vals = [one(i) for i in items]
    return None if any(x is None for x in vals) else vals


def count(v):
    """A plain decimal (exponent allowed), optionally times K M G T."""
    mult = 1
    if v and v[-1] in "KMGTkmgt":
        mult = 1000 ** ("KMGT".index(v[-1].upper()) + 1)
        v = v[:-1]
    if not re.fullmatch(r"(?=[0-9.])[0-9.eE+-]*", v):
        return None
    try:
        return float(v) * mult
    except ValueError:
        return None


def whole_count(lo, hi):
    return lambda v: (count(v) is not None and lo <= count(v) <= hi and
                      count(v) == int(count(v)))


# ---- running ------------------------------------------------------------

def run(cmd, timeout=120, term_after=None, env=None):
    """rc, stdout, stderr; a run still going after term_after seconds gets
    SIGTERM (a daemon that took an endless count). Both scale with the
    pace of the run: a sanitizer build's exit (its leak check) on a busy
    machine may take longer than term_after itself."""
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         env=env)
    try:
        out, err = p.communicate(
            timeout=limit(term_after) if term_after else limit(timeout))
    except subprocess.TimeoutExpired:
        p.send_signal(signal.SIGTERM)
        out, err = p.communicate(timeout=limit(timeout))
    return p.returncode, out.decode(errors="replace"), \
        err.decode(errors="replace")


def shown(v):
    return repr(v if len(v) < 24 else v[:10] + "...(%d)" % len(v))


def attack(label, opt, values, cmd, accepts, ok_rcs=(0,), check=None,
           **kw):
    """Run cmd(v) for every value: refused values exit 2 naming opt,
    taken ones exit with a status of ok_rcs (check(v, rc, out, err) may
    add a complaint), none crashes."""
    bad = []
    for v in values:
        rc, out, err = run(cmd(v), **kw)
        want = accepts(v)
        if rc in CRASH or rc < 0:
            bad.append("%s crashed (%d): %s" % (shown(v), rc, err[-200:]))
        elif not want and (rc != 2 or opt not in err):
            bad.append("%s: exit %d, want 2 naming %s: %s" % (
                shown(v), rc, opt, err[-200:]))
        elif want and rc not in ok_rcs:
            bad.append("%s: exit %d, want %s: %s" % (shown(v), rc, ok_rcs,
                                                     err[-200:]))
        elif want and check:
            why = check(v, rc, out, err)
            if why:
                bad.append("%s: %s" % (shown(v), why))
    ok(not bad, "%s %s: %d values taken or refused as documented" % (
        label, opt, len(values)), "; ".join(bad[:4]) +
       ("; ... %d more" % (len(bad) - 4) if len(bad) > 4 else ""))


# ---- fsscan and fsscan-mpi ---------------------------------------------

def fsscan_options(tmp):
    root = os.path.join(tmp, "one")
    os.makedirs(os.path.join(root, "p"))
    with open(os.path.join(root, "p", "f"), "w") as f:
        f.write("x")
    db = os.path.join(tmp, "opts.db")

    def cmd(opt):
        return lambda v: [FSSCAN, "--db", db, "--quiet", opt, v, root]

    def latest(col):
        return q(db, "SELECT %s FROM snapshot ORDER BY id DESC LIMIT 1"
                 % col)[0][0]

    def recorded(col, conv=int):
        return lambda v, rc, out, err: None if latest(col) == conv(v) \
            else "recorded %r" % latest(col)

    attack("fsscan", "--threads", NUMS + ["1024", "1025"], cmd("--threads"),
           whole(1, 1024), check=recorded("threads"))
    attack("fsscan", "--max-fds", NUMS + [str(1 << 20), str((1 << 20) + 1)],
           cmd("--max-fds"), whole(1, 1 << 20))
    attack("fsscan", "--max-rate", NUMS, cmd("--max-rate"),
           whole(0, I64_MAX))
    attack("fsscan", "--top", NUMS + ["100000", "100001"], cmd("--top"),
           whole(0, 100000), check=lambda v, rc, out, err: None if q(
               db, "SELECT count(*) FROM top WHERE snapshot_id = (SELECT"
               " max(id) FROM snapshot) AND kind = 'file'")[0][0] ==
           min(int(v), 1) else "top rows differ")
    attack("fsscan", "--dirs", NUMS + ["all", "ALL", "2147483647",
                                       "2147483648"], cmd("--dirs"),
           lambda v: v == "all" or whole(0, (1 << 31) - 1)(v),
           check=lambda v, rc, out, err: None if q(
               db, "SELECT max_depth FROM dir_scope WHERE snapshot_id ="
               " (SELECT max(id) FROM snapshot)")[0][0] ==
           (None if v == "all" else int(v)) else "dir_scope differs")
    attack("fsscan", "--now", TIMES, cmd("--now"),
           lambda v: epoch(v) is not None,
           check=lambda v, rc, out, err: None if latest("now_ref") ==
           epoch(v) else "now_ref %r" % latest("now_ref"))
    attack("fsscan", "--as-of", TIMES, cmd("--as-of"),
           lambda v: epoch(v) is not None and epoch(v) <= time.time(),
           check=lambda v, rc, out, err: None if latest("started_at") ==
           epoch(v) else "started_at %r" % latest("started_at"))
    n = q(db, "SELECT count(*) FROM snapshot")[0][0]
    eq(q(db, "SELECT count(*) FROM snapshot WHERE status = 'complete'")[0][0],
       n, "fsscan: every scan an option let run is recorded complete")
    for opt, most, why in (("--exclude", 64, "at most 64"),
                           ("--project", 8, "at most 8")):
        for k in (most, most + 1):
            args = []
            for i in range(k):
                args += [opt, "depth:%d" % (i + 1) if opt == "--project"
                         else "x%d" % i]
            rc, out, err = run([FSSCAN, "--db", db, "--quiet"] + args +
                               [root])
            ok(rc == (0 if k == most else 2) and (k == most or why in err),
               "fsscan: %d of %s %s" % (k, opt, "taken" if k == most else
                                        "refused, naming the bound"), err)

    mdb = os.path.join(tmp, "mpi.db")
    for opt, vals, accepts in (
            ("--threads", ["0", "1024", "1025", " 1"], whole(1, 1024)),
            ("--max-fds", ["0", "1", str(1 << 64)], whole(1, 1 << 20)),
            ("--max-rate", ["-1", str(I64_MAX), str(1 << 63)],
             whole(0, I64_MAX)),
            ("--top", ["100000", "100001", "1x"], whole(0, 100000)),
            ("--dirs", ["all", "-1", "2147483648"],
             lambda v: v == "all" or whole(0, (1 << 31) - 1)(v)),
            ("--now", [str(I64_MIN), str(EPOCH_MAX), "10000-01-01"],
             lambda v: epoch(v) is not None),
            ("--as-of", [str(I64_MIN), "0000-01-01", str(EPOCH_MIN - 1)],
             lambda v: epoch(v) is not None and epoch(v) <= time.time())):
        attack("fsscan-mpi", opt, vals,
               lambda v, opt=opt: [FSSCAN_MPI, "--db", mdb, "--quiet", opt,
                                   v, root], accepts, env=mpi_env())
    eq(q(mdb, "SELECT started_at FROM snapshot WHERE started_at < 0"),
       [(EPOCH_MIN,)], "fsscan-mpi: --as-of 0000-01-01 recorded exactly")


def limits_files(tmp):
    root = os.path.join(tmp, "one")
    db = os.path.join(tmp, "lim.db")
    t0 = time.monotonic()
    rc, out, err = run([FSSCAN, "--db", db, "--quiet", "--limits",
                        "/dev/zero", root], timeout=30)
    ok(rc == 2 and "/dev/zero:1:" in err and "NUL" in err and
       time.monotonic() - t0 < limit(10),
       "--limits /dev/zero: exit 2 at once, naming the file, line and why",
       "%d %s" % (rc, err))
    lim = os.path.join(tmp, "limits.csv")
    n = 300000
    with open(lim, "w") as f:
        f.write("project,bytes,inodes\n")
        for i in range(n):
            f.write("p%06d,%dKiB,%s\n" % (i, i + 1, i * 3 if i % 7 else ""))
    rc, out, err = run([FSSCAN, "--db", db, "--quiet", "--limits", lim,
                        root], timeout=300)
    ok(rc == 0, "--limits of %d projects: exit 0" % n, err)
    got = q(db, "SELECT count(*), sum(bytes), sum(inodes), count(inodes),"
            " min(project), max(project) FROM v_limit")
    want = (n, sum((i + 1) * 1024 for i in range(n)),
            sum(i * 3 for i in range(n) if i % 7),
            sum(1 for i in range(n) if i % 7), "p000000", "p%06d" % (n - 1))
    eq(got, [want], "--limits of %d projects: every limit recorded" % n)
    with open(lim, "a") as f:
        f.write("p123456,1,1\n")
    rc, out, err = run([FSSCAN, "--db", db, "--quiet", "--limits", lim,
                        root], timeout=300)
    ok(rc == 2 and "%s:%d:" % (lim, n + 2) in err and "twice" in err,
       "--limits: a project listed again on the last line is found", err)


# ---- iostatmon ---------------------------------------------------------

def iostatmon_options(tmp):
    proc, sysd = os.path.join(tmp, "proc"), os.path.join(tmp, "sys")
    for d in (os.path.join(proc, "self"), os.path.join(sysd, "class",
                                                       "block")):
        os.makedirs(d)
    with open(os.path.join(proc, "diskstats"), "w") as f:
        f.write("   8       0 sda 1 0 8 0 1 0 8 0 0 0 0 0 0 0 0 0 0\n")
    open(os.path.join(proc, "self", "mountinfo"), "w").close()
    with open(os.path.join(proc, "swaps"), "w") as f:
        f.write("Filename Type Size Used Priority\n")
    logs = os.path.join(tmp, "logs")

    def daemon(opt):
        return lambda v: [IOSTATMON, "-i", "0.1", "-c", "1", "--proc", proc,
                          "--sys", sysd, "--all-devices", "-o", logs,
                          "--host", "h", opt, v]

    def interval(lo_ms):
        return lambda v: (interval_ms(v) is not None and
                          lo_ms <= interval_ms(v) <= 86400000)
    ivals = NUMS + ["0.1", "0.099", "0.1000", "0.0999", "86400",
                    "86400.000", "86400.001", "86401", ".5", "5.", ".",
                    "1.2345", "1.2340", "0.001", "0.0001"]
    attack("iostatmon", "--interval", ivals, daemon("--interval"),
           interval(100), term_after=1.2)
    attack("iostatmon", "--count", NUMS, daemon("--count"),
           whole(1, U64_MAX), term_after=1.2)
    attack("iostatmon", "--retain", NUMS + ["100000", "100001"],
           daemon("--retain"), whole(0, 100000))
    backlogs = NUMS + ["4G", "4194304K", "4194305K", "4096M", "4097M",
                       "4096m", "18014398509481984K", "4294967296",
                       "4294967297", "1k", "1KB"]
    attack("iostatmon", "--backlog", backlogs, daemon("--backlog"),
           lambda v: (re.fullmatch(r"[0-9]+[kKmM]?", v) is not None and
                      int(v.rstrip("kKmM")) * (1 << {"k": 10, "m": 20}.get(
                          v[-1].lower(), 0)) <= 1 << 32))
    # the host is part of the file names: 255 bytes less 28 of the name
    hosts = ["", "h", "x" * 227, "x" * 228, "x" * 255, "x" * 256, "a/b",
             "../x", "\u00fc" * 113, "\u00fc" * 114, "\u00fc" * 128, " ",
             "-"]
    attack("iostatmon", "--host", hosts, daemon("--host"),
           lambda v: 1 <= len(v.encode()) <= 227)

    raw = os.path.join(tmp, "c.raw")
    with open(raw, "w") as f:
        for i in range(4):
            f.write("T %d\n   8      16 sdb %d 0 %d 0 0 0 0 0 0 0 0 0 0 0 0"
                    " 0 0\n" % (1699920000 + 60 * i, i, 100 * i))
    log = os.path.join(tmp, "c.iolog")
    outs = iter(range(1 << 30))

    def imp(opt):
        """A new --out each run: import never appends."""
        return lambda v: [IOSTATMON, "import", raw, "--host", "h", "--out",
                          "%s.%d" % (log, next(outs)), opt, v]
    attack("iostatmon import", "--interval", ivals, imp("--interval"),
           interval(1))
    attack("iostatmon import", "--long-bits", NUMS + ["32", "64", "032",
                                                      "64 ", "16"],
           imp("--long-bits"), lambda v: v in ("32", "64"))
    attack("iostatmon import", "--host", hosts, imp("--host"),
           lambda v: 1 <= len(v.encode()) <= 255)
    attack("iostatmon import -o", "--host", hosts,
           lambda v: [IOSTATMON, "import", raw, "--host", v, "-o",
                      os.path.join(tmp, "implogs%d" % next(outs))],
           lambda v: 1 <= len(v.encode()) <= 227)
    rc, out, err = run([IOSTATMON, "import", raw, "--host", "h", "--out",
                        log])
    ok(rc == 0, "iostatmon import: the log for the analyses", err)
    fmts = ["table", "csv", "json", "", "CSV", " csv", "csv ", "xml",
            "9" * 4000]
    attack("iostatmon dump", "--format", fmts,
           lambda v: [IOSTATMON, "dump", "--format", v, log],
           lambda v: v in ("table", "csv", "json"))
    attack("iostatmon devices", "--format", fmts,
           lambda v: [IOSTATMON, "devices", "--proc", proc, "--sys", sysd,
                      "--format", v], lambda v: v in ("table", "csv", "json"))
    return log


# ---- iocensus: option values -------------------------------------------

def iocensus_options(tmp, cdb, log):
    iodb = os.path.join(tmp, "io.db")
    rc, out, err = run([IOCENSUS, "ingest", "--db", iodb, "--quiet", log])
    ok(rc == 0, "iocensus ingest of the imported log", err)

    def ioc(db, *pre):
        return lambda opt: lambda v: [IOCENSUS] + list(pre[:1]) + [
            "--db", db] + list(pre[1:]) + [opt, v]
    cap, thr = ioc(cdb, "capacity"), ioc(iodb, "throughput")
    timed = lambda v: epoch(v) is not None  # noqa: E731
    for opt in ("--from", "--to"):
        attack("iocensus capacity", opt, TIMES, cap(opt), timed)
        # a window past 200 years, or over a million buckets, is a
        # usage error of its own
        attack("iocensus throughput", opt, TIMES, thr(opt), timed,
               ok_rcs=(0, 2), check=lambda v, rc, out, err: None
               if rc == 0 or "window" in err else "exit 2: " + err)
    attack("iocensus capacity", "--quarter",
           ["2027Q1", "0000Q1", "9999Q3", "9999Q4", "2027Q0", "2027Q5",
            "2027q1", "27Q1", "02027Q1", "+027Q1", " 027Q1", "2027Q1 ",
            "2027Q11", ""], cap("--quarter"),
           lambda v: re.fullmatch(r"[0-9]{4}Q[1-4]", v) is not None and
           v != "9999Q4")
    attack("iocensus throughput", "--every",
           NUMS + ["60", "1m", "1min", "60s", "3600", "1h", "1d", "86400",
                   "24h", "1440m", "1w", "1s", "61", "1H"],
           thr("--every"), lambda v: duration(v) in (60, 3600, DAY))
    decs = NUMS + ["0.000001", "0.0000001", "0.0000010", "1099511627776",
                   "1099511627776.000000", "1099511627776.000001",
                   "1099511627777", "100", "100.000001", "5.555", "0.",
                   ".5", "0000000000000000000001", "99999999999.9999999"]
    attack("iocensus cdf", "--peak", decs, ioc(iodb, "cdf")("--peak"),
           lambda v: xdec(v) is not None and 0 < xdec(v) <= 1 << 40)
    attack("iocensus burst", "--host-peak", decs,
           ioc(iodb, "burst")("--host-peak"),
           lambda v: xdec(v) is not None and 0 < xdec(v) <= 1 << 40)
    attack("iocensus idle", "--threshold", decs,
           ioc(iodb, "idle")("--threshold"),
           lambda v: xdec(v) is not None and 0 < xdec(v) <= 100)
    attack("iocensus health", "--factor", decs + ["1", "1.000001", "1000",
                                                  "1000.000001", "3"],
           ioc(iodb, "health")("--factor"),
           lambda v: xdec(v) is not None and 1 < xdec(v) <= 1000)

    def ascending(vals):
        return vals is not None and vals[0] > 0 and all(
            a < b for a, b in zip(vals, vals[1:]))
    attack("iocensus idle", "--buckets",
           NUMS + ["1m,10m", "10m,1m", "1m,1m", str(I64_MAX),
                   "1," + str(I64_MAX), "15250284452471w",
                   "15250284452472w", "1w,15250284452471w", ",", "1m,",
                   ",".join(str(i) for i in range(1, 65)),
                   ",".join(str(i) for i in range(1, 66)), "1" * 63,
                   "1" * 64],
           ioc(iodb, "idle")("--buckets"),
           lambda v: ascending(listed(duration, v)))
    attack("iocensus burst", "--burst-c",
           NUMS + ["0,128K,1M", "16EiB", "15EiB", "0,16383P",
                   "16384P", str(U64_MAX) + "B", "1KB", "1kiB", "1KiB",
                   "1iB", "1B", "1M,1M", ",".join(["1"] * 65)],
           ioc(iodb, "burst")("--burst-c"),
           lambda v: listed(size, v) is not None)
    attack("iocensus diff", "--depth",
           NUMS + ["1000", "1001", "1e3", "1K", "1.0", "999.5", ".5e1"],
           lambda v: [IOCENSUS, "diff", "--db", cdb, "--by", "dir",
                      "--depth", v, "1", "3"], whole_count(1, 1000))
    # (ingest is the slowest command to run: fewer values where the
    # parser is the one checked above)
    attack("iocensus ingest", "--threads",
           ["0", "1", "256", "257", "2.56e2", "0.5", "-1", str(1 << 64),
            "", " 1", "1x", "9" * 4000],
           lambda v: [IOCENSUS, "ingest", "--db", iodb, "--quiet",
                      "--threads", v, log], whole_count(1, 256))
    # --now dates the ingest: samples of 2023 after a --now of years
    # before are quarantined (exit 1: skipped, not lost)
    attack("iocensus ingest", "--now",
           ["0000-01-01", str(EPOCH_MIN), str(EPOCH_MIN - 1), "-1", "0",
            "2023-11-14T00:03", "9999-12-31T23:59:59", str(EPOCH_MAX + 1),
            str(I64_MAX), str(I64_MIN), "10000-01-01", ""],
           lambda v: [IOCENSUS, "ingest", "--db", iodb, "--quiet", "--now",
                      v, log], timed, ok_rcs=(0, 1))
    ids = NUMS + ["3", "4", "03", str(I64_MAX), "-3"]
    known = lambda v: re.fullmatch(r"[1-9][0-9]*", v) is not None and \
        int(v) <= I64_MAX  # noqa: E731
    exists = lambda v, rc, out, err: None if (  # noqa: E731
        rc == 0) == (v in ("1", "2", "3")) and (
        rc == 0 or "does not exist" in err) else "exit %d: %s" % (rc, err)
    attack("iocensus files", "--snapshot", ids,
           ioc(cdb, "files")("--snapshot"), known, ok_rcs=(0, 2),
           check=exists)
    attack("iocensus diff", "snapshot", ids,
           lambda v: [IOCENSUS, "diff", "--db", cdb, "--", v, "3"], known,
           ok_rcs=(0, 2), check=exists)
    attack("iocensus growth", "--target",
           NUMS + ["1e9", "1e308", "1e309", "1e400", "0.5", "100%",
                   "100.0001%", "0%", "50TiB", "16EiB", "1e30B", "2M",
                   "-1%", "nan", "inf"],
           ioc(cdb, "growth")("--target"),
           lambda v: True if re.fullmatch(r"[0-9.eE%a-zA-Z]+", v) else
           False, ok_rcs=(0, 2), check=lambda v, rc, out, err: None
           if rc == 0 or "--target" in err else "exit 2: " + err)
    for opt, cmdname, db in (("--host", "throughput", iodb),
                             ("--exclude-project", "files", cdb)):
        many = [IOCENSUS, cmdname, "--db", db]
        for i in range(65):
            many += [opt, "x%d" % i]
        rc, out, err = run(many)
        ok(rc == 2 and opt in err and "64" in err,
           "iocensus %s: 65 of %s refused, naming the bound" % (cmdname,
                                                                 opt), err)
    annotate(tmp, iodb)


def annotate(tmp, iodb):
    ann = os.path.join(tmp, "ann.txt")
    cases = [
        ("0000-01-01 9999-12-31T23:59:59 everything\n", True),
        ("%d %d ends\n" % (EPOCH_MIN, EPOCH_MAX), True),
        ("%d 0 one second early\n" % (EPOCH_MIN - 1), False),
        ("0 %d one second late\n" % (EPOCH_MAX + 1), False),
        ("0 %d int64\n" % I64_MAX, False),
        ("%d 0 int64\n" % I64_MIN, False),
        ("-1 0 the last second of 1969\n", True),
        ("1970-01-01 1970-01-01 empty\n", False),
        ("x" * 65537 + "\n", False),
        ("2023-11-14 2023-11-15 a\0b\n", False),
    ]
    bad = []
    for text, want in cases:
        with open(ann, "w") as f:
            f.write(text)
        rc, out, err = run([IOCENSUS, "throughput", "--db", iodb,
                            "--annotate", ann])
        if rc in CRASH or (rc == 0) != want or (not want and (
                rc != 2 or ann not in err)):
            bad.append("%r: exit %d %s" % (text[:40], rc, err[-200:]))
    t0 = time.monotonic()
    rc, out, err = run([IOCENSUS, "throughput", "--db", iodb, "--annotate",
                        "/dev/zero"], timeout=60)
    if rc != 2 or "NUL" not in err or time.monotonic() - t0 > limit(10):
        bad.append("/dev/zero: exit %d %s" % (rc, err[-200:]))
    ok(not bad, "iocensus --annotate: times of the years 0 to 9999 taken,"
       " others and unbounded files refused", "; ".join(bad))


# ---- the census at the earliest times -----------------------------------

def csv_tables(text):
    """{table key: [rows as dicts]} of a csv result."""
    out, key, head = {}, None, None
    for line in text.splitlines():
        if line.startswith("# "):
            key, head = line[2:], None
        elif not line:
            key = key if head is None else None
        elif head is None:
            head = line.split(",")
            out.setdefault(key, [])
        else:
            out[key].append(dict(zip(head, line.split(","))))
    return out


def ioc_csv(db, *args):
    rc, out, err = run([IOCENSUS] + list(args[:1]) + ["--db", db,
                                                     "--format", "csv"] +
                       list(args[1:]))
    if rc != 0:
        return None, err
    return csv_tables(out), err


def earliest_census(tmp):
    """Three snapshots of fs t: dated 0000-01-01 (1 file) and
    1969-12-31T23:59:59 (2 files) by --as-of, then now (3 files)."""
    root = os.path.join(tmp, "census")
    os.makedirs(os.path.join(root, "p"))
    db = os.path.join(tmp, "census.db")
    times = []
    for k, asof in enumerate(("0000-01-01", "1969-12-31T23:59:59", None)):
        with open(os.path.join(root, "p", "f%d" % k), "w") as f:
            f.write("x" * (k + 1))
        before = int(time.time())
        rc, out, err = run([FSSCAN, "--db", db, "--fs", "t", "--quiet"] +
                           (["--as-of", asof] if asof else []) + [root])
        ok(rc == 0, "fsscan --as-of %s: exit 0" % asof, err)
        times.append(epoch(asof) if asof else q(
            db, "SELECT started_at FROM snapshot WHERE id = 3")[0][0])
        if not asof:
            ok(before <= times[-1] <= time.time(), "the last scan is now")
    t1, t2, t3 = times
    eq((t1, t2), (EPOCH_MIN, -1), "the dates as the oracle reads them")
    eq(q(db, "SELECT id, started_at, now_ref FROM snapshot"),
       [(1, t1, t1), (2, t2, t2), (3, t3, t3)],
       "snapshot: started_at and now_ref exactly as dated")

    r, err = ioc_csv(db, "snapshots")
    eq([(int(x["id"]), int(x["started_at"])) for x in r["snapshots"]]
       if r else err, [(1, t1), (2, t2), (3, t3)],
       "iocensus snapshots: the three dates")
    r, err = ioc_csv(db, "growth", "--target", "10")
    eq([(int(x["snapshot"]), int(x["t"]), int(x["value"]))
        for x in r["points"]] if r else err,
       [(1, t1, 1), (2, t2, 2), (3, t3, 3)],
       "iocensus growth: every point at its date, with its files")

    def rate(a, b, fa, fb):
        return (fb - fa) / ((b - a) / DAY)

    def cap_row(*window):
        r, err = ioc_csv(db, "capacity", *window)
        if not r:
            return err
        x = r["filesystems"][0]
        return (int(x["snapshot"]), int(x["t"]), int(x["files"]),
                float(x["files_per_day"]) if x["files_per_day"] else None)

    def close(got, want):
        return (isinstance(got, tuple) and got[:3] == want[:3] and
                (got[3] is None) == (want[3] is None) and
                (want[3] is None or abs(got[3] - want[3]) <=
                 1e-12 * abs(want[3])))
    for window, want in (
            ((), (3, t3, 3, rate(t1, t3, 1, 3))),
            (("--to", "1970-01-01"), (2, t2, 2, rate(t1, t2, 1, 2))),
            (("--to", "0"), (2, t2, 2, rate(t1, t2, 1, 2))),
            (("--from", "1970-01-01"), (3, t3, 3, None)),
            (("--from", "0000-01-01", "--to", "0000-01-02"),
             (1, t1, 1, None)),
            (("--quarter", "0000Q1"), (1, t1, 1, None))):
        got = cap_row(*window)
        ok(close(got, want), "iocensus capacity %s: the window's latest"
           " point and files per day from its first" % " ".join(window),
           "got %r want %r" % (got, want))
    r, err = ioc_csv(db, "usage")
    eq([(x["name"], int(x["files"]), int(x["d_files"]))
        for x in r["usage"] if x["name"] == "p"] if r else err,
       [("p", 3, 1)], "iocensus usage: the latest point against the one"
       " of 1969-12-31")
    rc, out, err = run([IOCENSUS, "usage", "--db", db])
    ok(rc == 0 and "#3 of %s; changes since #2 of 1969-12-31" % (
        datetime.datetime.fromtimestamp(t3, datetime.timezone.utc).strftime(
            "%Y-%m-%d")) in out,
       "iocensus usage: the note dates both points", out[:400] + err)
    r, err = ioc_csv(db, "diff", "1", "3")
    x = r["filesystems"][0] if r else {}
    ok(r and (int(x["t_a"]), int(x["t_b"]), int(x["d_files"])) ==
       (t1, t3, 2) and abs(float(x["days"]) - (t3 - t1) / DAY) <=
       1e-9 * (t3 - t1) / DAY, "iocensus diff 1 3: from 0000-01-01, its"
       " days exact", repr(x) + err)
    rc, out, err = run([IOCENSUS, "files", "--db", db, "--snapshot", "1"])
    ok(rc == 0 and "started 0000-01-01 00:00 UTC" in out,
       "iocensus files --snapshot 1: dated 0000-01-01", out[:300] + err)
    html = os.path.join(tmp, "r.html")
    rc, out, err = run([IOCENSUS, "report", "--db", db, "--out", html])
    ok(rc == 0 and "0000-01-01" in open(html, errors="replace").read(),
       "iocensus report: written, the 0000-01-01 point in it", err)
    rc, out, err = run([IOCENSUS, "report", "--db", db, "--out", html,
                        "--to", "1970-01-01"])
    text = open(html, errors="replace").read() if rc == 0 else ""
    ok(rc == 0 and "1969-12-31" in text and "File system t has"
       not in text, "iocensus report --to 1970-01-01: the two dated"
       " points make its window", err)
    return db


def foreign_times(tmp, db):
    """Times another program wrote: refused by name, never computed."""
    cases = [("started_at", str(I64_MIN)), ("started_at", str(I64_MAX)),
             ("started_at", str(EPOCH_MIN - 1)),
             ("started_at", "'x'"), ("started_at", "1.5"),
             ("finished_at", str(I64_MAX)), ("now_ref", str(I64_MIN)),
             ("scanned_at", str(EPOCH_MAX + 1))]
    bad = []
    for col, val in cases:
        bdb = os.path.join(tmp, "foreign.db")
        shutil.copy(db, bdb)
        con = sqlite3.connect(bdb)
        con.execute("UPDATE snapshot SET %s = %s WHERE id = 2" % (col, val))
        con.commit()
        con.close()
        for args in (["snapshots"], ["capacity"], ["usage"],
                     ["growth", "--target", "10"], ["diff", "2", "3"],
                     ["files", "--snapshot", "2"], ["report", "--out",
                                                    bdb + ".html"]):
            rc, out, err = run([IOCENSUS, args[0], "--db", bdb] + args[1:])
            if rc != 3 or "snapshot 2" not in err or col not in err:
                bad.append("%s=%s, %s: exit %d %s" % (col, val, args[0], rc,
                                                      err[-160:]))
        rc, out, err = run([IOCENSUS, "metrics", "--db", bdb])
        if rc not in (0, 3) or (rc == 3 and "snapshot 2" not in err):
            bad.append("%s=%s, metrics: exit %d %s" % (col, val, rc, err))
    ok(not bad, "a snapshot time outside the years 0 to 9999 (another"
       " program's row) is refused by every analysis, naming it",
       "; ".join(bad[:4]))


def main():
    tmp = tempfile.mkdtemp(prefix="t_attack_options.",
                           dir=os.environ.get("TMPDIR"))
    try:
        fsscan_options(tmp)
        limits_files(tmp)
        log = iostatmon_options(tmp)
        db = earliest_census(tmp)
        iocensus_options(tmp, db, log)
        foreign_times(tmp, db)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    done()


if __name__ == "__main__":
    main()
