#!/bin/sh
# The same recording as trace.dat version 7 (NAME.dat) and version 6 (NAME.v6.dat,
# made by `trace-cmd convert`) gives the same audit, in every format, but for the name.
top=${RQPATH_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
n=0 fail=0
for v6 in "$top"/fixtures/*.v6.dat; do
	[ -f "$v6" ] || continue
	v7=${v6%.v6.dat}.dat
	[ -f "$v7" ] || continue
	for fmt in json csv text; do
		# rqpath's own exit status, not sed's: an audit that fails must fail here
		for v in 7 6; do
			[ $v = 7 ] && f=$v7 || f=$v6
			if ! "$RQPATH" audit --format $fmt "$f" >"$tmp/raw$v" 2>"$tmp/err$v"; then
				echo "FAIL: audit --format $fmt $(basename "$f") exited $?:"
				head -3 "$tmp/err$v"
				fail=1
			fi
			[ -s "$tmp/raw$v" ] || { echo "FAIL: audit --format $fmt $(basename "$f"): no output"; fail=1; }
			sed "s|$f|TRACE|g" "$tmp/raw$v" >"$tmp/$v"
		done
		if ! cmp -s "$tmp/6" "$tmp/7"; then
			echo "FAIL: $(basename "$v7") v6 and v7 differ ($fmt):"; diff "$tmp/6" "$tmp/7" | head -5
			fail=1
		fi
	done
	n=$((n + 1))
done
[ $n -gt 0 ] || { echo "FAIL: no fixture pairs NAME.dat / NAME.v6.dat"; exit 1; }
[ $fail -eq 0 ] && echo "v6 and v7 give identical audits for $n fixtures"
exit $fail
