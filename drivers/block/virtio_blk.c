// SPDX-License-Identifier: MIT
/*
 * virtio-blk (virtio 1.x, 5.2): a disk behind virtqueues. A request is one
 * descriptor chain: a 16-byte header the device reads (type, sector), the
 * data pieces (device-readable for a write, device-writable for a read),
 * and one status byte the device writes last. The block layer's hardware
 * queues map one to one onto the device's request queues (VIRTIO_BLK_F_MQ),
 * each with its own lock and interrupt vector.
 *
 * A ring with too few free descriptors answers BLK_STS_DEV_RESOURCE: the
 * block core keeps the request and retries it when one of this queue's
 * requests completes, so a full queue waits and never fails.
 *
 * Offered features taken: capacity, segment and size limits, block size
 * and topology, a write cache (flush), multiple queues, discard and
 * write-zeroes, read-only.
 */
#include <pagoda/blk-mq.h>
#include <pagoda/blkdev.h>
#include <pagoda/dma-mapping.h>
#include <pagoda/drivers.h>
#include <pagoda/err.h>
#include <pagoda/printk.h>
#include <pagoda/slab.h>
#include <pagoda/smp.h>
#include <pagoda/spinlock.h>
#include <pagoda/virtio.h>

#define VIRTIO_BLK_F_SIZE_MAX 1
#define VIRTIO_BLK_F_SEG_MAX 2
#define VIRTIO_BLK_F_RO 5
#define VIRTIO_BLK_F_BLK_SIZE 6
#define VIRTIO_BLK_F_FLUSH 9
#define VIRTIO_BLK_F_TOPOLOGY 10
#define VIRTIO_BLK_F_MQ 12
#define VIRTIO_BLK_F_DISCARD 13
#define VIRTIO_BLK_F_WRITE_ZEROES 14

#define VIRTIO_BLK_T_IN 0
#define VIRTIO_BLK_T_OUT 1
#define VIRTIO_BLK_T_FLUSH 4
#define VIRTIO_BLK_T_DISCARD 11
#define VIRTIO_BLK_T_WRITE_ZEROES 13

#define VIRTIO_BLK_S_OK 0
#define VIRTIO_BLK_S_IOERR 1
#define VIRTIO_BLK_S_UNSUPP 2

/* The device's configuration space, virtio 1.x layout. */
struct virtio_blk_config {
	u64 capacity;			/* 512-byte sectors */
	u32 size_max;
	u32 seg_max;
	struct { u16 cylinders; u8 heads, sectors; } geometry;
	u32 blk_size;
	u8 physical_block_exp, alignment_offset;
	u16 min_io_size;
	u32 opt_io_size;
	u8 writeback, unused0;
	u16 num_queues;
	u32 max_discard_sectors, max_discard_seg, discard_sector_alignment;
	u32 max_write_zeroes_sectors, max_write_zeroes_seg;
	u8 write_zeroes_may_unmap;
} __packed;

struct virtio_blk_outhdr {
	u32 type;
	u32 ioprio;
	u64 sector;
};

struct virtio_blk_discard_write_zeroes {
	u64 sector;
	u32 num_sectors;
	u32 flags;
};

/* Data descriptors per request at most: the ring holds header and status too. */
#define VIRTBLK_MAX_SEGS 64

/* The driver's part of each request (the block core allocates it). */
struct virtblk_req {
	struct virtio_blk_outhdr out_hdr;
	struct virtio_blk_discard_write_zeroes range;
	u8 status;
	struct scatterlist hdr_sg, range_sg, status_sg;
	struct scatterlist sg[VIRTBLK_MAX_SEGS];
};

struct virtio_blk_vq {
	struct virtqueue *vq;
	spinlock_t lock;
	char name[16];
};

struct virtio_blk {
	struct virtio_device *vdev;
	struct gendisk *disk;
	struct blk_mq_tag_set tag_set;
	unsigned int num_vqs;
	struct virtio_blk_vq *vqs;
	int index;
};

static int virtblk_next_index;
static int virtblk_major;

static blk_status_t virtblk_result(u8 status)
{
	switch (status) {
	case VIRTIO_BLK_S_OK:
		return BLK_STS_OK;
	case VIRTIO_BLK_S_UNSUPP:
		return BLK_STS_NOTSUPP;
	default:
		return BLK_STS_IOERR;
	}
}

