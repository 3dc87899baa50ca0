#!/usr/bin/env python3
# tests/run: once
"""t_testmap: the tests of a piece of code are found from its name, and
tests/README.md says which tests exercise each room.

1. Every C file of tests/unit/ is a unit test named test_NAME (the
   Makefile builds every one, tests/run runs only test_*), and NAME is
   what it tests: the name of a source or public header of lib/, lib/ROOM/,
   fsscan/ROOM/, iostatmon/ or report/ROOM/ without its extension
   ("hist", "cli_value"), or a room's ("iolog", "space").
2. The map of tests/README.md (the table under "Which tests exercise
   each room") has one row for each room of the tree, as
   docs/ARCHITECTURE.md has them: each module of lib/ (lib/hist), each
   lib/ROOM/, fsscan/ROOM/ and report/ROOM/, iostatmon/, sql/ and
   scripts/; and no row for a room that is not there.
3. Every unit test is in the map; every script has its line under "What
   each script checks"; every file of tests/lib/ is named.
4. Every test tests/README.md names exists: a unit test test_NAME as a
   C file of tests/unit/, a script t_NAME as a .py or .sh file of tests/,
   and a file of tests/lib/.

The checks read a list of the tree's files and the text of the README,
so a self-test runs them first on a made-up tree and README holding one
fault of each kind, and on the same made up without faults: a check that
cannot fail is no check.
"""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
from tap import ok, eq, done  # noqa: E402

TOP = os.environ.get("TOP", os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))

# The folders whose files make the rooms and the tests.
SOURCE_DIRS = ("lib", "fsscan", "iostatmon", "report", "sql", "scripts",
               "tests")
# Folders with rooms inside (lib/ also has modules of one file).
ROOMED = ("lib", "fsscan", "report")
MAP_HEADING = "## Which tests exercise each room"
SCRIPTS_HEADING = "## What each script checks"

UNIT_NAME = re.compile(r"\btest_([a-z0-9_]+)\b")
SCRIPT_NAME = re.compile(r"\b(t_[a-z0-9_]+\.(?:py|sh))\b")
LIB_NAME = re.compile(r"\btests/lib/([a-z0-9_]+\.py)\b")
ROW = re.compile(r"^\|\s*`([^`]+)`\s*\|")
SCRIPT_LINE = re.compile(r"^- `(t_[a-z0-9_]+\.(?:py|sh))` — ")


def tree_files(top):
    """The files below SOURCE_DIRS, relative to top, '/'-separated."""
    out = []
    for d in SOURCE_DIRS:
        for root, sub, files in os.walk(os.path.join(top, d)):
            sub[:] = [s for s in sub if not s.startswith(".")
                      and s != "__pycache__"]
            rel = os.path.relpath(root, top).replace(os.sep, "/")
            out += [rel + "/" + f for f in files]
    return sorted(out)


def is_code(path):
    return path.endswith((".c", ".h"))


def stem(path):
    return os.path.splitext(path.rsplit("/", 1)[-1])[0]


def rooms(files):
    """The rooms of the tree, spelled as the map spells them."""
    out = set()
    for p in files:
        part = p.split("/")
        if part[0] in ("sql", "scripts"):
            out.add(part[0] + "/")
        elif not is_code(p):
            continue
        elif part[0] == "iostatmon":
            out.add("iostatmon/")
        elif part[0] == "lib" and len(part) == 2:
            if not stem(p).endswith("_int"):
                out.add("lib/" + stem(p))
        elif part[0] in ROOMED and len(part) >= 3:
            out.add(part[0] + "/" + part[1] + "/")
    return out


def module_names(files):
    """What a unit test may be named after: the stem of every source and
    public header of the programs and lib/, and every room's name."""
    out = set()
    for p in files:
        part = p.split("/")
        if part[0] not in ("lib", "fsscan", "iostatmon", "report") or \
                not is_code(p):
            continue
        if not stem(p).endswith("_int"):
            out.add(stem(p))
        if part[0] in ROOMED and len(part) >= 3:
            out.add(part[1])
        elif part[0] == "iostatmon":
            out.add("iostatmon")
    return out


def unit_tests(files):
    return sorted(stem(p) for p in files
                  if p.startswith("tests/unit/") and p.endswith(".c"))


