#!/usr/bin/env python3
# tests/run: once
"""t_man: the man pages of docs/ are valid, and name what holds the rest.

- Every page docs/*.1, *.5 and *.8 formats with groff's mdoc macros
  under every warning (`groff -ww -mandoc -z`) and with man(1)'s own
  checks (`man --warnings -l`), with nothing on stderr: a macro misspelt,
  a section out of place or a line that cannot be set is a failure.
- Every page has the sections NAME, SYNOPSIS and DESCRIPTION, and a
  title line (.Dt) naming its own file.
- Every docs/*.md file that a page cites exists (t_citations checks the
  others' names; here the .md files moved out of the README).

The pages are read from the sources, so this runs once, with the first
build.
"""
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "lib"))
from tap import done, eq, ok, skip  # noqa: E402

TOP = os.environ.get("TOP", os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
DOCS = os.path.join(TOP, "docs")
ENV = dict(os.environ, LC_ALL="C.UTF-8", MANWIDTH="80")


def pages():
    return sorted(n for n in os.listdir(DOCS)
                  if re.fullmatch(r"[a-z0-9.-]+\.[158]", n))


def check_groff(name):
    p = subprocess.run(["groff", "-ww", "-mandoc", "-z",
                        os.path.join(DOCS, name)], capture_output=True,
                       text=True, env=ENV)
    ok(p.returncode == 0 and not p.stderr, "%s: groff -ww -mandoc -z says "
       "nothing" % name, p.stderr.strip())


def check_man(name):
    p = subprocess.run(["man", "--warnings", "-l", os.path.join(DOCS, name)],
                       capture_output=True, text=True, env=ENV)
    ok(p.returncode == 0 and not p.stderr and p.stdout.strip(),
       "%s: man --warnings -l formats it and says nothing" % name,
       p.stderr.strip())


def check_shape(name):
    text = open(os.path.join(DOCS, name), encoding="utf-8").read()
    base, sect = name.rsplit(".", 1)
    m = re.search(r"^\.Dt (\S+) (\d)$", text, re.M)
    ok(m and m.group(1) == base.upper() and m.group(2) == sect,
       "%s: .Dt %s %s" % (name, base.upper(), sect),
       m.group(0) if m else "no .Dt line")
    heads = re.findall(r"^\.Sh (.*)$", text, re.M)
    eq(heads[:3], ["NAME", "SYNOPSIS", "DESCRIPTION"],
       "%s: NAME, SYNOPSIS and DESCRIPTION first" % name)
    cited = set(re.findall(r"docs/([A-Za-z0-9_-]+\.md)", text))
    missing = sorted(c for c in cited
                     if not os.path.exists(os.path.join(DOCS, c)))
    eq(missing, [], "%s: the docs/*.md it cites exist" % name)


def main():
    names = pages()
    ok(len(names) >= 6, "the man pages found (%d)" % len(names), names)
    for name in names:
        check_shape(name)
    for tool, check in (("groff", check_groff), ("man", check_man)):
        if not shutil.which(tool):
            skip("%s on the man pages" % tool, "%s is not installed" % tool,
                 needs=tool)
            continue
        for name in names:
            check(name)
    done()


if __name__ == "__main__":
    main()
