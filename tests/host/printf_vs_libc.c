// SPDX-License-Identifier: MIT
/*
 * Host-only: hold lib/vsprintf.c to the host libc's snprintf.
 *
 * lib/vsprintf.c is built with tests/host/host_prefix.h, which renames its
 * snprintf to pg_snprintf; this file is built without it, so plain snprintf
 * here is the libc one. Two passes, same check:
 *   - an exhaustive sweep of flags x width x precision x length x a set of
 *     boundary values for every integer conversion (and %s, %c);
 *   - a long run of random specifications with a fixed seed, several per
 *     format string, with random buffer sizes to compare truncation too.
 * Combinations C leaves undefined ('#' with d/s/c, '0' with s/c/p, a
 * precision with c or p) are never generated, and %p is only tried bare.
 *
 * Exits 1 on any mismatch, printing the first few.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Force-including host_prefix.h would turn the libc side into ours too. */
#ifdef snprintf
#error "build printf_vs_libc.c without tests/host/host_prefix.h"
#endif

int pg_snprintf(char *buf, size_t size, const char *fmt, ...);

/* vsprintf.c's %pS hook; a host build that links the real one wins. */
__attribute__((weak)) size_t ksym_format(char *buf, size_t size, uintptr_t addr)
{
	(void)buf;
	(void)size;
	(void)addr;
	return 0;
}

#define OUT 512
#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define SHOW_MAX 10

static unsigned long cases, mismatches;

/* How the value must be passed for a given conversion and length. */
enum arg_kind {
	A_INT, A_UINT, A_LONG, A_ULONG, A_LLONG, A_ULLONG, A_SIZE, A_PTRDIFF,
	A_INTMAX, A_UINTMAX, A_STR, A_PTR,
};

struct call {
	char fmt[64];
	int nstar;
	int star[2];
	enum arg_kind kind;
	uint64_t val; /* the integer, or an index into strs */
	size_t size;
};

static const char *const strs[] = {
	"", "a", "hello", "hello, world", "0123456789abcdefghijklmnopqrstuv",
	"tab\there", "\xe9\xff",
};

/*
 * Call a snprintf with the arguments a struct call describes. A macro so
 * the same argument list reaches both implementations.
 */
#define PASS(fn, c, type, v)                                                 \
	((c)->nstar == 0 ? fn(buf, (c)->size, (c)->fmt, (type)(v)) :         \
	 (c)->nstar == 1 ? fn(buf, (c)->size, (c)->fmt, (c)->star[0],        \
			      (type)(v)) :                                   \
			   fn(buf, (c)->size, (c)->fmt, (c)->star[0],        \
			      (c)->star[1], (type)(v)))

#define DISPATCH(fn, c)                                                      \
	switch ((c)->kind) {                                                 \
	case A_INT: return PASS(fn, c, int, (c)->val);                       \
	case A_UINT: return PASS(fn, c, unsigned int, (c)->val);             \
	case A_LONG: return PASS(fn, c, long, (c)->val);                     \
	case A_ULONG: return PASS(fn, c, unsigned long, (c)->val);           \
	case A_LLONG: return PASS(fn, c, long long, (c)->val);               \
	case A_ULLONG: return PASS(fn, c, unsigned long long, (c)->val);     \
	case A_SIZE: return PASS(fn, c, size_t, (c)->val);                   \
	case A_PTRDIFF: return PASS(fn, c, ptrdiff_t, (c)->val);             \
	case A_INTMAX: return PASS(fn, c, intmax_t, (c)->val);               \
	case A_UINTMAX: return PASS(fn, c, uintmax_t, (c)->val);             \
	case A_STR: return PASS(fn, c, const char *, strs[(c)->val]);        \
	case A_PTR: return PASS(fn, c, void *, (uintptr_t)(c)->val);         \
	}                                                                    \
	return -1

#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#pragma GCC diagnostic ignored "-Wformat-security"

static int run_libc(const struct call *c, char *buf)
{
	DISPATCH(snprintf, c);
}

static int run_ours(const struct call *c, char *buf)
{
	DISPATCH(pg_snprintf, c);
}

