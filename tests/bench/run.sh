#!/bin/sh
# Benchmarks for `make bench`.  Needs root and a 2+ CPU machine.
#
#   replay   a >= 1M-event trace of a heavy workload recorded by `rqpath record` as
#            trace.dat v6, the same converted to v7 zstd by `trace-cmd convert`, and a
#            4x longer recording (v6 and v7 zstd): in BENCH_RUNS alternating rounds,
#            `rqpath audit` (default threads and --threads 1), libtracecmd's own
#            iterator reading one field per event (tests/helpers/bench_floor.c
#            --iterate) and rqpath's reader alone reading the same field (bench_floor
#            --own: headers, page walk, zstd, no decoder, no engine); ratios from the
#            same rounds; trace-cmd report and perf sched timehist for scale
#   memory   peak RSS of the audit on the 1x and the 4x files
#   live     the workload bare, under rqpath record (default buffer) and under
#            perf sched record, BENCH_LIVE_RUNS rounds in an order that rotates: each
#            round's slowdowns against its own bare run, their medians, rqpath's lost events
#   tui      rqpath replay under tmux: time from tmux send-keys to a changed screen; the
#            scripted keys in-process; live mode's key to screen on a pty
#            (tests/tools/keylat.py), idle and while 4 hackbench tasks run
#   profile  callgrind instructions per event, rqpath audit vs rqpath's reader alone
#   outputs  tests/bench/outputs.sh: each writer's bytes and its time against the text
#            report's on 1.2 M- and 5 M-event traces; Perfetto <= 30 MB, HTML <= 2 MB
#   lists    tests/bench/lists.sh: the TUI's sort and search keys (ms each) on a list of
#            5 M placements of a generated trace, scripted (views/script.c)
#   scale    tests/bench/scale.sh on generated traces (tests/helpers/gen_trace.c): the
#            per-event cost at 2, 64 and 256 CPUs, peak RSS at 10 k and 100 k live
#            tasks, a 100 M-event file end to end against the 1x of the same shape (the
#            1x hackbench audit's events/s, SCALE_REF_EPS, shown beside it)
#
# Prints PASS/FAIL per target and a markdown table, also written to
# $RQPATH_BUILD/bench/results.md.  Exit 0 when every target passes or is skipped, 1 when
# one fails, 2 when the bench itself cannot run.
#
# Environment: RQPATH (binary), RQPATH_BUILD (build dir), BENCH_LOOPS (hackbench -l for
# the 1x trace, default 10000 ~ 1.2M sched events), BENCH_RUNS (5), BENCH_LIVE_RUNS (7),
# BENCH_SKIP="live tui profile rss 4x scale outputs lists" (any of them; and scale.sh's own parts:
# cpus tasks 100m), BENCH_KEEP=1 keeps the large files.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
: "${RQPATH_BUILD:=$top/build}"
: "${RQPATH:=$top/rqpath}"
: "${BENCH_LOOPS:=10000}"
: "${BENCH_RUNS:=5}"
: "${BENCH_LIVE_RUNS:=7}"
: "${BENCH_SKIP:=}"
: "${BENCH_KEEP:=0}"
: "${BENCH_BUFFER_KB:=131072}"
OUT=$RQPATH_BUILD/bench
FLOOR=$RQPATH_BUILD/tests/bench_floor
TRACEFS=/sys/kernel/tracing
TMUX_SOCK=rqbench-$$

say() { echo "bench: $*"; }
die() { echo "bench: $*" >&2; exit 2; }
skipped() { case " $BENCH_SKIP " in *" $1 "*) return 0 ;; esac; return 1; }

