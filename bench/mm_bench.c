// SPDX-License-Identifier: MIT
/*
 * `bench mm`: what a process's life costs (fork, exec, a page fault, a
 * pipe), timed in user mode by /bin/mmbench (user/mmbench.c). The same
 * static binary boots on Debian's Linux in the same QEMU
 * (tools/linuxpeer.py), and `make bench` prints both side by side; here
 * the program runs five times in one boot, as it does there.
 */
#include <pagoda/bench.h>
#include <pagoda/printk.h>
#include <pagoda/process.h>

#define MM_BENCH_RUNS 5

static void bench_mm(void)
{
	static const char *const argv[] = { "/bin/mmbench" };

	for (int i = 0; i < MM_BENCH_RUNS; i++) {
		const char *why;
		int status;

		kprintf("mm: run %d\n", i);
		status = process_run("/bin/mmbench", 1, argv, &why);
		if (status)
			pr_err("bench mm: /bin/mmbench: %s (status %d)\n", why, status);
	}
}
KBENCH(mm, "fork, exec, page faults, mmap, pipes: user/mmbench five times (Linux beside it: make bench)",
       bench_mm);
