#!/bin/sh
# Scale benchmarks (issue 23), on traces made by tests/helpers/gen_trace.c; run by
# tests/bench/run.sh (`make bench`), or alone: sh tests/bench/scale.sh.
#
#   cpus     the same number of events (SCALE_EVENTS) on 2 CPUs (1 LLC), 64 CPUs (4 LLCs
#            of 16) and 256 CPUs (8 LLCs of 32), 2000 tasks: `rqpath audit --threads 1`
#            in SCALE_CPU_RUNS rounds, each the three files in a rotating order: CPU time
#            per event against 2 CPUs, the median of the rounds' ratios (the ratio of the
#            medians beside it); and callgrind instructions per event on SCALE_CG_EVENTS
#   tasks    peak RSS of `rqpath audit --threads 1` at 10 k and 100 k live tasks (64 CPUs,
#            SCALE_EVENTS events): bytes per added task; and at 10 k tasks with 4x the
#            events: flat with the event count
#   100m     a SCALE_BIG_EVENTS (100 M) event file, 64 CPUs, SCALE_BIG_TASKS (1000) tasks,
#            generated into SCALE_DIR and deleted after: `rqpath audit` (default threads)
#            end to end, its exit status, and its events per CPU second against the 1x
#            of the same shape (SCALE_EVENTS events, 64 CPUs, SCALE_BIG_TASKS tasks, the
#            same command, audited as many times as it takes to read as many events, half
#            before the big file and half after, in each of SCALE_BIG_RUNS rounds): nothing
#            may grow with the length, the time per event nor the peak RSS.  A file of
#            10 k events, audited as often as the 1x, gives one audit's start-up cost,
#            shown taken out of the 1x beside the target; the
#            rate against make bench's 1x hackbench recording (SCALE_REF_EPS, set by
#            run.sh) is shown beside it.  SCALE_DIR is in /dev/shm when it has room: the
#            1x trace is read from the page cache too, and this machine's disk reads ~30 MB/s
# Every generated file's audit must also give the generator's counts
# (tests/tools/expect_check.py): a benchmark of wrong answers measures nothing.
#
# Prints PASS/FAIL lines like run.sh and writes a markdown table to $OUT/scale.md; exit
# 0 when every target passes or is skipped, 1 when one fails, 2 when it cannot run.
# Environment: RQPATH, RQPATH_BUILD, SCALE_CPU_RUNS (15), BENCH_SKIP (cpus tasks 100m),
# SCALE_EVENTS (2000000), SCALE_CG_EVENTS (300000), SCALE_BIG_EVENTS (100000000),
# SCALE_BIG_TASKS (1000), SCALE_BIG_RUNS (3), SCALE_DIR (/dev/shm/rqpath-scale.PID if it has room for the
# 100m file, else build/bench/scale), BENCH_KEEP=1 keeps the files.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
: "${RQPATH_BUILD:=$top/build}"
: "${RQPATH:=$top/rqpath}"
: "${SCALE_CPU_RUNS:=15}"
: "${BENCH_SKIP:=}"
: "${BENCH_KEEP:=0}"
: "${SCALE_EVENTS:=2000000}"
: "${SCALE_CG_EVENTS:=300000}"
: "${SCALE_BIG_EVENTS:=100000000}"
: "${SCALE_REF_EPS:=}"
: "${SCALE_BIG_TASKS:=1000}"
: "${SCALE_BIG_RUNS:=3}"
OUT=$RQPATH_BUILD/bench
need=$((SCALE_BIG_EVENTS / 1000000 * 130))	# MiB, ~65 bytes per event, twice while written
if [ -z "${SCALE_DIR:-}" ]; then
	SCALE_DIR=$OUT/scale
	if [ -d /dev/shm ] && [ "$(df -Pm /dev/shm | awk 'NR == 2 { print $4 }')" -gt "$need" ]; then
		SCALE_DIR=/dev/shm/rqpath-scale.$$
	fi
fi
GEN=$RQPATH_BUILD/tests/gen_trace
CHECK=$top/tests/tools/expect_check.py

