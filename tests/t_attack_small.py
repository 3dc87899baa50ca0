#!/usr/bin/env python3
"""Attack: the smaller failures a hostile or careless run finds.

- iostatmon import of a capture of 120,000 devices: refused (exit 3), the
  limit of 65536 devices in one sample named, no file left, with --out
  and with -o (where a first day of few devices was already written: it
  is removed); 65536 devices are imported, and `iostatmon dump` prints
  65536 rows, counted here; 65537 are refused.
- An option value that names nothing: iocensus files --exclude-project
  with a typo is a usage error (exit 2) that suggests the project meant,
  as --project is; an empty value (--project '', --exclude-project '',
  --host '', --fs '') is refused by iocensus, fsscan and fsscan-mpi
  (exit 2, nothing made).
- iocensus prune with every rule 0: exit 2, every snapshot kept (counted
  with sqlite3). prune and forget on a database with a damaged page (a
  leaf of the dir table, which the policy would empty): exit 3, the
  database named with what PRAGMA quick_check says, every byte of the
  file unchanged.
- iostatmon --retain: a log of this host whose name says 2020 but whose
  samples are of today is kept; one whose samples are as old as its name
  is deleted; a damaged one is kept and named on stderr.
"""
import hashlib
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "lib"))
from tap import ok, eq, done, skip  # noqa: E402
from pace import limit  # noqa: E402
import fakeproc  # noqa: E402
from iostatmon_run import BIN as IOSTATMON, common, day_name  # noqa: E402

BUILD = os.environ["BUILD"]
FSSCAN = os.path.join(BUILD, "fsscan")
FSSCAN_MPI = os.path.join(BUILD, "fsscan-mpi")
IOC = os.path.join(BUILD, "iocensus")
T0 = 1795219200             # 2026-11-21T00:00:00Z
NDEV_MAX = 65536


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


def run(argv, timeout=120, env=None):
    p = subprocess.run(argv, capture_output=True, text=True,
                       timeout=limit(timeout), stdin=subprocess.DEVNULL, env=env)
    return p.returncode, p.stdout, p.stderr


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def capture(path, blocks):
    """A raw capture: blocks is [(T, ndev)]; device i is "d<i>", 8:i."""
    with open(path, "w") as f:
        for k, (t, n) in enumerate(blocks):
            f.write("T %d\n" % t)
            f.write("".join("8 %d d%d %d 0 %d 0 %d 0 %d 0 0 0 0\n"
                            % (i, i, k + i, 2 * k, k, i % 7)
                            for i in range(n)))


def dump_rows(log):
    rc, out, err = run([IOSTATMON, "dump", log])
    lines = out.splitlines()
    return rc, len(lines) - 1 if lines else 0, err


def import_limits(tmp):
    big = os.path.join(tmp, "big.raw")
    capture(big, [(T0, 120000), (T0 + 60, 120000)])
    out = os.path.join(tmp, "big.iolog.gz")
    rc, _, err = run([IOSTATMON, "import", big, "--host", "h", "--out", out])
    ok(rc == 3 and "120000 devices" in err and str(NDEV_MAX) in err,
       "import of 120,000 devices: exit 3, the limit named", err)
    ok(not os.path.lexists(out), "import of 120,000 devices: no file left")

    # A first day that fits, then a day too large: nothing stays.
    mixed = os.path.join(tmp, "mixed.raw")
    capture(mixed, [(T0, 3), (T0 + 60, 3), (T0 + 86400, NDEV_MAX + 1)])
    logdir = os.path.join(tmp, "implogs")
    rc, _, err = run([IOSTATMON, "import", mixed, "--host", "h", "-o",
                      logdir])
    ok(rc == 3 and "65537 devices" in err,
       "import -o, a second day of 65537 devices: exit 3, said", err)
    eq(os.listdir(logdir) if os.path.isdir(logdir) else [], [],
       "import -o: the first day's log it made is removed")

    fits = os.path.join(tmp, "fits.raw")
    capture(fits, [(T0, NDEV_MAX), (T0 + 60, NDEV_MAX)])
    out = os.path.join(tmp, "fits.iolog.gz")
    rc, _, err = run([IOSTATMON, "import", fits, "--host", "h", "--out",
                      out])
    eq(rc, 0, "import of 65536 devices: exit 0 " + err[-300:])
    rc, n, err = dump_rows(out)
    eq((rc, n), (0, NDEV_MAX), "dump of it: one interval of 65536 rows")

    sel = os.path.join(tmp, "sel.iolog.gz")
    rc, _, err = run([IOSTATMON, "import", big, "--host", "h", "--out", sel,
                      "--include", "d1*"])
    want = sum(1 for i in range(120000) if str(i).startswith("1"))
    rc2, n, _ = dump_rows(sel)
    eq((rc, rc2, n), (0, 0, want),
       "import of 120,000 with --include d1*: the %d selected, dumped" % want)


