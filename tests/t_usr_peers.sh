#!/usr/bin/env bash
# t_usr_peers: fsscan's totals for /usr against find(1) and du(1).
#
# find -xdev lists every entry of /usr's file system; awk then computes
#   * fsscan's semantics: regular files once per (dev, ino), dirs (ROOT
#     included), symlinks, others, bytes and 512-byte blocks of the files,
#     all_size/all_blocks over every counted entry, the size/mtime/ctime
#     histograms of v_hist;
#   * du's semantics: every entry counted, non-directories with nlink > 1
#     once per inode; directories' and symlinks' sizes included.
# du --apparent-size -s -B1 -x and du -s -B1 -x must agree with the second
# (this checks the find/awk side), and fsscan with the first.
# A mount point below /usr has another st_dev: fsscan skips it, so the awk
# drops entries whose device differs from /usr's (du -x would count the
# mount point's own directory: the du checks are skipped then).
set -u
TOP=${TOP:-$(cd "$(dirname "$0")/.." && pwd)}
FSSCAN=${FSSCAN:-$TOP/build/fsscan}
R=${USR_ROOT:-/usr}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/t_usr_peers.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fails=0
ok()  { echo "ok - $1"; }
nok() { echo "not ok - $1: $2"; fails=$((fails + 1)); }
skip() { python3 "$TOP/tests/lib/tap.py" skip "$@"; }
check() { # check NAME GOT WANT
	if [ "$2" = "$3" ]; then ok "$1"; else nok "$1" "got $2 want $3"; fi
}

now=$(date +%s)
"$FSSCAN" --db "$tmp/db" --now "$now" --quiet -j 2 "$R" 2>"$tmp/err"
rc=$?
check "fsscan $R exit status" "$rc" 0
[ "$rc" -le 1 ] || { cat "$tmp/err"; exit 1; }

dev=$(stat -c %d "$R")
# %D dev, %i ino, %n nlink, %s size, %b 512-byte blocks, %y type,
# %T@ mtime, %C@ ctime (seconds with a fraction; floor is tv_sec)
find "$R" -xdev \( -type d -name .snapshot -prune -o -true \) \
	-printf '%D %i %n %s %b %y %T@ %C@\n' >"$tmp/find"
awk -v dev="$dev" -v now="$now" -v out="$tmp" '
# mawk prints integers above 2^31 in %.6g: format every number with %.0f
function n(x) { return sprintf("%.0f", x) }
function bucket_size(s,   lo) {
	if (s < 2048) return "0 2048"
	lo = 2048; while (lo * 2 <= s) lo *= 2
	return n(lo) " " n(lo * 2)
}
function bucket_age(a,   d, lo) {
	if (a < 0) return "-9223372036854775808 0"
	d = int(a / 86400)
	if (d < 2) return "0 " n(2 * 86400)
	lo = 2; while (lo * 2 <= d) lo *= 2
	return n(lo * 86400) " " n(lo * 2 * 86400)
}
# tv_sec of "SEC.FRACTION" as find prints it, without rounding through a
# double (x.9999999999 would round up)
function tsec(t,   p, s) {
	p = index(t, "."); s = (p ? substr(t, 1, p - 1) : t) + 0
	if (t ~ /^-/ && p && substr(t, p + 1) !~ /^0*$/) s--
	return s
}
$1 != dev { mounts++; next }
{
	key = $1 " " $2; t = $6
	# du: non-directories with several links once per inode
	if (t == "d" || $3 < 2 || !(key in du_seen)) {
		du_size += $4; du_blocks += $5
		if (t != "d") du_seen[key] = 1
	}
	# fsscan: regular files once per inode
	if (t == "f" && $3 > 1) {
		if (key in f_seen) { dups++; next }
		f_seen[key] = 1
	}
	all_size += $4; all_blocks += $5
	if (t == "f") {
		files++; bytes += $4; blocks += $5
		h["size " bucket_size($4)] += 1; hb["size " bucket_size($4)] += $4
		m = "mtime " bucket_age(now - tsec($7)); h[m] += 1; hb[m] += $4
		c = "ctime " bucket_age(now - tsec($8)); h[c] += 1; hb[c] += $4
	} else if (t == "d") dirs++
	else if (t == "l") links++
	else others++
}
END {
	printf "files=%d dirs=%d symlinks=%d others=%d bytes=%.0f alloc_bytes=%.0f\n",
	    files, dirs, links, others, bytes, blocks * 512 > (out "/want_snap")
	printf "all_size=%.0f all_blocks=%.0f hardlink_dups=%d\n",
	    all_size, all_blocks, dups > (out "/want_internal")
	printf "%.0f %.0f\n", du_size, du_blocks * 512 > (out "/want_du")
	printf "%d\n", mounts > (out "/mounts")
	for (k in h) printf "%s %.0f %.0f\n", k, h[k], hb[k] > (out "/want_hist")
}' "$tmp/find"
sort -o "$tmp/want_hist" "$tmp/want_hist"

