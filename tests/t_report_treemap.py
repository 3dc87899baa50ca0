#!/usr/bin/env python3
"""t_report_treemap: the report's treemaps ("Where the space is") against
independent sqlite3 queries of the stable views.

1. A tree scanned twice by fsscan (--as-of ten days apart, --dirs 3,
   --cold 30,365, --project depth:1): projects of sparse files (sizes
   without blocks), one with twelve subdirectories (eight shown, the rest
   as one box), hostile project and directory names (a newline,
   <script>, a bidi override). The page's treemap SVGs parse as XML;
   every box with a title is a project, a directory, the rest of a
   project or the other projects, and
   - its title carries its name (escaped as the page escapes: \\xNN for a
     newline and a bidi override) and exact bytes, growth and cold share
     from v_project, v_dir and v_cold;
   - its area is its bytes times one factor per figure, within 1% (boxes
     at least 10 px each way: the coordinates have one decimal);
   - no element or attribute came from a name (no <script> element);
   - the cold figure has the directories too, their cold share from v_dir.
2. --no-paths: no directory name anywhere in the page, and one box per
   project.
3. --top 3: the first three projects by bytes and one box for the
   others, whose title counts them and sums their bytes.
4. 2,000 projects (snapgen): the figure holds a bounded number of boxes
   (the first 50 by default and the others as one), and its size stays
   below a bound that does not grow with the projects.
"""
import html
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "lib"))
import snapgen  # noqa: E402
from tap import done, eq, ok  # noqa: E402

BUILD = os.environ["BUILD"]
IOCENSUS = os.path.join(BUILD, "iocensus")
FSSCAN = os.path.join(BUILD, "fsscan")
SVG = "{http://www.w3.org/2000/svg}"
DAY = 86400
T1 = 1767225600                 # 2026-01-01 00:00 UTC
T2 = T1 + 10 * DAY
MIB = 1 << 20
EVIL_PROJ = ["<script>alert(1)", "new\nline", "bidi\u202egnp.exe"]
EVIL_DIR = ["<b>x</b>", "d\nnl", "\u202erid"]


def page_text(s):
    """What fmt_html_str shows of s, once the XML parser has read it."""
    out = []
    for ch in s:
        if ch == "\\":
            out.append("\\\\")
        elif ord(ch) < 0x20 or ord(ch) == 0x7f or 0x80 <= ord(ch) <= 0x9f \
                or 0x2028 <= ord(ch) <= 0x202e or 0x2060 <= ord(ch) <= 0x206f \
                or ord(ch) in (0xad, 0x61c, 0x180e, 0x200b, 0x200e, 0x200f,
                               0xfeff):
            out.append("".join("\\x%02x" % b for b in ch.encode()))
        else:
            out.append(ch)
    return "".join(out)


def sparse(path, size, atime=None, mtime=None):
    with open(path, "wb") as f:
        f.truncate(size)
    if atime is not None:
        os.utime(path, (atime, mtime))


