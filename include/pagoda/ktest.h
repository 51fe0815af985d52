/* SPDX-License-Identifier: MIT */
/*
 * ktest: an in-kernel unit-test framework in the spirit of KUnit.
 *
 * A suite is a table of cases placed in the "ktest_suites" linker section, so
 * declaring one is all it takes to have it run. The same header and the same
 * kernel/ktest.c build on the host, where the pure code (lib/, mm/ ...) is
 * tested under AddressSanitizer and UBSan: a case is written once and runs in
 * both places. Results are printed as KTAP version 1.
 *
 *	static void test_strlen(struct ktest *t)
 *	{
 *		KEXPECT_EQ(t, strlen("abc"), 3);
 *	}
 *	static struct ktest_case string_cases[] = {
 *		KTEST_CASE(test_strlen),
 *		{}
 *	};
 *	KTEST_SUITE(string, string_cases);
 *
 * KEXPECT_* records a failure and goes on; KASSERT_* records it and leaves the
 * case at once (by return, so it may only be used in the case function).
 */
#ifndef PAGODA_KTEST_H
#define PAGODA_KTEST_H

#include <pagoda/types.h>

struct ktest {
	const char *case_name;
	int failures;
	bool skipped;
	const char *skip_reason;
	void *priv; /* for the suite's init/exit */
};

struct ktest_case {
	const char *name;
	void (*run)(struct ktest *t);
};

struct ktest_suite {
	const char *name;
	struct ktest_case *cases; /* terminated by an empty entry */
	int (*init)(struct ktest *t); /* before each case; nonzero skips it */
	void (*exit)(struct ktest *t); /* after each case */
	/* Suites that need the real machine (CPU faults, devices) say so. */
	bool kernel_only;
};

#define KTEST_CASE(fn) { .name = #fn, .run = fn }

#define KTEST_SUITE_FULL(sname, ...)                                          \
	static struct ktest_suite __ktest_suite_##sname = { .name = #sname,  \
							     __VA_ARGS__ }; \
	static struct ktest_suite *__ktest_ptr_##sname __used                 \
		__section("ktest_suites") = &__ktest_suite_##sname
#define KTEST_SUITE(sname, case_array) \
	KTEST_SUITE_FULL(sname, .cases = case_array)

void ktest_fail(struct ktest *t, const char *file, int line, const char *fmt,
		...) __printf(4, 5);
void ktest_skip(struct ktest *t, const char *reason);
/*
 * The kernel reports that follow are provoked on purpose: print them as
 * "# expected: ..." diagnostics until ktest_expect_reports(t, false) or the
 * end of the case, so a passing run does not look broken.
 */
void ktest_expect_reports(struct ktest *t, bool on);
/* A diagnostic line in the KTAP output (a measured value, a reason). */
void ktest_log(struct ktest *t, const char *fmt, ...) __printf(2, 3);

#define KEXPECT_TRUE(t, cond)                                                \
	do {                                                                 \
		if (!(cond))                                                 \
			ktest_fail(t, __FILE__, __LINE__,                    \
				   "expected %s to be true", #cond);         \
	} while (0)
#define KEXPECT_FALSE(t, cond) KEXPECT_TRUE(t, !(cond))

#define __KEXPECT_INT(t, a, op, b, action)                                   \
	do {                                                                 \
		long long __a = (long long)(a), __b = (long long)(b);        \
		if (!(__a op __b)) {                                         \
			ktest_fail(t, __FILE__, __LINE__,                    \
				   "expected %s %s %s, got %lld vs %lld", #a, #op, \
				   #b, __a, __b);                            \
			action;                                              \
		}                                                            \
	} while (0)
#define KEXPECT_EQ(t, a, b) __KEXPECT_INT(t, a, ==, b, (void)0)
#define KEXPECT_NE(t, a, b) __KEXPECT_INT(t, a, !=, b, (void)0)
#define KEXPECT_LT(t, a, b) __KEXPECT_INT(t, a, <, b, (void)0)
#define KEXPECT_LE(t, a, b) __KEXPECT_INT(t, a, <=, b, (void)0)
#define KEXPECT_GT(t, a, b) __KEXPECT_INT(t, a, >, b, (void)0)
#define KEXPECT_GE(t, a, b) __KEXPECT_INT(t, a, >=, b, (void)0)
#define KASSERT_EQ(t, a, b) __KEXPECT_INT(t, a, ==, b, return)
#define KASSERT_NE(t, a, b) __KEXPECT_INT(t, a, !=, b, return)
#define KASSERT_TRUE(t, cond)                                                \
	do {                                                                 \
		if (!(cond)) {                                               \
			ktest_fail(t, __FILE__, __LINE__,                    \
				   "assertion %s failed", #cond);            \
			return;                                              \
		}                                                            \
	} while (0)

#define __KEXPECT_STR(t, a, b, action)                                       \
	do {                                                                 \
		const char *__a = (a), *__b = (b);                           \
		if (!__a || !__b || strcmp(__a, __b) != 0) {                 \
			ktest_fail(t, __FILE__, __LINE__,                    \
				   "expected %s == %s, got \"%s\" vs \"%s\"", \
				   #a, #b, __a ? __a : "(null)",              \
				   __b ? __b : "(null)");                     \
			action;                                              \
		}                                                            \
	} while (0)
#define KEXPECT_STREQ(t, a, b) __KEXPECT_STR(t, a, b, (void)0)
#define KASSERT_STREQ(t, a, b) __KEXPECT_STR(t, a, b, return)

/*
 * Run the suites named in the comma-separated list ("all" for every suite).
 * Prints KTAP; returns the number of failed cases, or -ENOENT when a named
 * suite does not exist.
 */
int ktest_run(const char *list);
/* NULL if every name in the comma-separated list is a suite (or "all"), else why not. */
const char *ktest_check_list(const char *list);
/* Call fn on each registered suite (for listing). */
void ktest_for_each_suite(void (*fn)(const struct ktest_suite *s, void *arg),
			  void *arg);
/* True when built for the host test runner. */
bool ktest_on_host(void);
/* Ctrl-C in the kernel's shell (never on the host): the rest is skipped. */
bool ktest_interrupted(void);

#endif
