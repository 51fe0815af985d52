// SPDX-License-Identifier: MIT
/*
 * The shell's checkpoint and restore:
 *
 *	checkpoint PID [--tree] [--leave-running] DEV
 *	restore DEV
 *
 * A checkpoint freezes the process (with --tree, it and every
 * descendant), writes the image to the block device DEV from its first
 * sector, and then, as CRIU does by default, kills what it dumped, so
 * that a restore can have the same pids; --leave-running lets them go on
 * instead. If the image cannot be made or written, they go on as if
 * nothing had happened: a failed checkpoint loses nothing.
 */
#include <pagoda/printk.h>
#include <pagoda/process.h>
#include <pagoda/sched.h>
#include <pagoda/shell.h>
#include <pagoda/string.h>
#include <pagoda/time.h>
#include "../kernel/cr/cr.h"

DEFINE_MUTEX(cr_lock);

/* The pids the last checkpoint killed, for cr_wait_killed(). */
static int killed[CR_SET_MAX];
static unsigned int nr_killed;

/*
 * Wait (2 s at most each) until the killed processes have been collected,
 * so that a restore typed next finds their pids free. The reaper collects
 * them; one that a kernel caller waits for keeps its pid until then.
 */
void cr_wait_killed(void)
{
	for (unsigned int i = 0; i < nr_killed; i++)
		for (int ms = 0; ms < 2000 && pid_in_use(killed[i]); ms++)
			msleep(1);
}

int cr_checkpoint(int pid, bool tree, bool leave_running, const char *dev, const char **why,
		  unsigned int *nr, size_t *bytes)
{
	static struct cr_set set;
	struct cr_buf img;
	int err;

	mutex_lock(&cr_lock);
	err = cr_freeze(pid, tree, &set, why);
	if (err)
		goto out;
	err = cr_dump(&set, &img, why);
	if (!err) {
		err = cr_store_write(dev, &img, why);
		*bytes = img.len;
		cr_buf_free(&img);
	}
	*nr = set.n;
	nr_killed = 0;
	for (unsigned int i = 0; !err && !leave_running && i < set.n; i++)
		killed[nr_killed++] = set.p[i]->pid;
	cr_thaw(&set, !err && !leave_running);
out:
	mutex_unlock(&cr_lock);
	return err;
}

int cr_restore_dev(const char *dev, int vdso_mode, void (*before_start)(void),
		   const char **why)
{
	struct cr_buf img;
	int err;

	mutex_lock(&cr_lock);
	cr_vdso_kdat = vdso_mode == CR_VDSO_BOOT ? cr_vdso_boot_mode_kdat() :
						   vdso_mode == CR_VDSO_KDAT;
	err = cr_store_read(dev, &img, why);
	if (!err) {
		err = cr_restore(img.data, img.len, before_start, why);
		cr_buf_free(&img);
	}
	mutex_unlock(&cr_lock);
	return err;
}

static int cmd_checkpoint(int argc, char **argv)
{
	bool tree = false, leave = false;
	const char *dev = NULL, *why = "";
	unsigned int nr = 0;
	size_t bytes = 0;
	u64 pid = 0;
	int err;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--tree"))
			tree = true;
		else if (!strcmp(argv[i], "--leave-running"))
			leave = true;
		else if (!pid && !kstrtou64(argv[i], 10, &pid) && pid)
			;
		else if (!dev && pid)
			dev = argv[i];
		else
			return -EINVAL;
	}
	if (!pid || !dev)
		return -EINVAL;
	err = cr_checkpoint((int)pid, tree, leave, dev, &why, &nr, &bytes);
	cr_wait_killed();
	if (err) {
		kprintf("checkpoint: %llu: %s; the processes go on\n", (unsigned long long)pid, why);
		return err;
	}
	kprintf("checkpoint: %u process%s from %llu, %zu bytes to %s; %s\n", nr, nr == 1 ? "" : "es",
		(unsigned long long)pid, bytes, dev, leave ? "left running" : "killed");
	return 0;
}
SHELL_CMD(checkpoint, "checkpoint PID [--tree] [--leave-running] DEV",
	  "freeze a process (--tree: and its descendants), write its image to a block device",
	  cmd_checkpoint);

static const char *restore_dev;

/* Said before the processes run, so that their output follows it. */
static void say_restored(void)
{
	kprintf("restore: %s: running again (vDSO: %s)\n", restore_dev, cr_last_vdso);
}

static int cmd_restore(int argc, char **argv)
{
	const char *why = "", *dev = argv[argc - 1];
	int mode = CR_VDSO_BOOT, err;

	if (argc == 3 && !strcmp(argv[1], "--vdso=kdat"))
		mode = CR_VDSO_KDAT;
	else if (argc == 3 && !strcmp(argv[1], "--vdso=legacy"))
		mode = CR_VDSO_LEGACY;
	else if (argc != 2)
		return -EINVAL;
	restore_dev = dev;
	err = cr_restore_dev(dev, mode, say_restored, &why);
	if (err)
		kprintf("restore: %s: %s; nothing restored\n", dev, why);
	return err;
}
SHELL_CMD(restore, "restore [--vdso=kdat|legacy] DEV",
	  "put the processes of an image on a block device back, same pids (vDSO mode: cr.vdso=)",
	  cmd_restore);
