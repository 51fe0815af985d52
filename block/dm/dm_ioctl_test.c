// SPDX-License-Identifier: MIT
/*
 * test=dm_ioctl: Linux's device-mapper ioctls (block/dm/dm-ioctl.c) on
 * buffers built by hand, the way a careless or hostile program could
 * build them: versions, sizes and offsets that lie, strings without their
 * NUL, target specs that point back at themselves or past the end, a
 * target count of four billion, answers that do not fit. Each must be a
 * clean errno (or DM_BUFFER_FULL_FLAG), quickly, with nothing left
 * behind; and the well-formed commands libdevmapper sends must answer in
 * Linux's layouts. One memory disk; about a second.
 */
#include <pagoda/device-mapper.h>
#include <pagoda/err.h>
#include <pagoda/ktest.h>
#include <pagoda/null_blk.h>
#include <pagoda/slab.h>
#include <pagoda/string.h>

#include "dm-core.h"
#include "dm-ioctl.h"
#include "dm_test.h"

#define BUF 4096
#define HDR sizeof(struct dm_ioctl)

static struct dm_ioctl *fresh(void *buf, const char *name, u32 size)
{
	struct dm_ioctl *p = buf;

	memset(buf, 0, BUF);
	p->version[0] = DM_VERSION_MAJOR;
	p->data_size = size;
	p->data_start = HDR;
	if (name)
		strlcpy(p->name, name, sizeof(p->name));
	return p;
}

/* A one-target table after the header: its spec and its parameters. */
static void put_spec(struct dm_ioctl *p, size_t off, u64 start, u64 len, const char *type,
		     const char *params, u32 next)
{
	struct dm_target_spec s = { .sector_start = start, .length = len, .next = next };

	strlcpy(s.target_type, type, sizeof(s.target_type));
	memcpy((char *)p + off, &s, sizeof(s));
	strlcpy((char *)p + off + sizeof(s), params, BUF - off - sizeof(s));
}

static int run(unsigned int nr, struct dm_ioctl *p)
{
	return dm_ioctl_run(DM_IOCTL_CMD(nr), p, p->data_size);
}

static void test_header_checks(struct ktest *t)
{
	struct dm_ioctl h = { .version = { DM_VERSION_MAJOR, 0, 0 }, .data_size = HDR };

	KEXPECT_EQ(t, dm_ioctl_check_version(&h), 0);
	h.version[1] = DM_VERSION_MINOR + 1;	/* newer than this kernel */
	KEXPECT_EQ(t, dm_ioctl_check_version(&h), -EINVAL);
	h.version[0] = 3;
	h.version[1] = 0;
	KEXPECT_EQ(t, dm_ioctl_check_version(&h), -EINVAL);
	h.data_size = 0;
	KEXPECT_EQ(t, dm_ioctl_check_size(&h), -EINVAL);
	h.data_size = offsetof(struct dm_ioctl, data) - 1;
	KEXPECT_EQ(t, dm_ioctl_check_size(&h), -EINVAL);
	h.data_size = offsetof(struct dm_ioctl, data);	/* Linux's minimum */
	KEXPECT_EQ(t, dm_ioctl_check_size(&h), 0);
	h.data_size = DM_IOCTL_MAX_DATA + 1;
	KEXPECT_EQ(t, dm_ioctl_check_size(&h), -EINVAL);
	h.data_size = 0xffffffffu;
	KEXPECT_EQ(t, dm_ioctl_check_size(&h), -EINVAL);

	/* Another driver's ioctl, an unknown or unanswered command: -ENOTTY. */
	KEXPECT_EQ(t, dm_ioctl_known(0x5401), -ENOTTY);		/* TCGETS */
	KEXPECT_EQ(t, dm_ioctl_known(DM_IOCTL_CMD(DM_DEV_SET_GEOMETRY_CMD)), -ENOTTY);
	KEXPECT_EQ(t, dm_ioctl_known(DM_IOCTL_CMD(0xff)), -ENOTTY);
	KEXPECT_EQ(t, dm_ioctl_known(DM_VERSION), 0);
	KEXPECT_EQ(t, dm_ioctl_known(DM_TARGET_MSG), 0);

	/* Linux's encoding of a device number in dev and in deps */
	KEXPECT_EQ(t, dm_encode_dev(MKDEV(253, 1)), 0xfd01ULL);
	KEXPECT_EQ(t, dm_encode_dev(MKDEV(8, 300)), (300 & 0xff) | (8 << 8) | ((300ULL & ~0xff) << 12));
	KEXPECT_EQ(t, dm_decode_dev(dm_encode_dev(MKDEV(259, 70000))), MKDEV(259, 70000));
}

