#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The environment of a command run as another user: `record --user NAME -- CMD` (and
# `audit --live --user`, and the sudo user by default) gives CMD that user's
# environment as `su -` and sudo's env_reset do: HOME, SHELL, USER, LOGNAME and PATH
# from the target user, TERM kept, nothing else of rqpath's (no SECRET_TOKEN, no
# root's HOME); --preserve-env keeps rqpath's.  A numeric --user without a passwd
# entry runs (as that uid, group nogroup, HOME=/).  Red on main 461bcf6: CMD as nobody
# saw SECRET_TOKEN, HOME=/root and root's PATH; --user 54321 was "no such user".
. "$(dirname "$0")/lib.sh"
id nobody >/dev/null 2>&1 || { echo "skip: no user nobody"; exit 77; }
dir=$(mktemp -d) || exit 1
chmod 755 "$dir"
trap 'rm -rf "$dir"' EXIT
show='env | sort; id -u; id -g'
home=$(getent passwd nobody | cut -d: -f6)
shell=$(getent passwd nobody | cut -d: -f7)

# env_of FILE: checks that FILE (the command's env, id -u, id -g) is the user's
# $1 file, $2 user name, $3 HOME, $4 SHELL
user_env() {
	f=$1 name=$2 h=$3 sh=$4
	grep -q '^SECRET_TOKEN=' "$f" && no "$f: CMD saw rqpath's SECRET_TOKEN"
	grep -qx "HOME=$h" "$f" || no "$f: HOME is $(grep ^HOME= "$f"), want $h"
	grep -qx "USER=$name" "$f" || no "$f: USER is $(grep ^USER= "$f"), want $name"
	grep -qx "LOGNAME=$name" "$f" || no "$f: LOGNAME is $(grep ^LOGNAME= "$f"), want $name"
	grep -qx "SHELL=$sh" "$f" || no "$f: SHELL is $(grep ^SHELL= "$f"), want $sh"
	grep -qx 'PATH=/usr/local/bin:/usr/bin:/bin' "$f" ||
		no "$f: PATH is $(grep ^PATH= "$f"), want the user's standard one"
	grep -qx 'TERM=rq-term' "$f" || no "$f: TERM was not kept"
	extra=$(grep -v -e '^HOME=' -e '^USER=' -e '^LOGNAME=' -e '^SHELL=' -e '^PATH=' \
		-e '^TERM=' -e '^PWD=' -e '^SHLVL=' -e '^_=' -e '^[0-9]*$' -e '^OLDPWD=' "$f")
	[ -z "$extra" ] || no "$f: more of rqpath's environment: $extra"
}

SECRET_TOKEN=x TERM=rq-term HOME=/root timeout 60 "$RQPATH" record -q -o "$dir/a.dat" \
	--user nobody -- sh -c "$show" >"$dir/a.out" 2>"$dir/a.err" || no "--user nobody: exit $?"
user_env "$dir/a.out" nobody "$home" "$shell"
[ "$(tail -n 2 "$dir/a.out" | head -1)" = "$(id -u nobody)" ] || no "--user nobody: wrong uid"

# the sudo user by default
SECRET_TOKEN=x TERM=rq-term SUDO_UID=$(id -u nobody) SUDO_GID=$(id -g nobody) \
	SUDO_USER=nobody timeout 60 "$RQPATH" record -q -o "$dir/s.dat" -- sh -c "$show" \
	>"$dir/s.out" 2>"$dir/s.err" || no "sudo user: exit $?"
user_env "$dir/s.out" nobody "$home" "$shell"

# audit --live --user the same (CMD's stdout is rqpath's stderr there)
SECRET_TOKEN=x TERM=rq-term timeout 60 "$RQPATH" audit --live --user nobody -- \
	sh -c "$show" >/dev/null 2>"$dir/l.out" || no "audit --live --user nobody: exit $?"
grep -v '^rqpath' "$dir/l.out" >"$dir/l.env"
user_env "$dir/l.env" nobody "$home" "$shell"

# --preserve-env: rqpath's own
SECRET_TOKEN=x TERM=rq-term timeout 60 "$RQPATH" record -q -o "$dir/p.dat" --user nobody \
	--preserve-env -- sh -c "$show" >"$dir/p.out" 2>"$dir/p.err" || no "--preserve-env: exit $?"
grep -qx 'SECRET_TOKEN=x' "$dir/p.out" || no "--preserve-env did not keep the environment"

# a numeric uid without a passwd entry
uid=54321
while getent passwd $uid >/dev/null; do uid=$((uid + 1)); done
ngid=$(getent group nogroup | cut -d: -f3)
[ -n "$ngid" ] || ngid=$(getent group nobody | cut -d: -f3)
[ -n "$ngid" ] || ngid=65534
SECRET_TOKEN=x TERM=rq-term timeout 60 "$RQPATH" record -q -o "$dir/n.dat" --user $uid -- \
	sh -c "$show" >"$dir/n.out" 2>"$dir/n.err" || no "--user $uid: exit $? $(cat "$dir/n.err")"
user_env "$dir/n.out" $uid / /bin/sh
[ "$(tail -n 2 "$dir/n.out" | tr '\n' ' ')" = "$uid $ngid " ] ||
	no "--user $uid ran as $(tail -n 2 "$dir/n.out" | tr '\n' ' ')"
[ -e "$dir/n.dat" ] || no "--user $uid: no recording"

[ -z "$(stale)" ] || no "instances left: $(stale)"
[ $fail -eq 0 ] && echo PASS
exit $fail
