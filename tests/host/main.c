// SPDX-License-Identifier: MIT
/*
 * The host test runner: the same ktest suites the kernel runs, here under
 * AddressSanitizer and UBSan.   usage: ktest-host [all | suite,suite...]
 * Exit status: 0 when every case passed.
 */
#include <pagoda/ktest.h>
#include <pagoda/printk.h>

void host_env_init(void);

bool ktest_on_host(void) { return true; }
bool ktest_interrupted(void) { return false; }

int main(int argc, char **argv)
{
	int failed;

	host_env_init();
	failed = ktest_run(argc > 1 ? argv[1] : "all");
	return failed ? 1 : 0;
}
