# Shared by the live tests (sourced, not run): skip with the reason (exit 77) unless
# root with tracefs; fail/no() to collect failures; stale() lists rqpath-<pid> instances
# and rqpath-nsINODE-PID instances whose recording is gone (rqpath_stale, tracefs.sh;
# other live rqpath runs may be going on at the same time).
: "${RQPATH:?RQPATH must name the rqpath binary to test}"
. "$(dirname "$0")/tracefs.sh"
if [ "$(id -u)" -ne 0 ]; then echo "skip: live tests need root"; exit 77; fi
tracefs_ready || exit 77
fail=0
no() { echo "FAIL: $*"; fail=1; }
need() {
	command -v "$1" >/dev/null || { echo "skip: $1 is not installed"; exit 77; }
}
# left by this test: stale now and not when it began (a recording killed elsewhere on
# the machine, before, is not this test's)
stale_at_start=$(rqpath_stale)
stale() {
	for _s in $(rqpath_stale); do
		echo "$stale_at_start" | grep -qxF "$_s" || echo "$_s"
	done
}
