/* SPDX-License-Identifier: MIT */
/*
 * The hibernation image as it lies on the resume device (docs/hibernation.md,
 * "The image"). The device is read in 4 KiB blocks:
 *
 *   block 0                      struct swsusp_header: the signature, what
 *                                kernel and machine made the image, sizes,
 *                                checksums, where to jump back in
 *   blocks 1 .. meta_pages       the pfn list: one little-endian u64 per data
 *                                page, in order, strictly ascending, 512 a block
 *   the next image_pages blocks  the saved pages, in the pfn list's order
 *
 * Everything is written before the header, then flushed, then the header
 * with its signature, then flushed again; and the first thing a writer does
 * is erase an old signature. So a write cut short anywhere leaves a device
 * with no signature, never a header that promises data which is not there.
 * Three CRC32Cs (header, pfn list, data) catch what the device garbled.
 *
 * Pure code: the host fuzzer (tests/host/fuzz_swsusp_header.c) feeds
 * swsusp_header_check() random and mutated headers.
 */
#ifndef KERNEL_POWER_IMAGE_H
#define KERNEL_POWER_IMAGE_H

#include <pagoda/types.h>

#define SWSUSP_SIG "PAGODA-HIBERNATE"	/* 16 bytes, no terminator on disk */
#define SWSUSP_SIG_LEN 16
#define SWSUSP_VERSION 1
#define SWSUSP_BLOCK 4096
#define SWSUSP_PFNS_PER_BLOCK (SWSUSP_BLOCK / 8)
#define SWSUSP_MAX_REGIONS 32
#define SWSUSP_BUILD_ID_MAX 32

/* A range of RAM page frames, [start_pfn, end_pfn). */
struct swsusp_region {
	u64 start_pfn, end_pfn;
};

struct swsusp_header {
	char sig[SWSUSP_SIG_LEN];	/* SWSUSP_SIG once the image is whole */
	u32 version;			/* SWSUSP_VERSION */
	u32 header_size;		/* sizeof(struct swsusp_header) */
	u32 page_size;			/* 4096 */
	u32 header_crc;			/* CRC32C of this block with this field 0 */
	char arch[16];			/* "x86_64", "arm64" */
	char platform[16];		/* "pc", "virt", "pi4" */
	u8 build_id[SWSUSP_BUILD_ID_MAX]; /* the kernel's GNU build id */
	u32 build_id_len;
	u32 nr_cpus;			/* CPUs the hibernated kernel had online */
	u64 image_pages;		/* data blocks */
	u64 meta_pages;			/* pfn-list blocks */
	u32 meta_crc;			/* CRC32C of the pfn-list blocks */
	u32 data_crc;			/* CRC32C of the data blocks */
	u32 nr_regions;
	u32 reserved0;
	struct swsusp_region regions[SWSUSP_MAX_REGIONS]; /* the RAM it saved from */
	u64 restore_pgd;		/* physical address of its kernel page-table root */
	u64 resume_entry;		/* where the restore code jumps (kernel text) */
	u64 ktime_ns;			/* its monotonic clock at the snapshot */
	u64 real_ns;			/* its real-time clock at the snapshot */
	u64 written_ns;			/* how long the write took, for the report */
};

/* What a reader must match: this kernel and this machine. */
struct swsusp_expect {
	const char *arch, *platform;
	const u8 *build_id;
	u32 build_id_len;
	u64 device_blocks;		/* 4 KiB blocks the resume device holds */
	const struct swsusp_region *regions;
	u32 nr_regions;
	u64 max_pfn;			/* no pfn of the image may reach this */
	u32 nr_cpus;			/* CPUs this machine has, online or not */
};

u32 swsusp_header_crc(const struct swsusp_header *h);
/*
 * Is h a whole image this kernel may load? 0, or a negative errno with
 * *why set to a sentence for the log: -ENOENT when there is no signature
 * (nothing was ever written, or a write was cut short), -EINVAL for a
 * header that is damaged or inconsistent, -EPERM for an image made by
 * another kernel or on another machine.
 */
int swsusp_header_check(const struct swsusp_header *h, const struct swsusp_expect *e,
			const char **why);
/* Check one block of the pfn list: strictly ascending after *last, inside the regions. */
int swsusp_pfns_check(const u64 *pfns, unsigned int n, u64 *last,
		      const struct swsusp_header *h, const char **why);

static inline u64 swsusp_meta_pages(u64 image_pages)
{
	return (image_pages + SWSUSP_PFNS_PER_BLOCK - 1) / SWSUSP_PFNS_PER_BLOCK;
}

#endif
