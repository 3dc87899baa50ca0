#!/usr/bin/env python3
# tests/run: once
"""t_install: `make install` with PREFIX and DESTDIR, and the installed
tree as an operator finds it.

- Every file lands under DESTDIR + PREFIX (or /etc), with its mode (and
  fsscan-mpi with its page when it was built); the programs run from
  there (--version), the man pages are the docs', the alerting rules
  (PREFIX/share/iocensus/iocensus.rules.yml) scripts/iocensus.rules.yml,
  the dashboard (PREFIX/share/iocensus/iocensus.grafana.json)
  scripts/iocensus.grafana.json.
- The systemd unit and the cron file name the installed programs
  (PREFIX/bin), not the build directory.
- The cron file is in /etc/cron.d format, read here as cron reads it:
  comments, NAME=VALUE lines, and jobs of five time fields, a user and a
  command, one line each (cron has no continuation lines), and no '%'
  (cron turns it into a newline). It is installed disabled: no job line,
  the job commented out, and the comments say how to enable it. Enabled
  as they say (the '#' removed), the job is run as cron runs it,
  /bin/sh -c COMMAND with the file's variables, pointed at a temporary
  database, root and metrics directory: with a root that is no directory
  it fails at once (non-zero, a message naming IOCENSUS_ROOT) and creates
  nothing; otherwise fsscan --lock creates the database's directory (no
  job line creates, locks or chmods a path itself: no install -d, no
  flock(1)), scans, and
  writes the metrics file; a scan that fails makes the job fail with its
  status though the metrics are refreshed after it, and metrics that
  cannot be written make it fail too; run while another holds the lock,
  it skips the scan (--lock, exit 75) and leaves the database as it was;
  the database's directory is made 0750 and the database 0640.
- The iocensus units and timers are installed beside iostatmon's,
  naming the installed programs; fsscan-mpi-cron in PREFIX/sbin.
- `make uninstall` removes exactly what was installed, and the
  directories install made, but not one that was there before (empty or
  holding another file).
- The cron file and the configuration are the administrator's once
  edited: a second install keeps an edited one (and says so); uninstall
  keeps the edited configuration (and says so), removes the unedited
  cron file, and removes the metrics file the cron file names
  (IOCENSUS_METRICS), which node_exporter would serve stale, but not a
  metrics path that is no regular *.prom file.
"""
import os
import re
import sqlite3
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from tap import ok, eq, done                     # noqa: E402
from rawgen import Dataset                       # noqa: E402


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
    PREFIX + "/share/man/man5/iocensus.conf.5": 0o644,
    "/etc/iocensus/iocensus.conf": 0o644,
    PREFIX + "/lib/systemd/system/iostatmon.service": 0o644,
    "/etc/logrotate.d/iostatmon": 0o644,
    "/etc/cron.d/iocensus": 0o644,
    PREFIX + "/share/iocensus/installed-dirs": 0o644,
    PREFIX + "/share/iocensus/iocensus.rules.yml": 0o644,
    PREFIX + "/share/iocensus/iocensus.grafana.json": 0o644,
    PREFIX + "/share/iocensus/installed-sums": 0o644,
    "/etc/iocensus/iocensus.conf": 0o644,
}
UNITS = ("iocensus-scan@.service", "iocensus-scan@.timer",
         "iocensus-ingest.service", "iocensus-ingest.timer",
         "iocensus-prune.service", "iocensus-prune.timer")
FILES.update({PREFIX + "/lib/systemd/system/" + u: 0o644 for u in UNITS})
# Put in DESTDIR before the install, as a system has them: they stay.
FOREIGN_FILE = "/etc/cron.d/other-job"
FOREIGN_DIR = PREFIX + "/share/man/man8"
JOB_LINE = re.compile(r"^#\s*((\S+\s+){5}root\s+.*)$")

