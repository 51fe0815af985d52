// SPDX-License-Identifier: MIT
/*
 * Strict number parsing for command lines, the shell and parameters.
 *
 * Unlike strtoul, nothing is silently ignored: junk after the number, an
 * empty string and values that do not fit are all errors, so a typo in a
 * boot parameter is reported rather than turning into a wrong value.
 */
#include <pagoda/string.h>

static int digit_value(char c)
{
	if (isdigit(c))
		return c - '0';
	if (isalpha(c))
		return tolower(c) - 'a' + 10;
	return 36; /* larger than any base */
}

/*
 * Work out the base from an optional prefix. A prefix that names a base
 * other than the requested one is not a prefix: "0b1" in base 16 is 0xb1.
 */
static const char *parse_prefix(const char *s, const char *end,
				unsigned int *base)
{
	char c;

	if (end - s < 2 || s[0] != '0') {
		if (*base == 0)
			*base = 10;
		return s;
	}
	c = tolower(s[1]);
	if ((c == 'x' && (*base == 0 || *base == 16)) ||
	    (c == 'o' && (*base == 0 || *base == 8)) ||
	    (c == 'b' && (*base == 0 || *base == 2))) {
		*base = c == 'x' ? 16 : c == 'o' ? 8 : 2;
		return s + 2;
	}
	/* A plain leading zero means octal, as in C; "0" alone stays 0. */
	if (*base == 0)
		*base = 8;
	return s;
}

/* Parse [s, end) as an unsigned number, prefix allowed, no sign. */
static int parse_u64(const char *s, const char *end, unsigned int base,
		     u64 *res)
{
	u64 val = 0;

	if (base == 1 || base > 36)
		return -EINVAL;
	s = parse_prefix(s, end, &base);
	/* Also catches a lone prefix such as "0x". */
	if (s == end)
		return -EINVAL;
	for (; s < end; s++) {
		unsigned int d = digit_value(*s);

		if (d >= base)
			return -EINVAL;
		/* Checked before the multiply, which would otherwise wrap. */
		if (val > (UINT64_MAX - d) / base)
			return -ERANGE;
		val = val * base + d;
	}
	*res = val;
	return 0;
}

static const char *str_end(const char *s)
{
	return s + strlen(s);
}

int kstrtou64(const char *s, unsigned int base, u64 *res)
{
	if (*s == '+')
		s++;
	return parse_u64(s, str_end(s), base, res);
}

int kstrtos64(const char *s, unsigned int base, s64 *res)
{
	bool neg = false;
	u64 mag;
	int ret;

	if (*s == '-' || *s == '+')
		neg = *s++ == '-';
	ret = parse_u64(s, str_end(s), base, &mag);
	if (ret)
		return ret;
	/* The negative range is one larger than the positive one. */
	if (mag > (u64)INT64_MAX + neg)
		return -ERANGE;
	/* Negating in u64 avoids overflowing s64 for INT64_MIN. */
	*res = neg ? (s64)(0 - mag) : (s64)mag;
	return 0;
}

static unsigned int suffix_shift(char c)
{
	switch (tolower(c)) {
	case 'k':
		return 10;
	case 'm':
		return 20;
	case 'g':
		return 30;
	case 't':
		return 40;
	}
	return 0;
}

/*
 * Sizes are decimal or 0x hex; an octal reading of "010M" would only ever
 * surprise someone, so a leading zero is just a zero here.
 */
int kstrtosize(const char *s, u64 *res)
{
	const char *end = str_end(s);
	unsigned int shift = 0, base = 10;
	u64 val;
	int ret;

	if (end > s)
		shift = suffix_shift(end[-1]);
	if (shift)
		end--;
	if (end - s > 2 && s[0] == '0' && tolower(s[1]) == 'x')
		base = 16;
	ret = parse_u64(s, end, base, &val);
	if (ret)
		return ret;
	if (val > UINT64_MAX >> shift)
		return -ERANGE;
	*res = val << shift;
	return 0;
}

static bool str_eq_nocase(const char *a, const char *b)
{
	while (*a && tolower(*a) == tolower(*b)) {
		a++;
		b++;
	}
	return *a == *b;
}

int kstrtobool(const char *s, bool *res)
{
	static const char *const yes[] = { "y", "yes", "on", "1", "true" };
	static const char *const no[] = { "n", "no", "off", "0", "false" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(yes); i++) {
		if (str_eq_nocase(s, yes[i])) {
			*res = true;
			return 0;
		}
		if (str_eq_nocase(s, no[i])) {
			*res = false;
			return 0;
		}
	}
	return -EINVAL;
}