def small_db(tmp):
    root = os.path.join(tmp, "tree")
    for p in ("alpha/a", "beta/b"):
        os.makedirs(os.path.join(root, p))
        for k in range(3):
            with open(os.path.join(root, p, "f%d" % k), "wb") as f:
                f.write(b"x" * 1000 * (k + 1))
    db = os.path.join(tmp, "census.db")
    for date in ("2026-01-01", "2026-01-02", "2026-01-03", "2026-01-04"):
        rc, _, err = run([FSSCAN, "--db", db, "--as-of", date, "--quiet",
                          "--dirs", "all", "--project", "depth:1", root])
        ok(rc == 0, "fsscan --as-of %s" % date, err)
    con = sqlite3.connect(db)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    return db, root


def count(db, sql):
    con = sqlite3.connect(db)
    n = con.execute(sql).fetchone()[0]
    con.close()
    return n


def names_options(tmp, db, root):
    rc, _, err = run([IOC, "files", "--db", db, "--exclude-project",
                      "alpah"])
    ok(rc == 2 and "alpah" in err and "did you mean 'alpha'" in err,
       "files --exclude-project with a typo: exit 2, the one meant", err)
    rc, _, err = run([IOC, "files", "--db", db, "--project", "alpah"])
    ok(rc == 2 and "did you mean 'alpha'" in err,
       "files --project with a typo: exit 2, the one meant", err)
    rc, out, err = run([IOC, "files", "--db", db, "--exclude-project",
                        "alpha"])
    eq(rc, 0, "files --exclude-project alpha: exit 0 " + err)
    for argv, what in (
            ([IOC, "files", "--db", db, "--exclude-project", ""],
             "iocensus files --exclude-project ''"),
            ([IOC, "files", "--db", db, "--project", ""],
             "iocensus files --project ''"),
            ([IOC, "usage", "--db", db, "--fs", ""], "iocensus usage --fs ''"),
            ([IOC, "throughput", "--db", db, "--host", ""],
             "iocensus throughput --host ''")):
        rc, _, err = run(argv)
        ok(rc == 2 and "''" in err and "empty" in err,
           "%s: exit 2, said" % what, err)
    for prog in (FSSCAN, FSSCAN_MPI):
        for opt in ("--fs", "--project"):
            new = os.path.join(tmp, "empty%s.db" % opt)
            rc, _, err = run([prog, "--db", new, "--quiet", opt, "", root],
                             env=mpi_env() if prog == FSSCAN_MPI else None)
            ok(rc == 2 and opt + " ''" in err and not os.path.exists(new),
               "%s %s '': exit 2, said, no database made"
               % (os.path.basename(prog), opt), err)


def damage_leaf(db, table):
    """Overwrite the cell pointers of a leaf page of table: a page the
    removal of its rows would rewrite."""
    con = sqlite3.connect(db)
    size = con.execute("PRAGMA page_size").fetchone()[0]
    page = con.execute("SELECT max(pageno) FROM dbstat WHERE name = ? AND "
                       "pagetype = 'leaf'", (table,)).fetchone()[0]
    con.close()
    with open(db, "r+b") as f:
        f.seek((page - 1) * size + 8)
        f.write(b"\xff" * 8)