static void show(const char *who, const char *buf, int n, size_t size)
{
	size_t len = n < 0 ? 0 : (size_t)n, i;

	if (size && len >= size)
		len = size - 1;
	printf("    %-5s %3d \"", who, n);
	for (i = 0; i < len; i++) {
		unsigned char ch = buf[i];

		if (ch >= 32 && ch < 127 && ch != '"' && ch != '\\')
			putchar(ch);
		else
			printf("\\x%02x", ch);
	}
	printf("\"\n");
}

static void check(const struct call *c)
{
	char a[OUT], b[OUT];
	int na, nb;

	cases++;
	memset(a, '@', sizeof(a));
	memset(b, '@', sizeof(b));
	na = run_libc(c, a);
	nb = run_ours(c, b);
	/* Whole buffers: bytes past the NUL must be left alone alike. */
	if (na == nb && !memcmp(a, b, sizeof(a)))
		return;
	if (++mismatches > SHOW_MAX)
		return;
	printf("  mismatch: fmt \"%s\" size %zu", c->fmt, c->size);
	if (c->nstar)
		printf(" stars %d %d", c->star[0], c->star[1]);
	if (c->kind == A_STR)
		printf(" str #%u\n", (unsigned int)c->val);
	else
		printf(" val %#" PRIx64 "\n", c->val);
	show("libc", a, na, c->size);
	show("ours", b, nb, c->size);
}

/* Length modifiers, with the argument type each implies. */
struct len_mod {
	const char *text;
	enum arg_kind s_kind, u_kind;
};

static const struct len_mod lens[] = {
	{ "", A_INT, A_UINT },       { "hh", A_INT, A_UINT },
	{ "h", A_INT, A_UINT },      { "l", A_LONG, A_ULONG },
	{ "ll", A_LLONG, A_ULLONG }, { "z", A_PTRDIFF, A_SIZE },
	{ "t", A_PTRDIFF, A_SIZE },  { "j", A_INTMAX, A_UINTMAX },
};

static const uint64_t int_vals[] = {
	0, 1, 7, 8, 9, 10, 15, 16, 42, 100, 127, 128, 255, 256, 32767, 32768,
	65535, 65536, 2147483647, 2147483648u, 4294967295u, 4294967296ull,
	0x123456789abcdefull, 0x7fffffffffffffffull, 0x8000000000000000ull,
	0xffffffffffffffffull, (uint64_t)-1 - 41, (uint64_t)-128,
	(uint64_t)-129, (uint64_t)-32768,
};

static bool is_int_conv(char conv)
{
	return strchr("diuxXo", conv) != NULL;
}

/* Flags C defines for the conversion; the rest are filtered out. */
static bool flag_ok(char flag, char conv)
{
	switch (flag) {
	case '#':
		return strchr("xXo", conv) != NULL;
	case '0':
		return is_int_conv(conv);
	case '+':
	case ' ':
		return is_int_conv(conv);
	}
	return true; /* '-' */
}

static void build(struct call *c, const char *flags, const char *width,
		  const char *prec, const char *len, char conv)
{
	snprintf(c->fmt, sizeof(c->fmt), "<%%%s%s%s%s%c>", flags, width, prec,
		 len, conv);
}

static enum arg_kind kind_for(char conv, const struct len_mod *l)
{
	if (conv == 's')
		return A_STR;
	if (conv == 'c')
		return A_INT;
	if (conv == 'p')
		return A_PTR;
	return conv == 'd' || conv == 'i' ? l->s_kind : l->u_kind;
}

/* Run one sweep format over every value of its kind. */
static void sweep_values(struct call *c, char conv)
{
	static const int chars[] = { 'A', ' ', 0, 0xe9, 0x141 };
	size_t v;

	if (conv == 's') {
		for (v = 0; v < ARRAY_LEN(strs); v++) {
			c->val = v;
			check(c);
		}
	} else if (conv == 'c') {
		for (v = 0; v < ARRAY_LEN(chars); v++) {
			c->val = chars[v];
			check(c);
		}
	} else {
		for (v = 0; v < ARRAY_LEN(int_vals); v++) {
			c->val = int_vals[v];
			check(c);
		}
	}
}

