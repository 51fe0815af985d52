// SPDX-License-Identifier: MIT
/*
 * Walking a program's I/O vectors (include/pagoda/uio.h), after Linux's
 * lib/iov_iter.c: the segments are checked once when imported, and each
 * copy goes through copy_to_user()/copy_from_user(), so a hole in the
 * middle of a buffer stops the copy at the byte before it and the caller
 * decides what a short copy means (a file counts it, a pipe does not).
 */
#include <pagoda/slab.h>
#include <pagoda/uaccess.h>
#include <pagoda/uio.h>

/* Move the iterator on by n bytes (n no more than what is left in iov[0]). */
static void iter_advance(struct iov_iter *i, size_t n)
{
	i->iov_offset += n;
	i->count -= n;
	while (i->nr_segs && i->iov_offset == i->iov[0].iov_len) {
		i->iov++;
		i->nr_segs--;
		i->iov_offset = 0;
	}
}

size_t copy_to_iter(const void *src, size_t n, struct iov_iter *i)
{
	size_t done = 0;

	n = MIN(n, i->count);
	while (done < n) {
		size_t chunk = MIN(n - done, i->iov[0].iov_len - i->iov_offset);
		size_t left = copy_to_user(i->iov[0].iov_base + i->iov_offset,
					   (const u8 *)src + done, chunk);

		iter_advance(i, chunk - left);
		done += chunk - left;
		if (left)
			break;
	}
	return done;
}

size_t copy_from_iter(void *dst, size_t n, struct iov_iter *i)
{
	size_t done = 0;

	n = MIN(n, i->count);
	while (done < n) {
		size_t chunk = MIN(n - done, i->iov[0].iov_len - i->iov_offset);
		size_t left = copy_from_user((u8 *)dst + done,
					     i->iov[0].iov_base + i->iov_offset, chunk);

		iter_advance(i, chunk - left);
		done += chunk - left;
		if (left)
			break;
	}
	return done;
}

static void iter_init(struct iov_iter *i, const struct iovec *iov, unsigned long nr,
		      size_t count)
{
	*i = (struct iov_iter){ .iov = iov, .nr_segs = nr, .count = count };
	/* Empty segments first would stop copy_*_iter() before it starts. */
	iter_advance(i, 0);
}

int import_single_range(u64 buf, size_t len, struct iovec *iov, struct iov_iter *i)
{
	if (!access_ok(buf, len))
		return -EFAULT;
	len = MIN(len, MAX_RW_COUNT);
	*iov = (struct iovec){ .iov_base = buf, .iov_len = len };
	iter_init(i, iov, 1, len);
	return 0;
}

int import_iovec(u64 uvec, unsigned long nr, struct iovec *fast, struct iovec **iovp,
		 struct iov_iter *i)
{
	struct iovec *iov = fast;
	size_t total = 0;

	*iovp = fast;
	if (nr > UIO_MAXIOV)
		return -EINVAL;
	if (nr > UIO_FASTIOV) {
		iov = kmalloc(nr * sizeof(*iov), GFP_KERNEL);
		if (!iov)
			return -ENOMEM;
	}
	if (nr && copy_from_user(iov, uvec, nr * sizeof(*iov)))
		goto fault;
	for (unsigned long s = 0; s < nr; s++) {
		if ((s64)iov[s].iov_len < 0)
			goto invalid;
		if (!access_ok(iov[s].iov_base, iov[s].iov_len))
			goto fault;
		/* Past MAX_RW_COUNT the rest is cut off, not refused (Linux). */
		iov[s].iov_len = MIN(iov[s].iov_len, MAX_RW_COUNT - total);
		total += iov[s].iov_len;
	}
	iter_init(i, iov, nr, total);
	*iovp = iov;
	return 0;
invalid:
	if (iov != fast)
		kfree(iov);
	return -EINVAL;
fault:
	if (iov != fast)
		kfree(iov);
	return -EFAULT;
}