[ "$(id -u)" -eq 0 ] || die "needs root (live recording through tracefs, apt-get)"
[ -x "$RQPATH" ] || die "no rqpath binary at $RQPATH (make, or set RQPATH)"
[ -x "$FLOOR" ] || die "no floor program at $FLOOR (make $FLOOR)"
mkdir -p "$OUT" || die "cannot create $OUT"
cd "$OUT" || die "cannot enter $OUT"
rm -f "$OUT"/*.t "$OUT"/*.log

# ---- dependencies ------------------------------------------------------------------
need=""
command -v hackbench >/dev/null || need="$need rt-tests"
command -v perf >/dev/null || need="$need linux-perf"
command -v trace-cmd >/dev/null || need="$need trace-cmd"
[ -x /usr/bin/time ] || need="$need time"
command -v tmux >/dev/null || need="$need tmux"
command -v valgrind >/dev/null || need="$need valgrind"
if [ -n "$need" ]; then
	say "installing$need"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $need >"$OUT/apt.log" 2>&1 ||
		{ apt-get update -qq >/dev/null 2>&1 &&
		  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $need >"$OUT/apt.log" 2>&1; } ||
		say "apt-get install$need failed (see $OUT/apt.log); what needs them is skipped"
fi
command -v hackbench >/dev/null || die "hackbench (rt-tests) is not available"
[ -d $TRACEFS/instances ] || mount -t tracefs nodev $TRACEFS 2>/dev/null
[ -d $TRACEFS/instances ] || die "tracefs is not available at $TRACEFS"
ls $TRACEFS/instances >"$OUT/instances.before" 2>/dev/null

cleanup() {
	tmux -L "$TMUX_SOCK" kill-server 2>/dev/null
	rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$TMUX_SOCK"
	if [ "$BENCH_KEEP" != 1 ]; then
		rm -f "$OUT/trace4x.dat" "$OUT/trace4x-zstd.dat" "$OUT/perf.data" "$OUT/perf.data.old" "$OUT/live.dat" \
			"$OUT/perf-check.data"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

WORKLOAD="hackbench -p -g 4 -l"	# + loops: 4 groups x 40 tasks passing messages on pipes

# ---- helpers ---------------------------------------------------------------------------
now() { date +%s%N; }
secs() { awk -v s="$1" -v e="$2" 'BEGIN { printf "%.6f\n", (e - s) / 1e9 }'; }
# median min max of the numbers in a file, one a line
stats() {
	sort -g "$1" | awk '{ a[NR] = $1 }
		END { if (!NR) { print "nan nan nan"; exit }
		      m = NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2
		      print m, a[1], a[NR] }'
}
med() { stats "$1" | cut -d' ' -f1; }
calc() { awk "BEGIN { v = $1; printf \"%s\n\", v }"; }
fmt() { awk -v v="$1" -v f="$2" 'BEGIN { if (v == "" || v == "nan") print "n/a"; else printf f "\n", v }'; }
# timed FILE CMD...: run CMD (output discarded), append its wall seconds to FILE
timed() {
	tf=$1; shift
	s=$(now); "$@" >/dev/null 2>&1; rc=$?; e=$(now)
	secs "$s" "$e" >>"$tf"
	[ $rc -le 1 ] || say "warning: exit $rc from $*"
	return $rc
}
# sched events in a trace.dat, from the floor program
floor_count() { "$FLOOR" "$1" | awk '{ print $4 }'; }
perf_samples() {
	perf report -i "$1" --stats 2>/dev/null | awk '/SAMPLE events:/ { print $3; exit }'
}

results=""	# "name|value|target|PASS/FAIL/SKIP" lines
verdict=0
target() {	# target NAME VALUE TEXT RESULT
	results="$results$1|$2|$3|$4
"
	[ "$4" = FAIL ] && verdict=1
	printf '%-4s  %s: %s (target %s)\n' "$4" "$1" "$2" "$3"
}
ok() { awk "BEGIN { exit !($1) }" && echo PASS || echo FAIL; }

# ---- perf availability ------------------------------------------------------------
perf_ok=1 perf_why=""
if ! command -v perf >/dev/null; then
	perf_ok=0 perf_why="perf is not installed (apt-get install linux-perf failed)"
elif ! perf sched record -o "$OUT/perf-check.data" -- true >"$OUT/perf-check.log" 2>&1; then
	perf_ok=0 perf_why="perf sched record fails here: $(grep -v '^$' "$OUT/perf-check.log" | head -n 1)"
elif ! perf sched timehist -i "$OUT/perf-check.data" >/dev/null 2>&1; then
	perf_ok=0 perf_why="perf sched timehist fails on its own recording here"
fi
[ $perf_ok = 1 ] || say "perf comparisons SKIP: $perf_why"
tc_ok=1
command -v trace-cmd >/dev/null || tc_ok=0

t_start=$(now)

# ---- live: bare vs rqpath record (default buffer) vs perf sched record ----------------
# workload time = hackbench's own "Time:" (the wall time of its message passing);
# command time = wall time of the whole command (recorder start-up and flush included)
hb_time() { awk '/^Time:/ { print $2 }' "$1" | tail -n 1; }
live_bare() {
	s=$(now); $WORKLOAD "$BENCH_LOOPS" >"$OUT/bare.log" 2>&1; e=$(now)
	secs "$s" "$e" >>"$OUT/live-bare-cmd.t"; hb_time "$OUT/bare.log" >>"$OUT/live-bare.t"
}
live_rqpath() {
	s=$(now)
	"$RQPATH" record -o "$OUT/live.dat" --force -- $WORKLOAD "$BENCH_LOOPS" >"$OUT/rqrec.log" 2>&1
	e=$(now)
	secs "$s" "$e" >>"$OUT/live-rqpath-cmd.t"; hb_time "$OUT/rqrec.log" >>"$OUT/live-rqpath.t"
	sed -n 's/.*recorded \([0-9]*\) events, \([0-9]*\) lost events.*/\1 \2/p' \
		"$OUT/rqrec.log" >>"$OUT/live-rqpath-lost.t"
	grep -q 'recorded .* lost events' "$OUT/rqrec.log" ||
		{ say "rqpath record failed:"; tail -n 5 "$OUT/rqrec.log" >&2; }
}
live_perf() {
	[ $perf_ok = 1 ] || return 0
	s=$(now)
	perf sched record -o "$OUT/perf.data" -- $WORKLOAD "$BENCH_LOOPS" >"$OUT/perfrec.log" 2>&1
	e=$(now)
	secs "$s" "$e" >>"$OUT/live-perf-cmd.t"; hb_time "$OUT/perfrec.log" >>"$OUT/live-perf.t"
}
if ! skipped live; then
	# one round = bare, rqpath record, perf sched record, in an order that rotates from
	# round to round (no tool always runs right after another); the slowdowns are taken
	# per round (against that round's bare run) and their medians compared
	say "live: $BENCH_LIVE_RUNS rounds of bare / rqpath record / perf sched record (order rotating) of $WORKLOAD $BENCH_LOOPS"
	i=0
	while [ $i -lt "$BENCH_LIVE_RUNS" ]; do
		case $((i % 3)) in
		0) order="bare rqpath perf" ;;
		1) order="rqpath perf bare" ;;
		*) order="perf bare rqpath" ;;
		esac
		i=$((i + 1))
		for w in $order; do live_$w; done
		b=$(tail -n 1 "$OUT/live-bare.t") r=$(tail -n 1 "$OUT/live-rqpath.t")
		calc "$r / $b" >>"$OUT/live-ratio-rqpath.t"
		if [ $perf_ok = 1 ]; then
			p=$(tail -n 1 "$OUT/live-perf.t")
			calc "$p / $b" >>"$OUT/live-ratio-perf.t"
		fi
		say "  round $i ($order): bare ${b}s rqpath ${r}s ($(fmt "$(calc "$r / $b")" %.3f)x," \
		    "$(tail -n 1 "$OUT/live-rqpath-lost.t" | awk '{ print $2 }') lost)" \
		    "perf $( [ $perf_ok = 1 ] && echo "${p}s ($(fmt "$(calc "$p / $b")" %.3f)x)" || echo SKIP)"
	done
	rm -f "$OUT/live.dat"
