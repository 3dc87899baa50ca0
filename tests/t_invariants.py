#!/usr/bin/env python3
# tests/run: once
"""t_invariants: the invariants of docs/ARCHITECTURE.md ("Invariants") and
the code that keeps them agree.

The list: under "## Invariants", a table names the rooms, one capital
letter each (| W | the walk ... |); each room has a heading "### W — ..."
and its invariants are items "- **W1. Title.** text", numbered from 1 in
order.

The code: the C sources of lib/, fsscan/, iostatmon/ and report/, their
comments only (never string literals). A citation of an invariant is, in
a comment,
 - "invariant W1", or "invariants W1 and W2" (also "W1, W2", "W1 to W3"),
 - "(W1)", "(W1, W2)", or the ID at the start of parentheses followed by
   more ("(W4's exception)", "(D3, with lib/dbfile)"),
 - a comment that begins with the ID: "/* W1 */", "/* W2: why */".
Only IDs whose letter is a room's count.

An assert is tagged with the invariants cited by the comment that begins
on the line where the assert begins, and by the comment that ends on the
line just above it when that line holds no code. static_assert does not
count.

Checks, each a "not ok" line naming what is wrong:
 - the list is well formed: every room has invariants, numbered 1, 2, ...
   under its own heading;
 - every invariant is cited in the code, and has a tagged assert;
 - every citation names an invariant of the list;
 - no old-style numbered citation ("invariant 3") is left in the C
   sources, the Markdown files, the man pages or the Makefile.
A self-test first runs the same checks on made-up text, where each fault
must be found.
"""
import bisect
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "lib"))
from tap import done, eq, ok  # noqa: E402

