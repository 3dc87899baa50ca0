"""reportdb: the small fixed census database of the report tests.

Everything is generated from fixed seeds, so the same code gives the same
database and hence, by the determinism rule, the same report bytes:

  - file system "gpfs": three complete snapshots (200, 300, 420 files) of
    projects EarthScience, chem and two with hostile names, and a rescan
    two hours after the last one; capacity (statvfs) that fills up, and
    limits for EarthScience (bytes) and chem (inodes); cold data at the
    default thresholds;
  - file system "pvfs": two complete snapshots (astro, bio) and a running
    one (no totals); capacity and cold data on the second only (the first
    was written before schema 6);
  - I/O: 3 hosts x 2 devices x 2 days of one-minute raw captures with a
    burst, an idle hour, a missing window and a reboot, imported with
    `iostatmon import` and loaded with `iocensus ingest`.

    import reportdb
    db = reportdb.build(tmpdir, build)                 # everything
    db = reportdb.build(tmpdir, build, io=False)       # snapshots only
"""
import os
import subprocess

import snapgen
from rawgen import Dataset

DAY = 86400
T0 = 1264550400                 # 2010-01-27 00:00 UTC
IO_START = 1267401600           # 2010-03-01 00:00 UTC
EVIL_SCRIPT = "<script>alert(1)"
EVIL_IMG = "<img src=x onerror=alert(1)>"


COLD = (30, 90, 180, 365)       # fsscan --cold's default thresholds
GIB = 1 << 30
# gpfs: 100 GiB, 5 GiB reserved for root; 40, 55 and 68 GiB used; 2^20
# inodes. pvfs: 50 GiB, nothing reserved.
GPFS_USED = (40 * GIB, 55 * GIB, 68 * GIB)
GPFS_IUSED = (300000, 420000, 510000)


def _capacity(size, used, reserve, inodes, iused):
    return (size, size - used, size - used - reserve, inodes,
            inodes - iused)


def _snapshots(db):
    gpfs = ["EarthScience", "chem", EVIL_SCRIPT, EVIL_IMG]
    limits = {"EarthScience": (48 * GIB, None), "chem": (None, 100)}
    for i, (t, n) in enumerate([(T0, 200), (T0 + 30 * DAY, 300),
                                (T0 + 62 * DAY, 420)]):
        files = snapgen.random_files(10 + i, n, t, gpfs, weights=[6, 2, 1, 1])
        cap = _capacity(100 * GIB, GPFS_USED[i], 5 * GIB, 1 << 20,
                        GPFS_IUSED[i])
        snapgen.insert(db, snapgen.Snapshot("gpfs", t, files=files, now=t,
                                            capacity=cap, limits=limits,
                                            cold=COLD))
    # A rescan two hours later: one point with the scan before it.
    t = T0 + 62 * DAY + 7200
    files = snapgen.random_files(12, 421, t, gpfs, weights=[6, 2, 1, 1])
    snapgen.insert(db, snapgen.Snapshot(
        "gpfs", t, files=files, now=t, limits=limits, cold=COLD,
        capacity=_capacity(100 * GIB, GPFS_USED[2] + GIB, 5 * GIB, 1 << 20,
                           GPFS_IUSED[2] + 1)))
    for i, (t, n) in enumerate([(T0 + 4 * DAY, 150), (T0 + 64 * DAY, 260)]):
        files = snapgen.random_files(20 + i, n, t, ["astro", "bio"])
        cap = _capacity(50 * GIB, 30 * GIB, 0, 1 << 19, 4000) if i else None
        snapgen.insert(db, snapgen.Snapshot("pvfs", t, files=files, now=t,
                                            capacity=cap,
                                            cold=COLD if i else None))
    snapgen.insert(db, snapgen.Snapshot("pvfs", T0 + 70 * DAY,
                                        status="running"))


def dataset(hosts=3):
    S = IO_START
    ds = Dataset(seed=7, hosts=hosts, devs_per_host=2, start=S,
                 minutes=2 * 1440)
    ds.burst(S + 7200, S + 7800, level=1.0)
    ds.idle_run(S + 5 * 3600, 60)
    ds.missing(S + DAY + 3600, S + DAY + 5 * 3600)
    ds.reboot(ds.hosts[1], S + DAY + 8 * 3600)
    return ds


def ingest(db, build, tmp, ds, names=None):
    """Write ds's captures, import each as host names[i] (default: the
    generated names) and ingest the logs into db."""
    raw = os.path.join(tmp, "raw")
    os.makedirs(raw, exist_ok=True)
    logs = []
    for i, path in enumerate(sorted(ds.write(raw))):
        host = names[i] if names else os.path.basename(path)[:-4]
        out = os.path.join(tmp, "h%d.log" % i)
        subprocess.run([os.path.join(build, "iostatmon"), "import", path,
                        "--host", host, "--out", out], check=True,
                       capture_output=True)
        logs.append(out)
    subprocess.run([os.path.join(build, "iocensus"), "ingest", "--db", db,
                    "--format", "csv"] + logs, check=True,
                   capture_output=True)


def build(tmp, build_dir, io=True, snapshots=True):
    os.makedirs(tmp, exist_ok=True)
    db = snapgen.new_db(tmp, build_dir)
    if snapshots:
        _snapshots(db)
    if io:
        ingest(db, build_dir, tmp, dataset())
    return db