fi

# ---- the traces ------------------------------------------------------------------------
record_trace() {	# record_trace FILE LOOPS
	"$RQPATH" record -o "$1" --force --file-version 6 --buffer-kb "$BENCH_BUFFER_KB" \
		-- $WORKLOAD "$2" >"$1.log" 2>&1 || { tail -n 5 "$1.log" >&2; die "rqpath record $1 failed"; }
	sed -n 's/.*recorded \([0-9]*\) events, \([0-9]*\) lost events.*/\2/p' "$1.log"
}
to_zstd() {	# to_zstd IN OUT
	trace-cmd convert -i "$1" --file-version 7 --compression zstd -o "$2" >"$2.log" 2>&1 ||
		{ tail -n 3 "$2.log" >&2; die "trace-cmd convert $1 to v7 zstd failed"; }
	# the conversion must be what it says: version 7, zstd
	[ "$(head -c 11 "$2" | tail -c 1)" = 7 ] && head -c 64 "$2" | grep -aq zstd ||
		die "trace-cmd convert did not write a v7 zstd file"
}
[ $tc_ok = 1 ] || die "trace-cmd is needed to convert the trace to v7 zstd"
H1=$OUT/trace.dat
H1Z=$OUT/trace-zstd.dat
say "recording the 1x trace ($WORKLOAD $BENCH_LOOPS, --buffer-kb $BENCH_BUFFER_KB, v6)"
lost1=$(record_trace "$H1" "$BENCH_LOOPS")
to_zstd "$H1" "$H1Z"
ev1=$(floor_count "$H1")
size1=$(stat -c %s "$H1")
say "  $ev1 sched events, $lost1 lost, $size1 bytes; v7 zstd $(stat -c %s "$H1Z") bytes"
[ "$ev1" -ge 1000000 ] 2>/dev/null || say "  warning: fewer than 1M sched events; raise BENCH_LOOPS"
FILES="$H1 $H1Z"
ev4=""
if ! skipped 4x; then
	H4=$OUT/trace4x.dat
	H4Z=$OUT/trace4x-zstd.dat
	say "recording the 4x trace ($WORKLOAD $((BENCH_LOOPS * 4)))"
	lost4=$(record_trace "$H4" $((BENCH_LOOPS * 4)))
	to_zstd "$H4" "$H4Z"
	ev4=$(floor_count "$H4")
	say "  $ev4 sched events, $lost4 lost, $(stat -c %s "$H4") bytes; v7 zstd $(stat -c %s "$H4Z") bytes"
	FILES="$FILES $H4 $H4Z"
fi
# every reader must agree before anything is timed
for f in $FILES; do
	a=$("$FLOOR" --iterate "$f") b=$("$FLOOR" --own "$f")
	[ "$(echo "$a" | cut -d' ' -f1-2)" = "$(echo "$b" | cut -d' ' -f1-2)" ] ||
		die "$(basename "$f"): libtracecmd reads '$a', rqpath's reader '$b'"
	"$RQPATH" audit --format json "$f" >"$OUT/audit.json" 2>"$OUT/audit.err"
	arc=$?
	[ $arc -le 1 ] || { cat "$OUT/audit.err" >&2; die "rqpath audit $f failed ($arc)"; }
	"$RQPATH" audit --threads 1 --format json "$f" >"$OUT/audit1.json" 2>"$OUT/audit.err"
	arc=$?
	[ $arc -le 1 ] || { cat "$OUT/audit.err" >&2; die "rqpath audit --threads 1 $f failed ($arc)"; }
	cmp -s "$OUT/audit1.json" "$OUT/audit.json" ||
		die "$(basename "$f"): audit --threads 1 differs from the default"
done

# perf's own recording of the same workload (the last live run's, or a fresh one)
perf_ev="" perf_lost=""
if [ $perf_ok = 1 ]; then
	if [ ! -s "$OUT/perf.data" ]; then
		perf sched record -o "$OUT/perf.data" -- $WORKLOAD "$BENCH_LOOPS" >"$OUT/perfrec.log" 2>&1
	fi
	perf_ev=$(perf_samples "$OUT/perf.data")
	perf_lost=$(perf report -i "$OUT/perf.data" --stats 2>/dev/null |
		awk '/ stats:$/ { per = 1 } per && /LOST_SAMPLES events:/ { n += $3 } END { print n + 0 }')
	say "  perf.data: $perf_ev sched samples, $perf_lost lost"
fi

