#!/usr/bin/env python3
"""t_docs: the capacity and sqlite3 examples of README.md and docs/ run.

- The capacity example of docs/analyses.md (the block after "<!--
  example: capacity"): every "$ iocensus ..." line runs in a directory
  holding the census of tests/lib/capdemo.py as ./iocensus.db, and prints
  exactly the lines that follow it.
- Every `sqlite3 iocensus.db "..."` example of README.md and docs/*.md
  runs there with the stock sqlite3 shell (exit 0, no error), and the
  documents that must hold some do (census-db.md, SECURITY.md); the Use%
  query of docs/census-db.md gives df's rounding for each file system's
  last complete snapshot, computed here from capdemo's values, and its
  limits query gives each limited project's share.
"""
import math
from fractions import Fraction
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "lib"))
import capdemo  # noqa: E402
from tap import done, eq, ok  # noqa: E402

TOP = os.environ.get("TOP", os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
BUILD = os.path.abspath(os.environ.get("BUILD") or os.path.join(TOP, "build"))


def read(rel):
    with open(os.path.join(TOP, rel), encoding="utf-8") as f:
        return f.read()


def example_block(text, name):
    m = re.search(r"<!-- example: %s[^\n]*-->\n```\n(.*?)```" %
                  re.escape(name), text, re.S)
    return m.group(1) if m else None


CAPACITY_DOC = "docs/analyses.md"


def docs():
    """README.md and every Markdown file of docs/, relative to TOP."""
    return ["README.md"] + sorted(
        os.path.join("docs", n) for n in os.listdir(os.path.join(TOP, "docs"))
        if n.endswith(".md"))


def check_capacity_example(cwd):
    block = example_block(read(CAPACITY_DOC), "capacity")
    if not ok(block is not None, "%s: the capacity example block" %
              CAPACITY_DOC):
        return
    cmds = re.split(r"^\$ ", block, flags=re.M)[1:]
    for c in cmds:
        line, _, want = c.partition("\n")
        args = line.split()
        p = subprocess.run([os.path.join(BUILD, args[0])] + args[1:],
                           cwd=cwd, capture_output=True, text=True)
        eq(p.stdout, want, "%s: `%s` prints what the document shows" %
           (CAPACITY_DOC, line))


def sql_examples(text):
    return re.findall(r'```\n(sqlite3 iocensus\.db "(?:[^"]|\n)*")\n```',
                      text)


def run_sql(cwd, example):
    sql = example[len('sqlite3 iocensus.db "'):-1]
    return subprocess.run(["sqlite3", "iocensus.db", sql], cwd=cwd,
                          capture_output=True, text=True)


def last_points(cwd):
    """{fs: (fs_bytes, free, avail)} of capdemo's last snapshots."""
    p = subprocess.run(["sqlite3", "-separator", " ", "iocensus.db",
                        "SELECT fs, started_at, fs_bytes, fs_free_bytes,"
                        " fs_avail_bytes FROM snapshot"], cwd=cwd,
                       capture_output=True, text=True)
    last = {}
    for ln in p.stdout.splitlines():
        fs, t, b, f, a = ln.split()
        if fs not in last or int(t) > last[fs][0]:
            last[fs] = (int(t), int(b), int(f), int(a))
    return last


def check_sql(cwd):
    least = {"docs/census-db.md": 3, "docs/SECURITY.md": 1}
    for doc in docs():
        ex = sql_examples(read(doc))
        if doc in least:
            ok(len(ex) >= least[doc], "%s: its sqlite3 examples found (%d)"
               % (doc, len(ex)))
        for e in ex:
            p = run_sql(cwd, e)
            ok(p.returncode == 0 and not p.stderr, "%s: `%s...` runs" % (
                doc, e[:60].replace("\n", " ")), p.stderr)
    use = [e for e in sql_examples(read("docs/census-db.md"))
           if "use_pct" in e]
    if not ok(len(use) == 1, "census-db.md: the Use% example"):
        return
    got = sorted(tuple(ln.split("|")) for ln in
                 run_sql(cwd, use[0]).stdout.splitlines())
    want = []
    for fs, (t, b, f, a) in last_points(cwd).items():
        used = b - f
        want.append((fs, str(t), str(b), str(used), str(a),
                     str(math.ceil(Fraction(used * 100, used + a)))))
    eq(got, sorted(want), "census-db.md: the Use% example gives df's Use%")
    lim = [e for e in sql_examples(read("docs/census-db.md"))
           if "v_limit" in e]
    rows = run_sql(cwd, lim[0]).stdout.splitlines() if lim else []
    eq(sorted(r.split("|")[1] for r in rows), ["astro", "climate",
                                                "genomics"],
       "census-db.md: the limits example lists the limited projects")


def main():
    tmp = tempfile.mkdtemp(prefix="t_docs.")
    try:
        db = capdemo.build(tmp, BUILD)
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(db + suffix):
                shutil.move(db + suffix, os.path.join(tmp, "iocensus.db" +
                                                      suffix))
        check_capacity_example(tmp)
        check_sql(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    done()


if __name__ == "__main__":
    main()
