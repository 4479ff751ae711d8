#!/bin/sh
# record -o - (issue 22 item 8): the trace.dat goes to stdout once the recording ends,
# whole and readable (trace-cmd report and rqpath audit agree with a file recorded the
# same way); what CMD prints goes to stderr, never into the trace; no file named "-" is
# made; a terminal as stdout is refused (one line, exit 2).
. "$(dirname "$0")/lib.sh"
need trace-cmd

dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
"$RQPATH" record -q -o - -- sh -c 'echo from-cmd; sleep 0.2' >"$dir/out.dat" 2>"$dir/err"
rc=$?
[ $rc -eq 0 ] || no "record -o -: exit $rc: $(cat "$dir/err")"
[ -e "$dir/-" ] && no "record -o - wrote a file named '-'"
grep -q from-cmd "$dir/err" || no "CMD's stdout did not go to stderr"
grep -aq from-cmd "$dir/out.dat" && no "CMD's stdout went into the trace"
trace-cmd report -i "$dir/out.dat" >"$dir/report" 2>&1 || no "trace-cmd report cannot read it"
grep -q 'sched_switch' "$dir/report" || no "the trace on stdout has no sched_switch"
"$RQPATH" audit "$dir/out.dat" >/dev/null 2>"$dir/aerr"; rc=$?
[ $rc -le 1 ] || no "rqpath audit of the trace from stdout: exit $rc: $(cat "$dir/aerr")"
[ -z "$(stale)" ] || no "instances left: $(stale)"
# stdout on a terminal: refused before recording (script(1) gives a pty)
if command -v script >/dev/null 2>&1; then
	script -qec "$RQPATH record -o - --duration 0.1" /dev/null >"$dir/tty" 2>&1
	grep -q "standard output, which is a terminal" "$dir/tty" || no "a terminal stdout was not refused: $(cat "$dir/tty")"
fi
[ $fail -eq 0 ] && echo "ok: record -o - writes the trace to stdout"
exit $fail