# ---- replay throughput, alternating ----------------------------------------------------
# tag of a file: 1x-v6 1x-zstd 4x-v6 4x-zstd
tag() { case $1 in *4x-zstd.dat) echo 4x-zstd ;; *4x.dat) echo 4x-v6 ;; *zstd.dat) echo 1x-zstd ;; *) echo 1x-v6 ;; esac; }
say "replay: $BENCH_RUNS alternating rounds of audit / audit --threads 1 / libtracecmd iterator / own reader on $(for f in $FILES; do printf '%s ' "$(tag "$f")"; done)"
i=0
while [ $i -lt "$BENCH_RUNS" ]; do
	i=$((i + 1))
	for trc in $FILES; do	# not $f: timed() uses it
		t=$(tag "$trc")
		timed "$OUT/audit-$t.t" "$RQPATH" audit --format json "$trc"
		timed "$OUT/audit1-$t.t" "$RQPATH" audit --threads 1 --format json "$trc"
		timed "$OUT/iter-$t.t" "$FLOOR" --iterate "$trc"
		timed "$OUT/own-$t.t" "$FLOOR" --own "$trc"
	done
	[ $tc_ok = 1 ] && timed "$OUT/tcreport.t" trace-cmd report "$H1"
	[ $perf_ok = 1 ] && timed "$OUT/timehist.t" perf sched timehist -i "$OUT/perf.data"
done
eps() { awk -v n="$1" -v t="$2" 'BEGIN { if (t > 0 && n > 0) printf "%.0f\n", n / t; else print "" }'; }
t_audit=$(med "$OUT/audit-1x-v6.t")
eps_audit=$(eps "$ev1" "$t_audit")
eps_tc="" eps_perf=""
[ $tc_ok = 1 ] && t_tc=$(med "$OUT/tcreport.t") && eps_tc=$(eps "$ev1" "$t_tc")
[ $perf_ok = 1 ] && t_perf=$(med "$OUT/timehist.t") && eps_perf=$(eps "$perf_ev" "$t_perf")

# ---- memory ----------------------------------------------------------------------------
if ! skipped rss; then
	for i in 1 2 3; do
		for f in $FILES; do
			t=$(tag "$f")
			/usr/bin/time -f %M -o "$OUT/rss.tmp" "$RQPATH" audit --format json "$f" >/dev/null 2>&1
			tail -n 1 "$OUT/rss.tmp" >>"$OUT/rss-$t.t"
		done
	done
fi

# ---- TUI responsiveness ----------------------------------------------------------------
tui_why=""
T() { tmux -L "$TMUX_SOCK" "$@"; }
screen() { T capture-pane -p -e -t rqb 2>/dev/null | cksum; }
# wait until the screen stays the same for 0.3 s (at most $1 s)
settle() {
	lim=$(($(now) + $1 * 1000000000)); a=$(screen)
	while [ "$(now)" -lt $lim ]; do
		sleep 0.3; b=$(screen)
		[ "$a" = "$b" ] && return 0
		a=$b
	done
	return 1
}
if skipped tui; then
	tui_why="skipped by BENCH_SKIP"
elif ! command -v tmux >/dev/null; then
	tui_why="tmux is not installed"
elif ! "$RQPATH" replay --help >/dev/null 2>&1; then
	tui_why="rqpath replay is not available in this build"
else
	say "tui: rqpath replay under tmux, keys timed from send-keys to a changed screen"
	T new-session -d -s rqb -x 160 -y 50 "$RQPATH replay $H1; sleep 30" 2>/dev/null ||
		tui_why="tmux new-session failed"
	if [ -z "$tui_why" ]; then
		s=$(now)
		settle 120 || tui_why="the screen never settled after loading"
		say "  loaded and settled in $(secs "$s" "$(now)")s"
	fi
	if [ -z "$tui_why" ]; then
		# every key changes the screen: views, cursor moves (at the end of the trace the
		# placements cursor is on the last row), restart (R asks, y re-opens the trace)
		# and to the end (E replays all of it)
		for k in 2 k k j 3 j 4 5 1 Tab R y E; do
			settle 60
			before=$(screen)
			s=$(now)
			T send-keys -t rqb "$k"
			lim=$((s + 5000000000)) changed=0
			while [ "$(now)" -lt $lim ]; do
				[ "$(screen)" != "$before" ] && { changed=1; break; }
			done
			e=$(now)
			if [ $changed = 1 ]; then
				ms=$(awk -v s="$s" -v e="$e" 'BEGIN { printf "%.1f", (e - s) / 1e6 }')
			else
				ms=5000	# no change within 5 s
			fi
			echo "$ms" >>"$OUT/tui.t"
			echo "$k $ms" >>"$OUT/tui-keys.log"
		done
		say "  key ms: $(tr '\n' ' ' <"$OUT/tui-keys.log")"
		T send-keys -t rqb q 2>/dev/null
		sleep 0.3
	fi
	T kill-server 2>/dev/null
fi

# ---- TUI keys in-process (timeline, drill-down, R y, E) and live keys on a pty --------------
# RQPATH_TUI_SCRIPT runs the keys without a terminal; RQPATH_TUI_STEP_MS puts each step's
# time, from its first key to the screen at rest, in the dump.  tests/tools/keylat.py
# times live mode's answer to a key on a pseudo-terminal.
tuis_why="" live_keys_why=""
if skipped tui; then
	tuis_why="skipped by BENCH_SKIP" live_keys_why=$tuis_why
