#!/usr/bin/env python3
"""t_attack_project: a project named like the unattributed bucket.

"(none)" is the project of what no --project rule matched (the stable
contract), and the name of nothing else. A directory called "(none)"
directly below ROOT is project "./(none)" under depth:1 (its path below
ROOT), "x/(none)" deeper under depth:2; a map or gidmap file that names a
project "(none)" is a usage error naming the file and line; a user or
group called "(none)" goes by its number, as one without a name does.

The tree below is scanned twice (the second time with one more file in
the directory "(none)"), and everything is compared with an os.walk
oracle written here from those rules: the project table and v_project,
v_hist, v_limit (a --limits file limits both names, differently), and
every analysis that shows projects: usage, diff, files --project,
capacity, the Prometheus metrics and the report.

    ROOT/rootfile                   (none): above depth 1
    ROOT/(none)/f, (none)/sub/g     ./(none)
    ROOT/a/f                        a
    ROOT/x/(none)/h                 x, and x/(none) under depth:2
    ROOT/u                          owned by uid and gid 4242: "(none)"
                                    in a private /etc/passwd and group
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "lib"))
sys.path.insert(0, HERE)
from t_capacity import q  # noqa: E402
from tap import done, eq, ok, skip  # noqa: E402

BUILD = os.environ.get("BUILD") or os.path.join(HERE, "..", "build")
FSSCAN = os.path.join(BUILD, "fsscan")
IOCENSUS = os.path.join(BUILD, "iocensus")
NONE = "(none)"
ID = 4242                          # the user and group called "(none)"

FILES = {"rootfile": 3, "(none)/f": 5, "(none)/sub/g": 7, "a/f": 11,
         "x/(none)/h": 13, "u": 17}


def run(*cmd, env=None):
    p = subprocess.run([str(c) for c in cmd], capture_output=True,
                       text=True, env=env)
    return p.returncode, p.stdout, p.stderr


def build(root):
    for rel, size in FILES.items():
        p = os.path.join(root, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "wb") as f:
            f.write(b"x" * size)
    if os.geteuid() == 0:       # owners() needs u of ID; it skips without root
        os.chown(os.path.join(root, "u"), ID, ID)


def depth_project(comps, n):
    """The rules of depth:N, as fsscan.1 states them: the directory N components
    below ROOT names the project, by its path below ROOT, "./(none)" for
    the one directory the bucket's name would hide."""
    name = "/".join(comps[:n])
    return "./" + NONE if name == NONE else name


def oracle(root, n):
    """{project: [files, dirs, bytes]} of depth:n, from os.walk."""
    tot = {}

    def add(proj, files, dirs, size):
        t = tot.setdefault(proj, [0, 0, 0])
        t[0] += files
        t[1] += dirs
        t[2] += size
    for dirpath, dirnames, filenames in os.walk(root):
        rel = os.path.relpath(dirpath, root)
        comps = [] if rel == "." else rel.split(os.sep)
        add(depth_project(comps, n) if len(comps) >= n else NONE, 0, 1, 0)
        for fn in filenames:
            st = os.lstat(os.path.join(dirpath, fn))
            add(depth_project(comps, n) if len(comps) >= n else NONE, 1,
                0, st.st_size)
    return tot


def csv_rows(text):
    lines = [ln for ln in text.splitlines() if ln and not
             ln.startswith("# ")]
    head = lines[0].split(",")
    return [dict(zip(head, ln.split(","))) for ln in lines[1:]
            if not ln.startswith(head[0] + ",")]


