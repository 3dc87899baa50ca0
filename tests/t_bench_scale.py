#!/usr/bin/env python3
# tests/run: once
"""t_bench_scale: make bench's scale step (scripts/bench/scale) runs at a
small size (200 projects, both layouts, one run of each output, a short
iostatmon run) and prints every line with numbers, which are checked
against what the test finds itself:

* mkprojects.py made 200 project directories of 5 files each, laid out
  as asked (os.walk), and the baseline tree the same directories and
  files below one project;
* the projects the database holds are those directories;
* the bytes per project per snapshot are the difference of the two sizes
  printed, over the projects, and those sizes are, within 5 %, the
  sizes of a database of one and two scans this test makes;
* the peak RSS per project is the difference of the two peaks printed,
  over the projects;
* the metrics' series are those of `iocensus metrics` on that database,
  counted here;
* iostatmon's ratio to sadc is the quotient of the two (where sadc ran).

Timings are the bench's and not looked at.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "lib"))
from tap import done, eq, ok, skip  # noqa: E402
from pace import limit  # noqa: E402

TOP = os.environ.get("TOP") or os.path.dirname(
    os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get("BUILD") or os.path.join(TOP, "build")
N, K = 200, 5
NUM = r"(-?[0-9][0-9,]*(?:\.[0-9]+)?)"


def val(s):
    return float(s.replace(",", ""))


def walk(tree):
    """(project directories, files) below tree: the directories that hold
    files, by their depth below tree."""
    dirs, files = {}, 0
    for d, _, fs in os.walk(tree):
        if fs:
            rel = os.path.relpath(d, tree)
            dirs[rel] = len(fs)
            files += len(fs)
    return dirs, files


def trees(tmp):
    for layout, depth in (("depth1", 1), ("depth2", 2)):
        tree = os.path.join(tmp, "projects-%s-%d-%d" % (layout, N, K))
        dirs, files = walk(tree)
        eq(len(dirs), N, "%s: %d project directories" % (layout, N))
        ok(all(c == K for c in dirs.values()) and files == N * K,
           "%s: %d files in each" % (layout, K))
        ok(all(p.count("/") == depth - 1 for p in dirs),
           "%s: projects %d level(s) below the root" % (layout, depth))
        if layout == "depth2":
            groups = {p.split("/")[0] for p in dirs}
            ok(10 <= len(groups) <= 18, "depth2: about sqrt(%d) groups" % N,
               "%d groups" % len(groups))
        bdirs, bfiles = walk(tree + "-base")
        prefix = "/".join(["all"] * depth) + "/"
        ok(bfiles == files and sorted(bdirs) == sorted(prefix + p for p in dirs),
           "%s: the baseline holds the same directories below %s" %
           (layout, prefix))


def scan_sizes(tmp, layout, tree, env):
    """The sizes of a database after one and after two scans of tree."""
    db = os.path.join(tmp, "check-%s.db" % layout)
    argv = [os.path.join(BUILD, "fsscan"), "--quiet", "--db", db,
            "--project", "depth:1" if layout == "depth1" else "depth:2", tree]
    sizes = []
    for _ in range(2):
        subprocess.run(argv, env=env, check=True)
        sizes.append(sum(os.path.getsize(p) for p in (db, db + "-wal")
                         if os.path.exists(p)))
    return db, sizes


def check_db(out, tmp, env):
    for layout in ("depth1", "depth2"):
        m = re.search(r"^\| %d \| %s \| %s \| %s \| %s \| %s B \| (pass|miss) \|$"
                      % (N, layout, NUM, NUM, NUM, NUM), out, re.M)
        ok(m, "%s: a database row" % layout, out[-600:])
        if not m:
            continue
        inside, s1, s2, per = (val(x) for x in m.groups()[:4])
        tree = os.path.join(tmp, "projects-%s-%d-%d" % (layout, N, K))
        eq(int(inside), len(walk(tree)[0]),
           "%s: the database holds the directories mkprojects made" % layout)
        ok(abs(per - (s2 - s1) / N) < 0.06,
           "%s: bytes per project = (%d - %d) / %d" % (layout, s2, s1, N),
           "printed %s" % per)
        ok((per <= 400) == (m.group(5) == "pass"),
           "%s: the goal of 400 B judged on that figure" % layout)
        db, (c1, c2) = scan_sizes(tmp, layout, tree, env)
        # Threads finish in either order, and a page or three more or
        # less is the result: a tolerance of 5 %.
        ok(abs(c1 - s1) <= 0.05 * c1 and abs(c2 - s2) <= 0.05 * c2,
           "%s: the sizes printed are a database's of one and two scans" %
           layout, "printed %d, %d; here %d, %d" % (s1, s2, c1, c2))
        p = subprocess.run([os.path.join(BUILD, "iocensus"), "metrics",
                            "--db", db], env=env, capture_output=True,
                           text=True)
        series = sum(1 for l in p.stdout.splitlines()
                     if l.strip() and not l.startswith("#"))
        # Fewer projects than the cap (--top 1000): both counts are all.
        m = re.search(r"^\| %d \| %s \| .*\| %s \| %s (pass|miss) \|$"
                      % (N, layout, NUM, NUM), out, re.M)
        ok(m and val(m.group(1)) == series and val(m.group(2)) == series
           and series > N,
           "%s: the metrics' series, as counted here (%d)" % (layout, series),
           m.group(0) if m else out[-600:])
        ok(m and m.group(0).count(" s (") == 4,
           "%s: the four outputs' CPU and wall times" % layout,
           m.group(0) if m else "")


def check_rss(out):
    runs = ("fsscan -j 1", "fsscan default threads", "fsscan -j 8")
    mpi = os.access(os.path.join(BUILD, "fsscan-mpi"), os.X_OK) and \
        shutil.which("mpirun")
    if mpi:
        runs += ("fsscan-mpi -np 2, largest rank",)
    else:
        skip("fsscan-mpi row", "fsscan-mpi not built", "mpicc")
    for layout in ("depth1", "depth2"):
        for run in runs:
            m = re.search(r"^\| %d \| %s \| %s \| %s KiB \| %s KiB \| %s B \| "
                          r"(pass|miss) \| .* \| %s KiB, [0-9.]+ s \| %s \|"
                          % (N, layout, re.escape(run), NUM, NUM, NUM, NUM,
                             NUM), out, re.M)
            ok(m, "%s, %s: a peak RSS row with du's" % (layout, run),
               out[-600:])
            if not m:
                continue
            rss, base, per, du, ratio = (val(x) for x in
                                         m.group(1, 2, 3, 5, 6))
            ok(abs(per - (rss - base) * 1024 / N) <= 0.5 and
               abs(ratio - rss / du) <= 0.051,
               "%s, %s: per project = (peak - baseline) / %d, ratio to du"
               % (layout, run, N), m.group(0))


def check_iostatmon(out):
    m = re.search(r"^\| 1,000 \| %s us \| (?:%s us|- \((.*)\)) \| ([0-9.]+|-) \| "
                  r"(pass|miss) \|$" % (NUM, NUM), out, re.M)
    ok(m, "iostatmon's row against sadc", out[-600:])
    if not m:
        return
    if m.group(2):
        ok(abs(val(m.group(4)) - val(m.group(1)) / val(m.group(2))) <= 0.006,
           "iostatmon/sadc is the quotient of the two")
    else:
        skip("iostatmon/sadc", m.group(3), "root")


def main():
    tmp = tempfile.mkdtemp(prefix="t_bench_scale.",
                           dir=os.environ.get("TMPDIR", "/var/tmp"))
    try:
        conf = os.path.join(tmp, "empty.conf")
        open(conf, "w").close()
        env = dict(os.environ, BUILD=BUILD, BENCH_DIR=tmp, IOCENSUS_CONF=conf,
                   BENCH_SCALE_SIZES=str(N), BENCH_SCALE_RUNS="1",
                   BENCH_SCALE_SADC_SAMPLES="3", BENCH_SAMPLES="60",
                   BENCH_RSS_SAMPLES="2")
        p = subprocess.run([os.path.join(TOP, "scripts", "bench", "scale")],
                           env=env, capture_output=True, text=True,
                           timeout=limit(900))
        out = p.stdout + p.stderr
        ok(p.returncode == 0 and "Traceback" not in out, "scale step runs",
           out[-800:])
        trees(tmp)
        check_rss(out)
        check_db(out, tmp, env)
        ok(re.search(r"^\| project_hist \| [0-9.]+ \| [0-9.]+ \|$", out, re.M) and
           re.search(r"^\| project \| [0-9.]+ \| [0-9.]+ \|$", out, re.M),
           "the growth by table and index (dbstat)", out[-600:])
        check_iostatmon(out)
    finally:
        shutil.rmtree(tmp)
    done()


if __name__ == "__main__":
    main()
