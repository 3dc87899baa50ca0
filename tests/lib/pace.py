"""pace: how long a test may wait, on this build and this machine.

A limit in a test (tests/run's per-test timeout, a subprocess's timeout=,
a deadline in a wait loop) is written for the release build on an idle
machine. A slower build or a busier machine gets a longer limit, not a
failure:

    limit = base * build factor * machine factor, at most CEILING

    build factor    ASAN (3) when BUILD's fsscan links libasan (a
                    sanitizer build), else 1;
    machine factor  the load average of the last minute over the online
                    CPUs, when above 1 (each process then gets about
                    CPUs/load of a CPU), else 1; at most MACHINE_MAX.

The factor is taken once: tests/run computes it at its start for each
build directory and hands it to its tests as TEST_PACE, so every limit of
a run scales alike (and the suite's own load does not inflate it). A test
run by hand computes it itself. CEILING keeps a hung test ending.

    import sys, os
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
    from pace import limit
    subprocess.run(cmd, timeout=limit(120))

`python3 tests/lib/pace.py factor BUILD` prints the factor, `python3
tests/lib/pace.py limit BUILD SECONDS` a limit (for tests/run and shell
tests).
"""
import os
import subprocess
import sys

ASAN = 3.0          # a sanitizer build runs about 2 to 3 times slower
MACHINE_MAX = 4.0   # past this the machine is broken, not busy
CEILING = 3600      # seconds: no single wait, and no test, lasts longer


def asan_build(build):
    """Does BUILD's fsscan link the AddressSanitizer runtime?"""
    fsscan = os.path.join(build, "fsscan")
    try:
        out = subprocess.run(["ldd", fsscan], capture_output=True,
                             timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return False
    return b"libasan" in out


def machine_factor(load=None, cpus=None):
    """The load average over the CPUs this process may use, from 1 to
    MACHINE_MAX."""
    if load is None:
        load = os.getloadavg()[0]
    if cpus is None:
        cpus = len(os.sched_getaffinity(0)) or 1
    return min(max(load / cpus, 1.0), MACHINE_MAX)


def factor(build=None):
    """TEST_PACE when tests/run set it, else this build's and machine's."""
    env = os.environ.get("TEST_PACE")
    if env:
        try:
            f = float(env)
            if f >= 1:
                return f
        except ValueError:
            pass
    build = build or os.environ.get("BUILD") or "build"
    return (ASAN if asan_build(build) else 1.0) * machine_factor()


_factor = None


def limit(seconds):
    """seconds, scaled by the pace of this run, at most CEILING (never
    less than seconds)."""
    global _factor
    if _factor is None:
        _factor = factor()
    return max(seconds, min(seconds * _factor, CEILING))


if __name__ == "__main__":
    a = sys.argv[1:]
    if len(a) == 2 and a[0] == "factor":
        print("%.2f" % factor(a[1]))
    elif len(a) == 3 and a[0] == "limit":
        os.environ.setdefault("BUILD", a[1])
        print(int(round(limit(float(a[2])))))
    else:
        sys.exit("usage: pace.py factor BUILD | pace.py limit BUILD SECONDS")
