/* SPDX-License-Identifier: MIT */
/*
 * Random numbers.
 *
 * struct rng is a ChaCha20 keystream used as a generator: 256-bit key,
 * 64-bit block counter, 64 bytes of output per block. Seeded from a 64-bit
 * number it is a reproducible stream (the shuffle's page_alloc.shuffle_seed,
 * the lab's runs); seeded from hardware entropy it is the kernel's CSPRNG.
 *
 * The kernel RNG (get_random_*) is seeded at boot from the CPU's random
 * instruction when it has one (RDSEED/RDRAND, RNDR) and from timer jitter,
 * and rekeys itself from its own output after each request so an earlier
 * output cannot be recomputed from a later state.
 */
#ifndef PAGODA_RANDOM_H
#define PAGODA_RANDOM_H

#include <pagoda/types.h>

struct rng {
	u32 key[8];
	u64 counter;
	u32 block[16];
	unsigned int pos; /* next unused word of block; 16 = empty */
};

void rng_seed(struct rng *r, u64 seed);
void rng_seed_bytes(struct rng *r, const void *seed, size_t len);
u32 rng_u32(struct rng *r);
u64 rng_u64(struct rng *r);
/* Uniform in [0, bound), without modulo bias; bound > 0. */
u64 rng_below(struct rng *r, u64 bound);
/*
 * perm[0..n) becomes 0..n-1 in an order drawn from r (Fisher-Yates): the
 * same seed gives the same order, so the page allocator's bench in the
 * kernel and its host twin free in one and the same "random" order.
 */
void rng_permutation(struct rng *r, unsigned int *perm, unsigned int n);

/* One ChaCha20 block (RFC 8439 layout), exposed for its test vector. */
void chacha20_block(const u32 key[8], u64 counter, const u32 nonce[2],
		    u32 out[16]);

/* The kernel RNG. */
void random_init(void);
const char *random_sources(void); /* what seeded it, for the boot log */
u64 get_random_u64(void);
u32 get_random_u32(void);
void get_random_bytes(void *buf, size_t len);

#endif
