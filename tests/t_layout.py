#!/usr/bin/env python3
# tests/run: once
"""t_layout: the layout rules of docs/ARCHITECTURE.md ("Rooms"), checked on
the built objects (nm) and the sources, so that a change that breaks one
fails here instead of in review.

 1. No two object files use each other's symbols, directly or in a circle
    (lib/, fsscan/, iostatmon/ and report/).
 2. Every report/ room ROOM has one public header ROOM/ROOM.h; its other
    headers end in _int.h, and no file outside the room includes them
    (unit tests may).
 3. A function with external linkage in report/ROOM/FILE.c starts with
    FILE (Redis style); one another room uses starts with the room's
    prefix and is declared in ROOM/ROOM.h.
 4. Rooms depend on each other only downwards, as the table below (and
    ARCHITECTURE.md's module map) says.
 5. fsscan/ is in rooms too (FSSCAN_ROOMS below): one public header each,
    private headers included only inside their room however the include
    is spelled, every exported name starting with its file's or its
    room's name, a name another room uses declared in the public header,
    and dependencies downwards only.
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
import tap  # noqa: E402

TOP = os.environ.get("TOP", os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
BUILD = os.environ.get("BUILD", os.path.join(TOP, "build"))

# room: (prefix of its public names, rooms it may use). lib/ is below all.
ROOMS = {
    "cli": ("cli_", {"traffic", "space", "summary", "opts", "render",
                     "ingest", "rollup", "query", "result"}),
    "render": ("render_", {"result"}),
    "traffic": ("traffic_", {"opts", "query", "rollup", "result"}),
    "space": ("space_", {"opts", "query", "result"}),
    "summary": ("summary_", {"result"}),
    "opts": ("opts_", {"query"}),
    "query": ("query_", {"chunk"}),
    "ingest": ("ingest_", {"rollup", "chunk", "result"}),
    "rollup": ("rollup_", {"chunk"}),
    "chunk": ("chunk_", set()),
    "result": ("result_", set()),
}


def check(name, cond, why):
    tap.ok(cond, name, why)


def objects():
    """The objects of the sources there are: a build directory keeps those
    of files since moved or removed."""
    out = []
    for d, _, files in os.walk(os.path.join(BUILD, "obj")):
        for f in files:
            o = os.path.join(d, f)
            if f.endswith(".o") and f != "sql_embed.o" and \
                    os.path.exists(os.path.join(TOP, unit(o) + ".c")):
                out.append(o)
    return sorted(out)


def unit(o):
    """report/traffic/traffic_cdf for BUILD/obj/report/traffic/traffic_cdf.o"""
    return os.path.relpath(o, os.path.join(BUILD, "obj"))[:-2]


def symbols(objs):
    defs, uses = {}, {}
    for o in objs:
        u = unit(o)
        uses[u] = set()
        nm = subprocess.run(["nm", o], capture_output=True, text=True,
                            check=True).stdout
        for line in nm.splitlines():
            p = line.split()
            if len(p) == 3 and p[1] in "TDBRC":
                defs.setdefault(p[2], u)
            elif len(p) == 2 and p[0] == "U":
                uses[u].add(p[1])
    return defs, uses


def cycles(graph):
    """Strongly connected components of more than one node (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
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


def room_of(u):
    p = u.split("/")
    return p[1] if p[0] == "report" and len(p) == 3 else None


def public_decls(room):
    with open(os.path.join(TOP, "report", room, room + ".h")) as f:
        return set(re.findall(r"\b(\w+)\s*\(", f.read()))


def main():
    objs = objects()
    if not any(unit(o).startswith("report/") for o in objs):
        check("objects", False, "no report/ objects under %s: build first" % BUILD)
        return
    defs, uses = symbols(objs)
    graph = {u: {defs[s] for s in uses[u] if s in defs and defs[s] != u}
             for u in uses}

    # 1. no import circles between files
    circ = cycles(graph)
    check("no file imports another in a circle", not circ,
              "; ".join(" <-> ".join(c) for c in circ))

    # 2. one public header per room; private headers stay inside
    rooms = sorted(d for d in os.listdir(os.path.join(TOP, "report"))
                   if os.path.isdir(os.path.join(TOP, "report", d)))
    check("report/ rooms are the documented ones",
              rooms == sorted(ROOMS), "found %s" % rooms)
    for r in rooms:
        hdrs = [f for f in os.listdir(os.path.join(TOP, "report", r))
                if f.endswith(".h")]
        odd = [h for h in hdrs if h != r + ".h" and not h.endswith("_int.h")]
        check("report/%s: one public header %s.h, the rest _int.h"
                  % (r, r), (r + ".h") in hdrs and not odd, "odd: %s" % odd)
    bad = []
    for d in ("report", "lib", "fsscan", "iostatmon"):
        for root, _, files in os.walk(os.path.join(TOP, d)):
            for f in files:
                if not f.endswith((".c", ".h")):
                    continue
                path = os.path.join(root, f)
                src = os.path.relpath(path, TOP)
                with open(path) as fh:
                    for inc in re.findall(r'#include "(\w+)/(\w+\.h)"',
                                          fh.read()):
                        if inc[1] != inc[0] + ".h":
                            bad.append("%s includes %s/%s" % (src, *inc))
    check("no file includes another room's private header", not bad,
              "; ".join(bad))

    # 3. names
    misnamed, unexported = [], []
    for u in sorted(uses):
        r = room_of(u)
        if r is None:
            continue
        base = os.path.basename(u)
        for s, du in defs.items():
            if du == u and s != "main" and not s.startswith(base):
                misnamed.append("%s: %s" % (u, s))
    for u in sorted(uses):
        ru = room_of(u)
        for s in uses[u]:
            d = defs.get(s)
            rd = room_of(d) if d else None
            if rd is None or rd == ru:
                continue
            if not s.startswith(ROOMS[rd][0]) or s not in public_decls(rd):
                unexported.append("%s uses %s of %s" % (u, s, d))
    check("report/ functions start with their file's name",
              not misnamed, "; ".join(misnamed))
    check("rooms use only each other's public, prefixed names",
              not unexported, "; ".join(sorted(set(unexported))))

    # 4. room dependencies run one way
    rgraph, wrong = {}, []
    for u, vs in graph.items():
        ru = room_of(u)
        if ru is None:
            if u.startswith("lib/") and any(not v.startswith("lib/")
                                            for v in vs):
                wrong.append("%s uses a program's code" % u)
            continue
        for v in vs:
            rv = room_of(v)
            if rv is None or rv == ru:
                if not (v.startswith("lib/") or rv == ru):
                    wrong.append("%s uses %s" % (u, v))
                continue
            rgraph.setdefault(ru, set()).add(rv)
            if rv not in ROOMS[ru][1]:
                wrong.append("%s (%s) uses %s (%s)" % (u, ru, v, rv))
    check("rooms depend downwards only", not wrong,
              "; ".join(sorted(set(wrong))))
    check("no room imports another in a circle", not cycles(rgraph),
              str(cycles(rgraph)))
    for prog in ("fsscan", "iostatmon"):
        other = [u + " uses " + v for u, vs in graph.items()
                 if u.startswith(prog + "/") for v in vs
                 if not (v.startswith("lib/") or v.startswith(prog + "/"))]
        check("%s uses only itself and lib/" % prog, not other,
                  "; ".join(other))
    fsscan_rooms(defs, uses, graph)


# ---------------------------------------------------------------------
# fsscan/: its rooms and their rules (rule 5), apart from the rest.
#
# room: the rooms it may use; lib/ is below all. fsscan's rooms are larger
# than report's: a name another room uses starts with its file's name
# (census_merge, snapshot_begin) or its room's, and is declared in the
# room's public header.
FSSCAN_ROOMS = {
    "mpi": {"scan", "record", "walk", "project"},
    "scan": {"record", "walk", "project"},
    "record": {"walk", "project"},
    "walk": {"project"},
    "project": set(),
}
# (unit, name): exported names that carry no prefix, and why.
FSSCAN_NAME_ALLOW = {
    # Replaces libdl's dlclose in sanitizer builds of fsscan-mpi, so that
    # Open MPI's components stay loaded and LeakSanitizer names them.
    ("fsscan/mpi/mpi_lsan", "dlclose"),
}
# -I directories of the Makefile, in order, after the including file's own.
INCLUDE_DIRS = ("lib", "fsscan", "report", "iostatmon")


def fsscan_room(u):
    """walk for fsscan/walk/visit (a unit or a source path)."""
    p = u.split("/")
    return p[1] if p[0] == "fsscan" and len(p) == 3 else None


def resolve_include(src, name, quoted):
    """The file of the tree an #include names, as the compiler finds it;
    None for one outside it (a system header)."""
    dirs = ([os.path.dirname(src)] if quoted else []) + \
        [os.path.join(TOP, d) for d in INCLUDE_DIRS]
    for d in dirs:
        path = os.path.normpath(os.path.join(d, name))
        if os.path.isfile(path):
            return os.path.relpath(path, TOP)
    return None


def fsscan_private_includes():
    """Every include, in any source of the tree but the unit tests, that
    finds a private header of an fsscan room outside that room."""
    bad = []
    for d, dirs, files in os.walk(TOP):
        dirs[:] = [x for x in dirs if not x.startswith((".", "build"))]
        rel = os.path.relpath(d, TOP)
        if rel == os.path.join("tests", "unit"):
            continue
        for f in files:
            if not f.endswith((".c", ".h")):
                continue
            src = os.path.join(d, f)
            with open(src, errors="replace") as fh:
                incs = re.findall(r'^\s*#\s*include\s*([<"])([^">]+)[">]',
                                  fh.read(), re.M)
            for q, name in incs:
                h = resolve_include(src, name, q == '"')
                r = fsscan_room(h) if h else None
                if r and h.endswith("_int.h") and \
                        fsscan_room(os.path.relpath(src, TOP)) != r:
                    bad.append("%s includes %s"
                               % (os.path.relpath(src, TOP), h))
    return bad


def fsscan_public_decls(room):
    with open(os.path.join(TOP, "fsscan", room, room + ".h")) as f:
        return set(re.findall(r"\b(\w+)\s*\(", f.read()))


def fsscan_rooms(defs, uses, graph):
    top = os.path.join(TOP, "fsscan")
    rooms = sorted(d for d in os.listdir(top)
                   if os.path.isdir(os.path.join(top, d)))
    loose = sorted(f for f in os.listdir(top)
                   if f.endswith((".c", ".h")))
    check("fsscan/ rooms are the documented ones",
          rooms == sorted(FSSCAN_ROOMS) and not loose,
          "rooms %s, files outside them %s" % (rooms, loose))
    for r in rooms:
        hdrs = [f for f in os.listdir(os.path.join(top, r))
                if f.endswith(".h")]
        odd = [h for h in hdrs if h != r + ".h" and not h.endswith("_int.h")]
        check("fsscan/%s: one public header %s.h, the rest _int.h"
              % (r, r), (r + ".h") in hdrs and not odd, "odd: %s" % odd)

    bad = fsscan_private_includes()
    check("no file includes an fsscan room's private header from outside",
          not bad, "; ".join(bad))

    misnamed = []
    for s, u in sorted(defs.items()):
        r = fsscan_room(u)
        if r is None or s == "main" or (u, s) in FSSCAN_NAME_ALLOW:
            continue
        if not any(s == p or s.startswith(p + "_")
                   for p in (os.path.basename(u), r)):
            misnamed.append("%s: %s" % (u, s))
    check("fsscan/ exported names start with their file's or room's name",
          not misnamed, "; ".join(misnamed))

    undeclared, wrong, rgraph = [], [], {}
    for u in sorted(uses):
        ru = fsscan_room(u)
        if ru is None:
            continue
        for s in sorted(uses[u]):
            d = defs.get(s)
            rd = fsscan_room(d) if d else None
            if rd is None or rd == ru:
                continue
            if s not in fsscan_public_decls(rd):
                undeclared.append("%s uses %s of %s" % (u, s, d))
        for v in graph[u]:
            rv = fsscan_room(v)
            if rv is None or rv == ru:
                continue
            rgraph.setdefault(ru, set()).add(rv)
            if rv not in FSSCAN_ROOMS.get(ru, ()):
                wrong.append("%s (%s) uses %s (%s)" % (u, ru, v, rv))
    check("fsscan/ rooms use only what each other's public header declares",
          not undeclared, "; ".join(undeclared))
    check("fsscan/ rooms depend downwards only", not wrong,
          "; ".join(sorted(set(wrong))))
    check("no fsscan/ room imports another in a circle", not cycles(rgraph),
          str(cycles(rgraph)))


# ==== lib/ and iostatmon/ (begin) ===========================================
# The rooms below the programs, as docs/ARCHITECTURE.md ("Rooms") has them:
#  L1. lib/ is a module per file: lib/FILE.c with its one public header
#      lib/FILE.h (or a header alone); a module with private parts is a room
#      of its own, lib/ROOM/ (LIB_ROOMS), whose files are named ROOM*, with
#      one public header ROOM/ROOM.h and the others ending in _int.h.
#      iostatmon/ is one room: each file that others call has its header
#      FILE.h; a header shared by the files named X is X_int.h.
#  L2. A name with external linkage in lib/ or iostatmon/ starts with its
#      file's name; in lib/ROOM/ one that ROOM.h declares may start with
#      the room's prefix instead, and one the room alone uses may not.
#  L3. A name of lib/ROOM/ that code outside the room uses is declared in
#      ROOM/ROOM.h.
#  L4. A private header is included only inside its room (lib/ROOM/*, or
#      iostatmon/X* for iostatmon/X_int.h), and by unit tests and fuzzers,
#      however the include is spelled: it is known by its file name, which
#      is unique in the tree.
#  L5. lib/'s modules and rooms use each other in no circle.

LIB_ROOMS = {"iolog": "iolog_"}         # lib/ROOM/: the prefix of its names

# Exceptions, each with its reason. Keep this short.
LI_NAME_ALLOW = {
    # xalloc's allocators that exit instead of failing are named after the
    # libc functions they wrap, with an x (xmalloc for malloc; xgrow the
    # array growth built on xrealloc): a convention read at a glance, in
    # some 360 calls in every room of the tree.
    "lib/xalloc": "x",
}
LI_HEADER_ALLOW = {
    # the subcommands' entry points (devices_cmd, dump_cmd, import_cmd),
    # one per command file, dispatched by main.c.
    "iostatmon/cmd.h",
}
# Who may include a room's private headers besides the room.
LI_TEST_DIRS = ("tests/unit/", "tests/fuzz/")
# Where includes are looked for: every C source of the tree.
LI_SRC_DIRS = ("lib", "fsscan", "iostatmon", "report", "scripts", "tests")


def li_symbols(objs):
    """unit -> (defined, used) names of the objects, in one nm run."""
    out = {unit(o): (set(), set()) for o in objs}
    nm = subprocess.run(["nm", "-A"] + objs, capture_output=True, text=True,
                        check=True).stdout
    for line in nm.splitlines():
        path, _, rest = line.partition(":")
        p = rest.split()
        u = unit(path)
        if p and p[-1].startswith("__"):
            continue    # the implementation's (a sanitizer's __odr_asan.*)
        if len(p) == 3 and p[1] in "TDBRC":
            out[u][0].add(p[2])
        elif len(p) == 2 and p[0] == "U":
            out[u][1].add(p[1])
    return out


def li_files(top, exts):
    """Paths (relative to TOP) under top with one of exts."""
    out = []
    for root, dirs, files in os.walk(os.path.join(TOP, top)):
        dirs[:] = [d for d in dirs if d not in ("corpus", "golden")]
        out += [os.path.relpath(os.path.join(root, f), TOP)
                for f in files if f.endswith(exts)]
    return sorted(out)


def li_lib_room(u):
    """iolog for lib/iolog/iolog_read (a unit or a path), else None."""
    p = u.split("/")
    return p[1] if p[0] == "lib" and len(p) == 3 else None


def li_layout():
    """L1: the headers of lib/, its rooms and iostatmon/."""
    odd = []
    for f in os.listdir(os.path.join(TOP, "lib")):
        path = os.path.join(TOP, "lib", f)
        if os.path.isdir(path):
            if f not in LIB_ROOMS:
                odd.append("lib/%s/ is no documented room" % f)
            continue
        base, ext = os.path.splitext(f)
        if ext == ".c" and not os.path.exists(path[:-2] + ".h"):
            odd.append("lib/%s has no header lib/%s.h" % (f, base))
        elif ext == ".h" and base.endswith("_int"):
            odd.append("lib/%s: a private header makes a room lib/ROOM/" % f)
    check("lib/: a public header per module, rooms only where documented",
          not odd, "; ".join(odd))
    for r in sorted(LIB_ROOMS):
        d = os.path.join(TOP, "lib", r)
        files = sorted(os.listdir(d)) if os.path.isdir(d) else []
        odd = [f for f in files if not f.startswith(r) or
               (f.endswith(".h") and f != r + ".h" and
                not f.endswith("_int.h"))]
        check("lib/%s: files named %s*, one public header %s.h, the rest "
              "_int.h" % (r, r, r), (r + ".h") in files and not odd,
              "odd: %s" % odd)
    srcs = {f[:-2] for f in li_files("iostatmon", (".c",))}
    odd = [h for h in li_files("iostatmon", (".h",))
           if h[:-2] not in srcs and not h.endswith("_int.h") and
           h not in LI_HEADER_ALLOW]
    check("iostatmon/: a header is a file's FILE.h or a private X_int.h",
          not odd, "; ".join(odd))


def li_names(syms):
    """L2 and L3."""
    misnamed, unexported = [], []
    public = {}
    for r in LIB_ROOMS:
        with open(os.path.join(TOP, "lib", r, r + ".h")) as f:
            public[r] = set(re.findall(r"\b(\w+)\s*\(", f.read()))
    for u, (defs, _) in sorted(syms.items()):
        if not u.startswith(("lib/", "iostatmon/")):
            continue
        r, base = li_lib_room(u), os.path.basename(u)
        for s in sorted(defs - {"main"}):
            if r is not None and s in public[r]:
                good = s.startswith(LIB_ROOMS[r])
            else:
                good = s.startswith(LI_NAME_ALLOW.get(u, base))
            if not good:
                misnamed.append("%s: %s" % (u, s))
    where = {s: u for u, (defs, _) in syms.items() for s in defs}
    for u, (_, used) in sorted(syms.items()):
        for s in sorted(used):
            r = li_lib_room(where.get(s, ""))
            if r is not None and li_lib_room(u) != r and s not in public[r]:
                unexported.append("%s uses %s of %s" % (u, s, where[s]))
    check("lib/ and iostatmon/ names start with their file's (or room's) "
          "name", not misnamed, "; ".join(misnamed))
    check("lib/ rooms are used only through their public header",
          not unexported, "; ".join(unexported))


def li_private():
    """L4: private headers and who includes them."""
    owner = {}          # file name -> (its path, who may include it)
    for r in LIB_ROOMS:
        for h in li_files(os.path.join("lib", r), ("_int.h",)):
            owner.setdefault(os.path.basename(h), []).append(
                (h, "lib/%s/" % r))
    for h in li_files("iostatmon", ("_int.h",)):
        owner.setdefault(os.path.basename(h), []).append(
            (h, h[:-len("_int.h")]))
    names = {}
    for d in LI_SRC_DIRS:
        for f in li_files(d, (".c", ".h")):
            names.setdefault(os.path.basename(f), []).append(f)
    dup = ["%s: %s" % (n, names[n]) for n in sorted(owner)
           if len(names.get(n, [])) > 1]
    check("private headers of lib/ and iostatmon/ have names unique in "
          "the tree", not dup, "; ".join(dup))
    bad = []
    for d in LI_SRC_DIRS:
        for f in li_files(d, (".c", ".h")):
            with open(os.path.join(TOP, f), errors="replace") as fh:
                incs = re.findall(r'^\s*#\s*include\s*["<]([^">]+)[">]',
                                  fh.read(), re.M)
            for inc in incs:
                for h, inside in owner.get(os.path.basename(inc), ()):
                    if not f.startswith((inside,) + LI_TEST_DIRS):
                        bad.append("%s includes %s (%s)" % (f, inc, h))
    check("lib/ and iostatmon/ private headers stay inside their room",
          not bad, "; ".join(bad))


def li_circles(syms):
    """L5: lib/ modules and rooms as nodes of one graph."""
    def node(u):
        r = li_lib_room(u)
        return "lib/" + r if r else u
    where = {s: u for u, (defs, _) in syms.items() for s in defs}
    graph = {}
    for u, (_, used) in syms.items():
        if not u.startswith("lib/"):
            continue
        graph.setdefault(node(u), set()).update(
            node(where[s]) for s in used
            if s in where and node(where[s]) != node(u))
    circ = cycles(graph)
    check("lib/ modules and rooms use each other in no circle", not circ,
          "; ".join(" <-> ".join(c) for c in circ))


def li_main():
    objs = objects()
    if not any(unit(o).startswith("lib/") for o in objs):
        check("lib objects", False, "no lib/ objects under %s" % BUILD)
        return
    syms = li_symbols(objs)
    li_layout()
    li_names(syms)
    li_private()
    li_circles(syms)
# ==== lib/ and iostatmon/ (end) =============================================


if __name__ == "__main__":
    main()
    li_main()    # lib/ and iostatmon/
    tap.done()
