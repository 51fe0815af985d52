// SPDX-License-Identifier: MIT
/*
 * Shell commands: `hibernate`, and `hibstate`, which builds state for the
 * tests to find again after a resume: a freezable kernel thread that
 * counts, and pages of memory filled with a pattern.
 */
#include <pagoda/err.h>
#include <pagoda/freezer.h>
#include <pagoda/gfp.h>
#include <pagoda/mm.h>
#include <pagoda/printk.h>
#include <pagoda/random.h>
#include <pagoda/sched.h>
#include <pagoda/shell.h>
#include <pagoda/string.h>
#include <pagoda/suspend.h>
#include <pagoda/time.h>

static int cmd_hibernate(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return hibernate();
}
SHELL_CMD(hibernate, "hibernate",
	  "save the system to the resume= device and power off; boot with resume= to carry on",
	  cmd_hibernate);

/* --- hibstate ----------------------------------------------------------- */

static u64 counter;
static struct task *counter_task;

static int count_thread(void *arg)
{
	(void)arg;
	set_freezable();
	for (;;) {
		try_to_freeze();
		WRITE_ONCE(counter, counter + 1);
		msleep(10);
	}
	return 0;
}

/* The filled pages, on a list through their first word; the pattern is in the rest. */
static void *pattern_pages;
static unsigned long pattern_count;
static u64 pattern_seed;

static u64 pattern_word(u64 seed, unsigned long page, unsigned int word)
{
	u64 x = seed ^ ((u64)page << 20) ^ word;

	/* splitmix64: every word different, cheap to recompute. */
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static int fill(unsigned long mib, u64 seed)
{
	unsigned long n = mib << (20 - PAGE_SHIFT);

	if (pattern_pages) {
		kprintf("hibstate: memory already filled (%lu pages)\n", pattern_count);
		return -EEXIST;
	}
	pattern_seed = seed;
	for (unsigned long i = 0; i < n; i++) {
		u64 *p = (u64 *)__get_free_pages(GFP_KERNEL | __GFP_NOWARN, 0);

		if (!p) {
			kprintf("hibstate: out of memory after %lu pages\n", i);
			break;
		}
		p[0] = (u64)pattern_pages;
		for (unsigned int w = 1; w < PAGE_SIZE / 8; w++)
			p[w] = pattern_word(seed, i, w);
		pattern_pages = p;
		pattern_count = i + 1;
	}
	kprintf("hibstate: filled %lu pages with seed %llu\n", pattern_count,
		(unsigned long long)seed);
	return 0;
}

static int check(void)
{
	unsigned long i = pattern_count, bad = 0;

	for (u64 *p = pattern_pages; p; p = (u64 *)p[0]) {
		i--;
		for (unsigned int w = 1; w < PAGE_SIZE / 8; w++)
			if (p[w] != pattern_word(pattern_seed, i, w)) {
				bad++;
				break;
			}
	}
	kprintf("hibstate: %lu of %lu pages intact, %lu bad\n", pattern_count - bad,
		pattern_count, bad);
	return bad ? -EIO : 0;
}

static int cmd_hibstate(int argc, char **argv)
{
	u64 mib, seed;

	if (argc == 2 && !strcmp(argv[1], "counter")) {
		if (!counter_task) {
			counter_task = kthread_run(count_thread, NULL, "hibcount");
			if (IS_ERR(counter_task)) {
				counter_task = NULL;
				return -ENOMEM;
			}
		}
		kprintf("hibstate: counter %llu at uptime %llu ms\n",
			(unsigned long long)READ_ONCE(counter),
			(unsigned long long)(ktime_get_ns() / NSEC_PER_MSEC));
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "fill") && !kstrtou64(argv[2], 0, &mib) &&
	    !kstrtou64(argv[3], 0, &seed) && mib && mib <= 4096)
		return fill((unsigned long)mib, seed);
	if (argc == 2 && !strcmp(argv[1], "check"))
		return check();
	return -EINVAL;
}
SHELL_CMD(hibstate, "hibstate counter | fill MIB SEED | check",
	  "state for hibernation tests: a counting kernel thread, patterned memory",
	  cmd_hibstate);
