"""iocensus ingest against inputs made to exhaust it.

- xz, lzma, lzip and zstd streams whose headers declare a dictionary or
  window of hundreds of MiB (bombgen: small streams that decode the same
  under any declared size): refused before the decoder allocates it,
  named ARCHIVE or ARCHIVE:MEMBER, exit 1, everything else loaded, peak
  RSS under 256 MiB; nested xz share one budget of 96 MiB; a legitimate
  xz -9 archive (64 MiB dictionary) loads.
- a directory tree 20,000 levels deep, a log at the bottom, read with at
  most 64 descriptors (RLIMIT_NOFILE): loaded, and a damaged log there
  reported with its whole path and its reason.
- a log of 60,000 devices: loaded within the bound docs/census-db.md states.

Expected samples are the generator's: rawgen writes `minutes` samples per
device, and `iostatmon dump` of a log alone (tests/lib/iodump.py) is the
oracle for what v_io holds.
"""
import contextlib
import io
import os
import resource
import sqlite3
import subprocess
import sys
import tarfile
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from tap import ok, eq, done          # noqa: E402
from pace import limit  # noqa: E402
from rawgen import Dataset            # noqa: E402
from peakrss import run_peak          # noqa: E402
from iodump import dump_rows, view_rows  # noqa: E402
import bombgen                        # noqa: E402

BUILD = os.environ.get("BUILD", "build")
IOC = os.path.join(BUILD, "iocensus")
MON = os.path.join(BUILD, "iostatmon")
TMP = tempfile.mkdtemp(prefix="t_attack_ingest.")
START = 1700000000 // 3600 * 3600
MIB = 1 << 20
RSS_MAX_KIB = 256 * 1024
ENV = dict(os.environ, ASAN_OPTIONS=os.environ.get("ASAN_OPTIONS", "") +
           ":quarantine_size_mb=16")


def path(*p):
    return os.path.join(TMP, *p)


def sql(db, q):
    with contextlib.closing(sqlite3.connect(db)) as con:
        return con.execute(q).fetchall()


def make_log(host, seed, devs=2, minutes=360):
    raw = path("raw", host)
    os.makedirs(raw, exist_ok=True)
    Dataset(seed=seed, hosts=[host], devs_per_host=devs, start=START,
            minutes=minutes).write(raw)
    out = path(host + ".iolog.gz")
    subprocess.run([MON, "import", os.path.join(raw, host + ".raw"),
                    "--host", host, "--out", out], check=True)
    return out


def tar_of(members):
    bio = io.BytesIO()
    with tarfile.open(fileobj=bio, mode="w") as t:
        for name, data in members:
            ti = tarfile.TarInfo(name)
            ti.size = len(data)
            t.addfile(ti, io.BytesIO(data))
    return bio.getvalue()


def write(name, data):
    p = path(name)
    with open(p, "wb") as f:
        f.write(data)
    return p


def ingest(name, *paths, preexec=None):
    db = path(name + ".db")
    if preexec is None:
        rc, out, err, kib = run_peak([IOC, "ingest", "--db", db, "--format",
                                      "csv"] + list(paths), env=ENV)
        return db, rc, err, kib
    p = subprocess.run([IOC, "ingest", "--db", db, "--format", "csv"] +
                       list(paths), capture_output=True, env=ENV,
                       preexec_fn=preexec, timeout=limit(300))
    return db, p.returncode, p.stderr.decode("utf-8", "replace"), 0


def bounded(kib, what):
    print("# %s: peak RSS %d KiB" % (what, kib))
    ok(kib < RSS_MAX_KIB, "%s: peak RSS under 256 MiB" % what,
       "%d KiB" % kib)


def refused(what, p, member, err, rc, db, want, kib, reason):
    name = p + (":" + member if member else "")
    eq(rc, 1, "%s: exit 1" % what)
    dmg = sql(db, "SELECT source, reason FROM io_damage")
    ok(any(s == name and reason in r for s, r in dmg),
       "%s: refused, named %s, and why" % (what, os.path.basename(name)),
       repr(dmg))
    ok("%s: damaged at compressed offset" % name in err and reason in err,
       "%s: the message names it and says why" % what, err)
    eq(view_rows(db, "v_io"), want, "%s: everything else loaded" % what)
    bounded(kib, what)


