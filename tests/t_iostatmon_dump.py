"""iostatmon import -> dump round trips against an independent oracle.

Raw captures come from tests/lib/diskgen.py, which keeps every counter as an
unbounded integer, prints it modulo its kernel width and records which
intervals are unknowable (reboot, device gone or new, 64-bit counter going
backwards). The expected dump CSV is computed from that ground truth alone
and compared exactly with `iostatmon import` then `iostatmon dump`.
"""
import csv
import gzip
import io
import json
import os
import stat
import subprocess
import sys
import tempfile
from decimal import Decimal

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from tap import ok, eq, done          # noqa: E402
from pace import limit  # noqa: E402
from diskgen import Capture           # noqa: E402
from faketopo import Topo             # noqa: E402
from iolog_py import layout, after_cut, after_damage  # noqa: E402

BIN = os.path.join(os.environ.get("BUILD", "build"), "iostatmon")
HEADER = ("host,device,t,seconds,rd_ios,rd_merges,rd_sectors,rd_ms,wr_ios,"
          "wr_merges,wr_sectors,wr_ms,in_flight,io_ms,weighted_ms,dc_ios,"
          "dc_merges,dc_sectors,dc_ms,fl_ios,fl_ms")
TMP = tempfile.mkdtemp(prefix="t_iostatmon_dump.")
M32, M64 = 1 << 32, 1 << 64


def run(*args, stdin=None):
    p = subprocess.run([BIN] + [str(a) for a in args], input=stdin,
                       capture_output=True, text=True, timeout=limit(120))
    return p.returncode, p.stdout, p.stderr


