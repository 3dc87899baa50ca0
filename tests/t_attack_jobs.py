#!/usr/bin/env python3
"""Attack: the scheduled jobs the project ships, run as root, against
links planted by user nobody (uid 65534). Needs root.

- The three jobs of scripts/iocensus.cron are read from the file, enabled
  as its comments say, @BINDIR@ made the build directory, and run as cron
  runs them (/bin/sh -c, the file's variables) against a temporary tree
  where nobody planted: a sticky world-writable directory where the
  database's directory should be; a link at the database's directory
  pointing at a directory of root's, mode 0755, holding a database; a
  dangling link; a link at the logs' directory, which ingest locks. No
  target changes mode, owner or a byte, nothing is made through a link
  or beside it, and each job exits 3 with a message naming why (the
  scan job after refreshing the metrics, as documented).
- The lock: while a scan (fsscan --lock) runs, the scan job exits 75 at
  once, saying so, and adds no snapshot; the prune job waits for it, then
  runs (exit 0, its decisions written).
- scripts/fsscan-mpi-cron, fsscan-mpi on PATH and 2 ranks, with the
  database behind nobody's link: exit 3, the target untouched.
- scripts/fsscan-mpi.sbatch run by hand, a fake srun on PATH: its log is
  0600 whatever the caller's umask (0 and 022), and a link nobody
  planted at the log's name is not written through.
"""
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "lib"))
sys.path.insert(0, HERE)
from tap import ok, eq, skip, done  # noqa: E402
from pace import limit  # noqa: E402
from t_install import parse_cron, enable, conf_env  # noqa: E402
from t_attack_files import (NOBODY, attack_dirs, plant_link,  # noqa: E402
                            victim, snapshot_of)
from t_mpi import mpi_env, FSSCAN_MPI, MPIRUN  # noqa: E402

TOP = os.environ.get("TOP") or os.path.dirname(HERE)
BUILD = os.path.abspath(os.environ["BUILD"])
FSSCAN = os.path.join(BUILD, "fsscan")
IOC = os.path.join(BUILD, "iocensus")
BUSY = 75


def tree_state(path):
    """Every name under path (path included) with what an attack could
    change: type and mode, owner, group, and a file's bytes."""
    out = {}
    for d, dirs, files in os.walk(path):
        for p in [d] + [os.path.join(d, n) for n in files + dirs]:
            st = os.lstat(p)
            data = None
            if stat.S_ISREG(st.st_mode):
                with open(p, "rb") as f:
                    data = f.read()
            out[os.path.relpath(p, path)] = (st.st_mode, st.st_uid,
                                             st.st_gid, data)
    return out


def cron_jobs():
    """The cron file's variables and its three jobs by name, as cron
    would run them once enabled, the programs the build's."""
    with open(os.path.join(TOP, "scripts", "iocensus.cron")) as f:
        env, jobs, errors = parse_cron(enable(f.read()))
    eq(errors, [], "the enabled cron file parses as /etc/cron.d")
    env["PATH"] = env["PATH"].replace("@BINDIR@", BUILD)
    byname = {}
    for _, cmd in jobs:
        for name, word in (("scan", "fsscan "), ("prune", "iocensus prune"),
                           ("ingest", "iocensus ingest")):
            if word in cmd:
                byname[name] = cmd
    eq(sorted(byname), ["ingest", "prune", "scan"], "three jobs")
    return env, byname


def make_base(tmp):
    """A root to scan, a metrics directory, a logs directory and a
    victim directory of root's (0755) holding a database: the target
    nobody's links point at."""
    root = os.path.join(tmp, "proj")
    for p in ("a/x", "b"):
        os.makedirs(os.path.join(root, p))
    for i in range(30):
        with open(os.path.join(root, "a/x/f%d" % i), "w") as f:
            f.write("x" * i)
    os.makedirs(os.path.join(tmp, "textfile"))
    logs = os.path.join(tmp, "logs")
    os.makedirs(logs)
    target = os.path.join(tmp, "rootdir")
    os.makedirs(target)
    os.chmod(target, 0o755)
    db = os.path.join(target, "census.db")
    p = subprocess.run([FSSCAN, "--db", db, "--quiet", root],
                       capture_output=True, text=True)
    eq(p.returncode, 0, "the victim's database is made", p.stderr)
    os.chmod(db, 0o640)
    return root, logs, target


