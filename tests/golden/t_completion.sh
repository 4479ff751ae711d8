#!/bin/sh
# Completion after -- (record -- CMD, audit --live -- CMD): bash completes command names
# for the first word after --, files after that, and the command's own option words
# nowhere there; diff's BASE -- NEW still completes traces.  zsh's script parses, and its
# words after -- go to _normal (a command line).
top=${RQPATH_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
rq=${RQPATH:-$top/rqpath}
command -v bash >/dev/null 2>&1 || { echo "skip: bash is not installed"; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
"$rq" completion bash >"$tmp/c.bash" || bad "completion bash"
"$rq" completion zsh >"$tmp/_rqpath" || bad "completion zsh"
# complete LINE: what bash's completion offers for the last word of LINE
complete_bash() {
	bash -c '. "$1"; shift; COMP_LINE=$1; COMP_POINT=${#COMP_LINE}
		read -ra COMP_WORDS <<<"$COMP_LINE"; [[ $COMP_LINE == *" " ]] && COMP_WORDS+=("")
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); cd "$2" && _rqpath
		printf "%s\n" "${COMPREPLY[@]}"' sh "$tmp/c.bash" "$1" "$tmp"
}
: >"$tmp/run.dat"
complete_bash "rqpath record -o x.dat -- slee" | grep -qx sleep || bad "bash: record -- slee<TAB> is not sleep"
complete_bash "rqpath audit --live -- slee" | grep -qx sleep || bad "bash: audit --live -- slee<TAB> is not sleep"
complete_bash "rqpath record -o x.dat -- sleep ru" | grep -qx run.dat || bad "bash: after the command, no files"
complete_bash "rqpath record -o x.dat -- sleep --" | grep -q -- '--duration' && bad "bash: record's options offered to the command"
complete_bash "rqpath diff a.dat -- ru" | grep -qx run.dat || bad "bash: diff BASE -- NEW no longer completes traces"
if command -v zsh >/dev/null 2>&1; then
	zsh -n "$tmp/_rqpath" || bad "zsh: the script does not parse"
	grep -q '_normal' "$tmp/_rqpath" && grep -q 'words\[(i)--\]' "$tmp/_rqpath" ||
		bad "zsh: no command-line completion after --"
else
	echo "zsh not installed: zsh script not checked"
fi
[ $fail -eq 0 ] && echo "ok: completion after --"
exit $fail
