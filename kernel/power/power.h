/* SPDX-License-Identifier: MIT */
/*
 * What the pieces of kernel/power/ share (docs/hibernation.md):
 *
 *   snapshot.c   which page frames are saved, the atomic copy, and at
 *                resume, where each page of the image is loaded
 *   swap.c       the image on the resume device: writing and reading it
 *   hibernate.c  the control flow: freeze, snapshot, write, power off; and
 *                at boot, check, load, jump back into the saved kernel
 *   freezer.c    stopping user processes and freezable kernel threads
 */
#ifndef KERNEL_POWER_POWER_H
#define KERNEL_POWER_POWER_H

#include <pagoda/memory_bitmap.h>
#include <pagoda/mmzone.h>
#include <pagoda/suspend.h>

#include "image.h"

struct block_device;

/* The RAM of this boot as pfn ranges, the same way in every boot. */
unsigned int hibernate_ram_regions(struct swsusp_region *r, unsigned int max);
/* Node 0's zones as bitmap ranges. */
unsigned int hibernate_zones(struct bm_zone_range *z, unsigned int max);

/*
 * One snapshot, both ways. Every page the snapshot code allocates is
 * marked in `forbidden` (never saved); the pages it gives back when done
 * (copies, buffers) also in `free`, and swsusp_free() finds them there.
 */
struct snapshot {
	enum bm_kind kind;
	struct bm_zone_range zones[MAX_NR_ZONES];
	unsigned int nr_zones;
	struct swsusp_region regions[SWSUSP_MAX_REGIONS];
	unsigned int nr_regions;
	struct memory_bitmap forbidden, free;
	struct bm_page_ops own_ops;	/* for the bitmaps below: pages marked forbidden */
	/* Saving: the frames saved and their copies, in step (i-th bit to i-th bit). */
	struct memory_bitmap orig, copy;
	unsigned long nr_copies;	/* copy pages allocated */
	unsigned long image_pages;	/* frames the atomic copy saved */
	bool have_basic;		/* forbidden and free exist */
};

/* Saving (snapshot.c). */
int snapshot_create_bitmaps(struct snapshot *s);
/* Count what would be saved now and allocate that many copies plus a margin. */
int snapshot_preallocate(struct snapshot *s);
/* The atomic copy: interrupts off, other CPUs parked (called by swsusp_save()). */
int snapshot_copy_atomic(struct snapshot *s);
/* Give back the copies the atomic copy did not use. */
void snapshot_trim_copies(struct snapshot *s);
/* Everything the snapshot allocated, bitmaps last. */
void snapshot_release(struct snapshot *s);
/* Set by hibernate.c around swsusp_arch_suspend(): what swsusp_save() fills. */
extern struct snapshot *snapshot_in_progress;

/* Loading (snapshot.c): decide where each image page goes. */
struct pbe_page;
struct restore_plan {
	struct snapshot snap;		/* forbidden/free: every page the loader took */
	struct memory_bitmap image;	/* the image's frames (the seed's hot bitmap) */
	struct memory_bitmap owned;	/* image frames the loader happens to own */
	bool have_image, have_owned;
	unsigned long image_pages, direct, relocated;
	struct page **safe;		/* pages outside the image, for buffers */
	unsigned long nr_safe, safe_used;
	struct pbe_page *pbe_head, *pbe_tail;
	/* What the arch needs to jump: */
	u64 restore_pgd, resume_entry;
};
int restore_plan_init(struct restore_plan *p, unsigned long image_pages);
/* Mark one block of image pfns; called in order. */
void restore_plan_mark(struct restore_plan *p, const u64 *pfns, unsigned int n);
/* Take enough safe pages for the copies, the list and arch_extra pages. */
int restore_plan_reserve(struct restore_plan *p, unsigned long arch_extra);
/* Where to read the page of frame pfn: the frame itself, or a safe buffer. */
void *restore_plan_buffer(struct restore_plan *p, u64 pfn);
/* A safe page (zeroed), for the arch's page tables and code; NULL when out. */
void *restore_plan_safe_page(struct restore_plan *p);
void restore_plan_release(struct restore_plan *p);

/* The image on disk (swap.c). */
int swsusp_write(struct block_device *bdev, struct snapshot *s, struct swsusp_header *h);
/* Read and check the header: 0 with *h filled, or a negative errno (message printed). */
int swsusp_check(struct block_device *bdev, struct swsusp_header *h);
int swsusp_read(struct block_device *bdev, const struct swsusp_header *h,
		struct restore_plan *p);
int swsusp_erase_signature(struct block_device *bdev);
void swsusp_fill_expect(struct swsusp_expect *e, struct block_device *bdev,
			struct swsusp_region *regions, unsigned int *nr);
extern u64 swsusp_last_write_ns, swsusp_last_read_ns, swsusp_crc_ns, swsusp_wait_ns;

/* Bandwidth for the reports. */
u64 hibernate_mib_per_s_x10(u64 bytes, u64 ns);

/* Freezer (freezer.c). */
int freeze_processes(void);
void thaw_processes(void);

#endif
