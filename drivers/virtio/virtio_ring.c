// SPDX-License-Identifier: MIT
/*
 * Split virtqueues (virtio 1.x, 2.7). The driver keeps a free list of
 * descriptors threaded through their `next` fields; a request takes one
 * descriptor per scatterlist entry, chained, and its head index goes into
 * the available ring. The device returns heads through the used ring, in
 * any order; the chain is then walked to unmap its buffers and put back on
 * the free list. Indices into both rings run freely mod 2^16, so "how many
 * new" is a 16-bit subtraction.
 *
 * Nothing here locks: a queue belongs to one caller at a time (the block
 * driver holds its per-queue lock around add/kick and get_buf), as in
 * Linux. Both supported architectures are little-endian, like virtio 1.x,
 * so ring fields are stored as they are.
 *
 * The device is not trusted: a used entry naming a descriptor that is not
 * the head of an outstanding chain, or an index that runs ahead of what was
 * made available, marks the queue broken (every later call fails) instead
 * of corrupting the free list.
 */
#include <pagoda/arch.h>
#include <pagoda/dma-mapping.h>
#include <pagoda/printk.h>
#include <pagoda/slab.h>
#include <pagoda/virtio.h>
#include <pagoda/virtio_ring.h>

struct vring_desc_state {
	void *data;		/* NULL: this descriptor heads no request */
	u16 ndescs;
};

/* What the device must not be trusted to keep: how each buffer was mapped. */
struct vring_desc_extra {
	dma_addr_t addr;
	u32 len;
	u16 flags;
	u16 next;
};

struct vring_virtqueue {
	struct virtqueue vq;
	struct vring vring;
	struct device *dma_dev;
	void *ring_cpu;
	dma_addr_t ring_dma;
	size_t ring_bytes;
	bool broken;
	u16 free_head;
	u16 num_added;		/* made available since the last kick */
	u16 last_used_idx;	/* next used entry to look at */
	u16 avail_idx_shadow;	/* our copy of avail->idx */
	u16 avail_flags_shadow;
	bool (*notify)(struct virtqueue *vq);
	struct vring_desc_state *desc_state;
	struct vring_desc_extra *desc_extra;
};

#define to_vvq(_vq) container_of(_vq, struct vring_virtqueue, vq)

static void mark_broken(struct vring_virtqueue *vq, const char *why)
{
	if (!vq->broken)
		pr_err("virtio %s: queue %s broken: %s\n", vq->vq.vdev->name, vq->vq.name, why);
	vq->broken = true;
}

bool virtqueue_is_broken(struct virtqueue *_vq)
{
	return to_vvq(_vq)->broken;
}

unsigned int virtqueue_get_vring_size(const struct virtqueue *_vq)
{
	return container_of(_vq, struct vring_virtqueue, vq)->vring.num;
}

static void unmap_chain(struct vring_virtqueue *vq, u16 head)
{
	u16 i = head;

	for (unsigned int n = vq->desc_state[head].ndescs; n--; ) {
		struct vring_desc_extra *x = &vq->desc_extra[i];

		dma_unmap_page(vq->dma_dev, x->addr, x->len,
			       x->flags & VRING_DESC_F_WRITE ? DMA_FROM_DEVICE : DMA_TO_DEVICE);
		i = x->next;
	}
}

