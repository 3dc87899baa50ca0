#!/usr/bin/env bash
# tests/run: once
# t_run_protocol: tests/run counts what its tests say. A copy of tests/run
# runs in a scratch tree of fake tests, with and without CI=true:
#   * t_pass.sh      two checks that pass;
#   * t_fail.sh      one that passes, one that fails (exit 1);
#   * t_crash.sh     one that passes, then exit 3 without a "not ok": one
#                    failure;
#   * t_needdep.py   tap.py's skip() of a section that needs mpirun, which
#                    the scratch install-deps provides (openmpi-bin, on the
#                    second line of its list), and one pass;
#   * t_needroot.sh  tap.py's command-line skip of a section that needs
#                    root, and one pass;
#   * test_cskip     a C test: one pass, and tap.h's tap_skip() with no
#                    need.
# Counts, per test and on the last line, are computed here by hand from
# what each fake prints. Under CI=true the mpirun skip is a failure and
# the root skip stays a skip; the run lists every skip with its reason.
# Last, the real scripts/install-deps's list is read the same way: it
# provides mpirun.
# Then a fake test that hangs is killed at its time limit, a
# failure that says so.
set -u
TOP=${TOP:-$(cd "$(dirname "$0")/.." && pwd)}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/t_run_protocol.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fails=0
ok()  { echo "ok - $1"; }
nok() { echo "not ok - $1: $2"; fails=$((fails + 1)); }
check() { # check NAME GOT WANT
	if [ "$2" = "$3" ]; then ok "$1"; else nok "$1" "got '$2' want '$3'"; fi
}
# has NAME FILE PATTERN: a line of FILE matches the extended regex
has() {
	if grep -Eq -- "$3" "$2"; then ok "$1"
	else nok "$1" "no line matches $3 in: $(tr '\n' '|' <"$2")"; fi
}

t=$tmp/tree
mkdir -p "$t/tests/lib" "$t/scripts" "$t/b/tests/lib"
cp "$TOP/tests/run" "$t/tests/run"
cp "$TOP/tests/lib/tap.py" "$t/tests/lib/tap.py"
cp "$TOP/tests/lib/pace.py" "$t/tests/lib/pace.py"
printf '#!/bin/sh\n' >"$t/b/fsscan"
chmod +x "$t/b/fsscan"
cat >"$t/scripts/install-deps" <<'EOF'
#!/bin/sh
PKGS="build-essential sqlite3
faketime openmpi-bin"
EOF
cat >"$t/tests/t_pass.sh" <<'EOF'
echo "ok - one"
echo "ok - two"
EOF
cat >"$t/tests/t_fail.sh" <<'EOF'
echo "ok - one"
echo "not ok - two: deliberately"
exit 1
EOF
cat >"$t/tests/t_crash.sh" <<'EOF'
echo "ok - one"
exit 3
EOF
cat >"$t/tests/t_needdep.py" <<'EOF'
import os
import sys
sys.path.insert(0, os.path.join(os.environ["TOP"], "tests", "lib"))
from tap import ok, skip, done
skip("the MPI section", "mpirun not found", needs="mpirun")
ok(True, "serial")
done()
EOF
cat >"$t/tests/t_needroot.sh" <<'EOF'
python3 "$TOP/tests/lib/tap.py" skip "the mount section" "mounting needs root" root
echo "ok - unprivileged"
EOF
cat >"$tmp/cskip.c" <<'EOF'
#include "tap.h"

int
main(void)
{
	ok(1, "plain");
	tap_skip("no such device here", NULL, "device section (%d checks)", 4);
	return tap_end();
}
EOF
${CC:-cc} -std=c11 -O2 -Wall -Wextra -Werror -I"$TOP/tests/unit" \
    -o "$t/b/tests/lib/test_cskip" "$tmp/cskip.c" ||
	nok "tap.h's tap_skip compiles" "cc failed"

# protocol OUT [ENV...]: run the scratch tree's tests/run into OUT, print
# its exit status.
protocol() {
	local out=$1; shift
	env -u CI -u TESTS TEST_JOBS=2 "$@" "$t/tests/run" b >"$out" 2>&1
	echo $?
}
# count LABEL OUT: the count line of one test in OUT
count() {
	grep -E "^b:$1 " "$2" | sed -E 's/^b:[^ ]+ +//; s/ \([0-9]+s\)$//'
}

rc=$(protocol "$tmp/plain")
check "without CI: exit 1 (failures)" "$rc" 1
check "without CI: the last line" "$(tail -n 1 "$tmp/plain")" \
	"7 passed, 2 failed, 3 skipped"
