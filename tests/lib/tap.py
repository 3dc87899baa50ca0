"""tap: the tiny check protocol of tests/run.

Every check prints one line, and done() exits 1 when any check failed:

    ok - NAME                          a check that passed
    not ok - NAME: why                 a check that failed
    ok - NAME # SKIP why (needs WHAT)  a check, or a whole section of
                                       checks, that did not run

A skip is never a pass: tests/run counts it apart, lists every skip with
its reason at the end, and, under CI=true, counts a skip whose WHAT
scripts/install-deps would have installed as a failure. WHAT is a command
or a Debian package ("mpirun", "faketime"), a device ("/dev/fuse"), or
"root" (mounts, chown): tests/run's table says which package provides a
command; "root" and whatever no package of scripts/install-deps provides
are not a dependency's fault. A skip without WHAT (a race lost, a kernel
that refuses) names the reason only. A test that cannot run a section
says so once, with skip(), naming the checks it leaves out: one skip per
section, never an ok() in its place.

Shell tests print the same line with `python3 tests/lib/tap.py skip NAME
WHY [WHAT]`. Keep this small and stable: other tests import it.

    import sys, os
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
    from tap import ok, eq, skip, done
"""
import sys

_failed = 0
_passed = 0
_skipped = 0


def _oneline(s):
    """Checks are one line each: newlines in names or reasons are escaped."""
    return str(s).replace("\\", "\\\\").replace("\n", "\\n")


def ok(cond, name, why=""):
    """Print one check line; returns cond so callers can branch on it."""
    global _failed, _passed
    if cond:
        _passed += 1
        print("ok - " + _oneline(name), flush=True)
    else:
        _failed += 1
        print("not ok - " + _oneline(name) + ": " + _oneline(why or "failed"),
              flush=True)
    return bool(cond)


def skip(name, why, needs=None):
    """Print the line of a check or section NAME that did not run: why
    says why, needs names what it lacked (a command, a Debian package,
    "root"), or None when nothing installable would have let it run."""
    global _skipped
    _skipped += 1
    line = "ok - %s # SKIP %s" % (_oneline(name), _oneline(why))
    if needs:
        line += " (needs %s)" % _oneline(needs)
    print(line, flush=True)


def diff(got, want, limit=8):
    """A compact description of how got differs from want."""
    if isinstance(got, dict) and isinstance(want, dict):
        out = []
        for k in sorted(set(got) | set(want), key=repr):
            if k not in got:
                out.append("missing %r=%r" % (k, want[k]))
            elif k not in want:
                out.append("extra %r=%r" % (k, got[k]))
            elif got[k] != want[k]:
                out.append("%r: got %r want %r" % (k, got[k], want[k]))
        more = len(out) - limit
        return "; ".join(out[:limit]) + ("; ... %d more" % more if more > 0 else "")
    if isinstance(got, (list, tuple)) and isinstance(want, (list, tuple)):
        gs, ws = list(got), list(want)
        missing = [w for w in ws if w not in gs]
        extra = [g for g in gs if g not in ws]
        if missing or extra:
            out = ["missing %r" % (m,) for m in missing[:limit]]
            out += ["extra %r" % (e,) for e in extra[:limit]]
            return "; ".join(out) + " (%d missing, %d extra)" % (
                len(missing), len(extra))
        if len(gs) != len(ws):
            return "length %d, want %d" % (len(gs), len(ws))
        for i, (g, w) in enumerate(zip(gs, ws)):
            if g != w:
                return "first difference at [%d]: got %r want %r" % (i, g, w)
    if isinstance(got, str) and isinstance(want, str):
        gl, wl = got.split("\n"), want.split("\n")
        for i in range(max(len(gl), len(wl))):
            g = gl[i] if i < len(gl) else "<EOF>"
            w = wl[i] if i < len(wl) else "<EOF>"
            if g != w:
                return "line %d: got %r want %r" % (i + 1, g, w)
    return "got %r want %r" % (got, want)


def eq(got, want, name, why=""):
    """Check got == want; on mismatch print a compact diff, and the end
    of why (a command's stderr) when given."""
    if got == want:
        return ok(True, name)
    return ok(False, name, diff(got, want) + ("; " + str(why)[-600:]
                                              if why else ""))


def failed():
    return _failed


def passed():
    return _passed


def skipped():
    return _skipped


def done():
    """Exit: 1 when any check failed, else 0."""
    sys.stdout.flush()
    sys.exit(1 if _failed else 0)


if __name__ == "__main__":
    # tap.py skip NAME WHY [NEEDS]: the skip line, for shell tests.
    if len(sys.argv) not in (4, 5) or sys.argv[1] != "skip":
        sys.exit("usage: tap.py skip NAME WHY [NEEDS]")
    skip(*sys.argv[2:])
