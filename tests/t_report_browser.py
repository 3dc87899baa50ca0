"""t_report_browser: the report in a real browser (headless Chromium).

1. A screenshot of the report: a PNG of the requested size, not blank.
2. The report with a measuring script appended (the report itself has
   none), in a 1280-px wide window with every folded table opened: every
   <svg> has a nonzero box, its plotted group too, no plotted mark is
   empty, every mark and every text (tick and axis labels, legends,
   annotation labels, lane names) lies inside its figure, no table is
   wider than the page's column (no horizontal scrolling); alert() is
   never called. Also with annotated windows over missing data and at the
   right edge, and with long, similar host names. At 800 and 1400 px: the
   red list first, every table and cell inside its container, and in each
   treemap no two boxes overlapping and every label inside its box.
3. Hostile names: a tree with files and project directories named
   `<script>alert(1)` and `<img src=x onerror=alert(1)>`, scanned twice by
   fsscan (file system named `<svg onload=alert(3)>`), and I/O from hosts
   named like that too. In the rendered DOM the names are text, no
   injected element exists, and no alert ran.
"""
import html
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from tap import ok, eq, done                     # noqa: E402
from pace import limit  # noqa: E402
import reportdb                                  # noqa: E402

BUILD = os.environ["BUILD"]
IOCENSUS = os.path.join(BUILD, "iocensus")
FSSCAN = os.path.join(BUILD, "fsscan")
EVIL = [reportdb.EVIL_SCRIPT, reportdb.EVIL_IMG]
EVIL_FS = "<svg onload=alert(3)>"
EVIL_HOSTS = ["<script>alert(2)</script>", "<img src=y onerror=alert(2)>"]

# Runs before the page: alert, confirm and prompt only record their calls.
PRELUDE = """<script>
window.__calls = [];
function __record(m) {
  window.__calls.push(String(m));
  document.documentElement.setAttribute("data-alerts", JSON.stringify(window.__calls));
}
window.alert = window.confirm = window.prompt = __record;
</script>"""

