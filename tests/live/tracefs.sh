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
