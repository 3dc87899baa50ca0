#!/usr/bin/env python3
"""Names that try to act on root's terminal.

A hostile user names directories and files, projects (directories at
depth 1), iostatmon hosts and devices (a log's header and frames) and
log files with terminal escapes: an OSC 52 clipboard write, a screen
clear, a window title, a carriage return, a C1 CSI (U+009B) and NEL
(U+0085), the bidirectional override U+202E and isolate U+2066,
invalid UTF-8 and a backslash. fsscan's errors (a 0000 directory, the
scan run as nobody), the --project and --host typos, `iocensus files`
and `ingest`, and `iostatmon dump` (CSV, JSON and --iostat) run with
stdout and stderr on a real pseudo-terminal: no ESC, no C1 character,
no bidirectional or invisible format character and no invalid UTF-8
may reach it, and each name must be there as its visible escape. To a
pipe, Python's csv and json read the original bytes back.

The oracle of the visible form is vis() below, written from the rule
(strvis(3)-like: those characters and invalid bytes as \\xNN per byte, a
backslash as \\\\), not from the C code.
"""
import csv
import fcntl
import io
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import termios
import tty

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "lib"))
from tap import ok, done, skip  # noqa: E402
from pace import limit  # noqa: E402

BUILD = os.environ["BUILD"]
FSSCAN = os.path.join(BUILD, "fsscan")
IOC = os.path.join(BUILD, "iocensus")
MON = os.path.join(BUILD, "iostatmon")
NOBODY = 65534
AS_NOBODY = ["setpriv", "--reuid=%d" % NOBODY, "--regid=%d" % NOBODY,
             "--clear-groups", "--"]

# Names without a space (diskstats splits on white space) nor a slash.
EVIL = {
    "osc52": b"osc\x1b]52;c;SGVsbG8=\x07",
    "clear": b"clr\x1b[2J",
    "title": b"ttl\x1b]0;pwned\x07",
    "c1csi": "c1\u009b2J".encode(),
    "nel": "nel\u0085x".encode(),
    "rlo": "bidi\u202etxt.exe".encode(),
    "lri": "iso\u2066x".encode(),
    "invalid": b"bad\xff\xfe",
}
# And two a device name cannot hold.
OTHER = {"cr": b"cr\rfake", "backslash": b"back\\slash"}
# Names a spreadsheet would take for formulas: a CSV file keeps them.
FORMULA = [b'=HYPERLINK("x","y")', b"+1", b"-2+3", b"@SUM(A1)",
           b"\tcmd", b"\r=1"]

# Characters that reorder or hide text: none may reach the terminal.
HIDDEN = ({0xad, 0x61c, 0x180e, 0x200b, 0x200e, 0x200f, 0xfeff}
          | set(range(0x2028, 0x202f)) | set(range(0x2060, 0x2070))
          | set(range(0xfff9, 0xfffc)) | set(range(0xe0000, 0xe0080)))


def vis(b):
    """The visible form of name bytes b (str or bytes) on a terminal."""
    if isinstance(b, bytes):
        b = b.decode("utf-8", "surrogateescape")
    out = []
    for c in b:
        o = ord(c)
        if 0xdc80 <= o <= 0xdcff:
            out.append("\\x%02x" % (o - 0xdc00))
        elif c == "\\":
            out.append("\\\\")
        elif o < 0x20 or 0x7f <= o <= 0x9f or o in HIDDEN:
            out.append("".join("\\x%02x" % x for x in c.encode()))
        else:
            out.append(c)
    return "".join(out)


def orig(s):
    """A decoded string back to the name's bytes."""
    return s.encode("utf-8", "surrogateescape")


def on_pty(argv, cols=400):
    """argv's stdout and stderr on a pseudo-terminal (raw: the bytes as
    written), cols wide: (exit status, bytes the terminal received)."""
    m, s = os.openpty()
    tty.setraw(s)
    fcntl.ioctl(s, termios.TIOCSWINSZ, struct.pack("HHHH", 50, cols, 0, 0))
    p = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=s, stderr=s)
    os.close(s)
    data = b""
    while True:
        try:
            chunk = os.read(m, 65536)
        except OSError:
            break
        if not chunk:
            break
        data += chunk
    os.close(m)
    return p.wait(), data


def piped(argv):
    p = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True,
                       timeout=limit(120))
    return p.returncode, p.stdout, p.stderr


def clean(name, data, own=None):
    """Nothing that acts reaches the terminal; returns its text. own: a
    pattern of the program's own line that may (the progress line's
    carriage return)."""
    if own:
        data = re.sub(own, b"", data)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        ok(False, name + ": valid UTF-8 on the terminal", str(e))
        return data.decode("utf-8", "replace")
    bad = [c for c in text if (ord(c) < 0x20 and c != "\n")
           or 0x7f <= ord(c) <= 0x9f or ord(c) in HIDDEN]
    ok(not bad, name + ": no ESC, CR, C1, bidi or format character on "
       "the terminal", "found %r" % sorted(set(bad))[:8])
    return text


