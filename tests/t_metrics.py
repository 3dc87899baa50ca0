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
- The alerting rules shipped in scripts/iocensus.rules.yml: `promtool
  check rules`, and `promtool test rules` on series made here: a device
  slow for 6 h fires, one slow for 5 h then healthy does not, nor does a
  healthy one or one without a sample.
"""
import csv
import io
import os
import re
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from tap import ok, done, diff, skip             # noqa: E402
from fleetgen import Fleet                       # noqa: E402
import reportdb                                  # noqa: E402
import snapgen                                   # noqa: E402


def eq(got, want, name, why=""):
    """tap's eq, with what to show when it fails."""
    return ok(got == want, name, diff(got, want) + ("; " + str(why)[-600:]
                                                     if why else ""))

BUILD = os.environ["BUILD"]
TOP = os.environ.get("TOP", os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
RULES = os.path.join(TOP, "scripts", "iocensus.rules.yml")
IOCENSUS = os.path.join(BUILD, "iocensus")
FSSCAN = os.path.join(BUILD, "fsscan")

STABLE = ["iocensus_files", "iocensus_bytes", "iocensus_alloc_bytes",
          "iocensus_project_files", "iocensus_project_bytes",
          "iocensus_snapshot_timestamp_seconds", "iocensus_snapshot_complete",
          "iocensus_scan_duration_seconds", "iocensus_scan_errors"]
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


def metrics(db, *extra):
    p = subprocess.run([IOCENSUS, "metrics", "--db", db] + list(extra),
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
    for i, p in enumerate(PROJECTS):
        d = os.path.join(root.encode(), p)
        os.makedirs(d)
        for k in range(i + 1):
            with open(os.path.join(d, b"f%d" % k), "wb") as f:
                f.write(b"x" * (1000 * (i + 1) + k))
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


def check_format(text, tmp):
    samples, helps, types = parse(text)
    names = {n for n, _ in samples}
    for n in STABLE:
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


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def node_exporter(textdir, want):
    exe = shutil.which("prometheus-node-exporter")
    if not ok(exe, "prometheus-node-exporter is installed "
              "(scripts/install-deps)"):
        return
    port = free_port()
    proc = subprocess.Popen(
        [exe, "--collector.disable-defaults", "--collector.textfile",
         "--collector.textfile.directory=" + textdir,
         "--web.listen-address=127.0.0.1:%d" % port],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    body = None
    try:
        for _ in range(100):
            try:
                with urllib.request.urlopen(
                        "http://127.0.0.1:%d/metrics" % port, timeout=2) as r:
                    body = r.read().decode()
                break
            except OSError:
                if proc.poll() is not None:
                    break
                time.sleep(0.1)
    finally:
        proc.terminate()
        err = proc.communicate(timeout=10)[1].decode()
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
        "SELECT fs, fs_bytes, fs_avail_bytes, fs_inodes, fs_free_inodes"
        " FROM v_snapshot s WHERE complete AND id = (SELECT max(id) FROM"
        " v_snapshot WHERE fs = s.fs AND complete)").fetchall()
    c.close()
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
    eq(got, want, "the capacity samples are v_snapshot's fs_* columns")


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
        samples = check_format(text, tmp)
        eq({k: samples.get(k) for k in want}, want,
           "iocensus_fs_* as promtool parses them: statvfs of the mount")
        for name, v in ((n, int(want[key(n, fs="cap")])) for n in CAPACITY):
            ok(re.search(r'^%s\{fs="cap"\} %d$' % (name, v), text, re.M),
               "%s is the exact integer %d" % (name, v))
        served = node_exporter(textdir, parse(text)[0])
        if served is not None:
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


RULE_TEST = """rule_files:
  - %s
evaluation_interval: 1m
tests:
  - interval: 1m
    input_series:
      - series: 'iocensus_device_slow{host="oss1",device="sdc"}'
        values: '0 1x500'
      - series: 'iocensus_device_slow{host="oss1",device="sdd"}'
        values: '0x500'
      - series: 'iocensus_device_slow{host="oss2",device="sda"}'
        values: '1x300 0x200'
    alert_rule_test:
      - eval_time: 5h59m
        alertname: IocensusDeviceSlow
        exp_alerts: []
      - eval_time: 6h30m
        alertname: IocensusDeviceSlow
        exp_alerts:
          - exp_labels:
              severity: warning
              host: oss1
              device: sdc
            exp_annotations:
              summary: "oss1 sdc is slow against its peers"
              description: "iocensus health has called sdc of oss1 slow for 6 hours: its requests take several times its peers' (iocensus health --host oss1)."
"""


def check_rules(tmp):
    if not ok(shutil.which("promtool"), "promtool is installed "
              "(scripts/install-deps)"):
        return
    p = subprocess.run(["promtool", "check", "rules", RULES],
                       capture_output=True, text=True)
    eq(p.returncode, 0, "promtool check rules accepts "
       "scripts/iocensus.rules.yml", p.stdout + p.stderr)
    test = os.path.join(tmp, "rules_test.yml")
    with open(test, "w") as fh:
        fh.write(RULE_TEST % RULES)
    p = subprocess.run(["promtool", "test", "rules", test],
                       capture_output=True, text=True)
    eq(p.returncode, 0, "promtool test rules: slow for 6 h fires, for 5 h"
       " does not, healthy never", p.stdout + p.stderr)


def main():
    tmp = tempfile.mkdtemp(prefix="t_metrics.")
    try:
        db = os.path.join(tmp, "census.db")
        sizes = make_tree(os.path.join(tmp, "proj"))
        os.makedirs(os.path.join(tmp, "home/u"))
        ok(scan(db, FS_HOSTILE, os.path.join(tmp, "proj")) in (0, 1),
           "fsscan of the hostile tree")
        ok(scan(db, "home", os.path.join(tmp, "home")) == 0, "fsscan home")
        rc, text, err = metrics(db)
        eq(rc, 0, "iocensus metrics exits 0", err)
        samples = check_format(text, tmp)
        check_values(db, FS_HOSTILE, sizes, samples)
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
        capacity_view(db, {ids[0]: (str(2 ** 64 + 3), 10, 2 ** 53 + 1,
                                    1000, 7),
                           ids[1]: (500, None, None, None, 9)})
        rc, text, err = metrics(db)
        eq(rc, 0, "metrics with the capacity columns", err)
        samples = check_format(text, tmp)
        ok(re.search(r'^iocensus_fs_size_bytes\{fs="fs \\"q\\" \\\\back'
                     r'\\nnew"\} 18446744073709551619$', text, re.M),
           "iocensus_fs_size_bytes = fs_bytes beyond 2^64 (TEXT in the"
           " database), exact integer text",
           [l for l in text.splitlines() if "size" in l])
        ok(re.search(r'^iocensus_fs_avail_bytes\{fs="fs \\"q\\" \\\\back'
                     r'\\nnew"\} 9007199254740993$', text, re.M),
           "iocensus_fs_avail_bytes = fs_avail_bytes, exact integer text",
           [l for l in text.splitlines() if "avail" in l])
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
        check_rules(tmp)
    finally:
        shutil.rmtree(tmp)


main()
done()
