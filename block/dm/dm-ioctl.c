// SPDX-License-Identifier: MIT
/*
 * Linux's device-mapper ioctls (Linux: drivers/md/dm-ioctl.c), on
 * /dev/mapper/control, so that an unmodified libdevmapper program (Debian's
 * dmsetup, LVM) drives Pagoda's mapped devices and targets. The layouts
 * and rules are include/pagoda/dm-ioctl.h's; the commands end in the same
 * calls the shell's dmsetup makes (block/dm/dm.c). Here: the control
 * device, the buffer's rules, the dispatch, and the device and list
 * commands; the table commands are dm-ioctl-table.c's.
 *
 * The buffer is the caller's to get wrong: every size, offset and string
 * in it is checked against the buffer's end before it is used, and a bad
 * one is -EINVAL. The answer goes back in the same buffer; an answer that
 * does not fit sets DM_BUFFER_FULL_FLAG and says nothing more, and libdm
 * asks again with a bigger buffer.
 *
 * A device-level command finds its device by uuid, name or number, in
 * that order, and holds dm_devices_lock until it is done, so a concurrent
 * remove cannot free the device under it. Only DM_DEV_WAIT sleeps without
 * it.
 */
#include <pagoda/blkdev.h>
#include <pagoda/dm-ioctl.h>
#include <pagoda/err.h>
#include <pagoda/file.h>
#include <pagoda/fs.h>
#include <pagoda/printk.h>
#include <pagoda/process.h>
#include <pagoda/slab.h>
#include <pagoda/string.h>
#include <pagoda/uaccess.h>
#include <pagoda/vmalloc.h>

#include "dm-core.h"
#include "dm-ioctl.h"

_Static_assert(sizeof(struct dm_ioctl) == 312, "struct dm_ioctl is Linux's 312 bytes");
_Static_assert(offsetof(struct dm_ioctl, data) == 305, "dm_ioctl.data at Linux's offset");
_Static_assert(sizeof(struct dm_target_spec) == 40, "struct dm_target_spec is Linux's 40 bytes");
_Static_assert(offsetof(struct dm_name_list, name) == 12, "dm_name_list.name at 12");

/* The answer's payload starts after the header, at a multiple of 8. */
#define DM_RESULT_START ((size_t)ALIGN_UP(sizeof(struct dm_ioctl), 8))

/* Linux's huge_encode_dev(): the number as user space's dev_t holds it. */
u64 dm_encode_dev(dev_t dev)
{
	u64 ma = MAJOR(dev), mi = MINOR(dev);

	return (mi & 0xff) | (ma << 8) | ((mi & ~0xffULL) << 12);
}

dev_t dm_decode_dev(u64 dev)
{
	unsigned int ma = (unsigned int)((dev & 0xfff00) >> 8);
	unsigned int mi = (unsigned int)((dev & 0xff) | ((dev >> 12) & 0xfff00));

	return MKDEV(ma & 0xfff, mi & ((1U << MINORBITS) - 1));
}

/* A NUL-terminated string at off, wholly inside the buffer? */
bool dm_ioctl_str_in(const struct dm_ioctl *param, size_t size, size_t off)
{
	return off < size && memchr((const char *)param + off, 0, size - off) != NULL;
}

/* The payload a command was given, at data_start: never inside the header's fields. */
bool dm_ioctl_payload_ok(const struct dm_ioctl *param, size_t size)
{
	return param->data_start >= offsetof(struct dm_ioctl, data) && param->data_start < size;
}

/* Where the answer goes, and how many bytes it may take. */
void *dm_ioctl_result_buffer(struct dm_ioctl *param, size_t size, size_t *len)
{
	param->data_start = DM_RESULT_START;
	*len = size > DM_RESULT_START ? size - DM_RESULT_START : 0;
	return (char *)param + DM_RESULT_START;
}

int dm_ioctl_check_version(const struct dm_ioctl *h)
{
	if (h->version[0] != DM_VERSION_MAJOR || h->version[1] > DM_VERSION_MINOR)
		return -EINVAL;	/* another ABI, or one newer than this kernel's */
	return 0;
}

int dm_ioctl_check_size(const struct dm_ioctl *h)
{
	if (h->data_size < offsetof(struct dm_ioctl, data) || h->data_size > DM_IOCTL_MAX_DATA)
		return -EINVAL;
	return 0;
}

/* ------------------------------------------------------------- devices */

