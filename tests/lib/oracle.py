"""oracle: an independent model of what fsscan must store for a tree.

Derived from the brief's "Exact semantics" and fsscan/project/project.h only, never
from fsscan's C code. It walks with os.scandir/os.lstat on byte paths, never
follows symlinks, and stays on ROOT's st_dev unless cross_mounts.

    w = walk(root, excludes=[b"*.tmp"])
    m = Model(w, now, rules=["depth:1"], dirs_depth=3)
    m.snapshot()   -> dict like v_snapshot (files, dirs, ..., errors)
    m.projects()   -> {name: (files, dirs, bytes, alloc_bytes)}
    m.hist()       -> {(project or None, metric, lo, hi): (files, bytes)}
    m.dirs()       -> {path: (depth, files, dirs, bytes, alloc, max_mtime)}
    m.owners()     -> {(kind, id): (files, dirs, bytes, alloc)}
    m.internal()   -> hardlink_dups, snapshot_dirs, symlink_rel/abs, ...

Semantics asserted (see BRIEF "Exact semantics"):
  * ROOT is depth 0 and counted as a directory.
  * An entry whose st_dev differs from ROOT's is a mount point: not counted
    anywhere, not descended; mounts_skipped += 1. (It is also left out of its
    parent's entry count, since it is "not counted anywhere".)
  * A directory named ".snapshot" is counted everywhere but never read.
  * --exclude GLOB: fnmatch on the name; not counted, not descended;
    excluded += 1.
  * A directory's entry count (fsstats "directory size (entries)") is the
    number of names readdir returned, "." and ".." excepted, as fsstats
    defines it: excluded names, mount points and entries whose lstat fails
    are names of the directory too.
  * Unreadable directory (as_user models a scan without root's
    permissions): counted, contributes nothing below, one error, no
    directory histograms. A readable but unsearchable directory: its names
    are read (and counted as its entries) but each lstat fails: one error
    per name, the entries are not counted.
  * Symlink targets are read (for symlink_rel/abs) only when read_targets,
    fsscan's --symlink-targets (readlink changes the link's atime).
  * Regular files are counted once per (st_dev, st_ino); among the links
    found, the owner is the one with the smallest (parent dir st_ino, name
    bytes); only the owner attributes the file to a project, a directory
    subtree and max_mtime.
  * Ages: now - st_*time (whole seconds); a negative age goes to the bucket
    [INT64_MIN, 0).
"""
import fnmatch
import grp
import os
import pwd
import stat

DAY = 86400
INT64_MIN = -(1 << 63)
NONE = b"(none)"


def lg(x):
    """floor(log2 x) for x >= 1."""
    return x.bit_length() - 1


def sec(ns):
    """tv_sec of a timestamp in ns (floor; a float would round up .999)."""
    return ns // 1000000000


def size_bucket(s):
    """v_hist size bucket [lo, hi) in bytes."""
    b = 0 if s < 2048 else lg(s) - 10
    return (0 if b == 0 else 1 << (b + 10), 1 << (b + 11))


def age_bucket(age):
    """v_hist age bucket [lo, hi) in seconds."""
    if age < 0:
        return (INT64_MIN, 0)
    d = age // DAY
    b = 0 if d < 2 else lg(d)
    return (0 if b == 0 else (1 << b) * DAY, (1 << (b + 1)) * DAY)


class Entry:
    __slots__ = ("rel", "name", "depth", "st", "kind", "parent", "target",
                 "readable", "nentries", "snapshot", "owner_link")

    def __init__(self, rel, name, depth, st, parent):
        self.rel = rel            # bytes path relative to ROOT, b"." = ROOT
        self.name = name
        self.depth = depth
        self.st = st
        self.parent = parent      # index of the parent directory entry
        m = st.st_mode
        self.kind = ("d" if stat.S_ISDIR(m) else "f" if stat.S_ISREG(m)
                     else "l" if stat.S_ISLNK(m) else "o")
        self.target = None        # symlink target bytes
        self.readable = False     # directory was read
        self.nentries = 0         # names in a directory read
        self.snapshot = False     # .snapshot directory, not read
        self.owner_link = True    # False for a duplicate hard link


