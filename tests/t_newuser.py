#!/usr/bin/env python3
"""t_newuser: the command line as a new user meets it.

- `iocensus ingest --quiet` prints no row per log (the totals, and where
  the per-log table is: --table sources still prints it).
- A mistyped command or option gets "did you mean ...", and only when
  one candidate is a typo away: in iocensus, and alike in fsscan,
  fsscan-mpi, iostatmon and its subcommands (one grammar: "unknown
  option", "ambiguous option" with the candidates, "takes no value",
  then where the options are listed). fsscan's --as-of and --now take
  iocensus' dates, and a refused one says what is taken.
- `--table nope` names the tables there are.
- fsscan's messages start with "fsscan:", whatever path it was started
  by (getopt would print argv[0]).
- fsscan -v: the summary with thousands separators, bytes in binary units
  and exact, errors; the numbers are find's. A walk whose snapshot could
  not be recorded (its CSV cannot take its place) is "failed" there, as
  in the database. The progress line on a file
  system's root gives the share of the inodes statvfs says are used
  (os.statvfs here).
- Headers say a unit only where the title does not (no "Files (files)"),
  booleans read yes/no, durations read alike ("1 h 0 min", never
  "60 (min)"), and JSON declares a unit for times.
"""
import glob
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from tap import ok, done, diff, skip             # noqa: E402
import reportdb                                  # noqa: E402

BUILD = os.environ["BUILD"]
IOCENSUS = os.path.join(BUILD, "iocensus")
FSSCAN = os.path.join(BUILD, "fsscan")


def eq(got, want, name, why=""):
    return ok(got == want, name, diff(got, want) + ("; " + why if why else ""))


def run(*args, **kw):
    p = subprocess.run(list(args), capture_output=True, text=True, **kw)
    return p.returncode, p.stdout, p.stderr


def check_ingest_quiet(tmp):
    ds = reportdb.dataset()
    raw = os.path.join(tmp, "raw")
    os.makedirs(raw)
    logs = []
    for i, path in enumerate(sorted(ds.write(raw))):
        out = os.path.join(tmp, "h%d.log" % i)
        subprocess.run([os.path.join(BUILD, "iostatmon"), "import", path,
                        "--host", "h%d" % i, "--out", out], check=True,
                       capture_output=True)
        logs.append(out)
    db = os.path.join(tmp, "q.db")
    rc, out, err = run(IOCENSUS, "ingest", "--db", db, "--quiet", "--wide",
                       *logs)
    eq(rc, 0, "ingest --quiet", err)
    ok(not any(l in out for l in logs), "--quiet: no row per log", out)
    ok("(3 rows: add --table sources" in out,
       "--quiet: the per-log table is named, not printed", out)
    ok(re.search(r"^\s+3\s+0\s+[\d,]+\s+", out, re.M),
       "--quiet: the totals are printed", out)
    rc, out, err = run(IOCENSUS, "ingest", "--db", db, "--quiet", "--table",
                       "sources", *logs)
    ok(rc == 0 and all(l in out for l in logs),
       "--quiet --table sources lists every log", out)
    rc, out, _ = run(IOCENSUS, "ingest", "--db", db, *logs)
    ok(all(l in out for l in logs), "without --quiet a row per log")
    return db


def check_suggest(db):
    for typo, meant in (("snapshot", "snapshots"), ("idel", "idle"),
                        ("cfd", "cdf"), ("metric", "metrics"),
                        ("thr", "throughput"), ("growht", "growth")):
        rc, out, err = run(IOCENSUS, typo, "--db", db)
        ok(rc == 2 and err.startswith("iocensus: unknown command '%s'; did "
                                      "you mean '%s'?" % (typo, meant)),
           "'%s': did you mean '%s'?" % (typo, meant), err)
    for typo in ("xyzzy", "q"):
        rc, out, err = run(IOCENSUS, typo)
        ok(rc == 2 and "did you mean" not in err and "commands:" in err,
           "'%s': no guess, the list of commands" % typo, err[:200])
    rc, out, err = run(IOCENSUS, "idle", "--db", db, "--treshold", "5")
    ok(rc == 2 and "unknown option '--treshold'; did you mean "
       "'--threshold'?" in err, "an option a typo away is named", err)
    rc, out, err = run(IOCENSUS, "cdf", "--db", db, "--treshold", "5")
    ok(rc == 2 and "did you mean" not in err,
       "only options the command honours are suggested", err)