/*
 * The device's state into the header, as Linux's __dev_status(). Under
 * suspend_lock: the shell's dmsetup may be swapping its tables.
 */
void dm_ioctl_dev_status(struct mapped_device *md, struct dm_ioctl *param)
{
	struct dm_table *live, *inactive;

	mutex_lock(&md->suspend_lock);
	live = md->map;
	inactive = md->new_map;
	param->flags &= ~(DM_SUSPEND_FLAG | DM_READONLY_FLAG | DM_ACTIVE_PRESENT_FLAG |
			  DM_INACTIVE_PRESENT_FLAG | DM_INTERNAL_SUSPEND_FLAG);
	if (dm_suspended(md))
		param->flags |= DM_SUSPEND_FLAG;
	param->dev = dm_encode_dev(dm_devt(md));
	param->open_count = dm_open_count(md);
	param->event_nr = dm_event_nr(md);
	param->target_count = 0;
	if (live) {
		if (!(param->flags & DM_QUERY_INACTIVE_TABLE_FLAG))
			param->target_count = live->num_targets;
		param->flags |= DM_ACTIVE_PRESENT_FLAG;
	}
	if (inactive) {
		if (param->flags & DM_QUERY_INACTIVE_TABLE_FLAG)
			param->target_count = inactive->num_targets;
		param->flags |= DM_INACTIVE_PRESENT_FLAG;
	}
	mutex_unlock(&md->suspend_lock);
}

/* The device the header names: by uuid, else name, else number; its name and uuid filled in. */
struct mapped_device *dm_ioctl_find_device(struct dm_ioctl *param)
{
	struct mapped_device *md = NULL;

	if (param->uuid[0])
		md = __dm_find_uuid(param->uuid);
	else if (param->name[0])
		md = __dm_find(param->name);
	else if (param->dev)
		md = __dm_find_devt(dm_decode_dev(param->dev));
	if (md && param->name[0] && !param->uuid[0] && strcmp(md->name, param->name))
		md = NULL;	/* "dm-0" is a disk name, not a device name */
	if (md) {
		strlcpy(param->name, md->name, sizeof(param->name));
		strlcpy(param->uuid, md->uuid, sizeof(param->uuid));
	}
	return md;
}

static int dev_create(struct dm_ioctl *param, size_t size)
{
	int minor = -1, err;
	struct mapped_device *md;

	(void)size;
	if (param->flags & DM_PERSISTENT_DEV_FLAG)
		minor = (int)MINOR(dm_decode_dev(param->dev));
	if (param->uuid[0] && __dm_find_uuid(param->uuid))
		return -EBUSY;
	err = __dm_create(param->name, minor, &md);
	if (err)
		return err == -EEXIST ? -EBUSY : err;	/* Linux's word for a taken name */
	strlcpy(md->uuid, param->uuid, sizeof(md->uuid));
	param->flags &= ~DM_INACTIVE_PRESENT_FLAG;
	dm_ioctl_dev_status(md, param);
	return 0;
}

static int dev_remove(struct dm_ioctl *param, size_t size)
{
	struct mapped_device *md = dm_ioctl_find_device(param);

	(void)size;
	if (!md)
		return -ENXIO;
	if (dm_open_count(md))
		return -EBUSY;	/* no deferred remove here: DM_DEFERRED_REMOVE is not kept */
	param->flags &= ~DM_DEFERRED_REMOVE;
	return __dm_remove(md);
}

/*
 * Every device nobody has open. One removal can let another go (a device
 * that was the only user of another): so again until a pass removes none.
 */
static int remove_all(struct dm_ioctl *param, size_t size)
{
	struct mapped_device *md, *next;
	bool progress = true;

	(void)size;
	while (progress) {
		progress = false;
		list_for_each_entry_safe(md, next, &dm_devices, list)
			if (!dm_open_count(md) && !__dm_remove(md))
				progress = true;
	}
	param->data_size = 0;	/* nothing to copy back */
	return 0;
}

static int dev_rename(struct dm_ioctl *param, size_t size)
{
	bool uuid = param->flags & DM_UUID_FLAG;
	struct mapped_device *md;
	const char *new;
	int err;

	if (!dm_ioctl_payload_ok(param, size) || !dm_ioctl_str_in(param, size, param->data_start))
		return -EINVAL;
	new = (const char *)param + param->data_start;
	if (!*new || strlen(new) >= (uuid ? DM_UUID_LEN : DM_NAME_LEN))
		return -EINVAL;
	md = dm_ioctl_find_device(param);
	if (!md)
		return -ENXIO;
	err = uuid ? dm_set_uuid(md, new) : dm_rename(md, new);
	if (err)
		return err;
	dm_ioctl_dev_status(md, param);
	return 0;
}

