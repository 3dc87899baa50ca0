"""iostatmon dump --iostat against the real sysstat iostat.

Fixture snapshots (tests/lib/diskgen.py) are replayed to
`iostat -dx -y -f DIR -p ALL -o JSON 1 K` (docs/diskstats.md, "iostat's columns"): the
test writes snapshot 0 to DIR/diskstats, and each time iostat has read the
file (inotify IN_CLOSE_NOWRITE: iostat opens it once per report) it renames
the next snapshot into place, a whole second before iostat's next read. The
same snapshots, 1 s apart, go through `iostatmon import` and
`iostatmon dump --iostat --format json`.

iostat takes its interval (itv, in 1/100 s) from the real /proc/uptime, so:
  * ratio columns (await, areq-sz, %rqm) do not depend on it and must be
    equal to the printed 2 decimals;
  * iostat's itv is recovered from its largest rate (to the centisecond it
    is quantised to), and every rate column must then equal our rate scaled
    by 1 s / itv, within the 2-decimal rounding of both outputs.
The report-to-snapshot alignment is itself checked: a missed swap would
make the ratio columns differ.

Then, as root, iostat runs in a mount namespace of its own where a file of
ours is bind-mounted over /proc/uptime, advanced with each snapshot by the
capture's own steps (8 s, 40 s, ...: intervals over which most rates are
exact half-cents, 0.125 r/s, where rounding shows). With the same interval
on both sides every printed cell of every column must be equal, character
for character: sysstat computes rates per 1/100 s times 100 (S_VALUE), and
so must we.
"""
import ctypes
import json
from fractions import Fraction
import os
import select
import shutil
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from tap import ok, eq, done, skip    # noqa: E402
from pace import limit  # noqa: E402
from diskgen import Capture           # noqa: E402

BIN = os.path.join(os.environ.get("BUILD", "build"), "iostatmon")
IN_CLOSE_NOWRITE = 0x10
RATIO = ["rrqm", "wrqm", "drqm", "r_await", "w_await", "d_await", "f_await",
         "rareq-sz", "wareq-sz", "dareq-sz"]
# rate column -> (field index of its counter, divisor after per-second)
RATE = {"r/s": (0, 1), "rkB/s": (2, 2), "rrqm/s": (1, 1),
        "w/s": (4, 1), "wkB/s": (6, 2), "wrqm/s": (5, 1),
        "d/s": (11, 1), "dkB/s": (13, 2), "drqm/s": (12, 1),
        "f/s": (15, 1), "aqu-sz": (10, 1000), "util": (9, 10)}
SNAPSHOTS = 7


def fixture():
    c = Capture(seed=42, t0=1700000000)
    c.add("sda", 8, 0, 20)
    c.add("sda1", 8, 1, 20)
    c.add("sdb", 8, 16, 18)
    c.add("sdc", 8, 32, 14)
    c.add("cciss/c0d0", 104, 0, 14)
    c.add("nvme0n1", 259, 0, 20,
          start={f: (1 << 32) - 150 for f in (3, 7, 9, 10, 14, 16)})
    for i in range(SNAPSHOTS):
        c.sample(1, busy_names=set(c.present) - ({"sdc"} if i == 3 else set()))
    return c


def dumped(c, tmp, what, parse_float=float):
    """The capture through import and dump --iostat --format json: rows."""
    raw = os.path.join(tmp, "fixture.raw")
    log = os.path.join(tmp, "fixture.iolog.gz")
    with open(raw, "w") as f:
        f.write(c.text())
    p = subprocess.run([BIN, "import", raw, "--host", "h", "--out", log],
                       capture_output=True, text=True)
    eq(p.returncode, 0, "import of the %s exits 0" % what)
    p = subprocess.run([BIN, "dump", "--iostat", "--format", "json", log],
                       capture_output=True, text=True)
    eq(p.returncode, 0, "dump --iostat --format json of the %s exits 0" % what)
    return json.loads(p.stdout, parse_float=parse_float)


def ours(c, tmp):
    rows = dumped(c, tmp, "fixture")
    t0 = c.blocks[0][0]
    return {(int(r["t"]) - t0, r["device"]): r for r in rows}


