#!/usr/bin/env python3
# tests/run: once
"""t_install: `make install` with PREFIX and DESTDIR, and the installed
tree as an operator finds it.

- Every file lands under DESTDIR + PREFIX (or /etc), with its mode (and
  fsscan-mpi with its page when it was built); the programs run from
  there (--version), the man pages are the docs'.
- The systemd unit and the cron file name the installed programs
  (PREFIX/bin), not the build directory.
- The cron file is in /etc/cron.d format, read here as cron reads it:
  comments, NAME=VALUE lines, and jobs of five time fields, a user and a
  command, one line each (cron has no continuation lines), and no '%'
  (cron turns it into a newline). The job is run as cron runs it,
  /bin/sh -c COMMAND with the file's variables, pointed at a temporary
  database, root and metrics directory: it creates the database's
  directory, scans, and writes the metrics file; run while another holds
  the lock, it skips the scan (flock) and leaves the database as it was;
  the database's directory is made 0750 and the database 0640.
- `make uninstall` removes exactly what was installed.
"""
import os
import re
import sqlite3
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from tap import ok, done, diff                   # noqa: E402


def eq(got, want, name, why=""):
    """tap's eq, with what to show when it fails."""
    return ok(got == want, name, diff(got, want) + ("; " + str(why)[-600:]
                                                     if why else ""))

