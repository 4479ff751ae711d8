#!/bin/sh
# The cost of kernel truth (issue 21 item 5), a benchmark (not a timed test): hackbench
# bare, under `rqpath record` (truth on, the default), under `rqpath record --no-bpf` and
# under `perf sched record`, BENCH_RUNS rounds (default 7) in an order that rotates from
# round to round.  Each slowdown is hackbench's own "Time:" over that round's bare run;
# the medians are compared.  Also: lost events and BPF ring-buffer drops at the default
# sizes, and the file size with truth against --no-bpf (median of the rounds' ratios) and
# against the same file less its truth buffer (the runs of the workload vary more).
#   sudo RQPATH=./rqpath sh tests/bench/truth.sh       (BENCH_LOOPS: hackbench -l, 2000)
: "${RQPATH:?RQPATH must name the rqpath binary}"
: "${BENCH_RUNS:=7}"
: "${BENCH_LOOPS:=2000}"
WORKLOAD="hackbench -p -g 4 -l $BENCH_LOOPS"
[ "$(id -u)" -eq 0 ] || { echo "bench: needs root" >&2; exit 2; }
command -v hackbench >/dev/null || { echo "bench: hackbench (rt-tests) missing" >&2; exit 2; }
perf_ok=1
command -v perf >/dev/null && perf sched record -o /dev/null -- true >/dev/null 2>&1 || perf_ok=0
OUT=$(mktemp -d) || exit 1
trap 'rm -rf "$OUT"' EXIT

hb() { awk '/^Time:/ { print $2 }' "$1" | tail -n 1; }
median() { sort -g | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
run_bare() { $WORKLOAD >"$OUT/bare.log" 2>&1; hb "$OUT/bare.log" >"$OUT/t.bare"; }
run_truth() {
	"$RQPATH" record -o "$OUT/truth.dat" --force -- $WORKLOAD >"$OUT/truth.log" 2>&1
	hb "$OUT/truth.log" >"$OUT/t.truth"
	sed -n 's/.*recorded [0-9]* events, \([0-9]*\) lost events, \([0-9]*\) bytes.*/\1 \2/p' \
		"$OUT/truth.log" >"$OUT/s.truth"
	sed -n 's/.*truth=bpf (\([0-9]*\) records, \([0-9]*\) dropped, \([0-9]*\) missed, \([0-9]*\) bytes.*/\1 \2 \3 \4/p' \
		"$OUT/truth.log" >"$OUT/b.truth"
}
run_nobpf() {
	"$RQPATH" record -o "$OUT/nobpf.dat" --force --no-bpf -- $WORKLOAD >"$OUT/nobpf.log" 2>&1
	hb "$OUT/nobpf.log" >"$OUT/t.nobpf"
	sed -n 's/.*recorded [0-9]* events, \([0-9]*\) lost events, \([0-9]*\) bytes.*/\1 \2/p' \
		"$OUT/nobpf.log" >"$OUT/s.nobpf"
}
run_perf() {
	[ $perf_ok = 1 ] || { echo 0 >"$OUT/t.perf"; return; }
	perf sched record -o "$OUT/perf.data" -- $WORKLOAD >"$OUT/perf.log" 2>&1
	hb "$OUT/perf.log" >"$OUT/t.perf"
}

echo "truth bench: $BENCH_RUNS rounds of bare / rqpath record / --no-bpf / perf sched record of $WORKLOAD"
i=0
while [ $i -lt "$BENCH_RUNS" ]; do
	case $((i % 4)) in
	0) order="bare truth nobpf perf" ;;
	1) order="truth nobpf perf bare" ;;
	2) order="nobpf perf bare truth" ;;
	*) order="perf bare truth nobpf" ;;
	esac
	i=$((i + 1))
	for w in $order; do run_$w; done
	b=$(cat "$OUT/t.bare") t=$(cat "$OUT/t.truth") n=$(cat "$OUT/t.nobpf") p=$(cat "$OUT/t.perf")
	set -- $(cat "$OUT/s.truth") $(cat "$OUT/s.nobpf") $(cat "$OUT/b.truth")
	tl=$1 tb=$2 nl=$3 nb=$4 rec=$5 drops=$6 miss=$7 tbytes=$8
	echo "$t $b" | awk '{ print $1 / $2 }' >>"$OUT/r.truth"
	echo "$n $b" | awk '{ print $1 / $2 }' >>"$OUT/r.nobpf"
	[ $perf_ok = 1 ] && echo "$p $b" | awk '{ print $1 / $2 }' >>"$OUT/r.perf"
	echo "$tb $nb" | awk '{ print $1 / $2 }' >>"$OUT/r.size"
	# the same file with and without its truth buffer: the workloads' runs differ more
	echo "$tb $tbytes" | awk '{ print $1 / ($1 - $2) }' >>"$OUT/r.grow"
	echo "$tl $nl $drops $miss" >>"$OUT/lost"
	echo "  round $i ($order): bare ${b}s truth ${t}s no-bpf ${n}s perf ${p}s;" \
	     "lost truth=$tl no-bpf=$nl; truth records=$rec drops=$drops misses=$miss;" \
	     "bytes truth=$tb (truth buffer $tbytes) no-bpf=$nb"
done
echo "median slowdown vs bare: rqpath record (truth) $(median <"$OUT/r.truth")x," \
     "rqpath record --no-bpf $(median <"$OUT/r.nobpf")x," \
     "perf sched record $( [ $perf_ok = 1 ] && echo "$(median <"$OUT/r.perf")x" || echo "not run")"
echo "file size truth / --no-bpf: median $(median <"$OUT/r.size")x;" \
     "a truth recording / the same without its truth buffer: median $(median <"$OUT/r.grow")x"
awk '{ tl += $1; nl += $2; d += $3; m += $4 } END { printf "lost events: truth %d, no-bpf %d in all rounds; ring-buffer drops %d, BPF misses %d\n", tl, nl, d, m }' "$OUT/lost"
