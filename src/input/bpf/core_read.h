/* SPDX-License-Identifier: GPL-2.0 */
/*
 * core_read.h - reads of the kernel's integer fields whose size follows the running
 * kernel's BTF, not the build host's vmlinux.h (truth.bpf.c, tests/bpf/layout.bpf.c).
 *
 * BPF_CORE_READ(s, f) relocates the offset of s->f but reads sizeof(s->f) of the local
 * type: built against 6.18's `int on_rq`, it read 4 bytes on 7.2, where on_rq is a u8
 * followed by the u8 is_blocked, so every blocked task read as queued (1415 of 1623
 * records "on a runqueue" in a 7.2.13 guest).  Any integer field that is narrower in the
 * target than in vmlinux.h reads its neighbours the same way; one that is wider reads
 * half of itself.
 *
 * RQ_CORE_READ_INT(s, f) is libbpf's BPF_CORE_READ_BITFIELD_PROBED(s, f): its five field
 * relocations come from the target's BTF, the BYTE_OFFSET and BYTE_SIZE of f (so it reads
 * exactly the target's 1, 2, 4 or 8 bytes, through bpf_probe_read_kernel() into the low
 * bytes of a zeroed u64), then LSHIFT_U64 and RSHIFT_U64 move the field's bits to the top
 * and back down, an arithmetic shift when SIGNED says the target's type is signed: the
 * value comes out zero- or sign-extended to 64 bits (int nr_cpus_allowed, pid_t pid keep
 * their sign at any size).  For a plain integer the shifts are 64 - 8 * size both ways;
 * the same relocations also read a field that became a bitfield.  The result is an
 * unsigned long long whatever the field: callers narrow it on purpose.
 *
 * Only for integer (and enum) fields: a pointer does not change size between kernels of
 * one architecture and stays BPF_CORE_READ, which also follows a chain of them.
 * Like BPF_CORE_READ, s may be a ___flavour cast and f a path (thread_info.cpu), and a
 * field the target lacks must be guarded by bpf_core_field_exists(): its relocations fail
 * and the verifier rejects the read unless it is dead code.
 */
#ifndef RQPATH_BPF_CORE_READ_H
#define RQPATH_BPF_CORE_READ_H

#include <bpf/bpf_core_read.h>

#define RQ_CORE_READ_INT(s, field) BPF_CORE_READ_BITFIELD_PROBED(s, field)

#endif
