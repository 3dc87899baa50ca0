#!/usr/bin/env python3
"""t_conf: the configuration file (docs/iocensus.conf.5), end to end.

- Precedence, for the database: --db wins over $IOCENSUS_DB, which wins
  over the file's db, which wins over ./iocensus.db; checked by where
  fsscan writes and by what `iocensus config` says of each (table, CSV
  and JSON).
- `fsscan --fs NAME` without ROOT scans the configured file system: the
  snapshot's recorded name and root, its --dirs (dir_scope), --cold
  thresholds (cold rows), limits (project_limit) and project rules in
  their order (project.source), against a Python oracle of the tree;
  options on the command line win, and --project replaces the file's
  list. `fsscan ROOT` of a configured root takes its name.
- `iocensus capacity` run from another directory finds the database
  with only the file; `--fs ROOT` (without its trailing slash) means the
  name recorded with it; an unknown --fs lists "name (root)".
- ingest without PATH reads logs, metrics without --out writes metrics,
  prune without rules takes [prune] (rules given replace them).
- Bad lines exit 2 naming file and line; a missing $IOCENSUS_CONF is an
  error; a world-writable or other-owned file, and a link planted by
  nobody, are refused (exit 2) and nothing is written.
"""
import csv
import io
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from tap import ok, eq, skip, done               # noqa: E402

BUILD = os.path.abspath(os.environ["BUILD"])
FSSCAN = os.path.join(BUILD, "fsscan")
IOCENSUS = os.path.join(BUILD, "iocensus")
NOBODY = 65534


def run(argv, conf=None, env_db=None, cwd=None):
    env = {k: v for k, v in os.environ.items()
           if k not in ("IOCENSUS_DB", "IOCENSUS_CONF")}
    if conf:
        env["IOCENSUS_CONF"] = conf
    if env_db:
        env["IOCENSUS_DB"] = env_db
    p = subprocess.run(argv, capture_output=True, text=True, env=env,
                       cwd=cwd)
    return p.returncode, p.stdout, p.stderr


def nocomment(text):
    """CSV lines without the "# TABLE" line before them."""
    return [line for line in io.StringIO(text) if not line.startswith("#")]


def write(path, text, mode=0o644):
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, mode)


def make_tree(root):
    """a/b/f1 (3 bytes), a/g (5), c/h (7)."""
    for d in ("a/b", "c"):
        os.makedirs(os.path.join(root, d))
    for p, n in (("a/b/f1", 3), ("a/g", 5), ("c/h", 7)):
        write(os.path.join(root, p), "x" * n)


def oracle_projects(root, rules):
    """Each file's project and rule: the first depth:N rule whose
    directory exists above the file (depth:N names the directory N levels
    below ROOT)."""
    got = {}
    for dirpath, _dirs, files in os.walk(root):
        rel = os.path.relpath(dirpath, root)
        parts = [] if rel == "." else rel.split(os.sep)
        for _f in files:
            for r in rules:
                n = int(r.split(":")[1])
                if len(parts) >= n:
                    got["/".join(parts[:n])] = r
                    break
    return got


def config_rows(conf, extra=(), env_db=None, fmt="json"):
    rc, out, err = run([IOCENSUS, "config", "--format", fmt] + list(extra),
                       conf=conf, env_db=env_db)
    if rc != 0:
        return rc, {}, err
    if fmt == "json":
        rows = json.loads(out)["tables"]["config"]["rows"]
    elif fmt == "csv":
        rows = list(csv.DictReader(l for l in io.StringIO(out)
                                   if not l.startswith("#")))
    else:
        rows = []
        for line in out.splitlines():
            f = line.split()
            if len(f) == 3 and f[0] not in ("Key",) and not f[0].startswith("-"):
                rows.append({"key": f[0], "value": f[1], "source": f[2]})
    return rc, {(r["key"]): (r["value"], r["source"]) for r in rows
                if r["key"] != "fs.t.project"}, err


