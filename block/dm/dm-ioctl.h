/* SPDX-License-Identifier: MIT */
/*
 * The parts of block/dm/dm-ioctl.c its tests call directly
 * (block/dm/dm_ioctl_test.c): the checks on a caller's buffer, and a
 * command run on a buffer already in the kernel.
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

#endif
