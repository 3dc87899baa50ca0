"""capdemo: the census of the capacity-planning example of docs/analyses.md.

Two file systems scanned every Monday from 2026-07-06 to 2027-03-29:
"proj" (500 TiB, 5% reserved for root) fills at about 1.2 TiB a week,
"home" (100 TiB) at a tenth of that; on "proj" the projects climate and
genomics have byte limits, astro an inode limit, scratch none. A scan was
repeated on 2027-02-15 (a rescan, two hours later). Deterministic.

    import capdemo
    db = capdemo.build(tmpdir, build)
"""
import calendar
import random
import time

import snapgen

DAY = 86400
TIB = 1 << 40
GIB = 1 << 30
START = calendar.timegm(time.strptime("2026-07-06", "%Y-%m-%d")) + 2 * 3600
WEEKS = 39

# name: (TiB at the start, TiB per week, files at the start, files/week)
PROJECTS = {
    "proj": {"climate": (120, 0.55, 40_000_000, 600_000),
             "genomics": (60, 0.45, 90_000_000, 2_500_000),
             "astro": (40, 0.12, 20_000_000, 900_000),
             "scratch": (30, 0.08, 5_000_000, 50_000)},
    "home": {"home": (38, 0.12, 60_000_000, 150_000)},
}
LIMITS = {"proj": {"climate": (300 * TIB, None),
                   "genomics": (200 * TIB, None),
                   "astro": (None, 60_000_000)},
          "home": {}}
SIZE = {"proj": 500 * TIB, "home": 100 * TIB}
INODES = {"proj": 400_000_000, "home": 200_000_000}


def _snapshot(fs, t, week, rng):
    totals, files = {}, 0
    for name, (b0, rate, f0, frate) in PROJECTS[fs].items():
        b = int((b0 + rate * week * rng.uniform(0.93, 1.07)) * TIB)
        f = int(f0 + frate * week * rng.uniform(0.9, 1.1))
        totals[name] = (f, b, b + f * 2048, f + f // 40)
        files += f
    used = sum(v[2] for v in totals.values()) + 2 * TIB
    size = SIZE[fs]
    iused = sum(v[3] for v in totals.values())
    cap = (size, size - used, size - used - size // 20, INODES[fs],
           INODES[fs] - iused)
    return snapgen.Snapshot(
        fs, t, totals=(files, sum(v[1] for v in totals.values()),
                       sum(v[2] for v in totals.values())),
        project_totals=totals, capacity=cap, limits=LIMITS[fs])


def build(tmp, build_dir):
    db = snapgen.new_db(tmp, build_dir)
    rng = random.Random(9)
    for week in range(WEEKS):
        for fs in ("proj", "home"):
            t = START + week * 7 * DAY + (3600 if fs == "home" else 0)
            snapgen.insert(db, _snapshot(fs, t, week, rng))
            if fs == "proj" and week == 32:
                snapgen.insert(db, _snapshot(fs, t + 7200, week, rng))
    return db
