// SPDX-License-Identifier: MIT
/*
 * ChaCha20 as a random generator (see include/pagoda/random.h).
 *
 * Each refill computes one 64-byte block; its first half becomes the next
 * key and only the second half is handed out ("fast key erasure"): whoever
 * reads the state later learns nothing about outputs already given.
 */
#include <pagoda/arch.h>
#include <pagoda/random.h>
#include <pagoda/printk.h>
#include <pagoda/spinlock.h>
#include <pagoda/string.h>

static inline u32 rotl32(u32 v, int n)
{
	return (v << n) | (v >> (32 - n));
}

#define QUARTERROUND(x, a, b, c, d)                      \
	do {                                             \
		x[a] += x[b]; x[d] = rotl32(x[d] ^ x[a], 16); \
		x[c] += x[d]; x[b] = rotl32(x[b] ^ x[c], 12); \
		x[a] += x[b]; x[d] = rotl32(x[d] ^ x[a], 8);  \
		x[c] += x[d]; x[b] = rotl32(x[b] ^ x[c], 7);  \
	} while (0)

/*
 * State: 4 constant words ("expand 32-byte k"), 8 key words, a 64-bit block
 * counter and a 64-bit nonce. 20 rounds: 10 column + diagonal pairs.
 */
void chacha20_block(const u32 key[8], u64 counter, const u32 nonce[2],
		    u32 out[16])
{
	u32 in[16] = { 0x61707865, 0x3320646e, 0x79622d32, 0x6b206574 };
	u32 x[16];

	memcpy(&in[4], key, 32);
	in[12] = (u32)counter;
	in[13] = (u32)(counter >> 32);
	in[14] = nonce[0];
	in[15] = nonce[1];
	memcpy(x, in, sizeof(x));
	for (int i = 0; i < 10; i++) {
		QUARTERROUND(x, 0, 4, 8, 12);
		QUARTERROUND(x, 1, 5, 9, 13);
		QUARTERROUND(x, 2, 6, 10, 14);
		QUARTERROUND(x, 3, 7, 11, 15);
		QUARTERROUND(x, 0, 5, 10, 15);
		QUARTERROUND(x, 1, 6, 11, 12);
		QUARTERROUND(x, 2, 7, 8, 13);
		QUARTERROUND(x, 3, 4, 9, 14);
	}
	for (int i = 0; i < 16; i++)
		out[i] = x[i] + in[i];
}

static void rng_refill(struct rng *r)
{
	static const u32 nonce[2] = { 0, 0 };

	chacha20_block(r->key, r->counter++, nonce, r->block);
	memcpy(r->key, r->block, sizeof(r->key));
	memset(r->block, 0, 32);
	r->pos = 8;
}

/*
 * Absorb seed material: each 32-byte piece is folded into the key, which
 * is then replaced by a ChaCha20 block of itself, so every input bit
 * affects every key bit.
 */
void rng_seed_bytes(struct rng *r, const void *seed, size_t len)
{
	const u8 *p = seed;
	static const u32 nonce[2] = { 0x6f676170, 0x00616461 };
	u32 out[16];

	memset(r, 0, sizeof(*r));
	do {
		u8 chunk[32] = { 0 };
		size_t n = MIN(len, sizeof(chunk));

		memcpy(chunk, p, n);
		for (int i = 0; i < 8; i++) {
			u32 w;

			memcpy(&w, chunk + 4 * i, 4);
			r->key[i] ^= w;
		}
		chacha20_block(r->key, n, nonce, out);
		memcpy(r->key, out, sizeof(r->key));
		p += n;
		len -= n;
	} while (len);
	r->counter = 0;
	r->pos = 16;
}

void rng_seed(struct rng *r, u64 seed)
{
	rng_seed_bytes(r, &seed, sizeof(seed));
}

u32 rng_u32(struct rng *r)
{
	if (r->pos >= 16)
		rng_refill(r);
	return r->block[r->pos++];
}

u64 rng_u64(struct rng *r)
{
	u64 lo = rng_u32(r);

	return lo | ((u64)rng_u32(r) << 32);
}

/*
 * Lemire's nearly-divisionless method would do; plain rejection is easier
 * to read: draw until the value falls below the largest multiple of bound.
 */
u64 rng_below(struct rng *r, u64 bound)
{
	u64 limit = -bound % bound; /* (2^64 - bound) mod bound = 2^64 mod bound */
	u64 v;

	do {
		v = rng_u64(r);
	} while (v < limit);
	return v % bound;
}

void rng_permutation(struct rng *r, unsigned int *perm, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		perm[i] = i;
	/*
	 * Swap each last place with one at or before it. rng_u32() % i, not
	 * rng_below(): the order the benches have always freed in.
	 */
	for (unsigned int i = n; i > 1; i--) {
		unsigned int j = rng_u32(r) % i, t = perm[i - 1];

		perm[i - 1] = perm[j];
		perm[j] = t;
	}
}

/* --- the kernel RNG ------------------------------------------------------ */

static struct rng kernel_rng;
static DEFINE_SPINLOCK(kernel_rng_lock);
static char sources[64] = "none";

/*
 * Timer jitter: the low bits of the cycle counter around short, variable
 * pieces of work. Weak alone, but never absent.
 */
static void jitter_samples(u64 *buf, int n)
{
	volatile u64 sink = 0;

	for (int i = 0; i < n; i++) {
		u64 t0 = arch_cycles();

		for (u64 k = 0; k < (t0 & 63) + 16; k++)
			sink += k * t0;
		buf[i] = arch_cycles() - t0 + sink;
	}
}

void random_init(void)
{
	u64 seed[4 + 64];
	int hw = 0;

	memset(seed, 0, sizeof(seed));
	for (int i = 0; i < 4; i++)
		if (arch_get_random_seed_u64(&seed[i]))
			hw++;
	jitter_samples(seed + 4, 64);
	rng_seed_bytes(&kernel_rng, seed, sizeof(seed));
	memset(seed, 0, sizeof(seed));
	snprintf(sources, sizeof(sources), "%s%s", hw == 4 ? "cpu instruction + " : "",
		 "timer jitter");
}

const char *random_sources(void)
{
	return sources;
}

u64 get_random_u64(void)
{
	unsigned long flags;
	u64 v;

	spin_lock_irqsave(&kernel_rng_lock, flags);
	v = rng_u64(&kernel_rng);
	spin_unlock_irqrestore(&kernel_rng_lock, flags);
	return v;
}

u32 get_random_u32(void)
{
	return (u32)get_random_u64();
}

void get_random_bytes(void *buf, size_t len)
{
	u8 *p = buf;

	while (len) {
		u64 v = get_random_u64();
		size_t n = MIN(len, sizeof(v));

		memcpy(p, &v, n);
		p += n;
		len -= n;
	}
}
