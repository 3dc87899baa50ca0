#!/usr/bin/env python3
# tests/run: once
"""t_citations: the repository holds every document and source file that
its comments and docs name, so that a reader who follows a citation finds
what it points to.

What is read: the comments of C sources and headers (// and /* */, never
string literals), of Python files (# comments and docstrings), of shell
scripts, the Makefile and scripts/* (# comments), of SQL files (--
comments), and the whole text of every Markdown file and of the man
pages docs/*.1 and docs/*.8.

What counts as a citation there:

 - a name ending in .md, .c, .h, .py, .sql, .sh, .1 or .8, bare (visit.c)
   or with a path (docs/census-db.md, ../lib/hist.h);
 - a path below a top-level directory of the tree (lib/, fsscan/,
   iostatmon/, report/, tests/, docs/, scripts/, sql/) that ends in "/",
   has an extension, or has two slashes or more (report/query/);
 - a numbered section (the section sign and a number, or "section"
   and a number after a Markdown file's name): it must follow the name
   of a Markdown file of the repository that has a heading with that
   number.

A path resolves against the root, the citing file's directory and each
directory above it, and the include directories (lib/, report/, fsscan/,
iostatmon/); a bare name also against every file's name in the tree. A
path without an extension may name a directory or a module (lib/safedir
for lib/safedir.c and .h). "*" is a glob, "lib/hist.{c,h}" is two names, a
component in capitals (ROOM/ROOM.h) is a placeholder, and a name
that starts with "_" (_int.h) is a suffix of some file's name. ALLOWED
lists what looks like a file of the tree but names something else.

Every citation that resolves nowhere is one "not ok" line, FILE:LINE and
the name. So is every mention, anywhere in any file, of the documents
outside the repository that the project once cited (FORBIDDEN): the
project's documents are its own.
"""
import ast
import fnmatch
import io
import os
import re
import subprocess
import sys
import tokenize

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "lib"))
from tap import done, eq, ok  # noqa: E402

TOP = os.environ.get("TOP", os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))

# Names that look like files of the tree but are not citations of one.
ALLOWED = {
    # libblkid's header, named where a build fails for want of it
    "blkid.h",
    # sysstat's sources, named as the origin of iostat's formulas
    "iostat.c",
    "rd_stats.c",
    # the include pattern of report/'s rooms, as the Makefile states it
    "room/room.h",
    # t_layout's placeholder for a room's private header
    "X_int.h",
    "iostatmon/X_int.h",
    # t_run_protocol's fake tests, made in its scratch tree
    "t_pass.sh", "t_fail.sh", "t_crash.sh", "t_needdep.py", "t_needroot.sh",
}

# Outside documents the project must not cite (split, so that this file
# does not mention them itself).
FORBIDDEN = ["PRODUCT" + ".md", "study-analyses" + ".md",
             "walkers" + ".md", ".." + "/shared", "shared" + "/reference"]

TOP_DIRS = ("lib", "fsscan", "iostatmon", "report", "tests", "docs",
            "scripts", "sql")
INCLUDE_DIRS = ("lib", "report", "fsscan", "iostatmon")
EXTS = r"(?:md|c|h|py|sql|sh|1|8)"

# A name with a citation's extension, with or without a path.
REF = re.compile(r"(?<![\w/.*-])((?:\.{1,2}/)*(?:[\w*-]+/)*"
                 r"[A-Za-z_*][\w*-]*(?:\.[\w*-]+)*\." + EXTS + r")(?![\w])")
# A path below a top-level directory, whatever its extension.
PATHREF = re.compile(r"(?<![\w/.*-])((?:%s)/[\w./*-]*)" % "|".join(TOP_DIRS))
SECTION = re.compile(r"§\s*(\d+(?:\.\d+)*)|(?<=\.md)(,?\s+sections?\s+)"
                     r"(\d+)")
