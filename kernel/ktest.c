// SPDX-License-Identifier: MIT
/*
 * ktest: runs the suites found in the "ktest_suites" section and prints
 * KTAP version 1, the format KUnit uses, so the harness (and any KTAP
 * reader) can tell passes, failures and skips apart line by line.
 *
 * This file is portable and builds on the host too; there the suites come
 * from the same section of the test binary.
 */
#include <pagoda/ktest.h>
#include <pagoda/params.h>
#include <pagoda/printk.h>
#include <pagoda/string.h>
#include <pagoda/time.h>

extern struct ktest_suite *__start_ktest_suites[];
extern struct ktest_suite *__stop_ktest_suites[];

void ktest_fail(struct ktest *t, const char *file, int line, const char *fmt,
		...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vscnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* KTAP diagnostics: indented to the case's level, '#'-prefixed. */
	kprintf("        # %s: %s:%d: %s\n", t->case_name, file, line, msg);
	t->failures++;
}

void ktest_log(struct ktest *t, const char *fmt, ...)
{
	char msg[200];
	va_list ap;

	va_start(ap, fmt);
	vscnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	kprintf("        # %s: %s\n", t->case_name, msg);
}

void ktest_expect_reports(struct ktest *t, bool on)
{
	(void)t;
	printk_expect_reports(on);
}

void ktest_skip(struct ktest *t, const char *reason)
{
	t->skipped = true;
	t->skip_reason = reason;
}

static int count_cases(const struct ktest_suite *s)
{
	int n = 0;

	while (s->cases[n].run)
		n++;
	return n;
}

static bool suite_runnable(const struct ktest_suite *s)
{
	return !(s->kernel_only && ktest_on_host());
}

static bool suite_exists(const char *name, size_t n)
{
	for (struct ktest_suite **s = __start_ktest_suites; s < __stop_ktest_suites; s++)
		if (strlen((*s)->name) == n && !strncmp((*s)->name, name, n))
			return true;
	return false;
}

const char *ktest_check_list(const char *list)
{
	return param_check_names(list, suite_exists, "test suite", "test");
}

/* Every name in the list must be a suite: a typo must not pass silently. */
static int check_names(const char *list)
{
	int bad = 0;

	if (!strcmp(list, "all"))
		return 0;
	while (*list) {
		const char *end = strchr(list, ',');
		size_t n = end ? (size_t)(end - list) : strlen(list);
		bool found = n == 3 && !strncmp(list, "all", 3);

		if (n > 1 && list[0] == '-') { /* "-suite": left out, but it must exist */
			list++;
			n--;
		}
		for (struct ktest_suite **s = __start_ktest_suites;
		     s < __stop_ktest_suites; s++)
			if (strlen((*s)->name) == n &&
			    !strncmp((*s)->name, list, n))
				found = true;
		if (!found && n) {
			kprintf("# ktest: no suite named '%.*s'\n", (int)n, list);
			bad++;
		}
		if (!end)
			break;
		list = end + 1;
	}
	return bad ? -ENOENT : 0;
}

/* A case at least this long says so: where a boot's test time goes. */
#define KTEST_SLOW_CASE_MS 200

/* Set by Ctrl-C: the cases not yet run are reported as skipped. */
static bool stopped;

static int run_suite(const struct ktest_suite *s, int index)
{
	int n = count_cases(s), failed = 0, passed = 0, skipped = 0;
	u64 start = ktime_get_ns();

	kprintf("    KTAP version 1\n");
	kprintf("    # Subtest: %s\n", s->name);
	kprintf("    1..%d\n", n);
	for (int i = 0; i < n; i++) {
		struct ktest t = { .case_name = s->cases[i].name };
		u64 case_start = ktime_get_ns(), case_ms;

		if (!stopped)
			stopped = ktest_interrupted();
		if (stopped) {
			ktest_skip(&t, "interrupted (Ctrl-C)");
		} else if (s->init && s->init(&t)) {
			if (!t.skipped)
				ktest_skip(&t, "suite init failed");
		} else {
			s->cases[i].run(&t);
			if (s->exit)
				s->exit(&t);
			/* A case that left the marking on (KASSERT's early return). */
			printk_expect_reports_reset();
		}
		case_ms = (ktime_get_ns() - case_start) / 1000000;
		if (case_ms >= KTEST_SLOW_CASE_MS)
			kprintf("        # %s: took %llu ms\n", t.case_name,
				(unsigned long long)case_ms);
		if (t.failures) {
			kprintf("    not ok %d %s\n", i + 1, t.case_name);
			failed++;
		} else if (t.skipped) {
			kprintf("    ok %d %s # SKIP %s\n", i + 1, t.case_name,
				t.skip_reason ? t.skip_reason : "");
			skipped++;
		} else {
			kprintf("    ok %d %s\n", i + 1, t.case_name);
			passed++;
		}
	}
	kprintf("# %s: pass:%d fail:%d skip:%d total:%d\n", s->name, passed,
		failed, skipped, n);
	/* make test has a time budget: say where a boot's time goes. */
	kprintf("# %s: took %llu ms\n", s->name,
		(unsigned long long)((ktime_get_ns() - start) / 1000000));
	kprintf("%s %d %s\n", failed ? "not ok" : "ok", index, s->name);
	return failed;
}

int ktest_run(const char *list)
{
	int nsuites = 0, index = 0, failed = 0, bad;

	stopped = false;
	bad = check_names(list);
	for (struct ktest_suite **s = __start_ktest_suites;
	     s < __stop_ktest_suites; s++)
		if (strlist_has(list, (*s)->name) && suite_runnable(*s))
			nsuites++;
	kprintf("KTAP version 1\n");
	kprintf("1..%d\n", nsuites);
	for (struct ktest_suite **s = __start_ktest_suites;
	     s < __stop_ktest_suites; s++)
		if (strlist_has(list, (*s)->name) && suite_runnable(*s))
			failed += run_suite(*s, ++index);
	if (stopped)
		return -EINTR;
	return bad ? bad : failed;
}

void ktest_for_each_suite(void (*fn)(const struct ktest_suite *s, void *arg),
			  void *arg)
{
	for (struct ktest_suite **s = __start_ktest_suites;
	     s < __stop_ktest_suites; s++)
		fn(*s, arg);
}
