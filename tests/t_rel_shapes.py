#!/usr/bin/env python3
"""Reliability: awkward tree shapes, each counted exactly.

- symlink loops and dangling symlinks: counted, never followed
- a tree deeper than PATH_MAX, with the default fd cap and --max-fds 8
- hostile names (newline, invalid UTF-8, quotes, HTML, SQL) as files and
  directories: exact bytes in v_dir, the database untouched by them
- sparse files, hard links across directories, FIFOs, sockets, devices
- a mount point inside the tree, with and without --cross-mounts
Expected values come from reltree.census(), an independent walker.
"""
import os
import socket
import stat
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from reltree import (Scratch, build_wide, case, root_case, census, connect, db_objects, done, eq,  # noqa: E402
                     integrity, internal, last_id, mkfile, ok, opendir, rows, run,
                     schema_objects, totals_of, vdir, vsnap)


def scan_ok(tag, db, args, root, want, dirs_depth=3):
    """Scan root, check status 0, complete, totals and v_dir rows exactly.
    Returns the snapshot id."""
    r = run(["--db", db] + args + [root])
    eq(r.rc, 0, "%s: exit status 0" % tag)
    sid = last_id(db)
    vs = vsnap(db, sid)
    ok(vs is not None and vs["complete"] == 1, "%s: snapshot complete" % tag,
       "%r; %s" % (vs, r.why()))
    eq(totals_of(vs), want.totals(), "%s: v_snapshot totals exact" % tag)
    eq(vdir(db, sid), want.vdir(dirs_depth), "%s: v_dir rows exact" % tag)
    return sid


def symlinks(s):
    root = s.path("links")
    os.mkdir(root)
    rfd = opendir(root)
    os.symlink("b", "a", dir_fd=rfd)            # a -> b -> a
    os.symlink("a", "b", dir_fd=rfd)
    os.symlink(".", "self", dir_fd=rfd)         # to itself
    os.symlink("..", "up", dir_fd=rfd)          # out of the tree
    os.symlink(root, "abs_root", dir_fd=rfd)    # absolute, to ROOT
    os.symlink("/nonexistent/x/y", "dangling_abs", dir_fd=rfd)
    os.symlink("missing/file", "dangling_rel", dir_fd=rfd)
    os.symlink("/", "slash", dir_fd=rfd)        # would be a huge tree
    os.mkdir("sub", dir_fd=rfd)
    sfd = opendir("sub", dir_fd=rfd)
    os.symlink("..", "parent", dir_fd=sfd)      # to its parent directory
    os.symlink("../sub", "loop", dir_fd=sfd)
    mkfile(sfd, "f", size=100)
    os.mkdir("deeper", dir_fd=sfd)
    dfd = opendir("deeper", dir_fd=sfd)
    os.symlink("../../sub", "back", dir_fd=dfd)
    os.symlink("deeper/back/deeper/back", "chain", dir_fd=sfd)
    mkfile(dfd, "g", data=b"z" * 5000)
    for fd in (dfd, sfd, rfd):
        os.close(fd)
    want = census(root)
    eq((want.symlinks, want.files, want.dirs), (12, 2, 3),
       "symlinks: expected tree shape")
    db = s.path("links.db")
    sid = scan_ok("symlinks", db, ["-j", "2", "--symlink-targets"], root, want)
    eq((internal(db, sid, "symlink_rel"), internal(db, sid, "symlink_abs")),
       (want.symlink_rel, want.symlink_abs),
       "symlinks: relative/absolute symlink counts exact")


