#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# fetch.sh - fetch Debian kernels for the kernel tier and make each bootable by
# tests/kernels/boot.sh:
#   sh tests/kernels/fetch.sh [--refresh] ALIAS...      (ALIAS: 6.1 6.12 7.2; default all)
#   6.1   linux-image-6.1.0-N-amd64             bookworm (the newest N the archive has)
#   6.12  linux-image-6.12.N+deb13-amd64        trixie
#   7.2   linux-binary-7.2.N+deb14-amd64, linux-base-..., linux-modules-...   sid
# into $RQPATH_KCACHE (default ~/.cache/rqpath/kernels)/ALIAS/: the packages unpacked
# (root/), depmod run on them, vmlinuz and initrd.gz (busybox and the 9p modules in load
# order).  A kernel already there is used as it is, without the network (--refresh fetches
# the newest again).  The apt state is the cache's own (kapt, lib.sh): the machine's apt
# lists and configuration are not touched.  Prints the directory of each kernel; fails
# saying why (no network, no such package, a package without a kernel).
. "$(dirname "$0")/lib.sh"
refresh=0
[ "$1" = --refresh ] && { refresh=1; shift; }
[ $# -gt 0 ] || set -- $KALIASES
for c in apt-get dpkg-deb depmod cpio gzip xz readelf; do
	command -v $c >/dev/null 2>&1 ||
		{ kerr "$c is not installed (tests/install-deps.sh test installs it)"; exit 1; }
done
mkdir -p "$RQPATH_KCACHE" || exit 1
updated=0

# newest PATTERN: the newest package name (version sort) matching the grep -E pattern
newest() {
	kapt apt-cache search --names-only "$1" 2>/dev/null | cut -d' ' -f1 |
		grep -E "$1" | sort -V | tail -n 1
}

fetch_one() {
	a=$1
	suite=$(ksuite "$a") || { kerr "unknown kernel alias '$a' (known: $KALIASES)"; return 1; }
	k=$RQPATH_KCACHE/$a
	if [ $refresh = 0 ] && [ -f "$k/ok" ]; then
		# an initramfs made by an older /init is made again (no network)
		if [ "$(kinit_script | cksum)" != "$(cat "$k/init.sum" 2>/dev/null)" ]; then
			kinitramfs "$k/initrd.gz" "$k/root" "$(cat "$k/release")" || return 1
			kinit_script | cksum >"$k/init.sum"
		fi
		echo "$k"
		return 0
	fi
	if [ $updated = 0 ]; then
		kapt_update || return 1
		updated=1
	fi
	case $a in
	6.1) pkgs=$(newest '^linux-image-6\.1\.0-[0-9]+-amd64$') ;;
	6.12) pkgs=$(newest '^linux-image-6\.12\.[0-9]+\+deb13-amd64$') ;;
	7.2)
		b=$(newest '^linux-binary-7\.2\.[0-9]+\+deb14-amd64$')
		v=${b#linux-binary-}
		pkgs=${b:+"$b linux-base-$v linux-modules-$v"}
		;;
	esac
	if [ -z "$pkgs" ]; then
		kerr "$a: no kernel package for it in $suite (gone from the archive?)"
		return 1
	fi
	rm -rf "$k.new"
	mkdir -p "$k.new/root" "$RQPATH_KCACHE/debs"
	for p in $pkgs; do
		# apt-get download keeps NAME_VERSION_ARCH.deb: one downloaded before is reused
		d=$(ls "$RQPATH_KCACHE/debs/${p}_"*.deb 2>/dev/null | tail -n 1)
		if [ -z "$d" ]; then
			(cd "$RQPATH_KCACHE/debs" && kapt apt-get -q download "$p") \
				>"$k.new/download.log" 2>&1 || {
				kerr "$a: apt-get download $p failed:"
				grep -E '^(E|W):' "$k.new/download.log" | head -n 3 >&2
				return 1
			}
			d=$(ls "$RQPATH_KCACHE/debs/${p}_"*.deb 2>/dev/null | tail -n 1)
		fi
		[ -n "$d" ] || { kerr "$a: $p was downloaded but no .deb is there"; return 1; }
		dpkg-deb -x "$d" "$k.new/root" || { kerr "$a: dpkg-deb -x $d failed"; return 1; }
		echo "$(basename "$d")" >>"$k.new/pkgs"
	done
	r=$k.new/root
	# 7.2's packages are usr-merged (usr/lib/modules); depmod -b reads ROOT/lib/modules
	[ -e "$r/lib" ] || ln -s usr/lib "$r/lib"
	img=$(ls "$r"/boot/vmlinuz-* "$r"/usr/lib/modules/*/vmlinuz 2>/dev/null | head -n 1)
	[ -n "$img" ] || { kerr "$a: no vmlinuz in $pkgs"; return 1; }
	ver=$(ls "$r/lib/modules" | head -n 1)
	[ -n "$ver" ] && [ -f "$r/lib/modules/$ver/modules.order" ] ||
		{ kerr "$a: no lib/modules/VER/modules.order in $pkgs"; return 1; }
	depmod -b "$r" "$ver" || { kerr "$a: depmod -b $r $ver failed"; return 1; }
	kinitramfs "$k.new/initrd.gz" "$r" "$ver" || return 1
	kinit_script | cksum >"$k.new/init.sum"
	ln -sf "${img#$k.new/}" "$k.new/vmlinuz"
	echo "$ver" >"$k.new/release"
	# the Debian version of the package with the kernel (7.2.13-1, 6.1.192-3)
	dpkg-deb -f "$(ls "$RQPATH_KCACHE/debs/$(echo $pkgs | cut -d' ' -f1)_"*.deb |
		tail -n 1)" Version >"$k.new/version"
	echo "$ver $(cat "$k.new/version") $pkgs" >"$k.new/ok"
	rm -rf "$k"
	mv "$k.new" "$k"
	echo "$k"
}

rc=0
for a in "$@"; do
	fetch_one "$a" || { rm -rf "$RQPATH_KCACHE/$a.new"; rc=1; }
done
exit $rc