def prune_checks(tmp, db):
    n = count(db, "SELECT count(*) FROM snapshot")
    rc, _, err = run([IOC, "prune", "--db", db, "--keep-daily", "0",
                      "--keep-weekly", "0", "--keep-monthly", "0",
                      "--keep-quarterly", "0"])
    ok(rc == 2 and "every rule is 0" in err,
       "prune with every rule 0: exit 2, said", err)
    eq(count(db, "SELECT count(*) FROM snapshot"), n,
       "prune with every rule 0: all %d snapshots kept" % n)
    rc, _, err = run([IOC, "prune", "--db", db, "--keep-daily", "0"])
    ok(rc == 2, "prune --keep-daily 0 alone: exit 2", err)

    bad = os.path.join(tmp, "damaged.db")
    shutil.copy(db, bad)
    damage_leaf(bad, "dir")
    before = digest(bad)
    for argv, what in (
            ([IOC, "prune", "--db", bad, "--keep-daily", "1"], "prune"),
            ([IOC, "forget", "--db", bad, "1"], "forget")):
        rc, _, err = run(argv)
        ok(rc == 3 and bad in err and "quick_check" in err and
           "nothing was removed" in err,
           "%s on a damaged database: exit 3, named, quick_check said"
           % what, err)
        eq(digest(bad), before, "%s on a damaged database: every byte "
           "kept" % what)
        ok(not os.path.exists(bad + "-journal"),
           "%s on a damaged database: no journal left" % what)

    good = os.path.join(tmp, "good.db")
    shutil.copy(db, good)
    rc, _, err = run([IOC, "prune", "--db", good, "--keep-daily", "1"])
    eq((rc, count(good, "SELECT count(*) FROM snapshot")), (0, 1),
       "prune --keep-daily 1 on the intact copy: one snapshot left " + err)


def retain_checks(tmp):
    root = fakeproc.FakeRoot(os.path.join(tmp, "fake"), 0.2)
    root.publish(3)
    logdir = os.path.join(tmp, "logs")
    os.makedirs(logdir)
    now = int(time.time())
    today = now // 86400
    fresh = os.path.join(tmp, "fresh.raw")
    capture(fresh, [(now - 120 + 60 * k, 3) for k in range(3)])
    old = os.path.join(tmp, "old.raw")
    t_old = (today - 400) * 86400 + 3600
    capture(old, [(t_old + 60 * k, 3) for k in range(3)])
    long_raw = os.path.join(tmp, "long.raw")
    capture(long_raw, [(t_old + 60 * k, 50) for k in range(200)])
    renamed = day_name("testhost", 18300)           # 2020-02-08
    aged = day_name("testhost", today - 400)
    broken = day_name("testhost", today - 401)
    for raw, name in ((fresh, renamed), (old, aged), (long_raw, broken)):
        rc, _, err = run([IOSTATMON, "import", raw, "--host", "testhost",
                          "--out", os.path.join(logdir, name)])
        ok(rc == 0, "import for retention: %s" % name, err)
    path = os.path.join(logdir, broken)
    size = os.path.getsize(path)
    with open(path, "r+b") as f:
        f.seek(size // 2)
        f.write(b"\x00" * 64)
    keep = {renamed: digest(os.path.join(logdir, renamed)),
            broken: digest(path)}
    rc, _, err = run([IOSTATMON] + common(root, logdir, "0.2") +
                     ["-c", "1", "--retain", "31"])
    eq(rc, 0, "the daemon with --retain 31: exit 0 " + err[-300:])
    left = set(os.listdir(logdir))
    ok(aged not in left, "retain: a log whose samples are as old as its "
       "name is deleted")
    ok(renamed in left and
       digest(os.path.join(logdir, renamed)) == keep[renamed],
       "retain: a log of today renamed to 2020 is kept as it was")
    ok(broken in left and digest(path) == keep[broken],
       "retain: a damaged log is kept as it was")
    ok(any(broken in ln and "damaged" in ln for ln in err.splitlines()),
       "retain: the damaged log is named, with its damage", err)


def main():
    if os.geteuid() != 0:
        skip("t_attack_small: every attack", "the daemon runs as root and"
             " files are planted with chown", needs="root")
        done()
    tmp = tempfile.mkdtemp(prefix="t_attack_small.")
    os.chmod(tmp, 0o755)
    try:
        t = time.time()
        import_limits(tmp)
        print("# import limits: %.1f s" % (time.time() - t))
        db, root = small_db(tmp)
        names_options(tmp, db, root)
        prune_checks(tmp, db)
        retain_checks(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    done()


if __name__ == "__main__":
    main()
