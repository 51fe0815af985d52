// SPDX-License-Identifier: MIT
/*
 * null_blk (see include/pagoda/null_blk.h for the story and the parameters).
 *
 * queue_rq() does the whole I/O at once (a memcpy to or from RAM, or
 * nothing), then completes the request the way irqmode says: inline
 * (none), through the block softirq (softirq), or from a timer interrupt
 * completion_nsec later (timer), which is how a real device behaves.
 */
#include <pagoda/err.h>
#include <pagoda/mutex.h>
#include <pagoda/params.h>
#include <pagoda/printk.h>
#include <pagoda/slab.h>
#include <pagoda/smp.h>
#include <pagoda/string.h>

#include "../pagemap.h"
#include <pagoda/null_blk.h>

#define NULLB_MAX_BADBLOCKS 16
#define NULLB_MAX_DEVICES 64

static u64 nr_devices = 1;
PARAM_UINT("null_blk.nr_devices", nr_devices, 0, 16, "null_blk: devices made at boot");
static u64 g_gb = 250;
PARAM_UINT("null_blk.gb", g_gb, 1, 1U << 20, "null_blk: capacity in GiB");
static u64 g_bs = 512;
PARAM_UINT("null_blk.bs", g_bs, 512, 4096, "null_blk: logical block size in bytes");
static u64 g_submit_queues = 1;
PARAM_UINT("null_blk.submit_queues", g_submit_queues, 0, NR_CPUS,
	   "null_blk: hardware queues (0: one per CPU)");
static u64 g_hw_queue_depth = 64;
PARAM_UINT("null_blk.hw_queue_depth", g_hw_queue_depth, 1, BLK_MQ_MAX_DEPTH,
	   "null_blk: tags per hardware queue");
static const char *const irqmode_names[] = { "none", "softirq", "timer", NULL };
static int g_irqmode = NULL_IRQ_SOFTIRQ;
PARAM_ENUM("null_blk.irqmode", g_irqmode, irqmode_names,
	   "null_blk: completion from the submitter, the block softirq, or a timer");
static u64 g_completion_nsec = 10000;
PARAM_UINT("null_blk.completion_nsec", g_completion_nsec, 0, NSEC_PER_SEC,
	   "null_blk: irqmode=timer completion delay, ns");
static bool g_memory_backed;
PARAM_BOOL("null_blk.memory_backed", g_memory_backed, "null_blk: keep written data in RAM");
static u64 g_cache_size;
PARAM_UINT("null_blk.cache_size", g_cache_size, 0, 1U << 20,
	   "null_blk: volatile write cache in MiB (memory_backed only)");
static bool g_fua = true;
PARAM_BOOL("null_blk.fua", g_fua, "null_blk: with a cache, do FUA in the device");
static char g_badblocks[128];
PARAM_STRING("null_blk.badblocks", g_badblocks,
	     "null_blk: START-END,... sectors that fail with an I/O error");

struct nullb {
	struct list_head list;
	int index;
	struct nullb_config cfg;
	struct blk_mq_tag_set tag_set;
	struct gendisk *disk;
	struct pagemap media;
	struct pagemap cache;
	u64 cache_pages;
	spinlock_t lock;  /* the cache, bad blocks */
	struct { sector_t start, end; } bad[NULLB_MAX_BADBLOCKS];
	unsigned int nr_bad;
	atomic64_t nr_flushes;
};

struct nullb_cmd {
	struct timer_list timer;
	blk_status_t error;
};

static DEFINE_MUTEX(nullb_lock);
static LIST_HEAD(nullb_list);
static unsigned long nullb_indexes[DIV_ROUND_UP(NULLB_MAX_DEVICES, 64)];
static int null_major;