q() { sqlite3 -separator ' ' "$tmp/db" "$1"; }
sid=$(q "SELECT max(id) FROM v_snapshot")
check "v_snapshot totals vs find" \
	"$(q "SELECT 'files='||files||' dirs='||dirs||' symlinks='||symlinks||' others='||others||' bytes='||bytes||' alloc_bytes='||alloc_bytes FROM v_snapshot WHERE id=$sid")" \
	"$(cat "$tmp/want_snap")"
check "all_size, all_blocks, hardlink_dups vs find" \
	"$(q "SELECT 'all_size='||all_size||' all_blocks='||all_blocks||' hardlink_dups='||hardlink_dups FROM snapshot WHERE id=$sid")" \
	"$(cat "$tmp/want_internal")"
check "v_snapshot errors" "$(q "SELECT errors FROM v_snapshot WHERE id=$sid")" 0
q "SELECT metric, lo, hi, files, bytes FROM v_hist WHERE snapshot_id=$sid AND project IS NULL AND metric IN ('size','mtime','ctime')" | sort >"$tmp/got_hist"
if cmp -s "$tmp/got_hist" "$tmp/want_hist"; then
	ok "v_hist size/mtime/ctime vs find"
else
	nok "v_hist size/mtime/ctime vs find" "$(diff "$tmp/got_hist" "$tmp/want_hist" | grep '^[<>]' | head -n 6 | tr '\n' ';')"
fi
check "v_dir root row equals v_snapshot" \
	"$(q "SELECT files, dirs, bytes, alloc_bytes FROM v_dir WHERE snapshot_id=$sid AND path='.'")" \
	"$(q "SELECT files, dirs, bytes, alloc_bytes FROM v_snapshot WHERE id=$sid")"
check "v_project sums equal v_snapshot" \
	"$(q "SELECT sum(files), sum(dirs), sum(bytes), sum(alloc_bytes) FROM v_project WHERE snapshot_id=$sid")" \
	"$(q "SELECT files, dirs, bytes, alloc_bytes FROM v_snapshot WHERE id=$sid")"

if [ "$(cat "$tmp/mounts")" -eq 0 ]; then
	read -r du_size du_alloc <"$tmp/want_du"
	check "du --apparent-size -s -B1 -x agrees with find" \
		"$(du --apparent-size -s -B1 -x "$R" | cut -f1)" "$du_size"
	check "du -s -B1 -x agrees with find" \
		"$(du -s -B1 -x "$R" | cut -f1)" "$du_alloc"
	# fsscan's all_size counts every entry once, like du, except that du
	# also merges hard links of non-regular files (rare): compare when the
	# two rules give the same thing, i.e. no such links exist.
	nreg_links=$(awk -v dev="$dev" '$1 == dev && $6 != "d" && $6 != "f" && $3 > 1' "$tmp/find" | wc -l)
	if [ "$nreg_links" -eq 0 ]; then
		check "fsscan all_size, all_blocks*512 equal du" \
			"$(q "SELECT all_size||' '||(all_blocks*512) FROM snapshot WHERE id=$sid")" \
			"$du_size $du_alloc"
	else
		skip "fsscan all_size, all_blocks*512 equal du" \
		    "$nreg_links non-regular files below $R have hard links: du merges them"
	fi
else
	skip "du -s -x against find, and fsscan against du" \
	    "$(cat "$tmp/mounts") mount points below $R: du -x counts their directories"
fi
[ "$fails" -eq 0 ]
