#!/bin/sh
# The command's fate is part of rqpath's exit status: a command that exits non-zero
# or dies of a signal makes `record` and `audit --live` exit 2 with one line
# ("CMD exited with status N", "CMD was killed by SIGSEGV"), the recording and the
# report still made.  The command runs as the user who ran sudo (SUDO_UID/SUDO_GID) or
# --user NAME, and on a terminal in the foreground (it can read it).  --duration must
# be finite and > 0.  audit --live keeps no named temporary file while it runs.
. "$(dirname "$0")/lib.sh"
need trace-cmd

dir=$(mktemp -d) || exit 1
chmod 755 "$dir"
trap 'rm -rf "$dir"' EXIT
# $1: exit status wanted, $2: text wanted in the one "rqpath: " error line (or "")
expect() {
	want=$1 text=$2; shift 2
	timeout -s INT "${RQ_TIMEOUT:-60}" "$@" >"$dir/o" 2>"$dir/e"
	rc=$?
	echo "\$ $* -> exit $rc: $(grep -v 'counts:\|recorded\|sources:' "$dir/e")"
	[ $rc -eq "$want" ] || no "$*: exit $rc, want $want"
	if [ -n "$text" ]; then
		[ "$(grep -v 'counts:\|recorded\|sources:' "$dir/e" | grep -c '^rqpath: ')" -eq 1 ] ||
			no "$*: want one error line"
		grep -q "^rqpath: .*$text" "$dir/e" || no "$*: message lacks '$text'"
	fi
}

expect 2 'sh exited with status 3' "$RQPATH" record -o "$dir/a.dat" -- sh -c 'exit 3'
trace-cmd report "$dir/a.dat" >/dev/null 2>&1 || no "the recording of a failed command is not kept"
expect 2 'sh was killed by SIGSEGV' "$RQPATH" record -o "$dir/b.dat" -- sh -c 'kill -SEGV $$'
expect 0 '' "$RQPATH" record -o "$dir/c.dat" -- true
# rqpath ending the command (duration) is not the command's failure
expect 0 '' "$RQPATH" record -o "$dir/d.dat" --duration 0.5 -- sleep 30
expect 2 'audit: sh exited with status 3' "$RQPATH" audit --live -- sh -c 'exit 3'
grep -q 'rqpath audit of live' "$dir/o" || no "audit --live of a failing command printed no report"
expect 2 'killed by SIGSEGV' "$RQPATH" audit --live --format json -- sh -c 'kill -SEGV $$'
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$dir/o" || no "no JSON report"
expect 0 '' "$RQPATH" audit --live -- true

for d in nan inf -inf -1 0 1e999 x; do
	expect 2 'duration' "$RQPATH" record -o "$dir/n.dat" --duration "$d"
	expect 2 'duration' "$RQPATH" audit --live --duration "$d"
done
[ -e "$dir/n.dat" ] && no "a bad --duration created its output"

# as whom the command runs
if id nobody >/dev/null 2>&1; then
	nid="$(id -u nobody):$(id -g nobody)"
	"$RQPATH" record -o "$dir/u.dat" --user nobody -- sh -c 'echo "$(id -u):$(id -g)"' \
		>"$dir/u.out" 2>/dev/null || no "--user nobody: exit $?"
	[ "$(cat "$dir/u.out")" = "$nid" ] || no "--user nobody ran the command as $(cat "$dir/u.out")"
	SUDO_UID=$(id -u nobody) SUDO_GID=$(id -g nobody) SUDO_USER=nobody \
		"$RQPATH" record -o "$dir/s.dat" -- sh -c 'echo "$(id -u):$(id -g)"' \
		>"$dir/s.out" 2>/dev/null || no "sudo: exit $?"
	[ "$(cat "$dir/s.out")" = "$nid" ] || no "under sudo the command ran as $(cat "$dir/s.out")"
	SUDO_UID=$(id -u nobody) SUDO_GID=$(id -g nobody) "$RQPATH" audit --live -- \
		sh -c 'echo "$(id -u):$(id -g)" >&2' 2>"$dir/s2.err" >/dev/null || no "sudo audit: exit $?"
	grep -qx "$nid" "$dir/s2.err" || no "under sudo audit --live ran the command as root"
	env -u SUDO_UID -u SUDO_GID -u SUDO_USER "$RQPATH" record -o "$dir/r.dat" -- sh -c 'id -u' >"$dir/r.out" 2>/dev/null
	[ "$(cat "$dir/r.out")" = 0 ] || no "without sudo the command did not run as root"
	expect 2 'no such user' "$RQPATH" record -o "$dir/x.dat" --user no-such-user-rq -- true
fi

# on a terminal the command is in the foreground: it can read the terminal
if command -v script >/dev/null; then
	printf 'hello\n' | timeout 20 script -qec "$RQPATH record -o $dir/t.dat -- sh -c 'read l; echo got=\$l'" \
		/dev/null >"$dir/tty.out" 2>&1
	grep -q 'got=hello' "$dir/tty.out" || no "the command could not read the terminal: $(cat "$dir/tty.out")"
	# ^Z: the command stops, rqpath stops with it (the terminal back to the shell); on
	# SIGCONT it hands the terminal over again and resumes the command
	timeout 30 script -qec "$RQPATH record -o $dir/z.dat -- sh -c 'kill -STOP \$\$; echo resumed'; echo rc=\$?" \
		/dev/null >"$dir/z.out" 2>&1 </dev/null &
	z=$!
	i=0
	while [ $i -lt 100 ]; do
		r=$(pgrep -f "^$RQPATH record -o $dir/z.dat" | head -1)
		[ -n "$r" ] && [ "$(ps -o stat= -p "$r" | cut -c1)" = T ] && break
		sleep 0.1; i=$((i + 1))
	done
	[ -n "$r" ] && [ "$(ps -o stat= -p "$r" | cut -c1)" = T ] || no "rqpath did not stop with its stopped command"
	[ -n "$r" ] && kill -CONT "$r"
	wait $z
	grep -q resumed "$dir/z.out" && grep -q 'rc=0' "$dir/z.out" ||
		no "the command was not resumed after SIGCONT: $(cat "$dir/z.out")"
fi

# audit --live: no named temporary trace while it records
"$RQPATH" audit --live -- sleep 2 >/dev/null 2>&1 &
a=$!
sleep 1
ls /tmp/rqpath-audit-* "${TMPDIR:-/tmp}"/rqpath-audit-* 2>/dev/null | grep . && no "audit --live has a named temporary file"
wait $a
[ -n "$(stale)" ] && no "instance left: $(stale)"

[ $fail -eq 0 ] && echo "PASS"
exit $fail
