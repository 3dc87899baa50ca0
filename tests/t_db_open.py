#!/usr/bin/env python3
"""Opening the census database never damages a file that is not one.

- a file that is neither empty nor starts with the SQLite header (SQLite
  takes some such files for an empty database and writes over them):
  fsscan, ingest and the analyses refuse it (exit 3) and leave it alone
- someone else's SQLite database: fsscan and ingest refuse to add the
  census tables to it
- an empty file: the analyses, which only read, refuse it and leave it
  empty; fsscan may make it a census database (touch, then scan)
- another program's SQLite database, in rollback or WAL mode, with or
  without an application id or tables: refused before anything writes to
  it, so the file (and its WAL) keep every byte and their mtime, and its
  journal mode stays what it was
- ':memory:' and "file:" URI names, which SQLite would take for an
  in-memory database or a URI: refused, nothing reported as stored
"""
import hashlib
import os
import sqlite3
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from tap import ok, eq, done          # noqa: E402
from pace import limit  # noqa: E402

BUILD = os.environ.get("BUILD", "build")
FSSCAN = os.path.join(BUILD, "fsscan")
IOC = os.path.join(BUILD, "iocensus")
TMP = tempfile.mkdtemp(prefix="t_db_open.")


def path(*p):
    return os.path.join(TMP, *p)


def run(*args):
    p = subprocess.run([str(a) for a in args], capture_output=True,
                       text=True, timeout=limit(120))
    return p.returncode, p.stderr


def tables(db):
    con = sqlite3.connect(db)
    try:
        return sorted(r[0] for r in con.execute(
            "SELECT name FROM sqlite_master"))
    finally:
        con.close()


def state(db):
    """Bytes and mtime of a database and its WAL (absent: None)."""
    out = []
    for p in (db, db + "-wal", db + "-journal"):
        try:
            with open(p, "rb") as f:
                out.append((p, hashlib.sha256(f.read()).hexdigest(),
                            os.stat(p).st_mtime_ns))
        except FileNotFoundError:
            out.append((p, None, None))
    return out


def foreign(db, wal=False, appid=0, version=0, table=True):
    """Another program's database, its mtime set in the past so that any
    write would show."""
    for p in (db, db + "-wal", db + "-shm"):
        if os.path.exists(p):
            os.unlink(p)
    con = sqlite3.connect(db, isolation_level=None)
    if wal:
        con.execute("PRAGMA journal_mode=WAL")
        con.execute("PRAGMA wal_autocheckpoint=0")
    con.execute("PRAGMA application_id=%d" % appid)
    con.execute("PRAGMA user_version=%d" % version)
    if table:
        con.execute("CREATE TABLE mine (a)")
        con.execute("INSERT INTO mine VALUES (42)")
    if not wal:
        con.close()
    for p in (db, db + "-wal"):
        if os.path.exists(p):
            os.utime(p, ns=(10 ** 18, 10 ** 18))
    return con           # a WAL database stays open: its WAL stays full


def untouched(commands):
    """Every kind of foreign database stays byte for byte as it was."""
    kinds = [("rollback", {}), ("WAL", {"wal": True}),
             ("another application id", {"appid": 0x12345678}),
             ("only a user_version", {"version": 7, "table": False}),
             ("an unknown newer-looking version", {"version": 99})]
    for name in ("fsscan", "ingest", "snapshots"):
        for what, kw in kinds:
            db = path("foreign-%s.db" % name)
            con = foreign(db, **kw)
            before = state(db)
            rc, err = run(*commands[name](db))
            after = state(db)
            if con:
                con.close()
            eq(rc, 3, "%s into a foreign database (%s): exit 3"
               % (name, what))
            ok("not an iocensus database" in err, "%s, foreign (%s): says"
               " why" % (name, what), err)
            eq(after, before, "%s, foreign (%s): file, WAL and mtimes"
               " untouched" % (name, what))
            if kw.get("wal"):
                eq(sqlite3.connect(db).execute("PRAGMA journal_mode")
                   .fetchone()[0], "wal", "%s: the WAL database is still"
                   " in WAL mode" % name)
        db = path("foreign-%s.db" % name)
        foreign(db)
        run(*commands[name](db))
        with open(db, "rb") as f:
            eq(f.read(20)[18:20], b"\x01\x01", "%s: a rollback database's"
               " header still says rollback (bytes 18-19)" % name)
        eq(sqlite3.connect(db).execute("PRAGMA journal_mode").fetchone()[0],
           "delete", "%s: journal_mode still delete" % name)


