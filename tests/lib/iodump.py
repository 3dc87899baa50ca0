"""iodump: the samples of logs as `iostatmon dump` prints them, and of a
database's views, in one form, so that a test compares the two.

    from iodump import dump_rows, view_rows
    eq(view_rows(db, "v_io"), dump_rows(mon, [log]))

Rows are (host, device, t_ms, dur_ms, rd_ios, wr_ios, rd_bytes,
wr_bytes), sorted; view_rows is None when the view does not exist.
"""
import contextlib
import csv
import io
import sqlite3
import subprocess
from decimal import Decimal


def _ms(x):
    return int(round(Decimal(str(x)) * 1000))


def dump_rows(mon, logs):
    rows = []
    for log in logs:
        out = subprocess.run([mon, "dump", log], capture_output=True,
                             text=True, check=True).stdout
        for r in csv.DictReader(io.StringIO(out)):
            rows.append((r["host"], r["device"], _ms(r["t"]),
                         _ms(r["seconds"]), int(r["rd_ios"]),
                         int(r["wr_ios"]), int(r["rd_sectors"]) * 512,
                         int(r["wr_sectors"]) * 512))
    return sorted(rows)


def view_rows(db, view):
    with contextlib.closing(sqlite3.connect(db)) as con:
        if not con.execute("SELECT 1 FROM sqlite_master WHERE name = ?",
                           (view,)).fetchall():
            return None
        return sorted((h, d, _ms(t), _ms(s), ri, wi, rb, wb)
                      for h, d, t, s, ri, wi, rb, wb in con.execute(
                          "SELECT host, device, t, seconds, rd_ios, "
                          "wr_ios, rd_bytes, wr_bytes FROM %s" % view))