TOP = os.environ.get("TOP", os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
CODE_DIRS = ("lib", "fsscan", "iostatmon", "report")

ID = r"[A-Z][0-9]+"
SEP = r"(?:\s*,\s*|\s+and\s+|\s+or\s+|\s+to\s+)"
CITES = [
    re.compile(r"\binvariants?\s+(%s(?:%s%s)*)" % (ID, SEP, ID)),
    re.compile(r"\((%s(?:\s*,\s*%s)*)(?![\w])" % (ID, ID)),
    re.compile(r"^\s*(%s(?:\s*,\s*%s)*)\s*(?::|$)" % (ID, ID)),
]
OLD = re.compile(r"\binvariants?\s+#?\d+\b", re.I)
ASSERT = re.compile(r"(?<![\w])assert\s*\(")
# Comments and literals of C: a literal may hold "/*", a comment quotes.
TOKENS = re.compile(r"/\*.*?(?:\*/|\Z)|//[^\n]*|\"(?:\\.|[^\"\\\n])*\"?|"
                    r"'(?:\\.|[^'\\\n])*'?", re.S)


# ------------------------------------------------------------------ the list

def parse_list(md):
    """(rooms, invariants, problems) of a Markdown text: rooms maps a
    letter to its room's name, invariants an ID to its title."""
    problems = []
    m = re.search(r"^## Invariants\s*$(.*?)(?=^## |\Z)", md, re.M | re.S)
    if not m:
        return {}, {}, ["no \"## Invariants\" section"]
    sec = m.group(1)
    rooms = dict(re.findall(r"^\|\s*([A-Z])\s*\|\s*([^|]+?)\s*\|", sec,
                            re.M))
    invs, heading = {}, None
    numbers = {}
    for line in sec.split("\n"):
        h = re.match(r"^### ([A-Z]) ", line)
        if h:
            heading = h.group(1)
            continue
        it = re.match(r"^- \*\*(%s)\. (.*?)\*\*" % ID, line)
        if not it:
            continue
        iid, letter, num = it.group(1), it.group(1)[0], int(it.group(1)[1:])
        if letter not in rooms:
            problems.append("%s: no room has the letter %s" % (iid, letter))
        if heading != letter:
            problems.append("%s: listed under the heading of room %s" %
                            (iid, heading))
        want = numbers.get(letter, 0) + 1
        if num != want:
            problems.append("%s: numbered out of order (%s%d expected)" %
                            (iid, letter, want))
        numbers[letter] = num
        if iid in invs:
            problems.append("%s: listed twice" % iid)
        invs[iid] = it.group(2)
    for letter in sorted(rooms):
        if letter not in numbers:
            problems.append("room %s (%s) has no invariant" %
                            (letter, rooms[letter]))
    return rooms, invs, problems


# ------------------------------------------------------------------- the code

def c_parts(text):
    """Comments and code of C source: (comments, code_lines, asserts).
    comments: (first line, last line, text) of each; code_lines: the
    lines that hold code; asserts: the lines where an assert begins.
    String and character literals are code, never comments."""
    comments = []
    line_of = line_finder(text)

    def blank(m):
        tok = m.group(0)
        if tok[0] in "\"'":
            return tok[0] * 2                   # code, its text gone
        first = line_of(m.start())
        comments.append((first, first + tok.count("\n"),
                         tok[2:-2] if tok[1] == "*" else tok[2:]))
        return "\n" * tok.count("\n")         # lines kept, text gone

    code_text = TOKENS.sub(blank, text)
    code = {k for k, l in enumerate(code_text.split("\n"), 1) if l.strip()}
    line_of = line_finder(code_text)
    asserts = [line_of(m.start()) for m in ASSERT.finditer(code_text)]
    return comments, code, asserts


def line_finder(text):
    """The function from an offset in text to its line number."""
    ends = [m.start() for m in re.finditer("\n", text)]
    return lambda pos: bisect.bisect_left(ends, pos) + 1


def cited(text, letters):
    """The IDs a comment's text cites (letters: the rooms')."""
    flat = " ".join(l.strip().lstrip("*").strip() for l in text.split("\n"))
    ids = set()
    for pat in CITES:
        for m in pat.finditer(flat):
            ids.update(x for x in re.findall(ID, m.group(1))
                       if x[0] in letters)
    return ids


def scan_code(sources, letters):
    """sources: path -> C text. Returns (citations, tagged): each maps an
    ID to the places ("path:line") that cite it, or assert it."""
    citations, tagged = {}, {}
    for path in sorted(sources):
        comments, code, asserts = c_parts(sources[path])
        by_first, by_last = {}, {}
        for first, last, body in comments:
            ids = cited(body, letters)
            for x in ids:
                citations.setdefault(x, []).append("%s:%d" % (path, first))
            by_first.setdefault(first, set()).update(ids)
            by_last.setdefault(last, set()).update(ids)
        for a in asserts:
            ids = set(by_first.get(a, ()))
            if a - 1 not in code:
                ids |= by_last.get(a - 1, set())
            for x in ids:
                tagged.setdefault(x, []).append("%s:%d" % (path, a))
    return citations, tagged


def old_style(texts):
    """"path:line: text" of every numbered citation of old."""
    out = []
    for path in sorted(texts):
        for ln, line in enumerate(texts[path].split("\n"), 1):
            if OLD.search(line):
                out.append("%s:%d: %s" % (path, ln, line.strip()))
    return out


def problems_of(md, sources, others):
    """Every problem found: md is the list's Markdown, sources the C
    sources, others the other texts searched for old citations."""
    rooms, invs, out = parse_list(md)
    citations, tagged = scan_code(sources, set(rooms))
    for iid in sorted(invs):
        if iid not in citations:
            out.append("%s (%s) is cited nowhere in the code" %
                       (iid, invs[iid]))
        elif iid not in tagged:
            out.append("%s (%s) has no assert tagged with it" %
                       (iid, invs[iid]))
    for iid in sorted(set(citations) - set(invs)):
        out.append("%s, cited at %s, is not an invariant of the list" %
                   (iid, ", ".join(citations[iid][:3])))
    for o in old_style(dict(sources, **others)):
        out.append("an old numbered citation: " + o)
    return out


# --------------------------------------------------------------- self-test

MADE_UP = """# x

## Invariants

| letter | room |
|---|---|
| X | the x room |
| Y | the y room |

### X — the x room

- **X1. One.** Text.
- **X2. Two.** Text.

### Y — the y room

- **Y1. Three.** Text.

## After
"""

GOOD = {
    "a.c": """/* keeps invariant X1 and (X2, Y1) */
static void f(int a)
{
\tassert(a > 0);\t/* X1 */
\t/* X2: the comment just above,
\t * on two lines */
\tassert(a < 9);
\tassert(a != 3);\t/* Y1: why */
}
""",
}


def self_test():
    eq(problems_of(MADE_UP, GOOD, {}), [],
       "self-test: a list and code that agree pass")
    faults = [
        ("an invariant cited nowhere",
         {"a.c": GOOD["a.c"].replace("(X2, Y1)", "(X2)").replace(
             "/* Y1: why */", "")}, {}, "Y1 (Three.) is cited nowhere in the code"),
        ("an invariant without an assert",
         {"a.c": GOOD["a.c"].replace("\tassert(a != 3);\t/* Y1: why */",
                                     "\tg(a);\t/* Y1 */")}, {},
         "Y1 (Three.) has no assert tagged with it"),
        ("a tag on a line of code above does not count",
         {"a.c": GOOD["a.c"].replace(
             "\tassert(a != 3);\t/* Y1: why */",
             "\tg(a);\t/* Y1 */\n\tassert(a != 3);")}, {},
         "Y1 (Three.) has no assert tagged with it"),
        ("a citation of no invariant",
         {"a.c": GOOD["a.c"] + "/* (X3) */\n"}, {},
         "X3, cited at a.c:10, is not an invariant of the list"),
        ("an old numbered citation in code",
         {"a.c": GOOD["a.c"] + "/* invariant 4 */\n"}, {},
         "an old numbered citation: a.c:10: /* invariant 4 */"),
        ("an old numbered citation in the docs",
         GOOD, {"d.md": "see\nInvariant 7 there"},
         "an old numbered citation: d.md:2: Invariant 7 there"),
        ("a citation in a string is none",
         {"a.c": GOOD["a.c"].replace("/* X1 */", "").replace(
             "invariant X1 and ", "") + 'char *s = "/* X1 */ (X1)";\n'},
         {}, "X1 (One.) is cited nowhere in the code"),
        ("static_assert is no assert",
         {"a.c": GOOD["a.c"].replace("\tassert(a > 0);",
                                     "\tstatic_assert(1, \"\");")}, {},
         "X1 (One.) has no assert tagged with it"),
    ]
    for name, src, others, want in faults:
        got = problems_of(MADE_UP, src, others)
        ok(want in got, "self-test: %s is found" % name,
           "got %r" % got)
    bad_lists = [
        ("a gap in the numbers", MADE_UP.replace("**X2.", "**X3."),
         "X3: numbered out of order (X2 expected)"),
        ("an item under another room's heading",
         MADE_UP.replace("- **Y1. Three.** Text.\n", "").replace(
             "- **X2. Two.** Text.", "- **X2. Two.** Text.\n"
             "- **Y1. Three.** Text."),
         "Y1: listed under the heading of room X"),
        ("a room without invariants",
         MADE_UP.replace("| Y | the y room |",
                         "| Y | the y room |\n| Z | the z room |"),
         "room Z (the z room) has no invariant"),
    ]
    for name, md, want in bad_lists:
        got = problems_of(md, GOOD, {})
        ok(want in got, "self-test: %s is found" % name, "got %r" % got)


# --------------------------------------------------------------- the tree

def read(path):
    with open(os.path.join(TOP, path), encoding="utf-8",
              errors="replace") as f:
        return f.read()


def tree_texts():
    """(C sources, other texts) of the repository."""
    sources, others = {}, {}
    for d in CODE_DIRS:
        for dirpath, subs, files in os.walk(os.path.join(TOP, d)):
            subs.sort()
            for f in sorted(files):
                if f.endswith((".c", ".h")):
                    p = os.path.relpath(os.path.join(dirpath, f), TOP)
                    sources[p] = read(p)
    for d in ("", "docs"):
        for f in sorted(os.listdir(os.path.join(TOP, d) if d else TOP)):
            p = os.path.join(d, f) if d else f
            if re.search(r"\.(md|1|8)$", f) or p == "Makefile":
                others[p] = read(p)
    return sources, others


def main():
    self_test()
    md = read("docs/ARCHITECTURE.md")
    rooms, invs, _ = parse_list(md)
    ok(len(invs) >= len(rooms) > 0, "docs/ARCHITECTURE.md lists %d "
       "invariants of %d rooms" % (len(invs), len(rooms)))
    sources, others = tree_texts()
    found = problems_of(md, sources, others)
    for p in found:
        ok(False, "invariants", p)
    ok(not found, "every invariant is cited and asserted, every citation "
       "names one, no old numbered citation is left")
    done()


if __name__ == "__main__":
    main()
