#!/usr/bin/env python3
"""Attack: the files root's programs write, against a hostile local user.

Root scans a tree in which alice/ is private (0700) and holds
secret-project-xyz/big-merger-plan.pdf; user nobody (uid 65534) attacks.

- Private names stay private: the database is made 0640 in directories
  made 0750 (group --db-group), an existing database keeps its mode, and
  every file derived from it that carries names (--out of any command,
  the report, its bundle, the fsstats CSV) is no more readable than the
  database; nobody reads none of them. report --no-paths names no path
  below a project and no file; the Prometheus text names none.
- No writer follows a link nobody planted, nor writes into a FIFO, a
  device or a directory, in a sticky world-writable directory and in a
  directory nobody owns: the victim keeps every byte, a dangling link's
  target is never created, the exit status is 3 and the message says why.
  The database is never made where another user could plant the files
  SQLite keeps beside it. A link owned by root is followed.
- An output that is the database, by any path, link or hard link, or one
  of its -wal and -shm files, is refused before anything is written: the
  database keeps every byte.
- An output named as a -journal, -wal or -shm file of the database that
  does not exist yet (which SQLite would delete or play back at its next
  open) is refused too, by the database's directory under any path to
  it: exit 3, a message naming SQLite's file, nothing written.
- Temporary files are made with O_CREAT|O_EXCL|O_NOFOLLOW under a name of
  64 random bits (strace).
"""
import io
import os
import re
import shutil
import sqlite3
import stat
import subprocess
import sys
import tarfile
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "lib"))
from tap import ok, eq, done, skip  # noqa: E402
from pace import limit  # noqa: E402

BUILD = os.environ["BUILD"]
FSSCAN = os.path.join(BUILD, "fsscan")
IOC = os.path.join(BUILD, "iocensus")
NOBODY = 65534
SECRETS = ("secret-project-xyz", "big-merger-plan")
AS_NOBODY = ["setpriv", "--reuid=%d" % NOBODY, "--regid=%d" % NOBODY,
             "--clear-groups", "--"]


def run(argv, timeout=60, **kw):
    p = subprocess.run(argv, capture_output=True, text=True,
                       timeout=limit(timeout), stdin=subprocess.DEVNULL, **kw)
    return p.returncode, p.stdout, p.stderr


def mode(path):
    return oct(os.lstat(path).st_mode & 0o7777)


def snapshot_of(path):
    """Everything an attack could change about a file: bytes, mode,
    owner, mtime."""
    st = os.lstat(path)
    with open(path, "rb") as f:
        data = f.read()
    return (data, st.st_mode, st.st_uid, st.st_gid, st.st_mtime_ns)


def make_tree(tmp):
    root = os.path.join(tmp, "tree")
    sec = os.path.join(root, "alice", "secret-project-xyz")
    os.makedirs(sec)
    with open(os.path.join(sec, "big-merger-plan.pdf"), "wb") as f:
        f.write(b"%PDF" + b"x" * 5000)
    os.makedirs(os.path.join(root, "bob", "pub"))
    with open(os.path.join(root, "bob", "pub", "data.bin"), "wb") as f:
        f.write(b"y" * 20000)
    os.chmod(os.path.join(root, "alice"), 0o700)
    return root


def nobody_bin(tmp):
    """Copies of the programs nobody can run: the checkout may be private
    to root."""
    d = os.path.join(tmp, "bin")
    os.mkdir(d)
    os.chmod(d, 0o755)
    return shutil.copy2(IOC, d)


def names_in(data):
    return [s for s in SECRETS if s.encode() in data]


