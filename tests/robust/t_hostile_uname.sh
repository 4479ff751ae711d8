#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# t_hostile_uname.sh - the kernel release in a file's UNAME option is the file's, not
# the machine's: a release made of terminal controls (ESC ] title, BEL, the C1 CSI
# U+009B, the bidi override U+202E, the line separator U+2028) must reach no output raw:
# audit text, JSON (as \u escapes, decoding to the same characters), CSV, explain, the
# TUI's dashboard and its compare view;
# error lines likewise for a hostile file name.  Checked byte by byte.
set -u
: "${RQPATH:?}" "${RQPATH_TOP:?}"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }

# the forbidden bytes: ESC, BEL, C2 80..9F (C1), E2 80 A8..AE (separators, bidi)
raw() {
	python3 - "$1" <<'PY'
import re, sys
d = open(sys.argv[1], 'rb').read()
bad = re.search(rb'[\x1b\x07]|\xc2[\x80-\x9f]|\xe2\x80[\xa8-\xae]|\xe2\x81[\xa6-\xa9]', d)
if bad:
    print("raw bytes %r at offset %d" % (bad.group(0), bad.start()))
    sys.exit(1)
PY
}

n=0
for f in "$RQPATH_TOP"/fixtures/spawn.dat "$RQPATH_TOP"/fixtures/spawn.v6.dat; do
	[ -f "$f" ] || continue
	n=$((n + 1))
	b=$(basename "$f" .dat)
	# same length as the release it replaces, so the file's layout does not change
	python3 - "$f" "$tmp/$b.dat" <<'PY' || { no "cannot make the hostile copy of $f"; continue; }
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
i = d.find(b'Linux ')
assert i > 6 and struct.unpack('<H', d[i - 6:i - 4])[0] == 5, "no UNAME option"
end = d.index(b'\0', i)
parts = bytes(d[i:end]).split(b' ')
rel = parts[2]
evil = b'\x1b]0;X\x07\xc2\x9b\xe2\x80\xae\xe2\x80\xa8'
assert len(evil) <= len(rel)
evil += b'A' * (len(rel) - len(evil))
start = i + len(parts[0]) + len(parts[1]) + 2
d[start:start + len(rel)] = evil
open(sys.argv[2], 'wb').write(d)
PY
	for fmt in text json csv; do
		"$RQPATH" audit --format $fmt "$tmp/$b.dat" >"$tmp/$b.$fmt" 2>"$tmp/$b.$fmt.err" ||
			no "$b: audit --format $fmt exited $?"
		raw "$tmp/$b.$fmt" || no "$b: audit --format $fmt passes the release raw"
		raw "$tmp/$b.$fmt.err" || no "$b: audit --format $fmt stderr raw"
	done
	grep -q 'kernel \\x1b\]0;X\\x07\\xc2\\x9b' "$tmp/$b.text" ||
		no "$b: the text report does not show the release escaped"
	python3 - "$tmp/$b.json" <<'PY' || no "$b: JSON release is not the file's, \\u-escaped"
import json, sys
raw = open(sys.argv[1], 'rb').read()
assert b'\\u009b' in raw and b'\\u202e' in raw and b'\\u2028' in raw and b'\\u001b' in raw, raw[:200]
k = json.loads(raw)["trace"]["kernel"]
assert k.startswith('\x1b]0;X\x07\u009b\u202e\u2028'), repr(k)
PY
	"$RQPATH" explain "$tmp/$b.dat" >"$tmp/$b.explain" 2>&1 || no "$b: explain exited $?"
	raw "$tmp/$b.explain" || no "$b: explain passes the release raw"
	grep -q 'kernel \\x1b' "$tmp/$b.explain" || no "$b: explain does not show the release escaped"
	# the TUI's dashboard, drawn into its virtual screen (RQPATH_TUI_SCRIPT)
	printf ':dump\n' >"$tmp/keys"
	RQPATH_TUI_SCRIPT="$tmp/keys" "$RQPATH" replay "$tmp/$b.dat" >"$tmp/$b.tui" 2>&1 ||
		no "$b: the TUI exited $?"
	raw "$tmp/$b.tui" || no "$b: the TUI passes the release raw"
	grep -q 'kernel \\x1b' "$tmp/$b.tui" || no "$b: the TUI does not show the release escaped"
	# replay --compare: the release in the side lines and in the note that the kernels differ
	RQPATH_TUI_SCRIPT="$tmp/keys" RQPATH_TUI_SIZE=120x40 "$RQPATH" replay "$f" --compare \
		"$tmp/$b.dat" >"$tmp/$b.cmp" 2>&1 || no "$b: replay --compare exited $?"
	raw "$tmp/$b.cmp" || no "$b: the compare view passes the release raw"
	grep -q 'note: kernels differ (base .*, new \\x1b\]0;X' "$tmp/$b.cmp" ||
		no "$b: the compare view's note does not show the release escaped"
	grep -q '^ NEW .*  \\x1b\]0;X' "$tmp/$b.cmp" ||
		no "$b: the compare view's NEW line does not show the release escaped"
done
[ $n -gt 0 ] || no "no fixture"

# an error line naming a hostile file: C1 and bidi escaped as well
evil=$(printf 'x\302\233y\342\200\256z\342\200\250.dat')
"$RQPATH" audit "$tmp/$evil" >/dev/null 2>"$tmp/err.txt" && no "audit of a missing file exited 0"
cat "$tmp/err.txt"
raw "$tmp/err.txt" || no "the error line passes C1/bidi characters raw"
grep -q 'x\\xc2\\x9by' "$tmp/err.txt" || no "the error line does not show the name escaped"
# an error line built from an argument as it is (rq_error's own last line of defence)
"$RQPATH" audit --format "$evil" x.dat >/dev/null 2>"$tmp/err2.txt" && no "a bad --format exited 0"
cat "$tmp/err2.txt"
raw "$tmp/err2.txt" || no "the error line passes C1/bidi characters raw"
grep -q 'x\\u009by\\u202ez\\u2028\|x\\xc2\\x9by\\xe2\\x80\\xaez' "$tmp/err2.txt" ||
	no "the error line does not show them escaped"
[ $fail -eq 0 ] && echo "PASS"
exit $fail