else
	say "tui: keys in-process on the 1x trace (timeline, drill-down, evidence steps, R y/E, sort)"
	# the drill-down finds its finding by search: a needless-callback example (the
	# recorder's own pinned exec) may come first
	printf '%s\n' ':dump' 6 n N z Z ']' '<End>' '<Enter>' '<Esc>4/offcpu-fork<Enter><Enter>' \
		'<Home><Enter>' ']' ']' '[' '<Esc><End><Enter>' '[' '[' '[' '<Esc>Ry' E \
		'2' '<F6>comm<Enter>' '<F6>findings<Enter>' '<lt>' >"$OUT/keys.script"
	RQPATH_TUI_STEP_MS=1 RQPATH_TUI_SCRIPT="$OUT/keys.script" RQPATH_TUI_DUMP="$OUT/keys.dump" \
		"$RQPATH" replay "$H1" >/dev/null 2>&1 || tuis_why="the scripted TUI failed"
	sed -n 's/^=== [0-9]*: \(.*\) \[\([0-9.]*\) ms\]$/\1 \2/p' "$OUT/keys.dump" |
		tail -n +2 >"$OUT/tui-script-keys.log"
	awk '{ print $NF }' "$OUT/tui-script-keys.log" | grep -v '^$' >"$OUT/tui-script.t"
	say "  key ms: $(awk '{ printf "%s%s", sep, $0; sep = ", " }' "$OUT/tui-script-keys.log")"
	# drill-down: Enter on offcpu-fork lists every one of the trace (counted by
	# trace-cmd report: a sched_wakeup_new naming another CPU than its buffer's)
	drill=$(sed -n '/^=== 10: /,/^=== 11: /p' "$OUT/keys.dump" |
		sed -n 's/^ \([0-9]*\) placements\{0,1\} matching with=offcpu-fork.*/\1/p' | head -n 1)
	if [ $tc_ok = 1 ]; then
		n_off=$(trace-cmd report "$H1" 2>/dev/null | awk '{
			for (i = 3; i <= NF; i++) if ($i == "sched_wakeup_new:") {
				buf = substr($(i - 2), 2, 3) + 0; split($NF, a, ":")
				if (a[2] + 0 != buf) n++
				break } }
			END { print n + 0 }')
	else
		n_off=""
	fi
	say "  drill-down: offcpu-fork lists ${drill:-?} placements; trace-cmd report counts ${n_off:-?}"
	if python3 "$top/tests/tools/keylat.py" 10 "$RQPATH" live >"$OUT/live-keys.log" 2>&1; then
		grep -v '^median' "$OUT/live-keys.log" | awk '{ print $2 }' >"$OUT/live-keys.t"
		say "  live: $(tail -n 1 "$OUT/live-keys.log") ms"
	else
		live_keys_why="keylat failed: $(tail -n 1 "$OUT/live-keys.log")"
	fi
	# and while a workload keeps the recorder busy (4 hackbench tasks, the CPUs not
	# saturated: a saturated machine measures the scheduler's latency, not rqpath's)
	live_load_why=""
	hackbench -p -g 1 -f 2 -l 100000000 >/dev/null 2>&1 &
	hb=$!
	sleep 0.5
	if python3 "$top/tests/tools/keylat.py" 10 "$RQPATH" live >"$OUT/live-load-keys.log" 2>&1; then
		grep -v '^median' "$OUT/live-load-keys.log" | awk '{ print $2 }' >"$OUT/live-load-keys.t"
		say "  live under hackbench: $(tail -n 1 "$OUT/live-load-keys.log") ms"
	else
		live_load_why="keylat failed: $(tail -n 1 "$OUT/live-load-keys.log")"
	fi
	kill "$hb" 2>/dev/null
	wait "$hb" 2>/dev/null
fi

# ---- callgrind: instructions per event -------------------------------------------------
cg_audit="" cg_floor="" ev_med=""
if ! skipped profile && command -v valgrind >/dev/null; then
	HM=$OUT/medium.dat
	say "profile: callgrind on a medium trace ($WORKLOAD $((BENCH_LOOPS / 12)))"
	record_trace "$HM" $((BENCH_LOOPS / 12)) >/dev/null
	ev_med=$(floor_count "$HM")
	valgrind --tool=callgrind --callgrind-out-file="$OUT/callgrind.audit.out" \
		"$RQPATH" audit --threads 1 --format json "$HM" >/dev/null 2>"$OUT/callgrind.audit.log"
	valgrind --tool=callgrind --callgrind-out-file="$OUT/callgrind.floor.out" \
		"$FLOOR" --own "$HM" >/dev/null 2>"$OUT/callgrind.floor.log"
	ir() { awk '/^(summary|totals):/ { print $2; exit }' "$1"; }
	cg_audit=$(ir "$OUT/callgrind.audit.out")
	cg_floor=$(ir "$OUT/callgrind.floor.out")
	# the one-off rq_td_open (headers, formats) apart from the per-event cost
	open_ir() { awk '/:rq_td_open \[/ { gsub(",", "", $1); print $1; exit }' "$1"; }
	callgrind_annotate --inclusive=yes "$OUT/callgrind.audit.out" >"$OUT/callgrind.audit.incl.txt" 2>/dev/null
	callgrind_annotate "$OUT/callgrind.audit.out" >"$OUT/callgrind.audit.self.txt" 2>/dev/null
	callgrind_annotate --inclusive=yes "$OUT/callgrind.floor.out" >"$OUT/callgrind.floor.incl.txt" 2>/dev/null
	cg_audit_open=$(open_ir "$OUT/callgrind.audit.incl.txt")
	cg_floor_open=$(open_ir "$OUT/callgrind.floor.incl.txt")
	say "  top self cost (rqpath audit), full list in $OUT/callgrind.audit.self.txt:"
	grep -E '^ *[0-9,]+ \(' "$OUT/callgrind.audit.self.txt" | head -n 16
fi

