#!/usr/bin/env python3
"""t_demo: `make demo`'s script, run on a small tree into a temporary
directory, and the report's readability rules on the page it writes.

- The demo writes its real-data report (two snapshots of the scanned
  tree, seconds apart and so one point of its growth, the live samples)
  and demo/study-report.html from a generated quarter, which says in its
  heading that the data are generated and has every section filled: no
  "No snapshots", "No I/O samples", "needs two complete snapshots",
  "Coverage: 0 of" or "records no capacity" note, 8 servers, a fortnight
  of I/O in the quarter 2010Q1; its summary's red list has a project over
  its limit and some reaching theirs, the two names of one device are one
  row, and cold data are there; some projects have limits, some not.
- The page: the growth figure's 95% band is a shaded area (not two
  lines), the summary is short tables (ten rows at most), the red list
  first, the load-class grid's server labels are set larger than the
  axes, the burstiness section says what I, rho and P mean, and the size
  facts speak of the most common sizes.
- `iocensus health` on the study's database names exactly its two
  failing disks (scripts/study-db): fs003 sdc slow in reads, fs006 sde
  intermittent; every other disk is healthy; each row carries the
  disk's generated serial and slot.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from tap import ok, eq, done                     # noqa: E402

TOP = os.environ.get("TOP", os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.environ["BUILD"]


def section(html, title_start):
    i = html.find("<h2>" + title_start)
    if i < 0:
        return ""
    j = html.find("<h2>", i + 4)
    return html[i:j if j > 0 else len(html)]


def check_study(html):
    head = re.search(r"<h1>(.*?)</h1>", html)
    ok(head and "Generated data, not measured" in head.group(1),
       "the study report says in its heading that its data are generated",
       head.group(1) if head else "no h1")
    for empty in ("No snapshots", "No I/O samples", "needs two complete",
                  "Coverage: 0 of", "No values to plot", "No data in the window",
                  "records no capacity", "no limit recorded</td>"):
        ok(empty not in section(html, "Summary"),
           "every summary table filled: no '%s'" % empty)
        ok(empty in ("no limit recorded</td>",) or empty not in html,
           "every section filled: no '%s'" % empty)
    ok("8 hosts, 32 devices" in html, "8 servers of 4 devices")
    ok("76 of 90 days have no complete minute" in html,
       "a quarter, with a fortnight of I/O")
    ok("scheduled maintenance" in html, "the maintenance day is annotated")
    summary = section(html, "Summary")
    ok(">over its limit</td>" in summary and ">reaches its limit</td>" in
       summary, "the red list: a project over its limit, some reaching it")
    red = summary[summary.find("Red list: projects"):summary.find(
        "File systems, each device once")]
    ok(red.count("<tr>") >= 3 and 'data-label="Used">n/a' not in red and
       'data-label="Limit or capacity">n/a' not in red, "the red list's rows:"
       " each with what is used and its limit or capacity")
    ok(re.search(r'data-label="File system">pvfs</td><td class="na" '
                 r'data-label="Project">n/a</td><td data-label="Of">space'
                 r'</td><td data-label="Status">fills up</td>', red),
       "the red list names a file system full before the horizon (pvfs)")
    ok(">gpfs and home</td>" in summary, "two names of one device: one row")
    ok("Cold data: the projects" in summary, "cold data in the summary")
    ok(re.search(r'data-label="Limit or capacity">[^<n]', html) and re.search(
        r'data-label="Byte limit">n/a<', html), "limits: some projects"
       " with, some without")


def check_readability(html):
    growth = section(html, "Growth projection: gpfs")
    ok(re.search(r'<polygon fill="[^"]+" fill-opacity="0\.22" '
                 r'stroke="none"', growth), "the 95% band is a shaded area")
    ok('text-anchor="start">95% band</text>' in growth and
       'text-anchor="start">95% band, low</text>' not in growth,
       "... named once in the legend")
    summary = section(html, "Summary")
    ok(summary and summary.count("<table") >= 5 and max(
        len(re.findall(r"<tr>", t)) for t in summary.split("<table")[1:])
       <= 11, "the summary: short tables, ten rows at most")
    ok(summary.find("Red list") < summary.find("<figure") if "<figure" in
       summary else "Red list" in summary, "the red list first")
    burst = section(html, "Burstiness")
    ok(re.search(r'<g class="ticks" fill="#333333" font-size="13">\s*'
                 r'<text[^>]*>fs001</text>', burst),
       "the grid's server labels are 13 px (the axes' are 11)")
    for what in ("I (I/O intensity) is", "\u03c1 (rho, burstiness)",
                 "P (parallel I/O intensity) is"):
        ok(what in burst, "burstiness explains " + what.split(" (")[0])
    ok("Most files: from" not in html and
       "Most common sizes, from" in section(html, "File sizes: gpfs"),
       "sizes: 'Most common sizes'")


def check_health(db):
    """The study's two failing disks (scripts/study-db), and no other."""
    p = subprocess.run([os.path.join(BUILD, "iocensus"), "health", "--db", db,
                        "--format", "json", "--table", "devices"],
                       capture_output=True, text=True)
    rows = json.loads(p.stdout)["tables"]["devices"]["rows"] \
        if p.returncode == 0 else []
    words = ("slow", "intermittent", "suspect", "healthy", "not called")
    eq(sorted((r["host"], r["device"],
               [w for w in words if r["verdict"].startswith(w)][:1],
               r.get("direction")) for r in rows
              if not r["verdict"].startswith("healthy")),
       [("fs003", "sdc", ["slow"], "read"),
        ("fs006", "sde", ["intermittent"], None)],
       "health on the study: fs003 sdc slow in reads, fs006 sde "
       "intermittent, every other disk healthy", p.stderr[-300:])
    # iocensus_gen names host h's device j (sdb = 0) GEN<h><j>, Slot <j>.
    eq(sorted((r["host"], r["device"], r["serial"], r["slot"]) for r in rows
              if r["device"] in ("sdc", "sde") and r["host"] in
              ("fs003", "fs006")),
       [("fs003", "sdc", "GEN003001", "Slot 01"),
        ("fs003", "sde", "GEN003003", "Slot 03"),
        ("fs006", "sdc", "GEN006001", "Slot 01"),
        ("fs006", "sde", "GEN006003", "Slot 03")],
       "health on the study: each disk's serial and slot, the disk to pull")


