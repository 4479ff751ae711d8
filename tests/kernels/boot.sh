#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# boot.sh - run one command on another kernel and topology, in QEMU (TCG, single-threaded:
# KVM hung at boot on the VMs this was made on, and multi-threaded TCG oopsed a guest in
# try_to_wake_up while kernel text was patched), with this machine's root as the guest's:
#   sh tests/kernels/boot.sh --kernel ALIAS [--topology NAME] [--timeout S]
#       [--results DIR] [--keep] -- CMD [ARG...]
#   sh tests/kernels/boot.sh --kernel-image BZIMAGE [--modules DIR] ... -- CMD [ARG...]
# ALIAS: a kernel of tests/kernels/fetch.sh (6.1 6.12 7.2; fetched when not cached).
# --kernel-image boots a kernel of your own; --modules DIR is its modules
# (INSTALL_MOD_PATH of `make modules_install`, or its lib/modules/VER), needed unless
# virtio-pci, 9p and 9pnet_virtio are built in.
# Topologies (--topology, default 4):
#   4               4 vCPUs, one socket, one LLC
#   16-2s-smt-numa  2 sockets x 4 cores x 2 threads, an LLC and a NUMA node per socket
#   16-4llc         4 sockets x 4 cores: an L3 (LLC) per socket, one NUMA node
#   64-2s-smt-numa  2 sockets x 16 cores x 2 threads, an LLC and a NUMA node per socket
#   64-8llc         8 sockets x 8 cores, an LLC per socket, one NUMA node (the LLC of
#                   16-2s-smt-numa on four times the CPUs: what scales with which)
#   128-16llc       16 sockets x 8 cores, an LLC per socket, one NUMA node
# The guest mounts / read-only over 9p, a tmpfs on /tmp, proc, sysfs, devtmpfs, tracefs
# and debugfs, and the results directory rw at /tmp/results (RQPATH_RESULTS in CMD's
# environment); CMD runs as root in a chroot of / with the current directory's path as
# its own.  CMD's output is printed here and its exit status is boot.sh's; the guest's
# topology (LLCs, SMT siblings, NUMA nodes, sched domains) is checked against NAME and
# kept in DIR/topology.txt, and boot.sh fails with 3 when it differs.  RQPATH_GUEST_CPU
# and RQPATH_GUEST_SMP replace -cpu and -smp (experiments: the topology is not checked
# with RQPATH_GUEST_SMP).  Other exits: 124
# the guest ran past --timeout (default 1800 s; QEMU is killed), 125 the guest did not
# run CMD (DIR/console.log says why), 2 usage.  DIR is removed afterwards unless given
# (--results) or --keep.
. "$(dirname "$0")/lib.sh"
usage() {
	sed -n '4,14p' "$kdir/boot.sh" | sed 's/^# \{0,1\}//' >&2
	exit 2
}
kalias= image= custom=0 modules= topo=4 timeout=1800 results= keep=0 check=1
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kalias=$2; shift 2 ;;
	--kernel-image) image=$2; shift 2 ;;
	--modules) modules=$2; shift 2 ;;
	--topology) topo=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--results) results=$2; shift 2 ;;
	--keep) keep=1; shift ;;
	--no-topology-check) check=0; shift ;;
	--) shift; break ;;
	-h|--help) usage ;;
	*) kerr "unknown option $1"; usage ;;
	esac
done
[ $# -gt 0 ] || { kerr "no command after --"; usage; }
[ -n "$kalias$image" ] || { kerr "--kernel ALIAS or --kernel-image PATH"; usage; }
case $timeout in ''|*[!0-9]*) kerr "--timeout wants seconds"; usage ;; esac
qemu=${QEMU:-qemu-system-x86_64}
command -v "$qemu" >/dev/null 2>&1 ||
	{ kerr "$qemu is not installed (qemu-system-x86)"; exit 125; }

# -smp and NUMA per topology, and what the guest must then report (ktopo_summary)
numa2() { # MEM_PER_NODE CPUS0 CPUS1
	echo "-object memory-backend-ram,id=m0,size=$1 -numa node,memdev=m0,cpus=$2,nodeid=0" \
		"-object memory-backend-ram,id=m1,size=$1 -numa node,memdev=m1,cpus=$3,nodeid=1"
}
case $topo in
4)
	smp="-smp 4,sockets=1,cores=4,threads=1" mem=2G numa=""
	want="cpus=4 llc=0-3 smt=1 nodes=0-3"
	;;
