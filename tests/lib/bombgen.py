"""bombgen: small archives that expand to gigabytes, made in a moment.

A tar stream is header + member data + zeros; its compressed form here is
the compression of the part before the zeros followed by one compressed
block of 64 MiB of zeros repeated, and the rest: zstd frames, xz streams
and gzip members may be concatenated, and every reader takes the whole as
one stream. So a 2 GiB bomb costs the compression of 64 MiB once.

    import bombgen
    data = bombgen.tar_bomb(log_bytes, 2 << 30, "zst")   # bytes
    bombgen.tar_bomb(log_bytes, 1 << 30, "gz", fill=0xAB)  # not zeros
    bombgen.tar_bombs([("a.log", log, 1 << 30, 0xAB), ...], "xz")

fill: the byte the member goes on with after the log (0: zeros, which
iocensus holds as a count; anything else is data it must cap).
"""
import gzip
import lzma
import struct
import subprocess
import zlib

BLOCK = 64 << 20


def _compress(kind, data):
    if kind == "zst":
        return subprocess.run(["zstd", "-q", "-c"], input=data,
                              capture_output=True, check=True).stdout
    if kind == "xz":
        return lzma.compress(data, preset=0)
    if kind == "gz":
        return gzip.compress(data, 1)
    raise ValueError(kind)


def _ustar_header(name, size):
    h = bytearray(512)
    h[0:len(name)] = name.encode()
    h[100:108] = b"0000644\0"
    h[108:116] = b"0000000\0"
    h[116:124] = b"0000000\0"
    h[124:136] = b"%011o\0" % size
    h[136:148] = b"00000000000\0"
    h[148:156] = b" " * 8
    h[156:157] = b"0"
    h[257:263] = b"ustar\0"
    h[263:265] = b"00"
    h[148:156] = b"%06o\0 " % sum(h)
    return bytes(h)