def replay(c, tmp, uptime=None, nsnap=SNAPSHOTS, parse_float=float):
    """Run iostat over the snapshots; its reports, one list of disks each.
    uptime: a file bind-mounted over /proc/uptime for iostat, holding
    blocks' T (in 1/100 s) as each snapshot is put in place."""
    d = os.path.join(tmp, "proc")
    os.mkdir(d)

    def put(j):
        if uptime:
            with open(uptime, "w") as f:     # in place: the mount is the inode
                f.write("%d.00 0.00\n" % (c.blocks[j][0] - c.blocks[0][0] + 1000))
        with open(os.path.join(d, "diskstats.new"), "w") as f:
            f.write(c.block_text(j))
        os.rename(os.path.join(d, "diskstats.new"), os.path.join(d, "diskstats"))

    libc = ctypes.CDLL(None, use_errno=True)
    fd = libc.inotify_init1(os.O_CLOEXEC | os.O_NONBLOCK)
    if fd < 0 or libc.inotify_add_watch(fd, d.encode(), IN_CLOSE_NOWRITE) < 0:
        ok(False, "inotify watch", os.strerror(ctypes.get_errno()))
        return None
    put(0)
    cmd = ["iostat", "-dx", "-y", "-f", d, "-p", "ALL", "-o", "JSON", "1", str(nsnap - 1)]
    if uptime:
        cmd = ["unshare", "-m", "--", "sh", "-c",
               'mount --bind "$0" /proc/uptime && exec "$@"', uptime] + cmd
    # A file, not a pipe: a pipe that fills blocks iostat's write until its
    # SIGALRM interrupts it, and stdio drops what it was writing.
    outf = open(os.path.join(tmp, "iostat.json"), "w+")
    p = subprocess.Popen(cmd, stdout=outf, stderr=subprocess.PIPE, text=True,
                         env=dict(os.environ, LC_ALL="C", S_TIME_FORMAT="ISO"))
    reads = 0
    while reads < nsnap:
        # events of iostat's last reads stay queued after it exits
        r, _, _ = select.select([fd], [], [], 10 if p.poll() is None else 0.5)
        if not r:
            break
        buf = os.read(fd, 65536)
        off = 0
        while off < len(buf):
            _, mask, _, n = struct.unpack_from("iIII", buf, off)
            name = buf[off + 16:off + 16 + n].rstrip(b"\0")
            off += 16 + n
            if name == b"diskstats" and mask & IN_CLOSE_NOWRITE:
                reads += 1
                if reads < nsnap:
                    put(reads)
    _, err = p.communicate(timeout=limit(30))
    os.close(fd)
    outf.seek(0)
    out = outf.read()
    outf.close()
    eq(reads, nsnap, "iostat read the fixture once per snapshot")
    if not ok(p.returncode == 0, "iostat exits 0", err):
        return None
    stats = json.loads(out, parse_float=parse_float)["sysstat"]["hosts"][0]["statistics"]
    return [s["disk"] for s in stats]


def fmt(x):
    return "%.2f" % x


def compare(c, mine, reports):
    eq(len(reports), SNAPSHOTS - 1, "iostat printed one report per interval")
    ratio_checks = rate_checks = 0
    for k, disks in enumerate(reports, start=1):
        # iostat's itv: from its largest sector rate, to the centisecond
        big = max(disks, key=lambda x: x["rkB/s"])
        dsec = c.deltas(k, big["disk_device"])[2]
        itv_cs = round(100 * dsec / 2 / big["rkB/s"])
        if not ok(80 <= itv_cs <= 150, "report %d: iostat interval %d cs is about 1 s" % (k, itv_cs)):
            continue
        eq(sorted(x["disk_device"] for x in disks),
           sorted(n for n, *_ in c.blocks[k][1]), "report %d: same devices" % k)
        for x in disks:
            m = mine.get((k, x["disk_device"]))
            if not ok(m is not None, "report %d: we have %s" % (k, x["disk_device"])):
                continue
            bad = ["%s: iostat %s, ours %s" % (col, fmt(x[col]), fmt(m[col]))
                   for col in RATIO if m.get(col) is not None and fmt(x[col]) != fmt(m[col])]
            ratio_checks += sum(m.get(col) is not None for col in RATIO)
            ok(not bad, "report %d %s: ratio columns equal to 2 decimals" % (k, x["disk_device"]),
               "; ".join(bad))
            bad = []
            for col, (field, div) in RATE.items():
                if m.get(col) is None:
                    continue
                rate_checks += 1
                want = c.deltas(k, x["disk_device"])[field] / div
                scaled = m[col] * 100 / itv_cs       # our 1 s rate, over iostat's itv
                # ours is want rounded to 0.01; iostat's is want/itv rounded
                # to 0.01; scaling carries our rounding by 100/itv_cs
                tol = 0.005 + 0.005 * 100 / itv_cs + 1e-9
                if abs(m[col] - want) > 0.005 + 1e-9 or abs(x[col] - scaled) > tol:
                    bad.append("%s: iostat %s, ours %s (itv %d cs)" % (col, x[col], m[col], itv_cs))
            ok(not bad, "report %d %s: rates agree within iostat's interval resolution"
               % (k, x["disk_device"]), "; ".join(bad))
    ok(ratio_checks > 100 and rate_checks > 100, "enough values compared",
       "%d ratio, %d rate" % (ratio_checks, rate_checks))
    wrapped = [k for k in range(1, SNAPSHOTS)
               if c.blocks[k][1][5][5][9] < c.blocks[k - 1][1][5][5][9]]
    ok(wrapped, "the fixture wraps nvme0n1's 32-bit io_ms (and iostat agrees across it)")


