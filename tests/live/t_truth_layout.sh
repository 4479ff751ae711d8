#!/bin/sh
# The truth program's reads of kernel fields (src/input/bpf/truth_read.h, the same code
# truth.bpf.c runs) against kernels whose fields have other sizes and offsets than this
# build host's vmlinux.h: tests/helpers/bpf_layout.c loads tests/bpf/layout.bpf.c with
# CO-RE relocated against the BTF of each tests/bpf/layout_*.c (6.18's types, 7.2's u8
# on_rq + u8 is_blocked with other fields resized, 6.11's old names), test-runs it on
# objects it filled per layout, and checks every field.  Red where a read is plain
# BPF_CORE_READ (it reads the local type's size): on 7.2's layout a blocked task's on_rq
# and is_blocked read together as "on a runqueue".  Root and BPF, else skipped.
build=${RQPATH_BUILD:-$(cd "$(dirname "$0")/../.." && pwd)/build}
helper=$build/tests/bpf_layout
[ -x "$helper" ] || { echo "skip: $helper is not built (make $helper)"; exit 77; }
if [ "$(id -u)" -ne 0 ]; then echo "skip: loading BPF programs needs root"; exit 77; fi
set -- "$build"/bpf/layout_*.btf.o
# a build without BPF has no layouts: its stub helper says so (77)
[ -f "$1" ] || set --
[ $# -gt 0 ] || exec "$helper" none
[ $# -ge 3 ] || { echo "FAIL: only $# layouts in $build/bpf"; exit 1; }
exec "$helper" "$@"
