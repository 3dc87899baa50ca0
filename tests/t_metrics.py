#!/usr/bin/env python3
"""t_metrics: `iocensus metrics`, the node_exporter textfile.

The values are checked against the stable views read with Python's own
sqlite3 and against a walk of the scanned tree; the format against
promtool (`promtool check metrics`) and against a real
prometheus-node-exporter serving the file from its textfile directory
on the loopback address, whose served values are parsed here.

- Names and label values: the stable metric names, HELP and TYPE for
  every family; file-system and project names holding quotes,
  backslashes, newlines and a byte that is not UTF-8 come back exactly
  (the last as the text \\xNN) after the exposition format's unescaping.
- Which snapshot: per file system its latest complete one; a later
  snapshot that is not complete makes iocensus_snapshot_complete 0 and
  leaves the values at the complete one; a file system with no complete
  snapshot has only iocensus_snapshot_complete 0.
- Capacity, end to end: fsscan of a private tmpfs of a fixed size and
  inode count (root only; skipped, saying so, without root), whose
  iocensus_fs_* samples, as promtool parses them and as node_exporter
  serves them, equal os.statvfs of the mount read right after the scan.
  On any file system the samples are v_snapshot's fs_* columns; a value
  beyond 2^63 (exact TEXT in the database) comes out as its exact integer
  text, and a NULL (not recorded) has no sample, never 0.
- --out replaces the file by rename: a new inode, no temporary left; a
  failed run leaves the old file as it was.
- Device health: on a generated fleet (tests/lib/fleetgen.py) with one
  disk slowed and one idle, iocensus_device_slow{host,device} is 1 for
  the slow disk, 0 for every healthy one and absent for the idle one
  (it cannot be called: missing is never 0), as `iocensus health` calls
  them; a host name with quotes, a backslash and a newline comes back
  exactly; promtool and node_exporter read it.
- Free space, projects and limits: iocensus_fs_free_bytes is
  v_snapshot's fs_free_bytes (exact past 2^64); per project the
  allocated bytes and directories are v_project's, the inodes the tree's
  entries (os.walk), the limits v_limit's (limits set here on the
  hostile names), and a project without a limit has no limit sample.
- Cold data: iocensus_cold_bytes and iocensus_project_cold_bytes are
  v_cold's rows of the latest complete snapshot, by atime and mtime,
  and what `iocensus cold --format json` prints.
- Capacity dates, on the census of the capacity example of docs/analyses.md
  (tests/lib/capdemo.py): iocensus_fs_full_timestamp_seconds and
  iocensus_project_limit_timestamp_seconds are the dates `iocensus
  capacity --format json` prints, every one of them, and none where it
  prints none (a project set over its limit); and for the file system's
  space and inodes, a project's byte limit and another's inode limit,
  the dates of an exact least-squares fit with its 95% band computed in
  Python (tests/lib/census_oracle.py) from the points read with sqlite3.
- Devices and mounts: a root and a directory under it scanned as two
  names (one device): the iocensus_fs_* families once, under the first
  name, labelled with the mountpoint, device and fstype that
  /proc/self/mountinfo (read here) gives node_exporter for the mount, and
  the full dates once though capacity dates both names; a real
  node_exporter's node_filesystem_avail_bytes of that mount has the same
  labels, and promtool evaluates `iocensus_fs_size_bytes * on(mountpoint)
  group_left node_filesystem_avail_bytes`; a schema-9 database upgraded
  (no mount point recorded) has no mountpoint label; the generation
  time's db label is the database's path.
- I/O, on generated captures of four hosts over ten and a half days
  (tests/lib/rawgen.py), each with gaps on other days (one's latest
  complete day more than a week before the end, one without any), one
  named with quotes, a backslash and a newline: per host the end of its
  latest
  sample, and the start, bytes read and bytes written of its latest day
  whose 1,440 minutes are all complete, as tests/lib/io_oracle.py
  computes them from the raw captures alone; a host without a complete
  day has no day sample.
- An empty census (no snapshot, no I/O): exit 0, and the HELP, TYPE and
  sample of iocensus_metrics_generated_timestamp_seconds alone, the time
  --now gives or the clock's.
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
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from tap import ok, done, diff, skip             # noqa: E402
from pace import limit  # noqa: E402
from fleetgen import Fleet                       # noqa: E402
import capdemo                                   # noqa: E402
import census_oracle                             # noqa: E402
import reportdb                                  # noqa: E402
import snapgen                                   # noqa: E402
from io_oracle import build, load_raw            # noqa: E402
from promlocal import free_port, node_exporter_argv  # noqa: E402
from rawgen import Dataset                       # noqa: E402


def scrape_once(port_argv):
    """Starts the node_exporter that port_argv(port) runs, reads its
    /metrics once it answers, and stops it: (the page or None, its
    stderr)."""
    port = free_port()
    proc = subprocess.Popen(port_argv(port), stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    body = None
    try:
        for _ in range(100):
            try:
                with urllib.request.urlopen(
                        "http://127.0.0.1:%d/metrics" % port, timeout=limit(2)) as r:
                    body = r.read().decode()
                break
            except OSError:
                if proc.poll() is not None:
                    break
                time.sleep(0.1)
    finally:
        proc.terminate()
        err = proc.communicate(timeout=limit(10))[1].decode()
    return body, err


def eq(got, want, name, why=""):
    """tap's eq, with what to show when it fails."""
    return ok(got == want, name, diff(got, want) + ("; " + str(why)[-600:]
                                                     if why else ""))

