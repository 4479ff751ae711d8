# Shared by the truth tier (sourced, not run): record a workload with the kernel's state
# on (the BPF side of the recorder writes rqpath:truth records into the trace.dat), audit
# the file twice -- with truth and with --no-truth, the tracepoint model alone -- and
# score the second against the first (tests/tools/truth_score.py).  Root; each test
# skips with the reason when BPF cannot load here or rqpath was built without it (the
# recording then has no rqpath:truth record).  TRUTH_TABLE=DIR keeps each score's JSON
# there (tests/truth/table.sh makes the README table from them); TRUTH_KEEP=DIR keeps a
# failed test's files.
: "${RQPATH:?RQPATH must name the rqpath binary to test}"
top=${RQPATH_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$top/tests/live/tracefs.sh"
if [ "$(id -u)" -ne 0 ]; then echo "skip: the truth tier needs root"; exit 77; fi
tracefs_ready || exit 77
command -v python3 >/dev/null 2>&1 || { echo "skip: python3 is not installed"; exit 77; }
fail=0
no() { echo "FAIL: $*"; fail=1; }
need() {
	command -v "$1" >/dev/null || { echo "skip: $1 is not installed"; exit 77; }
}
dir=$(mktemp -d) || exit 1
# TRUTH_KEEP=DIR: a test that fails leaves its recordings, audits and stderr there
trap '[ $fail = 0 ] || [ -z "${TRUTH_KEEP:-}" ] || { mkdir -p "$TRUTH_KEEP" && cp "$dir"/* "$TRUTH_KEEP"/; }; rm -rf "$dir"' EXIT

# jq-like: a value from an audit JSON report, by a Python expression on d
jget() {
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$@"
}

# truth_record NAME CMD ARGS...: $dir/NAME.dat with truth records, or skip (77) saying
# why there are none
truth_record() {
	_n=$1; shift
	"$RQPATH" record -o "$dir/$_n.dat" --force -- "$@" >"$dir/$_n.out" 2>"$dir/$_n.err" ||
		{ no "$_n: record exited $?: $(tail -n 2 "$dir/$_n.err")"; return 1; }
	"$RQPATH" audit --format json "$dir/$_n.dat" >"$dir/$_n.json" ||
		{ no "$_n: audit exited $?"; return 1; }
	if [ "$(jget "$dir/$_n.json" 'd["trace"]["data_quality"]["model_vs_truth"]["records"]')" = 0 ]; then
		_why=$(grep -i -m1 -E 'bpf|truth' "$dir/$_n.err")
		echo "skip: no rqpath:truth records in the recording: ${_why:-rqpath was built without BPF, or the kernel refused it}"
		exit 77
	fi
	return 0
}

# truth_score NAME [--control FINDING]...: audit $dir/NAME.dat both ways and score it
truth_score() {
	_n=$1; shift
	"$RQPATH" audit "$dir/$_n.dat" --placements jsonl -o "$dir/$_n.truth.jsonl" ||
		{ no "$_n: audit --placements exited $?"; return 1; }
	"$RQPATH" audit "$dir/$_n.dat" --placements jsonl --no-truth -o "$dir/$_n.model.jsonl" ||
		{ no "$_n: audit --placements --no-truth exited $?"; return 1; }
	"$RQPATH" audit --format json --no-truth "$dir/$_n.dat" >"$dir/$_n.model.json" ||
		{ no "$_n: audit --no-truth exited $?"; return 1; }
	python3 "$top/tests/tools/truth_score.py" --name "$_n" --truth "$dir/$_n.truth.jsonl" \
		--model "$dir/$_n.model.jsonl" --json "$dir/$_n.score.json" "$@" || fail=1
	# the report's own account of the model's errors
	jget "$dir/$_n.json" '"  model_vs_truth: " + ", ".join("%s %d of %d" % (k, v["disagree"], v["compared"]) for k, v in d["trace"]["data_quality"]["model_vs_truth"].items() if isinstance(v, dict))'
	if [ -n "$TRUTH_TABLE" ]; then
		mkdir -p "$TRUTH_TABLE"
		python3 - "$dir/$_n.score.json" "$dir/$_n.json" "$dir/$_n.model.json" \
			"$TRUTH_TABLE/$_n.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
s["audit_truth"] = {k: {x: v[x] for x in ("count", "exact", "inferred", "possible",
                                           "no_selection", "not_judged")}
                    for k, v in json.load(open(sys.argv[2]))["findings"].items()}
s["audit_model"] = {k: {x: v[x] for x in ("count", "exact", "inferred", "possible",
                                           "not_judged")}
                    for k, v in json.load(open(sys.argv[3]))["findings"].items()}
t = json.load(open(sys.argv[2]))["trace"]
s["model_vs_truth"] = t["data_quality"]["model_vs_truth"]
# what the kernel tier's matrix (tests/kernels/matrix.py) shows beside the scores
s["trace"] = {k: t[k] for k in ("kernel", "cpus", "profile", "truth")}
json.dump(s, open(sys.argv[4], "w"), indent=1, sort_keys=True)
PY
	fi
	return 0
}

# finding NAME ID KEY [model]: a finding's number in the truth audit (or the model's)
finding() {
	_f=$dir/$1.json
	[ "$4" = model ] && _f=$dir/$1.model.json
	jget "$_f" "d['findings']['$2']['$3']"
}