def write(name, text):
    path = os.path.join(TMP, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def import_dump(cap_text, name, *opts, host="h1"):
    raw = write(name + ".raw", cap_text)
    log = os.path.join(TMP, name + ".iolog.gz")
    rc, _, err = run("import", raw, "--host", host, "--out", log, *opts)
    return rc, err, log


def csv_rows(text):
    lines = text.splitlines()
    rows = list(csv.reader(io.StringIO("\n".join(lines[1:]) + "\n"))) if len(lines) > 1 else []
    rows.sort(key=lambda r: (float(r[2]), r[1]))
    return (lines[0] if lines else ""), rows


def main_scenario():
    """Every column variant, wraps, a 2^64 'wrap', removal, re-add, reboot."""
    c = Capture(long_bits=64, seed=7)
    c.add("sda", 8, 0, 20)
    c.add("sda1", 8, 1, 20)
    c.add("sdb", 8, 16, 18)
    c.add("sdc", 8, 32, 14)
    c.add("sdc1", 8, 33, 7)                       # 2.6-style partition line
    c.add("cciss/c0d0", 104, 0, 14)
    c.add("sdd", 8, 48, 22)                       # a longer future line
    near = {f: M32 - 20000 for f in (3, 7, 9, 10, 14, 16)}
    c.add("nvme0n1", 259, 0, 20, start=near)      # every ms field wraps soon
    c.add("sde", 8, 64, 20, start={0: M64 - 500, 2: M64 - 100000})
    for i in range(30):
        if i == 8:
            c.remove("sdb")
        if i == 12:
            c.add("sdb", 8, 16, 18)               # back: a new epoch
        if i == 20:
            c.reboot()
        busy = None if i % 3 else set(c.present)  # every 3rd minute all busy
        c.sample(60, active=0.6, busy_names=busy)
    return c


def check_roundtrip():
    c = main_scenario()
    rc, err, log = import_dump(c.text(), "main")
    eq(rc, 0, "import of a clean capture exits 0")
    eq(err, "", "import of a clean capture prints nothing on stderr")
    rc, out, err = run("dump", log)
    eq(rc, 0, "dump exits 0")
    header, rows = csv_rows(out)
    eq(header, HEADER, "dump CSV header is the stable header")
    want = c.expected_rows("h1")
    eq(rows, want, "dump rows equal the oracle's (deltas mod width, resets, missing fields)")
    devs = {r[1] for r in rows}
    ok("cciss/c0d0" in devs, "cciss/c0d0 keeps its name with the slash")
    sdc1 = [r for r in rows if r[1] == "sdc1"]
    ok(sdc1 and all(r[6] != "" and r[10] != "" and r[5] == "" and r[7] == ""
                    and r[12] == "" and r[15] == "" for r in sdc1),
       "7-column device: sectors present; merges, ms, in_flight, dc_* empty", repr(sdc1[:1]))
    sdc = [r for r in rows if r[1] == "sdc"]
    ok(sdc and all(r[15] == "" and r[19] == "" and r[14] != "" for r in sdc),
       "14-column device: discard and flush fields empty")
    sdb = [r for r in rows if r[1] == "sdb"]
    ok(sdb and all(r[15] != "" and r[19] == "" for r in sdb),
       "18-column device: discards present, flush fields empty")
    # nvme0n1's ms fields started 20000 below 2^32: a wrap happened
    wrapped = [r for r in rows if r[1] == "nvme0n1" and int(r[13]) < 60000]
    ok(len(wrapped) >= 20, "32-bit ms fields across a wrap give small deltas",
       "%d rows" % len(wrapped))
    t0 = c.blocks[0][0]
    sde = sorted(int(r[2]) for r in rows if r[1] == "sde")
    ok(all((j, "sde") not in c.unknown or t0 + 60 * j not in sde
           for j in range(30)), "a 64-bit counter going backwards gives no row")
    ok(any((j, "sde") in c.unknown for j in range(1, 20)),
       "the scenario really made sde's 64-bit counter go backwards")
    reboot_t = str(c.blocks[20][0])
    eq([r for r in rows if r[2] == reboot_t], [],
       "the interval across the reboot has no row for any device")
    t_sdb = {int(r[2]) for r in sdb}
    ok(not any(c.blocks[j][0] in t_sdb for j in range(8, 13)),
       "removed sdb: no row while absent nor for its first sample back")
    ok(c.blocks[13][0] in t_sdb and c.blocks[7][0] in t_sdb,
       "sdb has rows before its removal and from its second sample back")
    return log, c


def check_long32():
    c = Capture(long_bits=32, seed=3)
    c.add("sda", 8, 0, 14, start={0: M32 - 2000, 2: M32 - 50000, 4: M32 - 10})
    c.add("sdb", 8, 16, 20, start={f: M32 - 30000 for f in (3, 7, 9, 10)})
    for _ in range(12):
        c.sample(60, busy_names={"sda", "sdb"})
    rc, err, log = import_dump(c.text(), "long32", "--long-bits", "32")
    eq(rc, 0, "import --long-bits 32 exits 0")
    rc, out, err = run("dump", log)
    header, rows = csv_rows(out)
    eq(rows, c.expected_rows("h1"), "32-bit kernel: ios/sectors wrap at 2^32, rows match the oracle")
    eq(len(rows), 22, "32-bit kernel: every interval known (no false reset at a wrap)")


def check_malformed():
    c = Capture(seed=11)
    c.add("sda", 8, 0, 20)
    c.add("sdb", 8, 16, 14)
    for _ in range(8):
        c.sample(60, active=0.9)
    good = [("T %d\n" % t) + c.block_text(j) for j, (t, _) in enumerate(c.blocks)]
    text = "   8 0 sda 1 2 3\n"                               # before any T
    text += good[0] + good[1]
    text += good[2].replace("\n", "\n   8 7 junk x y z\n", 1)  # garbage line
    text += "T yesterday\n   8 0 sda 1 1 1 1 1 1 1 1 1 1 1\n"  # bad T block
    text += good[3]
    text += "T %d\n" % c.blocks[3][0] + c.block_text(3)       # T repeated
    text += good[4] + "\n" + good[5]                          # blank line
    text += "T %d\n" % (c.blocks[5][0] + 30)                  # empty block
    text += good[6] + good[7].replace("\n", "\n" + c.block_text(7).split("\n")[0] + "\n", 1)
    rc, err, log = import_dump(text, "bad")
    eq(rc, 1, "import of a capture with malformed parts exits 1")
    lines = text.split("\n")
    junk = 1 + lines.index("   8 7 junk x y z")
    for what, line in (("line before the first T", 1),
                       ("garbage line", junk),
                       ("bad T line", 1 + lines.index("T yesterday"))):
        ok(":%d:" % line in err, "import names the line number of a %s" % what, err)
    ok("not after" in err, "import reports a T that does not advance", err)
    ok("twice" in err, "import reports a device repeated within a block", err)
    ok("without diskstats" in err, "import reports a T line with no diskstats lines", err)
    rc, out, _ = run("dump", log)
    eq(csv_rows(out)[1], c.expected_rows("h1"),
       "everything good in a malformed capture is imported and dumps right")


def check_logdir():
    """-o DIR: a capture across UTC midnight gives two daily files, and the
    interval ending at midnight is not lost."""
    c = Capture(seed=5, t0=1700006400 - 5 * 60)     # 5 minutes before 00:00 UTC
    c.add("sda", 8, 0, 20)
    for _ in range(10):
        c.sample(60, active=1.0)
    d = os.path.join(TMP, "logdir")
    os.mkdir(d)
    raw = write("days.raw", c.text())
    rc, _, err = run("import", raw, "--host", "srv-1", "-o", d)
    eq(rc, 0, "import -o DIR exits 0", )
    files = sorted(os.listdir(d))
    eq(files, ["iostatmon-srv-1-20231114.iolog.gz", "iostatmon-srv-1-20231115.iolog.gz"],
       "import -o DIR writes one file per UTC day, named like the daemon's")
    rc, out, _ = run("dump", *[os.path.join(d, f) for f in files])
    eq(csv_rows(out)[1], c.expected_rows("srv-1"), "daily files dump to the oracle's rows, midnight included")
    for f in files:
        with gzip.open(os.path.join(d, f)) as g:
            ok(len(g.read()) > 0, "%s is a valid gzip file" % f)
    rc, _, err = run("import", raw, "--host", "srv-1", "-o", d)
    eq(rc, 3, "import refuses to append to an existing log (exit 3)")
    ok("exists" in err, "the refusal says the file exists", err)


def check_logdir_created():
    """-o DIR: DIR and its missing parents are created, mode 0755 less the
    umask; a parent that is a file is an error that says so."""
    c = Capture(seed=6, t0=1700000000)
    c.add("sda", 8, 0, 20)
    for _ in range(3):
        c.sample(60, active=1.0)
    raw = write("mk.raw", c.text())
    d = os.path.join(TMP, "made", "deep", "logs")
    p = subprocess.run([BIN, "import", raw, "--host", "h", "-o", d],
                       capture_output=True, text=True, timeout=limit(60),
                       preexec_fn=lambda: os.umask(0o027))
    eq((p.returncode, p.stderr), (0, ""), "import -o a missing DIR: exit 0")
    modes = [stat.S_IMODE(os.stat(x).st_mode) if os.path.isdir(x) else None
             for x in (os.path.join(TMP, "made"),
                       os.path.join(TMP, "made", "deep"), d)]
    eq(modes, [0o750] * 3, "import -o: DIR and its parents made, 0755 less "
       "the umask")
    eq(os.listdir(d) if os.path.isdir(d) else None,
       ["iostatmon-h-20231114.iolog.gz"], "import -o: the "
       "log is in the new DIR")
    rc, _, err = run("import", raw, "--host", "h", "-o",
                     os.path.join(raw, "logs"))
    ok(rc == 3 and "mk.raw/logs: mk.raw: Not a directory" in err,
       "import -o under a file: exit 3, said", err)


def check_never_data():
    """A capture has no sysfs, but loop, ram and zram devices (and the rest
    of the classes live sampling leaves out by number and name) are left
    out as live; --all-devices keeps them; --include still picks any."""
    c = Capture(seed=8)
    for name, major, minor in (("sda", 8, 0), ("loop0", 7, 0), ("ram0", 1, 0),
                               ("zram0", 252, 0), ("nbd0", 43, 0),
                               ("sr0", 11, 0), ("nvme0c0n1", 0, 0),
                               ("sdb", 8, 16)):
        c.add(name, major, minor, 20)
    for _ in range(4):
        c.sample(60, active=1.0)
    want = c.expected_rows("h1")

    def only(names):
        return [r for r in want if r[1] in names]
    for opts, names, what in (
            ((), {"sda", "sdb"}, "by default, only the data disks"),
            (("--all-devices",), {r[1] for r in want}, "--all-devices: all"),
            (("--include", "loop*"), {"loop0"}, "--include loop*: loop0")):
        rc, err, log = import_dump(c.text(), "never", *opts)
        eq((rc, err), (0, ""), "import %s: exit 0" % " ".join(opts))
        rc, out, _ = run("dump", log)
        rows = csv_rows(out)[1]
        eq(rows, only(names), "import %s" % what)
        if os.path.exists(log):
            os.unlink(log)


def check_select_and_time():
    c = Capture(seed=2)
    for i, n in enumerate(("sda", "sda1", "sdb", "dm-0")):
        c.add(n, 8, i, 20)
    for _ in range(4):
        c.sample(60, active=1.0)
    raw_text = c.text().replace("T 1700000060\n", "T 1700000060.25\n")
    rc, _, log = import_dump(raw_text, "sel", "--include", "sd*", "--exclude", "*1")
    eq(rc, 0, "import with --include/--exclude exits 0")
    rc, out, _ = run("dump", log)
    rows = csv_rows(out)[1]
    eq(sorted({r[1] for r in rows}), ["sda", "sdb"], "--include sd* --exclude *1 keeps sda, sdb")
    eq(sorted({(r[2], r[3]) for r in rows}),
       [("1700000060.25", "60.25"), ("1700000120", "59.75"), ("1700000180", "60")],
       "t and seconds print the exact ns value without trailing zeros")


def check_iostat_hand():
    """A hand-computed pair of samples, 1.00 s apart (docs/diskstats.md,
    "iostat's columns")."""
    text = ("T 1000\n   8 0 sda 1000 10 80000 4000 500 5 40000 2000 0 3000 6000 10 1 800 20 50 100\n"
            " 104 0 cciss/c0d0 1 0 8 4 0 0 0 0 0 1 4\n"
            "T 1001\n   8 0 sda 1100 20 88000 4400 500 5 40000 2000 3 3500 7000 10 1 800 20 52 106\n"
            " 104 0 cciss/c0d0 3 2 24 10 0 0 0 0 0 2 10\n")
    rc, _, log = import_dump(text, "hand")
    rc, out, err = run("dump", "--iostat", "--format", "json", log)
    eq(rc, 0, "dump --iostat --format json exits 0")
    try:
        rows = {r["device"]: r for r in json.loads(out)}
    except ValueError as e:
        ok(False, "dump --iostat json parses", str(e))
        return
    want = {"r/s": 100.0, "rkB/s": 4000.0, "r_await": 4.0, "rareq-sz": 40.0,
            "rrqm/s": 10.0, "rrqm": 9.09, "f/s": 2.0, "f_await": 3.0,
            "aqu-sz": 1.0, "util": 50.0, "w/s": 0.0, "w_await": 0.0, "d/s": 0.0}
    eq({k: rows["sda"][k] for k in want}, want, "iostat columns of the hand-computed pair")
    cc = rows["cciss/c0d0"]
    eq((cc["r/s"], cc["rrqm"], cc["r_await"], cc["rareq-sz"], cc["d/s"], cc["f_await"]),
       (2.0, 50.0, 3.0, 4.0, None, None),
       "14-column device: iostat ratios computed, discard/flush columns null")
    rc, out, _ = run("dump", "--iostat", "--format", "csv", log)
    head = out.splitlines()[0].split(",")
    eq(head[:6], ["host", "device", "t", "seconds", "r/s", "rkB/s"], "iostat CSV header starts like iostat")
    ok("%util" in head and "f_await" in head, "iostat CSV header has %util and f_await")
    rc, out, _ = run("dump", "--iostat", log)
    ok(rc == 0 and "Device" in out and "  50.00" in out, "dump --iostat defaults to an iostat-like table", out)
    rc, out, _ = run("dump", "--format", "json", log)
    r = json.loads(out)[0]
    ok(r["rd_ios"] == 100 and r["fl_ms"] == 6 and r["in_flight"] == 3,
       "plain dump as JSON carries the counters", repr(r))


def varint(b, i):
    v = shift = 0
    while True:
        x = b[i]
        i += 1
        v |= (x & 0x7F) << shift
        shift += 7
        if not x & 0x80:
            return v, i


def sample_clocks(path):
    """(type, realtime, monotonic, boottime, flags, missed) of every K/S
    frame (a P, the S of version 2, as "S": the same sample header),
    decoded here from docs/iolog-format.md, not by iostatmon."""
    with gzip.open(path) as g:
        d = g.read()
    out, i = [], 0
    while i < len(d):
        n, i = varint(d, i)
        body, i = d[i:i + n], i + n + 4
        if body[:1] in (b"K", b"S", b"P"):
            v, j = [], 1
            for _ in range(7):      # seq realtime mono boot read_ns flags missed
                x, j = varint(body, j)
                v.append(x)
            out.append((body[:1].decode().replace("P", "S"), v[1], v[2],
                        v[3], v[5], v[6]))
    return out


def check_clocks():
    """import: realtime = monotonic = boottime = T; a T step above 1.5
    intervals is a gap with the skipped intervals counted."""
    text = "".join("T %s\n   8 0 sda %d 0 %d 0\n" % (t, k, 8 * k)
                   for k, t in enumerate((100, 160, 220, 520, 580.5)))
    rc, _, log = import_dump(text, "clocks")
    eq(rc, 0, "import of a capture with a gap exits 0")
    want = [("K", 100, 0, 0), ("S", 160, 0, 0), ("S", 220, 0, 0),
            ("S", 520, 2, 4), ("S", 580.5, 0, 0)]
    got = sample_clocks(log)
    eq([(k, r / 1e9, f, m) for k, r, _, _, f, m in got], want,
       "import clocks: frames carry T, the gap flag and the missed count")
    ok(all(r == mo == b for _, r, mo, b, _, _ in got),
       "import: realtime, monotonic and boottime are all T")


def check_live_vs_import():
    """The same counters, sampled live by the daemon (fake /proc and /sys,
    1 s interval) and imported from a capture, dump to the same rows; only
    t and seconds differ (real clocks against the capture's T). The daemon
    reads once at start, then at each second: its first interval is short,
    so the fixture keeps it idle (plausibility checks scale with time)."""
    n = 7
    c = Capture(seed=9)
    topo = Topo(os.path.join(TMP, "live"))
    for name, major, minor, ncols, start in (
            ("sda", 8, 0, 20, None), ("sdb", 8, 16, 18, None),
            ("cciss/c0d0", 104, 0, 14, None),
            ("nvme0n1", 259, 0, 20, {f: M32 - 1000 for f in (3, 7, 9, 10, 14, 16)})):
        topo.disk(name, major, minor)
        c.add(name, major, minor, ncols, start=start)
    for i in range(n):
        c.sample(1, active=1.0, busy_names=set() if i < 2 else None)
    topo.write([], swaps=[])
    proc = topo.proc

    def put(j):
        with open(os.path.join(proc, "diskstats.new"), "w") as f:
            f.write(c.block_text(j))
        os.rename(os.path.join(proc, "diskstats.new"), os.path.join(proc, "diskstats"))

    put(0)
    logdir = os.path.join(TMP, "livelog")
    p = subprocess.Popen([BIN, "--proc", proc, "--sys", topo.sys, "--no-probe",
                          "-i", "1", "-c", str(n - 1), "-o", logdir, "--host", "h1", "-v"],
                         stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    written = 0
    for line in p.stderr:               # one line per sample written
        if "written" in line:
            written += 1
            if written < n:
                put(written)
    rc = p.wait(timeout=limit(30))
    eq((rc, written), (0, n), "live daemon on the fixture: %d reads logged, exit 0" % n)
    logs = [os.path.join(logdir, f) for f in sorted(os.listdir(logdir))]
    rc, out, _ = run("dump", *logs)
    live = csv_rows(out)[1]
    rc, _, log = import_dump(c.text(), "live-import")
    rc, out, _ = run("dump", log)
    imported = csv_rows(out)[1]

    def strip(rows):
        ts = sorted({float(r[2]) for r in rows})
        return [[ts.index(float(r[2])), r[1]] + r[4:] for r in rows]
    ok(all(0.5 < float(r[3]) < 1.5 for r in live if float(r[2]) != min(float(x[2]) for x in live)),
       "live intervals after the first are about 1 s")
    eq(strip(live), strip(imported), "live sampling and import give the same rows (but t, seconds)")
    eq(strip(imported), strip(c.expected_rows("h1")), "and both equal the oracle's")


def rows_of(want, samples):
    """The oracle's rows of the samples (iolog_py frames) a reader keeps."""
    ts = {s.realtime for s in samples}
    return [r for r in want if int(Decimal(r[2]) * 10 ** 9) in ts]


def check_cuts(log, want):
    """The log cut where a frame ends (as the daemon's file of today ends,
    without its gzip trailer): a note, exit 0; cut inside a frame: damage
    where that frame starts, exit 1. Either way every whole frame before
    the cut is read (iolog_py says which)."""
    data = open(log, "rb").read()
    members = layout(data)
    m = members[0]
    k = next(i for i, f in enumerate(m.frames)
             if i > len(m.frames) // 2 and f.kind == "S")
    fr = m.frames[k]
    cut = os.path.join(TMP, "cut.iolog.gz")
    for c, what in ((fr.start, "where a frame ends"),
                    ((fr.first + fr.last) // 2, "inside a frame"),
                    (m.end - 3, "inside the gzip trailer")):
        exp = after_cut(data, members, c)
        with open(cut, "wb") as f:
            f.write(data[:c])
        rc, out, err = run("dump", cut)
        rows = csv_rows(out)[1]
        eq(rows, rows_of(want, exp.samples), "log cut %s: the rows of every "
           "whole frame before the cut" % what)
        if exp.note is not None:
            eq((rc, err), (0, "iostatmon dump: %s: note: %s, at compressed "
                           "offset %d\n" % (cut, "ends inside its gzip trailer "
                           "(its writer was stopped)" if c > m.end - 8 else
                           "ends after a whole frame, without its gzip "
                           "trailer (still being written, or its writer was "
                           "stopped)", exp.note)),
               "log cut %s: exit 0 and a note naming file and offset" % what)
        else:
            eq((rc, err), (1, "iostatmon dump: %s: damaged at compressed "
                           "offset %d: truncated inside a frame\n" %
                           (cut, exp.damage[0][0])),
               "log cut %s: exit 1, damage where the frame starts" % what)


def check_resync():
    """A byte flipped in a sample some way before a keyframe: that sample
    and the next are lost (samples are stored blocks, which refer to no
    byte before them: the next one inflates, and its clocks start the
    interval after it), the rest of the log is read; one
    damage line says where the loss starts, where reading resumed and how
    many sample records were lost."""
    c = Capture(long_bits=64, seed=9)
    c.add("sda", 8, 0, 20)
    c.add("nvme0n1", 259, 0, 20)
    for _ in range(200):                # keyframes every hour
        c.sample(60, active=0.5)
    rc, _, log = import_dump(c.text(), "hourly")
    want = c.expected_rows("h1")
    data = open(log, "rb").read()
    members = layout(data)
    m = members[0]
    kk = [i for i, f in enumerate(m.frames) if f.kind == "K" and i > 10]
    ok(len(kk) >= 2, "the log has keyframes after its first",
       "%d" % len(kk))
    k = kk[0] - 3
    fr = m.frames[k]
    bad = bytearray(data)
    bad[(fr.first + fr.last) // 2] ^= 0xff
    path = os.path.join(TMP, "resync.iolog.gz")
    open(path, "wb").write(bad)
    exp = after_damage(data, members, 0, k)
    rc, out, err = run("dump", path)
    rows = csv_rows(out)[1]
    lost = len(want) - len(rows)
    eq(rows, rows_of(want, exp.samples), "damage 3 samples before a "
       "keyframe: the rows before it and from the second sample after it "
       "on (%d lost)"
       % lost)
    ok(lost > 0 and len(rows) > len(want) // 2, "some rows lost, most read",
       "%d of %d" % (len(rows), len(want)))
    (at, res, n), = exp.damage
    ok(rc == 1 and err.startswith("iostatmon dump: %s: damaged at compressed "
       "offset %d: " % (path, at)) and err.endswith(
       "; resumed at compressed offset %d; %d sample records lost\n"
       % (res, n)) and err.count("\n") == 1,
       "one damage line: where, why, where reading resumed, records lost",
       err)
    eq(n, 2, "the records lost: the damaged one and the one after it")


def check_names(log):
    """A file name with a newline or invalid UTF-8 cannot forge a line."""
    data = bytearray(open(log, "rb").read())
    data[len(data) // 2] ^= 0xff
    names = [os.path.join(TMP, "a\nfake: line.iolog.gz"),
             os.path.join(TMP, "b\\\x1b[31m.iolog.gz")]
    for n in names:
        open(n, "wb").write(data)
    raw = os.path.join(TMP, "c\udcff.iolog.gz").encode("utf-8",
                                                     "surrogateescape")
    p = subprocess.run([BIN, "dump", names[0], names[1], raw, b"/no\ndir"],
                       capture_output=True, timeout=limit(120))
    err = p.stderr.decode("utf-8", "surrogateescape")
    lines = err.splitlines()
    ok(len(lines) == 4 and all(l.startswith("iostatmon dump: ")
                               for l in lines), "four messages, one line each",
       err)
    ok(os.path.join(TMP, "a\\x0afake: line.iolog.gz: damaged") in err and
       os.path.join(TMP, "b\\\\\\x1b[31m.iolog.gz: damaged") in err and
       os.path.join(TMP, "c\\xff.iolog.gz: cannot open") in err and
       "/no\\x0adir: cannot open" in err,
       "control characters, backslashes and invalid UTF-8 escaped", err)
    for n in names:
        os.unlink(n)


def check_damage(log, c):
    data = open(log, "rb").read()
    want = c.expected_rows("h1")
    check_cuts(log, want)
    check_resync()
    check_names(log)
    flip = bytearray(data)
    flip[len(flip) // 2] ^= 0x55
    bad = os.path.join(TMP, "flip.iolog.gz")
    open(bad, "wb").write(flip)
    rc, out, err = run("dump", bad, log)
    eq(rc, 1, "dump of a corrupted log exits 1")
    rows = csv_rows(out)[1]
    ok(all(r in want for r in rows), "rows before the damage are right, none invented")
    ok(rows.count(want[-1]) >= 1, "the next file is still dumped after a damaged one")
    rc, _, err = run("dump", os.path.join(TMP, "missing.gz"))
    ok(rc == 1 and "missing.gz" in err, "a missing log: exit 1 naming the file", err)
    rc, _, _ = run("dump")
    eq(rc, 2, "dump without a log is a usage error")
    rc, _, _ = run("dump", "--format", "xml", log)
    eq(rc, 2, "dump --format xml is a usage error")


def main():
    if not ok(os.access(BIN, os.X_OK), "iostatmon is built", BIN):
        done()
    log, c = check_roundtrip()
    check_long32()
    check_malformed()
    check_logdir()
    check_logdir_created()
    check_never_data()
    check_select_and_time()
    check_iostat_hand()
    check_clocks()
    check_live_vs_import()
    check_damage(log, c)
    rc, _, _ = run("import", "/nonexistent.raw", "--host", "h", "--out", os.path.join(TMP, "x.gz"))
    eq(rc, 3, "import of a missing capture exits 3")
    rc, _, _ = run("import", write("n.raw", ""), "--out", os.path.join(TMP, "y.gz"))
    eq(rc, 2, "import without --host is a usage error")
    for text, what in (("", "an empty capture"),
                       ("8 0 sda 1 2 3 4\nnot a line\n", "a capture without a T line"),
                       ("T 1700000000\ngarbage\nT 1700000060\n", "a capture without a diskstats line")):
        out = os.path.join(TMP, "none.gz")
        rc, _, err = run("import", write("none.raw", text), "--host", "h", "--out", out)
        eq(rc, 3, "import of %s exits 3" % what)
        ok("none.raw: no sample found" in err and "nothing imported" in err,
           "import of %s: said" % what, err)
        ok(not os.path.exists(out), "import of %s writes no log" % what)
    subprocess.run(["rm", "-rf", TMP])
    done()


main()