def deep(s):
    root = s.path("deep")
    os.mkdir(root)
    levels, namelen = 60, 100
    names = [("L%02d" % i).encode() + b"x" * (namelen - 3) for i in range(levels)]
    fds = [opendir(root)]
    for i, n in enumerate(names):
        os.mkdir(n, dir_fd=fds[-1])
        mkfile(fds[-1], b"f", size=i + 1)       # one file per level
        if i % 10 == 0:                          # and some side branches
            os.mkdir(b"side", dir_fd=fds[-1])
            sfd = opendir(b"side", dir_fd=fds[-1])
            mkfile(sfd, b"s", size=7)
            os.close(sfd)
        fds.append(opendir(n, dir_fd=fds[-1]))
    for k in range(3):                            # files at the bottom
        mkfile(fds[-1], ("bottom%d" % k).encode(), data=b"q" * (1000 * (k + 1)))
    for fd in fds:
        os.close(fd)
    deepest = b"/".join(names)
    ok(len(deepest) > 4096, "deep: deepest relative path longer than PATH_MAX",
       "length %d" % len(deepest))

    want = census(root)
    eq((want.files, want.dirs), (levels + 6 + 3, levels + 6 + 1),
       "deep: expected tree shape")
    db = s.path("deep.db")
    scan_ok("deep default", db, [], root, want)
    scan_ok("deep --max-fds 8", db, ["--max-fds", "8", "-j", "2"], root, want)
    for tag, extra in (("deep --dirs all", []),
                       ("deep --dirs all --max-fds 8", ["--max-fds", "8", "-j", "3"])):
        sid = scan_ok(tag, db, ["--dirs", "all"] + extra, root, want, None)
        row = vdir(db, sid).get(deepest)
        ok(row is not None and row[:4] == (levels, 3, 1, 6000)
           and row == want.vdir(None)[deepest],
           "%s: deepest v_dir row (path length %d) has the 3 bottom files" %
           (tag, len(deepest)), "row %r" % (row,))
        top = rows(db, "SELECT value, path FROM top WHERE snapshot_id=? AND "
                   "kind='file' AND rank=1", (sid,), raw=True)
        rel = deepest + b"/bottom2"
        ok(len(top) == 1 and top[0][0] == 3000 and
           (top[0][1] == rel or top[0][1].endswith(b"/" + rel)),
           "%s: largest file listed in top with its full long path" % tag,
           "top %r" % ([(v, p[-40:], len(p)) for v, p in top],))


HOSTILE = [
    b"new\nline",
    b"\xff\xfe",
    b"quo\"te's",
    b"'; DROP TABLE x; --",
    b"'); DROP TABLE snapshot; --",
    b"\"; DROP TABLE dir; --",
    b"tab\tand\rcr",
    b"%s%n%x",
    b"back\\slash",
    b"caf\xc3\xa9 \xe2\x98\x83",       # valid UTF-8, non-ASCII
    b"-rf",
    b" lead and trail ",
    b"N" * 255,                         # NAME_MAX
]


def names(s):
    root = s.path("names")
    os.mkdir(root)
    rfd = opendir(root)
    os.mkdir(b"files", dir_fd=rfd)
    ffd = opendir(b"files", dir_fd=rfd)
    for i, n in enumerate(HOSTILE):
        os.mkdir(n, dir_fd=rfd)
        dfd = opendir(n, dir_fd=rfd)
        mkfile(dfd, n, data=b"h" * (1000 + i))
        os.close(dfd)
        mkfile(ffd, n, data=b"i" * (3000 + i))
    os.close(ffd)
    # <script>alert(1)</script> as a path: '/' cannot be in a name
    os.mkdir(b"<script>alert(1)<", dir_fd=rfd)
    os.mkdir(b"<script>alert(1)</script>", dir_fd=rfd)
    mkfile(rfd, b"<script>alert(1)</script>/<img src=x onerror=alert(2)>",
           data=b"s" * 5555)
    os.close(rfd)
    want = census(root)
    eq((want.files, want.dirs), (2 * len(HOSTILE) + 1, len(HOSTILE) + 4),
       "names: expected tree shape")

    db = s.path("names.db")
    # make the database with a first, normal scan, then add a table x
    os.mkdir(s.path("tiny"))
    eq(run(["--db", db, s.path("tiny")]).rc, 0, "names: first scan creates the db")
    con = connect(db)
    con.execute("CREATE TABLE x (a)")
    con.execute("INSERT INTO x VALUES (42)")
    con.commit()
    con.close()
    tables_before, views_before = db_objects(db)

    fsname = "'; DROP TABLE x; --"
    sid = scan_ok("names", db, ["--dirs", "all", "--fs", fsname], root, want, None)
    paths = set(vdir(db, sid))
    for n in HOSTILE:
        ok(n in paths, "names: v_dir has the exact bytes of %r" % n)
    ok(b"<script>alert(1)</script>" in paths,
       "names: v_dir has the path <script>alert(1)</script>")
    tables, views = db_objects(db)
    st, sv = schema_objects()
    ok(st <= tables and sv <= views, "names: every schema table and view still exists",
       "missing %r" % ((st - tables) | (sv - views)))
    eq((tables, views), (tables_before, views_before),
       "names: no table or view created or dropped")
    eq(rows(db, "SELECT a FROM x"), [(42,)], "names: table x intact")
    eq(rows(db, "SELECT fs FROM v_snapshot WHERE id=?", (sid,)), [(fsname,)],
       "names: --fs with SQL stored verbatim")
    tops = [p for (p,) in rows(db, "SELECT path FROM top WHERE snapshot_id=? AND "
                               "kind='file'", (sid,), raw=True)]
    for n in (b"new\nline", b"\xff\xfe", b"'; DROP TABLE x; --"):
        rel = b"files/" + n
        ok(any(p == rel or p.endswith(b"/" + rel) for p in tops),
           "names: top files path has the exact bytes of %r" % rel,
           "top paths %r" % tops[:5])
    eq(integrity(db), "ok", "names: integrity_check")