static int dev_suspend(struct dm_ioctl *param, size_t size)
{
	struct mapped_device *md = dm_ioctl_find_device(param);
	int err;

	(void)size;
	if (!md)
		return -ENXIO;
	/*
	 * DM_SKIP_LOCKFS and DM_NOFLUSH ask about a file system on the device
	 * and bios held in a queue: Pagoda mounts none on a mapped device and
	 * holds none, so both suspends are the same.
	 */
	if (param->flags & DM_SUSPEND_FLAG)
		err = dm_suspend(md);
	else
		err = dm_resume(md);
	if (err)
		return err;
	dm_ioctl_dev_status(md, param);
	return 0;
}

static int dev_status_cmd(struct dm_ioctl *param, size_t size)
{
	struct mapped_device *md = dm_ioctl_find_device(param);

	(void)size;
	if (!md)
		return -ENXIO;
	dm_ioctl_dev_status(md, param);
	return 0;
}

/*
 * DM_DEV_WAIT: until the device's event count is no longer the caller's
 * event_nr (at once if it is not now), then its status. It sleeps without
 * dm_devices_lock (a wait may last forever), holding the device by
 * md->holders, which a remove waits out; a remove (-ENXIO) or a signal
 * (-EINTR) ends the wait.
 */
static int dev_wait(struct dm_ioctl *param, size_t size)
{
	struct mapped_device *md = dm_ioctl_find_device(param);
	struct process *p = current_process();
	u32 since = param->event_nr;
	int err = 0;

	if (!md)
		return -ENXIO;
	atomic_inc(&md->holders);
	mutex_unlock(&dm_devices_lock);
	wait_event(md->eventq, dm_event_nr(md) != since || READ_ONCE(md->dying) ||
			       signal_pending(p));
	if (READ_ONCE(md->dying))
		err = -ENXIO;	/* removed meanwhile: Linux's answer too */
	else if (dm_event_nr(md) == since)
		err = -EINTR;	/* a signal, and nothing happened */
	else
		dm_ioctl_status_of(md, param, size);
	/* md may be freed once the count drops */
	atomic_dec_wake_up_all(&md->holders, &md->eventq);
	mutex_lock(&dm_devices_lock);
	return err;
}

/* ---------------------------------------------------- lists, messages */

static int list_devices(struct dm_ioctl *param, size_t size)
{
	struct mapped_device *md;
	struct dm_name_list *nl, *prev = NULL;
	size_t len, needed = 0;
	char *out;

	list_for_each_entry(md, &dm_devices, list) {
		needed += ALIGN_UP(offsetof(struct dm_name_list, name) + strlen(md->name) + 1, 8);
		needed += 8;	/* event_nr and flags */
		if (md->uuid[0])
			needed += ALIGN_UP(strlen(md->uuid) + 1, 8);
	}
	out = dm_ioctl_result_buffer(param, size, &len);
	if (len < needed || len < sizeof(u64)) {
		param->flags |= DM_BUFFER_FULL_FLAG;
		return 0;
	}
	param->data_size = (u32)(param->data_start + needed);
	nl = (struct dm_name_list *)out;
	nl->dev = 0;	/* no devices: a first record of device 0 */
	list_for_each_entry(md, &dm_devices, list) {
		u32 *ev;
		char *next;

		if (prev)
			prev->next = (u32)((char *)nl - (char *)prev);
		nl->dev = dm_encode_dev(dm_devt(md));
		nl->next = 0;
		memcpy(nl->name, md->name, strlen(md->name) + 1);
		ev = (u32 *)ALIGN_UP((uintptr_t)(nl->name + strlen(md->name) + 1), 8);
		ev[0] = dm_event_nr(md);
		ev[1] = md->uuid[0] ? DM_NAME_LIST_FLAG_HAS_UUID : DM_NAME_LIST_FLAG_DOESNT_HAVE_UUID;
		next = (char *)(ev + 2);
		if (md->uuid[0]) {
			memcpy(next, md->uuid, strlen(md->uuid) + 1);
			next = (char *)ALIGN_UP((uintptr_t)(next + strlen(md->uuid) + 1), 8);
		}
		prev = nl;
		nl = (struct dm_name_list *)next;
	}
	return 0;
}

