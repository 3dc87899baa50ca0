#!/usr/bin/env python3
"""Opening the census database never damages a file that is not one.

- a file that is neither empty nor starts with the SQLite header (SQLite
  takes some such files for an empty database and writes over them):
  fsscan, ingest and the analyses refuse it (exit 3) and leave it alone
- someone else's SQLite database: fsscan and ingest refuse to add the
  census tables to it
- an empty file: the analyses, which only read, refuse it and leave it
  empty; fsscan may make it a census database (touch, then scan)
"""
import os
import sqlite3
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from tap import ok, eq, done          # noqa: E402

BUILD = os.environ.get("BUILD", "build")
FSSCAN = os.path.join(BUILD, "fsscan")
IOC = os.path.join(BUILD, "iocensus")
TMP = tempfile.mkdtemp(prefix="t_db_open.")


def path(*p):
    return os.path.join(TMP, *p)


def run(*args):
    p = subprocess.run([str(a) for a in args], capture_output=True,
                       text=True, timeout=120)
    return p.returncode, p.stderr


def tables(db):
    con = sqlite3.connect(db)
    try:
        return sorted(r[0] for r in con.execute(
            "SELECT name FROM sqlite_master"))
    finally:
        con.close()


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
    db = path("zero.db")
    rc, err = run(FSSCAN, "--db", db, tree)
    eq(rc, 0, "fsscan into an empty file: exit 0 (%s)" % err.strip())
    rc, err = run(IOC, "snapshots", "--db", db)
    eq(rc, 0, "then snapshots reads it")
    done()


main()