def special(s):
    root = s.path("special")
    os.mkdir(root)
    rfd = opendir(root)
    for d in (b"d1", b"d2", b"d3", b"d4"):
        os.mkdir(d, dir_fd=rfd)
    # sparse: 1 GiB apparent size, one byte written at the end
    fd = os.open(b"d1/sparse", os.O_CREAT | os.O_WRONLY, 0o644, dir_fd=rfd)
    os.truncate(fd, 1 << 30)
    os.pwrite(fd, b"!", (1 << 30) - 1)
    os.close(fd)
    # hard links: h3 has 3 links, h2 has 2 links, in different directories
    mkfile(rfd, b"d3/h3", data=b"3" * 30000)
    os.link(b"d3/h3", b"d1/h3b", src_dir_fd=rfd, dst_dir_fd=rfd)
    os.link(b"d3/h3", b"d2/zz", src_dir_fd=rfd, dst_dir_fd=rfd)
    mkfile(rfd, b"d4/h2", data=b"2" * 7000)
    os.link(b"d4/h2", b"d2/h2", src_dir_fd=rfd, dst_dir_fd=rfd)
    # one link inside the tree, one outside: nlink 2, counted once, no dup
    outside = s.path("outside_target")
    with open(outside, "wb") as fh:
        fh.write(b"o" * 4444)
    os.link(outside, os.path.join(root, "d2", "half"))
    mkfile(rfd, b"d2/plain", data=b"p" * 123)
    mkfile(rfd, b"d1/huge", size=1 << 41)       # 2 TiB, all hole
    # times before 1970 and far in the future: max_mtime must keep them
    mkfile(rfd, b"d3/old", data=b"1969")
    os.utime(b"d3/old", ns=(-86400 * 365 * 10**9, -86400 * 365 * 10**9), dir_fd=rfd,
             follow_symlinks=False)
    mkfile(rfd, b"d4/future", data=b"2400")
    os.utime(b"d4/future", (13569465600, 13569465600), dir_fd=rfd,
             follow_symlinks=False)
    os.utime(b"d3", ns=(-7 * 10**9, -7 * 10**9), dir_fd=rfd)
    os.mkfifo(b"d1/fifo", dir_fd=rfd)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.bind(os.path.join(root, "d3", "sock"))
    finally:
        sock.close()
    os.mknod(b"d4/null", stat.S_IFCHR | 0o600, os.makedev(1, 3), dir_fd=rfd)
    os.close(rfd)

    want = census(root)
    eq((want.files, want.others, want.hardlink_dups), (8, 3, 3),
       "special: expected tree shape")
    eq(want.vdir()[b"d4"][5], 13569465600, "special: future mtime kept by the fs")
    lst = os.lstat(os.path.join(root, "d1", "sparse"))
    ok(lst.st_size == 1 << 30 and lst.st_blocks * 512 < 1 << 20,
       "special: the sparse file is sparse here", "%r" % (lst,))
    db = s.path("special.db")
    sid = scan_ok("special", db, ["-j", "2"], root, want)
    eq(internal(db, sid, "hardlink_dups"), 3, "special: hardlink_dups exact")


