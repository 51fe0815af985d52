/* SPDX-License-Identifier: MIT */
/*
 * What the libFuzzer targets share: the entry point libFuzzer calls, and
 * the few C library calls they make. The host build sees the kernel's
 * headers, not the C library's (tests/host/host_prefix.h), so these are
 * declared by hand, once.
 */
#ifndef TESTS_HOST_FUZZ_H
#define TESTS_HOST_FUZZ_H

#include <pagoda/types.h>

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);
extern void abort(void);
extern void *malloc(unsigned long size);
extern void free(void *p);

#endif
