#!/usr/bin/env python3
"""t_prune: the lifecycle of snapshots, `iocensus forget` and `iocensus
prune`, end to end against the database read here with sqlite3.

forget, on real scans (fsscan with --limits, --dirs all, --top) plus rows
put in every other table that holds snapshot rows (scan errors, and a
table of a later schema that cascades from snapshot):
- the snapshots named go with every row of theirs: afterwards no row of
  any table (every one with a snapshot_id column, found in the schema
  here) holds their ids, every other row of every table is as it was,
  and the rows it says it removed are those counted here before;
- an unknown id or a running snapshot is refused (exit 2) and nothing
  is removed, not even the other ids named with it;
- one transaction: a removal that fails half way (a trigger aborts the
  second snapshot's cascade) leaves every row of the first in place
  (exit 3); a table with a snapshot_id column that does not cascade is
  named and nothing is removed;
- --force removes a running snapshot (a crashed scan's); a scan whose
  running snapshot is forced away while it walks exits 3, names
  why, and writes no row under that id.

prune, on a generated database of three years of nightly snapshots of
one file system (some failed, one interrupted after the last complete
one, one still running) and weekly ones of another, each with rows of
its own:
- what is kept, and why, is what an independent Python model of the
  rules (datetime's ISO calendar) keeps, per snapshot and per rule;
- --dry-run removes nothing; the run removes exactly the rest, with
  their rows, and the database file shrinks (VACUUM);
- --fs prunes one file system only; rules are required and checked;
  the prune commands of the README and docs/ run as written.
"""
import datetime
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "lib"))
from tap import ok, eq, done                     # noqa: E402
from pace import limit  # noqa: E402
import snapgen                                   # noqa: E402


BUILD = os.environ["BUILD"]
FSSCAN = os.path.join(BUILD, "fsscan")
IOCENSUS = os.path.join(BUILD, "iocensus")
DAY = 86400


def run(*args):
    p = subprocess.run([IOCENSUS] + list(args), capture_output=True,
                       text=True)
    return p.returncode, p.stdout, p.stderr


def tables(db):
    """{table: [columns]} of every table of the database."""
    c = sqlite3.connect(db)
    out = {}
    for (name,) in c.execute("SELECT name FROM sqlite_master WHERE "
                             "type = 'table' AND name NOT LIKE 'sqlite_%'"):
        out[name] = [r[1] for r in c.execute(
            "SELECT * FROM pragma_table_info(?)", (name,))]
    c.close()
    return out


def dump(db):
    """Every row of every table: {table: sorted [repr(row)]}, and the
    snapshot id of each row ({table: [(id, repr)]}) where it has one."""
    c = sqlite3.connect(db)
    rows, owned = {}, {}
    for t, cols in tables(db).items():
        key = cols.index("snapshot_id") if "snapshot_id" in cols else (
            cols.index("id") if t == "snapshot" else None)
        got = c.execute('SELECT * FROM "%s"' % t).fetchall()
        rows[t] = sorted(repr(r) for r in got)
        if key is not None:
            owned[t] = [(r[key], repr(r)) for r in got]
    c.close()
    return rows, owned


def without(rows, owned, ids):
    """rows less those owned by ids."""
    out = {t: list(v) for t, v in rows.items()}
    for t, pairs in owned.items():
        gone = sorted(r for i, r in pairs if i in ids)
        for r in gone:
            out[t].remove(r)
    return out


def holding(db, ids):
    """The tables with a row of one of ids: none after a forget."""
    _, owned = dump(db)
    return sorted(t for t, pairs in owned.items()
                  if any(i in ids for i, _ in pairs))


# ---- forget ----------------------------------------------------------------

