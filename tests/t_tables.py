#!/usr/bin/env python3
"""t_tables: the table format on a terminal, at COLUMNS and in a pipe.

Every command, on the report tests' database (tests/lib/reportdb.py) and
the capacity example's (tests/lib/capdemo.py):

- through a pipe (no terminal, no COLUMNS), each table shows exactly its
  default columns: every column of the CSV but the ones listed in WIDE
  below (which the man page must list too), in the CSV's order, each
  header the JSON title; lines are whole (one header line) and the bytes
  are those of `-o` naming the default columns; `--wide` shows every
  column, and `--wide` at COLUMNS=80 the same tables;
- on a pseudo-terminal of 80 and of 200 columns (no COLUMNS), and with
  COLUMNS=80: every line is at most the width (counted here with
  unicodedata: East Asian wide characters 2, combining ones 0); no word
  of a text cell (its words computed here from the `--format csv` output
  of the same command) is split across lines: each is printed whole, or
  cut short with "..." (TRUNC); a default column missing is named by the
  line "(left out to fit N columns: ...)" under its table;
- no number is cut: each cell of a numeric column, read back from the
  fitted table (its columns found from the rule of dashes), is the CSV
  value of the same command to the precision shown (2,639; 6.8 TiB;
  73.0 for a share; dates, durations, yes/no);
- the notes (JSON "notes") come after the last row of the last table,
  under a line "Notes", and only the title before the first table;
- `-o` shows exactly the columns asked, in that order (CSV too);
- every numeric column carries a unit (JSON's "unit"), shows yes/no, or
  is one of the counts and ratios listed here as having none.
"""
import collections
import csv
import fcntl
import io
import json
import os
import pty
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import termios
import unicodedata
from datetime import datetime, timezone

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "lib"))
from tap import done, eq, ok  # noqa: E402
import capdemo  # noqa: E402
import reportdb  # noqa: E402

