#!/bin/sh
# Generated traces (tests/helpers/gen_trace.c): each finding's exact / inferred /
# possible / not judged / judged counts that the generator built in by construction must
# be what rqpath audit reports (tests/tools/expect_check.py), for --threads 1 to 4 with
# the same JSON, text and placements CSV; trace-cmd report must read each file and see
# the events the generator wrote.  2 CPUs in one LLC, 3 CPUs in two uneven LLCs, 8 CPUs
# in 2 LLCs (v6), 64 CPUs in 4 LLCs and 64 CPUs each its own LLC; with SCHED_IDLE
# stacking, missed idle CPUs, pinned execs, unknown masks and policies.  One more
# without the policy syscalls' formats (--no-policy-syscalls): every verdict that used
# a marker's policy rests on policy-last-read, by the generator's count too, and by
# tests/tools/verdicts.py's.
top=${RQPATH_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
build=${RQPATH_BUILD:-$top/build}
gen=$build/tests/gen_trace
[ -x "$gen" ] || { echo "FAIL: no $gen (make $gen)"; exit 1; }
command -v python3 >/dev/null || { echo "python3 is needed"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0 n=0
# name cpus llcs tasks events seed file-version [gen_trace options]
while read -r name cpus llcs tasks events seed ver opts; do
	dat=$tmp/$name.dat
	# $opts unquoted: its words are options
	if ! "$gen" -o "$dat" --cpus "$cpus" --llcs "$llcs" --tasks "$tasks" --events "$events" \
		--seed "$seed" --file-version "$ver" $opts 2>"$tmp/gen.err"; then
		echo "FAIL: gen_trace $name: $(cat "$tmp/gen.err")"; fail=1; continue
	fi
	n=$((n + 1))
	for th in 1 2 3 4; do
		"$RQPATH" audit --threads $th --format json "$dat" >"$tmp/$th.json" 2>"$tmp/err"
		rc=$?
		[ $rc -le 1 ] || { echo "FAIL: $name --threads $th: exit $rc: $(head -n 2 "$tmp/err")"; fail=1; }
		if [ $th = 1 ]; then
			if ! python3 "$top/tests/tools/expect_check.py" "$dat.expect.json" "$tmp/1.json" \
				>"$tmp/check"; then
				echo "FAIL: $name ($cpus CPUs, $llcs LLCs): rqpath differs from the generator:"
				head -n 8 "$tmp/check"
				fail=1
			else
				echo "$name: $(cat "$tmp/check")"
			fi
		elif ! cmp -s "$tmp/1.json" "$tmp/$th.json"; then
			echo "FAIL: $name: --threads $th JSON differs from --threads 1"; fail=1
		fi
	done
	case "$opts" in
	*--no-policy-syscalls*)
		# verdicts.py (over trace-cmd report) applies policy-last-read as well
		if command -v trace-cmd >/dev/null &&
		   ! python3 "$top/tests/tools/verdicts.py" "$dat" >"$tmp/verdicts.json" 2>"$tmp/v.err"; then
			echo "FAIL: $name: verdicts.py: $(tail -n 1 "$tmp/v.err")"; fail=1
		elif command -v trace-cmd >/dev/null; then
			python3 - "$dat.expect.json" "$tmp/verdicts.json" "$name" <<'PY' || fail=1
import json, sys
want, got = json.load(open(sys.argv[1]))["findings"], json.load(open(sys.argv[2]))
bad = ["%s.%s: verdicts.py %s, generated %s" % (f, k, got[f][k], want[f][k])
       for f in ("idle-stacking", "missed-idle")
       for k in ("count", "exact", "inferred", "possible", "not_judged", "judged")
       if got[f][k] != want[f][k]]
for b in bad:
    print("FAIL: %s: %s" % (sys.argv[3], b))
sys.exit(1 if bad else 0)
PY
		fi ;;
	esac
	for th in 1 4; do
		"$RQPATH" audit --threads $th "$dat" >"$tmp/$th.txt" 2>/dev/null
		"$RQPATH" audit --threads $th --placements csv "$dat" >"$tmp/$th.csv" 2>/dev/null
	done
	cmp -s "$tmp/1.txt" "$tmp/4.txt" || { echo "FAIL: $name: --threads 4 text differs"; fail=1; }
	cmp -s "$tmp/1.csv" "$tmp/4.csv" || { echo "FAIL: $name: --threads 4 CSV differs"; fail=1; }
	[ "$(wc -l <"$tmp/1.csv")" -gt 1000 ] || { echo "FAIL: $name: few placements"; fail=1; }
	if command -v trace-cmd >/dev/null; then
		# trace-cmd's own count of each event against the generator's
		trace-cmd report "$dat" 2>"$tmp/tc.err" | awk '
			{ for (i = 4; i <= NF; i++) if ($i ~ /^[a-z_]+:$/) {
				sub(":", "", $i); n[$i]++; break } }
			END { for (k in n) print k, n[k] }' | sort >"$tmp/tc.counts"
		python3 -c 'import json, sys
e = json.load(open(sys.argv[1]))
for k, v in sorted(e["counts"].items()):
    if v:
        print(k, v)' "$dat.expect.json" >"$tmp/want.counts"
		grep -v '^print ' "$tmp/tc.counts" >"$tmp/tc.sched"
		if ! cmp -s "$tmp/tc.sched" "$tmp/want.counts"; then
			echo "FAIL: $name: trace-cmd report counts differ from the generator's:"
			diff "$tmp/tc.sched" "$tmp/want.counts" | head -n 6
			head -n 2 "$tmp/tc.err"
			fail=1
		fi
	fi
done <<EOF
cpu2 2 1 60 30000 3 7
cpu3 3 2 40 30000 2 7
cpu8 8 2 300 40000 3 6
cpu64 64 4 1500 60000 4 7
cpu64own 64 64 600 30000 5 7
cpu8nopol 8 2 300 40000 3 6 --no-policy-syscalls
EOF
[ $n -eq 6 ] || fail=1
[ $fail -eq 0 ] && echo "generated traces: $n files, rqpath's counts are the generator's, --threads 1..4 identical"
exit $fail
