#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# t_truth_spawn.sh - `rqpath workload spawn` recorded with the kernel's state on: every
# missed-idle candidate is exact or "no selection", none possible (issue 21, done when),
# and the tracepoint model's verdicts of the same file score against that truth
# (exact precision >= 0.98 where it counts 5 or more exact).
. "$(dirname "$0")/lib.sh"
truth_record spawn "$RQPATH" workload spawn --count 500 || exit 1
truth_score spawn
possible=$(finding spawn missed-idle possible)
echo "spawn with truth: missed-idle count $(finding spawn missed-idle count)," \
	"exact $(finding spawn missed-idle exact), possible $possible," \
	"no selection $(finding spawn missed-idle no_selection);" \
	"without: count $(finding spawn missed-idle count model)," \
	"possible $(finding spawn missed-idle possible model)"
[ "$possible" = 0 ] || no "spawn: missed-idle possible $possible with truth, want 0"
[ $fail -eq 0 ] && echo "PASS"
exit $fail