TOP = os.environ.get("TOP", os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
BUILD = os.path.abspath(os.environ.get("BUILD") or os.path.join(TOP,
                                                                 "build"))
IOCENSUS = os.path.join(BUILD, "iocensus")
WIDTH = 80

# Numbers that need no unit: ids, counts whose title names what they
# count, ranks and dimensionless ratios.
UNITLESS = {"id", "snapshot", "snapshot_a", "snapshot_b", "n", "rank",
            "entries", "depth", "periods", "idle_periods", "strict_periods",
            "io_runs", "noio_runs", "i", "rho", "servers", "pi", "p",
            "devices", "hosts", "members", "peak_members", "avg_imbalance",
            "peak_imbalance", "samples", "r2", "new_samples", "quarantined",
            "duplicates", "conflicts", "damage", "days"}

BINARY = {"B": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30,
          "TiB": 1 << 40, "PiB": 1 << 50, "EiB": 1 << 60}


def env(columns=None):
    e = dict(os.environ, LC_ALL="C", TZ="UTC")
    e.pop("COLUMNS", None)
    e.pop("IOCENSUS_DB", None)
    if columns:
        e["COLUMNS"] = str(columns)
    return e


def run(args, columns=None):
    p = subprocess.run([IOCENSUS] + args, capture_output=True, text=True,
                       env=env(columns))
    return p.returncode, p.stdout, p.stderr


def run_pty(args, cols):
    """The command's output on a pseudo-terminal of cols columns."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, cols, 0,
                                                       0))
    p = subprocess.Popen([IOCENSUS] + args, stdout=slave,
                         stderr=subprocess.PIPE, env=env())
    os.close(slave)
    out = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    p.wait()
    os.close(master)
    return p.returncode, out.decode().replace("\r\n", "\n")


def width(line):
    w = 0
    for ch in line:
        if unicodedata.combining(ch):
            continue
        w += 2 if unicodedata.east_asian_width(ch) in "WF" else 1
    return w


def tables(text):
    """{title: (header lines, [(start, end)] of the columns, body lines)}
    of a table format output: a table is its title, header lines, the
    rule, the rows, up to a blank line or the line naming the columns
    left out to fit (left_out)."""
    out = {}
    lines = text.split("\n")
    for i, ln in enumerate(lines):
        if not ln or set(ln) - set("- ") or not ln.startswith("-"):
            continue
        k = i - 1
        while k > 0 and lines[k - 1]:
            k -= 1
        spans = [(m.start(), m.end()) for m in re.finditer(r"-+", ln)]
        body = []
        for row in lines[i + 1:]:
            if not row or row.startswith(GONE):
                break
            body.append(row)
        out[lines[k]] = (lines[k + 1:i], spans, body)
    return out


GONE = "(left out to fit "


def left_out(text):
    """{title: [keys]} of the tables whose columns were left out to fit,
    from the line under their rows (which may wrap)."""
    out = {}
    for part in text.split("\n\n"):
        lines = part.strip("\n").split("\n")
        for i, ln in enumerate(lines):
            if ln.startswith(GONE):
                said = " ".join(lines[i:])
                m = re.match(r"\(left out to fit \d+ columns: ([a-z0-9_, ]+);"
                             r" --wide or -o shows them\)$", said)
                out[lines[0]] = m.group(1).split(", ") if m else [said]
    return out


def csv_tables(text):
    """{key: (columns, rows)} of a CSV output with "# key" lines."""
    out = {}
    for part in text.strip("\n").split("\n\n"):
        lines = part.split("\n")
        key = lines[0][2:]
        rows = list(csv.reader(io.StringIO("\n".join(lines[1:]))))
        out[key] = (rows[0], rows[1:])
    return out


def column_cells(spans, body, c):
    """The non-blank cells of column c, in order (a wrapped row's other
    lines are blank in a column of numbers)."""
    a, b = spans[c]
    if c + 1 == len(spans):
        b = None
    cells = [ln[a:b].strip() for ln in body]
    return [x for x in cells if x]


DURATION = re.compile(r"^(?:(\d+) d)? ?(?:(\d+) h)? ?(?:(\d+) min)? ?"
                      r"(?:(\d+) s)?$")


def read_back(text, value, unit):
    """Does the text shown stand for the CSV value (to its precision)?"""
    if text in ("n/a", "-"):       # missing: "-" in du's columns
        return value == ""
    if value == "":
        return False
    v = float(value)
    if text in ("yes", "no"):
        return v == (1 if text == "yes" else 0)
    m = re.fullmatch(r"(-?[\d,]+(?:\.(\d+))?) (B|KiB|MiB|GiB|TiB|PiB|EiB)",
                     text)
    if m:
        dec = len(m.group(2) or "")
        k = BINARY[m.group(3)]
        shown = float(m.group(1).replace(",", "")) * k
        return abs(shown - v) <= 0.5 * 10 ** -dec * k * 1.0001 + 1e-9
    m = re.fullmatch(r"(\d{4})-(\d\d)-(\d\d)(?: (\d\d):(\d\d))?", text)
    if m:
        t = datetime(*[int(x) for x in m.groups()[:3]],
                     int(m.group(4) or 0), int(m.group(5) or 0),
                     tzinfo=timezone.utc).timestamp()
        return 0 <= v - t < (60 if m.group(4) else 86400)
    m = DURATION.match(text)
    if m and any(m.groups()):
        d, h, mi, s = (int(x or 0) for x in m.groups())
        secs = ((d * 24 + h) * 60 + mi) * 60 + s
        if unit == "min":
            v *= 60
        return abs(secs - v) <= (0.5 if m.group(4) else 30) + 1e-6
    m = re.fullmatch(r"-?[\d,]+(?:\.(\d+))?", text)
    if not m:
        return False
    dec = len(m.group(1) or "")
    shown = float(text.replace(",", ""))
    if unit == "fraction":
        v *= 100
    return abs(shown - v) <= 0.5 * 10 ** -dec * 1.0001 + 1e-9 * abs(v)


def numeric(col):
    return all(re.fullmatch(r"-?\d+(\.\d*)?(e[-+]?\d+)?", x or "0")
               for x in col)


# The columns each command's table leaves out unless --wide or -o asks
# for them ("*": every table of the command), as the man page lists them.
WIDE = {
    "snapshots": {"*": ["finished_at", "complete", "dirs", "alloc_bytes",
                        "scanned_at"]},
    "prune": {"summary": ["snapshots"]},
    "diff": {"filesystems": ["t_a", "t_b", "files_a", "files_b", "bytes_a",
                             "bytes_b", "alloc_a", "alloc_b"],
             "groups": ["files_a", "bytes_a", "share_new_capacity"]},
    "growth": {"filesystems": ["first", "value_first", "line"],
               "projection": ["n", "r2", "rmse", "days_to_crossing",
                              "doubling_days", "target", "why"]},
    "capacity": {"filesystems": ["snapshot", "t", "inodes", "inodes_used",
                                 "files", "files_per_day", "full_lo",
                                 "full_hi", "full_state", "full_why",
                                 "inodes_full", "inodes_full_lo",
                                 "inodes_full_hi", "inodes_state",
                                 "inodes_why", "device_names", "capacity"],
                 "devices": ["snapshot", "inodes", "inodes_used"],
                 "projects": ["files", "bytes", "share", "limit_inodes",
                              "full_lo", "full_hi", "state", "why",
                              "inodes_used"]},
    "cold": {"filesystems": ["snapshot", "t", "share_files", "d_files"],
             "projects": ["snapshot", "t", "metric", "share_files",
                          "d_files"]},
    "usage": {"*": ["alloc_bytes", "d_alloc"]},
    "files": {"facts": ["popular_lo", "popular_hi", "popular_files",
                        "files_lt_2mib", "bytes_lt_2mib"]},
    "throughput": {"series": ["minutes", "complete", "rd_max_mib_s",
                              "wr_max_mib_s"],
                   "totals": ["complete", "calendar_minutes", "days",
                              "days_empty", "rd_bytes_per_day",
                              "wr_bytes_per_day", "peak_rd_t",
                              "peak_wr_t"]},
    "cdf": {"summary": ["n", "calendar_minutes", "peak_source", "peak_t"]},
    "idle": {"periods": ["lo_s", "hi_s"],
             "strict_periods": ["lo_s", "hi_s"],
             "summary": ["n", "calendar_minutes", "peak_source", "peak_t",
                         "threshold_pct", "idle_minutes", "longest_t",
                         "strict_minutes", "strict_periods",
                         "longest_strict_minutes", "longest_strict_t"]},
    "burst": {"burst": ["valid_minutes", "io_minutes", "io_runs",
                        "noio_runs", "servers"]},
    "devices": {t: ["samples", "covered_s", "minutes", "peak_t", "avg_iops",
                    "peak_iops", "avg_req_kib", "read_share"] +
                (["wwn", "serial", "model", "slot"] if t == "devices" else [])
                for t in ("devices", "hosts")},
    "health": {"levels": ["devices", "what"]},
    "ingest": {"sources": ["conflicts", "quarantined_first",
                           "quarantined_last"],
               "totals": ["skipped", "hosts", "devices"]},
}
WIDE["devices"]["imbalance"] = ["mean_avg_mib_s", "peak_members",
                                "mean_peak_mib_s"]
WIDE["health"].update({t: ["threshold", "peers", "busy_hours",
                           "compared_hours", "hours_above", "period_hours"]
                       for t in ("devices", "hosts")})
WIDE["health"]["called"] = ["start", "end", "wwn", "model"]
WIDE["health"]["devices"] += ["episode_seconds", "start", "end", "wwn",
                              "serial", "model", "slot"]


def man_hidden():
    """{command: {table: [keys]}}: the man page's default columns left
    out."""
    with open(os.path.join(TOP, "docs", "iocensus.1")) as f:
        man = f.read()
    part = man.split("The columns a table leaves out by default")[1]
    part = part.split(".El")[0]
    out = {}
    for item in part.split(".It Cm ")[1:]:
        cmd, _, body = item.partition("\n")
        text = " ".join(ln for ln in body.split("\n"))
        text = re.sub(r"\.Sy (\w+) :", r"@\1:", text)
        text = re.sub(r"\.Sy (\w+)\s*and\s*@", r"@\1+@", text)
        text = text.replace(", and by size", ",")
        cur = out.setdefault(cmd.strip(), {})
        if "@" not in text:
            cur["*"] = re.findall(r"[a-z0-9_]+", text)
            continue
        for chunk in text.split("@")[1:]:
            if chunk.endswith("+"):
                continue
            names, _, keys = chunk.partition(":")
            cur[names] = re.findall(r"[a-z0-9_]+", keys)
        for chunk in re.findall(r"@(\w+)\+@(\w+):", text):
            cur[chunk[0]] = cur[chunk[1]]
    return out


def commands(db, cap, logs):
    return [
        ("snapshots", ["snapshots", "--db", db]),
        ("prune", ["prune", "--keep-daily", "1", "--dry-run", "--db", db]),
        ("diff", ["diff", "1", "3", "--db", db]),
        ("diff", ["diff", "1", "3", "--by", "dir", "--depth", "3", "--db",
                  db]),
        ("growth", ["growth", "--target", "1e3", "--db", db]),
        ("growth", ["growth", "--fs", "gpfs", "--metric", "bytes",
                    "--target", "200GiB", "--db", db]),
        ("growth", ["growth", "--fs", "proj", "--metric", "used", "--db",
                    cap]),
        ("capacity", ["capacity", "--db", db]),
        ("capacity", ["capacity", "--quarter", "2027Q1", "--db", cap]),
        ("cold", ["cold", "--db", db]),
        ("cold", ["cold", "--days", "30", "--metric", "mtime", "--db",
                  db]),
        ("usage", ["usage", "--db", db]),
        ("usage", ["usage", "--by", "user", "--db", cap]),
        ("du", ["du", "--fs", "gpfs", "--depth", "3", "--db", db]),
        ("files", ["files", "--db", db]),
        ("files", ["files", "--by", "atime", "--db", cap]),
        ("throughput", ["throughput", "--db", db]),
        ("throughput", ["throughput", "--every", "1d", "--db", db]),
        ("cdf", ["cdf", "--db", db]),
        ("idle", ["idle", "--db", db]),
        ("burst", ["burst", "--db", db]),
        ("devices", ["devices", "--db", db]),
        ("health", ["health", "--db", db]),
        ("ingest", ["ingest", "--db", logs[0]] + logs[1:]),
    ]


def plain(word):
    """A word printed as the CSV has it: printable ASCII, no backslash
    (the table format escapes the others)."""
    return word.isascii() and word.isprintable() and "\\" not in word


def check_words(name, key, text_cells, body, limit):
    """No word of a text cell split across lines: each is a token of the
    table's rows (whole), or its first letters and "..." (cut short)."""
    need = collections.Counter(w for v in text_cells for w in v.split()
                               if plain(w))
    have = collections.Counter(" ".join(body).split())
    cut = [t[:-3] for t in have if t.endswith("...") and len(t) > 3]
    bad = []
    for w, n in need.items():
        short = sum(have[t + "..."] for t in cut if w.startswith(t) and
                    len(t) < len(w))
        if have[w] + short < n:
            bad.append("%r: %d of %d whole" % (w, have[w], n))
    ok(not bad, "%s %s at %s: no word of a cell split across lines" %
       (name, key, limit), "; ".join(bad[:4]))


def check_notes_after(name, out, notes, limit):
    """Only the title before the first table; the notes, each whole, under
    "Notes" after the last row."""
    parts = out.split("\n\n")
    flat = " ".join(out.split())
    if not notes:
        ok("\nNotes\n" not in out, "%s at %s: no notes, no Notes" %
           (name, limit))
        return
    ok(len(parts[0].strip("\n").split("\n")) == 1 and
       parts[-1].startswith("Notes\n"), "%s at %s: the title first, the "
       "notes last" % (name, limit), parts[0][:200])
    tail = " ".join(parts[-1].split())
    missing = [n for n in notes if plain(n.replace(" ", "")) and
               " ".join(n.split()) not in tail]
    ok(not missing, "%s at %s: every note under Notes, after the last row"
       % (name, limit), missing[:2])
    ok(len(flat) - len(tail) == flat.rfind(tail), "... nothing after them",
       parts[-1][-200:])


def check_fitted(name, out, limit, res, csvt, hidden):
    """A table format output laid out to limit columns."""
    wide = [ln for ln in out.split("\n") if width(ln) > limit]
    ok(not wide, "%s: every line within %d columns" % (name, limit),
       "%d lines, the first: %r" % (len(wide), wide[:1]))
    got, gone = tables(out), left_out(out)
    for key, (cols, rows) in csvt.items():
        t = res["tables"][key]
        if t["title"] not in got:
            continue        # a detail table: named, not printed
        hid = hidden.get(key, hidden.get("*", []))
        default = [c for c in cols if c not in hid]
        shown = [c for c in default if c not in gone.get(t["title"], [])]
        _, spans, body = got[t["title"]]
        eq(len(spans), len(shown), "%s %s at %s: the default columns but "
           "those named as left out to fit (%d of %d)" % (
               name, key, limit, len(shown), len(default)))
        ok(set(gone.get(t["title"], [])) <= set(default),
           "... which are default columns", gone.get(t["title"]))
        text = [r[cols.index(k)] for r in rows for k in shown
                if not numeric([r[cols.index(k)] for r in rows])]
        check_words(name, key, text, body, limit)
        yield key, cols, rows, shown, spans, body


def check_numbers(name, key, cols, rows, shown, spans, body, units):
    bad = []
    for c, k in enumerate(shown if len(spans) == len(shown) and rows
                          else []):
        vals = [r[cols.index(k)] for r in rows]
        if not numeric(vals):
            continue
        cells = column_cells(spans, body, c)
        if len(cells) != len(vals):
            bad.append("%s: %d cells for %d rows" % (k, len(cells),
                                                     len(vals)))
            continue
        for txt, v in zip(cells, vals):
            if not read_back(txt, v, units[k]):
                bad.append("%s: %r shown for %r" % (k, txt, v))
        if units[k] is None and k not in UNITLESS and not all(
                x in ("yes", "no", "n/a") for x in cells):
            bad.append("%s: a number without a unit" % k)
    ok(not bad, "%s %s: every number whole, its CSV value to the "
       "precision shown, with its unit" % (name, key), "; ".join(bad[:5]))


def check_pipe(name, args, piped, res, csvt, hidden):
    """Through a pipe: the default columns, their headers on one line,
    the bytes of -o naming them."""
    got = tables(piped)
    ok(not left_out(piped), "%s piped: no column left out to fit" % name)
    for key, (cols, rows) in csvt.items():
        t = res["tables"][key]
        if t["title"] not in got:
            continue
        hid = hidden.get(key, hidden.get("*", []))
        default = [c for c in cols if c not in hid]
        head, spans, body = got[t["title"]]
        titles = {c["key"]: c["title"] for c in t["columns"]}
        heads = [head[0][a:b if i + 1 < len(spans) else None].strip()
                 for i, (a, b) in enumerate(spans)] if len(head) == 1 else []
        ok(len(heads) == len(default) and all(
            h == titles[k] or h.startswith(titles[k] + " (")
            for h, k in zip(heads, default)), "%s %s piped: exactly the "
           "default columns, in order, on one header line (%d of %d)" % (
               name, key, len(default), len(cols)), (heads, default))
        rc, chosen, _ = run(args + ["--table", key, "-o", ",".join(default)])
        rc, one, _ = run(args + ["--table", key])
        eq(chosen, one, "%s %s piped: the bytes of -o naming them" %
           (name, key))
        if hidden.get(key, hidden.get("*")):
            rc, every, _ = run(args + ["--table", key, "--wide"])
            eq(len(tables(every)[t["title"]][1]), len(cols), "%s %s piped "
               "--wide: every column" % (name, key))


def check_command(cmd, args, hidden):
    name = " ".join(a for a in args if "/" not in a)
    rc, piped, err = run(args)
    ok(rc == 0, "%s: runs through a pipe" % name, err)
    rc, js, _ = run(args + ["--format", "json"])
    res = json.loads(js) if rc == 0 else {"tables": {}, "notes": []}
    rc, csv_text, _ = run(args + ["--format", "csv"])
    csvt = csv_tables(csv_text) if cmd != "ingest" else {}
    if cmd != "ingest":
        check_pipe(name, args, piped, res, csvt, hidden)
        check_notes_after(name, piped, res["notes"], "a pipe")
        rc, wide_pipe, _ = run(args + ["--wide"])
        rc, wide_80, _ = run(args + ["--wide"], WIDTH)
        eq(tables(wide_80), tables(wide_pipe), "%s: --wide at COLUMNS=80 "
           "gives the tables of a pipe with --wide, lines whole" % name)
    rc, fitted, err = run(args, WIDTH)
    ok(rc == 0, "%s: runs at COLUMNS=80" % name, err)
    for key, cols, rows, shown, spans, body in check_fitted(
            name, fitted, WIDTH, res, csvt, hidden):
        units = {c["key"]: c["unit"] for c in res["tables"][key]["columns"]}
        check_numbers(name, key, cols, rows, shown, spans, body, units)
    for cols in (WIDTH, 200):
        rc, out = run_pty(args, cols)
        ok(rc == 0, "%s: runs on a terminal of %d columns" % (name, cols))
        list(check_fitted(name + " (tty)", out, cols, res, csvt, hidden))
        if cmd != "ingest":
            check_notes_after(name, out, res["notes"], "%d columns" % cols)


def check_tty(db):
    args = ["devices", "--db", db]
    rc, out = run_pty(args, WIDTH)
    rc2, want, _ = run(args, WIDTH)
    eq(out, want, "a terminal of 80 columns: as COLUMNS=80 lays it out")
    rc, out = run_pty(args, 200)
    eq(out, run(args, 200)[1], "a terminal of 200 columns: as COLUMNS=200")
    rc, piped, _ = run(args)
    ok(max(width(ln) for ln in piped.split("\n")) > 80,
       "no terminal, no COLUMNS: lines whole (wider than 80)")


def check_narrow(db):
    """A window too narrow for the default columns: words cut short with
    "...", then the columns at the right left out and named."""
    args = ["diff", "1", "3", "--by", "dir", "--depth", "3", "--db", db,
            "--table", "groups"]
    rc, out, _ = run(args, 50)
    rc, csv_text, _ = run(args + ["--format", "csv"])
    ok(out and all(width(ln) <= 50 for ln in out.split("\n")),
       "COLUMNS=50: every line within 50 columns", out[:300])
    t = tables(out)["Growth per directory"]
    gone = left_out(out).get("Growth per directory", [])
    cols = csv_text.split("\n")[0].split(",")
    default = [c for c in cols if c not in WIDE["diff"]["groups"]]
    ok(gone and gone == default[len(default) - len(gone):],
       "... the default columns at the right left out, named", gone)
    eq(len(t[1]) + len(gone), len(default), "... the others shown")
    names = [r[0] for r in csv.reader(io.StringIO(csv_text))][1:]
    cut = [w for w in " ".join(t[2]).split() if w.endswith("...")]
    ok(cut and all(any(w.startswith(x[:-3]) for n in names
                       for w in n.split()) for x in cut),
       "... long words cut short with ..., the first letters of a name's",
       cut[:5])
    check_words("diff --by dir", "groups", names, t[2], 50)


def check_columns(db):
    rc, out, err = run(["devices", "--db", db, "-o", "util,HOST",
                        "--table", "hosts", "--format", "csv"])
    eq(out.split("\n")[0], "util,host", "-o: the columns asked, in their "
       "order, in CSV too")
    rc, out, err = run(["devices", "--db", db, "-o", "util,host",
                        "--table", "hosts"], WIDTH)
    t = tables(out)["Hosts"]
    eq(len(t[1]), 2, "-o: two columns in the table")
    ok(t[0][-1].split()[-1] == "Host" and "Utilisation" in " ".join(t[0]),
       "... Utilisation, then Host", t[0])
    rc, out, err = run(["devices", "--db", db, "-o", "+avg_iops",
                        "--table", "devices"])
    eq(len(tables(out)["Devices"][1]), 9, "-o +KEY: the default columns "
       "and one")
    rc, out, err = run(["devices", "--db", db, "-o", "+avg_iops",
                        "--table", "devices"], WIDTH)
    eq((len(tables(out)["Devices"][1]), left_out(out)), (8, {"Devices": [
        "avg_iops"]}), "... at COLUMNS=80, where they do not fit, the last"
       " left out and named")
    rc, out, err = run(["devices", "--db", db, "-o", "host,samplez"])
    ok(rc == 2 and out == "" and "no column 'samplez'; did you mean "
       "'samples'?" in err and "table hosts has host, devices" in err,
       "-o with an unknown key: usage error, the one meant, the keys", err)
    rc, out, err = run(["devices", "--db", db, "-o", "host,"])
    ok(rc == 2 and "--columns host,: expected column keys" in err,
       "-o with an empty key: usage error", err)
    rc, out, err = run(["report", "--db", db, "-o", "host"])
    ok(rc == 2 and "does not apply" in err, "-o: not for report", err)


def check_units(db):
    rc, out, _ = run(["diff", "1", "3", "--db", db, "--wide"])
    ok("Allocated A" in out and "New allocated" in out and
       "Capacity" not in out, "diff: allocated bytes named so", out[:0])
    rc, out, _ = run(["throughput", "--db", db, "--table", "series",
                      "-o", "t,partial"])
    rows = tables(out)["Throughput per bucket"][2]
    ok(rows and all(r.split()[-1] in ("yes", "no") for r in rows),
       "throughput: Partial as yes or no", rows[:3])
    rc, out, _ = run(["growth", "--target", "1e3", "--fs", "gpfs",
                      "--db", db, "--table", "projection", "--wide"])
    head = tables(out)["Projection to the target"][0][0]
    ok("Slope (files/day)" in head and "Rate per day (%)" in head and
       "RMSE (files)" in head, "growth: slope, rate and RMSE with units",
       head)


def check_notes(db):
    rc, out, _ = run(["burst", "--db", db], WIDTH)
    rc, whole, _ = run(["burst", "--db", db])
    notes = whole.split("\n\n")[-1].split("\n")
    ok(max(len(n) for n in notes) > WIDTH, "burst's notes are long lines")
    eq(" ".join(out.split("\n\n")[-1].split()), " ".join(
        whole.split("\n\n")[-1].split()), "... wrapped at 80, word for word")
    rc, out, _ = run(["burst", "--db", db, "--table", "burst"])
    ok("Notes" not in out and out.startswith("\n"), "--table: the table "
       "alone, no title nor notes", out[:100])


def main():
    tmp = tempfile.mkdtemp(prefix="t_tables.")
    try:
        db = reportdb.build(os.path.join(tmp, "r"), BUILD)
        os.mkdir(os.path.join(tmp, "c"))
        cap = capdemo.build(os.path.join(tmp, "c"), BUILD)
        logs = [os.path.join(tmp, "i.db")] + sorted(
            os.path.join(tmp, "r", f) for f in os.listdir(
                os.path.join(tmp, "r")) if f.endswith(".log"))
        eq(man_hidden(), WIDE, "the man page lists the columns a table "
           "leaves out by default, as this test does")
        for cmd, args in commands(db, cap, logs):
            check_command(cmd, args, WIDE.get(cmd, {}))
        check_tty(db)
        check_narrow(db)
        check_columns(db)
        check_units(db)
        check_notes(db)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    done()


if __name__ == "__main__":
    main()
