#!/usr/bin/env python3
"""Device identity from iostatmon to the analyses.

- on this machine's /sys, each disk's slot is its enclosure link's
  component, else its /dev/disk/by-path name, none where neither is (an
  oracle reading both); and with a /dev/disk/by-path made in a mount
  namespace of the test's own: a disk's first link to itself, not a
  partition's, nothing through another user's link;
- iostatmon on a fake sysfs (tests/lib/faketopo.py) records each data
  disk's wwid, serial, model and slot (an enclosure link's component name)
  as the tree holds them, hostile values included (a newline, a quote, a
  backslash, a bidi control), and no attribute a disk does not have;
- ingest stores them: v_io_device's rows equal the fake sysfs values, the
  times they span those of the device's samples (v_io), and ingesting the
  logs again, or in the other order, gives the same rows;
- a replaced disk (same kernel name, new serial and wwid, a second run)
  has two identities, the new one current, each spanning its own run;
- `iocensus devices` ends each device row with the current identity
  (CSV and JSON, exact), and `iocensus metrics` has one
  iocensus_device_info sample per device with a known identity, with its
  current values as labels, a label it has no value for left out, as
  promtool checks and parses them;
- `iostatmon import --ident FILE` gives a raw capture's devices their
  identity, and refuses a malformed line with the file and line, the
  capture imported whole either way;
- a committed schema-12 database with I/O samples (tests/golden/
  schema12.sql) is upgraded in place to 13: its rows as before, an
  empty v_io_device, filled by the next ingest.
"""
import csv
import io
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "lib"))
from tap import ok, eq, skip, done    # noqa: E402
from pace import limit  # noqa: E402
from faketopo import Topo, SATA       # noqa: E402

BUILD = os.environ.get("BUILD", "build")
TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
IOSTATMON = os.path.join(BUILD, "iostatmon")
IOC = os.path.join(BUILD, "iocensus")
GOLDEN = os.path.join(TOP, "tests", "golden")
TMP = tempfile.mkdtemp(prefix="t_device_ident.")
CONF = os.path.join(TMP, "empty.conf")
ENV = dict(os.environ, IOCENSUS_CONF=CONF)

# The fake sysfs: what each data disk's files hold (None: no such file).
# sdb's serial and model are hostile; sde has a slot only; sdd nothing.
OLD = {
    "sdb": {"wwid": "naa.5000c500aaaa0001", "serial": 'S"ER\\IAL\nX',
            "model": "MODEL \u202eevil", "slot": "Slot 07"},
    "sdc": {"wwid": "t10.ATA     SAMSUNG SSD  S3Z9", "serial": "S3Z9NB0K",
            "model": "Samsung SSD 860", "slot": None},
    "sdd": {"wwid": None, "serial": None, "model": None, "slot": None},
    "sde": {"wwid": None, "serial": None, "model": None,
            "slot": 'Bay "3"\\\nx'},
}
# sdb replaced: a new disk in the same bay.
NEW_SDB = {"wwid": "naa.5000c500bbbb0002", "serial": "ZC2NEW",
           "model": "MODEL \u202eevil", "slot": "Slot 07"}
KEYS = ("wwid", "serial", "model", "slot")
# The raw capture's sdb, by its side file: wwn, serial, model, slot.
CAP_SDB = ("naa.1", 'SER"1\\', "MODEL \u202e1", "Slot 1")


def run(*args, stdin=None):
    p = subprocess.run([str(a) for a in args], capture_output=True,
                       env=ENV, input=stdin, timeout=limit(300))
    return (p.returncode, p.stdout.decode("utf-8", "surrogateescape"),
            p.stderr.decode("utf-8", "surrogateescape"))


def q(db, sql, args=()):
    c = sqlite3.connect(db)
    try:
        return c.execute(sql, args).fetchall()
    finally:
        c.close()