def scans(tmp, root):
    db = os.path.join(tmp, "p.db")
    lim = os.path.join(tmp, "limits.csv")
    with open(lim, "w") as f:
        f.write("(none),1TiB,\n./(none),2TiB,10\n")
    want = []
    for k in range(2):
        if k:
            with open(os.path.join(root, NONE, "new"), "wb") as f:
                f.write(b"y" * 19)
        want.append(oracle(root, 1))
        rc, out, err = run(FSSCAN, "--db", db, "--fs", "t", "--quiet",
                           "--limits", lim, root)
        ok(rc == 0, "scan %d: exit 0" % (k + 1), err)
        got = {n: [f, d, b] for n, f, d, b in q(
            db, "SELECT project, files, dirs, bytes FROM v_project WHERE"
            " snapshot_id = ?", k + 1)}
        eq(got, want[k], "scan %d: v_project: (none) and ./(none) apart,"
           " as os.walk counts them" % (k + 1))
    eq(dict(q(db, "SELECT name, source FROM project WHERE snapshot_id = 2"
              " AND name LIKE '%(none)'")),
       {NONE: "none", "./" + NONE: "depth:1"},
       "project.source: the bucket is 'none', the directory depth:1")
    hist = dict(q(db, "SELECT project, sum(files) FROM v_hist WHERE"
                  " snapshot_id = 2 AND metric = 'size' AND project IS NOT"
                  " NULL GROUP BY project"))
    eq(hist, {p: t[0] for p, t in want[1].items() if t[0]},
       "v_hist: each project's size histogram holds its own files")
    eq(sorted(q(db, "SELECT project, bytes, inodes FROM v_limit WHERE"
                " snapshot_id = 2")),
       sorted([(NONE, 1 << 40, None), ("./" + NONE, 2 << 40, 10)]),
       "v_limit: a limit for each name")
    return db, want


def analyses(tmp, db, want):
    a, b = want
    rc, out, err = run(IOCENSUS, "usage", "--db", db, "--format", "csv")
    eq({r["name"]: int(r["files"]) for r in csv_rows(out)} if rc == 0
       else err, {p: t[0] for p, t in b.items()},
       "usage: each project's files, the two names apart")
    rc, out, err = run(IOCENSUS, "diff", "--db", db, "1", "2", "--format",
                       "json")
    rows = {r["name"]: r["d_files"] for r in
            json.loads(out)["tables"]["groups"]["rows"]} if rc == 0 else {}
    eq({k: rows.get(k) for k in (NONE, "./" + NONE)},
       {NONE: 0, "./" + NONE: 1},
       "diff: the new file in the directory (none) is ./(none)'s, not the"
       " bucket's" + (": " + err if rc else ""))
    for proj in (NONE, "./" + NONE):
        rc, out, err = run(IOCENSUS, "files", "--db", db, "--project", proj,
                           "--format", "csv")
        facts = [r for r in csv_rows(out.split("# facts")[-1])] \
            if rc == 0 else []
        eq((int(facts[0]["files"]), int(facts[0]["bytes"])) if facts
           else err, (b[proj][0], b[proj][2]),
           "files --project %s: its files and bytes" % proj)
    rc, out, err = run(IOCENSUS, "capacity", "--db", db, "--format", "json")
    got = {r["project"]: (r["files"], r["limit_bytes"]) for r in
           json.loads(out)["tables"]["projects"]["rows"]} if rc == 0 else {}
    eq({k: got.get(k) for k in (NONE, "./" + NONE)},
       {NONE: (b[NONE][0], 1 << 40), "./" + NONE: (b["./" + NONE][0],
                                                    2 << 40)},
       "capacity: each name with its files and its own limit" +
       (": " + err if rc else ""))
    rc, out, err = run(IOCENSUS, "metrics", "--db", db)
    for proj in (NONE, "./" + NONE):
        line = 'iocensus_project_files{fs="t",project="%s"} %d' % (
            proj, b[proj][0])
        ok(rc == 0 and line in out.splitlines(), "metrics: " + line, err)
    html = os.path.join(tmp, "r.html")
    rc, out, err = run(IOCENSUS, "report", "--db", db, "--out", html)
    text = open(html, errors="replace").read() if rc == 0 else ""
    ok(rc == 0 and "./(none)" in text and "(none)" in text.replace(
        "./(none)", ""), "report: both names in it", err)