static void test_names(struct ktest *t)
{
	char *buf = kmalloc(BUF, GFP_KERNEL);
	struct dm_ioctl *p;

	KASSERT_TRUE(t, buf != NULL);
	p = fresh(buf, "", BUF);
	KEXPECT_EQ(t, run(DM_DEV_CREATE_CMD, p), -EINVAL);	/* no name */
	p = fresh(buf, "a/b", BUF);
	KEXPECT_EQ(t, run(DM_DEV_CREATE_CMD, p), -EINVAL);
	p = fresh(buf, "control", BUF);
	KEXPECT_EQ(t, run(DM_DEV_CREATE_CMD, p), -EINVAL);

	/* A name filling its field with no NUL is cut at the field's end, as Linux's */
	p = fresh(buf, NULL, BUF);
	memset(p->name, 'n', sizeof(p->name));
	memset(p->uuid, 'u', sizeof(p->uuid));
	KEXPECT_EQ(t, run(DM_DEV_CREATE_CMD, p), 0);
	KEXPECT_EQ(t, strlen(p->name), sizeof(p->name) - 1);
	KEXPECT_EQ(t, strlen(p->uuid), sizeof(p->uuid) - 1);
	/* Found again by that uuid alone; name and uuid together are refused */
	memset(p->name, 0, sizeof(p->name));
	KEXPECT_EQ(t, run(DM_DEV_STATUS_CMD, p), 0);
	KEXPECT_EQ(t, strlen(p->name), sizeof(p->name) - 1);	/* filled in */
	KEXPECT_EQ(t, run(DM_DEV_STATUS_CMD, p), -EINVAL);
	memset(p->name, 0, sizeof(p->name));
	KEXPECT_EQ(t, run(DM_DEV_CREATE_CMD, fresh(buf, "other", BUF)), 0);
	/* the same uuid again: taken */
	p = fresh(buf, "third", BUF);
	memset(p->uuid, 'u', sizeof(p->uuid) - 1);
	KEXPECT_EQ(t, run(DM_DEV_CREATE_CMD, p), -EBUSY);
	KEXPECT_EQ(t, run(DM_DEV_CREATE_CMD, fresh(buf, "other", BUF)), -EBUSY);
	KEXPECT_EQ(t, run(DM_DEV_STATUS_CMD, fresh(buf, "nosuch", BUF)), -ENXIO);
	/* A device's disk name is not its name */
	KEXPECT_EQ(t, run(DM_DEV_STATUS_CMD, fresh(buf, "dm-0", BUF)), -ENXIO);

	/* Rename: the new name at data_start, which must lie in the buffer */
	p = fresh(buf, "other", BUF);
	strlcpy(buf + HDR, "renamed", BUF - HDR);
	p->data_start = BUF;
	KEXPECT_EQ(t, run(DM_DEV_RENAME_CMD, p), -EINVAL);
	p->data_start = 8;	/* inside the header's own fields */
	KEXPECT_EQ(t, run(DM_DEV_RENAME_CMD, p), -EINVAL);
	p->data_start = HDR;
	memset(buf + HDR, 'x', BUF - HDR);	/* no NUL before the end */
	KEXPECT_EQ(t, run(DM_DEV_RENAME_CMD, p), -EINVAL);
	buf[HDR] = 0;	/* empty */
	KEXPECT_EQ(t, run(DM_DEV_RENAME_CMD, p), -EINVAL);
	strlcpy(buf + HDR, "renamed", BUF - HDR);
	KEXPECT_EQ(t, run(DM_DEV_RENAME_CMD, p), 0);
	KEXPECT_EQ(t, run(DM_DEV_STATUS_CMD, fresh(buf, "renamed", BUF)), 0);
	KEXPECT_EQ(t, run(DM_DEV_STATUS_CMD, fresh(buf, "other", BUF)), -ENXIO);

	/* A buffer just the header's fields: the status still fits */
	p = fresh(buf, "renamed", offsetof(struct dm_ioctl, data));
	KEXPECT_EQ(t, run(DM_DEV_STATUS_CMD, p), 0);

	KEXPECT_EQ(t, run(DM_REMOVE_ALL_CMD, fresh(buf, NULL, BUF)), 0);
	KEXPECT_EQ(t, run(DM_DEV_STATUS_CMD, fresh(buf, "renamed", BUF)), -ENXIO);
	kfree(buf);
}

