// SPDX-License-Identifier: GPL-2.0
/*
 * layout_v611.c - target BTF for tests/bpf/layout.bpf.c: a kernel before 6.12 and 6.14,
 * without sched_entity.sched_delayed (RQ_TRUTH_NO_DELAYED) and with the SCHED_IDLE count
 * under its old name, cfs_rq.idle_h_nr_running (the ___old flavour), types as 6.11 has
 * them.  Compiled with clang -g -target bpf for its .BTF alone (btf_custom_path), never
 * run.
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
	unsigned int on_rq;
	struct cfs_rq *cfs_rq;
};

struct task_struct {
	struct thread_info thread_info;
	unsigned int __state;
	int on_cpu;
	int prio;
	int on_rq;
	struct sched_entity se;
	const void *cpus_ptr;
	unsigned int policy;
	int nr_cpus_allowed;
	unsigned short migration_disabled;
	unsigned short migration_flags;
	pid_t pid;
};

struct cfs_rq {
	unsigned long load;
	unsigned int nr_running;
	unsigned int h_nr_running;
	unsigned int idle_nr_running;
	unsigned int idle_h_nr_running;
	struct rq *rq;
};

struct rq {
	unsigned int nr_running;
	unsigned int ttwu_pending;
	struct cfs_rq cfs;
	struct task_struct *curr;
};

struct rqp_probe {
	int s;
	unsigned short u;
};

struct task_struct layout_task;
struct rq layout_rq;
struct rqp_probe layout_probe;