int virtqueue_add_sgs(struct virtqueue *_vq, struct scatterlist *sgs[],
		      unsigned int out_sgs, unsigned int in_sgs, void *data, gfp_t gfp)
{
	struct vring_virtqueue *vq = to_vvq(_vq);
	unsigned int total = 0, mapped = 0, n;
	struct scatterlist *sg;
	u16 head, i, prev = 0;

	(void)gfp;
	if (vq->broken)
		return -EIO;
	if (!data)
		return -EINVAL;
	for (n = 0; n < out_sgs + in_sgs; n++)
		for (sg = sgs[n]; sg; sg = sg_next(sg))
			total++;
	if (!total || total > vq->vring.num)
		return -EINVAL;
	if (total > vq->vq.num_free)
		return -ENOSPC;

	head = i = vq->free_head;
	for (n = 0; n < out_sgs + in_sgs; n++) {
		bool write = n >= out_sgs;

		for (sg = sgs[n]; sg; sg = sg_next(sg)) {
			struct vring_desc_extra *x = &vq->desc_extra[i];
			dma_addr_t addr = dma_map_page(vq->dma_dev, sg->page, sg->offset,
						       sg->length,
						       write ? DMA_FROM_DEVICE : DMA_TO_DEVICE);

			if (dma_mapping_error(vq->dma_dev, addr))
				goto unmap;
			x->addr = addr;
			x->len = sg->length;
			x->flags = (write ? VRING_DESC_F_WRITE : 0) | VRING_DESC_F_NEXT;
			vq->vring.desc[i].addr = addr;
			vq->vring.desc[i].len = sg->length;
			vq->vring.desc[i].flags = x->flags;
			vq->vring.desc[i].next = x->next;
			mapped++;
			prev = i;
			i = x->next;
		}
	}
	/* The last descriptor ends the chain. */
	vq->desc_extra[prev].flags &= ~VRING_DESC_F_NEXT;
	vq->vring.desc[prev].flags = vq->desc_extra[prev].flags;
	vq->free_head = i;
	vq->vq.num_free -= total;
	vq->desc_state[head].data = data;
	vq->desc_state[head].ndescs = (u16)total;

	vq->vring.avail->ring[vq->avail_idx_shadow & (vq->vring.num - 1)] = head;
	/* The device must see the chain and the ring entry before the index. */
	dma_wmb();
	vq->avail_idx_shadow++;
	WRITE_ONCE(vq->vring.avail->idx, vq->avail_idx_shadow);
	vq->num_added++;
	return 0;

unmap:
	/* Undo what was mapped; the descriptors were never published. */
	for (i = head; mapped--; i = vq->desc_extra[i].next)
		dma_unmap_page(vq->dma_dev, vq->desc_extra[i].addr, vq->desc_extra[i].len,
			       vq->desc_extra[i].flags & VRING_DESC_F_WRITE ? DMA_FROM_DEVICE :
									     DMA_TO_DEVICE);
	return -ENOMEM;
}

bool virtqueue_kick_prepare(struct virtqueue *_vq)
{
	struct vring_virtqueue *vq = to_vvq(_vq);
	bool needs;

	/* Publish avail->idx before reading whether the device wants a kick. */
	mb();
	needs = vq->num_added && !(READ_ONCE(vq->vring.used->flags) & VRING_USED_F_NO_NOTIFY);
	vq->num_added = 0;
	return needs;
}

bool virtqueue_notify(struct virtqueue *_vq)
{
	struct vring_virtqueue *vq = to_vvq(_vq);

	if (vq->broken)
		return false;
	if (!vq->notify(_vq)) {
		mark_broken(vq, "notify failed");
		return false;
	}
	return true;
}

bool virtqueue_kick(struct virtqueue *vq)
{
	if (virtqueue_kick_prepare(vq))
		return virtqueue_notify(vq);
	return true;
}

static bool more_used(const struct vring_virtqueue *vq)
{
	return READ_ONCE(vq->vring.used->idx) != vq->last_used_idx;
}

void *virtqueue_get_buf(struct virtqueue *_vq, unsigned int *len)
{
	struct vring_virtqueue *vq = to_vvq(_vq);
	struct vring_used_elem *e;
	u16 used_idx, outstanding;
	u32 id;
	void *data;

	if (vq->broken || !more_used(vq))
		return NULL;
	used_idx = READ_ONCE(vq->vring.used->idx);
	outstanding = (u16)(vq->avail_idx_shadow - vq->last_used_idx);
	if ((u16)(used_idx - vq->last_used_idx) > outstanding) {
		mark_broken(vq, "used index ran ahead of the available ring");
		return NULL;
	}
	/* Read the entry only after seeing the index that covers it. */
	dma_rmb();
	e = &vq->vring.used->ring[vq->last_used_idx & (vq->vring.num - 1)];
	id = READ_ONCE(e->id);
	if (id >= vq->vring.num || !vq->desc_state[id].data) {
		mark_broken(vq, "used entry names no outstanding request");
		return NULL;
	}
	if (len)
		*len = READ_ONCE(e->len);
	data = vq->desc_state[id].data;
	unmap_chain(vq, (u16)id);
	/* The chain's tail rejoins the free list in front of its head. */
	{
		u16 tail = (u16)id;

		for (unsigned int n = vq->desc_state[id].ndescs; --n; )
			tail = vq->desc_extra[tail].next;
		vq->desc_extra[tail].next = vq->free_head;
		vq->free_head = (u16)id;
	}
	vq->vq.num_free += vq->desc_state[id].ndescs;
	vq->desc_state[id].data = NULL;
	vq->desc_state[id].ndescs = 0;
	vq->last_used_idx++;
	return data;
}

void virtqueue_disable_cb(struct virtqueue *_vq)
{
	struct vring_virtqueue *vq = to_vvq(_vq);

	vq->avail_flags_shadow |= VRING_AVAIL_F_NO_INTERRUPT;
	WRITE_ONCE(vq->vring.avail->flags, vq->avail_flags_shadow);
}

