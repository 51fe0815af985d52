// SPDX-License-Identifier: MIT
/*
 * A tmpfs file's data: a shmem object (mm/shmem.c), as Linux's tmpfs is
 * shmem, so read and write here and a MAP_SHARED mapping of the file
 * (tmpfs_mmap) see the same pages. A page is allocated when a write (or
 * a mapping's touch) first reaches it; a hole reads as zeros. Shrinking
 * drops the pages past the new end and clears the rest of the last one,
 * so a later extension reads zeros there, as Linux's truncate_setsize()
 * guarantees. Writes stop at half of RAM in shared memory (tmpfs's
 * default size=50%, here counted over every tmpfs and shared mapping
 * together): -ENOSPC past it.
 */
#include <pagoda/file.h>
#include <pagoda/mm.h>
#include <pagoda/process.h>
#include <pagoda/shmem.h>
#include <pagoda/slab.h>
#include <pagoda/string.h>
#include <pagoda/timer.h>
#include <pagoda/uio.h>
#include "internal.h"

/* Every shared memory page, tmpfs's among them: /proc/meminfo's Shmem. */
unsigned long shmem_pages;

int tmpfs_new_data(struct tmpfs_inode *inode)
{
	inode->data = shmem_zero_setup(NULL, 0, false); /* size 0, the inode's reference */
	return inode->data ? 0 : -ENOMEM;
}

void tmpfs_free_data(struct tmpfs_inode *inode)
{
	if (inode->data)
		shmem_put(inode->data);
	inode->data = NULL;
}

u64 tmpfs_blocks(struct tmpfs_inode *inode)
{
	return inode->data ? shmem_nr_resident(inode->data) * (PAGE_SIZE / 512) : 0;
}

/*
 * The page for index i with a holder for the caller, allocated (zeroed)
 * if it is a hole: NULL with *err when out of space.
 */
static struct page *get_page(struct tmpfs_inode *inode, unsigned long i, int *err)
{
	struct page *pg;

	if (!shmem_find_page(inode->data, i) &&
	    __atomic_load_n(&shmem_pages, __ATOMIC_RELAXED) >= totalram_pages() / 2) {
		*err = -ENOSPC;
		return NULL;
	}
	*err = shmem_get_page(inode->data, i, &pg);
	if (*err) {
		*err = -ENOSPC; /* Linux's shmem answers -ENOSPC, not -ENOMEM, here too */
		return NULL;
	}
	return pg;
}

static unsigned long pages_for(u64 size)
{
	return (unsigned long)((size + PAGE_SIZE - 1) / PAGE_SIZE);
}

int tmpfs_setsize(struct tmpfs_inode *inode, u64 size)
{
	size_t tail = size & (PAGE_SIZE - 1);
	int err;

	if (!inode->data)
		return S_ISDIR(inode->mode) ? -EISDIR : -EINVAL; /* only a file has a size to set */
	err = shmem_resize(inode->data, pages_for(size));
	if (err)
		return err;
	if (size < inode->size && tail) {
		struct page *pg = shmem_find_page(inode->data, size / PAGE_SIZE);

		if (pg)
			memset((u8 *)page_address(pg) + tail, 0, PAGE_SIZE - tail);
	}
	inode->size = size;
	inode->mtime = (s64)(ktime_get_real_ns() / 1000000000ULL);
	return 0;
}

/* Zero [from, to) of the file (within one page) where a page is there. */
static void zero_part(struct tmpfs_inode *inode, u64 from, u64 to)
{
	struct page *pg = shmem_find_page(inode->data, (unsigned long)(from / PAGE_SIZE));

	if (pg && to > from)
		memset((u8 *)page_address(pg) + (from & (PAGE_SIZE - 1)), 0, to - from);
}

/*
 * FALLOC_FL_PUNCH_HOLE: whole pages of [start, end) go, the others' parts
 * are zeroed. The pages leave the object first, then every mapping
 * (Linux unmaps first and holds faults off meanwhile; in this order a
 * fault in between finds the hole and gets a new zeroed page, as one
 * after). A private mapping's own copies stay, as on Linux.
 */
static void punch_hole(struct tmpfs_inode *inode, u64 start, u64 end)
{
	u64 first = ALIGN_UP(start, PAGE_SIZE), last = ALIGN_DOWN(end, PAGE_SIZE);

	if (first > last) { /* inside one page */
		zero_part(inode, start, end);
		return;
	}
	zero_part(inode, start, first);
	zero_part(inode, last, end);
	shmem_punch(inode->data, (unsigned long)(first / PAGE_SIZE),
		    (unsigned long)(last / PAGE_SIZE));
	unmap_mapping_range(inode->data, (unsigned long)(first / PAGE_SIZE),
			    (unsigned long)(last / PAGE_SIZE), false);
}

/*
 * fallocate (Linux's shmem_fallocate()): mode 0 makes the range's pages
 * now, so that writing there later cannot fail for want of room, and
 * moves the size over it; FALLOC_FL_KEEP_SIZE makes them without moving
 * the size (here only those before the end: the object ends where the
 * file does, where Linux keeps pages past it too); with FALLOC_FL_PUNCH_HOLE
 * the range reads as zeros and its whole pages are freed, from the
 * mappings too.
 */
