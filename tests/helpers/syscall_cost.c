// SPDX-License-Identifier: GPL-2.0
/*
 * syscall_cost.c - nanoseconds per getppid() system call over N calls (default 2e6):
 * what enabling syscall trace events costs every task of the machine.
 *   build/tests/syscall_cost; rqpath record -q -o x.dat [--syscalls] -- build/tests/syscall_cost
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 2000000;
	struct timespec a, b;

	if (n <= 0)
		n = 2000000;
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (long i = 0; i < n; i++)
		syscall(SYS_getppid);
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("%.1f\n", ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / (double)n);
	return 0;
}
