/* SPDX-License-Identifier: MIT */
/*
 * Linux's device-mapper ioctl ABI, version 4 (Linux:
 * include/uapi/linux/dm-ioctl.h): what a program such as Debian's dmsetup
 * (through libdevmapper) sends to /dev/mapper/control. The layouts are
 * Linux's byte for byte, since the program was compiled against them;
 * block/dm/dm-ioctl.c answers them.
 *
 * Every command passes one buffer: a struct dm_ioctl header, data_size
 * bytes long in all, whose payload (a table, a message, a new name) starts
 * data_start bytes from the header's start. The answer comes back in the
 * same buffer; when it does not fit, DM_BUFFER_FULL_FLAG says so and the
 * caller retries with a bigger one.
 */
#ifndef PAGODA_DM_IOCTL_H
#define PAGODA_DM_IOCTL_H

#include <pagoda/types.h>

#define DM_IOCTL_NAME_LEN 128	/* Linux's DM_NAME_LEN */
#define DM_UUID_LEN 129
#define DM_MAX_TYPE_NAME 16

struct dm_ioctl {
	u32 version[3];		/* in: the caller's; out: the kernel's */
	u32 data_size;		/* the whole buffer, this header included */
	u32 data_start;		/* where the payload starts, from the header's start */
	u32 target_count;
	s32 open_count;
	u32 flags;		/* DM_*_FLAG */
	u32 event_nr;		/* in: DM_DEV_WAIT's "since"; out: the device's count */
	u32 padding;
	u64 dev;		/* Linux's huge_encode_dev() of the device number */
	char name[DM_IOCTL_NAME_LEN];
	char uuid[DM_UUID_LEN];
	char data[7];		/* the payload may start here (it need not) */
};

/* One table line: followed by its parameter string, NUL-terminated. */
struct dm_target_spec {
	u64 sector_start;
	u64 length;
	s32 status;
	/*
	 * Loading: bytes from this spec to the next. Status: bytes from the
	 * first spec to the next.
	 */
	u32 next;
	char target_type[DM_MAX_TYPE_NAME];
};

struct dm_target_deps {
	u32 count;
	u32 padding;
	u64 dev[];
};

/*
 * One device of DM_LIST_DEVICES: after the name, at the next multiple of
 * 8, a u32 event number and u32 flags (DM_NAME_LIST_FLAG_*), then the
 * uuid if the flags say it has one.
 */
struct dm_name_list {
	u64 dev;
	u32 next;		/* bytes from this record to the next; 0: the last */
	char name[];
};

#define DM_NAME_LIST_FLAG_HAS_UUID 1
#define DM_NAME_LIST_FLAG_DOESNT_HAVE_UUID 2

struct dm_target_versions {
	u32 next;
	u32 version[3];
	char name[];
};

struct dm_target_msg {
	u64 sector;		/* picks the target, as a bio's sector would */
	char message[];
};

/* The command numbers: the nr of _IOWR(0xfd, nr, struct dm_ioctl). */
enum {
	DM_VERSION_CMD = 0,
	DM_REMOVE_ALL_CMD,
	DM_LIST_DEVICES_CMD,
	DM_DEV_CREATE_CMD,
	DM_DEV_REMOVE_CMD,
	DM_DEV_RENAME_CMD,
	DM_DEV_SUSPEND_CMD,
	DM_DEV_STATUS_CMD,
	DM_DEV_WAIT_CMD,
	DM_TABLE_LOAD_CMD,
	DM_TABLE_CLEAR_CMD,
	DM_TABLE_DEPS_CMD,
	DM_TABLE_STATUS_CMD,
	DM_LIST_VERSIONS_CMD,
	DM_TARGET_MSG_CMD,
	DM_DEV_SET_GEOMETRY_CMD,
	DM_DEV_ARM_POLL_CMD,
	DM_GET_TARGET_VERSION_CMD,
};

#define DM_IOCTL 0xfd
/* _IOWR(DM_IOCTL, nr, struct dm_ioctl): read|write, size 312 */
#define DM_IOCTL_CMD(nr) (0xc0000000U | ((u32)sizeof(struct dm_ioctl) << 16) | \
			  (DM_IOCTL << 8) | (nr))
#define DM_VERSION DM_IOCTL_CMD(DM_VERSION_CMD)
#define DM_REMOVE_ALL DM_IOCTL_CMD(DM_REMOVE_ALL_CMD)
#define DM_LIST_DEVICES DM_IOCTL_CMD(DM_LIST_DEVICES_CMD)
#define DM_DEV_CREATE DM_IOCTL_CMD(DM_DEV_CREATE_CMD)
#define DM_DEV_REMOVE DM_IOCTL_CMD(DM_DEV_REMOVE_CMD)
#define DM_DEV_RENAME DM_IOCTL_CMD(DM_DEV_RENAME_CMD)
#define DM_DEV_SUSPEND DM_IOCTL_CMD(DM_DEV_SUSPEND_CMD)
#define DM_DEV_STATUS DM_IOCTL_CMD(DM_DEV_STATUS_CMD)
#define DM_DEV_WAIT DM_IOCTL_CMD(DM_DEV_WAIT_CMD)
#define DM_TABLE_LOAD DM_IOCTL_CMD(DM_TABLE_LOAD_CMD)
#define DM_TABLE_CLEAR DM_IOCTL_CMD(DM_TABLE_CLEAR_CMD)
#define DM_TABLE_DEPS DM_IOCTL_CMD(DM_TABLE_DEPS_CMD)
#define DM_TABLE_STATUS DM_IOCTL_CMD(DM_TABLE_STATUS_CMD)
#define DM_LIST_VERSIONS DM_IOCTL_CMD(DM_LIST_VERSIONS_CMD)
#define DM_TARGET_MSG DM_IOCTL_CMD(DM_TARGET_MSG_CMD)

/* The interface version answered: Linux 6.1's, whose layouts these are. */
#define DM_VERSION_MAJOR 4
#define DM_VERSION_MINOR 47
#define DM_VERSION_PATCHLEVEL 0

#define DM_READONLY_FLAG (1U << 0)
#define DM_SUSPEND_FLAG (1U << 1)
#define DM_PERSISTENT_DEV_FLAG (1U << 3)
#define DM_STATUS_TABLE_FLAG (1U << 4)
#define DM_ACTIVE_PRESENT_FLAG (1U << 5)
#define DM_INACTIVE_PRESENT_FLAG (1U << 6)
#define DM_BUFFER_FULL_FLAG (1U << 8)
#define DM_SKIP_BDGET_FLAG (1U << 9)
#define DM_SKIP_LOCKFS_FLAG (1U << 10)
#define DM_NOFLUSH_FLAG (1U << 11)
#define DM_QUERY_INACTIVE_TABLE_FLAG (1U << 12)
#define DM_UEVENT_GENERATED_FLAG (1U << 13)
#define DM_UUID_FLAG (1U << 14)
#define DM_SECURE_DATA_FLAG (1U << 15)
#define DM_DATA_OUT_FLAG (1U << 16)
#define DM_DEFERRED_REMOVE (1U << 17)
#define DM_INTERNAL_SUSPEND_FLAG (1U << 18)

/* The misc character device /dev/mapper/control. */
#define MISC_MAJOR 10
#define DM_CONTROL_MINOR 236

struct file;
/* /dev/mapper/control's open (fs/devtmpfs.c). */
int dm_ctl_open(struct file *f);

#endif
