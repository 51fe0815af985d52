/* SPDX-License-Identifier: MIT */
/*
 * Shared anonymous memory (mm/shmem.c): the object behind a
 * MAP_SHARED | MAP_ANONYMOUS mapping, shared by every area made from it.
 */
#ifndef PAGODA_SHMEM_H
#define PAGODA_SHMEM_H

#include <pagoda/types.h>

struct page;
struct process;
struct shmem_object;

/*
 * A new object of `pages` zero pages, one reference (the caller's area);
 * account: promise its size now, for p (mm/util.c). NULL: no memory, or
 * the promise refused.
 */
struct shmem_object *shmem_zero_setup(struct process *p, unsigned long pages, bool account);
/* An area more, or fewer, points at obj; the last shmem_put() frees it and its pages. */
void shmem_get(struct shmem_object *obj);
void shmem_put(struct shmem_object *obj);
/* The references held now (System V's shm_nattch counts its areas from it). */
int shmem_users(const struct shmem_object *obj);
/*
 * The page at index, made (zeroed) on first use, with one holder more for
 * the caller's page-table entry: 0, -EIO past the object's end (SIGBUS)
 * or -ENOMEM. shmem_page_put() gives the holder back.
 */
int shmem_get_page(struct shmem_object *obj, unsigned long index, struct page **pgp);
void shmem_page_put(struct page *pg);

#endif
