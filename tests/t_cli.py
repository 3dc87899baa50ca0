#!/usr/bin/env python3
"""t_cli: the iocensus command line itself.

- Every diagnostic line starts with "iocensus COMMAND: " (getopt_long's
  own messages would say "idle: unrecognized option"), and a usage error
  exits 2 with nothing on stdout.
- An option that a command does not honour is refused (exit 2), not
  ignored: `report` writes files, so --format and --table are refused.
- `COMMAND --help` lists exactly the options the command honours, short
  and long forms together ("-j, --threads N"). The lists below are
  written out from the man page, not from the program. It describes
  them as that command reads them: no help text names another command
  (the words below that are ordinary words, or the report's own
  analyses, aside), and --by reads as each of diff, files and usage
  takes it.
- A window longer than 200 years of minutes is refused (exit 2), not
  loaded into exhausted memory.
"""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from tap import ok, eq, done                     # noqa: E402

IOCENSUS = os.path.join(os.environ["BUILD"], "iocensus")
# a time as lib/epoch.h takes it
TIME_WANT = ("a UTC time in the years 0 to 9999: unix seconds (-62167219200"
             " to 253402300799) or a date (YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS])")

PRINT = ["--db", "--format", "--table", "--out", "-o, --columns", "--wide",
         "-h, --help"]
WINDOW = ["--from", "--to", "--host"]
HONOURED = {
    "ingest": PRINT + ["-j, --threads", "--now", "--progress", "--quiet",
                       "--db-group", "--lock", "--lock-wait"],
    "snapshots": PRINT + ["--fs"],
    "forget": PRINT + ["--force"],
    "prune": PRINT + ["--fs", "--keep-daily", "--keep-weekly",
                      "--keep-monthly", "--keep-quarterly", "--dry-run",
                      "--lock", "--lock-wait"],
    "diff": PRINT + ["--by", "--depth", "--top", "--from", "--to",
                     "--quarter"],
    "growth": PRINT + ["--fs", "--project", "--target", "--metric"],
    "files": PRINT + ["--fs", "--snapshot", "--by", "--project",
                      "--exclude-project"],
    "usage": PRINT + ["--fs", "--by", "--top"],
    "capacity": PRINT + ["--fs", "--from", "--to", "--quarter", "--top"],
    "cold": PRINT + ["--fs", "--from", "--to", "--quarter", "--days",
                     "--metric", "--by", "--top"],
    "throughput": PRINT + WINDOW + ["--every", "--annotate"],
    "cdf": PRINT + WINDOW + ["--peak"],
    "idle": PRINT + WINDOW + ["--peak", "--threshold", "--strict",
                              "--buckets"],
    "burst": PRINT + WINDOW + ["--burst-c", "--host-peak"],
    "devices": PRINT + WINDOW,
    "health": PRINT + WINDOW + ["--factor"],
    "metrics": ["--db", "-h, --help", "--out", "--now", "--if-configured",
                "--top"],
    "report": ["--db", "-h, --help"] + WINDOW + ["--quarter",
        "--every", "--annotate", "--peak", "--threshold", "--burst-c",
        "--host-peak", "--target", "--out", "--bundle", "--title",
        "--no-paths", "--fs", "--project", "--horizon", "--top"],
}


def run(*args):
    p = subprocess.run([IOCENSUS] + list(args), capture_output=True,
                       text=True)
    return p.returncode, p.stdout, p.stderr


def listed(help_text):
    """The option names of a --help: "-j, --threads N" gives
    "-j, --threads"."""
    out = []
    for line in help_text.splitlines():
        words = line.split()
        if not words or not words[0].startswith("-"):
            continue
        out.append(" ".join(words[:2]) if words[0].endswith(",")
                   else words[0])
    return out


# (command, option, word): where another command's name is a word of an
# option's help, not that command.
WORDS = {("prune", "--fs", "snapshots"), ("growth", "--target", "capacity"),
         ("growth", "--metric", "files"), ("report", "--threshold", "idle"),
         ("report", "--burst-c", "burst"), ("report", "--target", "growth"),
         ("report", "--target", "capacity")}
BY = {"diff": "group by project, user, group or dir (default project)",
      "files": "distribution by size, atime, mtime or ctime (default size)",
      "usage": "rows per project, user or group (default project)"}


def check_own_help():
    for cmd in HONOURED:
        rc, out, err = run(cmd, "--help")
        named = []
        for line in out.splitlines()[2:]:
            words = line.split()
            if not words:
                continue
            opt = words[1] if words[0].endswith(",") else words[0]
            for other in HONOURED:
                if other != cmd and re.search(r"\b%s\b" % other, line) \
                        and (cmd, opt, other) not in WORDS:
                    named.append((opt, other))
        eq(named, [], cmd + " --help names no other command")
        if cmd in BY:
            by = [l for l in out.splitlines() if "--by KEY" in l]
            eq([" ".join(l.split()[2:]) for l in by], [BY[cmd]],
               cmd + " --help: --by as %s reads it" % cmd)