TOP = os.environ.get("TOP", os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.environ["BUILD"]
PREFIX = "/opt/iocensus"

FILES = {
    PREFIX + "/bin/fsscan": 0o755,
    PREFIX + "/bin/iostatmon": 0o755,
    PREFIX + "/bin/iocensus": 0o755,
    PREFIX + "/share/man/man1/fsscan.1": 0o644,
    PREFIX + "/share/man/man1/iocensus.1": 0o644,
    PREFIX + "/share/man/man8/iostatmon.8": 0o644,
    PREFIX + "/lib/systemd/system/iostatmon.service": 0o644,
    "/etc/logrotate.d/iostatmon": 0o644,
    "/etc/cron.d/iocensus": 0o644,
}

# fsscan-mpi is built, and installed, where an MPI compiler is found.
MPI_FILES = {
    PREFIX + "/bin/fsscan-mpi": 0o755,
    PREFIX + "/share/man/man1/fsscan-mpi.1": 0o644,
}
if os.path.exists(os.path.join(BUILD, "fsscan-mpi")):
    FILES.update(MPI_FILES)

CRON_FIELD = re.compile(r"^(\*|\d+(-\d+)?)(/\d+)?(,(\*|\d+(-\d+)?)(/\d+)?)*$")


def make(*args):
    env = dict(os.environ)
    env.pop("MAKEFLAGS", None)
    return subprocess.run(["make", "--no-print-directory", "-C", TOP,
                           "BUILD=" + BUILD] + list(args),
                          capture_output=True, text=True, env=env)


def installed_files(root):
    out = {}
    for d, _, names in os.walk(root):
        for n in names:
            p = os.path.join(d, n)
            out["/" + os.path.relpath(p, root)] = os.stat(p).st_mode & 0o7777
    return out


def parse_cron(text):
    """(variables, jobs, errors) of an /etc/cron.d file."""
    env, jobs, errors = {}, [], []
    for i, line in enumerate(text.split("\n"), 1):
        s = line.strip()
        if not s or s.startswith("#"):
            continue
        m = re.match(r"^([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$", s)
        if m:
            env[m.group(1)] = m.group(2)
            continue
        f = s.split(None, 6)
        if len(f) < 7:
            errors.append("line %d: %d fields" % (i, len(f)))
            continue
        if not all(CRON_FIELD.match(x) for x in f[:5]):
            errors.append("line %d: bad time fields %r" % (i, f[:5]))
        if line.rstrip().endswith("\\"):
            errors.append("line %d: continued with a backslash" % i)
        if "%" in f[6]:
            errors.append("line %d: '%%' in the command" % i)
        jobs.append((f[5], f[6]))
    return env, jobs, errors


def check_tree(dest):
    got = installed_files(dest)
    eq(sorted(got), sorted(FILES), "make install writes exactly these files")
    for p, mode in FILES.items():
        if p in got:
            eq(oct(got[p]), oct(mode), "mode of " + p)
    for prog in ("fsscan", "iostatmon", "iocensus"):
        p = subprocess.run([dest + PREFIX + "/bin/" + prog, "--version"],
                           capture_output=True, text=True)
        ok(p.returncode == 0 and "0." in p.stdout,
           "installed %s runs" % prog, p.stderr)
    pages = [("man1/fsscan.1", "docs/fsscan.1"),
             ("man8/iostatmon.8", "docs/iostatmon.8")]
    if PREFIX + "/bin/fsscan-mpi" in FILES:
        pages.append(("man1/fsscan-mpi.1", "docs/fsscan-mpi.1"))
    for page, src in pages:
        with open(dest + PREFIX + "/share/man/" + page, "rb") as a, \
                open(os.path.join(TOP, src), "rb") as b:
            ok(a.read() == b.read(), "man page %s is %s" % (page, src))
    with open(dest + PREFIX + "/lib/systemd/system/iostatmon.service") as f:
        unit = f.read()
    ok("ExecStart=%s/bin/iostatmon --log-dir" % PREFIX in unit,
       "the unit starts the installed iostatmon",
       [l for l in unit.splitlines() if l.startswith("ExecStart")])
    ok("@BINDIR@" not in unit, "no placeholder left in the unit")


def check_readme(text):
    """The README's cron example is the installed file's, line for line
    (PATH aside, which names where make install put the programs)."""
    readme = open(os.path.join(TOP, "README.md")).read()
    block = readme[readme.index("/etc/cron.d/iocensus"):]
    block = block[block.index("```\n") + 4:]
    block = block[:block.index("```")]
    lines = [l for l in block.splitlines() if l.strip()]
    missing = [l for l in lines if l not in text.splitlines()]
    ok(lines and not missing, "the README's cron example is the installed "
       "cron file's", missing)


def check_cron(dest, tmp):
    with open(dest + "/etc/cron.d/iocensus") as f:
        text = f.read()
    check_readme(text)
    env, jobs, errors = parse_cron(text)
    eq(errors, [], "the cron file parses as /etc/cron.d")
    ok(len(jobs) >= 1 and all(u == "root" for u, _ in jobs),
       "jobs run as root (a cron.d line names its user)", jobs)
    ok(env.get("PATH", "").split(":")[0] == PREFIX + "/bin",
       "the jobs find the installed programs first", env.get("PATH"))
    ok(env.get("SHELL") == "/bin/sh", "SHELL is /bin/sh")
    ok("@BINDIR@" not in text, "no placeholder left in the cron file")
    scan = [c for _, c in jobs if "fsscan" in c]
    ok(len(scan) == 1 and "flock -n" in scan[0] and
       "install -d -m 0750" in scan[0],
       "one scan job, under flock -n, making the database directory "
       "private", scan)
    if len(scan) != 1:
        return

    # Run it as cron does, pointed at temporary places.
    root = os.path.join(tmp, "proj")
    for p in ("climate/a", "bio"):
        os.makedirs(os.path.join(root, p))
    with open(os.path.join(root, "climate/a/f"), "wb") as f:
        f.write(b"x" * 5000)
    os.makedirs(os.path.join(tmp, "textfile"))
    db = os.path.join(tmp, "var/lib/iocensus/census.db")
    prom = os.path.join(tmp, "textfile/iocensus.prom")
    runenv = dict(env, HOME=tmp, LOGNAME="root", IOCENSUS_DB=db,
                  IOCENSUS_ROOT=root, IOCENSUS_METRICS=prom)
    runenv["PATH"] = runenv["PATH"].replace(PREFIX, dest + PREFIX, 1)
    p = subprocess.run(["/bin/sh", "-c", scan[0]], env=runenv,
                       capture_output=True, text=True)
    eq(p.returncode, 0, "the job runs with /bin/sh -c", p.stderr)
    ok(os.path.isfile(db), "it created the database directory and the "
       "database", os.listdir(tmp))
    eq([oct(os.stat(p).st_mode & 0o7777) for p in (os.path.dirname(db), db)
        if os.path.exists(p)], [oct(0o750), oct(0o640)],
       "the database's directory is 0750 and the database 0640")
    if os.path.isfile(db):
        c = sqlite3.connect(db)
        rows = c.execute("SELECT complete, files FROM v_snapshot").fetchall()
        eq(rows, [(1, 1)], "one complete snapshot of the root")
        projects = sorted(r[0] for r in c.execute(
            "SELECT project FROM v_project"))
        c.close()
        ok("climate" in projects and "bio" in projects,
           "--project depth:1 as written in the job", projects)
    metrics = open(prom).read() if os.path.exists(prom) else ""
    ok('iocensus_files{fs="proj"} 1\n' in metrics,
       "it refreshed the metrics file after the scan", metrics[:300])
    ok(not [n for n in os.listdir(os.path.dirname(prom))
            if n != "iocensus.prom"], "no temporary file left beside it")

    # A scan still running: flock -n skips this one.
    lock = subprocess.Popen(["flock", os.path.dirname(db), "sleep", "30"])
    try:
        import time
        for _ in range(100):
            if subprocess.run(["flock", "-n", os.path.dirname(db),
                               "true"]).returncode:
                break
            time.sleep(0.05)
        subprocess.run(["/bin/sh", "-c", scan[0]], env=runenv,
                       capture_output=True, text=True)
        c = sqlite3.connect(db)
        n = c.execute("SELECT count(*) FROM v_snapshot").fetchone()[0]
        c.close()
        eq(n, 1, "while the lock is held no second scan starts")
    finally:
        lock.kill()
        lock.wait()


def main():
    with tempfile.TemporaryDirectory(prefix="t_install.") as tmp:
        dest = os.path.join(tmp, "dest")
        p = make("install", "PREFIX=" + PREFIX, "DESTDIR=" + dest)
        if not ok(p.returncode == 0, "make install PREFIX DESTDIR",
                  p.stderr[-800:]):
            return
        check_tree(dest)
        check_cron(dest, tmp)
        p = make("uninstall", "PREFIX=" + PREFIX, "DESTDIR=" + dest)
        eq(installed_files(dest), {}, "make uninstall removes every file",
           p.stderr)


main()
done()
