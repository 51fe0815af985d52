// SPDX-License-Identifier: MIT
/*
 * String and memory routines.
 *
 * This file is built freestanding, and GCC emits calls to memcpy, memmove
 * and memset on its own (structure copies, zeroing). At -O2 it would also
 * recognise the loops below as "a memset" and replace them with a call to
 * memset, i.e. to themselves (GCC 12 does the same with strlen-like loops).
 * The no_loop_calls attribute stops that per function, so correctness does
 * not hang on a flag in the Makefile.
 */
#include <pagoda/string.h>

#if defined(__GNUC__) && !defined(__clang__)
#define no_loop_calls __attribute__((optimize("no-tree-loop-distribute-patterns")))
#else
#define no_loop_calls
#endif

/*
 * Word accesses go through a may_alias type: the bytes may have been written
 * as any type, and strict aliasing must not let GCC reorder around them.
 */
typedef unsigned long __attribute__((__may_alias__)) word_t;
#define WSIZE sizeof(word_t)

static inline bool both_aligned(const void *a, const void *b)
{
	return (((uptr)a | (uptr)b) & (WSIZE - 1)) == 0;
}

/*
 * Copy forwards. Also used by memmove when dst is below src, where a forward
 * copy never overwrites source bytes it has yet to read.
 */
static no_loop_calls void copy_fwd(u8 *d, const u8 *s, size_t n)
{
	/* Words only pay off when both sides can be aligned together. */
	if (n >= 2 * WSIZE && (((uptr)d ^ (uptr)s) & (WSIZE - 1)) == 0) {
		while (!both_aligned(d, s)) {
			*d++ = *s++;
			n--;
		}
		while (n >= WSIZE) {
			*(word_t *)d = *(const word_t *)s;
			d += WSIZE;
			s += WSIZE;
			n -= WSIZE;
		}
	}
	while (n--)
		*d++ = *s++;
}

static no_loop_calls void copy_bwd(u8 *d, const u8 *s, size_t n)
{
	d += n;
	s += n;
	if (n >= 2 * WSIZE && (((uptr)d ^ (uptr)s) & (WSIZE - 1)) == 0) {
		while (!both_aligned(d, s)) {
			*--d = *--s;
			n--;
		}
		while (n >= WSIZE) {
			d -= WSIZE;
			s -= WSIZE;
			*(word_t *)d = *(const word_t *)s;
			n -= WSIZE;
		}
	}
	while (n--)
		*--d = *--s;
}

no_loop_calls void *memcpy(void *dst, const void *src, size_t n)
{
	copy_fwd(dst, src, n);
	return dst;
}

/*
 * One whole, aligned page: eight words a turn, loads before stores. Half
 * the instructions of memcpy()'s word loop, which is what an emulator
 * charges for (hibernation's atomic copy moves hundreds of MiB with it).
 */
no_loop_calls void copy_page(void *dst, const void *src)
{
	word_t *d = dst;
	const word_t *s = src;

	for (size_t i = 0; i < 4096 / WSIZE; i += 8) {
		word_t a = s[i], b = s[i + 1], c = s[i + 2], e = s[i + 3];
		word_t f = s[i + 4], g = s[i + 5], h = s[i + 6], k = s[i + 7];

		d[i] = a;
		d[i + 1] = b;
		d[i + 2] = c;
		d[i + 3] = e;
		d[i + 4] = f;
		d[i + 5] = g;
		d[i + 6] = h;
		d[i + 7] = k;
	}
}

no_loop_calls void *memmove(void *dst, const void *src, size_t n)
{
	/* Unsigned distance: true exactly when dst lies inside [src, src+n). */
	if ((uptr)dst - (uptr)src < n)
		copy_bwd(dst, src, n);
	else
		copy_fwd(dst, src, n);
	return dst;
}

no_loop_calls void *memset(void *dst, int c, size_t n)
{
	u8 *d = dst;
	u8 b = (u8)c;

	if (n >= 2 * WSIZE) {
		/* Multiplying by 0x0101..01 replicates the byte into every lane. */
		word_t w = (word_t)b * (~(word_t)0 / 0xff);

		while ((uptr)d & (WSIZE - 1)) {
			*d++ = b;
			n--;
		}
		while (n >= WSIZE) {
			*(word_t *)d = w;
			d += WSIZE;
			n -= WSIZE;
		}
	}
	while (n--)
		*d++ = b;
	return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const u8 *p = a, *q = b;

	for (; n; n--, p++, q++) {
		if (*p != *q)
			return *p - *q;
	}
	return 0;
}

void *memchr(const void *s, int c, size_t n)
{
	const u8 *p = s;

	for (; n; n--, p++) {
		if (*p == (u8)c)
			return (void *)p;
	}
	return NULL;
}