def private_names(tmp, root, ioc_nobody):
    old = os.umask(0o022)
    try:
        db = os.path.join(tmp, "var", "lib", "iocensus", "census.db")
        rc, _, err = run([FSSCAN, "--db", db, "--dirs", "all", "--quiet",
                          root])
        eq(rc, 0, "scan: exit 0 " + err)
        eq([mode(os.path.join(tmp, "var")),
            mode(os.path.join(tmp, "var", "lib")),
            mode(os.path.dirname(db)), mode(db)],
           [oct(0o750)] * 3 + [oct(0o640)],
           "the database is made 0640 and its new directories 0750, "
           "whatever the umask")
        con = sqlite3.connect(db)
        paths = [r[0] for r in con.execute("SELECT path FROM v_dir")]
        con.close()
        ok(any("secret-project-xyz" in p for p in paths),
           "the census does hold the private names (the test is real)")
        outs = {}
        for cmd, extra in (("files", ["--format", "csv"]),
                           ("diff", ["1", "1", "--by", "dir",
                                     "--format", "json"]),
                           ("usage", ["--format", "json"])):
            out = os.path.join(tmp, cmd + ".out")
            rc, _, err = run([IOC, cmd, "--db", db, "--out", out] + extra)
            eq(rc, 0, "%s --out: exit 0 %s" % (cmd, err))
            outs[cmd] = out
        html = os.path.join(tmp, "r.html")
        bundle = os.path.join(tmp, "r.tar.gz")
        rc, _, err = run([IOC, "report", "--db", db, "--out", html,
                          "--bundle", bundle])
        eq(rc, 0, "report: exit 0 " + err)
        csv = os.path.join(tmp, "fsstats.csv")
        rc, _, err = run([FSSCAN, "--db", db, "--quiet", "--fsstats-csv",
                          csv, root])
        eq(rc, 0, "scan with --fsstats-csv: exit 0 " + err)
        derived = [outs["files"], outs["diff"], html, bundle, csv]
        eq([mode(p) for p in derived], [oct(0o640)] * len(derived),
           "--out, the report, its bundle and the fsstats CSV: 0640, as "
           "the database")
        with open(outs["files"], "rb") as f:
            ok(names_in(f.read()), "files --out holds the secret paths "
               "(so its mode matters)")
        os.chmod(tmp, 0o711)
        for p in [db] + derived:
            rc, out, err = run(AS_NOBODY + ["cat", p])
            ok(rc != 0 and not names_in(out.encode()),
               "nobody cannot read " + os.path.basename(p), out[:200])
        rc, out, err = run(AS_NOBODY + [ioc_nobody, "files", "--db", db,
                                        "--format", "csv"])
        ok(rc == 3 and not names_in(out.encode()),
           "nobody: iocensus files prints no secret path (exit 3)",
           "rc=%d %s" % (rc, out[:200]))

        # An existing database keeps its mode (the admin's choice).
        os.chmod(db, 0o644)
        rc, _, err = run([FSSCAN, "--db", db, "--quiet", root])
        eq((rc, mode(db)), (0, oct(0o644)),
           "an existing database keeps its mode")
        os.chmod(db, 0o640)

        # --no-paths: a page to share.
        html = os.path.join(tmp, "share.html")
        bundle = os.path.join(tmp, "share.tar.gz")
        rc, _, err = run([IOC, "report", "--db", db, "--no-paths", "--out",
                          html, "--bundle", bundle])
        eq(rc, 0, "report --no-paths: exit 0 " + err)
        with open(html, "rb") as f:
            page = f.read()
        eq(names_in(page), [], "report --no-paths: no private name")
        ok(b"alice" in page and b"bob" in page,
           "report --no-paths: the projects are still named")
        ok(b"data.bin" not in page and b"pub" not in page.replace(
            b"public", b""), "report --no-paths: no file or directory name "
           "below a project, private or not")
        leaked = []
        with tarfile.open(bundle) as t:
            for m in t.getmembers():
                if m.isfile():
                    data = t.extractfile(m).read()
                    if names_in(data) or b"data.bin" in data:
                        leaked.append(m.name)
        eq(leaked, [], "report --no-paths: no member of the bundle names "
           "a path")
        rc, out, err = run(AS_NOBODY + ["cat", html])
        ok(rc == 0 and "<html" in out.lower(),
           "report --no-paths: others may read it (mode %s)" % mode(html))
        prom = os.path.join(tmp, "m.prom")
        rc, _, err = run([IOC, "metrics", "--db", db, "--out", prom])
        with open(prom, "rb") as f:
            text = f.read()
        ok(rc == 0 and not names_in(text) and b"data.bin" not in text and
           b'project="alice"' in text, "metrics: projects but no path")
        rc, out, err = run(AS_NOBODY + ["cat", prom])
        eq(rc, 0, "metrics: node_exporter (another user) may read them")
        return db
    finally:
        os.umask(old)