static int count_spec(void *arg, const struct dm_target_spec *spec, char *params)
{
	(void)spec;
	(void)params;
	(*(u32 *)arg)++;
	return 0;
}

/* The table loads that must fail, each leaving the device without an inactive table. */
static void test_hostile_tables(struct ktest *t)
{
	struct nullb *nb = dmt_nullb(t, 1);
	u32 n;
	char *buf = kmalloc(BUF, GFP_KERNEL), params[64];
	const size_t spec = sizeof(struct dm_target_spec);
	struct dm_ioctl *p;

	if (!nb || !buf)
		goto out;
	snprintf(params, sizeof(params), "%s 0", nbname(nb));
	KEXPECT_EQ(t, run(DM_DEV_CREATE_CMD, fresh(buf, "t", BUF)), 0);

	p = fresh(buf, "t", BUF);	/* no targets */
	KEXPECT_EQ(t, run(DM_TABLE_LOAD_CMD, p), -EINVAL);

	p = fresh(buf, "t", BUF);	/* the spec starts past the end */
	p->target_count = 1;
	p->data_start = BUF - 8;
	KEXPECT_EQ(t, run(DM_TABLE_LOAD_CMD, p), -EINVAL);
	p->data_start = 0x80000000u;
	KEXPECT_EQ(t, run(DM_TABLE_LOAD_CMD, p), -EINVAL);

	p = fresh(buf, "t", BUF);	/* parameters that run off the end */
	p->target_count = 1;
	put_spec(p, HDR, 0, 8, "linear", params, 0);
	memset(buf + HDR + spec, 'p', BUF - HDR - spec);
	KEXPECT_EQ(t, run(DM_TABLE_LOAD_CMD, p), -EINVAL);

	p = fresh(buf, "t", BUF);	/* a type name with no NUL */
	p->target_count = 1;
	put_spec(p, HDR, 0, 8, "linear", params, 0);
	memset(buf + HDR + offsetof(struct dm_target_spec, target_type), 'l', DM_MAX_TYPE_NAME);
	KEXPECT_EQ(t, run(DM_TABLE_LOAD_CMD, p), -EINVAL);

	/* Two targets whose first says the next is itself (next 0), or inside itself */
	p = fresh(buf, "t", BUF);
	p->target_count = 2;
	put_spec(p, HDR, 0, 8, "linear", params, 0);
	KEXPECT_EQ(t, run(DM_TABLE_LOAD_CMD, p), -EINVAL);
	put_spec(p, HDR, 0, 8, "linear", params, spec - 1);
	KEXPECT_EQ(t, run(DM_TABLE_LOAD_CMD, p), -EINVAL);
	put_spec(p, HDR, 0, 8, "linear", params, 0xfffffff0u);	/* far past the end */
	KEXPECT_EQ(t, run(DM_TABLE_LOAD_CMD, p), -EINVAL);

	/*
	 * Four billion targets, each spec well formed and pointing just past
	 * itself: the walk stops, refused, where the buffer ends.
	 */
	p = fresh(buf, "t", BUF);
	p->target_count = 0xffffffffu;
	for (size_t off = HDR; off + spec + 8 <= BUF; off += spec + 8)
		put_spec(p, off, 0, 1, "x", "", spec + 8);
	n = 0;
	KEXPECT_EQ(t, dm_ioctl_for_each_spec(p, BUF, count_spec, &n), -EINVAL);
	KEXPECT_EQ(t, n, (BUF - HDR) / (spec + 8));
	KEXPECT_EQ(t, run(DM_TABLE_LOAD_CMD, p), -EINVAL);	/* "x": no such type */

	/* An unknown type; a gap; a constructor's refusal */
	p = fresh(buf, "t", BUF);
	p->target_count = 1;
	put_spec(p, HDR, 0, 8, "nosuch", "", 0);
	KEXPECT_EQ(t, run(DM_TABLE_LOAD_CMD, p), -EINVAL);
	put_spec(p, HDR, 4, 8, "linear", params, 0);
	KEXPECT_EQ(t, run(DM_TABLE_LOAD_CMD, p), -EINVAL);
	put_spec(p, HDR, 0, 8, "linear", "/dev/nosuch 0", 0);
	KEXPECT_EQ(t, run(DM_TABLE_LOAD_CMD, p), -ENODEV);
	put_spec(p, HDR, 0, 0, "linear", params, 0);	/* zero length */
	KEXPECT_EQ(t, run(DM_TABLE_LOAD_CMD, p), -EINVAL);

	p = fresh(buf, "t", BUF);
	KEXPECT_EQ(t, run(DM_DEV_STATUS_CMD, p), 0);
	KEXPECT_EQ(t, p->flags & (DM_ACTIVE_PRESENT_FLAG | DM_INACTIVE_PRESENT_FLAG), 0);
	/* Read-only tables are not kept here: refused, not ignored */
	p = fresh(buf, "t", BUF);
	p->target_count = 1;
	p->flags = DM_READONLY_FLAG;
	put_spec(p, HDR, 0, 8, "linear", params, 0);
	KEXPECT_EQ(t, run(DM_TABLE_LOAD_CMD, p), -EINVAL);
	KEXPECT_EQ(t, run(DM_DEV_REMOVE_CMD, fresh(buf, "t", BUF)), 0);
out:
	kfree(buf);
	null_destroy(nb);
}