class Walk:
    """Every counted entry of a tree, in a parent-before-child order."""

    def __init__(self, root, excludes=(), cross_mounts=False,
                 read_targets=True, as_user=None):
        self.root = os.fsencode(root)
        self.root_abs = os.fsencode(os.path.abspath(self.root))
        self.excludes = [os.fsencode(x) for x in excludes]
        self.entries = []
        self.errors = 0
        self.mounts_skipped = 0
        self.excluded = 0
        self.snapshot_dirs = 0
        self.hardlink_dups = 0
        st = os.lstat(self.root)
        if not stat.S_ISDIR(st.st_mode):
            raise ValueError("ROOT must be a directory")
        self.dev = st.st_dev
        self.cross_mounts = cross_mounts
        self.read_targets = read_targets
        self.as_user = as_user    # (uid, gid): permissions of a non-root scan
        self.entries.append(Entry(b".", self.root, 0, st, None))
        self._walk()
        self._hardlinks()

    def path(self, e):
        return self.root if e.rel == b"." else self.root + b"/" + e.rel

    def _walk(self):
        stack = [0]
        while stack:
            di = stack.pop()
            d = self.entries[di]
            try:
                if not self._may(d.st, 4):
                    raise PermissionError("no read permission")
                names = sorted(x.name for x in os.scandir(self.path(d)))
            except OSError:
                self.errors += 1
                continue
            d.readable = True
            d.nentries = len(names)
            search = self._may(d.st, 1)
            for name in names:
                if any(fnmatch.fnmatchcase(name, p) for p in self.excludes):
                    self.excluded += 1
                    continue
                rel = name if d.rel == b"." else d.rel + b"/" + name
                p = self.root + b"/" + rel
                try:
                    if not search:
                        raise PermissionError("no search permission")
                    st = os.lstat(p)
                except OSError:
                    self.errors += 1
                    continue
                if st.st_dev != self.dev and not self.cross_mounts:
                    self.mounts_skipped += 1
                    continue
                e = Entry(rel, name, d.depth + 1, st, di)
                self.entries.append(e)
                if e.kind == "l" and self.read_targets:
                    try:
                        e.target = os.readlink(p)
                    except OSError:
                        e.target = None
                elif e.kind == "d":
                    if name == b".snapshot":
                        e.snapshot = True
                        self.snapshot_dirs += 1
                    else:
                        stack.append(len(self.entries) - 1)

    def _may(self, st, bit):
        """Would as_user have permission bit (4 read, 1 search) on st?
        Root (as_user None) always has."""
        if self.as_user is None:
            return True
        uid, gid = self.as_user
        m = st.st_mode
        if st.st_uid == uid:
            return bool(m & (bit << 6))
        if st.st_gid == gid:
            return bool(m & (bit << 3))
        return bool(m & bit)

    def _hardlinks(self):
        """Pick the owning link of every multiply-linked regular file."""
        groups = {}
        for i, e in enumerate(self.entries):
            if e.kind == "f" and e.st.st_nlink > 1:
                groups.setdefault((e.st.st_dev, e.st.st_ino), []).append(i)
        for links in groups.values():
            key = lambda i: (self.entries[self.entries[i].parent].st.st_ino,
                             self.entries[i].name)
            best = min(links, key=key)
            for i in links:
                self.entries[i].owner_link = (i == best)
            self.hardlink_dups += len(links) - 1

    def counted(self):
        """Entries that count in totals: everything but duplicate links."""
        return [e for e in self.entries if e.owner_link]


# ---------------------------------------------------------------- projects

def _parse_pairs(path):
    out = []
    with open(path, "rb") as f:
        for line in f:
            line = line.split(b"#", 1)[0].strip()
            if not line:
                continue
            parts = line.split()
            if len(parts) != 2:
                raise ValueError("bad map line %r" % line)
            out.append((parts[0], parts[1]))
    return out


def _group_name(gid):
    try:
        return os.fsencode(grp.getgrgid(gid).gr_name)
    except KeyError:
        return b"%d" % gid


def _user_name(uid):
    try:
        return os.fsencode(pwd.getpwuid(uid).pw_name)
    except KeyError:
        return b"%d" % uid


