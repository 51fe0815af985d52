// SPDX-License-Identifier: MIT
/*
 * The hibernation image on its device (image.h has the layout; Linux does
 * this in kernel/power/swap.c, on a swap partition). Pages go to the block
 * layer in bios of up to IO_PAGES pages, up to IO_DEPTH of them in flight,
 * so the device sees large sequential requests; the checksums are computed
 * on the CPU, in image order, as the pages pass.
 */
#include <pagoda/atomic.h>
#include <pagoda/bio.h>
#include <pagoda/blkdev.h>
#include <pagoda/crc32.h>
#include <pagoda/gfp.h>
#include <pagoda/mm.h>
#include <pagoda/params.h>
#include <pagoda/printk.h>
#include <pagoda/slab.h>
#include <pagoda/sched.h>
#include <pagoda/smp.h>
#include <pagoda/string.h>
#include <pagoda/time.h>
#include <pagoda/wait.h>

#include "power.h"

#define IO_PAGES 64		/* 256 KiB a bio */
#define IO_DEPTH 8		/* bios in flight */
#define SECTORS_PER_BLOCK (SWSUSP_BLOCK / 512)

u64 swsusp_last_write_ns, swsusp_last_read_ns;
/* Of those, the time spent checksumming and waiting for the device: where it goes. */
u64 swsusp_crc_ns, swsusp_wait_ns;

static u32 crc_page(u32 crc, const void *page)
{
	u64 t = ktime_get_ns();

	crc = crc32c(crc, page, SWSUSP_BLOCK);
	swsusp_crc_ns += ktime_get_ns() - t;
	return crc;
}

/* Bios in flight for one pass over the image; the first error is kept. */
struct hib_io {
	struct block_device *bdev;
	atomic_t inflight;
	int error;
	struct wait_queue_head wait;
	struct bio *bio;	/* being filled */
	u64 next_block;		/* where the next page added goes */
	blk_opf_t op;
};

static void hib_end_io(struct bio *bio)
{
	struct hib_io *io = bio->bi_private;

	if (bio->bi_status && !io->error)
		io->error = -EIO;
	bio_put(bio);
	/* io is on the waiter's stack: gone once it sees the count fall. */
	atomic_dec_wake_up_all(&io->inflight, &io->wait);
}

static void hib_io_init(struct hib_io *io, struct block_device *bdev, blk_opf_t op, u64 block)
{
	memset(io, 0, sizeof(*io));
	io->bdev = bdev;
	io->op = op;
	io->next_block = block;
	init_waitqueue_head(&io->wait);
}

static void hib_io_submit(struct hib_io *io)
{
	struct bio *bio = io->bio;

	if (!bio)
		return;
	io->bio = NULL;
	if (atomic_read(&io->inflight) >= IO_DEPTH) {
		u64 t = ktime_get_ns();

		wait_event(io->wait, atomic_read(&io->inflight) < IO_DEPTH);
		swsusp_wait_ns += ktime_get_ns() - t;
	}
	atomic_inc(&io->inflight);
	submit_bio(bio);
}

/* Queue one page of the image at the next block. */
static int hib_io_page(struct hib_io *io, void *buf)
{
	if (io->bio && !bio_add_page(io->bio, virt_to_page(buf), SWSUSP_BLOCK, 0))
		hib_io_submit(io);
	if (!io->bio) {
		io->bio = bio_alloc(io->bdev, IO_PAGES, io->op, GFP_KERNEL);
		if (!io->bio)
			return -ENOMEM;
		io->bio->bi_iter.bi_sector = io->next_block * SECTORS_PER_BLOCK;
		io->bio->bi_end_io = hib_end_io;
		io->bio->bi_private = io;
		if (!bio_add_page(io->bio, virt_to_page(buf), SWSUSP_BLOCK, 0))
			return -EIO;
	}
	io->next_block++;
	return io->error;
}

/* Submit what is queued and wait for all of it. */
static int hib_io_finish(struct hib_io *io)
{
	u64 t;

	hib_io_submit(io);
	t = ktime_get_ns();
	wait_event(io->wait, atomic_read(&io->inflight) == 0);
	swsusp_wait_ns += ktime_get_ns() - t;
	return io->error;
}

