#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# t_truth_execl.sh - `rqpath workload execl` pinned (each exec's record shows one CPU
# allowed: needless-callback exact, as many as the workload's execs on a kernel without
# the fix) and not pinned (the control: no needless-callback in either audit), scored.
. "$(dirname "$0")/lib.sh"
truth_record execl-pinned "$RQPATH" workload execl --count 100 --pin 0 || exit 1
truth_score execl-pinned
truth_record execl-unpinned "$RQPATH" workload execl --count 100 || exit 1
truth_score execl-unpinned --control needless-callback
n=$(finding execl-pinned needless-callback exact)
echo "pinned: needless-callback exact $n (model alone: count" \
	"$(finding execl-pinned needless-callback count model))"
if jget "$dir/execl-pinned.json" 'd["trace"]["profile"]["exec_callback"]' | grep -q affected; then
	[ "$n" -ge 100 ] || no "pinned: needless-callback exact $n with truth, want >= 100 (the execs)"
fi
[ $fail -eq 0 ] && echo "PASS"
exit $fail
