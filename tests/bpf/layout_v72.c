// SPDX-License-Identifier: GPL-2.0
/*
 * layout_v72.c - target BTF for tests/bpf/layout.bpf.c: task_struct's u8 on_rq followed
 * by the u8 is_blocked, as the BTF of Debian's 7.2.13 kernel has them (the layout a build
 * against 6.18's int on_rq misread).  The other fields are narrowed or widened on
 * purpose, not as 7.2 has them: so that every read of truth_read.h meets a size other
 * than the build host's vmlinux.h, a signed one included.  Compiled with
 * clang -g -target bpf for its .BTF alone (btf_custom_path), never run.
 */
typedef int pid_t;
typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned long long u64;

struct thread_info {
	unsigned long flags;
	u16 cpu;
	u16 status;
};

struct cfs_rq;
struct rq;

struct sched_entity {
	struct cfs_rq *cfs_rq;
	unsigned long load;
	u16 sched_delayed;
	unsigned char on_rq;
};

struct task_struct {
	struct thread_info thread_info;
	unsigned int __state;
	u8 on_rq;
	u8 is_blocked;
	short prio;
	u8 policy;
	u8 migration_disabled;
	signed char nr_cpus_allowed;
	u8 migration_flags;
	struct sched_entity se;
	const void *cpus_ptr;
	long long pid;
	pid_t tgid;
};

struct cfs_rq {
	unsigned int nr_queued;
	u8 h_nr_idle;
	u8 h_nr_runnable;
	u16 h_nr_queued;
	struct rq *rq;
};

struct rq {
	struct task_struct *curr;
	u16 nr_running;
	u8 ttwu_pending;
	u8 nr_numa_running;
	struct cfs_rq cfs;
};

/* the macro's own probe: a signed and an unsigned field, 1 and 8 bytes here */
struct rqp_probe {
	u64 u;
	signed char s;
};

struct task_struct layout_task;
struct rq layout_rq;
struct rqp_probe layout_probe;