static int tmpfs_fallocate(struct file *f, int mode, u64 offset, u64 len)
{
	struct tmpfs_inode *inode = f->private_data;
	u64 end = offset + len, upto;
	int err = 0;

	if (mode & ~(FALLOC_FL_KEEP_SIZE | FALLOC_FL_PUNCH_HOLE))
		return -EOPNOTSUPP;
	mutex_lock(&inode->sb->lock);
	if (mode & FALLOC_FL_PUNCH_HOLE) {
		if (offset < inode->size)
			punch_hole(inode, offset, MIN(end, inode->size));
		goto out;
	}
	if (!(mode & FALLOC_FL_KEEP_SIZE) && end > inode->size)
		err = shmem_resize(inode->data, pages_for(end));
	upto = mode & FALLOC_FL_KEEP_SIZE ? MIN(end, (u64)pages_for(inode->size) * PAGE_SIZE) : end;
	for (u64 at = ALIGN_DOWN(offset, PAGE_SIZE); !err && at < upto; at += PAGE_SIZE) {
		struct page *pg;

		/*
		 * A signal ends a long one with -EINTR, as Linux's
		 * shmem_fallocate(): a kill must not wait for gigabytes of
		 * pages, nor every tmpfs user behind sb->lock.
		 */
		if (signal_pending_thread(current_process())) {
			err = -EINTR;
			break;
		}
		pg = get_page(inode, (unsigned long)(at / PAGE_SIZE), &err);

		if (pg)
			shmem_page_put(pg);
	}
	if (!err && !(mode & FALLOC_FL_KEEP_SIZE) && end > inode->size) {
		inode->size = end;
		inode->mtime = (s64)(ktime_get_real_ns() / 1000000000ULL);
	} else if (err) {
		shmem_resize(inode->data, pages_for(inode->size)); /* the size stays */
	}
out:
	mutex_unlock(&inode->sb->lock);
	return err;
}

static long tmpfs_read(struct file *f, struct iov_iter *to, u64 *pos)
{
	struct tmpfs_inode *inode = f->private_data;
	long done = 0;

	mutex_lock(&inode->sb->lock);
	while (iov_iter_count(to) && *pos < inode->size) {
		unsigned long i = (unsigned long)(*pos / PAGE_SIZE);
		size_t off = *pos & (PAGE_SIZE - 1);
		size_t n = MIN(MIN(iov_iter_count(to), PAGE_SIZE - off), (size_t)(inode->size - *pos));
		static const u8 zeros[256];
		size_t copied;

		struct page *pg = shmem_find_page(inode->data, i);

		if (pg) {
			copied = copy_to_iter((u8 *)page_address(pg) + off, n, to);
		} else {
			n = MIN(n, sizeof(zeros));
			copied = copy_to_iter(zeros, n, to);
		}
		done += (long)copied;
		*pos += copied;
		if (copied < n)
			break;
	}
	mutex_unlock(&inode->sb->lock);
	return done || !iov_iter_count(to) ? done : (*pos >= inode->size ? 0 : -EFAULT);
}

static long tmpfs_write(struct file *f, struct iov_iter *from, u64 *pos)
{
	struct tmpfs_inode *inode = f->private_data;
	long done = 0;
	int err = 0;

	mutex_lock(&inode->sb->lock);
	if (f->f_flags & O_APPEND)
		*pos = inode->size;
	while (iov_iter_count(from)) {
		unsigned long i = (unsigned long)(*pos / PAGE_SIZE);
		size_t off = *pos & (PAGE_SIZE - 1);
		size_t n = MIN(iov_iter_count(from), PAGE_SIZE - off), copied;
		struct page *pg;

		/* The object grows a page ahead of the size: back below if nothing lands. */
		err = i < pages_for(inode->size) ? 0 : shmem_resize(inode->data, i + 1);
		pg = err ? NULL : get_page(inode, i, &err);
		if (!pg)
			break;
		copied = copy_from_iter((u8 *)page_address(pg) + off, n, from);
		shmem_page_put(pg);
		done += (long)copied;
		*pos += copied;
		if (*pos > inode->size)
			inode->size = *pos;
		if (copied < n) {
			err = -EFAULT;
			break;
		}
	}
	if (pages_for(inode->size) != shmem_size(inode->data))
		shmem_resize(inode->data, pages_for(inode->size));
	if (done)
		inode->mtime = (s64)(ktime_get_real_ns() / 1000000000ULL);
	mutex_unlock(&inode->sb->lock);
	return done ? done : err;
}

static int tmpfs_file_getattr(struct file *f, struct kstat *k)
{
	struct tmpfs_inode *inode = f->private_data;

	mutex_lock(&inode->sb->lock);
	tmpfs_fill_kstat(inode, k);
	mutex_unlock(&inode->sb->lock);
	return 0;
}

static int tmpfs_file_truncate(struct file *f, u64 size)
{
	struct tmpfs_inode *inode = f->private_data;
	int err;

	mutex_lock(&inode->sb->lock);
	err = tmpfs_setsize(inode, size);
	mutex_unlock(&inode->sb->lock);
	return err;
}

static void tmpfs_release(struct file *f)
{
	struct tmpfs_inode *inode = f->private_data;
	struct tmpfs_sb *sb = inode->sb;

	mutex_lock(&sb->lock);
	tmpfs_iput(inode);
	mutex_unlock(&sb->lock);
}

/* A mapping of the file maps its data object (mm/shmem.c), shared or privately. */
static struct shmem_object *tmpfs_mmap(struct file *f)
{
	struct tmpfs_inode *inode = f->private_data;

	shmem_get(inode->data);
	return inode->data;
}

const struct file_operations tmpfs_file_operations = {
	.read = tmpfs_read,
	.write = tmpfs_write,
	.getattr = tmpfs_file_getattr,
	.truncate = tmpfs_file_truncate,
	.release = tmpfs_release,
	.mmap = tmpfs_mmap,
	.fallocate = tmpfs_fallocate,
};
