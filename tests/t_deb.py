#!/usr/bin/env python3
# tests/run: once
# tests/run: alone
"""t_deb: `make deb`, the Debian packages as a site installs them.

- `make deb` builds iostatmon, iocensus and iocensus-mpi into build/deb/
  (once: the build is the slow part); lintian reports no error and no
  warning on them, and every override in debian/ says why.
- `dpkg-deb -c`: each package holds exactly its files, with their modes.
  `dpkg-deb -I`: iocensus's one conffile is /etc/iocensus/iocensus.conf;
  each package depends on the packages that hold the shared libraries
  its programs need (readelf's NEEDED, found with dpkg -S: computed here,
  not taken from dh_shlibdeps).
- As root, the packages are installed into this system (dpkg -i):
  systemd-analyze verify passes on every unit shipped; none is enabled.
  The scan service's command lines (ExecStart=, then ExecStopPost=) are
  run by hand, %i substituted, against a small tree configured as
  [fs NAME] in the installed configuration: they print nothing, a
  complete snapshot with the tree's file count (os.walk) appears in the
  configured database, `iocensus capacity` run from / answers for it,
  and the metrics file appears with the file count.
- dpkg -r keeps /etc/iocensus/iocensus.conf and /var/lib/iocensus, and
  removes the metrics file; dpkg -P removes the conffile and keeps the
  census. The test purges, and removes what it made, at the end.
"""
import os
import re
import sqlite3
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from tap import ok, eq, skip, done               # noqa: E402


