// SPDX-License-Identifier: MIT
/*
 * /dev/null, /dev/zero, /dev/full, /dev/random and /dev/urandom, with
 * the answers of Linux's drivers/char/mem.c and drivers/char/random.c:
 *
 * - null reads end-of-file and takes any write whole, without reading it;
 * - zero reads zeros and takes any write whole;
 * - full reads zeros and refuses every write with -ENOSPC;
 * - random and urandom read the kernel's random bytes (the same
 *   generator as getrandom(); Linux's random no longer blocks once it is
 *   seeded, which Pagoda's is at boot) and take writes, as added input
 *   Pagoda does not mix in.
 *
 * A read that runs into a hole in the buffer is short, or -EFAULT when
 * nothing moved, as Linux's copy to an iov_iter.
 */
#include <pagoda/chrdev.h>
#include <pagoda/random.h>
#include <pagoda/string.h>
#include <pagoda/uio.h>

#define MEM_MAJOR 1

static long read_null(struct iov_iter *it)
{
	(void)it;
	return 0;
}

static long write_null(struct iov_iter *it, size_t count)
{
	(void)it;
	return (long)count;
}

/* Fill the buffers from fill(chunk, n): the bytes copied, or -EFAULT for none. */
static long read_filled(struct iov_iter *it, void (*fill)(u8 *buf, size_t n))
{
	u8 chunk[256];
	long done = 0;

	while (iov_iter_count(it)) {
		size_t n = MIN(iov_iter_count(it), sizeof(chunk)), copied;

		fill(chunk, n);
		copied = copy_to_iter(chunk, n, it);
		done += (long)copied;
		if (copied < n)
			return done ? done : -EFAULT;
	}
	return done;
}

static void fill_zero(u8 *buf, size_t n)
{
	memset(buf, 0, n);
}

static void fill_random(u8 *buf, size_t n)
{
	get_random_bytes(buf, n);
}

static long read_zero(struct iov_iter *it)
{
	return read_filled(it, fill_zero);
}

static long write_full(struct iov_iter *it, size_t count)
{
	(void)it;
	(void)count;
	return -ENOSPC;
}

static long read_random(struct iov_iter *it)
{
	return read_filled(it, fill_random);
}

/* Written bytes are read (a hole is -EFAULT, as Linux's) and not mixed in. */
static long write_random(struct iov_iter *it, size_t count)
{
	u8 chunk[256];
	long done = 0;

	while (iov_iter_count(it)) {
		size_t n = MIN(iov_iter_count(it), sizeof(chunk)), copied;

		copied = copy_from_iter(chunk, n, it);
		done += (long)copied;
		if (copied < n)
			return done ? done : -EFAULT;
	}
	(void)count;
	return done;
}

static const struct chrdev mem_devices[] = {
	{ "dev/null", MEM_MAJOR, 3, read_null, write_null },
	{ "dev/zero", MEM_MAJOR, 5, read_zero, write_null },
	{ "dev/full", MEM_MAJOR, 7, read_zero, write_full },
	{ "dev/random", MEM_MAJOR, 8, read_random, write_random },
	{ "dev/urandom", MEM_MAJOR, 9, read_random, write_random },
};

const struct chrdev *chrdev_get(unsigned int i)
{
	return i < ARRAY_SIZE(mem_devices) ? &mem_devices[i] : NULL;
}
