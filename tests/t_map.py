#!/usr/bin/env python3
# tests/run: once
"""t_map: docs/ARCHITECTURE.md, the map of the code, names the tree as it
is, so that a file added, removed or renamed without its line fails here.

The map's parts this reads:
 - "## Files": under a heading "### `DIR/` ...", a line
   "- `NAME`, `NAME` — what they hold" names files of DIR; `FILE.[ch]`
   stands for FILE.c and FILE.h.
 - "## Where a change goes": a table whose rows are
   | a change | `ROOM/` | `FILE`, ... | `t_NAME`, `test_NAME` |
   (a script with its extension).
 - "## Invariants": the list t_invariants.py reads (parse_list).

Checks, each naming what is wrong:
 F1. Every file of MAPPED (the C sources and headers of the programs and
     lib/, sql/*.sql, every file of scripts/ and scripts/bench/) has a
     line under its folder's heading, and only one.
 F2. Every file the map names exists: the names of the file lines, and
     every path in backquotes anywhere in the map that begins with a
     folder of the tree (`report/cli/main.c`, `docs/analyses.md`).
 C1. Every program (fsscan, fsscan-mpi, the iostatmon daemon) and every
     command of the command tables (report/cli/main.c's commands[],
     iostatmon/main.c's cmds[]) is named in backquotes in the first cell
     of a row of "Where a change goes" (`iocensus health`,
     `iostatmon dump`).
 C2. Every row of that table names its room, files of the tree in that
     room (or paths of the tree), and tests that exist.
 I1. Every invariant cited in a comment of the C sources, in the form
     t_invariants.py reads (`invariant W2`, `(W2)`, `/* W2 */`), with any
     capital letter, is defined in the map's list.

A self-test runs the checks on a made-up tree and map, clean and then
with one fault planted at a time, each of which must be found.
"""
import os
import re
import shutil
import string
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "lib"))
sys.path.insert(0, HERE)
from tap import done, ok  # noqa: E402
import t_invariants  # noqa: E402

TOP = os.environ.get("TOP", os.path.dirname(HERE))
MAP = "docs/ARCHITECTURE.md"

# (folder, recurse, does a file of it belong on the map)
MAPPED = (
    ("lib", True, lambda f: f.endswith((".c", ".h"))),
    ("fsscan", True, lambda f: f.endswith((".c", ".h"))),
    ("iostatmon", True, lambda f: f.endswith((".c", ".h"))),
    ("report", True, lambda f: f.endswith((".c", ".h"))),
    ("sql", False, lambda f: f.endswith(".sql")),
    ("scripts", True, lambda f: True),
)
# A path in backquotes that begins with one of these is a file of the tree.
TREE_DIRS = ("lib/", "fsscan/", "iostatmon/", "report/", "scripts/", "sql/",
             "tests/", "docs/", "debian/")
# The programs' command tables: (file, the array, what a row is called).
COMMAND_TABLES = (
    ("report/cli/main.c", "commands", "iocensus %s"),
    ("iostatmon/main.c", "cmds", "iostatmon %s"),
)
PROGRAMS = ("fsscan", "fsscan-mpi", "iostatmon")
# Placeholders of the rules' text (`lib/FILE.h`, `ROOM/ROOM.h`), no files.
PLACEHOLDER = re.compile(r"^[A-Z]+(?:_int)?(?:\.[ch]|\.\[ch\])?$")
# A file's name in a row of "Where a change goes" (`commands[]` is not).
FILE_NAME = re.compile(r"^[\w./-]+(?:\.(?:c|h|sql|py|\[ch\])|/)$")


def read(top, rel):
    with open(os.path.join(top, rel), encoding="utf-8",
              errors="replace") as f:
        return f.read()


def section(md, title):
    m = re.search(r"^## %s\s*$(.*?)(?=^## |\Z)" % re.escape(title), md,
                  re.M | re.S)
    return m.group(1) if m else ""