def run_job(cmd, env, timeout=120):
    t0 = time.monotonic()
    p = subprocess.run(["/bin/sh", "-c", cmd], env=conf_env(env),
                       capture_output=True,
                       text=True, timeout=limit(timeout), stdin=subprocess.DEVNULL)
    return p.returncode, p.stderr, time.monotonic() - t0


def planted(tmp, base_env, jobs, root, logs, target):
    """Every job against every link nobody plants, in a sticky 1777
    directory and in a directory nobody owns."""
    for where, d in attack_dirs(tmp):
        sticky = stat.S_IMODE(os.stat(d).st_mode) == 0o1777
        dbdir = os.path.join(d, "dbdir")
        plant_link(dbdir, target)
        dangle = os.path.join(d, "dangling")
        made = os.path.join(tmp, "never-" + os.path.basename(d))
        plant_link(dangle, made)
        loglink = os.path.join(d, "logs")
        plant_link(loglink, logs)
        cases = [
            ("a link at the database's directory", os.path.join(
                dbdir, "census.db"), logs, "uid %d" % NOBODY),
            ("a dangling link at the database's directory", os.path.join(
                dangle, "census.db"), logs, "uid %d" % NOBODY),
            ("a link at the logs' directory", os.path.join(
                tmp, "fresh", "census.db"), loglink, "uid %d" % NOBODY),
        ]
        if sticky:
            cases.append(("the sticky directory as the database's",
                          os.path.join(d, "census.db"), logs,
                          "writable by every user"))
        for case, db, lg, why in cases:
            for job in ("scan", "prune", "ingest"):
                if job == "prune" and ("dangling" in case or
                                       "sticky" in case):
                    continue            # [ -f ] is false: nothing run
                if job != "ingest" and "logs'" in case:
                    continue
                env = dict(base_env, IOCENSUS_DB=db, IOCENSUS_LOGS=lg)
                before = (tree_state(target), tree_state(logs),
                          tree_state(d))
                rc, err, _ = run_job(jobs[job], env)
                name = "%s job, %s (%s)" % (job, case, where)
                eq(rc, 3, name + ": exit 3", err)
                ok(why in err, name + ": the message says why", err)
                eq(tree_state(target), before[0], name + ": the target "
                   "directory keeps mode, owner and every byte")
                eq(tree_state(logs), before[1], name + ": the logs' "
                   "directory too")
                eq(tree_state(d), before[2], name + ": nothing made "
                   "beside the links")
                ok(not os.path.lexists(made) and not os.path.lexists(
                   os.path.join(tmp, "fresh")), name + ": the dangling "
                   "link's target is never made, nor a database")
        ok(stat.S_IMODE(os.stat(target).st_mode) == 0o755 and
           os.stat(target).st_uid == 0,
           "root's directory stays root's, 0755 (%s)" % where)


def lock(tmp, base_env, jobs, root, logs):
    """The scan job skips while a scan holds the lock; prune waits."""
    db = os.path.join(tmp, "var", "lib", "iocensus", "census.db")
    env = dict(base_env, IOCENSUS_DB=db, IOCENSUS_LOGS=logs)
    rc, err, _ = run_job(jobs["scan"], env)
    eq(rc, 0, "the scan job, nothing planted: exit 0", err)
    eq([oct(stat.S_IMODE(os.stat(p).st_mode)) for p in (
        os.path.dirname(db), db)], [oct(0o750), oct(0o640)],
       "fsscan made the database's directory 0750, the database 0640")
    # A scan of 33 entries at 6 stat calls a second: about 5 s.
    first = subprocess.Popen([FSSCAN, "--lock", "--db", db, "--quiet",
                              "--max-rate", "6", root],
                             stderr=subprocess.PIPE, text=True)
    try:
        time.sleep(1)
        count = lambda: subprocess.run(
            ["sqlite3", db, "SELECT count(*) FROM snapshot"],
            capture_output=True, text=True).stdout.strip()
        n = count()
        rc, err, secs = run_job(jobs["scan"], env)
        eq(rc, BUSY, "a second scan job while the first runs: exit 75",
           err)
        ok(secs < 3 and first.poll() is None, "... at once (%.1f s)" % secs)
        eq(err, "", "... silently (--quiet): a scan still running is no "
           "failure to mail")
        eq(count(), n, "... and no snapshot of its own")
        out = os.path.join(os.path.dirname(db), "prune.txt")
        rc, err, secs = run_job(jobs["prune"], env)
        done_at = first.poll()
        eq((rc, done_at), (0, 0), "the prune job waited for the scan, "
           "then ran", err)
        ok(secs > 1.5, "... (it waited %.1f s)" % secs)
        ok(os.path.isfile(out), "... and wrote its decisions")
    finally:
        first.kill()
        first.wait()


