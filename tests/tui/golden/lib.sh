# Shared helpers for tests/tui/t_*.sh (POSIX sh; sourced, not run).
# Kept beside the golden screens it writes.  Each test gets its own tmux server
# (-L socket), so tests never touch a user's tmux or each other.
#
#   RQPATH        binary under test (default: $RQPATH_TOP/build/rqpath)
#   RQPATH_TOP    repository root
#   UPDATE_GOLDEN=1  rewrite the golden files instead of comparing (review them!)

top=${RQPATH_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
: "${RQPATH:=$top/build/rqpath}"
golden=$top/tests/tui/golden
fixture=fixtures/spawn.dat	# relative: the path is shown on screen
failures=0

if ! command -v tmux >/dev/null 2>&1; then
	echo "tmux is not installed: the TUI tests need it"
	exit 77
fi
if [ ! -x "$RQPATH" ]; then
	echo "no rqpath binary at $RQPATH"
	exit 1
fi

sock="rqpath-tui-$$"
tm() { tmux -L "$sock" -f /dev/null "$@"; }
cleanup() { tm kill-server >/dev/null 2>&1; }
trap cleanup EXIT INT TERM
# a session that outlives the test's own, so the server never exits in between
tm new-session -d -s keep -x 80 -y 24 "sleep 3600"

fail() {
	echo "FAIL: $*"
	failures=$((failures + 1))
}

# tui_start W H ENV... -- ARGS...: run rqpath ARGS in a fresh W x H session "t";
# the pane keeps the exit status visible afterwards.
tui_start() {
	w=$1 h=$2
	shift 2
	envs=""
	while [ $# -gt 0 ] && [ "$1" != "--" ]; do
		envs="$envs $1"
		shift
	done
	[ "$1" = "--" ] && shift
	tm kill-session -t t >/dev/null 2>&1
	tm new-session -d -s t -x "$w" -y "$h" -c "$top" \
		"env LANG=C.UTF-8 LC_ALL= RQPATH_TUI_TEST=1 $envs $RQPATH $*; echo RQPATH-EXIT=\$?; sleep 600"
	tm set-option -t t window-size manual >/dev/null 2>&1
}

# tui_shell W H: a plain shell in session "t", to type commands into.
tui_shell() {
	tm kill-session -t t >/dev/null 2>&1
	tm new-session -d -s t -x "$1" -y "$2" -c "$top" "env PS1='$ ' LANG=C.UTF-8 sh"
	tm set-option -t t window-size manual >/dev/null 2>&1
}

cap() { tm capture-pane -t t -p; }

# wait_for PATTERN [SECONDS]: until the screen matches (grep -E).
wait_for() {
	n=$(( ${2:-20} * 10 ))
	while [ $n -gt 0 ]; do
		cap | grep -Eq -- "$1" && return 0
		sleep 0.1
		n=$((n - 1))
	done
	echo "timeout waiting for: $1"
	cap
	return 1
}

# settle: until two captures 0.2 s apart agree.
settle() {
	prev=""
	i=0
	while [ $i -lt 50 ]; do
		cur=$(cap)
		[ -n "$prev" ] && [ "$cur" = "$prev" ] && return 0
		prev=$cur
		sleep 0.2
		i=$((i + 1))
	done
}

keys() {
	for k in "$@"; do
		tm send-keys -t t "$k"
		sleep 0.15
	done
	settle
}

resize() {
	tm resize-window -t t -x "$1" -y "$2"
	sleep 0.3
	settle
}

# golden NAME: compare the screen with golden/NAME.txt (or write it).
golden() {
	out=$(cap)
	if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then
		printf '%s\n' "$out" >"$golden/$1.txt"
		echo "updated $1"
		return 0
	fi
	if [ ! -f "$golden/$1.txt" ]; then
		fail "no golden file $1.txt (run with UPDATE_GOLDEN=1 and review it)"
		return 1
	fi
	if ! printf '%s\n' "$out" | diff -u "$golden/$1.txt" - >/tmp/rqpath-tui-diff.$$; then
		fail "screen $1 differs from the golden file:"
		cat /tmp/rqpath-tui-diff.$$
		rm -f /tmp/rqpath-tui-diff.$$
		return 1
	fi
	rm -f /tmp/rqpath-tui-diff.$$
	echo "ok   $1"
}

# quit_and_check: q, then the pane must show the exit status 0.
quit_and_check() {
	keys q
	wait_for 'RQPATH-EXIT=' 10 || { fail "did not exit on q"; return 1; }
	cap | grep -q 'RQPATH-EXIT=0' || { fail "exit status not 0"; cap; return 1; }
}

finish() {
	if [ $failures -ne 0 ]; then
		echo "$failures check(s) failed"
		exit 1
	fi
	echo "all checks passed"
	exit 0
}