def expand(name):
    """FILE.[ch] -> [FILE.c, FILE.h]; a name alone otherwise."""
    if name.endswith(".[ch]"):
        return [name[:-5] + ".c", name[:-5] + ".h"]
    return [name]


def ticked(text):
    return re.findall(r"`([^`\n]+)`", text)


def map_lines(md):
    """[(path, line number)] of every file the "Files" part names."""
    out, folder = [], None
    start = md.find("\n## Files")
    if start < 0:
        return out
    first = md[:start + 1].count("\n") + 1
    for n, line in enumerate(section(md, "Files").split("\n"), first):
        h = re.match(r"^### `([^`]+/)`", line)
        if h:
            folder = h.group(1)
            continue
        m = re.match(r"^- ((?:`[^`]+`(?:, | and )?)+) — ", line)
        if m and folder:
            for name in ticked(m.group(1)):
                out += [(os.path.normpath(folder + x), n)
                        for x in expand(name)]
    return out


def mapped_files(top):
    """The files the map must name, relative to top."""
    out = []
    for d, recurse, want in MAPPED:
        base = os.path.join(top, d)
        for dirpath, subs, files in os.walk(base):
            subs[:] = sorted(s for s in subs if not s.startswith("."))
            if not recurse:
                subs[:] = []
            out += [os.path.relpath(os.path.join(dirpath, f), top)
                    for f in files if want(f)]
    return sorted(out)


def f1_named(top, md):
    lines = map_lines(md)
    seen = {}
    for p, n in lines:
        seen.setdefault(p, []).append(n)
    bad = ["%s: not named in %s" % (f, MAP)
           for f in mapped_files(top) if f not in seen]
    bad += ["%s: named on lines %s" % (p, ", ".join(map(str, ns)))
            for p, ns in sorted(seen.items()) if len(ns) > 1]
    return bad


def placeholder(path):
    return any(PLACEHOLDER.match(c) for c in path.split("/"))


def f2_exist(top, md):
    paths = {p for p, _ in map_lines(md)}
    for t in ticked(md):
        t = t.rstrip(".,:;")
        if not t.startswith(TREE_DIRS) or re.search(r"[\s*?$<>]", t):
            continue
        if placeholder(t):
            continue
        paths.update(os.path.normpath(x) for x in expand(t))
    # lib/fmt names the module of lib/fmt.c and lib/fmt.h
    return sorted("%s: named in %s, not in the tree" % (p, MAP)
                  for p in paths
                  if not any(os.path.exists(os.path.join(top, p + ext))
                             for ext in ("", ".c", ".h")))


def commands(top):
    """Every program and command the map must have a row for."""
    out = list(PROGRAMS)
    for path, array, form in COMMAND_TABLES:
        text = read(top, path)
        m = re.search(r"\b%s\[\]\s*=\s*\{(.*?)^\};" % array, text,
                      re.S | re.M)
        names = re.findall(r'\{\s*"([a-z][a-z-]*)"\s*,', m.group(1)) \
            if m else []
        if not names:
            out.append("(no command table %s[] in %s)" % (array, path))
        out += [form % n for n in names]
    return out


def change_rows(md):
    """[(cells)] of the table of "Where a change goes", header aside."""
    rows = []
    for line in section(md, "Where a change goes").split("\n"):
        if line.startswith("|") and not re.match(r"^\|[-| ]+\|$", line):
            rows.append([c.strip() for c in line.strip("|").split("|")])
    return rows[1:]


def c1_commands(top, md):
    firsts = [set(ticked(r[0])) for r in change_rows(md)]
    return ["`%s` has no row in \"Where a change goes\"" % c
            for c in commands(top) if not any(c in f for f in firsts)]


def test_exists(top, name):
    if re.match(r"^t_\w+\.(py|sh)$", name):
        return os.path.exists(os.path.join(top, "tests", name))
    if re.match(r"^test_\w+$", name):
        for d, _, files in os.walk(os.path.join(top, "tests", "unit")):
            if name + ".c" in files:
                return True
    return False


