// SPDX-License-Identifier: MIT
/*
 * Checking a hibernation image's header and pfn list before anything is
 * loaded (image.h has the layout). Every test is here, in one pure
 * function, so that the host fuzzer reaches all of them and the boot path
 * cannot forget one. The order matters only for the message: the first
 * reason found is the one reported.
 */
#include <pagoda/crc32.h>
#include <pagoda/string.h>
#include <pagoda/types.h>

#include "image.h"

u32 swsusp_header_crc(const struct swsusp_header *h)
{
	struct swsusp_header copy = *h;

	copy.header_crc = 0;
	return crc32c(~0U, &copy, sizeof(copy));
}

/* Bounded string compare: the on-disk fields need not be terminated. */
static bool field_is(const char *field, size_t size, const char *want)
{
	size_t n = strlen(want);

	return n < size && !memcmp(field, want, n) && field[n] == 0;
}

static bool regions_equal(const struct swsusp_header *h, const struct swsusp_expect *e)
{
	if (h->nr_regions != e->nr_regions)
		return false;
	for (u32 i = 0; i < h->nr_regions; i++)
		if (h->regions[i].start_pfn != e->regions[i].start_pfn ||
		    h->regions[i].end_pfn != e->regions[i].end_pfn)
			return false;
	return true;
}

int swsusp_header_check(const struct swsusp_header *h, const struct swsusp_expect *e,
			const char **why)
{
	u64 blocks;

	if (memcmp(h->sig, SWSUSP_SIG, SWSUSP_SIG_LEN)) {
		*why = "no hibernation signature (never written, erased after a resume, "
		       "or a write that did not finish)";
		return -ENOENT;
	}
	if (h->version != SWSUSP_VERSION || h->header_size != sizeof(*h)) {
		*why = "image format version or header size is not this kernel's";
		return -EINVAL;
	}
	if (swsusp_header_crc(h) != h->header_crc) {
		*why = "header checksum does not match (the header is damaged)";
		return -EINVAL;
	}
	if (h->page_size != SWSUSP_BLOCK) {
		*why = "page size is not 4096";
		return -EINVAL;
	}
	if (!field_is(h->arch, sizeof(h->arch), e->arch) ||
	    !field_is(h->platform, sizeof(h->platform), e->platform)) {
		*why = "image made on another architecture or platform";
		return -EPERM;
	}
	if (h->build_id_len != e->build_id_len || h->build_id_len > SWSUSP_BUILD_ID_MAX ||
	    memcmp(h->build_id, e->build_id, e->build_id_len)) {
		*why = "image made by a different kernel build (build id differs)";
		return -EPERM;
	}
	if (!h->image_pages || h->meta_pages != swsusp_meta_pages(h->image_pages)) {
		*why = "page counts are inconsistent";
		return -EINVAL;
	}
	/* 1 + meta + data blocks must fit; written so that no sum can wrap. */
	blocks = e->device_blocks;
	if (blocks < 1 || h->meta_pages > blocks - 1 ||
	    h->image_pages > blocks - 1 - h->meta_pages) {
		*why = "image is larger than the resume device (truncated or foreign)";
		return -EINVAL;
	}
	if (h->nr_regions > SWSUSP_MAX_REGIONS || !regions_equal(h, e)) {
		*why = "image made with a different memory layout";
		return -EPERM;
	}
	if (!h->nr_cpus || h->nr_cpus > e->nr_cpus) {
		*why = "image made with more CPUs than this machine has";
		return -EPERM;
	}
	if (!h->resume_entry || !h->restore_pgd || (h->restore_pgd & (SWSUSP_BLOCK - 1))) {
		*why = "resume address or page-table root is missing";
		return -EINVAL;
	}
	return 0;
}

static bool in_regions(const struct swsusp_header *h, u64 pfn)
{
	for (u32 i = 0; i < h->nr_regions && i < SWSUSP_MAX_REGIONS; i++)
		if (pfn >= h->regions[i].start_pfn && pfn < h->regions[i].end_pfn)
			return true;
	return false;
}

int swsusp_pfns_check(const u64 *pfns, unsigned int n, u64 *last,
		      const struct swsusp_header *h, const char **why)
{
	for (unsigned int i = 0; i < n; i++) {
		if (*last != ~0ULL && pfns[i] <= *last) {
			*why = "pfn list is not strictly ascending";
			return -EINVAL;
		}
		if (!in_regions(h, pfns[i])) {
			*why = "pfn list names a frame outside the saved RAM";
			return -EINVAL;
		}
		*last = pfns[i];
	}
	return 0;
}
