#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# t_valgrind.sh - one replay of a small fixture by the plain (non-ASan) build under
# valgrind memcheck: no invalid access, no uninitialised use, no definite leak in
# rqpath's code (the libraries' own leaks are listed in tests/robust/valgrind.supp).
set -u
: "${RQPATH_TOP:?}"
plain=${RQPATH_PLAIN:-$RQPATH_TOP/rqpath}
command -v valgrind >/dev/null 2>&1 || { echo "valgrind not installed (apt-get install valgrind)"; exit 77; }
[ -x "$plain" ] || { echo "plain build $plain not found (make first)"; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
n=0
for f in "$RQPATH_TOP"/fixtures/spawn.dat "$RQPATH_TOP"/fixtures/spawn.v6.dat; do
	[ -f "$f" ] || continue
	n=$((n + 1))
	# --trace-children=no: the probe child that opens the file first is not followed
	valgrind -q --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite \
		--show-leak-kinds=definite --suppressions="$RQPATH_TOP/tests/robust/valgrind.supp" \
		"$plain" audit --format json "$f" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -ne 0 ]; then
		echo "FAIL valgrind on $(basename "$f"): exit $rc"; sed -n 1,60p "$tmp/err"; fail=1
	fi
	python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$tmp/out" ||
		{ echo "FAIL $(basename "$f"): output not JSON"; fail=1; }
done
[ $n -gt 0 ] || { echo "FAIL no input: no fixture to run under valgrind, nothing was tested"; fail=1; }
exit $fail