# Steps in seconds: rates over 8, 16, 40 s... have three decimals, most
# of them an exact half-cent; 60 s and 1 s some kB/s and %util ones.
STEPS = [8, 40, 16, 8, 24, 32, 60, 8, 1, 8]
COLS = ["r/s", "w/s", "d/s", "f/s", "rkB/s", "wkB/s", "dkB/s", "rrqm/s",
        "wrqm/s", "drqm/s", "rrqm", "wrqm", "drqm", "r_await", "w_await",
        "d_await", "f_await", "rareq-sz", "wareq-sz", "dareq-sz", "aqu-sz",
        "util"]


def half_cent(num, den):
    """Is num/den exactly x.xx5 (a tie for two decimals)?"""
    q = Fraction(num, den) * 1000
    return q.denominator == 1 and q.numerator % 10 == 5


def exact_fixture():
    c = Capture(seed=1212, t0=1700000000)
    for i in range(40):
        c.add("sd" + chr(ord("a") + i % 26) * (1 + i // 26), 8, 16 * i, 20)
    c.sample(1, active=1.0)
    for dt in STEPS:
        c.sample(dt, active=1.0)
    return c


def exact_main(tmp):
    if os.geteuid() != 0 or not shutil.which("unshare"):
        skip("exact: iostat with our interval", "a mount namespace is made"
             " with unshare, as root",
             needs="root" if os.geteuid() else "unshare")
        return
    c = exact_fixture()
    tmp = os.path.join(tmp, "exact")
    os.mkdir(tmp)
    mine = {(str(r["t"]), r["device"]): r
            for r in dumped(c, tmp, "half-cent capture", parse_float=str)}
    uptime = os.path.join(tmp, "uptime")
    open(uptime, "w").close()
    reports = replay(c, tmp, uptime, len(c.blocks), parse_float=str)
    if reports is None:
        return
    eq(len(reports), len(STEPS), "exact: one iostat report per step")
    cells, ties, bad = 0, 0, []
    for k, disks in enumerate(reports, start=1):
        t = c.blocks[k][0]
        dt = t - c.blocks[k - 1][0]
        for x in disks:
            m = mine.get((str(t), x["disk_device"]))
            if m is None:
                bad.append("report %d: no row of ours for %s" % (k, x["disk_device"]))
                continue
            d = c.deltas(k, x["disk_device"])
            for col in COLS:
                cells += 1
                if str(x[col]) != str(m[col]):
                    bad.append("report %d (%d s) %s %s: iostat %s, ours %s" % (
                        k, dt, x["disk_device"], col, x[col], m[col]))
            for col, (field, div) in RATE.items():
                ties += half_cent(d[field], dt * div)
    eq(bad, [], "exact: every printed cell equals iostat's, on the same "
       "interval (%d cells)" % cells)
    ok(cells >= 40 * len(STEPS) * len(COLS) and ties >= 500,
       "exact: the fixture has exact half-cent rates (%d of %d cells)" % (ties, cells))


def main():
    if not ok(os.access(BIN, os.X_OK), "iostatmon is built", BIN):
        done()
    if not ok(shutil.which("iostat"), "iostat (sysstat) is installed", "apt-get install sysstat"):
        done()
    v = subprocess.run(["iostat", "-V"], capture_output=True, text=True)
    print("# " + (v.stdout + v.stderr).splitlines()[0])
    tmp = tempfile.mkdtemp(prefix="t_iostatmon_iostat.")
    try:
        c = fixture()
        mine = ours(c, tmp)
        reports = replay(c, tmp)
        if reports is not None:
            compare(c, mine, reports)
        exact_main(tmp)
    finally:
        shutil.rmtree(tmp)
    done()


main()