class Rules:
    """The --project chain. Dir rules (depth, map) look at the directory;
    owner rules (gidmap, group, user) at the entry's own uid/gid."""

    def __init__(self, specs, root_abs):
        self.rules = []
        for spec in specs or ["depth:1"]:
            if spec.startswith("depth:"):
                self.rules.append(("depth", int(spec[6:])))
            elif spec.startswith("map:"):
                prefixes = {}
                for pre, proj in _parse_pairs(spec[4:]):
                    rel = self._relprefix(pre, root_abs)
                    if rel is not None:
                        prefixes[rel] = proj
                self.rules.append(("map", prefixes))
            elif spec.startswith("gidmap:"):
                self.rules.append(("gidmap", {int(g): p for g, p in
                                              _parse_pairs(spec[7:])}))
            elif spec in ("group", "user"):
                self.rules.append((spec, None))
            else:
                raise ValueError("oracle does not model rule " + spec)

    @staticmethod
    def _relprefix(pre, root_abs):
        if pre.startswith(b"/"):
            pre = pre.rstrip(b"/") or b"/"
            if pre == root_abs:
                return b""
            if not pre.startswith(root_abs + b"/"):
                return None        # outside ROOT: never matches
            pre = pre[len(root_abs) + 1:]
        while pre.startswith(b"./"):
            pre = pre[2:]
        pre = pre.rstrip(b"/")
        return b"" if pre == b"." else pre

    def dir_matches(self, parent_matches, e):
        """Per dir rule: the project name this directory carries, or None."""
        out = []
        for i, (kind, arg) in enumerate(self.rules):
            if kind == "depth":
                if e.depth == arg:
                    # below depth 1 the path names it (proj/climate)
                    out.append(e.rel if arg > 1 else e.name)
                elif e.depth > arg and parent_matches is not None:
                    out.append(parent_matches[i])
                else:
                    out.append(None)
            elif kind == "map":
                out.append(self._longest(arg, e.rel))
            else:
                out.append(None)
        return out

    @staticmethod
    def _longest(prefixes, rel):
        """The project of the longest map prefix of path rel, or None."""
        rel = b"" if rel == b"." else rel
        best = None
        for pre, proj in prefixes.items():
            if pre == b"" or rel == pre or rel.startswith(pre + b"/"):
                if best is None or len(pre) > len(best[0]):
                    best = (pre, proj)
        return best[1] if best else None

    def file_matches(self, parent_matches, e):
        """A non-directory's dir-rule matches: its directory's, except
        that a map line may name the file itself."""
        return [self._longest(arg, e.rel) if kind == "map"
                else parent_matches[i]
                for i, (kind, arg) in enumerate(self.rules)]

    def project(self, matches, st):
        """First match wins: dir rules via matches, owner rules via st."""
        for i, (kind, arg) in enumerate(self.rules):
            if kind in ("depth", "map"):
                if matches[i] is not None:
                    return matches[i]
            elif kind == "gidmap":
                if st.st_gid in arg:
                    return arg[st.st_gid]
            elif kind == "group":
                return _group_name(st.st_gid)
            elif kind == "user":
                return _user_name(st.st_uid)
        return NONE


# ---------------------------------------------------------------- model