static u64 device_blocks(struct block_device *bdev)
{
	return bdev_nr_sectors(bdev) / SECTORS_PER_BLOCK;
}

/*
 * For the crash tests: stop writing the data at this percent and wait
 * there, header unwritten, for QEMU to be killed (a write is too fast to
 * kill at a given point by watching its progress).
 */
static u64 stall_at;
PARAM_UINT("hibernate.stall_at", stall_at, 0, 99,
	   "testing: stop writing the image at this percent and wait (0: never)");

static void progress(const char *what, u64 done, u64 total, unsigned int *shown, bool writing)
{
	unsigned int pct = (unsigned int)(done * 100 / total);

	/* Every tenth, for whoever watches. */
	while (*shown + 10 <= pct) {
		*shown += 10;
		pr_info("PM: %s image: %u%%\n", what, *shown);
	}
	if (writing && stall_at && pct >= stall_at) {
		pr_info("PM: writing image: stalled at %u%% (hibernate.stall_at); waiting to be killed\n",
			pct);
		for (;;)
			msleep(1000);
	}
}

/* The header block: the header, zeroes after it. */
static int header_io(struct block_device *bdev, blk_opf_t op, struct swsusp_header *h)
{
	void *block = kzalloc(SWSUSP_BLOCK, GFP_KERNEL);
	int err;

	if (!block)
		return -ENOMEM;
	if (op_is_write(op))
		memcpy(block, h, sizeof(*h));
	err = blkdev_rw(bdev, op, 0, block, SWSUSP_BLOCK);
	if (!err && !op_is_write(op))
		memcpy(h, block, sizeof(*h));
	kfree(block);
	return err;
}

int swsusp_erase_signature(struct block_device *bdev)
{
	void *zero = kzalloc(SWSUSP_BLOCK, GFP_KERNEL);
	int err;

	if (!zero)
		return -ENOMEM;
	err = blkdev_rw(bdev, REQ_OP_WRITE | REQ_SYNC, 0, zero, SWSUSP_BLOCK);
	if (!err)
		err = blkdev_issue_flush(bdev);
	kfree(zero);
	return err;
}

int swsusp_write(struct block_device *bdev, struct snapshot *s, struct swsusp_header *h)
{
	u64 meta = swsusp_meta_pages(s->image_pages), start = ktime_get_ns(), done = 0;
	u32 meta_crc = ~0U, data_crc = ~0U;
	unsigned int shown = 0;
	struct hib_io io;
	u64 *pfns = NULL;
	unsigned long pfn;
	int err;

	swsusp_crc_ns = swsusp_wait_ns = 0;
	if (1 + meta + s->image_pages > device_blocks(bdev)) {
		pr_err("PM: hibernation: %s is too small: the image needs %llu KiB, it has %llu KiB\n",
		       bdev->bd_name, (unsigned long long)(1 + meta + s->image_pages) * 4,
		       (unsigned long long)device_blocks(bdev) * 4);
		return -ENOSPC;
	}
	/* First of all: no old signature may vouch for what is written now. */
	err = swsusp_erase_signature(bdev);
	if (err)
		return err;

	/* The pfn list, from the orig bitmap, into pages written as they fill. */
	hib_io_init(&io, bdev, REQ_OP_WRITE, 1);
	memory_bm_position_reset(&s->orig);
	for (u64 m = 0; m < meta && !err; m++) {
		unsigned int n = 0;

		pfns = (u64 *)__get_free_pages(GFP_KERNEL | __GFP_ZERO, 0);
		if (!pfns) {
			err = -ENOMEM;
			break;
		}
		while (n < SWSUSP_PFNS_PER_BLOCK && (pfn = memory_bm_next_pfn(&s->orig)) != BM_END_OF_MAP)
			pfns[n++] = pfn;
		meta_crc = crc32c(meta_crc, pfns, SWSUSP_BLOCK);
		err = hib_io_page(&io, pfns);
		/* One block per 2 MiB of image: each is written and waited for, then freed. */
		hib_io_submit(&io);
		err = err ? err : hib_io_finish(&io);
		free_pages((unsigned long)pfns, 0);
	}

	/* The data: the copies, in the same order. */
	memory_bm_position_reset(&s->copy);
	while (!err && done < s->image_pages &&
	       (pfn = memory_bm_next_pfn(&s->copy)) != BM_END_OF_MAP) {
		void *page = page_address(pfn_to_page(pfn));

		data_crc = crc_page(data_crc, page);
		err = hib_io_page(&io, page);
		progress("writing", ++done, s->image_pages, &shown, true);
	}
	err = err ? err : hib_io_finish(&io);
	if (!err && done != s->image_pages)
		err = -EIO;
	if (!err)
		err = blkdev_issue_flush(bdev);
	if (err) {
		pr_err("PM: hibernation: writing the image to %s failed (%d)\n", bdev->bd_name, err);
		return err;
	}

	/* Everything is on the device: now the header that makes it an image. */
	memcpy(h->sig, SWSUSP_SIG, SWSUSP_SIG_LEN);
	h->version = SWSUSP_VERSION;
	h->header_size = sizeof(*h);
	h->page_size = SWSUSP_BLOCK;
	h->image_pages = s->image_pages;
	h->meta_pages = meta;
	h->meta_crc = meta_crc;
	h->data_crc = data_crc;
	h->written_ns = ktime_get_ns() - start;
	h->header_crc = swsusp_header_crc(h);
	err = header_io(bdev, REQ_OP_WRITE | REQ_SYNC | REQ_FUA, h);
	if (!err)
		err = blkdev_issue_flush(bdev);
	swsusp_last_write_ns = ktime_get_ns() - start;
	if (err)
		pr_err("PM: hibernation: writing the header failed (%d)\n", err);
	return err;
}

