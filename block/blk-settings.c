// SPDX-License-Identifier: MIT
/*
 * Queue limits: the device's promises, checked once (Linux:
 * block/blk-settings.c). A driver sets what it knows; zero means "use the
 * default", and nonsense (a block size that is not a power of two, a
 * segment smaller than a block) is refused so that splitting can rely on it.
 */
#include <pagoda/blkdev.h>
#include <pagoda/printk.h>

#define BLK_DEF_MAX_SECTORS 2048  /* 1 MiB per request */
#define BLK_MAX_SEGMENTS 128
#define BLK_MAX_SEGMENT_SIZE 65536

static bool is_pow2(unsigned int x)
{
	return x && !(x & (x - 1));
}

int blk_validate_limits(struct queue_limits *lim)
{
	if (!lim->logical_block_size)
		lim->logical_block_size = SECTOR_SIZE;
	if (!is_pow2(lim->logical_block_size) || lim->logical_block_size < SECTOR_SIZE ||
	    lim->logical_block_size > PAGE_SIZE) {
		pr_err("block: logical block size %u is not a power of two in 512..%lu\n",
		       lim->logical_block_size, PAGE_SIZE);
		return -EINVAL;
	}
	if (lim->physical_block_size < lim->logical_block_size)
		lim->physical_block_size = lim->logical_block_size;
	if (!is_pow2(lim->physical_block_size)) {
		pr_err("block: physical block size %u is not a power of two\n",
		       lim->physical_block_size);
		return -EINVAL;
	}
	if (!lim->max_hw_sectors)
		lim->max_hw_sectors = BLK_DEF_MAX_SECTORS;
	if (lim->max_hw_sectors < lim->logical_block_size >> SECTOR_SHIFT) {
		pr_err("block: max_hw_sectors %u is below one block\n", lim->max_hw_sectors);
		return -EINVAL;
	}
	if (!lim->max_sectors || lim->max_sectors > lim->max_hw_sectors)
		lim->max_sectors = MIN(lim->max_hw_sectors, BLK_DEF_MAX_SECTORS);
	lim->max_sectors = ALIGN_DOWN(lim->max_sectors, lim->logical_block_size >> SECTOR_SHIFT);
	if (!lim->max_segments)
		lim->max_segments = BLK_MAX_SEGMENTS;
	if (!lim->max_segment_size)
		lim->max_segment_size = BLK_MAX_SEGMENT_SIZE;
	if (lim->max_segment_size < lim->logical_block_size) {
		pr_err("block: max_segment_size %u is below the block size %u\n",
		       lim->max_segment_size, lim->logical_block_size);
		return -EINVAL;
	}
	/* A segment limit counts whole blocks: a cut never falls mid-block. */
	lim->max_segment_size = ALIGN_DOWN(lim->max_segment_size, lim->logical_block_size);
	if (!lim->dma_alignment)
		lim->dma_alignment = SECTOR_SIZE - 1;
	if (!is_pow2(lim->dma_alignment + 1) || lim->dma_alignment >= PAGE_SIZE) {
		pr_err("block: dma_alignment mask %#x is not 2^n - 1 below a page\n",
		       lim->dma_alignment);
		return -EINVAL;
	}
	/* Blocks must be reachable: a buffer aligned to a block is aligned enough. */
	if (lim->dma_alignment >= lim->logical_block_size)
		lim->dma_alignment = lim->logical_block_size - 1;
	lim->max_discard_sectors = ALIGN_DOWN(lim->max_discard_sectors,
					      lim->logical_block_size >> SECTOR_SHIFT);
	lim->max_write_zeroes_sectors = ALIGN_DOWN(lim->max_write_zeroes_sectors,
						   lim->logical_block_size >> SECTOR_SHIFT);
	return 0;
}
