#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# t_html.sh - `rqpath audit FILE --format html -o report.html` for every fixture: one
# self-contained file (no src=/href= to anything, nothing fetched), under 5 MB, that
# headless Chromium opens without a console error (the page logs "rqpath report ready"
# when its script ran: that line must be there, and no other console line); a screenshot
# of the page shows the per-CPU timeline drawn (tests/tools/pngstat.py: more than 2 % of
# its region in colour, where the page says the timeline is).
top=${RQPATH_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
rqpath=${RQPATH:-$top/rqpath}
command -v python3 >/dev/null 2>&1 || { echo "skip: python3 is not installed"; exit 77; }
chromium=$(command -v chromium || command -v chromium-browser) ||
	{ echo "skip: chromium is not installed (tests/install-deps.sh test installs it)"; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
chrome() { # ARGS... : headless, no sandbox (root), a private profile, 60 s at most
	timeout 60 "$chromium" --headless --no-sandbox --disable-gpu --no-first-run \
		--user-data-dir="$tmp/profile" --window-size=1100,900 "$@"
}
n=0
for dat in "$top"/fixtures/*.dat; do
	case "$dat" in *.v6.dat) continue ;; esac
	name=$(basename "$dat" .dat)
	n=$((n + 1))
	html=$tmp/$name.html
	"$rqpath" audit "$dat" --format html -o "$html"
	[ $? -le 1 ] || { bad "$name: audit --format html"; continue; }
	size=$(wc -c <"$html")
	[ "$size" -lt 5000000 ] || bad "$name: $size bytes"
	grep -Eq '(src|href)=' "$html" && bad "$name: refers to another file or URL"
	chrome --enable-logging=stderr --v=0 --screenshot="$tmp/$name.png" "file://$html" \
		>/dev/null 2>"$tmp/$name.log"
	[ -s "$tmp/$name.png" ] || { bad "$name: no screenshot"; continue; }
	grep -q 'CONSOLE.*"rqpath report ready"' "$tmp/$name.log" ||
		bad "$name: the page's script did not run"
	grep 'CONSOLE' "$tmp/$name.log" | grep -v '"rqpath report ready"' | grep . &&
		bad "$name: console messages"
	box=$(chrome --dump-dom "file://$html" 2>/dev/null | sed -n 's/.*data-timeline="\([0-9,]*\)".*/\1/p')
	[ -n "$box" ] || { bad "$name: the page did not say where its timeline is"; continue; }
	frac=$(python3 "$top/tests/tools/pngstat.py" "$tmp/$name.png" "$box")
	python3 -c "import sys; sys.exit(0 if float('$frac') > 0.02 else 1)" ||
		bad "$name: timeline region $box is blank ($frac coloured)"
	echo "$name: $size bytes, timeline $box, $frac coloured"
done
[ $n -gt 0 ] || bad "no fixtures"
[ $fail -eq 0 ] && echo "ok: HTML reports of $n fixtures render"
exit $fail
