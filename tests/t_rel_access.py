#!/usr/bin/env python3
"""Reliability: what fsscan does when it may not read, or must refuse.

- permission-denied directories, scanned as an unprivileged user
- usage errors (exit 2) and unusable ROOTs (symlink, regular file, missing)
- a corrupt database file and a database with a newer schema: exit 3,
  message naming the file, file left byte-for-byte unchanged; a database
  in a missing directory (made, private); a database whose file system
  fills up
"""
import errno
import os
import shutil
import sqlite3
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from reltree import (Scratch, build_wide, case, root_case, done, eq, find_census,  # noqa: E402
                     integrity, last_id, mkfile, ok, opendir, rows, run, totals_of,
                     vdir, vsnap, NOBODY, FSSCAN)


def perm_denied(s):
    """A mode-000 directory and a directory its owner may search but not
    read (0300), scanned as user nobody."""
    root = s.path("perm")
    os.mkdir(root)
    build_wide(os.path.join(root, "open"), 3, 2, 10)
    # unreadable: mode 000, owned by root, with content nobody can't see
    build_wide(os.path.join(root, "closed"), 2, 0, 5)
    # searchable but not readable by its owner, nobody
    build_wide(os.path.join(root, "open", "d001", "wx"), 2, 0, 4)
    rfd = opendir(root)
    mkfile(rfd, "private", size=1234, mode=0o000)   # lstat needs no read right
    # a mode-000 directory at the bottom of a path longer than PATH_MAX
    deep = [("P%02d" % i).encode() + b"y" * 97 for i in range(45)]
    fd = os.dup(rfd)
    for n in deep:
        os.mkdir(n, dir_fd=fd)
        nfd = opendir(n, dir_fd=fd)
        os.close(fd)
        fd = nfd
    os.mkdir(b"locked", 0o000, dir_fd=fd)
    os.chmod(b"locked", 0o000, dir_fd=fd)
    os.close(fd)
    os.close(rfd)
    deep_rel = b"/".join(deep) + b"/locked"
    os.chmod(os.path.join(root, "closed"), 0o000)
    wx = os.path.join(root, "open", "d001", "wx")
    os.chown(wx, NOBODY, NOBODY)
    os.chmod(wx, 0o300)
    dbdir = s.path("permdb")
    os.mkdir(dbdir)
    os.chown(dbdir, NOBODY, NOBODY)
    db = os.path.join(dbdir, "c.db")

    # what nobody can see, according to find(1) run as nobody
    want, ferr = find_census(root, user=NOBODY)
    denied = [l for l in ferr if "Permission denied" in l]
    ok(len(denied) == 3, "perm: find as nobody is denied exactly 3 directories",
       "find stderr: %r" % ferr)
    # and by construction: open/ has 1+3+6 dirs and 60 files, wx 1 dir,
    # closed 1 dir, ROOT 1 dir, the deep chain 45+1; files: 60 + private
    eq((want["files"], want["dirs"]), (61, 13 + 46), "perm: expected tree shape")

    r = run(["--db", db, "-j", "2", root], user=NOBODY)
    eq(r.rc, 1, "perm: exit status 1 when directories are unreadable")
    sid = last_id(db)
    vs = vsnap(db, sid)
    ok(vs is not None and vs["complete"] == 1, "perm: snapshot complete=1",
       "v_snapshot %r; %s" % (vs, r.why()))
    want = dict(want, errors=3)
    eq(totals_of(vs), want, "perm: v_snapshot totals equal find as nobody "
       "(unreadable dirs counted, every readable file counted)")
    eq(errors_of(db, sid), {errno.EACCES: 3}, "perm: scan_error has EACCES count 3")
    paths = [p for (p,) in rows(db, "SELECT path FROM scan_error_path WHERE "
                                "snapshot_id=? AND errno=?", (sid, errno.EACCES),
                                raw=True)]
    def short(p):
        for rel, tag in ((b"closed", b"closed"), (b"open/d001/wx", b"wx"),
                         (deep_rel, b"deep")):
            if p == rel or p.endswith(b"/" + rel):
                return tag
        return p[-60:]
    eq(sorted(short(p) for p in paths), [b"closed", b"deep", b"wx"],
       "perm: scan_error_path names the 3 directories (one path %d bytes long)"
       % len(deep_rel))
    d = vdir(db, sid)
    ok(b"closed" in d and d[b"closed"][1:3] == (0, 1),
       "perm: unreadable directory has a v_dir row with itself only",
       "row %r" % (d.get(b"closed"),))
    eq(integrity(db), "ok", "perm: integrity_check")