def scans(tmp):
    root = os.path.join(tmp, "tree")
    for p in ("alpha/a/b", "beta/c"):
        os.makedirs(os.path.join(root, p))
    for i, p in enumerate(("alpha/a/f1", "alpha/a/b/f2", "beta/c/f3",
                           "beta/f4")):
        with open(os.path.join(root, p), "wb") as f:
            f.write(b"x" * (1000 * (i + 1)))
        # a year before the scans: cold at every threshold (project_cold)
        os.utime(os.path.join(root, p), (1735689600, 1735689600))
    limits = os.path.join(tmp, "limits.csv")
    with open(limits, "w") as f:
        f.write("alpha,10TiB,1000000\nbeta,1TiB,\n")
    db = os.path.join(tmp, "forget.db")
    for date in ("2026-01-01", "2026-01-02", "2026-01-03", "2026-01-04"):
        subprocess.run([FSSCAN, "--db", db, "--as-of", date, "--quiet",
                        "--limits", limits, "--dirs", "all", "--top", "5",
                        root], check=True, capture_output=True)
    c = sqlite3.connect(db)
    # A scan's errors (root reads everything here) and a table a later
    # schema may add, cascading from snapshot as every such table must.
    c.execute("INSERT INTO scan_error VALUES (2, 13, 'Permission denied', 2)")
    c.executemany("INSERT INTO scan_error_path VALUES (2, 13, ?, ?)",
                  [(0, "alpha/x"), (1, "beta/y")])
    c.execute("CREATE TABLE later_rows (snapshot_id INTEGER NOT NULL "
              "REFERENCES snapshot(id) ON DELETE CASCADE, v INTEGER)")
    c.executemany("INSERT INTO later_rows VALUES (?, ?)",
                  [(i, i * 10) for i in (1, 2, 3, 4)])
    c.execute("INSERT INTO snapshot (fs, root, started_at, now_ref, status)"
              " VALUES ('tree', ?, 1767571200, 1767571200, 'running')",
              (root,))
    c.commit()
    c.close()
    return db


def check_schema(db):
    """Every table with a snapshot_id column cascades from snapshot: what
    forget relies on, read from the schema here."""
    c = sqlite3.connect(db)
    bad = []
    for t, cols in tables(db).items():
        if "snapshot_id" not in cols:
            continue
        fks = c.execute("SELECT \"table\", \"from\", on_delete FROM "
                        "pragma_foreign_key_list(?)", (t,)).fetchall()
        if ("snapshot", "snapshot_id", "CASCADE") not in fks:
            bad.append(t)
    c.close()
    eq(bad, [], "every table with snapshot rows cascades from snapshot")


def check_forget(tmp):
    db = scans(tmp)
    check_schema(db)
    owners = [t for t, cols in tables(db).items() if "snapshot_id" in cols]
    rows0, owned0 = dump(db)
    empty = sorted(t for t in owners if not rows0[t])
    eq(empty, [], "every table with snapshot rows has some before")

    for args, want, what in (
            (["999"], "no snapshot 999", "an unknown id"),
            (["1", "999"], "no snapshot 999", "an unknown id among known"),
            (["5"], "snapshot 5 is running", "a running snapshot"),
            (["x"], "x: expected a snapshot id", "not an id"),
            ([], "expected snapshot ids", "no id")):
        rc, out, err = run("forget", "--db", db, *args)
        ok(rc == 2 and want in err, "forget %s: refused, exit 2" % what,
           "%d %r" % (rc, err))
        eq(dump(db)[0], rows0, "forget %s: nothing removed" % what)

    rc, out, err = run("forget", "--db", db, "--format", "json", "3", "2",
                       "3")
    eq(rc, 0, "forget 2 3: exit 0", err)
    removed = {r["id"]: r for r in json.loads(out)["tables"]["removed"]
               ["rows"]} if rc == 0 else {}
    eq(sorted(removed), [2, 3], "it lists what it removed, each once")
    want_rows = {i: sum(1 for t in owned0 for j, _ in owned0[t] if j == i)
                 for i in (2, 3)}
    eq({i: r["rows"] for i, r in removed.items()}, want_rows,
       "the rows it says it removed are the snapshots' rows of every table")
    eq(holding(db, {2, 3}), [], "no row of any table holds 2 or 3")
    eq(dump(db)[0], without(rows0, owned0, {2, 3}),
       "every other row of every table is as it was")
    rc, out, err = run("snapshots", "--db", db, "--format", "json")
    eq(sorted(r["id"] for r in json.loads(out)["tables"]["snapshots"]
              ["rows"]) if rc == 0 else err, [1, 4, 5],
       "iocensus snapshots lists the others")

    # One transaction: the second snapshot's cascade fails, the first's
    # rows stay.
    rows1, owned1 = dump(db)
    c = sqlite3.connect(db)
    c.execute("CREATE TRIGGER no_hist BEFORE DELETE ON hist WHEN "
              "old.snapshot_id = 4 BEGIN SELECT RAISE(ABORT, 'held'); END")
    c.commit()
    c.close()
    rows1, owned1 = dump(db)
    rc, out, err = run("forget", "--db", db, "1", "4")
    ok(rc == 3 and "held" in err, "a removal failing half way: exit 3, "
       "SQLite's reason", "%d %r" % (rc, err))
    eq(dump(db)[0], rows1, "... and every row of both is still there")
    c = sqlite3.connect(db)
    c.execute("DROP TRIGGER no_hist")
    c.execute("CREATE TABLE loose_rows (snapshot_id INTEGER, v INTEGER)")
    c.execute("INSERT INTO loose_rows VALUES (1, 1)")
    c.commit()
    c.close()
    rows2, _ = dump(db)
    rc, out, err = run("forget", "--db", db, "1")
    ok(rc == 3 and "loose_rows" in err, "a table whose snapshot_id does "
       "not cascade is named", "%d %r" % (rc, err))
    eq(dump(db)[0], rows2, "... and nothing is removed")
    c = sqlite3.connect(db)
    c.execute("DROP TABLE loose_rows")
    c.commit()
    c.close()
    ok("--force removes it" in run("forget", "--db", db, "5")[2],
       "the refusal of a running snapshot names --force")
    rc, out, err = run("forget", "--db", db, "--force", "5")
    eq(rc, 0, "forget --force 5: a crashed scan's running snapshot goes",
       err)
    eq(holding(db, {5}), [], "... with every row of it")
    check_forced_away(tmp, db)


