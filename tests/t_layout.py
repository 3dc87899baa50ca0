#!/usr/bin/env python3
# tests/run: once
"""t_layout: the rooms of docs/ARCHITECTURE.md ("The rules"), checked on the
sources and on the built objects (nm), so that a change that breaks one
fails here instead of in review.

One table, ROOMS, lists every room of the tree: each module of lib/ (a
file lib/FILE.c with its header lib/FILE.h, or a header alone), the room
lib/iolog/, each room of fsscan/, iostatmon/ (one room), each room of
report/. A row gives the room's folder, its public header, the prefixes
of the names it shows other rooms, and the rooms it may use (LIB: every
room of lib/). One engine checks every room against it:

 T1. The table's rooms are the tree's: every C source and header under
     lib/, fsscan/, iostatmon/ and report/ is in one room of the table,
     and every room of the table is there.
 T2. The table runs downwards: its rooms use each other in no circle; a
     room of lib/ uses rooms of lib/ only, a program's room its own
     program's rooms and lib/.
 H1. A room has one public header, named after it (ROOM/ROOM.h, or
     lib/FILE.h for a module); its other headers end in _int.h. The
     exception is iostatmon/, which no room uses: each file others call
     has its own FILE.h, and what the files named X share is X_int.h.
     In lib/ every file is named after its module or room.
 H2. Private headers (_int.h) have names unique in the tree, so that a
     name, however an #include spells it, is one file.
 H3. A private header is included only inside its room (in iostatmon/,
     only by the files named X for X_int.h), and by unit tests
     (tests/unit) and fuzzers (tests/fuzz), whatever the spelling: with a
     path beside the file, through -I, or by its bare name.
 N1. A name with external linkage (nm: T, D, B, R, C; the
     implementation's __ names aside) starts with its file's name; one
     that the room's public header declares may start with one of the
     room's prefixes instead.
 N2. A name another room uses is declared in that room's public header
     and starts with one of its prefixes.
 D1. No object file uses another in a circle.
 D2. No room uses another in a circle (code or includes).
 D3. A room uses and includes only the rooms the table lets it.
 D4. Another room's header is included by its public header only, and
     an #include that names a folder (ROOM/ROOM.h) names a public
     header, even inside its room.
 D5. Programs neither use nor include each other's files (fsscan/,
     iostatmon/, report/); what they share is in lib/, which uses none of
     theirs.

Exceptions are in NAME_ALLOW and HEADER_ALLOW, each with its reason.
Each rule is shown to fail: the self-tests at the end plant one violation
at a time in a small tree made up in a temporary directory (compiled
there, read with nm) and expect the rule's check to name it; where two
rules are near (a circle of files, a circle of rooms), the other one
is shown to pass.
"""
import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile
import types

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
import tap  # noqa: E402

