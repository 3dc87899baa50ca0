#!/usr/bin/env python3
"""The iolog format as docs/iolog-format.md describes it, read and written
by this file alone (Python stdlib: zlib, struct), against the C codec.

test_iolog encode|decode (the text filter of tests/unit/iolog_text.h) turns
text into a log through the C writer, and a log into text through the C
reader. Here:
  1. random frames -> C writer -> this decoder: must give the input back;
     Python's gzip module must accept the file too;
  2. this encoder (gzip header flags, levels, stored blocks, one member per
     frame...) -> C reader: must give the input back;
  3. a torn member followed by a good one -> C reader: frames before the
     tear, one damage report, the next member whole;
  4. the C writer repairs a torn tail in place before appending: the file
     is cut after the last whole frame and sealed, byte for byte as the
     format says, and gzip accepts it; a torn member before the tail is
     left as it is (nothing is copied) and the C reader still reads all.
"""
import gzip
import os
import random
import struct
import subprocess
import sys
import tempfile
import zlib
from urllib.parse import quote, unquote_to_bytes

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from tap import ok, eq, done  # noqa: E402
from iolog_py import (DS_FIELDS, frame_bytes, py_decode,  # noqa: E402
                      layout, after_damage, after_cut, MARKER)

BUILD = os.environ.get("BUILD", os.path.join(os.path.dirname(__file__), "..", "build"))
CLI = os.path.join(BUILD, "tests", "lib", "test_iolog")
SAFE = b"._/:-"


# ---- text form shared with tests/unit/iolog_text.h ----

def esc(b):
    if not b:
        return "%"
    return "".join(chr(c) if chr(c).isalnum() and c < 128 or c in SAFE
                   else "%%%02X" % c for c in b)


def unesc(s):
    return b"" if s == "%" else unquote_to_bytes(s)


def fields_text(vals):
    parts = ["%d=%d" % (i, v) for i, v in enumerate(vals) if v]
    return "/".join(parts) if parts else "-"


def frame_text(f):
    """A frame (a tuple from gen or decode) as one line of the text form."""
    kind = f[0]
    if kind == "H":
        _, host, rel, mach, lb, ival, boot, created, writer = f
        return "H %s %s %s %d %d %s %d %s" % (esc(host), esc(rel), esc(mach),
                                              lb, ival, esc(boot), created,
                                              esc(writer))
    if kind == "T":
        toks = []
        for (did, name, maj, mnr, seq, mask, attrs) in f[1]:
            t = "%d,%s,%d,%d,%d,%d,%d" % (did, esc(name), maj, mnr, seq,
                                          mask, len(attrs))
            for k, v in attrs:
                t += ",%s,%s" % (esc(k), esc(v))
            toks.append(t)
        return " ".join(["T"] + toks)
    if kind in "KS":
        clock, devs = f[1], f[2]
        toks = [kind] + ["%d" % c for c in clock]
        for d in devs:
            if kind == "K":
                toks.append(fields_text(d))
            elif d[0] == 1:
                toks.append("1")
            else:
                toks.append("%d:%s" % (d[0], fields_text(d[1])))
        if kind == "S":
            toks.append("iv=%d" % f[3])
        return " ".join(toks)
    return "D"


# ---- the format, from the document: tests/lib/iolog_py.py ----


# ---- random logs ----

def rand_value(r):
    return r.choice([0, 0, 0, 1, r.randrange(1 << 7), r.randrange(1 << 14),
                     (1 << 32) - 1, (1 << 63), (1 << 64) - 1,
                     r.randrange(1 << 64)])


def rand_bytes(r, n):
    # Any bytes but NUL: the C structs hold strings as char arrays.
    return bytes(r.choice(b"abcXYZ019 ,%/\t\xff=-") for _ in range(n))


