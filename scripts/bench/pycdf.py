#!/usr/bin/env python3
"""pycdf.py: the benchmark's straightforward baseline for `iocensus cdf`.

    pycdf.py [--interval SEC] [--json] RAW...

Reads raw diskstats captures (a "T <unix-seconds>[.fraction]" line, then
the /proc/diskstats lines of that instant, repeated; docs of `iostatmon
import`), one host per file (the host is the file name without .raw), and
computes the throughput CDF summary over one-minute intervals the way
iocensus defines it (the "Minutes" rules shared by ingest and the analyses),
with the Python 3 standard library only: no pandas, no numpy.

  samples  per device, consecutive blocks: deltas of the counters; a 64-bit
           counter that went down or a changed major:minor is a reset (no
           sample); t_ms = round(T / 1 ms), dur_ms = round(dT / 1 ms).
  minutes  a sample with 0 < dur_ms <= 2 intervals is bridged to the end of
           the device's previous sample when they are within 1 s, and its
           read and write bytes are split over the minutes it overlaps
           (minute k gets floor(D*C_k/L) - floor(D*C_{k-1}/L)); a sample
           starting more than 1 s before that end overlaps it and is not
           bridged; a device's
           minute is valid when bridged samples cover all of it; a device is
           expected from its first interval start to the latest interval end
           of all the data, or only to its own last one when its host went
           on logging without it for longer than an interval (plus 1 s):
           a host that stops is missing, not idle, to the end of the data.
  system   a minute is complete when every expected device is valid.
  summary  n complete minutes of the calendar window, mean and peak of
           X = bytes / 60 s in MiB/s, and the share of complete minutes
           below 5/10/25/33/50/75 % of the observed peak (strict, exact in
           integers: b * 10000 < f * 100 * peak_bytes).

Prints the summary as text, or one JSON object with --json.
"""
import argparse
import json
import os
import sys

MINUTE = 60000
FRACTIONS = (5, 10, 25, 33, 50, 75)
# Field indexes after the name: rd_ios rd_merges rd_sectors rd_ms wr_ios
# wr_merges wr_sectors wr_ms in_flight io_ms weighted_ms dc_ios dc_merges
# dc_sectors dc_ms fl_ios fl_ms. The ms fields and in_flight are 32 bits
# and may wrap; every other counter is 64 bits and never goes down.
WIDE = (0, 1, 2, 4, 5, 6, 11, 12, 13, 15)
RD_SEC, WR_SEC = 2, 6


def parse_t(text):
    """'T 1264204800.035806522' -> ns, exactly."""
    sec, _, frac = text.partition(".")
    return int(sec) * 1000000000 + int((frac + "000000000")[:9])


class Device:
    __slots__ = ("ident", "prev", "prev_t", "block", "p", "first", "last",
                 "cur", "cov", "rd", "wr")

    def __init__(self):
        self.ident = None
        self.prev = None
        self.prev_t = None
        self.block = -2
        self.p = None            # end of the previous sample, ms
        self.first = self.last = None
        self.cur = None          # the minute being filled
        self.cov = self.rd = self.wr = 0


class Minutes:
    """Per-minute sums over devices: valid count and bytes."""

    def __init__(self):
        self.valid = {}
        self.bytes = {}

    def close(self, d):
        if d.cur is not None and d.cov == MINUTE:
            m = d.cur
            self.valid[m] = self.valid.get(m, 0) + 1
            self.bytes[m] = self.bytes.get(m, 0) + d.rd + d.wr
        d.cur = None
        d.cov = d.rd = d.wr = 0


def split(mins, d, start, end, rd, wr):
    """Spread rd and wr bytes of [start, end) over the minutes it overlaps."""
    length = end - start
    c_prev = 0
    rd_prev = wr_prev = 0
    m = start // MINUTE
    while m * MINUTE < end:
        lo = max(start, m * MINUTE)
        hi = min(end, (m + 1) * MINUTE)
        c = c_prev + hi - lo
        rd_k = rd * c // length
        wr_k = wr * c // length
        if d.cur != m:
            mins.close(d)
            d.cur = m
        d.cov += hi - lo
        d.rd += rd_k - rd_prev
        d.wr += wr_k - wr_prev
        c_prev, rd_prev, wr_prev = c, rd_k, wr_k
        m += 1