def precedence(tmp, tree):
    conf = os.path.join(tmp, "prec.conf")
    fdb = os.path.join(tmp, "file", "census.db")
    write(conf, "# only the database\n\ndb = %s\n" % fdb)
    bare = os.path.join(tmp, "bare.conf")
    write(bare, "# nothing\n")
    edb, odb = os.path.join(tmp, "env.db"), os.path.join(tmp, "opt.db")
    for fmt in ("json", "csv", "table"):
        _, rows, err = config_rows(bare, fmt=fmt)
        eq(rows.get("db"), ("iocensus.db", "default"),
           "config %s: db by default" % fmt, err)
        _, rows, err = config_rows(conf, fmt=fmt)
        eq(rows.get("db"), (fdb, "file:3"), "config %s: db of the file, line 3"
           % fmt, err)
        eq(rows.get("conf"), (conf, "environment"),
           "config %s: the file named by $IOCENSUS_CONF" % fmt)
        _, rows, _ = config_rows(conf, env_db=edb, fmt=fmt)
        eq(rows.get("db"), (edb, "environment"),
           "config %s: $IOCENSUS_DB over the file" % fmt)
        _, rows, _ = config_rows(conf, ["--db", odb], env_db=edb, fmt=fmt)
        eq(rows.get("db"), (odb, "option"), "config %s: --db over all" % fmt)
    # What fsscan does: where each scan is written.
    cwd = os.path.join(tmp, "cwd")
    os.mkdir(cwd)
    rc, _, err = run([FSSCAN, "--quiet", tree], conf=bare, cwd=cwd)
    ok(rc == 0 and os.path.exists(os.path.join(cwd, "iocensus.db")),
       "fsscan: ./iocensus.db by default", err)
    rc, _, err = run([FSSCAN, "--quiet", tree], conf=conf, cwd=cwd)
    ok(rc == 0 and os.path.exists(fdb), "fsscan: the file's db", err)
    rc, _, err = run([FSSCAN, "--quiet", tree], conf=conf, env_db=edb,
                     cwd=cwd)
    ok(rc == 0 and os.path.exists(edb), "fsscan: $IOCENSUS_DB over the file",
       err)
    rc, _, err = run([FSSCAN, "--quiet", "--db", odb, tree], conf=conf,
                     env_db=edb, cwd=cwd)
    ok(rc == 0 and os.path.exists(odb), "fsscan: --db over both", err)
    counts = [sqlite3.connect(p).execute("SELECT count(*) FROM snapshot")
              .fetchone()[0] for p in (fdb, edb, odb)]
    eq(counts, [1, 1, 1], "one snapshot in each database")
    # capacity from another directory, with only the file
    other = os.path.join(tmp, "elsewhere")
    os.mkdir(other)
    rc, out, err = run([IOCENSUS, "capacity", "--format", "csv"], conf=conf,
                       cwd=other)
    ok(rc == 0 and tree in out, "capacity from another directory: the"
       " configured database", err)
    rc, _, err = run([IOCENSUS, "capacity"], conf=bare, cwd=other)
    ok(rc == 3 and "iocensus.db" in err, "and without it: ./iocensus.db,"
       " missing (exit 3)", err)