def check_dictionaries(log, other):
    data = open(log, "rb").read()
    want_other = dump_rows(MON, [other])
    for size, zeros in ((384, 448), (768, 832)):
        p = write("d%d.tar.xz" % size, bombgen.tar_xz_dict(
            [("h000.iolog.gz", data, zeros * MIB)], size * MIB))
        db, rc, err, kib = ingest("d%d" % size, p, other)
        refused("xz declaring a %d MiB dictionary" % size, p, None, err, rc,
                db, want_other, kib, "declares a %d MiB dictionary, more "
                "than the 64 MiB a decoder may have" % size)
    # the same inside a plain tar, beside a log
    inner = bombgen.tar_xz_dict([("h000.iolog.gz", data, 832 * MIB)],
                                768 * MIB)
    p = write("outer.tar", tar_of([("inner.tar.xz", inner),
                                   ("h001.iolog.gz", open(other,
                                                          "rb").read())]))
    db, rc, err, kib = ingest("outer", p)
    refused("a 768 MiB xz member of a tar", p, "inner.tar.xz", err, rc, db,
            want_other, kib, "declares a 768 MiB dictionary")
    # nested xz share one budget: 48 + 48 MiB do not fit in 96 MiB
    inner = bombgen.tar_xz_dict([("h000.iolog.gz", data, 0)], 48 * MIB)
    p = write("nest.tar.xz", bombgen.tar_xz_dict(
        [("inner.tar.xz", inner, 0), ("h001.iolog.gz",
                                      open(other, "rb").read(), 0)],
        48 * MIB))
    db, rc, err, kib = ingest("nest", p)
    refused("xz of 48 MiB inside xz of 48 MiB", p, "inner.tar.xz", err, rc,
            db, want_other, kib, "48 MiB dictionary, more than the 46 MiB "
            "left of the 96 MiB that the decoders of nested archives share")


def check_other_formats(log, other):
    tar = tar_of([("h000.iolog.gz", open(log, "rb").read())])
    want, want_other = dump_rows(MON, [log]), dump_rows(MON, [other])
    cases = (("lzma", bombgen.lzma_alone_with_dict, 1 * MIB, 384 * MIB,
              "lzma header declares a 384 MiB dictionary"),
             ("lz", bombgen.lzip_member, 20, 29 | 4 << 5,
              "lzip header declares a 384 MiB dictionary"),
             ("zst", bombgen.zstd_with_window, 20, 27,
              "zstd frame declares a 128 MiB window"))
    for ext, make, small, big, reason in cases:
        p = write("ok.tar." + ext, make(tar, small))
        db, rc, err, kib = ingest("ok" + ext, p)
        eq((rc, view_rows(db, "v_io")), (0, want),
           ".tar.%s with a small dictionary: loaded (%s)" % (ext,
                                                              err.strip()))
        p = write("big.tar." + ext, make(tar, big))
        db, rc, err, kib = ingest("big" + ext, p, other)
        refused(".tar." + ext + " declaring too much", p, None, err, rc, db,
                want_other, kib, reason)


def check_xz9(log, other):
    """A legitimate xz -9 archive (64 MiB dictionary) of two logs."""
    tar = tar_of([("h000.iolog.gz", open(log, "rb").read()),
                  ("h001.iolog.gz", open(other, "rb").read())])
    data = subprocess.run(["xz", "-9", "-c"], input=tar, capture_output=True,
                          check=True).stdout
    p = write("logs.tar.xz", data)
    db, rc, err, kib = ingest("xz9", p)
    eq(rc, 0, "xz -9 archive: exit 0 (%s)" % err.strip())
    eq(view_rows(db, "v_io"), dump_rows(MON, [log, other]),
       "xz -9 archive: both logs loaded")
    bounded(kib, "xz -9 archive")


def nofile():
    resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))


def check_deep(log):
    depth = 20000
    root = path("deep")
    os.mkdir(root)
    fd = os.open(root, os.O_RDONLY)
    for _ in range(depth):
        os.mkdir("d", dir_fd=fd)
        nfd = os.open("d", os.O_RDONLY, dir_fd=fd)
        os.close(fd)
        fd = nfd
    for name, data in (("h.iolog.gz", open(log, "rb").read()),
                       ("bad.iolog.gz", b"\x1f\x8b" + b"junk" * 8)):
        f = os.open(name, os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd)
        os.write(f, data)
        os.close(f)
    os.close(fd)
    db, rc, err, _ = ingest("deep", root, preexec=nofile)
    eq(rc, 1, "20,000 levels, 64 descriptors: exit 1 (the damaged log)")
    eq(view_rows(db, "v_io"), dump_rows(MON, [log]),
       "20,000 levels, 64 descriptors: the log at the bottom loaded")
    bad = root + "/d" * depth + "/bad.iolog.gz"
    line = [x for x in err.splitlines() if "bad.iolog.gz" in x]
    ok(len(line) == 1 and line[0] == "iocensus ingest: %s: damaged at "
       "compressed offset 0: not a gzip member header" % bad,
       "a path of %d bytes: the message names it whole, with the reason"
       % len(bad), err[-300:])


def check_many_devices():
    devs, minutes = 60000, 3
    log = make_log("wide", 7, devs=devs, minutes=minutes)
    db, rc, err, kib = ingest("wide", log)
    eq(rc, 0, "60,000 devices: exit 0 (%s)" % err.strip()[-200:])
    eq(sql(db, "SELECT count(*) FROM io_dev")[0][0], devs,
       "60,000 devices: every device stored")
    eq(sql(db, "SELECT count(*) FROM v_io")[0][0], devs * minutes,
       "60,000 devices: every sample stored")
    print("# 60,000 devices: peak RSS %d KiB" % kib)
    bounded(kib, "60,000 devices")


def main():
    log = make_log("h000", 1)
    other = make_log("h001", 2)
    check_dictionaries(log, other)
    check_other_formats(log, other)
    check_xz9(log, other)
    check_deep(log)
    check_many_devices()
    done()


main()
