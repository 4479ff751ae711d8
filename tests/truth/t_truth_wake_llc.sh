#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# t_truth_wake_llc.sh - `rqpath workload wake-llc` (pipe ping-pong beside a pinned hog)
# with the kernel's state on: the missed-idle verdicts of the tracepoint model scored.
. "$(dirname "$0")/lib.sh"
[ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ] || { echo "skip: needs 2 CPUs"; exit 77; }
truth_record wake-llc "$RQPATH" workload wake-llc --count 5000 || exit 1
truth_score wake-llc
[ $fail -eq 0 ] && echo "PASS"
exit $fail