static void sweep(void)
{
	static const char *const widths[] = { "", "0", "1", "5", "12", "*" };
	static const char *const precs[] = { "", ".", ".0", ".1", ".5",
					     ".12", ".*" };
	static const char flag_chars[] = "-+ #0";
	static const char convs[] = "diuxXosc";
	const char *cv;
	unsigned int fm;
	size_t w, p, l;

	for (cv = convs; *cv; cv++) {
		for (fm = 0; fm < 32; fm++) {
			char flags[8];
			int nf = 0, i;
			bool ok = true;

			for (i = 0; i < 5; i++) {
				if (!(fm & (1u << i)))
					continue;
				ok &= flag_ok(flag_chars[i], *cv);
				flags[nf++] = flag_chars[i];
			}
			flags[nf] = '\0';
			if (!ok)
				continue;
			for (w = 0; w < 6; w++) {
				for (p = 0; p < 7; p++) {
					if (*cv == 'c' && *precs[p])
						continue;
					for (l = 0; l < 8; l++) {
						struct call c = { .size = OUT };

						if (!is_int_conv(*cv) && l)
							continue;
						build(&c, flags, widths[w], precs[p],
						      lens[l].text, *cv);
						c.kind = kind_for(*cv, &lens[l]);
						if (w == 5)
							c.star[c.nstar++] = -7;
						if (p == 6)
							c.star[c.nstar++] = 3;
						sweep_values(&c, *cv);
					}
				}
			}
		}
	}
}

/* xorshift64*: fixed seed, so a failure reproduces exactly. */
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dull;
}

static unsigned int rnd_below(unsigned int n)
{
	return rnd() % n;
}

/* Values concentrated where formatting changes: zero, edges, digit counts. */
static uint64_t rnd_value(void)
{
	uint64_t v;

	switch (rnd_below(4)) {
	case 0:
		return int_vals[rnd_below(ARRAY_LEN(int_vals))];
	case 1:
		return rnd();
	case 2:
		v = rnd() >> rnd_below(64);
		return rnd_below(2) ? v : 0 - v;
	}
	return rnd_below(2000) - 1000;
}

static void random_one(void)
{
	static const char convs[] = "diuxXoscp%";
	char conv = convs[rnd_below(sizeof(convs) - 1)];
	char flags[12], width[16] = "", prec[16] = "";
	const struct len_mod *l = &lens[0];
	struct call c = { .size = OUT };
	int nf = 0, i, n;

	if (conv == 'p') {
		/* Only bare %p: glibc's flags and precision there are its own. */
		snprintf(c.fmt, sizeof(c.fmt), "<%%p>");
		c.kind = A_PTR;
		c.val = rnd_below(4) ? rnd_value() : 0;
		check(&c);
		return;
	}

	n = rnd_below(5);
	for (i = 0; i < n; i++) {
		char f = "-+ #0"[rnd_below(5)];

		if (flag_ok(f, conv))
			flags[nf++] = f;
	}
	flags[nf] = '\0';

	switch (rnd_below(4)) {
	case 1:
		snprintf(width, sizeof(width), "%u", rnd_below(40));
		break;
	case 2:
		strcpy(width, "*");
		c.star[c.nstar++] = (int)rnd_below(81) - 40;
		break;
	}
	if (conv != 'c' && conv != '%') {
		switch (rnd_below(5)) {
		case 1:
			strcpy(prec, ".");
			break;
		case 2:
			snprintf(prec, sizeof(prec), ".%u", rnd_below(30));
			break;
		case 3:
			strcpy(prec, ".*");
			c.star[c.nstar++] = (int)rnd_below(40) - 8;
			break;
		}
	}
	if (is_int_conv(conv))
		l = &lens[rnd_below(8)];
	if (conv == '%') {
		/* Only the bare form is defined. */
		snprintf(c.fmt, sizeof(c.fmt), "<%%%%>");
		c.nstar = 0;
		c.kind = A_INT;
	} else {
		build(&c, flags, width, prec, l->text, conv);
		c.kind = kind_for(conv, l);
	}
	c.val = conv == 's' ? rnd_below(ARRAY_LEN(strs)) :
		conv == 'c' ? rnd_below(256) : rnd_value();

	/* Truncation: a quarter of the time, a buffer that is too small. */
	if (!rnd_below(4)) {
		char tmp[OUT];

		c.size = run_libc(&c, tmp) + 2;
		c.size = rnd_below(c.size);
	}
	check(&c);
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 200000, i;

	sweep();
	for (i = 0; i < n; i++)
		random_one();
	printf("printf_vs_libc: %lu cases, %lu mismatches\n", cases,
	       mismatches);
	return mismatches ? 1 : 0;
}