def check_help(tmp):
    for cmd, want in HONOURED.items():
        rc, out, err = run(cmd, "--help")
        eq((rc, err), (0, ""), cmd + " --help: exit 0")
        eq(sorted(listed(out)), sorted(want),
           cmd + " --help: exactly the options it honours")
        rc, out2, _ = run(cmd, "-h")
        eq(out2, out, cmd + " -h is --help")
    rc, out, err = run("ingest", "--db", os.path.join(tmp, "j.db"), "-j", "2")
    eq(rc, 0, "ingest -j 2: accepted", )


def usage_error(args, want, name):
    """args fail with exit 2, nothing on stdout, every stderr line starting
    with "iocensus CMD: ", the first being want."""
    rc, out, err = run(*args)
    lines = err.splitlines()
    prefix = "iocensus %s: " % args[0]
    eq((rc, out), (2, ""), name + ": exit 2, no output")
    ok(lines and all(s.startswith(prefix) for s in lines),
       name + ": every line starts with '%s'" % prefix.strip(), err)
    eq(lines[:1], [prefix + want], name + ": the message")


def check_prefix(tmp):
    db = os.path.join(tmp, "none.db")
    cases = [
        (("idle", "--bogus"), "unknown option '--bogus'"),
        (("cdf", "--bogus=3"), "unknown option '--bogus'"),
        (("throughput", "-x"), "unknown option '-x'"),
        (("burst", "--host"), "--host needs a value (GLOB)"),
        (("ingest", "-j"), "--threads needs a value (N)"),
        (("idle", "--strict=1"), "--strict takes no value"),
        (("idle", "--th", "3"),
         "ambiguous option '--th' (--threshold, --threads)"),
        (("forget",), "expected snapshot ids: ID..."),
        (("forget", "0"), "0: expected a snapshot id"),
        (("prune", "--keep-daily", "x"),
         "--keep-daily x: expected a whole number from 0 to 1000000"),
        (("prune", "--dry-run=1"), "--dry-run takes no value"),
        (("diff", "--dry-run", "1", "2"),
         "--dry-run does not apply to this command"),
        (("snapshots", "--every", "1h"),
         "--every does not apply to this command"),
        (("cdf", "-j", "2"), "--threads does not apply to this command"),
        (("diff", "--by", "project", "1"), "expected snapshot ids in pairs: A B [A2 B2 ...]"),
        (("files", "--snapshot", "x"), "--snapshot x: expected a snapshot id"),
        (("devices", "--from", "2010-02-30"),
         "--from 2010-02-30: expected " + TIME_WANT),
        # Unix seconds past 9999: no window length can overflow.
        (("throughput", "--to", "253402300800"),
         "--to 253402300800: expected " + TIME_WANT),
        (("growth", "--target", "-1"),
         "--target -1: expected a count (1e9, 2M), a size (50TiB, 50TB)"
         " or a percentage in (0%, 100%]"),
        (("growth", "--target", "120%"),
         "--target 120%: expected a count (1e9, 2M), a size (50TiB, 50TB)"
         " or a percentage in (0%, 100%]"),
        (("growth", "--metric", "blocks"),
         "--metric blocks: expected files, bytes, alloc, used or inodes"),
        (("report", "--quarter", "2010Q5", "--out", os.path.join(tmp, "r.html")),
         "--quarter 2010Q5: expected a quarter: YYYYQ1 to YYYYQ4"),
        (("usage", "--from", "2010-01-01"),
         "--from does not apply to this command"),
        (("report", "--table", "nosuch", "--out", os.path.join(tmp, "r.html")),
         "--table does not apply to this command"),
        (("report", "--format", "csv", "--out", os.path.join(tmp, "r.html")),
         "--format does not apply to this command"),
        (("report", "--strict", "--out", os.path.join(tmp, "r.html")),
         "--strict does not apply to this command"),
        (("report", "--quiet", "--out", os.path.join(tmp, "r.html")),
         "--quiet does not apply to this command"),
    ]
    for args, want in cases:
        usage_error([args[0], "--db", db] + list(args[1:]), want,
                    " ".join(args))
    ok(not os.path.exists(db) and not os.path.exists(
        os.path.join(tmp, "r.html")), "usage errors create no file")
    rc, out, err = run("nosuch")
    ok(rc == 2 and err.startswith("iocensus: unknown command 'nosuch'"),
       "an unknown command: 'iocensus: unknown command'", err)


def check_window(tmp):
    """A window is held minute by minute: at most 200 years of minutes
    (200 x 365.25 x 1440 = 105,192,000) at once, else a usage error."""
    db = os.path.join(tmp, "w.db")
    eq(run("ingest", "--db", db)[0], 0, "window: an empty database")
    years = 10000 * 365 + 2425                   # days in 0000-9999
    for cmd in ("cdf", "idle", "devices", "burst"):
        usage_error([cmd, "--db", db, "--from", "0000-01-01", "--to",
                     "9999-01-01"], "the window holds %d minutes; at most "
                    "105192000 (200 years) are analysed at once: narrow "
                    "--from/--to" % ((years - 365) * 1440),
                    cmd + ": a 9999-year window")
    rc, out, err = run("cdf", "--db", db, "--from", "1900-01-01", "--to",
                       "2099-12-31")
    eq((rc, err), (0, ""), "cdf: a window of just under 200 years is analysed")


def main():
    with tempfile.TemporaryDirectory() as tmp:
        check_help(tmp)
        check_own_help()
        check_prefix(tmp)
        check_window(tmp)
    done()


main()