def check_forced_away(tmp, db):
    """A scan slowed by --max-rate loses its running row to forget --force
    while it walks: it must not record its rows under the removed id."""
    root = os.path.join(tmp, "slow")
    os.makedirs(root)
    for i in range(40):
        open(os.path.join(root, "f%d" % i), "w").close()
    p = subprocess.Popen([FSSCAN, "--db", db, "--quiet", "--max-rate", "10",
                          root], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    sid = None
    for _ in range(200):
        c = sqlite3.connect(db)
        r = c.execute("SELECT id FROM snapshot WHERE status = 'running' "
                      "AND root = ?", (root,)).fetchone()
        c.close()
        if r:
            sid = r[0]
            break
        p.poll()
        if p.returncode is not None:
            break
        time.sleep(0.05)
    rc, out, err = run("forget", "--db", db, "--force", str(sid)) \
        if sid else (-1, "", "no running snapshot appeared")
    eq(rc, 0, "forget --force while the scan walks", err)
    out, err = p.communicate(timeout=limit(120))
    ok(p.returncode == 3 and "was removed while the scan ran" in err,
       "the scan exits 3 (fatal) and says its snapshot was removed",
       "%r %r" % (p.returncode, err))
    eq(holding(db, {sid}) if sid else ["no id"], [],
       "... and no row of any table holds its id")


# ---- prune -----------------------------------------------------------------

START = datetime.datetime(2023, 3, 1, 2, 15, tzinfo=datetime.timezone.utc)


def epoch(dt):
    return int(dt.timestamp())


def generate(tmp):
    """Three years of nightly scans of "proj" (every 37th night a failed
    one at 03:00 beside it, one interrupted after the last, one old scan
    still marked running) and weekly ones of "scratch"; each with 40 dir
    rows and a project row. Returns the path and the snapshots as
    (id, fs, started_at, status)."""
    db = snapgen.new_db(tmp, BUILD)
    plan = []
    for d in range(3 * 365 + 1):
        t = START + datetime.timedelta(days=d)
        plan.append(("proj", epoch(t), "complete"))
        if d % 37 == 5:
            plan.append(("proj", epoch(t) + 2700, "failed"))
        if d % 7 == 3:
            plan.append(("scratch", epoch(t) + 3600, "complete"))
    plan.append(("proj", plan[-1][1] + 3 * 3600, "interrupted"))
    plan.append(("proj", epoch(START) + 100 * DAY + 7200, "running"))
    c = sqlite3.connect(db)
    snaps = []
    for fs, t, status in plan:
        cur = c.execute(
            "INSERT INTO snapshot (fs, root, started_at, finished_at, "
            "now_ref, status, files, bytes, alloc_bytes) VALUES "
            "(?, ?, ?, ?, ?, ?, 10, 100, 4096)",
            (fs, "/" + fs, t, None if status == "running" else t + 600, t,
             status))
        sid = cur.lastrowid
        c.execute("INSERT INTO project (snapshot_id, name, source, files, "
                  "dirs, bytes, alloc_bytes, id) VALUES (?, 'p', 'depth:1', "
                  "10, 1, 100, 4096, 1)", (sid,))
        c.execute("WITH RECURSIVE k(x) AS (SELECT 1 UNION ALL SELECT x + 1 "
                  "FROM k WHERE x < 40) INSERT INTO dir (snapshot_id, "
                  "parent, name, depth, files, dirs, bytes, alloc_bytes) "
                  "SELECT ?, NULL, 'directory-' || x, 1, x, 0, x * 1000, "
                  "x * 4096 FROM k", (sid,))
        snaps.append((sid, fs, t, status))
    c.commit()
    c.close()
    return db, snaps


def oracle(snaps, keep):
    """{id: set of reasons} of the snapshots kept: restic's rules, per
    file system, over Python's calendar."""
    def period(rule, t):
        d = datetime.datetime.fromtimestamp(t, datetime.timezone.utc)
        return {"daily": d.date(), "weekly": d.isocalendar()[:2],
                "monthly": (d.year, d.month),
                "quarterly": (d.year, (d.month - 1) // 3)}[rule]

    kept = {}
    for fs in sorted({s[1] for s in snaps}):
        mine = sorted((s for s in snaps if s[1] == fs),
                      key=lambda s: (s[2], s[0]), reverse=True)
        complete = [s for s in mine if s[3] == "complete"]
        newest = complete[0] if complete else None
        for s in mine:
            if s[3] == "running":
                kept[s[0]] = {"running"}
            elif s[3] != "complete" and (newest is None or
                                         (s[2], s[0]) > (newest[2], newest[0])):
                kept[s[0]] = {"later"}
        if newest:
            kept[newest[0]] = {"newest"}
        for rule, n in keep.items():
            seen = []
            for s in complete:
                p = period(rule, s[2])
                if len(seen) < n and p not in seen:
                    seen.append(p)
                    kept.setdefault(s[0], set()).add(rule)
    return kept


def prune_json(db, *args):
    rc, out, err = run("prune", "--db", db, "--format", "json", *args)
    try:
        return rc, json.loads(out), err
    except ValueError:
        return rc, None, err


def reasons_of(row):
    """The rules a row of the snapshots table names."""
    why = row["why"]
    got = set()
    for rule in ("daily", "weekly", "monthly", "quarterly"):
        if rule + " " in why:
            got.add(rule)
    if why.startswith("newest complete"):
        got.add("newest")
    if why.startswith("running"):
        got.add("running")
    if why.startswith("no complete snapshot is newer"):
        got.add("later")
    return got


def check_decisions(res, snaps, keep, name, dry):
    want = oracle(snaps, keep)
    rows = res["tables"]["snapshots"]["rows"]
    kept_word, gone_word = ("keep", "remove") if dry else ("kept", "removed")
    eq(sorted(r["id"] for r in rows), sorted(s[0] for s in snaps),
       name + ": a row for every snapshot")
    got = {r["id"]: reasons_of(r) for r in rows if r["action"] == kept_word}
    eq(got, want, name + ": kept, and why, as the model keeps them")
    eq(sorted(r["id"] for r in rows if r["action"] == gone_word),
       sorted(s[0] for s in snaps if s[0] not in want),
       name + ": the rest goes")
    per_rule = {}
    for fs in sorted({s[1] for s in snaps}):
        per_rule[fs] = {rule: sum(1 for s in snaps if s[1] == fs and
                                  rule in want.get(s[0], ()))
                        for rule in keep}
    got_rule = {r["fs"]: {rule: r[rule] for rule in keep}
                for r in res["tables"]["summary"]["rows"]}
    eq(got_rule, per_rule, name + ": the counts kept by each rule")
    return want


def check_prune(tmp):
    db, snaps = generate(tmp)
    keep = {"daily": 14, "weekly": 8, "monthly": 24, "quarterly": 12}
    args = ["--keep-daily", "14", "--keep-weekly", "8", "--keep-monthly",
            "24", "--keep-quarterly", "12"]

    for bad, want in ((["--dry-run"], "--keep-daily N"),
                      (["--keep-daily", "-1"], "--keep-daily -1: expected"),
                      (["--keep-weekly", "1000001"], "--keep-weekly "
                       "1000001: expected a whole number from 0 to 1000000"),
                      (["--keep-daily", "1", "--fs", "nosuch"],
                       "--fs nosuch: no snapshot")):
        rc, out, err = run("prune", "--db", db, *bad)
        ok(rc == 2 and want in err, "prune %s: usage error" % " ".join(bad),
           "%d %r" % (rc, err))

    size0 = os.path.getsize(db)
    rows0, owned0 = dump(db)
    rc, res, err = prune_json(db, "--dry-run", *args)
    ok(rc == 0 and res, "prune --dry-run", err)
    if res:
        check_decisions(res, snaps, keep, "dry run", True)
    eq(dump(db)[0], rows0, "--dry-run removes nothing")

    rc, res, err = prune_json(db, "--fs", "scratch", "--keep-monthly", "6")
    ok(rc == 0 and res, "prune --fs scratch", err)
    scratch = [s for s in snaps if s[1] == "scratch"]
    if res:
        want = check_decisions(res, scratch, {"monthly": 6}, "--fs scratch",
                               False)
        gone = {s[0] for s in scratch if s[0] not in want}
        eq(dump(db)[0], without(rows0, owned0, gone),
           "--fs scratch: its snapshots go with their rows, nothing else")
        snaps = [s for s in snaps if s[0] not in gone]
    rows1, owned1 = dump(db)

    rc, res, err = prune_json(db, *args)
    ok(rc == 0 and res, "prune " + " ".join(args), err)
    if not res:
        return
    want = check_decisions(res, snaps, keep, "prune", False)
    gone = {s[0] for s in snaps if s[0] not in want}
    eq(holding(db, gone), [], "no row of any table holds a removed "
       "snapshot's id")
    eq(dump(db)[0], without(rows1, owned1, gone),
       "every kept snapshot's rows are as they were")
    notes = " ".join(res["notes"])
    ok("Compacted the database" in notes, "it compacts", notes)
    size1 = os.path.getsize(db)
    ok(size1 * 4 < size0, "the file shrinks to less than a quarter "
       "(%d to %d bytes)" % (size0, size1))
    ok(not os.path.exists(db + "-wal") or os.path.getsize(db + "-wal") == 0,
       "and its WAL is emptied")
    print("# %d snapshots kept of %d; %d to %d bytes"
          % (len(want), len(snaps), size0, size1))
    rc, res2, err = prune_json(db, *args)
    ok(rc == 0 and res2 and all(r["action"] == "kept" for r in
                                res2["tables"]["snapshots"]["rows"]),
       "a second prune keeps everything", err)


def check_readme(tmp):
    """The prune commands of README.md and docs/*.md run as written
    (--out into tmp)."""
    top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    docs = ["README.md"] + sorted(
        os.path.join("docs", n) for n in os.listdir(os.path.join(top, "docs"))
        if n.endswith(".md"))
    lines = [l.split("#")[0].split() for d in docs for l in
             open(os.path.join(top, d)).read().splitlines()
             if l.startswith("iocensus prune ")]
    ok(len(lines) >= 2, "the docs show prune commands", lines)
    where = os.path.join(tmp, "readme")
    os.makedirs(where)
    db, _ = generate(where)
    for words in lines:
        if "--out" in words:
            words[words.index("--out") + 1] = os.path.join(tmp, "prune.txt")
        rc, out, err = run(*(words[1:] + ["--db", db]))
        eq(rc, 0, "docs: %s" % " ".join(words), err)


def main():
    with tempfile.TemporaryDirectory(prefix="t_prune.") as tmp:
        check_forget(tmp)
        check_prune(tmp)
        check_readme(tmp)


main()
done()