# Runs after the page: measures every figure and writes the result as JSON.
MEASURE = """<script>
(function () {
  var figs = [], wide = [];
  document.querySelectorAll("details").forEach(function (d) { d.open = true; });
  var main = document.querySelector("main").getBoundingClientRect();
  document.querySelectorAll("table").forEach(function (t) {
    var c = t.parentElement;
    if (c.scrollWidth > c.clientWidth + 0.5 || t.getBoundingClientRect().right > main.right + 0.5)
      wide.push((t.caption ? t.caption.textContent : "?") + ": " +
                Math.round(c.scrollWidth) + " > " + Math.round(c.clientWidth));
  });
  document.querySelectorAll("svg").forEach(function (s, i) {
    var r = s.getBoundingClientRect(), vb = s.viewBox.baseVal;
    var g = s.querySelector("g.data"), b = g ? g.getBBox() : null;
    var marks = g ? g.querySelectorAll("polyline,polygon,rect,circle,path,text") : [];
    var empty = 0, outside = 0;
    marks.forEach(function (m) {
      var mb = m.getBBox();
      if (!(mb.width > 0 || mb.height > 0)) empty++;
      if (mb.x < -0.5 || mb.y < -0.5 || mb.x + mb.width > vb.width + 0.5 ||
          mb.y + mb.height > vb.height + 0.5) outside++;
    });
    var texts = [];
    s.querySelectorAll("text").forEach(function (t) {
      var tb = t.getBoundingClientRect();
      if (tb.left < r.left - 1 || tb.top < r.top - 1 || tb.right > r.right + 1 ||
          tb.bottom > r.bottom + 1)
        texts.push(t.textContent);
    });
    // A treemap: no two boxes overlap, each label inside its box (the
    // rect before it), as drawn at this width.
    var tmBoxes = 0, tmOverlap = [], tmLabels = [];
    if (g && g.classList.contains("treemap")) {
      var lb = Array.prototype.map.call(g.querySelectorAll("rect.tm-leaf"),
        function (x) { return x.getBoundingClientRect(); });
      tmBoxes = lb.length;
      for (var a = 0; a < lb.length; a++)
        for (var c = 0; c < a; c++) {
          var ow = Math.min(lb[a].right, lb[c].right) - Math.max(lb[a].left, lb[c].left);
          var oh = Math.min(lb[a].bottom, lb[c].bottom) - Math.max(lb[a].top, lb[c].top);
          if (ow > 0.5 && oh > 0.5) tmOverlap.push([a, c]);
        }
      g.querySelectorAll("text.tm-label").forEach(function (t) {
        var tb = t.getBoundingClientRect(), box = t.previousElementSibling;
        var bb = box ? box.getBoundingClientRect() : null;
        if (!bb || tb.left < bb.left - 0.5 || tb.right > bb.right + 0.5 ||
            tb.top < bb.top - 0.5 || tb.bottom > bb.bottom + 0.5)
          tmLabels.push(t.textContent);
      });
    }
    figs.push({i: i, w: r.width, h: r.height, gw: b ? b.width : 0, gh: b ? b.height : 0,
               treemap: !!(g && g.classList.contains("treemap")), tmBoxes: tmBoxes,
               tmOverlap: tmOverlap.length, tmLabels: tmLabels,
               marks: marks.length, empty: empty, outside: outside, texts: texts,
               nodata: g ? g.classList.contains("nodata") : true,
               title: s.querySelector("title") ? s.querySelector("title").textContent : ""});
  });
  // Every table inside its container, every cell drawn inside it (a
  // stacked table hides its header row: its cells are then the labels).
  var clipped = [], hidden = [], figTop = null, red = null;
  document.querySelectorAll("table").forEach(function (t) {
    var c = t.parentElement, cr = c.getBoundingClientRect();
    var name = t.caption ? t.caption.textContent : "?";
    if (t.scrollWidth > c.clientWidth + 0.5 || c.scrollWidth > c.clientWidth + 0.5)
      clipped.push(name + ": " + t.scrollWidth + " > " + c.clientWidth);
    t.querySelectorAll("td, tbody th").forEach(function (x) {
      var r = x.getBoundingClientRect();
      if (!(r.width > 0 && r.height > 0) || r.left < cr.left - 0.5 || r.right > cr.right + 0.5)
        hidden.push(name + ": " + x.textContent);
    });
    if (!red && name.indexOf("Red list") === 0)
      red = t;
  });
  var firstFig = document.querySelector("figure");
  var redFirst = !!red && (!firstFig || !!(red.compareDocumentPosition(firstFig) &
                                           Node.DOCUMENT_POSITION_FOLLOWING));
  var out = {figs: figs, wide: wide, calls: window.__calls, clipped: clipped,
             hidden: hidden, red: !!red, redFirst: redFirst,
             redTop: red ? red.getBoundingClientRect().top + window.scrollY : null,
             figTop: firstFig ? firstFig.getBoundingClientRect().top + window.scrollY : null,
             width: window.innerWidth,
             stacked: Array.prototype.filter.call(document.querySelectorAll("table"),
               function (t) { return getComputedStyle(t).display === "block"; }).length,
             scripts: document.querySelectorAll("script").length,
             imgs: document.querySelectorAll("img, iframe, object, embed, image").length,
             handlers: Array.prototype.filter.call(document.querySelectorAll("*"), function (e) {
               return Array.prototype.some.call(e.attributes, function (a) {
                 return a.name.indexOf("on") === 0; }); }).length,
             text: document.body.innerText};
  var pre = document.createElement("pre");
  pre.id = "__measure";
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
</script>"""


def chromium():
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    return None


def browse(tmp, args, url):
    prof = tempfile.mkdtemp(dir=tmp, prefix="profile.")
    cmd = [chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
           "--no-first-run", "--disable-background-networking",
           "--disable-component-update", "--disable-sync", "--hide-scrollbars",
           "--user-data-dir=" + prof] + args + [url]
    p = subprocess.run(cmd, capture_output=True, timeout=limit(120))
    shutil.rmtree(prof, ignore_errors=True)
    return p


def report(db, out, extra=()):
    p = subprocess.run([IOCENSUS, "report", "--db", db, "--out", out] + list(extra),
                       capture_output=True)
    if p.returncode != 0:
        raise RuntimeError("iocensus report: exit %d: %s" % (
            p.returncode, p.stderr.decode(errors="replace")[-400:]))
    with open(out, encoding="utf-8") as f:
        return f.read()


def instrument(page, path):
    """The page with PRELUDE first in <head> and MEASURE before </body>."""
    i = page.index("<head>") + len("<head>")
    page = page[:i] + PRELUDE + page[i:]
    j = page.rindex("</body>")
    with open(path, "w", encoding="utf-8") as f:
        f.write(page[:j] + MEASURE + page[j:])


