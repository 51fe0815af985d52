// SPDX-License-Identifier: MIT
/*
 * The split virtqueue against a simulated device, on the host under ASan:
 * random requests of 1-6 segments (out then in) are added until the ring is
 * full, a device model takes what is available, checks each chain (in
 * range, no loop, device-readable before device-writable, lengths as
 * queued), writes a pattern into the writable buffers and completes the
 * requests in a random order; the driver side checks every completion's
 * token, length and data, and that free descriptors are accounted exactly.
 * A device that lies (a used id that heads nothing, a used index running
 * ahead) must break the queue, not the free list.
 */
#include <pagoda/ktest.h>
#include <pagoda/string.h>
#include <pagoda/virtio.h>
#include <pagoda/virtio_ring.h>
#include "host_dma.h"

#define NUM 16
#define MAX_SEGS 6
#define SEG_BYTES 64

struct req {
	bool busy;
	unsigned int out, in;		/* segment counts */
	unsigned int len[MAX_SEGS];
	u8 buf[MAX_SEGS][SEG_BYTES];
	struct scatterlist sg[MAX_SEGS];
};

struct sim {
	struct virtio_device vdev;
	struct device dma;
	struct virtqueue *vq;
	struct vring vr;
	u16 seen_avail;			/* device's next avail entry */
	u16 used_idx;
	u32 pending[NUM][2];		/* (head, bytes written) not yet used */
	unsigned int npending;
	unsigned int kicks;
	u64 rng;
	struct req reqs[64];
	int errors;
};

static u64 rnd(struct sim *s)
{
	s->rng ^= s->rng << 13;
	s->rng ^= s->rng >> 7;
	s->rng ^= s->rng << 17;
	return s->rng;
}

static bool sim_notify(struct virtqueue *vq)
{
	struct sim *s = container_of(vq->vdev, struct sim, vdev);

	s->kicks++;
	return true;
}

static u8 pattern(unsigned int req, unsigned int seg, unsigned int i)
{
	return (u8)(req * 31 + seg * 7 + i);
}

/* The device: take every new chain, check it, fill its writable part. */
static void device_take(struct ktest *t, struct sim *s)
{
	while (s->seen_avail != READ_ONCE(s->vr.avail->idx)) {
		u16 head = s->vr.avail->ring[s->seen_avail++ & (NUM - 1)];
		u16 i = head;
		unsigned int n = 0, written = 0;
		bool in_part = false;

		KASSERT_TRUE(t, head < NUM);
		for (;;) {
			struct vring_desc *d = &s->vr.desc[i];
			u8 *p = (u8 *)(uintptr_t)d->addr;

			KASSERT_TRUE(t, ++n <= NUM); /* a loop */
			if (d->flags & VRING_DESC_F_WRITE) {
				in_part = true;
				for (unsigned int b = 0; b < d->len; b++)
					p[b] ^= 0x5a;
				written += d->len;
			} else {
				KEXPECT_FALSE(t, in_part); /* readable after writable */
			}
			if (!(d->flags & VRING_DESC_F_NEXT))
				break;
			KASSERT_TRUE(t, d->next < NUM);
			i = d->next;
		}
		s->pending[s->npending][0] = head;
		s->pending[s->npending][1] = written;
		s->npending++;
	}
}

/* Complete k pending chains in a random order. */
static void device_complete(struct sim *s, unsigned int k)
{
	while (k-- && s->npending) {
		unsigned int j = (unsigned int)(rnd(s) % s->npending);
		struct vring_used_elem *e = &s->vr.used->ring[s->used_idx & (NUM - 1)];

		e->id = s->pending[j][0];
		e->len = s->pending[j][1];
		s->pending[j][0] = s->pending[s->npending - 1][0];
		s->pending[j][1] = s->pending[s->npending - 1][1];
		s->npending--;
		__atomic_store_n(&s->vr.used->idx, ++s->used_idx, __ATOMIC_RELEASE);
	}
}

