"""`iostatmon devices`: the command line, its three formats and exit codes on
fake trees (tests/lib/faketopo.py), and a run on this machine's own /proc and
/sys, where the device behind / is found independently with findmnt and
lsblk and must be excluded.

Each stack's level, written by hand for the fake trees: which level is
sampled (its disks, its paths, itself under --include, nothing when it
is local) and what an aggregate of the sampled devices then counts (a
mirror's copies, RAID6's two parity chunks, RAID10's copies from
md/layout, each multipath request once), in the three formats; and
`--include 'md*'` on a storage server: the arrays sampled, their disks
excluded as under them, the other disks and paths sampled as before.

The binary is $BUILD/iostatmon, or $IOSTATMON when set.
"""
import csv
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
from tap import ok, eq, done, skip  # noqa: E402
from pace import limit  # noqa: E402
import faketopo  # noqa: E402

BIN = os.environ.get("IOSTATMON") or os.path.join(
    os.environ.get("BUILD", "build"), "iostatmon")

# The main machine of faketopo, decided by hand: name -> (maj:min,
# decision, reason).
MAIN = {
    "sda": ("8:0", "excluded", "holds / via dm-0 -> md0 -> sda2"),
    "sda1": ("8:1", "excluded", "holds /boot"),
    "sda2": ("8:2", "excluded", "holds / via dm-0 -> md0"),
    "sdb": ("8:16", "excluded", "holds / via dm-0 -> md0 -> sdb2"),
    "sdb1": ("8:17", "excluded", "partition of local sdb"),
    "sdb2": ("8:18", "excluded", "holds / via dm-0 -> md0"),
    "sdb3": ("8:19", "excluded", "holds swap"),
    "sdc": ("8:32", "monitored", "data disk"),
    "sdc1": ("8:33", "excluded", "partition of monitored sdc"),
    "sdc2": ("8:34", "excluded", "size 0"),
    "sdd": ("8:48", "monitored", "data disk"),
    "sdd1": ("8:49", "excluded", "partition of monitored sdd"),
    "sde": ("8:64", "monitored", "data disk"),
    "sdf": ("8:80", "excluded", "removable"),
    "sdf1": ("8:81", "excluded", "partition of excluded sdf"),
    "md0": ("9:0", "excluded", "holds / via dm-0"),
    "md1": ("9:1", "excluded", "stacked on monitored sdc, sdd"),
    "dm-0": ("253:0", "excluded", "holds /"),
    "dm-1": ("253:1", "excluded", "stacked on local md0"),
    "dm-2": ("253:2", "excluded", "stacked on monitored sde"),
    "nvme0n1": ("259:0", "monitored", "data disk"),
    "nvme0n1p1": ("259:1", "excluded", "partition of monitored nvme0n1"),
    "nvme0c0n1": ("259:2", "excluded", "hidden path device"),
    "nvme0c1n1": ("0:0", "excluded", "hidden path device (0:0)"),
    "cciss/c0d0": ("104:0", "monitored", "data disk"),
    "cciss/c0d0p1": ("104:1", "excluded", "partition of monitored cciss/c0d0"),
    "loop0": ("7:0", "excluded", "loop device"),
    "ram0": ("1:0", "excluded", "ram disk"),
    "zram0": ("252:0", "excluded", "zram device"),
    "nbd0": ("43:0", "excluded", "nbd device"),
    "sr0": ("11:0", "excluded", "optical drive"),
    "zd0": ("230:0", "excluded", "virtual device"),
    "sdg": ("8:96", "excluded", "not in sysfs"),
}


def run(*args):
    p = subprocess.run([BIN, "devices"] + list(args), capture_output=True,
                       text=True, timeout=limit(60))
    return p.returncode, p.stdout, p.stderr


HEADER = ["device", "maj:min", "decision", "reason"]


