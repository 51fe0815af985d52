// SPDX-License-Identifier: MIT
/*
 * The table commands of Linux's device-mapper ioctls (Linux: the table
 * half of drivers/md/dm-ioctl.c): DM_TABLE_LOAD, DM_TABLE_CLEAR,
 * DM_TABLE_DEPS and DM_TABLE_STATUS. A load walks the caller's target
 * specs, each checked against the buffer's end, into
 * dm_table_add_target(), the entry the shell's table lines take too; the
 * answers lay out specs and dev_t lists as Linux's do. The buffer rules
 * and the device commands are block/dm/dm-ioctl.c's.
 */
#include <pagoda/dm-ioctl.h>
#include <pagoda/printk.h>
#include <pagoda/string.h>

#include "dm-core.h"
#include "dm-ioctl.h"

/*
 * The target specs of a DM_TABLE_LOAD, each checked against the buffer's
 * end: the spec whole, its next offset moving forward, its type and its
 * parameters NUL-terminated inside. fn gets each (a copy of the spec; the
 * parameters in place, which it may change).
 */
int dm_ioctl_for_each_spec(struct dm_ioctl *param, size_t size,
			   int (*fn)(void *arg, const struct dm_target_spec *spec, char *params),
			   void *arg)
{
	size_t off = param->data_start;
	struct dm_target_spec spec;
	int err;

	if (!param->target_count)
		return -EINVAL;
	if (!dm_ioctl_payload_ok(param, size))
		return -EINVAL;
	for (u32 i = 0; i < param->target_count; i++) {
		if (size - off < sizeof(spec) || !dm_ioctl_str_in(param, size, off + sizeof(spec)))
			return -EINVAL;
		memcpy(&spec, (char *)param + off, sizeof(spec));
		if (!memchr(spec.target_type, 0, sizeof(spec.target_type)))
			return -EINVAL;
		err = fn(arg, &spec, (char *)param + off + sizeof(spec));
		if (err)
			return err;
		if (i + 1 < param->target_count) {
			if (spec.next < sizeof(spec) || spec.next >= size - off)
				return -EINVAL;
			off += spec.next;
		}
	}
	return 0;
}

struct load_ctx {
	struct dm_table *t;
	char *err;
};

static int load_one(void *arg, const struct dm_target_spec *spec, char *params)
{
	struct load_ctx *c = arg;

	return dm_table_add_target(c->t, spec->sector_start, spec->length, spec->target_type,
				   params, c->err, DM_ERROR_LEN);
}

int dm_ioctl_table_load(struct dm_ioctl *param, size_t size)
{
	struct mapped_device *md = dm_ioctl_find_device(param);
	char err_text[DM_ERROR_LEN] = "";
	struct load_ctx c = { .err = err_text };
	int err;

	if (!md)
		return -ENXIO;
	if (param->flags & DM_READONLY_FLAG)
		return -EINVAL;	/* read-only mapped devices: not here (docs/dm-snapshot.md) */
	c.t = dm_table_alloc(md);
	if (!c.t)
		return -ENOMEM;
	mutex_lock(&md->suspend_lock);
	err = dm_ioctl_for_each_spec(param, size, load_one, &c);
	if (!err)
		err = dm_table_complete(c.t, err_text, sizeof(err_text));
	mutex_unlock(&md->suspend_lock);
	if (err) {
		/* Linux says why in the kernel's log; dmsetup shows only the errno */
		pr_err("device-mapper: table: %u:%u: %s\n", MAJOR(dm_devt(md)), MINOR(dm_devt(md)),
		       err_text[0] ? err_text : "bad target specs");
		dm_table_destroy(c.t);
		return err;
	}
	err = dm_table_install(md, c.t);
	if (err)
		return err;
	dm_ioctl_dev_status(md, param);
	return 0;
}

int dm_ioctl_table_clear(struct dm_ioctl *param, size_t size)
{
	struct mapped_device *md = dm_ioctl_find_device(param);

	(void)size;
	if (!md)
		return -ENXIO;
	dm_table_clear(md);
	dm_ioctl_dev_status(md, param);
	return 0;
}