def make_topo(root, ident):
    """sda holds /; sdb..sde are data disks with ident's files."""
    t = Topo(root)
    t.disk("sda", 8, 0)
    t.part("sda1", 8, 1, "sda", 1)
    for i, name in enumerate(("sdb", "sdc", "sdd", "sde"), 1):
        v = ident[name]
        device = {k: v[k] + "\n" for k in ("model", "serial") if v[k]}
        if v["wwid"]:
            device["wwid"] = v["wwid"] + "\n"
        t.disk(name, 8, 16 * i, path=SATA % (i, i, i, i), device=device)
    t.write(["25 1 8:1 / / rw,relatime - ext4 /dev/sda1 rw"], swaps=[])
    for name in ("sdb", "sdc", "sdd", "sde"):
        slot = ident[name]["slot"]
        if slot is None:
            continue
        # The kernel links the disk's SCSI device to its enclosure
        # component: device/enclosure_device:COMPONENT.
        comp = os.path.join(t.sys, "devices", "enclosure", name, "comp")
        os.makedirs(comp)
        os.symlink(comp, os.path.join(t.node_dir(t.by_name[name]),
                                      "device", "enclosure_device:" + slot))
    return t


def sample(topo, logdir, n=3):
    """A real iostatmon run of n samples on the tree; the wall-clock
    seconds around it."""
    t0 = time.time()
    rc, _, err = run(IOSTATMON, "--proc", topo.proc, "--sys", topo.sys,
                     "--no-probe", "-i", "0.2", "-c", n, "-o", logdir,
                     "--host", "oss\"1\n", "--retain", 0)
    t1 = time.time()
    eq(rc, 0, "iostatmon ran %d samples on the fake sysfs" % n, err)
    return t0, t1, [os.path.join(logdir, f) for f in sorted(os.listdir(logdir))
                    if f.endswith(".iolog.gz")]


def ingest(db, *logs):
    rc, out, err = run(IOC, "ingest", "--db", db, *logs)
    eq(rc, 0, "ingest %s" % ", ".join(os.path.basename(os.path.dirname(l))
                                      for l in logs), err)


def want_row(v):
    return tuple(v[k] for k in KEYS)


def device_rows(db):
    return q(db, "SELECT host, device, wwn, serial, model, slot, first, last,"
                 " current FROM v_io_device ORDER BY device, first")


def check_devident(topo):
    rc, out, err = run(IOSTATMON, "devices", "--proc", topo.proc, "--sys",
                       topo.sys, "--format", "json")
    eq(rc, 0, "iostatmon devices", err)
    got = {d["name"]: {k: d["attributes"].get(k) for k in KEYS}
           for d in json.loads(out) if d["name"] in OLD}
    eq(got, OLD, "iostatmon devices: wwid, serial, model and the enclosure"
       " slot as the fake sysfs holds them, none where it has none")
    mon = {d["name"] for d in json.loads(out) if d["monitored"]}
    eq(mon, set(OLD), "the four data disks are sampled")


def real_slots():
    """The oracle of the slot on this machine's /sys and /dev: a disk's
    first enclosure link, else its first /dev/disk/by-path link (in name
    order) whose target is the disk itself."""
    byp = "/dev/disk/by-path"
    links = sorted(os.listdir(byp)) if os.path.isdir(byp) else []
    want = {}
    for kname in sorted(os.listdir("/sys/class/block")):
        node = os.path.join("/sys/class/block", kname)
        name = kname.replace("!", "/")
        dev = os.path.join(node, "device")
        encl = sorted(e for e in (os.listdir(dev) if os.path.isdir(dev)
                                  else [])
                      if e.startswith("enclosure_device:") and
                      len(e) > len("enclosure_device:"))
        if encl:
            want[name] = encl[0][len("enclosure_device:"):]
        elif not os.path.exists(os.path.join(node, "partition")):
            hit = [ln for ln in links if re.sub(r"^(\.\./)*(/dev/)?", "",
                                                os.readlink(os.path.join(
                                                    byp, ln))) == name]
            if hit:
                want[name] = hit[0]
    return want