# fsscan-mpi is built, and installed, where an MPI compiler is found.
MPI_FILES = {
    PREFIX + "/bin/fsscan-mpi": 0o755,
    PREFIX + "/share/man/man1/fsscan-mpi.1": 0o644,
    PREFIX + "/share/man/man8/fsscan-mpi-cron.8": 0o644,
    PREFIX + "/sbin/fsscan-mpi-cron": 0o755,
}

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
    del got[FOREIGN_FILE]
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
    for name, what in (("iocensus.rules.yml", "the alerting rules"),
                       ("iocensus.grafana.json", "the dashboard")):
        with open(dest + PREFIX + "/share/iocensus/" + name, "rb") as a, \
                open(os.path.join(TOP, "scripts", name), "rb") as b:
            ok(a.read() == b.read(), "%s installed are scripts/%s" % (
                what, name))
    with open(dest + PREFIX + "/lib/systemd/system/iostatmon.service") as f:
        unit = f.read()
    ok("ExecStart=%s/bin/iostatmon --log-dir" % PREFIX in unit,
       "the unit starts the installed iostatmon",
       [l for l in unit.splitlines() if l.startswith("ExecStart")])
    ok("@BINDIR@" not in unit, "no placeholder left in the unit")
    for u in UNITS:
        with open(dest + PREFIX + "/lib/systemd/system/" + u) as f:
            text = f.read()
        execs = re.findall(r"^Exec\w+=(\S+)", text, re.M)
        ok("@BINDIR@" not in text and all(
            e.startswith(PREFIX + "/bin/") for e in execs),
           "%s names the installed programs" % u, execs)
    if PREFIX + "/sbin/fsscan-mpi-cron" in FILES:
        with open(dest + PREFIX + "/sbin/fsscan-mpi-cron", "rb") as a, \
                open(os.path.join(TOP, "scripts/fsscan-mpi-cron"), "rb") as b:
            ok(a.read() == b.read(), "fsscan-mpi-cron in PREFIX/sbin is "
               "scripts/fsscan-mpi-cron")


def conf_env(env):
    """env with IOCENSUS_CONF naming a configuration made from its
    variables (IOCENSUS_LOGS, IOCENSUS_METRICS, IOCENSUS_ROOT as [fs
    proj]'s root), as the jobs read their paths from it; IOCENSUS_DB
    stays in the environment, which wins over the file."""
    d = tempfile.mkdtemp(prefix="conf.", dir=env["HOME"])
    path = os.path.join(d, "iocensus.conf")
    lines = ["%s = %s" % (k, env[v]) for k, v in (
        ("logs", "IOCENSUS_LOGS"), ("metrics", "IOCENSUS_METRICS"))
        if env.get(v)]
    lines += ["[prune]", "keep-daily = 14", "keep-weekly = 8",
              "keep-monthly = 24", "keep-quarterly = 12"]
    if env.get("IOCENSUS_ROOT"):
        lines += ["[fs proj]", "root = " + env["IOCENSUS_ROOT"],
                  "project = projid", "project = depth:1"]
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return dict(env, IOCENSUS_CONF=path)


def check_readme(text):
    """The cron example of docs/INSTALL.md ("The cron file") is the
    installed file's, line for line (PATH aside, which names where make
    install put the programs)."""
    doc = open(os.path.join(TOP, "docs", "INSTALL.md")).read()
    block = doc[doc.index("\n## The cron file\n"):]
    block = block[block.index("```\n") + 4:]
    block = block[:block.index("```")]
    lines = [l for l in block.splitlines() if l.strip()]
    missing = [l for l in lines if l not in text.splitlines()]
    ok(lines and not missing, "docs/INSTALL.md: the cron example is the "
       "installed cron file's", missing)


def enable(text):
    """The cron file enabled as its comments say: the '#' before the job
    line removed."""
    out = []
    for line in text.split("\n"):
        m = JOB_LINE.match(line)
        out.append(m.group(1) if m else line)
    return "\n".join(out)


