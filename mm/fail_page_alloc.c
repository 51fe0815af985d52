// SPDX-License-Identifier: MIT
/*
 * Fault injection for the page allocator, after Linux's
 * mm/fail_page_alloc.c: fail_page_alloc=interval,probability,space,times
 * on the command line (Linux's fault_attr fields; space is read and
 * ignored here), or fail_page_alloc_set() from a test, makes every
 * interval-th allocation fail with the given probability, so that callers'
 * error paths run. The allocator's check is page_alloc.c's
 * should_fail_alloc_page(): one predicted-not-taken branch while unarmed.
 */
#include <pagoda/params.h>
#include <pagoda/printk.h>
#include <pagoda/string.h>
#include "internal.h"

struct fail_page_alloc_attr fail_page_alloc = { .times = 0 };

static char fail_spec[48];
PARAM_STRING("fail_page_alloc", fail_spec,
	     "fault injection: interval,probability%,space,times (as Linux)");

void fail_page_alloc_set(unsigned long interval, unsigned int probability,
			 long times)
{
	fail_page_alloc.interval = interval ? interval : 1;
	fail_page_alloc.probability = MIN(probability, 100u);
	fail_page_alloc.times = times;
	fail_page_alloc.calls = 0;
}

unsigned long fail_page_alloc_injected(void)
{
	return fail_page_alloc.injected;
}

/* Read fail_page_alloc= once parameters are parsed (called by mm_init). */
void fail_page_alloc_init(void)
{
	u64 v[3] = { 1, 100, 0 };
	s64 times = -1;
	char buf[sizeof(fail_spec)], *s = buf, *tok;
	int i = 0;

	if (!fail_spec[0])
		return;
	strlcpy(buf, fail_spec, sizeof(buf));
	while ((tok = strsep(&s, ",")) && i < 4) {
		if (i < 3 ? kstrtou64(tok, 0, &v[i]) : kstrtos64(tok, 0, &times)) {
			pr_warn("fail_page_alloc: bad field '%s'; fault injection off\n", tok);
			return;
		}
		i++;
	}
	fail_page_alloc_set(v[0], (unsigned int)v[1], (long)times);
	pr_info("fail_page_alloc: every %llu allocation(s), %llu%%, %lld times (-1: no limit)\n",
		(unsigned long long)v[0], (unsigned long long)v[1], (long long)times);
}