def mpi_env():
    """fsscan-mpi runs MPI_Init before it reads its options: as root, Open
    MPI wants to be told twice, and under ASan its own allocations are
    suppressed (tests/lsan-openmpi.supp, as t_mpi.py does)."""
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1",
               OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    supp = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        "lsan-openmpi.supp")
    if "LSAN_OPTIONS" in env:
        env["LSAN_OPTIONS"] += ":print_suppressions=0:suppressions=" + supp
    if "ASAN_OPTIONS" in env:
        env["ASAN_OPTIONS"] += ":fast_unwind_on_malloc=0"
    return env


def check_suggest_programs(tmp):
    """Every program's typos, said alike: the first line of stderr, exit
    2; the second says where the options are listed."""
    iostatmon = os.path.join(BUILD, "iostatmon")
    mpi = os.path.join(BUILD, "fsscan-mpi")
    cases = [
        ([FSSCAN, "--projekt", "x", tmp],
         "fsscan: unknown option '--projekt'; did you mean '--project'?"),
        ([FSSCAN, "--pro", "x", tmp],
         "fsscan: ambiguous option '--pro' (--project, --progress)"),
        ([FSSCAN, "--verbose=2", tmp], "fsscan: --verbose takes no value"),
        ([FSSCAN, "--ass-of", "2026-06-01", tmp],
         "fsscan: unknown option '--ass-of'; did you mean '--as-of'?"),
        ([iostatmon, "--intervl", "3"], "iostatmon: unknown option "
         "'--intervl'; did you mean '--interval'?"),
        ([iostatmon, "devcies"],
         "iostatmon: unknown command 'devcies'; did you mean 'devices'?"),
        ([iostatmon, "dump", "--iostt", "x"], "iostatmon dump: unknown "
         "option '--iostt'; did you mean '--iostat'?"),
        ([iostatmon, "import", "--hots", "h", "x"], "iostatmon import: "
         "unknown option '--hots'; did you mean '--host'?"),
        ([iostatmon, "devices", "--inclde", "sd*"], "iostatmon devices: "
         "unknown option '--inclde'; did you mean '--include'?"),
        ([iostatmon, "devices", "--bogus"],
         "iostatmon devices: unknown option '--bogus'"),
    ]
    if os.path.exists(mpi):
        cases.append(([mpi, "--projekt", "x", tmp], "fsscan-mpi: unknown "
                      "option '--projekt'; did you mean '--project'?"))
    else:
        skip("fsscan-mpi's typos", "fsscan-mpi is not built", "mpicc")
    for args, want in cases:
        rc, out, err = run(*args, env=mpi_env() if args[0] == mpi
                           else None)
        lines = err.splitlines()
        prog = want.split(":")[0]
        eq((rc, lines[:1]), (2, [want]), " ".join(
            [os.path.basename(args[0])] + args[1:3]) + ": " + want)
        ok(lines[1:2] == ["%s: `%s --help` lists the options" % (prog,
                                                                 prog)]
           or prog == "iostatmon" and "command" in want,
           "... then where the options are listed", err)


def check_fsscan_dates(tmp):
    """fsscan's times are iocensus': a UTC date or unix seconds."""
    root = os.path.join(tmp, "dated")
    os.makedirs(root)
    db = os.path.join(tmp, "dated.db")
    for opt, val, col, want in (("--as-of", "2026-06-01", "started_at",
                                 1780272000),
                                ("--now", "2026-06-01T12:30", "now_ref",
                                 1780317000),
                                ("--as-of", "@1780272000", "started_at",
                                 1780272000)):
        rc, out, err = run(FSSCAN, "--db", db, "--quiet", opt, val, root)
        eq(rc, 0, "fsscan %s %s: taken" % (opt, val), err)
        rc, out, err = run(IOCENSUS, "snapshots", "--db", db, "--format",
                           "json")
        rows = json.loads(out)["tables"]["snapshots"]["rows"] if rc == 0 \
            else []
        if col == "now_ref":
            c = sqlite3.connect(db)
            got = c.execute("SELECT now_ref FROM snapshot ORDER BY id DESC"
                            " LIMIT 1").fetchone()[0]
            c.close()
        else:
            got = rows[-1][col] if rows else None
        eq(got, want, "fsscan %s %s: %s is %d" % (opt, val, col, want))
    rc, out, err = run(FSSCAN, "--db", db, "--as-of", "2026-13-01", root)
    eq((rc, err.splitlines()[:1]), (2, [
        "fsscan: --as-of '2026-13-01': expected a UTC time in the years 0 "
        "to 9999: unix seconds (-62167219200 to 253402300799) or a date "
        "(YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS])"]),
       "a date refused says what is taken")


