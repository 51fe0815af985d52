// SPDX-License-Identifier: MIT
/*
 * Tables (Linux: drivers/md/dm-table.c): the text a user loads, one line
 * per target, "<start> <length> <target> <args...>", turned into an array
 * of dm_targets sorted by start. The lines must tile the device from
 * sector 0 with no gap and no overlap, as Linux requires.
 */
#include <pagoda/err.h>
#include <pagoda/printk.h>
#include <pagoda/slab.h>
#include <pagoda/string.h>

#include "dm-core.h"

static DEFINE_MUTEX(target_types_lock);
static LIST_HEAD(target_types);

int dm_register_target(struct target_type *tt)
{
	mutex_lock(&target_types_lock);
	list_add_tail(&tt->list, &target_types);
	mutex_unlock(&target_types_lock);
	return 0;
}

void dm_for_each_target_type(void (*fn)(struct target_type *tt, void *arg), void *arg)
{
	struct target_type *tt;

	mutex_lock(&target_types_lock);
	list_for_each_entry(tt, &target_types, list)
		fn(tt, arg);
	mutex_unlock(&target_types_lock);
}

struct target_type *dm_get_target_type(const char *name)
{
	struct target_type *tt, *found = NULL;

	mutex_lock(&target_types_lock);
	list_for_each_entry(tt, &target_types, list)
		if (!strcmp(tt->name, name))
			found = tt;
	mutex_unlock(&target_types_lock);
	return found;
}

#define DM_MAX_ARGS 32

/* One target from its words: the constructor gets argv. */
static int add_target_argv(struct dm_table *t, u64 start, u64 len, const char *type, int argc,
			   char **argv, char *err, size_t errlen)
{
	struct dm_target *ti;
	int r;

	if (argc < 0) {
		snprintf(err, errlen, "%s: more than %d arguments", type, DM_MAX_ARGS);
		return -E2BIG;
	}
	if (t->num_targets == DM_MAX_TARGETS) {
		snprintf(err, errlen, "more than %d targets", DM_MAX_TARGETS);
		return -E2BIG;
	}
	if (!len) {
		snprintf(err, errlen, "zero-length target");
		return -EINVAL;
	}
	if (start != t->size) {
		snprintf(err, errlen, "target at %llu: the table has a gap or an overlap "
			 "(the previous target ends at %llu)", (unsigned long long)start,
			 (unsigned long long)t->size);
		return -EINVAL;
	}
	ti = &t->targets[t->num_targets];
	memset(ti, 0, sizeof(*ti));
	ti->table = t;
	ti->begin = start;
	ti->len = len;
	ti->type = dm_get_target_type(type);
	if (!ti->type) {
		snprintf(err, errlen, "%s: unknown target type", type);
		return -EINVAL;
	}
	r = ti->type->ctr(ti, (unsigned int)argc, argv);
	if (r) {
		snprintf(err, errlen, "%s: %s", type, ti->error ? ti->error : "constructor failed");
		return r;
	}
	t->num_targets++;
	t->size = start + len;
	return 0;
}

/*
 * What both ways in end at: the shell's text, one line per target, and
 * the ioctl's dm_target_specs, each a start, a length, a type and a
 * parameter string. params is split in place.
 */
int dm_table_add_target(struct dm_table *t, u64 start, u64 len, const char *type,
			char *params, char *err, size_t errlen)
{
	char *argv[DM_MAX_ARGS];

	return add_target_argv(t, start, len, type, argv_split_inplace(params, argv, DM_MAX_ARGS),
			       argv, err, errlen);
}

/* "<start> <length> <target> <args...>" */
static int add_line(struct dm_table *t, char *line, char *err, size_t errlen)
{
	char *argv[DM_MAX_ARGS + 3];
	int argc = argv_split_inplace(line, argv, DM_MAX_ARGS + 3);
	u64 start, len;

	if (argc == 0)
		return 0;	/* a blank line */
	if (argc < 0) {
		snprintf(err, errlen, "table line: more than %d arguments", DM_MAX_ARGS);
		return -E2BIG;
	}
	if (argc < 3) {
		snprintf(err, errlen, "table line needs <start> <length> <target>");
		return -EINVAL;
	}
	if (kstrtou64(argv[0], 10, &start) || kstrtou64(argv[1], 10, &len)) {
		snprintf(err, errlen, "bad start or length: %s %s", argv[0], argv[1]);
		return -EINVAL;
	}
	return add_target_argv(t, start, len, argv[2], argc - 3, argv + 3, err, errlen);
}

struct dm_table *dm_table_alloc(struct mapped_device *md)
{
	struct dm_table *t = kzalloc(sizeof(*t), GFP_KERNEL);

	if (t)
		t->md = md;
	return t;
}

int dm_table_complete(struct dm_table *t, char *err, size_t errlen)
{
	if (!t->num_targets) {
		snprintf(err, errlen, "empty table");
		return -EINVAL;
	}
	return 0;
}

struct dm_table *dm_table_create(struct mapped_device *md, const char *text, char *err,
				 size_t errlen)
{
	struct dm_table *t = dm_table_alloc(md);
	size_t n = strlen(text) + 1;
	char *copy, *s, *line;
	int r = 0;

	if (!t)
		return ERR_PTR(-ENOMEM);
	copy = kmalloc(n, GFP_KERNEL);
	if (!copy) {
		kfree(t);
		return ERR_PTR(-ENOMEM);
	}
	memcpy(copy, text, n);
	s = copy;
	while (!r && (line = strsep(&s, "\n")) != NULL)
		r = add_line(t, line, err, errlen);
	kfree(copy);
	if (!r)
		r = dm_table_complete(t, err, errlen);
	if (r) {
		dm_table_destroy(t);
		return ERR_PTR(r);
	}
	return t;
}

/* A device a target opened, for DM_TABLE_DEPS: each once, newest first as Linux lists. */
void dm_table_note_device(struct dm_table *t, dev_t dev)
{
	for (unsigned int i = 0; i < t->num_devices; i++)
		if (t->devices[i] == dev)
			return;
	if (t->num_devices == DM_MAX_DEVICES)
		return;
	memmove(t->devices + 1, t->devices, t->num_devices * sizeof(dev_t));
	t->devices[0] = dev;
	t->num_devices++;
}

void dm_table_destroy(struct dm_table *t)
{
	for (unsigned int i = t->num_targets; i-- > 0;)
		if (t->targets[i].type->dtr)
			t->targets[i].type->dtr(&t->targets[i]);
	kfree(t);
}

/* The targets are sorted and contiguous: a binary search on their starts. */
struct dm_target *dm_table_find_target(struct dm_table *t, sector_t sector)
{
	unsigned int lo = 0, hi = t->num_targets;

	if (sector >= t->size)
		return NULL;
	while (hi - lo > 1) {
		unsigned int mid = (lo + hi) / 2;

		if (t->targets[mid].begin <= sector)
			lo = mid;
		else
			hi = mid;
	}
	return &t->targets[lo];
}