/* Header type and the data scatterlist for rq; the number of data pieces. */
static int virtblk_setup(struct request *rq, struct virtblk_req *vbr)
{
	struct req_iterator iter;
	struct bio_vec bv;
	int n = 0;

	vbr->out_hdr.ioprio = 0;
	vbr->out_hdr.sector = blk_rq_pos(rq);
	switch (req_op(rq)) {
	case REQ_OP_READ:
		vbr->out_hdr.type = VIRTIO_BLK_T_IN;
		break;
	case REQ_OP_WRITE:
		vbr->out_hdr.type = VIRTIO_BLK_T_OUT;
		break;
	case REQ_OP_FLUSH:
		vbr->out_hdr.type = VIRTIO_BLK_T_FLUSH;
		vbr->out_hdr.sector = 0;
		return 0;
	case REQ_OP_DISCARD:
	case REQ_OP_WRITE_ZEROES:
		vbr->out_hdr.type = req_op(rq) == REQ_OP_DISCARD ? VIRTIO_BLK_T_DISCARD :
								    VIRTIO_BLK_T_WRITE_ZEROES;
		vbr->out_hdr.sector = 0;
		vbr->range.sector = blk_rq_pos(rq);
		vbr->range.num_sectors = blk_rq_sectors(rq);
		vbr->range.flags = 0;
		return 0;
	default:
		return -EOPNOTSUPP;
	}
	rq_for_each_segment(bv, rq, iter) {
		if (n == VIRTBLK_MAX_SEGS)
			return -E2BIG; /* the limits we gave the core forbid this */
		sg_init_table(&vbr->sg[n], 1);
		sg_set_page(&vbr->sg[n], bv.bv_page, bv.bv_len, bv.bv_offset);
		if (n)
			vbr->sg[n - 1].flags &= ~SG_END;
		n++;
	}
	return n;
}

static blk_status_t virtio_queue_rq(struct blk_mq_hw_ctx *hctx,
				    const struct blk_mq_queue_data *bd)
{
	struct virtio_blk *vblk = hctx->queue->queuedata;
	struct virtio_blk_vq *bvq = &vblk->vqs[hctx->queue_num];
	struct request *rq = bd->rq;
	struct virtblk_req *vbr = blk_mq_rq_to_pdu(rq);
	struct scatterlist *sgs[4];
	unsigned int out = 0, in = 0;
	unsigned long flags;
	bool notify;
	int n, err;

	n = virtblk_setup(rq, vbr);
	if (n < 0)
		return n == -EOPNOTSUPP ? BLK_STS_NOTSUPP : BLK_STS_IOERR;
	blk_mq_start_request(rq);
	sg_init_table(&vbr->hdr_sg, 1);
	sg_set_buf(&vbr->hdr_sg, &vbr->out_hdr, sizeof(vbr->out_hdr));
	sgs[out++] = &vbr->hdr_sg;
	if (vbr->out_hdr.type == VIRTIO_BLK_T_DISCARD ||
	    vbr->out_hdr.type == VIRTIO_BLK_T_WRITE_ZEROES) {
		sg_init_table(&vbr->range_sg, 1);
		sg_set_buf(&vbr->range_sg, &vbr->range, sizeof(vbr->range));
		sgs[out++] = &vbr->range_sg;
	}
	if (n) {
		if (vbr->out_hdr.type == VIRTIO_BLK_T_OUT)
			sgs[out++] = vbr->sg;
		else
			sgs[out + in++] = vbr->sg;
	}
	vbr->status = 0xff; /* not written by the device yet */
	sg_init_table(&vbr->status_sg, 1);
	sg_set_buf(&vbr->status_sg, &vbr->status, 1);
	sgs[out + in++] = &vbr->status_sg;

	spin_lock_irqsave(&bvq->lock, flags);
	err = virtqueue_add_sgs(bvq->vq, sgs, out, in, vbr, GFP_ATOMIC);
	if (err) {
		/* Ring the doorbell for what is queued: its completions make room. */
		virtqueue_kick(bvq->vq);
		spin_unlock_irqrestore(&bvq->lock, flags);
		if (err == -ENOSPC)
			return BLK_STS_DEV_RESOURCE;
		return err == -ENOMEM ? BLK_STS_RESOURCE : BLK_STS_IOERR;
	}
	notify = bd->last && virtqueue_kick_prepare(bvq->vq);
	spin_unlock_irqrestore(&bvq->lock, flags);
	if (notify)
		virtqueue_notify(bvq->vq);
	return BLK_STS_OK;
}

