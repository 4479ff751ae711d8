#!/bin/sh
# A tracefs that rqpath had to mount itself is unmounted when it ends; one that was
# mounted before is left mounted.  Run in a private mount namespace so that the
# machine's own tracefs mount is never touched.
. "$(dirname "$0")/lib.sh"
need unshare

dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
unshare --mount --propagation private sh -c '
	for m in $(awk "\$3 == \"tracefs\" { print \$2 }" /proc/self/mounts | sort -r); do
		umount "$m" || exit 99
	done
	grep -q " tracefs " /proc/self/mounts && exit 98
	"$0" record -o "$1/a.dat" --duration 0.3 2>"$1/a.err" || exit 97
	awk "\$3 == \"tracefs\"" /proc/self/mounts >"$1/after-own"
	mount -t tracefs nodev /sys/kernel/tracing || exit 96
	"$0" record -o "$1/b.dat" --duration 0.3 2>"$1/b.err" || exit 95
	awk "\$3 == \"tracefs\"" /proc/self/mounts >"$1/after-theirs"
' "$RQPATH" "$dir"
rc=$?
cat "$dir"/a.err "$dir"/b.err 2>/dev/null | grep -v counts
[ $rc -eq 0 ] || no "the private-namespace run failed at step $rc"
[ -s "$dir/after-own" ] && no "the tracefs rqpath mounted is still mounted: $(cat "$dir/after-own")"
[ -s "$dir/after-theirs" ] || no "a tracefs mounted before rqpath was unmounted"
[ -f "$dir/a.dat" ] || no "no recording from the run that mounted tracefs"

[ $fail -eq 0 ] && echo "PASS"
exit $fail