check "a passing test" "$(count t_pass.sh "$tmp/plain")" \
	"2 passed, 0 failed, 0 skipped"
check "a failing test" "$(count t_fail.sh "$tmp/plain")" \
	"1 passed, 1 failed, 0 skipped"
has "the failing check is shown" "$tmp/plain" \
	'^  \[b:t_fail\.sh\] not ok - two: deliberately$'
check "a test that exits non-zero alone: one failure" \
	"$(count t_crash.sh "$tmp/plain")" "1 passed, 1 failed, 0 skipped"
check "a skip for want of a package: skipped, not passed" \
	"$(count t_needdep.py "$tmp/plain")" "1 passed, 0 failed, 1 skipped"
check "a skip for want of root: skipped" \
	"$(count t_needroot.sh "$tmp/plain")" "1 passed, 0 failed, 1 skipped"
check "tap_skip of tap.h: skipped" \
	"$(count test_cskip "$tmp/plain")" "1 passed, 0 failed, 1 skipped"
has "the skips are listed" "$tmp/plain" '^skipped \(why, and what was missing\):$'
has "... the package's, with what provides it" "$tmp/plain" \
	'^  \[b:t_needdep\.py\] the MPI section # SKIP mpirun not found \(needs mpirun\) \[scripts/install-deps: openmpi-bin\]$'
has "... root's" "$tmp/plain" \
	'^  \[b:t_needroot\.sh\] the mount section # SKIP mounting needs root \(needs root\)$'
has "... the C test's" "$tmp/plain" \
	'^  \[b:test_cskip\] device section \(4 checks\) # SKIP no such device here$'
has "failing tests are named" "$tmp/plain" '^failing: b:t_crash\.sh b:t_fail\.sh$|^failing: b:t_fail\.sh b:t_crash\.sh$'

rc=$(protocol "$tmp/ci" CI=true)
check "CI=true: exit 1" "$rc" 1
check "CI=true: the last line" "$(tail -n 1 "$tmp/ci")" \
	"7 passed, 3 failed, 2 skipped"
check "CI=true: a skip install-deps prevents is a failure" \
	"$(count t_needdep.py "$tmp/ci")" "1 passed, 1 failed, 0 skipped"
has "CI=true: ... shown as such" "$tmp/ci" \
	'^  \[b:t_needdep\.py\] not ok - the MPI section # SKIP mpirun not found \(needs mpirun\): under CI, as scripts/install-deps installs openmpi-bin$'
check "CI=true: a skip for want of root stays a skip" \
	"$(count t_needroot.sh "$tmp/ci")" "1 passed, 0 failed, 1 skipped"
check "CI=true: a skip that needs nothing stays a skip" \
	"$(count test_cskip "$tmp/ci")" "1 passed, 0 failed, 1 skipped"
has "CI=true: every skip listed (root)" "$tmp/ci" '^  \[b:t_needroot\.sh\] the mount section'
has "CI=true: every skip listed (package)" "$tmp/ci" '^  \[b:t_needdep\.py\] the MPI section'

rc=$(protocol "$tmp/clean" CI=true TESTS="t_pass t_needroot")
check "CI=true, passes and a root skip: exit 0" "$rc" 0
check "CI=true, passes and a root skip: the last line" \
	"$(tail -n 1 "$tmp/clean")" "3 passed, 0 failed, 1 skipped"

cp "$TOP/scripts/install-deps" "$t/scripts/install-deps"
rc=$(protocol "$tmp/real" CI=true TESTS=t_needdep)
check "the real install-deps provides mpirun: exit 1 under CI" "$rc" 1
has "... through openmpi-bin" "$tmp/real" 'scripts/install-deps installs openmpi-bin$'

# A test that hangs is killed at its limit: TEST_LIMIT 2 s times the pace
# 1.5 imposed here is 3 s; it fails, and says why.
cat >"$t/tests/t_hang.sh" <<'EOF'
echo "ok - started"
exec sleep 600
EOF
rc=$(protocol "$tmp/hang" TESTS=t_hang TEST_LIMIT=2 TEST_PACE=1.5)
check "a hung test: exit 1" "$rc" 1
check "a hung test: one failure" "$(count t_hang.sh "$tmp/hang")" \
	"1 passed, 1 failed, 0 skipped"
has "... killed by its limit, said so" "$tmp/hang" \
	'^  \[b:t_hang\.sh\] not ok - killed by its time limit, 3 s \(2 s times the pace 1\.50 of b\)$'
has "... the pace of the run is printed" "$tmp/hang" \
	'^tests/run: b: pace 1\.50, a test.s limit 3 s$'
[ "$fails" -eq 0 ]
