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
#include "cr.h"

DEFINE_MUTEX(cr_lock);

int cr_checkpoint(int pid, bool tree, bool leave_running, const char *dev, const char **why,
		  unsigned int *nr, size_t *bytes)
{
	static struct cr_set set;
	static int pids[CR_SET_MAX];
	struct cr_buf img;
	bool killed;
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
	for (unsigned int i = 0; i < set.n; i++)
		pids[i] = set.p[i]->pid;
	killed = !err && !leave_running;
	cr_thaw(&set, killed);
	/*
	 * Killed: give their pids back before returning, so that a restore
	 * typed next finds them free (the reaper collects them; one a
	 * kernel caller waits for keeps its pid until then).
	 */
	for (unsigned int i = 0; killed && i < *nr; i++)
		for (int ms = 0; ms < 2000 && pid_in_use(pids[i]); ms++)
			msleep(1);
out:
	mutex_unlock(&cr_lock);
	return err;
}

int cr_restore_dev(const char *dev, int vdso_mode, const char **why)
{
	struct cr_buf img;
	int err;

	mutex_lock(&cr_lock);
	cr_vdso_kdat = vdso_mode == CR_VDSO_BOOT ? cr_vdso_boot_mode_kdat() :
						   vdso_mode == CR_VDSO_KDAT;
	err = cr_store_read(dev, &img, why);
	if (!err) {
		err = cr_restore(img.data, img.len, why);
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
	err = cr_restore_dev(dev, mode, &why);
	if (err) {
		kprintf("restore: %s: %s; nothing restored\n", dev, why);
		return err;
	}
	kprintf("restore: %s: running again (vDSO: %s)\n", dev, cr_last_vdso);
	return 0;
}
SHELL_CMD(restore, "restore [--vdso=kdat|legacy] DEV",
	  "put the processes of an image on a block device back, same pids (vDSO mode: cr.vdso=)",
	  cmd_restore);
