/* SPDX-License-Identifier: MIT */
/*
 * What the code asks of the compiler beyond C (Linux: compiler_types.h and
 * compiler_attributes.h): placement, layout, branch hints and inlining.
 * Attributes are spelled with underscores (__noinline__) so that a macro
 * of the plain name never rewrites them.
 */
#ifndef PAGODA_COMPILER_H
#define PAGODA_COMPILER_H

#define __unused __attribute__((__unused__))
#define __used __attribute__((__used__))
#define __noreturn __attribute__((__noreturn__))
#define __packed __attribute__((__packed__))
#define __aligned(x) __attribute__((__aligned__(x)))
#define __section(s) __attribute__((__section__(s)))
#define __printf(a, b) __attribute__((__format__(printf, a, b)))
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

/* Never inlined: a cold path kept out of its caller, or a symbol a test needs. */
#define noinline __attribute__((__noinline__))

/*
 * Inlined whatever gcc's size estimate says: a hot path's steps folded
 * into the few functions an operation passes through (mm/page_alloc.c:
 * one call per step instead of a chain of them, each with its prologue;
 * measured with make bench-host).
 */
#define __hot_inline inline __attribute__((__always_inline__))

/* A switch case that goes on into the next on purpose. */
#define fallthrough __attribute__((__fallthrough__))

/*
 * A local put on every return (Linux's cleanup.h): `T *x __free(name)`
 * calls __free_name(&x) when x goes out of scope; the header of T's
 * type defines __free_name.
 */
#define __free(name) __attribute__((__cleanup__(__free_##name)))

#endif