def main():
    tmp = tempfile.mkdtemp(prefix="t_demo.")
    try:
        root = os.path.join(tmp, "root")
        for p in ("a/x", "a/y", "b/z"):
            os.makedirs(os.path.join(root, p))
            with open(os.path.join(root, p, "f"), "wb") as f:
                f.write(b"d" * 4096)
        os.makedirs(os.path.join(root, "local"))
        out = os.path.join(tmp, "demo")
        env = dict(os.environ, DEMO_ROOT=root, DEMO_DIR=out,
                   DEMO_SAMPLE_SECONDS="3", BUILD=BUILD)
        t = time.monotonic()
        p = subprocess.run([os.path.join(TOP, "scripts", "demo")], env=env,
                           capture_output=True, text=True, cwd=TOP)
        took = time.monotonic() - t
        if not ok(p.returncode == 0, "the demo runs (%.0f s)" % took,
                  (p.stdout + p.stderr)[-1500:]):
            return
        for name in ("report.html", "report.tar.gz", "study-report.html",
                     "iocensus.db", "iocensus.prom", "diff.txt"):
            ok(os.path.getsize(os.path.join(out, name)) > 0,
               "it writes %s" % name)
        ok(not os.listdir(os.path.join(root, "local")),
           "the change it made to the scanned tree is removed")
        real = open(os.path.join(out, "report.html")).read()
        ok("<h1>iocensus report</h1>" in real and "Generated data" not in
           real, "the real-data report is not labelled generated")
        # A long name wraps (its cell's class): the temporary
        # directory's random name decides.
        cell = r'</td><td(?: class="wrap")? data-label="[^"]*">[^<]*root</td>'
        ok(re.search(r'<tr><td class="num" data-label="Id">1' + cell, real)
           and re.search(r'<tr><td class="num" data-label="Id">2' + cell, real),
           "the real report lists the two snapshots of the scan")
        ok("a rescan counts" in real,
           "... and says they are one point (seconds apart: a rescan)")
        study = open(os.path.join(out, "study-report.html")).read()
        check_study(study)
        check_readability(study)
        check_health(os.path.join(out, "study", "census.db"))
        ok("study-report.html" in p.stdout, "the demo names both reports")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


main()
done()
