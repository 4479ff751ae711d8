#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# t_truth_build.sh - a real C build under SCHED_IDLE (the seed's kernel-build scenario,
# on this project's own tree): `chrt --idle 0 make -j1` and `-j2` of a few objects of a
# copy of the tree, after `make clean` of their build directory, with the kernel's state
# on; the same builds under SCHED_OTHER are the control (no idle-stacking in either
# audit).  Done when (issue 21): the -j1 SCHED_IDLE build shows idle-stacking exact > 0
# (three tries: on a loaded machine no CPU is idle to stack against).
. "$(dirname "$0")/lib.sh"
need chrt
need make
need gcc
tree=$dir/tree
mkdir -p "$tree"
cp -r "$top/Makefile" "$top/src" "$top/views" "$tree/" || { no "copy of the tree"; exit 1; }
objs="src/engine/model.o src/engine/classify.o src/engine/findings.o src/engine/delay.o
	src/input/tracedat.o src/output/report.o"
build() { # NAME POLICY JOBS: chrt --POLICY 0 make -jJOBS
	_n=$1
	_b=$dir/build-$_n
	make -s -C "$tree" BUILD="$_b" clean >/dev/null 2>&1
	mkdir -p "$_b"
	# the pkg-config check once, outside the recording
	make -s -C "$tree" BUILD="$_b" "$_b/pkgs.ok" >/dev/null 2>&1
	_targets=""
	for _o in $objs; do _targets="$_targets $_b/$_o"; done
	truth_record "$_n" chrt --"$2" 0 make -s -j"$3" -C "$tree" BUILD="$_b" $_targets ||
		exit 1
}
# a loaded machine (other work on every CPU) leaves no idle CPU to stack against: the
# -j1 build is tried up to three times, the load said each time
busy=0
ncpu=$(getconf _NPROCESSORS_ONLN)
for attempt in 1 2 3; do
	build idle-j1 idle 1
	e=$(finding idle-j1 idle-stacking exact)
	load=$(cut -d' ' -f1 /proc/loadavg)
	echo "attempt $attempt: chrt --idle 0 make -j1: idle-stacking exact $e" \
		"(load average $(cut -d' ' -f1-3 /proc/loadavg))"
	[ "$e" -gt 0 ] && break
	# a load of at least one runnable task per CPU: other work keeps every CPU busy
	awk -v l="$load" -v n="$ncpu" 'BEGIN { exit !(l >= n) }' && busy=$((busy + 1))
done
build idle-j2 idle 2
build other-j1 other 1
build other-j2 other 2
for n in idle-j1 idle-j2; do
	truth_score $n
	echo "$n: idle-stacking exact $(finding $n idle-stacking exact)," \
		"no selection $(finding $n idle-stacking no_selection); model alone: count" \
		"$(finding $n idle-stacking count model), possible" \
		"$(finding $n idle-stacking possible model), not judged" \
		"$(finding $n idle-stacking not_judged model)"
done
for n in other-j1 other-j2; do
	truth_score $n --control idle-stacking
done
e=$(finding idle-j1 idle-stacking exact)
if [ "$e" -eq 0 ] && [ $fail -eq 0 ] && [ $busy -eq 3 ]; then
	echo "skip: idle-stacking of chrt --idle 0 make -j1 not measurable: load average >= $ncpu on $ncpu CPUs in all three tries (no CPU idle to stack against); scores and controls passed"
	exit 77
fi
[ "$e" -gt 0 ] || no "chrt --idle 0 make -j1: idle-stacking exact $e with truth, want > 0"
[ $fail -eq 0 ] && echo "PASS"
exit $fail