def check_tables(db):
    rc, out, err = run(IOCENSUS, "idle", "--db", db, "--table", "nope")
    ok(rc == 2 and "--table nope: no such table; idle has periods, strict_periods, "
       "summary"
       in err, "--table nope names the tables", err)
    rc, out, err = run(IOCENSUS, "snapshots", "--db", db, "--table", "x")
    ok(rc == 2 and "snapshots has snapshots" in err, "... of each command",
       err)


def binary(n):
    """Bytes in binary units with one decimal, as people read them."""
    units = ["B", "KiB", "MiB", "GiB", "TiB"]
    if n < 1024:
        return "%d B" % n
    k = 0
    v = float(n)
    while v >= 1024 and k < len(units) - 1:
        v /= 1024
        k += 1
    return "%.1f %s" % (v, units[k])


def check_fsscan(tmp):
    root = os.path.join(tmp, "tree")
    for d in range(3):
        os.makedirs(os.path.join(root, "d%d" % d))
        for k in range(400):
            with open(os.path.join(root, "d%d" % d, "f%d" % k), "wb") as f:
                f.write(b"x" * (1000 + k))
    db = os.path.join(tmp, "s.db")
    rc, out, err = run(FSSCAN, "--bogus", root)
    eq((rc, err.splitlines()[0] if err else ""),
       (2, "fsscan: unknown option '--bogus'"),
       "fsscan names itself, not its path (%s)" % FSSCAN)
    ok(all(l.startswith("fsscan: ") for l in err.splitlines()),
       "every line of it", err)
    rc, out, err = run(FSSCAN, "--db")
    eq(err.splitlines()[:1], ["fsscan: --db needs a value"],
       "a missing value, as fsscan")
    rc, out, err = run(FSSCAN, "--db", db, "-v", "--quiet", root)
    files = sum(len(fs) for _, _, fs in os.walk(root))
    nbytes = sum(os.path.getsize(os.path.join(d, f))
                 for d, _, fs in os.walk(root) for f in fs)
    dirs = sum(1 for _ in os.walk(root))
    want = ("fsscan: snapshot 1 complete: {:,} files, {:,} dirs, {} "
            "({:,} bytes), 0 errors, ".format(files, dirs, binary(nbytes),
                                              nbytes))
    ok(rc == 0 and err.startswith(want), "the -v summary: " + want, err)
    ok(re.search(r", [\d,]+ entries/s\n$", err), "... and the rate", err)
    # The CSV cannot be written: its file system is full. (A target that
    # is not a regular file is refused before the walk, and records
    # nothing.)
    full = os.path.join(tmp, "full")
    os.mkdir(full)
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4k", "tmpfs",
                       full], capture_output=True).returncode == 0:
        try:
            with open(os.path.join(full, "filler"), "wb") as f:
                try:
                    f.write(b"x" * 65536)
                except OSError:
                    pass
            rc, out, err = run(FSSCAN, "--db", db, "-v", "--quiet",
                               "--fsstats-csv", os.path.join(full, "x.csv"),
                               root)
        finally:
            subprocess.run(["umount", full])
        last = err.splitlines()[-1] if err else ""
        ok(rc == 3 and last.startswith("fsscan: snapshot 2 failed: "),
           "a snapshot that cannot be recorded: the summary says failed",
           "rc=%d %s" % (rc, err))
        got = subprocess.run(["sqlite3", db, "SELECT status FROM snapshot "
                              "WHERE id = 2"], capture_output=True,
                             text=True).stdout
        eq(got.strip(), "failed", "... as the database does")
    else:
        skip("a snapshot that cannot be recorded (2 checks)", "no tmpfs"
             " mount here", needs="root" if os.geteuid() else None)

    # The progress line, on the root of a file system of our own.
    mnt = os.path.join(tmp, "mnt")
    os.makedirs(mnt)
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs",
                       mnt], capture_output=True).returncode != 0:
        skip("progress share", "no tmpfs mount here",
             needs="root" if os.geteuid() else None)
        return
    try:
        for k in range(300):
            open(os.path.join(mnt, "f%d" % k), "w").close()
        st = os.statvfs(mnt)
        used = st.f_files - st.f_ffree
        rc, out, err = run(FSSCAN, "--db", db, "--progress", "--max-rate",
                           "100", mnt)
        lines = [l for l in err.replace("\r", "\n").split("\n")
                 if "inodes in use" in l]
        ok(lines and all(("of {:,} inodes in use".format(used)) in l
                         for l in lines),
           "the progress line shares the used inodes (%d)" % used,
           err[-300:])
        pcts = [int(re.search(r"~(\d+)%", l).group(1)) for l in lines]
        ok(pcts and pcts == sorted(pcts) and pcts[-1] <= 100,
           "its share grows", pcts)
        ok(all(re.search(r"entries .*, [\d.]+ (B|KiB|MiB), [\d,]+ errors?, "
                         r"[\d,]+/s, ", l) for l in lines),
           "bytes, errors and the rate in it", lines[:1])
        rc, out, err = run(FSSCAN, "--db", db, "--progress", "--max-rate",
                           "200", root)
        ok("entries" in err and "inodes in use" not in err,
           "below a file system's root, no share", err[-200:])
    finally:
        subprocess.run(["umount", mnt])


