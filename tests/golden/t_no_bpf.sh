#!/bin/sh
# Kernel truth is optional at build time (issue 21): the Makefile builds the BPF side only
# where clang, bpftool, libbpf and the kernel's BTF are, and `make BPF=0` (or any of them
# missing) builds the tracefs-only tool, whose recorder says why it has no truth.  Here:
# the detection turns BPF off when clang or bpftool is missing; a BPF=0 build into a
# directory of its own links without libbpf, and its record (as root) records on with
# the line "no kernel truth: built without BPF (clang/libbpf/bpftool missing)".
top=${RQPATH_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
fail=0
no() { echo "FAIL: $*"; fail=1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
unset MAKEFLAGS MFLAGS

s=$(make -s -C "$top" BPFTOOL=/nonexistent/bpftool bpf-status)
[ "$s" = "BPF=0" ] || no "without bpftool: $s"
s=$(make -s -C "$top" CLANG=/nonexistent/clang bpf-status)
[ "$s" = "BPF=0" ] || no "without clang: $s"
s=$(make -s -C "$top" PKG_CONFIG=/bin/false bpf-status)
[ "$s" = "BPF=0" ] || no "without pkg-config's libbpf: $s"

# the stub build: its own directory, no optimisation (it is about linking, not speed)
make -s -C "$top" -j2 BPF=0 BUILD="$tmp/b" RELEASE_OPT= CFLAGS=-O0 "$tmp/b/rqpath" \
	>"$tmp/make.out" 2>&1 || { no "make BPF=0 failed"; tail -20 "$tmp/make.out"; }
if [ -x "$tmp/b/rqpath" ]; then
	[ -e "$tmp/b/bpf" ] && no "BPF=0 built BPF objects ($tmp/b/bpf)"
	ldd "$tmp/b/rqpath" | grep -q libbpf && no "the BPF=0 binary links libbpf"
	"$tmp/b/rqpath" audit "$top/fixtures/spawn.dat" >/dev/null || no "the BPF=0 binary cannot audit"
	if [ "$(id -u)" -eq 0 ] && [ -d /sys/kernel/tracing/instances ]; then
		"$tmp/b/rqpath" record -o "$tmp/r.dat" --duration 0.2 2>"$tmp/err" ||
			no "the BPF=0 binary does not record"
		cat "$tmp/err"
		grep -qx 'rqpath: warning: no kernel truth: built without BPF (clang/libbpf/bpftool missing); recording with the tracepoints alone' "$tmp/err" ||
			no "the BPF=0 recorder does not say why it has no truth"
		grep -q 'truth=none (built without BPF' "$tmp/err" || no "no sources line"
	else
		grep -aq 'built without BPF (clang/libbpf/bpftool missing)' "$tmp/b/rqpath" ||
			no "the stub's message is not in the BPF=0 binary"
	fi
fi
[ $fail -eq 0 ] && echo "PASS: the build without BPF works and says so"
exit $fail