no_loop_calls size_t strlen(const char *s)
{
	const char *p = s;

	while (*p)
		p++;
	return p - s;
}

no_loop_calls size_t strnlen(const char *s, size_t max)
{
	size_t n = 0;

	while (n < max && s[n])
		n++;
	return n;
}

/* Characters compare as unsigned char, as C requires. */
int strcmp(const char *a, const char *b)
{
	const u8 *p = (const u8 *)a, *q = (const u8 *)b;

	while (*p && *p == *q) {
		p++;
		q++;
	}
	return *p - *q;
}

int strncmp(const char *a, const char *b, size_t n)
{
	const u8 *p = (const u8 *)a, *q = (const u8 *)b;

	for (; n; n--, p++, q++) {
		if (*p != *q)
			return *p - *q;
		if (!*p)
			break;
	}
	return 0;
}

/* The terminator counts as part of the string: strchr(s, 0) finds it. */
char *strchr(const char *s, int c)
{
	for (;; s++) {
		if (*s == (char)c)
			return (char *)s;
		if (!*s)
			return NULL;
	}
}

char *strrchr(const char *s, int c)
{
	const char *last = NULL;

	for (;; s++) {
		if (*s == (char)c)
			last = s;
		if (!*s)
			return (char *)last;
	}
}

size_t strlcpy(char *dst, const char *src, size_t size)
{
	size_t len = strlen(src);

	if (size) {
		size_t n = len < size ? len : size - 1;

		memcpy(dst, src, n);
		dst[n] = '\0';
	}
	return len;
}

/*
 * BSD semantics: if dst holds no NUL within size, nothing is written and the
 * result (size + strlen(src)) still tells the caller it did not fit.
 */
size_t strlcat(char *dst, const char *src, size_t size)
{
	size_t dlen = strnlen(dst, size);

	if (dlen == size)
		return size + strlen(src);
	return dlen + strlcpy(dst + dlen, src, size - dlen);
}

char *strstr(const char *hay, const char *needle)
{
	size_t n = strlen(needle);

	if (!n)
		return (char *)hay;
	for (; *hay; hay++) {
		if (*hay == *needle && !strncmp(hay, needle, n))
			return (char *)hay;
	}
	return NULL;
}

char *strsep(char **s, const char *delim)
{
	char *tok = *s, *p;

	if (!tok)
		return NULL;
	for (p = tok; *p; p++) {
		if (strchr(delim, *p)) {
			*p = '\0';
			*s = p + 1;
			return tok;
		}
	}
	*s = NULL;
	return tok;
}

char *skip_spaces(const char *s)
{
	while (isspace((u8)*s))
		s++;
	return (char *)s;
}

/*
 * Trailing space is cut by writing a NUL; leading space is skipped by
 * returning a pointer past it, so callers must use the return value.
 */
char *strim(char *s)
{
	size_t len = strlen(s);

	while (len && isspace((u8)s[len - 1]))
		len--;
	s[len] = '\0';
	return skip_spaces(s);
}

int match_string(const char *const *array, size_t n, const char *string)
{
	if (!string)
		return -EINVAL;
	for (size_t i = 0; i < n && array[i]; i++)
		if (!strcmp(array[i], string))
			return (int)i;
	return -EINVAL;
}

bool strlist_has(const char *list, const char *name)
{
	size_t len = strlen(name);
	bool in = false;

	if (!strcmp(list, "all"))
		return true;
	for (;;) {
		const char *end = strchr(list, ',');
		size_t n = end ? (size_t)(end - list) : strlen(list);

		if (n == 3 && !strncmp(list, "all", 3))
			in = true;
		else if (n == len + 1 && list[0] == '-' && !strncmp(list + 1, name, len))
			return false; /* left out by name, wherever it stands */
		else if (n == len && !strncmp(list, name, len))
			in = true;
		if (!end)
			return in;
		list = end + 1;
	}
}

int argv_split_inplace(char *buf, char **argv, int max)
{
	int argc = 0;
	char *w;

	while ((w = strsep(&buf, " \t")) != NULL) {
		if (!*w)
			continue;	/* a run of blanks */
		if (argc == max)
			return -E2BIG;
		argv[argc++] = w;
	}
	return argc;
}

const char *strlist_first_unknown(const char *list,
				  bool (*exists)(const char *word, size_t n),
				  size_t *len)
{
	for (;;) {
		const char *end = strchr(list, ',');
		size_t n = end ? (size_t)(end - list) : strlen(list);

		/* "all" is every word; "-word" leaves one out: the word must exist. */
		bool all = n == 3 && !strncmp(list, "all", 3), minus = n > 1 && list[0] == '-';

		if (!all && !exists(list + minus, n - minus)) {
			*len = n;
			return list;
		}
		if (!end)
			return NULL;
		list = end + 1;
	}
}