def check_real():
    rc, out, err = run(IOSTATMON, "devices", "--format", "json")
    eq(rc, 0, "iostatmon devices on this machine", err)
    got = {d["name"]: d["attributes"]["slot"] for d in json.loads(out)
           if "slot" in d["attributes"]}
    want = real_slots()
    eq(got, {n: want[n] for n in want if n in {d["name"] for d in
                                               json.loads(out)}},
       "this machine: each disk's slot is its enclosure link, else its"
       " by-path link, none where neither is (%d with one; /dev/disk/"
       "by-path %s)" % (len(want), "present" if os.path.isdir(
           "/dev/disk/by-path") else "missing"))


def devices_in_ns(script):
    """iostatmon devices (JSON) run after script in a mount namespace of
    its own, whose /dev is a fresh tmpfs: {name: slot}, or None when
    the namespace cannot be had."""
    p = subprocess.run(["unshare", "-m", "--propagation", "private", "sh",
                        "-ec", "mount -t tmpfs none /dev\n" + script +
                        "\nexec \"$0\" devices --format json",
                        os.path.abspath(IOSTATMON)],
                       capture_output=True, text=True, timeout=limit(60))
    if p.returncode != 0:
        return None, p.stderr
    return {d["name"]: d["attributes"].get("slot")
            for d in json.loads(p.stdout)}, p.stderr


def check_by_path():
    """/dev/disk/by-path on this machine's /sys, in a namespace of its own
    (the machine's /dev is not touched): a whole disk's first link whose
    target is the disk itself, a partition's link not counted; a
    directory on the way that is another user's link is not followed."""
    if os.geteuid() != 0 or not shutil.which("unshare"):
        skip("by-path slots", "a private /dev needs a mount namespace",
             "root" if os.geteuid() != 0 else "unshare")
        return
    whole = sorted(k for k in os.listdir("/sys/class/block")
                   if not os.path.exists(os.path.join(
                       "/sys/class/block", k, "partition")))[:2]
    d1, d2 = [k.replace("!", "/") for k in whole] + [None] * (2 - len(whole))
    lines = ["mkdir -p /dev/disk/by-path", "cd /dev/disk/by-path",
             "ln -s '../../%s-part1' a-part" % d1,
             "ln -s '../../%s' b-one" % d1, "ln -s '../../%s' c-one" % d1,
             "ln -s 'sdzz' 0-other"]
    want = {d1: "b-one"}
    if d2:
        lines.append("ln -s '/dev/%s' d-two" % d2)
        want[d2] = "d-two"
    got, err = devices_in_ns("\n".join(lines))
    if got is None:
        skip("by-path slots", "no mount namespace here: " + err.strip())
        return
    base = real_slots()     # enclosure slots win over by-path names
    exp = dict(base)
    for n, v in want.items():
        exp.setdefault(n, v)
    eq({n: v for n, v in got.items() if v}, exp,
       "by-path: a disk's first link to it, by name order (%s)" % want)
    got, err = devices_in_ns("\n".join([
        "mkdir -p /dev/elsewhere/by-path", "cd /dev/elsewhere/by-path",
        "ln -s '../../%s' b-one" % d1, "ln -s /dev/elsewhere /dev/disk",
        "chown -h 65534:65534 /dev/disk"]))
    eq({n: v for n, v in (got or {}).items() if v}, base,
       "by-path: /dev/disk another user's link: not followed, no slot",
       err)