TOP = os.environ.get("TOP", os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
BUILD = os.environ.get("BUILD", os.path.join(TOP, "build"))

Room = collections.namedtuple("Room", "folder header prefixes uses")
LIB = "lib/"            # in a row's uses: every room of lib/


def module(name, *uses):
    """The row of lib/NAME: lib/NAME.c and lib/NAME.h, names NAME_*."""
    return "lib/" + name, Room("lib", "lib/%s.h" % name, (name + "_",),
                               {"lib/" + u for u in uses})


def room(path, prefixes, *uses):
    """The row of a room that is a folder, with its public header
    named after it."""
    base = os.path.basename(path)
    return path, Room(path, "%s/%s.h" % (path, base), prefixes, set(uses))


# Every room of the tree: its name -> Room(folder, public header, the
# prefixes of the names it shows other rooms, the rooms it may use).
# module() makes the row of a lib/ module, room() that of a folder; both
# name the public header after the room (H1). A program's rooms list
# what they use of their program, top down, and LIB; lib/'s rooms name
# the rooms of lib/ they use.
ROOMS = dict([
    # lib/: code more than one program uses, knowing no program.
    module("argval"),
    module("conf", "lines", "safedir", "safefile", "suggest", "xalloc"),
    module("db", "conf", "dbfile", "hist", "i128", "metric"),
    module("dbfile", "safedir", "xalloc"),
    module("diskstats"),
    module("epoch", "argval"),
    module("fdpath"),
    module("floordiv"),
    module("fmt", "xalloc"),
    module("fsident", "mountpath"),
    module("globlist"),
    module("hist", "i128"),
    module("human", "i128"),
    module("i128"),
    module("idname", "xalloc"),
    module("iobuf", "varint"),
    module("lines", "xalloc"),
    module("metric", "hist"),
    module("mountpath"),
    module("outfile", "safedir", "xalloc"),
    module("runlock", "safedir"),
    module("safedir", "xalloc"),
    module("safefile", "safedir"),
    module("strtab", "xalloc"),
    module("siphash"),
    module("suggest", "fmt"),
    module("units"),
    module("varint"),
    module("xalloc"),
    room("lib/iolog", ("iolog_",),
         "lib/diskstats", "lib/fdpath", "lib/iobuf", "lib/safefile"),
    # fsscan/: fsscan and fsscan-mpi. A name another room uses keeps its
    # file's prefix (census_merge), so a room lists its files' prefixes.
    room("fsscan/mpi", ("mpi_",),
         "fsscan/scan", "fsscan/record", "fsscan/walk", "fsscan/project",
         LIB),
    room("fsscan/scan", ("scan_", "args_"),
         "fsscan/record", "fsscan/walk", "fsscan/project", LIB),
    room("fsscan/record", ("record_", "capacity_", "csvout_", "limits_",
                           "quota_", "snapshot_"),
         "fsscan/walk", "fsscan/project", LIB),
    room("fsscan/walk", ("walk_", "account_", "bell_", "census_", "dirtot_",
                         "dnode_", "hardlink_", "pool_", "throttle_",
                         "topn_"),
         "fsscan/project", LIB),
    room("fsscan/project", ("project_",), LIB),
    # iostatmon/: one program, one room, which no room uses: no public
    # header, and each file others call has its own (H1).
    ("iostatmon", Room("iostatmon", None, (), {LIB})),
    # report/: iocensus, a room per stage; a name another room uses
    # carries the room's prefix.
    room("report/cli", ("cli_",),
         "report/traffic", "report/space", "report/summary", "report/opts",
         "report/render", "report/ingest", "report/prune", "report/rollup",
         "report/query", "report/result", LIB),
    room("report/render", ("render_",), "report/result", LIB),
    room("report/traffic", ("traffic_",),
         "report/opts", "report/query", "report/rollup", "report/result",
         LIB),
    room("report/space", ("space_",),
         "report/opts", "report/query", "report/result", LIB),
    room("report/summary", ("summary_",), "report/result", LIB),
    room("report/prune", ("prune_",),
         "report/opts", "report/query", "report/result", LIB),
    room("report/opts", ("opts_",), "report/query", LIB),
    room("report/query", ("query_",), "report/chunk", LIB),
    room("report/ingest", ("ingest_",),
         "report/rollup", "report/chunk", "report/result", LIB),
    room("report/rollup", ("rollup_",), "report/chunk", LIB),
    room("report/chunk", ("chunk_",), LIB),
    room("report/result", ("result_",), LIB),
])

# Exported names that carry neither their file's name nor a prefix of
# their room (N1, N2): file (without .c) -> the pattern they match, and why.
NAME_ALLOW = {
    # xalloc's allocators, which exit instead of failing, are named after
    # the libc functions they wrap, with an x (xmalloc for malloc; xgrow
    # the array growth built on xrealloc): a convention read at a glance,
    # in some 360 calls in every room of the tree.
    "lib/xalloc": r"x\w+",
    # The log reader's and writer's inner calls are named after the
    # objects they act on (struct iolog_reader and struct iolog_writer of
    # iolog.h), which these files hold.
    "lib/iolog/iolog_read": r"iolog_reader_\w+",
    "lib/iolog/iolog_write": r"iolog_writer_\w+",
    # Replaces libdl's dlclose in sanitizer builds of fsscan-mpi, so that
    # Open MPI's components stay loaded and LeakSanitizer names them.
    "fsscan/mpi/mpi_lsan": r"dlclose",
}
# Headers of iostatmon/ that are neither a file's FILE.h nor an X_int.h (H1).
HEADER_ALLOW = {
    # the subcommands' entry points (devices_cmd, dump_cmd, import_cmd),
    # one per command file, dispatched by main.c.
    "iostatmon/cmd.h",
}

PROGRAMS = ("fsscan", "iostatmon", "report")
# The -I directories of the Makefile, after the including file's own.
INCLUDE_DIRS = ("lib", "fsscan", "report", "iostatmon")
# Who may include any room's private headers.
TEST_DIRS = ("tests/unit/", "tests/fuzz/")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^">]+)[">]', re.M)
COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)


# ------------------------------------------------------------- the tree