def gen_member(r, ndev, nsamples):
    h = ("H", rand_bytes(r, 12), b"6.1.0-13-amd64", b"x86_64", r.choice([32, 64]),
         r.choice([1000, 60000, (1 << 32) - 1]), b"b0e1-" + rand_bytes(r, 4),
         r.randrange(1 << 64), b"iostatmon 0.1.0")
    devs = []
    for i in range(ndev):
        attrs = [(rand_bytes(r, 4), rand_bytes(r, r.randrange(12)))
                 for _ in range(r.randrange(3))]
        name = r.choice([b"sda", b"cciss/c0d0", b"nvme0n1", b"dm-3"]) + b"%d" % i
        devs.append((i * 7 + r.randrange(5) * 1000, name, r.randrange(1 << 32),
                     r.randrange(1 << 32), r.choice([0, (1 << 64) - 1]),
                     r.randrange(1 << DS_FIELDS), attrs))
    frames = [h, ("T", devs)]
    mono = r.randrange(1 << 40)
    for s in range(nsamples + 1):
        prev, mono = mono, mono + r.randrange(1 << 36)
        clock = [s, r.randrange(1 << 64), mono, r.randrange(1 << 64),
                 r.randrange(1 << 20), r.randrange(32), r.choice([0, (1 << 64) - 1])]
        if s == 0:
            frames.append(("K", clock,
                           [[rand_value(r) for _ in range(DS_FIELDS)]
                            for _ in devs]))
            continue
        vals = []
        for _ in devs:
            st = r.randrange(3)
            vals.append((st, None) if st == 1 else
                        (st, [rand_value(r) for _ in range(DS_FIELDS)]))
        frames.append(("S", clock, vals, mono - prev))
    return frames


def run_cli(*args, stdin=None):
    return subprocess.run([CLI] + list(args), input=stdin, capture_output=True,
                          text=True)


def c_decode(path):
    p = run_cli("decode", path)
    return p.stdout.splitlines(), p.returncode


def texts(frames):
    return [frame_text(f) for f in frames]


# ---- checks ----

def check_c_writer(tmp, r):
    path = os.path.join(tmp, "c.iolog.gz")
    if os.path.exists(path):
        os.unlink(path)
    frames = []
    for m in range(3):
        frames += gen_member(r, r.randrange(0, 6), r.randrange(0, 20))
    p = run_cli("encode", path, stdin="\n".join(texts(frames)) + "\n")
    ok(p.returncode == 0, "C writer encodes %d random frames" % len(frames),
       p.stderr)
    data = open(path, "rb").read()
    eq(data[:10].hex(), "1f8b0800000000000003",
       "the writer's gzip header is the documented 10 bytes")
    try:
        got = py_decode(data)
    except (AssertionError, IndexError, zlib.error) as e:
        ok(False, "Python decodes the C writer's log", repr(e))
        return
    eq(texts(got), texts(frames), "Python decodes the C writer's log exactly")
    want_raw = b"".join(frame_bytes(f, 2) for f in frames)
    eq(gzip.decompress(data), want_raw,
       "gzip module: the uncompressed stream is the frames, byte for byte")
    # Every frame is followed by a sync flush: 00 00 ff ff ends each write.
    ok(data.count(b"\x00\x00\xff\xff") >= len(frames),
       "a sync-flush marker for every frame")


def gz_header(r, flags):
    h = bytearray(b"\x1f\x8b\x08") + bytes([flags]) + struct.pack("<I", r.randrange(1 << 32)) + b"\x00\xff"
    if flags & 4:
        extra = rand_bytes(r, r.randrange(20))
        h += struct.pack("<H", len(extra)) + extra
    if flags & 8:
        h += b"name.iolog\x00"
    if flags & 16:
        h += b"a comment\x00"
    if flags & 2:
        h += struct.pack("<H", zlib.crc32(bytes(h)) & 0xffff)
    return bytes(h)


def py_member(r, frames, flags, level, per_frame_flush=True, version=1):
    raw = b"".join(frame_bytes(f, version) for f in frames)
    d = zlib.compressobj(level, zlib.DEFLATED, -15)
    out = b""
    if per_frame_flush:
        for f in frames:
            out += d.compress(frame_bytes(f, version))
            out += d.flush(r.choice([zlib.Z_SYNC_FLUSH, zlib.Z_FULL_FLUSH]))
    else:
        out += d.compress(raw)
    out += d.flush(zlib.Z_FINISH)
    return gz_header(r, flags) + out + struct.pack("<II", zlib.crc32(raw), len(raw))


def check_c_reader(tmp, r):
    path = os.path.join(tmp, "py.iolog.gz")
    for flags in (0, 1, 2, 4, 8, 16, 30):
        for level in (0, 1, 9):
            frames, data = [], b""
            for _ in range(2):
                m = gen_member(r, r.randrange(0, 5), r.randrange(0, 8))
                frames += m
                data += py_member(r, m, flags, level, r.random() < 0.7)
            open(path, "wb").write(data)
            got, rc = c_decode(path)
            eq(got, texts(frames), "C reader decodes a Python log "
               "(gzip flags %#x, level %d)" % (flags, level))
    # Version 2: samples as P frames, by this file's encoder; a file
    # holding a version-1 member then a version-2 one, as appending to a
    # log of an older writer leaves it.
    for level in (0, 6):
        frames, data = [], b""
        for version in (1, 2, 2):
            m = gen_member(r, r.randrange(0, 7), r.randrange(0, 8))
            frames += m
            data += py_member(r, m, 0, level, True, version)
        open(path, "wb").write(data)
        got, rc = c_decode(path)
        eq(got, texts(frames), "C reader decodes a Python log of version "
           "1 and 2 members (level %d)" % level)


