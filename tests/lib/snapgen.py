"""snapgen: generated fsscan snapshots, inserted straight into a census DB.

A snapshot is either a list of files (then every table fsscan fills is
derived from it: snapshot totals, project, owner, dir, dir_scope, hist,
hist_extent, project_extent)
or bare totals (files, bytes, alloc) for the growth tests, which need
study-sized counts that no file list could hold.

    import snapgen
    db = snapgen.new_db(tmpdir, build)          # schema made by fsscan
    files = snapgen.random_files(seed, n=500, now=T, projects=["a", "b"])
    sid = snapgen.insert(db, snapgen.Snapshot("gpfs", T0, files=files, now=T))
    sid = snapgen.insert(db, snapgen.Snapshot("gpfs", T1, totals=(95_700_000,
                                                 2**40, 2**41)))

With cold=(30, 90, ...) a snapshot of files also gets its v_cold rows
(fsscan --cold): per project and for the whole file system, the files
whose atime (mtime) is at least that many days before now.

Capacity (statvfs at the scan) and limits are given as they are:
    snapgen.Snapshot("gpfs", T, totals=(...), capacity=(fs_bytes,
                     fs_free_bytes, fs_avail_bytes, fs_inodes,
                     fs_free_inodes), limits={"proj": (bytes, inodes)})
(None for an unknown value or no limit). device="UUID" records the file
system's UUID (v_snapshot.fs_device "UUID=..."): names with one device
share one capacity.

A File is (project, uid, gid, dir, size, alloc, atime, mtime, ctime); dir
is a relative path ("." or "p1/d2/d3"). Histogram rows follow lib/hist.h
slots and bounds exactly as fsscan writes them (base units: bytes and
seconds; slot 0 is the future row [INT64_MIN, 0)). The oracle
(census_oracle.py) never reads the database: it recomputes from the File
lists with its own bucket arithmetic.
"""
import collections
import os
import random
import sqlite3
import subprocess
import tempfile

DAY = 86400
INT64_MIN = -(1 << 63)
INT64_MAX = (1 << 63) - 1

File = collections.namedtuple(
    "File", "project uid gid dir size alloc atime mtime ctime")


class Snapshot:
    """One snapshot to insert. status: complete, running, interrupted,
    failed; a running snapshot has no finished_at and no totals."""

    def __init__(self, fs, started_at, files=None, totals=None, now=None,
                 status="complete", root=None, users=None, groups=None,
                 mount_opts="rw,relatime", dirs_depth=3, project_totals=None,
                 schema=4, capacity=None, limits=None, scanned_at=None,
                 cold=None, device=None):
        self.fs = fs
        self.root = root or "/" + fs
        self.started_at = started_at
        self.files = files
        self.totals = totals
        self.now = started_at if now is None else now
        self.status = status
        self.users = users or {}      # uid -> name (absent: NULL name)
        self.groups = groups or {}
        self.mount_opts = mount_opts
        self.dirs_depth = dirs_depth
        # bare: name -> (files, bytes, alloc[, entries])
        self.project_totals = project_totals or {}
        # schema 2 snapshots lack project_extent and dir_scope rows;
        # before 4, capacity, scanned_at and project entries
        self.schema = schema
        self.capacity = capacity
        self.limits = limits or {}
        self.scanned_at = scanned_at
        self.cold = cold or ()      # fsscan --cold thresholds, in days
        self.device = device        # the file system's UUID, or None
        self.id = None


# ---- lib/hist.h slots, as fsscan computes them --------------------------

def size_slot(v):
    return 1 + (0 if v < 2048 else v.bit_length() - 1 - 10)


def age_slot(v):
    if v < 0:
        return 0
    d = v // DAY
    return 1 + (0 if d < 2 else d.bit_length() - 1)


def slot_bounds(metric, slot):
    if slot == 0:
        return INT64_MIN, 0
    b = slot - 1
    if metric == "size":
        return (0 if b == 0 else 1 << (b + 10)), 1 << (b + 11)
    return (0 if b == 0 else (1 << b) * DAY), (1 << (b + 1)) * DAY


