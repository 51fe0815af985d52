/* SPDX-License-Identifier: MIT */
/*
 * The tally the libc test programs (vfstest, jobtest) share: each defines
 * CHECK_PROG as its name before including this, so every failure line
 * names the program the harness greps for ("NAME: FAIL ...").
 */
#ifndef USER_LIBC_CHECK_H
#define USER_LIBC_CHECK_H

#include <errno.h>
#include <stdio.h>
#include <string.h>

static int failed;

static void check(const char *what, int ok)
{
	if (!ok) {
		printf(CHECK_PROG ": FAIL %s (errno %d %s)\n", what, errno, strerror(errno));
		failed++;
	}
}

/* The call answered -1 with errno e. */
#define FAILS(call, e) do { errno = 0; check(#call " is " #e, (call) == -1 && errno == (e)); } while (0)
/* The call answered want. */
#define IS(call, want) do { errno = 0; check(#call " is " #want, (call) == (want)); } while (0)
/* The call did not fail. */
#define WORKS(call) do { errno = 0; check(#call, (call) >= 0); } while (0)

#endif