# The stacks of the main machine: md0 and the LVM volumes on it are
# local; md1 is on partitions of the data disks sdc, sdd.
MAIN_LEVELS = [
    "md0 (raid1 over sda2, sdb2): not sampled, nor are its disks: local "
    "(holds / via dm-0)",
    "md1 (raid0 over sdc1, sdd1): disks sampled (sdc, sdd); an aggregate "
    "counts each byte once",
    "dm-0 (LVM vg0-root over md0): not sampled, nor are its disks: local "
    "(holds /)",
    "dm-1 (LVM vg0-home over md0): not sampled, nor are its disks: local "
    "(stacked on local md0)",
    "dm-2 (dm-crypt data-crypt over sde): disks sampled (sde); an aggregate "
    "counts each byte once",
]
LVM = ("each byte once for a linear or striped volume, once per copy for a "
       "mirrored or RAID one, and what md1 below it writes, as said of it")
STORAGE_LEVELS = [
    "md0 (raid1 over sdb, sdc): disks sampled (sdb, sdc); an aggregate "
    "counts each write once per mirror copy (2 copies), each read once",
    "md1 (raid6 over sdd, sde, sdf, sdg): disks sampled (sdd, sde, sdf, "
    "sdg); an aggregate counts each write with its parity (2 chunks a "
    "stripe) and the reads of a partial stripe's update; each read once",
    "md2 (raid10 over sdh, sdi, sdj, sdk): disks sampled (sdh, sdi, sdj, "
    "sdk); an aggregate counts each write once per copy (2 copies), each "
    "read once",
    "dm-0 (LVM vgdata-lv0 over md1): disks sampled (sdd, sde, sdf, sdg); an "
    "aggregate counts " + LVM,
    "dm-2 (multipath mpatha over sdl, sdm): paths sampled (sdl, sdm); an "
    "aggregate counts each request once, on the path it took (a device is "
    "a path, not the LUN)",
]
SELF = "sampled itself, not the devices under it; an aggregate counts " \
    "what was sent to it, once"
STORAGE_MD_LEVELS = [
    "md0 (raid1 over sdb, sdc): " + SELF,
    "md1 (raid6 over sdd, sde, sdf, sdg): " + SELF,
    "md2 (raid10 over sdh, sdi, sdj, sdk): " + SELF,
    "dm-0 (LVM vgdata-lv0 over md1): devices below it sampled (md1); an "
    "aggregate counts " + LVM,
    STORAGE_LEVELS[4],
]
STACKS = "stacks: the level sampled, and what an aggregate then counts"


def table(out, levels=None):
    """name -> (maj:min, decision, reason); order as a list too. The first
    line must be the column header; after a blank line, the stacks' levels
    (into the list levels, when given)."""
    rows, order = {}, []
    lines = out.splitlines()
    eq(lines[:1] and lines[0].split(), HEADER, "table: a header line names "
       "the columns")
    end = lines.index("") if "" in lines else len(lines)
    for line in lines[1:end]:
        f = line.split(None, 3)
        rows[f[0]] = tuple(f[1:])
        order.append(f[0])
    if levels is not None:
        levels += lines[end:]
    return rows, order


def diskstats_names(path):
    with open(path) as f:
        return [l.split()[2] for l in f if len(l.split()) >= 7]


