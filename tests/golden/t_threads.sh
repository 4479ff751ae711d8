#!/bin/sh
# `rqpath audit --threads N` gives the same output for any N (a worker thread reads,
# merges and decodes into batches that the engine's thread runs; more threads read
# ahead: none of them changes what is fed to the engine): every fixture, the foreign
# traces converted to v7 zstd (many chunks per CPU), copies with missed-event marks and
# a page whose clock goes backwards (tests/tools/mkodd.py), and a file corrupt in its
# middle (the same error line, exit 2).  JSON for 1, 2, 3, 4 and 8 threads; the text
# report and the placements CSV for 1 and 2.
top=${RQPATH_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
traces=$top/../shared/traces
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0 n=0
set -- "$top"/fixtures/*.dat
if command -v trace-cmd >/dev/null; then
	for dat in "$traces"/*.dat; do
		[ -f "$dat" ] || continue
		out=$tmp/$(basename "$dat" .dat).zstd.dat
		trace-cmd convert -i "$dat" --file-version 7 --compression zstd -o "$out" \
			>/dev/null 2>&1 && set -- "$@" "$out"
	done
fi
# lost events: missed-event marks (a stored count, an unknown one), a clock going back
if command -v trace-cmd >/dev/null && command -v python3 >/dev/null &&
	trace-cmd convert -i "$top/fixtures/spawn.v6.dat" --file-version 7 --compression none \
		-o "$tmp/base.dat" >/dev/null 2>&1; then
	for kind in missed backwards; do
		python3 "$top/tests/tools/mkodd.py" $kind "$tmp/base.dat" "$tmp/$kind.dat" &&
			set -- "$@" "$tmp/$kind.dat"
	done
fi
# a v6 copy of a fixture with its last CPU data page broken (commit far past the page)
bad=$tmp/bad.dat
cp "$top/fixtures/spawn.v6.dat" "$bad"
size=$(wc -c <"$bad")
printf '\377\377\377\007' | dd of="$bad" bs=1 seek=$((size - 4096 + 8)) conv=notrunc status=none
set -- "$@" "$bad"
for dat in "$@"; do
	n=$((n + 1))
	"$RQPATH" audit --threads 1 --format json "$dat" >"$tmp/1" 2>"$tmp/1.err"
	rc1=$?
	for t in 2 3 4 8; do
		"$RQPATH" audit --threads $t --format json "$dat" >"$tmp/$t" 2>"$tmp/$t.err"
		rc=$?
		if [ $rc -ne $rc1 ] || ! cmp -s "$tmp/1" "$tmp/$t" || ! cmp -s "$tmp/1.err" "$tmp/$t.err"; then
			echo "FAIL: $(basename "$dat"): --threads $t differs from --threads 1 (exit $rc vs $rc1)"
			diff "$tmp/1" "$tmp/$t" | head -5; diff "$tmp/1.err" "$tmp/$t.err" | head -3
			fail=1
		fi
	done
	for mode in "--format text" "--placements csv"; do
		for t in 1 2; do
			# shellcheck disable=SC2086
			"$RQPATH" audit --threads $t $mode "$dat" >"$tmp/m$t" 2>&1
			echo "exit $?" >>"$tmp/m$t"
		done
		cmp -s "$tmp/m1" "$tmp/m2" || {
			echo "FAIL: $(basename "$dat"): audit $mode differs with --threads 2"
			diff "$tmp/m1" "$tmp/m2" | head -5; fail=1; }
	done
	case $dat in
	*/missed.dat)
		# the marks reach the engine through the worker's batches
		grep -q '"lost_events": [1-9]' "$tmp/2" ||
			{ echo "FAIL: missed.dat: no lost events with --threads 2"; fail=1; } ;;
	esac
done
grep -q 'corrupt trace.dat' "$tmp/1.err" || { echo "FAIL: the broken copy was not refused: $(cat "$tmp/1.err")"; fail=1; }
[ $fail -eq 0 ] && echo "$n files: the same audit with 1, 2, 3, 4 and 8 threads"
exit $fail