class Tree:
    """The sources under top and the objects under objdir, as the rules
    see them: rooms, includes, names defined and used."""

    def __init__(self, top, objdir, rooms, name_allow, header_allow):
        self.top, self.rooms = top, rooms
        self.name_allow, self.header_allow = name_allow, header_allow
        self.files = sources(top)
        self.fileset = set(self.files)
        self.privates = {}          # bare name -> the private headers
        for f in self.files:
            if f.endswith("_int.h") and self.room_of(f):
                self.privates.setdefault(os.path.basename(f), []).append(f)
        self.includes = {f: self.read_includes(f) for f in self.files}
        self.defs, self.uses = symbols(objects(top, objdir), objdir)
        self.where = {}             # name -> the units that define it
        for u in sorted(self.defs):
            for s in self.defs[u]:
                self.where.setdefault(s, []).append(u)
        self._decls = {}

    def room_of(self, path):
        """The room of a file (a path, or a unit without its .c): its
        folder's room, or the lib/ module of its name; else None."""
        d = os.path.dirname(path)
        if d in self.rooms and self.rooms[d].folder == d:
            return d
        stem = os.path.splitext(path)[0]
        if stem in self.rooms and self.rooms[stem].folder == d:
            return stem
        return None

    def read_includes(self, src):
        """(as written, the file of the tree it finds or None)."""
        with open(os.path.join(self.top, src), errors="replace") as f:
            text = f.read()
        return [(name, self.resolve(src, name, q == '"'))
                for q, name in INCLUDE.findall(text)]

    def resolve(self, src, name, quoted):
        """The file an #include finds, as the compiler does: beside the
        including file (quoted), then the -I directories. A private
        header found nowhere (its folder given by a -I of some rule) is
        known by its name, which H2 keeps unique."""
        dirs = ([os.path.dirname(src)] if quoted else []) + \
            list(INCLUDE_DIRS)
        for d in dirs:
            p = os.path.normpath(os.path.join(d, name))
            if p in self.fileset:
                return p
        hits = self.privates.get(os.path.basename(name), [])
        return hits[0] if len(hits) == 1 else None

    def decls(self, r):
        """The words of room r's public header, comments aside."""
        if r not in self._decls:
            h = self.rooms[r].header
            words = set()
            if h and h in self.fileset:
                with open(os.path.join(self.top, h)) as f:
                    words = set(re.findall(r"\w+", COMMENT.sub(" ",
                                                               f.read())))
            self._decls[r] = words
        return self._decls[r]

    def may_use(self, a, b):
        """Does the table let room a use room b?"""
        return b in self.rooms[a].uses or (
            LIB in self.rooms[a].uses and program(b) == "lib"
            and program(a) != "lib")

    def allowed_name(self, unit, s):
        pat = self.name_allow.get(unit)
        return pat is not None and re.fullmatch(pat, s) is not None

    def definer(self, u, s):
        """The unit whose s unit u links with: the programs are linked
        apart, so one of u's own program, else of lib/, else any; None
        for a name of no object here (libc's)."""
        units = self.where.get(s, [])
        for want in (program(u), "lib"):
            mine = [d for d in units if program(d) == want]
            if mine:
                return mine[0]
        return units[0] if units else None

    def file_edges(self):
        """unit -> the units whose names it uses (nm)."""
        return {u: {d for d in (self.definer(u, s) for s in self.uses[u])
                    if d and d != u}
                for u in self.uses}

    def edges(self):
        """(from file, to file, how) for every use and include between
        two files of the tree, from the sources of rooms."""
        out = []
        for u, vs in self.file_edges().items():
            out += [(u + ".c", v + ".c", "uses") for v in vs]
        for f in self.files:
            if self.room_of(f):
                out += [(f, h, "includes") for _, h in self.includes[f] if h]
        return out


def sources(top):
    """The C sources and headers of the tree, relative to top; build
    directories and hidden ones aside."""
    out = []
    for d, dirs, files in os.walk(top):
        dirs[:] = [x for x in dirs if not x.startswith((".", "build"))]
        out += [os.path.relpath(os.path.join(d, f), top)
                for f in files if f.endswith((".c", ".h"))]
    return sorted(out)


def objects(top, objdir):
    """The objects of the sources there are: a build directory keeps those
    of files since moved or removed (and sql_embed.o, of no source)."""
    out = []
    for d, _, files in os.walk(objdir):
        for f in files:
            o = os.path.join(d, f)
            if f.endswith(".o") and os.path.exists(
                    os.path.join(top, unit(o, objdir) + ".c")):
                out.append(o)
    return sorted(out)


