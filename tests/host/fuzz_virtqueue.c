// SPDX-License-Identifier: MIT
/*
 * libFuzzer on the split virtqueue (drivers/virtio/virtio_ring.c) with the
 * device as the adversary. The input is a program: the driver adds
 * requests of 1-20 segments and collects completions; the device either
 * behaves (takes what is available and completes it) or lies (writes used
 * entries with any id and length, moves the used index by any amount,
 * scribbles over the descriptor table it is only meant to read).
 *
 * Whatever the device does, the driver must stay memory-safe (ASan), hand
 * back only requests that are outstanding and each at most once, keep its
 * free-descriptor count and its DMA mappings in step with what is
 * outstanding, keep its free list and its outstanding chains disjoint and
 * together covering the ring, and once it calls the queue broken, stay
 * broken. The ring's source is included here, not linked, so that the
 * fuzzer can walk the driver's private free list. When the
 * device never lied, draining it at the end must return every request and
 * undo every mapping. `make fuzz-virtqueue` runs it FUZZ_SECONDS.
 */
#include "../../drivers/virtio/virtio_ring.c"
#include <pagoda/string.h>
#include "host_dma.h"

#include "fuzz.h"

#define NUM 16
#define NREQ 24
#define MAX_SEGS 20

struct req {
	bool busy;
	unsigned int nseg;
	u8 buf[MAX_SEGS][8];
	struct scatterlist sg[MAX_SEGS];
};

static struct virtio_device vdev;
static struct device dma;
static struct virtqueue *vq;
static struct vring vr;
static struct req reqs[NREQ];
static u16 dev_avail, dev_used;		/* the honest device's positions */
static u16 pending[4 * NUM];
static unsigned int npending;

static bool notify(struct virtqueue *q)
{
	return true;
}

/* Bytes of the program; running out reads zeroes. */
struct prog {
	const u8 *p;
	size_t n;
};

static u8 next(struct prog *g)
{
	if (!g->n)
		return 0;
	g->n--;
	return *g->p++;
}

static void check(bool ok)
{
	if (!ok)
		abort();
}

static unsigned int outstanding_descs(void)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < NREQ; i++)
		if (reqs[i].busy)
			n += reqs[i].nseg;
	return n;
}

/*
 * The driver's own view, which the device cannot touch: the free list and
 * every outstanding chain (through desc_extra) must be disjoint and, while
 * the queue is not broken, cover all NUM descriptors.
 */
static void check_descriptors(void)
{
	struct vring_virtqueue *v = to_vvq(vq);
	u8 owner[NUM] = { 0 };
	unsigned int seen = 0;
	u16 i = v->free_head;

	for (unsigned int n = 0; n < vq->num_free; n++, i = v->desc_extra[i].next) {
		check(i < NUM && !owner[i]);
		owner[i] = 1;
		seen++;
	}
	for (unsigned int h = 0; h < NUM; h++) {
		if (!v->desc_state[h].data)
			continue;
		i = (u16)h;
		for (unsigned int n = v->desc_state[h].ndescs; n--; i = v->desc_extra[i].next) {
			check(i < NUM && !owner[i]);
			owner[i] = 2;
			seen++;
		}
	}
	check(seen == NUM);
}

static void add(struct prog *g)
{
	struct scatterlist *sgs[MAX_SEGS];
	unsigned int k = next(g) % NREQ, nseg = 1 + next(g) % MAX_SEGS;
	unsigned int out = next(g) % (nseg + 1);
	struct req *q = &reqs[k];
	bool was_broken = virtqueue_is_broken(vq);
	int err;

	if (q->busy)
		return;
	for (unsigned int i = 0; i < nseg; i++) {
		sg_init_table(&q->sg[i], 1);
		sg_set_page(&q->sg[i], (struct page *)(void *)q->buf[i], 1 + next(g) % 8, 0);
		sgs[i] = &q->sg[i];
	}
	/* Now and then the mapping fails part-way: it must be undone. */
	host_dma_fail_after = (next(g) & 7) == 0 ? (long)(next(g) % nseg) : -1;
	err = virtqueue_add_sgs(vq, sgs, out, nseg - out, q, 0);
	host_dma_fail_after = -1;
	if (was_broken)
		check(err == -EIO);
	if (nseg > NUM)
		check(err != 0);
	if (!err) {
		q->busy = true;
		q->nseg = nseg;
	}
}

