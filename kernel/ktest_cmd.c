// SPDX-License-Identifier: MIT
/* The shell's `test` command (the framework itself is kernel/ktest.c). */
#include <pagoda/ktest.h>
#include <pagoda/printk.h>
#include <pagoda/shell.h>
#include <pagoda/string.h>

bool ktest_on_host(void) { return false; }
bool ktest_interrupted(void) { return shell_interrupted(); }

static void list_suite(const struct ktest_suite *s, void *arg)
{
	int n = 0;

	(void)arg;
	while (s->cases[n].run)
		n++;
	kprintf("  %-20s %d cases\n", s->name, n);
}

static int cmd_test(int argc, char **argv)
{
	char list[256] = "";
	int failed;

	if (argc < 2) {
		kprintf("usage: test all | test SUITE...; the suites are:\n");
		ktest_for_each_suite(list_suite, NULL);
		return 0;
	}
	for (int i = 1; i < argc; i++) {
		if (i > 1)
			strlcat(list, ",", sizeof(list));
		strlcat(list, argv[i], sizeof(list));
	}
	failed = ktest_run(list);
	if (failed < 0)
		return failed;	/* no such suite (said above), or Ctrl-C */
	kprintf("test: %s\n", failed ? "FAILED" : "all passed");
	return failed ? -EIO : 0;
}
SHELL_CMD(test, "test [all|suite...]", "run in-kernel tests (no name: list suites)",
	  cmd_test);
