#!/bin/sh
# replay BASE --compare NEW (issue 12, item 7): the compare view on the spawn fixtures of
# tests/fixtures/diff (alone, then beside a CPU hog):
#  - the table, golden at 80x24; Enter on offcpu-fork lists the NEW trace's off-CPU forks
#    and b the BASE trace's, as many as tracefacts.py counted from trace-cmd report in each
#    file; the detail's evidence comes from that side's file (its deciding record is a
#    line of that file's trace-cmd report and of no line of the other's); x switches the
#    trace the dashboard shows (its event count is that file's record count); r walks
#    the files of a side given several (Enter lists the run's own off-CPU forks);
#  - the numbers on the screen are `rqpath diff --format csv` of the same files, one run a
#    side and three (medians, changes, verdicts, and each side's min..max at 120 columns);
#  - a trace against itself: no row changed;
#  - --compare without a file on a side, or twice: one line, exit 2;
#  - a second file that is not a trace, or is refused when opened, or breaks off midway,
#    or is missing (with a hostile name): exit 2 and one line on stderr, before any
#    screen; a good file with a hostile name is shown escaped.
. "$(dirname "$0")/golden/script.sh"

command -v python3 >/dev/null 2>&1 || { echo "python3 is not installed"; exit 77; }
command -v trace-cmd >/dev/null 2>&1 || { echo "trace-cmd not installed"; exit 77; }
fx=tests/fixtures/diff
base=$fx/spawn-idle1.dat
new=$fx/spawn-busy1.dat
# a record from its CPU on: "[001] 8703.253855: sched_wakeup_new: sh:31518 [120] CPU:001"
reckey() { grep -o '\[[0-9][0-9][0-9]\] \+[0-9]\+\.[0-9]\+: .*' | tr -s ' '; }
fact() { python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' \
	"$top/$fx/spawn-$1.facts.json" "$2"; }
off_base=$(fact idle1 offcpu_forks)
off_new=$(fact busy1 offcpu_forks)
rec_base=$(fact idle1 records)
rec_new=$(fact busy1 records)
[ "$off_base" != "$off_new" ] || { echo "FAIL: the fixtures have the same offcpu count"; exit 1; }
for s in base new; do
	eval f=\$$s
	trace-cmd report "$top/$f" 2>/dev/null | reckey >"$work/report-$s"
done

# 1. the table, the drill-down into each side, the side switch
step compare-80x24 ":dump"
step - "/offcpu-fork per<Enter>"
step compare-new "<Enter>"
step - ":resize 160x60"
step compare-new-detail "<Enter>"
step - ":resize 80x24"
step compare-back "<Esc><Esc>"
step compare-base "b"
step - ":resize 160x60"
step compare-base-detail "<Enter>"
step - ":resize 80x24"
step - "<Esc><Esc>"
step switch-new "x1"
step switch-base "x"
step help "?<PgDn>"
run_script RQPATH_TUI_SIZE=80x24 -- replay "$base" --compare "$new"
[ "$rc" -eq 0 ] || fail "exit status $rc"
golden compare-80x24
golden compare-new
golden compare-base
has compare-new "^ $off_new placements matching finding=offcpu-fork" \
	"Enter: not the NEW trace's $off_new offcpu-fork placements (trace-cmd report's count)"
has compare-new "^ rqpath replay NEW " "Enter: the header does not say NEW"
has compare-base "^ $off_base placements matching finding=offcpu-fork" \
	"b: not the BASE trace's $off_base offcpu-fork placements (trace-cmd report's count)"
has compare-base "^ rqpath replay BASE " "b: the header does not say BASE"
has compare-back "^  offcpu-fork per 1k .*no noise est\.$" "Esc Esc: not back on the compare table"
# the evidence is read from the side's own file
for s in new base; do
	has "compare-$s-detail" 'flagged: offcpu-fork' "$s detail: not an offcpu-fork placement"
	key=$(screen "compare-$s-detail" | grep '^>' | head -1 | reckey)
	other=base; [ $s = base ] && other=new
	if [ -z "$key" ]; then
		fail "$s detail: no deciding record"
	else
		grep -Fxq -- "$key" "$work/report-$s" || fail "$s detail: '$key' is not in its file"
		grep -Fxq -- "$key" "$work/report-$other" && fail "$s detail: '$key' is from $other"
	fi
done
has switch-new "^ rqpath replay NEW .*dashboard" "x: the dashboard is not NEW's"
has switch-new "$rec_new events" "x: NEW's dashboard does not count its $rec_new records"
has switch-base "^ rqpath replay BASE .*dashboard" "x x: the dashboard is not BASE's"
has switch-base "$rec_base events" "x x: BASE's dashboard does not count its $rec_base records"
has help "^ +x +switch the trace the other views show" "? help: no x"
# the README shows this screen
sed -n '/^    \$ rqpath replay tests\/fixtures\/diff\/spawn-idle1.dat --compare/,/^$/p' \
	"$top/README" | sed -e '1,2d' -e '/^$/d' -e 's/^    //' >"$work/readme"
screen compare-80x24 | diff -u - "$work/readme" >/dev/null ||
	fail "README: the compare screen is not the golden compare-80x24"

# the delay rows of flagged and unflagged placements list just those (NOIM marks)
script_reset
step flagged "/flagged<Enter><Enter>"
step unflagged "<Esc>/not flagged<Enter>b"
step possible "<Esc>/missed-idle poss<Enter><Enter>"
step tab-compare "<Esc>6<Tab>"
step tab-dashboard "<Tab>"
run_script RQPATH_TUI_SIZE=100x60 -- replay "$base" --compare "$new"
has flagged "^ [0-9]+ placements matching flagged=yes" "flagged row: not the flagged=yes list"
screen flagged | awk 'NR > 3 && / [0-9.]+→[0-9]+ / && $NF == "...."' | grep -q . &&
	fail "flagged row: a placement without a finding listed"
has unflagged "^ rqpath replay BASE " "unflagged row, b: not BASE"
has unflagged "^ [0-9]+ placements matching flagged=no" "unflagged row: not the flagged=no list"
# (a possible finding is a lower-case mark: not a finding)
screen unflagged | awk 'NR > 3 && / [0-9?]+→[0-9]+ / && $NF ~ /[A-Z]/' | grep -q . &&
	fail "unflagged row: a placement with a finding listed"
# a possible row lists the possible ones, as many as the independent model counts
poss_new=$(python3 "$top/tests/tools/verdicts.py" "$top/$new" | python3 -c '
import json, sys
print(json.load(sys.stdin)["missed-idle"]["possible"])')
has possible "^ $poss_new placements matching possible=missed-idle" \
	"possible row: not NEW's $poss_new possible missed-idle (verdicts.py)"
has tab-compare "^ rqpath replay .* compare " "Tab after the timeline: not the compare view"
has tab-dashboard "^ rqpath replay .* dashboard " "Tab after the compare view: not the dashboard"

# 2. the screen's numbers are rqpath diff's, one run a side and three
check_numbers() {	# NAME SIZE BASE... -- NEW...
	name=$1 size=$2
	shift 2
	script_reset
	step "$name" ":dump"
	bases="" news="" side=base
	for f in "$@"; do
		[ "$f" = "--" ] && { side=new; continue; }
		if [ $side = base ]; then bases="$bases $f"; else news="$news $f"; fi
	done
	# shellcheck disable=SC2086
	run_script RQPATH_TUI_SIZE="$size" -- replay $bases --compare $news
	[ "$rc" -eq 0 ] || fail "$name: exit status $rc"
	# shellcheck disable=SC2086
	(cd "$top" && "$RQPATH" diff --format csv $bases -- $news) >"$work/$name.csv" ||
		fail "$name: rqpath diff failed"
	screen "$name" >"$work/$name.screen"
	python3 - "$work/$name.screen" "$work/$name.csv" <<'PY' || fail "$name: not diff's numbers"
import csv, re, sys
lines = open(sys.argv[1]).read().split("\n")
# the rows the text and the view show: per placement, not the rates per second
rows = [r for r in csv.DictReader(open(sys.argv[2])) if r["section"] not in ("run", "note")
        and r["metric"] != "per_s"]
shown = [l for l in lines[5:-2] if l.startswith("  ") and len(l) > 60]
bad = []

def disp(s):
    """a shown value as (number, half of its last digit), None for '-' (and for 'not
    judged': a finding that side judged nothing, no value in the CSV either)"""
    s = s.strip()
    if s in ("-", "", "not judged"):
        return None
    scale = 1.0
    for unit, f in (("ns", 1), ("us", 1e3), ("ms", 1e6), ("s", 1e9), ("%", 1), ("pt", 1)):
        if s.endswith(" " + unit):
            s, scale = s[:-len(unit) - 1], f
            break
    m = re.fullmatch(r"([-+]?\d+)(?:\.(\d+))?(?:e([-+]\d+))?", s)
    if not m:
        raise ValueError("not a number: %r" % s)
    dec = len(m.group(2) or "") - int(m.group(3) or 0)
    return float(s) * scale, 0.5 * 10 ** -dec * scale * 1.0001

def same(shown, want, what):
    v = disp(shown)
    if want == "" or v is None:
        if not (want == "" and v is None):
            bad.append("%s: shown %r, csv %r" % (what, shown, want))
        return
    if abs(v[0] - float(want)) > v[1] + 1e-9:
        bad.append("%s: shown %r, csv %r" % (what, shown, want))

if len(shown) != len(rows):
    bad.append("%d rows shown, rqpath diff has %d" % (len(shown), len(rows)))
for l, r in zip(shown, rows):
    label, b, n, ch = l[2:30].strip(), l[31:42], l[43:54], l[55:64].strip()
    verdict, rng = l[66:80].strip(), l[80:].strip()
    suffix = {"per_s": "per s", "per_1k": "per 1k", "p50_ns": "p50",
              "p99_ns": "p99"}.get(r["metric"], r["metric"])
    want = r["name"] + " " + suffix if r["section"] in ("finding", "delay") else r["name"]
    what = "%s %s" % (r["section"], want)
    if label != want[:28]:
        bad.append("row %r on the screen, %r in rqpath diff" % (label, want))
        continue
    same(b, r["base_median"], what + " base")
    same(n, r["new_median"], what + " new")
    # judged on neither side: "not judged" on the screen, n/a (no values) in the CSV
    unjudged = verdict == "not judged" and r["verdict"] == "n/a" and \
        b.strip() == n.strip() == "not judged"
    # fewer than 3 runs: "no noise est." in the verdict's 14 columns
    nonoise = r["verdict"] == "no noise estimate" and verdict == "no noise est."
    if verdict != r["verdict"] and not unjudged and not nonoise:
        bad.append("%s: verdict %r, csv %r" % (what, verdict, r["verdict"]))
    if r["verdict"] == "n/a":
        if ch:
            bad.append("%s: a change %r without values" % (what, ch))
    elif ch == "0":
        if float(r["change"]) != 0:
            bad.append("%s: change 0, csv %s" % (what, r["change"]))
    elif ch == "new":
        if r["change_pct"] != "" or float(r["change"]) == 0:
            bad.append("%s: 'new', csv %s %s" % (what, r["change"], r["change_pct"]))
    elif ch.endswith(" pt"):
        same(ch, r["change"], what + " change")
    else:
        same(ch, r["change_pct"], what + " change %")
    if rng:
        m = re.fullmatch(r"(.+?)\.\.(.+?) \| (.+?)\.\.(.+?)(; p (\S+)( \(approx\.\))?)?", rng)
        if not m:
            bad.append("%s: range %r" % (what, rng))
            continue
        for v, k in zip(m.groups()[:4], ("base_min", "base_max", "new_min", "new_max")):
            same(v, r[k], what + " " + k)
        # the rank test's p, as rqpath diff computed it (3 significant digits shown)
        if m.group(6) is None and r["p"] != "":
            bad.append("%s: no p shown, csv %s" % (what, r["p"]))
        elif m.group(6) is not None and ("%.3g" % float(r["p"])) != m.group(6):
            bad.append("%s: p %s shown, csv %s" % (what, m.group(6), r["p"]))
print("%d rows compared" % len(shown))
for b in bad[:20]:
    print("FAIL:", b)
sys.exit(1 if bad else 0)
PY
}
check_numbers numbers-1 100x80 "$base" -- "$new"
check_numbers numbers-3 130x100 $fx/spawn-idle1.dat $fx/spawn-idle2.dat $fx/spawn-idle3.dat -- \
	$fx/spawn-busy1.dat $fx/spawn-busy2.dat $fx/spawn-busy3.dat
grep -q ' | ' "$work/numbers-3.screen" || fail "numbers-3: no min..max ranges at 130 columns"

# r walks the files of a side: each one's off-CPU forks are its own
script_reset
step run-one "r"
run_script -- replay "$base" --compare "$new"
has run-one "BASE is one file: r walks the files of a side given several" "r on one file"
script_reset
step run-new "xr"
step run-new-list "/offcpu-fork per<Enter><Enter>"
step run-base "<Esc>xr"
step run-base-list "b"
run_script -- replay $fx/spawn-idle1.dat $fx/spawn-idle2.dat $fx/spawn-idle3.dat --compare \
	$fx/spawn-busy1.dat $fx/spawn-busy2.dat $fx/spawn-busy3.dat
has run-new "NEW run 2 of 3: tests/fixtures/diff/spawn-busy2.dat" "r on NEW: not its run 2"
has run-new "^ NEW  tests/fixtures/diff/spawn-busy2.dat run 2/3 " "r on NEW: the side line"
has run-new-list "^ $(fact busy2 offcpu_forks) placements matching finding=offcpu-fork" \
	"r on NEW: not spawn-busy2's offcpu-fork placements (trace-cmd report's count)"
has run-base "^ BASE tests/fixtures/diff/spawn-idle2.dat run 2/3 " "r on BASE: the side line"
has run-base-list "^ $(fact idle2 offcpu_forks) placements matching finding=offcpu-fork" \
	"r on BASE: not spawn-idle2's offcpu-fork placements (trace-cmd report's count)"

# 3. a trace against itself: nothing changed
script_reset
step self ":dump"
run_script RQPATH_TUI_SIZE=100x80 -- replay "$base" --compare "$base"
has self "^  offcpu-fork count .* unchanged" "self: offcpu-fork count not unchanged"
hasnt self "  changed$|within noise" "self: a row changed against itself"

# 4. a bad second file: one line, exit 2, no screen
cp "$top/$new" "$work/broken.dat"
cp "$top/fixtures/spawn.v6.dat" "$work/breaks-off.dat"
python3 - "$work/broken.dat" "$work/breaks-off.dat" <<'PY'
import sys
b = bytearray(open(sys.argv[1], "rb").read())
b[30000:30400] = b"\xff" * 400		# a compressed chunk: refused when opened
open(sys.argv[1], "wb").write(b)
b = bytearray(open(sys.argv[2], "rb").read())
o = len(b) * 6 // 10			# an uncompressed page: the reading stops there
b[o:o + 4096] = b"\xff" * 4096
open(sys.argv[2], "wb").write(b)
PY
cp "$top/$new" "$work/$(printf 'hostile\033[2J\nname.dat')"
printf 'not a trace\n' >"$work/$(printf 'text\033]0;x\007.dat')"
for second in /etc/passwd "$work/broken.dat" "$work/breaks-off.dat" "$work/nonexistent.dat" \
	"$work/$(printf 'text\033]0;x\007.dat')"; do
	script_reset
	step never ":dump"
	(cd "$top" && env RQPATH_TUI_SCRIPT="$work/script" RQPATH_TUI_DUMP="$work/bad.dump" \
		"$RQPATH" replay "$base" --compare "$second" >"$work/bad.out" 2>"$work/bad.err")
	brc=$?
	what=$(basename "$second" | tr -c '[:print:]' '?')
	[ "$brc" -eq 2 ] || fail "bad second file $what: exit $brc, not 2"
	[ "$(wc -l <"$work/bad.err")" -eq 1 ] ||
		{ fail "bad second file $what: not one line"; cat "$work/bad.err"; }
	grep -q '^rqpath: .*\.dat: \|^rqpath: /etc/passwd: ' "$work/bad.err" ||
		fail "bad second file $what: the line does not name the file: $(cat "$work/bad.err")"
	LC_ALL=C grep -q "$(printf '[\001-\010\016-\037\177]')" "$work/bad.err" &&
		fail "bad second file $what: a control byte on stderr"
	[ -s "$work/bad.dump" ] && fail "bad second file $what: a screen was drawn"
	rm -f "$work/bad.dump"
done
# the command line: no NEW file, --compare twice
for args in "$base --compare" "$base --compare $new --compare $new" "--compare $new"; do
	# shellcheck disable=SC2086
	(cd "$top" && RQPATH_TUI_SCRIPT="$work/script" "$RQPATH" replay $args \
		>/dev/null 2>"$work/cli.err")
	crc=$?
	[ "$crc" -eq 2 ] && [ "$(wc -l <"$work/cli.err")" -eq 1 ] ||
		fail "replay $args: exit $crc, $(wc -l <"$work/cli.err") lines (want 2, one line)"
done
# a hostile but good file name: drawn escaped
script_reset
step hostile ":dump"
run_script -- replay "$base" --compare "$work/$(printf 'hostile\033[2J\nname.dat')"
[ "$rc" -eq 0 ] || fail "hostile name: exit $rc"
has hostile 'hostile\\x1b\[2J\\nnam' "hostile name: not shown escaped"
LC_ALL=C grep -q "$(printf '\033')" "$work/dump" && fail "hostile name: an escape byte on screen"
finish
