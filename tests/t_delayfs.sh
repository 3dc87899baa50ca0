#!/usr/bin/env bash
# tests/run: alone
# t_delayfs.sh: the delayfs benchmark helper mirrors its source faithfully,
# really delays each request, and fsscan run through it counts exactly what
# find(1) counts on the source.  Also checks that fsscan's threads overlap
# slow requests (-j 8 well under -j 1), which is the point of the helper.
set -u
: "${TOP:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${BUILD:=$TOP/build}"
: "${FSSCAN:=$BUILD/fsscan}"
DELAY_US=2000

ok()     { echo "ok - $1"; }
not_ok() { echo "not ok - $1: $2"; }
check()  { # check NAME WHY CMD...: ok when CMD succeeds
	local name=$1 why=$2; shift 2
	if "$@"; then ok "$name"; else not_ok "$name" "$why"; fi
}
now()    { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }
lt()     { awk "BEGIN { exit !($1 < $2) }"; }

if [ ! -c /dev/fuse ]; then
	python3 "$TOP/tests/lib/tap.py" skip "delayfs: mirror, delays and fsscan" \
	    "no /dev/fuse" /dev/fuse
	exit 0
fi
delayfs=$BUILD/tests/delayfs
if [ ! -x "$delayfs" ]; then
	make -s -C "$TOP" BUILD="$BUILD" "$BUILD/tests/delayfs" >/dev/null 2>&1
fi
if [ ! -x "$delayfs" ]; then
	not_ok "delayfs builds" "make $BUILD/tests/delayfs failed"
	exit 1
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/t_delayfs.XXXXXX")
src=$tmp/src mnt=$tmp/mnt
mkdir -p "$mnt"
cleanup() {
	if mountpoint -q "$mnt"; then
		fusermount3 -u "$mnt" 2>/dev/null || fusermount3 -uz "$mnt"
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 3' INT TERM

# Source tree: a small generated tree (dirs, sparse and small files, symlinks,
# hard links) plus a FIFO, an empty directory and a cross-directory hard link.
python3 "$TOP/scripts/bench/mktree.py" --entries 400 --seed 7 --jobs 1 "$src" 2>/dev/null ||
	{ not_ok "source tree" "mktree.py failed"; exit 1; }
mkfifo "$src/fifo"
mkdir -p "$src/empty" "$src/deep/a/b/c/d/e/f/g"
printf 'hello\n' >"$src/deep/a/b/c/d/e/f/g/leaf"
ln "$src/deep/a/b/c/d/e/f/g/leaf" "$src/leaf-link"
ln -s deep/a/b "$src/rel-link"

"$delayfs" -o delay_us=$DELAY_US "$src" "$mnt" ||
	{ not_ok "delayfs mounts" "delayfs exited with $?"; exit 1; }
check "delayfs mounts" "no fuse.delayfs mount at $mnt" \
	grep -q " $mnt fuse.delayfs " /proc/mounts

# Mirror: names, types, inode numbers, sizes, blocks, link counts and mtimes
# must match the source.  The walk through the mount is also timed: find stats
# every entry serially, so it must take at least entries x delay.
listing() { (cd "$1" && find . -printf '%p %y %i %s %b %n %T@ %l\n' | LC_ALL=C sort); }
listing "$src" >"$tmp/src.lst"
t0=$(now); listing "$mnt" >"$tmp/mnt.lst"; t1=$(now)
check "mirror is faithful (type, ino, size, blocks, nlink, mtime, target)" \
	"$(diff "$tmp/src.lst" "$tmp/mnt.lst" | head -n 4 | tr '\n' ' ')" \
	cmp -s "$tmp/src.lst" "$tmp/mnt.lst"
n=$(wc -l <"$tmp/src.lst")
walk=$(elapsed "$t0" "$t1")
floor=$(awk "BEGIN { printf \"%.3f\", $n * $DELAY_US / 1e6 }")
check "delay applied: serial walk of $n entries took ${walk}s >= ${floor}s" \
	"requests are not being delayed (kernel caching on?)" lt "$floor" "$walk"
check "readlink through the mount" "got '$(readlink "$mnt/rel-link")'" \
	test "$(readlink "$mnt/rel-link")" = deep/a/b
check "read through the mount" "content differs" \
	cmp -s "$src/deep/a/b/c/d/e/f/g/leaf" "$mnt/leaf-link"
check "mount is read-only" "touch succeeded" \
	bash -c "! touch '$mnt/new' 2>/dev/null"

# Independent census of the source: regular files once per inode.
expect=$(cd "$src" && {
	find . -type f -printf '%i %s %b\n' | sort -u |
		awk '{ n++; s += $2 } END { printf "%d|%.0f|", n, s }'
	find . -type d | wc -l | tr -d '\n'; printf '|'
	find . -type l | wc -l | tr -d '\n'; printf '|'
	find . ! -type f ! -type d ! -type l | wc -l | tr -d '\n'; printf '|'
	find . -type f -printf '%i %b\n' | sort -u | awk '{ b += $2 * 512 } END { printf "%.0f", b }'
})

if [ ! -f "$FSSCAN" ] || [ ! -x "$FSSCAN" ]; then
	not_ok "fsscan through delayfs" "$FSSCAN not built"
	exit 1
fi
scan() { # scan DB [OPTIONS]: scan the mount point, echo wall seconds
	local db=$1; shift
	rm -f "$db"
	local a b rc
	a=$(now)
	"$FSSCAN" --quiet --db "$db" "$@" "$mnt" >"$tmp/scan.out" 2>&1
	rc=$?
	b=$(now)
	[ $rc -eq 0 ] || { echo "exit $rc: $(tail -n 3 "$tmp/scan.out" | tr '\n' ' ')"; return 1; }
	elapsed "$a" "$b"
}
totals() { sqlite3 -batch "$1" \
	'SELECT files, bytes, dirs, symlinks, others, alloc_bytes FROM v_snapshot'; }

if out=$(scan "$tmp/def.db"); then
	got=$(totals "$tmp/def.db")
	check "fsscan through delayfs: files|bytes|dirs|symlinks|others|alloc = find's" \
		"got $got, expected $expect" test "$got" = "$expect"
else
	not_ok "fsscan through delayfs" "$out"
fi

# Cached attributes (AT_STATX_DONT_SYNC) must not change what is counted
# on a read-only mirror whose attributes do not change.
if out=$(scan "$tmp/cached.db" --stat-cached); then
	got=$(totals "$tmp/cached.db")
	check "fsscan --stat-cached through delayfs counts the same" \
		"got $got, expected $expect" test "$got" = "$expect"
else
	not_ok "fsscan --stat-cached through delayfs" "$out"
fi

if t1s=$(scan "$tmp/j1.db" -j 1) && t8s=$(scan "$tmp/j8.db" -j 8); then
	check "fsscan -j 1 counts the same" "got $(totals "$tmp/j1.db")" \
		test "$(totals "$tmp/j1.db")" = "$expect"
	check "fsscan -j 8 counts the same" "got $(totals "$tmp/j8.db")" \
		test "$(totals "$tmp/j8.db")" = "$expect"
	check "fsscan threads overlap slow requests: -j 8 ${t8s}s < 0.5 x -j 1 ${t1s}s" \
		"no speed-up from threads" lt "$t8s" "0.5 * $t1s"
else
	not_ok "fsscan -j 1 / -j 8 through delayfs" "scan failed"
fi