def check_cron(dest, tmp):
    with open(dest + "/etc/cron.d/iocensus") as f:
        text = f.read()
    check_readme(text)
    env, jobs, errors = parse_cron(text)
    eq((errors, jobs), ([], []), "the cron file is installed disabled: "
       "it parses as /etc/cron.d and holds no job")
    eq(len([l for l in text.split("\n") if JOB_LINE.match(l)]), 3,
       "three jobs, scan, prune and I/O, commented out")
    ok("[fs proj]" in text and "remove the '#'" in text,
       "the comments say how to enable it")
    env, jobs, errors = parse_cron(enable(text))
    eq(errors, [], "enabled, the cron file parses as /etc/cron.d")
    ok(len(jobs) >= 1 and all(u == "root" for u, _ in jobs),
       "jobs run as root (a cron.d line names its user)", jobs)
    ok(env.get("PATH", "").split(":")[0] == PREFIX + "/bin",
       "the jobs find the installed programs first", env.get("PATH"))
    ok(env.get("SHELL") == "/bin/sh", "SHELL is /bin/sh")
    ok("@BINDIR@" not in text, "no placeholder left in the cron file")
    scan = [c for _, c in jobs if "fsscan" in c]
    ok(len(scan) == 1 and "fsscan --lock " in scan[0],
       "one scan job, fsscan --lock", scan)
    ok(not [c for _, c in jobs if re.search(r"\b(flock|install|chmod|"
                                            r"mkdir|touch)\b", c)],
       "no job line creates, locks or chmods a path itself", jobs)
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

    def job(**change):
        return subprocess.run(["/bin/sh", "-c", scan[0]],
                              env=conf_env(dict(runenv, **change)),
                              capture_output=True, text=True)

    # Not configured: the root is no directory.
    p = job(IOCENSUS_ROOT=os.path.join(tmp, "no-such-root"))
    ok(p.returncode != 0 and os.path.join(tmp, "no-such-root") in p.stderr,
       "a root that is no directory: the job fails, saying so",
       "%d %r" % (p.returncode, p.stderr))
    ok(not os.path.exists(os.path.dirname(db)),
       "... and creates no directory", os.listdir(tmp))
    p = job()
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
    check_prune_job(jobs, runenv, db)
    check_io_job(jobs, runenv, db, prom, tmp)

    # A scan that fails (fsscan refuses a ROOT that is a symbolic link:
    # usage, 2): the metrics are refreshed, and the job fails with it.
    link = os.path.join(tmp, "proj-link")
    os.symlink(root, link)
    os.unlink(prom)
    p = job(IOCENSUS_ROOT=link)
    eq(p.returncode, 2, "a failed scan: the job exits with fsscan's status",
       p.stderr)
    ok(os.path.exists(prom), "... after refreshing the metrics")
    # Metrics that cannot be written fail a good scan's job.
    p = job(IOCENSUS_METRICS=os.path.dirname(prom))
    eq(p.returncode, 3, "metrics not written: the job exits 3", p.stderr)

    # A scan still running (its lock held here by flock(1), as a scan's
    # flock(2) of the same directory): --lock skips this one.
    lock = subprocess.Popen(["flock", os.path.dirname(db), "sleep", "30"])
    try:
        import time
        for _ in range(100):
            if subprocess.run(["flock", "-n", os.path.dirname(db),
                               "true"]).returncode:
                break
            time.sleep(0.05)
        c = sqlite3.connect(db)
        before = c.execute("SELECT count(*) FROM v_snapshot").fetchone()[0]
        c.close()
        p = job()
        c = sqlite3.connect(db)
        n = c.execute("SELECT count(*) FROM v_snapshot").fetchone()[0]
        c.close()
        eq(n, before, "while the lock is held no second scan starts")
        eq(p.returncode, 75, "... and the job exits 75", p.stderr)
    finally:
        lock.kill()
        lock.wait()