def fs_settings(tmp, tree):
    db = os.path.join(tmp, "fs.db")
    limits = os.path.join(tmp, "t.limits")
    write(limits, "a,1000,10\n")
    conf = os.path.join(tmp, "fs.conf")
    write(conf, "db = %s\n[fs t]\nroot = %s/\nproject = depth:2\n"
          "project = depth:1   # then the top level\nlimits = %s\n"
          "cold = 7,30\ndirs = 1\nmax-rate = 100000\n" % (db, tree, limits))
    rc, _, err = run([FSSCAN, "--quiet", "--fs", "t"], conf=conf)
    ok(rc == 0, "fsscan --fs t without ROOT", err)
    c = sqlite3.connect(db)
    sid, fs, root = c.execute("SELECT id, fs, root FROM snapshot"
                              " ORDER BY id DESC").fetchone()
    eq((fs, root), ("t", tree + "/"), "recorded name and root of [fs t]")
    eq(c.execute("SELECT max_depth FROM dir_scope WHERE snapshot_id = ?",
                 (sid,)).fetchone()[0], 1, "dirs = 1")
    eq(sorted({r[0] for r in c.execute("SELECT days FROM cold WHERE"
                                       " snapshot_id = ?", (sid,))}),
       [7, 30], "cold = 7,30")
    eq(c.execute("SELECT project, bytes, inodes, source FROM project_limit"
                 " WHERE snapshot_id = ?", (sid,)).fetchall(),
       [("a", 1000, 10, "file")], "limits = FILE")
    got = {r[0]: r[1] for r in c.execute(
        "SELECT name, source FROM project WHERE snapshot_id = ? AND"
        " files > 0", (sid,))}
    eq(got, oracle_projects(tree, ["depth:2", "depth:1"]),
       "project rules of the file, in order")
    # The command line wins; --project replaces the file's list.
    rc, _, err = run([FSSCAN, "--quiet", "--fs", "t", "--dirs", "2",
                      "--project", "depth:1"], conf=conf)
    sid = c.execute("SELECT max(id) FROM snapshot").fetchone()[0]
    ok(rc == 0, "fsscan --fs t --dirs 2 --project depth:1", err)
    eq(c.execute("SELECT max_depth FROM dir_scope WHERE snapshot_id = ?",
                 (sid,)).fetchone()[0], 2, "--dirs 2 over dirs = 1")
    got = {r[0]: r[1] for r in c.execute(
        "SELECT name, source FROM project WHERE snapshot_id = ? AND"
        " files > 0", (sid,))}
    eq(got, oracle_projects(tree, ["depth:1"]), "--project replaces the"
       " file's rules")
    # ROOT of a configured file system: its name.
    rc, _, err = run([FSSCAN, "--quiet", tree], conf=conf)
    eq(c.execute("SELECT fs FROM snapshot ORDER BY id DESC").fetchone()[0],
       "t", "fsscan ROOT: the configured name of that root", err)
    rc, _, err = run([FSSCAN, "--quiet", "--fs", "nosuch"], conf=conf)
    ok(rc == 2 and "t (%s/)" % tree in err, "--fs nosuch without ROOT:"
       " exit 2 listing name (root)", err)
    # --fs ROOT in iocensus
    rc, out, err = run([IOCENSUS, "capacity", "--fs", tree, "--format",
                        "csv", "--table", "filesystems"], conf=conf)
    rows = list(csv.DictReader(nocomment(out))) if rc == 0 else []
    eq([r.get("fs") for r in rows], ["t"], "capacity --fs ROOT: the file"
       " system recorded at that root", err)
    rc, out, err = run([IOCENSUS, "usage", "--fs", "/nonexistent/x"],
                       conf=conf)
    ok(rc == 2 and "file systems: t (%s)" % tree in err, "an unknown --fs:"
       " exit 2,"
       " names listed with their roots", err)
    # iocensus config lists the file system's keys with their lines
    _, rows, _ = config_rows(conf)
    eq(rows.get("fs.t.dirs"), ("1", "file:8"), "config: fs.t.dirs, line 8")
    eq(rows.get("fs.t.root"), (tree + "/", "file:3"), "config: fs.t.root")
    c.close()
    return conf, db


def commands(tmp, tree):
    db = os.path.join(tmp, "cmd.db")
    logs = os.path.join(tmp, "logs")
    os.mkdir(logs)
    write(os.path.join(logs, "x.log"), "not a log\n")
    prom = os.path.join(tmp, "m.prom")
    conf = os.path.join(tmp, "cmd.conf")
    write(conf, "db = %s\nlogs = %s\nmetrics = %s\n[prune]\nkeep-daily = 1\n"
          % (db, logs, prom))
    for _ in range(2):
        run([FSSCAN, "--quiet", tree], conf=conf)
    rc, out, err = run([IOCENSUS, "ingest", "--format", "json"], conf=conf)
    tot = json.loads(out)["tables"]["totals"]["rows"][0] if out else {}
    eq(tot.get("skipped"), 1, "ingest without PATH reads logs (its one"
       " file skipped)", err)
    rc, out, err = run([IOCENSUS, "metrics"], conf=conf)
    ok(rc == 0 and out == "" and os.path.exists(prom) and
       "iocensus_" in open(prom).read(), "metrics without --out: the"
       " metrics file", err)
    rc, out, err = run([IOCENSUS, "metrics", "--out", "-"], conf=conf)
    ok(rc == 0 and "iocensus_" in out, "metrics --out -: standard output",
       err)
    rc, out, err = run([IOCENSUS, "prune", "--dry-run", "--format", "csv",
                        "--table", "snapshots"], conf=conf)
    acts = [r["action"] for r in csv.DictReader(nocomment(out))]
    eq(sorted(acts), ["keep", "remove"], "prune: keep-daily = 1 of the"
       " file keeps one of two snapshots of a day", err)
    rc, out, err = run([IOCENSUS, "prune", "--dry-run", "--keep-weekly",
                        "2", "--format", "csv", "--table", "snapshots"],
                       conf=conf)
    acts = [r["action"] for r in csv.DictReader(nocomment(out))]
    eq(sorted(acts), ["keep", "remove"], "prune --keep-weekly 2: the rule"
       " given replaces the file's", err)