# ---- scale: 2 to 256 CPUs, 10 k to 100 k tasks, 100 M events (generated traces) ---------
rm -f "$OUT/scale.md"
if ! skipped scale; then
	say "scale: tests/bench/scale.sh (reference: the 1x v6 audit's $(fmt "$eps_audit" %.0f) events/s)"
	SCALE_REF_EPS=$eps_audit RQPATH=$RQPATH RQPATH_BUILD=$RQPATH_BUILD BENCH_RUNS=$BENCH_RUNS \
		BENCH_SKIP="$BENCH_SKIP" BENCH_KEEP=$BENCH_KEEP sh "$top/tests/bench/scale.sh"
	case $? in
	0) ;;
	1) verdict=1 ;;
	*) say "scale.sh could not run"; verdict=1 ;;
	esac
fi

# ---- outputs: writer sizes and costs (tests/bench/outputs.sh) ------------------------
rm -f "$OUT/outputs.md"
if ! skipped outputs; then
	say "outputs: tests/bench/outputs.sh"
	RQPATH=$RQPATH RQPATH_BUILD=$RQPATH_BUILD BENCH_RUNS=$BENCH_RUNS BENCH_KEEP=$BENCH_KEEP \
		sh "$top/tests/bench/outputs.sh"
	case $? in
	0) ;;
	1) verdict=1 ;;
	*) say "outputs.sh could not run"; verdict=1 ;;
	esac
fi

# ---- lists: the TUI's sort and search keys on 5 M placements (a generated trace) ------------
rm -f "$OUT/lists.md"
if ! skipped lists; then
	say "lists: tests/bench/lists.sh"
	RQPATH=$RQPATH RQPATH_BUILD=$RQPATH_BUILD BENCH_KEEP=$BENCH_KEEP sh "$top/tests/bench/lists.sh"
	case $? in
	0) ;;
	1) verdict=1 ;;
	*) say "lists.sh could not run"; verdict=1 ;;
	esac
fi

# ---- cleanup checks --------------------------------------------------------------------
ls $TRACEFS/instances >"$OUT/instances.after" 2>/dev/null
left=$(comm -13 "$OUT/instances.before" "$OUT/instances.after" | grep '^rqpath-[0-9]*$' |
	while read -r n; do kill -0 "${n#rqpath-}" 2>/dev/null || echo "$n"; done)
stray=$(pgrep -x hackbench | tr '\n' ' ')
t_total=$(secs "$t_start" "$(now)")

# ---- targets ---------------------------------------------------------------------------
echo
echo "== rqpath bench, $(uname -r), $(nproc) CPUs, $(date -u +%Y-%m-%dT%H:%MZ), ${t_total}s =="
ratio() { calc "$(med "$OUT/$1-$3.t") / $(med "$OUT/$2-$3.t")"; }
for f in $FILES; do
	t=$(tag "$f")
	case $t in *zstd) goal=0.50 ;; *) goal=0.60 ;; esac
	r=$(ratio audit iter "$t")
	target "$t: audit time / libtracecmd iterator" "$(fmt "$r" %.2f)x" "<= ${goal}x" "$(ok "$r <= $goal")"
	r=$(ratio audit own "$t")
	target "$t: audit time / own reader alone" "$(fmt "$r" %.2f)x" "<= 3.00x" "$(ok "$r <= 3")"
done
r=$(ratio audit iter 1x-zstd)
target "1x-zstd: audit (two threads) / libtracecmd iterator, goal" "$(fmt "$r" %.2f)x" "<= 0.35x" "$(ok "$r <= 0.35")"
if [ -z "$tuis_why" ] && [ -s "$OUT/tui-script.t" ]; then
	set -- $(stats "$OUT/tui-script.t")
	target "TUI keys in-process: timeline, drill-down, R y (median / max of $(wc -l <"$OUT/tui-script.t"); E replays the trace)" \
		"$(fmt "$1" %.1f) / $(fmt "$3" %.1f) ms" "<= 20 ms median" "$(ok "$1 <= 20")"
	# the evidence steps ([ ] in a detail): steps 12-14 and 16-18 of the script (the
	# first [ from the last offcpu fork reads the 32 before it in one pass)
	awk 'NR >= 11 && NR <= 13 || NR >= 15 && NR <= 17 { print $NF }' \
		"$OUT/tui-script-keys.log" >"$OUT/tui-ev.t"
	set -- $(stats "$OUT/tui-ev.t")
	target "TUI evidence steps [ ] in a detail (median / max of $(wc -l <"$OUT/tui-ev.t"))" \
		"$(fmt "$1" %.1f) / $(fmt "$3" %.1f) ms" "<= 20 ms median" "$(ok "$1 <= 20")"
	if [ -n "$n_off" ] && [ -n "$drill" ]; then
		target "TUI drill-down: offcpu-fork placements listed / in the trace" "$drill / $n_off" \
			"all" "$(ok "$drill == $n_off")"
	else
		target "TUI drill-down: offcpu-fork placements listed" "${drill:-n/a}" "all" SKIP
	fi
else
	target "TUI keys in-process" "n/a ($tuis_why)" "<= 20 ms median" SKIP
fi
if [ -z "$live_keys_why" ] && [ -s "$OUT/live-keys.t" ]; then
	set -- $(stats "$OUT/live-keys.t")
	target "live TUI key to screen (median / max of $(wc -l <"$OUT/live-keys.t") keys, pty)" \
		"$(fmt "$1" %.1f) / $(fmt "$3" %.1f) ms" "<= 20 ms median" "$(ok "$1 <= 20")"
else
	target "live TUI key to screen" "n/a ($live_keys_why)" "<= 20 ms median" SKIP