def special_names(commands):
    """Names SQLite gives a meaning of their own."""
    cwd = os.getcwd()
    work = path("names")
    os.mkdir(work)
    os.chdir(work)
    try:
        for name in ("fsscan", "ingest", "snapshots"):
            for db in (":memory:", "file:x.db", "file:x.db?mode=memory",
                       "file::memory:?cache=shared"):
                rc, err = run(*commands[name](db))
                eq(rc, 3, "%s --db %s: exit 3" % (name, db))
                ok("snapshot complete" not in err and db in err,
                   "%s --db %s: refused, naming it" % (name, db), err)
            eq(os.listdir("."), [], "%s: no file made for those names"
               % name)
    finally:
        os.chdir(cwd)


def main():
    tree = path("tree")
    os.makedirs(os.path.join(tree, "d"))
    with open(os.path.join(tree, "d", "f"), "w") as f:
        f.write("data")
    log = path("empty.log")           # any path will do for the refusal
    open(log, "wb").close()

    commands = {
        "fsscan": lambda db: [FSSCAN, "--db", db, tree],
        "ingest": lambda db: [IOC, "ingest", "--db", db, log],
        "snapshots": lambda db: [IOC, "snapshots", "--db", db],
        "files": lambda db: [IOC, "files", "--db", db],
        "report": lambda db: [IOC, "report", "--db", db, "--out",
                              path("r.html")],
    }
    for content, what in ((b"x", "one byte"), (b"\n", "a newline"),
                          (b"notes: keep me\n", "a short text file"),
                          (bytes(range(256)) * 4, "1 KiB of binary")):
        for name, cmd in commands.items():
            db = path("f.db")
            with open(db, "wb") as f:
                f.write(content)
            rc, err = run(*cmd(db))
            eq(rc, 3, "%s in %s: exit 3" % (name, what))
            ok("not a usable database" in err and db in err,
               "%s in %s: says which file and why" % (name, what), err)
            eq(open(db, "rb").read(), content, "%s in %s: file untouched"
               % (name, what))
            ok(not os.path.exists(db + "-wal"), "%s in %s: no WAL left"
               % (name, what))
            os.unlink(db)

    for name in ("fsscan", "ingest"):
        db = path("foreign.db")
        con = sqlite3.connect(db)
        con.execute("CREATE TABLE mine (a)")
        con.execute("INSERT INTO mine VALUES (42)")
        con.commit()
        con.close()
        rc, err = run(*commands[name](db))
        eq(rc, 3, "%s into another program's SQLite database: exit 3" % name)
        ok("not an iocensus database" in err, "%s: says why" % name, err)
        eq(tables(db), ["mine"], "%s: no census tables added" % name)
        os.unlink(db)

    for name in ("snapshots", "files", "report"):
        db = path("zero.db")
        open(db, "wb").close()
        rc, err = run(*commands[name](db))
        eq(rc, 3, "%s on an empty file: exit 3" % name)
        ok("not an iocensus database" in err and "creates one" in err,
           "%s on an empty file: says how to make one" % name, err)
        eq(os.path.getsize(db), 0, "%s on an empty file: still empty" % name)
    untouched(commands)
    special_names(commands)

    db = path("zero.db")
    rc, err = run(FSSCAN, "--db", db, tree)
    eq(rc, 0, "fsscan into an empty file: exit 0 (%s)" % err.strip())
    rc, err = run(IOC, "snapshots", "--db", db)
    eq(rc, 0, "then snapshots reads it")
    done()


main()
