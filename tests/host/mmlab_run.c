// SPDX-License-Identifier: MIT
/*
 * mmlab-run: the allocator-policy lab (mm/lab/mmlab.c) on the host, for large
 * simulated memories and many seeds quickly. It takes the arguments of the
 * kernel shell's `mmlab run` and prints the same line, so a cell can be
 * checked in QEMU against the host:
 *
 *   build/host/mmlab-run workload=aged policy=shuffle aging=16 seed=3
 *
 * Exit status: 0 on success, 2 on a bad argument, 1 when the run failed.
 */
#include <pagoda/printk.h>
#include <pagoda/string.h>
#include <pagoda/time.h>
#include "../../mm/lab/mmlab.h"

void host_env_init(void);

bool ktest_on_host(void) { return true; }
bool ktest_interrupted(void) { return false; }

int main(int argc, char **argv)
{
	struct mmlab_config c;
	struct mmlab_result r;
	char why[256], line[512];
	u64 t0;
	int err;

	host_env_init();
	mmlab_defaults(&c);
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			kprintf("usage: mmlab-run [workload=fresh|aged|contrived] [policy=NAME] "
				"[node=SIZE] [cache=SIZE] [ratio=PCT] [hot=PCT] [aging=N] "
				"[live=PCT] [seed=N]\n");
			return 0;
		}
		if (mmlab_parse_arg(&c, argv[i], why, sizeof(why))) {
			kprintf("mmlab-run: %s: %s\n", argv[i], why);
			return 2;
		}
	}
	if (c.real) {
		kprintf("mmlab-run: node=real exists only in the kernel (`mmlab run node=real`)\n");
		return 2;
	}
	t0 = ktime_get_ns();
	err = mmlab_run(&c, &r, why, sizeof(why));
	if (err) {
		kprintf("mmlab-run: %s\n", why);
		return err == -EINVAL ? 2 : 1;
	}
	mmlab_format(line, sizeof(line), &c, &r);
	kprintf("%s time=%llums\n", line,
		(unsigned long long)((ktime_get_ns() - t0) / 1000000));
	return 0;
}
