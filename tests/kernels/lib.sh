# SPDX-License-Identifier: GPL-2.0
#
# Shared by the kernel tier (sourced, not run): where Debian's kernel packages are cached,
# how an alias (6.1, 6.12, 7.2) maps to a package and a suite, and the busybox initramfs
# that mounts this machine's root over 9p (tests/kernels/fetch.sh builds it per kernel,
# boot.sh for a --kernel-image of your own).  POSIX sh.
kdir=$(cd "$(dirname "$0")" && pwd)
: "${RQPATH_KCACHE:=${HOME:-/root}/.cache/rqpath/kernels}"
KALIASES="6.1 6.12 7.2"

kerr() { echo "rqpath-kernels: $*" >&2; }

# ksuite ALIAS: the Debian suite the alias's package is taken from.  6.1 is bookworm's
# kernel, the machine's own suite here (the cheapest download); the others come from the
# newer suites through a private apt configuration (kapt), never the machine's.
ksuite() {
	case $1 in
	6.1) echo bookworm ;;
	6.12) echo trixie ;;
	7.2) echo sid ;;
	*) return 1 ;;
	esac
}

# kuris: "MAIN SECURITY" -- the archive URIs of the machine's own deb822 sources
# (/etc/apt/sources.list.d/debian.sources): the first stanza's, and the one whose URI
# names the security archive ("-" when there is none).  Read at run time so that no
# mirror host is written into the repository.
kuris() {
	_src=${RQPATH_APT_SOURCES:-/etc/apt/sources.list.d/debian.sources}
	[ -r "$_src" ] || { kerr "no $_src: cannot tell which Debian archive to use"; return 1; }
	awk '
		/^URIs:/ { for (i = 2; i <= NF; i++) {
			if ($i ~ /security/) { if (sec == "") sec = $i }
			else if (main == "") main = $i } }
		END { if (main == "") exit 1; print main, (sec == "" ? "-" : sec) }' "$_src" ||
		{ kerr "$_src names no archive URI"; return 1; }
}

# kapt ARGS...: apt-get or apt-cache (first argument) on the cache's private apt state:
# its own sources.list, lists and package cache, so the machine's apt is not touched.
kapt() {
	_tool=$1; shift
	"$_tool" -o Dir::Etc::sourcelist="$RQPATH_KCACHE/apt/sources.list" \
		-o Dir::Etc::sourceparts=- -o Dir::State::Lists="$RQPATH_KCACHE/apt/lists" \
		-o Dir::Cache="$RQPATH_KCACHE/apt/cache" -o Debug::NoLocking=1 \
		-o APT::Get::List-Cleanup=0 "$@"
}

# kapt_update: write the private sources.list (the three suites and their security and
# updates archives) and refresh its lists; says why when the archive cannot be reached.
kapt_update() {
	_u=$(kuris) || return 1
	set -- $_u
	_main=$1 _sec=$2
	mkdir -p "$RQPATH_KCACHE/apt/lists/partial" "$RQPATH_KCACHE/apt/cache/archives/partial"
	_key=/usr/share/keyrings/debian-archive-keyring.gpg
	{
		for _s in bookworm trixie; do
			echo "deb [signed-by=$_key] $_main $_s main"
			echo "deb [signed-by=$_key] $_main $_s-updates main"
			[ "$_sec" = - ] || echo "deb [signed-by=$_key] $_sec $_s-security main"
		done
		echo "deb [signed-by=$_key] $_main sid main"
	} >"$RQPATH_KCACHE/apt/sources.list"
	if ! kapt apt-get -q update >"$RQPATH_KCACHE/apt/update.log" 2>&1 ||
		grep -q '^\(W\|E\): Failed to fetch' "$RQPATH_KCACHE/apt/update.log"; then
		kerr "apt-get update of the Debian archive ($_main) failed -- no network?"
		grep -E '^(W|E):' "$RQPATH_KCACHE/apt/update.log" | head -n 3 >&2
		return 1
	fi
}

