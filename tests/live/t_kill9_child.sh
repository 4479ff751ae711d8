#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# After `kill -9` of rqpath (no handler runs) the command it started dies with it: the
# child asks for SIGKILL when its parent dies (PR_SET_PDEATHSIG, after the change of
# user that would clear it), as root and as --user nobody.  The instance the killed
# rqpath leaves is removed here.  Red on main 461bcf6: the command went on running,
# orphaned.
. "$(dirname "$0")/lib.sh"
dir=$(mktemp -d) || exit 1
chmod 755 "$dir"
trap 'rm -rf "$dir"' EXIT

# run_kill TAG [record options]: record -- a sleeper, kill -9 rqpath, the sleeper must go
run_kill() {
	tag=$1; shift
	# a sleeper with a name of its own, so that it can be found
	cp /bin/sleep "$dir/rqsl-$tag"
	chmod 755 "$dir/rqsl-$tag"
	"$RQPATH" record -q -o "$dir/$tag.dat" "$@" -- "$dir/rqsl-$tag" 60 \
		</dev/null >/dev/null 2>&1 &
	r=$!
	i=0
	while [ $i -lt 100 ] && ! pgrep -x "rqsl-$tag" >/dev/null; do
		sleep 0.1; i=$((i + 1))
	done
	pgrep -x "rqsl-$tag" >/dev/null || { no "$tag: the command never started"; }
	kill -9 $r
	wait $r 2>/dev/null
	i=0
	while [ $i -lt 50 ] && pgrep -x "rqsl-$tag" >/dev/null; do
		sleep 0.1; i=$((i + 1))
	done
	if pgrep -x "rqsl-$tag" >/dev/null; then
		no "$tag: the command outlived kill -9 of rqpath"
		pkill -9 -x "rqsl-$tag"
	fi
	# the instance the killed recorder left
	[ -d "$T/instances/rqpath-$r" ] && rmdir "$T/instances/rqpath-$r"
	rm -f "$dir/$tag".dat.*
}
run_kill root
id nobody >/dev/null 2>&1 && run_kill nobody --user nobody

[ -z "$(stale)" ] || no "instances left: $(stale)"
[ $fail -eq 0 ] && echo PASS
exit $fail
