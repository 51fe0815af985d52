// SPDX-License-Identifier: MIT
/*
 * libFuzzer on the hibernation image's checks (kernel/power/image.c): the
 * input is a header block and a pfn list. Half the inputs are taken as
 * they are; the other half are XORed onto a valid header first, so the
 * mutations reach the checks behind the signature and the checksum (the
 * header CRC is then made right again, as a forger would). Whatever the
 * bytes, an accepted header describes an image that fits the device and
 * was made by this kernel on this machine, and every pfn the list check
 * accepts is inside the saved RAM and above the one before.
 * `make fuzz-swsusp` runs it FUZZ_SECONDS.
 */
#include <pagoda/string.h>

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

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct swsusp_header h;
	const char *why = NULL;
	size_t n = size < sizeof(h) ? size : sizeof(h);
	u64 last = ~0ULL;

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
	/* The rest of the input is the pfn list, checked a block at a time. */
	for (size_t off = sizeof(h); off + 8 <= size;) {
		u64 pfns[SWSUSP_PFNS_PER_BLOCK];
		unsigned int k = 0;
		u64 before = last;

		while (k < SWSUSP_PFNS_PER_BLOCK && off + 8 <= size) {
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
		}
	}
	return 0;
}
