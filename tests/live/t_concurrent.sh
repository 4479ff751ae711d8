#!/bin/sh
# Two rqpath recordings at once, beside another tool's tracefs instance: each gets its
# own instance, both files are complete and readable, the other instance is untouched,
# and nothing is left behind.
. "$(dirname "$0")/lib.sh"
dir=$(mktemp -d) || exit 1
other=$T/instances/other-tool-$$
cleanup() { rmdir "$other" 2>/dev/null; rm -rf "$dir"; }
trap cleanup EXIT

mkdir "$other" || { echo "FAIL: cannot make an instance"; exit 1; }
echo 1 > "$other/events/sched/sched_switch/enable"
"$RQPATH" record -o "$dir/a.dat" --duration 2 -- "$RQPATH" workload spawn --count 100 \
	>/dev/null 2>"$dir/a.err" &
a=$!
"$RQPATH" record -o "$dir/b.dat" --duration 2 -- "$RQPATH" workload spawn --count 100 \
	>/dev/null 2>"$dir/b.err" &
b=$!
wait $a || no "first recording exited $?: $(tail -1 "$dir/a.err")"
wait $b || no "second recording exited $?: $(tail -1 "$dir/b.err")"
for f in a b; do
	n=$("$RQPATH" audit --format csv "$dir/$f.dat" | awk -F, '$1=="count" && $2=="sched_wakeup_new" {print $5}')
	# each recording sees all of its own workload's forks (the other one's may have
	# started before it began)
	[ "${n:-0}" -ge 100 ] || no "$f.dat holds $n forks, want >= 100 (its own workload)"
	echo "$f.dat: $n sched_wakeup_new"
done
[ "$(cat "$other/events/sched/sched_switch/enable")" = 1 ] || no "the other instance's event was disabled"
[ -n "$(head -c 1 "$other/trace" 2>/dev/null)" ] || no "the other instance recorded nothing"
left=$(ls $T/instances | grep '^rqpath-' | while read -r i; do kill -0 "${i##*-}" 2>/dev/null || echo "$i"; done)
[ -z "$left" ] || no "instances left: $left"
echo 0 > "$other/events/sched/sched_switch/enable"
[ $fail -eq 0 ] && echo "PASS"
exit $fail