TOP = os.environ.get("TOP", os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(TOP, "build", "deb")
PKGS = ("iostatmon", "iocensus", "iocensus-mpi")
CONF = "/etc/iocensus/iocensus.conf"
STATE = "/var/lib/iocensus"
UNITDIR = "/lib/systemd/system"
UNITS = ("iocensus-scan@.service", "iocensus-scan@.timer",
         "iocensus-ingest.service", "iocensus-ingest.timer",
         "iocensus-prune.service", "iocensus-prune.timer")
MAN = "/usr/share/man/"
# What each package holds, beside the directories and /usr/share/doc's
# copyright and changelog: path -> mode.
FILES = {
    "iostatmon": {
        "/usr/bin/iostatmon": 0o755,
        MAN + "man8/iostatmon.8.gz": 0o644,
        UNITDIR + "/iostatmon.service": 0o644,
    },
    "iocensus": dict({
        "/usr/bin/fsscan": 0o755,
        "/usr/bin/iocensus": 0o755,
        MAN + "man1/fsscan.1.gz": 0o644,
        MAN + "man1/iocensus.1.gz": 0o644,
        CONF: 0o644,
        "/usr/share/iocensus/iocensus.rules.yml": 0o644,
        "/usr/share/iocensus/iocensus.grafana.json": 0o644,
        "/usr/share/iocensus/conf-metrics": 0o755,
    }, **{UNITDIR + "/" + u: 0o644 for u in UNITS}),
    "iocensus-mpi": {
        "/usr/bin/fsscan-mpi": 0o755,
        "/usr/sbin/fsscan-mpi-cron": 0o755,
        MAN + "man1/fsscan-mpi.1.gz": 0o644,
        MAN + "man8/fsscan-mpi-cron.8.gz": 0o644,
        "/usr/share/doc/iocensus-mpi/examples/fsscan-mpi.sbatch": 0o755,
    },
}
if os.path.exists(os.path.join(TOP, "docs", "iocensus.conf.5")):
    FILES["iocensus"][MAN + "man5/iocensus.conf.5.gz"] = 0o644
FS = "t_deb"


def run(*cmd, **kw):
    return subprocess.run(list(cmd), capture_output=True, text=True, **kw)


def deb(name):
    arch = run("dpkg", "--print-architecture").stdout.strip()
    return os.path.join(OUT, "%s_0.1.0_%s.deb" % (name, arch))


def build():
    env = dict(os.environ)
    env.pop("MAKEFLAGS", None)
    p = run("make", "--no-print-directory", "-C", TOP, "deb", env=env)
    ok(p.returncode == 0, "make deb", (p.stdout + p.stderr)[-1500:])
    return all(ok(os.path.isfile(deb(n)), "make deb builds " +
                  os.path.basename(deb(n)), sorted(os.listdir(OUT))
                  if os.path.isdir(OUT) else "no build/deb")
               for n in PKGS)


def check_lintian():
    p = run("lintian", *[deb(n) for n in PKGS])
    bad = [l for l in p.stdout.splitlines() if re.match(r"^[EW]: ", l)]
    eq(bad, [], "lintian: no error and no warning", p.stderr[-500:])
    unexplained = []
    for name in os.listdir(os.path.join(TOP, "debian")):
        if not name.endswith("lintian-overrides"):
            continue
        lines = open(os.path.join(TOP, "debian", name)).read().splitlines()
        for i, l in enumerate(lines):
            if l.strip() and not l.startswith("#") and \
                    (i == 0 or not lines[i - 1].startswith("#")):
                unexplained.append("%s: %s" % (name, l))
    eq(unexplained, [], "every lintian override says why (a comment "
       "above it)")


def contents(name):
    """path -> mode of the regular files of a package (dpkg-deb -c)."""
    out = {}
    for l in run("dpkg-deb", "-c", deb(name)).stdout.splitlines():
        f = l.split()
        if not f[0].startswith("-"):
            continue
        mode = 0
        for i, c in enumerate(f[0][1:]):
            if c != "-":
                mode |= 1 << (8 - i)
        out[f[5][1:]] = mode
    return out


def field(name, key):
    return run("dpkg-deb", "-f", deb(name), key).stdout.strip()


def needed_packages(name, tmp):
    """The packages that hold the libraries the package's ELF files
    need: readelf -d's NEEDED, each found on this system's library path
    and its package asked of dpkg -S."""
    root = os.path.join(tmp, "x-" + name)
    subprocess.run(["dpkg-deb", "-x", deb(name), root], check=True)
    libs = set()
    for d, _, names in os.walk(root):
        for n in names:
            p = os.path.join(d, n)
            with open(p, "rb") as f:
                if f.read(4) != b"\x7fELF":
                    continue
            out = run("readelf", "-d", p).stdout
            libs |= set(re.findall(r"\(NEEDED\)\s+Shared library: \[(.+)\]",
                                   out))
    pkgs = set()
    for lib in sorted(libs):
        path = run("sh", "-c", "ldconfig -p | awk -v l=%s '$1 == l "
                   "{ print $NF; exit }'" % lib).stdout.strip()
        owner = run("dpkg", "-S", os.path.realpath(path)).stdout
        if not owner:
            owner = run("dpkg", "-S", path).stdout
        pkgs.add(owner.split(":")[0])
    return libs, pkgs


def check_packages(tmp):
    for name in PKGS:
        got = contents(name)
        want = dict(FILES[name])
        for p in list(got):
            if p.startswith("/usr/share/doc/%s/" % name) and \
                    os.path.basename(p) in ("copyright",
                                            "changelog.gz"):
                want[p] = 0o644
        eq(sorted(got.items()), sorted(want.items()),
           "dpkg-deb -c %s: its files and modes" % name)
    conffiles = run("dpkg-deb", "--ctrl-tarfile", deb("iocensus"))
    info = run("dpkg-deb", "-I", deb("iocensus"), "conffiles")
    eq(info.stdout.split(), [CONF], "dpkg-deb -I iocensus: one conffile, "
       "the configuration", conffiles.stderr)
    for name in ("iostatmon", "iocensus-mpi"):
        eq(run("dpkg-deb", "-I", deb(name), "conffiles").stdout.strip(), "",
           "%s has no conffile" % name)
    for name in PKGS:
        libs, want = needed_packages(name, tmp)
        deps = set(re.sub(r"\s*\(.*\)", "", d).strip()
                   for d in field(name, "Depends").split(","))
        ok(libs and want <= deps, "%s depends on the packages of the "
           "libraries it needs (%s)" % (name, ", ".join(sorted(libs))),
           "needs %s, depends %s" % (sorted(want), sorted(deps)))
    ok("libsqlite3-0" in field("iocensus", "Depends") and
       "libsqlite3-0" not in field("iostatmon", "Depends"),
       "iocensus needs SQLite; the daemon does not link it")
    ok("openmpi-bin" in field("iocensus-mpi", "Depends"),
       "iocensus-mpi depends on openmpi-bin (mpirun)")


def exec_lines(unit, inst):
    """The unit's ExecStart= then ExecStopPost= command lines, %i
    substituted, as argument lists (no quoting is used in them)."""
    text = open(os.path.join(UNITDIR, unit)).read()
    out = []
    for key in ("ExecStart", "ExecStopPost"):
        for l in text.splitlines():
            if l.startswith(key + "="):
                out.append(l[len(key) + 1:].replace("%i", inst).split())
    return out


def count_files(root):
    return sum(len(names) for _, _, names in os.walk(root))


def check_installed(tmp):
    p = run("dpkg", "-i", *[deb(n) for n in PKGS])
    if not ok(p.returncode == 0, "dpkg -i the three packages",
              (p.stdout + p.stderr)[-800:]):
        return
    units = [os.path.join(UNITDIR, u) for u in UNITS + ("iostatmon.service",)]
    p = run("systemd-analyze", "verify", "--man=no",
            *[u.replace("@.", "@" + FS + ".") if "@" in u else u
              for u in units])
    eq((p.returncode, p.stderr), (0, ""), "systemd-analyze verify on every "
       "unit shipped")
    wants = [n for d in ("/etc/systemd/system/timers.target.wants",
                         "/etc/systemd/system/multi-user.target.wants")
             if os.path.isdir(d) for n in os.listdir(d)
             if n.startswith(("iocensus", "iostatmon"))]
    eq(wants, [], "no unit is enabled")

    if not os.path.exists(os.path.join(TOP, "lib", "conf.c")):
        skip("the scan service run by hand",
             "this tree reads no configuration file (lib/conf)")
        return
    tree = os.path.join(tmp, "tree")
    for d in ("a/b", "c"):
        os.makedirs(os.path.join(tree, d))
    for i, f in enumerate(("a/1", "a/b/2", "c/3", "4")):
        with open(os.path.join(tree, f), "wb") as fh:
            fh.write(b"x" * (1000 * i))
    os.makedirs(os.path.join(tmp, "textfile"))
    prom = os.path.join(tmp, "textfile", "iocensus.prom")
    # Edited as an administrator would: db and metrics set where the
    # shipped file has them, before its first section, and a section of
    # the tree at the end. (The run holds no other test meanwhile: the
    # installed configuration is every program's.)
    with open(CONF) as f:
        lines = [l for l in f.read().splitlines()
                 if not re.match(r"\s*(db|metrics)\s*=", l)]
    at = next((i for i, l in enumerate(lines) if l.startswith("[")),
              len(lines))
    lines[at:at] = ["db = %s/census.db" % STATE, "metrics = %s" % prom]
    lines += ["[fs %s]" % FS, "root = %s" % tree]
    with open(CONF, "w") as f:
        f.write("\n".join(lines) + "\n")
    env = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8"}
    for argv in exec_lines("iocensus-scan@.service", FS):
        p = run(*argv, env=env, cwd="/")
        eq((p.returncode, p.stdout, p.stderr), (0, "", ""),
           "the scan service's %s runs, printing nothing"
           % " ".join(argv))
    db = os.path.join(STATE, "census.db")
    if ok(os.path.isfile(db), "a database in the configured place"):
        c = sqlite3.connect(db)
        rows = c.execute("SELECT fs, complete, files FROM v_snapshot"
                         ).fetchall()
        c.close()
        eq(rows, [(FS, 1, count_files(tree))], "one complete snapshot of "
           "the configured root, its files as os.walk counts them")
        eq(oct(os.stat(STATE).st_mode & 0o7777), oct(0o750),
           STATE + " is 0750")
    p = run("/usr/bin/iocensus", "capacity", env=env, cwd="/")
    ok(p.returncode == 0 and FS in p.stdout, "iocensus capacity, run from "
       "/, finds the configured database", p.stdout + p.stderr)
    text = open(prom).read() if os.path.exists(prom) else ""
    ok('iocensus_files{fs="%s"} %d\n' % (FS, count_files(tree)) in text,
       "the metrics file appears, with the file count", text[:300])

    p = run("dpkg", "-r", *PKGS)
    eq(p.returncode, 0, "dpkg -r", p.stderr[-500:])
    ok(os.path.isfile(CONF) and "[fs %s]" % FS in open(CONF).read(),
       "remove keeps the configuration, as edited")
    ok(os.path.isfile(db), "remove keeps the census")
    ok(not os.path.exists(prom), "remove removes the metrics file, which "
       "node_exporter would serve stale")
    ok(not os.path.exists("/usr/bin/fsscan"), "remove removes the "
       "programs")
    p = run("dpkg", "-P", *PKGS)
    eq(p.returncode, 0, "dpkg -P", p.stderr[-500:])
    ok(not os.path.exists(CONF) and not os.path.exists("/etc/iocensus"),
       "purge removes the configuration")
    ok(os.path.isfile(db), "purge keeps the census (data, not cache)")


def installed():
    return [n for n in PKGS if "install ok installed" in
            run("dpkg-query", "-W", "-f=${Status}", n).stdout]


def main():
    for cmd, pkg in (("dh", "debhelper"), ("dpkg-buildpackage", "dpkg-dev"),
                     ("lintian", "lintian")):
        if not shutil.which(cmd):
            skip("make deb", "no " + cmd, pkg)
            return
    if not build():
        return
    with tempfile.TemporaryDirectory(prefix="t_deb.") as tmp:
        check_lintian()
        check_packages(tmp)
        if os.geteuid() != 0:
            skip("the packages installed", "dpkg -i needs root", "root")
            return
        if installed() or os.path.exists(STATE) or os.path.exists(CONF):
            skip("the packages installed", "this system has iocensus "
                 "installed, or %s or %s: left as they are" % (STATE, CONF))
            return
        try:
            check_installed(tmp)
        finally:
            run("dpkg", "-P", *PKGS)
            shutil.rmtree(STATE, ignore_errors=True)


if __name__ == "__main__":
    main()
    done()
