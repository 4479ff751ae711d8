#!/bin/sh
# The README's `$ rqpath ...` examples print what rqpath prints now: every shown line of
# each runnable example (audit text, placements CSV) is a line of the real output, in
# order (tests/tools/readme_examples.py).  Examples went stale twice when verdicts moved.
top=${RQPATH_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
: "${RQPATH:=$top/rqpath}"
bin=$(mktemp -d) || exit 1
trap 'rm -rf "$bin"' EXIT
ln -s "$RQPATH" "$bin/rqpath" || exit 1
python3 "$top/tests/tools/readme_examples.py" "$top" "$bin"