# kmodfiles ROOT VER MODULE...: the .ko paths (relative to ROOT/lib/modules/VER) of the
# MODULEs and their dependencies, dependencies first (the load order busybox insmod
# needs: it resolves nothing).  A module built into the kernel (modules.builtin) is left
# out; one neither built in nor in modules.dep fails.
kmodfiles() {
	_m=$1/lib/modules/$2; shift 2
	awk -v want="$*" '
		function base(p) { sub(/.*\//, "", p); sub(/\.ko(\.(xz|zst|gz))?$/, "", p)
			gsub(/-/, "_", p); return p }
		FILENAME ~ /modules\.builtin$/ { builtin[base($1)] = 1; next }
		{ p = $1; sub(/:$/, "", p); path[base(p)] = p; deps[base(p)] = ""
			for (i = 2; i <= NF; i++) deps[base(p)] = deps[base(p)] " " base($i) }
		function load(m,   n, d, i) {
			if (m in done) return
			done[m] = 1
			n = split(deps[m], d, " ")
			# modules.dep lists the dependencies of a module deepest last
			for (i = n; i >= 1; i--) load(d[i])
			print path[m]
		}
		END { n = split(want, w, " ")
			for (i = 1; i <= n; i++) {
				m = w[i]; gsub(/-/, "_", m)
				if (m in path) load(m)
				else if (!(m in builtin)) { print "missing " m > "/dev/stderr"; bad = 1 }
			}
			exit bad }' "$_m/modules.builtin" "$_m/modules.dep"
}

# The guest's /init: busybox mounts this machine's root read-only (9p tag "hostroot") and
# the results share rw (tag "results"), the kernel's file systems and a tmpfs /tmp inside
# it, records what topology the guest sees, runs /tmp/results/cmd.sh in a chroot and
# powers off.  Its exit code and output land in the results share (rc, output).
kinit_script() {
	cat <<'EOF'
#!/bin/busybox sh
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
while read -r m; do
	insmod "/modules/$m" || echo "init: insmod $m failed"
done </modules.load
h=/host
# msize: 9p's default (8 KiB before 6.x's 128 KiB) makes every read of the host a crawl
mount -t 9p -o trans=virtio,version=9p2000.L,msize=524288,ro,cache=loose hostroot $h ||
	{ echo "init: cannot mount the host root"; poweroff -f; }
mount -t proc proc $h/proc
mount -t sysfs sys $h/sys
mount -t devtmpfs dev $h/dev
mkdir -p $h/dev/pts $h/dev/shm
mount -t devpts devpts $h/dev/pts
mount -t tmpfs tmpfs $h/dev/shm
mount -t tmpfs -o mode=1777 tmpfs $h/tmp
mount -t tmpfs tmpfs $h/run
mount -t tracefs nodev $h/sys/kernel/tracing
mount -t debugfs nodev $h/sys/kernel/debug
mount -t bpf bpf $h/sys/fs/bpf 2>/dev/null
mkdir $h/tmp/results
mount -t 9p -o trans=virtio,version=9p2000.L,msize=524288 results $h/tmp/results ||
	{ echo "init: cannot mount the results share"; poweroff -f; }
r=$h/tmp/results
# what the guest sees, for boot.sh to check against the topology asked for
{
	echo "kernel $(uname -r)"
	echo "cpus $(ls -d /sys/devices/system/cpu/cpu[0-9]* | wc -l)"
	echo "online $(cat /sys/devices/system/cpu/online)"
	for f in /sys/devices/system/cpu/cpu[0-9]*/cache/index3/shared_cpu_list; do
		[ -r "$f" ] && echo "llc $(cat "$f")"
	done | sort -u -t' ' -k2n
	for f in /sys/devices/system/cpu/cpu[0-9]*/topology/thread_siblings_list; do
		echo "smt $(cat "$f")"
	done | sort -u -t' ' -k2n
	for f in /sys/devices/system/node/node[0-9]*/cpulist; do
		[ -r "$f" ] && echo "node $(cat "$f")"
	done
	# sched_verbose: each CPU's domains (level:span), the spans the scheduler works with
	dmesg | awk '
		/CPU[0-9]+ attaching sched-domain/ { if (c != "") print "sched " c d
			c = $0; sub(/.*CPU/, "cpu", c); sub(/ .*/, "", c); d = "" }
		/ domain-[0-9]+: span=/ { l = $0; sub(/.*level=/, "", l); sub(/ .*/, "", l)
			sp = $0; sub(/.*span=/, "", sp); sub(/ .*/, "", sp); d = d " " l ":" sp }
		END { if (c != "") print "sched " c d }'
	echo "boot_s $(cut -d' ' -f1 /proc/uptime)"
} >$r/topology.txt 2>&1
echo "init: running the command"
chroot $h /bin/sh /tmp/results/cmd.sh >$r/output 2>&1
echo $? >$r/rc.tmp
mv $r/rc.tmp $r/rc
echo "init: done, rc $(cat $r/rc)"
sync
umount $r
poweroff -f
EOF
}

# kinitramfs OUT.cpio.gz [MODROOT VER]: the initramfs: static busybox, /init and, when a
# module tree is given, the 9p modules and their dependencies decompressed (busybox
# insmod reads plain .ko) with /modules.load in load order.  Without a module tree the
# kernel must have virtio-pci, 9p and 9pnet_virtio built in.
kinitramfs() {
	_out=$1 _root=$2 _ver=$3
	_bb=$(command -v busybox) || { kerr "busybox is not installed (busybox-static)"; return 1; }
	# the initramfs has no libc: a dynamically linked busybox (package busybox) cannot run
	readelf -l "$_bb" 2>/dev/null | grep -q INTERP &&
		{ kerr "$_bb is dynamically linked: install busybox-static"; return 1; }
	_w=$(mktemp -d) || return 1
	mkdir -p "$_w/bin" "$_w/proc" "$_w/sys" "$_w/dev" "$_w/host" "$_w/modules"
	cp "$_bb" "$_w/bin/busybox"
	kinit_script >"$_w/init"
	chmod 755 "$_w/init"
	: >"$_w/modules.load"
	if [ -n "$_root" ]; then
		_list=$(kmodfiles "$_root" "$_ver" virtio_pci 9pnet_virtio 9p) ||
			{ kerr "$_ver: the 9p modules are not all there"; rm -rf "$_w"; return 1; }
		for _k in $_list; do
			_b=$(basename "$_k")
			case $_b in
			*.ko.xz) xz -dc "$_root/lib/modules/$_ver/$_k" >"$_w/modules/${_b%.xz}" ;;
			*.ko.zst) zstd -qdc "$_root/lib/modules/$_ver/$_k" >"$_w/modules/${_b%.zst}" ;;
			*.ko.gz) gzip -dc "$_root/lib/modules/$_ver/$_k" >"$_w/modules/${_b%.gz}" ;;
			*) cp "$_root/lib/modules/$_ver/$_k" "$_w/modules/$_b" ;;
			esac || { kerr "cannot decompress $_k"; rm -rf "$_w"; return 1; }
			basename "$_b" | sed 's/\.\(xz\|zst\|gz\)$//' >>"$_w/modules.load"
		done
	fi
	(cd "$_w" && find . | cpio -o -H newc --quiet | gzip -1) >"$_out.tmp" &&
		mv "$_out.tmp" "$_out"
	_rc=$?
	rm -rf "$_w"
	return $_rc
}

# ktopo_summary TOPOLOGY.TXT: "cpus=N llc=A,B,... smt=K nodes=C,D,..." -- the CPUs, the
# distinct L3 sharing lists, the most CPUs sharing a core and the nodes' CPU lists the
# guest reported (kinit_script), in the form boot.sh's topologies expect
ktopo_summary() {
	awk '
		function count(l,   n, p, i, r) { n = split(l, p, ","); c = 0
			for (i = 1; i <= n; i++) if (split(p[i], r, "-") == 2) c += r[2] - r[1] + 1
				else c++
			return c }
		$1 == "cpus" { cpus = $2 }
		$1 == "llc" { llc = llc (llc == "" ? "" : ",") $2 }
		$1 == "smt" { if (count($2) > smt) smt = count($2) }
		$1 == "node" { nodes = nodes (nodes == "" ? "" : ",") $2 }
		END { printf "cpus=%s llc=%s smt=%s nodes=%s\n", cpus, llc == "" ? "none" : llc,
			smt, nodes == "" ? "none" : nodes }' "$1"
}
