#!/usr/bin/env python3
"""The scheduled jobs are quiet when they succeed, and a failure says
what failed and what to change, in one message. Needs root (the jobs run
as root; the database is made 0640 in a 0750 directory).

An installed layout is built in a temporary tree: the shipped
configuration (scripts/iocensus.conf) with its paths moved into the tree,
a metrics file and an [fs proj] section added, read through
IOCENSUS_CONF; iostatmon's log directory written by a real short
iostatmon run (its logs and its lock file). Every job is run as it is
shipped: each line of scripts/iocensus.cron, enabled as its comments say
and run by /bin/sh -c with the file's variables, @BINDIR@ the build;
each Exec line of the iocensus units, %i made proj, in the order systemd
runs them (ExecStopPost after ExecStart, whatever its status; a status
in SuccessExitStatus is success). fsscan-mpi-cron too, when fsscan-mpi
and mpirun are there.

- Success is exit 0 (75 for a run that found the lock held) and no byte
  on stdout or stderr: before any database, with no log yet, on the
  first and the repeated runs, and while the previous run holds the lock
  (flock(1) on the database's and the logs' directories).
- iostatmon's lock file in the logs directory is passed over silently;
  a foreign file there is still named (skipped and counted: exit 0, as
  iocensus(1) says).
- Each failure an administrator can cause gives one line naming what
  failed and what to change: a timer naming a file system the
  configuration lacks, a database whose directory cannot be made, a
  logs directory that is not there, a metrics file whose directory is
  not there.
- A user who is not in the database's group is told the database is
  not theirs to read (permission), not that there is none.
"""
import fcntl
import os
import re
import shlex
import shutil
import sqlite3
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "lib"))
sys.path.insert(0, HERE)
from tap import ok, eq, skip, done  # noqa: E402
from t_install import parse_cron, enable  # noqa: E402

TOP = os.environ.get("TOP") or os.path.dirname(HERE)
BUILD = os.path.abspath(os.environ["BUILD"])
BUSY = 75
NOBODY = 65534


def read(name):
    with open(os.path.join(TOP, "scripts", name)) as f:
        return f.read()


def unit_execs(name):
    """(ExecStart lines, ExecStopPost lines, success statuses, the paths
    of ConditionPathExists) of a shipped unit."""
    text = read(name)
    get = lambda k: re.findall(r"^%s=(.*)$" % k, text, re.M)  # noqa: E731
    succ = {0} | {int(x) for v in get("SuccessExitStatus") for x in v.split()}
    return get("ExecStart"), get("ExecStopPost"), succ, \
        get("ConditionPathExists")


class Site:
    """The temporary installed layout."""

    def __init__(self, tmp):
        self.tmp = tmp
        self.var = os.path.join(tmp, "var/lib/iocensus")
        self.db = os.path.join(self.var, "census.db")
        self.logs = os.path.join(tmp, "var/log/iostatmon")
        self.prom = os.path.join(tmp, "textfile/iocensus.prom")
        self.root = os.path.join(tmp, "proj")
        self.conf = os.path.join(tmp, "etc/iocensus/iocensus.conf")
        for d in (os.path.dirname(self.conf), self.logs,
                  os.path.dirname(self.prom), self.root + "/climate/a",
                  self.root + "/bio"):
            os.makedirs(d)
        with open(self.root + "/climate/a/f", "wb") as f:
            f.write(b"x" * 5000)
        self.write_conf()

    def write_conf(self, **change):
        """The shipped configuration, its paths in the tree; change:
        db, logs or metrics made another path."""
        paths = dict(db=self.db, logs=self.logs, metrics=self.prom)
        paths.update(change)
        text = read("iocensus.conf")
        text = text.replace("\ndb = /var/lib/iocensus/census.db\n",
                            "\ndb = %s\n" % paths["db"])
        text = text.replace("\nlogs = /var/log/iostatmon\n",
                            "\nlogs = %s\n" % paths["logs"])
        text = "metrics = %s\n" % paths["metrics"] + text
        text += "\n[fs proj]\nroot = %s\nproject = depth:1\n" % self.root
        with open(self.conf, "w") as f:
            f.write(text)

    def env(self):
        cron, _, _ = parse_cron(read("iocensus.cron"))
        env = {k: v.replace("@BINDIR@", BUILD) for k, v in cron.items()}
        env.update(HOME=self.tmp, LOGNAME="root", IOCENSUS_CONF=self.conf)
        for k in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"):
            if k in os.environ:
                env[k] = os.environ[k]
        return env

    def unit_line(self, line, fs="proj"):
        """An Exec line as systemd would run it here."""
        line = line.replace("@BINDIR@", BUILD).replace("%i", fs)
        return shlex.split(line.replace("/var/lib/iocensus", self.var))