def measure(tmp, page, name, width=1280):
    path = os.path.join(tmp, name + ".html")
    instrument(page, path)
    p = browse(tmp, ["--window-size=%d,1000" % width, "--virtual-time-budget=3000",
                     "--dump-dom"], "file://" + path)
    dom = p.stdout.decode("utf-8", "replace")
    m = re.search(r'<pre id="__measure">(.*?)</pre>', dom, re.S)
    if not ok(m is not None, "%s: page measured" % name,
              "chromium exit %d: %s" % (p.returncode, p.stderr.decode(errors="replace")[-300:])):
        return None, dom
    return json.loads(html.unescape(m.group(1))), dom


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        return None
    return struct.unpack(">II", head[16:24])


def check_figures(res, name, want_nodata=(), area=True):
    """area: the plotted group must have width and height (else one of
    them suffices: a vertical line is a plot too)."""
    figs = res["figs"]
    ok(len(figs) >= 1, "%s: figures found (%d)" % (name, len(figs)))
    flat = [f for f in figs if not (f["w"] > 0 and f["h"] > 0 and (
        f["gw"] > 0 and f["gh"] > 0 if area else f["gw"] > 0 or f["gh"] > 0))]
    ok(not flat, "%s: every svg and its plotted group have a nonzero box" % name,
       "empty: %r" % [f["title"] for f in flat][:4])
    bad = [f["title"] for f in figs if f["empty"] or not f["marks"]]
    ok(not bad, "%s: every plotted mark has an extent" % name, "in %r" % bad[:4])
    out = [f["title"] for f in figs if f["outside"]]
    ok(not out, "%s: every mark inside its figure" % name, "in %r" % out[:4])
    out = [(f["title"], f["texts"][:2]) for f in figs if f["texts"]]
    ok(not out, "%s: every text inside its figure" % name, "%r" % out[:4])
    eq(res["wide"], [], "%s: no table wider than the page" % name)
    eq([f["title"] for f in figs if f["nodata"]], list(want_nodata),
       "%s: figures without values" % name)
    eq(res["calls"], [], "%s: alert never called" % name)


def check_widths(tmp, page, name):
    """At 800 and 1400 px: the red list comes before any figure, no table
    is wider than its container and every cell is drawn inside it; at
    1400 px no table of the summary is stacked, at 800 px some are."""
    stacked = {}
    for w in (800, 1400):
        res, _ = measure(tmp, page, "%s-%d" % (name, w), width=w)
        if not res:
            continue
        eq(res["width"], w, "%s at %d px: the window is %d px wide" % (name, w, w))
        ok(res["red"] and res["redFirst"] and res["redTop"] < res["figTop"],
           "%s at %d px: the red list comes before any figure" % (name, w),
           "red %r, first %r, top %r, first figure's top %r" % (
               res["red"], res["redFirst"], res["redTop"], res["figTop"]))
        eq(res["clipped"], [], "%s at %d px: no table wider than its container" % (name, w))
        eq(res["hidden"][:5], [], "%s at %d px: every cell visible" % (name, w))
        trees = [f for f in res["figs"] if f["treemap"]]
        ok(trees and all(f["tmBoxes"] > 0 for f in trees),
           "%s at %d px: treemaps drawn (%d)" % (name, w, len(trees)))
        eq([(f["title"], f["tmOverlap"]) for f in trees if f["tmOverlap"]], [],
           "%s at %d px: no two boxes of a treemap overlap" % (name, w))
        eq([(f["title"], f["tmLabels"][:3]) for f in trees if f["tmLabels"]], [],
           "%s at %d px: every treemap label inside its box" % (name, w))
        stacked[w] = res["stacked"]
    if len(stacked) == 2:
        ok(stacked[800] > stacked[1400], "%s: more tables stacked at 800 px (%d) than at"
           " 1400 px (%d)" % (name, stacked[800], stacked[1400]))


