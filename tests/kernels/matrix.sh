#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# matrix.sh - the kernel matrix (make check-kernels): boot each kernel at each topology
# (tests/kernels/boot.sh, one guest at a time), run the truth tier's tests in it
# (tests/kernels/guest-truth.sh) and write docs/kernel-matrix.md from every cell's
# results (tests/kernels/matrix.py).  Not a test (no t_ prefix).
#   KERNELS      kernel aliases (default: 6.1 6.12 7.2)
#   TOPOLOGIES   boot.sh topologies (default: 4 16-2s-smt-numa 16-4llc 64-2s-smt-numa)
#   KTESTS       truth tests (default: spawn wake_llc execl idle_stack hackbench)
#   KBUILD=1     add t_truth_build (10-20 min a guest at 16 vCPUs: off by default)
#   KMATRIX_DIR  where the cells' results are kept (default $RQPATH_BUILD/kernel-matrix):
#                a cell not run now keeps the results of the last run that ran it, so
#                the table can be filled one cell at a time
#   KMATRIX_OUT  the table (default docs/kernel-matrix.md; - for stdout)
#   KMATRIX_NOTE why a cell without results was not run (default: "not run")
#   KTIMEOUT     seconds a guest may run (default: by CPUs and tests)
#   RQPATH       the rqpath the guests run (default ./rqpath: built with BPF if it can be)
#   KMATRIX_COMMIT  the commit to name in the table (default: git rev-parse HEAD)
# Exits 1 when a test failed or a cell could not be run, 0 otherwise.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/kernels/lib.sh"
: "${RQPATH:=$top/rqpath}"
: "${RQPATH_BUILD:=$top/build}"
: "${KERNELS:=$KALIASES}"
: "${TOPOLOGIES:=4 16-2s-smt-numa 16-4llc 64-2s-smt-numa}"
: "${KTESTS:=spawn wake_llc execl idle_stack hackbench}"
[ "${KBUILD:-0}" = 1 ] && KTESTS="$KTESTS build"
: "${KMATRIX_DIR:=$RQPATH_BUILD/kernel-matrix}"
: "${KMATRIX_OUT:=$top/docs/kernel-matrix.md}"
[ -x "$RQPATH" ] || { kerr "no rqpath binary at $RQPATH (make first)"; exit 1; }
case $RQPATH in /*) ;; *) RQPATH=$(pwd)/$RQPATH ;; esac
cd "$top" || exit 1
commit=${KMATRIX_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}
# the table this run rewrites is not a change to what it tests
[ -n "$KMATRIX_COMMIT" ] || git diff --quiet HEAD -- . ':(exclude)docs/kernel-matrix.md' \
	2>/dev/null || commit="$commit+changes"
rc=0
mkdir -p "$KMATRIX_DIR" || exit 1
for k in $KERNELS; do
	if ! sh tests/kernels/fetch.sh "$k" >"$KMATRIX_DIR/fetch-$k.log" 2>&1; then
		why=$(grep rqpath-kernels "$KMATRIX_DIR/fetch-$k.log" | head -n 1)
		for t in $TOPOLOGIES; do
			mkdir -p "$KMATRIX_DIR/$k/$t"
			echo "fetch failed: ${why#rqpath-kernels: }" >"$KMATRIX_DIR/$k/$t/not-run"
		done
		kerr "$k: ${why#rqpath-kernels: }"
		rc=1
		continue
	fi
	for t in $TOPOLOGIES; do
		cell=$KMATRIX_DIR/$k/$t
		rm -rf "$cell"
		mkdir -p "$cell"
		n=$(echo $KTESTS | wc -w)
		case $t in 64*) scale=3 ;; 4) scale=1 ;; *) scale=2 ;; esac
		# the slowest of the tier at 16 vCPUs is ~2 min (execl), build up to 20
		to=${KTIMEOUT:-$((300 + scale * (n * 300 + ${KBUILD:-0} * 1500)))}
		printf 'commit=%s date=%s tests=%s timeout=%s rqpath=%s\n' "$commit" \
			"$(date -u +%Y-%m-%dT%H:%MZ)" "$(echo $KTESTS | tr ' ' ,)" "$to" \
			"$RQPATH" >"$cell/meta"
		echo "== $k $t: $KTESTS (timeout ${to}s)"
		sh tests/kernels/boot.sh --kernel "$k" --topology "$t" \
			--timeout "$to" --results "$cell" -- \
			env RQPATH="$RQPATH" sh tests/kernels/guest-truth.sh $KTESTS 2>"$cell/boot.err"
		r=$?
		echo $r >"$cell/boot.rc"
		sed 's/^/   /' "$cell/boot.err"
		[ $r = 0 ] || rc=1
	done
done
# the table: the default topologies, then any other one run now or kept from a run before
topos="4 16-2s-smt-numa 16-4llc 64-2s-smt-numa"
for t in $TOPOLOGIES $(ls -d "$KMATRIX_DIR"/*/*/ 2>/dev/null | awk -F/ '{ print $(NF - 1) }'); do
	case " $topos " in *" $t "*) ;; *) topos="$topos $t" ;; esac
done
python3 tests/kernels/matrix.py --dir "$KMATRIX_DIR" --kernels "$KALIASES" \
	--topologies "$topos" \
	--tests "spawn wake_llc execl idle_stack hackbench build" \
	--missing "${KMATRIX_NOTE:-not run}" --out "$KMATRIX_OUT" || rc=1
[ "$KMATRIX_OUT" = - ] || echo "table: $KMATRIX_OUT"
exit $rc