URL = re.compile(r"\w+://\S+")
BRACES = re.compile(r"([\w./*-]*)\{([\w,]+)\}([\w.]*)")


# ---------------------------------------------------------------- the tree

def repo_files(top):
    """The files the repository holds: tracked and new ones, not ignored
    ones (build output), relative to top."""
    p = subprocess.run(["git", "ls-files", "--cached", "--others",
                        "--exclude-standard"], cwd=top, capture_output=True,
                       text=True)
    if p.returncode == 0 and p.stdout.strip():
        names = p.stdout.split("\n")
    else:
        names = []
        for d, sub, fs in os.walk(top):
            sub[:] = [s for s in sub if not s.startswith((".", "build"))]
            names += [os.path.relpath(os.path.join(d, f), top) for f in fs]
    return sorted(n for n in names
                  if n and os.path.isfile(os.path.join(top, n)))


class Tree:
    def __init__(self, files):
        self.files = set(files)
        self.dirs = set()
        self.stems = set()
        self.bases = set()
        for f in files:
            self.bases.add(os.path.basename(f))
            self.stems.add(os.path.splitext(f)[0])
            d = os.path.dirname(f)
            while d:
                self.dirs.add(d)
                d = os.path.dirname(d)

    def has_path(self, p, module):
        if "*" in p:
            return any(fnmatch.fnmatch(f, p) for f in self.files)
        return p in self.files or p in self.dirs or (module and
                                                      p in self.stems)

    def resolves(self, name, src):
        """Does name, cited in file src, name a file of the tree?"""
        name = name.rstrip(".")
        bare = "/" not in name.rstrip("/")
        module = not re.search(r"\." + EXTS + r"$", name)
        if name in ALLOWED or name.startswith("/"):
            return True
        if placeholder(name):
            return True
        if bare and name.startswith("_"):
            return any(b.endswith(name) for b in self.bases)
        bases = []
        d = os.path.dirname(src)
        while True:
            bases.append(d)
            if not d:
                break
            d = os.path.dirname(d)
        for b in bases + list(INCLUDE_DIRS):
            p = os.path.normpath(os.path.join(b, name)).rstrip("/")
            if not p.startswith("..") and self.has_path(p, module):
                return True
        if bare:
            return any(fnmatch.fnmatch(b, name) for b in self.bases)
        return False


def placeholder(name):
    """A name in capitals that stands for any (ROOM/ROOM.h): a directory
    in capitals, or a last component in capitals that is not a Markdown
    file (README.md is a real name)."""
    parts = name.rstrip("/").split("/")
    caps = [re.fullmatch(r"[A-Z][A-Z0-9_]+(\.\w+)?", c) for c in parts]
    return any(caps[:-1]) or (caps[-1] is not None and
                              not parts[-1].endswith(".md"))


# ------------------------------------------------------------- the comments

def kind_of(path, first_line):
    if path.endswith((".c", ".h")):
        return "c"
    if path.endswith(".py"):
        return "py"
    if path.endswith(".sql"):
        return "sql"
    if path.endswith(".md") or re.fullmatch(r"docs/[^/]+\.[18]", path):
        return "text"
    if path.endswith(".sh") or path == "Makefile":
        return "sh"
    if path.startswith("scripts/"):
        return "py" if "python" in first_line else "sh"
    return None


def c_comments(text):
    """(line, text) of every comment line of C source; strings and
    character constants are skipped."""
    out, i, n, line = [], 0, len(text), 1
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append((line, text[i + 2:j]))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j
            for k, part in enumerate(text[i + 2:j].split("\n")):
                out.append((line + k, part))
            line += text.count("\n", i, j)
            i = j + 2
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] not in (c, "\n"):
                if text[j] == "\\":
                    line += text[j + 1:j + 2] == "\n"
                    j += 1
                j += 1
            i = j + 1 if j < n and text[j] == c else j
        else:
            i += 1
    return out


