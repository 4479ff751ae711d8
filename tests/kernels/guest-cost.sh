#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# guest-cost.sh - run inside a guest of tests/kernels/boot.sh (not a test: no t_ prefix):
# what kernel truth costs on this kernel and machine size.  COST_ROUNDS rounds (default 5)
# of `rqpath workload spawn --count COST_COUNT` (default 400) three ways, in an order that
# rotates from round to round: bare, under `rqpath record --bpf-stats` (truth on) and
# under `rqpath record --no-bpf`.  Kept in $RQPATH_RESULTS/cost.tsv, one row per run:
#   ROUND MODE WORKLOAD_MS FILE_BYTES TRUTH_BYTES WAKING_US FORK_US WAKEUP_NEW_US SWITCH_US
#   WAKING_CPUS
# (the workload's own duration_ms; the truth buffer's bytes and the programs' mean time
# per run from record's summary; the mean count of CPU entries a waking's record holds,
# from trace-cmd report: the work that grows with the machine; - where a mode has none),
# and one summary line of
# medians on stdout and in $RQPATH_RESULTS/cost.txt.  The ratios are within one guest,
# one run: TCG runs every vCPU on one host thread, so absolute times mean little and
# swing with the host's load.  truth_switch reads one pointer whatever the machine's
# size: a program's time over truth_switch's in the same recording is its cost in units
# that do not depend on how fast the host ran the guest then.
top=$(cd "$(dirname "$0")/../.." && pwd)
: "${RQPATH:=$top/rqpath}"
: "${RQPATH_RESULTS:?run in a guest of tests/kernels/boot.sh (RQPATH_RESULTS)}"
: "${COST_ROUNDS:=5}"
: "${COST_COUNT:=400}"
out=$RQPATH_RESULTS/cost.tsv
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
: >"$out"

ms() { sed -n 's/.*duration_ms=\([0-9]*\).*/\1/p' "$1" | tail -n 1; }
us() { sed -n "s/.* $2 [0-9]* runs \([0-9.]*\) us\/run.*/\1/p" "$1" | head -n 1; }
run() {	# ROUND MODE
	case $2 in
	bare) "$RQPATH" workload spawn --count "$COST_COUNT" >"$work/w" 2>&1
	      printf '%s\tbare\t%s\t-\t-\t-\t-\t-\t-\n' "$1" "$(ms "$work/w")" >>"$out"
	      return ;;
	truth) set -- "$1" "$2" --bpf-stats ;;
	nobpf) set -- "$1" "$2" --no-bpf ;;
	esac
	"$RQPATH" record -o "$work/r.dat" --force "$3" -- \
		"$RQPATH" workload spawn --count "$COST_COUNT" >"$work/w" 2>"$work/e"
	bytes=$(sed -n 's/.*lost events, \([0-9]*\) bytes.*/\1/p' "$work/e")
	tb=$(sed -n 's/.*truth=bpf (.* \([0-9]*\) bytes).*/\1/p' "$work/e")
	ent=-
	[ -n "$tb" ] && command -v trace-cmd >/dev/null &&
		ent=$(trace-cmd report -i "$work/r.dat" 2>/dev/null | awk '/ truth: +waking / {
			for (i = 1; i <= NF; i++) if ($i ~ /^nr_cpus=/) { n++; s += substr($i, 9) } }
			END { printf "%.1f", n ? s / n : 0 }')
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$(ms "$work/w")" \
		"${bytes:--}" "${tb:--}" "$(us "$work/e" truth_waking)" "$(us "$work/e" truth_fork)" \
		"$(us "$work/e" truth_wakeup_new)" "$(us "$work/e" truth_switch)" "$ent" >>"$out"
	[ "$2" = truth ] && [ -z "$tb" ] && { echo "no truth: $(grep truth= "$work/e")"; return 1; }
	return 0
}

i=0
while [ $i -lt "$COST_ROUNDS" ]; do
	case $((i % 3)) in
	0) order="bare truth nobpf" ;;
	1) order="truth nobpf bare" ;;
	*) order="nobpf bare truth" ;;
	esac
	i=$((i + 1))
	for m in $order; do run $i $m || exit 1; done
done
python3 - "$out" "$(nproc)" <<'PY' | tee "$RQPATH_RESULTS/cost.txt"
import statistics as st, sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
by = {}
for r in rows:
    by.setdefault(r[0], {})[r[1]] = r
med = lambda v: st.median(v) if v else float("nan")
wt = med([float(b["truth"][2]) / float(b["nobpf"][2]) for b in by.values()])
wb = med([float(b["truth"][2]) / float(b["bare"][2]) for b in by.values()])
fs = med([float(b["truth"][3]) / float(b["nobpf"][3]) for b in by.values()])
fg = med([float(b["truth"][3]) / (float(b["truth"][3]) - float(b["truth"][4]))
          for b in by.values()])
wk = med([float(b["truth"][5]) for b in by.values() if b["truth"][5]])
fk = med([float(b["truth"][6]) for b in by.values() if b["truth"][6]])
wn = med([float(b["truth"][7]) for b in by.values() if b["truth"][7]])
ws = med([float(b["truth"][5]) / float(b["truth"][8]) for b in by.values() if b["truth"][8]])
ent = med([float(b["truth"][9]) for b in by.values() if b["truth"][9] not in ("", "-")])
fsw = med([float(b["truth"][6]) / float(b["truth"][8]) for b in by.values() if b["truth"][8]])
print(f"cpus={sys.argv[2]} rounds={len(by)} truth_waking_us={wk:.2f} truth_fork_us={fk:.2f} "
      f"truth_wakeup_new_us={wn:.2f} waking/switch={ws:.1f} fork/switch={fsw:.1f} waking_cpu_entries={ent:.1f} workload_truth/nobpf={wt:.3f} workload_truth/bare={wb:.3f} "
      f"file_truth/nobpf={fs:.3f} file/without_truth_buffer={fg:.3f}")
PY