def cron_jobs():
    _, jobs, errors = parse_cron(enable(read("iocensus.cron")))
    eq(errors, [], "the cron file, enabled, parses")
    find = lambda w: [c for _, c in jobs if w in c]  # noqa: E731
    return {"scan": find("fsscan"), "prune": find("iocensus prune"),
            "ingest": find("iocensus ingest")}


def run_cron(site, cmd):
    p = subprocess.run(["/bin/sh", "-c", cmd], env=site.env(), cwd="/",
                       capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


def run_unit(site, name, fs="proj"):
    """The unit's status (the first failing ExecStart's, else 0) and all
    it printed; None when its condition keeps it from starting."""
    starts, posts, succ, conds = unit_execs(name)
    for c in conds:
        if not os.path.exists(c.replace("/var/lib/iocensus", site.var)):
            return None, ""
    rc, out = 0, ""
    for line in starts:
        p = subprocess.run(site.unit_line(line, fs), env=site.env(),
                           cwd="/", capture_output=True, text=True)
        out += p.stdout + p.stderr
        if p.returncode not in succ:
            rc = p.returncode
            break
        if p.returncode:
            rc = p.returncode
            break
    for line in posts:
        p = subprocess.run(site.unit_line(line, fs), env=site.env(),
                           cwd="/", capture_output=True, text=True)
        out += p.stdout + p.stderr
    return rc, out


def held(path, fn):
    """fn() while this process holds the lock of directory path (the
    flock(2) --lock takes, on a descriptor of its own)."""
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        return fn()
    finally:
        os.close(fd)


def snapshots(db):
    c = sqlite3.connect(db)
    try:
        return c.execute("SELECT count(*) FROM v_snapshot").fetchone()[0]
    finally:
        c.close()


def iostatmon_logs(site):
    p = subprocess.run([os.path.join(BUILD, "iostatmon"), "--log-dir",
                        site.logs, "--host", "h1", "--count", "2",
                        "--interval", "1", "--all-devices"],
                       capture_output=True, text=True)
    eq(p.returncode, 0, "a short iostatmon run writes the logs", p.stderr)
    names = sorted(os.listdir(site.logs))
    ok(".iostatmon-h1.lock" in names and any(
        n.startswith("iostatmon-h1-") for n in names),
       "... its log and its lock file", names)


def check_success(site, jobs):
    # Before any database.
    for what in ("prune", "ingest", "scan"):
        eq(len(jobs[what]), 1, "one %s job in the cron file" % what)
    eq(run_cron(site, jobs["prune"][0]), (0, ""),
       "cron prune, no database yet: exit 0, silent")
    eq(run_unit(site, "iocensus-prune.service"), (None, ""),
       "prune unit, no database yet: its condition keeps it from starting")
    eq(subprocess.run([os.path.join(BUILD, "iocensus"), "metrics",
                       "--if-configured"], env=site.env(),
                      capture_output=True, text=True).returncode, 0,
       "metrics --if-configured, no database yet: exit 0")
    ok(not os.path.exists(site.db) and not os.path.exists(site.prom),
       "... and nothing is made", os.listdir(site.tmp))
    # The logs directory before iostatmon wrote in it: nothing to do.
    eq(run_cron(site, jobs["ingest"][0]), (0, ""),
       "cron ingest, no log yet: exit 0, silent")
    iostatmon_logs(site)
    for n in (1, 2):
        eq(run_cron(site, jobs["ingest"][0]), (0, ""),
           "cron ingest of iostatmon's logs and lock, run %d: silent" % n)
        eq(run_unit(site, "iocensus-ingest.service"), (0, ""),
           "ingest unit, run %d: exit 0, silent" % n)
        eq(run_cron(site, jobs["scan"][0]), (0, ""),
           "cron scan, run %d: exit 0, silent" % n)
        eq(run_unit(site, "iocensus-scan@.service"), (0, ""),
           "scan unit, run %d: exit 0, silent" % n)
        eq(run_cron(site, jobs["prune"][0]), (0, ""),
           "cron prune, run %d: exit 0, silent" % n)
        eq(run_unit(site, "iocensus-prune.service"), (0, ""),
           "prune unit, run %d: exit 0, silent" % n)
    eq(snapshots(site.db), 1, "prune kept the newest of the day's scans")
    ingest = open(os.path.join(site.var, "ingest.txt")).read()
    ok("h1" in ingest or "1" in ingest, "ingest's totals beside the "
       "database", ingest[:200])
    ok("newest complete" in open(os.path.join(site.var,
                                              "prune.txt")).read(),
       "prune's decisions beside the database")
    ok('iocensus_files{fs="proj"} 1\n' in open(site.prom).read(),
       "the metrics file is the configuration's, refreshed")
    # The previous run still holding the lock.
    n = snapshots(site.db)
    eq(held(site.var, lambda: run_cron(site, jobs["scan"][0])),
       (BUSY, ""), "cron scan while a scan holds the lock: exit 75, silent")
    eq(held(site.var, lambda: run_unit(site, "iocensus-scan@.service")),
       (BUSY, ""), "scan unit while a scan holds the lock: 75, silent")
    eq(snapshots(site.db), n, "... and no scan was made")
    eq(held(site.logs, lambda: run_cron(site, jobs["ingest"][0])),
       (BUSY, ""), "cron ingest while a round holds the lock: 75, silent")
    eq(held(site.logs, lambda: run_unit(site, "iocensus-ingest.service")),
       (BUSY, ""), "ingest unit while a round holds the lock: 75, silent")


def check_foreign(site, jobs):
    path = os.path.join(site.logs, "README.txt")
    with open(path, "w") as f:
        f.write("not a log\n")
    rc, out = run_cron(site, jobs["ingest"][0])
    os.unlink(path)
    ok(rc == 0 and "README.txt: skipped" in out and ".iostatmon-" not in
       out, "a foreign file in the logs is named (skipped and counted, "
       "exit 0 as documented), the lock is not",
       "%d %r" % (rc, out))


def one_line(rc, out, want_rc, words, name):
    lines = out.splitlines()
    ok(rc == want_rc and len(lines) == 1 and all(w in out for w in words),
       name, "%d %r" % (rc, out))


def check_failures(site, jobs):
    # A timer naming a file system the configuration lacks.
    one_line(*run_unit(site, "iocensus-scan@.service", fs="scratch"), 2,
             ["--fs scratch", "[fs scratch]", site.conf],
             "scan unit of a file system not configured: one line, "
             "naming the section to add")
    # A metrics file whose directory is not there.
    shutil.rmtree(os.path.dirname(site.prom))
    one_line(*run_cron(site, jobs["scan"][0]), 3,
             [site.prom, "make its directory", site.conf],
             "cron scan, metrics directory missing: exit 3, one line")
    one_line(*run_unit(site, "iocensus-ingest.service"), 3,
             [site.prom, "make its directory"],
             "ingest unit, metrics directory missing: one line")
    os.makedirs(os.path.dirname(site.prom))
    # A logs directory that is not there.
    gone = os.path.join(site.tmp, "no-logs")
    site.write_conf(logs=gone)
    one_line(*run_cron(site, jobs["ingest"][0]), 3,
             [gone, "No such file", "start iostatmon", site.conf],
             "cron ingest, logs directory missing: one line saying what "
             "to change")
    one_line(*run_unit(site, "iocensus-ingest.service"), 3,
             [gone, "start iostatmon"],
             "ingest unit, logs directory missing: one line")
    # A database whose directory cannot be made (a file where a
    # directory above it should be).
    block = os.path.join(site.tmp, "var/lib/blocked")
    open(block, "w").close()
    bad = os.path.join(block, "census.db")
    site.write_conf(db=bad)
    one_line(*run_cron(site, jobs["scan"][0]), 3,
             [bad, "set db in " + site.conf],
             "cron scan, database directory not makeable: one line, "
             "the metrics left alone")
    rc, out = run_cron(site, jobs["ingest"][0])
    ok(rc == 3 and bad in out and len(out.splitlines()) == 1,
       "cron ingest, database directory not makeable: one line",
       "%d %r" % (rc, out))
    site.write_conf()


def check_other_user(site):
    iocensus = os.path.join(BUILD, "iocensus")
    os.chmod(site.tmp, 0o755)
    for d in (os.path.dirname(site.var), os.path.dirname(
            os.path.dirname(site.var))):
        os.chmod(d, 0o755)
    env = dict(site.env(), HOME="/")
    p = subprocess.run(["setpriv", "--reuid=%d" % NOBODY,
                        "--regid=%d" % NOBODY, "--clear-groups",
                        iocensus, "capacity"], env=env, cwd="/",
                       capture_output=True, text=True)
    ok(p.returncode == 3 and site.db in p.stderr and
       "Permission denied" in p.stderr and "create it" not in p.stderr,
       "a user not in the group: the database named, permission denied",
       "%d %r" % (p.returncode, p.stderr))
    p = subprocess.run([iocensus, "capacity"], env=env, cwd="/",
                       capture_output=True, text=True)
    eq(p.returncode, 0, "root finds the configured database from /",
       p.stderr)


def check_mpi(site):
    mpi = os.path.join(BUILD, "fsscan-mpi")
    if not (os.path.exists(mpi) and shutil.which("mpirun")):
        skip("fsscan-mpi-cron: no fsscan-mpi or mpirun")
        return
    from t_mpi import mpi_env
    env = site.env()
    # Open MPI's settings, and its leak suppressions under ASan.
    env.update({k: v for k, v in mpi_env().items() if k.startswith(
        ("OMPI_", "ASAN_", "LSAN_", "UBSAN_"))})
    env["PATH"] = BUILD + ":" + env["PATH"]
    env["FSSCAN_MPI_RANKS"] = "2"
    cmd = [os.path.join(TOP, "scripts/fsscan-mpi-cron"), site.root]
    n = snapshots(site.db)
    p = subprocess.run(cmd, env=env, cwd="/", capture_output=True,
                       text=True)
    eq((p.returncode, p.stdout + p.stderr), (0, ""),
       "fsscan-mpi-cron: exit 0, silent")
    eq(snapshots(site.db), n + 1, "... into the configured database")


def main():
    if os.geteuid() != 0:
        skip("needs root: the jobs run as root")
        done()
        return
    with tempfile.TemporaryDirectory(prefix="t_jobs_quiet.") as tmp:
        site = Site(tmp)
        jobs = cron_jobs()
        check_success(site, jobs)
        check_foreign(site, jobs)
        check_failures(site, jobs)
        check_mpi(site)
        check_other_user(site)
    done()


if __name__ == "__main__":
    main()
