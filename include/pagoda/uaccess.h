/* SPDX-License-Identifier: MIT */
/*
 * Reaching user memory from the kernel: only through these, which refuse a
 * range that is not wholly in the user half and survive a fault inside it
 * (the arch's copy routines sit in the exception table). Both return the
 * number of bytes not copied, 0 on success, as Linux's do.
 */
#ifndef PAGODA_UACCESS_H
#define PAGODA_UACCESS_H

#include <pagoda/arch.h>

static inline bool access_ok(u64 addr, u64 size)
{
	return addr <= TASK_SIZE && size <= TASK_SIZE - addr;
}

static inline unsigned long copy_from_user(void *to, u64 from, unsigned long n)
{
	if (!access_ok(from, n))
		return n;
	return arch_copy_from_user(to, (const void *)from, n);
}

static inline unsigned long copy_to_user(u64 to, const void *from, unsigned long n)
{
	if (!access_ok(to, n))
		return n;
	return arch_copy_to_user((void *)to, from, n);
}

#endif
