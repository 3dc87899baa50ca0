"""peakrss: run a command and measure its peak resident set size.

The command runs under a fresh Python process, so that RUSAGE_CHILDREN
there sees it alone (ru_maxrss is the largest of the children waited for).

    from peakrss import run_peak
    rc, out, err, kib = run_peak([ioc, "ingest", "--db", db, path])
"""
import subprocess
import sys

_PROBE = ("import resource, subprocess, sys\n"
          "p = subprocess.run(sys.argv[1:], capture_output=True)\n"
          "sys.stdout.write('%d %d\\n' % (p.returncode, resource.getrusage("
          "resource.RUSAGE_CHILDREN).ru_maxrss))\n"
          "sys.stdout.write(p.stdout.decode(errors='replace'))\n"
          "sys.stderr.write(p.stderr.decode(errors='replace'))\n")


def run_peak(cmd, timeout=600, env=None):
    """(exit status, stdout, stderr, peak RSS in KiB) of cmd."""
    r = subprocess.run([sys.executable, "-c", _PROBE] + [str(c) for c in cmd],
                       capture_output=True, text=True, timeout=timeout,
                       env=env)
    first, _, out = r.stdout.partition("\n")
    rc, kib = (int(x) for x in first.split())
    return rc, out, r.stderr, kib
