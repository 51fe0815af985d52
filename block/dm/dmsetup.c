// SPDX-License-Identifier: MIT
/*
 * The shell's dmsetup, with Linux's verbs and syntax, so a Linux user's
 * snapshot recipes work as typed:
 *
 *	dmsetup create base --table '0 131072 snapshot-origin vda'
 *	dmsetup create snap --table '0 131072 snapshot vda vdb P 8'
 *	dmsetup status snap          0 131072 snapshot 4072/65536 24
 *	dmsetup suspend base; dmsetup load base --table '...'; dmsetup resume base
 *	dmsetup message NAME 0 ...   dmsetup table NAME   dmsetup ls   dmsetup remove NAME
 *
 * The shell splits words at spaces and knows no quotes, so the words after
 * --table are joined again and one pair of surrounding quotes dropped.
 * Several table lines are separated by "\n" written out, or by ';'
 * inside the quotes (the shell's ';' would end the command only outside them
 * in Linux's shell; here a `shell.run=` line splits at ';' first: use "\n").
 */
#include <pagoda/device-mapper.h>
#include <pagoda/err.h>
#include <pagoda/errname.h>
#include <pagoda/printk.h>
#include <pagoda/shell.h>
#include <pagoda/slab.h>
#include <pagoda/string.h>

#define TABLE_MAX 1024

/* Join argv[from..] into buf, drop outer quotes, turn a written "\n" into a newline. */
static int join_table(int argc, char **argv, int from, char *buf, size_t size)
{
	size_t n = 0, len;
	char *src, *dst;

	buf[0] = 0;
	for (int i = from; i < argc; i++) {
		if (n && n < size)
			buf[n++] = ' ';
		n += strlcpy(buf + n, argv[i], n < size ? size - n : 0);
		if (n >= size)
			return -E2BIG;
	}
	len = strlen(buf);
	if (len >= 2 && (buf[0] == '\'' || buf[0] == '"') && buf[len - 1] == buf[0]) {
		memmove(buf, buf + 1, len - 2);
		buf[len - 2] = 0;
	}
	for (src = dst = buf; *src; src++) {
		if (src[0] == '\\' && src[1] == 'n') {
			*dst++ = '\n';
			src++;
		} else {
			*dst++ = *src == ';' ? '\n' : *src;
		}
	}
	*dst = 0;
	return 0;
}

static struct mapped_device *find_or_say(const char *name)
{
	struct mapped_device *md = dm_find(name);

	if (!md)
		kprintf("device-mapper: %s: No such device or address\n", name);
	return md;
}

static int load(struct mapped_device *md, int argc, char **argv, int from)
{
	char *table;
	int err;

	if (from >= argc || strcmp(argv[from], "--table") || from + 1 >= argc)
		return -EINVAL;
	table = kmalloc(TABLE_MAX, GFP_KERNEL);
	if (!table)
		return -ENOMEM;
	err = join_table(argc, argv, from + 1, table, TABLE_MAX);
	if (!err)
		err = dm_table_load(md, table);
	if (err && *dm_last_error())
		kprintf("device-mapper: reload ioctl on %s failed: %s\n", dm_device_name(md),
			dm_last_error());
	kfree(table);
	return err;
}

static int do_create(int argc, char **argv)
{
	struct mapped_device *md;
	int err;

	if (argc < 5)
		return -EINVAL;
	err = dm_create(argv[2], &md);
	if (err) {
		kprintf("device-mapper: create ioctl on %s failed: %s\n", argv[2], errmsg(err));
		return err;
	}
	err = load(md, argc, argv, 3);
	if (!err)
		err = dm_resume(md);
	if (err) {
		dm_remove(md);
		return err;
	}
	return 0;
}

static void print_one(struct mapped_device *md, void *arg)
{
	kprintf("%s\t(%s)\n", dm_device_name(md), dm_disk_name(md));
	(*(int *)arg)++;
}

static int do_ls(void)
{
	int n = 0;

	dm_for_each(print_one, &n);
	if (!n)
		kprintf("No devices found\n");
	return 0;
}

static int do_status(struct mapped_device *md, status_type_t type)
{
	char *buf = kmalloc(4096, GFP_KERNEL);

	if (!buf)
		return -ENOMEM;
	dm_status(md, type, buf, 4096);
	kprintf("%s", buf);
	kfree(buf);
	return 0;
}

static int do_info(struct mapped_device *md)
{
	kprintf("Name:              %s\n", dm_device_name(md));
	kprintf("State:             %s\n", dm_suspended(md) ? "SUSPENDED" : "ACTIVE");
	kprintf("Tables present:    LIVE%s\n", dm_has_inactive_table(md) ? " & INACTIVE" : "");
	kprintf("Block device:      %s\n", dm_disk_name(md));
	return 0;
}

static int cmd_dmsetup(int argc, char **argv)
{
	struct mapped_device *md;
	const char *verb;
	char result[256];
	int err;

	if (argc < 2)
		return -EINVAL;
	verb = argv[1];
	if (!strcmp(verb, "create"))
		return do_create(argc, argv);
	if (!strcmp(verb, "ls"))
		return do_ls();
	if (!strcmp(verb, "version") || !strcmp(verb, "targets")) {
		kprintf("linear, snapshot-origin, snapshot, snapshot-merge\n");
		return 0;
	}
	if (argc < 3)
		return -EINVAL;
	md = find_or_say(argv[2]);
	if (!md)
		return -ENXIO;
	if (!strcmp(verb, "load") || !strcmp(verb, "reload"))
		return load(md, argc, argv, 3);
	if (!strcmp(verb, "suspend"))
		return dm_suspend(md);
	if (!strcmp(verb, "resume"))
		return dm_resume(md);
	if (!strcmp(verb, "remove")) {
		err = dm_remove(md);
		if (err == -EBUSY)
			kprintf("device-mapper: remove ioctl on %s failed: Device or resource busy\n",
				argv[2]);
		return err;
	}
	if (!strcmp(verb, "table"))
		return do_status(md, STATUSTYPE_TABLE);
	if (!strcmp(verb, "status"))
		return do_status(md, STATUSTYPE_INFO);
	if (!strcmp(verb, "info"))
		return do_info(md);
	if (!strcmp(verb, "message")) {
		err = dm_message(md, (unsigned int)(argc - 3), argv + 3, result, sizeof(result));
		if (!err && result[0])
			kprintf("%s\n", result);
		return err;
	}
	return -EINVAL;
}

SHELL_CMD(dmsetup, "dmsetup create|load|suspend|resume|remove|table|status|info|message|ls [NAME] [--table '...']",
	  "device-mapper: mapped devices with linear, snapshot-origin, snapshot, snapshot-merge",
	  cmd_dmsetup);
