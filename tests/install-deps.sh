#!/bin/sh
# Install the Debian packages rqpath needs to build, or to build and test.
# Usage: tests/install-deps.sh [build|test]    (make deps, make test-deps; CI: test)
# As root it installs what is missing; otherwise it prints the apt-get command and fails.
# Off Debian (no dpkg-query) it names the packages and fails: install their equivalents.
# `make` and `make install` never run this: they only check (make) and copy (install).
set -e
# What `make` needs: the compiler and the libraries the binary links (pkg-config names
# in the Makefile's PKGS).
build_pkgs="make gcc pkg-config libtraceevent-dev libtracefs-dev libncurses-dev libbsd-dev
	libzstd-dev zlib1g-dev"
# What `make check` needs on top: libtracecmd is the reader's oracle (tests/helpers), not
# linked by rqpath; the rest are the test tiers' tools (add new ones here).
# clang, libbpf-dev and bpftool build the BPF side of the recorder (kernel truth: optional
# for `make`, which builds a stub without them; the test tiers check both); rt-tests has
# hackbench, a workload of the truth tier.  The kernel tier (tests/kernels/) boots Debian
# kernels in QEMU: qemu-system-x86, busybox-static for the initramfs (no libc in it), kmod
# (depmod), cpio and xz-utils (the .ko.xz modules).
test_pkgs="libtracecmd-dev libcmocka-dev trace-cmd tmux python3 man-db groff-base chromium
	zsh protobuf-compiler clang libbpf-dev bpftool rt-tests qemu-system-x86 busybox-static
	kmod cpio xz-utils"
case "${1:-build}" in
test) want="$build_pkgs $test_pkgs" ;;
build) want=$build_pkgs ;;
*) echo "usage: $0 [build|test]" >&2; exit 2 ;;
esac
want=$(echo $want)
if ! command -v dpkg-query >/dev/null 2>&1; then
	echo "rqpath: not a Debian system: install the equivalents of: $want" >&2
	exit 1
fi
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
