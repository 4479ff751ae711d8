#!/bin/sh
# src/ is a library: build/librqpath.a alone (no views, no command line, no curses)
# links into a small program whose report equals `rqpath audit`'s; the archive defines
# and references no command (cmd_*), no rq_error and nothing of curses, and exports only
# rq_-prefixed functions; src/ never mentions curses.
top=${RQPATH_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
build=${RQPATH_BUILD:-$top/build}
lib=$build/librqpath.a
cc=${CC:-cc}
pkgs="libtracefs libtraceevent libbsd libzstd zlib"
# built with the BPF side (kernel truth, Makefile BPF=1), the library needs libbpf too
nm -u "$lib" 2>/dev/null | grep -q ' bpf_object__\| ring_buffer__' && pkgs="$pkgs libbpf"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
cd "$top" || exit 1
[ -f "$lib" ] || { echo "FAIL: no $lib (make first)"; exit 1; }

# 1. the archive holds no command and no error printer, defined or referenced
bad=$(nm "$lib" | awk '$NF ~ /^(cmd_|rq_error$)/ { print $NF }' | sort -u)
[ -z "$bad" ] || { echo "FAIL: librqpath.a has command-line symbols:" $bad; fail=1; }

# 1b. every global symbol it defines (functions, data) is rq_-prefixed (the engine's cross-file
# helpers are rqe_, anything else is static)
bad=$(nm "$lib" | awk '$2 ~ /^[BCDGRSTVW]$/ && $NF !~ /^rqe?_/ { print $NF }' | sort -u)
[ -z "$bad" ] || { echo "FAIL: librqpath.a defines unprefixed global symbols:" $bad; fail=1; }

# 2. nothing it needs from outside comes from curses or terminfo
nm -u "$lib" | awk '{ print $NF }' | sort -u >"$tmp/undef"
for l in ncursesw tinfo; do
	so=$($cc -print-file-name=lib$l.so.6)
	[ -f "$so" ] || continue
	so=$(readlink -f "$so")
	nm -D --defined-only "$so" | awk '{ sub(/@.*/, "", $NF); print $NF }' | sort -u >"$tmp/$l"
	hits=$(comm -12 "$tmp/undef" "$tmp/$l" | head -5)
	[ -z "$hits" ] || { echo "FAIL: librqpath.a uses lib$l:" $hits; fail=1; }
done
# the same, by name, in case the shared objects are missing
if grep -Eq '^(initscr|endwin|wgetch|stdscr|newterm|tigetstr|setupterm)$' "$tmp/undef"; then
	echo "FAIL: librqpath.a references curses"; fail=1
fi

# 3. src/ (the library and the command line) never names curses
if grep -rn curses src/; then
	echo "FAIL: src/ mentions curses"; fail=1
fi

# 4. a program linked against the library alone (no views archive, no -lncursesw)
# shellcheck disable=SC2046
if ! $cc -std=gnu11 -D_GNU_SOURCE -Wall -Isrc/base -Isrc/input -Isrc/engine -Isrc/output \
	-Isrc/session \
	$(pkg-config --cflags $pkgs) \
	-o "$tmp/user" tests/golden/library_user.c "$lib" $(pkg-config --libs $pkgs) -lm \
	2>"$tmp/link.err"; then
	echo "FAIL: a program does not link against librqpath.a alone:"
	head -20 "$tmp/link.err"
	exit 1
fi
n=0
for dat in fixtures/spawn.dat fixtures/execl-pinned.dat; do
	for fmt in json text csv; do
		"$tmp/user" "$dat" $fmt >"$tmp/lib.out" 2>&1 || {
			echo "FAIL: library_user $dat $fmt exit $?"; cat "$tmp/lib.out"; fail=1; continue; }
		"${RQPATH_PLAIN:-$top/rqpath}" audit --format $fmt "$dat" >"$tmp/cli.out" 2>&1
		[ $? -le 1 ] || { echo "FAIL: rqpath audit $dat failed"; fail=1; continue; }
		if ! cmp -s "$tmp/lib.out" "$tmp/cli.out"; then
			echo "FAIL: library and rqpath audit differ on $dat ($fmt):"
			diff "$tmp/cli.out" "$tmp/lib.out" | head -10
			fail=1
		fi
		n=$((n + 1))
	done
done
# 5. the public summary says what the JSON report says
for dat in fixtures/spawn.dat fixtures/execl-pinned.dat; do
	"$tmp/user" "$dat" summary >"$tmp/sum.out" 2>&1 ||
		{ echo "FAIL: library_user $dat summary exit $?"; fail=1; continue; }
	"${RQPATH_PLAIN:-$top/rqpath}" audit --format json "$dat" >"$tmp/audit.json" ||
		{ echo "FAIL: rqpath audit $dat exit $?"; fail=1; continue; }
	python3 -c '
import json, sys
r = json.load(sys.stdin)
t = r["trace"]
print("trace", t["cpus"], t["events"], t["lost_events"],
      sum(p["count"] for p in r["placements"]))
for f, v in r["findings"].items():
    print(f, *(v[k] for k in ("count", "exact", "inferred", "possible", "not_judged", "judged")))
' <"$tmp/audit.json" >"$tmp/sum.json"
	if ! cmp -s "$tmp/sum.out" "$tmp/sum.json"; then
		echo "FAIL: the summary and the JSON report differ on $dat:"
		diff "$tmp/sum.json" "$tmp/sum.out" | head -10
		fail=1
	fi
	n=$((n + 1))
done
[ $fail -eq 0 ] && echo "librqpath.a links alone; $n reports equal rqpath audit's and its summary's"
exit $fail