static void virtio_commit_rqs(struct blk_mq_hw_ctx *hctx)
{
	struct virtio_blk *vblk = hctx->queue->queuedata;
	struct virtio_blk_vq *bvq = &vblk->vqs[hctx->queue_num];
	unsigned long flags;
	bool notify;

	spin_lock_irqsave(&bvq->lock, flags);
	notify = virtqueue_kick_prepare(bvq->vq);
	spin_unlock_irqrestore(&bvq->lock, flags);
	if (notify)
		virtqueue_notify(bvq->vq);
}

/* The queue's interrupt: hand every finished request to the block core. */
static void virtblk_done(struct virtqueue *vq)
{
	struct virtio_blk *vblk = vq->vdev->priv;
	struct virtio_blk_vq *bvq = &vblk->vqs[vq->index];
	struct virtblk_req *vbr;
	unsigned long flags;
	unsigned int len;

	spin_lock_irqsave(&bvq->lock, flags);
	do {
		virtqueue_disable_cb(vq);
		while ((vbr = virtqueue_get_buf(vq, &len)))
			blk_mq_complete_request(blk_mq_rq_from_pdu(vbr));
		if (virtqueue_is_broken(vq))
			break;
	} while (!virtqueue_enable_cb(vq));
	spin_unlock_irqrestore(&bvq->lock, flags);
}

static void virtblk_complete(struct request *rq)
{
	struct virtblk_req *vbr = blk_mq_rq_to_pdu(rq);

	blk_mq_end_request(rq, virtblk_result(vbr->status));
}

static const struct blk_mq_ops virtio_mq_ops = {
	.queue_rq = virtio_queue_rq,
	.commit_rqs = virtio_commit_rqs,
	.complete = virtblk_complete,
};

static int init_vqs(struct virtio_blk *vblk, unsigned int want)
{
	struct virtqueue *vqs[16];
	vq_callback_t *callbacks[16];
	const char *names[16];
	int err;

	want = MIN(want, 16u);
	vblk->vqs = kcalloc(want, sizeof(*vblk->vqs), GFP_KERNEL);
	if (!vblk->vqs)
		return -ENOMEM;
	for (unsigned int i = 0; i < want; i++) {
		spin_lock_init(&vblk->vqs[i].lock);
		snprintf(vblk->vqs[i].name, sizeof(vblk->vqs[i].name), "req.%u", i);
		callbacks[i] = virtblk_done;
		names[i] = vblk->vqs[i].name;
	}
	err = virtio_find_vqs(vblk->vdev, want, vqs, callbacks, names);
	if (err) {
		kfree(vblk->vqs);
		return err;
	}
	for (unsigned int i = 0; i < want; i++)
		vblk->vqs[i].vq = vqs[i];
	vblk->num_vqs = want;
	return 0;
}

#define cread(vdev, member, ptr) virtio_cread_le(vdev, struct virtio_blk_config, member, ptr)

