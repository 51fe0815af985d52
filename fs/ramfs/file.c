// SPDX-License-Identifier: MIT
/*
 * A tmpfs file's data: whole pages from the page allocator, one slot per
 * page of the file (Linux keeps them in the page cache; a plain array is
 * enough for files this small). A page is allocated when a write first
 * reaches it; a hole reads as zeros. Shrinking frees the pages past the
 * new end and clears the rest of the last one, so a later extension reads
 * zeros there, as Linux's truncate_setsize() guarantees. The mount may
 * hold at most half of RAM (tmpfs's default size=50%): -ENOSPC past it.
 */
#include <pagoda/file.h>
#include <pagoda/mm.h>
#include <pagoda/process.h>
#include <pagoda/slab.h>
#include <pagoda/string.h>
#include <pagoda/timer.h>
#include <pagoda/uio.h>
#include "internal.h"

/* Every tmpfs's data pages: /proc/meminfo's Shmem. */
unsigned long shmem_pages;

/* Room for slot index i: 0 or -ENOMEM. */
static int grow_slots(struct tmpfs_inode *inode, unsigned long i)
{
	unsigned long n = inode->nr_slots ? inode->nr_slots : 4;
	void **slots;

	if (i < inode->nr_slots)
		return 0;
	while (n <= i)
		n *= 2;
	slots = kzalloc(n * sizeof(*slots), GFP_KERNEL);
	if (!slots)
		return -ENOMEM;
	if (inode->pages)
		memcpy(slots, inode->pages, inode->nr_slots * sizeof(*slots));
	kfree(inode->pages);
	inode->pages = slots;
	inode->nr_slots = n;
	return 0;
}

/* The page for slot i, allocated (zeroed) if it is a hole: NULL when out of space. */
static void *get_page(struct tmpfs_inode *inode, unsigned long i, int *err)
{
	struct tmpfs_sb *sb = inode->sb;
	struct page *page;

	*err = grow_slots(inode, i);
	if (*err)
		return NULL;
	if (inode->pages[i])
		return inode->pages[i];
	if (sb->nr_pages >= totalram_pages() / 2) {
		*err = -ENOSPC;
		return NULL;
	}
	page = alloc_page(GFP_KERNEL);
	if (!page) {
		*err = -ENOSPC; /* Linux's shmem answers -ENOSPC, not -ENOMEM, here too */
		return NULL;
	}
	inode->pages[i] = page_address(page);
	memset(inode->pages[i], 0, PAGE_SIZE);
	sb->nr_pages++;
	__atomic_add_fetch(&shmem_pages, 1, __ATOMIC_RELAXED);
	return inode->pages[i];
}

static void put_page_slot(struct tmpfs_inode *inode, unsigned long i)
{
	if (i < inode->nr_slots && inode->pages[i]) {
		free_page((unsigned long)inode->pages[i]);
		inode->pages[i] = NULL;
		inode->sb->nr_pages--;
		__atomic_sub_fetch(&shmem_pages, 1, __ATOMIC_RELAXED);
	}
}

int tmpfs_setsize(struct tmpfs_inode *inode, u64 size)
{
	unsigned long first_gone = (unsigned long)((size + PAGE_SIZE - 1) / PAGE_SIZE);

	if (size < inode->size) {
		for (unsigned long i = first_gone; i < inode->nr_slots; i++)
			put_page_slot(inode, i);
		if ((size & (PAGE_SIZE - 1)) && size / PAGE_SIZE < inode->nr_slots &&
		    inode->pages[size / PAGE_SIZE])
			memset((u8 *)inode->pages[size / PAGE_SIZE] + (size & (PAGE_SIZE - 1)), 0,
			       PAGE_SIZE - (size & (PAGE_SIZE - 1)));
	}
	inode->size = size;
	inode->mtime = (s64)(ktime_get_real_ns() / 1000000000ULL);
	return 0;
}

/* Every page, and the slot array: the inode's last reference went. */
void tmpfs_free_data(struct tmpfs_inode *inode)
{
	for (unsigned long i = 0; i < inode->nr_slots; i++)
		put_page_slot(inode, i);
	kfree(inode->pages);
	inode->pages = NULL;
	inode->nr_slots = 0;
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

		if (i < inode->nr_slots && inode->pages[i]) {
			copied = copy_to_iter((u8 *)inode->pages[i] + off, n, to);
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
		void *page = get_page(inode, i, &err);

		if (!page)
			break;
		copied = copy_from_iter((u8 *)page + off, n, from);
		done += (long)copied;
		*pos += copied;
		if (*pos > inode->size)
			inode->size = *pos;
		if (copied < n) {
			err = -EFAULT;
			break;
		}
	}
	if (done)
		inode->mtime = (s64)(ktime_get_real_ns() / 1000000000ULL);
	mutex_unlock(&inode->sb->lock);
	return done ? done : err;
}

static int tmpfs_file_getattr(struct file *f, struct kstat *k)
{
	struct tmpfs_inode *inode = f->private_data;

	mutex_lock(&inode->sb->lock);
	*k = (struct kstat){ .ino = inode->ino, .nlink = inode->nlink, .size = inode->size,
			     .mode = inode->mode, .blksize = PAGE_SIZE, .mtime = inode->mtime };
	for (unsigned long i = 0; i < inode->nr_slots; i++)
		if (inode->pages[i])
			k->blocks += PAGE_SIZE / 512;
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

const struct file_operations tmpfs_file_operations = {
	.read = tmpfs_read,
	.write = tmpfs_write,
	.getattr = tmpfs_file_getattr,
	.truncate = tmpfs_file_truncate,
	.release = tmpfs_release,
};