def perm_many(s):
    """More unreadable directories than paths kept: the count stays exact,
    every kept path is one of them, none twice."""
    root = s.path("permmany")
    os.mkdir(root)
    want = set()
    for i in range(8):
        d = os.path.join(root, "d%d" % i, "z%d" % i)
        os.makedirs(d)
        with open(os.path.join(root, "d%d" % i, "f"), "w") as fh:
            fh.write("x" * i)
        os.chmod(d, 0o000)
        want.add(("d%d/z%d" % (i, i)).encode())
    dbdir = s.path("permdb_many")
    os.mkdir(dbdir)
    os.chown(dbdir, NOBODY, NOBODY)
    db = os.path.join(dbdir, "many.db")
    r = run(["--db", db, "-j", "4", root], user=NOBODY)
    eq(r.rc, 1, "perm many: exit status 1")
    sid = last_id(db)
    vs = vsnap(db, sid)
    eq((vs["files"], vs["dirs"], vs["errors"]), (8, 17, 8),
       "perm many: 8 files, 17 dirs, 8 errors")
    eq(errors_of(db, sid), {errno.EACCES: 8}, "perm many: EACCES count 8")
    paths = [p for (p,) in rows(db, "SELECT path FROM scan_error_path WHERE "
                                "snapshot_id=?", (sid,), raw=True)]
    rel = [next((w for w in want if p == w or p.endswith(b"/" + w)), p) for p in paths]
    ok(paths and set(rel) <= want and len(set(rel)) == len(rel),
       "perm many: %d kept paths, all distinct unreadable directories" % len(paths),
       "paths %r" % rel)


def errors_of(db, sid):
    return dict(rows(db, "SELECT errno, count FROM scan_error WHERE snapshot_id=?",
                     (sid,)))


def usage(s):
    root = s.path("u_root")
    build_wide(root, 2, 0, 3)
    db = s.path("u.db")
    r = run(["--no-such-option", "--db", db, root], cwd=s.base)
    eq(r.rc, 2, "usage: unknown option exits 2")
    ok(r.err.strip() != "", "usage: unknown option explained on stderr", r.why())
    r = run(["--db", db], cwd=s.base)
    eq(r.rc, 2, "usage: missing ROOT exits 2")
    r = run([], cwd=s.base)
    eq(r.rc, 2, "usage: no arguments exits 2")
    r = run(["-j", "abc", "--db", db, root], cwd=s.base)
    eq(r.rc, 2, "usage: -j abc exits 2")
    r = run(["--dirs", "bogus", "--db", db, root], cwd=s.base)
    eq(r.rc, 2, "usage: --dirs bogus exits 2")
    ok(not os.path.exists(os.path.join(s.base, "iocensus.db")),
       "usage: no ./iocensus.db created by usage errors")

    link = s.path("u_link")
    os.symlink(root, link)
    r = run(["--db", db, link], cwd=s.base)
    ok(r.rc not in (0, 1) and "u_link" in r.err,
       "usage: ROOT symlink to a directory refused with a message naming it",
       r.why())
    reg = s.path("u_file")
    with open(reg, "w") as fh:
        fh.write("not a directory\n")
    r = run(["--db", db, reg], cwd=s.base)
    ok(r.rc not in (0, 1) and "u_file" in r.err,
       "usage: ROOT regular file refused with a message naming it", r.why())
    r = run(["--db", db, s.path("u_missing")], cwd=s.base)
    ok(r.rc not in (0, 1) and "u_missing" in r.err,
       "usage: missing ROOT refused with a message naming it", r.why())
    if os.path.exists(db):
        n = rows(db, "SELECT count(*) FROM v_snapshot WHERE complete=1")[0][0]
        eq(n, 0, "usage: refused ROOTs leave no complete snapshot")
    else:
        ok(True, "usage: refused ROOTs leave no complete snapshot")

    # exit 3 promises "recorded as incomplete, or not at all" (fsscan.1, EXIT STATUS)
    csvdb = s.path("csv.db")
    r = run(["--db", csvdb, "--fsstats-csv", s.path("no_dir", "x.csv"), root])
    n = rows(csvdb, "SELECT count(*) FROM v_snapshot WHERE complete=1")[0][0] \
        if os.path.exists(csvdb) else 0
    ok(r.rc in (2, 3) and "no_dir" in r.err and n == 0,
       "usage: unwritable --fsstats-csv fails (2 or 3) naming it, and then no "
       "snapshot is recorded complete", "exit %d, %d complete snapshot(s); %s"
       % (r.rc, n, r.why()))


def read_bytes(p):
    with open(p, "rb") as fh:
        return fh.read()


