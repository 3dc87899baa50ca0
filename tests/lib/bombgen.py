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
import subprocess

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
