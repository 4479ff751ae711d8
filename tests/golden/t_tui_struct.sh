#!/bin/sh
# The TUI's state stays in pieces one can read: struct tui (views/tui.h) and
# struct tui_side (one trace) each have fewer than 30 direct members.  A member is a
# declaration at depth 1 between "struct NAME {" and its "};" (a sub-struct embedded by
# value is one member however many it holds; "bool a, b;" is one declaration).
top=${RQPATH_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$top" || exit 1
max=30
fail=0

# members NAME: the direct member declarations of struct NAME in views/tui.h
members() {
	awk -v name="$1" '
	BEGIN { inside = 0; n = 0 }
	!inside && $0 ~ "^struct " name " \\{" { inside = 1; depth = 0; com = 0 }
	inside {
		line = $0
		for (i = 1; i <= length(line); i++) {
			c = substr(line, i, 1); c2 = substr(line, i, 2)
			if (com) { if (c2 == "*/") { com = 0; i++ } continue }
			if (c2 == "/*") { com = 1; i++; continue }
			if (c2 == "//") break
			if (c == "{") depth++
			else if (c == "}") { depth--; if (depth == 0) { inside = 0; done = 1; break } }
			else if (c == ";" && depth == 1) n++
		}
		if (done) { print n; exit }
	}
	END { if (!done) print -1 }' views/tui.h
}

for s in tui tui_side; do
	n=$(members $s)
	if [ "$n" -lt 1 ]; then
		echo "FAIL: struct $s not found in views/tui.h"
		fail=1
	elif [ "$n" -ge $max ]; then
		echo "FAIL: struct $s has $n direct members (fewer than $max: group them by" \
		     "concern into sub-structs embedded by value)"
		fail=1
	else
		echo "ok: struct $s has $n direct members"
	fi
done
[ $fail -eq 0 ] && echo ok
exit $fail
