// SPDX-License-Identifier: MIT
/*
 * SWIOTLB behind the DMA API on the running kernel (boot with
 * `swiotlb=force swiotlb=512`: a 1 MiB pool, every mapping bounced). Holds
 * more mappings than the boot pool has slots, so transient pools appear
 * and the worker grows the pool; plays the device by writing the slots,
 * and checks every byte arrives home and nothing is left mapped.
 */
#include <pagoda/dma-mapping.h>
#include <pagoda/ktest.h>
#include <pagoda/mm.h>
#include <pagoda/sched.h>
#include <pagoda/smp.h>
#include <pagoda/slab.h>
#include <pagoda/string.h>
#include <pagoda/swiotlb.h>

#define NBUF 320
#define BUFSZ 4096

/*
 * A device with a 64-bit mask whose every mapping bounces; false, with
 * the case skipped, unless the kernel was booted with swiotlb=force.
 */
static bool bounced_device(struct ktest *t, struct device *dev, const char *name)
{
	device_initialize(dev, name);
	if (!is_swiotlb_force_bounce(dev)) {
		ktest_skip(t, "boot with swiotlb=force");
		return false;
	}
	if (dma_set_mask_and_coherent(dev, DMA_BIT_MASK(64))) {
		ktest_fail(t, __FILE__, __LINE__, "%s: no 64-bit DMA mask", name);
		return false;
	}
	return true;
}

static void test_force_bounce_grows(struct ktest *t)
{
	struct io_tlb_mem *mem = &io_tlb_default_mem;
	static u8 *bufs[NBUF];
	static dma_addr_t dmas[NBUF];
	unsigned long nslabs0, grown0, used0, freed0;
	struct device dev;
	int i, j, bad = 0;

	if (!bounced_device(t, &dev, "swiotlb-dma"))
		return;
	nslabs0 = mem->nslabs;
	grown0 = mem->pools_grown;
	freed0 = mem->pools_freed;
	used0 = mem->total_used;
	/* 320 x 4 KiB = 640 slots: more than a 512-slot boot pool. */
	for (i = 0; i < NBUF; i++) {
		bufs[i] = kmalloc(BUFSZ, GFP_KERNEL);
		KASSERT_TRUE(t, bufs[i] != NULL);
		memset(bufs[i], i, BUFSZ);
		dmas[i] = dma_map_single(&dev, bufs[i], BUFSZ, DMA_BIDIRECTIONAL);
		KASSERT_EQ(t, dma_mapping_error(&dev, dmas[i]), 0);
		KEXPECT_TRUE(t, is_swiotlb_buffer(&dev, dma_to_phys(&dev, dmas[i])));
	}
	/* The "device" read what the CPU wrote, then writes its answer. */
	for (i = 0; i < NBUF; i++) {
		u8 *slot = __va(dma_to_phys(&dev, dmas[i]));

		for (j = 0; j < BUFSZ; j++)
			bad += slot[j] != (u8)i;
		memset(slot, (u8)~i, BUFSZ);
	}
	KEXPECT_EQ(t, bad, 0);
	for (i = 0; i < NBUF; i++) {
		dma_unmap_single(&dev, dmas[i], BUFSZ, DMA_BIDIRECTIONAL);
		for (j = 0; j < BUFSZ; j++)
			bad += bufs[i][j] != (u8)~i;
		kfree(bufs[i]);
	}
	KEXPECT_EQ(t, bad, 0);
	swiotlb_flush_grow();
	KEXPECT_EQ(t, mem->total_used, used0);
	KEXPECT_EQ(t, mem->transient_live, 0);
	/* (The pool's size now depends on whether the shrink worker has passed.) */
	if (nslabs0 < NBUF * (BUFSZ / IO_TLB_SIZE))
		KEXPECT_GT(t, mem->pools_grown, grown0);
	/*
	 * Idle at two passes in a row, the grown pools go (here or in the
	 * shrink worker, whichever passes first); the boot pool stays.
	 */
	swiotlb_shrink(mem);
	KEXPECT_EQ(t, swiotlb_shrink(mem), 0);
	/*
	 * Nothing is left to unlink, but a pool the worker unlinked may still
	 * be waiting in its synchronize_rcu(), not yet counted as freed.
	 */
	swiotlb_flush_shrink();
	if (mem->pools_grown > grown0)
		KEXPECT_GT(t, mem->pools_freed, freed0);
	KEXPECT_EQ(t, mem->total_used, used0);
	ktest_log(t, "pool %lu KiB, grew %lu pools, gave back %lu, %lu transient pools so far, high-water %lu slots",
		  (nslabs0 << IO_TLB_SHIFT) >> 10, mem->pools_grown - grown0,
		  mem->pools_freed - freed0, mem->transient_total, mem->used_hiwater);
}

#define MAPPERS 4	/* one per CPU up to 4: enough to contend, short under TCG */
#define BATCH 300	/* 600 slots: more than the 1 MiB pool, even for one mapper alone */
#define ROUNDS 8

