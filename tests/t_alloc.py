#!/usr/bin/env python3
# tests/run: once
"""t_alloc: no allocation multiplies its size unchecked.

A size computed as count * element size wraps past SIZE_MAX to a small
block, and the writes that follow overrun it. lib/xalloc's xcalloc,
xreallocarray and xgrow take the count and the size apart and check the
product; libc's calloc and reallocarray(3) do as well. This test reads
the C sources of lib/, fsscan/, iostatmon/, report/ and scripts/bench/
(comments and literals left out) and fails on every call of xmalloc,
xrealloc, malloc or realloc whose size argument holds a product: a
binary "*", after an operand (a name, a number, ")" or "]"), so that
"sizeof *p" and "**all" are not products. ALLOW lists the calls kept, each with its reason.

A self-test first runs the scanner on made-up code holding each kind of
call, so that the check can be seen to fail.
"""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "lib"))
from tap import done, eq, ok  # noqa: E402

TOP = os.environ.get("TOP", os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
CODE_DIRS = ("lib", "fsscan", "iostatmon", "report", "scripts/bench")

# The allocators that take one size, and the index of that argument.
SIZE_ARG = {"xmalloc": 0, "malloc": 0, "xrealloc": 1, "realloc": 1}
CALL = re.compile(r"(?<![\w.>])(%s)\s*\(" % "|".join(SIZE_ARG))
# Comments and literals of C: a literal may hold "/*", a comment quotes.
TOKENS = re.compile(r"/\*.*?(?:\*/|\Z)|//[^\n]*|\"(?:\\.|[^\"\\\n])*\"?|"
                    r"'(?:\\.|[^'\\\n])*'?", re.S)
# A "*" is a product when the token before it ends an operand.
OPERAND_END = re.compile(r"(?:[A-Za-z_]\w*|[0-9][\w.]*|[)\]])\s*$")
KEYWORDS = {"sizeof", "return", "case", "const", "volatile", "struct",
            "union", "enum"}

# Files whose products are kept: path -> why. Empty: every
# product goes through a checked allocator.
ALLOW = {}


def blank(text):
    """text with comments and literals replaced by spaces, newlines
    kept, so that offsets and line numbers stay those of the file."""
    return TOKENS.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def args(text, start):
    """The arguments of the call whose "(" is at start, as strings, and
    the offset past its ")"; None for an unbalanced call."""
    depth, out, cur = 0, [], start + 1
    for i in range(start, len(text)):
        c = text[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                out.append(text[cur:i])
                return out, i + 1
        elif c == "," and depth == 1:
            out.append(text[cur:i])
            cur = i + 1
    return None


def has_product(expr):
    """Does the C expression hold a binary "*"?"""
    for m in re.finditer(r"\*", expr):
        before = expr[:m.start()]
        op = OPERAND_END.search(before)
        if op and op.group(0).strip() not in KEYWORDS:
            return True
    return False


def scan(name, text):
    """The calls of text that multiply in their size argument, as
    "name:line: call" strings."""
    code = blank(text)
    bad = []
    for m in CALL.finditer(code):
        a = args(code, m.end() - 1)
        if a is None:
            continue
        got, _ = a
        idx = SIZE_ARG[m.group(1)]
        if idx >= len(got) or not has_product(got[idx]):
            continue
        line = code.count("\n", 0, m.start()) + 1
        bad.append("%s:%d: %s(%s)" % (name, line, m.group(1),
                                      " ".join(got[idx].split())))
    return bad


def self_test():
    src = """
    a = xmalloc(n * sizeof *a);            /* a product */
    b = xrealloc(b,
        (n + 1) * sizeof *b);              /* a product on its second line */
    c = malloc(sizeof *c);                 /* dereference, no product */
    d = realloc(d, 4 * len);               /* a constant times */
    e = xrealloc(*pp, sizeof **e);         /* no product */
    f = xcalloc(n, sizeof *f);             /* checked */
    g = xreallocarray(g, n, sizeof *g);    /* checked */
    h = xmalloc(strlen(s) + 1);            /* no product */
    i = xmalloc(n /* rows * cols */ + 1);  /* a comment's star */
    j = xmalloc(sizeof(int) * n);          /* a product after ")" */
    k = s->xmalloc(n * m);                 /* a member, not the call */
    """
    got = [b.split(":")[1] for b in scan("made-up.c", src)]
    eq(got, ["2", "3", "6", "12"], "self-test: each product found, "
       "and nothing else (lines)")


def sources():
    for d in CODE_DIRS:
        for root, dirs, files in os.walk(os.path.join(TOP, d)):
            dirs.sort()
            for f in sorted(files):
                if f.endswith((".c", ".h")):
                    yield os.path.join(root, f)


def main():
    self_test()
    found = []
    for path in sources():
        with open(path, encoding="utf-8", errors="replace") as fh:
            found += scan(os.path.relpath(path, TOP), fh.read())
    kept = [b for b in found if b.split(":")[0] in ALLOW]
    bad = [b for b in found if b not in kept]
    ok(not bad, "no unchecked product in an allocation's size",
       "; ".join(bad[:20]) + (" (and %d more)" % (len(bad) - 20)
                              if len(bad) > 20 else ""))
    for b in kept:
        ok(True, "allowed: %s (%s)" % (b, ALLOW[b.split(":")[0]]))
    done()


if __name__ == "__main__":
    main()
