#!/bin/sh
# One pump (src/input/pump.c): the only code that merges the CPUs and decodes records.  In
# src/ and views/ nothing else makes a decoder or decodes, nothing else asks a source for
# its records, and the only sources are the trace.dat reader and the recorder's pages;
# the views keep no engine state in a file static (a second session must be possible).
# Structural, from the sources: it fails as soon as a second merge or decode appears.
top=${RQPATH_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$top" || exit 1
fail=0
no() {
	echo "FAIL: $*"
	fail=1
}

# decoding: only pump.c (decode.c defines it)
bad=$(grep -ln 'rq_decoder_new *(\|rq_decode *(\|rq_decode_raw *(' src/*/*.c views/*.c |
	grep -v '^src/input/pump\.c$\|^src/input/decode\.c$')
[ -z "$bad" ] || no "records decoded outside the pump:" $bad

# asking a source for records: only pump.c
bad=$(grep -ln 'ops->next\|ops->refill' src/*/*.c views/*.c | grep -v '^src/input/pump\.c$')
[ -z "$bad" ] || no "a source read outside the pump:" $bad

# raw records come from two places only: the file reader and the live pages
bad=$(grep -ln 'kbuffer_read_event\|kbuffer_next_event' src/*/*.c views/*.c |
	grep -v '^src/input/tracefs\.c$')
[ -z "$bad" ] || no "ring-buffer records walked outside tracefs.c's live source:" $bad
grep -q 'rq_td_next\b' src/input/tracedat.h && no "tracedat.h still offers a merge (rq_td_next)"

# the pump has one place that chooses between CPUs
n=$(grep -c '^static void pick(struct rq_pump' src/input/pump.c)
[ "$n" = 1 ] || no "pump.c: expected one pick(), found $n"

# no file-static engine state in the views
bad=$(grep -n '^static [^(]*struct rq_\(analysis\|replay\|pump\|recorder\)\b[^(]*;' views/*.c)
[ -z "$bad" ] || no "engine state in a file static of views/: $bad"
bad=$(grep -n '^static [^(=]*\(load_limit\|load_until\)' views/*.c)
[ -z "$bad" ] || no "the replay's seek target in a file static: $bad"

[ $fail -eq 0 ] && echo "all checks passed"
exit $fail