struct mapper {
	struct device *dev;
	unsigned int id;
	int bad;		/* bytes that did not arrive, or -errno of a failed map */
	bool done;
};

/* Map a batch, play the device, unmap, check: ROUNDS times. */
static int mapper_fn(void *arg)
{
	struct mapper *m = arg;
	u8 **buf = kcalloc(BATCH, sizeof(*buf), GFP_KERNEL);
	dma_addr_t *dma = kcalloc(BATCH, sizeof(*dma), GFP_KERNEL);
	unsigned int r, i, j;

	for (i = 0; buf && dma && i < BATCH; i++) {
		buf[i] = kmalloc(BUFSZ, GFP_KERNEL);
		if (!buf[i])
			break;
	}
	if (!buf || !dma || i < BATCH) {
		while (buf && i--)
			kfree(buf[i]);
		m->bad = -ENOMEM;
		goto out;
	}
	for (r = 0; r < ROUNDS && !m->bad; r++) {
		u8 tag = (u8)(m->id * 31 + r);

		for (i = 0; i < BATCH; i++) {
			memset(buf[i], tag + i, BUFSZ);
			dma[i] = dma_map_single(m->dev, buf[i], BUFSZ, DMA_BIDIRECTIONAL);
			if (dma_mapping_error(m->dev, dma[i])) {
				m->bad = -ENOMEM;
				break;
			}
			u8 *slot = __va(dma_to_phys(m->dev, dma[i]));

			for (j = 0; j < BUFSZ; j += 512)
				m->bad += slot[j] != (u8)(tag + i);
			memset(slot, (u8)~(tag + i), BUFSZ);
		}
		while (i--) {
			dma_unmap_single(m->dev, dma[i], BUFSZ, DMA_BIDIRECTIONAL);
			for (j = 0; j < BUFSZ; j += 512)
				m->bad += m->bad >= 0 && buf[i][j] != (u8)~(tag + i);
		}
		yield();
	}
	for (i = 0; i < BATCH; i++)
		kfree(buf[i]);
out:
	kfree(buf);
	kfree(dma);
	__atomic_store_n(&m->done, true, __ATOMIC_RELEASE);
	return 0;
}

/*
 * Mappers on every CPU hold more than a 1 MiB pool while this thread runs
 * shrink passes as fast as it can: pools are grown, emptied, closed,
 * unlinked and freed under the mappers' feet. Every byte must arrive, and
 * at the end nothing is mapped and every grown pool can go.
 */
static void test_concurrent_grow_shrink(struct ktest *t)
{
	struct io_tlb_mem *mem = &io_tlb_default_mem;
	struct mapper m[MAPPERS];
	struct task *task[MAPPERS];
	unsigned long used0, grown0, freed0, passes = 0;
	unsigned int n = MIN(MAX(2u, num_online_cpus()), (unsigned int)MAPPERS), i;
	struct device dev;
	bool all_done;

	if (!bounced_device(t, &dev, "swiotlb-mt"))
		return;
	used0 = mem->total_used;
	grown0 = mem->pools_grown;
	freed0 = mem->pools_freed;
	for (i = 0; i < n; i++) {
		m[i] = (struct mapper){ .dev = &dev, .id = i };
		task[i] = kthread_run(mapper_fn, &m[i], "swmap%u", i);
		KASSERT_TRUE(t, task[i] != NULL);
	}
	do {
		swiotlb_shrink(mem);
		passes++;
		msleep(1);
		all_done = true;
		for (i = 0; i < n; i++)
			all_done &= __atomic_load_n(&m[i].done, __ATOMIC_ACQUIRE);
	} while (!all_done);
	for (i = 0; i < n; i++) {
		kthread_join(task[i]);
		if (m[i].bad)
			ktest_fail(t, __FILE__, __LINE__, "mapper %u: %d%s", i, m[i].bad,
				   m[i].bad > 0 ? " bytes came back wrong" : " (a map failed)");
	}
	swiotlb_flush_grow();
	KEXPECT_EQ(t, mem->total_used, used0);
	KEXPECT_EQ(t, mem->transient_live, 0);
	swiotlb_shrink(mem);
	KEXPECT_EQ(t, swiotlb_shrink(mem), 0);
	swiotlb_flush_shrink(); /* as in test_force_bounce_grows */
	if (mem->nslabs < BATCH * (BUFSZ / IO_TLB_SIZE) + used0)
		KEXPECT_GT(t, mem->pools_grown, grown0);
	if (mem->pools_grown > grown0)
		KEXPECT_GT(t, mem->pools_freed, freed0);
	ktest_log(t, "%u mappers x %u x %u KiB: grew %lu pools, gave back %lu, %lu shrink passes",
		  n, BATCH, BUFSZ >> 10, mem->pools_grown - grown0, mem->pools_freed - freed0,
		  passes);
}

static struct ktest_case swiotlb_dma_cases[] = {
	KTEST_CASE(test_force_bounce_grows),
	KTEST_CASE(test_concurrent_grow_shrink),
	{}
};
KTEST_SUITE(swiotlb_dma, swiotlb_dma_cases);