void swsusp_fill_expect(struct swsusp_expect *e, struct block_device *bdev,
			struct swsusp_region *regions, unsigned int *nr)
{
	extern const u8 __build_id_note[], __build_id_note_end[];
	const u32 *note = (const u32 *)__build_id_note;

	memset(e, 0, sizeof(*e));
	e->arch = arch_name;
	e->platform = arch_platform();
	/* A GNU note: namesz, descsz, type, "GNU\0", then the id itself. */
	if (__build_id_note_end - __build_id_note >= 16 && note[0] == 4 &&
	    note[1] <= SWSUSP_BUILD_ID_MAX) {
		e->build_id = __build_id_note + 16;
		e->build_id_len = note[1];
	}
	e->device_blocks = bdev ? device_blocks(bdev) : 0;
	e->nr_cpus = num_possible_cpus();
	*nr = hibernate_ram_regions(regions, SWSUSP_MAX_REGIONS);
	e->regions = regions;
	e->nr_regions = *nr;
}

int swsusp_check(struct block_device *bdev, struct swsusp_header *h)
{
	struct swsusp_region regions[SWSUSP_MAX_REGIONS];
	struct swsusp_expect e;
	const char *why = NULL;
	unsigned int nr;
	int err;

	err = header_io(bdev, REQ_OP_READ, h);
	if (err) {
		pr_err("PM: resume: cannot read %s (%d); booting normally\n", bdev->bd_name, err);
		return err;
	}
	swsusp_fill_expect(&e, bdev, regions, &nr);
	err = swsusp_header_check(h, &e, &why);
	if (err == -ENOENT)
		pr_info("PM: resume: no image on %s: %s; booting normally\n", bdev->bd_name, why);
	else if (err)
		pr_err("PM: resume: image on %s refused: %s; booting normally\n", bdev->bd_name, why);
	return err;
}

#define BATCH (IO_PAGES * IO_DEPTH)

/*
 * The data is read a batch at a time, and each batch is checksummed while
 * the next one is on its way from the device: two batches, alternating.
 */
struct read_pipe {
	struct hib_io io[2];
	void **bufs[2];
	unsigned int n[2];
	int cur;
	u32 crc;
};

static int pipe_finish(struct read_pipe *rp, int which)
{
	int err = hib_io_finish(&rp->io[which]);

	for (unsigned int i = 0; i < rp->n[which] && !err; i++)
		rp->crc = crc_page(rp->crc, rp->bufs[which][i]);
	rp->n[which] = 0;
	return err;
}

