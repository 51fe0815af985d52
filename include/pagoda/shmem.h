/* SPDX-License-Identifier: MIT */
/*
 * Shared memory (mm/shmem.c): the object behind a MAP_SHARED |
 * MAP_ANONYMOUS mapping, a System V segment, or a tmpfs file's data
 * (memfd_create's too), shared by every area made from it.
 */
#ifndef PAGODA_SHMEM_H
#define PAGODA_SHMEM_H

#include <pagoda/compiler.h>
#include <pagoda/types.h>

struct page;
struct process;
struct shmem_object;
struct vm_area;

/*
 * A new object of `pages` zero pages, one reference (the caller's area);
 * account: promise its size now, for p (mm/util.c). NULL: no memory, or
 * the promise refused.
 */
struct shmem_object *shmem_zero_setup(struct process *p, unsigned long pages, bool account);
/*
 * An unlinked tmpfs file called name, on the kernel's own mount (Linux's
 * shm_mnt), open for reading and writing: memfd_create's. The file, or
 * ERR_PTR(-ENOMEM). fs/ramfs/inode.c.
 */
struct file *shmem_file_setup(const char *name);
/*
 * Make obj `pages` long (a tmpfs file's truncate or growth): the pages
 * past a new end lose the object's hold and are unmapped from every area
 * (unmap_mapping_range(), copies too), so a touch there is SIGBUS.
 * 0, -ENOMEM or -EFBIG.
 */
int shmem_resize(struct shmem_object *obj, unsigned long pages);
/* An area more, or fewer, points at obj; the last shmem_put() frees it and its pages. */
void shmem_get(struct shmem_object *obj);
void shmem_put(struct shmem_object *obj);
/* For `struct shmem_object *obj __free(shmem_put)`: put unless NULL. */
static inline void __free_shmem_put(struct shmem_object **obj)
{
	if (*obj)
		shmem_put(*obj);
}
/* The references held now (System V's shm_nattch counts its areas from it). */
int shmem_users(const struct shmem_object *obj);
/*
 * The page at index, made (zeroed) on first use, with one holder more for
 * the caller's page-table entry: 0, -EIO past the object's end (SIGBUS)
 * or -ENOMEM. shmem_page_put() gives the holder back.
 */
int shmem_get_page(struct shmem_object *obj, unsigned long index, struct page **pgp);
void shmem_page_put(struct page *pg);
/*
 * The page at index if the object holds one, else NULL (a hole); no
 * holder is added, so the caller keeps shmem_resize() away meanwhile.
 */
struct page *shmem_find_page(struct shmem_object *obj, unsigned long index);
/* Copy n bytes from byte off of obj into buf; a hole, or past the end, reads as zeros. */
void shmem_read(struct shmem_object *obj, u64 off, void *buf, size_t n);
/* The object lets go of its pages first..end-1 (fallocate's hole); they go once unmapped. */
void shmem_punch(struct shmem_object *obj, unsigned long first, unsigned long end);
/*
 * The object's areas (Linux's i_mmap): v (whose shm is the object) is
 * linked in when made, after `after` (its original: split, fork) or last,
 * and unlinked when freed. Neither under a page_table_lock.
 */
void vma_link_file(struct vm_area *v, struct vm_area *after);
void unlink_file_vma(struct vm_area *v);
/* Held while an area of obj moves or changes its start, end or pgoff. */
void i_mmap_lock_write(struct shmem_object *obj);
void i_mmap_unlock_write(struct shmem_object *obj);
/*
 * Take the object's pages first..end-1 out of every area that maps them
 * (Linux's unmap_mapping_range()); even_cows: a private area's own copies
 * of them too (truncate), else only the object's pages (a punched hole).
 */
void unmap_mapping_range(struct shmem_object *obj, unsigned long first, unsigned long end,
			 bool even_cows);
/* Its size in pages. */
unsigned long shmem_size(struct shmem_object *obj);
/* How many pages it holds (a tmpfs file's st_blocks). */
unsigned long shmem_nr_resident(struct shmem_object *obj);

#endif
