"""peakrss: run a command and measure its peak resident set size.

The command runs under a fresh Python process, so that RUSAGE_CHILDREN
there sees it alone (ru_maxrss is the largest of the children waited for).
Both run in a session of their own: on a timeout the whole session is
killed, so no command outlives its test.

    from peakrss import run_peak
    rc, out, err, kib = run_peak([ioc, "ingest", "--db", db, path])
"""
import os
import signal
import subprocess
import sys
from pace import limit

_PROBE = ("import resource, subprocess, sys\n"
          "p = subprocess.run(sys.argv[1:], capture_output=True)\n"
          "sys.stdout.write('%d %d\\n' % (p.returncode, resource.getrusage("
          "resource.RUSAGE_CHILDREN).ru_maxrss))\n"
          "sys.stdout.write(p.stdout.decode(errors='replace'))\n"
          "sys.stderr.write(p.stderr.decode(errors='replace'))\n")


def run_peak(cmd, timeout=600, env=None):
    """(exit status, stdout, stderr, peak RSS in KiB) of cmd; raises
    subprocess.TimeoutExpired (the command killed) after timeout s."""
    p = subprocess.Popen([sys.executable, "-c", _PROBE] +
                         [str(c) for c in cmd], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env=env,
                         start_new_session=True)
    try:
        out, err = p.communicate(timeout=limit(timeout))
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        raise
    first, _, out = out.partition("\n")
    rc, kib = (int(x) for x in first.split())
    return rc, out, err, kib
