#!/bin/sh
# A task cannot hide from a finding by its name (issue 19 item 2, end to end).  The
# recorder writes each task's mask into the trace as a marker line whose last field is
# the name; a name holding the format's own words (" gone", "cpus=", "pid=", "comm=")
# once made the parser drop the task's mask, so a pinned exec loop named "x gone" gave
# needless-callback 0 where the same loop named "x_gone" gave every exec.
#
# Each name here is a copy of rqpath run as `taskset -c 0 NAME workload execl --count 40`
# (one exec by taskset, 40 by the loop, all pinned to CPU 0) under `record --syscalls`,
# so every exec is judged from the setaffinity events and the markers: each must count
# 41 needless callbacks on the workload's pid, the same as the plain-named control.
. "$(dirname "$0")/lib.sh"
need python3
need taskset

dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
count=40
bin=${RQPATH_PLAIN:-$RQPATH}

for name in "x_gone" "x gone" "a gone b" "p pid=1 gone" "c cpus=0-1" "comm=x policy=5" "t tgid=1 idle"; do
	cp "$bin" "$dir/$name" || { no "cannot copy the binary to '$name'"; continue; }
	out=$dir/out.$$ dat=$dir/t.dat
	rm -f "$dat"
	"$RQPATH" record -q --syscalls -o "$dat" -- taskset -c 0 "$dir/$name" workload execl \
		--count $count >"$out" 2>"$out.err" || { no "record of '$name' exited $?"; cat "$out.err"; continue; }
	wpid=$(sed -n 's/.*workload=execl .* pid=\([0-9]*\).*/\1/p' "$out")
	[ -n "$wpid" ] || { no "'$name': the workload printed no pid"; continue; }
	"$RQPATH" audit --placements jsonl "$dat" >"$dat.jsonl" ||
		{ no "audit --placements of '$name' exited $?"; continue; }
	set -- $(python3 -c '
import json, sys
pid = int(sys.argv[1])
n = execs = unjudged = 0
for line in open(sys.argv[2]):
    p = json.loads(line)
    if p["kind"] != "exec" or p["pid"] != pid:
        continue
    execs += 1
    n += "needless-callback" in p["findings"]
print(n, execs)' "$wpid" "$dat.jsonl")
	echo "'$name': needless-callback $1 of $2 exec(s)"
	[ "$1" = $((count + 1)) ] ||
		no "'$name': needless-callback $1, want $((count + 1)) (every pinned exec judged)"
done
[ -z "$(stale)" ] || no "tracefs instances left: $(stale)"
[ $fail -eq 0 ] && echo "PASS"
exit $fail
