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
 *	dmsetup table snap           0 131072 snapshot 253:0 253:16 P 8   (devices as major:minor)
 *
 * Options stand anywhere, as getopt lets them in Linux's: --table TABLE
 * or --table=TABLE, -n/--notable (create without a table), -f/--force;
 * those about udev, device nodes, UUIDs and read-ahead are taken and
 * have nothing to act on. The shell splits words at spaces and knows no
 * quotes, so a quoted table's words are joined again and the quotes
 * dropped; an unquoted one is every word left.
 * Several table lines are separated by "\n" written out, or by ';'
 * inside the quotes (the shell's ';' would end the command only outside them
 * in Linux's shell; here a `shell.run=` line splits at ';' first: use "\n").
 */
#include <pagoda/device-mapper.h>
#include <pagoda/dm-ioctl.h>
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

/*
 * A command line taken apart as Linux's dmsetup (getopt) takes it: the
 * options may stand anywhere, the rest are the verb and its words.
 */
struct dm_args {
	char *words[16];
	int nr_words;
	int table_from, table_to; /* the table's words in argv: [from, to) */
	bool notable;
};

/* Options that only concern udev, device nodes or verbosity: nothing to do here. */
static bool ignored_option(const char *a, bool *takes_value)
{
	static const char *const flags[] = { "--noudevsync", "--noudevrules", "--verifyudev",
					     "--addnodeoncreate", "--addnodeonresume", "-v",
					     "--verbose", "-y", "--yes", "--noflush" };
	static const char *const valued[] = { "-u", "--uuid", "--readahead", "--udevcookie" };

	*takes_value = false;
	for (size_t i = 0; i < ARRAY_SIZE(flags); i++)
		if (!strcmp(a, flags[i]))
			return true;
	for (size_t i = 0; i < ARRAY_SIZE(valued); i++)
		if (!strcmp(a, valued[i]))
			return *takes_value = true;
	return !strncmp(a, "--uuid=", 7) || !strncmp(a, "--readahead=", 12);
}

/*
 * The table after --table: one quoted run of words (the shell keeps the
 * quotes), or, unquoted, every word left, as Pagoda's shell always took it.
 */
static int table_words(int argc, char **argv, int i)
{
	char q = argv[i][0];
	size_t len;

	if (q != '\'' && q != '"')
		return argc;
	for (int j = i; j < argc; j++) {
		len = strlen(argv[j]);
		if (len && argv[j][len - 1] == q && (j > i || len > 1))
			return j + 1;
	}
	return argc;
}

static int parse_args(int argc, char **argv, struct dm_args *a)
{
	bool value;

	*a = (struct dm_args){ .table_from = -1 };
	for (int i = 1; i < argc; i++) {
		const char *w = argv[i];

		if (!strcmp(w, "--table") && i + 1 < argc) {
			a->table_from = i + 1;
			a->table_to = table_words(argc, argv, i + 1);
			i = a->table_to - 1;
		} else if (!strncmp(w, "--table=", 8)) {
			argv[i] += 8;
			a->table_from = i;
			a->table_to = table_words(argc, argv, i);
			i = a->table_to - 1;
		} else if (!strcmp(w, "-n") || !strcmp(w, "--notable")) {
			a->notable = true;
		} else if (!strcmp(w, "-f") || !strcmp(w, "--force")) {
			/* taken: a remove here never leaves a device half-removed */
		} else if (!strcmp(w, "-r") || !strcmp(w, "--readonly")) {
			kprintf("dmsetup: %s: read-only mapped devices are not supported\n", w);
			return -EINVAL;
		} else if (ignored_option(w, &value)) {
			i += value; /* no udev and no /dev nodes here: nothing to do */
		} else if (w[0] == '-' && w[1]) {
			kprintf("dmsetup: unrecognized option '%s'\n", w);
			return -EINVAL;
		} else if (a->nr_words < (int)ARRAY_SIZE(a->words)) {
			a->words[a->nr_words++] = argv[i];
		} else {
			kprintf("dmsetup: more than %zu words\n", ARRAY_SIZE(a->words));
			return -E2BIG;
		}
	}
	return 0;
}

static int load(struct mapped_device *md, int argc, char **argv, const struct dm_args *a)
{
	char *table;
	int err;

	if (a->table_from < 0) {
		kprintf("dmsetup: --table is needed (Pagoda reads no table from standard input)\n");
		return -EINVAL;
	}
	table = kmalloc(TABLE_MAX, GFP_KERNEL);
	if (!table)
		return -ENOMEM;
	err = join_table(a->table_to, argv, a->table_from, table, TABLE_MAX);
	if (!err)
		err = dm_table_load(md, table);
	if (err && *dm_last_error())
		kprintf("device-mapper: reload ioctl on %s failed: %s\n", dm_device_name(md),
			dm_last_error());
	kfree(table);
	(void)argc;
	return err;
}

static int do_create(int argc, char **argv, const struct dm_args *a)
{
	struct mapped_device *md;
	int err;

	if (a->nr_words < 2) {
		kprintf("Please provide a name for the new device.\n");	/* Linux's words */
		return -EINVAL;
	}
	err = dm_create(a->words[1], &md);
	if (err) {
		kprintf("device-mapper: create ioctl on %s failed: %s\n", a->words[1], errmsg(err));
		return err;
	}
	/* --notable: the device exists, with no table until load and resume */
	if (a->notable)
		return 0;
	err = load(md, argc, argv, a);
	if (!err)
		err = dm_resume(md);
	if (err) {
		dm_remove(md);
		return err;
	}
	return 0;
}

/* `dmsetup ls`: the name, a tab, the device number, as Linux's */
static void print_one(struct mapped_device *md, void *arg)
{
	dev_t dev = dm_devt(md);

	kprintf("%s\t(%u:%u)\n", dm_device_name(md), MAJOR(dev), MINOR(dev));
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

/* Linux's lines, those Pagoda keeps (no read-ahead: nothing is read ahead here) */
static int do_info(struct mapped_device *md)
{
	dev_t dev = dm_devt(md);

	kprintf("Name:              %s\n", dm_device_name(md));
	kprintf("State:             %s\n", dm_suspended(md) ? "SUSPENDED" : "ACTIVE");
	kprintf("Tables present:    %s\n", dm_num_targets(md) ?
		(dm_has_inactive_table(md) ? "LIVE & INACTIVE" : "LIVE") :
		(dm_has_inactive_table(md) ? "INACTIVE" : "None"));
	kprintf("Open count:        %d\n", dm_open_count(md));
	kprintf("Event number:      %u\n", dm_event_nr(md));
	kprintf("Major, minor:      %u, %u\n", MAJOR(dev), MINOR(dev));
	kprintf("Number of targets: %u\n", dm_num_targets(md));
	return 0;
}

/* `dmsetup targets`: name and version, as Linux's */
static void print_target(struct target_type *tt, void *arg)
{
	(void)arg;
	kprintf("%-16s v%u.%u.%u\n", tt->name, tt->version[0], tt->version[1], tt->version[2]);
}

static bool known_verb(const char *verb)
{
	static const char *const verbs[] = { "create", "load", "reload", "suspend", "resume",
					     "remove", "table", "status", "info", "message",
					     "ls", "targets", "version" };

	for (unsigned int i = 0; i < ARRAY_SIZE(verbs); i++)
		if (!strcmp(verb, verbs[i]))
			return true;
	return false;
}

static int cmd_dmsetup(int argc, char **argv)
{
	struct mapped_device *md;
	struct dm_args a;
	const char *verb;
	char result[256];
	int err;

	err = parse_args(argc, argv, &a);
	if (err)
		return err;
	if (a.nr_words < 1)
		return -EINVAL;
	verb = a.words[0];
	if (!known_verb(verb)) {
		kprintf("Unknown command.\n");	/* Linux's words; the usage follows */
		return -EINVAL;
	}
	if (!strcmp(verb, "create"))
		return do_create(argc, argv, &a);
	if (!strcmp(verb, "ls"))
		return do_ls();
	if (!strcmp(verb, "targets")) {
		dm_list_targets(print_target, NULL);
		return 0;
	}
	if (!strcmp(verb, "version")) {
		/* no libdevmapper here; the driver's is the ioctl interface's (dm-ioctl.h) */
		kprintf("Library version:   none (the shell's dmsetup)\n"
			"Driver version:    %u.%u.%u\n", DM_VERSION_MAJOR, DM_VERSION_MINOR,
			DM_VERSION_PATCHLEVEL);
		return 0;
	}
	if (a.nr_words < 2) {
		kprintf("dmsetup %s: which device? (dmsetup ls lists them)\n", verb);
		return -EINVAL;
	}
	md = find_or_say(a.words[1]);
	if (!md)
		return -ENXIO;
	if (!strcmp(verb, "load") || !strcmp(verb, "reload"))
		return load(md, argc, argv, &a);
	if (!strcmp(verb, "suspend"))
		return dm_suspend(md);
	if (!strcmp(verb, "resume"))
		return dm_resume(md);
	if (!strcmp(verb, "remove")) {
		err = dm_remove(md);
		if (err == -EBUSY)
			kprintf("device-mapper: remove ioctl on %s failed: Device or resource busy\n",
				a.words[1]);
		return err;
	}
	if (!strcmp(verb, "table"))
		return do_status(md, STATUSTYPE_TABLE);
	if (!strcmp(verb, "status"))
		return do_status(md, STATUSTYPE_INFO);
	if (!strcmp(verb, "info"))
		return do_info(md);
	if (!strcmp(verb, "message")) {
		err = dm_message(md, (unsigned int)(a.nr_words - 2), a.words + 2, result,
				 sizeof(result));
		if (!err && result[0])
			kprintf("%s\n", result);
		return err;
	}
	return -EINVAL;
}

SHELL_CMD(dmsetup, "dmsetup create|load|suspend|resume|remove|table|status|info|message|ls|targets [NAME] [--table '...']",
	  "device-mapper: mapped devices with linear, snapshot-origin, snapshot, snapshot-merge",
	  cmd_dmsetup);
