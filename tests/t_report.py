"""t_report: `iocensus report` on a small fixed database.

- The same database gives byte-identical HTML and bundles (also under
  another locale), and the page matches tests/golden/report.html; two
  commands' CSV and JSON match tests/golden/ too. Regenerate the goldens
  after an intended change with IOCENSUS_GOLDEN_UPDATE=1 (then review the
  diff).
- The page is one self-contained, valid UTF-8 document: no script, no
  external resource, every result section present, hostile project names
  only as escaped text, "no data" notes where a database has no data.
- The bundle: members sorted, mtime 0, owner root, gzip header without
  time or name; every table's CSV and JSON parse, agree with each other
  and with the same command run on its own.
- The summary selects, it does not compute: its rows (the red list, the
  file systems with each device once, cold data, top growers, I/O
  headroom, busiest hosts) are checked against the source sections by an
  independent selection and ordering in Python (t_report_summary.py
  checks its numbers against oracles).
- Every section is present whatever the database holds: a database
  without snapshots, or with one, gets the diff, growth, size and age
  sections with a note saying what they need, and the summary says "No
  snapshots" or "No I/O samples ingested".
- --quarter 2010Q1 is --from 2010-01-01 --to 2010-04-01 (the same bytes):
  the window drives every census section (its snapshots, each diff from
  the first to the last point in it, a file system with one point in it
  gets the diff's note), and the projections say they are fitted on the
  snapshots before its end. A same-day rescan is one point.
- Machine formats: a share's JSON unit is "fraction" (its values are
  fractions); table headers name no raw unit for cells that carry their
  own (bytes, durations).
- Plots: annotated windows are drawn after the "no data" bands and their
  labels after the data; the lanes of the load-class grid keep long host
  names that differ only in their middle apart.
"""
import csv
import html as html_mod
import html.parser
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from tap import ok, eq, done                     # noqa: E402
import reportdb                                  # noqa: E402
import snapgen                                   # noqa: E402