/* The table a status or deps command reads: the live one, or the inactive one if asked. */
static struct dm_table *table_of(struct mapped_device *md, const struct dm_ioctl *param)
{
	return param->flags & DM_QUERY_INACTIVE_TABLE_FLAG ? md->new_map : md->map;
}

int dm_ioctl_table_deps(struct dm_ioctl *param, size_t size)
{
	struct mapped_device *md = dm_ioctl_find_device(param);
	struct dm_target_deps *deps;
	struct dm_table *t;
	size_t len, needed;
	u32 count;

	if (!md)
		return -ENXIO;
	dm_ioctl_dev_status(md, param);
	deps = dm_ioctl_result_buffer(param, size, &len);
	mutex_lock(&md->suspend_lock);
	t = table_of(md, param);
	count = t ? t->num_devices : 0;
	needed = sizeof(*deps) + count * sizeof(u64);
	if (len < needed) {
		param->flags |= DM_BUFFER_FULL_FLAG;
	} else {
		deps->count = count;
		deps->padding = 0;
		for (u32 i = 0; i < count; i++)
			deps->dev[i] = dm_encode_dev(t->devices[i]);
		param->data_size = (u32)(param->data_start + needed);
	}
	mutex_unlock(&md->suspend_lock);
	return 0;
}

/*
 * One spec per target, each followed by its status or table line (the
 * target's own words, without start, length and type) and padded to 8;
 * a spec's next counts from the first spec, as Linux's do.
 */
static void retrieve_status(struct mapped_device *md, struct dm_ioctl *param, size_t size)
{
	status_type_t type = param->flags & DM_STATUS_TABLE_FLAG ? STATUSTYPE_TABLE :
								     STATUSTYPE_INFO;
	size_t len, pos = 0, used = 0;
	char *out = dm_ioctl_result_buffer(param, size, &len);
	struct dm_table *t = table_of(md, param);

	for (unsigned int i = 0; t && i < t->num_targets; i++) {
		struct dm_target *ti = &t->targets[i];
		struct dm_target_spec spec = { .sector_start = ti->begin, .length = ti->len };
		size_t room, l, start = pos;
		char *text;

		if (len - pos < sizeof(spec) + 1) {
			param->flags |= DM_BUFFER_FULL_FLAG;
			return;
		}
		strlcpy(spec.target_type, ti->type->name, sizeof(spec.target_type));
		text = out + pos + sizeof(spec);
		room = len - pos - sizeof(spec);
		text[0] = 0;
		if (ti->type->status)
			ti->type->status(ti, type, text, (unsigned int)MIN(room, (size_t)UINT32_MAX));
		l = strnlen(text, room);
		if (l + 1 >= room) {	/* the status may have been cut: ask for more */
			param->flags |= DM_BUFFER_FULL_FLAG;
			return;
		}
		pos += sizeof(spec) + l + 1;
		used = param->data_start + pos;
		pos = ALIGN_UP(pos, 8);
		spec.next = (u32)pos;
		memcpy(out + start, &spec, sizeof(spec));
		if (pos > len)
			pos = len;
	}
	if (used)
		param->data_size = (u32)used;
	param->target_count = t ? t->num_targets : 0;
}

/* The header's state and the table's lines: DM_TABLE_STATUS's answer, and DM_DEV_WAIT's. */
void dm_ioctl_status_of(struct mapped_device *md, struct dm_ioctl *param, size_t size)
{
	dm_ioctl_dev_status(md, param);
	mutex_lock(&md->suspend_lock);
	retrieve_status(md, param, size);
	mutex_unlock(&md->suspend_lock);
}

int dm_ioctl_table_status(struct dm_ioctl *param, size_t size)
{
	struct mapped_device *md = dm_ioctl_find_device(param);

	if (!md)
		return -ENXIO;
	dm_ioctl_status_of(md, param, size);
	return 0;
}