def db_group(tmp, root):
    db = os.path.join(tmp, "grp", "census.db")
    rc, _, err = run([FSSCAN, "--db", db, "--db-group", "nogroup",
                      "--quiet", root])
    eq(rc, 0, "--db-group nogroup: exit 0 " + err)
    gid = os.stat(db).st_gid
    eq((gid, os.stat(os.path.dirname(db)).st_gid), (NOBODY, NOBODY),
       "--db-group: the database and its new directory in that group")
    html = os.path.join(tmp, "grp.html")
    rc, _, err = run([IOC, "report", "--db", db, "--out", html])
    eq((rc, os.stat(html).st_gid, mode(html)), (0, NOBODY, oct(0o640)),
       "a report of it: the database's group and mode")
    rc, _, err = run([FSSCAN, "--db", os.path.join(tmp, "x.db"),
                      "--db-group", "no-such-group-here", root])
    ok(rc == 2 and "no-such-group-here" in err,
       "--db-group of no group: usage error", err)
    rc, _, err = run([IOC, "ingest", "--db", os.path.join(tmp, "g2",
                                                          "io.db"),
                      "--db-group", str(NOBODY)])
    eq((rc, os.stat(os.path.join(tmp, "g2", "io.db")).st_gid), (0, NOBODY),
       "ingest --db-group GID: a new database in that group")


def attack_dirs(tmp):
    """A sticky world-writable directory, and one nobody owns."""
    sticky = tempfile.mkdtemp(prefix="sticky.", dir=tmp)
    os.chmod(sticky, 0o1777)
    own = tempfile.mkdtemp(prefix="nobodys.", dir=tmp)
    os.chown(own, NOBODY, NOBODY)
    return [("sticky", sticky), ("nobody's", own)]


def plant_link(path, target):
    os.symlink(target, path)
    os.lchown(path, NOBODY, NOBODY)


def victim(tmp):
    fd, v = tempfile.mkstemp(prefix="victim.", dir=tmp)
    with os.fdopen(fd, "w") as f:
        f.write("root's own file\n")
    os.chmod(v, 0o600)
    return v


def writers(db, root, target):
    """Every way a root program writes a file that names target."""
    return [
        ("report --out", [IOC, "report", "--db", db, "--out", target]),
        ("report --bundle", [IOC, "report", "--db", db, "--out",
                             target + ".ok.html", "--bundle", target]),
        ("files --out", [IOC, "files", "--db", db, "--out", target]),
        ("metrics --out", [IOC, "metrics", "--db", db, "--out", target]),
        ("fsscan --fsstats-csv", [FSSCAN, "--db", db, "--quiet",
                                  "--fsstats-csv", target, root]),
    ]


def count_snapshots(db):
    con = sqlite3.connect(db)
    n = con.execute("SELECT count(*) FROM snapshot").fetchone()[0]
    con.close()
    return n


