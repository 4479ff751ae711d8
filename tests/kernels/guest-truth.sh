#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# guest-truth.sh - run inside a guest of tests/kernels/boot.sh (not a test: no t_ prefix):
# the truth tier's tests named as arguments (spawn wake_llc execl idle_stack hackbench
# build), one after the other, each keeping its score JSON in
# $RQPATH_RESULTS/truth/TEST/ (TRUTH_TABLE, tests/truth/lib.sh) and its output in
# $RQPATH_RESULTS/TEST.log, a failed test's recordings and audits in
# $RQPATH_RESULTS/keep/TEST/ (TRUTH_KEEP); one line per test in $RQPATH_RESULTS/tests.tsv:
#   TEST <tab> EXIT <tab> SECONDS <tab> LAST LINE OF ITS OUTPUT
# Exits 0 when every test passed or skipped, 1 otherwise.
#   RQPATH  the rqpath binary (default: ./rqpath of the current directory)
top=$(cd "$(dirname "$0")/../.." && pwd)
: "${RQPATH:=$top/rqpath}"
: "${RQPATH_RESULTS:?run in a guest of tests/kernels/boot.sh (RQPATH_RESULTS)}"
export RQPATH RQPATH_TOP="$top"
rc=0
: >"$RQPATH_RESULTS/tests.tsv"
for t in "$@"; do
	s=$(date +%s)
	TRUTH_TABLE=$RQPATH_RESULTS/truth/$t TRUTH_KEEP=$RQPATH_RESULTS/keep/$t sh "$top/tests/truth/t_truth_$t.sh" \
		>"$RQPATH_RESULTS/$t.log" 2>&1
	r=$?
	printf '%s\t%d\t%d\t%s\n' "$t" $r $(($(date +%s) - s)) \
		"$(tail -n 1 "$RQPATH_RESULTS/$t.log" | tr '\t' ' ')" >>"$RQPATH_RESULTS/tests.tsv"
	echo "$t: exit $r ($(tail -n 1 "$RQPATH_RESULTS/$t.log"))"
	[ $r = 0 ] || [ $r = 77 ] || rc=1
done
exit $rc
