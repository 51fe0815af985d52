// SPDX-License-Identifier: MIT
/*
 * FUTEX_WAIT and FUTEX_WAKE as a program sees them (kernel/futex/waitwake.c),
 * the lab "threads" (docs/labs/threads.md). Each case runs one mode of
 * user/libc/futextest.c, a real program whose every mode also exits 0 on
 * Linux, and wants its exit status 0; the program prints which of its
 * checks failed. Its waits all have timeouts and an alarm bounds it, so
 * a wrong futex costs a case, not the boot. Each case names the wrong
 * solutions it catches.
 */
#include <pagoda/ktest.h>
#include <pagoda/process.h>

/* A wait status: exited with code. */
#define EXITED(code) (((code) & 0xff) << 8)

static int futextest(const char *mode)
{
	const char *argv[] = { "/bin/futextest", mode };
	const char *why = NULL;

	return process_run("/bin/futextest", 2, argv, &why);
}

/*
 * A wait whose word no longer holds the value returns EAGAIN at once,
 * one whose word holds it sleeps. Catches: a wait that never compares
 * (tried by hand; not among labs/wrong/threads/, to keep make test short).
 */
static void test_wait_checks_the_value(struct ktest *t)
{
	KEXPECT_EQ(t, futextest("value"), EXITED(0));
}

/* A wake of 1 wakes one of three waiters. Catches: a wake of every waiter. */
static void test_wake_wakes_at_most_n(struct ktest *t)
{
	KEXPECT_EQ(t, futextest("wake-n"), EXITED(0));
}

/*
 * Private words at the same address in two processes are two futexes.
 * Catches: waiters matched by address alone.
 */
static void test_private_futex_is_per_process(struct ktest *t)
{
	KEXPECT_EQ(t, futextest("private"), EXITED(0));
}

/* A word in MAP_SHARED memory is one futex in both processes. */
static void test_shared_futex_across_fork(struct ktest *t)
{
	KEXPECT_EQ(t, futextest("shared"), EXITED(0));
}

/*
 * Two threads hand a turn over 2000 times on two CPUs. Catches: a wait
 * that reads the word before taking the bucket lock (a lost wake-up,
 * when the other thread's change and wake fall between the two).
 */
static void test_no_lost_wakeups(struct ktest *t)
{
	KEXPECT_EQ(t, futextest("pingpong"), EXITED(0));
}

static struct ktest_case futex_cases[] = {
	KTEST_CASE(test_wait_checks_the_value),
	KTEST_CASE(test_wake_wakes_at_most_n),
	KTEST_CASE(test_private_futex_is_per_process),
	KTEST_CASE(test_shared_futex_across_fork),
	KTEST_CASE(test_no_lost_wakeups),
	{}
};
KTEST_SUITE_FULL(futex, .cases = futex_cases, .kernel_only = true);