def _repeat(kind, byte, n):
    """The compression of n bytes `byte`, as concatenated pieces."""
    out = []
    if n >= BLOCK:
        block = _compress(kind, bytes([byte]) * BLOCK)
        out.append(block * (n // BLOCK))
    if n % BLOCK:
        out.append(_compress(kind, bytes([byte]) * (n % BLOCK)))
    return b"".join(out)


def tar_bomb(log, extra, kind, name="h000.iolog.gz", fill=0):
    """A tar of one member: log, then `extra` bytes `fill`; compressed
    with kind ("zst", "xz" or "gz")."""
    return tar_bombs([(name, log, extra, fill)], kind)


def tar_bombs(members, kind):
    """A tar of members (name, data, extra, fill): each is data followed
    by `extra` bytes `fill`."""
    parts = []
    for name, data, extra, fill in members:
        size = len(data) + extra
        pad = (-size) % 512
        parts.append(_compress(kind, _ustar_header(name, size) + data))
        parts.append(_repeat(kind, fill, extra))
        parts.append(_compress(kind, bytes(pad)))
    parts.append(_compress(kind, bytes(1024)))
    return b"".join(parts)


# ---- decoders told to hold more than they need ----
#
# The dictionary (xz, lzma, lzip) or window (zstd) a stream declares is
# what its decoder allocates, and it fills as output is produced. Data
# compressed with a small dictionary decodes the same under a larger
# one, so a small stream can declare any size: the header is all that
# changes (and its CRC32).

def lzma2_prop(size):
    """The LZMA2 dictionary property byte of a size 2^n or 3 * 2^(n-1)
    (the xz format, 5.3.1)."""
    for p in range(41):
        if (2 | (p & 1)) << (p // 2 + 11) == size:
            return p
    raise ValueError(size)


def _vli(v):
    out = bytearray()
    while v >= 0x80:
        out.append(v & 0x7f | 0x80)
        v >>= 7
    return bytes(out + bytes([v]))


def _lzma2(data, first):
    """data as LZMA2 chunks without the end byte; unless first, the
    dictionary is kept (a chunk that resets it is told not to), so that
    pieces made apart follow each other in one block."""
    raw = bytearray(lzma.compress(data, format=lzma.FORMAT_RAW, filters=[
        {"id": lzma.FILTER_LZMA2, "preset": 0}]))
    assert raw[-1] == 0
    del raw[-1]
    if not first:
        raw[0] = 0x02 if raw[0] == 0x01 else 0xc0 | (raw[0] & 0x1f)
    return bytes(raw)


def xz_block(pieces, dict_size):
    """One xz stream of one block (no check) whose header declares
    dict_size, holding pieces: (data, times) repeated in order. Its
    output is one run, so its decoder fills the dictionary up to
    min(dict_size, output)."""
    chunks, usize = [], 0
    for i, (data, times) in enumerate(pieces):
        first = _lzma2(data, i == 0)
        rest = _lzma2(data, False) if times > 1 else b""
        chunks.append(first + rest * (times - 1))
        usize += len(data) * times
    data = b"".join(chunks) + b"\x00"
    head = bytes([2, 0x00, 0x21, 0x01, lzma2_prop(dict_size), 0, 0, 0])
    head += struct.pack("<I", zlib.crc32(head))
    unpadded = len(head) + len(data)
    block = head + data + bytes(-unpadded % 4)
    index = b"\x00" + _vli(1) + _vli(unpadded) + _vli(usize)
    index += bytes(-len(index) % 4)
    index += struct.pack("<I", zlib.crc32(index))
    back = struct.pack("<I", len(index) // 4 - 1) + b"\x00\x00"
    flags = b"\x00\x00"
    return (b"\xfd7zXZ\x00" + flags + struct.pack("<I", zlib.crc32(flags)) +
            block + index + struct.pack("<I", zlib.crc32(back)) + back + b"YZ")


def tar_xz_dict(members, dict_size):
    """A tar of members (name, data, zeros): data then `zeros` zero bytes
    (a multiple of BLOCK, or less than it), as one xz block declaring
    dict_size."""
    pieces = []
    for name, data, zeros in members:
        size = len(data) + zeros
        pieces.append((_ustar_header(name, size) + data, 1))
        if zeros >= BLOCK:
            pieces.append((bytes(BLOCK), zeros // BLOCK))
        if zeros % BLOCK:
            pieces.append((bytes(zeros % BLOCK), 1))
        pieces.append((bytes(-size % 512), 1))
    pieces.append((bytes(1024), 1))
    return xz_block([p for p in pieces if p[0]], dict_size)


def lzma_alone_with_dict(data, dict_size):
    """data as a .lzma (lzma_alone) file whose header declares
    dict_size."""
    raw = bytearray(lzma.compress(data, format=lzma.FORMAT_ALONE, preset=0))
    raw[1:5] = struct.pack("<I", dict_size)
    return bytes(raw)


def lzip_member(data, dict_byte):
    """data as one lzip member (version 1) whose coded dictionary size is
    dict_byte: "LZIP", 1, dict_byte, LZMA data with its end marker, then
    CRC32, data size, member size."""
    body = lzma.compress(data, format=lzma.FORMAT_RAW, filters=[{
        "id": lzma.FILTER_LZMA1, "dict_size": 1 << 16, "lc": 3, "lp": 0,
        "pb": 2}])
    head = b"LZIP\x01" + bytes([dict_byte])
    size = len(head) + len(body) + 20
    return head + body + struct.pack("<IQQ", zlib.crc32(data), len(data),
                                     size)


def zstd_with_window(data, window_log):
    """data as one zstd frame (no content size) whose window descriptor
    declares 2^window_log bytes."""
    raw = bytearray(subprocess.run(["zstd", "-q", "-c", "--no-check"],
                                   input=data, capture_output=True,
                                   check=True).stdout)
    fhd = raw[4]
    assert fhd >> 6 == 0 and not fhd & 0x20, "window descriptor, no size"
    raw[5] = (window_log - 10) << 3
    return bytes(raw)