struct versions_ctx {
	char *out;
	size_t len, pos;
	struct dm_target_versions *prev;
};

static void count_version(struct target_type *tt, void *arg)
{
	*(size_t *)arg += ALIGN_UP(sizeof(struct dm_target_versions) + strlen(tt->name) + 1, 8);
}

static void put_version(struct target_type *tt, void *arg)
{
	struct versions_ctx *c = arg;
	struct dm_target_versions *v = (void *)(c->out + c->pos);
	size_t n = ALIGN_UP(sizeof(*v) + strlen(tt->name) + 1, 8);

	if (c->pos + n > c->len)
		return;	/* a type registered between counting and filling: left out */
	if (c->prev)
		c->prev->next = (u32)((char *)v - (char *)c->prev);
	v->next = 0;
	memcpy(v->version, tt->version, sizeof(v->version));
	memcpy(v->name, tt->name, strlen(tt->name) + 1);
	c->prev = v;
	c->pos += n;
}

static int list_versions(struct dm_ioctl *param, size_t size)
{
	struct versions_ctx c = { 0 };
	size_t needed = 0;

	dm_list_targets(count_version, &needed);
	c.out = dm_ioctl_result_buffer(param, size, &c.len);
	if (c.len < needed) {
		param->flags |= DM_BUFFER_FULL_FLAG;
		return 0;
	}
	dm_for_each_target_type(put_version, &c);
	param->data_size = (u32)(param->data_start + c.pos);
	return 0;
}

#define DM_MSG_MAX_ARGS 32

static int target_message(struct dm_ioctl *param, size_t size)
{
	struct mapped_device *md = dm_ioctl_find_device(param);
	struct dm_target_msg *msg;
	char *argv[DM_MSG_MAX_ARGS], *text, *result;
	size_t len, at;
	u64 sector;
	int argc, err;

	if (!md)
		return -ENXIO;
	at = param->data_start;
	if (!dm_ioctl_payload_ok(param, size) || size - at < sizeof(*msg) ||
	    !dm_ioctl_str_in(param, size, at + sizeof(*msg)))
		return -EINVAL;
	msg = (struct dm_target_msg *)((char *)param + at);
	memcpy(&sector, &msg->sector, sizeof(sector));
	/* The words are split in a copy: the answer goes where the message was. */
	text = kmalloc(strlen(msg->message) + 1, GFP_KERNEL);
	if (!text)
		return -ENOMEM;
	memcpy(text, msg->message, strlen(msg->message) + 1);
	argc = argv_split_inplace(text, argv, DM_MSG_MAX_ARGS);
	if (argc <= 0) {
		kfree(text);
		return argc ? argc : -EINVAL;	/* an empty message */
	}
	dm_ioctl_dev_status(md, param);
	result = dm_ioctl_result_buffer(param, size, &len);
	if (!len) {
		kfree(text);
		return -EINVAL;
	}
	err = dm_target_message(md, sector, (unsigned int)argc, argv, result, len);
	kfree(text);
	if (err)
		return err;
	if (result[0]) {
		param->flags |= DM_DATA_OUT_FLAG;
		if (strnlen(result, len) + 1 >= len)
			param->flags |= DM_BUFFER_FULL_FLAG;
		else
			param->data_size = (u32)(param->data_start + strlen(result) + 1);
	}
	return 0;
}

/* -------------------------------------------------------- the dispatch */

typedef int (*dm_ioctl_fn)(struct dm_ioctl *param, size_t size);

static const dm_ioctl_fn dm_commands[] = {
	[DM_REMOVE_ALL_CMD] = remove_all,
	[DM_LIST_DEVICES_CMD] = list_devices,
	[DM_DEV_CREATE_CMD] = dev_create,
	[DM_DEV_REMOVE_CMD] = dev_remove,
	[DM_DEV_RENAME_CMD] = dev_rename,
	[DM_DEV_SUSPEND_CMD] = dev_suspend,
	[DM_DEV_STATUS_CMD] = dev_status_cmd,
	[DM_DEV_WAIT_CMD] = dev_wait,
	[DM_TABLE_LOAD_CMD] = dm_ioctl_table_load,
	[DM_TABLE_CLEAR_CMD] = dm_ioctl_table_clear,
	[DM_TABLE_DEPS_CMD] = dm_ioctl_table_deps,
	[DM_TABLE_STATUS_CMD] = dm_ioctl_table_status,
	[DM_LIST_VERSIONS_CMD] = list_versions,
	[DM_TARGET_MSG_CMD] = target_message,
};