def py_comments(text):
    """# comments and docstrings of Python source."""
    out = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type == tokenize.COMMENT:
                out.append((tok.start[0], tok.string[1:]))
        tree = ast.parse(text)
    except (tokenize.TokenError, SyntaxError, ValueError):
        return out
    for node in ast.walk(tree):
        if not isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef,
                                 ast.AsyncFunctionDef)) or not node.body:
            continue
        first = node.body[0]
        if isinstance(first, ast.Expr) and isinstance(
                first.value, ast.Constant) and isinstance(first.value.value,
                                                          str):
            for k, part in enumerate(first.value.value.split("\n")):
                out.append((first.lineno + k, part))
    return out


def sh_comments(text):
    """# comments of shell scripts and the Makefile: a # that starts a
    word outside quotes."""
    out = []
    for ln, line in enumerate(text.split("\n"), 1):
        quote = None
        for i, ch in enumerate(line):
            if quote:
                quote = None if ch == quote else quote
            elif ch in "'\"":
                quote = ch
            elif ch == "#" and (i == 0 or line[i - 1] in " \t;("):
                out.append((ln, line[i + 1:]))
                break
    return out


def sql_comments(text):
    out = []
    for ln, line in enumerate(text.split("\n"), 1):
        quote = False
        for i, ch in enumerate(line):
            if ch == "'":
                quote = not quote
            elif not quote and line.startswith("--", i):
                out.append((ln, line[i + 2:]))
                break
    return out


def text_lines(text):
    return list(enumerate(text.split("\n"), 1))


EXTRACT = {"c": c_comments, "py": py_comments, "sh": sh_comments,
           "sql": sql_comments, "text": text_lines}


def expand_braces(line):
    """"lib/hist.{c,h}" -> "lib/hist.c lib/hist.h"."""
    return BRACES.sub(lambda m: " ".join(m.group(1) + alt + m.group(3)
                                         for alt in m.group(2).split(",")),
                      line)


HEADINGS = {}


def numbered_headings(path):
    """The section numbers of a Markdown file's headings ("## 3. Foo")."""
    if path not in HEADINGS:
        with open(os.path.join(TOP, path), encoding="utf-8",
                  errors="replace") as f:
            HEADINGS[path] = set(re.findall(
                r"^#{1,6}\s+(\d+(?:\.\d+)*)[.\s]", f.read(), re.M))
    return HEADINGS[path]


def cited_md(tree, name, src):
    """The repository path of Markdown file name cited from src, or None."""
    for b in (os.path.dirname(src), ""):
        p = os.path.normpath(os.path.join(b, name))
        if p in tree.files:
            return p
    hits = [f for f in tree.files if os.path.basename(f) == name]
    return hits[0] if len(hits) == 1 else None


def line_citations(tree, src, line):
    """(name, why) of every citation of one comment line that the tree
    does not hold."""
    bad = []
    line = expand_braces(URL.sub(" ", line))
    refs = list(REF.finditer(line))
    starts = {m.start(1) for m in refs}
    for m in refs:
        if not tree.resolves(m.group(1), src):
            bad.append((m.group(1), "no such file in the repository"))
    for m in PATHREF.finditer(line):
        name = m.group(1).rstrip(".,:;")
        last = name.rstrip("/").rsplit("/", 1)[-1]
        if m.start(1) in starts or re.search(r"\." + EXTS + "$", name):
            continue
        if not (name.endswith("/") or "." in last or name.count("/") >= 2):
            continue            # "fsscan/du": a ratio, not a path
        if not tree.resolves(name, src):
            bad.append((name, "no such file or directory in the repository"))
    for m in SECTION.finditer(line):
        num = m.group(1) or m.group(3)
        before = [r for r in refs if r.end(1) <= m.start() and
                  not line[r.end(1):m.start()].strip(" ,")]
        doc = cited_md(tree, before[-1].group(1), src) if before and \
            before[-1].group(1).endswith(".md") else None
        if doc is None or num not in numbered_headings(doc):
            what = before[-1].group(1) if before else "no document named"
            bad.append(("section %s (%s)" % (num, what),
                        "no such numbered section in the repository"))
    return bad


