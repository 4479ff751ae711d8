// SPDX-License-Identifier: GPL-2.0
/*
 * layout_v618.c - target BTF for tests/bpf/layout.bpf.c: the fields truth_read.h reads,
 * with the types this build host's 6.18 vmlinux.h gives them (int on_rq, unsigned int
 * policy, ...), at offsets of their own.  Compiled with clang -g -target bpf for its
 * .BTF alone (btf_custom_path), never run.
 */
typedef int pid_t;
typedef unsigned int u32;

struct thread_info {
	unsigned long flags;
	unsigned long syscall_work;
	u32 status;
	u32 cpu;
};

struct cfs_rq;
struct rq;

struct sched_entity {
	unsigned long load;
	unsigned char on_rq;
	unsigned char sched_delayed;
	unsigned char rel_deadline;
	unsigned char custom_slice;
	struct cfs_rq *cfs_rq;
};

struct task_struct {
	struct thread_info thread_info;
	unsigned int __state;
	int on_cpu;
	int on_rq;
	int prio;
	struct sched_entity se;
	unsigned int policy;
	int nr_cpus_allowed;
	const void *cpus_ptr;
	unsigned short migration_flags;
	unsigned short migration_disabled;
	pid_t pid;
	pid_t tgid;
};

struct cfs_rq {
	unsigned long load;
	unsigned int nr_queued;
	unsigned int h_nr_queued;
	unsigned int h_nr_runnable;
	unsigned int h_nr_idle;
	struct rq *rq;
};

struct rq {
	unsigned int nr_running;
	unsigned int nr_numa_running;
	unsigned long cpu_load;
	struct cfs_rq cfs;
	struct task_struct *curr;
	unsigned int ttwu_pending;
	unsigned int pad;
};

/* the macro's own probe: a signed and an unsigned field, 4 and 2 bytes here */
struct rqp_probe {
	int s;
	unsigned short u;
};

struct task_struct layout_task;
struct rq layout_rq;
struct rqp_probe layout_probe;