def check_ingest(tmp):
    topo = make_topo(os.path.join(tmp, "old"), OLD)
    check_devident(topo)
    a0, a1, log1 = sample(topo, os.path.join(tmp, "log1"))
    # The disk in sdb's bay is replaced: new wwid and serial.
    dev = os.path.join(topo.node_dir(topo.by_name["sdb"]), "device")
    for k in ("wwid", "serial"):
        with open(os.path.join(dev, k), "w") as f:
            f.write(NEW_SDB[k] + "\n")
    time.sleep(0.5)
    b0, b1, log2 = sample(topo, os.path.join(tmp, "log2"))

    db = os.path.join(tmp, "ident.db")
    ingest(db, *log1)
    host = 'oss"1\n'
    rows = device_rows(db)
    eq([r[:6] for r in rows],
       [(host, n) + want_row(OLD[n]) for n in sorted(OLD) if n != "sdd"],
       "one log: v_io_device holds the fake sysfs values (absent: NULL),"
       " no row for sdd, which has none")
    span = {r[1]: (r[6], r[7]) for r in rows}
    io = {r[0]: (r[1], r[2]) for r in q(
        db, "SELECT device, min(CAST(round(t * 1000) AS INTEGER) -"
            " CAST(round(seconds * 1000) AS INTEGER)),"
            " max(CAST(round(t * 1000) AS INTEGER)) FROM v_io"
            " GROUP BY device")}
    eq({n: (round(f * 1000), round(l * 1000)) for n, (f, l) in span.items()},
       {n: io[n] for n in span}, "first and last are those of the device's"
       " samples in v_io (in ms)")
    ok(all(a0 - 1 <= f <= l <= a1 + 1 for f, l in span.values()),
       "and lie in the run's wall-clock time", (a0, a1, span))

    ingest(db, *log2)
    rows = device_rows(db)
    sdb = [r for r in rows if r[1] == "sdb"]
    eq([r[2:6] for r in sdb], [want_row(OLD["sdb"]), want_row(NEW_SDB)],
       "replaced disk: sdb has two identities, old then new")
    eq([r[8] for r in sdb], [0, 1], "the new disk is current")
    ok(a0 - 1 <= sdb[0][6] <= sdb[0][7] <= a1 + 1 and
       b0 - 1 <= sdb[1][6] <= sdb[1][7] <= b1 + 1 and sdb[0][7] <= sdb[1][6],
       "each identity spans its own run", sdb)
    eq(sorted(r[1] for r in rows if r[8]), ["sdb", "sdc", "sde"],
       "one current identity per device")
    eq([r[6:8] for r in rows if r[1] == "sdc"],
       [(min(r[6] for r in rows if r[1] == "sdc"),
         max(r[7] for r in rows if r[1] == "sdc"))],
       "an unchanged disk: one row spanning both runs")

    before = device_rows(db)
    ingest(db, *(log1 + log2))
    eq(device_rows(db), before, "ingesting both logs again changes nothing")
    eq(q(db, "SELECT count(*) FROM io_dev_ident"), [(len(before),)],
       "and adds no row")
    other = os.path.join(tmp, "other.db")
    ingest(other, *log2)
    ingest(other, *log1)
    eq(device_rows(other), before, "the logs in the other order: the same"
       " rows")
    return db, host


def check_devices(db):
    """The capture's devices (check_import): whole minutes, so rows."""
    cur = {"sdb": CAP_SDB, "sdc": (None, "SER2", None, None),
           "sdd": (None, None, None, None)}
    rc, out, err = run(IOC, "devices", "--db", db, "--format", "csv")
    eq(rc, 0, "devices --format csv", err)
    got = list(csv.reader(io.StringIO(out)))
    head = got.index(["# devices"]) + 1
    eq(got[head][-4:], ["wwn", "serial", "model", "slot"],
       "devices: the identity's four columns at the end")
    end = got.index([], head)
    rows = {r[1]: tuple(r[-4:]) for r in got[head + 1:end]}
    eq(rows, {n: tuple(v or "" for v in cur[n]) for n in cur},
       "devices CSV: each device's current identity, empty where absent")
    rc, out, err = run(IOC, "devices", "--db", db, "--format", "json")
    tab = json.loads(out)["tables"]["devices"]
    eq({r["device"]: tuple(r[k] for k in ("wwn", "serial", "model", "slot"))
        for r in tab["rows"]}, cur,
       "devices JSON: the same, hostile bytes exact, null where absent")
    rc, out, err = run(IOC, "health", "--db", db, "--format", "json")
    eq(rc, 0, "health --format json", err)
    tab = json.loads(out)["tables"]["devices"]
    eq({r["device"]: tuple(r[k] for k in ("wwn", "serial", "model", "slot"))
        for r in tab["rows"]}, cur,
       "health's devices: the same identities, the disk to pull")
    rc, out, err = run(IOC, "devices", "--db", db, "-o",
                       "device,serial,model")
    ok(rc == 0 and "SER\"1\\" in out and "\\xe2\\x80\\xae" in out and
       "\u202e" not in out, "devices -o device,serial,model: the table shows"
       " the bidi control as bytes, never raw", out)


LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"')


def unescape(s):
    return re.sub(r'\\(.)', lambda m: {"n": "\n"}.get(m.group(1),
                                                      m.group(1)), s)


def check_metrics(db, host):
    cur = dict(OLD, sdb=NEW_SDB)
    out = os.path.join(TMP, "m.prom")
    rc, _, err = run(IOC, "metrics", "--db", db, "--out", out)
    eq(rc, 0, "metrics", err)
    with open(out, encoding="utf-8") as f:
        text = f.read()
    if shutil.which("promtool"):
        p = subprocess.run(["promtool", "check", "metrics"], input=text,
                           capture_output=True, text=True)
        eq(p.returncode, 0, "promtool check metrics accepts it",
           p.stdout + p.stderr)
    else:
        ok(False, "promtool is installed (scripts/install-deps)")
    ok("# TYPE iocensus_device_info gauge\n" in text and
       "# HELP iocensus_device_info " in text,
       "iocensus_device_info has its HELP and TYPE")
    got = []
    for line in text.split("\n"):
        if not line.startswith("iocensus_device_info{"):
            continue
        m = re.match(r"^iocensus_device_info\{(.*)\} (\S+)$", line)
        got.append((dict((k, unescape(v)) for k, v in
                         LABEL.findall(m.group(1))), m.group(2)))
    want = []
    for n in sorted(cur):
        v = cur[n]
        if not any(v.values()):
            continue
        lab = {"host": host, "device": n}
        lab.update({("wwn" if k == "wwid" else k): v[k] for k in KEYS
                    if v[k]})
        want.append((lab, "1"))
    eq(sorted(got, key=repr), sorted(want, key=repr),
       "iocensus_device_info: one sample per device with an identity, its"
       " current values, absent labels left out, value 1")


