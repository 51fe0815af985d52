/* SPDX-License-Identifier: MIT */
/*
 * null_blk: a block device that does no I/O, or keeps it in RAM (Linux:
 * drivers/block/null_blk/). It measures the block layer alone and lets the
 * tests make every situation a real device makes rarely: a full queue,
 * completions from a timer interrupt, a volatile write cache lost at power
 * failure, bad blocks.
 *
 * Boot parameters (Linux's module parameters, with the prefix):
 *   null_blk.nr_devices=N        devices nullb0.. made at boot (default 1)
 *   null_blk.gb=N                capacity in GiB (default 250)
 *   null_blk.bs=N                logical block size (default 512)
 *   null_blk.submit_queues=N     hardware queues (default 1; 0 = one per CPU)
 *   null_blk.hw_queue_depth=N    tags per hardware queue (default 64)
 *   null_blk.irqmode=none|softirq|timer   how requests complete (softirq)
 *   null_blk.completion_nsec=N   timer mode: delay before completion (10000)
 *   null_blk.memory_backed=0|1   keep written data in RAM (default 0)
 *   null_blk.cache_size=N        memory_backed: a volatile write cache, MiB
 *   null_blk.fua=0|1             with a cache: honour FUA itself (default 1)
 *   null_blk.badblocks=S-E,...   sectors failing with an I/O error (nullb0..)
 */
#ifndef PAGODA_NULL_BLK_H
#define PAGODA_NULL_BLK_H

#include <pagoda/blk-mq.h>

enum { NULL_IRQ_NONE, NULL_IRQ_SOFTIRQ, NULL_IRQ_TIMER };

struct nullb_config {
	u64 size_mb;             /* capacity */
	unsigned int bs;
	unsigned int submit_queues; /* 0: one per online CPU */
	unsigned int hw_queue_depth;
	int irqmode;
	u64 completion_nsec;
	bool memory_backed;
	u64 cache_size_mb;       /* 0: no write cache */
	bool fua;
};

struct nullb;

/* A device with this configuration, registered as nullbN: ERR_PTR on failure. */
struct nullb *null_create(const struct nullb_config *cfg);
/* Unregister and free it: -EBUSY while open; NULL is a no-op. */
int null_destroy(struct nullb *nb);
struct gendisk *null_disk(struct nullb *nb);
/* Requests touching sectors [start, start + nr) fail with BLK_STS_IOERR. */
int null_badblocks_add(struct nullb *nb, sector_t start, sector_t nr);
void null_badblocks_clear(struct nullb *nb);
/* Power failure: what sits in the write cache is lost. */
void null_cache_drop(struct nullb *nb);
/* Flush requests the device has seen. */
u64 null_nr_flushes(struct nullb *nb);
/* The boot parameters as a config (tests start from it). */
void null_default_config(struct nullb_config *cfg);

#endif
