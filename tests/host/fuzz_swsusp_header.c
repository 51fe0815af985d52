// SPDX-License-Identifier: MIT
/*
 * libFuzzer on what resume reads from a hibernation image before it
 * trusts it: the header block and the pfn list (kernel/power/image.c),
 * then what the loader does with the list (kernel/power/swap.c's first
 * pass and snapshot.c's restore plan; Linux's load_image_header(),
 * unpack_orig_pfns() and memory_bm_set_bit() into its orig bitmap).
 * Half the inputs are taken as they are; the other half are XORed onto
 * a valid header first, so the mutations reach the checks behind the
 * signature and the checksum (the header CRC is then made right again,
 * as a forger would). Whatever the bytes:
 *  - an accepted header describes an image that fits the device and was
 *    made by this kernel on this machine;
 *  - the list is read as swap.c reads it, meta_pages blocks of at most
 *    image_pages pfns, and every pfn the check accepts is inside the
 *    saved RAM and above the one before;
 *  - the accepted pfns go into the image bitmap over the machine's RAM
 *    (kernel/power/memory_bitmap.c, both layouts: hibernate.bitmap=rtree
 *    and =list), which gives them back in the same order; and releasing
 *    the frames the loader got for itself (swsusp_free.c's walk over
 *    forbidden and free, Linux's swsusp_free()) releases exactly those.
 * `make fuzz-swsusp` runs it FUZZ_SECONDS.
 */
#include <pagoda/memory_bitmap.h>
#include <pagoda/string.h>
#include <stdlib.h>

#include "../../kernel/power/image.h"

#include "fuzz.h"

static const u8 build_id[20] = { 0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4, 5, 6,
				 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };
/*
 * The machine: x86-64 q35 with 1 GiB, as the tests boot it; its RAM
 * regions are the ones a real image of it records (tools/fuzz-seeds.py
 * makes one, and gives it this build id, the one field a stand-in cannot
 * share with the kernel that wrote it).
 */
#define RAM_END 0x3ffd3
static const struct swsusp_region regions[2] = { { 0, 0x9f }, { 0x100, RAM_END } };

static const struct swsusp_expect expect = {
	.arch = "x86_64", .platform = "pc", .build_id = build_id, .build_id_len = 20,
	.device_blocks = 65536, .regions = regions, .nr_regions = 2, .max_pfn = RAM_END,
	.nr_cpus = 4,
};

static void valid_header(struct swsusp_header *h)
{
	memset(h, 0, sizeof(*h));
	memcpy(h->sig, SWSUSP_SIG, SWSUSP_SIG_LEN);
	h->version = SWSUSP_VERSION;
	h->header_size = sizeof(*h);
	h->page_size = SWSUSP_BLOCK;
	memcpy(h->arch, "x86_64", 6);
	memcpy(h->platform, "pc", 2);
	memcpy(h->build_id, build_id, 20);
	h->build_id_len = 20;
	h->nr_cpus = 1;
	h->image_pages = 1000;
	h->meta_pages = swsusp_meta_pages(1000);
	h->nr_regions = 2;
	memcpy(h->regions, regions, sizeof(regions));
	h->restore_pgd = 0x1000;
	h->resume_entry = 0xffffffff80001000ULL;
	h->header_crc = swsusp_header_crc(h);
}

/* The bitmaps' pages: zeroed and page-aligned, as the kernel's allocator gives them. */
static void *bm_alloc(void *ctx)
{
	void *p = aligned_alloc(BM_PAGE_SIZE, BM_PAGE_SIZE);

	(void)ctx;
	if (p)
		memset(p, 0, BM_PAGE_SIZE);
	return p;
}

static void bm_free(void *ctx, void *p)
{
	(void)ctx;
	free(p);
}

static const struct bm_page_ops bm_ops = { bm_alloc, bm_free, NULL };

#define MAX_PFNS (4 * SWSUSP_PFNS_PER_BLOCK)

struct released {
	const u64 *want;
	unsigned int n, nr_want;
};

static void release(unsigned long pfn, void *arg)
{
	struct released *r = arg;

	if (r->n == r->nr_want || r->want[r->n++] != pfn)
		abort(); /* released in pfn order, and only the frames in both */
}

/*
 * One layout: the restore plan's image bitmap ("forbidden": frames the
 * image will overwrite) and the frames the loader got for itself ("free",
 * every pfn whose bit `which` is set): marked, walked, then released.
 */