/* Load, resume, and read back in Linux's layouts; answers too big say so. */
static void test_answers(struct ktest *t)
{
	struct nullb *nb = dmt_nullb(t, 1);
	char *buf = kmalloc(BUF, GFP_KERNEL), params[64], want[64];
	const size_t spec = sizeof(struct dm_target_spec);
	struct dm_target_spec s;
	struct dm_target_deps deps;
	struct dm_name_list nl;
	struct dm_ioctl *p;
	dev_t disk;
	u64 dev, dep;

	if (!nb || !buf)
		goto out;
	disk = null_disk(nb)->part0->bd_dev;
	snprintf(params, sizeof(params), "/dev/%s 0", nbname(nb));
	p = fresh(buf, "a", BUF);
	KEXPECT_EQ(t, run(DM_DEV_CREATE_CMD, p), 0);
	KEXPECT_EQ(t, p->flags & DM_SUSPEND_FLAG, 0);	/* no table yet: Linux calls it active */
	dev = p->dev;
	p = fresh(buf, "a", BUF);
	p->target_count = 2;
	put_spec(p, HDR, 0, 8, "linear", params, (u32)ALIGN_UP(spec + strlen(params) + 1, 8));
	put_spec(p, HDR + ALIGN_UP(spec + strlen(params) + 1, 8), 8, 8, "linear", params, 0);
	KEXPECT_EQ(t, run(DM_TABLE_LOAD_CMD, p), 0);
	KEXPECT_TRUE(t, p->flags & DM_INACTIVE_PRESENT_FLAG);
	KEXPECT_EQ(t, run(DM_DEV_SUSPEND_CMD, fresh(buf, "a", BUF)), 0);	/* resume */
	KEXPECT_TRUE(t, p->flags & DM_ACTIVE_PRESENT_FLAG);
	KEXPECT_EQ(t, p->target_count, 2u);
	KEXPECT_EQ(t, p->dev, dev);

	/* The table: two specs, each with its line; next counts from the first */
	p = fresh(buf, "a", BUF);
	p->flags = DM_STATUS_TABLE_FLAG;
	KEXPECT_EQ(t, run(DM_TABLE_STATUS_CMD, p), 0);
	KEXPECT_EQ(t, p->flags & DM_BUFFER_FULL_FLAG, 0);
	KEXPECT_EQ(t, p->data_start, (u32)HDR);
	KEXPECT_EQ(t, p->target_count, 2u);
	memcpy(&s, buf + p->data_start, spec);
	snprintf(want, sizeof(want), "%u:%u 0", MAJOR(disk), MINOR(disk));
	KEXPECT_EQ(t, s.sector_start, 0);
	KEXPECT_EQ(t, s.length, 8);
	KEXPECT_STREQ(t, s.target_type, "linear");
	KEXPECT_STREQ(t, buf + p->data_start + spec, want);
	KEXPECT_TRUE(t, s.next % 8 == 0 && s.next >= spec + strlen(want) + 1);
	memcpy(&s, buf + p->data_start + s.next, spec);
	KEXPECT_EQ(t, s.sector_start, 8);
	KEXPECT_TRUE(t, p->data_size <= BUF);

	/* Too small for the second target's line: DM_BUFFER_FULL_FLAG, no error */
	p = fresh(buf, "a", (u32)(HDR + spec + 12));
	p->flags = DM_STATUS_TABLE_FLAG;
	KEXPECT_EQ(t, run(DM_TABLE_STATUS_CMD, p), 0);
	KEXPECT_TRUE(t, p->flags & DM_BUFFER_FULL_FLAG);

	/* Dependencies: the disk, once, in Linux's dev encoding */
	p = fresh(buf, "a", BUF);
	KEXPECT_EQ(t, run(DM_TABLE_DEPS_CMD, p), 0);
	memcpy(&deps, buf + p->data_start, sizeof(deps));
	KEXPECT_EQ(t, deps.count, 1u);
	memcpy(&dep, buf + p->data_start + sizeof(deps), 8);
	KEXPECT_EQ(t, dep, dm_encode_dev(disk));
	p = fresh(buf, "a", (u32)(HDR + 8));
	KEXPECT_EQ(t, run(DM_TABLE_DEPS_CMD, p), 0);
	KEXPECT_TRUE(t, p->flags & DM_BUFFER_FULL_FLAG);

	/* The device list: one record, event number and flags after the name */
	p = fresh(buf, NULL, BUF);
	KEXPECT_EQ(t, run(DM_LIST_DEVICES_CMD, p), 0);
	memcpy(&nl, buf + p->data_start, sizeof(nl));
	KEXPECT_EQ(t, nl.next, 0u);
	KEXPECT_STREQ(t, buf + p->data_start + offsetof(struct dm_name_list, name), "a");
	KEXPECT_EQ(t, *(u32 *)(buf + p->data_start + 16 + 4), DM_NAME_LIST_FLAG_DOESNT_HAVE_UUID);
	p = fresh(buf, NULL, (u32)HDR);
	KEXPECT_EQ(t, run(DM_LIST_DEVICES_CMD, p), 0);
	KEXPECT_TRUE(t, p->flags & DM_BUFFER_FULL_FLAG);

	/* Target types: linear among them; too small a buffer says so */
	p = fresh(buf, NULL, BUF);
	KEXPECT_EQ(t, run(DM_LIST_VERSIONS_CMD, p), 0);
	KEXPECT_EQ(t, p->flags & DM_BUFFER_FULL_FLAG, 0);
	{
		bool found = false;
		size_t off = p->data_start;

		for (int i = 0; i < 16; i++) {
			struct dm_target_versions *v = (void *)(buf + off);

			found |= !strcmp(v->name, "linear") && v->version[0] == 1;
			if (!v->next)
				break;
			off += v->next;
		}
		KEXPECT_TRUE(t, found);
	}
	p = fresh(buf, NULL, (u32)HDR + 8);
	KEXPECT_EQ(t, run(DM_LIST_VERSIONS_CMD, p), 0);
	KEXPECT_TRUE(t, p->flags & DM_BUFFER_FULL_FLAG);

	/* Messages: linear takes none; an unterminated or empty one is refused */
	p = fresh(buf, "a", BUF);
	memset(buf + HDR, 0, 8);
	strlcpy(buf + HDR + 8, "hello", BUF - HDR - 8);
	KEXPECT_EQ(t, run(DM_TARGET_MSG_CMD, p), -EINVAL);
	p = fresh(buf, "a", BUF);
	buf[HDR + 8] = 0;
	KEXPECT_EQ(t, run(DM_TARGET_MSG_CMD, p), -EINVAL);
	p = fresh(buf, "a", BUF);
	memset(buf + HDR + 8, 'm', BUF - HDR - 8);
	KEXPECT_EQ(t, run(DM_TARGET_MSG_CMD, p), -EINVAL);
	p = fresh(buf, "a", (u32)HDR + 4);	/* not even the sector fits */
	KEXPECT_EQ(t, run(DM_TARGET_MSG_CMD, p), -EINVAL);

	/* Wait for an event other than the one it has: back at once */
	p = fresh(buf, "a", BUF);
	p->event_nr = 5;
	KEXPECT_EQ(t, run(DM_DEV_WAIT_CMD, p), 0);
	KEXPECT_EQ(t, p->event_nr, 0u);

	/* Suspend and resume by number alone (no name, no uuid) */
	p = fresh(buf, NULL, BUF);
	p->dev = dev;
	p->flags = DM_SUSPEND_FLAG | DM_SKIP_LOCKFS_FLAG;
	KEXPECT_EQ(t, run(DM_DEV_SUSPEND_CMD, p), 0);
	KEXPECT_TRUE(t, p->flags & DM_SUSPEND_FLAG);
	KEXPECT_STREQ(t, p->name, "a");
	p->flags = 0;
	KEXPECT_EQ(t, run(DM_DEV_SUSPEND_CMD, p), 0);
	KEXPECT_EQ(t, p->flags & DM_SUSPEND_FLAG, 0);

	/* Clear drops only the inactive table */
	p = fresh(buf, "a", BUF);
	p->target_count = 1;
	put_spec(p, HDR, 0, 4, "linear", params, 0);
	KEXPECT_EQ(t, run(DM_TABLE_LOAD_CMD, p), 0);
	p = fresh(buf, "a", BUF);
	KEXPECT_EQ(t, run(DM_TABLE_CLEAR_CMD, p), 0);
	KEXPECT_EQ(t, p->flags & DM_INACTIVE_PRESENT_FLAG, 0);
	KEXPECT_TRUE(t, p->flags & DM_ACTIVE_PRESENT_FLAG);
	KEXPECT_EQ(t, run(DM_DEV_REMOVE_CMD, fresh(buf, "a", BUF)), 0);
	KEXPECT_EQ(t, run(DM_DEV_REMOVE_CMD, fresh(buf, "a", BUF)), -ENXIO);
out:
	kfree(buf);
	null_destroy(nb);
}