void null_default_config(struct nullb_config *cfg)
{
	*cfg = (struct nullb_config){
		.size_mb = g_gb * 1024,
		.bs = (unsigned int)g_bs,
		.submit_queues = (unsigned int)g_submit_queues,
		.hw_queue_depth = (unsigned int)g_hw_queue_depth,
		.irqmode = g_irqmode,
		.completion_nsec = g_completion_nsec,
		.memory_backed = g_memory_backed,
		.cache_size_mb = g_cache_size,
		.fua = g_fua,
	};
}

/* --- data ---------------------------------------------------------------- */

static bool null_badblocks_hit(struct nullb *nb, sector_t s, unsigned int nr)
{
	unsigned long flags;
	bool hit = false;

	if (!READ_ONCE(nb->nr_bad))
		return false;
	spin_lock_irqsave(&nb->lock, flags);
	for (unsigned int i = 0; i < nb->nr_bad; i++)
		if (s < nb->bad[i].end && nb->bad[i].start < s + nr)
			hit = true;
	spin_unlock_irqrestore(&nb->lock, flags);
	return hit;
}

/* Write back one cached page (lock held). */
static bool null_writeback_page(struct nullb *nb, u64 idx)
{
	struct page *c = pagemap_take(&nb->cache, idx);
	struct page *m;

	if (!c)
		return true;
	m = pagemap_get(&nb->media, idx);
	if (!m)
		return false;
	memcpy(page_address(m), page_address(c), PAGE_SIZE);
	__free_page(c);
	return true;
}

static blk_status_t null_flush_cache(struct nullb *nb)
{
	blk_status_t ret = BLK_STS_OK;

	for (u64 idx = 0; idx < nb->cache.nr_pages && nb->cache.nr_present; idx++)
		if (pagemap_lookup(&nb->cache, idx) && !null_writeback_page(nb, idx))
			ret = BLK_STS_RESOURCE;
	return ret;
}

/*
 * Copy len bytes at byte offset pos of the disk to or from buf. With a
 * write cache, writes land in the cache (whole pages, filled from the
 * media first) and reads look there before the media.
 */
static blk_status_t null_copy(struct nullb *nb, u64 pos, void *buf, unsigned int len,
			      bool write, bool fua)
{
	bool cached = nb->cache_pages != 0;

	while (len) {
		u64 idx = pos / PAGE_SIZE;
		unsigned int off = pos % PAGE_SIZE;
		unsigned int n = MIN(len, (unsigned int)PAGE_SIZE - off);
		struct page *page = NULL;

		if (write) {
			if (cached && !fua) {
				page = pagemap_lookup(&nb->cache, idx);
				if (!page) {
					struct page *m = pagemap_lookup(&nb->media, idx);

					if (nb->cache.nr_present >= nb->cache_pages &&
					    null_flush_cache(nb))
						return BLK_STS_RESOURCE;
					page = pagemap_get(&nb->cache, idx);
					if (page && m)
						memcpy(page_address(page), page_address(m), PAGE_SIZE);
				}
			} else {
				if (cached && !null_writeback_page(nb, idx))
					return BLK_STS_RESOURCE;
				page = pagemap_get(&nb->media, idx);
			}
			if (!page)
				return BLK_STS_RESOURCE;
			memcpy((char *)page_address(page) + off, buf, n);
		} else {
			if (cached)
				page = pagemap_lookup(&nb->cache, idx);
			if (!page)
				page = pagemap_lookup(&nb->media, idx);
			pagemap_read(buf, page, off, n);
		}
		pos += n;
		buf = (char *)buf + n;
		len -= n;
	}
	return BLK_STS_OK;
}

/* Discard and write-zeroes: the range reads back as zeroes. */
static blk_status_t null_zero_range(struct nullb *nb, u64 pos, u64 len)
{
	while (len) {
		u64 idx = pos / PAGE_SIZE;
		unsigned int off = pos % PAGE_SIZE;
		unsigned int n = (unsigned int)MIN(len, (u64)PAGE_SIZE - off);

		if (n == PAGE_SIZE) {
			struct page *p = pagemap_take(&nb->media, idx);

			if (p)
				__free_page(p);
			p = pagemap_take(&nb->cache, idx);
			if (p)
				__free_page(p);
		} else {
			struct page *p;

			if (nb->cache_pages && !null_writeback_page(nb, idx))
				return BLK_STS_RESOURCE;
			p = pagemap_lookup(&nb->media, idx);
			if (p)
				memset((char *)page_address(p) + off, 0, n);
		}
		pos += n;
		len -= n;
	}
	return BLK_STS_OK;
}