static int sim_init(struct sim *s, u64 seed)
{
	memset(s, 0, sizeof(*s));
	s->rng = seed;
	INIT_LIST_HEAD(&s->vdev.vqs);
	strlcpy(s->vdev.name, "sim", sizeof(s->vdev.name));
	s->vq = vring_create_virtqueue(0, NUM, &s->vdev, &s->dma, sim_notify, NULL, "q");
	if (!s->vq)
		return -1;
	s->vr.num = NUM;
	s->vr.desc = (void *)(uintptr_t)virtqueue_get_desc_addr(s->vq);
	s->vr.avail = (void *)(uintptr_t)virtqueue_get_avail_addr(s->vq);
	s->vr.used = (void *)(uintptr_t)virtqueue_get_used_addr(s->vq);
	return 0;
}

static int add_random(struct sim *s, unsigned int r)
{
	struct req *q = &s->reqs[r];
	struct scatterlist *sgs[MAX_SEGS];
	unsigned int nseg = 1 + (unsigned int)(rnd(s) % MAX_SEGS);

	q->out = (unsigned int)(rnd(s) % (nseg + 1));
	q->in = nseg - q->out;
	for (unsigned int i = 0; i < nseg; i++) {
		q->len[i] = 1 + (unsigned int)(rnd(s) % SEG_BYTES);
		for (unsigned int b = 0; b < SEG_BYTES; b++)
			q->buf[i][b] = pattern(r, i, b);
		sg_init_table(&q->sg[i], 1);
		sg_set_page(&q->sg[i], (struct page *)(void *)q->buf[i], q->len[i], 0);
		sgs[i] = &q->sg[i];
	}
	return virtqueue_add_sgs(s->vq, sgs, q->out, q->in, q, 0);
}

/* Check one completion against what was queued. */
static void check_done(struct ktest *t, struct sim *s, struct req *q, unsigned int len)
{
	unsigned int want = 0;

	KASSERT_TRUE(t, q >= s->reqs && q < s->reqs + 64 && q->busy);
	for (unsigned int i = q->out; i < q->out + q->in; i++) {
		want += q->len[i];
		for (unsigned int b = 0; b < SEG_BYTES; b++)
			if (q->buf[i][b] != (u8)(pattern((unsigned int)(q - s->reqs), i, b) ^
						 (b < q->len[i] ? 0x5a : 0))) {
				KEXPECT_TRUE(t, !"device data lost, or written past the buffer");
				return;
			}
	}
	for (unsigned int i = 0; i < q->out; i++)
		for (unsigned int b = 0; b < SEG_BYTES; b++)
			if (q->buf[i][b] != pattern((unsigned int)(q - s->reqs), i, b)) {
				KEXPECT_TRUE(t, !"device wrote a readable buffer");
				return;
			}
	KEXPECT_EQ(t, len, want);
	q->busy = false;
}

