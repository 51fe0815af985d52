/* SPDX-License-Identifier: MIT */
/*
 * The split virtqueue's memory layout (virtio 1.x, section 2.7): three
 * areas the driver allocates and the device reads and writes, all
 * little-endian. The driver owns the descriptor table and the available
 * ring; the device owns the used ring.
 */
#ifndef PAGODA_VIRTIO_RING_H
#define PAGODA_VIRTIO_RING_H

#include <pagoda/types.h>

#define VRING_DESC_F_NEXT 1	/* the chain continues at `next` */
#define VRING_DESC_F_WRITE 2	/* the device writes this buffer */
#define VRING_DESC_F_INDIRECT 4

#define VRING_AVAIL_F_NO_INTERRUPT 1	/* driver: do not interrupt me */
#define VRING_USED_F_NO_NOTIFY 1	/* device: do not kick me */

struct vring_desc {
	u64 addr;
	u32 len;
	u16 flags;
	u16 next;
};

struct vring_avail {
	u16 flags;
	u16 idx;	/* where the driver puts the next entry (free-running) */
	u16 ring[];
};

struct vring_used_elem {
	u32 id;		/* head of the completed chain */
	u32 len;	/* bytes the device wrote into it */
};

struct vring_used {
	u16 flags;
	u16 idx;
	struct vring_used_elem ring[];
};

struct vring {
	unsigned int num;	/* a power of two, at most 32768 */
	struct vring_desc *desc;
	struct vring_avail *avail;
	struct vring_used *used;
};

/* Bytes of the three areas laid out one after the other, used 4-aligned. */
static inline size_t vring_size(unsigned int num)
{
	size_t s = 16 * num + 4 + 2 * num + 2; /* desc, avail (+used_event) */

	s = ALIGN_UP(s, 4);
	return s + 4 + 8 * num + 2;	/* used (+avail_event) */
}

static inline void vring_init(struct vring *vr, unsigned int num, void *p)
{
	vr->num = num;
	vr->desc = p;
	vr->avail = (struct vring_avail *)((u8 *)p + 16 * num);
	vr->used = (struct vring_used *)((u8 *)p +
					 ALIGN_UP(16 * num + 4 + 2 * num + 2, 4));
}

#endif
