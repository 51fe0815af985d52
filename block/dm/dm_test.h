/* SPDX-License-Identifier: MIT */
/*
 * Helpers the device-mapper suites share (block/dm/dm_test.c, which
 * defines them, and block/dm/dm_ioctl_test.c): the disks they map.
 */
#ifndef PAGODA_DM_TEST_H
#define PAGODA_DM_TEST_H

#include <pagoda/ktest.h>
#include <pagoda/null_blk.h>

/*
 * A memory-backed null_blk of size_mb MiB with 512-byte sectors and no
 * write cache, so what a test writes is what it reads back; NULL (and
 * the test failed) if it could not be made.
 */
struct nullb *dmt_nullb(struct ktest *t, u64 size_mb);
/* Its name, as a table line names it: "nullbN". */
const char *nbname(struct nullb *nb);

#endif
