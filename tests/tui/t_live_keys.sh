#!/bin/sh
# rqpath live answers a key within 10 ms (median, target 20 ms; issue: ~100 ms, keys were read only at
# the recorder's 100 ms tick): the live loop waits in poll() on the terminal and the
# ring buffers, handles a key first and draws its screen before pumping records.  Timed on a pty by
# tests/tools/keylat.py (no tmux), with the plain build.  A machine loaded far beyond its
# CPUs (load above 3 per CPU) cannot time it honestly: then the test skips and says so.
top=${RQPATH_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
bin=${RQPATH_PLAIN:-$top/rqpath}
if [ "$(id -u)" -ne 0 ]; then
	echo "not root: live not tested"
	exit 77
fi
if ! [ -d /sys/kernel/tracing/events/sched ] && ! mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null; then
	echo "tracefs not available: live not tested"
	exit 77
fi
ncpu=$(nproc)
load=$(cut -d' ' -f1 /proc/loadavg)
if awk -v l="$load" -v n="$ncpu" 'BEGIN { exit !(l > 3 * n) }'; then
	echo "load average $load on $ncpu CPUs: too busy to time 20 ms key answers"
	exit 77
fi
out=$(python3 "$top/tests/tools/keylat.py" 10 "$bin" live 2>&1) || {
	echo "FAIL: $out"; exit 1; }
printf '%s\n' "$out"
median=$(printf '%s\n' "$out" | awk '$1 == "median" { print $2 }')
awk -v m="$median" 'BEGIN { exit !(m <= 10) }' || {
	echo "FAIL: median key-to-screen $median ms in live mode, want <= 10 ms (the target is 20; the old 20-100 ms tick gave 13-50)"; exit 1; }
echo "all checks passed"