int dm_ioctl_known(unsigned int cmd)
{
	unsigned int nr = cmd & 0xff;

	if (((cmd >> 8) & 0xff) != DM_IOCTL)
		return -ENOTTY;
	if (nr == DM_VERSION_CMD)
		return 0;
	return nr < ARRAY_SIZE(dm_commands) && dm_commands[nr] ? 0 : -ENOTTY;
}

/*
 * One command on a buffer already in the kernel, size bytes (data_size,
 * checked by dm_ioctl_check_size()), allocated at least a whole header.
 * On success param->data_size is how much of it goes back.
 */
int dm_ioctl_run(unsigned int cmd, struct dm_ioctl *param, size_t size)
{
	unsigned int nr = cmd & 0xff;
	int err;

	err = dm_ioctl_known(cmd);
	if (err || nr == DM_VERSION_CMD)
		return err;
	/* Out-only flags are the kernel's to set; strings end in the field at the latest. */
	param->flags &= ~(DM_BUFFER_FULL_FLAG | DM_UEVENT_GENERATED_FLAG | DM_SECURE_DATA_FLAG |
			  DM_DATA_OUT_FLAG);
	param->name[sizeof(param->name) - 1] = 0;
	param->uuid[sizeof(param->uuid) - 1] = 0;
	if (nr == DM_DEV_CREATE_CMD && !param->name[0])
		return -EINVAL;
	if (nr != DM_DEV_CREATE_CMD && nr != DM_REMOVE_ALL_CMD && nr != DM_LIST_DEVICES_CMD &&
	    nr != DM_LIST_VERSIONS_CMD && param->name[0] && param->uuid[0])
		return -EINVAL;	/* one of the two, as Linux asks */
	if (nr == DM_LIST_VERSIONS_CMD)
		return list_versions(param, size);	/* takes the target types' lock itself */
	mutex_lock(&dm_devices_lock);
	dm_init_once();
	err = dm_commands[nr](param, size);
	mutex_unlock(&dm_devices_lock);
	return err;
}

static long dm_ctl_ioctl(struct file *f, unsigned int cmd, u64 arg)
{
	struct dm_ioctl head, *param;
	size_t alloc;
	int err;

	(void)f;
	/* Linux's order: another driver's command, then the version, then an unknown one */
	if (((cmd >> 8) & 0xff) != DM_IOCTL)
		return -ENOTTY;
	if (copy_from_user(&head, arg, offsetof(struct dm_ioctl, data)))
		return -EFAULT;
	err = dm_ioctl_check_version(&head);
	/* The kernel's version goes back whatever happens next, as Linux's does. */
	head.version[0] = DM_VERSION_MAJOR;
	head.version[1] = DM_VERSION_MINOR;
	head.version[2] = DM_VERSION_PATCHLEVEL;
	if (copy_to_user(arg, head.version, sizeof(head.version)))
		return -EFAULT;
	if (!err)
		err = dm_ioctl_known(cmd);
	if (err || (cmd & 0xff) == DM_VERSION_CMD)
		return err;
	err = dm_ioctl_check_size(&head);
	if (err)
		return err;
	alloc = MAX((size_t)head.data_size, sizeof(struct dm_ioctl));
	param = vzalloc(alloc);
	if (!param)
		return -ENOMEM;
	if (copy_from_user(param, arg, head.data_size)) {
		vfree(param);
		return -EFAULT;
	}
	/* Read again from the copy: the caller may change its buffer meanwhile. */
	param->data_size = head.data_size;
	memcpy(param->version, head.version, sizeof(head.version));
	err = dm_ioctl_run(cmd, param, head.data_size);
	if (!err && copy_to_user(arg, param, MIN((size_t)param->data_size, (size_t)head.data_size)))
		err = -EFAULT;
	vfree(param);
	return err;
}

static const struct file_operations dm_ctl_fops = {
	.ioctl = dm_ctl_ioctl,
	.no_seek = true,
};

int dm_ctl_open(struct file *f)
{
	/* The core's targets and major exist before the first command. */
	mutex_lock(&dm_devices_lock);
	dm_init_once();
	mutex_unlock(&dm_devices_lock);
	f->f_op = &dm_ctl_fops;
	return 0;
}
