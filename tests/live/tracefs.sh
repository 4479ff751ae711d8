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
