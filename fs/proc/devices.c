// SPDX-License-Identifier: MIT
/*
 * /proc/devices (Linux: fs/proc/devices.c): the character and block
 * majors the kernel has, "%3d name" each, in Linux's two sections.
 * libdevmapper reads it to learn device-mapper's block major, which tells
 * a mapped device from any other in a table's dependencies.
 */
#include <pagoda/blkdev.h>
#include "internal.h"

static void show_major(unsigned int major, const char *name, void *arg)
{
	seq_printf(arg, "%3u %s\n", major, name);
}

void proc_devices_show(struct seq_file *m, struct process *p)
{
	(void)p;
	/* drivers/char/mem.c, the console (fs/devtmpfs.c), /dev/mapper/control */
	seq_puts(m, "Character devices:\n  1 mem\n  5 /dev/tty\n  5 /dev/console\n 10 misc\n"
		    "\nBlock devices:\n");
	blkdev_for_each_major(show_major, m);
}
