#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# t_truth_hackbench.sh - hackbench (rt-tests; tests/install-deps.sh test installs it):
# many short wakeups between processes, recorded with the kernel's state on and scored.
. "$(dirname "$0")/lib.sh"
need hackbench
truth_record hackbench hackbench -g 2 -l 200 || exit 1
truth_score hackbench
[ $fail -eq 0 ] && echo "PASS"
exit $fail