def c2_rows(top, md):
    bad = []
    for r in change_rows(md):
        what = r[0][:50]
        if len(r) != 4:
            bad.append("%s: %d cells, not 4" % (what, len(r)))
            continue
        rooms = [x for x in ticked(r[1]) if x.endswith("/") or
                 os.path.isfile(os.path.join(top, x))]
        if not rooms or not all(os.path.exists(os.path.join(top, x))
                                for x in rooms):
            bad.append("%s: no room of the tree in %r" % (what, r[1]))
            continue
        for f in ticked(r[2]):
            if not FILE_NAME.match(f) or placeholder(f):
                continue
            for x in expand(f):
                if not any(os.path.exists(os.path.join(top, p, x))
                           for p in rooms + [""]):
                    bad.append("%s: no file %s in %s" % (what, x,
                                                         ", ".join(rooms)))
        tests = ticked(r[3])
        if not tests:
            bad.append("%s: no test" % what)
        bad += ["%s: no test %s" % (what, t) for t in tests
                if not test_exists(top, t)]
    return bad


def i1_invariants(top, md):
    _, invs, _ = t_invariants.parse_list(md)
    sources = {}
    for d in ("lib", "fsscan", "iostatmon", "report"):
        for dirpath, _, files in os.walk(os.path.join(top, d)):
            for f in files:
                if f.endswith((".c", ".h")):
                    p = os.path.relpath(os.path.join(dirpath, f), top)
                    sources[p] = read(top, p)
    cites, _ = t_invariants.scan_code(sources, set(string.ascii_uppercase))
    return ["%s, cited at %s, is not defined in %s" %
            (i, ", ".join(cites[i][:3]), MAP)
            for i in sorted(set(cites) - set(invs))]


CHECKS = [
    ("F1", "every file of the tree is named in the map, once", f1_named),
    ("F2", "every file the map names exists", f2_exist),
    ("C1", "every program and command has a row in \"Where a change goes\"",
     c1_commands),
    ("C2", "every row of \"Where a change goes\" names a room, its files "
     "and tests that exist", c2_rows),
    ("I1", "every invariant the code cites is defined in the map",
     i1_invariants),
]


def run(top):
    md = read(top, MAP)
    return {k: f(top, md) for k, _, f in CHECKS}


# ----------------------------------------------------------- self-test

FAKE_MAP = """# map

## Files

### `lib/`

- `a.[ch]` — a module

### `report/cli/`

- `main.c` — the command table

### `iostatmon/`

- `main.c` — the daemon and its subcommands

### `sql/`

- `schema.sql` — the tables

### `scripts/`

- `tool`, `tool.service` — a tool and its unit

## Where a change goes

| a change to | room | files | tests |
|---|---|---|---|
| `fsscan`, `fsscan-mpi` | `lib/` | `a.c` | `t_x.py` |
| `iocensus ingest`, `iocensus health` | `report/cli/` | `main.c` | `t_x.py`, `test_a` |
| `iostatmon`, `iostatmon dump` | `iostatmon/` | `main.c` | `t_x.py` |

## Invariants

| letter | room |
|---|---|
| W | the walk, `lib/a.c` |

### W — the walk

- **W1. One.** One is one.
"""
FAKE = {
    "lib/a.c": "/* invariant W1 */\nint a;\n",
    "lib/a.h": "",
    "report/cli/main.c": 'static const struct command commands[] = {\n'
                         '\t{ "ingest", "", NULL },\n'
                         '\t{ "health", "", NULL },\n};\n',
    "iostatmon/main.c": 'static const struct x cmds[] = {\n'
                        '\t{ "dump", "iostatmon dump", dump_cmd },\n};\n',
    "sql/schema.sql": "",
    "scripts/tool": "",
    "scripts/tool.service": "",
    "tests/t_x.py": "",
    "tests/unit/lib/test_a.c": "",
}


