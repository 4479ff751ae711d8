#!/bin/sh
# The terminal is restored on q, Ctrl-C and SIGTERM (typed into a real shell in
# the pane, then `stty -a` must show echo and icanon again); NO_COLOR and a non-UTF-8
# locale give a monochrome, ASCII-only screen.
. "$(dirname "$0")/golden/lib.sh"

restored() {
	# STTYRC=digit: not the typed line (STTYRC=$?), nor RQPATH_TUI_TEST=1 above it
	tm send-keys -t t "stty -a | tr ' ;' '\\n\\n' | grep -x -e echo -e icanon | tr '\\n' ' '; echo STTYRC=\$?" Enter
	wait_for 'STTYRC=[0-9]' 10 || { fail "$1: the shell did not come back"; return; }
	line=$(cap | grep 'STTYRC=[0-9]' | tail -1)
	case "$line" in *icanon*) ;; *) fail "$1: icanon not restored: $line" ;; esac
	case "$line" in *echo\ *) ;; *) fail "$1: echo not restored: $line" ;; esac
	cap | grep -q 'placements by kind' && fail "$1: TUI still on screen"
	tm send-keys -t t 'clear' Enter
	sleep 0.3
}

for how in q C-c; do
	tui_shell 80 24
	tm send-keys -t t "RQPATH_TUI_TEST=1 $RQPATH replay $fixture; echo RC=\$?" Enter
	wait_for ' END ' 60 || { fail "$how: no TUI"; continue; }
	tm send-keys -t t "$how"
	wait_for 'RC=0' 10 || fail "$how: exit status"
	restored "$how"
done

# Esc never quits, not even twice from the first view
tui_start 80 24 -- replay "$fixture"
wait_for ' END ' 60 || exit 1
keys Escape Escape
cap | grep -q 'RQPATH-EXIT=' && fail "Esc Esc quit the TUI"
cap | grep -q 'q quits' || fail "Esc on the first view does not say that q quits"
quit_and_check

# TERM=dumb (no cursor addressing): one line pointing to rqpath audit, exit 2, and
# nothing drawn (no footer left behind)
tui_shell 80 24
tm send-keys -t t "clear; TERM=dumb $RQPATH replay $fixture; echo RC=\$?" Enter
wait_for 'RC=[0-9]' 10 || fail "TERM=dumb: no exit"
cap | grep -q 'RC=2' || fail "TERM=dumb: exit status not 2"
cap | grep -q "TERM=dumb has no cursor addressing; use 'rqpath audit'" || fail "TERM=dumb: no message"
[ "$(cap | grep -c 'rqpath')" -le 2 ] || fail "TERM=dumb: more than the command and one line"
cap | grep -q 'q quit' && fail "TERM=dumb: the footer was drawn"

pidf=/tmp/rqpath-tui-term-$$.pid
trap 'cleanup; rm -f "$pidf"' EXIT INT TERM
# in the foreground (a background job would stop on SIGTTOU first): the shell that execs
# the TUI writes its pid, the test signals it once the TUI is on the screen
signal_ends() {
	tui_shell 80 24
	tm send-keys -t t "sh -c 'echo \$\$ >\"\$2\"; exec env RQPATH_TUI_TEST=1 \"\$0\" replay \"\$1\"' $RQPATH $fixture $pidf; echo RC=\$?" Enter
	wait_for ' END ' 20 || fail "$1: no TUI"
	kill -"${1#SIG}" "$(cat "$pidf")"
	wait_for "RC=[0-9]" 20 || fail "$1: no exit"
	cap | grep -q "RC=$2" && fail "$1 killed the TUI (exit $2) instead of ending it"
	restored "$1"
}
signal_ends SIGTERM 143
# a signal that kills by default (SIGUSR1) ends the replay the same way
signal_ends SIGUSR1 138

# monochrome and ASCII
tui_start 80 24 NO_COLOR=1 LANG=C LC_ALL=C -- replay "$fixture"
wait_for ' END ' 60 || exit 1
settle
cap | LC_ALL=C grep -q '[^ -~]' && fail "non-ASCII output in the C locale"
tm capture-pane -t t -p -e | grep -Eq "$(printf '\033')\\[([0-9;]*;)?(3[0-7]|4[0-7]|38;|48;)" &&
	fail "colors despite NO_COLOR"
golden "dashboard-ascii-80x24"
keys 5; golden "teach-ascii-80x24"
quit_and_check
tui_start 80 24 -- replay "$fixture"
wait_for ' END ' 60 || exit 1
tm capture-pane -t t -p -e | grep -Eq "$(printf '\033')\\[([0-9;]*;)?(3[0-7]|4[0-7]|38;|48;)" ||
	fail "no colors without NO_COLOR"
quit_and_check

# errors before the terminal is touched: one line, exit 2
out=$("$RQPATH" replay /nonexistent.dat 2>&1 </dev/null); rc=$?
[ $rc -eq 2 ] || fail "missing file: exit $rc"
[ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] || fail "missing file: not one line: $out"
out=$("$RQPATH" replay "$top/$fixture" 2>&1 </dev/null >/dev/null); rc=$?
[ $rc -eq 2 ] || fail "no terminal: exit $rc ($out)"
finish
