// SPDX-License-Identifier: MIT
/*
 * libFuzzer on the checkpoint image checker (kernel/cr/image.c): restore
 * builds processes only from images it accepted, so it must accept
 * nothing that would lead restore outside the buffer or into a record it
 * does not expect. The checksums would stop almost every mutation at the
 * door, so for inputs whose first byte is odd the fuzzer makes them right
 * first and the record checks get the bytes. Whatever the input: no read
 * outside it (ASan), and an accepted image's records all lie inside it,
 * in the order the format gives, and end with END.
 * `make fuzz-cr-image` runs it FUZZ_SECONDS.
 */
#include <pagoda/crc32.h>
#include <pagoda/string.h>

#include "../../kernel/cr/image.h"

#include "fuzz.h"

static const struct cr_limits lim = { .machine = 62, .regs_size = 176, .ustate_size = 520,
				      .task_size = 0x00007ffffffff000ULL };

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct cr_summary sum;
	const char *why = NULL;
	size_t off = sizeof(struct cr_header), len = size ? size - 1 : 0;
	u8 *buf;
	const struct cr_rec *r;
	unsigned int n = 0, procs = 0;

	if (!size)
		return 0;
	buf = malloc(len ? len : 1); /* its own aligned copy, exactly len bytes */
	memcpy(buf, data + 1, len);
	if ((data[0] & 1) && len >= sizeof(struct cr_header)) {
		struct cr_header *h = (struct cr_header *)buf;

		if (h->total_len >= sizeof(*h) && h->total_len <= len)
			h->body_crc = ~crc32_le(~0u, buf + sizeof(*h), h->total_len - sizeof(*h));
		h->header_crc = cr_header_crc(h);
	}
	if (cr_image_check(buf, len, &lim, &sum, &why)) {
		if (!why)
			abort(); /* every refusal says why */
		free(buf);
		return 0;
	}
	while ((r = cr_image_next(buf, &off))) {
		if ((const u8 *)r < buf || off > sum.hdr->total_len || r->type == 0 ||
		    r->type > CR_REC_END)
			abort();
		procs += r->type == CR_REC_PROC;
		n++;
	}
	if (off + sizeof(*r) != sum.hdr->total_len || n + 1 != sum.hdr->nr_records ||
	    procs != sum.nr_procs || !procs || !sum.symtab)
		abort();
	free(buf);
	return 0;
}