class Model:
    def __init__(self, walk, now, rules=None, dirs_depth=3):
        self.w = walk
        self.now = now
        self.rules = Rules(rules, walk.root_abs)
        self.dirs_depth = dirs_depth      # int, or "all"
        self._attribute()

    def _attribute(self):
        """Project of every counted entry."""
        ents = self.w.entries
        matches = [None] * len(ents)
        self.proj = [None] * len(ents)
        for i, e in enumerate(ents):
            if e.kind == "d":
                pm = matches[e.parent] if e.parent is not None else None
                matches[i] = self.rules.dir_matches(pm, e)
                self.proj[i] = self.rules.project(matches[i], e.st)
            else:
                self.proj[i] = self.rules.project(
                    self.rules.file_matches(matches[e.parent], e), e.st)

    def files(self):
        """(index, entry) of counted regular files (one per inode)."""
        return [(i, e) for i, e in enumerate(self.w.entries)
                if e.kind == "f" and e.owner_link]

    def snapshot(self):
        ents = self.w.entries
        fl = [e for _, e in self.files()]
        return {
            "files": len(fl),
            "dirs": sum(1 for e in ents if e.kind == "d"),
            "symlinks": sum(1 for e in ents if e.kind == "l"),
            "others": sum(1 for e in ents if e.kind == "o"),
            "bytes": sum(e.st.st_size for e in fl),
            "alloc_bytes": sum(e.st.st_blocks * 512 for e in fl),
            "errors": self.w.errors,
            "complete": 1,
        }

    def internal(self):
        ents = self.w.counted()
        links = [e for e in ents if e.kind == "l"]
        return {
            "hardlink_dups": self.w.hardlink_dups,
            "snapshot_dirs": self.w.snapshot_dirs,
            "symlink_rel": sum(1 for e in links if e.target is not None
                               and not e.target.startswith(b"/")),
            "symlink_abs": sum(1 for e in links if e.target is not None
                               and e.target.startswith(b"/")),
            "mounts_skipped": self.w.mounts_skipped,
            "excluded": self.w.excluded,
            "all_size": sum(e.st.st_size for e in ents),
            "all_blocks": sum(e.st.st_blocks for e in ents),
        }

    def projects(self):
        acc = {}
        for i, e in enumerate(self.w.entries):
            if not e.owner_link:
                continue
            a = acc.setdefault(self.proj[i], [0, 0, 0, 0])
            if e.kind == "f":
                a[0] += 1
                a[2] += e.st.st_size
                a[3] += e.st.st_blocks * 512
            elif e.kind == "d":
                a[1] += 1
        return {k: tuple(v) for k, v in acc.items()}

    def hist(self):
        out = {}
        for i, e in self.files():
            st = e.st
            keys = [("size",) + size_bucket(st.st_size),
                    ("atime",) + age_bucket(self.now - sec(st.st_atime_ns)),
                    ("mtime",) + age_bucket(self.now - sec(st.st_mtime_ns)),
                    ("ctime",) + age_bucket(self.now - sec(st.st_ctime_ns))]
            for proj in (None, self.proj[i]):
                for k in keys:
                    a = out.setdefault((proj,) + k, [0, 0])
                    a[0] += 1
                    a[1] += st.st_size
        return {k: tuple(v) for k, v in out.items()}

    def dirs(self):
        ents = self.w.entries
        rows = {}
        for i, e in enumerate(ents):
            if e.kind == "d" and (self.dirs_depth == "all"
                                  or e.depth <= self.dirs_depth):
                rows[i] = [e.depth, 0, 0, 0, 0, None]
        for i, e in enumerate(ents):
            if not e.owner_link:
                continue
            mt = sec(e.st.st_mtime_ns)
            j = i if e.kind == "d" else e.parent
            while j is not None:
                r = rows.get(j)
                if r is not None:
                    if e.kind == "f":
                        r[1] += 1
                        r[3] += e.st.st_size
                        r[4] += e.st.st_blocks * 512
                    elif e.kind == "d":
                        r[2] += 1
                    r[5] = mt if r[5] is None else max(r[5], mt)
                j = ents[j].parent
        return {ents[i].rel: tuple(r) for i, r in rows.items()}

    def owners(self):
        acc = {}
        for e in self.w.counted():
            for key in (("user", e.st.st_uid), ("group", e.st.st_gid)):
                a = acc.setdefault(key, [0, 0, 0, 0])
                if e.kind == "f":
                    a[0] += 1
                    a[2] += e.st.st_size
                    a[3] += e.st.st_blocks * 512
                elif e.kind == "d":
                    a[1] += 1
        return {k: tuple(v) for k, v in acc.items() if any(v)}

    def top_files(self, n):
        """Sizes of the n largest files (internal top table, values only)."""
        return sorted((e.st.st_size for _, e in self.files()),
                      reverse=True)[:n]

    def top_dirs(self, n):
        """Entry counts of the n directories with the most names."""
        return sorted((e.nentries for e in self.w.entries
                       if e.kind == "d" and e.readable), reverse=True)[:n]