static blk_status_t null_handle_rq(struct nullb *nb, struct request *rq)
{
	u64 pos = (u64)blk_rq_pos(rq) << SECTOR_SHIFT;
	bool fua = rq->cmd_flags & REQ_FUA;
	struct req_iterator iter;
	struct bio_vec bv;
	blk_status_t ret = BLK_STS_OK;
	unsigned long flags = 0;
	bool locked = nb->cache_pages != 0;

	if (req_op(rq) == REQ_OP_FLUSH)
		atomic64_inc(&nb->nr_flushes);
	if (!nb->cfg.memory_backed)
		return BLK_STS_OK;
	/* With a cache, one lock orders writes, reads and write-back. */
	if (locked)
		spin_lock_irqsave(&nb->lock, flags);
	switch (req_op(rq)) {
	case REQ_OP_FLUSH:
		ret = null_flush_cache(nb);
		break;
	case REQ_OP_DISCARD:
	case REQ_OP_WRITE_ZEROES:
		ret = null_zero_range(nb, pos, blk_rq_bytes(rq));
		break;
	case REQ_OP_READ:
	case REQ_OP_WRITE:
		rq_for_each_segment(bv, rq, iter) {
			ret = null_copy(nb, pos, bvec_virt(&bv), bv.bv_len,
					req_op(rq) == REQ_OP_WRITE, fua);
			if (ret)
				break;
			pos += bv.bv_len;
		}
		break;
	default:
		ret = BLK_STS_NOTSUPP;
	}
	if (locked)
		spin_unlock_irqrestore(&nb->lock, flags);
	return ret;
}

/* --- blk-mq -------------------------------------------------------------- */

static void null_cmd_timer_expired(struct timer_list *t)
{
	struct nullb_cmd *cmd = container_of(t, struct nullb_cmd, timer);

	blk_mq_complete_request(blk_mq_rq_from_pdu(cmd));
}

static blk_status_t null_queue_rq(struct blk_mq_hw_ctx *hctx,
				  const struct blk_mq_queue_data *bd)
{
	struct request *rq = bd->rq;
	struct nullb_cmd *cmd = blk_mq_rq_to_pdu(rq);
	struct nullb *nb = hctx->queue->queuedata;

	blk_mq_start_request(rq);
	if (null_badblocks_hit(nb, blk_rq_pos(rq), blk_rq_sectors(rq)))
		cmd->error = BLK_STS_IOERR;
	else
		cmd->error = null_handle_rq(nb, rq);
	switch (nb->cfg.irqmode) {
	case NULL_IRQ_NONE:
		blk_mq_end_request(rq, cmd->error);
		break;
	case NULL_IRQ_SOFTIRQ:
		blk_mq_complete_request(rq);
		break;
	default:
		mod_timer(&cmd->timer, ktime_get_ns() + nb->cfg.completion_nsec);
		break;
	}
	return BLK_STS_OK;
}

static void null_complete_rq(struct request *rq)
{
	struct nullb_cmd *cmd = blk_mq_rq_to_pdu(rq);

	blk_mq_end_request(rq, cmd->error);
}

static int null_init_request(struct blk_mq_tag_set *set, struct request *rq,
			     unsigned int hctx_idx)
{
	struct nullb_cmd *cmd = blk_mq_rq_to_pdu(rq);

	timer_setup(&cmd->timer, null_cmd_timer_expired);
	return 0;
}

static const struct blk_mq_ops null_mq_ops = {
	.queue_rq = null_queue_rq,
	.complete = null_complete_rq,
	.init_request = null_init_request,
};