def unit(o, objdir):
    """report/traffic/traffic_cdf for OBJDIR/report/traffic/traffic_cdf.o"""
    return os.path.relpath(o, objdir)[:-2]


def symbols(objs, objdir):
    """unit -> names defined, unit -> names used, in one nm run."""
    defs = {unit(o, objdir): set() for o in objs}
    uses = {u: set() for u in defs}
    if not objs:
        return defs, uses
    nm = subprocess.run(["nm", "-A"] + objs, capture_output=True, text=True,
                        check=True).stdout
    for line in nm.splitlines():
        path, _, rest = line.partition(":")
        p = rest.split()
        if not p or p[-1].startswith("__"):
            continue    # the implementation's (a sanitizer's __odr_asan.*)
        u = unit(path, objdir)
        if len(p) == 3 and p[1] in "TDBRC":
            defs[u].add(p[2])
        elif len(p) == 2 and p[0] == "U":
            uses[u].add(p[1])
    return defs, uses


def program(path):
    """lib, fsscan, iostatmon or report for a file or room; else None."""
    first = path.split("/")[0]
    return first if first in PROGRAMS + ("lib",) else None


def cycles(graph):
    """Strongly connected components of more than one node (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def circles(graph):
    return [" <-> ".join(c) for c in cycles(graph)]


# ------------------------------------------------------------ the rules
# Each returns its violations, one string each; none is a pass.

def t1_rooms(t):
    bad = ["%s is in no room of the table" % f for f in t.files
           if program(f) and t.room_of(f) is None]
    for r in sorted(t.rooms):
        if not any(t.room_of(f) == r for f in t.files):
            bad.append("room %s has no file in the tree" % r)
    return bad


def t2_table(t):
    bad, graph = [], {}
    for r, row in sorted(t.rooms.items()):
        for u in sorted(row.uses):
            if u == LIB:
                if program(r) == "lib":
                    bad.append("%s uses all of lib/: name its rooms" % r)
                continue
            if u not in t.rooms:
                bad.append("%s uses %s, no room" % (r, u))
            elif program(u) not in (program(r), "lib"):
                bad.append("%s (%s) uses %s (%s)"
                           % (r, program(r), u, program(u)))
            graph.setdefault(r, set()).add(u)
    return bad + ["the table goes round: " + c for c in circles(graph)]


def h1_headers(t):
    bad = []
    for r, row in sorted(t.rooms.items()):
        hdrs = [f for f in t.files if f.endswith(".h") and t.room_of(f) == r]
        if row.header is None:
            srcs = {f[:-2] for f in t.files
                    if f.endswith(".c") and t.room_of(f) == r}
            bad += ["%s: %s is no file's header nor _int.h" % (r, h)
                    for h in hdrs if h[:-2] not in srcs and
                    not h.endswith("_int.h") and h not in t.header_allow]
            continue
        base = os.path.basename(r)
        if row.header != "%s/%s.h" % (row.folder, base):
            bad.append("%s: public header %s is not %s/%s.h"
                       % (r, row.header, row.folder, base))
        if row.header not in hdrs:
            bad.append("%s: no public header %s" % (r, row.header))
        bad += ["%s: %s is neither %s nor _int.h" % (r, h, row.header)
                for h in hdrs if h != row.header and not h.endswith("_int.h")]
    return bad


def h1_lib_names(t):
    return ["%s is not named after its room %s" % (f, r)
            for f in t.files for r in [t.room_of(f)]
            if r and program(r) == "lib" and
            not os.path.basename(f).startswith(os.path.basename(r))]


def h2_unique(t):
    names = collections.defaultdict(list)
    for f in t.files:
        names[os.path.basename(f)].append(f)
    return ["%s: %s" % (n, " ".join(names[n])) for n in sorted(t.privates)
            if len(names[n]) > 1]


def h3_private(t):
    bad = []
    for f in t.files:
        if f.startswith(TEST_DIRS):
            continue
        for name, h in t.includes[f]:
            if not (h and h.endswith("_int.h")):
                continue
            r = t.room_of(h)
            inside = t.room_of(f) == r
            if inside and t.rooms[r].header is None:
                inside = f.startswith(h[:-len("_int.h")])
            if not inside:
                bad.append("%s includes %s (%s)" % (f, name, h))
    return bad


def n1_names(t):
    bad = []
    for u in sorted(t.defs):
        r, base = t.room_of(u), os.path.basename(u)
        for s in sorted(t.defs[u] - {"main"}):
            if s == base or s.startswith(base + "_") or \
                    t.allowed_name(u, s):
                continue
            if r and s in t.decls(r) and \
                    s.startswith(t.rooms[r].prefixes):
                continue
            bad.append("%s: %s" % (u, s))
    return bad


def n2_public(t):
    bad = set()
    for u in sorted(t.uses):
        for s in t.uses[u]:
            d = t.definer(u, s)
            rd = t.room_of(d) if d else None
            if rd is None or rd == t.room_of(u):
                continue
            if s not in t.decls(rd):
                bad.add("%s uses %s of %s, not in %s's public header"
                        % (u, s, d, rd))
            elif not (s.startswith(t.rooms[rd].prefixes) or
                      t.allowed_name(d, s)):
                bad.add("%s uses %s of %s, without a prefix of %s"
                        % (u, s, d, rd))
    return sorted(bad)


def d1_file_circles(t):
    return circles(t.file_edges())


def room_edges(t):
    out = []
    for a, b, how in t.edges():
        ra, rb = t.room_of(a), t.room_of(b)
        if ra and rb and ra != rb:
            out.append((ra, rb, "%s %s %s" % (a, how, b)))
    return out


def d2_room_circles(t):
    graph = {}
    for ra, rb, _ in room_edges(t):
        graph.setdefault(ra, set()).add(rb)
    return circles(graph)


def d3_downwards(t):
    return sorted({"%s (%s -> %s)" % (why, ra, rb)
                   for ra, rb, why in room_edges(t) if not t.may_use(ra, rb)})


def d4_public_include(t):
    bad = []
    for f in t.files:
        rf = t.room_of(f)
        if rf is None:
            continue
        for name, h in t.includes[f]:
            rh = t.room_of(h) if h else None
            if rh is None or h == t.rooms[rh].header:
                continue
            if rh != rf or "/" in name:
                bad.append("%s includes %s (%s)" % (f, name, h))
    return bad


def d5_programs(t):
    return sorted({"%s %s %s" % (a, how, b) for a, b, how in t.edges()
                   if program(a) and program(b) and
                   program(b) not in (program(a), "lib")})


CHECKS = [
    ("T1", "the table's rooms are the tree's: every source in one room, "
     "every room there", t1_rooms),
    ("T2", "the table runs downwards: no circle; a program's rooms use "
     "their own program and lib/, lib/'s rooms lib/", t2_table),
    ("H1", "one public header per room, named after it, the rest _int.h "
     "(iostatmon/: FILE.h of each file)", h1_headers),
    ("H1-lib", "lib/: every file is named after its module or room",
     h1_lib_names),
    ("H2", "private headers have names unique in the tree", h2_unique),
    ("H3", "private headers are included only inside their room (and by "
     "unit tests and fuzzers)", h3_private),
    ("N1", "exported names start with their file's name, or a prefix of "
     "the room that declares them", n1_names),
    ("N2", "a name another room uses is in its public header, with its "
     "prefix", n2_public),
    ("D1", "no object file uses another in a circle", d1_file_circles),
    ("D2", "no room uses another in a circle", d2_room_circles),
    ("D3", "rooms use and include only the rooms the table lets them",
     d3_downwards),
    ("D4", "an include of another room, or one that names a folder, "
     "names a public header", d4_public_include),
    ("D5", "programs use and include none of each other's files, lib/ "
     "none of theirs", d5_programs),
]


def run(t):
    """{rule: its violations}"""
    return {key: f(t) for key, _, f in CHECKS}


# ----------------------------------------------------------- self-tests
# A made-up tree with every kind of room: lib/ modules a, b and fmt and
# a room r; fsscan/ rooms s (on top) and w (with a second prefix,
# census_, and a room-prefixed name in another file, w_stub); iostatmon/
# with a private header of the files named d, and the allowed cmd.h;
# report/ rooms c (on top) and e; a unit test and a fuzzer that include
# private headers.

FAKE_ROOMS = dict([
    module("a"),
    module("b", "a"),
    module("fmt"),
    room("lib/r", ("r_",), "lib/b"),
    room("fsscan/s", ("s_",), "fsscan/w", LIB),
    room("fsscan/w", ("w_", "census_"), LIB),
    ("iostatmon", Room("iostatmon", None, (), {LIB})),
    room("report/c", ("c_",), "report/e", LIB),
    room("report/e", ("e_",), LIB),
])
FAKE_NAME_ALLOW = {"lib/a": r"ax\w+"}
FAKE_HEADER_ALLOW = {"iostatmon/cmd.h"}
FAKE = {
    "lib/a.h": "int a_one(void);\nint axe(void);\n",
    "lib/a.c": '#include "a.h"\nint a_one(void) { return 1; }\n'
               "int axe(void) { return 0; }\n",
    "lib/b.h": "int b_two(void);\n",
    "lib/b.c": '#include "a.h"\n#include "b.h"\n'
               "int b_two(void) { return a_one() + axe() + 1; }\n",
    "lib/r/r.h": "int r_get(void);\n",
    "lib/r/r_int.h": "int r_inner_get(void);\n",
    "lib/r/r_get.c": '#include "b.h"\n#include "r.h"\n#include "r_int.h"\n'
                     "int r_get(void) { return r_inner_get() + b_two(); }\n",
    "lib/r/r_inner.c": '#include "r_int.h"\n'
                       "int r_inner_get(void) { return 3; }\n",
    "fsscan/w/w.h": "int w_run(void);\nint census_add(int x);\n"
                    "int w_stub(void);\n",
    "fsscan/w/w_int.h": "int census_tally(void);\n",
    "fsscan/w/w.c": '#include "r/r.h"\n#include "w.h"\n#include "w_int.h"\n'
                    "int w_run(void) { return census_tally() + r_get(); }\n",
    "fsscan/w/census.c": '#include "w.h"\n#include "w_int.h"\n'
                         "int census_add(int x) { return x + 1; }\n"
                         "int census_tally(void) { return 2; }\n"
                         "int w_stub(void) { return 0; }\n",
    "fsscan/s/s.h": "int s_main(void);\n",
    "fsscan/s/s.c": '#include "a.h"\n#include "s/s.h"\n#include "w/w.h"\n'
                    "int s_main(void) { return w_run() + census_add(a_one())"
                    " + w_stub(); }\n",
    "fsscan/s/main.c": '#include "s/s.h"\n'
                       "int main(void) { return s_main(); }\n",
    "iostatmon/d.h": "int d_tick(void);\n",
    "iostatmon/d_int.h": "int d_more_x(void);\n",
    "iostatmon/d.c": '#include "d.h"\n#include "d_int.h"\n#include "cmd.h"\n'
                     "int d_tick(void) { return d_more_x(); }\n"
                     "int d_cmd(void) { return 0; }\n",
    "iostatmon/d_more.c": '#include "d_int.h"\n'
                          "int d_more_x(void) { return 4; }\n",
    "iostatmon/cmd.h": "int d_cmd(void);\n",
    "iostatmon/main.c": '#include "b.h"\n#include "cmd.h"\n#include "d.h"\n'
                        "int main(void) { return d_tick() + d_cmd() +"
                        " b_two(); }\n",
    "report/e/e.h": "/* e_hidden is not declared here */\nint e_val(void);\n",
    "report/e/e_int.h": "int e_hidden(void);\n",
    "report/e/e.c": '#include "e.h"\n#include "e_int.h"\n'
                    "int e_val(void) { return e_hidden(); }\n"
                    "int e_hidden(void) { return 5; }\n",
    "report/c/c.h": "int c_show(void);\n",
    "report/c/c.c": '#include "c.h"\n#include "e/e.h"\n#include "fmt.h"\n'
                    "int c_show(void) { return e_val(); }\n",
    "report/c/main.c": '#include "c/c.h"\n'
                       "int main(void) { return c_show(); }\n",
    "lib/fmt.h": "int fmt_it(void);\n",
    "lib/fmt.c": '#include "fmt.h"\nint fmt_it(void) { return 0; }\n',
    "tests/unit/test_w.c": '#include "w/w_int.h"\n#include "e/e_int.h"\n',
    "tests/fuzz/fuzz_r.c": "#include <r/r_int.h>\n",
}


# A plant changes the made-up tree: m.files (path -> text), m.rooms (its
# table), m.names and m.headers (its allow-lists).

def append(path, text):
    def change(m):
        m.files[path] = m.files.get(path, "") + text
    return change


def put(path, text):
    def change(m):
        m.files[path] = text
    return change


def allow_use(r, *more):
    def change(m):
        m.rooms[r].uses.update(more)
    return change


def add_room(*row):
    def change(m):
        m.rooms.update([row])
    return change


def unallow(key):
    def change(m):
        m.names.pop(key, None)
        m.headers.discard(key)
    return change


# (what is planted, its changes of the files or the table, the rules that
# must fail with words of their report, rules that must still pass)
PLANTS = [
    ("a file outside every room", [put("fsscan/loose.c", "int loose;\n")],
     {"T1": "fsscan/loose.c"}, ()),
    ("a private header at lib/'s top", [put("lib/q_int.h", "")],
     {"T1": "lib/q_int.h"}, ()),
    ("a room of the table not in the tree",
     [add_room(*room("report/gone", ("gone_",), LIB))],
     {"T1": "report/gone"}, ()),
    ("a table in which fsscan uses report",
     [allow_use("fsscan/w", "report/e")], {"T2": "report/e"}, ()),
    ("a table that goes round", [allow_use("lib/a", "lib/b")],
     {"T2": "lib/a <-> lib/b"}, ("D2",)),
    ("a second public header", [put("fsscan/w/extra.h", "")],
     {"H1": "fsscan/w/extra.h"}, ()),
    ("a lib/ module without its header",
     [put("lib/g.c", "int g_f(void) { return 0; }\n"),
      add_room(*module("g"))],
     {"H1": "no public header lib/g.h"}, ()),
    ("an iostatmon/ header of no file", [put("iostatmon/odd.h", "")],
     {"H1": "iostatmon/odd.h"}, ()),
    ("a file of lib/r/ not named after it",
     [put("lib/r/zz.c", "int zz_f(void) { return 0; }\n")],
     {"H1-lib": "lib/r/zz.c"}, ("N1",)),
    ("a name of the allow-list without its entry", [unallow("lib/a")],
     {"N1": "lib/a: axe"}, ()),
    ("a header of the allow-list without its entry",
     [unallow("iostatmon/cmd.h")], {"H1": "iostatmon/cmd.h"}, ()),
    ("a private header's name twice", [put("report/c/w_int.h", "")],
     {"H2": "w_int.h"}, ()),
    ("a private header included as ../w/w_int.h",
     [append("fsscan/s/s.c", '#include "../w/w_int.h"\n')],
     {"H3": "fsscan/s/s.c includes ../w/w_int.h"}, ()),
    ("a private header included by its bare name through -I",
     [append("fsscan/s/s.c", '#include "w_int.h"\n')],
     {"H3": "fsscan/s/s.c includes w_int.h"}, ()),
    ("a private header included as <w/w_int.h>",
     [append("report/c/c.c", "#include <w/w_int.h>\n")],
     {"H3": "report/c/c.c includes w/w_int.h"}, ()),
    ("iostatmon's d_int.h included by a file not named d",
     [append("iostatmon/main.c", '#include "d_int.h"\n')],
     {"H3": "iostatmon/main.c includes d_int.h"}, ()),
    ("an exported name without its file's name",
     [append("fsscan/w/w.c", "int stray(void) { return 0; }\n")],
     {"N1": "fsscan/w/w: stray"}, ()),
    ("a room-prefixed name its public header does not declare",
     [append("fsscan/w/census.c", "int w_hidden(void) { return 0; }\n")],
     {"N1": "fsscan/w/census: w_hidden"}, ()),
    ("a name used from the room's private header",
     [append("report/c/c.c", "int e_hidden(void);\n"
             "int c_peek(void) { return e_hidden(); }\n")],
     {"N2": "uses e_hidden of report/e/e, not in report/e's public"}, ()),
    ("a name used without the room's prefix",
     [put("report/e/util.c", "int util_f(void) { return 6; }\n"),
      append("report/e/e.h", "int util_f(void);\n"),
      append("report/c/c.c", "int c_util(void) { return util_f(); }\n")],
     {"N2": "uses util_f of report/e/util, without a prefix"}, ("N1",)),
    ("two files that use each other",
     [append("lib/a.c", "int b_two(void);\n"
             "int a_three(void) { return b_two(); }\n")],
     {"D1": "lib/a <-> lib/b"}, ()),
    ("a room that uses one above it, two rooms in a circle, no two files",
     [put("fsscan/w/up.c", "int s_main(void);\n"
          "int up_f(void) { return s_main(); }\n")],
     {"D2": "fsscan/s <-> fsscan/w",
      "D3": "fsscan/w/up.c uses fsscan/s/s.c (fsscan/w -> fsscan/s)"},
     ("D1",)),
    ("a room that includes one above it",
     [append("report/e/e.c", '#include "c/c.h"\n')],
     {"D3": "report/e/e.c includes report/c/c.h"}, ()),
    ("a private header of its own room by a folder's path",
     [append("fsscan/w/w.c", '#include "w/w_int.h"\n')],
     {"D4": "fsscan/w/w.c includes w/w_int.h"}, ("H3",)),
    ("a program that includes another's file",
     [append("iostatmon/d.c", '#include "../report/e/e.h"\n')],
     {"D5": "iostatmon/d.c includes report/e/e.h"}, ()),
    ("a program that uses another's code",
     [append("iostatmon/d.c", "int e_val(void);\n"
             "int d_peek(void) { return e_val(); }\n")],
     {"D5": "iostatmon/d.c uses report/e/e.c"}, ()),
    ("lib/ that uses a program's code",
     [append("lib/b.c", "int w_run(void);\n"
             "int b_up(void) { return w_run(); }\n")],
     {"D5": "lib/b.c uses fsscan/w/w.c"}, ()),
]


def compile_fake(top, objdir, files, old):
    """Compile the .c files of the made-up tree that differ from old (a
    previous tree compiled into the same objdir); -I every folder, so
    that any spelling of an include compiles. The compiler's complaint,
    or None."""
    dirs = sorted({os.path.dirname(f) for f in files} | set(INCLUDE_DIRS))
    flags = ["-I" + os.path.join(top, d) for d in dirs if d]
    for f in sorted(old):
        if f.endswith(".c") and f not in files:
            os.remove(os.path.join(objdir, f[:-2] + ".o"))
    for f, text in sorted(files.items()):
        if not f.endswith(".c") or not program(f) or old.get(f) == text:
            continue
        o = os.path.join(objdir, f[:-2] + ".o")
        os.makedirs(os.path.dirname(o), exist_ok=True)
        p = subprocess.run([os.environ.get("CC", "cc"), "-std=c11", "-c",
                            "-o", o, os.path.join(top, f)] + flags,
                           capture_output=True, text=True)
        if p.returncode:
            return "%s: %s" % (f, p.stderr.strip())
    return None


def write_fake(top, files, old):
    for f in old:
        if f not in files:
            os.remove(os.path.join(top, f))
    for f, text in files.items():
        if old.get(f) != text:
            os.makedirs(os.path.join(top, os.path.dirname(f)), exist_ok=True)
            with open(os.path.join(top, f), "w") as fh:
                fh.write(text)


def copy_rooms(rooms):
    return {r: Room(row.folder, row.header, row.prefixes, set(row.uses))
            for r, row in rooms.items()}


def selftest():
    tmp = tempfile.mkdtemp(prefix="t_layout.")
    try:
        top, objdir = os.path.join(tmp, "src"), os.path.join(tmp, "obj")
        write_fake(top, FAKE, {})
        err = compile_fake(top, objdir, FAKE, {})
        if not check("self-test: the made-up tree compiles", err is None,
                     err):
            return

        def made_up():
            return types.SimpleNamespace(
                files=dict(FAKE), rooms=copy_rooms(FAKE_ROOMS),
                names=dict(FAKE_NAME_ALLOW), headers=set(FAKE_HEADER_ALLOW))

        def tree(m):
            return Tree(top, objdir, m.rooms, m.names, m.headers)
        clean = run(tree(made_up()))
        bad = {k: v for k, v in clean.items() if v}
        check("self-test: the made-up tree passes every rule", not bad,
              str(bad))
        old = FAKE
        for what, change, fails, apart in PLANTS:
            m = made_up()
            for c in change:
                c(m)
            write_fake(top, m.files, old)
            err = compile_fake(top, objdir, m.files, old)
            old = m.files
            if err:
                check("self-test: %s compiles" % what, False, err)
                continue
            got = run(tree(m))
            for key, word in sorted(fails.items()):
                check("self-test: %s fails %s" % (what, key),
                      any(word in v for v in got[key]),
                      "%s reports %s" % (key, got[key] or "nothing"))
            for k in apart:
                check("self-test: %s passes %s" % (what, k), not got[k],
                      "%s reports %s" % (k, got[k]))
    finally:
        shutil.rmtree(tmp)


# ----------------------------------------------------------------- main

def check(name, cond, why):
    return tap.ok(cond, name, why)


def main():
    objdir = os.path.join(BUILD, "obj")
    t = Tree(TOP, objdir, ROOMS, NAME_ALLOW, HEADER_ALLOW)
    built = {program(u) for u in t.defs}
    if not check("objects of lib/ and of every program under %s" % objdir,
                 built >= set(PROGRAMS + ("lib",)),
                 "only of %s: build first" % sorted(built)):
        return
    got = run(t)
    for key, name, _ in CHECKS:
        check("%s. %s" % (key, name), not got[key], "; ".join(got[key]))
    selftest()


if __name__ == "__main__":
    main()
    tap.done()