fi
if [ -z "${live_load_why-x}" ] && [ -s "$OUT/live-load-keys.t" ]; then
	set -- $(stats "$OUT/live-load-keys.t")
	target "live TUI key to screen while hackbench -g 1 -f 2 runs (median / max of $(wc -l <"$OUT/live-load-keys.t") keys, pty)" \
		"$(fmt "$1" %.1f) / $(fmt "$3" %.1f) ms" "<= 20 ms median" "$(ok "$1 <= 20")"
else
	target "live TUI key to screen under load" "n/a (${live_load_why:-$live_keys_why})" \
		"<= 20 ms median" SKIP
fi
if [ $perf_ok = 1 ]; then
	r_perf=$(calc "$eps_audit / $eps_perf")
	target "audit vs perf sched timehist events/s" "$(fmt "$r_perf" %.2f)x" ">= 1.50x" \
		"$(ok "$r_perf >= 1.5")"
else
	target "audit vs perf sched timehist events/s" "n/a" ">= 1.50x" SKIP
fi
if ! skipped rss && ! skipped 4x; then
	for k in v6 zstd; do
		a=$(med "$OUT/rss-1x-$k.t") b=$(med "$OUT/rss-4x-$k.t")
		r=$(calc "$b / $a")
		target "$k: peak RSS 4x trace / 1x trace" "$(fmt "$r" %.2f)x ($b / $a KiB)" "<= 1.30x" \
			"$(ok "$r <= 1.3")"
	done
else
	target "peak RSS 4x trace / 1x trace" "n/a" "<= 1.30x" SKIP
fi
if ! skipped live; then
	maxlost=$(awk '{ if ($2 > m) m = $2 } END { print m + 0 }' "$OUT/live-rqpath-lost.t")
	lostlist=$(awk '{ printf "%s%s", sep, $2; sep = ", " }' "$OUT/live-rqpath-lost.t")
	target "live: rqpath record lost events, default buffer" "$lostlist" "0" "$(ok "$maxlost == 0")"
	sd_rq=$(med "$OUT/live-ratio-rqpath.t")
	if [ $perf_ok = 1 ]; then
		sd_perf=$(med "$OUT/live-ratio-perf.t")
		target "live: workload slowdown rqpath record vs perf sched record (median of $BENCH_LIVE_RUNS rotating rounds)" \
			"$(fmt "$sd_rq" %.3f)x vs $(fmt "$sd_perf" %.3f)x" "rqpath <= perf" \
			"$(ok "$sd_rq <= $sd_perf")"
	else
		target "live: workload slowdown rqpath record vs perf sched record" \
			"$(fmt "$sd_rq" %.2f)x vs n/a" "rqpath <= perf" SKIP
	fi
else
	target "live: rqpath record lost events, default buffer" "n/a" "0" SKIP
	target "live: workload slowdown rqpath record vs perf sched record" "n/a" "rqpath <= perf" SKIP
fi
if [ -z "$tui_why" ] && [ -s "$OUT/tui.t" ]; then
	set -- $(stats "$OUT/tui.t")
	target "TUI key to screen change (median / max of $(wc -l <"$OUT/tui.t") keys)" \
		"$1 / $3 ms" "<= 100 ms" "$(ok "$3 <= 100")"
else
	target "TUI key to screen change" "n/a ($tui_why)" "<= 100 ms" SKIP
fi
if [ -n "$left" ] || [ -n "$stray" ]; then
	target "cleanup" "instances left: ${left:-none}; stray hackbench: ${stray:-none}" "none" FAIL
fi

