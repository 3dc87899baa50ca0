#!/usr/bin/env python3
"""t_attack_private: no private name in a world-readable output.

The metrics file and `report --no-paths` (page and bundle) are made for
every user to read. A project name that fsscan read from a directory that
not every user may list must not reach them: it is shown as its label,
"private-" and 16 hex digits of SipHash-2-4 under the database's key.

    ROOT/               0755 (then 0711: no user may list it)
    ROOT/alice/         0700  holding secret-project-xyz/
    ROOT/bob/           0755  holding open-project/

Which names are public is decided here from os.stat alone (other has r
and x on ROOT and each directory down to depth N-1, x on every directory
above ROOT), and the labels are recomputed with a SipHash-2-4 written
here from the paper, under the key read from the database. Checked, for
fsscan and (when mpirun is there) fsscan-mpi on 2 ranks: project.public;
the metrics file, the page and every member of the bundle hold no private
name nor the component read from the private listing, and hold the
public names and the labels; labels stay the same across two scans and
two runs of metrics and differ in another database; `usage --format csv`
shows the real names; every project's numbers are the database's, so the
sums are exact. Needs root (chmod of directories it then reads).
"""
import io
import os
import re
import shutil
import sqlite3
import stat
import subprocess
import sys
import tarfile
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "lib"))
from tap import done, eq, ok, skip  # noqa: E402

TOP = os.environ.get("TOP") or os.path.dirname(HERE)
BUILD = os.environ.get("BUILD") or os.path.join(TOP, "build")
FSSCAN = os.path.join(BUILD, "fsscan")
FSSCAN_MPI = os.path.join(BUILD, "fsscan-mpi")
IOCENSUS = os.path.join(BUILD, "iocensus")
MPIRUN = shutil.which("mpirun")
SECRET = "secret-project-xyz"

M64 = (1 << 64) - 1


def rotl(x, b):
    return ((x << b) | (x >> (64 - b))) & M64


def siphash24(key, msg):
    """SipHash-2-4 from the paper's description: the oracle of labels."""
    k0 = int.from_bytes(key[:8], "little")
    k1 = int.from_bytes(key[8:], "little")
    v = [k0 ^ 0x736f6d6570736575, k1 ^ 0x646f72616e646f6d,
         k0 ^ 0x6c7967656e657261, k1 ^ 0x7465646279746573]

    def rnd():
        v[0] = (v[0] + v[1]) & M64
        v[1] = rotl(v[1], 13) ^ v[0]
        v[0] = rotl(v[0], 32)
        v[2] = (v[2] + v[3]) & M64
        v[3] = rotl(v[3], 16) ^ v[2]
        v[0] = (v[0] + v[3]) & M64
        v[3] = rotl(v[3], 21) ^ v[0]
        v[2] = (v[2] + v[1]) & M64
        v[1] = rotl(v[1], 17) ^ v[2]
        v[2] = rotl(v[2], 32)

    words = [msg[i:i + 8] for i in range(0, len(msg) - len(msg) % 8, 8)]
    tail = msg[len(msg) - len(msg) % 8:]
    words.append(tail + bytes(7 - len(tail)) + bytes([len(msg) & 0xff]))
    for w in words:
        m = int.from_bytes(w, "little")
        v[3] ^= m
        rnd()
        rnd()
        v[0] ^= m
    v[2] ^= 0xff
    for _ in range(4):
        rnd()
    return v[0] ^ v[1] ^ v[2] ^ v[3]


def run(*cmd, env=None):
    p = subprocess.run([str(c) for c in cmd], capture_output=True,
                       env=env)
    return p.returncode, p.stdout.decode("utf-8", "replace"), \
        p.stderr.decode("utf-8", "replace")


def listable(path):
    m = os.stat(path).st_mode
    return bool(m & stat.S_IROTH) and bool(m & stat.S_IXOTH)


def above_open(root):
    p = os.path.dirname(os.path.abspath(root))
    while True:
        if not os.stat(p).st_mode & stat.S_IXOTH:
            return False
        if p == "/":
            return True
        p = os.path.dirname(p)


