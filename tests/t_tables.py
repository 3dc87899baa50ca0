#!/usr/bin/env python3
"""t_tables: the table format at a terminal's width.

Every command, on the report tests' database (tests/lib/reportdb.py) and
the capacity example's (tests/lib/capdemo.py), run with COLUMNS=80 and
through a pseudo-terminal of 80 columns (no COLUMNS):

- every line is at most 80 display columns (counted here with
  unicodedata: East Asian wide characters 2, combining ones 0);
- no number is cut: each cell of a numeric column, read back from the
  fitted table (its columns found from the rule of dashes), is the CSV
  value of the same command to the precision shown (2,639; 6.8 TiB;
  73.0 for a share; dates, durations, yes/no);
- the default table shows exactly the columns the man page does not list
  as left out on a terminal: the same bytes as `-o` naming them;
- `-o` shows exactly the columns asked, in that order (CSV too), and
  `--wide` gives the whole table, the bytes of a pipe without COLUMNS;
- every numeric column carries a unit (JSON's "unit"), shows yes/no, or
  is one of the counts and ratios listed here as having none.
"""
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
    rule, the rows, up to a blank line."""
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
            if not row:
                break
            body.append(row)
        out[lines[k]] = (lines[k + 1:i], spans, body)
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
    if text == "n/a":
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


def man_hidden():
    """{command: {table: [keys]}}: the man page's columns left out."""
    with open(os.path.join(TOP, "docs", "iocensus.1")) as f:
        man = f.read()
    part = man.split("The columns left out on a terminal")[1]
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


def check_command(cmd, args, hidden):
    name = " ".join(a for a in args if "/" not in a)
    rc, fitted, err = run(args, WIDTH)
    ok(rc == 0, "%s: runs at COLUMNS=80" % name, err)
    wide = [ln for ln in fitted.split("\n") if width(ln) > WIDTH]
    ok(not wide, "%s: every line within 80 columns" % name,
       "%d lines, the first: %r" % (len(wide), wide[:1]))
    if cmd == "ingest":
        return
    rc, whole, _ = run(args)
    rc, wide_out, _ = run(args + ["--wide"], WIDTH)
    eq(tables(wide_out), tables(whole), "%s: --wide gives the tables of a"
       " pipe, every column, lines whole" % name)
    rc, js, _ = run(args + ["--format", "json"])
    res = json.loads(js)
    rc, csv_text, _ = run(args + ["--format", "csv"])
    got_tables = tables(fitted)
    for key, (cols, rows) in csv_tables(csv_text).items():
        t = res["tables"][key]
        if t["title"] not in got_tables:
            continue        # a detail table: named, not printed
        units = {c["key"]: c["unit"] for c in t["columns"]}
        left_out = hidden.get(key, hidden.get("*", []))
        shown = [c for c in cols if c not in left_out]
        _, spans, body = got_tables[t["title"]]
        if not rows:
            eq(body, ["(no rows)"], "%s %s: no rows, said so" % (name, key))
        eq(len(spans), len(shown), "%s %s: the columns the man page does "
           "not leave out (%d of %d)" % (name, key, len(shown), len(cols)))
        rc, chosen, _ = run(args + ["--table", key, "-o", ",".join(shown)],
                            WIDTH)
        rc, default, _ = run(args + ["--table", key], WIDTH)
        eq(chosen, default, "%s %s: the default is -o of those columns" %
           (name, key))
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
           "precision shown, with its unit" % (name, key), "; ".join(
               bad[:5]))


def check_tty(db):
    args = ["devices", "--db", db]
    rc, out = run_pty(args, WIDTH)
    rc2, want, _ = run(args, WIDTH)
    ok(rc == 0 and all(width(ln) <= WIDTH for ln in out.split("\n")),
       "a terminal of 80 columns: devices fits it", out[:300])
    eq(out, want, "... as COLUMNS=80 lays it out")
    rc, out = run_pty(args, 200)
    eq(out, run(args, 200)[1], "a terminal of 200 columns: as COLUMNS=200")
    ok(len(tables(out)["Devices"][1]) < len(tables(run(args)[1])[
        "Devices"][1]), "... leaving out the man page's columns")
    rc, out = run_pty(["growth", "--target", "1e3", "--db", db], 100)
    ok(all(width(ln) <= 100 for ln in out.split("\n")),
       "a terminal of 100 columns: growth fits it", out[:300])
    rc, piped, _ = run(args)
    ok(max(width(ln) for ln in piped.split("\n")) > 200,
       "no terminal, no COLUMNS: every column, whole lines")


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
                        "--table", "devices"], WIDTH)
    eq(len(tables(out)["Devices"][1]), 9, "-o +KEY: the default columns "
       "and one")
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
    notes = whole.split("\n\n")[0].split("\n")
    ok(max(len(n) for n in notes) > WIDTH, "burst's notes are long lines")
    eq(" ".join(out.split("\n\n")[0].split()), " ".join(
        whole.split("\n\n")[0].split()), "... wrapped at 80, word for word")


def main():
    tmp = tempfile.mkdtemp(prefix="t_tables.")
    try:
        db = reportdb.build(os.path.join(tmp, "r"), BUILD)
        os.mkdir(os.path.join(tmp, "c"))
        cap = capdemo.build(os.path.join(tmp, "c"), BUILD)
        logs = [os.path.join(tmp, "i.db")] + sorted(
            os.path.join(tmp, "r", f) for f in os.listdir(
                os.path.join(tmp, "r")) if f.endswith(".log"))
        hidden = man_hidden()
        ok(len(hidden) >= 12, "the man page lists the columns left out",
           sorted(hidden))
        for cmd, args in commands(db, cap, logs):
            check_command(cmd, args, hidden.get(cmd, {}))
        check_tty(db)
        check_columns(db)
        check_units(db)
        check_notes(db)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    done()


if __name__ == "__main__":
    main()