def evil_db(tmp):
    """Two scans of a tree of hostile names, and hosts named like them."""
    tree = os.path.join(tmp, "tree")
    for name in EVIL + ["plain"]:
        os.makedirs(os.path.join(tree, name))
        with open(os.path.join(tree, name, name if name != "plain" else "f"), "w") as f:
            f.write("x" * 100)
    db = os.path.join(tmp, "evil.db")
    scan = [FSSCAN, "--db", db, "--quiet", "--fs", EVIL_FS, "--now", "1700000000", tree]
    subprocess.run(scan, check=True, capture_output=True)
    for name in EVIL:                        # growth between the scans
        for k in range(3):
            with open(os.path.join(tree, name, "%s.%d" % (name, k)), "w") as f:
                f.write("y" * 5000)
    subprocess.run(scan, check=True, capture_output=True)
    reportdb.ingest(db, BUILD, tmp, reportdb.dataset(hosts=2), names=EVIL_HOSTS)
    return db


def main():
    if not ok(chromium() is not None, "chromium is installed",
              "run scripts/install-deps (Debian package chromium)"):
        done()
    tmp = tempfile.mkdtemp(prefix="t_report_browser.")
    try:
        db = reportdb.build(os.path.join(tmp, "full"), BUILD)
        page = report(db, os.path.join(tmp, "report.html"))

        shot = os.path.join(tmp, "shot.png")
        p = browse(tmp, ["--window-size=1200,1600", "--screenshot=" + shot],
                   "file://" + os.path.join(tmp, "report.html"))
        eq(png_size(shot) if os.path.exists(shot) else None, (1200, 1600),
           "screenshot: a 1200x1600 PNG")
        ok(os.path.exists(shot) and os.path.getsize(shot) > 40000,
           "screenshot: not blank (%d bytes)" % (os.path.getsize(shot) if os.path.exists(shot) else 0),
           "chromium: %s" % p.stderr.decode(errors="replace")[-300:])

        check_widths(tmp, page, "full")
        res, dom = measure(tmp, page, "full")
        if res:
            check_figures(res, "full")
            eq(res["figs"] and len(res["figs"]), page.count("<svg "),
               "full: the browser sees every svg")
            eq((res["scripts"], res["imgs"], res["handlers"]), (2, 0, 0),
               "full: only the test's two scripts")
            ok(re.search(r"<html[^>]*data-alerts", dom) is None, "full: no alert ran")

        # Windows over missing data and at the right edge; host names
        # that differ only in their middle.
        ann = os.path.join(tmp, "ann.txt")
        with open(ann, "w") as f:
            f.write("2010-03-02T02:00 2010-03-02T04:00 outage over missing data\n"
                    "2010-03-02T22:00 2010-03-03 Scheduled maintenance: Lustre OSS "
                    "firmware upgrade\n"
                    "2010-03-02T20:00 2010-03-02T21:00 second window near the edge\n")
        page = report(db, os.path.join(tmp, "ann.html"), ["--annotate", ann])
        res, dom = measure(tmp, page, "annotated")
        if res:
            check_figures(res, "annotated")
        hosts = ["oss-storage-node-%02d.example.org" % i for i in (1, 2, 3)]
        long_db = reportdb.build(os.path.join(tmp, "long"), BUILD, io=False, snapshots=False)
        reportdb.ingest(long_db, BUILD, os.path.join(tmp, "long"), reportdb.dataset(),
                        names=hosts)
        page = report(long_db, os.path.join(tmp, "long.html"))
        res, dom = measure(tmp, page, "long names")
        if res:
            check_figures(res, "long names")

        db = evil_db(tmp)
        page = report(db, os.path.join(tmp, "evil.html"))
        res, dom = measure(tmp, page, "hostile")
        if res:
            # --now lies before the files' times: every age is in the
            # future, which a log axis cannot place; the three age CDFs
            # (atime, mtime, ctime) say so.
            check_figures(res, "hostile", ["%s age CDF by count and by bytes" % m
                                           for m in ("atime", "mtime", "ctime")],
                          area=False)
            eq((res["scripts"], res["imgs"], res["handlers"]), (2, 0, 0),
               "hostile: no injected script, img or event handler")
            for name in EVIL + EVIL_HOSTS + [EVIL_FS]:
                ok(name in res["text"], "hostile: %r shown as text" % name)
            for name in EVIL:                # a largest file's whole path
                path = "%s/%s/%s.0" % (os.path.join(tmp, "tree"), name, name)
                ok(path in res["text"], "hostile: file path %r shown as text" % path)
            ok(re.search(r"<html[^>]*data-alerts", dom) is None, "hostile: no alert ran")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    done()


main()