static void test_random_traffic(struct ktest *t)
{
	static struct sim s;
	unsigned int in_flight_descs = 0, done = 0;
	long maps0 = host_dma_maps, unmaps0 = host_dma_unmaps;

	KASSERT_EQ(t, sim_init(&s, 0x9e3779b97f4a7c15ULL), 0);
	for (unsigned int round = 0; round < 20000; round++) {
		unsigned int r = (unsigned int)(rnd(&s) % 64);
		unsigned int len;
		struct req *q;

		if (!s.reqs[r].busy) {
			int err = add_random(&s, r);

			if (!err) {
				s.reqs[r].busy = true;
				in_flight_descs += s.reqs[r].out + s.reqs[r].in;
			} else {
				/* Only a full ring may refuse. */
				KEXPECT_EQ(t, err, -ENOSPC);
				KEXPECT_LT(t, s.vq->num_free, s.reqs[r].out + s.reqs[r].in);
			}
		}
		if (rnd(&s) % 3 == 0)
			virtqueue_kick(s.vq);
		device_take(t, &s);
		device_complete(&s, (unsigned int)(rnd(&s) % 3));
		while ((q = virtqueue_get_buf(s.vq, &len))) {
			in_flight_descs -= q->out + q->in;
			check_done(t, &s, q, len);
			done++;
		}
		KASSERT_EQ(t, s.vq->num_free + in_flight_descs, NUM);
		if (t->failures)
			return;
	}
	KEXPECT_FALSE(t, virtqueue_is_broken(s.vq));
	KEXPECT_GT(t, done, 5000);
	KEXPECT_GT(t, s.kicks, 0);
	/* Drain: every mapping is undone once. */
	device_take(t, &s);
	device_complete(&s, NUM);
	{
		struct req *q;
		unsigned int len;

		while ((q = virtqueue_get_buf(s.vq, &len)))
			check_done(t, &s, q, len);
	}
	KEXPECT_EQ(t, s.vq->num_free, NUM);
	KEXPECT_EQ(t, host_dma_maps - maps0, host_dma_unmaps - unmaps0);
	vring_del_virtqueue(s.vq);
}

static void test_full_ring_then_room(struct ktest *t)
{
	static struct sim s;
	struct scatterlist sg[NUM + 1], *sgs[1];
	static u8 buf[NUM + 1][8];
	unsigned int len;

	KASSERT_EQ(t, sim_init(&s, 7), 0);
	for (unsigned int i = 0; i <= NUM; i++) {
		sg_init_table(&sg[i], 1);
		sg_set_page(&sg[i], (struct page *)(void *)buf[i], 8, 0);
	}
	for (unsigned int i = 0; i < NUM; i++) {
		sgs[0] = &sg[i];
		KASSERT_EQ(t, virtqueue_add_sgs(s.vq, sgs, 1, 0, buf[i], 0), 0);
	}
	sgs[0] = &sg[NUM];
	KEXPECT_EQ(t, virtqueue_add_sgs(s.vq, sgs, 1, 0, buf[NUM], 0), -ENOSPC);
	device_take(t, &s);
	device_complete(&s, 1);
	KEXPECT_TRUE(t, virtqueue_get_buf(s.vq, &len) != NULL);
	KEXPECT_EQ(t, virtqueue_add_sgs(s.vq, sgs, 1, 0, buf[NUM], 0), 0);
	/* A chain longer than the whole ring can never fit: not -ENOSPC. */
	sg_init_table(sg, NUM + 1);
	for (unsigned int i = 0; i <= NUM; i++)
		sg_set_page(&sg[i], (struct page *)(void *)buf[i], 8, 0);
	sgs[0] = sg;
	KEXPECT_EQ(t, virtqueue_add_sgs(s.vq, sgs, 1, 0, buf[0], 0), -EINVAL);
	vring_del_virtqueue(s.vq);
}

static void test_map_failure_unwinds(struct ktest *t)
{
	static struct sim s;
	static u8 buf[3][8];
	struct scatterlist sg[3], *sgs[1] = { sg };
	long maps0, unmaps0;

	KASSERT_EQ(t, sim_init(&s, 9), 0);
	sg_init_table(sg, 3);
	for (int i = 0; i < 3; i++)
		sg_set_page(&sg[i], (struct page *)(void *)buf[i], 8, 0);
	maps0 = host_dma_maps;
	unmaps0 = host_dma_unmaps;
	host_dma_fail_after = 2; /* the third mapping fails */
	KEXPECT_EQ(t, virtqueue_add_sgs(s.vq, sgs, 1, 0, buf, 0), -ENOMEM);
	host_dma_fail_after = -1;
	KEXPECT_EQ(t, host_dma_maps - maps0, 2);
	KEXPECT_EQ(t, host_dma_unmaps - unmaps0, 2);
	KEXPECT_EQ(t, s.vq->num_free, NUM);
	KEXPECT_EQ(t, s.vr.avail->idx, 0); /* nothing was published */
	KEXPECT_EQ(t, virtqueue_add_sgs(s.vq, sgs, 1, 0, buf, 0), 0);
	vring_del_virtqueue(s.vq);
}