def check_headers(tmp):
    db = reportdb.build(os.path.join(tmp, "r"), BUILD)
    rc, out, err = run(IOCENSUS, "snapshots", "--db", db, "--wide")
    head = [l for l in out.splitlines() if l.startswith("Id")][0]
    ok("Files " in head + " " and "(files)" not in head and
       "(dirs)" not in head, "no unit that repeats the title", head)
    ok(re.search(r"\bComplete\b", head) and
       re.search(r"  (yes|no)  ", out), "complete reads yes/no", out[:600])
    rc, out, err = run(IOCENSUS, "snapshots", "--db", db, "--format", "csv")
    ok(",1," in out and "yes" not in out, "CSV keeps 1 and 0")
    rc, out, err = run(IOCENSUS, "idle", "--db", db, "--table", "summary",
                       "--wide")
    head, rule, row = out.splitlines()[2:5]
    cells = dict(zip(re.split(r"  +", head.strip()),
                     re.split(r"  +", row.strip())))
    ok("Longest period" in cells and re.fullmatch(
        r"(\d+ h )?\d+ min", cells["Longest period"]),
       "a duration reads as one (5 h 0 min), with no (min)", cells)
    ok("Idle minutes" in cells and re.fullmatch(r"[\d,]+",
                                                 cells["Idle minutes"]),
       "a count of minutes is a plain number, no (min)", cells)
    rc, out, err = run(IOCENSUS, "idle", "--db", db, "--format", "json")
    cols = json.loads(out)["tables"]["summary"]["columns"]
    units = {c["key"]: c["unit"] for c in cols}
    eq(units.get("longest_t"), "unix seconds", "JSON: a time's unit")
    eq(units.get("longest_minutes"), "min", "JSON: minutes stay minutes")
    rc, out, err = run(IOCENSUS, "burst", "--db", db, "--table", "burst")
    head, rule, row = out.splitlines()[2:5]
    cells = dict(zip(re.split(r"  +", head.strip()),
                     re.split(r"  +", row.strip())))
    ok(re.fullmatch(r"(\d+ h )?\d+ min( \d+ s)?", cells.get("l_IO", "")),
       "burst: l_IO reads as a duration", cells)


def main():
    tmp = tempfile.mkdtemp(prefix="t_newuser.")
    try:
        db = check_ingest_quiet(tmp)
        check_suggest(db)
        check_suggest_programs(tmp)
        check_fsscan_dates(tmp)
        check_tables(db)
        check_fsscan(tmp)
        check_headers(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


main()
done()