def check_prune_job(jobs, runenv, db):
    """The prune job, run as cron runs it: no database yet, nothing done;
    then it keeps the one scan (the newest complete one is always kept)
    and writes its decisions, private, beside the database."""
    prune = [c for _, c in jobs if "iocensus prune" in c]
    if not ok(len(prune) == 1 and "prune --lock-wait 21600" in prune[0],
              "one prune job, waiting for the scan's lock", prune):
        return
    out = os.path.join(os.path.dirname(db), "prune.txt")
    p = subprocess.run(["/bin/sh", "-c", prune[0]],
                       env=conf_env(dict(runenv, IOCENSUS_DB=db + ".none")),
                       capture_output=True, text=True)
    eq((p.returncode, p.stderr, os.path.exists(out)), (0, "", False),
       "the prune job before any scan: exit 0, nothing written")
    p = subprocess.run(["/bin/sh", "-c", prune[0]], env=conf_env(runenv),
                       capture_output=True, text=True)
    eq(p.returncode, 0, "the prune job runs with /bin/sh -c", p.stderr)
    text = open(out).read() if os.path.exists(out) else ""
    ok("newest complete" in text, "it keeps the one scan, and says why",
       text[:400])
    eq(oct(os.stat(out).st_mode & 0o777) if text else None, oct(0o640),
       "its decisions are 0640, as the database")
    c = sqlite3.connect(db)
    eq(c.execute("SELECT count(*) FROM v_snapshot").fetchone()[0], 1,
       "... and the snapshot is still there")
    c.close()


def check_io_job(jobs, runenv, db, prom, tmp):
    """The I/O job, run as cron runs it: a logs directory that is not
    there fails, saying so; then two hosts' logs (raw captures made into
    logs by iostatmon import) are ingested and the metrics carry each
    host's last sample, which the captures say."""
    job = [c for _, c in jobs if "iocensus ingest" in c]
    if not ok(len(job) == 1 and "ingest --lock " in job[0],
              "one I/O job, ingest --lock", job):
        return
    logs = os.path.join(tmp, "logs")
    p = subprocess.run(["/bin/sh", "-c", job[0]],
                       env=conf_env(dict(runenv, IOCENSUS_LOGS=logs)),
                       capture_output=True, text=True)
    ok(p.returncode == 3 and logs in p.stderr and "start iostatmon" in
       p.stderr,
       "no logs directory: the I/O job fails, saying so",
       "%d %r" % (p.returncode, p.stderr))
    os.makedirs(logs)
    start = 1767225600                  # 2026-01-01 00:00 UTC
    ds = Dataset(seed=3, hosts=2, devs_per_host=2, start=start,
                 minutes=90)
    last = {}
    for path in ds.write(os.path.join(tmp, "raw")):
        host = os.path.basename(path)[:-4]
        with open(path) as f:
            last[host] = max(int(float(l.split()[1])) for l in f
                             if l.startswith("T "))
        subprocess.run([runenv["PATH"].split(":")[0] + "/iostatmon",
                        "import", path, "--host", host, "--out",
                        os.path.join(logs, host + ".log")], check=True,
                       capture_output=True)
    p = subprocess.run(["/bin/sh", "-c", job[0]],
                       env=conf_env(dict(runenv, IOCENSUS_LOGS=logs)),
                       capture_output=True, text=True)
    eq((p.returncode, p.stdout), (0, ""), "the I/O job runs with /bin/sh "
       "-c, quietly (its totals go to a file)", p.stderr)
    metrics = open(prom).read() if os.path.exists(prom) else ""
    got = {h: int(v) for h, v in re.findall(
        r'^iocensus_io_last_sample_timestamp_seconds\{host="([^"]+)"\} '
        r'(\d+)$', metrics, re.M)}
    eq(got, last, "the metrics carry each host's last sample")
    out = os.path.join(os.path.dirname(db), "ingest.txt")
    eq(oct(os.stat(out).st_mode & 0o777) if os.path.exists(out) else None,
       oct(0o640), "its totals are beside the database, 0640")