def scripts(files):
    return sorted(p.split("/")[1] for p in files
                  if re.fullmatch(r"tests/t_[^/]+\.(?:py|sh)", p))


def lib_files(files):
    return sorted(p.split("/")[2] for p in files
                  if re.fullmatch(r"tests/lib/[^/]+\.py", p))


def section(text, heading):
    """The lines of text under heading, up to the next one of its level."""
    lines = text.split("\n")
    if heading not in lines:
        return []
    body = lines[lines.index(heading) + 1:]
    level = heading.split(" ", 1)[0] + " "
    for i, line in enumerate(body):
        if line.startswith(level):
            return body[:i]
    return body


def unit_name_faults(files):
    """Unit tests whose names say nothing of what they test."""
    names = module_names(files)
    out = []
    for t in unit_tests(files):
        m = re.fullmatch(r"test_(\w+)", t)
        if m is None:
            out.append("tests/unit/%s.c: not test_NAME.c, so built but never"
                       " run" % t)
        elif m.group(1) not in names:
            out.append("tests/unit/%s.c: no module or room is named %s"
                       % (t, m.group(1)))
    return out


def map_faults(files, readme):
    """Rooms missing from the map, rows of rooms that are gone, tests the
    README does not place, and names of tests that do not exist."""
    out = []
    rows = [ROW.match(line) for line in section(readme, MAP_HEADING)]
    rows = [m.group(1) for m in rows if m]
    have = rooms(files)
    out += ["room %s has no row in the map" % r
            for r in sorted(have - set(rows))]
    out += ["the map has a row for %s, which is not a room of the tree" % r
            for r in sorted(set(rows) - have)]
    out += ["the map has two rows for %s" % r
            for r in sorted({r for r in rows if rows.count(r) > 1})]
    table = "\n".join(section(readme, MAP_HEADING))
    units = unit_tests(files)
    mapped = {"test_" + n for n in UNIT_NAME.findall(table)}
    out += ["unit test %s is in no row of the map" % t
            for t in units if t not in mapped]
    lines = [SCRIPT_LINE.match(line)
             for line in section(readme, SCRIPTS_HEADING)]
    described = {m.group(1) for m in lines if m}
    out += ["script %s has no line under \"%s\"" % (s, SCRIPTS_HEADING[3:])
            for s in scripts(files) if s not in described]
    named_libs = set(LIB_NAME.findall(readme))
    out += ["tests/lib/%s is not named" % f
            for f in lib_files(files) if f not in named_libs]
    out += ["names test_%s, which is not in tests/unit/" % n
            for n in sorted(set(UNIT_NAME.findall(readme)))
            if "test_" + n not in units]
    out += ["names %s, which is not in tests/" % s
            for s in sorted(set(SCRIPT_NAME.findall(readme)))
            if s not in scripts(files)]
    out += ["names tests/lib/%s, which is not there" % f
            for f in sorted(named_libs) if f not in lib_files(files)]
    return out


# ---------------------------------------------------------------- self-test

FAKE_TREE = [
    "lib/hist.c", "lib/hist.h", "lib/varint.h", "lib/log/log.h",
    "lib/log/log_read.c", "lib/log/log_int.h", "fsscan/walk/walk.c",
    "fsscan/walk/walk_int.h", "iostatmon/delta.c", "report/cli/cli_value.c",
    "sql/schema.sql", "scripts/demo", "tests/unit/test_hist.c",
    "tests/unit/test_log.c", "tests/unit/test_cli_value.c",
    "tests/unit/tap.h", "tests/t_oracle.py", "tests/t_peers.sh",
    "tests/lib/oracle.py",
]
FAKE_README = """# Tests

Run `TESTS="t_oracle test_hist" tests/run build`; tests/lib/oracle.py.

## Which tests exercise each room

| room | unit tests | scripts |
|---|---|---|
| `lib/hist` | `test_hist` | `t_oracle.py` |
| `lib/varint` | — | — |
| `lib/log/` | `test_log` | — |
| `fsscan/walk/` | — | `t_oracle.py`, `t_peers.sh` |
| `iostatmon/` | — | — |
| `report/cli/` | `test_cli_value` | — |
| `sql/` | — | — |
| `scripts/` | — | — |

## What each script checks

- `t_oracle.py` — the oracle.
- `t_peers.sh` — the peers.
"""


def faults(files, readme):
    return unit_name_faults(files) + map_faults(files, readme)


