/* SPDX-License-Identifier: MIT */
/*
 * Scatter-gather lists: one I/O made of several physically separate pieces
 * (a bio's segments), mapped for a device in one dma_map_sg() call. Here a
 * table is a plain array whose last entry carries SG_END, which is enough
 * for the block layer's per-request tables (Linux chains arrays too).
 */
#ifndef PAGODA_SCATTERLIST_H
#define PAGODA_SCATTERLIST_H

#include <pagoda/device.h>
#include <pagoda/mm.h>
#include <pagoda/string.h>

struct scatterlist {
	struct page *page;
	unsigned int offset;
	unsigned int length;
	dma_addr_t dma_address;	/* set by dma_map_sg() */
	unsigned int dma_length;
	unsigned int flags;
};

#define SG_END 1u

static inline void sg_init_table(struct scatterlist *sg, unsigned int nents)
{
	memset(sg, 0, sizeof(*sg) * nents);
	if (nents)
		sg[nents - 1].flags = SG_END;
}

static inline void sg_mark_end(struct scatterlist *sg)
{
	sg->flags |= SG_END;
}

static inline bool sg_is_last(const struct scatterlist *sg)
{
	return sg->flags & SG_END;
}

static inline struct scatterlist *sg_next(struct scatterlist *sg)
{
	return sg_is_last(sg) ? NULL : sg + 1;
}

static inline void sg_set_page(struct scatterlist *sg, struct page *page,
			       unsigned int len, unsigned int offset)
{
	sg->page = page;
	sg->offset = offset;
	sg->length = len;
}

/* A buffer in the direct map (kmalloc, page_address), not vmalloc. */
static inline void sg_set_buf(struct scatterlist *sg, const void *buf, unsigned int len)
{
	sg_set_page(sg, virt_to_page(buf), len, (unsigned long)buf & (PAGE_SIZE - 1));
}

static inline phys_addr_t sg_phys(const struct scatterlist *sg)
{
	return page_to_phys(sg->page) + sg->offset;
}

static inline void *sg_virt(const struct scatterlist *sg)
{
	return (u8 *)page_address(sg->page) + sg->offset;
}

#define sg_dma_address(sg) ((sg)->dma_address)
#define sg_dma_len(sg) ((sg)->dma_length)

#define for_each_sg(sglist, sg, nr, i) \
	for ((i) = 0, (sg) = (sglist); (i) < (nr); (i)++, (sg) = sg_next(sg))

#endif
