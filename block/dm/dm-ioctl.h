/* SPDX-License-Identifier: MIT */
/*
 * What block/dm/dm-ioctl.c and dm-ioctl-table.c share, and what their
 * tests call directly (block/dm/dm_ioctl_test.c): the checks on a
 * caller's buffer, and a command run on a buffer already in the kernel.
 */
#ifndef BLOCK_DM_IOCTL_H
#define BLOCK_DM_IOCTL_H

#include <pagoda/blkdev.h>
#include <pagoda/dm-ioctl.h>

/*
 * The largest buffer taken. libdm starts at 16 KiB and doubles it when
 * told DM_BUFFER_FULL_FLAG; a megabyte holds thousands of devices, and a
 * larger data_size is a caller's mistake, not a reason to allocate.
 */
#define DM_IOCTL_MAX_DATA (1 << 20)

/* -EINVAL for another ABI's version, or a newer minor than this kernel's. */
int dm_ioctl_check_version(const struct dm_ioctl *h);
/* -EINVAL for a data_size below the header's fields or above DM_IOCTL_MAX_DATA. */
int dm_ioctl_check_size(const struct dm_ioctl *h);
/* 0 for a device-mapper command this kernel answers, else -ENOTTY. */
int dm_ioctl_known(unsigned int cmd);
int dm_ioctl_run(unsigned int cmd, struct dm_ioctl *param, size_t size);
int dm_ioctl_for_each_spec(struct dm_ioctl *param, size_t size,
			   int (*fn)(void *arg, const struct dm_target_spec *spec, char *params),
			   void *arg);
u64 dm_encode_dev(dev_t dev);
dev_t dm_decode_dev(u64 dev);

/*
 * Shared by dm-ioctl.c and dm-ioctl-table.c; all called under
 * dm_devices_lock. A NUL-terminated string at off, wholly in the buffer?
 */
bool dm_ioctl_str_in(const struct dm_ioctl *param, size_t size, size_t off);
/* A payload at data_start: past the header's fields, inside the buffer. */
bool dm_ioctl_payload_ok(const struct dm_ioctl *param, size_t size);
/* Where the answer goes (data_start is set), and how many bytes it may take. */
void *dm_ioctl_result_buffer(struct dm_ioctl *param, size_t size, size_t *len);
struct mapped_device;
/* The device the header names (uuid, name or number), its name and uuid filled in. */
struct mapped_device *dm_ioctl_find_device(struct dm_ioctl *param);
/* The device's state into the header (Linux's __dev_status()). */
void dm_ioctl_dev_status(struct mapped_device *md, struct dm_ioctl *param);
/* That and the table's lines: DM_TABLE_STATUS's answer, and DM_DEV_WAIT's. */
void dm_ioctl_status_of(struct mapped_device *md, struct dm_ioctl *param, size_t size);
int dm_ioctl_table_load(struct dm_ioctl *param, size_t size);
int dm_ioctl_table_clear(struct dm_ioctl *param, size_t size);
int dm_ioctl_table_deps(struct dm_ioctl *param, size_t size);
int dm_ioctl_table_status(struct dm_ioctl *param, size_t size);

#endif