def scan(tree, files):
    """[(file, line, name, why)] of the dangling citations of files."""
    out = []
    for path in files:
        try:
            with open(os.path.join(TOP, path), encoding="utf-8",
                      errors="replace") as f:
                text = f.read()
        except OSError:
            continue
        kind = kind_of(path, text.split("\n", 1)[0])
        if kind is None:
            continue
        for ln, line in EXTRACT[kind](text):
            for name, why in line_citations(tree, path, line):
                out.append((path, ln, name, why))
    return out


def forbidden(files):
    """[(file, line, token)] of every mention of an outside document."""
    out = []
    for path in files:
        try:
            with open(os.path.join(TOP, path), "rb") as f:
                data = f.read()
        except OSError:
            continue
        if b"\0" in data:
            continue            # binary (docs/report.png)
        for ln, line in enumerate(data.decode("utf-8", "replace").split(
                "\n"), 1):
            hit = [tok for tok in FORBIDDEN if tok in line]
            if hit:
                out.append((path, ln, hit[0]))
    return out


# ---------------------------------------------------------------- the checks

def self_test(tree):
    """The scanner finds what it must and only that, on made-up text: a
    checker that cannot fail is no check."""
    def names(kind, text, src="report/x/y.c"):
        return sorted(n for ln, line in EXTRACT[kind](text)
                      for n, _ in line_citations(tree, src, line))
    eq(names("c", '/* see nosuch_file.c and lib/hist.h */\n'
             'x = "gone.c"; // and docs/nosuch.md\n'),
       ["docs/nosuch.md", "nosuch_file.c"],
       "C comments: missing files found, strings and held files not")
    eq(names("c", "/* query/query.h, rollup/rollup.h, lib/diskstats.{c,h},"
             " space_*.c, ROOM/ROOM.h, _int.h, report/query/ */\n"), [],
       "C comments: paths from a parent directory, braces, globs,"
       " placeholders and directories resolve")
    eq(names("py", '"""Doc: see tests/lib/nosuch.py."""\n'
             'x = "nosuch2.py"  # and nosuch3.sql\n', "tests/t_x.py"),
       ["nosuch3.sql", "tests/lib/nosuch.py"],
       "Python: docstrings and comments read, other strings not")
    eq(names("sh", 'echo "# nosuch.sh"  # see scripts/nosuch.service\n'
             "n=$# # fsscan/du is a ratio, docs/\n", "scripts/x"),
       ["scripts/nosuch.service"], "shell: comments only, ratios skipped")
    eq(names("text", "docs/census-db.md §3; file.md, section 4;"
             " visit.c; iocensus.1; README.md, NOSUCH.md\n", "docs/x.md"),
       ["NOSUCH.md", "file.md", "section 3 (docs/census-db.md)",
        "section 4 (file.md)"],
       "text: section numbers need a numbered heading; a Markdown name"
       " in capitals is a name")
    eq(forbidden([]), [], "no files, no mentions")


def main():
    files = repo_files(TOP)
    tree = Tree(files)
    ok(len(files) > 100 and "tests/t_citations.py" in tree.files,
       "the repository's files are listed (%d)" % len(files))
    self_test(tree)
    bad = scan(tree, files)
    for path, ln, name, why in bad:
        ok(False, "%s:%d: %s" % (path, ln, name), why)
    ok(not bad, "every file, directory and section cited in comments and"
       " docs is in the repository (%d dangling)" % len(bad))
    men = forbidden(files)
    for path, ln, tok in men:
        ok(False, "%s:%d: mentions %s" % (path, ln, tok),
           "the project cites only its own documents")
    ok(not men, "no file mentions a document outside the repository"
       " (%d mentions)" % len(men))
    done()


if __name__ == "__main__":
    main()