def without(text, line):
    assert line in text, line
    return text.replace(line, "", 1)


def self_test():
    """Each check finds the one fault made for it, and nothing in a tree
    and README that agree."""
    eq(faults(FAKE_TREE, FAKE_README), [],
       "self-test: a tree and a README that agree give no fault")
    eq(sorted(module_names(FAKE_TREE)), ["cli", "cli_value", "delta",
                                         "hist", "iostatmon", "log",
                                         "log_read", "varint", "walk"],
       "self-test: module names are stems and rooms, never _int headers")
    cases = [
        ("a unit test named after nothing",
         FAKE_TREE + ["tests/unit/test_histo.c"], FAKE_README,
         ["tests/unit/test_histo.c: no module or room is named histo",
          "unit test test_histo is in no row of the map"]),
        ("a C file of tests/unit/ that is not a test",
         FAKE_TREE + ["tests/unit/helper.c"], FAKE_README,
         ["tests/unit/helper.c: not test_NAME.c, so built but never run",
          "unit test helper is in no row of the map"]),
        ("a new module of lib/ without a row",
         FAKE_TREE + ["lib/units.c", "lib/units.h"], FAKE_README,
         ["room lib/units has no row in the map"]),
        ("a new room without a row",
         FAKE_TREE + ["report/query/query.h"], FAKE_README,
         ["room report/query/ has no row in the map"]),
        ("a row for a room that is gone",
         [p for p in FAKE_TREE if not p.startswith("iostatmon/")],
         FAKE_README, ["the map has a row for iostatmon/, which is not a "
                       "room of the tree"]),
        ("a room's row dropped",
         FAKE_TREE, without(FAKE_README, "| `sql/` | — | — |\n"),
         ["room sql/ has no row in the map"]),
        ("a unit test in no row",
         FAKE_TREE, FAKE_README.replace("| `test_cli_value` |", "| — |"),
         ["unit test test_cli_value is in no row of the map"]),
        ("a script without its line",
         FAKE_TREE, without(FAKE_README, "- `t_peers.sh` — the peers.\n"),
         ["script t_peers.sh has no line under \"What each script "
          "checks\""]),
        ("a test renamed under the README",
         [p.replace("t_peers.sh", "t_du_peers.sh") for p in FAKE_TREE],
         FAKE_README.replace("- `t_peers.sh` — the peers.\n",
                             "- `t_peers.sh` — the peers.\n"
                             "- `t_du_peers.sh` — du.\n"),
         ["names t_peers.sh, which is not in tests/"]),
        ("a unit test that is gone",
         [p for p in FAKE_TREE if p != "tests/unit/test_log.c"],
         FAKE_README, ["names test_log, which is not in tests/unit/"]),
        ("a file of tests/lib/ not named, and one named that is gone",
         [p.replace("lib/oracle.py", "lib/model.py") for p in FAKE_TREE],
         FAKE_README, ["tests/lib/model.py is not named",
                       "names tests/lib/oracle.py, which is not there"]),
    ]
    for what, files, readme, want in cases:
        eq(sorted(faults(files, readme)), sorted(want), "self-test: " + what)


def main():
    self_test()
    files = tree_files(TOP)
    ok(len(unit_tests(files)) > 20 and len(scripts(files)) > 40
       and "lib/hist" in rooms(files),
       "the tree is read (%d unit tests, %d scripts, %d rooms)"
       % (len(unit_tests(files)), len(scripts(files)), len(rooms(files))))
    bad = unit_name_faults(files)
    for f in bad:
        ok(False, f, "name it test_MODULE.c after what it tests")
    ok(not bad, "every unit test is named after a module or room (%d)"
       % len(unit_tests(files)), "%d are not" % len(bad))
    path = os.path.join(TOP, "tests", "README.md")
    try:
        with open(path, encoding="utf-8") as f:
            readme = f.read()
    except OSError as e:
        ok(False, "tests/README.md is read", str(e))
        done()
    bad = map_faults(files, readme)
    for f in bad:
        ok(False, "tests/README.md: " + f, "mend the map")
    ok(not bad, "tests/README.md maps every room (%d), unit test and "
       "script, and names only tests that exist" % len(rooms(files)),
       "%d faults" % len(bad))
    done()


if __name__ == "__main__":
    main()
