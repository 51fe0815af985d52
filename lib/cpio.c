// SPDX-License-Identifier: MIT
/*
 * A reader for cpio "newc" archives, Linux's initramfs format, one after
 * another in a buffer as Linux takes them. Nothing in the archive is
 * trusted: every field must be eight hex digits, every name must end in
 * its NUL inside the buffer, every data block must fit, and a 070702
 * archive's checksums must match. Compressed archives are recognised and
 * refused by name: Pagoda has no decompressors.
 */
#include <pagoda/cpio.h>
#include <pagoda/string.h>

#define HDR_LEN 110
#define FIELD(n) (6 + 8 * (n)) /* after the magic */

enum { F_INO, F_MODE, F_UID, F_GID, F_NLINK, F_MTIME, F_FILESIZE, F_DEVMAJOR,
       F_DEVMINOR, F_RDEVMAJOR, F_RDEVMINOR, F_NAMESIZE, F_CHECK };

static int hex8(const char *s, u32 *out)
{
	u32 v = 0;

	for (int i = 0; i < 8; i++) {
		char c = s[i];
		int d;

		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			return -EINVAL;
		v = v << 4 | (u32)d;
	}
	*out = v;
	return 0;
}

static size_t pad4(size_t x)
{
	return (x + 3) & ~(size_t)3;
}

static int bad(const char **why, const char *msg)
{
	*why = msg;
	return -EINVAL;
}

/* Two-byte magics, the ones Linux's initramfs recognises (lib/decompress.c). */
const char *cpio_compression(const void *buf, size_t size)
{
	static const struct {
		u8 magic[2];
		const char *name;
	} formats[] = {
		{ { 0x1f, 0x8b }, "gzip" }, { { 0x1f, 0x9e }, "gzip" },
		{ { 0x42, 0x5a }, "bzip2" }, { { 0x5d, 0x00 }, "lzma" },
		{ { 0xfd, 0x37 }, "xz" },    { { 0x89, 0x4c }, "lzo" },
		{ { 0x02, 0x21 }, "lz4" },   { { 0x28, 0xb5 }, "zstd" },
	};
	const u8 *b = buf;

	if (size < 2)
		return NULL;
	for (size_t i = 0; i < ARRAY_SIZE(formats); i++)
		if (b[0] == formats[i].magic[0] && b[1] == formats[i].magic[1])
			return formats[i].name;
	return NULL;
}

/* What stands where a header should: the message for it. */
static const char *not_a_header(const char *h, size_t left)
{
	if (left >= 6 && !memcmp(h, "070707", 6))
		return "an old-format (070707) cpio archive: make it with cpio -H newc";
	if (cpio_compression(h, left))
		return "compressed data: this kernel reads uncompressed newc archives only "
		       "(unpack it first)";
	return "not a newc header (magic 070701)";
}

int cpio_next(struct cpio_iter *it, struct cpio_entry *e, const char **why)
{
	const char *buf = it->buf;
	const char *h;
	u32 f[13];
	size_t name_at, data_at;
	bool crc;

	*why = "";
	if (it->pos > it->size)
		return bad(why, "position past the archive");
	/* Between archives: zero padding, then the next one on a 4-byte boundary. */
	if (it->between) {
		while (it->pos < it->size && !buf[it->pos])
			it->pos++;
		if (it->pos == it->size)
			return CPIO_END;
		if (it->pos & 3)
			return bad(why, "broken padding: an archive does not start on a 4-byte boundary");
	} else if (it->pos == it->size) {
		return CPIO_END; /* the last archive had no trailer: what it held is whole */
	}
	h = buf + it->pos;
	if (it->size - it->pos < HDR_LEN)
		return bad(why, memcmp(h, "0707", MIN(it->size - it->pos, (size_t)4)) ?
				not_a_header(h, it->size - it->pos) : "truncated header");
	if (memcmp(h, "070701", 6) && memcmp(h, "070702", 6))
		return bad(why, not_a_header(h, it->size - it->pos));
	crc = h[5] == '2';
	for (int i = 0; i < 13; i++)
		if (hex8(h + FIELD(i), &f[i]))
			return bad(why, "a header field is not hexadecimal");
	if (!f[F_NAMESIZE])
		return bad(why, "an entry without a name");
	name_at = it->pos + HDR_LEN;
	if (f[F_NAMESIZE] > it->size - name_at)
		return bad(why, "a name runs past the archive");
	if (buf[name_at + f[F_NAMESIZE] - 1] != '\0' ||
	    memchr(buf + name_at, '\0', f[F_NAMESIZE]) != buf + name_at + f[F_NAMESIZE] - 1)
		return bad(why, "a name is not NUL-terminated where its size says");
	data_at = pad4(name_at + f[F_NAMESIZE]);
	if (data_at > it->size || f[F_FILESIZE] > it->size - data_at)
		return bad(why, "file data runs past the archive");
	e->name = buf + name_at;
	e->data = buf + data_at;
	e->size = f[F_FILESIZE];
	e->mode = f[F_MODE];
	e->mtime = f[F_MTIME];
	e->ino = f[F_INO];
	e->nlink = f[F_NLINK];
	e->dev_major = f[F_DEVMAJOR];
	e->dev_minor = f[F_DEVMINOR];
	if (crc && (e->mode & CPIO_S_IFMT) == CPIO_S_IFREG) {
		const u8 *d = e->data;
		u32 sum = 0;

		/* newc-crc's "checksum": the sum of the data's bytes */
		for (u64 i = 0; i < e->size; i++)
			sum += d[i];
		if (sum != f[F_CHECK])
			return bad(why, "a file's data does not match its checksum (070702)");
	}
	it->pos = MIN(pad4(data_at + f[F_FILESIZE]), it->size);
	it->between = !strcmp(e->name, "TRAILER!!!");
	return it->between ? CPIO_TRAILER : CPIO_ENTRY;
}
