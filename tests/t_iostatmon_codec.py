#!/usr/bin/env python3
"""The iolog format as docs/iolog-format.md describes it, read and written
by this file alone (Python stdlib: zlib, struct), against the C codec.

test_iolog_cli (tests/unit/test_iolog_cli.c) turns text into a log through
the C writer, and a log into text through the C reader. Here:
  1. random frames -> C writer -> this decoder: must give the input back;
     Python's gzip module must accept the file too;
  2. this encoder (gzip header flags, levels, stored blocks, one member per
     frame...) -> C reader: must give the input back;
  3. a torn member followed by a good one -> C reader: frames before the
     tear, one damage report, the next member whole;
  4. the C writer repairs a torn log before appending: gzip accepts it.
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

BUILD = os.environ.get("BUILD", os.path.join(os.path.dirname(__file__), "..", "build"))
CLI = os.path.join(BUILD, "tests", "test_iolog_cli")
DS_FIELDS = 24
SAFE = b"._/:-"


# ---- text form shared with test_iolog_cli ----

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


# ---- the format, from the document ----

def put_varint(v):
    out = bytearray()
    while v >= 0x80:
        out.append((v & 0x7f) | 0x80)
        v >>= 7
    out.append(v)
    return bytes(out)


def put_str(b):
    return put_varint(len(b)) + b


def put_fields(vals):
    mask = sum(1 << i for i, v in enumerate(vals) if v)
    return put_varint(mask) + b"".join(put_varint(v) for v in vals if v)


def body_of(f):
    kind = f[0]
    if kind == "H":
        _, host, rel, mach, lb, ival, boot, created, writer = f
        return (b"H" + put_varint(1) + put_str(b"iolog") + put_str(host) +
                put_str(rel) + put_str(mach) + put_varint(lb) +
                put_varint(ival) + put_str(boot) + put_varint(created) +
                put_str(writer))
    if kind == "T":
        out = b"T" + put_varint(len(f[1]))
        for (did, name, maj, mnr, seq, mask, attrs) in f[1]:
            out += (put_varint(did) + put_str(name) + put_varint(maj) +
                    put_varint(mnr) + put_varint(seq) + put_varint(mask) +
                    put_varint(len(attrs)))
            for k, v in attrs:
                out += put_str(k) + put_str(v)
        return out
    out = kind.encode() + b"".join(put_varint(c) for c in f[1])
    for d in f[2]:
        if kind == "K":
            out += put_fields(d)
        else:
            out += put_varint(d[0])
            if d[0] != 1:
                out += put_fields(d[1])
    return out


def frame_bytes(f):
    body = body_of(f)
    return put_varint(len(body)) + body + struct.pack("<I", zlib.crc32(body))


class Cursor:
    def __init__(self, b):
        self.b, self.i = b, 0

    def varint(self):
        v = shift = 0
        while True:
            c = self.b[self.i]
            self.i += 1
            v |= (c & 0x7f) << shift
            shift += 7
            if not c & 0x80:
                assert v < 1 << 64 and shift <= 70
                return v

    def str(self):
        n = self.varint()
        s = self.b[self.i:self.i + n]
        assert len(s) == n
        self.i += n
        return s

    def fields(self):
        mask = self.varint()
        return [self.varint() if mask >> i & 1 else 0 for i in range(DS_FIELDS)]


def parse_body(body, ndev, prev_mono):
    c = Cursor(body)
    kind = chr(body[0])
    c.i = 1
    if kind == "H":
        assert c.varint() == 1 and c.str() == b"iolog"
        f = ("H", c.str(), c.str(), c.str(), c.varint(), c.varint(), c.str(),
             c.varint(), c.str())
    elif kind == "T":
        devs = []
        for _ in range(c.varint()):
            d = [c.varint(), c.str(), c.varint(), c.varint(), c.varint(),
                 c.varint()]
            d.append([(c.str(), c.str()) for _ in range(c.varint())])
            devs.append(tuple(d))
        f = ("T", devs)
    else:
        clock = [c.varint() for _ in range(7)]
        devs = []
        for _ in range(ndev):
            if kind == "K":
                devs.append(c.fields())
            else:
                st = c.varint()
                devs.append((st, None) if st == 1 else (st, c.fields()))
        f = (kind, clock, devs) + ((clock[2] - prev_mono,) if kind == "S" else ())
    assert c.i == len(body), "trailing bytes"
    return f


def gzip_members(data):
    """Yield (uncompressed bytes) per member, parsing headers by RFC 1952."""
    pos = 0
    while pos < len(data):
        assert data[pos:pos + 3] == b"\x1f\x8b\x08", "gzip magic at %d" % pos
        flg = data[pos + 3]
        i = pos + 10
        if flg & 4:
            i += 2 + struct.unpack("<H", data[i:i + 2])[0]
        for bit in (8, 16):
            if flg & bit:
                i = data.index(b"\0", i) + 1
        if flg & 2:
            i += 2
        d = zlib.decompressobj(-15)
        out = d.decompress(data[i:])
        assert d.eof, "member without end of stream"
        tail = d.unused_data
        crc, isize = struct.unpack("<II", tail[:8])
        assert crc == zlib.crc32(out) and isize == len(out) & 0xffffffff
        pos = len(data) - len(tail) + 8
        yield out


def py_decode(data):
    """Every frame of a clean log, as tuples."""
    frames = []
    for raw in gzip_members(data):
        i, ndev, mono = 0, 0, 0
        while i < len(raw):
            c = Cursor(raw)
            c.i = i
            n = c.varint()
            body = raw[c.i:c.i + n]
            crc = struct.unpack("<I", raw[c.i + n:c.i + n + 4])[0]
            assert crc == zlib.crc32(body), "frame CRC"
            i = c.i + n + 4
            f = parse_body(body, ndev, mono)
            if f[0] == "T":
                ndev = len(f[1])
            if f[0] in "KS":
                mono = f[1][2]
            frames.append(f)
    return frames


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
    want_raw = b"".join(frame_bytes(f) for f in frames)
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


def py_member(r, frames, flags, level, per_frame_flush=True):
    raw = b"".join(frame_bytes(f) for f in frames)
    d = zlib.compressobj(level, zlib.DEFLATED, -15)
    out = b""
    if per_frame_flush:
        for f in frames:
            out += d.compress(frame_bytes(f))
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


def check_torn(tmp, r):
    path = os.path.join(tmp, "torn.iolog.gz")
    m1 = gen_member(r, 3, 6)
    m2 = gen_member(r, 2, 3)
    whole = py_member(r, m1, 0, 6)
    # Cut the first member after its 5th frame's flush: no final block.
    d = zlib.compressobj(6, zlib.DEFLATED, -15)
    torn = gz_header(r, 0)
    for f in m1[:5]:
        torn += d.compress(frame_bytes(f)) + d.flush(zlib.Z_SYNC_FLUSH)
    torn += d.compress(frame_bytes(m1[5]))[:3]
    open(path, "wb").write(torn + py_member(r, m2, 0, 6))
    got, rc = c_decode(path)
    dmg = [g for g in got if g.startswith("D ")]
    eq([g for g in got if not g.startswith("D ")], texts(m1[:5] + m2),
       "torn member then a good one: frames before the tear and the next member")
    eq(len(dmg), 1, "one damage report for the torn member")
    # The C writer repairs it before appending; gzip then reads it all.
    m3 = gen_member(r, 1, 2)
    p = run_cli("encode", path, stdin="\n".join(texts(m3)) + "\n")
    ok(p.returncode == 0, "C writer appends after repairing", p.stderr)
    data = open(path, "rb").read()
    eq(gzip.decompress(data), b"".join(frame_bytes(f) for f in m1[:5] + m2 + m3),
       "after the repair gzip reads every good frame and the new member")
    del whole


def main():
    if not os.access(CLI, os.X_OK):
        ok(False, "test_iolog_cli is built", CLI + " missing")
        done()
    r = random.Random(int(os.environ.get("SEED", "20261121")))
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(4):
            check_c_writer(tmp, r)
        check_c_reader(tmp, r)
        check_torn(tmp, r)
    done()


main()