def check_torn(tmp, r):
    path = os.path.join(tmp, "torn.iolog.gz")
    m1 = gen_member(r, 3, 6)
    m2 = gen_member(r, 2, 3)
    whole = py_member(r, m1, 0, 6)
    # Cut the first member after its 5th frame's flush: no final block.
    d = zlib.compressobj(6, zlib.DEFLATED, -15)
    head = gz_header(r, 0)
    for f in m1[:5]:
        head += d.compress(frame_bytes(f)) + d.flush(zlib.Z_SYNC_FLUSH)
    torn = head + (d.compress(frame_bytes(m1[5])) +
                   d.flush(zlib.Z_SYNC_FLUSH))[:3]
    open(path, "wb").write(torn + py_member(r, m2, 0, 6))
    got, rc = c_decode(path)
    dmg = [g for g in got if g.startswith("D ")]
    eq([g for g in got if not g.startswith("D ")], texts(m1[:5] + m2),
       "torn member then a good one: frames before the tear and the next member")
    eq(len(dmg), 1, "one damage report for the torn member")
    # Not the tail: the C writer leaves it as it is and appends.
    m3 = gen_member(r, 1, 2)
    p = run_cli("encode", path, stdin="\n".join(texts(m3)) + "\n")
    ok(p.returncode == 0, "C writer appends after a torn member", p.stderr)
    data = open(path, "rb").read()
    ok(data[:len(torn)] == torn, "a torn member before the tail is not "
       "touched (nothing copied or cut)")
    got, rc = c_decode(path)
    eq([g for g in got if not g.startswith("D ")], texts(m1[:5] + m2 + m3),
       "after the append the C reader reads every good frame and the new member")

    # The torn member is the tail: cut after its last whole frame (the end
    # of the 5th frame's flush) and sealed with an empty final stored block
    # and the trailer of the frames kept, in place; then the new member.
    open(path, "wb").write(torn)
    raw = b"".join(frame_bytes(f) for f in m1[:5])
    ino = os.stat(path).st_ino
    p = run_cli("encode", path, stdin="\n".join(texts(m3)) + "\n")
    ok(p.returncode == 0, "C writer appends after a torn tail", p.stderr)
    data = open(path, "rb").read()
    sealed = head + b"\x01\x00\x00\xff\xff" + struct.pack(
        "<II", zlib.crc32(raw), len(raw))
    ok(os.stat(path).st_ino == ino and data.startswith(sealed) and
       data[len(sealed):len(sealed) + 3] == b"\x1f\x8b\x08",
       "the torn tail is cut after the last whole frame and sealed in place, "
       "byte for byte")
    eq(gzip.decompress(data), b"".join(frame_bytes(f) for f in m1[:5]) +
       b"".join(frame_bytes(f, 2) for f in m3),
       "after the repair gzip reads every good frame and the new member")
    del whole

# ---- damage: what the reader recovers, by the rules of "Reading" ----

def gen_keyed_member(r, ndev, nsamples, every):
    """A member as the daemon writes one: H T K, samples, a K after every
    `every`-th sample (hourly: with that sample's clock) and, halfway, a
    T K pair (a device change)."""
    m = gen_member(r, ndev, nsamples)
    out = m[:3]
    for i, f in enumerate(m[3:], 1):
        out.append(f)
        vals = [[rand_value(r) for _ in range(DS_FIELDS)] for _ in m[1][1]]
        if i == nsamples // 2:
            out.append(m[1])
        if i == nsamples // 2 or i % every == 0:
            out.append(("K", f[1], vals))
    return out


def old_writer(r, frames):
    """One member laid out as writers before 0.1.0 did: every frame sync
    flushed, a keyframe full flushed, nothing flushed before a keyframe."""
    raw = b"".join(frame_bytes(f) for f in frames)
    d = zlib.compressobj(6, zlib.DEFLATED, -15)
    out = b""
    for f in frames:
        out += d.compress(frame_bytes(f))
        out += d.flush(zlib.Z_FULL_FLUSH if f[0] == "K" else zlib.Z_SYNC_FLUSH)
    out += d.flush(zlib.Z_FINISH)
    return gz_header(r, 0) + out + struct.pack("<II", zlib.crc32(raw),
                                               len(raw))