def oracle(root, depth):
    """{project name: public} of depth:N by os.walk and os.stat."""
    out = {}
    for d, dirs, _ in os.walk(root):
        rel = os.path.relpath(d, root)
        comps = [] if rel == "." else rel.split(os.sep)
        if len(comps) != depth:
            continue
        pub = above_open(root)
        p = root
        for c in [None] + comps[:-1]:
            p = p if c is None else os.path.join(p, c)
            pub = pub and listable(p)
        out["/".join(comps)] = pub
        dirs[:] = []
    return out


def db_rows(db, sql, args=()):
    c = sqlite3.connect(db)
    try:
        return c.execute(sql, args).fetchall()
    finally:
        c.close()


def label(db, name):
    key = db_rows(db, "SELECT key FROM census_key")[0][0]
    return "private-%016x" % siphash24(bytes(key), name.encode())


def metrics(db, out):
    rc, _, err = run(IOCENSUS, "metrics", "--db", db, "--out", out)
    ok(rc == 0, "iocensus metrics on %s" % os.path.basename(db), err)
    with open(out) as f:
        return f.read()


def project_values(text, family):
    got = {}
    for m in re.finditer(r'^%s\{fs="[^"]*",project="([^"]*)"\} (\S+)$'
                         % family, text, re.M):
        got[m.group(1)] = int(m.group(2))
    return got


def report(db, tmp, tag):
    page = os.path.join(tmp, "out", tag + ".html")
    bundle = os.path.join(tmp, "out", tag + ".tar")
    rc, _, err = run(IOCENSUS, "report", "--db", db, "--no-paths", "--out",
                     page, "--bundle", bundle)
    ok(rc == 0, "report --no-paths (%s)" % tag, err)
    texts = {"page": open(page, encoding="utf-8", errors="replace").read()}
    with tarfile.open(bundle) as t:
        for m in t.getmembers():
            if m.isfile():
                texts[m.name] = t.extractfile(m).read().decode(
                    "utf-8", "replace")
    return texts


def check_outputs(db, tmp, tag, names, secrets):
    """names: {name: public}; secrets: strings no shared output holds."""
    text = metrics(db, os.path.join(tmp, "out", tag + ".prom"))
    outs = dict(report(db, tmp, tag))
    outs["metrics"] = text
    leaks = sorted("%s in %s" % (s, k) for k, v in outs.items()
                   for s in secrets if s in v)
    eq(leaks, [], "%s: no private name in the metrics file, the page or "
       "the bundle" % tag)
    for n, pub in sorted(names.items()):
        shown = n if pub else label(db, n)
        ok(shown in text and shown in outs["page"],
           "%s: %s is shown as %s" % (tag, n, shown))
    # exact sums: every project's bytes are the latest snapshot's
    snap = db_rows(db, "SELECT max(id) FROM snapshot")[0][0]
    want = {(n if pub else label(db, n)): b for n, pub, b in db_rows(
        db, "SELECT name, public, bytes FROM project WHERE snapshot_id = ?",
        (snap,))}
    eq(project_values(text, "iocensus_project_bytes"), want,
       "%s: each project's bytes as in the database, relabelled" % tag)
    rc, out, err = run(IOCENSUS, "usage", "--db", db, "--format", "csv")
    ok(rc == 0 and all(n in out for n in names),
       "%s: usage --format csv keeps the real names" % tag, err)
    return text


def scan(db, root, rule, mpi=False, env=None):
    cmd = [FSSCAN, "--db", db, "--project", rule, "--quiet", root]
    if mpi:
        cmd = [MPIRUN, "--oversubscribe", "-np", "2", FSSCAN_MPI] + cmd[1:]
    rc, _, err = run(*cmd, env=env)
    ok(rc == 0, "%s %s %s" % ("fsscan-mpi" if mpi else "fsscan", rule,
                              os.path.basename(db)), err)


def public_col(db):
    snap = db_rows(db, "SELECT max(id) FROM snapshot")[0][0]
    return {n: bool(p) for n, p in db_rows(
        db, "SELECT name, public FROM project WHERE snapshot_id = ? AND"
        " name <> '(none)'", (snap,))}


