#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# t_install.sh - what `make install` and `make uninstall` do, and the completion scripts
# they install (issue 22 item 8):
#  - make install DESTDIR=... copies the binary, the two manual pages and the bash and zsh
#    completions, and runs no package manager (apt-get, dpkg, dpkg-query on PATH are traps
#    that record being called); make uninstall removes exactly those files;
#  - the installed completions are what `rqpath completion bash|zsh` prints; every option
#    of every command's --help is in the bash script, and none that --help lacks;
#  - bash: commands, options, choice words, --fail-on rules (with the colon), subcommand
#    options, *.dat operands complete as expected;
#  - zsh (when installed): the same, typed into an interactive zsh under zpty.
top=${RQPATH_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
rq=${RQPATH_PLAIN:-$top/rqpath}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# 1. make install / uninstall: only copies, into DESTDIR, no package manager
mkdir -p "$tmp/trap"
for pm in apt-get apt dpkg dpkg-query; do
	printf '#!/bin/sh\necho "%s $*" >>"%s/called"\nexit 1\n' "$pm" "$tmp" >"$tmp/trap/$pm"
	chmod +x "$tmp/trap/$pm"
done
if ! PATH="$tmp/trap:$PATH" make -C "$top" --no-print-directory -s install \
		DESTDIR="$tmp/root" PREFIX=/usr >"$tmp/make.log" 2>&1; then
	bad "make install failed"; cat "$tmp/make.log"
fi
[ -s "$tmp/called" ] && bad "make install ran a package manager: $(cat "$tmp/called")"
want="usr/bin/rqpath usr/share/man/man1/rqpath.1 usr/share/man/man7/rqpath-paths.7
usr/share/bash-completion/completions/rqpath usr/share/zsh/site-functions/_rqpath"
got=$(cd "$tmp/root" && find . -type f | sed 's|^\./||' | sort)
[ "$got" = "$(echo $want | tr ' ' '\n' | sort)" ] || bad "installed files: $got"
"$tmp/root/usr/bin/rqpath" --version | grep -q '^rqpath ' || bad "installed binary does not run"
"$rq" completion bash | cmp -s - "$tmp/root/usr/share/bash-completion/completions/rqpath" ||
	bad "installed bash completion is not 'rqpath completion bash'"
"$rq" completion zsh | cmp -s - "$tmp/root/usr/share/zsh/site-functions/_rqpath" ||
	bad "installed zsh completion is not 'rqpath completion zsh'"
PATH="$tmp/trap:$PATH" make -C "$top" --no-print-directory -s uninstall DESTDIR="$tmp/root" \
	PREFIX=/usr >"$tmp/make.log" 2>&1 || bad "make uninstall: exit $?"
left=$(find "$tmp/root" -type f)
[ -z "$left" ] || bad "make uninstall left: $left"

# 2. the bash script holds every option of every --help, and no other
"$rq" completion bash >"$tmp/c.bash"
bash -n "$tmp/c.bash" || bad "bash completion does not parse"
for cmd in live replay record audit diff explain topology "workload spawn" "workload execl" \
	   "workload idle-stack" "workload wake-llc" completion; do
	# shellcheck disable=SC2086
	"$rq" help $cmd | sed -n '/^options:/,/^$/p' | grep -o -- ' --[a-z][a-z-]*' | sort -u >"$tmp/h"
	label=$(echo "$cmd" | tr ' ' /)
	awk -v l="	$label)" '$0 == l { on = 1 } on && /opts=/ { print; exit }' "$tmp/c.bash" |
		grep -o -- "[' ]--[a-z][a-z-]*" | sed "s/^'/ /" | sort -u >"$tmp/c"
	diff "$tmp/h" "$tmp/c" >/dev/null || { bad "$cmd: --help and the bash completion list other options:"; diff "$tmp/h" "$tmp/c"; }
done

# 3. bash: what a <Tab> gives (the function, called as bash calls it)
mkdir -p "$tmp/w/sub"
cp "$top/fixtures/spawn.dat" "$top/fixtures/spawn.v6.dat" "$tmp/w/"
cat >"$tmp/t.bash" <<'EOF'
. "$1"
cd "$2"
t() {
	COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
	read -ra COMP_WORDS <<<"$COMP_LINE"
	[[ $COMP_LINE == *" " ]] && COMP_WORDS+=("")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMPREPLY=()
	_rqpath
	echo "$*|$(printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' ')"
}
t "rqpath au"
t "rqpath sp"
t "rqpath audit --form"
t "rqpath audit --format "
t "rqpath diff -f "
t "rqpath audit --fail-on offcpu-fork:p"
t "rqpath diff --fail-on delay.p99:w"
t "rqpath workload "
t "rqpath workload spawn --c"
t "rqpath replay "
t "rqpath -i spawn.v"
t "rqpath help wor"
t "rqpath record --file-version "
EOF
bash "$tmp/t.bash" "$tmp/c.bash" "$tmp/w" >"$tmp/bash.out" 2>&1
cat >"$tmp/bash.want" <<'EOF'
rqpath au|audit 
rqpath sp|spawn.dat spawn.v6.dat 
rqpath audit --form|--format 
rqpath audit --format |csv html json jsonl perfetto text 
rqpath diff -f |csv html json text 
rqpath audit --fail-on offcpu-fork:p|possible 
rqpath diff --fail-on delay.p99:w|wakeup 
rqpath workload |execl idle-stack spawn wake-llc 
rqpath workload spawn --c|--count 
rqpath replay |spawn.dat spawn.v6.dat sub 
rqpath -i spawn.v|spawn.v6.dat 
rqpath help wor|workload 
rqpath record --file-version |6 7 
EOF
diff -u "$tmp/bash.want" "$tmp/bash.out" || bad "bash completions differ (- want, + got)"

# 4. zsh, typed into an interactive shell: rqpath is a function printing its arguments
if command -v zsh >/dev/null 2>&1; then
	mkdir -p "$tmp/zfunc"
	"$rq" completion zsh >"$tmp/zfunc/_rqpath"
	zsh -n "$tmp/zfunc/_rqpath" || bad "zsh completion does not parse"
	cat >"$tmp/t.zsh" <<'EOF'
zmodload zsh/zpty || exit 77
cd "$2"
zpty -b z zsh -f -i
zpty -w z "PS1='%% '; fpath=($1 \$fpath); autoload -U compinit; compinit -u -d $2/.zcd; rqpath() { print -r -- \"ARGS:\$*\"; }"
drain() { local c; while zpty -r -t z c; do :; done; }
comp() {
	local all= chunk n=0
	zpty -w -n z "$1"$'\t'
	sleep 0.3
	zpty -w -n z $'\r'
	while (( n++ < 50 )); do
		while zpty -r -t z chunk; do all+=$chunk; done
		[[ $all == *ARGS:*$'\n'* ]] && break
		sleep 0.1
	done
	print -r -- "$1|${${all##*ARGS:}%%$'\r'*}"
	sleep 0.2
	drain
}
sleep 1
drain
comp 'rqpath wo'
comp 'rqpath workload sp'
comp 'rqpath workload spawn --c'
comp 'rqpath audit --form'
comp 'rqpath audit --format pe'
comp 'rqpath diff --fail-on offcpu-fork:p'
comp 'rqpath diff --fail-on delay.p99:wa'
comp 'rqpath record --fi'
comp 'rqpath audit -i spawn.v'
comp 'rqpath spawn.v6.dat --top'
zpty -d z
EOF
	timeout 120 zsh -f "$tmp/t.zsh" "$tmp/zfunc" "$tmp/w" >"$tmp/zsh.out" 2>&1
	cat >"$tmp/zsh.want" <<'EOF'
rqpath wo|workload
rqpath workload sp|workload spawn
rqpath workload spawn --c|workload spawn --count
rqpath audit --form|audit --format
rqpath audit --format pe|audit --format perfetto
rqpath diff --fail-on offcpu-fork:p|diff --fail-on offcpu-fork:possible
rqpath diff --fail-on delay.p99:wa|diff --fail-on delay.p99:wakeup
rqpath record --fi|record --file-version
rqpath audit -i spawn.v|audit -i spawn.v6.dat
rqpath spawn.v6.dat --top|spawn.v6.dat --topology
EOF
	diff -u "$tmp/zsh.want" "$tmp/zsh.out" || bad "zsh completions differ (- want, + got)"
else
	echo "note: zsh is not installed: its completion was not tried"
fi
[ $fail -eq 0 ] && echo "ok: make install/uninstall copy and remove, completions complete"
exit $fail
