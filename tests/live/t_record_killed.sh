#!/bin/sh
# A recording killed outright (kill -9, the OOM killer) is not lost (issue 19 item 4):
# `record -o FILE` and `live -o FILE` write FILE.XXXXXX beside FILE from the start, a
# trace.dat whose CPU table follows every read round, renamed to FILE at the end.  While
# it grows and after kill -9 it audits (exit 0) with one warning that the recording was
# cut; trace-cmd report opens it; FILE itself is not created.  A finished recording has
# no such warning and leaves no FILE.XXXXXX.  Red on c0243a9 (the recording was a file
# without a name: nothing was left).
. "$(dirname "$0")/lib.sh"
need trace-cmd

dir=$(mktemp -d) || exit 1
chmod 755 "$dir"
trap 'rm -rf "$dir"' EXIT

# $1: what, $2: the -o FILE of a run just killed
check_cut() {
	[ -e "$2" ] && no "$1: $2 exists after kill -9 (the rename is the end's)"
	left=$(ls "$2".* 2>/dev/null | head -1)
	[ -n "$left" ] || { no "$1: nothing left beside $2 after kill -9"; return; }
	"$RQPATH" audit "$left" >"$dir/a.out" 2>"$dir/a.err" || no "$1: audit of $left: exit $?"
	cat "$dir/a.err"
	grep -q 'recording was cut' "$dir/a.err" || no "$1: the audit does not say it was cut"
	n=$(sed -n 's/.* CPUs, \([0-9]*\) events.*/\1/p' "$dir/a.out")
	echo "$1: $left holds ${n:-no} events"
	[ "${n:-0}" -gt 100 ] || no "$1: $left holds ${n:-no} events"
	trace-cmd report "$left" >/dev/null 2>&1 || no "$1: trace-cmd report cannot open $left"
	rm -f "$left"
}

# record -o, killed while its command runs (file versions 6 and 7)
for v in 6 7; do
"$RQPATH" record -q --file-version $v -o "$dir/r.dat" -- sleep 30 &
p=$!
sleep 2.5
child=$(pgrep -P $p sleep | head -1)
# readable while it grows
grow=$(ls "$dir"/r.dat.* 2>/dev/null | head -1)
if [ -n "$grow" ]; then
	"$RQPATH" audit "$grow" >/dev/null 2>"$dir/g.err" ||
		{ no "record v$v: the growing file does not audit"; cat "$dir/g.err"; }
else
	no "record v$v: no file beside r.dat while recording"
fi
kill -9 $p
wait $p 2>/dev/null
[ -n "$child" ] && kill "$child" 2>/dev/null
check_cut "record v$v" "$dir/r.dat"
done

# live -o, killed while its TUI runs (in-process script: no terminal needed)
i=0
while [ $i -lt 400 ]; do echo ":dump"; i=$((i + 1)); done >"$dir/script"
RQPATH_TUI_SCRIPT="$dir/script" RQPATH_TUI_DUMP=/dev/null RQPATH_TUI_SIZE=80x24 \
	"$RQPATH" live -o "$dir/l.dat" >/dev/null 2>&1 &
p=$!
sleep 3
kill -9 $p
wait $p 2>/dev/null
check_cut "live" "$dir/l.dat"

# finished: no warning, nothing left beside it, and the next run removes the instances
"$RQPATH" record -q -o "$dir/f.dat" --duration 0.5 || no "record --duration 0.5 failed"
"$RQPATH" audit "$dir/f.dat" >/dev/null 2>"$dir/f.err" || no "audit of a finished recording failed"
[ -s "$dir/f.err" ] && { no "a finished recording warns:"; cat "$dir/f.err"; }
ls "$dir"/f.dat.* >/dev/null 2>&1 && no "a finished recording left $(ls "$dir"/f.dat.*)"
[ -z "$(stale)" ] || no "instances left: $(stale)"
[ $fail -eq 0 ] && echo PASS
exit $fail
