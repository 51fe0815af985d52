// SPDX-License-Identifier: MIT
/* ChaCha20 against RFC 8439's block test vector; the generator's contracts. */
#include <pagoda/ktest.h>
#include <pagoda/random.h>
#include <pagoda/string.h>

static void test_chacha20_rfc8439_vector(struct ktest *t)
{
	/* RFC 8439 2.3.2: key 00..1f, block counter 1, nonce 00:00:00:09
	 * 00:00:00:4a 00:00:00:00. Its 32-bit counter and first nonce word
	 * are our 64-bit counter's low and high halves. */
	static const u32 expect[16] = {
		0xe4e7f110, 0x15593bd1, 0x1fdd0f50, 0xc47120a3,
		0xc7f4d1c7, 0x0368c033, 0x9aaa2204, 0x4e6cd4c3,
		0x466482d2, 0x09aa9f07, 0x05d7c214, 0xa2028bd9,
		0xd19c12b5, 0xb94e16de, 0xe883d0cb, 0x4e3c50a2,
	};
	const u32 nonce[2] = { 0x4a000000, 0 };
	u32 key[8], out[16];
	u8 kb[32];

	for (int i = 0; i < 32; i++)
		kb[i] = (u8)i;
	memcpy(key, kb, sizeof(key)); /* little-endian words */
	chacha20_block(key, 0x0900000000000001ULL, nonce, out);
	KEXPECT_TRUE(t, !memcmp(out, expect, sizeof(out)));
}

static void test_seeded_streams_repeat(struct ktest *t)
{
	struct rng a, b, c;
	bool same = true, differ = false;

	rng_seed(&a, 2019);
	rng_seed(&b, 2019);
	rng_seed(&c, 2020);
	for (int i = 0; i < 100; i++) {
		u64 x = rng_u64(&a), y = rng_u64(&b), z = rng_u64(&c);

		same = same && x == y;
		differ = differ || x != z;
	}
	KEXPECT_TRUE(t, same);
	KEXPECT_TRUE(t, differ);
}

static void test_rng_below_bounds_and_spread(struct ktest *t)
{
	struct rng r;
	unsigned int bins[10] = { 0 };
	bool in_range = true;

	rng_seed(&r, 7);
	for (int i = 0; i < 10000; i++) {
		u64 v = rng_below(&r, 10);

		in_range = in_range && v < 10;
		if (v < 10)
			bins[v]++;
	}
	KEXPECT_TRUE(t, in_range);
	/* 1000 expected per bin; +-200 is over 6 standard deviations */
	for (int i = 0; i < 10; i++)
		KEXPECT_TRUE(t, bins[i] > 800 && bins[i] < 1200);
	KEXPECT_EQ(t, rng_below(&r, 1), 0);
}

/* Every index once, in an order the seed fixes and that is not the identity. */
static void test_rng_permutation(struct ktest *t)
{
	static unsigned int a[1000], b[1000];
	unsigned int seen[1000] = { 0 }, moved = 0;
	bool once = true;
	struct rng r;

	rng_seed(&r, 42);
	rng_permutation(&r, a, 1000);
	rng_seed(&r, 42);
	rng_permutation(&r, b, 1000);
	for (unsigned int i = 0; i < 1000; i++) {
		if (a[i] < 1000)
			seen[a[i]]++;
		moved += a[i] != i;
	}
	for (unsigned int i = 0; i < 1000; i++)
		once = once && seen[i] == 1;
	KEXPECT_TRUE(t, once);
	KEXPECT_EQ(t, memcmp(a, b, sizeof(a)), 0);
	/* About 999 of 1000 move; fewer than 900 would mean no shuffle happened. */
	KEXPECT_GT(t, moved, 900);
	rng_permutation(&r, a, 1);
	KEXPECT_EQ(t, a[0], 0);
	rng_permutation(&r, a, 0); /* nothing to write, nothing drawn */
}

static struct ktest_case random_cases[] = {
	KTEST_CASE(test_chacha20_rfc8439_vector),
	KTEST_CASE(test_seeded_streams_repeat),
	KTEST_CASE(test_rng_below_bounds_and_spread),
	KTEST_CASE(test_rng_permutation),
	{}
};
KTEST_SUITE(random, random_cases);