def shows(name, text, names):
    missing = [n for n in names if vis(n) not in text]
    ok(not missing, name + ": each name shown as its visible escape",
       "missing %r" % [vis(n) for n in missing][:4])


def csv_rows(text):
    return list(csv.reader(io.StringIO(text, newline="")))


def json_map(f, v):
    """v with f applied to every string in it (keys too)."""
    if isinstance(v, str):
        return f(v)
    if isinstance(v, list):
        return [json_map(f, x) for x in v]
    if isinstance(v, dict):
        return {f(k): json_map(f, x) for k, x in v.items()}
    return v


def check_formats(name, argv, names):
    """argv --format csv/json to a pipe (exact names back) and on the
    terminal (each text its visible form, nothing raw)."""
    rc, out, _ = piped(argv + ["--format", "csv"])
    pipe_csv = csv_rows(out.decode("utf-8", "surrogateescape"))
    cells = {orig(c) for r in pipe_csv for c in r}
    ok(rc == 0 and all(any(n in c for c in cells) for n in names),
       name + " csv to a pipe: every name's exact bytes, read back by "
       "Python's csv", "rc %d" % rc)
    rc, out, _ = piped(argv + ["--format", "json"])
    try:
        pipe_json = json.loads(out.decode("utf-8"))
        strs = []
        json_map(lambda s: strs.append(orig(s)) or s, pipe_json)
        ok(all(any(n in s for s in strs) for n in names),
           name + " json to a pipe: every name's exact bytes, read back "
           "by Python's json")
        raw = [c for c in out.decode("utf-8") if 0x7f <= ord(c) <= 0x9f
               or ord(c) in HIDDEN]
        ok(not raw and b"\x1b" not in out, name + " json to a pipe: C1, "
           "DEL, bidi and format characters escaped as \\uXXXX",
           "raw %r" % raw[:4])
    except ValueError as e:
        ok(False, name + " json to a pipe: valid JSON", str(e))
        pipe_json = None
    rc, data = on_pty(argv + ["--format", "csv"])
    text = clean(name + " csv on a terminal", data)
    ok(csv_rows(text) == [[vis(c) for c in r] for r in pipe_csv],
       name + " csv on a terminal: each cell the visible form of the "
       "pipe's")
    rc, data = on_pty(argv + ["--format", "json"])
    text = clean(name + " json on a terminal", data)
    try:
        ok(json.loads(text) == json_map(vis, pipe_json),
           name + " json on a terminal: each string the visible form of "
           "the pipe's")
    except ValueError as e:
        ok(False, name + " json on a terminal: valid JSON", str(e))
    return pipe_json


def make_tree(tmp):
    """root/EVIL/EVIL.dat (sizes 1000, 2000, ...) with root/EVIL/locked
    (0000) holding a file; root/misc/ the names a device cannot hold."""
    root = os.path.join(tmp, "tree").encode()
    size = 1000
    formula = {n.hex(): n for n in FORMULA}
    for parent, names in ((root, EVIL), (os.path.join(root, b"misc"),
                                         OTHER),
                          (os.path.join(root, b"misc", b"f"), formula)):
        for n in names.values():
            d = os.path.join(parent, n)
            os.makedirs(os.path.join(d, b"locked"))
            with open(os.path.join(d, n + b".dat"), "wb") as f:
                f.write(b"x" * size)
            with open(os.path.join(d, b"locked", b"f"), "wb") as f:
                f.write(b"y")
            size += 1000
    for dirpath, dirs, _ in os.walk(root):
        os.chmod(dirpath, 0o755)
        if os.path.basename(dirpath) == b"locked":
            os.chmod(dirpath, 0)
    return root


def fsscan_checks(tmp, root):
    if os.geteuid() != 0 or not shutil.which("setpriv"):
        skip("fsscan errors as nobody", "needs root to run as nobody",
             "root")
        return
    dbdir = os.path.join(tmp, "nobody")
    os.makedirs(dbdir)
    os.chown(dbdir, NOBODY, NOBODY)
    rc, data = on_pty(AS_NOBODY + [FSSCAN, "--db", os.path.join(
        dbdir, "c.db"), "--quiet", root])
    text = clean("fsscan --quiet errors as nobody", data)
    ok(rc == 1, "fsscan as nobody: the 0000 directories are errors",
       "rc %d" % rc)
    # The first paths of each error are named (then only counted).
    want = {vis(os.path.join(d, b"locked")) for d, dirs, _ in os.walk(root)
            if b"locked" in dirs}
    got = re.findall(r"^fsscan: (.*): Permission denied$", text, re.M)
    ok(len(got) >= 3 and set(got) <= want, "fsscan --quiet errors: each "
       "path named is the visible form of a locked directory's",
       "got %r" % got[:4])