static int virtblk_probe(struct virtio_device *vdev)
{
	struct queue_limits lim = { 0 };
	struct virtio_blk *vblk;
	unsigned int nvqs = 1, ring;
	u16 num_queues = 1;
	u64 capacity;
	u32 v;
	int err;

	vblk = kzalloc(sizeof(*vblk), GFP_KERNEL);
	if (!vblk)
		return -ENOMEM;
	vblk->vdev = vdev;
	vdev->priv = vblk;
	if (virtio_has_feature(vdev, VIRTIO_BLK_F_MQ))
		cread(vdev, num_queues, &num_queues);
	nvqs = MAX(1u, MIN((unsigned int)num_queues, num_online_cpus()));
	err = init_vqs(vblk, nvqs);
	if (err)
		goto out_free;
	ring = virtqueue_get_vring_size(vblk->vqs[0].vq);

	cread(vdev, capacity, &capacity);
	/* A bounce pool that cannot grow must hold a whole request (a restricted pool). */
	if (dma_max_request_size(vdev->dma_dev) < (size_t)1 << 20) /* the block default */
		lim.max_hw_sectors = MAX(8u, (unsigned int)(dma_max_request_size(vdev->dma_dev) >> 9));
	lim.max_segments = MIN((unsigned int)VIRTBLK_MAX_SEGS, ring - 2);
	if (virtio_has_feature(vdev, VIRTIO_BLK_F_SEG_MAX)) {
		cread(vdev, seg_max, &v);
		if (v)
			lim.max_segments = MIN(lim.max_segments, v);
	}
	if (virtio_has_feature(vdev, VIRTIO_BLK_F_SIZE_MAX)) {
		cread(vdev, size_max, &v);
		if (v)
			lim.max_segment_size = MIN(v, 65536u);
	}
	if (virtio_has_feature(vdev, VIRTIO_BLK_F_BLK_SIZE)) {
		cread(vdev, blk_size, &v);
		lim.logical_block_size = v;
	}
	if (virtio_has_feature(vdev, VIRTIO_BLK_F_TOPOLOGY)) {
		u8 exp;

		cread(vdev, physical_block_exp, &exp);
		if (exp < 8)
			lim.physical_block_size = (lim.logical_block_size ?: 512) << exp;
	}
	if (virtio_has_feature(vdev, VIRTIO_BLK_F_FLUSH))
		lim.features |= BLK_FEAT_WRITE_CACHE;
	if (virtio_has_feature(vdev, VIRTIO_BLK_F_DISCARD)) {
		cread(vdev, max_discard_sectors, &v);
		lim.max_discard_sectors = v ?: U32_MAX >> 9;
	}
	if (virtio_has_feature(vdev, VIRTIO_BLK_F_WRITE_ZEROES)) {
		cread(vdev, max_write_zeroes_sectors, &v);
		lim.max_write_zeroes_sectors = v ?: U32_MAX >> 9;
	}

	vblk->tag_set.ops = &virtio_mq_ops;
	vblk->tag_set.nr_hw_queues = vblk->num_vqs;
	/* More tags than descriptors: the surplus waits in the core. */
	vblk->tag_set.queue_depth = MIN(ring, (unsigned int)BLK_MQ_MAX_DEPTH);
	vblk->tag_set.cmd_size = sizeof(struct virtblk_req);
	vblk->tag_set.driver_data = vblk;
	err = blk_mq_alloc_tag_set(&vblk->tag_set);
	if (err)
		goto out_vqs;
	vblk->disk = blk_mq_alloc_disk(&vblk->tag_set, &lim, vblk);
	if (IS_ERR(vblk->disk)) {
		err = PTR_ERR(vblk->disk);
		goto out_tags;
	}
	vblk->index = virtblk_next_index++;
	snprintf(vblk->disk->disk_name, DISK_NAME_LEN, "vd%c", 'a' + vblk->index % 26);
	/* Linux's numbers: a dynamic major, 16 minors a disk (15 partitions) */
	if (!virtblk_major)
		virtblk_major = register_blkdev(0, "virtblk");
	if (virtblk_major < 0) {
		err = virtblk_major;
		virtblk_major = 0;
		goto out_disk;
	}
	vblk->disk->major = (unsigned int)virtblk_major;
	vblk->disk->first_minor = (unsigned int)vblk->index << 4;
	vblk->disk->minors = 1 << 4;
	set_capacity(vblk->disk, capacity);
	virtio_device_ready(vdev);
	err = add_disk(vblk->disk);
	if (err)
		goto out_disk;
	pr_info("virtio_blk %s: %s, %llu sectors (%llu MiB), %u queue(s) of %u, "
		"features%s%s%s\n", vdev->name, vblk->disk->disk_name,
		(unsigned long long)capacity, (unsigned long long)(capacity >> 11),
		vblk->num_vqs, ring,
		virtio_has_feature(vdev, VIRTIO_BLK_F_FLUSH) ? " flush" : "",
		virtio_has_feature(vdev, VIRTIO_BLK_F_DISCARD) ? " discard" : "",
		virtio_has_feature(vdev, VIRTIO_BLK_F_WRITE_ZEROES) ? " write-zeroes" : "");
	return 0;

out_disk:
	put_disk(vblk->disk);
out_tags:
	blk_mq_free_tag_set(&vblk->tag_set);
out_vqs:
	vdev->config->reset(vdev);
	vdev->config->del_vqs(vdev);
	kfree(vblk->vqs);
out_free:
	kfree(vblk);
	return err;
}

static const unsigned int virtblk_features[] = {
	VIRTIO_BLK_F_SIZE_MAX, VIRTIO_BLK_F_SEG_MAX, VIRTIO_BLK_F_BLK_SIZE,
	VIRTIO_BLK_F_FLUSH, VIRTIO_BLK_F_TOPOLOGY, VIRTIO_BLK_F_MQ,
	VIRTIO_BLK_F_DISCARD, VIRTIO_BLK_F_WRITE_ZEROES,
};

static const struct virtio_device_id virtblk_ids[] = {
	{ VIRTIO_ID_BLOCK },
	{}
};

static struct virtio_driver virtio_blk_driver = {
	.name = "virtio_blk",
	.id_table = virtblk_ids,
	.feature_table = virtblk_features,
	.feature_table_size = ARRAY_SIZE(virtblk_features),
	.probe = virtblk_probe,
};

void virtio_blk_init(void)
{
	register_virtio_driver(&virtio_blk_driver);
}
