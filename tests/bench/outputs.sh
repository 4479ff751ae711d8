#!/bin/sh
# Output sizes and costs (issue 22): run by tests/bench/run.sh (`make bench`), or alone:
# sh tests/bench/outputs.sh.  On two 1.2 M-event traces made here: a generated one
# (tests/helpers/gen_trace.c, 8 CPUs) and a real recording played 671 times
# (tests/tools/repeat_trace.py fixtures/spawn.v6.dat), and a generated 5 M-event one:
# for every writer, its bytes, bytes per event and per placement, and its wall time as a
# ratio of the text report's (the same replay with the smallest output: the reference,
# measured in the same rounds); Perfetto's bytes also as a ratio of the placements JSONL
# export's (the same facts, uncompressed).  Targets: Perfetto <= 30 MB for 1.2 M events,
# HTML <= 2 MB for 5 M.  Medians of BENCH_RUNS rounds.
#
# Prints PASS/FAIL lines like run.sh and writes a markdown table to $OUT/outputs.md; exit
# 0 when every target passes, 1 when one fails, 2 when it cannot run.
# Environment: RQPATH, RQPATH_BUILD, BENCH_RUNS (5), BENCH_KEEP=1 keeps the traces.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
: "${RQPATH_BUILD:=$top/build}"
: "${RQPATH:=$top/rqpath}"
: "${BENCH_RUNS:=5}"
: "${BENCH_KEEP:=0}"
OUT=$RQPATH_BUILD/bench
GEN=$RQPATH_BUILD/tests/gen_trace
say() { echo "bench: $*"; }
[ -x "$RQPATH" ] || { say "no rqpath at $RQPATH"; exit 2; }
[ -x "$GEN" ] || { say "no $GEN (make $GEN)"; exit 2; }
command -v python3 >/dev/null || { say "python3 is needed"; exit 2; }
mkdir -p "$OUT/outputs" || exit 2
dir=$OUT/outputs
verdict=0
now() { date +%s.%N; }
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

"$GEN" -o "$dir/gen-1.2m.dat" --cpus 8 --tasks 200 --events 1200000 --seed 1 >/dev/null || exit 2
python3 "$top/tests/tools/repeat_trace.py" "$top/fixtures/spawn.v6.dat" 1200000 \
	"$dir/spawn-x671.dat" >/dev/null || exit 2
"$GEN" -o "$dir/gen-5m.dat" --cpus 8 --tasks 200 --events 5000000 --seed 3 >/dev/null || exit 2

run() { # TRACE WRITER OUT
	case $2 in
	placements-*) "$RQPATH" audit "$1" --placements "${2#placements-}" -o "$3" ;;
	*) "$RQPATH" audit "$1" --format "$2" -o "$3" ;;
	esac
}
{
	echo "| trace | writer | bytes | bytes/event | bytes/placement | time / text report's |"
	echo "|---|---|---|---|---|---|"
} >"$OUT/outputs.md"
for t in gen-1.2m spawn-x671 gen-5m; do
	dat=$dir/$t.dat
	events=$("$RQPATH" audit "$dat" --format json | python3 -c \
		'import json,sys; d=json.load(sys.stdin); print(d["trace"]["events"], sum(p["count"] for p in d["placements"]))')
	nev=${events% *} npl=${events#* }
	rm -f "$dir"/*.ratio
	for r in $(seq "$BENCH_RUNS"); do
		for w in text json csv html perfetto placements-jsonl; do
			a=$(now)
			run "$dat" "$w" "$dir/$t.$w" >/dev/null 2>&1 || { say "$t $w failed"; exit 2; }
			b=$(now)
			echo "$a $b" | awk '{ print $2 - $1 }' >>"$dir/$w.t"
		done
		ref=$(tail -n 1 "$dir/text.t")
		for w in json csv html perfetto placements-jsonl; do
			tail -n 1 "$dir/$w.t" | awk -v r="$ref" '{ print $1 / r }' >>"$dir/$w.ratio"
		done
	done
	for w in text json csv html perfetto placements-jsonl; do
		size=$(wc -c <"$dir/$t.$w")
		ratio=$( [ "$w" = text ] && echo 1 || median <"$dir/$w.ratio")
		printf '| %s | %s | %d | %.2f | %.2f | %.2f |\n' "$t" "$w" "$size" \
			"$(echo "$size $nev" | awk '{ print $1 / $2 }')" \
			"$(echo "$size $npl" | awk '{ print $1 / $2 }')" "$ratio" >>"$OUT/outputs.md"
	done
	pf=$(wc -c <"$dir/$t.perfetto") pj=$(wc -c <"$dir/$t.placements-jsonl")
	echo "| $t | perfetto / placements-jsonl bytes | $(echo "$pf $pj" | awk '{ printf "%.3f", $1 / $2 }') | | | |" >>"$OUT/outputs.md"
	case $t in
	gen-5m)
		h=$(wc -c <"$dir/$t.html")
		if [ "$h" -le 2000000 ]; then say "PASS html of 5 M events: $h bytes <= 2 MB"
		else say "FAIL html of 5 M events: $h bytes > 2 MB"; verdict=1; fi ;;
	*)
		if [ "$pf" -le 30000000 ]; then say "PASS perfetto of $t: $pf bytes <= 30 MB"
		else say "FAIL perfetto of $t: $pf bytes > 30 MB"; verdict=1; fi ;;
	esac
	rm -f "$dir"/*.t "$dir/$t".*
done
[ "$BENCH_KEEP" = 1 ] || rm -f "$dir"/*.dat "$dir"/*.expect.json
cat "$OUT/outputs.md"
exit $verdict
