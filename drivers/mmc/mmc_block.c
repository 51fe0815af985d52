// SPDX-License-Identifier: MIT
/*
 * An SD card as a block device: mmcblk0, mmcblk1... (partitions mmcblk0p1
 * and on come from the block core). The card does one command at a time,
 * so there is one hardware queue; a request is one multi-block command
 * (CMD18 read, CMD25 write, with the host sending CMD12 after it) or a
 * single-block one (CMD17, CMD24), started from queue_rq and finished by
 * the host's interrupt. A second request arriving while the host is busy
 * gets BLK_STS_DEV_RESOURCE and waits in the block core.
 *
 * Standard-capacity cards take byte addresses, SDHC/SDXC block numbers.
 */
#include <pagoda/blk-mq.h>
#include <pagoda/blkdev.h>
#include <pagoda/dma-mapping.h>
#include <pagoda/err.h>
#include <pagoda/mmc.h>
#include <pagoda/printk.h>
#include <pagoda/slab.h>

#define MMC_BLK_MAX_SEGS 128
#define MMC_BLK_MAX_SECTORS 256	/* 128 KiB per command */

struct mmc_blk_req {
	struct mmc_command cmd;
	struct mmc_data data;
	struct scatterlist sg[MMC_BLK_MAX_SEGS];
};

struct mmc_blk_data {
	struct mmc_host *host;
	struct gendisk *disk;
	struct blk_mq_tag_set tag_set;
};

static int mmc_blk_next_index;

static void mmc_blk_cmd_done(struct mmc_host *host, struct mmc_command *cmd)
{
	struct mmc_blk_req *mq = container_of(cmd, struct mmc_blk_req, cmd);

	(void)host;
	blk_mq_complete_request(blk_mq_rq_from_pdu(mq));
}

static void mmc_blk_complete(struct request *rq)
{
	struct mmc_blk_req *mq = blk_mq_rq_to_pdu(rq);
	int err = mq->cmd.error ? mq->cmd.error : mq->data.error;

	if (err)
		pr_err("mmcblk: %s of %u sectors at %llu failed (%d)\n",
		       mq->data.write ? "write" : "read", blk_rq_sectors(rq),
		       (unsigned long long)blk_rq_pos(rq), err);
	blk_mq_end_request(rq, err ? BLK_STS_IOERR : BLK_STS_OK);
}

static blk_status_t mmc_blk_queue_rq(struct blk_mq_hw_ctx *hctx,
				     const struct blk_mq_queue_data *bd)
{
	struct mmc_blk_data *md = hctx->queue->queuedata;
	struct mmc_host *host = md->host;
	struct request *rq = bd->rq;
	struct mmc_blk_req *mq = blk_mq_rq_to_pdu(rq);
	struct req_iterator iter;
	struct bio_vec bv;
	unsigned long flags;
	unsigned int n = 0;
	bool write;
	int err;

	/* The card went away (another card found after a resume, drivers/mmc/pm.c). */
	if (!READ_ONCE(host->card_present))
		return BLK_STS_IOERR;
	switch (req_op(rq)) {
	case REQ_OP_READ:
		write = false;
		break;
	case REQ_OP_WRITE:
		write = true;
		break;
	default:
		return BLK_STS_NOTSUPP;
	}
	rq_for_each_segment(bv, rq, iter) {
		if (n == MMC_BLK_MAX_SEGS)
			return BLK_STS_IOERR; /* beyond the limits we declared */
		sg_set_page(&mq->sg[n], bv.bv_page, bv.bv_len, bv.bv_offset);
		mq->sg[n].flags = 0;
		n++;
	}
	if (!n)
		return BLK_STS_IOERR;
	sg_mark_end(&mq->sg[n - 1]);
	mq->data = (struct mmc_data){
		.blksz = 512, .blocks = blk_rq_sectors(rq), .write = write,
		.sg = mq->sg, .sg_len = n,
	};
	mq->cmd = (struct mmc_command){
		.opcode = mq->data.blocks > 1 ? (write ? 25 : 18) : (write ? 24 : 17),
		.arg = (u32)(host->card.high_capacity ? blk_rq_pos(rq) : blk_rq_pos(rq) << 9),
		.flags = MMC_RSP_R1,
		.data = &mq->data,
		.auto_stop = mq->data.blocks > 1,
	};
	blk_mq_start_request(rq);
	spin_lock_irqsave(&host->lock, flags);
	err = sdhci_start_request(host, &mq->cmd, mmc_blk_cmd_done);
	spin_unlock_irqrestore(&host->lock, flags);
	if (err == -EBUSY)
		return BLK_STS_DEV_RESOURCE;
	/* No bounce slots free (a restricted pool is full): try again shortly. */
	if (err == -ENOMEM)
		return BLK_STS_RESOURCE;
	return err ? BLK_STS_IOERR : BLK_STS_OK;
}

static const struct blk_mq_ops mmc_mq_ops = {
	.queue_rq = mmc_blk_queue_rq,
	.complete = mmc_blk_complete,
};

int mmc_blk_probe(struct mmc_host *host)
{
	struct queue_limits lim = {
		.logical_block_size = 512,
		.max_hw_sectors = MMC_BLK_MAX_SECTORS,
		.max_segments = MMC_BLK_MAX_SEGS,
		/* The 32-bit ADMA2 engine wants 4-byte aligned buffers. */
		.dma_alignment = host->use_adma ? 3 : 0,
	};
	struct mmc_blk_data *md = kzalloc(sizeof(*md), GFP_KERNEL);
	size_t most = dma_max_request_size(&host->dev);
	int err;

	/* A bounce pool that cannot grow must hold a whole request (a restricted pool). */
	if (most < (size_t)MMC_BLK_MAX_SECTORS << 9)
		lim.max_hw_sectors = MAX(8u, (unsigned int)(most >> 9));

	if (!md)
		return -ENOMEM;
	md->host = host;
	md->tag_set.ops = &mmc_mq_ops;
	md->tag_set.nr_hw_queues = 1;
	/* The card takes one command at a time; the second tag waits its turn. */
	md->tag_set.queue_depth = 2;
	md->tag_set.cmd_size = sizeof(struct mmc_blk_req);
	md->tag_set.driver_data = md;
	err = blk_mq_alloc_tag_set(&md->tag_set);
	if (err)
		goto out_free;
	md->disk = blk_mq_alloc_disk(&md->tag_set, &lim, md);
	if (IS_ERR(md->disk)) {
		err = PTR_ERR(md->disk);
		goto out_tags;
	}
	/* Linux's MMC_BLOCK_MAJOR, 8 minors a card (CONFIG_MMC_BLOCK_MINORS' default) */
	md->disk->major = MMC_BLOCK_MAJOR;
	md->disk->first_minor = (unsigned int)mmc_blk_next_index * 8;
	md->disk->minors = 8;
	snprintf(md->disk->disk_name, DISK_NAME_LEN, "mmcblk%d", mmc_blk_next_index++);
	set_capacity(md->disk, host->card.sectors);
	err = add_disk(md->disk);
	if (err)
		goto out_disk;
	pr_info("%s: %s, %llu sectors, %s\n", host->name, md->disk->disk_name,
		(unsigned long long)host->card.sectors, host->use_adma ? "ADMA2" : "PIO");
	return 0;
out_disk:
	put_disk(md->disk);
out_tags:
	blk_mq_free_tag_set(&md->tag_set);
out_free:
	kfree(md);
	return err;
}