static void test_lying_device_breaks_queue(struct ktest *t)
{
	static struct sim s;
	static u8 buf[8];
	struct scatterlist sg, *sgs[1] = { &sg };
	unsigned int len;

	KASSERT_EQ(t, sim_init(&s, 11), 0);
	sg_init_table(&sg, 1);
	sg_set_page(&sg, (struct page *)(void *)buf, 8, 0);
	KASSERT_EQ(t, virtqueue_add_sgs(s.vq, sgs, 0, 1, buf, 0), 0);
	/* A used entry naming descriptor 5, which heads nothing. */
	s.vr.used->ring[0].id = 5;
	s.vr.used->idx = 1;
	KEXPECT_TRUE(t, virtqueue_get_buf(s.vq, &len) == NULL);
	KEXPECT_TRUE(t, virtqueue_is_broken(s.vq));
	KEXPECT_EQ(t, virtqueue_add_sgs(s.vq, sgs, 0, 1, buf, 0), -EIO);
	vring_del_virtqueue(s.vq);

	KASSERT_EQ(t, sim_init(&s, 12), 0);
	KASSERT_EQ(t, virtqueue_add_sgs(s.vq, sgs, 0, 1, buf, 0), 0);
	/* Two completions for one request: the index ran ahead. */
	s.vr.used->ring[0].id = 0;
	s.vr.used->ring[1].id = 0;
	s.vr.used->idx = 2;
	KEXPECT_TRUE(t, virtqueue_get_buf(s.vq, &len) == NULL);
	KEXPECT_TRUE(t, virtqueue_is_broken(s.vq));
	vring_del_virtqueue(s.vq);
}

static void test_callbacks_suppression(struct ktest *t)
{
	static struct sim s;

	KASSERT_EQ(t, sim_init(&s, 13), 0);
	virtqueue_disable_cb(s.vq);
	KEXPECT_EQ(t, s.vr.avail->flags & VRING_AVAIL_F_NO_INTERRUPT, VRING_AVAIL_F_NO_INTERRUPT);
	KEXPECT_TRUE(t, virtqueue_enable_cb(s.vq));
	KEXPECT_EQ(t, s.vr.avail->flags & VRING_AVAIL_F_NO_INTERRUPT, 0);
	/* The device asked not to be kicked: kick_prepare says so. */
	{
		static u8 buf[8];
		struct scatterlist sg, *sgs[1] = { &sg };

		sg_init_table(&sg, 1);
		sg_set_page(&sg, (struct page *)(void *)buf, 8, 0);
		KASSERT_EQ(t, virtqueue_add_sgs(s.vq, sgs, 1, 0, buf, 0), 0);
		s.vr.used->flags = VRING_USED_F_NO_NOTIFY;
		KEXPECT_FALSE(t, virtqueue_kick_prepare(s.vq));
		s.vr.used->flags = 0;
		KASSERT_EQ(t, virtqueue_add_sgs(s.vq, sgs, 1, 0, buf + 1, 0), 0);
		KEXPECT_TRUE(t, virtqueue_kick_prepare(s.vq));
		/* Completions waiting: enable_cb tells the caller to poll again. */
		device_take(t, &s);
		device_complete(&s, 1);
		KEXPECT_FALSE(t, virtqueue_enable_cb(s.vq));
	}
	vring_del_virtqueue(s.vq);
}

static struct ktest_case virtio_ring_cases[] = {
	KTEST_CASE(test_random_traffic),
	KTEST_CASE(test_full_ring_then_room),
	KTEST_CASE(test_map_failure_unwinds),
	KTEST_CASE(test_lying_device_breaks_queue),
	KTEST_CASE(test_callbacks_suppression),
	{}
};
KTEST_SUITE(virtio_ring, virtio_ring_cases);
