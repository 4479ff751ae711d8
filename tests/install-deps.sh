#!/bin/sh
# Install the Debian packages rqpath needs to build, run and test.
# Usage: tests/install-deps.sh [build|test]
# As root it installs what is missing; otherwise it prints the apt-get command and fails.
set -e
build_pkgs="make gcc pkg-config libtraceevent-dev libtracefs-dev libtracecmd-dev libncurses-dev libbsd-dev libzstd-dev zlib1g-dev"
test_pkgs="$build_pkgs libcmocka-dev trace-cmd tmux python3 man-db groff-base chromium"
case "${1:-build}" in
test) want=$test_pkgs ;;
*) want=$build_pkgs ;;
esac
missing=""
for p in $want; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
	echo "rqpath: missing packages:$missing" >&2
	echo "rqpath: run as root: apt-get update && apt-get install -y$missing" >&2
	exit 1
fi
echo "rqpath: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get -o DPkg::Lock::Timeout=600 update -qq >&2
apt-get -o DPkg::Lock::Timeout=600 install -y -qq $missing >&2