def make_tree(tmp):
    root = os.path.join(tmp, "root")
    for d, mode in (("alice", 0o700), ("bob", 0o755)):
        os.makedirs(os.path.join(root, d))
        os.chmod(os.path.join(root, d), mode)
    for d, f, size in (("alice/" + SECRET, "data", 7),
                       ("bob/open-project", "data", 5)):
        os.makedirs(os.path.join(root, d))
        with open(os.path.join(root, d, f), "wb") as fh:
            fh.write(b"x" * size)
    os.chmod(root, 0o755)
    return root


def main():
    if os.geteuid() != 0:
        skip("private names in shared outputs", "needs root to read "
             "directories others may not list", "root")
        return done()
    tmp = tempfile.mkdtemp(prefix="t_attack_private.")
    try:
        os.chmod(tmp, 0o755)       # every user may search down to ROOT
        os.makedirs(os.path.join(tmp, "db"), mode=0o750)
        os.makedirs(os.path.join(tmp, "out"))
        root = make_tree(tmp)
        db1 = os.path.join(tmp, "db", "one.db")
        db2 = os.path.join(tmp, "db", "two.db")

        want = oracle(root, 2)
        eq(want, {"alice/" + SECRET: False, "bob/open-project": True},
           "oracle: alice's listing is private, bob's public")
        scan(db1, root, "depth:2")
        eq(public_col(db1), want, "fsscan: project.public as os.stat says")
        first = check_outputs(db1, tmp, "depth2", want, [SECRET])
        scan(db1, root, "depth:2")
        second = check_outputs(db1, tmp, "depth2-again", want, [SECRET])
        lab = label(db1, "alice/" + SECRET)
        ok(lab in first and lab in second,
           "the label is the same across two scans")
        again = metrics(db1, os.path.join(tmp, "out", "m1.prom"))
        eq(sorted(project_values(again, "iocensus_project_files")),
           sorted(project_values(second, "iocensus_project_files")),
           "two runs of metrics: the same labels")
        scan(db2, root, "depth:2")
        ok(label(db2, "alice/" + SECRET) != lab and
           label(db2, "alice/" + SECRET) in metrics(
               db2, os.path.join(tmp, "out", "m2.prom")),
           "another database, another label for the same name")

        os.chmod(root, 0o711)
        db3 = os.path.join(tmp, "db", "three.db")
        want1 = oracle(root, 1)
        eq(want1, {"alice": False, "bob": False},
           "oracle: a ROOT of 0711 makes its names private")
        scan(db3, root, "depth:1")
        eq(public_col(db3), want1, "fsscan depth:1: project.public")
        check_outputs(db3, tmp, "unlistable", want1,
                      ['"alice"', '"bob"', ">alice<", ">bob<", "alice,",
                       "bob,"])
        os.chmod(root, 0o755)

        if not MPIRUN or not os.path.exists(FSSCAN_MPI):
            skip("fsscan-mpi: the same public column and outputs",
                 "mpirun not installed", "openmpi-bin")
        else:
            env = dict(os.environ)
            env["OMPI_ALLOW_RUN_AS_ROOT"] = "1"
            env["OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"] = "1"
            supp = os.path.join(TOP, "tests", "lsan-openmpi.supp")
            if "LSAN_OPTIONS" in env:
                env["LSAN_OPTIONS"] += (":print_suppressions=0:"
                                        "suppressions=" + supp)
            if "ASAN_OPTIONS" in env:
                env["ASAN_OPTIONS"] += (":fast_unwind_on_malloc=0:"
                                        "malloc_context_size=8")
            db4 = os.path.join(tmp, "db", "mpi.db")
            scan(db4, root, "depth:2", mpi=True, env=env)
            eq(public_col(db4), public_col(db1),
               "fsscan-mpi: project.public as fsscan's")
            check_outputs(db4, tmp, "mpi", want, [SECRET])
    finally:
        os.chmod(os.path.join(tmp, "root"), 0o755) \
            if os.path.isdir(os.path.join(tmp, "root")) else None
        shutil.rmtree(tmp, ignore_errors=True)
    return done()


if __name__ == "__main__":
    sys.exit(main())