def test_fixture(tmp):
    faketopo.main_machine(os.path.join(tmp, "main"))
    roots = ["--proc", os.path.join(tmp, "main", "proc"),
             "--sys", os.path.join(tmp, "main", "sys")]
    rc, out, err = run(*roots)
    eq((rc, err), (0, ""), "table: exit 0, nothing on stderr")
    levels = []
    rows, order = table(out, levels)
    eq(rows, MAIN, "table: every decision and reason")
    eq(levels, ["", STACKS] + ["  " + x for x in MAIN_LEVELS],
       "table: after a blank line, each stack's level")
    eq(order, diskstats_names(os.path.join(tmp, "main", "proc", "diskstats")),
       "table: in diskstats order")

    rc, out, err = run(*roots, "--format", "csv")
    got = list(csv.reader(io.StringIO(out)))
    eq(got[0], ["name", "major", "minor", "diskseq", "decision", "reason",
                "whole", "level"], "csv: header")
    eq([r[7] for r in got[1:] if r[7]], MAIN_LEVELS,
       "csv: the stacks' levels, nothing for other devices")
    eq({r[0]: ("%s:%s" % (r[1], r[2]), r[4], r[5]) for r in got[1:]}, MAIN,
       "csv: decisions, reasons with commas quoted")
    eq([r for r in got if r[0] in ("sda", "sdb1")],
       [["sda", "8", "0", "1", "excluded", MAIN["sda"][2], "", ""],
        ["sdb1", "8", "17", "0", "excluded", MAIN["sdb1"][2], "sdb", ""]],
       "csv: diskseq and whole disk")

    rc, out, err = run(*roots, "--format", "json")
    doc = json.loads(out)
    eq({d["name"]: ("%d:%d" % (d["major"], d["minor"]),
                    "monitored" if d["monitored"] else "excluded",
                    d["reason"]) for d in doc}, MAIN, "json: decisions")
    eq([d["level"] for d in doc if d["level"] is not None], MAIN_LEVELS,
       "json: the stacks' levels, null for other devices")
    dm0 = [d for d in doc if d["name"] == "dm-0"][0]
    eq(dm0["attributes"], {"dm_name": "vg0-root", "dm_uuid": "LVM-aaaa-root",
                           "rotational": "1", "size_sectors": "2000000"},
       "json: dm-0 identity")
    eq([d["whole"] for d in doc if d["name"] in ("cciss/c0d0", "cciss/c0d0p1")],
       [None, "cciss/c0d0"], "json: whole disk of the cciss partition")

    rc, out, err = run(*roots, "--include", "dm-2", "--include", "sda",
                       "--exclude", "sd[cd]", "--exclude", "sda")
    rows, _ = table(out)
    want = dict(MAIN)
    want.update({
        "dm-2": ("253:2", "monitored", "included by --include"),
        "sde": ("8:64", "excluded", "under included dm-2"),
        "sda": ("8:0", "excluded", "excluded by --exclude"),
        "sdc": ("8:32", "excluded", "excluded by --exclude"),
        "sdd": ("8:48", "excluded", "excluded by --exclude"),
        "sdc1": ("8:33", "excluded", "partition of excluded sdc"),
        "sdd1": ("8:49", "excluded", "partition of excluded sdd"),
        "md1": ("9:1", "excluded", "stacked on excluded sdc, sdd"),
    })
    eq((rc, rows), (0, want), "--include/--exclude: decisions")

    rc, out, err = run(*roots, "--all-devices", "--exclude", "nvme0c*")
    rows, _ = table(out)
    want = {n: (v[0], "monitored", "all devices") for n, v in MAIN.items()}
    for n in ("nvme0c0n1", "nvme0c1n1"):
        want[n] = (MAIN[n][0], "excluded", "excluded by --exclude")
    eq((rc, rows), (0, want), "--all-devices: decisions")

    rc, out, err = run("--proc", os.path.join(tmp, "nowhere"))
    eq((rc, out), (3, ""), "missing diskstats: exit 3")
    ok(err.startswith("iostatmon devices: ") and "nowhere/diskstats: " in err
       and "No such file or directory" in err,
       "missing diskstats: message names file and errno", err)
    empty = os.path.join(tmp, "empty")
    os.makedirs(os.path.join(empty, "proc", "self"))
    for name, text in (("self/mountinfo", ""), ("swaps", "Filename\n")):
        with open(os.path.join(empty, "proc", name), "w") as f:
            f.write(text)
    for text, what in (("", "empty"), ("no diskstats here\n1 2\n",
                                        "not a diskstats file")):
        with open(os.path.join(empty, "proc", "diskstats"), "w") as f:
            f.write(text)
        rc, out, err = run("--proc", os.path.join(empty, "proc"), "--sys",
                           os.path.join(tmp, "main", "sys"))
        eq((rc, out), (3, ""), "%s diskstats: exit 3" % what)
        ok(err.startswith("iostatmon devices: ") and
           "empty/proc/diskstats: " + what in err,
           "%s diskstats: said, naming the file" % what, err)
    os.unlink(os.path.join(tmp, "main", "proc", "self", "mountinfo"))
    rc, out, err = run(*roots)
    eq(rc, 3, "missing mountinfo: exit 3")
    ok("main/proc/self/mountinfo: No such file or directory" in err,
       "missing mountinfo: message names file and errno", err)
    rc, out, err = run(*roots, "--format", "xml")
    eq(rc, 2, "bad --format: usage error")
    rc, out, err = run("--bogus")
    eq(rc, 2, "unknown option: usage error")


