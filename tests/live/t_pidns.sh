#!/bin/sh
# Another rqpath never kills a live recording: a recording inside another pid
# namespace (unshare --pid, its pid chosen so that no process of this namespace has
# it) keeps recording while a second rqpath runs here, and ends with its workload's
# every fork in the file and exit 0.  Before the fix the second run took the first
# one's instance for stale (its pid did not exist here), turned tracing off and
# disabled its events, and the first still exited 0 with "0 lost".
. "$(dirname "$0")/lib.sh"
need unshare
need trace-cmd

dir=$(mktemp -d) || exit 1
chmod 755 "$dir"	# the command may run as the sudo user
trap 'rm -rf "$dir"' EXIT
pidmax=$(cat /proc/sys/kernel/pid_max)
# a pid free here: from the top of the range down
nspid=$((pidmax - 10))
while kill -0 $nspid 2>/dev/null || kill -0 $((nspid + 1)) 2>/dev/null; do nspid=$((nspid - 2)); done
forks=300
# the workload runs under a name of its own (comm rqpidns) so that its forks can be
# counted apart from everything else the machine does
ln -s "$RQPATH" "$dir/rqpidns"
# inside: rqpath gets the pid nspid+1 (the shell is pid 1); the recording waits 2.5 s
# (the second rqpath runs here meanwhile), then its workload forks
unshare --pid --fork --mount-proc sh -c '
	echo '$nspid' >/proc/sys/kernel/ns_last_pid || exit 99
	"$0" record -o "$1" -- sh -c "sleep 2.5; exec \"$2\" workload spawn --count '$forks'"
' "$RQPATH" "$dir/ns.dat" "$dir/rqpidns" >"$dir/ns.out" 2>"$dir/ns.err" &
u=$!
i=0
while [ $i -lt 100 ] && ! ls $T/instances | grep -q "^rqpath-ns[0-9]*-$((nspid + 1))\$\|^rqpath-$((nspid + 1))\$"; do
	sleep 0.1; i=$((i + 1))
done
inst=$(ls $T/instances | grep "^rqpath-ns[0-9]*-$((nspid + 1))\$\|^rqpath-$((nspid + 1))\$")
echo "recording in the other pid namespace: instance $inst"
[ -n "$inst" ] || no "the namespaced recording's instance never appeared"
sleep 0.3
# a second recording here, meanwhile
"$RQPATH" record -o "$dir/here.dat" --duration 0.5 2>"$dir/here.err" || no "second run exited $?"
cat "$dir/here.err" | grep -v counts
[ -n "$inst" ] && [ ! -d "$T/instances/$inst" ] && no "the second run removed the live instance $inst"
[ -n "$inst" ] && [ "$(cat "$T/instances/$inst/tracing_on" 2>/dev/null)" = 0 ] &&
	no "the second run turned the live recording's tracing off"
wait $u
rc=$?
cat "$dir/ns.err" | grep -v counts
[ $rc -eq 0 ] || no "the namespaced recording exited $rc"
trace-cmd report "$dir/ns.dat" 2>/dev/null >"$dir/ns.txt" || no "ns.dat does not open"
wpid=$(sed -n 's/.* pid=\([0-9]*\).*/\1/p' "$dir/ns.out")
got=$(grep -c 'sched_process_fork: *comm=rqpidns pid=[0-9]* child_comm=rqpidns' "$dir/ns.txt")
echo "forks: workload says $forks (pid $wpid in its namespace), trace has $got"
# (at least: the ASan build's leak checker clones once more at exit)
[ "$got" -ge "$forks" ] || no "the namespaced recording lost its workload's forks ($got of $forks)"
[ -n "$(stale)" ] && no "instance left: $(stale)"

[ $fail -eq 0 ] && echo "PASS"
exit $fail