def metric_value(f, metric, now):
    if metric == "size":
        return f.size
    return now - getattr(f, metric)


# ---- the database --------------------------------------------------------

def new_db(tmpdir, build):
    """A census database with the schema and no snapshot: fsscan creates
    it with one scan of an empty directory, whose rows are then removed."""
    path = os.path.join(tmpdir, "census.db")
    empty = tempfile.mkdtemp(dir=tmpdir)
    subprocess.run([os.path.join(build, "fsscan"), "--db", path, "--quiet",
                    empty], check=True)
    con = sqlite3.connect(path)
    for t in ("scan_error_path", "scan_error", "scan_rank", "top", "cold",
              "dir_scope", "dir",
              "project_extent", "hist_extent", "hist", "owner", "project",
              "snapshot"):
        con.execute("DELETE FROM %s" % t)
    con.commit()
    con.close()
    return path


def _acct():
    return [0, 0, 0, 0]     # files, dirs, bytes, alloc


def _ancestors(d, maxdepth):
    """'.', 'a', 'a/b', ... down to maxdepth components."""
    parts = [] if d == "." else d.split("/")
    out = [(".", 0)]
    if maxdepth < 0:            # --dirs all
        maxdepth = len(parts)
    for k in range(1, min(len(parts), maxdepth) + 1):
        out.append(("/".join(parts[:k]), k))
    return out


def _insert_files(con, s):
    files = s.files
    nfiles = len(files)
    nbytes = sum(f.size for f in files)
    nalloc = sum(f.alloc for f in files)
    dirs = set()
    for f in files:
        parts = [] if f.dir == "." else f.dir.split("/")
        for k in range(1, len(parts) + 1):
            dirs.add("/".join(parts[:k]))
    projects = collections.defaultdict(_acct)
    owners = {"user": collections.defaultdict(_acct),
              "group": collections.defaultdict(_acct)}
    dtot = collections.defaultdict(_acct)
    for f in files:
        for a in (projects[f.project], owners["user"][f.uid],
                  owners["group"][f.gid]):
            a[0] += 1
            a[2] += f.size
            a[3] += f.alloc
        for path, _ in _ancestors(f.dir, s.dirs_depth):
            a = dtot[path]
            a[0] += 1
            a[2] += f.size
            a[3] += f.alloc
    for d in dirs:          # a directory belongs to its first component
        if d.split("/")[0] in projects:
            projects[d.split("/")[0]][1] += 1
    return nfiles, len(dirs), nbytes, nalloc, projects, owners, dtot


FILE_METRICS = ("size", "atime", "mtime", "ctime")   # file_metric.id order


def _hist_rows(con, sid, s, pid, files, with_sums):
    """The whole file system's rows (pid None: hist, hist_extent) or a
    project's (project_hist, project_extent: one row of the four
    metrics' extremes), as schema 11 keeps them."""
    ext = []
    for code, metric in enumerate(FILE_METRICS):
        slots = {}
        for f in files:
            v = metric_value(f, metric, s.now)
            sl = size_slot(v) if metric == "size" else age_slot(v)
            e = slots.setdefault(sl, [0, 0, 0, 0])
            e[0] += 1
            e[1] += f.size
            e[2] += v
            e[3] += v * f.size
        for sl in sorted(slots):
            n, w, v, vw = slots[sl]
            if with_sums:
                con.execute(
                    "INSERT INTO hist (snapshot_id, metric, slot, n, w, v,"
                    " vw) VALUES (?,?,?,?,?,?,?)",
                    (sid, metric, sl, n, w, str(v), str(vw)))
            else:
                con.execute(
                    "INSERT INTO project_hist (snapshot_id, project_id,"
                    " metric, slot, n, w) VALUES (?,?,?,?,?,?)",
                    (sid, pid, code, sl, n, w))
        if files and (with_sums or s.schema >= 3):
            vals = [metric_value(f, metric, s.now) for f in files]
            if with_sums:
                con.execute("INSERT INTO hist_extent (snapshot_id, metric,"
                            " min, max) VALUES (?,?,?,?)",
                            (sid, metric, min(vals), max(vals)))
            else:
                ext += [min(vals), max(vals)]
    if ext:
        con.execute("INSERT INTO project_extent VALUES (?,?,?,?,?,?,?,?,?,?)",
                    (sid, pid) + tuple(ext))