/*
 * A target that answers messages (none of Pagoda's does yet): its reply
 * is "echo" and each word twice, so DM_DATA_OUT_FLAG and a reply too big for
 * the buffer can be seen. Registered once, by the first case that needs it.
 */
static int echo_ctr(struct dm_target *ti, unsigned int argc, char **argv)
{
	(void)ti;
	(void)argc;
	(void)argv;
	return 0;
}

static int echo_map(struct dm_target *ti, struct bio *bio)
{
	(void)ti;
	(void)bio;
	return DM_MAPIO_KILL;
}

static int echo_message(struct dm_target *ti, unsigned int argc, char **argv, char *result,
			unsigned int maxlen)
{
	unsigned int sz = 0;

	(void)ti;
	DMEMIT("echo");
	for (unsigned int i = 0; i < argc; i++)
		DMEMIT(" %s %s", argv[i], argv[i]);
	return 0;
}

static struct target_type echo_target = {
	.name = "ioctl-test-echo",
	.version = { 1, 0, 0 },
	.ctr = echo_ctr,
	.map = echo_map,
	.message = echo_message,
};

static void test_message_reply(struct ktest *t)
{
	static bool registered;
	char *buf = kmalloc(BUF, GFP_KERNEL);
	struct dm_ioctl *p;
	u64 sector = 0;

	KASSERT_TRUE(t, buf != NULL);
	if (!registered)
		dm_register_target(&echo_target);
	registered = true;
	KEXPECT_EQ(t, run(DM_DEV_CREATE_CMD, fresh(buf, "echo", BUF)), 0);
	p = fresh(buf, "echo", BUF);
	p->target_count = 1;
	put_spec(p, HDR, 0, 8, "ioctl-test-echo", "", 0);
	KEXPECT_EQ(t, run(DM_TABLE_LOAD_CMD, p), 0);
	KEXPECT_EQ(t, run(DM_DEV_SUSPEND_CMD, fresh(buf, "echo", BUF)), 0);

	/* The reply comes back where the message was, flagged, its NUL counted */
	p = fresh(buf, "echo", BUF);
	memcpy(buf + HDR, &sector, 8);
	strlcpy(buf + HDR + 8, "  a b\tc ", BUF - HDR - 8);
	KEXPECT_EQ(t, run(DM_TARGET_MSG_CMD, p), 0);
	KEXPECT_TRUE(t, p->flags & DM_DATA_OUT_FLAG);
	KEXPECT_EQ(t, p->flags & DM_BUFFER_FULL_FLAG, 0);
	KEXPECT_STREQ(t, buf + p->data_start, "echo a a b b c c");
	KEXPECT_EQ(t, p->data_size, (u32)(HDR + strlen("echo a a b b c c") + 1));

	/* A buffer that holds the message but not the reply: full, no error */
	p = fresh(buf, "echo", (u32)(HDR + 8 + 9));
	memcpy(buf + HDR, &sector, 8);
	strlcpy(buf + HDR + 8, "abcdefgh", 9);
	KEXPECT_EQ(t, run(DM_TARGET_MSG_CMD, p), 0);
	KEXPECT_TRUE(t, p->flags & DM_DATA_OUT_FLAG);
	KEXPECT_TRUE(t, p->flags & DM_BUFFER_FULL_FLAG);
	KEXPECT_EQ(t, p->data_size, (u32)(HDR + 8 + 9));	/* unchanged */

	/* A sector past the device's end names no target */
	p = fresh(buf, "echo", BUF);
	sector = 8;
	memcpy(buf + HDR, &sector, 8);
	strlcpy(buf + HDR + 8, "x", BUF - HDR - 8);
	KEXPECT_EQ(t, run(DM_TARGET_MSG_CMD, p), -EINVAL);
	KEXPECT_EQ(t, run(DM_DEV_REMOVE_CMD, fresh(buf, "echo", BUF)), 0);
	kfree(buf);
}

static struct ktest_case dm_ioctl_cases[] = {
	KTEST_CASE(test_header_checks),
	KTEST_CASE(test_names),
	KTEST_CASE(test_hostile_tables),
	KTEST_CASE(test_answers),
	KTEST_CASE(test_message_reply),
	{}
};
KTEST_SUITE_FULL(dm_ioctl, .cases = dm_ioctl_cases, .kernel_only = true);
