#!/bin/sh
# The default ring buffer: 64 MB in all, split over the CPUs, 4096 to 32768 KB each (a
# recorder kept off the CPUs by its workload must not lose what is written meanwhile);
# --buffer-kb sets it.  Read from the instance's own buffer_size_kb while rqpath record
# runs (the kernel rounds up to whole pages: a few KB more).  A tiny buffer keeps the
# recorder's kernel and cpu lines all the same.
. "$(dirname "$0")/lib.sh"

dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
ncpus=$(getconf _NPROCESSORS_CONF)
want=$((65536 / ncpus))
[ $want -lt 4096 ] && want=4096
[ $want -gt 32768 ] && want=32768

# the size the instance of a running rqpath record has, in KB
size_of() {	# size_of [RECORD OPTIONS]
	"$RQPATH" record -o "$dir/b.dat" --force "$@" -- sleep 3 >/dev/null 2>&1 &
	rpid=$!
	got=""
	for _ in $(seq 1 50); do
		f=$T/instances/rqpath-$rpid/buffer_size_kb
		# sized before its events are enabled: a new instance has the default size
		[ "$(cat $T/instances/rqpath-$rpid/events/sched/sched_switch/enable \
			2>/dev/null)" = 1 ] && [ -r "$f" ] && got=$(cat "$f") && [ -n "$got" ] && break
		sleep 0.1
	done
	wait $rpid || no "record $* exited $?"
	echo "${got%% *}"
}
got=$(size_of)
echo "default: $got KB per CPU on $ncpus CPUs (want $want)"
near() { [ -n "$1" ] && [ "$1" -ge "$2" ] && [ "$1" -le $(($2 + 16)) ]; }
near "$got" $want || no "default buffer $got KB per CPU, want $want"
got=$(size_of --buffer-kb 1024)
echo "--buffer-kb 1024: $got KB"
near "$got" 1024 || no "--buffer-kb 1024 gave $got KB"

# A tiny buffer: the snapshot's task lines fill it over the kernel and cpu lines written
# first.  Those must reach the file all the same (written again until one copy is read
# back), or the audit assumes one LLC: issue 19 item 5, red on c0243a9 ("topology: not
# in the trace").  Three tries of 4 KB and 8 KB.
for kb in 4 8 4; do
	"$RQPATH" record -q -o "$dir/tiny.dat" --force --buffer-kb $kb --duration 1 ||
		no "record --buffer-kb $kb failed"
	"$RQPATH" audit "$dir/tiny.dat" >"$dir/tiny.txt" 2>&1 || no "audit of the tiny recording failed"
	grep '^  topology:' "$dir/tiny.txt"
	grep -q '^  topology: not in the trace' "$dir/tiny.txt" &&
		no "--buffer-kb $kb: the kernel and cpu lines were lost"
	n=$(trace-cmd report "$dir/tiny.dat" 2>/dev/null | grep -c 'rqpath/1 cpu cpu=')
	[ "$n" -ge "$ncpus" ] || no "--buffer-kb $kb: $n cpu lines in the file, want $ncpus or more"
done

[ $fail -eq 0 ] && echo "PASS"
exit $fail