def ancestors(path):
    """path and every directory above it, / excluded."""
    out = []
    while path not in ("/", ""):
        out.append(path)
        path = os.path.dirname(path)
    return out


def main():
    with tempfile.TemporaryDirectory(prefix="t_install.") as tmp:
        dest = os.path.join(tmp, "dest")
        os.makedirs(dest + os.path.dirname(FOREIGN_FILE))
        open(dest + FOREIGN_FILE, "w").close()
        os.makedirs(dest + FOREIGN_DIR)
        p = make("install", "PREFIX=" + PREFIX, "DESTDIR=" + dest)
        if not ok(p.returncode == 0, "make install PREFIX DESTDIR",
                  p.stderr[-800:]):
            return
        # make install builds fsscan-mpi first when it can.
        if os.path.exists(os.path.join(BUILD, "fsscan-mpi")):
            FILES.update(MPI_FILES)
        check_tree(dest)
        check_cron(dest, tmp)
        p = make("uninstall", "PREFIX=" + PREFIX, "DESTDIR=" + dest)
        eq(list(installed_files(dest)), [FOREIGN_FILE],
           "make uninstall removes every file it installed", p.stderr)
        left = sorted("/" + os.path.relpath(d, dest)
                      for d, _, _ in os.walk(dest) if d != dest)
        want = sorted(set(p for f in (FOREIGN_FILE, FOREIGN_DIR + "/x")
                          for p in ancestors(os.path.dirname(f))))
        eq(left, want, "... and the directories it made; those there "
           "before stay", p.stderr)
        check_edited(os.path.join(tmp, "dest2"))


def check_edited(dest):
    """A second tree: the configuration edited, the metrics written."""
    p = make("install", "PREFIX=" + PREFIX, "DESTDIR=" + dest)
    if not ok(p.returncode == 0, "make install into a second DESTDIR",
              p.stderr[-800:]):
        return
    conf = dest + "/etc/iocensus/iocensus.conf"
    cron = dest + "/etc/cron.d/iocensus"
    with open(conf, "a") as f:
        f.write("# edited\n")
    edited = open(conf).read()
    metrics = "/var/lib/prometheus/node-exporter/iocensus.prom"
    with open(conf, "w") as f:
        f.write("metrics = %s\n" % metrics + edited)
    edited = open(conf).read()
    prom = dest + metrics
    os.makedirs(os.path.dirname(prom))
    open(prom, "w").close()
    p = make("install", "PREFIX=" + PREFIX, "DESTDIR=" + dest)
    ok(p.returncode == 0 and open(conf).read() == edited and
       "kept /etc/iocensus/iocensus.conf" in p.stderr,
       "a second install keeps the edited configuration, saying so",
       p.stderr[-800:])
    p = make("uninstall", "PREFIX=" + PREFIX, "DESTDIR=" + dest)
    ok(p.returncode == 0 and os.path.isfile(conf) and
       open(conf).read() == edited and
       "kept /etc/iocensus/iocensus.conf: edited" in p.stderr,
       "uninstall keeps the edited configuration, saying so",
       p.stderr[-800:])
    ok(not os.path.exists(cron), "uninstall removes the unedited cron file")
    ok(not os.path.exists(prom), "uninstall removes the metrics file the "
       "configuration names")
    eq(sorted(installed_files(dest)), ["/etc/iocensus/iocensus.conf"],
       "... and leaves only the edited configuration")
    # A metrics path that is a directory, or not *.prom, stays.
    p = make("install", "PREFIX=" + PREFIX, "DESTDIR=" + dest)
    os.makedirs(prom)
    p = make("uninstall", "PREFIX=" + PREFIX, "DESTDIR=" + dest)
    ok(os.path.isdir(prom), "uninstall removes no directory named as "
       "the metrics", p.stderr[-400:])


if __name__ == "__main__":
    main()
    done()