def _cold_rows(con, sid, s, projects):
    """v_cold: cold at d days when now - time >= d * 86400; the whole file
    system's rows in cold (k: atime's thresholds, then mtime's), a
    project's (by its id) in project_cold where not zero."""
    for pid, project in enumerate([None] + sorted(projects)):
        files = [f for f in s.files if project is None or
                 f.project == project]
        k = 0
        for metric in ("atime", "mtime"):
            for d in s.cold:
                old = [f for f in files
                       if s.now - getattr(f, metric) >= d * DAY]
                if project is None:
                    con.execute("INSERT INTO cold VALUES (?,?,?,?,?,?)",
                                (sid, k, metric, d, len(old),
                                 sum(f.size for f in old)))
                elif old:
                    con.execute("INSERT INTO project_cold VALUES"
                                " (?,?,?,?,?)", (sid, pid, k, len(old),
                                                 sum(f.size for f in old)))
                k += 1


def _top_rows(con, sid, s, n=20):
    """fsscan's top table: the n largest files (file k is named fk in its
    directory) and the n directories with the most entries (files and
    subdirectories directly in them); ties by path."""
    def path(d):
        return s.root if d == "." else s.root + "/" + d
    files = sorted((-f.size, path(f.dir) + "/f%d" % k)
                   for k, f in enumerate(s.files))
    entries = collections.Counter(f.dir for f in s.files)
    for d in {a for f in s.files for a, _ in _ancestors(f.dir, -1)}:
        if d != ".":
            entries[d.rpartition("/")[0] or "."] += 1
    dirs = sorted((-v, path(d)) for d, v in entries.items())
    for kind, rows in (("file", files), ("dir", dirs)):
        for rank, (v, p) in enumerate(rows[:n], 1):
            con.execute("INSERT INTO top VALUES (?,?,?,?,?)",
                        (sid, kind, rank, -v, p))