bool virtqueue_enable_cb(struct virtqueue *_vq)
{
	struct vring_virtqueue *vq = to_vvq(_vq);

	vq->avail_flags_shadow &= ~VRING_AVAIL_F_NO_INTERRUPT;
	WRITE_ONCE(vq->vring.avail->flags, vq->avail_flags_shadow);
	/* The flag must be visible before we look for completions we missed. */
	mb();
	return !more_used(vq);
}

void vring_interrupt(struct virtqueue *_vq)
{
	struct vring_virtqueue *vq = to_vvq(_vq);

	if (vq->broken || !more_used(vq))
		return; /* shared line or spurious */
	if (vq->vq.callback)
		vq->vq.callback(_vq);
}

struct virtqueue *vring_create_virtqueue(unsigned int index, unsigned int num,
					 struct virtio_device *vdev,
					 struct device *dma_dev,
					 bool (*notify)(struct virtqueue *),
					 vq_callback_t *callback, const char *name)
{
	struct vring_virtqueue *vq;

	if (!num || (num & (num - 1)) || num > 32768)
		return NULL;
	vq = kzalloc(sizeof(*vq), GFP_KERNEL);
	if (!vq)
		return NULL;
	vq->desc_state = kcalloc(num, sizeof(*vq->desc_state), GFP_KERNEL);
	vq->desc_extra = kcalloc(num, sizeof(*vq->desc_extra), GFP_KERNEL);
	vq->ring_bytes = vring_size(num);
	vq->ring_cpu = vq->desc_state && vq->desc_extra ?
			       dma_alloc_coherent(dma_dev, vq->ring_bytes, &vq->ring_dma,
						  GFP_KERNEL) : NULL;
	if (!vq->ring_cpu) {
		kfree(vq->desc_state);
		kfree(vq->desc_extra);
		kfree(vq);
		return NULL;
	}
	vring_init(&vq->vring, num, vq->ring_cpu);
	for (unsigned int i = 0; i < num - 1; i++)
		vq->desc_extra[i].next = (u16)(i + 1);
	vq->vq.callback = callback;
	vq->vq.name = name;
	vq->vq.vdev = vdev;
	vq->vq.index = index;
	vq->vq.num_free = num;
	vq->vq.num_max = num;
	vq->dma_dev = dma_dev;
	vq->notify = notify;
	list_add_tail(&vq->vq.list, &vdev->vqs);
	return &vq->vq;
}

void vring_del_virtqueue(struct virtqueue *_vq)
{
	struct vring_virtqueue *vq = to_vvq(_vq);

	list_del(&_vq->list);
	dma_free_coherent(vq->dma_dev, vq->ring_bytes, vq->ring_cpu, vq->ring_dma);
	kfree(vq->desc_state);
	kfree(vq->desc_extra);
	kfree(vq);
}

bool virtqueue_idle(const struct virtqueue *vq)
{
	return READ_ONCE(vq->num_free) == vq->num_max;
}

void virtqueue_reset_indices(struct virtqueue *_vq)
{
	struct vring_virtqueue *vq = to_vvq(_vq);

	/*
	 * A reset device starts reading the available ring at index 0 and
	 * writing the used ring at 0: the ring's own indices must agree. The
	 * descriptors' free list stays as it is: nothing is in flight.
	 */
	vq->last_used_idx = 0;
	vq->avail_idx_shadow = 0;
	vq->num_added = 0;
	WRITE_ONCE(vq->vring.avail->idx, 0);
	WRITE_ONCE(vq->vring.used->idx, 0);
	WRITE_ONCE(vq->vring.used->flags, 0);
	WRITE_ONCE(vq->vring.avail->flags, vq->avail_flags_shadow);
	wmb();
}

dma_addr_t virtqueue_get_desc_addr(const struct virtqueue *_vq)
{
	const struct vring_virtqueue *vq = container_of(_vq, struct vring_virtqueue, vq);

	return vq->ring_dma;
}

dma_addr_t virtqueue_get_avail_addr(const struct virtqueue *_vq)
{
	const struct vring_virtqueue *vq = container_of(_vq, struct vring_virtqueue, vq);

	return vq->ring_dma + ((u8 *)vq->vring.avail - (u8 *)vq->ring_cpu);
}

dma_addr_t virtqueue_get_used_addr(const struct virtqueue *_vq)
{
	const struct vring_virtqueue *vq = container_of(_vq, struct vring_virtqueue, vq);

	return vq->ring_dma + ((u8 *)vq->vring.used - (u8 *)vq->ring_cpu);
}