static void plan(enum bm_kind kind, const u64 *pfns, unsigned int n, unsigned int which)
{
	static const struct bm_zone_range zones[2] = { { 0, 0x9f }, { 0x100, RAM_END } };
	static u64 own[MAX_PFNS];
	struct memory_bitmap image, owned;
	struct released r = { .want = own };
	unsigned long pfn;
	unsigned int k = 0;

	if (memory_bm_create(&image, kind, zones, 2, &bm_ops))
		return;
	if (memory_bm_create(&owned, kind, zones, 2, &bm_ops)) {
		memory_bm_free(&image);
		return;
	}
	for (unsigned int i = 0; i < n; i++) {
		if (memory_bm_set_bit_check(&image, pfns[i]) || !memory_bm_pfn_present(&image, pfns[i]))
			abort(); /* an accepted pfn is inside the bitmap's zones */
		if (pfns[i] >> which & 1) {
			memory_bm_set_bit(&owned, pfns[i]);
			own[r.nr_want++] = pfns[i];
		}
	}
	memory_bm_position_reset(&image);
	while ((pfn = memory_bm_next_pfn(&image)) != BM_END_OF_MAP)
		if (k == n || pfn != pfns[k++] || !memory_bm_test_bit(&image, pfn))
			abort(); /* the same pfns, in the list's (ascending) order */
	if (k != n || swsusp_free_bits(&image, &owned, release, &r) != r.nr_want ||
	    r.n != r.nr_want)
		abort();
	for (unsigned int i = 0; i < r.nr_want; i++)
		if (memory_bm_test_bit(&image, own[i]) || memory_bm_test_bit(&owned, own[i]))
			abort(); /* a released frame is in neither bitmap */
	memory_bm_free(&owned);
	memory_bm_free(&image);
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	static u64 accepted[MAX_PFNS];
	struct swsusp_header h;
	const char *why = NULL;
	size_t n = size < sizeof(h) ? size : sizeof(h), off = sizeof(h);
	u64 last = ~0ULL;
	unsigned int nr = 0;

	if (!size)
		return 0;
	if (data[0] & 1) {
		valid_header(&h);
		for (size_t i = 1; i < n; i++)
			((u8 *)&h)[i] ^= data[i];
		h.header_crc = swsusp_header_crc(&h);
	} else {
		memset(&h, 0, sizeof(h));
		memcpy(&h, data, n);
	}
	if (swsusp_header_check(&h, &expect, &why)) {
		if (!why)
			abort(); /* every refusal says why */
		return 0;
	}
	if (memcmp(h.sig, SWSUSP_SIG, SWSUSP_SIG_LEN) || swsusp_header_crc(&h) != h.header_crc ||
	    !h.image_pages || h.meta_pages != swsusp_meta_pages(h.image_pages) ||
	    1 + h.meta_pages + h.image_pages > expect.device_blocks ||
	    h.build_id_len != 20 || memcmp(h.build_id, build_id, 20) || h.nr_regions != 2)
		abort();
	/* The rest of the input is the pfn list, read a block at a time as swap.c does. */
	for (u64 m = 0; m < h.meta_pages && off + 8 <= size && nr < MAX_PFNS; m++) {
		u64 left = h.image_pages - m * SWSUSP_PFNS_PER_BLOCK;
		u64 pfns[SWSUSP_PFNS_PER_BLOCK];
		unsigned int k = 0, want = left < SWSUSP_PFNS_PER_BLOCK ? (unsigned int)left :
									  SWSUSP_PFNS_PER_BLOCK;
		u64 before = last;

		while (k < want && off + 8 <= size) {
			memcpy(&pfns[k++], data + off, 8);
			off += 8;
		}
		if (swsusp_pfns_check(pfns, k, &last, &h, &why))
			break;
		for (unsigned int i = 0; i < k; i++) {
			bool inside = (pfns[i] < 0x9f) || (pfns[i] >= 0x100 && pfns[i] < RAM_END);

			if (!inside || (before != ~0ULL && pfns[i] <= before))
				abort();
			before = pfns[i];
			accepted[nr++] = pfns[i];
		}
	}
	if (nr) {
		plan(BM_RTREE, accepted, nr, data[size - 1] & 7);
		plan(BM_LIST, accepted, nr, data[size - 1] & 7);
	}
	return 0;
}
