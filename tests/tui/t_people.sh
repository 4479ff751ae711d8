#!/bin/sh
# Small things a new user tripped over (in-process screens, as the other TUI tests):
# /offcpu in the placements list finds the rows flagged offcpu-fork (trace-cmd report
# the placements export flags: "match 1 of N", n the second); the detail header's allowed CPUs agree with its why's "N CPUs allowed"
# where only the kernel's state gave the count; the dashboard's "(key 3: all tasks)"
# reads as a key, not a count; the dashboard's event count keeps the truth records apart
# ("N events (+M truth records)", M as trace-cmd report prints rqpath:truth records).
. "$(dirname "$0")/golden/script.sh"

command -v python3 >/dev/null 2>&1 || { echo "skip: python3 is not installed"; exit 77; }
f=fixtures/spawn.dat
n=$("$RQPATH" audit --placements jsonl "$top/$f" | python3 -c 'import json, sys
print(sum(1 for l in sys.stdin if "offcpu-fork" in json.loads(l)["findings"]))')
step search "2<Home>/offcpu<Enter>"
step next "n"
step dash "1"
run_script RQPATH_TUI_SIZE=120x40 -- replay "$f"
[ "$rc" -eq 0 ] || fail "exit status $rc"
has search "match 1 of $n for /offcpu" "/offcpu: not the $n rows flagged offcpu-fork"
has next "match 2 of $n for /offcpu" "/offcpu then n: not the second of $n"
has dash 'tasks with the most findings \(key 3: all tasks\)' "the dashboard's label"
hasnt dash '\(3: all tasks\)' "the old label that reads as a count"

# truth: the header's allowed CPUs from the kernel's state, as the why says
if command -v trace-cmd >/dev/null 2>&1; then
	script_reset
	tf=fixtures/truth/truth-6.12-spawn.dat
	step detail "2<Home><Down><Down><Down><Down><Down><Down><Down><Enter>"
	step dash2 "<Esc><Esc>1"
	run_script RQPATH_TUI_SIZE=160x60 -- replay "$tf"
	has detail '^placement #8 ' "not the detail of placement #8"
	hasnt detail 'allowed CPUs \?\)' "the header says 'allowed CPUs ?'"
	nwhy=$(screen detail | tr '\n' ' ' | sed -n 's/.* \([0-9][0-9]*\) CPUs allowed.*/\1/p')
	has detail "allowed CPUs $nwhy \\(kernel state" "the header's count is not the why's $nwhy"
	m=$(trace-cmd report "$top/$tf" 2>/dev/null | grep -c 'truth:')
	ev=$(trace-cmd report "$top/$tf" 2>/dev/null | grep -vc 'truth:')
	has dash2 "events .*lost.*\\(\\+$(printf '%s' "$m" | sed 's/\(.\)\(...\)$/\1,\2/;s/,/.*/') truth records\\)" \
		"the dashboard does not count the $m truth records apart"
	echo "truth records: $m of $ev lines in trace-cmd report"
fi
finish