def bad_files(tmp, tree):
    cases = [
        ("db = /a\n[prune]\nkeep-dayly = 1\n", ":3: unknown key"
         " 'keep-dayly' in [prune]; did you mean 'keep-daily'?", FSSCAN),
        ("[fs t]\nroot = %s\ncold = 30,7\n" % tree, ":3: --cold '30,7'",
         FSSCAN),
        ("[prune]\nkeep-daily = x\n", ":2: --keep-daily x", IOCENSUS),
        ("[fs t]\nroot = %s\ndirs = -1\n" % tree, ":3: --dirs '-1'", FSSCAN),
    ]
    for i, (text, want, prog) in enumerate(cases):
        conf = os.path.join(tmp, "bad%d.conf" % i)
        write(conf, text)
        argv = [prog, "--quiet", tree] if prog == FSSCAN else \
            [prog, "prune", "--db", os.path.join(tmp, "x.db")]
        rc, _, err = run(argv, conf=conf)
        ok(rc == 2 and conf + want in err, "bad file %d: exit 2, %s" %
           (i + 1, want), err)
    rc, _, err = run([IOCENSUS, "config"], conf=os.path.join(tmp, "none"))
    ok(rc == 2 and "No such file" in err, "a missing $IOCENSUS_CONF: exit 2",
       err)


def refused(tmp, tree):
    db = os.path.join(tmp, "refused.db")
    conf = os.path.join(tmp, "ww.conf")
    write(conf, "db = %s\n" % db, 0o666)
    rc, _, err = run([FSSCAN, "--quiet", tree], conf=conf)
    ok(rc == 2 and "writable by every user" in err and not
       os.path.exists(db), "a world-writable file: refused, nothing"
       " written", err)
    if os.geteuid() != 0:
        skip("other-owned and planted files", "needs to chown", "root")
        return
    os.chmod(conf, 0o644)
    os.chown(conf, NOBODY, NOBODY)
    rc, _, err = run([IOCENSUS, "config"], conf=conf)
    ok(rc == 2 and "owned by uid %d" % NOBODY in err, "a file nobody"
       " owns: refused", err)
    # nobody's directory, and a link nobody planted in it to root's file
    good = os.path.join(tmp, "good.conf")
    write(good, "db = %s\n" % db)
    nd = os.path.join(tmp, "nobody")
    os.mkdir(nd, 0o755)
    os.chown(nd, NOBODY, NOBODY)
    os.symlink(good, os.path.join(nd, "iocensus.conf"))
    os.lchown(os.path.join(nd, "iocensus.conf"), NOBODY, NOBODY)
    rc, _, err = run([FSSCAN, "--quiet", tree],
                     conf=os.path.join(nd, "iocensus.conf"))
    ok(rc == 2 and "symbolic link" in err and not os.path.exists(db),
       "a link nobody planted at the file: refused", err)
    os.symlink(tmp, os.path.join(nd, "etc"))
    os.lchown(os.path.join(nd, "etc"), NOBODY, NOBODY)
    rc, _, err = run([FSSCAN, "--quiet", tree],
                     conf=os.path.join(nd, "etc", "good.conf"))
    ok(rc == 2 and "link" in err and not os.path.exists(db),
       "a directory link nobody planted: not followed", err)
    write(os.path.join(tmp, "in-nobodys.conf"), "db = %s\n" % db)
    shutil.move(os.path.join(tmp, "in-nobodys.conf"), nd)
    rc, _, err = run([FSSCAN, "--quiet", tree],
                     conf=os.path.join(nd, "in-nobodys.conf"))
    ok(rc == 2 and "refused: %s is owned by uid %d" % (nd, NOBODY) in err
       and not os.path.exists(db), "root's file in nobody's directory:"
       " refused", err)


TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def man_examples(tmp, tree):
    """The man page's example file and commands, run with its paths
    moved into tmp; the shipped example file read as it is."""
    man = open(os.path.join(TOP, "docs", "iocensus.conf.5")).read()
    ex = man.split(".Sh EXAMPLES", 1)[1].split(".Sh ", 1)[0]
    blocks = re.findall(r"^\.Bd -literal[^\n]*\n(.*?)^\.Ed", ex, re.M | re.S)
    if not ok(len(blocks) == 2, "iocensus.conf.5: a file and commands"):
        return
    moved = {"/var/lib/iocensus": os.path.join(tmp, "man"),
             "/var/log/iostatmon": os.path.join(tmp, "man-logs"),
             "/var/lib/prometheus/node-exporter": tmp,
             "/etc/iocensus/proj.limits": os.path.join(tmp, "t.limits"),
             "/proj": tree}
    text = blocks[0]
    for a, b in moved.items():
        text = text.replace(a, b)
    conf = os.path.join(tmp, "man.conf")
    write(conf, text)
    for line in blocks[1].splitlines():
        argv = line.split()
        argv = [moved.get(w, w) for w in argv]
        argv[0] = FSSCAN if argv[0] == "fsscan" else IOCENSUS
        rc, out, err = run(argv + (["--quiet"] if "fsscan" in line else []),
                           conf=conf, cwd=tmp)
        ok(rc == 0, "iocensus.conf.5: `%s` runs" % line, err)
    c = sqlite3.connect(os.path.join(tmp, "man", "census.db"))
    eq(sorted({r[0] for r in c.execute("SELECT fs FROM snapshot")}),
       ["proj"], "iocensus.conf.5: both scans recorded as proj")
    c.close()
    for key in ("db", "logs", "metrics", "keep-daily", "keep-weekly",
                "keep-monthly", "keep-quarterly", "root", "project",
                "limits", "cold", "dirs", "max-rate"):
        ok(".It Cm %s No" % key in man, "iocensus.conf.5 describes %s" % key)
        ok(re.search(r"^#?%s = " % key, open(os.path.join(
            TOP, "scripts", "iocensus.conf")).read(), re.M),
           "scripts/iocensus.conf shows %s" % key)
    # Set as shipped: the database and logs the jobs use, the metrics'
    # cap, and the retention the prune jobs apply; the rest commented.
    shipped_set = {"db": "/var/lib/iocensus/census.db",
                   "logs": "/var/log/iostatmon", "metrics-top": "1000",
                   "prune.keep-daily": "14", "prune.keep-weekly": "8",
                   "prune.keep-monthly": "24", "prune.keep-quarterly": "12"}
    shipped = os.path.join(tmp, "shipped.conf")
    shutil.copy(os.path.join(TOP, "scripts", "iocensus.conf"), shipped)
    os.chmod(shipped, 0o644)
    _, rows, err = config_rows(shipped)
    eq({k: v for k, (v, src) in rows.items() if src.startswith("file:")},
       shipped_set, "scripts/iocensus.conf: db, logs, metrics-top and"
       " [prune] set",
       err)
    ok(rows and all(src in ("default", "environment") for k, (_v, src) in
                    rows.items() if k not in shipped_set),
       "... every other value its default", err)


def main():
    tmp = tempfile.mkdtemp(prefix="t_conf.")
    try:
        tree = os.path.join(tmp, "tree")
        make_tree(tree)
        precedence(tmp, tree)
        fs_settings(tmp, tree)
        commands(tmp, tree)
        bad_files(tmp, tree)
        man_examples(tmp, tree)
        refused(tmp, tree)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    done()


main()
