#!/usr/bin/env python3
"""cdfcheck.py: do two throughput-CDF summaries agree?

    cdfcheck.py A.json B.json

Each file is either `iocensus cdf --format json` output or `pycdf.py --json`
output. Compares the complete minutes, calendar minutes, peak minute and
bytes moved exactly, the mean and peak to 1e-9 relative, and the share of
time below 5/10/25/33/50/75 % of peak exactly. Prints "agree: ..." or the
differences; exit status 0 when they agree, 1 when not, 2 when a file
cannot be read.
"""
import json
import sys

FIELDS_EXACT = ("n", "calendar_minutes", "peak_t", "total_bytes")
FIELDS_REAL = ("mean_mib_s", "peak_mib_s")


def load(path):
    """The summary as pycdf.py writes it, from either kind of file."""
    with open(path) as f:
        doc = json.load(f)
    if "tables" not in doc:
        doc["below"] = {int(k): v for k, v in doc.get("below", {}).items()}
        return doc
    summ = doc["tables"]["summary"]["rows"]
    if not summ:
        return {"n": 0}
    out = {k: summ[0].get(k) for k in FIELDS_EXACT + FIELDS_REAL}
    out["below"] = {int(round(r["f_pct"])): r["share"]
                    for r in doc["tables"]["below_peak"]["rows"]}
    return out


def close(a, b):
    if a is None or b is None:
        return a is b
    return abs(a - b) <= 1e-9 * max(abs(a), abs(b), 1e-300)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: cdfcheck.py A.json B.json")
    try:
        a, b = load(sys.argv[1]), load(sys.argv[2])
    except (OSError, ValueError, KeyError) as e:
        print("cdfcheck: %s" % e, file=sys.stderr)
        return 2
    bad = ["%s: %r vs %r" % (k, a.get(k), b.get(k))
           for k in FIELDS_EXACT if a.get(k) != b.get(k)]
    bad += ["%s: %r vs %r" % (k, a.get(k), b.get(k))
            for k in FIELDS_REAL if not close(a.get(k), b.get(k))]
    for f in sorted(set(a.get("below", {})) | set(b.get("below", {}))):
        x, y = a.get("below", {}).get(f), b.get("below", {}).get(f)
        if not close(x, y):
            bad.append("below %d%%: %r vs %r" % (f, x, y))
    if bad:
        print("DIFFER: " + "; ".join(bad))
        return 1
    print("agree: n %s of %s calendar minutes, mean %.3f MiB/s, peak %.3f "
          "MiB/s, below 33%% of peak %.4f" % (
              a.get("n"), a.get("calendar_minutes"), a.get("mean_mib_s") or 0,
              a.get("peak_mib_s") or 0, a.get("below", {}).get(33) or 0))
    return 0


if __name__ == "__main__":
    sys.exit(main())