/* The honest device: take every new head, complete one of them. */
static void device_honest(struct prog *g)
{
	while (dev_avail != READ_ONCE(vr.avail->idx) && npending < 4 * NUM)
		pending[npending++] = vr.avail->ring[dev_avail++ & (NUM - 1)];
	if (npending) {
		unsigned int j = next(g) % npending;
		struct vring_used_elem *e = &vr.used->ring[dev_used & (NUM - 1)];

		e->id = pending[j];
		e->len = 0;
		pending[j] = pending[--npending];
		WRITE_ONCE(vr.used->idx, ++dev_used);
	}
}

static void device_lie(struct prog *g)
{
	switch (next(g) % 3) {
	case 0: {	/* a used entry with any id and length */
		struct vring_used_elem *e = &vr.used->ring[next(g) % NUM];

		e->id = next(g) | (u32)next(g) << 8;
		e->len = next(g) | (u32)next(g) << 24;
		break;
	}
	case 1:		/* the used index moves by anything */
		dev_used += next(g) % 5;
		WRITE_ONCE(vr.used->idx, dev_used);
		break;
	default: {	/* the descriptor table is rewritten */
		struct vring_desc *d = &vr.desc[next(g) % NUM];

		d->addr = 0xdead0000u | next(g);
		d->len = next(g);
		d->flags = next(g) & 7;
		d->next = next(g);
		break;
	}
	}
}

static bool collect(void)
{
	unsigned int len;
	struct req *q = virtqueue_get_buf(vq, &len);

	if (!q)
		return false;
	check(q >= reqs && q < reqs + NREQ && q->busy);
	q->busy = false;
	return true;
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct prog g = { data, size };
	bool lied = false;

	memset(reqs, 0, sizeof(reqs));
	memset(&vdev, 0, sizeof(vdev));
	INIT_LIST_HEAD(&vdev.vqs);
	strlcpy(vdev.name, "fuzz", sizeof(vdev.name));
	host_dma_maps = host_dma_unmaps = 0;
	dev_avail = dev_used = 0;
	npending = 0;
	vq = vring_create_virtqueue(0, NUM, &vdev, &dma, notify, NULL, "q");
	check(vq != NULL);
	vr.num = NUM;
	vr.desc = (void *)(uintptr_t)virtqueue_get_desc_addr(vq);
	vr.avail = (void *)(uintptr_t)virtqueue_get_avail_addr(vq);
	vr.used = (void *)(uintptr_t)virtqueue_get_used_addr(vq);

	while (g.n) {
		bool was_broken = virtqueue_is_broken(vq);

		switch (next(&g) % 6) {
		case 0:
		case 1:
			add(&g);
			break;
		case 2:
			device_honest(&g);
			break;
		case 3:
			device_lie(&g);
			lied = true;
			break;
		case 4:
			if (collect())
				check(!was_broken);
			break;
		default:
			if (next(&g) & 1)
				virtqueue_disable_cb(vq);
			else
				virtqueue_enable_cb(vq);
			virtqueue_kick(vq);
			break;
		}
		check(!was_broken || virtqueue_is_broken(vq));
		check(vq->num_free <= NUM);
		check(host_dma_maps - host_dma_unmaps == (long)outstanding_descs());
		if (!virtqueue_is_broken(vq)) {
			check(vq->num_free + outstanding_descs() == NUM);
			check_descriptors();
		}
	}

	if (!lied) {
		/* An honest device finishes everything; all of it comes back. */
		for (unsigned int spin = 0; spin < 8 * NUM; spin++) {
			device_honest(&g);
			while (collect())
				;
		}
		check(!virtqueue_is_broken(vq));
		check(outstanding_descs() == 0 && vq->num_free == NUM);
		check(host_dma_maps == host_dma_unmaps);
	}
	vring_del_virtqueue(vq);
	return 0;
}