BUILD = os.environ["BUILD"]
TOP = os.environ.get("TOP", os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
IOCENSUS = os.path.join(BUILD, "iocensus")
GOLDEN = os.path.join(TOP, "tests", "golden")
UPDATE = os.environ.get("IOCENSUS_GOLDEN_UPDATE") == "1"
DAY = 86400


def run(*args, env=None):
    p = subprocess.run([IOCENSUS] + list(args), capture_output=True, env=env)
    if p.returncode != 0:
        raise RuntimeError("iocensus %s: exit %d: %s" % (
            " ".join(args), p.returncode, p.stderr.decode(errors="replace")[-400:]))
    return p.stdout


def report(db, out, bundle=None, env=None, extra=()):
    args = ["report", "--db", db, "--out", out] + list(extra)
    if bundle:
        args += ["--bundle", bundle]
    run(*args, env=env)
    with open(out, "rb") as f:
        return f.read()


def golden(name, got):
    path = os.path.join(GOLDEN, name)
    if UPDATE:
        os.makedirs(GOLDEN, exist_ok=True)
        with open(path, "wb") as f:
            f.write(got)
    if not ok(os.path.exists(path), "golden %s exists" % name,
              "run with IOCENSUS_GOLDEN_UPDATE=1 to create it"):
        return
    with open(path, "rb") as f:
        want = f.read()
    eq(got.decode("utf-8", "replace"), want.decode("utf-8", "replace"),
       "golden %s" % name)


def sections(html):
    """(id, title) of every result section, in page order."""
    return re.findall(r'<section id="(r\d+)" class="result">\n<h2>(.*?)</h2>', html)


class Tags(html.parser.HTMLParser):
    """Every element and attribute of a page, as a browser's tokenizer
    sees them."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags, self.attrs = set(), []

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        self.attrs += [(tag, k, v or "") for k, v in attrs]


def check_page(page, name):
    ok(page.startswith("<!DOCTYPE html>\n") and page.endswith("</html>\n"),
       "%s: a whole document" % name)
    p = Tags()
    p.feed(page)
    bad = p.tags & {"script", "img", "iframe", "link", "object", "embed",
                    "image", "use", "foreignobject", "audio", "video"}
    ok(not bad, "%s: no script or embedding elements" % name, "found %r" % sorted(bad))
    ev = [(t, k) for t, k, _ in p.attrs if k.startswith("on")]
    ok(not ev, "%s: no event handler attributes" % name, "found %r" % ev[:3])
    ext = [(t, k, v) for t, k, v in p.attrs
           if k in ("src", "href", "xlink:href", "action", "srcset", "poster")
           and not v.startswith("#")]
    ok(not ext, "%s: no external resource (only #anchors)" % name, "found %r" % ext[:3])
    low = page.lower()
    ok("url(" not in low and "@import" not in low, "%s: CSS fetches nothing" % name)


def cell_text(v):
    return "" if v is None else str(v)


def check_csv_json(text_csv, tab, name):
    """The CSV of a table holds exactly the JSON's values."""
    rows = list(csv.reader(io.StringIO(text_csv)))
    keys = [c["key"] for c in tab["columns"]]
    if not eq(rows[0], keys, "%s: csv header" % name):
        return
    bad = []
    for i, (r, j) in enumerate(zip(rows[1:], tab["rows"])):
        for k, field in zip(keys, r):
            v = j[k]
            if v is None:
                good = field == ""
            elif isinstance(v, float):
                good = float(field) == v         # shortest round trip: exact
            else:
                good = field == cell_text(v)
            if not good:
                bad.append("row %d %s: csv %r json %r" % (i, k, field, v))
    ok(len(rows) - 1 == len(tab["rows"]) and not bad, "%s: csv equals json" % name,
       "; ".join(bad[:4]) or "rows %d vs %d" % (len(rows) - 1, len(tab["rows"])))


def check_bundle(path, html_bytes, db):
    with open(path, "rb") as f:
        raw = f.read()
    ok(raw[:2] == b"\x1f\x8b" and raw[4:8] == b"\0\0\0\0" and not raw[3] & 0x08,
       "bundle: gzip header without time and name")
    tf = tarfile.open(path, "r:gz")
    members = tf.getmembers()
    names = [m.name for m in members]
    eq(names, sorted(names, key=lambda s: s.encode()), "bundle: members in byte order")
    ok(all(m.mtime == 0 and m.uid == 0 and m.gid == 0 and m.uname == "root"
           for m in members), "bundle: mtime 0, owner root")
    eq(tf.extractfile("report.html").read(), html_bytes, "bundle: report.html is the page")
    results = [n for n in names if re.fullmatch(r"\d\d-[a-z_]+\.json", n)]
    html = html_bytes.decode()
    eq(len(results), len(sections(html)), "bundle: one result file per section")
    ntables = 0
    by_cmd = {}
    for rn in results:
        res = json.loads(tf.extractfile(rn).read())
        stem = rn[:-5]
        by_cmd.setdefault(res["command"], []).append(res)
        for key, tab in res["tables"].items():
            ntables += 1
            j = json.loads(tf.extractfile("%s/%s.json" % (stem, key)).read())
            if j != tab:
                ok(False, "bundle: %s/%s.json equals the result's table" % (stem, key))
            c = tf.extractfile("%s/%s.csv" % (stem, key)).read().decode()
            before = _failed_count()
            check_csv_json(c, j, "bundle %s/%s" % (stem, key))
            if _failed_count() > before:
                break
    ok(ntables > 30, "bundle: every table (%d)" % ntables)
    # The report's analyses are the commands' own, with default options.
    for cmd in ("cdf", "idle", "throughput", "burst", "devices", "snapshots"):
        alone = json.loads(run(cmd, "--db", db, "--format", "json"))
        got = by_cmd.get(cmd, [{}])[0]
        eq(got.get("tables"), alone["tables"], "bundle: %s tables equal `iocensus %s`" % (cmd, cmd))
    alone = json.loads(run("files", "--db", db, "--snapshot", "4", "--by", "atime",
                           "--format", "json"))
    got = [r for r in by_cmd.get("files", []) if r["title"].startswith("File ages by atime: gpfs")]
    eq(got and got[0]["tables"], alone["tables"], "bundle: files tables equal `iocensus files`")
    return by_cmd


def _failed_count():
    import tap
    return tap.failed()


def rows_of(res, key):
    return res["tables"][key]["rows"] if key in res["tables"] else []


def red_list_of(cap, cutoff):
    """The red list selected again from the capacity section: projects
    with a limit over it and file systems full (already exceeded), most
    used first, then those whose date is before cutoff, soonest first;
    a file system (each device once) for its space and its inodes."""
    over, soon = [], []

    def pick(r, fs, res, pct, state, full):
        st = ("full", "fills up") if fs else ("over its limit",
                                              "reaches its limit")
        name = (r["device_names"] or r["fs"]) if fs else r["fs"]
        row = (name, None if fs else r["project"], res, pct)
        if state == "already exceeded":
            over.append(((-pct, len(over)), row + (st[0],)))
        elif full is not None and full < cutoff:
            soon.append(((full, -pct, len(soon)), row + (st[1],)))
    for r in rows_of(cap, "projects"):
        byte = r["limit_bytes"] is not None
        if not byte and r["limit_inodes"] is None:
            continue
        pick(r, 0, "space" if byte else "inodes",
             r["limit_ratio"] if byte else r["inode_limit_ratio"],
             r["state"], r["full"])
    seen = set()
    for r in rows_of(cap, "filesystems"):
        if r["device_names"] and r["device_names"] in seen:
            continue
        seen.add(r["device_names"])
        pick(r, 1, "space", r["use_ratio"], r["full_state"], r["full"])
        pick(r, 1, "inodes", r["inodes_use_ratio"], r["inodes_state"],
             r["inodes_full"])
    return [(n, p, st, res, pct) for _, (n, p, res, pct, st) in
            sorted(over, key=lambda x: x[0])] + \
        [(n, p, st, res, pct) for _, (n, p, res, pct, st) in
         sorted(soon, key=lambda x: x[0])]


def check_summary(by_cmd, cutoff):
    """The summary's rows, selected and ordered again from the source
    sections in Python (the summary computes nothing)."""
    summ = by_cmd["summary"][0]
    cap = by_cmd["capacity"][0]
    got = [(r["fs"], r["project"], r["status"], r["resource"],
            r["use_ratio"]) for r in rows_of(summ, "redlist")]
    eq(got, red_list_of(cap, cutoff), "summary: the red list = the capacity"
       " section's projects over their limit and file systems full, then"
       " reaching it before the cutoff")
    ok(len(got) >= 2, "summary: the red list has rows", repr(got))
    fs, seen = [], set()
    for r in rows_of(cap, "filesystems"):
        if r["device_names"] and r["device_names"] in seen:
            continue
        seen.add(r["device_names"])
        dates = [d for d in (r["full"], r["inodes_full"]) if d is not None]
        cls = 0 if "already exceeded" in (r["full_state"], r["inodes_state"]) \
            else 1 if dates else 2
        fs.append(((cls, min(dates) if cls == 1 else 0, -(r["use_ratio"] or 0)),
                   [r["device_names"] or r["fs"], r["size"], r["use_ratio"],
                    r["inodes_use_ratio"], r["bytes_per_day"], r["full"],
                    r["full_lo"], r["full_hi"], r["inodes_full"]]))
    eq([[r[k] for k in ("fs", "size", "use_ratio", "inodes_use_ratio",
                         "bytes_per_day", "full", "full_lo", "full_hi",
                         "inodes_full")] for r in rows_of(summ, "filesystems")],
       [v for _, v in sorted(fs, key=lambda x: x[0])],
       "summary: file systems = the capacity section's, each device once,"
       " the soonest full first")
    cold = []
    for c in by_cmd["cold"]:
        rows = rows_of(c, "projects")
        top = max([r["days"] for r in rows] or [0])
        cold += [r for r in rows if r["days"] == top][:5]
    cold.sort(key=lambda r: -r["bytes"])
    eq([[r[k] for k in ("fs", "project", "days", "bytes")]
        for r in rows_of(summ, "cold")],
       [[r[k] for k in ("fs", "project", "days", "bytes")] for r in cold],
       "summary: cold = the five projects with the most cold bytes at the"
       " longest threshold of each file system, most first")
    ok(len({r[0] for r in [[r["fs"]] for r in cold]}) == 2,
       "summary: cold rows of both file systems")
    grow = sorted(rows_of(cap, "growers"), key=lambda r: -r["d_used"])[:10]
    eq(rows_of(summ, "growers"), [{k: r[k] for k in ("fs", "project",
        "d_used", "bytes_per_day", "share_of_growth", "used")} for r in grow],
       "summary: top growers = the capacity section's, most growth first")
    cdf = rows_of(by_cmd["cdf"][0], "summary")[0]
    idle = rows_of(by_cmd["idle"][0], "summary")[0]
    head = rows_of(summ, "headroom")[0]
    eq(head, dict({k: cdf[k] for k in ("mean_mib_s", "peak_mib_s",
                                         "peak_source", "mean_share_of_peak",
                                         "below_33_share", "coverage")},
                  **{k: idle[k] for k in ("threshold_pct", "idle_share")}),
       "summary: I/O headroom = the cdf and idle summaries' cells")
    hosts = sorted(rows_of(by_cmd["devices"][0], "hosts"),
                   key=lambda r: -r["avg_mib_s"])[:5]
    eq([r["host"] for r in rows_of(summ, "hosts")], [r["host"] for r in hosts],
       "summary: busiest hosts by average throughput")
    ok(any(n.startswith("Red list: ") for n in summ["notes"]),
       "summary: the red list's line", repr(summ["notes"][:2]))


def blocks(html):
    """(title, body) of every result section."""
    return re.findall(r'<section id="r\d+" class="result">\n<h2>(.*?)</h2>(.*?)</section>',
                      html, re.S)


class Tables(html.parser.HTMLParser):
    """Every table of a page as rows of (tag, text) cells; a unit span
    stays in its header's text."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tables, self.cell = [], None

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.tables.append([])
        elif tag == "tr" and self.tables:
            self.tables[-1].append([])
        elif tag in ("th", "td") and self.tables:
            self.cell = [tag, ""]
            self.tables[-1][-1].append(self.cell)

    def handle_endtag(self, tag):
        if tag in ("th", "td"):
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell[1] += data


def check_headers(page):
    """A header that names a raw unit (B, bytes, s) heads raw numbers,
    never cells that carry their own unit (1.5 GiB, 19 h 0 min)."""
    p = Tables()
    p.feed(page)
    human = re.compile(r"(^|\d )(B|[KMGTPE]iB|s|min|h \d+ min|d \d+ h)$")
    bad, heads = [], 0
    for t in p.tables:
        header = [c[1] for c in t[0]] if t and all(c[0] == "th" for c in t[0]) else None
        for row in t[1:] if header else t:
            pairs = (zip(header, row) if header else
                     [(row[0][1], row[1])] if len(row) == 2 and row[0][0] == "th" else [])
            for h, (tag, text) in pairs:
                if tag != "td":
                    continue
                heads += 1
                if re.search(r"\((B|bytes|s)\)$", h) and human.search(text):
                    bad.append("%s: %s" % (h, text))
    ok(heads > 1000 and not bad, "html: no header claims a raw unit its cells do not use",
       "; ".join(sorted(set(bad))[:4]))


def check_units(by_cmd):
    """Shares are fractions in JSON, and say so."""
    pct = [(res["command"], key, c["key"]) for rs in by_cmd.values() for res in rs
           for key, tab in res["tables"].items() for c in tab["columns"]
           if c["unit"] == "%"]
    eq(pct, [], "json: no column declares % (shares are fractions)")
    tab = by_cmd["cdf"][0]["tables"]["summary"]
    unit = {c["key"]: c["unit"] for c in tab["columns"]}
    row = tab["rows"][0]
    ok(unit["coverage"] == "fraction" and
       row["coverage"] == row["n"] / row["calendar_minutes"],
       "json: cdf coverage is the fraction n / calendar minutes, unit fraction")
    for res in by_cmd["files"]:
        tab = res["tables"].get("distribution")
        if not tab or not tab["rows"]:
            continue
        unit = {c["key"]: c["unit"] for c in tab["columns"]}
        total = sum(r["share_files"] for r in tab["rows"])
        ok(unit["share_files"] == "fraction" and abs(total - 1) < 1e-9,
           "json: %s share_files are fractions summing to 1 (%r)" % (res["title"], total))
        break


def check_plot_order(page, labels):
    """In the throughput plot, the annotated windows come after the "no
    data" bands and their labels after the data, every label whole."""
    svg = page[page.index("<title>Aggregate throughput</title>"):]
    svg = svg[:svg.index("</svg>")]
    pos = [svg.find(s) for s in ("<title>no data</title>", '<g class="span"',
                                 '<g class="data">', '<g class="span-labels">')]
    ok(-1 not in pos and pos == sorted(pos),
       "throughput plot: gaps, then windows, then data, then window labels", repr(pos))
    shown = re.findall(r'fill="#7a5c00"[^>]*>(.*?)</text>', svg)
    eq(shown, [html_mod.escape(x, quote=True).replace("&#x27;", "&#39;") for x in labels],
       "throughput plot: every window label, whole")


def check_lane_labels(page, hosts):
    svg = page[page.index("<title>Hourly load classes per server</title>"):]
    svg = svg[:svg.index("</svg>")]
    lanes = svg[svg.index("</g>", svg.index('<g class="data">')):]
    got = re.findall(r'text-anchor="end">(?:<title>.*?</title>)?([^<]*)</text>', lanes)
    eq(sorted(got), sorted(hosts), "load-class grid: long similar host names shown whole")


def one_snapshot_db(tmp, hosts):
    """One complete snapshot of "scratch", and I/O from hosts named hosts."""
    os.makedirs(tmp, exist_ok=True)
    db = snapgen.new_db(tmp, BUILD)
    files = snapgen.random_files(31, 80, reportdb.T0, ["p1", "p2"])
    snapgen.insert(db, snapgen.Snapshot("scratch", reportdb.T0, files=files,
                                        now=reportdb.T0))
    reportdb.ingest(db, BUILD, tmp, reportdb.dataset(), names=hosts)
    return db


def check_annotate(db, tmp):
    """--annotate: the windows are a table of the throughput result (so the
    bundle has them), their labels escaped on the page."""
    label = "<script>alert(2)</script> & \"quoted\", comma"
    path = os.path.join(tmp, "maint.txt")
    with open(path, "w") as f:
        # The first hour of the I/O data, and a window before it.
        f.write("%d %d %s\n2010-02-01 2010-02-02 before\n" % (
            reportdb.IO_START, reportdb.IO_START + 3600, label))
    out, bundle = os.path.join(tmp, "ann.html"), os.path.join(tmp, "ann.tar.gz")
    run("report", "--db", db, "--annotate", path, "--out", out,
        "--bundle", bundle)
    with open(out, encoding="utf-8") as f:
        page = f.read()
    check_page(page, "annotated")
    ok("<script>alert(2)" not in page and
       "&lt;script&gt;alert(2)&lt;/script&gt; &amp; &quot;quoted&quot;, comma"
       in page, "annotated: the label is escaped text")
    tf = tarfile.open(bundle, "r:gz")
    names = [n for n in tf.getnames() if n.endswith("-throughput/annotations.json")]
    if not eq(len(names), 1, "annotated: the bundle has the annotations table"):
        return
    rows = json.loads(tf.extractfile(names[0]).read())["rows"]
    eq([(r["from"], r["to"], r["label"], r["minutes"]) for r in rows],
       [(reportdb.IO_START, reportdb.IO_START + 3600, label, 60),
        (1264982400, 1265068800, "before", 0)],
       "annotated: the windows and their minutes in the data")
    series = json.loads(tf.extractfile(names[0].replace(
        "annotations", "series")).read())["rows"]
    eq([r["t"] for r in series if r["annotation"] == label],
       [reportdb.IO_START], "annotated: the first hour's bucket is marked")


def check_quarter(db, tmp):
    q = report(db, os.path.join(tmp, "q.html"), extra=["--quarter", "2010Q1"])
    w = report(db, os.path.join(tmp, "w.html"),
               extra=["--from", "2010-01-01", "--to", "2010-04-01"])
    eq(q == w, True, "--quarter 2010Q1: the same page as --from 2010-01-01"
       " --to 2010-04-01")
    page = q.decode()
    b = dict(blocks(page))
    titles = [t for t, _ in blocks(page)]
    ok("Growth of gpfs: snapshots #1 to #4" in titles,
       "quarter: gpfs diff from the first to the last point (the rescan"
       " #4 stands for #3)", repr(titles[:8]))
    ok("scratch" not in page and "pvfs has 1 in the window." in
       b.get("Growth between snapshots: pvfs", ""),
       "quarter: pvfs has one point in the window (#6 is on 2010-04-01)")
    snaps = b.get("Snapshots", "")
    ok("5 of 7 snapshots started in the window." in snaps,
       "quarter: the snapshots section lists the window's", snaps[:300])
    ok("Fitted on the snapshots started before 2010-04-01 00:00." in
       b.get("Space projection: gpfs to 100% of its capacity", ""),
       "quarter: the projections say where they are fitted")
    ok("1 complete snapshot of gpfs started less than a day before the"
       " next one" in b.get("Growth projection: gpfs to 1,000 files", ""),
       "quarter: the rescan is one point, and the notes say so")
    p = subprocess.run([IOCENSUS, "report", "--db", db, "--out",
                        os.path.join(tmp, "x.html"), "--quarter", "2010Q5"],
                       capture_output=True, text=True)
    ok(p.returncode == 2 and "YYYYQ1 to YYYYQ4" in p.stderr,
       "--quarter 2010Q5: usage error", p.stderr)
    p = subprocess.run([IOCENSUS, "report", "--db", db, "--out",
                        os.path.join(tmp, "x.html"), "--quarter", "2010Q1",
                        "--from", "2010-01-01"], capture_output=True,
                       text=True)
    ok(p.returncode == 2 and "not both" in p.stderr,
       "--quarter with --from: usage error", p.stderr)


def main():
    tmp = tempfile.mkdtemp(prefix="t_report.")
    try:
        db = reportdb.build(os.path.join(tmp, "full"), BUILD)
        a = report(db, os.path.join(tmp, "a.html"), os.path.join(tmp, "a.tar.gz"))
        env = dict(os.environ, LC_ALL="de_DE.UTF-8", LANG="de_DE.UTF-8", TZ="Asia/Kolkata")
        b = report(db, os.path.join(tmp, "b.html"), os.path.join(tmp, "b.tar.gz"), env=env)
        eq(a == b, True, "same database, same html (also in another locale and TZ)")
        with open(os.path.join(tmp, "a.tar.gz"), "rb") as f1, \
                open(os.path.join(tmp, "b.tar.gz"), "rb") as f2:
            ok(f1.read() == f2.read(), "same database, same bundle bytes")
        try:
            html = a.decode("utf-8")
            ok(True, "html is valid UTF-8")
        except UnicodeDecodeError as e:
            ok(False, "html is valid UTF-8", str(e))
            html = a.decode("utf-8", "replace")
        check_page(html, "full")
        titles = [t for _, t in sections(html)]
        want = ["Summary", "Snapshots", "Capacity",
                "Growth of gpfs: snapshots #1 to #4", "Growth projection: gpfs to 1,000 files",
                "Space projection: gpfs to 100% of its capacity",
                "File sizes: gpfs (snapshot #4)", "File ages by atime: gpfs (snapshot #4)",
                "File ages by mtime: gpfs (snapshot #4)",
                "File ages by ctime: gpfs (snapshot #4)",
                "Cold data: gpfs, not read in N days",
                "Where the space is: gpfs",
                "Growth of pvfs: snapshots #5 to #6", "Growth projection: pvfs to 1,000 files",
                "Space projection: pvfs to 100% of its capacity",
                "File sizes: pvfs (snapshot #6)", "File ages by atime: pvfs (snapshot #6)",
                "File ages by mtime: pvfs (snapshot #6)",
                "File ages by ctime: pvfs (snapshot #6)",
                "Cold data: pvfs, not read in N days",
                "Where the space is: pvfs",
                "Usage by project", "Usage by user", "Usage by group"]
        eq(titles[:len(want)], want, "every census section, in order")
        eq(len(titles), len(want) + 6, "and the six I/O sections")
        ok('<section id="methods">' in html and "nearest-rank" in html,
           "methods section")
        eq(html.count("<svg "), html.count("<figure "), "every figure has its svg")
        ok(html.count("<figure ") >= 14, "figures: %d" % html.count("<figure "))
        eq([html.count(" %s age CDF by count and by bytes.</b>" % m)
            for m in ("atime", "mtime", "ctime")], [2, 2, 2],
           "an age CDF per file system and atime, mtime, ctime")
        check_headers(html)
        ok("&lt;script&gt;alert(1)" in html and "&lt;img src=x onerror=alert(1)&gt;" in html,
           "hostile project names shown as text")
        ok("No data" not in html, "full database: no section without data")
        golden("report.html", a)
        golden("cdf.csv", run("cdf", "--db", db, "--format", "csv"))
        golden("diff.json", run("diff", "--db", db, "--format", "json", "2", "3"))
        by_cmd = check_bundle(os.path.join(tmp, "a.tar.gz"), a, db)
        # Without a window the red list looks 90 days past the day of the
        # latest snapshot: pvfs's, 2010-04-01.
        check_summary(by_cmd, reportdb.T0 + 66 * DAY + 90 * DAY)
        check_units(by_cmd)
        alone = json.loads(run("files", "--db", db, "--snapshot", "6", "--by", "ctime",
                               "--format", "json"))
        got = [r for r in by_cmd.get("files", [])
               if r["title"] == "File ages by ctime: pvfs (snapshot #6)"]
        eq(got and got[0]["tables"], alone["tables"],
           "bundle: ctime ages equal `iocensus files --by ctime`")

        # Windows over missing data and at the right edge.
        labels = ["outage <over> missing data", "Scheduled maintenance: Lustre OSS "
                  "firmware upgrade", "second window 'near' the edge"]
        ann = os.path.join(tmp, "ann.txt")
        with open(ann, "w") as f:
            f.write("2010-03-02T02:00 2010-03-02T04:00 %s\n"
                    "2010-03-02T22:00 2010-03-03 %s\n"
                    "2010-03-02T20:00 2010-03-02T21:00 %s\n" % tuple(labels))
        page = report(db, os.path.join(tmp, "ann.html"), extra=["--annotate", ann]).decode()
        check_plot_order(page, labels)

        check_annotate(db, tmp)
        check_quarter(db, tmp)
        # A database with snapshots and no I/O, and an empty one.
        db2 = reportdb.build(os.path.join(tmp, "census"), BUILD, io=False)
        h2 = report(db2, os.path.join(tmp, "c.html")).decode("utf-8")
        check_page(h2, "no I/O")
        io_titles = [t for _, t in sections(h2)][-6:]
        nodata = [t for t, body in blocks(h2) if '<p class="nodata">No data' in body]
        eq(nodata, io_titles, "no I/O: the six I/O sections say no data")
        ok("No I/O samples ingested" in blocks(h2)[0][1],
           "no I/O: the summary says no I/O samples were ingested")
        db3 = reportdb.build(os.path.join(tmp, "empty"), BUILD, io=False, snapshots=False)
        h3 = report(db3, os.path.join(tmp, "d.html")).decode("utf-8")
        check_page(h3, "empty")
        census = ["Growth between snapshots", "Growth projection", "Space projection",
                  "File sizes", "File ages by atime", "File ages by mtime",
                  "File ages by ctime", "Cold data"]
        eq([t for t, _ in blocks(h3)][:10], ["Summary", "Snapshots"] + census,
           "empty database: every census section")
        eq([t for t, body in blocks(h3)[2:10]
            if re.search(r'class="note">[^<]*(needs two complete snapshots|'
                         r'needs complete snapshots|read from a complete snapshot)'
                         r'[^<]*this database has none\.</p>\n<p class="nodata">', body)],
           census, "empty database: each census section says what it needs")
        summ = blocks(h3)[0][1]
        ok("No snapshots" in summ and "No I/O samples ingested" in summ,
           "empty database: the summary says no snapshots, no I/O samples")

        hosts = ["oss-storage-node-%02d.example.org" % i for i in (1, 2, 3)]
        db4 = one_snapshot_db(os.path.join(tmp, "one"), hosts)
        h4 = report(db4, os.path.join(tmp, "e.html")).decode("utf-8")
        check_page(h4, "one snapshot")
        b4 = dict(blocks(h4))
        ok("Growth between snapshots needs two complete snapshots of one file "
           "system a day or more apart; scratch has 1." in
           b4.get("Growth between snapshots: scratch", ""),
           "one snapshot: the diff section says it needs two")
        eq([t for t in b4 if t.startswith(("Growth projection: scratch", "File "))],
           ["Growth projection: scratch to 100 files"] +
           ["%s: scratch (snapshot #1)" % t for t in census[3:-1]],
           "one snapshot: growth, size and age sections")
        check_lane_labels(h4, hosts)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    done()


main()