def damage_lines(lines):
    """(offset, resumed or None, kind, reason) of each D line."""
    out = []
    for l in lines:
        if l.startswith("D "):
            _, off, res, kind, why = l.split(" ", 4)
            out.append((int(off), int(res) or None, kind,
                        unesc(why).decode()))
    return out


def same_outcome(got, members, exp, kinds):
    """got (decode lines) against exp (an iolog_py.Outcome): '' or why not."""
    frames = [l for l in got if not l.startswith("D ")]
    want = [frame_text(members[mi].frames[i].f) for mi, i in exp.delivered]
    if frames != want:
        return "frames: %d, want %d" % (len(frames), len(want))
    dmg = damage_lines(got)
    if exp.note is not None:
        wantd = [(exp.note, None, "note")]
    else:
        wantd = [(at, res, kinds) for at, res, _ in exp.damage]
    if [d[:3] for d in dmg] != wantd:
        return "damage %r, want %r" % (dmg, wantd)
    for d, (_, _, lost) in zip(dmg, exp.damage):
        tail = "; %d sample records lost" % lost if lost is not None else ""
        if (tail and not d[3].endswith(tail)) or \
                (not tail and "records lost" in d[3]):
            return "reason %r, want it to end %r" % (d[3], tail)
    return ""


def check_damage(tmp, r, name, data):
    """A byte flipped between the first and the last byte inflate puts out
    of each frame in turn."""
    path = os.path.join(tmp, "dmg.iolog.gz")
    members = layout(data)
    bad, tried, resumed = [], 0, set()
    for mi, m in enumerate(members):
        for k, fr in enumerate(m.frames):
            if fr.last - fr.first < 2:
                continue
            b = bytearray(data)
            b[(fr.first + fr.last) // 2] ^= 0xff
            open(path, "wb").write(b)
            exp = after_damage(data, members, mi, k)
            why = same_outcome(c_decode(path)[0], members, exp, "damage")
            tried += 1
            if why:
                bad.append("frame %d.%d (%s): %s" % (mi, k, fr.kind, why))
            for _, res, _ in exp.damage:
                resumed.add(res is not None and res < m.end)
    ok(tried > 20 and resumed == {True, False}, "%s: damage in %d frames, "
       "resumed in the member and not" % (name, tried), repr(resumed))
    eq(bad, [], "%s: reader recovers what the format's rules say" % name)


def check_cuts(tmp, name, data):
    """data cut at every byte near a frame's end or a member's, and at
    every 13th byte elsewhere."""
    path = os.path.join(tmp, "cut.iolog.gz")
    members = layout(data)
    near = set()
    for m in members:
        for p in [m.start, m.data, m.end] + [f.start for f in m.frames]:
            near.update(range(p - 6, p + 6))
    bad, kinds = [], set()
    for c in range(1, len(data)):
        if c not in near and c % 13:
            continue
        open(path, "wb").write(data[:c])
        exp = after_cut(data, members, c)
        why = same_outcome(c_decode(path)[0], members, exp, "cut")
        kinds.add("note" if exp.note is not None else
                  "cut" if exp.damage else "clean")
        if why:
            bad.append("cut at %d: %s" % (c, why))
    eq(kinds, {"note", "cut", "clean"}, "%s: cuts of every kind" % name)
    eq(bad[:5], [], "%s: a cut log reads as the format's rules say (a note "
       "after a whole frame, else a cut)" % name)


def check_recovery(tmp, r):
    frames = []
    for ndev, n, every in ((3, 40, 9), (2, 12, 5)):
        frames += gen_keyed_member(r, ndev, n, every)
    path = os.path.join(tmp, "keyed.iolog.gz")
    p = run_cli("encode", path, stdin="\n".join(texts(frames)) + "\n")
    ok(p.returncode == 0, "C writer: members with keyframes", p.stderr)
    data = open(path, "rb").read()
    check_damage(tmp, r, "C writer", data)
    check_cuts(tmp, "C writer", data)
    old = b"".join(old_writer(r, gen_keyed_member(r, 3, 30, 7))
                   for _ in range(2))
    check_damage(tmp, r, "old layout", old)


def main():
    if not os.access(CLI, os.X_OK):
        ok(False, "test_iolog is built", CLI + " missing")
        done()
    r = random.Random(int(os.environ.get("SEED", "20261121")))
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(4):
            check_c_writer(tmp, r)
        check_c_reader(tmp, r)
        check_torn(tmp, r)
        check_recovery(tmp, r)
    done()


main()