/* Send the filled batch off, then checksum the one before it. */
static int pipe_submit(struct read_pipe *rp, struct block_device *bdev, u64 block)
{
	int me = rp->cur, err = 0;

	hib_io_init(&rp->io[me], bdev, REQ_OP_READ, block);
	for (unsigned int i = 0; i < rp->n[me] && !err; i++)
		err = hib_io_page(&rp->io[me], rp->bufs[me][i]);
	hib_io_submit(&rp->io[me]);
	rp->cur = !me;
	if (rp->n[rp->cur]) {
		int e = pipe_finish(rp, rp->cur);

		err = err ? err : e;
	}
	return err;
}

int swsusp_read(struct block_device *bdev, const struct swsusp_header *h, struct restore_plan *p)
{
	u64 start = ktime_get_ns(), last = ~0ULL, block = 1 + h->meta_pages, done = 0;
	u32 meta_crc = ~0U;
	void **bufs = kmalloc(2 * BATCH * sizeof(void *), GFP_KERNEL);
	u64 *pfns = (u64 *)__get_free_pages(GFP_KERNEL, 0);
	struct read_pipe rp = { .crc = ~0U };
	unsigned int shown = 0;
	const char *why = NULL;
	int err = 0;

	swsusp_crc_ns = swsusp_wait_ns = 0;
	if (!bufs || !pfns) {
		err = -ENOMEM;
		goto out;
	}
	/* Pass 1: the pfn list, checked and marked in the image bitmap. */
	for (u64 m = 0; m < h->meta_pages && !err; m++) {
		u64 left = h->image_pages - m * SWSUSP_PFNS_PER_BLOCK;
		unsigned int n = left < SWSUSP_PFNS_PER_BLOCK ? (unsigned int)left : SWSUSP_PFNS_PER_BLOCK;

		err = blkdev_rw(bdev, REQ_OP_READ, (1 + m) * SECTORS_PER_BLOCK, pfns, SWSUSP_BLOCK);
		if (err)
			break;
		meta_crc = crc32c(meta_crc, pfns, SWSUSP_BLOCK);
		err = swsusp_pfns_check(pfns, n, &last, h, &why);
		if (!err)
			restore_plan_mark(p, pfns, n);
	}
	if (!err && meta_crc != h->meta_crc) {
		why = "pfn list checksum does not match";
		err = -EINVAL;
	}
	if (err) {
		pr_err("PM: resume: image refused: %s (%d); booting normally\n",
		       why ? why : "the pfn list could not be read", err);
		goto out;
	}
	err = restore_plan_reserve(p, arch_hibernation_extra_pages());
	if (err)
		goto out;

	/* Pass 2: the data, each page into its own frame or a safe buffer. */
	rp.bufs[0] = bufs;
	rp.bufs[1] = bufs + BATCH;
	for (u64 m = 0; m < h->meta_pages && !err; m++) {
		u64 left = h->image_pages - m * SWSUSP_PFNS_PER_BLOCK;
		unsigned int n = left < SWSUSP_PFNS_PER_BLOCK ? (unsigned int)left : SWSUSP_PFNS_PER_BLOCK;

		err = blkdev_rw(bdev, REQ_OP_READ, (1 + m) * SECTORS_PER_BLOCK, pfns, SWSUSP_BLOCK);
		for (unsigned int i = 0; i < n && !err; i += BATCH) {
			unsigned int k = MIN(n - i, (unsigned int)BATCH);

			for (unsigned int j = 0; j < k && !err; j++)
				if (!(rp.bufs[rp.cur][j] = restore_plan_buffer(p, pfns[i + j])))
					err = -ENOMEM;
			if (!err) {
				rp.n[rp.cur] = k;
				err = pipe_submit(&rp, bdev, block);
			}
			block += k;
			done += k;
			progress("reading", done, h->image_pages, &shown, false);
		}
	}
	/* The last batch in flight (and on an error, whatever is still out). */
	for (int i = 0; i < 2; i++)
		if (rp.n[i]) {
			int e = pipe_finish(&rp, i);

			err = err ? err : e;
		}
	if (!err && rp.crc != h->data_crc) {
		pr_err("PM: resume: image refused: data checksum does not match; booting normally\n");
		err = -EINVAL;
	} else if (err) {
		pr_err("PM: resume: reading the image failed (%d); booting normally\n", err);
	}
	swsusp_last_read_ns = ktime_get_ns() - start;
out:
	if (pfns)
		free_pages((unsigned long)pfns, 0);
	kfree(bufs);
	return err;
}