16-2s-smt-numa)
	smp="-smp 16,sockets=2,cores=4,threads=2" mem=4G numa=$(numa2 2G 0-7 8-15)
	want="cpus=16 llc=0-7,8-15 smt=2 nodes=0-7,8-15"
	;;
16-4llc)
	# four sockets of four cores, one NUMA node: the guest sees an L3 per socket
	# (MC:0-3, then PKG/DIE:0-15) with either vendor of -cpu max.  dies=4 in one socket
	# gives an L3 per die only as GenuineIntel (7.2.13: MC:0-3 PKG:0-15); as the default
	# AMD part the guest shows one L3 of 0-15.
	smp="-smp 16,sockets=4,cores=4,threads=1" mem=4G numa=""
	want="cpus=16 llc=0-3,4-7,8-11,12-15 smt=1 nodes=0-15"
	;;
64-2s-smt-numa)
	smp="-smp 64,sockets=2,cores=16,threads=2" mem=6G numa=$(numa2 3G 0-31 32-63)
	want="cpus=64 llc=0-31,32-63 smt=2 nodes=0-31,32-63"
	;;
64-8llc)
	smp="-smp 64,sockets=8,cores=8,threads=1" mem=6G numa=""
	want="cpus=64 llc=0-7,8-15,16-23,24-31,32-39,40-47,48-55,56-63 smt=1 nodes=0-63"
	;;
128-16llc)
	smp="-smp 128,sockets=16,cores=8,threads=1" mem=8G numa=""
	want="cpus=128 llc=$(seq 0 8 120 | awk '{ printf "%s%d-%d", (NR > 1 ? "," : ""), $1, $1 + 7 }') smt=1 nodes=0-127"
	;;
*) kerr "unknown topology '$topo' (4 16-2s-smt-numa 16-4llc 64-2s-smt-numa 64-8llc 128-16llc)"
   exit 2 ;;
esac
# an experiment's -smp (the topology's memory and NUMA nodes kept; check it yourself)
[ -n "${RQPATH_GUEST_SMP:-}" ] && smp="-smp $RQPATH_GUEST_SMP" check=0

if [ -n "$results" ]; then
	mkdir -p "$results" || exit 125
	results=$(cd "$results" && pwd)
	rm -f "$results/rc" "$results/output" "$results/topology.txt" "$results/console.log"
	keep=1
else
	results=$(mktemp -d /tmp/rqpath-guest.XXXXXX) || exit 125