def make_tree(root, grow):
    """alpha: 12 subdirectories of 1..12 MiB and 5 MiB of its own; beta:
    two; the hostile ones: one subdirectory each. grow: the second scan's
    files (alpha's d03 doubles, beta gains a directory)."""
    def proj(name, dirs, own):
        p = os.path.join(root, name)
        os.makedirs(p, exist_ok=True)
        sparse(os.path.join(p, "own"), own, T1 - 400 * DAY, T1 - 400 * DAY)
        for d, size in dirs.items():
            os.makedirs(os.path.join(p, d), exist_ok=True)
            sparse(os.path.join(p, d, "f"), size)
    alpha = {"d%02d" % k: k * MIB for k in range(1, 13)}
    if grow:
        alpha["d03"] = 6 * MIB
    proj("alpha", alpha, 5 * MIB)
    proj("beta", dict({"b1": 30 * MIB}, **({"b2": 9 * MIB} if grow else {})),
         MIB)
    for i, name in enumerate(EVIL_PROJ):
        proj(name, {EVIL_DIR[i]: (i + 2) * MIB}, MIB // 2)


def scan(db, root, t):
    subprocess.run([FSSCAN, "--db", db, "--quiet", "--fs", "tm", "--as-of",
                    str(t), "--dirs", "3", "--cold", "30,365", "--project",
                    "depth:1", root], check=True, capture_output=True)


def report(db, out, *args):
    p = subprocess.run([IOCENSUS, "report", "--db", db, "--out", out]
                       + list(args), capture_output=True, text=True)
    if p.returncode:
        raise RuntimeError("iocensus report: %d: %s" % (p.returncode,
                                                        p.stderr[-400:]))
    with open(out, encoding="utf-8") as f:
        return f.read()


def treemaps(page):
    """The parsed <svg> of each treemap figure, by its title."""
    out = {}
    for m in re.finditer(r"<svg [^>]*>.*?</svg>", page, re.S):
        if "data treemap" not in m.group(0):
            continue
        root = ET.fromstring(m.group(0))
        out[root.find(SVG + "title").text] = root
    return out


def boxes(svg):
    """(class, x, y, w, h, title) of every box with a title."""
    res = []
    for r in svg.iter(SVG + "rect"):
        t = r.find(SVG + "title")
        if t is None:
            continue
        res.append((r.get("class"), float(r.get("x")), float(r.get("y")),
                    float(r.get("width")), float(r.get("height")), t.text))
    return res


TITLE = re.compile(r"(.*); Bytes: (\d+) \([^)]*\); Growth over the window: "
                   r"(n/a|-?\d+)(?: \([^)]*\))?; Growth, share of its larger"
                   r" size: (n/a|-?[\d.]+%); Cold(?: \(not read in (\d+) days\))?,"
                   r" share of its bytes: (n/a|[\d.]+%)$", re.S)


def oracle(db):
    """Every box the figure should hold, by its title's name: bytes,
    growth, growth share, cold share (strings as the title shows them)."""
    con = sqlite3.connect(db)
    s1, s2 = [r[0] for r in con.execute(
        "SELECT id FROM v_snapshot WHERE fs = 'tm' AND complete"
        " ORDER BY started_at")]
    p1 = dict(con.execute("SELECT project, bytes FROM v_project"
                          " WHERE snapshot_id = ?", (s1,)))
    p2 = dict(con.execute("SELECT project, bytes FROM v_project"
                          " WHERE snapshot_id = ?", (s2,)))
    d1 = dict(con.execute("SELECT path, bytes FROM v_dir WHERE snapshot_id"
                          " = ? AND depth = 2", (s1,)))
    d2 = dict(con.execute("SELECT path, bytes FROM v_dir WHERE snapshot_id"
                          " = ? AND depth = 2", (s2,)))
    dc = dict(con.execute("SELECT path, cold_bytes FROM v_dir WHERE"
                          " snapshot_id = ? AND depth = 2", (s2,)))
    days = con.execute("SELECT max(days) FROM v_cold WHERE snapshot_id = ?"
                       " AND metric = 'atime'", (s2,)).fetchone()[0]
    cold = dict(con.execute(
        "SELECT project, bytes FROM v_cold WHERE snapshot_id = ? AND metric"
        " = 'atime' AND days = ? AND project IS NOT NULL", (s2, days)))
    con.close()

    def row(b1, b0, c=None):
        big = max(b1, b0)
        return (b1, str(b1 - b0), "%.1f%%" % ((b1 - b0) / big * 100)
                if big else "n/a", "%.1f%%" % (c / b1 * 100)
                if c is not None and b1 else "n/a")
    want = {}
    for p, b in p2.items():
        if b == 0:              # ROOT's own project, no bytes: no box
            continue
        want[page_text(p)] = row(b, p1.get(p, 0), cold[p])
        kids = sorted(((v, k) for k, v in d2.items()
                       if k.rsplit("/", 1)[0] == p), key=lambda x: (-x[0], x[1]))
        for v, k in kids[:8]:
            want[page_text(k)] = row(v, d1.get(k, 0), dc[k])
        if kids:
            rest = b - sum(v for v, _ in kids[:8])
            rest0 = p1.get(p, 0) - sum(d1.get(k, 0) for _, k in kids[:8])
            more = len(kids) - min(8, len(kids))
            name = page_text(p) + ": the rest (its own files" + (
                " and %d more director%s" % (more, "y" if more == 1 else "ies")
                if more else "") + ")"
            want[name] = row(rest, max(rest0, 0),
                             cold[p] - sum(dc[k] for _, k in kids[:8]))
    return want, days, p2


def check_titles(svg, want, days, what, projects_only=False):
    got, bad, areas = {}, [], []
    for cls, x, y, w, h, title in boxes(svg):
        m = TITLE.fullmatch(title)
        if not m:
            bad.append(title)
            continue
        got[m.group(1)] = (int(m.group(2)), m.group(3), m.group(4),
                           m.group(6))
        eq(int(m.group(5)), days, "%s: %r: the cold threshold" % (what,
                                                                m.group(1)))
        if w >= 10 and h >= 10:
            areas.append((w * h / int(m.group(2)), m.group(1)))
    eq(bad, [], "%s: every title reads name; bytes; growth; shares" % what)
    exp = {k: v for k, v in want.items()
           if not projects_only or not ("/" in k or ": the rest" in k)}
    eq(got, exp, "%s: each box's name, bytes, growth and shares are the "
       "views'" % what)
    if areas:
        lo, hi = min(areas)[0], max(areas)[0]
        ok(hi <= lo * 1.01, "%s: areas proportional to bytes within 1%% "
           "(%d boxes, ratio %.4f)" % (what, len(areas), hi / lo),
           "%r .. %r" % (min(areas), max(areas)))
    ok(len(areas) >= (5 if projects_only else 12),
       "%s: boxes large enough to measure (%d)" % (what, len(areas)))


def no_overlap(svg, what):
    leaves = [b for b in boxes(svg) if "tm-leaf" in (b[0] or "")]
    worst = 0
    for i, a in enumerate(leaves):
        for b in leaves[:i]:
            w = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
            h = min(a[2] + a[4], b[2] + b[4]) - max(a[2], b[2])
            if w > 0.15 and h > 0.15:
                worst = max(worst, w * h)
    eq(worst, 0, "%s: no two boxes overlap (%d boxes)" % (what, len(leaves)))
    vb = [float(v) for v in svg.get("viewBox").split()]
    out = [b[5][:30] for b in leaves if b[1] < 0 or b[2] < 0 or
           b[1] + b[3] > vb[2] + 0.05 or b[2] + b[4] > vb[3] + 0.05]
    eq(out, [], "%s: every box inside the figure" % what)


def check_evil(page, svgs):
    ok("<script>alert" not in page, "hostile: no <script> from a name")
    for svg in svgs:
        eq([e.tag for e in svg.iter() if e.tag.replace(SVG, "") not in
            ("svg", "title", "g", "rect", "text")], [],
           "hostile: only the figure's own elements")
        eq(sorted({a for e in svg.iter() for a in e.attrib
                   if a.startswith("on")}), [], "hostile: no handler")
    for name in EVIL_PROJ:
        ok(page_text(name) in page.replace("&lt;", "<").replace("&gt;", ">"),
           "hostile: %r shown escaped" % name)
    ok("\u202e" not in page, "hostile: no bidi override in the page")


def check_scanned(tmp):
    root = os.path.join(tmp, "tree")
    db = os.path.join(tmp, "tm.db")
    make_tree(root, False)
    scan(db, root, T1)
    make_tree(root, True)
    scan(db, root, T2)
    want, days, projects = oracle(db)
    page = report(db, os.path.join(tmp, "r.html"))
    svgs = treemaps(page)
    growth = [s for t, s in svgs.items() if "coloured by growth" in t]
    cold = [s for t, s in svgs.items() if "coloured by cold" in t]
    eq((len(growth), len(cold)), (1, 1), "one treemap by growth and one by"
       " cold share")
    if growth:
        check_titles(growth[0], want, days, "growth treemap")
        no_overlap(growth[0], "growth treemap")
        classes = {b[0] for b in boxes(growth[0])}
        ok({"tm-leaf tm-l1", "tm-leaf tm-l2", "tm-project"} <= classes,
           "growth treemap: directories, a project's rest and outlines")
    if cold:
        check_titles(cold[0], want, days, "cold treemap")
        no_overlap(cold[0], "cold treemap")
    check_evil(page, list(svgs.values()))

    page = report(db, os.path.join(tmp, "np.html"), "--no-paths")
    svgs = treemaps(page)
    ok(svgs, "--no-paths: treemaps drawn")
    dirs = ["d%02d" % k for k in range(1, 13)] + ["b1", "b2"] + EVIL_DIR
    text = html.unescape(page)
    eq([d for d in dirs if "/" + page_text(d) in text or
        ">" + page_text(d) + "<" in text], [],
       "--no-paths: no directory name in the page")
    for t, s in svgs.items():
        eq(sorted(b[0] for b in boxes(s)), ["tm-leaf tm-l0"] * sum(
            1 for v in projects.values() if v),
           "--no-paths: %s: one box per project" % t[:40])

    page = report(db, os.path.join(tmp, "top.html"), "--top", "3")
    svgs = treemaps(page)
    by = sorted(projects.items(), key=lambda kv: (-kv[1], kv[0]))
    for t, s in svgs.items():
        top = [b for b in boxes(s) if b[0] in ("tm-leaf tm-l0", "tm-project")]
        names = [TITLE.fullmatch(b[5]).group(1) for b in top]
        eq(names, [page_text(p) for p, _ in by[:3]], "--top 3: %s: the "
           "first three by bytes" % t[:40])
        other = [TITLE.fullmatch(b[5]) for b in boxes(s)
                 if b[0] == "tm-leaf tm-l3"]
        eq([(m.group(1), int(m.group(2))) for m in other],
           [("%d other projects" % (len(by) - 3),
             sum(v for _, v in by[3:]))], "--top 3: %s: the others as one"
           " box with their bytes" % t[:40])


def check_many(tmp):
    os.makedirs(tmp)
    db = snapgen.new_db(tmp, BUILD)
    names = ["p%04d" % i for i in range(2000)]
    for k, t in enumerate((T1, T2)):
        files = [snapgen.File(n, 1000, 100, n, (i + 1) * 4096 * (k + 1),
                              (i + 1) * 4096 * (k + 1), t, t, t)
                 for i, n in enumerate(names)]
        snapgen.insert(db, snapgen.Snapshot("many", t, files=files, now=t))
    page = report(db, os.path.join(tmp, "many.html"))
    svgs = treemaps(page)
    eq(len(svgs), 1, "2,000 projects: one treemap")
    for t, s in svgs.items():
        bx = boxes(s)
        size = len(ET.tostring(s))
        ok(len(bx) <= 51 * 10 + 1, "2,000 projects: %d boxes, at most the"
           " first 50 projects' and one for the others" % len(bx))
        ok(size < 400_000, "2,000 projects: the figure is %d bytes" % size)
        others = [b for b in bx if b[0] == "tm-leaf tm-l3"]
        eq([TITLE.fullmatch(b[5]).group(1) for b in others],
           ["1950 other projects"], "2,000 projects: 1950 in one box")


def main():
    tmp = tempfile.mkdtemp(prefix="t_report_treemap.")
    os.environ["IOCENSUS_CONF"] = os.path.join(tmp, "empty.conf")
    with open(os.environ["IOCENSUS_CONF"], "w"):
        pass
    try:
        check_scanned(os.path.join(tmp, "a"))
        check_many(os.path.join(tmp, "b"))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    done()


main()
