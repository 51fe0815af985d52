// SPDX-License-Identifier: MIT
/*
 * A reader for cpio "newc" archives, Linux's initramfs format. Nothing in
 * the archive is trusted: every field must be eight hex digits, every name
 * must end in its NUL inside the buffer, every data block must fit.
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

int cpio_next(const void *buf, size_t size, size_t *pos, struct cpio_entry *e,
	      const char **why)
{
	const char *h = (const char *)buf + *pos;
	u32 f[13];
	size_t name_at, data_at, end;

	*why = "";
	if (*pos > size)
		return bad(why, "position past the archive");
	/* Trailing zeros (padding to a block) end the archive too. */
	if (size - *pos < HDR_LEN) {
		for (size_t i = *pos; i < size; i++)
			if (((const char *)buf)[i])
				return bad(why, "truncated header");
		return 0;
	}
	if (memcmp(h, "070701", 6) && memcmp(h, "070702", 6)) {
		for (size_t i = *pos; i < size; i++)
			if (((const char *)buf)[i])
				return bad(why, "not a newc header (magic 070701)");
		return 0;
	}
	for (int i = 0; i < 13; i++)
		if (hex8(h + FIELD(i), &f[i]))
			return bad(why, "a header field is not hexadecimal");
	if (!f[F_NAMESIZE])
		return bad(why, "an entry without a name");
	name_at = *pos + HDR_LEN;
	if (f[F_NAMESIZE] > size - name_at)
		return bad(why, "a name runs past the archive");
	if (((const char *)buf)[name_at + f[F_NAMESIZE] - 1] != '\0' ||
	    memchr((const char *)buf + name_at, '\0', f[F_NAMESIZE]) !=
		    (const char *)buf + name_at + f[F_NAMESIZE] - 1)
		return bad(why, "a name is not NUL-terminated where its size says");
	data_at = pad4(name_at + f[F_NAMESIZE]);
	if (data_at > size || f[F_FILESIZE] > size - data_at)
		return bad(why, "file data runs past the archive");
	e->name = (const char *)buf + name_at;
	if (!strcmp(e->name, "TRAILER!!!"))
		return 0;
	e->data = (const char *)buf + data_at;
	e->size = f[F_FILESIZE];
	e->mode = f[F_MODE];
	e->mtime = f[F_MTIME];
	end = pad4(data_at + f[F_FILESIZE]);
	*pos = MIN(end, size);
	return 1;
}