def bad_db(s):
    root = s.path("b_root")
    build_wide(root, 2, 0, 3)

    corrupt = s.path("corrupt.db")
    junk = bytearray(os.urandom(64 * 1024))
    junk[0:16] = b"NOT SQLITE AT  \0"
    with open(corrupt, "wb") as fh:
        fh.write(junk)
    r = run(["--db", corrupt, root])
    eq(r.rc, 3, "baddb: corrupt database exits 3")
    ok("corrupt.db" in r.err, "baddb: corrupt database message names the file",
       r.why())
    ok(read_bytes(corrupt) == bytes(junk), "baddb: corrupt database unchanged")

    # the same for a page-valid SQLite header followed by garbage
    half = s.path("halfcorrupt.db")
    good = s.path("good.db")
    r0 = run(["--db", good, root])
    eq(r0.rc, 0, "baddb: making a valid database")
    con = sqlite3.connect(good)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    data = bytearray(read_bytes(good))
    for i in range(4096, len(data)):
        data[i] = (i * 131 + 7) & 0xFF
    with open(half, "wb") as fh:
        fh.write(data)
    r = run(["--db", half, root])
    ok(r.rc == 3 and "halfcorrupt.db" in r.err,
       "baddb: database with garbage pages exits 3 naming the file", r.why())
    ok(read_bytes(half) == bytes(data), "baddb: database with garbage pages unchanged")

    # A missing directory is made, as `mkdir -p` would, but private:
    # owner and group only, as the database itself.
    old = os.umask(0o022)
    try:
        r = run(["--db", s.path("no_such_dir", "sub", "x.db"), root])
    finally:
        os.umask(old)
    eq(r.rc, 0, "baddb: database in a missing directory: made")
    modes = [os.stat(s.path(*p)).st_mode & 0o7777 for p in
             (("no_such_dir",), ("no_such_dir", "sub"),
              ("no_such_dir", "sub", "x.db"))]
    eq(modes, [0o750, 0o750, 0o640],
       "baddb: ... its directories 0750 and the database 0640")
    open(s.path("plainfile"), "w").close()
    r = run(["--db", s.path("plainfile", "x.db"), root])
    ok(r.rc == 3 and "plainfile" in r.err and "Not a directory" in r.err,
       "baddb: database below a regular file exits 3 naming it", r.why())

    newer = s.path("newer.db")
    shutil.copy(good, newer)
    con = sqlite3.connect(newer)
    con.execute("PRAGMA user_version=99")
    con.commit()
    con.close()
    before = read_bytes(newer)
    r = run(["--db", newer, root])
    eq(r.rc, 3, "baddb: newer schema exits 3")
    ok("newer.db" in r.err, "baddb: newer schema message names the file", r.why())
    ok(read_bytes(newer) == before, "baddb: newer-schema database unchanged")
    con = sqlite3.connect(newer)
    eq(con.execute("PRAGMA user_version").fetchone()[0], 99,
       "baddb: newer schema version left as it was")
    con.close()


def disk_full(s):
    """The database's file system fills up during the final write: exit 3
    with a message naming the database, earlier snapshots intact."""
    small = s.path("small")
    trees = s.path("manydirs")
    for d in (small, trees):
        os.mkdir(d)
    s.mount_tmpfs(trees, size="64m")
    # One small snapshot takes 256 KiB (schema 11's constant tables
    # included); the 5,101 directory rows of the second do not fit.
    s.mount_tmpfs(small, size="448k")
    try:
        build_wide(os.path.join(trees, "t"), 100, 50, 0)     # 5,101 directories
        build_wide(os.path.join(trees, "u"), 2, 0, 3)
        db = os.path.join(small, "full.db")
        r = run(["--db", db, os.path.join(trees, "u")])
        eq(r.rc, 0, "disk full: first scan fits")
        r = run(["--db", db, "--dirs", "all", os.path.join(trees, "t")])
        eq(r.rc, 3, "disk full: scan that cannot be recorded exits 3")
        ok("full.db" in r.err, "disk full: message names the database", r.why())
        eq(integrity(db), "ok", "disk full: integrity_check")
        got = rows(db, "SELECT id, files FROM v_snapshot WHERE complete=1")
        eq(got, [(1, 6)], "disk full: only the first snapshot is complete")
    finally:
        s.umount(small)
        s.umount(trees)


def main():
    ok(os.access(FSSCAN, os.X_OK), "fsscan binary exists", FSSCAN)
    with Scratch() as s:
        root_case("perm", "trees of other owners, scanned as nobody",
                  perm_denied, s)
        root_case("perm many", "trees of other owners, scanned as nobody",
                  perm_many, s)
        case("usage", usage, s)
        case("baddb", bad_db, s)
        root_case("disk full", "a small tmpfs is mounted", disk_full, s)
    done()


if __name__ == "__main__":
    main()
