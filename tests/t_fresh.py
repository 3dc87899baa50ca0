#!/usr/bin/env python3
# tests/run: once
"""t_fresh: `make demo` and `make check` work on the first try on a fresh
machine, where the libraries appear only while scripts/install-deps runs.

The machine is simulated: a copy of the tree, a pkg-config on PATH that
knows no library until a marker file exists, and an install step
(INSTALL_DEPS=) that only writes the marker. A Makefile that asked
pkg-config while it was read, before the install step, builds without
-I/usr/include/blkid and fails in lib/fsident.c (blkid.h). The demo
script itself is replaced by a stub (DEMO_SCRIPT=): what is checked here
is that the build works the first time, and that the install step ran
before the first compile.

The build does not depend on the build directory under test, so it runs
with the first build of the suite only (-O0, to save the shared cores).
"""
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from tap import ok, skip, done                   # noqa: E402

TOP = os.environ.get("TOP", os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.environ["BUILD"]
REAL_PKG_CONFIG = shutil.which("pkg-config")


def tracked_copy(dst):
    """The files of the checkout (tracked and new, not ignored), as a
    fresh clone would have them, without any build directory."""
    names = subprocess.run(
        ["git", "-C", TOP, "ls-files", "-z", "--cached", "--others",
         "--exclude-standard"], capture_output=True, check=True).stdout
    for n in names.decode().split("\0"):
        if not n or n.startswith(("build", "demo/")):
            continue
        src = os.path.join(TOP, n)
        if not os.path.isfile(src):
            continue
        os.makedirs(os.path.join(dst, os.path.dirname(n)), exist_ok=True)
        shutil.copy2(src, os.path.join(dst, n))


def fake_machine(tmp):
    """bin/pkg-config knows the libraries only after install-deps wrote
    the marker; every call is logged with whether it knew them."""
    bindir = os.path.join(tmp, "bin")
    os.makedirs(bindir)
    marker = os.path.join(tmp, "installed")
    log = os.path.join(tmp, "pkg-config.log")
    with open(os.path.join(bindir, "pkg-config"), "w") as f:
        f.write("#!/bin/sh\n"
                "if [ -e '%s' ]; then echo \"known $*\" >> '%s'; "
                "exec '%s' \"$@\"; fi\n"
                "echo \"unknown $*\" >> '%s'\n"
                "echo \"Package $1 was not found\" >&2\nexit 1\n"
                % (marker, log, REAL_PKG_CONFIG, log))
    deps = os.path.join(bindir, "install-deps")
    with open(deps, "w") as f:
        f.write("#!/bin/sh\necho install-deps >> '%s'\ntouch '%s'\n"
                % (log, marker))
    stub = os.path.join(bindir, "demo")
    with open(stub, "w") as f:
        f.write("#!/bin/sh\necho demo-ran >> '%s'\n"
                "test -x build/fsscan && test -x build/iocensus && "
                "test -x build/iostatmon\n" % log)
    for p in (os.path.join(bindir, "pkg-config"), deps, stub):
        os.chmod(p, 0o755)
    return bindir, marker, log


def read(path):
    try:
        with open(path) as f:
            return f.read()
    except FileNotFoundError:
        return ""


def main():
    if os.path.basename(BUILD.rstrip("/")) != "build":
        skip("fresh machine", "checked with the build directory named"
             " build only, not " + BUILD)
        return
    with tempfile.TemporaryDirectory(prefix="t_fresh.") as tmp:
        tree = os.path.join(tmp, "tree")
        tracked_copy(tree)
        bindir, marker, log = fake_machine(tmp)
        env = dict(os.environ, PATH=bindir + ":" + os.environ["PATH"])
        env.pop("MAKEFLAGS", None)
        env.pop("MAKELEVEL", None)
        env.pop("BUILD", None)     # tests/run sets it; the copy builds its own
        make = ["make", "-j2", "INSTALL_DEPS=" + os.path.join(bindir, "install-deps"),
                "DEMO_SCRIPT=" + os.path.join(bindir, "demo"), "CFLAGS=-O0"]

        # Reading the Makefile asks nothing: `make -p -q` parses only.
        subprocess.run(["make", "-p", "-q", "-C", tree], env=env,
                       capture_output=True)
        ok(read(log) == "", "reading the Makefile runs no pkg-config",
           read(log))

        p = subprocess.run(make + ["demo"], cwd=tree, env=env,
                           capture_output=True, text=True)
        calls = read(log).splitlines()
        ok(p.returncode == 0, "make demo works on the first try",
           (p.stdout + p.stderr)[-1500:])
        ok(calls and calls[0] == "install-deps",
           "the install step runs before pkg-config is asked",
           " | ".join(calls[:4]))
        ok(not any(c.startswith("unknown") for c in calls),
           "pkg-config is never asked before the libraries exist",
           " | ".join(c for c in calls if c.startswith("unknown")))
        ok("demo-ran" in calls, "the demo runs after the build",
           " | ".join(calls[-3:]))
        ok("fatal error" not in p.stderr, "no compile error",
           p.stderr[-500:])

        # The simulation does hide the libraries: without the install
        # step the same tree fails where a fresh machine did.
        shutil.rmtree(os.path.join(tree, "build"))
        os.unlink(marker)
        bare = subprocess.run(make + ["build/obj/lib/fsident.o"], cwd=tree,
                              env=env, capture_output=True, text=True)
        ok(bare.returncode != 0 and "blkid.h" in bare.stderr,
           "without the install step lib/fsident.c does not compile "
           "(the test can fail)", "rc %d: %s" % (bare.returncode,
                                                 bare.stderr[-300:]))


main()
done()