def depth2_and_maps(tmp, root):
    db = os.path.join(tmp, "d2.db")
    rc, out, err = run(FSSCAN, "--db", db, "--quiet", "--project",
                       "depth:2", root)
    got = {n: [f, d, b] for n, f, d, b in q(
        db, "SELECT project, files, dirs, bytes FROM v_project")} \
        if rc == 0 else err
    eq(got, oracle(root, 2), "depth:2: x/(none) is a project of its own,"
       " the directory (none) at depth 1 is in the bucket")
    for kind, text in (("map", "x/(none) (none)\n"),
                       ("map", "a A\n# the bucket\n/ (none)\n"),
                       ("gidmap", "0 zero\n4242 (none)\n")):
        m = os.path.join(tmp, "rules")
        with open(m, "w") as f:
            f.write(text)
        line = text.count("\n")
        n0 = q(db, "SELECT count(*) FROM snapshot")[0][0]
        rc, out, err = run(FSSCAN, "--db", db, "--quiet", "--project",
                           "%s:%s" % (kind, m), root)
        ok(rc == 2 and "%s:%s line %d" % (kind, m, line) in err and
           "(none)" in err and "reserved" in err,
           "%s naming a project (none) on line %d: usage error naming the"
           " file and line" % (kind, line), "%d %s" % (rc, err))
        eq(q(db, "SELECT count(*) FROM snapshot")[0][0], n0,
           "%s naming (none): nothing recorded" % kind)
    # A map may name the directory's project: names are projects, so a
    # and (none)/ are one project.
    m = os.path.join(tmp, "rules")
    with open(m, "w") as f:
        f.write("a ./(none)\n")
    db = os.path.join(tmp, "m.db")
    rc, out, err = run(FSSCAN, "--db", db, "--quiet", "--project",
                       "map:" + m, "--project", "depth:1", root)
    want = oracle(root, 1)
    both = want.pop("a")
    want["./" + NONE] = [x + y for x, y in zip(want["./" + NONE], both)]
    got = {n: [f, d, b] for n, f, d, b in q(
        db, "SELECT project, files, dirs, bytes FROM v_project")} \
        if rc == 0 else err
    eq(got, want, "map a ./(none): a and the directory (none) are one"
       " project, the bucket apart")


def owners(tmp, root):
    """A user and a group called "(none)", in a private /etc/passwd and
    /etc/group bound over the real ones in a mount namespace."""
    if os.geteuid() != 0 or not shutil.which("unshare"):
        skip("owners: a user and a group called (none)", "a private"
             " /etc/passwd is bound in a mount namespace",
             needs="root" if os.geteuid() else "unshare")
        return
    files = {}
    for name, line in (("passwd", "(none):x:%d:%d::/:/bin/false\n"),
                       ("group", "(none):x:%d:\n")):
        p = os.path.join(tmp, name)
        with open("/etc/" + name) as src, open(p, "w") as f:
            f.write(src.read() + line % ((ID, ID) if name == "passwd"
                                         else (ID,)))
        files[name] = p
    db = os.path.join(tmp, "o.db")
    wrapper = os.path.join(tmp, "in-ns")
    with open(wrapper, "w") as f:
        f.write('#!/bin/sh\nmount --bind %s /etc/passwd &&'
                ' mount --bind %s /etc/group && exec "$@"\n'
                % (files["passwd"], files["group"]))
    os.chmod(wrapper, 0o755)
    rc, out, err = run("unshare", "-m", "--", wrapper, "getent", "passwd",
                       str(ID))
    ok(rc == 0 and out.startswith("(none):"), "the private passwd names"
       " uid %d (none)" % ID, out + err)
    for rule in ("user", "group"):
        rc, out, err = run("unshare", "-m", "--", wrapper, FSSCAN, "--db",
                           db, "--quiet", "--project", rule, root)
        sid = q(db, "SELECT max(id) FROM snapshot")[0][0] if rc == 0 else 0
        got = dict(q(db, "SELECT project, files FROM v_project WHERE"
                     " snapshot_id = ?", sid))
        ok(rc == 0 and got.get(str(ID)) == 1 and got.get(NONE) is None,
           "--project %s: the owner called (none) is project %d, the"
           " bucket stays empty" % (rule, ID), "%d %r %s" % (rc, got, err))
        eq(q(db, "SELECT name FROM owner WHERE snapshot_id = ? AND id = ?"
             " AND kind = ?", sid, ID, rule), [(NONE,)],
           "--project %s: the owner table keeps its name" % rule)


def main():
    tmp = tempfile.mkdtemp(prefix="t_attack_project.",
                           dir=os.environ.get("TMPDIR"))
    # every user may search down to ROOT: its names are public
    # (t_attack_private checks the private ones)
    os.chmod(tmp, 0o755)
    try:
        root = os.path.join(tmp, "root")
        build(root)
        db, want = scans(tmp, root)
        analyses(tmp, db, want)
        depth2_and_maps(tmp, root)
        owners(tmp, root)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    done()


if __name__ == "__main__":
    main()
