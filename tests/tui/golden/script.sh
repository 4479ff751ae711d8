# Shared helpers for the in-process screen tests (POSIX sh; sourced, not run).
# RQPATH_TUI_SCRIPT feeds keys from a file, one step a line, and the TUI dumps its
# screen after each step once it is at rest (views/script.c): no terminal, no tmux, no
# sleeps.  A test names its steps, runs the script once, then looks at screens by name.
#
#   step NAME KEYS       add a step (keys: a b <Enter> <Esc> <Down> <C-c> ...; or
#                        ":resize WxH", ":dump"); NAME "-" for a step not looked at
#   run_script [VAR=VALUE...] -- ARGS...   run rqpath ARGS on the steps; sets $rc
#   screen NAME          print the screen after step NAME
#   golden NAME          compare screen NAME with golden/NAME.txt (UPDATE_GOLDEN=1 writes)
#   has NAME REGEX MSG   fail with MSG unless screen NAME matches (grep -E)
#   hasnt NAME REGEX MSG fail with MSG if it does
#   row NAME N           print row N (1-based; row 1 is the title) of screen NAME

top=${RQPATH_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
: "${RQPATH:=$top/build/rqpath}"
golden=$top/tests/tui/golden
fixture=fixtures/spawn.dat	# relative: the path is shown on screen
failures=0
work=$(mktemp -d /tmp/rqpath-tui-XXXXXX)
trap 'rm -rf "$work"' EXIT INT TERM
: >"$work/script"
: >"$work/names"

if [ ! -x "$RQPATH" ]; then
	echo "no rqpath binary at $RQPATH"
	exit 1
fi

fail() {
	echo "FAIL: $*"
	failures=$((failures + 1))
}

script_reset() {
	: >"$work/script"
	: >"$work/names"
}

step() {
	printf '%s\n' "$1" >>"$work/names"
	printf '%s\n' "$2" >>"$work/script"
}

# steps PREFIX N KEYS: N steps named PREFIX0 .. PREFIX<N-1>, each sending KEYS
steps() {
	_i=0
	while [ $_i -lt "$2" ]; do
		step "$1$_i" "$3"
		_i=$((_i + 1))
	done
}

run_script() {
	envs=""
	while [ $# -gt 0 ] && [ "$1" != "--" ]; do
		envs="$envs $1"
		shift
	done
	[ "$1" = "--" ] && shift
	# shellcheck disable=SC2086
	(cd "$top" && env LANG=C.UTF-8 LC_ALL= RQPATH_TUI_SIZE=80x24 $envs \
		RQPATH_TUI_SCRIPT="$work/script" RQPATH_TUI_DUMP="$work/dump" \
		"$RQPATH" "$@" >"$work/out" 2>"$work/err")
	rc=$?
	[ -s "$work/err" ] && { echo "stderr of rqpath $*:"; cat "$work/err"; }
	return 0
}

screen() {
	n=$(grep -nx -- "$1" "$work/names" | head -1 | cut -d: -f1)
	[ -n "$n" ] || { echo "no step named $1" >&2; return 1; }
	awk -v n="$n" '/^=== [0-9]+: / { split($2, a, ":"); f = (a[1] == n); next } f' \
		"$work/dump"
}

row() {
	screen "$1" | sed -n "${2}p"
}

has() {
	screen "$1" | grep -Eq -- "$2" || { fail "$3"; screen "$1"; }
}

hasnt() {
	screen "$1" | grep -Eq -- "$2" && { fail "$3"; screen "$1"; }
	return 0
}

golden() {
	out=$(screen "$1") || { fail "no screen $1"; return 1; }
	if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then
		printf '%s\n' "$out" >"$golden/$1.txt"
		echo "updated $1"
		return 0
	fi
	if [ ! -f "$golden/$1.txt" ]; then
		fail "no golden file $1.txt (run with UPDATE_GOLDEN=1 and review it)"
		return 1
	fi
	if ! printf '%s\n' "$out" | diff -u "$golden/$1.txt" -; then
		fail "screen $1 differs from the golden file"
		return 1
	fi
	echo "ok   $1"
}

finish() {
	if [ $failures -ne 0 ]; then
		echo "$failures check(s) failed"
		exit 1
	fi
	echo "all checks passed"
	exit 0
}