# ---- the table -------------------------------------------------------------------------
row() {	# row NAME EVENTS FILE
	set -- "$1" "$2" "$(stats "$3")"
	set -- "$1" "$2" $3
	printf '| %s | %s | %s | %s–%s | %s |\n' "$1" "$2" "$(fmt "$3" %.3f)" "$(fmt "$4" %.3f)" \
		"$(fmt "$5" %.3f)" "$(fmt "$(eps "$2" "$3")" %.0f)"
}
{
	echo "Measured by \`make bench\` on $(uname -r), $(nproc) CPUs ($(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)), $(date -u +%Y-%m-%d)."
	echo "Workload: \`$WORKLOAD $BENCH_LOOPS\` recorded with \`rqpath record --file-version 6 --buffer-kb $BENCH_BUFFER_KB\`:"
	echo "$ev1 sched events ($lost1 lost), $((size1 / 1048576)) MiB as v6, $(($(stat -c %s "$H1Z") / 1048576)) MiB as v7 zstd (\`trace-cmd convert --file-version 7 --compression zstd\`)${ev4:+; 4×: $ev4 events}."
	echo "Each round runs every reader on every file in turn; the ratios are of the medians."
	echo
	echo "| Replay (median, min–max s of $BENCH_RUNS rounds) | 1× v6 | 1× v7 zstd | 4× v6 | 4× v7 zstd |"
	echo "|---|---:|---:|---:|---:|"
	cell() { [ -s "$OUT/$1-$2.t" ] || { printf ' – |'; return; }
		 set -- $(stats "$OUT/$1-$2.t"); printf ' %s (%s–%s) |' "$(fmt "$1" %.3f)" "$(fmt "$2" %.3f)" "$(fmt "$3" %.3f)"; }
	rcell() { [ -s "$OUT/$1-$3.t" ] && printf ' %s× |' "$(fmt "$(ratio "$1" "$2" "$3")" %.2f)" || printf ' – |'; }
	for w in "audit:\`rqpath audit --format json\` (default threads: $(nproc))" \
		 "audit1:\`rqpath audit --threads 1\`" \
		 "iter:libtracecmd \`tracecmd_iterate_events\`, one field (bench_floor --iterate)" \
		 "own:rqpath's reader alone, same field (bench_floor --own)"; do
		printf '| %s |' "${w#*:}"
		for t in 1x-v6 1x-zstd 4x-v6 4x-zstd; do cell "${w%%:*}" $t; done
		echo
	done
	printf '| **audit / iterator** |'; for t in 1x-v6 1x-zstd 4x-v6 4x-zstd; do rcell audit iter $t; done; echo
	printf '| audit --threads 1 / iterator |'; for t in 1x-v6 1x-zstd 4x-v6 4x-zstd; do rcell audit1 iter $t; done; echo
	printf '| audit / own reader |'; for t in 1x-v6 1x-zstd 4x-v6 4x-zstd; do rcell audit own $t; done; echo
	printf '| own reader / iterator |'; for t in 1x-v6 1x-zstd 4x-v6 4x-zstd; do rcell own iter $t; done; echo
	if ! skipped rss; then
		printf '| audit peak RSS, KiB |'
		for t in 1x-v6 1x-zstd 4x-v6 4x-zstd; do
			[ -s "$OUT/rss-$t.t" ] && printf ' %s |' "$(med "$OUT/rss-$t.t")" || printf ' – |'
		done
		echo
	fi
	echo
	echo "| Other tools on the 1× trace | events | median s | events/s |"
	echo "|---|---:|---:|---:|"
	[ $tc_ok = 1 ] && echo "| \`trace-cmd report\` | $ev1 | $(fmt "$t_tc" %.3f) | $(fmt "$eps_tc" %.0f) |"
	if [ $perf_ok = 1 ]; then
		echo "| \`perf sched timehist\` (perf's own file) | $perf_ev | $(fmt "$t_perf" %.3f) | $(fmt "$eps_perf" %.0f) |"
	else
		echo "| \`perf sched timehist\` | SKIP: $perf_why | | |"
	fi
	echo
	echo "| Other | value |"
	echo "|---|---:|"
	[ -s "$OUT/tui-keys.log" ] &&
		echo "| TUI ms per key (\`rqpath replay\`, 1× trace, after loading) | $(awk '{ printf "%s%s %s", sep, $1, $2; sep = ", " }' "$OUT/tui-keys.log") |"
	if [ -n "$cg_audit" ]; then
		echo "| callgrind instructions/event, audit --threads 1 vs own reader alone ($ev_med events) | $(fmt "$(calc "$cg_audit / $ev_med")" %.0f) vs $(fmt "$(calc "$cg_floor / $ev_med")" %.0f) |"
		[ -n "$cg_audit_open" ] && [ -n "$cg_floor_open" ] &&
			echo "| the same without the one-off rq_td_open | $(fmt "$(calc "($cg_audit - $cg_audit_open) / $ev_med")" %.0f) vs $(fmt "$(calc "($cg_floor - $cg_floor_open) / $ev_med")" %.0f) |"
	fi
	if ! skipped live; then
		echo
		echo "| Live, \`$WORKLOAD $BENCH_LOOPS\` ($BENCH_LIVE_RUNS rotating rounds) | workload s (median) | slowdown (median of the rounds' ratios) | command s | lost events |"
		echo "|---|---:|---:|---:|---:|"
		b=$(med "$OUT/live-bare.t")
		echo "| bare | $(fmt "$b" %.2f) | 1.00× | $(fmt "$(med "$OUT/live-bare-cmd.t")" %.2f) | – |"
		echo "| \`rqpath record\` (default buffer) | $(fmt "$(med "$OUT/live-rqpath.t")" %.2f) | $(fmt "$(med "$OUT/live-ratio-rqpath.t")" %.3f)× | $(fmt "$(med "$OUT/live-rqpath-cmd.t")" %.2f) | $lostlist |"
		if [ $perf_ok = 1 ]; then
			echo "| \`perf sched record\` | $(fmt "$(med "$OUT/live-perf.t")" %.2f) | $(fmt "$(med "$OUT/live-ratio-perf.t")" %.3f)× | $(fmt "$(med "$OUT/live-perf-cmd.t")" %.2f) | ${perf_lost:-?} (last run) |"
			echo
			printf '| Round | %s |\n|---|%s\n' "$(seq 1 "$BENCH_LIVE_RUNS" | tr '\n' '|' | sed 's/|$//; s/|/ | /g')" \
				"$(seq 1 "$BENCH_LIVE_RUNS" | awk '{ printf "---:|" }')"
			printf '| rqpath record / bare |'; awk '{ printf " %.3f |", $1 }' "$OUT/live-ratio-rqpath.t"; echo
			printf '| perf sched record / bare |'; awk '{ printf " %.3f |", $1 }' "$OUT/live-ratio-perf.t"; echo
		else
			echo "| \`perf sched record\` | SKIP: $perf_why | | | |"
		fi
	fi
	echo
	echo "| Target | measured | target | result |"
	echo "|---|---|---|---|"
	printf '%s' "$results" | awk -F'|' 'NF >= 4 { printf "| %s | %s | %s | %s |\n", $1, $2, $3, $4 }'
	if [ -s "$OUT/scale.md" ]; then
		echo
		cat "$OUT/scale.md"
	fi
	if [ -s "$OUT/outputs.md" ]; then
		echo
		cat "$OUT/outputs.md"
	fi
	if [ -s "$OUT/lists.md" ]; then
		echo
		cat "$OUT/lists.md"
	fi
} >"$OUT/results.md"
echo
cat "$OUT/results.md"
echo
say "table written to $OUT/results.md (${t_total}s)"
exit $verdict