def insert(path, s):
    """Insert snapshot s; returns its id (also set as s.id)."""
    con = sqlite3.connect(path)
    running = s.status == "running"
    cap = s.capacity or (None,) * 5
    scanned = s.scanned_at if s.scanned_at is not None else (
        s.started_at if s.schema >= 4 else None)
    cur = con.execute(
        "INSERT INTO snapshot (fs, root, root_abs, host, fstype, mount_opts,"
        " started_at, finished_at, now_ref, status, threads, version,"
        " fs_bytes, fs_free_bytes, fs_avail_bytes, fs_inodes,"
        " fs_free_inodes, scanned_at)"
        " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
        (s.fs, s.root, s.root, "gen", "ext4", s.mount_opts, s.started_at,
         None if running else s.started_at + 600, s.now, s.status, 1,
         "snapgen") + tuple(cap) + (scanned,))
    sid = cur.lastrowid
    s.id = sid
    if s.device is not None:
        con.execute("UPDATE snapshot SET fs_uuid=? WHERE id=?",
                    (s.device, sid))
    for name, (lb, li) in sorted(s.limits.items()):
        con.execute("INSERT INTO project_limit VALUES (?,?,?,?,'file')",
                    (sid, name, lb, li))
    if s.schema >= 3:
        con.execute("INSERT INTO dir_scope VALUES (?,?)",
                    (sid, s.dirs_depth if s.dirs_depth >= 0 else None))
    if s.files is not None:
        nf, nd, nb, na, projects, owners, dtot = _insert_files(con, s)
        for pid, name in enumerate(sorted(projects), 1):
            a = projects[name]
            # public: the generated trees stand for directories every
            # user may list (fsscan's project.public); id: the number of
            # the name in byte order
            con.execute("INSERT INTO project (snapshot_id, name, source,"
                        " files, dirs, bytes, alloc_bytes, entries, public,"
                        " id) VALUES (?,?,?,?,?,?,?,?,1,?)",
                        (sid, name, "depth:1", a[0], a[1], a[2], a[3],
                         a[0] + a[1] if s.schema >= 4 else None, pid))
        for kind, names in (("user", s.users), ("group", s.groups)):
            for i in sorted(owners[kind]):
                a = owners[kind][i]
                con.execute("INSERT INTO owner VALUES (?,?,?,?,?,?,?,?)",
                            (sid, kind, i, names.get(i), a[0], a[1], a[2],
                             a[3]))
        ids = {}
        for d in sorted(dtot):      # a parent sorts before its children
            a = dtot[d]
            depth = 0 if d == "." else d.count("/") + 1
            parent = None if d == "." else d.rpartition("/")[0] or "."
            cur = con.execute(
                "INSERT INTO dir (snapshot_id, parent, name, depth, files,"
                " dirs, bytes, alloc_bytes, max_mtime)"
                " VALUES (?,?,?,?,?,?,?,?,?)",
                (sid, ids.get(parent), d.rpartition("/")[2], depth, a[0],
                 a[1], a[2], a[3], None))
            ids[d] = cur.lastrowid
        _hist_rows(con, sid, s, None, s.files, True)
        _top_rows(con, sid, s)
        _cold_rows(con, sid, s, projects)
        for pid, name in enumerate(sorted(projects), 1):
            _hist_rows(con, sid, s, pid,
                       [f for f in s.files if f.project == name], False)
        totals = (nf, nd, nb, na)
    else:
        f, b, a = s.totals or (0, 0, 0)
        totals = (f, 0, b, a)
        for pid, (name, t) in enumerate(sorted(s.project_totals.items()),
                                        1):
            pf, pb, pa = t[:3]
            pe = t[3] if len(t) > 3 else (pf if s.schema >= 4 else None)
            con.execute("INSERT INTO project (snapshot_id, name, source,"
                        " files, dirs, bytes, alloc_bytes, entries, public,"
                        " id) VALUES (?,?,?,?,?,?,?,?,1,?)",
                        (sid, name, "depth:1", pf, 0, pb, pa, pe, pid))
    if not running:
        con.execute("UPDATE snapshot SET files=?, dirs=?, symlinks=0,"
                    " others=0, bytes=?, alloc_bytes=?, errors=0"
                    " WHERE id=?", (totals[0], totals[1], totals[2],
                                    totals[3], sid))
    con.commit()
    con.close()
    return sid


# ---- generated file lists ------------------------------------------------

def random_file(rng, project, now, uids=(1000, 1001, 1002), gids=(100, 200),
                subdirs=3, future=0.0):
    """One file of `project` (its tree is the project name, as depth:1)."""
    k = rng.choice([0, 1, 3, 8, 11, 12, 14, 16, 17, 20, 21, 22, 27, 28, 31])
    size = rng.randrange(0, 2048) if k == 0 else rng.randrange(1 << k,
                                                               1 << (k + 1))
    alloc = (size + 4095) // 4096 * 4096
    ages = []
    for _ in range(3):
        if rng.random() < future:
            ages.append(-rng.randrange(1, 5 * DAY))
        else:
            ages.append(rng.choice([0, 1, 2, 3, 10, 31, 32, 33, 64, 100,
                                    400, 2000]) * DAY
                        + rng.randrange(0, DAY))
    depth = rng.randrange(0, subdirs + 1)
    d = "/".join([project] + ["d%d" % rng.randrange(3)
                              for _ in range(depth)])
    if project == "(none)":
        d = "." if depth == 0 else "/".join(
            ["loose%d" % rng.randrange(2)] + ["x"] * (depth - 1))
    return File(project, rng.choice(uids), rng.choice(gids), d, size, alloc,
                now - ages[0], now - ages[1], now - ages[2])


def random_files(seed, n, now, projects, weights=None, future=0.0):
    rng = random.Random(seed)
    return [random_file(rng, rng.choices(projects, weights)[0], now,
                        future=future) for _ in range(n)]
