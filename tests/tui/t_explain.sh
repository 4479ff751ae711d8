#!/bin/sh
# rqpath explain: the decision tree as text, without and with counts (golden text),
# in UTF-8 and in the C locale; errors exit 2 with one line.
top=${RQPATH_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
: "${RQPATH:=$top/build/rqpath}"
golden=$top/tests/tui/golden
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

check() {	# name, then the command
	name=$1
	shift
	out=$(cd "$top" && "$@" 2>&1)
	rc=$?
	[ $rc -eq 0 ] || fail "$name: exit $rc"
	if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then
		printf '%s\n' "$out" >"$golden/$name.txt"
		echo "updated $name"
	elif ! printf '%s\n' "$out" | diff -u "$golden/$name.txt" -; then
		fail "$name differs from golden/$name.txt"
	else
		echo "ok   $name"
	fi
}

check explain-nofile env LANG=C.UTF-8 LC_ALL= "$RQPATH" explain
check explain-spawn env LANG=C.UTF-8 LC_ALL= "$RQPATH" explain fixtures/spawn.dat
check explain-brief-ascii env LC_ALL=C "$RQPATH" explain --brief fixtures/spawn.dat

out=$(cd "$top" && LC_ALL=C "$RQPATH" explain fixtures/spawn.dat)
printf '%s\n' "$out" | LC_ALL=C grep -q '[^ -~]' && fail "non-ASCII in the C locale"
printf '%s\n' "$out" | awk 'length > 100 { bad = 1 } END { exit bad }' ||
	fail "lines over 100 columns"

# the counts agree with the audit's path counts
forks=$(cd "$top" && "$RQPATH" audit fixtures/spawn.dat | awk '$1 == "sched_wakeup_new" { print $2 }')
printf '%s\n' "$out" | grep -Eq "^ +$forks .* fork: wake_up_new_task" ||
	fail "fork step count is not audit's sched_wakeup_new count ($forks)"

for bad in "explain /nonexistent.dat" "explain --bogus" "explain a b"; do
	# shellcheck disable=SC2086
	err=$("$RQPATH" $bad 2>&1 >/dev/null)
	rc=$?
	[ $rc -eq 2 ] || fail "'$bad': exit $rc"
	[ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] || fail "'$bad': not one line: $err"
done

# hostile trace: the file's task names never reach the text unescaped
out=$(cd "$top" && "$RQPATH" explain tests/tui/golden/hostile.dat)
printf '%s' "$out" | grep -q "$(printf '\033')" && fail "raw ESC in explain output"

[ $failures -eq 0 ] || { echo "$failures check(s) failed"; exit 1; }
echo "all checks passed"