/* --- devices ------------------------------------------------------------- */

static void null_free(struct nullb *nb)
{
	if (!IS_ERR_OR_NULL(nb->disk))
		put_disk(nb->disk);
	blk_mq_free_tag_set(&nb->tag_set);
	pagemap_free(&nb->media);
	pagemap_free(&nb->cache);
	kfree(nb);
}

struct nullb *null_create(const struct nullb_config *cfg)
{
	struct queue_limits lim = { 0 };
	struct nullb *nb;
	u64 bytes = cfg->size_mb << 20;
	int err, index = -1;

	if (!cfg->size_mb || cfg->bs < 512 || cfg->bs > PAGE_SIZE || (cfg->bs & (cfg->bs - 1)))
		return ERR_PTR(-EINVAL);
	nb = kzalloc(sizeof(*nb), GFP_KERNEL);
	if (!nb)
		return ERR_PTR(-ENOMEM);
	nb->cfg = *cfg;
	if (!nb->cfg.submit_queues || nb->cfg.submit_queues > num_online_cpus())
		nb->cfg.submit_queues = num_online_cpus();
	spin_lock_init(&nb->lock);
	atomic64_set(&nb->nr_flushes, 0);
	if (cfg->memory_backed) {
		err = pagemap_init(&nb->media, DIV_ROUND_UP(bytes, PAGE_SIZE));
		if (!err && cfg->cache_size_mb) {
			nb->cache_pages = (cfg->cache_size_mb << 20) / PAGE_SIZE;
			err = pagemap_init(&nb->cache, DIV_ROUND_UP(bytes, PAGE_SIZE));
		}
		if (err)
			goto fail;
	}
	nb->tag_set.ops = &null_mq_ops;
	nb->tag_set.nr_hw_queues = nb->cfg.submit_queues;
	nb->tag_set.queue_depth = cfg->hw_queue_depth;
	nb->tag_set.cmd_size = sizeof(struct nullb_cmd);
	nb->tag_set.driver_data = nb;
	err = blk_mq_alloc_tag_set(&nb->tag_set);
	if (err)
		goto fail;
	lim.logical_block_size = cfg->bs;
	lim.physical_block_size = cfg->bs;
	/* RAM has no DMA: word-aligned buffers go straight through. */
	lim.dma_alignment = 3;
	if (cfg->memory_backed) {
		lim.max_discard_sectors = U32_MAX >> SECTOR_SHIFT;
		lim.max_write_zeroes_sectors = U32_MAX >> SECTOR_SHIFT;
		if (nb->cache_pages)
			lim.features |= BLK_FEAT_WRITE_CACHE | (cfg->fua ? BLK_FEAT_FUA : 0);
	}
	nb->disk = blk_mq_alloc_disk(&nb->tag_set, &lim, nb);
	if (IS_ERR(nb->disk)) {
		err = (int)PTR_ERR(nb->disk);
		goto fail;
	}
	mutex_lock(&nullb_lock);
	for (int i = 0; i < NULLB_MAX_DEVICES; i++)
		if (!test_and_set_bit((unsigned int)i, nullb_indexes)) {
			index = i;
			break;
		}
	mutex_unlock(&nullb_lock);
	if (index < 0) {
		err = -ENOSPC;
		goto fail;
	}
	nb->index = index;
	snprintf(nb->disk->disk_name, DISK_NAME_LEN, "nullb%d", index);
	/* as Linux's null_blk: a dynamic major, one minor a device (its
	 * partitions, which ours may have, take the extended major) */
	if (!null_major)
		null_major = register_blkdev(0, "nullb");
	if (null_major < 0) {
		err = null_major;
		null_major = 0;
		clear_bit((unsigned int)index, nullb_indexes);
		goto fail;
	}
	nb->disk->major = (unsigned int)null_major;
	nb->disk->first_minor = (unsigned int)index;
	nb->disk->minors = 1;
	set_capacity(nb->disk, bytes >> SECTOR_SHIFT);
	err = add_disk(nb->disk);
	if (err) {
		clear_bit((unsigned int)index, nullb_indexes);
		goto fail;
	}
	mutex_lock(&nullb_lock);
	list_add_tail(&nb->list, &nullb_list);
	mutex_unlock(&nullb_lock);
	return nb;
fail:
	null_free(nb);
	return ERR_PTR(err);
}

