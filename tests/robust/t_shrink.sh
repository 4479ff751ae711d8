#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# t_shrink.sh - a trace.dat cut short while rqpath reads it: an error line and exit 2,
# never SIGBUS (the reader uses pread(), not mmap()).  Deterministic part: the
# shrink_read helper truncates the file between two steps of the replay (1 and 2
# threads, v6 and v7 zstd).  Then 13 audits with a truncation racing them.
set -u
: "${RQPATH:?}" "${RQPATH_TOP:?}"
build=${RQPATH_BUILD:-$RQPATH_TOP/build}
helper=$build/tests/shrink_read
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
[ -x "$helper" ] || { echo "FAIL: $helper not built"; exit 1; }
# files with data past what is read ahead when the file is cut: one block per CPU in
# use and, with 2 threads, one more (v7 zstd chunks are ~10 pages, v6 windows 256 KiB)
lisa=$RQPATH_TOP/../shared/traces/lisa-juno-rtapp.dat
[ -f "$lisa" ] || { echo "no ../shared/traces/lisa-juno-rtapp.dat"; exit 77; }
zlisa=$tmp/lisa-zstd.dat
command -v trace-cmd >/dev/null &&
	trace-cmd convert -i "$lisa" --file-version 7 --compression zstd -o "$zlisa" >/dev/null 2>&1 ||
	zlisa=""
for run in "$RQPATH_TOP/fixtures/spawn.dat 1" "$lisa 1" \
	   ${zlisa:+"$zlisa 1" "$zlisa 2"}; do
	f=${run% *} t=${run##* }
	cp "$f" "$tmp/s.dat"
	if out=$("$helper" "$tmp/s.dat" $t); then
		echo "ok   $(basename "$f"), $t thread(s): $out"
	else
		echo "FAIL $(basename "$f"), $t thread(s): $out"; fail=1
	fi
done
set -- "$RQPATH_TOP/fixtures/spawn.dat" "$lisa"
big=$2
i=0
while [ $i -lt 13 ]; do
	i=$((i + 1))
	cp "$big" "$tmp/r.dat"
	"$RQPATH" audit --format json "$tmp/r.dat" >/dev/null 2>"$tmp/err" &
	pid=$!
	truncate -s $((i * 65536)) "$tmp/r.dat"
	wait $pid
	rc=$?
	case $rc in
	0) ;;
	2) [ "$(wc -l <"$tmp/err")" -eq 1 ] || { echo "FAIL try $i: exit 2, not one line:"; cat "$tmp/err"; fail=1; } ;;
	*) echo "FAIL try $i: exit $rc"; tail -n 3 "$tmp/err"; fail=1 ;;
	esac
	grep -q 'Sanitizer\|runtime error' "$tmp/err" && { echo "FAIL try $i: sanitizer report"; fail=1; }
done
[ $fail -eq 0 ] && echo "a file cut while read: an error, never a signal (13 racing audits too)"
exit $fail
