/* SPDX-License-Identifier: MIT */
/* The kernel's string and memory routines (lib/string.c). */
#ifndef PAGODA_STRING_H
#define PAGODA_STRING_H

#include <pagoda/types.h>

void *memcpy(void *dst, const void *src, size_t n);
/* One 4 KiB page, both addresses page aligned (faster than memcpy for it). */
void copy_page(void *dst, const void *src);
/* Zero one 4 KiB page, page aligned, in the direct map (arch/: DC ZVA on arm64). */
void clear_page(void *page);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
void *memchr(const void *s, int c, size_t n);
size_t strlen(const char *s);
size_t strnlen(const char *s, size_t max);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strchr(const char *s, int c);
char *strrchr(const char *s, int c);
/* Copy with truncation; always NUL-terminates when size > 0; returns strlen(src). */
size_t strlcpy(char *dst, const char *src, size_t size);
size_t strlcat(char *dst, const char *src, size_t size);
char *strstr(const char *hay, const char *needle);
/* Split off the next token delimited by any of delim; updates *s (NULL at end). */
char *strsep(char **s, const char *delim);
/*
 * Split buf in place at spaces and tabs into its words, pointed to from
 * argv (Linux's argv_split(), without the allocation): how many, or
 * -E2BIG when there are more than max (argv then holds the first max).
 */
int argv_split_inplace(char *buf, char **argv, int max);
/*
 * Is name one of the words of a comma-separated list? "all" matches all,
 * and "-name" leaves name out wherever it stands ("all,-dm").
 */
bool strlist_has(const char *list, const char *name);
/*
 * The first word of a comma-separated list that exists(word, length) does
 * not know, with its length in *len; NULL if it knows them all.
 */
const char *strlist_first_unknown(const char *list,
				  bool (*exists)(const char *word, size_t n),
				  size_t *len);
/*
 * The index of string in array (n entries, or up to the first NULL one),
 * or -EINVAL: Linux's match_string(), for turning a word into the enum
 * its table is indexed by. A NULL string matches nothing.
 */
int match_string(const char *const *array, size_t n, const char *string);
/* Skip leading white space. */
char *skip_spaces(const char *s);
/* Remove leading and trailing white space in place. */
char *strim(char *s);

static inline bool isdigit(int c) { return c >= '0' && c <= '9'; }
static inline bool isspace(int c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
static inline bool isxdigit(int c)
{
	return isdigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
static inline bool isalpha(int c) { return (c | 32) >= 'a' && (c | 32) <= 'z'; }
static inline bool isprint(int c) { return c >= 32 && c < 127; }
static inline int tolower(int c) { return (c >= 'A' && c <= 'Z') ? c | 32 : c; }

/*
 * Number parsing with full error reporting (lib/kstrtox.c): the whole string
 * must be consumed; base 0 accepts 0x, 0o/0 and 0b prefixes. Returns 0,
 * -EINVAL for malformed input or -ERANGE for overflow.
 */
int kstrtou64(const char *s, unsigned int base, u64 *res);
int kstrtos64(const char *s, unsigned int base, s64 *res);
/* "64M", "1G", "4096", "2k": a size with an optional K/M/G/T suffix. */
int kstrtosize(const char *s, u64 *res);
/* y/n, yes/no, on/off, 1/0, true/false. */
int kstrtobool(const char *s, bool *res);

#endif
