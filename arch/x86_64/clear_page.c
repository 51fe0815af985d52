// SPDX-License-Identifier: MIT
/*
 * Zeroing a page on x86-64: memset()'s word loop, as before arm64 got
 * its own (Linux uses REP STOSQ here; not measured under TCG yet).
 */
#include <pagoda/arch.h>
#include <pagoda/string.h>

void clear_page(void *page)
{
	memset(page, 0, PAGE_SIZE);
}