def mpi_cron(tmp, root, target):
    if not (MPIRUN and os.access(FSSCAN_MPI, os.X_OK)):
        skip("fsscan-mpi-cron with a planted link", "no fsscan-mpi built",
             "mpirun")
        return
    d = attack_dirs(tmp)[0][1]
    plant_link(os.path.join(d, "mpidb"), target)
    env = mpi_env()
    env.update(PATH=BUILD + ":" + env["PATH"], FSSCAN_MPI_RANKS="2",
               IOCENSUS_DB=os.path.join(d, "mpidb", "census.db"))
    before = tree_state(target)
    p = subprocess.run([os.path.join(TOP, "scripts", "fsscan-mpi-cron"),
                        root], env=env, capture_output=True, text=True,
                       timeout=limit(120))
    eq(p.returncode, 3, "fsscan-mpi-cron, the database's directory "
       "nobody's link: exit 3", p.stderr[-600:])
    ok("uid %d" % NOBODY in p.stderr, "... saying why", p.stderr[-600:])
    eq(tree_state(target), before, "... the target untouched")


SRUN = "#!/bin/sh\necho srun \"$@\"\necho on stderr >&2\n"


def sbatch(tmp, root):
    script = os.path.join(TOP, "scripts", "fsscan-mpi.sbatch")
    ok("#SBATCH --output=/dev/null\n" in open(script).read(),
       "the batch script leaves Slurm no log to make")
    bindir = os.path.join(tmp, "fakebin")
    os.makedirs(bindir)
    with open(os.path.join(bindir, "srun"), "w") as f:
        f.write(SRUN)
    os.chmod(os.path.join(bindir, "srun"), 0o755)
    logs = os.path.join(tmp, "joblogs")
    os.makedirs(logs)
    os.chmod(logs, 0o1777)
    env = dict(os.environ, PATH=bindir + ":" + os.environ["PATH"],
               IOCENSUS_JOB_LOGS=logs)
    for job, mask in (("101", 0), ("102", 0o022)):
        p = subprocess.run(["bash", script, root], capture_output=True,
                           text=True, env=dict(env, SLURM_JOB_ID=job),
                           preexec_fn=lambda m=mask: os.umask(m))
        log = os.path.join(logs, "iocensus-%s.log" % job)
        eq(p.returncode, 0, "sbatch script by hand, umask %03o" % mask,
           p.stderr)
        eq(oct(stat.S_IMODE(os.stat(log).st_mode)) if os.path.exists(log)
           else None, oct(0o600), "... its log is 0600")
        text = open(log).read() if os.path.exists(log) else ""
        ok(text.startswith("srun ") and "fsscan-mpi --lock" in text and
           "on stderr" in text, "... and holds the job's output and "
           "errors", text)
    v = victim(tmp)
    before = snapshot_of(v)
    plant_link(os.path.join(logs, "iocensus-103.log"), v)
    p = subprocess.run(["bash", script, root], capture_output=True,
                       text=True, env=dict(env, SLURM_JOB_ID="103"))
    ok(p.returncode != 0, "a link nobody planted at the log's name: the "
       "job fails", p.stderr)
    eq(snapshot_of(v), before, "... and the victim keeps every byte")


def main():
    if os.geteuid() != 0:
        skip("t_attack_jobs", "the jobs run as root, links planted by "
             "nobody", "root")
        done()
        return
    tmp = tempfile.mkdtemp(prefix="t_attack_jobs.")
    try:
        env, jobs = cron_jobs()
        root, logs, target = make_base(tmp)
        base = dict(env, HOME=tmp, LOGNAME="root", IOCENSUS_ROOT=root,
                    IOCENSUS_METRICS=os.path.join(tmp, "textfile",
                                                  "iocensus.prom"))
        for k in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"):
            if k in os.environ:
                base[k] = os.environ[k]
        planted(tmp, base, jobs, root, logs, target)
        lock(tmp, base, jobs, root, logs)
        mpi_cron(tmp, root, target)
        sbatch(tmp, root)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    done()


if __name__ == "__main__":
    main()
