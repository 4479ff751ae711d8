#!/bin/sh
# src/ is laid out in layers, each a folder: base < input < engine < output < session,
# then the views (views/) and the commands (src/cli/) on top.  A file may include the headers of
# its own layer and of the layers below it, never one above: the Makefile compiles each
# folder with only those -I paths, and this test reads every #include "..." so that a
# header of the same name in two layers, or a relative path, cannot hide a climb.
# The engine's headers are private but for its public ones (analysis.h, delay.h): engine.h
# and each part's own (model.h, cpubits.h, ...) are included by files of src/engine/ alone
# (tests/unit may look inside; this test reads src/ and views/ only).  Likewise the
# session is the one way to read a trace: replay.h is src/session/'s own.
# The test then plants includes of engine.h, model.h and replay.h in copies of a session, an
# output and a view file and must see all three refused, so that it cannot pass by checking
# nothing.
top=${RQPATH_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
# the headers of src/engine/ that the layers above may include; every other is private
engine_public="analysis.h delay.h"
# the headers of src/session/ that only its own files may include
session_private="replay.h"

rank() {
	case $1 in
	src/base) echo 0 ;; src/input) echo 1 ;; src/engine) echo 2 ;; src/output) echo 3 ;;
	src/session) echo 4 ;; views) echo 5 ;; src/cli) echo 6 ;; *) echo 99 ;;
	esac
}

# check TREE: prints one FAIL line per breach, exit 1 if any
check() (
	cd "$1" || exit 1
	fail=0 n=0
	# every folder of src/ is a known layer
	for d in src/*/; do
		d=${d%/}
		[ "$(rank "$d")" -lt 99 ] ||
			{ echo "FAIL: $d is no layer (add it to the Makefile and here)"; fail=1; }
	done
	[ -z "$(ls src/*.c src/*.h 2>/dev/null)" ] ||
		{ echo "FAIL: files at the top of src/:" src/*.[ch]; fail=1; }
	for p in $engine_public; do
		[ -f "src/engine/$p" ] || { echo "FAIL: no public engine header src/engine/$p"; fail=1; }
	done

	for f in src/*/*.[ch] src/*/*.def views/*.[ch]; do
		dir=${f%/*}
		own=$(rank "$dir")
		for inc in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f"); do
			n=$((n + 1))
			case $inc in
			*/*) echo "FAIL: $f includes $inc by a path (layers are found by -I)"; fail=1; continue ;;
			esac
			# bpftool's skeletons are generated into the build directory (Makefile: BPF)
			case $inc in *.skel.h) continue ;; esac
			where=""
			for d in src/base src/input src/engine src/output src/session views src/cli; do
				[ -f "$d/$inc" ] && where="$where $d"
			done
			[ -n "$where" ] || { echo "FAIL: $f includes $inc, found in no layer"; fail=1; continue; }
			set -- $where
			[ $# -eq 1 ] || { echo "FAIL: $inc is in several layers:$where"; fail=1; continue; }
			if [ "$(rank "$1")" -gt "$own" ]; then
				echo "FAIL: $f ($dir) includes $1/$inc, a layer above it"; fail=1
			fi
			# the engine's private headers: its own files alone
			if [ "$1" = src/engine ] && [ "$dir" != src/engine ] &&
			   ! echo " $engine_public " | grep -qF " $inc "; then
				echo "FAIL: $f includes src/engine/$inc, private to the engine" \
					"(its public headers: $engine_public)"
				fail=1
			fi
			# a trace is read through a session: its replay is its own
			if [ "$1" = src/session ] && [ "$dir" != src/session ] &&
			   echo " $session_private " | grep -qF " $inc "; then
				echo "FAIL: $f includes src/session/$inc, private to the session" \
					"(read a trace through session.h)"
				fail=1
			fi
			# the views are the commands' only way into the TUI: tui_main.h alone
			if [ "$1" = views ] && [ "$dir" = src/cli ] && [ "$inc" != tui_main.h ]; then
				echo "FAIL: $f includes views/$inc (the commands see tui_main.h only)"; fail=1
			fi
		done
	done
	[ $n -gt 100 ] || { echo "FAIL: only $n includes read"; fail=1; }
	[ $fail -eq 0 ] && echo "$n"
	exit $fail
)

n=$(check "$top") || { echo "$n"; exit 1; }

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cp -R "$top/src" "$top/views" "$tmp/" || exit 1
printf '#include "engine.h"\n' >>"$tmp/src/session/replay.c"
printf '#include "model.h"\n' >>"$tmp/src/output/report.c"
printf '#include "replay.h"\n' >>"$tmp/views/evidence.c"
out=$(check "$tmp")
for planted in "src/session/replay.c includes src/engine/engine.h" \
	       "src/output/report.c includes src/engine/model.h" \
	       "views/evidence.c includes src/session/replay.h"; do
	echo "$out" | grep -qF "FAIL: $planted, private" ||
		{ echo "FAIL: the planted include ($planted) was not refused"; exit 1; }
done
[ "$(echo "$out" | grep -c '^FAIL')" -eq 3 ] ||
	{ echo "FAIL: the planted copy was refused for more than the three plants:"; echo "$out"; exit 1; }
echo "layers: $n includes, none climbs a layer, none of the engine's or the session's" \
	"private headers outside their folder (planted ones are seen)"