def spellings(s):
    """ROOT as '.', with a trailing slash, and through '..': same counts,
    same v_dir rows as the absolute path."""
    root = s.path("spell")
    build_tree = os.path.join(root, "a", "b")
    os.makedirs(build_tree)
    fd = opendir(build_tree)
    mkfile(fd, "f", data=b"f" * 10)
    os.close(fd)
    fd = opendir(root)
    mkfile(fd, "g", data=b"g" * 20)
    os.symlink("a", "ln", dir_fd=fd)
    os.close(fd)
    want = census(root)
    db = s.path("spell.db")
    for tag, arg, cwd in (("'.'", ".", root), ("trailing slash", root + "/", "/"),
                          ("relative with ..", "spell/a/..", s.base),
                          ("double slashes", root.replace("/", "//"), "/")):
        r = run(["--db", db, arg], cwd=cwd)
        eq(r.rc, 0, "root %s: exit status 0" % tag)
        sid = last_id(db)
        eq(totals_of(vsnap(db, sid)), want.totals(), "root %s: totals exact" % tag)
        eq(vdir(db, sid), want.vdir(), "root %s: v_dir rows exact" % tag)


def db_inside(s):
    """`fsscan .` with the default ./iocensus.db: the database (and its WAL
    files) are inside the tree being scanned while they change."""
    root = s.path("dbinside")
    build_wide(root, 3, 2, 20)
    want = census(root)
    env_db = os.environ.pop("IOCENSUS_DB", None)
    try:
        r = run(["-j", "2", "."], cwd=root)
    finally:
        if env_db is not None:
            os.environ["IOCENSUS_DB"] = env_db
    db = os.path.join(root, "iocensus.db")
    eq(r.rc, 0, "db inside ROOT: exit status 0")
    vs = vsnap(db, last_id(db)) if os.path.exists(db) else None
    ok(vs is not None and vs["complete"] == 1 and vs["dirs"] == want.dirs and
       want.files + 1 <= vs["files"] <= want.files + 3,
       "db inside ROOT: complete, dirs exact, files = tree + database files",
       "%r, tree has %d files" % (vs, want.files))
    eq(integrity(db), "ok", "db inside ROOT: integrity_check")


def empty(s):
    root = s.path("empty")
    os.mkdir(root)
    want = census(root)
    scan_ok("empty root", s.path("empty.db"), [], root, want)


def mounts(s):
    root = s.path("mnt_case")
    os.mkdir(root)
    rfd = opendir(root)
    mkfile(rfd, b"outer", data=b"o" * 100)
    os.mkdir(b"mnt", dir_fd=rfd)
    os.mkdir(b"sub", dir_fd=rfd)
    mkfile(rfd, b"sub/f", size=10)
    os.close(rfd)
    mp = os.path.join(root, "mnt")
    s.mount_tmpfs(mp, size="16m")
    try:
        mfd = opendir(mp)
        for i in range(5):
            mkfile(mfd, "m%d" % i, data=b"m" * (100 * (i + 1)))
        os.mkdir(b"inner", dir_fd=mfd)
        mkfile(mfd, b"inner/deep", data=b"d" * 10)
        os.close(mfd)
        db = s.path("mnt.db")
        want = census(root)
        eq((want.files, want.dirs, want.mounts_skipped), (2, 2, 1),
           "mount: expected shape without crossing")
        sid = scan_ok("mount default", db, [], root, want)
        eq(internal(db, sid, "mounts_skipped"), 1, "mount: mounts_skipped = 1")
        want = census(root, cross_mounts=True)
        eq((want.files, want.dirs), (8, 4), "mount: expected shape when crossing")
        sid = scan_ok("mount --cross-mounts", db, ["--cross-mounts"], root, want)
        eq(internal(db, sid, "mounts_skipped"), 0,
           "mount --cross-mounts: mounts_skipped = 0")
        # the mount point itself as ROOT: its own file system is counted
        want = census(mp)
        eq((want.files, want.dirs), (6, 2), "mount: expected shape of the mount")
        sid = scan_ok("mount point as ROOT", db, [], mp, want)
    finally:
        s.umount(mp)


def main():
    with Scratch() as s:
        case("symlinks", symlinks, s)
        case("deep", deep, s)
        case("names", names, s)
        root_case("special", "device nodes are made with mknod", special, s)
        root_case("mount", "a tmpfs is mounted inside the tree", mounts, s)
        case("spellings", spellings, s)
        case("empty", empty, s)
        case("db inside", db_inside, s)
    done()


if __name__ == "__main__":
    main()
