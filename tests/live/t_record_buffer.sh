#!/bin/sh
# The default ring buffer: 64 MB in all, split over the CPUs, 4096 to 32768 KB each (a
# recorder kept off the CPUs by its workload must not lose what is written meanwhile);
# --buffer-kb sets it.  Read from the instance's own buffer_size_kb while rqpath record
# runs (the kernel rounds up to whole pages: a few KB more).
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
		[ -r "$f" ] && got=$(cat "$f") && [ -n "$got" ] && break
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

[ $fail -eq 0 ] && echo "PASS"
exit $fail
