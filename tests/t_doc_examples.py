#!/usr/bin/env python3
"""t_doc_examples: the worked examples of docs/analyses.md,
docs/fsstats-format.md and docs/diskstats.md run, and print what the
documents show.

An example is the fenced block after a line "<!-- example: NAME ... -->"
in a Markdown file of docs/: lines "$ COMMAND", each followed by the
exact standard output it prints. Each command runs with sh in a fresh
directory, with the build's programs first in PATH, and must exit 0 and
print exactly those lines. Every example found must have a setup here,
and every setup an example, so that an example added to the docs without
a check, or removed while its check stays, fails. The examples another
test runs are listed in ELSEWHERE with that test, which must read them
by name.

Setups: "io-analyses" builds ./iocensus.db from the minute table after
"<!-- example-data: io-minutes -->" (raw captures written here, then
`iostatmon import` and `iocensus ingest`); "iostat" writes the block
after "<!-- example-file: capture.raw -->"; "fsstats-csv" needs nothing
(its commands make the tree).

The numbers the documents state in words about the I/O example (shares
below the peak, quantiles, idle runs, I, rho, Pi and P) are also
computed here from the minute table with fractions, independently of
iocensus, and compared with the rows the example prints.
"""
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
from fractions import Fraction

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "lib"))
from tap import done, eq, ok  # noqa: E402
from pace import limit  # noqa: E402

