#!/bin/sh
# The threaded replay has no data race: the ThreadSanitizer build (build/tsan/rqpath, made
# by `make check`) audits compressed and plain files with 2, 3 and 4 threads (the pump's
# worker, and read-ahead workers beside it) and must report no race and print what one
# thread prints.  Output comparison alone did not catch the race that read a block twice
# (the pump's worker started before the read-ahead took its CPUs' cursors: about one run
# in 40 counted 8353 events for 7820), TSan sees it in every run.
top=${RQPATH_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
build=${RQPATH_BUILD:-$top/build}
tsan=${RQPATH_TSAN:-$build/tsan/rqpath}
[ -x "$tsan" ] || { echo "skip: no ThreadSanitizer build ($tsan; make check builds it)"; exit 77; }
command -v trace-cmd >/dev/null || { echo "skip: trace-cmd is not installed"; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0

files="$top/fixtures/spawn.dat $top/fixtures/idle-stack.v6.dat"
lisa=$top/../shared/traces/lisa-juno-rtapp.dat
[ -f "$lisa" ] && trace-cmd convert -i "$lisa" --file-version 7 --compression zstd \
	-o "$tmp/rtapp.zstd.dat" >/dev/null 2>&1 && files="$files $tmp/rtapp.zstd.dat"
# a file with more CPUs than threads, compressed: every worker has CPUs to read ahead
trace-cmd convert -i "$top/fixtures/execl-pinned.v6.dat" --file-version 7 --compression zstd \
	-o "$tmp/execl.zstd.dat" >/dev/null 2>&1 && files="$files $tmp/execl.zstd.dat"

export TSAN_OPTIONS="halt_on_error=1 exitcode=66 report_signal_unsafe=0"
for f in $files; do
	"$tsan" audit --threads 1 --format json "$f" >"$tmp/one.json" 2>"$tmp/one.err"
	rc=$?
	[ $rc -le 1 ] || { echo "FAIL: $f --threads 1 exit $rc"; head -20 "$tmp/one.err"; fail=1; continue; }
	for t in 2 3 4; do
		for i in 1 2 3; do
			"$tsan" audit --threads $t --format json "$f" >"$tmp/t.json" 2>"$tmp/t.err"
			rc=$?
			n=$((n + 1))
			if grep -q "ThreadSanitizer" "$tmp/t.err" || [ $rc -gt 1 ]; then
				echo "FAIL: $(basename "$f") --threads $t (run $i): exit $rc"
				grep -A14 "WARNING: ThreadSanitizer" "$tmp/t.err" | head -30
				fail=1; break 2
			fi
			cmp -s "$tmp/one.json" "$tmp/t.json" ||
				{ echo "FAIL: $(basename "$f") --threads $t (run $i) differs from --threads 1"
				  diff "$tmp/one.json" "$tmp/t.json" | head -6; fail=1; break 2; }
		done
	done
done
[ $fail -eq 0 ] && echo "$n threaded audits: no race, each equal to --threads 1"
exit $fail