def check_import(tmp):
    cap = os.path.join(tmp, "cap.txt")
    lines = []
    for k in range(4):
        lines.append("T %d" % (1767225600 + 60 * k))
        for n, mi in (("sdb", 16), ("sdc", 32), ("sdd", 48)):
            a = k * 10
            lines.append("   8 %7d %s %d 0 %d %d %d 0 %d %d 0 %d %d" % (
                mi, n, a, a * 8, a, a, a * 8, a, a, a * 2))
    with open(cap, "w") as f:
        f.write("\n".join(lines) + "\n")
    ident = os.path.join(tmp, "cap.ident")
    with open(ident, "w", encoding="utf-8") as f:
        f.write("# the capture's disks\n"
                "device\tslot\tserial\twwn\tmodel\n"
                "sdb\t%s\t%s\t%s\t%s\n" % (CAP_SDB[3], CAP_SDB[1],
                                            CAP_SDB[0], CAP_SDB[2]) +
                "\n"
                "sdc\t\tSER2\t\t\n"
                "sdc\t\tdup\t\t\n"
                "sdd\tonly three\tfields\n")
    log = os.path.join(tmp, "cap.iolog.gz")
    rc, _, err = run(IOSTATMON, "import", cap, "--host", "raw1", "--out", log,
                     "--ident", ident)
    eq(rc, 1, "import --ident with malformed lines: exit 1", err)
    ok("%s:6: " % ident in err and "%s:7: " % ident in err and
       err.count(ident) == 2,
       "each malformed line is named by file and line", err)
    db = os.path.join(tmp, "cap.db")
    ingest(db, log)
    eq(q(db, "SELECT device, wwn, serial, model, slot FROM v_io_device"
             " ORDER BY device"),
       [("sdb",) + CAP_SDB,
        ("sdc", None, "SER2", None, None)],
       "the side file's identities, by column name, the good lines only")
    eq(q(db, "SELECT device, count(*) FROM v_io GROUP BY device"),
       [("sdb", 3), ("sdc", 3), ("sdd", 3)],
       "the capture's samples are all there, sdd's too")

    bad = os.path.join(tmp, "bad.ident")
    with open(bad, "w") as f:
        f.write("device\tserial\tcolour\nsdb\tX\tred\n")
    log = os.path.join(tmp, "bad.iolog.gz")
    rc, _, err = run(IOSTATMON, "import", cap, "--host", "raw1", "--out", log,
                     "--ident", bad)
    eq(rc, 1, "a malformed header: exit 1", err)
    ok("%s:1: " % bad in err and "colour" in err,
       "the header's line and column are named", err)
    db = os.path.join(tmp, "bad.db")
    ingest(db, log)
    eq(q(db, "SELECT count(*) FROM v_io_device"), [(0,)],
       "a malformed header: no identity at all")
    eq(q(db, "SELECT count(*) FROM v_io"), [(9,)], "and every sample")
    return os.path.join(tmp, "cap.db")


def check_upgrade(tmp, log):
    db = os.path.join(tmp, "v12.db")
    c = sqlite3.connect(db)
    with open(os.path.join(GOLDEN, "schema12.sql")) as f:
        c.executescript(f.read())
    c.close()
    eq(q(db, "PRAGMA user_version"), [(12,)], "upgrade: the fixture is of"
       " schema 12")
    tables = ("io_host", "io_dev", "io_chunk", "io_minute", "io_dev_hour",
              "io_host_hour", "io_hour", "io_day", "io_expect", "io_source")
    before = {t: q(db, "SELECT * FROM %s ORDER BY 1, 2" % t) for t in tables}
    ok(before["io_chunk"] and before["io_dev_hour"],
       "upgrade: the fixture has samples and roll-ups")
    rc, out, err = run(IOC, "devices", "--db", db, "--format", "csv")
    eq(rc, 0, "upgrade: iocensus devices opens it", err)
    eq(q(db, "PRAGMA user_version"), [(13,)], "upgrade: now schema 13")
    eq({t: q(db, "SELECT * FROM %s ORDER BY 1, 2" % t) for t in tables},
       before, "upgrade: every I/O row as before")
    eq(q(db, "SELECT count(*) FROM v_io_device"), [(0,)],
       "upgrade: v_io_device made, empty (the old samples' identity was"
       " not stored)")
    ingest(db, log)
    eq(q(db, "SELECT device, wwn FROM v_io_device WHERE current ORDER BY 1"),
       [("sdb", NEW_SDB["wwid"]), ("sdc", OLD["sdc"]["wwid"]), ("sde", None)],
       "upgrade: the next ingest stores identities")


def main():
    open(CONF, "w").close()
    check_real()
    check_by_path()
    db, host = check_ingest(TMP)
    check_metrics(db, host)
    check_devices(check_import(TMP))
    log2 = os.path.join(TMP, "log2")
    check_upgrade(TMP, os.path.join(log2, [f for f in sorted(os.listdir(log2))
                                           if f.endswith(".iolog.gz")][0]))
    shutil.rmtree(TMP)
    done()


main()