BUILD = os.environ["BUILD"]
TOP = os.environ.get("TOP", os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
IOCENSUS = os.path.join(BUILD, "iocensus")
FSSCAN = os.path.join(BUILD, "fsscan")

STABLE = ["iocensus_files", "iocensus_bytes", "iocensus_alloc_bytes",
          "iocensus_project_files", "iocensus_project_bytes",
          "iocensus_snapshot_timestamp_seconds", "iocensus_snapshot_complete",
          "iocensus_scan_duration_seconds", "iocensus_scan_errors",
          "iocensus_project_alloc_bytes", "iocensus_project_dirs",
          "iocensus_project_inodes", "iocensus_cold_bytes",
          "iocensus_project_cold_bytes",
          "iocensus_metrics_generated_timestamp_seconds"]
GENERATED = "iocensus_metrics_generated_timestamp_seconds"
CAPACITY = ["iocensus_fs_size_bytes", "iocensus_fs_avail_bytes",
            "iocensus_fs_inodes", "iocensus_fs_free_inodes"]

FS_HOSTILE = 'fs "q" \\back\nnew'
PROJECTS = [b'quo"te', b'back\\slash', b'new\nline', b'bad\xffbyte', b'plain']


def unescape(s):
    """A label value or HELP text as the exposition format defines it."""
    out, i = [], 0
    while i < len(s):
        if s[i] == "\\" and i + 1 < len(s):
            out.append({"\\": "\\", "n": "\n", '"': '"'}.get(s[i + 1],
                                                           "\\" + s[i + 1]))
            i += 2
        else:
            out.append(s[i])
            i += 1
    return "".join(out)


LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"')


def parse(text):
    """{(name, frozenset(labels)): value}, {name: help}, {name: type}."""
    samples, helps, types = {}, {}, {}
    for line in text.split("\n"):
        if not line:
            continue
        if line.startswith("# HELP "):
            name, _, h = line[7:].partition(" ")
            helps[name] = unescape(h)
            continue
        if line.startswith("# TYPE "):
            name, _, t = line[7:].partition(" ")
            types[name] = t
            continue
        if line.startswith("#"):
            continue
        m = re.match(r"^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)$", line)
        if not m:
            raise ValueError("unparsable line %r" % line)
        labels = frozenset((k, unescape(v)) for k, v in
                           LABEL.findall(m.group(3) or ""))
        samples[(m.group(1), labels)] = float(m.group(4))
    return samples, helps, types


def key(name, **labels):
    return (name, frozenset(labels.items()))


MOUNT_LABELS = ("mountpoint", "device", "fstype")


def bare(samples):
    """The samples with the capacity families' node_exporter labels
    (check_mounts checks them) left out."""
    return {(n, frozenset((k, v) for k, v in lb if k not in MOUNT_LABELS)
             if n.startswith("iocensus_fs_") else lb): v
            for (n, lb), v in samples.items()}


NOW = 1806537600        # 2027-04-01: --now of every run but the clock's


def metrics(db, *extra, now=NOW):
    p = subprocess.run([IOCENSUS, "metrics", "--db", db] + list(extra) +
                       ([] if now is None else ["--now", str(now)]),
                       capture_output=True)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def shown(name):
    """A name as a label value: bytes that are not UTF-8 as \\xNN."""
    return "".join(chr(b) if b < 0x80 else "\\x%02x" % b for b in name) \
        if not _utf8(name) else name.decode()


def _utf8(b):
    try:
        b.decode("utf-8")
        return True
    except UnicodeDecodeError:
        return False


def make_tree(root):
    os.makedirs(root)
    sizes = {}
    now = int(time.time())
    for i, p in enumerate(PROJECTS):
        d = os.path.join(root.encode(), p)
        os.makedirs(d)
        for k in range(i + 1):
            path = os.path.join(d, b"f%d" % k)
            with open(path, "wb") as f:
                f.write(b"x" * (1000 * (i + 1) + k))
            # Not read for 45 to 285 days, not modified for 100 to 380:
            # each file is cold at some of fsscan's thresholds.
            os.utime(path, (now - (45 + 60 * k) * 86400,
                            now - (100 + 70 * k) * 86400))
        sizes[p] = (i + 1, sum(1000 * (i + 1) + k for k in range(i + 1)))
    return sizes


def scan(db, fs, root):
    p = subprocess.run([FSSCAN, "--db", db, "--fs", fs, "--quiet", root],
                       capture_output=True)
    return p.returncode


def check_values(db, fs, sizes, samples):
    c = sqlite3.connect(db)
    c.text_factory = bytes
    sid, started, finished, files, nbytes, alloc, errors = c.execute(
        "SELECT id, started_at, finished_at, files, bytes, alloc_bytes, "
        "errors FROM v_snapshot WHERE fs = ? AND complete ORDER BY id DESC "
        "LIMIT 1", (fs,)).fetchone()
    projects = {r[0]: (r[1], r[2]) for r in c.execute(
        "SELECT project, files, bytes FROM v_project WHERE snapshot_id = ?",
        (sid,))}
    c.close()
    want_files = sum(n for n, _ in sizes.values())
    eq(samples.get(key("iocensus_files", fs=fs)), float(want_files),
       "iocensus_files is the number of files written")
    eq(samples.get(key("iocensus_bytes", fs=fs)),
       float(sum(b for _, b in sizes.values())),
       "iocensus_bytes is the sum of their sizes")
    eq(samples.get(key("iocensus_alloc_bytes", fs=fs)), float(alloc),
       "iocensus_alloc_bytes is v_snapshot's alloc_bytes")
    eq(samples.get(key("iocensus_snapshot_timestamp_seconds", fs=fs)),
       float(started), "the timestamp is the scan's start")
    eq(samples.get(key("iocensus_scan_duration_seconds", fs=fs)),
       float(finished - started), "the duration is finished - started")
    eq(samples.get(key("iocensus_scan_errors", fs=fs)), float(errors),
       "the errors are v_snapshot's")
    got = {lb: v for (n, lbs), v in samples.items()
           if n == "iocensus_project_bytes" and dict(lbs).get("fs") == fs
           for lb in [dict(lbs)["project"]]}
    want = {shown(p): float(b) for p, (_, b) in projects.items()}
    eq(got, want, "one iocensus_project_bytes per project of v_project")
    for p in PROJECTS:
        eq(samples.get(key("iocensus_project_files", fs=fs,
                           project=shown(p))), float(sizes[p][0]),
           "files of project %r" % p)


def check_format(text, tmp, want=STABLE):
    """The format's rules, promtool's check, and the families in want
    (each: a HELP, a TYPE and a sample)."""
    samples, helps, types = parse(text)
    names = {n for n, _ in samples}
    for n in want:
        ok(n in names, "%s is exported" % n)
    ok(all(types.get(n) == "gauge" for n in names),
       "every family is a gauge", types)
    ok(all(helps.get(n) for n in names), "every family has a HELP line")
    ok(text.count("# TYPE ") == len(types), "one TYPE line per family")
    promtool_check(text)
    return samples


def promtool_check(text):
    if shutil.which("promtool"):
        p = subprocess.run(["promtool", "check", "metrics"], input=text,
                           capture_output=True, text=True)
        eq(p.returncode, 0, "promtool check metrics accepts it",
           p.stdout + p.stderr)
    else:
        ok(False, "promtool is installed (scripts/install-deps)")


def node_exporter(textdir, want):
    exe = shutil.which("prometheus-node-exporter")
    if not ok(exe, "prometheus-node-exporter is installed "
              "(scripts/install-deps)"):
        return
    body, err = scrape_once(lambda port: node_exporter_argv(textdir, port))
    if not ok(body is not None, "node_exporter serves /metrics", err[-500:]):
        return
    served, _, _ = parse(body)
    eq(served.get(("node_textfile_scrape_error", frozenset())), 0.0,
       "node_exporter read the textfile without error")
    mine = {k: v for k, v in served.items() if k[0].startswith("iocensus_")}
    eq(mine, want, "node_exporter serves exactly the values written")
    return mine


def capacity_view(db, values):
    """v_snapshot with capacity columns of our choosing (values: per
    snapshot id, a 5-tuple of integers, exact decimal text or None), read
    through the stable view as the loaders read the real columns."""
    c = sqlite3.connect(db)
    c.executescript(
        "CREATE TABLE cap (id INTEGER PRIMARY KEY, b, fb, ab, i, fi);"
        "DROP VIEW v_snapshot;"
        "CREATE VIEW v_snapshot AS SELECT id, fs, root, started_at,"
        " finished_at, (status = 'complete') AS complete, files, dirs,"
        " symlinks, others, bytes, alloc_bytes, errors, cap.b AS fs_bytes,"
        " cap.fb AS fs_free_bytes, cap.ab AS fs_avail_bytes,"
        " cap.i AS fs_inodes, cap.fi AS fs_free_inodes,"
        " NULL AS fs_device"
        " FROM snapshot LEFT JOIN cap USING (id);")
    for sid, v in values.items():
        c.execute("INSERT INTO cap VALUES (?, ?, ?, ?, ?, ?)", (sid,) + v)
    c.commit()
    c.close()


def check_capacity_db(db, samples):
    """The capacity samples are v_snapshot's fs_* columns of each file
    system's latest complete snapshot, none where a column is NULL."""
    c = sqlite3.connect(db)
    c.text_factory = bytes
    rows = c.execute(
        "SELECT fs, fs_bytes, fs_avail_bytes, fs_inodes, fs_free_inodes,"
        " fs_device FROM v_snapshot s WHERE complete AND id = (SELECT"
        " max(id) FROM v_snapshot WHERE fs = s.fs AND complete)"
        " ORDER BY fs").fetchall()
    c.close()
    # A device's capacity once, under the first of its names (bytes).
    devs, once = set(), []
    for r in rows:
        if r[-1] is None or r[-1] not in devs:
            once.append(r[:-1])
        devs.add(r[-1])
    ok(len(once) < len(rows), "the file systems share a device", rows)
    rows = once
    ok(rows and all(r[1] is not None for r in rows),
       "fsscan recorded the capacity of every file system", rows)
    got, want = {}, {}
    for fs, *vals in rows:
        fs = fs.decode()
        for name, v in zip(CAPACITY, vals):
            if v is not None:
                want[(name, fs)] = float(int(v))
            if key(name, fs=fs) in samples:
                got[(name, fs)] = samples[key(name, fs=fs)]
    eq(got, want, "the capacity samples are v_snapshot's fs_* columns, "
       "once per device")


def check_real_capacity(tmp):
    """A private tmpfs, scanned: its capacity as statvfs says, through
    promtool and node_exporter."""
    if os.geteuid() != 0:
        skip("capacity against statvfs", "mounting a tmpfs needs root",
             needs="root")
        return
    mnt = os.path.join(tmp, "capfs")
    os.makedirs(mnt)
    p = subprocess.run(["mount", "-t", "tmpfs", "-o",
                        "size=8m,nr_inodes=300,mode=755", "tmpfs", mnt],
                       capture_output=True, text=True)
    if p.returncode != 0:
        skip("capacity against statvfs", "mount tmpfs: %s" %
             p.stderr.strip())
        return
    try:
        for i in range(5):
            os.makedirs(os.path.join(mnt, "p%d" % i))
            with open(os.path.join(mnt, "p%d" % i, "f"), "wb") as f:
                f.write(b"c" * (300000 * (i + 1)))
        db = os.path.join(tmp, "cap.db")
        eq(scan(db, "cap", mnt), 0, "fsscan of the tmpfs")
        sv = os.statvfs(mnt)
        want = {key("iocensus_fs_size_bytes", fs="cap"):
                float(sv.f_blocks * sv.f_frsize),
                key("iocensus_fs_avail_bytes", fs="cap"):
                float(sv.f_bavail * sv.f_frsize),
                key("iocensus_fs_inodes", fs="cap"): float(sv.f_files),
                key("iocensus_fs_free_inodes", fs="cap"): float(sv.f_ffree)}
        ok(sv.f_bavail < sv.f_blocks and sv.f_ffree < sv.f_files,
           "the tmpfs holds the tree (not empty)")
        textdir = os.path.join(tmp, "captext")
        os.makedirs(textdir)
        prom = os.path.join(textdir, "iocensus.prom")
        rc, _, err = metrics(db, "--out", prom)
        eq(rc, 0, "metrics of the tmpfs's census", err)
        with open(prom) as f:
            text = f.read()
        samples = bare(check_format(text, tmp))
        eq({k: samples.get(k) for k in want}, want,
           "iocensus_fs_* as promtool parses them: statvfs of the mount")
        for name, v in ((n, int(want[key(n, fs="cap")])) for n in CAPACITY):
            ok(re.search(r'^%s\{fs="cap",[^}]*\} %d$' % (name, v), text,
                         re.M),
               "%s is the exact integer %d" % (name, v))
        served = node_exporter(textdir, parse(text)[0])
        if served is not None:
            served = bare(served)
            eq({k: served.get(k) for k in want}, want,
               "iocensus_fs_* as node_exporter serves them: statvfs of"
               " the mount")
    finally:
        subprocess.run(["umount", mnt])


HOST_HOSTILE = 'oss "q" \\back\nnew'


def check_device_slow(tmp):
    """iocensus_device_slow on a fleet: one disk slowed 4x from the
    second day, one disk idle; `iocensus health` is what calls them."""
    t0 = 1267401600
    f = Fleet(seed=3, start=t0, minutes=2 * 1440)
    f.slow("h001", "sdc", t0 + 86400, 4)
    f.idle_device("h002", "sdh")
    d = os.path.join(tmp, "fleet")
    os.makedirs(d)
    db = snapgen.new_db(d, BUILD)
    names = ["h000", HOST_HOSTILE, "h002", "h003"]
    reportdb.ingest(db, BUILD, d, f, names)
    rc, text, err = metrics(db)
    eq(rc, 0, "metrics of a fleet", err)
    samples, helps, types = parse(text)
    p = subprocess.run([IOCENSUS, "health", "--db", db, "--format", "csv",
                        "--table", "devices"], capture_output=True,
                       text=True)
    rows = list(csv.DictReader(io.StringIO(p.stdout)))
    want = {key("iocensus_device_slow", host=r["host"], device=r["device"]):
            float(r["slow"]) for r in rows if r["slow"] != ""}
    got = {k: v for k, v in samples.items()
           if k[0] == "iocensus_device_slow"}
    eq(got, want, "iocensus_device_slow: the verdicts of iocensus health")
    eq(sorted((dict(lb)["host"], dict(lb)["device"]) for (n, lb), v in
              got.items() if v == 1), [(HOST_HOSTILE, "sdc")],
       "iocensus_device_slow: 1 for the slowed disk only, its host name "
       "exact")
    eq(len([v for v in got.values() if v == 0]), 30,
       "iocensus_device_slow: 0 for each of the 30 healthy disks")
    ok(key("iocensus_device_slow", host="h002", device="sdh") not in got,
       "iocensus_device_slow: no sample for the idle disk (not called)")
    eq((types.get("iocensus_device_slow"),
        helps.get("iocensus_device_slow", "")[:30]),
       ("gauge", "1 if the device is slow: above"),
       "iocensus_device_slow: HELP and TYPE")
    promtool_check(text)
    textdir = os.path.join(tmp, "textfile2")
    os.makedirs(textdir)
    with open(os.path.join(textdir, "iocensus.prom"), "w") as fh:
        fh.write(text)
    node_exporter(textdir, {k: v for k, v in samples.items()})


def latest_complete(c, fs):
    return c.execute("SELECT max(id) FROM v_snapshot WHERE fs = ? AND"
                     " complete", (fs,)).fetchone()[0]


# Limits set on the hostile names: bytes alone, inodes alone, both.
LIMITS = {b'quo"te': (1500, None), b'new\nline': (None, 3),
          b'bad\xffbyte': (10 ** 6, 10 ** 6)}


def set_limits(db, fs):
    """v_limit rows for some projects of fs's latest complete snapshot
    (the names matched by their bytes, as fsscan stored them)."""
    c = sqlite3.connect(db)
    sid = latest_complete(c, fs)
    for name, (b, i) in LIMITS.items():
        c.execute("INSERT INTO project_limit SELECT snapshot_id, name, ?, ?,"
                  " 'file' FROM project WHERE snapshot_id = ? AND"
                  " hex(name) = ?", (b, i, sid, name.hex().upper()))
    c.commit()
    c.close()


def family(samples, name, labels, **where):
    """{tuple of the labels' values: value} of one family's samples whose
    labels have the values of where."""
    out = {}
    for (n, lb), val in samples.items():
        d = dict(lb)
        if n == name and all(d.get(k) == v for k, v in where.items()):
            out[tuple(d[k] for k in labels)] = val
    return out


def check_projects(db, fs, sizes, samples):
    """Free bytes, and per project allocated bytes, directories, inodes
    and limits: v_snapshot, v_project and v_limit read here, the inodes
    from the tree itself (each project a directory of its files)."""
    c = sqlite3.connect(db)
    c.text_factory = bytes
    sid = latest_complete(c, fs)
    free = c.execute("SELECT fs_free_bytes FROM v_snapshot WHERE id = ?",
                     (sid,)).fetchone()[0]
    eq(samples.get(key("iocensus_fs_free_bytes", fs=fs)),
       None if free is None else float(int(free)),
       "iocensus_fs_free_bytes is v_snapshot's fs_free_bytes")
    rows = c.execute("SELECT project, alloc_bytes, dirs FROM v_project"
                     " WHERE snapshot_id = ?", (sid,)).fetchall()
    lim = c.execute("SELECT project, bytes, inodes FROM v_limit WHERE"
                    " snapshot_id = ?", (sid,)).fetchall()
    c.close()
    pl = ("project",)
    eq(family(samples, "iocensus_project_alloc_bytes", pl, fs=fs),
       {(shown(p),): float(int(a)) for p, a, _ in rows},
       "iocensus_project_alloc_bytes: v_project's alloc_bytes")
    eq(family(samples, "iocensus_project_dirs", pl, fs=fs),
       {(shown(p),): float(d) for p, _, d in rows},
       "iocensus_project_dirs: v_project's dirs")
    got = family(samples, "iocensus_project_inodes", pl, fs=fs)
    eq({k: v for k, v in got.items() if k[0] in map(shown, PROJECTS)},
       {(shown(p),): float(n + 1) for p, (n, _) in sizes.items()},
       "iocensus_project_inodes: each project's directory and files "
       "(os.walk of the tree)")
    eq(family(samples, "iocensus_project_limit_bytes", pl, fs=fs),
       {(shown(p),): float(b) for p, b, _ in lim if b is not None},
       "iocensus_project_limit_bytes: v_limit's bytes, no sample "
       "without a limit")
    eq(family(samples, "iocensus_project_limit_inodes", pl, fs=fs),
       {(shown(p),): float(i) for p, _, i in lim if i is not None},
       "iocensus_project_limit_inodes: v_limit's inodes, no sample "
       "without a limit")
    eq(sorted(p for p, _, _ in lim), sorted(LIMITS),
       "the limits set are in v_limit (the oracle sees them)")


def json_shown(name):
    """A name as JSON gives it (a byte NN that is not UTF-8 as the lone
    surrogate \\udcNN, Python's surrogateescape) in the metrics'
    spelling (the text \\xNN)."""
    return "".join("\\x%02x" % (ord(ch) - 0xdc00)
                   if 0xdc80 <= ord(ch) <= 0xdcff else ch for ch in name)


COLD_FS = ("fs", "metric", "days")
COLD_P = ("fs", "project", "metric", "days")


def check_cold(db, samples):
    """The cold families: v_cold's rows of each file system's latest
    complete snapshot, and what `iocensus cold --format json` prints."""
    c = sqlite3.connect(db)
    c.text_factory = bytes
    want_fs, want_p = {}, {}
    for sid, fs in c.execute("SELECT id, fs FROM v_snapshot s WHERE id ="
                             " (SELECT max(id) FROM v_snapshot WHERE fs ="
                             " s.fs AND complete)").fetchall():
        for p, m, d, b in c.execute(
                "SELECT project, metric, days, bytes FROM v_cold WHERE"
                " snapshot_id = ?", (sid,)):
            if p is None:
                want_fs[(fs.decode(), m.decode(), str(d))] = float(int(b))
            else:
                want_p[(fs.decode(), shown(p), m.decode(), str(d))] = \
                    float(int(b))
    c.close()
    ok(len({v for v in want_p.values()}) > 4, "v_cold has rows of "
       "several values (the tree's files are of several ages)", want_p)
    eq(family(samples, "iocensus_cold_bytes", COLD_FS), want_fs,
       "iocensus_cold_bytes{fs,metric,days}: v_cold's file-system rows")
    eq(family(samples, "iocensus_project_cold_bytes", COLD_P), want_p,
       "iocensus_project_cold_bytes{fs,project,metric,days}: v_cold's "
       "project rows")
    js_fs, js_p = {}, {}
    for fs in {k[0] for k in want_fs}:
        for m in ("atime", "mtime"):
            p = subprocess.run([IOCENSUS, "cold", "--db", db, "--fs", fs,
                                "--metric", m, "--format", "json"],
                               capture_output=True, text=True)
            t = json.loads(p.stdout)["tables"]
            for r in t["filesystems"]["rows"]:
                js_fs[(r["fs"], r["metric"], str(r["days"]))] = \
                    float(r["bytes"])
            for r in t["projects"]["rows"]:
                js_p[(r["fs"], json_shown(r["project"]), r["metric"],
                      str(r["days"]))] = float(r["bytes"])
    eq(family(samples, "iocensus_cold_bytes", COLD_FS), js_fs,
       "iocensus_cold_bytes: what iocensus cold --format json prints")
    eq(family(samples, "iocensus_project_cold_bytes", COLD_P), js_p,
       "iocensus_project_cold_bytes: what iocensus cold --format json "
       "prints")


BOUNDS = (("estimate", ""), ("earliest", "_lo"), ("latest", "_hi"))
FULL = ("iocensus_fs_full_timestamp_seconds",
        "iocensus_project_limit_timestamp_seconds")


def capacity_json(db):
    p = subprocess.run([IOCENSUS, "capacity", "--db", db, "--format",
                        "json"], capture_output=True, text=True)
    return json.loads(p.stdout)["tables"]


def capacity_dates(db):
    """The metrics' dates as `iocensus capacity --format json` prints
    them: per file system space (full*) and inodes (inodes_full*); per
    project towards its byte limit, else its inode limit."""
    t = capacity_json(db)
    fs, pr = {}, {}
    for r in t["filesystems"]["rows"]:
        for res, col in (("space", "full"), ("inodes", "inodes_full")):
            for bound, sfx in BOUNDS:
                if r[col + sfx] is not None:
                    fs[(r["fs"], res, bound)] = float(r[col + sfx])
    for r in t["projects"]["rows"]:
        res = "space" if r["limit_bytes"] is not None else "inodes"
        for bound, sfx in BOUNDS:
            if r["full" + sfx] is not None:
                pr[(r["fs"], r["project"], res, bound)] = \
                    float(r["full" + sfx])
    return fs, pr, t


def fit_dates(points, target):
    """(estimate, earliest, latest) of the exact linear fit."""
    lin = census_oracle.growth(points, target)["projection"][0]
    return tuple(None if lin[k] is None else float(lin[k]) for k in
                 ("crossing", "crossing_lo", "crossing_hi"))


def got_dates(samples, name, **labels):
    return tuple(samples.get(key(name, bound=b, **labels))
                 for b, _ in BOUNDS)


def oracle_points(db, fs):
    """Per complete snapshot of fs (one per day, time order): id, start,
    capacity columns, and {project: (alloc, entries)}; the limits of the
    latest."""
    c = sqlite3.connect(db)
    snaps = c.execute(
        "SELECT id, started_at, fs_bytes, fs_free_bytes, fs_avail_bytes,"
        " fs_inodes, fs_free_inodes FROM v_snapshot WHERE fs = ? AND"
        " complete ORDER BY started_at, id", (fs,)).fetchall()
    kept = census_oracle.one_per_day([(s[0], s[1], s) for s in snaps])
    proj = {sid: {n: (int(a), e) for n, a, e in c.execute(
        "SELECT name, alloc_bytes, entries FROM project WHERE"
        " snapshot_id = ?", (sid,))} for sid, _, _ in kept}
    lim = {n: (b, i) for n, b, i in c.execute(
        "SELECT project, bytes, inodes FROM v_limit WHERE snapshot_id = ?",
        (kept[-1][0],))}
    c.close()
    return [s for _, _, s in kept], proj, lim


def check_capacity_dates(tmp):
    """The capacity dates on the capacity example of docs/analyses.md."""
    d = os.path.join(tmp, "capdemo")
    os.makedirs(d)
    db = capdemo.build(d, BUILD)
    # scratch over a limit set at the latest point only: capacity says
    # "already exceeded" and gives no date.
    c = sqlite3.connect(db)
    last = latest_complete(c, "proj")
    c.execute("INSERT INTO project_limit VALUES (?, 'scratch', ?, NULL,"
              " 'file')", (last, 30 * capdemo.TIB))
    c.commit()
    c.close()
    rc, text, err = metrics(db)
    eq(rc, 0, "metrics of the capacity example", err)
    samples = bare(check_format(text, tmp, FULL))
    fs, pr, t = capacity_dates(db)
    eq(family(samples, FULL[0], ("fs", "resource", "bound")), fs,
       "iocensus_fs_full_timestamp_seconds: every date of iocensus "
       "capacity, estimate and 95% range, space and inodes")
    eq(family(samples, FULL[1], ("fs", "project", "resource", "bound")),
       pr,
       "iocensus_project_limit_timestamp_seconds: every date of iocensus "
       "capacity's projects")
    ok(len(fs) == 12 and len(pr) == 9, "the example has dates: every "
       "bound of both file systems, three projects'", (len(fs), len(pr)))
    state = {r["project"]: r["state"] for r in t["projects"]["rows"]
             if r["fs"] == "proj"}
    eq(state.get("scratch"), "already exceeded",
       "capacity calls scratch already over its limit")
    eq(family(samples, FULL[1], ("bound",), project="scratch"), {},
       "... and it has no date sample")
    # The independent fit: exact least squares and its 95% band.
    snaps, proj, lim = oracle_points(db, "proj")
    used = [(s[0], s[1], s[2] - s[3]) for s in snaps]
    last = snaps[-1]
    eq(got_dates(samples, "iocensus_fs_full_timestamp_seconds", fs="proj",
                 resource="space"),
       fit_dates(used, last[2] - last[3] + last[4]),
       "proj space: the dates of a least-squares fit of used towards "
       "used + avail (Python, exact)")
    ino = [(s[0], s[1], s[5] - s[6]) for s in snaps]
    eq(got_dates(samples, "iocensus_fs_full_timestamp_seconds", fs="proj",
                 resource="inodes"), fit_dates(ino, last[5]),
       "proj inodes: the dates of a least-squares fit towards fs_inodes")
    for name, res, k, li in (("climate", "space", 0, 0),
                             ("astro", "inodes", 1, 1)):
        pts = [(s[0], s[1], proj[s[0]].get(name, (0, 0))[k]) for s in snaps]
        eq(got_dates(samples, "iocensus_project_limit_timestamp_seconds",
                     fs="proj", project=name, resource=res),
           fit_dates(pts, lim[name][li]),
           "%s: the dates of a least-squares fit towards its %s limit"
           % (name, res))


IO_T0 = 1267401600      # 2010-03-01 00:00 UTC
IO_HOSTILE = 'io "q" \\b\nn'


def check_io(tmp):
    """The I/O families on four hosts over ten and a half days (days 0 to
    10, the last half covered): h000 complete throughout; h001 with gaps
    on days 8 and 9; the hostile one with gaps on days 1 to 9, so that
    its latest complete day is more than a week before the end; h003
    with a gap every day."""
    d = os.path.join(tmp, "io")
    os.makedirs(d)
    day = 86400
    ds = Dataset(seed=5, hosts=4, devs_per_host=2, start=IO_T0,
                 minutes=10 * 1440 + 720)
    for host, gaps in (("h001", range(8, 10)), ("h002", range(1, 10)),
                       ("h003", range(11))):
        for k in gaps:
            ds.missing(IO_T0 + k * day + 600, IO_T0 + k * day + 900,
                       host=host)
    names = ["h000", "h001", IO_HOSTILE, "h003"]
    db = snapgen.new_db(d, BUILD)
    reportdb.ingest(db, BUILD, d, ds, names)
    paths = sorted(ds.write(os.path.join(d, "raw")))
    m = build([load_raw(p, n) for p, n in zip(paths, names)])
    want_last, want_day = {}, {}
    for h in names:
        ends = [s.t_ms for (hh, _), ss in m.devs.items() if hh == h
                for s in ss]
        want_last[(h,)] = float(max(ends) // 1000)
        days = {}
        for t, (st, rd, wr, _) in m.host[h].items():
            c = days.setdefault(t // day * day, [0, 0, 0])
            if st == "complete":
                c[0] += 1
                c[1] += rd
                c[2] += wr
        full = [t for t, c in days.items() if c[0] == 1440]
        if full:
            t = max(full)
            want_day[h] = (float(t), float(days[t][1]), float(days[t][2]))
    eq(sorted((h, v[0]) for h, v in want_day.items()),
       [("h000", IO_T0 + 9 * day), ("h001", IO_T0 + 7 * day),
        (IO_HOSTILE, IO_T0)],
       "the oracle's latest complete days are the design's (h003 none)")
    rc, text, err = metrics(db, now=IO_T0 + 11 * day)
    eq(rc, 0, "metrics of the hosts", err)
    samples = check_format(text, tmp, [
        "iocensus_io_last_sample_timestamp_seconds",
        "iocensus_io_day_timestamp_seconds", "iocensus_io_day_read_bytes",
        "iocensus_io_day_write_bytes", GENERATED])
    eq(family(samples, "iocensus_io_last_sample_timestamp_seconds",
              ("host",)),
       want_last, "iocensus_io_last_sample_timestamp_seconds: the end of "
       "each host's latest sample (its escaped name exact)")
    for i, fam in enumerate(("iocensus_io_day_timestamp_seconds",
                             "iocensus_io_day_read_bytes",
                             "iocensus_io_day_write_bytes")):
        eq(family(samples, fam, ("host",)),
           {(h,): v[i] for h, v in want_day.items()},
           "%s: each host's latest complete day (the oracle's sums over "
           "its 1,440 minutes); none for a host without one" % fam)
    eq(samples.get(key(GENERATED, db=os.path.realpath(db))),
       float(IO_T0 + 11 * day),
       "iocensus_metrics_generated_timestamp_seconds is --now")


def check_empty(tmp):
    """A database with no snapshot and no I/O: the generated time only."""
    d = os.path.join(tmp, "empty")
    os.makedirs(d)
    db = snapgen.new_db(d, BUILD)
    rc, text, err = metrics(db, "--now", "2027-04-01", now=None)
    eq((rc, err), (0, ""), "metrics of an empty census exits 0")
    eq(text, "# HELP %s When iocensus metrics made this file from the "
       "database db, unix seconds (its --now when given).\n# TYPE %s gauge"
       "\n%s{db=\"%s\"} 1806537600\n" % ((GENERATED,) * 3 +
                                         (os.path.realpath(db),)), "an empty census: HELP, TYPE and the sample "
       "of iocensus_metrics_generated_timestamp_seconds alone, --now's "
       "time (2027-04-01 is 1806537600)")
    promtool_check(text)
    lo = int(time.time())
    rc, text, err = metrics(db, now=None)
    hi = int(time.time())
    v = parse(text)[0].get(key(GENERATED, db=os.path.realpath(db)))
    ok(rc == 0 and v is not None and lo <= v <= hi, "without --now, the "
       "generated time is the clock's", (rc, v, lo, hi, err))

def mount_oracle(path):
    """node_exporter's (mountpoint, device, fstype) of the mount that
    holds path, read here from /proc/self/mountinfo: the last mount of
    path's device whose mount point is path or above it."""
    st = os.stat(path)
    dev = "%d:%d" % (os.major(st.st_dev), os.minor(st.st_dev))
    unoct = lambda v: re.sub(r"\\([0-7]{3})",
                             lambda m: chr(int(m.group(1), 8)), v)
    best = None
    with open("/proc/self/mountinfo") as f:
        for line in f:
            a = line.split()
            mp, sep = unoct(a[4]), a.index("-")
            if a[2] == dev and (path == mp or path.startswith(
                    mp.rstrip("/") + "/")):
                if best is None or len(mp) >= len(best[0]):
                    best = (mp, unoct(a[sep + 2]), a[sep + 1])
    return best


def node_filesystem(port_argv, want_mp):
    """node_exporter's node_filesystem_avail_bytes series of mount point
    want_mp: {labels: value}."""
    body = scrape_once(port_argv)[0]
    got = parse(body or "")[0]
    return {lb: v for (n, lb), v in got.items()
            if n == "node_filesystem_avail_bytes" and
            dict(lb).get("mountpoint") == want_mp}


def check_join(tmp, line, node):
    """promtool evaluates the join of the capacity series (line, as
    written) with node_exporter's series on mountpoint: one sample, the
    iocensus labels and node_exporter's value."""
    (lb, v), = node.items()
    head, _, val = line.rpartition(" ")
    test = os.path.join(tmp, "join.test.yml")
    with open(test, "w") as f:
        f.write("rule_files: []\nevaluation_interval: 1m\ntests:\n"
                "  - interval: 1m\n    input_series:\n"
                "      - series: %s\n        values: '%s'\n"
                "      - series: %s\n        values: '%s'\n"
                "    promql_expr_test:\n"
                "      - expr: %s\n        eval_time: 0m\n"
                "        exp_samples:\n"
                "          - labels: %s\n            value: %s\n" % (
                    json.dumps(head), val, json.dumps(
                        "node_filesystem_avail_bytes{%s}" % ",".join(
                            "%s=%s" % (k, json.dumps(x)) for k, x in
                            sorted(lb))), int(v),
                    json.dumps("0 * iocensus_fs_size_bytes + on(mountpoint)"
                               " group_left node_filesystem_avail_bytes"),
                    json.dumps("{" + head.partition("{")[2]), int(v)))
    p = subprocess.run(["promtool", "test", "rules", test],
                       capture_output=True, text=True)
    eq(p.returncode, 0, "PromQL: iocensus_fs_size_bytes * on(mountpoint) "
       "group_left node_filesystem_avail_bytes joins them",
       p.stdout + p.stderr)


def check_mounts(tmp):
    """Two names on one device (a root and a directory under it): the
    capacity families once, under the first name, with node_exporter's
    mountpoint, device and fstype of the mount; their dates once though
    capacity gives both names some; node_exporter's series carries the
    same labels and joins on mountpoint; a snapshot of schema 9 (no mount
    point) has no mountpoint label; the generation time's db label is the
    database's path."""
    d = os.path.join(tmp, "mounts")
    root = os.path.join(d, "tree")
    os.makedirs(os.path.join(root, "sub", "x"))
    with open(os.path.join(root, "sub", "x", "f"), "wb") as f:
        f.write(b"m" * 5000)
    db = os.path.join(d, "m.db")
    for _ in range(2):
        eq((scan(db, "proj", root), scan(db, "sub", os.path.join(root,
                                                                  "sub"))),
           (0, 0), "fsscan of a root and a directory under it")
    # The first scans ten days earlier, with half the space used since:
    # capacity dates the device's filling.
    c = sqlite3.connect(db)
    c.execute("UPDATE snapshot SET started_at = started_at - 864000,"
              " finished_at = finished_at - 864000, now_ref = now_ref -"
              " 864000, fs_free_bytes = fs_free_bytes + fs_avail_bytes / 2,"
              " fs_avail_bytes = fs_avail_bytes + fs_avail_bytes / 2"
              " WHERE id <= 2")
    c.commit()
    c.close()
    cap = capacity_json(db)["filesystems"]["rows"]
    ok(len(cap) == 2 and all(r["full"] for r in cap), "capacity dates "
       "both names' space", cap)
    want = mount_oracle(os.path.realpath(root))
    rc, text, err = metrics(db)
    eq(rc, 0, "metrics of the two names", err)
    samples = parse(text)[0]
    mine = {(n, dict(lb).get("fs"), dict(lb).get("mountpoint"),
             dict(lb).get("device"), dict(lb).get("fstype"))
            for (n, lb) in samples if n.startswith("iocensus_fs_")}
    eq(sorted(mine), sorted((n, "proj") + want for n in CAPACITY +
                            ["iocensus_fs_free_bytes",
                             "iocensus_fs_full_timestamp_seconds"]),
       "capacity once, under proj, with the mount's labels from mountinfo")
    eq(sum(1 for (n, lb) in samples if n == "iocensus_fs_full_timestamp_"
           "seconds" and dict(lb)["bound"] == "estimate" and
           dict(lb)["resource"] == "space"), 1, "one full date estimate")
    eq(samples.get(key(GENERATED, db=os.path.realpath(db))), float(NOW),
       "the generation time's db label is the database's path")
    if shutil.which("prometheus-node-exporter") and shutil.which("promtool"):
        node = node_filesystem(lambda port: [
            "prometheus-node-exporter", "--collector.disable-defaults",
            "--collector.filesystem", "--web.listen-address=127.0.0.1:%d" %
            port], want[0])
        eq(sorted(tuple(sorted(lb)) for lb in node),
           [tuple(sorted(zip(MOUNT_LABELS, want)))],
           "node_exporter's node_filesystem_avail_bytes of that mount "
           "has the same mountpoint, device and fstype")
        line = [ln for ln in text.splitlines()
                if ln.startswith("iocensus_fs_size_bytes{")]
        if len(node) == 1 and len(line) == 1:
            check_join(d, line[0], node)
    else:
        skip("the join with node_exporter", "prometheus-node-exporter or "
             "promtool is not installed", needs="prometheus-node-exporter")
    # Schema 9: no mount point recorded. Upgraded, it has none: no label.
    c = sqlite3.connect(db)
    # (DROP COLUMN cannot parse the schema's comments: the column is
    # renamed away and emptied instead.)
    c.executescript("UPDATE snapshot SET fs_mountpoint = NULL;"
                    " ALTER TABLE snapshot RENAME COLUMN fs_mountpoint TO"
                    " gone; PRAGMA user_version = 9;")
    c.close()
    rc, text, err = metrics(db)
    eq(rc, 0, "metrics of a schema-9 database", err)
    eq(q1(db, "SELECT count(*) FROM snapshot WHERE fs_mountpoint IS NOT"
              " NULL"), 0, "upgraded: fs_mountpoint is NULL")
    eq({tuple(sorted(dict(lb))) for (n, lb) in parse(text)[0]
        if n == "iocensus_fs_size_bytes"},
       {("device", "fs", "fstype")}, "no mount point recorded: no "
       "mountpoint label, never a made-up one")


def q1(db, sql):
    c = sqlite3.connect(db)
    try:
        return c.execute(sql).fetchone()[0]
    finally:
        c.close()


def main():
    tmp = tempfile.mkdtemp(prefix="t_metrics.")
    # every user may search down to the trees: their names are public
    # (t_attack_private checks the private ones)
    os.chmod(tmp, 0o755)
    try:
        db = os.path.join(tmp, "census.db")
        sizes = make_tree(os.path.join(tmp, "proj"))
        os.makedirs(os.path.join(tmp, "home/u"))
        ok(scan(db, FS_HOSTILE, os.path.join(tmp, "proj")) in (0, 1),
           "fsscan of the hostile tree")
        ok(scan(db, "home", os.path.join(tmp, "home")) == 0, "fsscan home")
        set_limits(db, FS_HOSTILE)
        rc, text, err = metrics(db)
        eq(rc, 0, "iocensus metrics exits 0", err)
        samples = bare(check_format(text, tmp))
        check_values(db, FS_HOSTILE, sizes, samples)
        check_projects(db, FS_HOSTILE, sizes, samples)
        check_cold(db, samples)
        eq(samples.get(key("iocensus_snapshot_complete", fs=FS_HOSTILE)),
           1.0, "the latest snapshot is complete")
        check_capacity_db(db, samples)

        # A later scan that did not complete: values stay, complete is 0.
        with open(os.path.join(tmp, "proj", "plain", "late"), "wb") as f:
            f.write(b"y" * 77)
        scan(db, FS_HOSTILE, os.path.join(tmp, "proj"))
        c = sqlite3.connect(db)
        c.execute("UPDATE snapshot SET status = 'interrupted' WHERE id = "
                  "(SELECT max(id) FROM snapshot)")
        c.execute("INSERT INTO snapshot (fs, root, started_at, status, "
                  "now_ref, host) SELECT 'never', root, started_at, "
                  "'running', now_ref, host FROM snapshot WHERE id = 1")
        c.commit()
        c.close()
        rc, text, err = metrics(db)
        samples, _, _ = parse(text)
        eq(samples.get(key("iocensus_snapshot_complete", fs=FS_HOSTILE)),
           0.0, "a later interrupted snapshot: complete 0")
        check_values(db, FS_HOSTILE, sizes, samples)
        eq(sorted(n for n, lbs in samples if dict(lbs).get("fs") == "never"),
           ["iocensus_snapshot_complete"],
           "a file system without a complete snapshot: complete only")
        eq(samples.get(key("iocensus_snapshot_complete", fs="never")), 0.0,
           "... and it is 0")

        # --out: atomic replacement in node_exporter's textfile directory.
        textdir = os.path.join(tmp, "textfile")
        os.makedirs(textdir)
        prom = os.path.join(textdir, "iocensus.prom")
        with open(prom, "w") as f:
            f.write("# old\n")
        ino = os.stat(prom).st_ino
        rc, out, err = metrics(db, "--out", prom)
        eq((rc, out), (0, ""), "--out writes nothing on stdout", err)
        ok(os.stat(prom).st_ino != ino, "--out replaced the file by rename")
        eq(os.listdir(textdir), ["iocensus.prom"], "no temporary file left")
        with open(prom) as f:
            eq(f.read(), text, "--out holds what stdout showed")
        before = open(prom).read()
        rc, _, err = metrics(os.path.join(tmp, "missing.db"), "--out", prom)
        ok(rc == 3 and open(prom).read() == before,
           "a failed run leaves the old file", "rc %d %s" % (rc, err))
        node_exporter(textdir, {k: v for k, v in parse(before)[0].items()})

        # Capacity, once the database records it.
        c = sqlite3.connect(db)
        ids = [r[0] for r in c.execute(
            "SELECT id FROM snapshot WHERE status = 'complete' ORDER BY id")]
        c.close()
        capacity_view(db, {ids[0]: (str(2 ** 64 + 3), str(2 ** 64 + 1),
                                    2 ** 53 + 1, 1000, 7),
                           ids[1]: (500, None, None, None, 9)})
        # A project's allocated bytes past 2^65 (exact TEXT, as fsscan
        # writes a total beyond 2^63 - 1).
        c = sqlite3.connect(db)
        c.execute("UPDATE project SET alloc_bytes = ? WHERE snapshot_id = ?"
                  " AND name = 'plain'", (str(2 ** 65 + 1), ids[0]))
        c.commit()
        c.close()
        rc, text, err = metrics(db)
        eq(rc, 0, "metrics with the capacity columns", err)
        samples = bare(check_format(text, tmp))
        ok(re.search(r'^iocensus_fs_size_bytes\{fs="fs \\"q\\" \\\\back'
                     r'\\nnew",[^}]*\} 18446744073709551619$', text, re.M),
           "iocensus_fs_size_bytes = fs_bytes beyond 2^64 (TEXT in the"
           " database), exact integer text",
           [l for l in text.splitlines() if "size" in l])
        ok(re.search(r'^iocensus_fs_avail_bytes\{fs="fs \\"q\\" \\\\back'
                     r'\\nnew",[^}]*\} 9007199254740993$', text, re.M),
           "iocensus_fs_avail_bytes = fs_avail_bytes, exact integer text",
           [l for l in text.splitlines() if "avail" in l])
        ok(re.search(r'^iocensus_fs_free_bytes\{fs="fs \\"q\\" \\\\back'
                     r'\\nnew",[^}]*\} 18446744073709551617$', text, re.M),
           "iocensus_fs_free_bytes = fs_free_bytes beyond 2^64, exact "
           "integer text", [l for l in text.splitlines() if "free_b" in l])
        ok(re.search(r'^iocensus_project_alloc_bytes\{fs="fs \\"q\\" '
                     r'\\\\back\\nnew",project="plain"\} '
                     r'36893488147419103233$', text, re.M),
           "iocensus_project_alloc_bytes beyond 2^65, exact integer text",
           [l for l in text.splitlines() if "plain" in l])
        eq(samples.get(key("iocensus_fs_inodes", fs=FS_HOSTILE)), 1000.0,
           "iocensus_fs_inodes = fs_inodes")
        eq(samples.get(key("iocensus_fs_free_inodes", fs=FS_HOSTILE)), 7.0,
           "iocensus_fs_free_inodes = fs_free_inodes")
        eq(samples.get(key("iocensus_fs_size_bytes", fs="home")), 500.0,
           "home's size")
        ok(key("iocensus_fs_inodes", fs="home") not in samples and
           key("iocensus_fs_avail_bytes", fs="home") not in samples,
           "a NULL capacity column has no sample (never 0)")
        eq(samples.get(key("iocensus_fs_free_inodes", fs="home")), 9.0,
           "home's free inodes")
        check_real_capacity(tmp)
        check_device_slow(tmp)
        check_capacity_dates(tmp)
        check_mounts(tmp)
        check_io(tmp)
        check_empty(tmp)
    finally:
        shutil.rmtree(tmp)


main()
done()