def planted_links(tmp, db, root):
    v = victim(tmp)
    for where, d in attack_dirs(tmp):
        for i, (what, argv) in enumerate(writers(db, root, "@")):
            before = snapshot_of(v)
            t = os.path.join(d, "out%d" % i)
            plant_link(t, v)
            rc, _, err = run([a.replace("@", t) for a in argv])
            ok(rc == 3 and "symbolic link" in err,
               "%s, %s dir: a link to a victim: exit 3, says why" %
               (what, where), "rc=%d %s" % (rc, err))
            eq(snapshot_of(v), before, "%s, %s dir: the victim is "
               "untouched" % (what, where))
            gone = os.path.join(d, "nowhere%d" % i)
            t = os.path.join(d, "dangling%d" % i)
            plant_link(t, gone)
            rc, _, err = run([a.replace("@", t) for a in argv])
            ok(rc == 3 and not os.path.lexists(gone),
               "%s, %s dir: a dangling link: its target is not created" %
               (what, where), "rc=%d %s" % (rc, err))
            t = os.path.join(d, "fifo%d" % i)
            os.mkfifo(t)
            os.chown(t, NOBODY, NOBODY)
            rc, _, err = run([a.replace("@", t) for a in argv], timeout=20)
            ok(rc == 3 and "FIFO" in err, "%s, %s dir: a FIFO is refused, "
               "without blocking" % (what, where), err)
        # A directory component that is nobody's link to root's directory.
        rootdir = os.path.join(tmp, "rootdir")
        os.makedirs(rootdir, exist_ok=True)
        link = os.path.join(d, "dirlink")
        plant_link(link, rootdir)
        rc, _, err = run([IOC, "report", "--db", db, "--out",
                          os.path.join(link, "r.html")])
        ok(rc == 3 and "uid %d" % NOBODY in err and
           not os.listdir(rootdir), "report --out through nobody's "
           "directory link (%s dir): refused, nothing made" % where, err)
    # A device, and a directory.
    dev = os.path.join(tmp, "null")
    os.mknod(dev, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    for what, argv in writers(db, root, dev):
        rc, _, err = run(argv)
        ok(rc == 3 and "character device" in err,
           "%s: a device is refused" % what, err)
    for what, argv in writers(db, root, tmp):
        rc, _, err = run(argv)
        ok(rc == 3 and "directory" in err, "%s: a directory is refused" %
           what, err)
    # A link of root's own is followed, in the directory part.
    real = os.path.join(tmp, "real")
    os.mkdir(real)
    os.symlink(real, os.path.join(tmp, "rootlink"))
    rc, _, err = run([IOC, "metrics", "--db", db, "--out",
                      os.path.join(tmp, "rootlink", "m.prom")])
    ok(rc == 0 and os.listdir(real) == ["m.prom"],
       "a directory link root owns is followed", err)


def planted_db(tmp, root):
    v = victim(tmp)
    for where, d in attack_dirs(tmp):
        before = snapshot_of(v)
        t = os.path.join(d, "census.db")
        plant_link(t, v)
        for prog in ([FSSCAN, "--db", t, "--quiet", root],
                     [IOC, "ingest", "--db", t],
                     [IOC, "snapshots", "--db", t]):
            rc, _, err = run(prog)
            ok(rc == 3 and "symbolic link" in err, "%s --db a link, %s "
               "dir: exit 3, says why" % (os.path.basename(prog[0]), where),
               err)
        eq(snapshot_of(v), before, "--db a link, %s dir: the victim is "
           "untouched" % where)
        gone = os.path.join(tmp, "nowhere-" + where[:3])
        t = os.path.join(d, "dangling.db")
        plant_link(t, gone)
        rc, _, err = run([FSSCAN, "--db", t, "--quiet", root])
        ok(rc == 3 and not os.path.lexists(gone), "fsscan --db a dangling "
           "link, %s dir: no database at its target" % where, err)
        # A plain new name there: another user could plant the -wal.
        rc, _, err = run([FSSCAN, "--db", os.path.join(d, "new.db"),
                          "--quiet", root])
        ok(rc == 3 and ("every user" in err or "uid %d" % NOBODY in err)
           and not os.path.exists(os.path.join(d, "new.db")),
           "fsscan --db in a %s directory: refused, nothing made" % where,
           err)
    fifo = os.path.join(tmp, "fifo.db")
    os.mkfifo(fifo)
    rc, _, err = run([FSSCAN, "--db", fifo, "--quiet", root], timeout=20)
    ok(rc == 3 and "FIFO" in err, "fsscan --db a FIFO: refused at once",
       err)


def output_is_db(tmp, db, root):
    d = os.path.dirname(db)
    hard = os.path.join(tmp, "hardlink.db")
    os.link(db, hard)
    soft = os.path.join(tmp, "softlink.db")
    os.symlink(db, soft)
    con = sqlite3.connect(db)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    spellings = [
        ("its path", db),
        ("another spelling", os.path.join(d, "..", os.path.basename(d),
                                          ".", os.path.basename(db))),
        ("a link to it", soft),
        ("a hard link to it", hard),
    ]
    for name, target in spellings:
        for what, argv in writers(db, root, target):
            before = snapshot_of(db)
            n = count_snapshots(db)
            rc, _, err = run(argv)
            ok(rc == 3 and "census database" in err,
               "%s = the database (%s): refused, says why" % (what, name),
               "rc=%d %s" % (rc, err))
            eq((snapshot_of(db)[0], count_snapshots(db)), (before[0], n),
               "%s = the database (%s): every byte kept" % (what, name))
    con = sqlite3.connect(db)
    eq(con.execute("PRAGMA integrity_check").fetchone()[0], "ok",
       "the database passes integrity_check after every attempt")
    # Held open, it has a -wal: writing over that is refused too.
    con.execute("PRAGMA journal_mode")
    con.execute("BEGIN IMMEDIATE")
    con.execute("CREATE TEMP TABLE t(x)")
    wal = db + "-wal"
    if os.path.exists(wal):
        rc, _, err = run([IOC, "metrics", "--db", db, "--out", wal])
        ok(rc == 3 and "census database" in err,
           "metrics --out the database's -wal: refused", err)
    con.rollback()
    con.close()


def side_files(tmp, db, root):
    """Side files that do not exist yet, named through other paths."""
    d, base = os.path.split(db)
    con = sqlite3.connect(db)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    dirlink = os.path.join(tmp, "dblink.d")
    os.symlink(d, dirlink)      # root's own link: followed
    spellings = [
        ("its path", d),
        ("another spelling", os.path.join(d, "..", os.path.basename(d),
                                          ".")),
        ("a link to its directory", dirlink),
    ]
    for suffix in ("-journal", "-wal", "-shm"):
        for name, where in spellings:
            target = os.path.join(where, base + suffix)
            for what, argv in writers(db, root, target):
                for f in (db + "-wal", db + "-shm", db + "-journal"):
                    if os.path.exists(f) and os.path.getsize(f) == 0:
                        os.unlink(f)
                gone = not os.path.exists(db + suffix)
                before = snapshot_of(db)
                n = count_snapshots(db)
                rc, _, err = run(argv)
                ok(gone and rc == 3 and "SQLite" in err and
                   (base + suffix) in err and "census database" in err,
                   "%s = the database's %s, not there yet (%s): refused, "
                   "named" % (what, suffix, name), "rc=%d %s" % (rc, err))
                ok(suffix != "-journal" or
                   not os.path.exists(db + suffix),
                   "%s = the database's %s (%s): nothing written"
                   % (what, suffix, name))
                eq((snapshot_of(db)[0], count_snapshots(db)),
                   (before[0], n),
                   "%s = the database's %s (%s): every byte kept"
                   % (what, suffix, name))
    # A name that only starts like one is an ordinary output.
    other = db + "-journal.txt"
    rc, _, err = run([IOC, "metrics", "--db", db, "--out", other])
    ok(rc == 0 and os.path.isfile(other),
       "metrics --out DB-journal.txt: written (not a side file)", err)


def temporaries(tmp, db):
    strace = shutil.which("strace")
    if not strace:
        ok(False, "strace is installed (scripts/install-deps)")
        return
    out = os.path.join(tmp, "traced.html")
    trace = os.path.join(tmp, "trace")
    # LeakSanitizer cannot run under ptrace: no leak check in this run.
    env = dict(os.environ, ASAN_OPTIONS=os.environ.get("ASAN_OPTIONS", "") +
               ":detect_leaks=0")
    rc, _, err = run([strace, "-f", "-e", "trace=openat", "-o", trace, IOC,
                      "report", "--db", db, "--out", out], timeout=120,
                     env=env)
    eq(rc, 0, "traced report: exit 0 " + err)
    opens = [l for l in open(trace) if "traced.html" in l and "O_CREAT" in l]
    ok(len(opens) == 1 and "O_EXCL" in opens[0] and "O_NOFOLLOW" in opens[0]
       and re.search(r'"\.traced\.html\.[0-9a-f]{16}"', opens[0]),
       "the temporary: O_CREAT|O_EXCL|O_NOFOLLOW, a name of 64 random "
       "bits, beside the target", opens)
    eq(sorted(os.listdir(tmp)).count("traced.html"), 1,
       "the report is in place")
    ok(not [n for n in os.listdir(tmp) if n.startswith(".traced")],
       "no temporary left")


def main():
    if os.geteuid() != 0:
        skip("t_attack_files: every attack", "files are planted as uid %d"
             " with chown and the programs run as root" % NOBODY,
             needs="root")
        done()
    tmp = tempfile.mkdtemp(prefix="t_attack_files.")
    # Every user may search the way to the tree, so that its depth-1 names
    # (alice, bob) are public and may appear in the shared outputs;
    # mkdtemp's 0700 would make them private.
    os.chmod(tmp, 0o711)
    try:
        root = make_tree(tmp)
        ioc_nobody = nobody_bin(tmp)
        db = private_names(tmp, root, ioc_nobody)
        db_group(tmp, root)
        planted_links(tmp, db, root)
        planted_db(tmp, root)
        output_is_db(tmp, db, root)
        side_files(tmp, db, root)
        temporaries(tmp, db)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    done()


if __name__ == "__main__":
    main()
