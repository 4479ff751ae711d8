#!/bin/sh
# Cheaper recording (issue 11 item 6): by default no syscall event is enabled (every
# task's syscalls would take the slow path); --syscalls brings the six
# sys_enter/exit_sched_set* events back.  Without them the attributes still follow the
# tasks: a task that turns itself SCHED_IDLE without moving, and a sleeping task whose
# affinity another process narrows, both get a marker with the new value while they run
# (the /proc re-reads: stopper moves, placements outside the known mask, and tasks woken
# long after their last read).  Expected values are the ones the commands set.
. "$(dirname "$0")/lib.sh"
need trace-cmd
need python3
[ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ] || { echo "skip: needs 2 CPUs"; exit 77; }

dir=$(mktemp -d) || exit 1
chmod 755 "$dir"	# the command may run as the sudo user
trap 'rm -rf "$dir"' EXIT
# the policy changer prints its pid; the affinity target is pinned to CPU 1 by its parent
cat >"$dir/w.py" <<'PY'
import os, time, sys
pid = os.fork()
if pid == 0:
    for _ in range(150):
        time.sleep(0.01)
    os._exit(0)
os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
time.sleep(0.05)
os.sched_setaffinity(pid, {1})
print("self=%d policy=%d child=%d cpus=1" % (os.getpid(), os.SCHED_IDLE, pid), flush=True)
for _ in range(100):
    time.sleep(0.01)
os.waitpid(pid, 0)
PY
for mode in default syscalls; do
	[ $mode = syscalls ] && opt=--syscalls || opt=
	"$RQPATH" record $opt -o "$dir/$mode.dat" -- python3 "$dir/w.py" >"$dir/$mode.out" \
		2>"$dir/$mode.err" || no "$mode: record exited $?"
	trace-cmd report "$dir/$mode.dat" >"$dir/$mode.txt" 2>/dev/null || no "$mode: file does not open"
	n=$(grep -c 'sys_enter_sched_set\|sys_exit_sched_set' "$dir/$mode.txt")
	echo "$mode: $n syscall events; $(cat "$dir/$mode.out")"
	if [ $mode = default ]; then
		[ "$n" -eq 0 ] || no "default: $n syscall events recorded, want none"
	else
		[ "$n" -ge 4 ] || no "--syscalls: $n syscall events, want the setscheduler and setaffinity pairs"
	fi
	set -- $(sed 's/[a-z]*=//g' "$dir/$mode.out")
	self=$1 policy=$2 child=$3
	grep -q "rqpath/1 task pid=$self tgid=[0-9]* policy=$policy " "$dir/$mode.txt" ||
		no "$mode: no marker with the policy $policy the task set itself"
	grep -q "rqpath/1 task pid=$child tgid=[0-9]* policy=[-0-9]* cpus=1 " "$dir/$mode.txt" ||
		no "$mode: no marker with the affinity 1 its parent set"
done
[ -n "$(stale)" ] && no "instance left: $(stale)"

[ $fail -eq 0 ] && echo "PASS"
exit $fail