def iocensus_checks(db, root, names):
    rc, data = on_pty([IOC, "files", "--db", db, "--project", "prj\x1b"])
    text = clean("files --project typo", data)
    ok(rc == 2 and "prj\\x1b" in text, "files --project typo: refused, "
       "the typo escaped too", "rc %d" % rc)
    shows("files --project typo lists the projects", text,
          list(EVIL.values()))
    pj = check_formats("files", [IOC, "files", "--db", db], names)
    rc, data = on_pty([IOC, "files", "--db", db])
    text = clean("files table", data)
    paths = [r["path"] for r in (pj or {}).get("tables", {}).get(
        "largest_files", {}).get("rows", [])]
    ok(len(paths) >= 10, "files: the largest files are the named ones",
       "%d paths" % len(paths))
    shows("files table", text, [orig(p) for p in paths])
    out = os.path.join(os.path.dirname(db), "dirs.csv")
    rc, _, err = piped([IOC, "files", "--db", db, "--format", "csv",
                        "--table", "largest_dirs", "--out",
                        out])
    with open(out, "rb") as f:
        rows = csv_rows(f.read().decode("utf-8", "surrogateescape"))
    base = {os.path.basename(orig(r[-1])) for r in rows[1:]}
    ok(rc == 0 and set(FORMULA) <= base, "CSV file: names that look like "
       "formulas (=, +, -, @, tab, CR first) kept byte for byte",
       "rc %d %r" % (rc, err[-200:]))


def raw_capture(path, devs):
    """A diskstats capture of three minutes, one line per device."""
    with open(path, "wb") as f:
        for j in range(3):
            f.write(b"T %d\n" % (1700000000 + 60 * j))
            for i, d in enumerate(devs):
                v = [(k + 1) * (j + 1) * 10 for k in range(17)]
                v[8] = 0
                f.write(b"   8 %7d %s %s\n" % (16 * i, d, b" ".join(
                    b"%d" % x for x in v)))


def iostatmon_checks(tmp):
    host = b"host\x1b]52;c;SGk=\x07\xe2\x80\xae"
    devs = list(EVIL.values())
    raw = os.path.join(tmp, "h.raw")
    raw_capture(raw, devs)
    log = os.path.join(tmp, "h.log").encode()
    rc, _, err = piped([MON, "import", raw, "--host", host, "--out", log])
    if not ok(rc == 0, "iostatmon import: a log of the named host and "
              "devices", err.decode(errors="replace")):
        return
    names = [host] + devs
    check_formats("iostatmon dump", [MON, "dump", log], names)
    rc, data = on_pty([MON, "dump", log])
    text = clean("iostatmon dump (csv) on a terminal", data)
    shows("iostatmon dump (csv)", text, names)
    rc, data = on_pty([MON, "dump", "--iostat", log])
    text = clean("iostatmon dump --iostat on a terminal", data)
    shows("iostatmon dump --iostat", text, names)
    # A log whose file name overrides, and a cut copy: ingest's messages.
    evil_log = os.path.join(tmp.encode(), EVIL["rlo"] + b"\x1b[2J.log")
    shutil.copy(log, evil_log)
    cut = os.path.join(tmp.encode(), EVIL["osc52"] + b".log")
    with open(log, "rb") as f:
        data = f.read()
    with open(cut, "wb") as f:
        f.write(data[:len(data) // 2])
    db = os.path.join(tmp, "io.db")
    rc, data = on_pty([IOC, "ingest", "--db", db, evil_log, cut])
    text = clean("ingest on a terminal", data, own=rb"\riocensus ingest: "
                 rb"\d+ sources, \d+ device-samples \(\d+ new\)\n?")
    shows("ingest names its sources", text,
          [os.path.basename(evil_log), os.path.basename(cut)])
    rc, data = on_pty([IOC, "throughput", "--db", db, "--host", "nope"])
    text = clean("--host typo", data)
    ok(rc == 2, "--host typo: refused", "rc %d" % rc)
    shows("--host typo lists the hosts", text, [host])


def main():
    tmp = tempfile.mkdtemp(prefix="t_attack_terminal.")
    os.chmod(tmp, 0o755)
    try:
        root = make_tree(tmp)
        names = list(EVIL.values()) + list(OTHER.values())
        fsscan_checks(tmp, root)
        db = os.path.join(tmp, "c.db")
        rc, _, err = piped([FSSCAN, "--db", db, "--quiet", "--top", "100",
                            "--project", "depth:1", root])
        if ok(rc == 0, "fsscan as root: the census of the named tree",
              err.decode(errors="replace")):
            iocensus_checks(db, root, names)
        iostatmon_checks(tmp)
    finally:
        for dirpath, dirs, _ in os.walk(tmp):
            for d in dirs:
                os.chmod(os.path.join(dirpath, d), 0o755)
        shutil.rmtree(tmp)
    done()


if __name__ == "__main__":
    main()
