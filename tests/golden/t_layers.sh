#!/bin/sh
# src/ is laid out in layers, each a folder: base < input < engine < output < session,
# then the views (views/) and the commands (src/cli/) on top.  A file may include the headers of
# its own layer and of the layers below it, never one above: the Makefile compiles each
# folder with only those -I paths, and this test reads every #include "..." so that a
# header of the same name in two layers, or a relative path, cannot hide a climb.
top=${RQPATH_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$top" || exit 1
fail=0 n=0

rank() {
	case $1 in
	src/base) echo 0 ;; src/input) echo 1 ;; src/engine) echo 2 ;; src/output) echo 3 ;;
	src/session) echo 4 ;; views) echo 5 ;; src/cli) echo 6 ;; *) echo 99 ;;
	esac
}

# every folder of src/ is a known layer
for d in src/*/; do
	d=${d%/}
	[ "$(rank "$d")" -lt 99 ] || { echo "FAIL: $d is no layer (add it to the Makefile and here)"; fail=1; }
done
[ -z "$(ls src/*.c src/*.h 2>/dev/null)" ] || { echo "FAIL: files at the top of src/:" src/*.[ch]; fail=1; }

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
		# the views are the commands' only way into the TUI: tui_main.h alone
		if [ "$1" = views ] && [ "$dir" = src/cli ] && [ "$inc" != tui_main.h ]; then
			echo "FAIL: $f includes views/$inc (the commands see tui_main.h only)"; fail=1
		fi
	done
done
[ $n -gt 100 ] || { echo "FAIL: only $n includes read"; fail=1; }
[ $fail -eq 0 ] && echo "layers: $n includes, none climbs a layer"
exit $fail
