#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# t_truth_idle_stack.sh - `rqpath workload idle-stack` and its SCHED_OTHER --control
# with the kernel's state on, scored; the control shows no idle-stacking in either audit.
. "$(dirname "$0")/lib.sh"
[ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ] || { echo "skip: needs 2 CPUs"; exit 77; }
truth_record idle-stack "$RQPATH" workload idle-stack --duration 1 || exit 1
truth_score idle-stack
truth_record idle-stack-control "$RQPATH" workload idle-stack --duration 1 --control || exit 1
truth_score idle-stack-control --control idle-stacking
echo "idle-stack with truth: idle-stacking exact $(finding idle-stack idle-stacking exact)," \
	"no selection $(finding idle-stack idle-stacking no_selection); model alone: count" \
	"$(finding idle-stack idle-stacking count model)," \
	"possible $(finding idle-stack idle-stacking possible model)"
[ $fail -eq 0 ] && echo "PASS"
exit $fail
