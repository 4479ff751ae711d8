#!/bin/sh
# rqpath audit --live analyses the records as the recorder reads them (each decoded once),
# yet its report must be the one `rqpath audit` gives for the file the same run recorded
# (--keep FILE): the same counts, placements by path, findings with their examples and
# delays (JSON, all but trace.source), the same text report (all but its first line, which
# names the source), and the same placements export row for row.  Several runs of
# workloads that wake, fork and exec on both CPUs: a record handed to the analysis out of
# time order across CPUs (a CPU read later in a round may hold older records) shows here.
. "$(dirname "$0")/lib.sh"
top=${RQPATH_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
need python3
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT

same_json() {
	python3 - "$1" "$2" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
if a["trace"]["source"] != "live":
    sys.exit("the --live report names its source %r, not live" % a["trace"]["source"])
a["trace"]["source"] = b["trace"]["source"] = None
if a != b:
    for k in a:
        if a.get(k) != b.get(k):
            sys.exit("%s differs: live %s... file %s..." % (k, json.dumps(a[k])[:300],
                                                           json.dumps(b.get(k))[:300]))
PY
}

n=0
for run in 1 2 3; do
	for w in spawn execl wait; do
		n=$((n + 1))
		rm -f "$dir/k.dat"
		case $w in
		spawn) set -- -- "$RQPATH" workload spawn --count 300 ;;
		execl) set -- --syscalls -- "$RQPATH" workload execl --count 100 ;;
		wait) set -- --duration 1 ;;
		esac
		for fmt in json text csv; do
			rm -f "$dir/k.dat"
			case $fmt in
			csv) opt="--placements csv" ;;
			*) opt="--format $fmt" ;;
			esac
			# shellcheck disable=SC2086
			"$RQPATH" audit --live --keep "$dir/k.dat" $opt "$@" >"$dir/live.$fmt" \
				2>"$dir/err" || { no "$w ($fmt): exit $?: $(tail -1 "$dir/err")"; continue; }
			# shellcheck disable=SC2086
			"$RQPATH" audit $opt "$dir/k.dat" >"$dir/file.$fmt" 2>"$dir/err" ||
				no "$w ($fmt): audit of the kept file: exit $?"
			case $fmt in
			json) why=$(same_json "$dir/live.json" "$dir/file.json" 2>&1) ||
				no "run $run $w: the JSON report differs: $why" ;;
			text) tail -n +2 "$dir/live.text" >"$dir/a"; tail -n +2 "$dir/file.text" >"$dir/b"
				cmp -s "$dir/a" "$dir/b" ||
				no "run $run $w: the text report differs: $(diff "$dir/a" "$dir/b" | head -4)" ;;
			csv) cmp -s "$dir/live.csv" "$dir/file.csv" ||
				no "run $run $w: the placements differ: $(diff "$dir/live.csv" "$dir/file.csv" | head -4)" ;;
			esac
		done
	done
done
echo "$n runs, each as json, text and placements csv"
# --keep never overwrites, and goes with --live only
: >"$dir/there.dat"
"$RQPATH" audit --live --keep "$dir/there.dat" --duration 0.2 >/dev/null 2>"$dir/err"
[ $? -eq 2 ] || no "--keep over an existing file did not fail with exit 2"
[ -s "$dir/there.dat" ] && no "--keep overwrote an existing file"
"$RQPATH" audit --keep "$dir/x.dat" "$top/fixtures/spawn.dat" >/dev/null 2>"$dir/err"
[ $? -eq 2 ] || no "--keep without --live was accepted"
[ -z "$(stale)" ] || no "instance left: $(stale)"
[ $fail -eq 0 ] && echo "PASS"
exit $fail
