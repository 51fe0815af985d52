/* SPDX-License-Identifier: MIT */
/*
 * Error pointers, as in Linux: a function returning a pointer can return a
 * negative errno in it instead (the top 4095 addresses are never valid).
 */
#ifndef PAGODA_ERR_H
#define PAGODA_ERR_H

#include <pagoda/types.h>

#define MAX_ERRNO 4095

#define IS_ERR_VALUE(x) ((unsigned long)(void *)(x) >= (unsigned long)-MAX_ERRNO)

static inline void *ERR_PTR(long error)
{
	return (void *)error;
}

static inline long PTR_ERR(const void *ptr)
{
	return (long)ptr;
}

static inline bool IS_ERR(const void *ptr)
{
	return IS_ERR_VALUE((unsigned long)ptr);
}

static inline bool IS_ERR_OR_NULL(const void *ptr)
{
	return !ptr || IS_ERR_VALUE((unsigned long)ptr);
}

#endif