say() { echo "scale: $*"; }
die() { echo "scale: $*" >&2; exit 2; }
skipped() { case " $BENCH_SKIP " in *" $1 "*) return 0 ;; esac; return 1; }
now() { date +%s%N; }
secs() { awk -v s="$1" -v e="$2" 'BEGIN { printf "%.6f\n", (e - s) / 1e9 }'; }
med() { sort -g "$1" | awk '{ a[NR] = $1 } END { if (!NR) { print "nan"; exit }
	print NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
calc() { awk "BEGIN { v = $1; printf \"%s\n\", v }"; }
fmt() { awk -v v="$1" -v f="$2" 'BEGIN { if (v == "" || v == "nan") print "n/a"; else printf f "\n", v }'; }
# ok "VALUE OP LIMIT": PASS or FAIL; a value that is not a number (nan: no run) fails
ok() {
	case $1 in nan* | n/a* | " "* | "") echo FAIL; return ;; esac
	awk "BEGIN { exit !($1) }" && echo PASS || echo FAIL
}

[ -x "$RQPATH" ] || die "no rqpath binary at $RQPATH (make, or set RQPATH)"
[ -x "$GEN" ] || die "no generator at $GEN (make $GEN)"
mkdir -p "$OUT" "$SCALE_DIR" || die "cannot create $SCALE_DIR"
rm -f "$SCALE_DIR"/*.t
cleanup() {
	[ "$BENCH_KEEP" = 1 ] || rm -f "$SCALE_DIR"/*.dat "$SCALE_DIR"/*.expect.json
	case $SCALE_DIR in /dev/shm/rqpath-scale.*) [ "$BENCH_KEEP" = 1 ] || rm -rf "$SCALE_DIR" ;; esac
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

results="" verdict=0 rows=""
target() {	# target NAME VALUE TEXT RESULT
	results="$results$1|$2|$3|$4
"
	[ "$4" = FAIL ] && verdict=1
	printf '%-4s  %s: %s (target %s)\n' "$4" "$1" "$2" "$3"
}
row() { rows="$rows| $1 | $2 |
"; }

# gen NAME CPUS LLCS TASKS EVENTS [VERSION]: generate, fail the bench if it cannot
gen() {
	"$GEN" -o "$SCALE_DIR/$1.dat" --cpus "$2" --llcs "$3" --tasks "$4" --events "$5" \
		--file-version "${6:-7}" --seed 1 2>"$SCALE_DIR/gen.err" ||
		die "gen_trace $1: $(cat "$SCALE_DIR/gen.err")"
}
# verify NAME [threads]: the audit's counts are the generator's
verify() {
	"$RQPATH" audit --threads "${2:-1}" --format json "$SCALE_DIR/$1.dat" >"$SCALE_DIR/$1.json" \
		2>"$SCALE_DIR/$1.err"
	rc=$?
	[ $rc -le 1 ] || { say "audit $1 exited $rc: $(head -n 1 "$SCALE_DIR/$1.err")"; return 1; }
	python3 "$CHECK" "$SCALE_DIR/$1.dat.expect.json" "$SCALE_DIR/$1.json" >"$SCALE_DIR/$1.check" ||
		{ say "$1: rqpath's counts differ from the generator's:"; head -n 5 "$SCALE_DIR/$1.check"; return 1; }
}
ir() { awk '/^(summary|totals):/ { print $2; exit }' "$1"; }
# cg NAME: callgrind instructions of audit --threads 1, less the one-off rq_td_open
cg() {
	valgrind --tool=callgrind --callgrind-out-file="$SCALE_DIR/cg.$1.out" \
		"$RQPATH" audit --threads 1 --format json "$SCALE_DIR/$1.dat" >/dev/null \
		2>"$SCALE_DIR/cg.$1.log"
	callgrind_annotate "$SCALE_DIR/cg.$1.out" >"$SCALE_DIR/cg.$1.self.txt" 2>/dev/null
	ir "$SCALE_DIR/cg.$1.out"
}
# timed WALLFILE CPUFILE CMD...: append CMD's wall and CPU seconds (user + sys, all its
# threads).  perf's task-clock when perf runs here (microseconds), else /usr/bin/time,
# whose 0.01 s steps are 7 % of a 2 M-event audit.
if perf stat -x, -e task-clock true >/dev/null 2>&1; then have_perf=1; else have_perf=0; fi
timed() {
	_w=$1 _c=$2
	shift 2
	_s=$(now)
	if [ $have_perf = 1 ]; then
		perf stat -x, -e task-clock -o "$SCALE_DIR/perf.tmp" "$@" >/dev/null 2>&1
		_rc=$?
		awk -F, '$3 ~ /^task-clock/ { printf "%.6f\n", $1 / 1000 }' "$SCALE_DIR/perf.tmp" >>"$_c"
	else
		/usr/bin/time -f '%U %S' -o "$SCALE_DIR/time.tmp" "$@" >/dev/null 2>&1
		_rc=$?
		tail -n 1 "$SCALE_DIR/time.tmp" | awk '{ print $1 + $2 }' >>"$_c"
	fi
	secs "$_s" "$(now)" >>"$_w"
	return $_rc
}
sum() { awk '{ s += $1 } END { printf "%.6f\n", s }' "$1"; }
# audits N NAME: audit NAME.dat N times (default threads), timed into NAME.r.t and
# NAME.r.cpu.t; a run that exits past 1 counts in $SCALE_DIR/failed.t: a run that failed
# early would look fast
audits() {
	_n=$1
	while [ "$_n" -gt 0 ]; do
		_n=$((_n - 1))
		timed "$SCALE_DIR/$2.r.t" "$SCALE_DIR/$2.r.cpu.t" "$RQPATH" audit --format json \
			"$SCALE_DIR/$2.dat"
		[ $? -le 1 ] || echo "$2" >>"$SCALE_DIR/failed.t"
	done
}
events_of() { python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["events"])' \
	"$SCALE_DIR/$1.dat.expect.json"; }

# ---- per-event cost against the number of CPUs -------------------------------------------
if ! skipped cpus; then
	say "cpus: $SCALE_EVENTS events on 2, 64 and 256 CPUs, 2000 tasks"
	gen c2 2 1 2000 "$SCALE_EVENTS"
	gen c64 64 4 2000 "$SCALE_EVENTS"
	gen c256 256 8 2000 "$SCALE_EVENTS"
	bad=0
	for n in c2 c64 c256; do verify $n || bad=1; done
	[ $bad = 0 ] || target "cpus: generated traces audited right" "no" "yes" FAIL
	# the three files in each round, in an order that rotates (none always first); an
	# audit that fails counts in failed.t (it would look fast)
	rm -f "$SCALE_DIR"/c*.t "$SCALE_DIR/failed.t"
	i=0
	while [ $i -lt "$SCALE_CPU_RUNS" ]; do
		case $((i % 3)) in 0) order="c2 c64 c256" ;; 1) order="c64 c256 c2" ;;
			*) order="c256 c2 c64" ;; esac
		i=$((i + 1))
		for n in $order; do
			timed "$SCALE_DIR/$n.t" "$SCALE_DIR/$n.cpu.t" "$RQPATH" audit --threads 1 \
				--format json "$SCALE_DIR/$n.dat"
			[ $? -le 1 ] || echo "$n" >>"$SCALE_DIR/failed.t"
		done
	done
	for n in c2 c64 c256; do
		eval "ev_$n=\$(events_of $n) t_$n=\$(med \"\$SCALE_DIR/$n.t\") u_$n=\$(med \"\$SCALE_DIR/$n.cpu.t\")"
	done
	# per event, so that a few more or fewer events per file do not count
	ns() { calc "$2 * 1e9 / $1"; }
	# rratio A B EV_A EV_B: the median over the rounds of A's CPU time per event over B's,
	# each round's runs minutes apart at most: a host that is slower for a while slows both
	rratio() {
		paste "$SCALE_DIR/$1.cpu.t" "$SCALE_DIR/$2.cpu.t" |
			awk -v ea="$3" -v eb="$4" '$1 > 0 && $2 > 0 { print ($1 / ea) / ($2 / eb) }' \
			>"$SCALE_DIR/rr.t"
		med "$SCALE_DIR/rr.t"
	}
	p2=$(ns "$ev_c2" "$t_c2") p64=$(ns "$ev_c64" "$t_c64") p256=$(ns "$ev_c256" "$t_c256")
	row "audit --threads 1, wall ns/event (median of $SCALE_CPU_RUNS): 2 / 64 / 256 CPUs" \
		"$(fmt "$p2" %.0f) / $(fmt "$p64" %.0f) / $(fmt "$p256" %.0f) (ratios $(fmt "$(calc "$p64 / $p2")" %.2f)x, $(fmt "$(calc "$p256 / $p2")" %.2f)x)"
	# the target on CPU time (user + sys): on a machine shared with other work the wall
	# time of one thread also counts the time it waited for a CPU
	p2=$(ns "$ev_c2" "$u_c2") p64=$(ns "$ev_c64" "$u_c64") p256=$(ns "$ev_c256" "$u_c256")
	r64=$(rratio c64 c2 "$ev_c64" "$ev_c2") r256=$(rratio c256 c2 "$ev_c256" "$ev_c2")
	row "audit --threads 1, CPU ns/event (median of $SCALE_CPU_RUNS): 2 / 64 / 256 CPUs" \
		"$(fmt "$p2" %.0f) / $(fmt "$p64" %.0f) / $(fmt "$p256" %.0f) (ratios of the medians $(fmt "$(calc "$p64 / $p2")" %.2f)x, $(fmt "$(calc "$p256 / $p2")" %.2f)x)"
	if [ -s "$SCALE_DIR/failed.t" ]; then
		say "cpus: $(wc -l <"$SCALE_DIR/failed.t") timed audits exited past 1"
		r64=nan r256=nan
	fi
	target "per-event CPU time 64 CPUs / 2 CPUs (median of $SCALE_CPU_RUNS rounds' ratios)" \
		"$(fmt "$r64" %.2fx)" "<= 1.15x" "$(ok "$r64 <= 1.15")"
	target "per-event CPU time 256 CPUs / 2 CPUs (median of $SCALE_CPU_RUNS rounds' ratios)" \
		"$(fmt "$r256" %.2fx)" "<= 1.30x" "$(ok "$r256 <= 1.3")"
	if command -v valgrind >/dev/null; then
		say "cpus: callgrind on $SCALE_CG_EVENTS events each"
		gen g2 2 1 2000 "$SCALE_CG_EVENTS"
		gen g64 64 4 2000 "$SCALE_CG_EVENTS"
		gen g256 256 8 2000 "$SCALE_CG_EVENTS"
		i2=$(calc "$(cg g2) / $(events_of g2)")
		i64=$(calc "$(cg g64) / $(events_of g64)")
		i256=$(calc "$(cg g256) / $(events_of g256)")
		row "callgrind instructions/event, audit --threads 1: 2 / 64 / 256 CPUs" \
			"$(fmt "$i2" %.0f) / $(fmt "$i64" %.0f) / $(fmt "$i256" %.0f)"
		r=$(calc "$i64 / $i2")
		target "instructions/event 64 CPUs / 2 CPUs" "$(fmt "$r" %.2fx)" "<= 1.15x" "$(ok "$r <= 1.15")"
		r=$(calc "$i256 / $i2")
		target "instructions/event 256 CPUs / 2 CPUs" "$(fmt "$r" %.2fx)" "<= 1.30x" "$(ok "$r <= 1.3")"
		say "  top self cost at 256 CPUs (full list in $SCALE_DIR/cg.g256.self.txt):"
		grep -E '^ *[0-9,]+ \(' "$SCALE_DIR/cg.g256.self.txt" | head -n 8
	else
		target "instructions/event against CPUs" "n/a (no valgrind)" "<= 1.30x" SKIP
	fi
	rm -f "$SCALE_DIR"/c*.dat "$SCALE_DIR"/g*.dat
fi

# ---- memory against live tasks and events -----------------------------------------------
if ! skipped tasks; then
	[ -x /usr/bin/time ] || die "/usr/bin/time is needed (apt-get install time)"
	say "tasks: peak RSS at 10 k and 100 k live tasks ($SCALE_EVENTS events, 64 CPUs)"
	gen t10k 64 4 10000 "$SCALE_EVENTS"
	gen t100k 64 4 100000 "$SCALE_EVENTS"
	gen t10k4x 64 4 10000 $((SCALE_EVENTS * 4))
	for n in t10k t100k t10k4x; do
		verify $n || target "tasks: $n audited right" "no" "yes" FAIL
		for i in 1 2 3; do
			/usr/bin/time -f %M -o "$SCALE_DIR/rss.tmp" "$RQPATH" audit --threads 1 \
				--format json "$SCALE_DIR/$n.dat" >/dev/null 2>&1
			tail -n 1 "$SCALE_DIR/rss.tmp" >>"$SCALE_DIR/rss-$n.t"
		done
	done
	a=$(med "$SCALE_DIR/rss-t10k.t") b=$(med "$SCALE_DIR/rss-t100k.t") c=$(med "$SCALE_DIR/rss-t10k4x.t")
	per=$(calc "($b - $a) * 1024 / 90000")
	row "peak RSS KiB, audit --threads 1: 10 k / 100 k tasks / 10 k tasks and 4x the events" "$a / $b / $c"
	target "peak RSS per live task (10 k to 100 k tasks)" "$(fmt "$per" %.0f) bytes" "<= 200 bytes" \
		"$(ok "$per <= 200")"
	r=$(calc "$c / $a")
	target "peak RSS, 4x the events / 1x (10 k tasks)" "$(fmt "$r" %.2fx) ($c / $a KiB)" "<= 1.10x" \
		"$(ok "$r <= 1.1")"
	rm -f "$SCALE_DIR"/t*.dat
fi

# ---- 100 M events end to end ------------------------------------------------------------
if ! skipped 100m; then
	avail=$(df -Pm "$SCALE_DIR" | awk 'NR == 2 { print $4 }')
	if [ "$avail" -lt "$need" ]; then
		target "$SCALE_BIG_EVENTS events end to end" "n/a (${avail} MiB free, ${need} needed)" \
			">= 1x rate" SKIP
	else
		# the 1x of the same shape: SCALE_EVENTS events, the same CPUs, LLCs and tasks,
		# audited the same way; the big file must go at least as fast per event, i.e.
		# nothing in the audit grows with the trace's length.  A round audits the 1x as
		# many times as it takes to read as many events as the big file, half of them
		# before the big file and half after: both then span the same stretch of time,
		# and a shared machine's load, which changes from one second to the next, weighs
		# on both alike (a median of a few 0.2 s runs against one 10 s run measured the
		# moments the short runs fell on: 0.87x to 1.3x on the same tree).  The ratio of
		# each round, and their median over SCALE_BIG_RUNS rounds.
		say "100m: generating $SCALE_BIG_EVENTS events (64 CPUs, $SCALE_BIG_TASKS tasks) in $SCALE_DIR, and the 1x of the same shape"
		gen ref 64 4 "$SCALE_BIG_TASKS" "$SCALE_EVENTS"
		verify ref 2 || target "100m: the 1x reference audited right" "no" "yes" FAIL
		# and a file of the same shape with next to no events: what one audit costs
		# before and after its events (exec, the file's header, output, exit), which the
		# 1x pays once a run; shown taken out of the 1x too, not in the target
		gen start 64 4 "$SCALE_BIG_TASKS" 10000
		s=$(now)
		gen big 64 4 "$SCALE_BIG_TASKS" "$SCALE_BIG_EVENTS"
		tgen=$(secs "$s" "$(now)")
		size=$(stat -c %s "$SCALE_DIR/big.dat")
		# the first audit of each: the big file's exit, counts and peak RSS; the 1x's RSS
		/usr/bin/time -f '%M' -o "$SCALE_DIR/rss.tmp" "$RQPATH" audit --format json \
			"$SCALE_DIR/big.dat" >"$SCALE_DIR/big.json" 2>"$SCALE_DIR/big.err"
		rc=$?
		rssbig=$(tail -n 1 "$SCALE_DIR/rss.tmp")
		/usr/bin/time -f '%M' -o "$SCALE_DIR/rss.tmp" "$RQPATH" audit --format json \
			"$SCALE_DIR/ref.dat" >/dev/null 2>&1
		rcref=$?
		rssref=$(tail -n 1 "$SCALE_DIR/rss.tmp")
		evref=$(events_of ref)
		evbig=$(events_of big)
		half=$(((evbig / evref + 1) / 2))
		[ "$half" -ge 1 ] || half=1
		i=0
		while [ $i -lt "$SCALE_BIG_RUNS" ]; do
			i=$((i + 1))
			say "100m: round $i of $SCALE_BIG_RUNS (the 1x $((2 * half)) times around the big file)"
			audits "$half" ref
			audits 1 big
			audits "$half" ref
			audits $((2 * half)) start
			ref_wall=$(sum "$SCALE_DIR/ref.r.t") ref_cpu=$(sum "$SCALE_DIR/ref.r.cpu.t")
			start_cpu=$(sum "$SCALE_DIR/start.r.cpu.t")
			big_wall=$(sum "$SCALE_DIR/big.r.t") big_cpu=$(sum "$SCALE_DIR/big.r.cpu.t")
			nref=$((2 * half * evref))
			echo "$big_wall" >>"$SCALE_DIR/big.t"
			echo "$big_cpu" >>"$SCALE_DIR/big.cpu.t"
			calc "$nref / $ref_wall" >>"$SCALE_DIR/ref.eps.t"
			calc "$nref / $ref_cpu" >>"$SCALE_DIR/ref.ceps.t"
			calc "($evbig / $big_wall) / ($nref / $ref_wall)" >>"$SCALE_DIR/ratio.t"
			calc "($evbig / $big_cpu) / ($nref / $ref_cpu)" >>"$SCALE_DIR/ratio.cpu.t"
			calc "($evbig / $big_cpu) / ($nref / ($ref_cpu - $start_cpu))" \
				>>"$SCALE_DIR/ratio.nostart.t"
			calc "$start_cpu / (2 * $half)" >>"$SCALE_DIR/start.cpu.t"
			rm -f "$SCALE_DIR"/*.r.t "$SCALE_DIR"/*.r.cpu.t
		done
		ref_eps=$(med "$SCALE_DIR/ref.eps.t")
		ref_ceps=$(med "$SCALE_DIR/ref.ceps.t")
		tbig=$(med "$SCALE_DIR/big.t")
		cbig=$(med "$SCALE_DIR/big.cpu.t")
		eps=$(calc "$evbig / $tbig")
		ceps=$(calc "$evbig / $cbig")
		row "$evbig events, 64 CPUs, $SCALE_BIG_TASKS tasks ($((size / 1048576)) MiB v7 in $SCALE_DIR, generated in $(fmt "$tgen" %.0f) s): audit wall s / CPU s / events/s (wall, CPU), medians of $SCALE_BIG_RUNS / peak RSS KiB" \
			"$(fmt "$tbig" %.1f) / $(fmt "$cbig" %.1f) / $(fmt "$eps" %.0f), $(fmt "$ceps" %.0f) / $rssbig"
		row "the 1x of the same shape, $evref events, audited $((2 * half)) times a round around the big file: events/s (wall, CPU; medians of the rounds) / peak RSS KiB" \
			"$(fmt "$ref_eps" %.0f), $(fmt "$ref_ceps" %.0f) / $rssref"
		row "one audit's start and end, CPU ms (a $(events_of start)-event file of the same shape, median of the rounds' means); big / 1x per CPU second with that taken out of each 1x run, median of the rounds" \
			"$(fmt "$(calc "$(med "$SCALE_DIR/start.cpu.t") * 1000")" %.1f); $(fmt "$(med "$SCALE_DIR/ratio.nostart.t")" %.2f)x"
		row "rounds' ratios, big / 1x events per CPU second (events per wall second)" \
			"$(paste -d' ' "$SCALE_DIR/ratio.cpu.t" "$SCALE_DIR/ratio.t" | awk '{ printf "%s%.2f (%.2f)", (NR > 1 ? ", " : ""), $1, $2 }')"
		if [ -n "$SCALE_REF_EPS" ]; then
			row "$evbig events against the 1x hackbench recording of make bench (2 CPUs, another mix): events/s" \
				"$(fmt "$eps" %.0f) vs $(fmt "$SCALE_REF_EPS" %.0f) ($(fmt "$(calc "$eps / $SCALE_REF_EPS")" %.2f)x)"
		fi
		if [ $rc -gt 1 ]; then
			target "$evbig events end to end" "exit $rc: $(head -n 1 "$SCALE_DIR/big.err")" "exit 0/1" FAIL
		elif [ -s "$SCALE_DIR/failed.t" ]; then
			target "$evbig events end to end" "$(wc -l <"$SCALE_DIR/failed.t") timed audits exited past 1 ($(sort -u "$SCALE_DIR/failed.t" | tr '\n' ' '))" \
				"exit 0/1" FAIL
		elif ! python3 "$CHECK" "$SCALE_DIR/big.dat.expect.json" "$SCALE_DIR/big.json" \
			>"$SCALE_DIR/big.check"; then
			target "$evbig events end to end" "counts differ: $(head -n 1 "$SCALE_DIR/big.check")" \
				"the generator's" FAIL
		else
			# on CPU time, as the cpus part: on a shared machine the wall time also counts
			# the time the audit's threads waited for a CPU
			r=$(med "$SCALE_DIR/ratio.cpu.t")
			target "$evbig events end to end, events per CPU second against the 1x of the same shape (median of the rounds)" \
				"$(fmt "$r" %.2fx) ($(fmt "$ceps" %.0f) vs $(fmt "$ref_ceps" %.0f)); wall $(fmt "$(med "$SCALE_DIR/ratio.t")" %.2f)x" \
				">= 1.00x" "$(ok "$r >= 1")"
		fi
		# the peak RSS of an audit that failed measures nothing
		if [ $rc -gt 1 ] || [ $rcref -gt 1 ]; then
			target "peak RSS, $evbig events / the 1x of the same shape ($evref)" \
				"n/a: an audit exited $rc (big), $rcref (1x)" "<= 1.10x" FAIL
		else
			r=$(calc "$rssbig / $rssref")
			target "peak RSS, $evbig events / the 1x of the same shape ($evref)" \
				"$(fmt "$r" %.2fx) ($rssbig / $rssref KiB)" "<= 1.10x" "$(ok "$r <= 1.1")"
		fi
		rm -f "$SCALE_DIR/big.dat" "$SCALE_DIR/big.json" "$SCALE_DIR/ref.dat" \
			"$SCALE_DIR/start.dat"
	fi
fi

{
	echo "Scale (tests/bench/scale.sh, traces from tests/helpers/gen_trace.c), $(nproc) CPUs, $(date -u +%Y-%m-%d):"
	echo
	echo "| Scale | value |"
	echo "|---|---:|"
	printf '%s' "$rows"
	echo
	echo "| Target | measured | target | result |"
	echo "|---|---|---|---|"
	printf '%s' "$results" | awk -F'|' 'NF >= 4 { printf "| %s | %s | %s | %s |\n", $1, $2, $3, $4 }'
} >"$OUT/scale.md"
echo
cat "$OUT/scale.md"
exit $verdict