int null_destroy(struct nullb *nb)
{
	int err;

	if (!nb)
		return 0;	/* as kfree(NULL): a test's unwinding need not check */
	err = del_gendisk(nb->disk);
	if (err)
		return err;
	mutex_lock(&nullb_lock);
	list_del(&nb->list);
	clear_bit((unsigned int)nb->index, nullb_indexes);
	mutex_unlock(&nullb_lock);
	/* Timer-mode requests have all completed (del_gendisk waited). */
	null_free(nb);
	return 0;
}

struct gendisk *null_disk(struct nullb *nb)
{
	return nb->disk;
}

int null_badblocks_add(struct nullb *nb, sector_t start, sector_t nr)
{
	unsigned long flags;
	int err = 0;

	spin_lock_irqsave(&nb->lock, flags);
	if (nb->nr_bad >= NULLB_MAX_BADBLOCKS)
		err = -ENOSPC;
	else
		nb->bad[nb->nr_bad++] = (typeof(nb->bad[0])){ start, start + nr };
	spin_unlock_irqrestore(&nb->lock, flags);
	return err;
}

void null_badblocks_clear(struct nullb *nb)
{
	unsigned long flags;

	spin_lock_irqsave(&nb->lock, flags);
	nb->nr_bad = 0;
	spin_unlock_irqrestore(&nb->lock, flags);
}

void null_cache_drop(struct nullb *nb)
{
	unsigned long flags;

	spin_lock_irqsave(&nb->lock, flags);
	for (u64 idx = 0; idx < nb->cache.nr_pages && nb->cache.nr_present; idx++) {
		struct page *p = pagemap_take(&nb->cache, idx);

		if (p)
			__free_page(p);
	}
	spin_unlock_irqrestore(&nb->lock, flags);
}

u64 null_nr_flushes(struct nullb *nb)
{
	return (u64)atomic64_read(&nb->nr_flushes);
}

/* "100-107,2048-2055": inclusive sector ranges; a bad one is reported and skipped. */
static void null_parse_badblocks(struct nullb *nb, const char *s)
{
	char tok[48];

	while (*s) {
		const char *comma = strchr(s, ',');
		size_t n = comma ? (size_t)(comma - s) : strlen(s);
		char *dash;
		u64 a, b;

		if (n >= sizeof(tok))
			goto bad;
		memcpy(tok, s, n);
		tok[n] = 0;
		dash = strchr(tok, '-');
		if (!dash)
			goto bad;
		*dash = 0;
		if (kstrtou64(tok, 0, &a) || kstrtou64(dash + 1, 0, &b) || b < a)
			goto bad;
		null_badblocks_add(nb, a, b - a + 1);
		s += n;
		if (*s)
			s++;
	}
	return;
bad:
	pr_warn("null_blk: badblocks: cannot read '%s' (want START-END,...); rest ignored\n", s);
}

void null_init(void)
{
	struct nullb_config cfg;

	null_default_config(&cfg);
	if (cfg.cache_size_mb && !cfg.memory_backed)
		pr_warn("null_blk: cache_size needs memory_backed=1; no cache\n");
	for (u64 i = 0; i < nr_devices; i++) {
		struct nullb *nb = null_create(&cfg);

		if (IS_ERR(nb)) {
			pr_err("null_blk: device %llu: error %ld\n", (unsigned long long)i,
			       PTR_ERR(nb));
			return;
		}
		if (g_badblocks[0])
			null_parse_badblocks(nb, g_badblocks);
	}
}
