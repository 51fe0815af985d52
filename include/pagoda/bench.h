/* SPDX-License-Identifier: MIT */
/*
 * Benchmarks, registered like shell commands. `bench NAME` in the shell or
 * bench=NAME,... on the command line runs them. A benchmark prints a table
 * for people and, for tools, one JSON object per line prefixed "BENCH ":
 *
 *	BENCH {"bench":"boot","step":"paging","us":12.3, ...}
 *
 * A benchmark never asserts a duration; tests do not time things.
 */
#ifndef PAGODA_BENCH_H
#define PAGODA_BENCH_H

#include <pagoda/types.h>

struct kbench {
	const char *name;
	const char *help;
	void (*run)(void);
};

#define KBENCH(bname, help_text, func)                                        \
	static const struct kbench __kbench_##bname = {                       \
		.name = #bname, .help = help_text, .run = func };             \
	static const struct kbench *__kbench_ptr_##bname __used               \
		__section("kbenches") = &__kbench_##bname

/* Run the named benchmarks ("all" for every one); -ENOENT if one is unknown. */
int bench_run(const char *list);
/* NULL if every name in the comma-separated list is a benchmark (or "all"), else why not. */
const char *bench_check_list(const char *list);
/* One line describing the machine (arch, accelerator, CPUs, memory). */
void bench_print_machine(void);

#endif
