#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# t_html.sh - `rqpath audit FILE --format html -o report.html` for every fixture: one
# self-contained file (no src=/href= to anything, nothing fetched), under 5 MB, that
# headless Chromium opens without a console error (the page logs "rqpath report ready"
# when its script ran: that line must be there, and no other console line); a screenshot
# of the page shows the per-CPU timeline drawn (tests/tools/pngstat.py: more than 2 % of
# its region in colour, where the page says the timeline is).  The page's script writes
# its own layout checks into the DOM (body data-layout, read with --dump-dom): every mark
# it drew lies inside the plot, the time axis has at least 3 labelled ticks and a unit,
# the legend has a swatch per finding, each queue-delay histogram has its axis labels; drawn again zoomed 16x ("#zoomtest"), the marks
# still lie inside and the finest level is drawn (re-aggregation).  A generated
# 5 M-event trace's page is at most 2 MB.
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
	timeout 60 "$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$tmp/profile" --window-size=1100,900 "$@"
}
layout() { # DOM-FILE: the page's data-layout, as shell assignments
	sed -n 's/.*data-layout="\([^"]*\)".*/\1/p' "$1" | tr ' ' '\n' |
		grep -E '^(marks|inside|outside|ticks|unit|level|levels|legend)=[0-9a-zµ]*$' 
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
	chrome --dump-dom "file://$html" >"$tmp/$name.dom" 2>/dev/null
	box=$(sed -n 's/.*data-timeline="\([0-9,]*\)".*/\1/p' "$tmp/$name.dom")
	marks="" inside="" outside="" ticks="" unit="" level="" levels="" legend=""
	eval "$(layout "$tmp/$name.dom")"
	[ -n "$marks" ] || { bad "$name: the page wrote no layout checks"; continue; }
	[ "$marks" -gt 0 ] || bad "$name: no placement marks drawn"
	[ "$outside" -eq 0 ] && [ "$inside" -eq "$marks" ] ||
		bad "$name: $outside of $marks marks outside the plot"
	[ "$ticks" -ge 3 ] && [ -n "$unit" ] || bad "$name: time axis with $ticks ticks, unit '$unit'"
	[ "$legend" -ge 5 ] || bad "$name: legend with $legend swatches"
	# the queue-delay histograms: y labels (0, half, max) and the 9 decades on x, each
	yt=$(grep -o 'class="ytick"' "$tmp/$name.dom" | wc -l)
	xt=$(grep -o 'class="xtick"' "$tmp/$name.dom" | wc -l)
	hs=$(grep -o 'aria-label="queue delay histogram' "$tmp/$name.dom" | wc -l)
	[ "$hs" -ge 1 ] && [ "$yt" -eq $((3 * hs)) ] && [ "$xt" -eq $((9 * hs)) ] ||
		bad "$name: $hs histograms with $yt y and $xt x axis labels"
	full="$marks marks inside, $ticks ticks ($unit)"
	chrome --dump-dom "file://$html#zoomtest" >"$tmp/$name.zdom" 2>/dev/null
	zl=$levels
	eval "$(layout "$tmp/$name.zdom")"
	[ "$outside" -eq 0 ] && [ "$ticks" -ge 3 ] ||
		bad "$name: zoomed: $outside marks outside, $ticks ticks"
	[ "$level" = "$zl" ] || bad "$name: zoomed 16x draws level $level of $zl, not the finest"
	[ -n "$box" ] || { bad "$name: the page did not say where its timeline is"; continue; }
	frac=$(python3 "$top/tests/tools/pngstat.py" "$tmp/$name.png" "$box")
	python3 -c "import sys; sys.exit(0 if float('$frac') > 0.02 else 1)" ||
		bad "$name: timeline region $box is blank ($frac coloured)"
	echo "$name: $size bytes, timeline $box, $frac coloured, $full; zoomed: level $level"
done
[ $n -gt 0 ] || bad "no fixtures"
# the size bound on a long trace (the release binary: only bytes are counted)
gen=${RQPATH_BUILD:-$top/build}/tests/gen_trace
if [ -x "$gen" ]; then
	"$gen" -o "$tmp/big.dat" --cpus 8 --tasks 200 --events 5000000 --seed 3 2>"$tmp/gen.err" ||
		bad "gen_trace: $(cat "$tmp/gen.err")"
	"${RQPATH_PLAIN:-$rqpath}" audit "$tmp/big.dat" --format html -o "$tmp/big.html" ||
		bad "audit --format html of a 5 M-event trace: exit $?"
	size=$(wc -c <"$tmp/big.html")
	echo "5 M-event generated trace: $size bytes"
	[ "$size" -le 2000000 ] || bad "5 M-event trace: $size bytes, more than 2 MB"
	rm -f "$tmp/big.dat"
else
	bad "no $gen (make $gen)"
fi
[ $fail -eq 0 ] && echo "ok: HTML reports of $n fixtures render"
exit $fail