TOP = os.environ.get("TOP", os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
BUILD = os.path.abspath(os.environ.get("BUILD") or os.path.join(TOP, "build"))
MIB = 1 << 20
T0 = 1267401600                 # 2010-03-01 00:00 UTC, the example's start
REQ_SECTORS = 1024              # every request of the example is 512 KiB


def read(rel):
    with open(os.path.join(TOP, rel), encoding="utf-8") as f:
        return f.read()


def blocks(text, kind):
    """{name: body} of the fenced blocks after "<!-- KIND: NAME ... -->"."""
    return {m.group(1): m.group(2) for m in re.finditer(
        r"<!-- %s: (\S+)[^\n]*-->\n```\n(.*?)```" % re.escape(kind), text,
        re.S)}


def doc_examples():
    """{name: (doc, body)} of every example of docs/*.md."""
    out = {}
    for name in sorted(os.listdir(os.path.join(TOP, "docs"))):
        if name.endswith(".md"):
            rel = os.path.join("docs", name)
            for k, body in blocks(read(rel), "example").items():
                out[k] = (rel, body)
    return out


def run_example(doc, name, body, cwd):
    env = dict(os.environ, PATH=BUILD + os.pathsep + os.environ["PATH"],
               LC_ALL="C", TZ="UTC")
    env.pop("IOCENSUS_DB", None)
    cmds = re.split(r"^\$ ", body, flags=re.M)
    ok(cmds[0] == "" and len(cmds) > 1, "%s: example %s starts with a"
       " command" % (doc, name))
    for c in cmds[1:]:
        line, _, want = c.partition("\n")
        p = subprocess.run(line, shell=True, cwd=cwd, env=env,
                           capture_output=True, text=True, timeout=limit(300))
        ok(p.returncode == 0, "%s: `%s` exits 0" % (doc, line),
           "status %d: %s" % (p.returncode, p.stderr.strip()))
        eq(p.stdout, want, "%s: `%s` prints what the document shows" %
           (doc, line))


# ---------------------------------------------------------------- io-analyses

def minute_table(doc):
    """[(minute start, {host: (read MiB, write MiB)})] of the example's
    data table, and the hosts in column order."""
    text = read(doc)
    m = re.search(r"<!-- example-data: io-minutes[^\n]*-->\n(.*?)\n\n",
                  text, re.S)
    rows = [r.strip().strip("|").split("|") for r in m.group(1).split("\n")]
    head = [c.strip() for c in rows[0]]
    hosts = [h.split()[0] for h in head[1::2]]
    out = []
    for r in rows[2:]:
        cells = [c.strip() for c in r]
        hh, mm = cells[0].split(":")
        t = T0 + 3600 * int(hh) + 60 * int(mm)
        vals = [Fraction(c) for c in cells[1:]]
        out.append((t, {h: (vals[2 * i], vals[2 * i + 1])
                        for i, h in enumerate(hosts)}))
    return out, hosts


def capture(minutes, host):
    """A raw capture of host's one disk, sda, 20 columns: a read at the
    start of the first minute and at the end of every minute."""
    v = [10 ** 6] * 17
    v[8] = 0
    lines = []
    for k in range(len(minutes) + 1):
        if k:
            rd, wr = minutes[k - 1][1][host]
            rs, ws = int(rd * 2048), int(wr * 2048)
            ri, wi = rs // REQ_SECTORS, ws // REQ_SECTORS
            v[0] += ri
            v[2] += rs
            v[3] += 4 * ri
            v[4] += wi
            v[6] += ws
            v[7] += 6 * wi
            v[9] += min(59000, 5 * (ri + wi))
            v[10] += 4 * ri + 6 * wi
        t = minutes[0][0] + 60 * k
        lines.append("T %d" % t)
        lines.append("   8       0 sda " + " ".join(
            str(x % (1 << 32) if i in (3, 7, 9, 10, 14, 16) else x)
            for i, x in enumerate(v)))
    return "\n".join(lines) + "\n"


def setup_io(cwd):
    minutes, hosts = minute_table("docs/analyses.md")
    ok(len(minutes) == 12 and len(hosts) == 2, "analyses.md: the example's"
       " minute table read (%d minutes, hosts %s)" % (len(minutes), hosts))
    logs = os.path.join(cwd, "logs")
    for h in hosts:
        raw = os.path.join(cwd, h + ".raw")
        with open(raw, "w") as f:
            f.write(capture(minutes, h))
        p = subprocess.run([os.path.join(BUILD, "iostatmon"), "import", raw,
                            "--host", h, "-o", logs], capture_output=True,
                           text=True)
        ok(p.returncode == 0, "import of %s's capture" % h, p.stderr)
    p = subprocess.run([os.path.join(BUILD, "iocensus"), "ingest", "--quiet",
                        "--db", os.path.join(cwd, "iocensus.db"), logs],
                       capture_output=True, text=True)
    ok(p.returncode == 0, "ingest of the example's logs", p.stderr)
    return minutes, hosts


def table_rows(body, cmd):
    """The data rows of the table that `$ cmd` prints, split on runs of
    two blanks or more."""
    part = body.split("$ " + cmd + "\n", 1)[1].split("\n$ ", 1)[0]
    lines = [ln for ln in part.split("\n") if ln.strip()]
    return [re.split(r"\s{2,}", ln.strip()) for ln in lines[3:]]


def runs(flags):
    """Maximal runs of equal values: [(value, length)]."""
    out = []
    for f in flags:
        if out and out[-1][0] == f:
            out[-1][1] += 1
        else:
            out.append([f, 1])
    return out


def burst_oracle(minutes, hosts, direction, c):
    """(I, rho, Pi, P) of one direction at threshold c, every minute
    valid (all of the example's minutes are complete)."""
    act = [[h for h in hosts if v[h][direction] * MIB > c]
           for _, v in minutes]
    h1 = [len(a) > 0 for a in act]
    r = runs(h1)
    io = sum(h1)
    quiet = len(h1) - io
    n_io = sum(1 for f, _ in r if f)
    n_quiet = sum(1 for f, _ in r if not f)
    l_io = Fraction(io, n_io)
    l_noio = Fraction(quiet, n_quiet) if n_quiet else Fraction(0)
    rho = 1 - math.tanh(l_io / l_noio) if l_noio else 0.0
    pi = Fraction(sum(len(a) for a in act), len(hosts) * io)
    p = (len(hosts) * pi - 1) / (len(hosts) - 1)
    return Fraction(io, len(h1)), rho, pi, p


def check_io_numbers(body, minutes, hosts):
    """The rows the example prints against numbers computed here."""
    x = [sum(rd + wr for rd, wr in v.values()) for _, v in minutes]
    n = len(x)
    peak = max(x)
    want = []
    for f in (5, 10, 25, 33, 50, 75):
        k = sum(1 for v in x if v * 100 < f * peak)
        want.append([str(f), "%.2f" % float(peak / 60 * f / 100), str(k),
                     "%.2f" % (100 * k / n)])
    eq(table_rows(body, "iocensus cdf --table below_peak"), want,
       "analyses.md: the shares below f% of peak, computed from the table")
    s = sorted(x)
    got = table_rows(body, "iocensus cdf --table quantiles")
    want = []
    for p in ("0.500", "0.900", "0.950", "0.990", "0.999"):
        rank = max(1, math.ceil(Fraction(p) * n))
        want.append((p, str(rank), "%.2f" % float(s[rank - 1] / 60)))
    eq([(r[0], r[1], r[3]) for r in got], want,
       "analyses.md: the nearest-rank quantiles, computed from the table")
    idle = [v * 100 < 5 * peak for v in x]
    strict = [v == 0 for v in x]
    for key, flags in (("periods", idle), ("strict_periods", strict)):
        lens = [ln for f, ln in runs(flags) if f]
        got = table_rows(body, "iocensus idle --buckets 1m,5m --table " + key +
                         " --wide")
        want = [[str(sum(1 for ln in lens if ln < 5)),
                 str(sum(ln for ln in lens if ln < 5))],
                [str(sum(1 for ln in lens if ln >= 5)),
                 str(sum(ln for ln in lens if ln >= 5))]]
        eq([r[-5:-3] for r in got], want, "analyses.md: %s of the idle"
           " table, computed from the table" % key)
    got = table_rows(body, "iocensus burst --burst-c 0,1M --table burst"
                     " --wide")
    want = []
    for c in (0, MIB):
        for d, name in ((0, "read"), (1, "write")):
            i, rho, pi, p = burst_oracle(minutes, hosts, d, c)
            want.append([name, "%.3f" % float(i), "%.3f" % rho,
                         "%.3f" % float(pi), "%.3f" % float(p)])
    eq([[r[0], r[6], r[9], r[11], r[12]] for r in got], want,
       "analyses.md: I, rho, Pi and P, computed from the table")


# ---------------------------------------------------------------- the others

def setup_iostat(cwd):
    files = blocks(read("docs/diskstats.md"), "example-file")
    ok("capture.raw" in files, "diskstats.md: the example's capture")
    with open(os.path.join(cwd, "capture.raw"), "w") as f:
        f.write(files.get("capture.raw", ""))


def setup_none(cwd):
    del cwd


SETUPS = {"io-analyses": setup_io, "iostat": setup_iostat,
          "fsstats-csv": setup_none}

# Examples of docs/ that another test runs: the capacity tables on
# capdemo's census, and the Prometheus configuration and query in a real
# Prometheus.
ELSEWHERE = {"capacity": "t_docs.py", "prometheus.yml": "t_rules.py",
             "promql": "t_rules.py"}


def check_elsewhere(found):
    """Each example run elsewhere is read there by its name."""
    for name, test in sorted(ELSEWHERE.items()):
        text = read(os.path.join("tests", test))
        ok(name in found and ('"%s"' % name in text or
                              '"%s ' % name in text),
           "%s: example %s is run by tests/%s" % (
               found.get(name, ("docs/",))[0], name, test))


def main():
    found = doc_examples()
    eq(sorted(found), sorted(list(SETUPS) + list(ELSEWHERE)),
       "every example of docs/*.md has a setup here or a test that runs"
       " it, every setup an example")
    check_elsewhere(found)
    tmp = tempfile.mkdtemp(prefix="t_doc_examples.")
    try:
        for name, (doc, body) in sorted(found.items()):
            if name not in SETUPS:
                continue
            cwd = os.path.join(tmp, name)
            os.mkdir(cwd)
            data = SETUPS[name](cwd)
            run_example(doc, name, body, cwd)
            if name == "io-analyses":
                check_io_numbers(body, *data)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    done()


if __name__ == "__main__":
    main()
