# Sourced by every test that needs tracefs (tests/live/lib.sh, the robust and tui tests
# that record): mount it when it is not, so that no test depends on the order the
# tiers run in.  Sets T.  tracefs_ready: 0 when tracefs is usable; otherwise it prints
# why (the caller skips with exit 77 only when that is not root's problem).
T=/sys/kernel/tracing
tracefs_ready() {
	[ -d $T/instances ] && return 0
	if [ "$(id -u)" -ne 0 ]; then
		echo "not root: cannot mount tracefs at $T"
		return 1
	fi
	mount -t tracefs nodev $T 2>/dev/null
	[ -d $T/instances ] && return 0
	echo "tracefs cannot be mounted at $T (kernel without CONFIG_TRACING?)"
	return 1
}

# live_ready: 0 when root and tracefs is usable; otherwise it prints why (the live TUI
# tests skip with exit 77 then).
live_ready() {
	if [ "$(id -u)" -ne 0 ]; then
		echo "not root: live not tested"
		return 1
	fi
	tracefs_ready
}

# rqpath_stale [NAME...]: the rqpath tracefs instances (default: those in $T/instances)
# whose recording is gone, one per line.  rqpath names them rqpath-PID, or
# rqpath-nsINODE-PID when it runs in another pid namespace than the first (INODE: that
# namespace's, PID: its pid there, often 1).  Such a PID says nothing here: the owner is
# gone when no process lives in namespace INODE any more.  Any other rqpath-* name is
# left over by definition.  (The runner's check took the 1 of rqpath-ns...-1 for pid 1
# here, always alive, and lib.sh's matched rqpath-PID only: issue 19 item 7.)
rqpath_stale_names() {
	[ $# -gt 0 ] || set -- $(ls $T/instances 2>/dev/null | grep '^rqpath-')
	_myns=$(readlink /proc/self/ns/pid 2>/dev/null)
	_live_ns=$(for _n in /proc/[0-9]*/ns/pid; do readlink "$_n" 2>/dev/null; done | sort -u)
	for _i in "$@"; do
		_rest=${_i#rqpath-}
		case $_rest in
		ns*-*)
			_ns=${_rest#ns}; _ns=${_ns%%-*}; _pid=${_rest#ns*-}
			case "$_ns-$_pid" in *[!0-9-]*|-*|*-) echo "$_i"; continue ;; esac
			if [ "pid:[$_ns]" = "$_myns" ]; then
				kill -0 "$_pid" 2>/dev/null || echo "$_i"
			else
				echo "$_live_ns" | grep -qxF "pid:[$_ns]" || echo "$_i"
			fi
			;;
		""|*[!0-9]*) echo "$_i" ;;
		*) kill -0 "$_rest" 2>/dev/null || echo "$_i" ;;
		esac
	done
}
# A recording that removed its instance and exited between the listing and the pid test
# is no leftover: what rqpath_stale_names judged gone must still be there afterwards.
rqpath_stale() {
	for _j in $(rqpath_stale_names "$@"); do
		[ -d "$T/instances/$_j" ] && echo "$_j"
	done
}
