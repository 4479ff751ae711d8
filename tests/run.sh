#!/bin/sh
# Test runner for `make check`: runs every tier and ends with the line
# "N passed, N failed, N skipped" that CI reads.
#   unit tests   $RQPATH_BUILD/asan/tests/test_*   (cmocka, no root, no kernel)
#   scripts      tests/{golden,robust,live,tui,truth,kernels}/t_*.sh
#                (kernels: one QEMU guest of a Debian kernel, tests/kernels/t_guest_small.sh)
# A script passes with exit 0, is skipped with exit 77 (its last line says why),
# and fails otherwise.  TESTS="pattern ..." runs only the tests whose name matches one;
# TESTS_SKIP="pattern ..." skips those matching any pattern (e.g. the tests that record
# through tracefs while another job on the machine uses it).
top=$(cd "$(dirname "$0")/.." && pwd)
: "${RQPATH_BUILD:=$top/build}"
: "${RQPATH:=$RQPATH_BUILD/asan/rqpath}"
: "${RQPATH_PLAIN:=$top/rqpath}"
export RQPATH RQPATH_PLAIN RQPATH_BUILD
export RQPATH_TOP="$top"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
pass=0 fail=0 skip=0
# recordings killed elsewhere on the machine before this run are not its leftovers
# (tracefs.sh only defines T and functions: sourced whether or not tracefs is mounted yet,
# since the tests mount it and the residue check below then needs rqpath_stale)
. "$top/tests/live/tracefs.sh"
if [ -d $T/instances ]; then
	stale_at_start=$(rqpath_stale)
	events_at_start=$(cat $T/set_event 2>/dev/null)
fi
failed=""
logdir="$RQPATH_BUILD/test-logs"
mkdir -p "$logdir"

run_one() {
	name=$1; shift
	want=${TESTS:+no}
	for p in ${TESTS:-}; do
		case "$name" in *$p*) want= ;; esac
	done
	[ -z "$want" ] || return
	for p in ${TESTS_SKIP:-}; do
		case "$name" in *$p*)
			skip=$((skip + 1)); echo "skip  $name: TESTS_SKIP has $p"; return ;;
		esac
	done
	log="$logdir/$(echo "$name" | tr '/' '_').log"
	"$@" >"$log" 2>&1
	rc=$?
	if [ $rc -eq 0 ]; then
		pass=$((pass + 1)); echo "ok    $name"
	elif [ $rc -eq 77 ]; then
		skip=$((skip + 1)); echo "skip  $name: $(tail -n 1 "$log")"
	else
		fail=$((fail + 1)); failed="$failed $name"
		echo "FAIL  $name (exit $rc, log $log)"; tail -n 25 "$log" | sed 's/^/      /'
	fi
}

for t in "$RQPATH_BUILD"/asan/tests/test_*; do
	[ -x "$t" ] || continue
	run_one "unit/$(basename "$t")" "$t"
done
for tier in golden robust live tui truth kernels; do
	for t in "$top"/tests/$tier/t_*.sh; do
		[ -f "$t" ] || continue
		run_one "$tier/$(basename "$t" .sh)" sh "$t"
	done
done
# Nothing may be left behind in tracefs by any test.
if [ -d /sys/kernel/tracing/instances ]; then
	# an instance whose recording still runs is in use, not left (rqpath_stale: the pid
	# of rqpath-nsINODE-PID is one of another pid namespace, judged by that namespace)
	# (and one gone a moment later was another run's, on this shared machine)
	left=""
	for inst in $(rqpath_stale); do
		echo "$stale_at_start" | grep -qxF "$inst" || left="$left $inst"
	done
	if [ -n "$left" ]; then
		sleep 3
		again=""
		for inst in $left; do
			[ -d "$T/instances/$inst" ] && again="$again $inst"
		done
		left=$([ -z "$again" ] || rqpath_stale $again | tr '\n' ' ')
	fi
	# nor an event enabled in the top-level instance that was not enabled at the start
	events_left=$(cat $T/set_event 2>/dev/null | while read -r e; do
		echo "$events_at_start" | grep -qxF "$e" || echo "$e"; done | tr '\n' ' ')
	if [ -n "$left" ]; then
		fail=$((fail + 1)); echo "FAIL  residue: tracefs instances left: $left"
	elif [ -n "$events_left" ]; then
		fail=$((fail + 1)); echo "FAIL  residue: top-level events left enabled: $events_left"
	else
		pass=$((pass + 1)); echo "ok    residue: no rqpath tracefs instance or event left"
	fi
fi
echo
[ -n "$failed" ] && echo "failed:$failed"
echo "$pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ] && [ $pass -gt 0 ]