def sample(mins, d, t_ns, vals, interval_ms):
    """One interval of device d ending at t_ns (vals: the new counters)."""
    prev = d.prev
    for f in WIDE:
        if vals[f] < prev[f]:
            return                              # reset: no sample
    t_ms = (t_ns + 500000) // 1000000
    dur = (t_ns - d.prev_t + 500000) // 1000000
    start = t_ms - dur
    if d.first is None or start < d.first:
        d.first = start
    if d.last is None or t_ms > d.last:
        d.last = t_ms
    p, d.p = d.p, t_ms
    if dur <= 0 or dur > 2 * interval_ms:
        return                                  # a gap: never bridged
    if p is not None and abs(start - p) <= 1000:
        start = p
    elif p is not None and start < p:
        return                                  # overlaps the previous one
    if start >= t_ms:
        return
    split(mins, d, start, t_ms, (vals[RD_SEC] - prev[RD_SEC]) * 512,
          (vals[WR_SEC] - prev[WR_SEC]) * 512)


def read_capture(path, host, mins, devices, interval_ms):
    block = -1
    t_ns = None
    with open(path, encoding="ascii", errors="replace") as f:
        for line in f:
            if line.startswith("T "):
                t_ns = parse_t(line[2:].strip())
                block += 1
                continue
            parts = line.split()
            if t_ns is None or len(parts) < 14:
                continue
            key = (host, parts[2])
            d = devices.get(key)
            if d is None:
                d = devices[key] = Device()
            vals = [int(x) for x in parts[3:]]
            ident = (parts[0], parts[1], len(vals))
            if d.block == block - 1 and d.ident == ident:
                sample(mins, d, t_ns, vals, interval_ms)
            d.ident, d.prev, d.prev_t, d.block = ident, vals, t_ns, block


def expected_end(devices, interval_ms):
    """{key: end ms}: the latest end of all the data, or the device's own
    last end when its host's last one came more than an interval (+ 1 s)
    later."""
    seen = {k: d.last for k, d in devices.items() if d.first is not None}
    if not seen:
        return {}
    g = max(seen.values())
    host = {}
    for (h, _), last in seen.items():
        host[h] = max(host.get(h, last), last)
    return {k: g if last + interval_ms + 1000 >= host[k[0]] else last
            for k, last in seen.items()}


def summary(mins, devices, interval_ms):
    expected = {}
    lo = hi = None
    end = expected_end(devices, interval_ms)
    for k, d in devices.items():
        mins.close(d)
        if d.first is None:
            continue
        a, b = d.first // MINUTE, (end[k] - 1) // MINUTE
        lo = a if lo is None else min(lo, a)
        hi = b if hi is None else max(hi, b)
        for m in range(a, b + 1):
            expected[m] = expected.get(m, 0) + 1
    xs = [mins.bytes[m] for m in sorted(expected)
          if mins.valid.get(m, 0) == expected[m]]
    calendar = hi - lo + 1 if lo is not None else 0
    out = {"n": len(xs), "calendar_minutes": calendar,
           "first_minute": lo * 60 if lo is not None else None}
    if not xs:
        return out
    peak = max(xs)
    peak_m = min(m for m in expected
                 if mins.valid.get(m, 0) == expected[m] and mins.bytes[m] == peak)
    out.update({
        "mean_mib_s": sum(xs) / len(xs) / 60 / 1048576,
        "peak_mib_s": peak / 60 / 1048576,
        "peak_t": peak_m * 60,
        "total_bytes": sum(xs),
        "below": {f: sum(1 for x in xs if x * 10000 < f * 100 * peak) / len(xs)
                  for f in FRACTIONS},
    })
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--interval", type=float, default=60)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("raw", nargs="+")
    a = ap.parse_args()
    mins, devices = Minutes(), {}
    for path in a.raw:
        host = os.path.basename(path)
        if host.endswith(".raw"):
            host = host[:-4]
        read_capture(path, host, mins, devices, int(a.interval * 1000))
    s = summary(mins, devices, int(a.interval * 1000))
    if a.json:
        json.dump(s, sys.stdout, sort_keys=True)
        print()
        return
    print("devices %d, complete minutes %d of %d calendar minutes"
          % (len(devices), s["n"], s["calendar_minutes"]))
    if s["n"]:
        print("mean %.6f MiB/s, peak %.6f MiB/s at %d"
              % (s["mean_mib_s"], s["peak_mib_s"], s["peak_t"]))
        print("below x% of peak: " + ", ".join(
            "%d%%: %.6f" % (f, s["below"][f]) for f in FRACTIONS))


if __name__ == "__main__":
    main()