def test_storage(tmp):
    faketopo.storage_machine(os.path.join(tmp, "storage"))
    roots = ["--proc", os.path.join(tmp, "storage", "proc"),
             "--sys", os.path.join(tmp, "storage", "sys")]
    rc, out, err = run(*roots)
    levels = []
    rows, _ = table(out, levels)
    eq((rc, levels), (0, ["", STACKS] + ["  " + x for x in STORAGE_LEVELS]),
       "storage: each stack's level and what an aggregate counts")
    disks = ["sd" + c for c in "bcdefghijklm"] + ["nvme0n1"]
    eq([n for n in rows if rows[n][1] == "monitored"], disks,
       "storage: the data disks and paths are sampled")
    rc, out, err = run(*roots, "--include", "md*")
    levels = []
    rows, _ = table(out, levels)
    eq((rc, levels), (0, ["", STACKS] + ["  " + x for x in
                                          STORAGE_MD_LEVELS]),
       "--include 'md*': the arrays sampled, each once")
    want = {n: rows[n] for n in rows}
    for md, under in (("md0", "bc"), ("md1", "defg"), ("md2", "hijk")):
        want[md] = (want[md][0], "monitored", "included by --include")
        for c in under:
            want["sd" + c] = (want["sd" + c][0], "excluded",
                              "under included " + md)
    eq(rows, want, "--include 'md*': the disks under the arrays excluded")
    eq([n for n in rows if rows[n][1] == "monitored"],
       ["sdl", "sdm", "nvme0n1", "md0", "md1", "md2"],
       "--include 'md*': the arrays, the paths and the other disk sampled")


def sh(*cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    return p.stdout.strip() if p.returncode == 0 else ""


def test_real_machine():
    rc, out, err = run()
    ok(rc == 0, "real machine: exit 0", "exit %d: %s" % (rc, err.strip()))
    rows, order = table(out)
    eq(order, diskstats_names("/proc/diskstats"),
       "real machine: every diskstats device listed once")
    src = sh("findmnt", "-n", "-o", "SOURCE", "/")
    majmin = sh("findmnt", "-n", "-o", "MAJ:MIN", "/")
    byno = {v[0]: n for n, v in rows.items()}

    def holds_root(reason):
        return reason == "holds /" or reason.startswith("holds / via ")

    if not src.startswith("/dev/"):
        # overlay or network root: no block device holds / here.
        ok(not any(holds_root(r[2]) for r in rows.values()),
           "real machine: / is %s, no device claims to hold it" % src)
        return
    path = src if os.path.exists(src) else "/dev/block/" + majmin
    if not os.path.exists(path):
        skip("real machine: the devices below /", "%s is not visible here"
             % src)
        return
    # The root device and everything below it, by device number (lsblk
    # shows dm devices by their mapper names).
    below = sh("lsblk", "-n", "-s", "-r", "-o", "MAJ:MIN", path).split()
    ok(below, "real machine: lsblk -s %s lists devices" % path)
    if not majmin.startswith("0:"):
        ok(majmin in below and majmin in byno,
           "real machine: %s (%s) listed" % (src, majmin), repr(below))
        if majmin in byno:
            eq(rows[byno[majmin]][1:], ("excluded", "holds /"),
               "real machine: %s holds /" % byno[majmin])
    for no in below:
        n = byno.get(no)
        if n:
            eq(rows[n][1], "excluded",
               "real machine: %s under / is excluded" % n)
            ok(holds_root(rows[n][2]),
               "real machine: %s reason names /" % n, rows[n][2])


def main():
    if not ok(os.access(BIN, os.X_OK), "%s exists" % BIN, "build it first"):
        done()
    tmp = tempfile.mkdtemp(prefix="t_iostatmon_devices.")
    try:
        test_fixture(tmp)
        test_storage(tmp)
    finally:
        shutil.rmtree(tmp)
    test_real_machine()
    done()


main()
