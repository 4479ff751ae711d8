#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# t_perfetto.sh - `rqpath audit FILE --format perfetto` writes Perfetto's protobuf trace
# format, compact (issue 22):
#   - every fixture's export is read by tests/tools/perfetto_check.py (a decoder of its
#     own): one sequence, interned strings defined before use, a descriptor for every
#     track, slices paired and not overlapping, one instant per placement with the same
#     facts as the JSONL export (--placements jsonl), findings and possible as arrays,
#     and one event with each finding's verdict ("not judged" or its count) as the
#     audit's JSON has it;
#   - the scheduler's records are Perfetto's own ftrace data (FtraceEventBundle per CPU):
#     the --perfetto-raw export is the compressed one's packets, byte for byte; it decodes
#     with `protoc --decode_raw` and every field number and shape is one that the table of
#     tests/tools/perfetto_raw.py declares (numbers read in Perfetto's protos, file and
#     message cited there); per CPU as many sched_switch events as `trace-cmd report`
#     shows, and every CPU of the trace has some;
#   - with RQPATH_PERFETTO_PROTOS=DIR (a checkout of Perfetto: DIR/protos/perfetto/trace/
#     perfetto_trace.proto) the export also decodes with Perfetto's own protos, no field
#     unknown to them (not checked in: the protos are Perfetto's text);
top=${RQPATH_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
rqpath=${RQPATH:-$top/rqpath}
plain=${RQPATH_PLAIN:-$rqpath}
build=${RQPATH_BUILD:-$top/build}
gen=$build/tests/gen_trace
check=$top/tests/tools/perfetto_check.py
raw=$top/tests/tools/perfetto_raw.py
protos=${RQPATH_PERFETTO_PROTOS:-}
command -v python3 >/dev/null 2>&1 || { echo "skip: python3 is not installed"; exit 77; }
[ -x "$gen" ] || { echo "FAIL: no $gen (make $gen)"; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
noprotoc=""
command -v protoc >/dev/null 2>&1 ||
	noprotoc="protoc is not installed (tests/install-deps.sh test): not decoded with it"

decode() { # INNER NAME [perfetto_raw.py options]: protoc --decode_raw, fields as declared
	[ -n "$noprotoc" ] && return 0
	in=$1 name=$2
	shift 2
	if ! protoc --decode_raw <"$in" >"$tmp/decoded.txt" 2>"$tmp/protoc.err"; then
		echo "FAIL: $name: protoc --decode_raw cannot decode it: $(head -n 3 "$tmp/protoc.err")"
		return 1
	fi
	python3 "$raw" "$tmp/decoded.txt" "$@" || { echo "FAIL: $name: (above)"; return 1; }
	[ -n "$protos" ] || return 0
	if ! protoc --decode=perfetto.protos.Trace -I "$protos" \
		"$protos/protos/perfetto/trace/perfetto_trace.proto" <"$in" >"$tmp/full.txt" \
		2>"$tmp/protoc.err"; then
		echo "FAIL: $name: Perfetto's protos cannot decode it: $(head -n 3 "$tmp/protoc.err")"
		return 1
	fi
	# protoc prints a field the .proto does not declare by its number
	if grep -nE '^ *[0-9]+( \{|:)' "$tmp/full.txt" | head -n 3 | grep .; then
		echo "FAIL: $name: fields unknown to Perfetto's protos (above)"
		return 1
	fi
	echo "$name: decoded with Perfetto's protos, $(grep -c 'sched_switch {' "$tmp/full.txt") sched_switch"
}

# CPU=N,... : the sched_switch records per CPU in `trace-cmd report` (its own reader)
switches() {
	trace-cmd report -i "$1" 2>/dev/null | grep ' sched_switch: ' |
		sed -E 's/^[^[]*\[0*([0-9]+)\].*/\1/' | sort -n | uniq -c |
		awk '{ printf "%s%s=%s", (NR > 1 ? "," : ""), $2, $1 }'
}
notracecmd=""
command -v trace-cmd >/dev/null 2>&1 ||
	notracecmd="trace-cmd is not installed: sched_switch counts not checked"

n=0
for dat in "$top"/fixtures/*.dat; do
	case "$dat" in *.v6.dat) continue ;; esac
	name=$(basename "$dat" .dat)
	rm -f "$tmp/p.pb" "$tmp/p.jsonl" "$tmp/p.json"
	"$rqpath" audit "$dat" --format perfetto -o "$tmp/p.pb" 2>"$tmp/err" ||
		{ echo "FAIL: perfetto $name: exit $?: $(head -n 1 "$tmp/err")"; fail=1; continue; }
	"$rqpath" audit "$dat" --placements jsonl -o "$tmp/p.jsonl" 2>"$tmp/err" ||
		{ echo "FAIL: placements $name: exit $?: $(head -n 1 "$tmp/err")"; fail=1; continue; }
	"$rqpath" audit "$dat" --format json -o "$tmp/p.json" 2>"$tmp/err" ||
		{ echo "FAIL: audit json $name: exit $?: $(head -n 1 "$tmp/err")"; fail=1; continue; }
	python3 "$check" "$tmp/p.pb" --inner "$tmp/inner.pb" --jsonl "$tmp/p.jsonl" \
		--audit "$tmp/p.json" || fail=1
	"$rqpath" audit "$dat" --perfetto-raw -o "$tmp/raw.pb" --force 2>"$tmp/err" ||
		{ echo "FAIL: --perfetto-raw $name: exit $?: $(head -n 1 "$tmp/err")"; fail=1; }
	cmp -s "$tmp/raw.pb" "$tmp/inner.pb" ||
		{ echo "FAIL: $name: --perfetto-raw is not the inflated packets"; fail=1; }
	cpus=$(trace-cmd report -i "$dat" 2>/dev/null | sed -n 's/^cpus=//p' | head -n 1)
	if [ -n "$notracecmd" ]; then
		decode "$tmp/raw.pb" "$name" || fail=1
	elif [ -z "$cpus" ] || [ -z "$(switches "$dat")" ]; then
		echo "FAIL: $name: trace-cmd report shows no CPUs or no sched_switch"; fail=1
	else
		decode "$tmp/raw.pb" "$name" --switches "$(switches "$dat")" --cpus "$cpus" || fail=1
	fi
	n=$((n + 1))
done
[ $n -gt 0 ] || { echo "FAIL: no fixtures"; fail=1; }

# a generated trace: the counts of the generator's own model
"$gen" -o "$tmp/g.dat" --cpus 4 --llcs 2 --tasks 60 --events 100000 --seed 7 2>"$tmp/gen.err" ||
	{ echo "FAIL: gen_trace: $(cat "$tmp/gen.err")"; exit 1; }
"$rqpath" audit "$tmp/g.dat" --format perfetto -o "$tmp/g.pb" 2>"$tmp/err" ||
	{ echo "FAIL: perfetto of the generated trace: exit $?: $(head -n 1 "$tmp/err")"; fail=1; }
python3 "$check" "$tmp/g.pb" --inner "$tmp/ginner.pb" --expect "$tmp/g.dat.expect.json" || fail=1
decode "$tmp/ginner.pb" generated --cpus 4 || fail=1
rm -f "$tmp"/g.*
# with truth records of wakings on a runqueue: the no_selection arrays, the generator's too
"$gen" -o "$tmp/g.dat" --cpus 4 --llcs 2 --tasks 60 --events 50000 --seed 5 \
	--truth-on-rq 300 2>"$tmp/gen.err" || { echo "FAIL: gen_trace: $(cat "$tmp/gen.err")"; exit 1; }
"$rqpath" audit "$tmp/g.dat" --format perfetto -o "$tmp/g.pb" 2>"$tmp/err" ||
	{ echo "FAIL: perfetto of the truth trace: exit $?: $(head -n 1 "$tmp/err")"; fail=1; }
"$rqpath" audit "$tmp/g.dat" --placements jsonl -o "$tmp/g.jsonl" 2>"$tmp/err" ||
	{ echo "FAIL: placements of the truth trace: exit $?: $(head -n 1 "$tmp/err")"; fail=1; }
python3 "$check" "$tmp/g.pb" --expect "$tmp/g.dat.expect.json" --jsonl "$tmp/g.jsonl" || fail=1
rm -f "$tmp"/g.*

# the size of a 1.2 M-event trace's export (the release binary: only bytes are counted)
"$gen" -o "$tmp/big.dat" --cpus 8 --tasks 200 --events 1200000 --seed 1 2>"$tmp/gen.err" ||
	{ echo "FAIL: gen_trace: $(cat "$tmp/gen.err")"; exit 1; }
"$plain" audit "$tmp/big.dat" --format perfetto -o "$tmp/big.pb" 2>"$tmp/err" ||
	{ echo "FAIL: perfetto of the 1.2 M-event trace: exit $?: $(head -n 1 "$tmp/err")"; fail=1; }
size=$(wc -c <"$tmp/big.pb")
echo "1.2 M-event generated trace: $size bytes"
[ "$size" -le 30000000 ] || { echo "FAIL: $size bytes for 1.2 M events, more than 30 MB"; fail=1; }

[ $fail -eq 0 ] && echo "ok: perfetto protobuf of $n fixtures and two generated traces"
[ -n "$noprotoc" ] && echo "$noprotoc"
[ -n "$notracecmd" ] && echo "$notracecmd"
[ -n "$protos" ] || echo "not decoded with Perfetto's own protos (RQPATH_PERFETTO_PROTOS unset)"
exit $fail
