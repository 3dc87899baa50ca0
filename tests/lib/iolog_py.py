"""The iolog format (docs/iolog-format.md) read and written by Python alone
(zlib, struct): frames, gzip members, and, for damaged logs, what the
document says a reader must recover.

The encoder and decoder check the C codec byte for byte
(tests/t_iostatmon_codec.py). layout() finds where each frame's bytes are
in a log; after_damage() and after_cut() apply the rules of "Reading" to
a log damaged inside one frame, or cut at a byte, using zlib itself to
tell which frames inflate without the bytes before them.
"""
import struct
import zlib

DS_FIELDS = 24
MARKER = b"\x00\x00\xff\xff"   # the empty stored block of every flush


# ---- encoding ----

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


def mask_of(vals):
    return sum(1 << i for i, v in enumerate(vals) if v)


def packed_body(f):
    """An S tuple as the P frame of version 2 ("P — packed sample")."""
    out = b"P" + b"".join(put_varint(c) for c in f[1])
    special = [(i, d) for i, d in enumerate(f[2]) if d[0] != 0]
    out += put_varint(len(special))
    last = 0
    for i, (st, vals) in special:
        out += put_varint(i - last) + put_varint(st)
        last = i + 1
        if st == 2:
            out += put_fields(vals)
    bits = nbits = 0

    def put(v, n):
        nonlocal bits, nbits
        assert 0 <= v < 1 << n
        bits |= v << nbits
        nbits += n
    kept = [vals for st, vals in f[2] if st == 0]
    for vals in kept:
        put(1 if mask_of(vals) else 0, 1)
    moved = [vals for vals in kept if mask_of(vals)]
    prev = 0
    for vals in moved:
        if mask_of(vals) == prev:
            put(1, 1)
        else:
            prev = mask_of(vals)
            put(0, 1)
            put(prev, DS_FIELDS)
    for i in range(DS_FIELDS):
        col = [vals[i] for vals in moved if vals[i]]
        if col:
            width = max(col).bit_length()
            put(width - 1, 6)
            for v in col:
                put(v, width)
    return out + bits.to_bytes((nbits + 7) // 8, "little")


def body_of(f, version=1):
    """The body of frame tuple f in format version 1 or 2 (an S becomes a
    P in version 2)."""
    kind = f[0]
    if kind == "S" and version >= 2:
        return packed_body(f)
    if kind == "H":
        _, host, rel, mach, lb, ival, boot, created, writer = f
        return (b"H" + put_varint(version) + put_str(b"iolog") + put_str(host) +
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


def frame_bytes(f, version=1):
    body = body_of(f, version)
    return put_varint(len(body)) + body + struct.pack("<I", zlib.crc32(body))


# ---- decoding ----

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

    def packed(self, ndev):
        """The entries of a P frame after its sample header."""
        devs = [None] * ndev
        i = 0
        for _ in range(self.varint()):
            i += self.varint()
            st = self.varint()
            assert st in (1, 2) and i < ndev, "special entry"
            devs[i] = (st, None if st == 1 else self.fields())
            i += 1
        rest = self.b[self.i:]
        self.i = len(self.b)
        bits, nbits, pos = int.from_bytes(rest, "little"), 8 * len(rest), 0

        def get(n):
            nonlocal pos
            pos += n
            assert pos <= nbits, "packed bits cut short"
            return bits >> (pos - n) & ((1 << n) - 1)
        kept = [d for d in range(ndev) if devs[d] is None]
        moved = [d for d in kept if get(1)]
        masks, prev = {}, 0
        for d in moved:
            if not get(1):
                prev = get(DS_FIELDS)
            assert prev, "a moved device without fields"
            masks[d] = prev
        vals = {d: [0] * DS_FIELDS for d in kept}
        for f in range(DS_FIELDS):
            col = [d for d in moved if masks[d] >> f & 1]
            if col:
                width = get(6) + 1
                for d in col:
                    vals[d][f] = get(width)
        assert nbits - pos < 8 and bits >> pos == 0, "padding"
        for d in kept:
            devs[d] = (0, vals[d])
        return devs


def parse_body(body, ndev, prev_mono):
    c = Cursor(body)
    kind = chr(body[0])
    c.i = 1
    if kind == "H":
        assert c.varint() in (1, 2) and c.str() == b"iolog"
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
    elif kind == "P":
        clock = [c.varint() for _ in range(7)]
        f = ("S", clock, c.packed(ndev), clock[2] - prev_mono)
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


def gzip_header_len(data, pos):
    """Length of the RFC 1952 member header at pos."""
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
    return i - pos


def gzip_members(data):
    """Yield (uncompressed bytes) per member, parsing headers by RFC 1952."""
    pos = 0
    while pos < len(data):
        i = pos + gzip_header_len(data, pos)
        d = zlib.decompressobj(-15)
        out = d.decompress(data[i:])
        assert d.eof, "member without end of stream"
        tail = d.unused_data
        crc, isize = struct.unpack("<II", tail[:8])
        assert crc == zlib.crc32(out) and isize == len(out) & 0xffffffff
        pos = len(data) - len(tail) + 8
        yield out


def split_frames(raw):
    """The frames of an inflated stream: [(bytes, body)], and the bytes
    after the last whole one."""
    out, i = [], 0
    while i < len(raw):
        c = Cursor(raw)
        c.i = i
        try:
            n = c.varint()
        except IndexError:
            break
        if c.i + n + 4 > len(raw):
            break
        body = raw[c.i:c.i + n]
        assert struct.unpack("<I", raw[c.i + n:c.i + n + 4])[0] == \
            zlib.crc32(body), "frame CRC"
        out.append((raw[i:c.i + n + 4], body))
        i = c.i + n + 4
    return out, raw[i:]


def py_decode(data):
    """Every frame of a clean log, as tuples (a P frame as the S it
    holds)."""
    frames = []
    for raw in gzip_members(data):
        ndev, mono = 0, 0
        whole, rest = split_frames(raw)
        assert not rest, "frame cut short"
        for _, body in whole:
            f = parse_body(body, ndev, mono)
            if f[0] == "T":
                ndev = len(f[1])
            if f[0] in "KS":
                mono = f[1][2]
            frames.append(f)
    return frames


# ---- where the bytes are ----

class Frame:
    """One frame of a log: kind ("H", "T", "K", "S"), raw (LEN, body,
    CRC), the parsed tuple f, seq and realtime_ns for K and S; first and
    last: the compressed bytes after which inflate had put out its first
    and its last byte; start: where its compressed bytes start (after the
    flush marker before it)."""

    def __init__(self, raw, f):
        self.raw, self.f, self.kind = raw, f, f[0]
        self.seq = f[1][0] if self.kind in "KS" else None
        self.realtime = f[1][1] if self.kind in "KS" else None
        self.first = self.last = self.start = None


class Member:
    def __init__(self, start, data):
        self.start, self.data = start, data     # header, deflate data
        self.end = None                         # after the trailer
        self.frames = []


def layout(data):
    """The members of a whole log and where each frame's bytes are,
    inflating one byte at a time."""
    members, pos = [], 0
    while pos < len(data):
        m = Member(pos, pos + gzip_header_len(data, pos))
        d = zlib.decompressobj(-15)
        out, made = bytearray(), []     # made[j]: len(out) after byte j
        i = m.data
        while not d.eof:
            out += d.decompress(data[i:i + 1])
            made.append(len(out))
            i += 1
        m.end = i + 8
        whole, rest = split_frames(bytes(out))
        assert not rest
        u, ndev, mono, j = 0, 0, 0, 0
        for raw, body in whole:
            f = parse_body(body, ndev, mono)
            ndev = len(f[1]) if f[0] == "T" else ndev
            mono = f[1][2] if f[0] in "KS" else mono
            fr = Frame(raw, f)
            while made[j] <= u:
                j += 1
            fr.first = m.data + j
            while made[j] < u + len(raw):
                j += 1
            fr.last = m.data + j
            p = data.rfind(MARKER, m.data, fr.first)
            fr.start = m.data if not m.frames or p < 0 else p + len(MARKER)
            m.frames.append(fr)
            u += len(raw)
        members.append(m)
        pos = m.end
    return members


def run_length(data, m, j):
    """How many frames from m.frames[j] on raw inflate yields whole,
    starting with an empty window at its start: 0 when frame j refers to
    bytes before it."""
    d, out, want, n, pos = zlib.decompressobj(-15), b"", b"", 0, m.frames[j].start
    for fr in m.frames[j:]:
        want += fr.raw
        try:
            out += d.decompress(data[pos:fr.last + 1])
        except zlib.error:
            break
        pos = fr.last + 1
        if out[:len(want)] != want:
            break
        n += 1
    return n


# ---- what a reader must recover ----

class Outcome:
    """delivered: the frames a reader delivers, in order, as (member
    index, frame index); samples: those of them that are samples (S with
    a known interval start); damage: [(offset, resumed, records lost or
    None)]; note: the offset of a truncation note, or None."""

    def __init__(self):
        self.delivered, self.samples, self.damage, self.note = [], [], [], None


class _Member:
    """A reader's state in one member, by the rules of Reading."""

    def __init__(self, out, mi):
        self.out, self.mi = out, mi
        self.table = self.base = False
        self.last_seq = 0
        self.lost = None        # [offset, resume frame or None]

    def fail(self, at):
        if self.lost is None:
            self.lost = [at, None]
        else:
            self.lost[1] = None
        self.base = False

    def frame(self, m, i):
        fr = m.frames[i]
        if fr.kind == "H":
            self.out.delivered.append((self.mi, i))
            return
        if fr.kind == "T":
            self.table, self.base = True, False
        elif not self.table:
            self.fail(fr.start)
            return
        elif fr.kind == "S" and not self.base and self.lost is None:
            self.fail(fr.start)         # a sample before a keyframe
            return
        if self.lost is not None and self.lost[1] is None:
            self.lost[1] = i
        if fr.kind == "S" and not self.base:
            self.base = True    # a restart point: its clock only
            return
        if fr.kind in "KS":
            self.base = True
        if self.lost is not None:
            at, r = self.lost
            rf = m.frames[r]
            lost = rf.seq - self.last_seq if rf.kind in "KS" and \
                rf.seq >= self.last_seq else None
            self.out.damage.append((at, rf.start, lost))
            self.lost = None
        if fr.kind in "KS":
            self.last_seq = fr.seq
        self.out.delivered.append((self.mi, i))
        if fr.kind == "S":
            self.out.samples.append(fr)

    def end(self, resumed):
        if self.lost is not None:
            self.out.damage.append((self.lost[0], resumed, None))
            self.lost = None


def _member_whole(out, m, mi, upto=None):
    st = _Member(out, mi)
    for i in range(len(m.frames) if upto is None else upto):
        st.frame(m, i)
    return st


def after_damage(data, members, mi, k):
    """What a reader recovers from data (members: layout() of the undamaged
    log) damaged inside frame k of member mi, between its first and last
    byte: everything before it; then, in that member, runs of frames that
    inflate from a flush point without the bytes before it (zlib says
    which), read by the frame rules (a table first, a sample's interval
    starting at the K or S read just before it); then the members after.
    One damage per damaged region, reported where reading resumes."""
    out = Outcome()
    for m in members[:mi]:
        _member_whole(out, m, members.index(m))
    m = members[mi]
    st = _member_whole(out, m, mi, k)
    if k == 0:      # the header is lost: the member is skipped
        st.lost = [m.frames[0].start, None]
    else:
        st.fail(m.frames[k].start)
        j = k + 1
        while j < len(m.frames):
            n = run_length(data, m, j)
            if n == 0:
                j += 1
                continue
            for i in range(j, j + n):
                st.frame(m, i)
            if j + n < len(m.frames):
                st.fail(m.frames[j + n].start)
            j += n + 1
    st.end(members[mi + 1].start if mi + 1 < len(members) else None)
    for m in members[mi + 1:]:
        _member_whole(out, m, members.index(m))
    return out


def after_cut(data, members, c):
    """What a reader recovers from data[:c]: the members before the cut,
    the frames inflate gets whole out of the one cut; a note when that
    stream ends right after a whole frame (or the cut is in the trailer),
    else damage where the frame cut short starts."""
    out = Outcome()
    for mi, m in enumerate(members):
        if c >= m.end:
            _member_whole(out, m, mi)
            continue
        if c <= m.start:
            break
        if c < m.data:
            out.damage.append((m.start, None, None))
            break
        try:
            raw = zlib.decompressobj(-15).decompress(data[m.data:c])
        except zlib.error:
            raise AssertionError("a cut log inflates as far as it goes")
        whole, rest = split_frames(raw)
        _member_whole(out, m, mi, len(whole))
        if len(whole) == len(m.frames):
            trailer = m.end - 8
            out.note = trailer if c > trailer else c
        elif rest or not whole:
            out.damage.append((m.frames[len(whole)].start, None, None))
        else:
            out.note = c
        break
    return out