def edit(old, new):
    def change(files):
        assert old in files[MAP], old
        files[MAP] = files[MAP].replace(old, new, 1)
    return change


def put(path, text):
    def change(files):
        files[path] = text
    return change


# (what is planted, its change, the check that must name it, a word of it)
PLANTS = [
    ("a file's line deleted", edit("- `main.c` — the command table\n", ""),
     "F1", "report/cli/main.c: not named"),
    ("a file added", put("report/cli/cli_new.c", ""),
     "F1", "report/cli/cli_new.c: not named"),
    ("a script added", put("scripts/other", ""),
     "F1", "scripts/other: not named"),
    ("a file named twice", edit("- `schema.sql` — the tables",
                                "- `schema.sql`, `../sql/schema.sql` — x"),
     "F1", "sql/schema.sql: named on lines"),
    ("a file's line for a file not there",
     edit("- `a.[ch]` — a module", "- `a.[ch]`, `gone.c` — a module"),
     "F2", "lib/gone.c: named in"),
    ("a path in the text not there",
     edit("# map\n", "# map\n\nSee `docs/gone.md`.\n"),
     "F2", "docs/gone.md"),
    ("a command without its row", put("report/cli/main.c",
                                      FAKE["report/cli/main.c"].replace(
                                          "};", '\t{ "prune", "", NULL },\n'
                                          "};")),
     "C1", "`iocensus prune` has no row"),
    ("a subcommand without its row",
     edit("| `iostatmon`, `iostatmon dump` |", "| `iostatmon` |"),
     "C1", "`iostatmon dump` has no row"),
    ("a program without its row", edit("`fsscan`, `fsscan-mpi`", "`fsscan`"),
     "C1", "`fsscan-mpi` has no row"),
    ("a row's test that does not exist", edit("`t_x.py`, `test_a`",
                                              "`t_gone.py`"),
     "C2", "no test t_gone.py"),
    ("a row's file not in its room", edit("| `a.c` |", "| `b.c` |"),
     "C2", "no file b.c in lib/"),
    ("a row with no room", edit("| `lib/` |", "| lib |"),
     "C2", "no room of the tree"),
    ("an invariant cited, not defined",
     put("lib/a.c", "/* W1 */\nint a; /* (W2) */\n"),
     "I1", "W2, cited at lib/a.c:2"),
    ("an invariant of a letter the map lacks",
     put("lib/a.c", "/* invariants W1 and Q1 */\nint a;\n"),
     "I1", "Q1, cited at lib/a.c:1"),
]


def write_tree(top, files):
    shutil.rmtree(top, ignore_errors=True)
    for path, text in files.items():
        os.makedirs(os.path.join(top, os.path.dirname(path)), exist_ok=True)
        with open(os.path.join(top, path), "w") as f:
            f.write(text)


def self_test():
    tmp = tempfile.mkdtemp(prefix="t_map.")
    try:
        top = os.path.join(tmp, "src")
        clean = dict(FAKE, **{MAP: FAKE_MAP})
        write_tree(top, clean)
        got = run(top)
        bad = {k: v for k, v in got.items() if v}
        ok(not bad, "self-test: the made-up map passes every check",
           str(bad))
        for what, change, key, word in PLANTS:
            files = dict(clean)
            change(files)
            write_tree(top, files)
            got = run(top)
            ok(any(word in v for v in got[key]),
               "self-test: %s fails %s" % (what, key),
               "%s reports %s" % (key, got[key] or "nothing"))
            others = {k: v for k, v in got.items() if v and k != key}
            ok(not others, "self-test: %s fails only %s" % (what, key),
               str(others))
    finally:
        shutil.rmtree(tmp)


def main():
    self_test()
    got = run(TOP)
    for key, name, _ in CHECKS:
        ok(not got[key], "%s. %s" % (key, name), "; ".join(got[key]))
    done()


if __name__ == "__main__":
    main()
