#!/usr/bin/env python3
"""mutator: change a directory tree as fast as possible while a scan runs.

    mutator.py MUTROOT --ready FILE [--seed N] [--rate OPS_PER_S]

MUTROOT holds directories with files in them (and maybe files directly).
Until SIGTERM/SIGINT the mutator deletes, creates and renames files and
directories below MUTROOT (never MUTROOT itself, nothing outside it). Every
new name is unique, so a name never comes back with another type.

With --rate, at most OPS_PER_S operations per second (default: flat out).

On exit it prints one JSON line:
    {"initial": N, "bound": B, "ops": K, "failed": F}
initial: entries below MUTROOT when it started. bound: an upper limit on
how many entries a concurrent walker can have counted below MUTROOT,
whatever the interleaving: it starts at `initial` and grows by 1 for each
name created, by 2 for a file renamed (it may be seen under its old name,
under its new one, and over a replaced target), and by 1 + the entries
inside for a directory renamed (its whole content may be seen twice).
Deletions never raise it. FILE is created once the initial state is known
and the first operations are done, so the caller can start the scan.
"""
import json
import os
import random
import signal
import stat
import sys
import time


def main():
    args = sys.argv[1:]
    root = args[0]
    ready = args[args.index("--ready") + 1]
    seed = int(args[args.index("--seed") + 1]) if "--seed" in args else 1
    rate = float(args[args.index("--rate") + 1]) if "--rate" in args else 0
    rnd = random.Random(seed)
    stop = []
    signal.signal(signal.SIGTERM, lambda *a: stop.append(1))
    signal.signal(signal.SIGINT, lambda *a: stop.append(1))

    rfd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
    # model: directory name ("" is MUTROOT) -> list of file names in it
    model = {"": []}
    for name in os.listdir(rfd):
        st = os.stat(name, dir_fd=rfd, follow_symlinks=False)
        if stat.S_ISDIR(st.st_mode):
            model[name] = os.listdir(os.path.join(root, name))
        else:
            model[""].append(name)
    dirs = [d for d in model if d]
    min_dirs = int(0.9 * len(dirs))
    t0 = time.monotonic()
    initial = len(dirs) + sum(len(v) for v in model.values())
    bound = initial
    ops = failed = 0
    uniq = [0]

    def fresh(prefix):
        uniq[0] += 1
        return "%s%d.%d" % (prefix, seed, uniq[0])

    def rel(d, f=None):
        p = d if d else "."
        return p if f is None else (f if not d else d + "/" + f)

    def pick_file():
        for _ in range(8):
            d = rnd.choice(dirs) if dirs and rnd.random() < 0.95 else ""
            if model[d]:
                i = rnd.randrange(len(model[d]))
                return d, i
        return None, None

    def take(d, i):
        lst = model[d]
        lst[i], lst[-1] = lst[-1], lst[i]
        return lst.pop()

    while not stop:
        if rate and ops > (time.monotonic() - t0) * rate:
            time.sleep(0.001)
            continue
        op = rnd.random()
        try:
            if op < 0.20:                       # delete a file
                d, i = pick_file()
                if d is None:
                    continue
                os.unlink(rel(d, model[d][i]), dir_fd=rfd)
                take(d, i)
            elif op < 0.40:                     # rename a file in its directory
                d, i = pick_file()
                if d is None:
                    continue
                new = fresh("r")
                bound += 2
                os.rename(rel(d, model[d][i]), rel(d, new),
                          src_dir_fd=rfd, dst_dir_fd=rfd)
                model[d][i] = new
            elif op < 0.52:                     # move a file to another directory
                d, i = pick_file()
                if d is None or not dirs:
                    continue
                d2 = rnd.choice(dirs)
                new = fresh("m")
                bound += 2
                os.rename(rel(d, model[d][i]), rel(d2, new),
                          src_dir_fd=rfd, dst_dir_fd=rfd)
                take(d, i)
                model[d2].append(new)
            elif op < 0.58:                     # replace a file by another
                d, i = pick_file()
                d2, j = pick_file()
                if d is None or d2 is None or (d, i) == (d2, j):
                    continue
                bound += 2
                os.rename(rel(d, model[d][i]), rel(d2, model[d2][j]),
                          src_dir_fd=rfd, dst_dir_fd=rfd)
                take(d, i)
            elif op < 0.84:                     # create a file
                d = rnd.choice(dirs) if dirs else ""
                new = fresh("c")
                bound += 1
                fd = os.open(rel(d, new), os.O_CREAT | os.O_WRONLY | os.O_EXCL,
                             0o644, dir_fd=rfd)
                if rnd.random() < 0.1:
                    os.write(fd, b"y" * rnd.randrange(1, 5000))
                os.close(fd)
                model[d].append(new)
            elif op < 0.88:                     # create a directory
                new = fresh("D")
                bound += 1
                os.mkdir(new, dir_fd=rfd)
                model[new] = []
                dirs.append(new)
            elif op < 0.91:                     # rename a directory
                if not dirs:
                    continue
                d = rnd.choice(dirs)
                new = fresh("R")
                bound += 1 + len(model[d])
                os.rename(d, new, src_dir_fd=rfd, dst_dir_fd=rfd)
                model[new] = model.pop(d)
                dirs[dirs.index(d)] = new
            elif op < 0.93:                     # remove a whole directory
                if len(dirs) <= min_dirs:
                    continue
                d = rnd.choice(dirs)
                for f in model[d]:
                    os.unlink(rel(d, f), dir_fd=rfd)
                os.rmdir(d, dir_fd=rfd)
                del model[d]
                dirs.remove(d)
            else:                               # rename a file, once more
                d, i = pick_file()
                if d is None:
                    continue
                new = fresh("s")
                bound += 2
                os.rename(rel(d, model[d][i]), rel(d, new),
                          src_dir_fd=rfd, dst_dir_fd=rfd)
                model[d][i] = new
            ops += 1
        except OSError:
            failed += 1
        if ops == 200:
            with open(ready, "w") as fh:
                fh.write("ready\n")
    if ops < 200:
        with open(ready, "w") as fh:
            fh.write("ready\n")
    print(json.dumps({"initial": initial, "bound": bound, "ops": ops,
                      "failed": failed}), flush=True)


if __name__ == "__main__":
    main()