fi
qpid=
cleanup() {
	# never leave QEMU behind, whatever ends this script
	if [ -n "$qpid" ] && kill -0 "$qpid" 2>/dev/null; then
		kill "$qpid" 2>/dev/null
		sleep 1
		kill -9 "$qpid" 2>/dev/null
	fi
	[ $keep = 1 ] || rm -rf "$results"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

# the kernel and its initramfs
if [ -n "$image" ]; then
	[ -r "$image" ] || { kerr "cannot read --kernel-image $image"; exit 125; }
	initrd=$results/initrd.gz
	if [ -n "$modules" ]; then
		# INSTALL_MOD_PATH (ROOT/lib/modules/VER) or lib/modules/VER itself
		if [ -f "$modules/modules.dep" ]; then
			mver=$(basename "$(cd "$modules" && pwd)")
			mroot=$(cd "$modules/../../.." && pwd)
		else
			mver=$(ls "$modules/lib/modules" 2>/dev/null | head -n 1)
			mroot=$modules
		fi
		[ -f "$mroot/lib/modules/$mver/modules.dep" ] ||
			{ kerr "--modules $modules: no modules.dep (run depmod)"; exit 125; }
		kinitramfs "$initrd" "$mroot" "$mver" || exit 125
	else
		kinitramfs "$initrd" || exit 125
	fi
	kname="custom $(basename "$image")" custom=1
else
	k=$(sh "$kdir/fetch.sh" "$kalias" | tail -n 1) && [ -f "$k/ok" ] || exit 125
	image=$k/vmlinuz initrd=$k/initrd.gz
	kname="$kalias $(cat "$k/version")"
fi

# the guest's /tmp is its own tmpfs, over the host's
case $(pwd)/ in
/tmp/*) kerr "the current directory $(pwd) is under /tmp, which the guest does not see"
	exit 125 ;;
esac
# the command, quoted for the guest's sh
q() { printf "'%s'" "$(printf %s "$1" | sed "s/'/'\\\\''/g")"; }
{
	echo "export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
	echo "export HOME=/tmp TERM=dumb LANG=C.UTF-8 RQPATH_RESULTS=/tmp/results RQPATH_GUEST=1"
	echo "cd $(q "$(pwd)") || exit 125"
	printf 'exec'
	for a in "$@"; do printf ' %s' "$(q "$a")"; done
	echo
} >"$results/cmd.sh"

# One guest at a time: a TCG guest keeps a host CPU busy, and two on a 2-CPU host would
# each run at half speed and past their timeouts.  The wait is not the guest's time.
if command -v flock >/dev/null 2>&1 && mkdir -p "$RQPATH_KCACHE"; then
	exec 9>"$RQPATH_KCACHE/guest.lock"
	flock -n 9 || { kerr "waiting for another guest to finish"; flock 9; }
fi
# -cpu max under TCG is an AMD family 15 part by default, whose SMT siblings 6.1 does not
# see (TCG has no topoext, and 6.1's AMD code needs it; 6.12 and 7.2 read leaf 0xb): as
# GenuineIntel every kernel reads the threads from leaf 0xb and the L3 from leaf 4, per
# socket, and 6.1 boots in half the time
cpu=${RQPATH_GUEST_CPU:-max,vendor=GenuineIntel}
start=$(date +%s)
# quiet: the console is kept (console.log) but only init's lines and errors matter;
# sched_verbose: the sched domains' spans go to dmesg for topology.txt
# shellcheck disable=SC2086
"$qemu" -accel tcg,thread=single -cpu "$cpu" $smp -m $mem $numa \
	-kernel "$image" -initrd "$initrd" \
	-append "console=ttyS0 quiet panic=-1 sched_verbose ${RQPATH_GUEST_APPEND:-}" \
	-display none -monitor none -serial "file:$results/console.log" -no-reboot -net none \
	-virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap \
	-virtfs "local,path=$results,mount_tag=results,security_model=none,multidevs=remap" \
	</dev/null >"$results/qemu.log" 2>&1 &
qpid=$!
while kill -0 "$qpid" 2>/dev/null; do
	if [ $(($(date +%s) - start)) -ge "$timeout" ]; then
		kerr "$kname/$topo: the guest ran past ${timeout}s: QEMU killed"
		[ $keep = 1 ] && kerr "console: $results/console.log"
		exit 124
	fi
	sleep 1
done
wait "$qpid"
qrc=$?
qpid=
wall=$(($(date +%s) - start))
if [ ! -f "$results/rc" ]; then
	kerr "$kname/$topo: the guest did not run the command (QEMU exit $qrc):"
	tail -n 15 "$results/console.log" >&2
	# QEMU's warnings that TCG has no topoext are expected (the guest still sees SMT)
	grep -v -e topoext -e hyperthreading -e 'configure -smp' "$results/qemu.log" >&2
	if grep -q 'cannot mount the host root' "$results/console.log" && [ $custom = 1 ] &&
		[ -z "$modules" ]; then
		kerr "no 9p over virtio in the kernel: build in CONFIG_VIRTIO_PCI," \
			"CONFIG_NET_9P_VIRTIO and CONFIG_9P_FS, or give --modules DIR"
	fi
	exit 125
fi
rc=$(cat "$results/rc")
cat "$results/output"
have=$(ktopo_summary "$results/topology.txt")
echo "kernel=$kname topology=$topo cpu=$cpu wall_s=$wall boot_s=$(sed -n 's/^boot_s //p' \
	"$results/topology.txt") rc=$rc $have" >"$results/summary"
if [ $check = 1 ] && [ "$have" != "$want" ]; then
	kerr "$kname/$topo: the guest's topology is not the one asked for"
	kerr "  want: $want"
	kerr "  have: $have"
	# the first few lines of each kind: a 64-CPU guest has 64 of them
	awk '{ if (++n[$1] <= 4) print "  " $0; else if (n[$1] == 5) print "  " $1 " ..." }' \
		"$results/topology.txt" >&2
	exit 3
fi
exit "$rc"
