// SPDX-License-Identifier: MIT
/*
 * The formatting engine under printk and snprintf: C99 printf without
 * floating point, plus %pS. tests/host/printf_vs_libc.c holds it to the
 * host libc's output, so where C defines the result this must agree.
 */
#include <pagoda/printk.h>
#include <pagoda/string.h>

/*
 * Output goes through a cursor that keeps counting past the end of the
 * buffer, which gives C99's "length it would have had" for free.
 */
struct out {
	char *buf;
	size_t size;
	size_t pos;
};

static void put(struct out *o, char c)
{
	if (o->pos + 1 < o->size)
		o->buf[o->pos] = c;
	o->pos++;
}

static void put_n(struct out *o, const char *s, size_t n)
{
	while (n--)
		put(o, *s++);
}

static void pad(struct out *o, char c, size_t n)
{
	while (n--)
		put(o, c);
}

#define F_LEFT 0x01
#define F_PLUS 0x02
#define F_SPACE 0x04
#define F_ALT 0x08
#define F_ZERO 0x10
#define F_UPPER 0x20
#define F_SIGNED 0x40

/* One parsed conversion specification. */
struct spec {
	unsigned int flags;
	int width; /* 0 when absent */
	int prec; /* -1 when absent */
	char len; /* 'H' hh, 'h', 'l', 'L' ll, 'z', 't', 'j', or 0 */
	char conv;
};

static void emit_padded(struct out *o, const struct spec *sp, const char *s,
			size_t n)
{
	size_t w = sp->width > 0 ? (size_t)sp->width : 0;
	size_t fill = w > n ? w - n : 0;

	if (!(sp->flags & F_LEFT))
		pad(o, ' ', fill);
	put_n(o, s, n);
	if (sp->flags & F_LEFT)
		pad(o, ' ', fill);
}

/* Digits in reverse order; returns how many. */
static size_t utoa_rev(char *d, u64 v, unsigned int base, bool upper)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	size_t n = 0;

	do {
		d[n++] = digits[v % base];
		v /= base;
	} while (v);
	return n;
}

/*
 * Layout of a number: [spaces] [sign or 0x] [zeros] digits [spaces].
 * neg is only set for signed conversions of negative values; v is then
 * the magnitude.
 */
static void emit_number(struct out *o, const struct spec *sp, u64 v, bool neg,
			unsigned int base)
{
	char digits[24]; /* 22 octal digits cover 64 bits */
	char prefix[2];
	size_t ndig = 0, npre = 0, zeros = 0, total, width, i;

	/* An explicit zero precision prints nothing at all for zero. */
	if (v || sp->prec != 0)
		ndig = utoa_rev(digits, v, base, sp->flags & F_UPPER);
	if (sp->prec > 0 && (size_t)sp->prec > ndig)
		zeros = sp->prec - ndig;
	/* '#' with %o: just enough extra zeros that the first digit is 0. */
	if ((sp->flags & F_ALT) && base == 8 && !zeros &&
	    (!ndig || digits[ndig - 1] != '0'))
		zeros = 1;

	if (sp->flags & F_SIGNED) {
		if (neg)
			prefix[npre++] = '-';
		else if (sp->flags & F_PLUS)
			prefix[npre++] = '+';
		else if (sp->flags & F_SPACE)
			prefix[npre++] = ' ';
	}
	if (base == 16 && (sp->flags & F_ALT) && v) {
		prefix[npre++] = '0';
		prefix[npre++] = sp->flags & F_UPPER ? 'X' : 'x';
	}

	total = npre + zeros + ndig;
	width = sp->width > 0 ? (size_t)sp->width : 0;
	/* C ignores '0' when a precision is given or with '-'. */
	if ((sp->flags & F_ZERO) && !(sp->flags & F_LEFT) && sp->prec < 0 &&
	    width > total) {
		zeros += width - total;
		total = width;
	}

	if (!(sp->flags & F_LEFT) && width > total)
		pad(o, ' ', width - total);
	put_n(o, prefix, npre);
	pad(o, '0', zeros);
	for (i = ndig; i; i--)
		put(o, digits[i - 1]);
	if ((sp->flags & F_LEFT) && width > total)
		pad(o, ' ', width - total);
}

static void emit_string(struct out *o, const struct spec *sp, const char *s)
{
	size_t n;

	if (!s)
		s = "(null)";
	/* strnlen: with a precision the array need not be NUL-terminated. */
	n = sp->prec >= 0 ? strnlen(s, sp->prec) : strlen(s);
	emit_padded(o, sp, s, n);
}

/* Pointers print as glibc does, so the host comparison can include them. */
static void emit_pointer(struct out *o, struct spec *sp, const void *p)
{
	static const char nil[] = "(nil)";

	if (!p) {
		emit_padded(o, sp, nil, sizeof(nil) - 1);
		return;
	}
	sp->flags = (sp->flags & (F_LEFT | F_ZERO)) | F_ALT;
	emit_number(o, sp, (uptr)p, false, 16);
}

static void emit_symbol(struct out *o, struct spec *sp, const void *p)
{
	char name[128];
	size_t n = ksym_format(name, sizeof(name), (uptr)p);

	if (!n) {
		sp->flags = (sp->flags & F_LEFT) | F_ALT;
		sp->prec = -1;
		/* "0x0" rather than "(nil)": this is an address, not a pointer. */
		if (!p) {
			emit_padded(o, sp, "0x0", 3);
			return;
		}
		emit_number(o, sp, (uptr)p, false, 16);
		return;
	}
	/* ksym_format may report the untruncated length, as snprintf does. */
	if (n >= sizeof(name))
		n = sizeof(name) - 1;
	emit_padded(o, sp, name, n);
}

/* Saturates instead of overflowing on absurd widths like %99999999999d. */
static int parse_int(const char **fmt)
{
	int v = 0;

	while (isdigit(**fmt)) {
		int d = *(*fmt)++ - '0';

		v = v > (__INT_MAX__ - d) / 10 ? __INT_MAX__ : v * 10 + d;
	}
	return v;
}

/*
 * Parse flags, width, precision and length of the conversion after '%'.
 * Leaves *fmt on the conversion character.
 */
static void parse_spec(const char **fmt, struct spec *sp, va_list *ap)
{
	const char *f = *fmt;

	sp->flags = 0;
	for (;; f++) {
		if (*f == '-')
			sp->flags |= F_LEFT;
		else if (*f == '+')
			sp->flags |= F_PLUS;
		else if (*f == ' ')
			sp->flags |= F_SPACE;
		else if (*f == '#')
			sp->flags |= F_ALT;
		else if (*f == '0')
			sp->flags |= F_ZERO;
		else
			break;
	}

	sp->width = 0;
	if (*f == '*') {
		int w = va_arg(*ap, int);

		f++;
		/* A negative '*' width is a '-' flag plus the width. */
		if (w < 0) {
			sp->flags |= F_LEFT;
			w = w == -__INT_MAX__ - 1 ? __INT_MAX__ : -w;
		}
		sp->width = w;
	} else {
		sp->width = parse_int(&f);
	}

	sp->prec = -1;
	if (*f == '.') {
		f++;
		if (*f == '*') {
			f++;
			sp->prec = va_arg(*ap, int);
			/* A negative '*' precision counts as none given. */
			if (sp->prec < 0)
				sp->prec = -1;
		} else {
			sp->prec = parse_int(&f);
		}
	}

	sp->len = 0;
	if ((f[0] == 'h' || f[0] == 'l') && f[1] == f[0]) {
		sp->len = f[0] == 'h' ? 'H' : 'L';
		f += 2;
	} else if (*f == 'h' || *f == 'l' || *f == 'z' || *f == 't' ||
		   *f == 'j') {
		sp->len = *f++;
	}
	sp->conv = *f;
	*fmt = f;
}

static s64 fetch_signed(const struct spec *sp, va_list *ap)
{
	switch (sp->len) {
	case 'H':
		return (signed char)va_arg(*ap, int);
	case 'h':
		return (short)va_arg(*ap, int);
	case 'l':
		return va_arg(*ap, long);
	case 'L':
		return va_arg(*ap, long long);
	case 'z':
		/* The signed type matching size_t has size_t's width. */
		return (ptrdiff_t)va_arg(*ap, size_t);
	case 't':
		return va_arg(*ap, ptrdiff_t);
	case 'j':
		return va_arg(*ap, intmax_t);
	}
	return va_arg(*ap, int);
}

static u64 fetch_unsigned(const struct spec *sp, va_list *ap)
{
	switch (sp->len) {
	case 'H':
		return (unsigned char)va_arg(*ap, unsigned int);
	case 'h':
		return (unsigned short)va_arg(*ap, unsigned int);
	case 'l':
		return va_arg(*ap, unsigned long);
	case 'L':
		return va_arg(*ap, unsigned long long);
	case 'z':
		return va_arg(*ap, size_t);
	case 't':
		return (uptr)va_arg(*ap, ptrdiff_t);
	case 'j':
		return va_arg(*ap, uintmax_t);
	}
	return va_arg(*ap, unsigned int);
}

/* Returns false for a conversion we do not know. */
static bool convert(struct out *o, struct spec *sp, const char **fmt,
		    va_list *ap)
{
	unsigned int base = 10;
	char c;
	s64 sv;

	switch (sp->conv) {
	case '%':
		put(o, '%');
		return true;
	case 'c':
		c = (char)va_arg(*ap, int);
		emit_padded(o, sp, &c, 1);
		return true;
	case 's':
		emit_string(o, sp, va_arg(*ap, const char *));
		return true;
	case 'p':
		if ((*fmt)[1] == 'S') {
			(*fmt)++;
			emit_symbol(o, sp, va_arg(*ap, const void *));
		} else {
			emit_pointer(o, sp, va_arg(*ap, const void *));
		}
		return true;
	case 'd':
	case 'i':
		sp->flags |= F_SIGNED;
		sv = fetch_signed(sp, ap);
		/* The magnitude in u64 is exact even for INT64_MIN. */
		emit_number(o, sp, sv < 0 ? 0 - (u64)sv : (u64)sv, sv < 0, 10);
		return true;
	case 'X':
		sp->flags |= F_UPPER;
		/* fall through */
	case 'x':
		base = 16;
		goto unsigned_num;
	case 'o':
		base = 8;
		/* fall through */
	case 'u':
unsigned_num:
		emit_number(o, sp, fetch_unsigned(sp, ap), false, base);
		return true;
	}
	return false;
}

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct out o = { .buf = buf, .size = size, .pos = 0 };
	va_list args;

	/* A va_list may be an array type; a copy can be passed by pointer. */
	va_copy(args, ap);
	while (*fmt) {
		const char *start = fmt;
		struct spec sp;

		if (*fmt != '%') {
			put(&o, *fmt++);
			continue;
		}
		fmt++;
		parse_spec(&fmt, &sp, &args);
		if (convert(&o, &sp, &fmt, &args)) {
			fmt++;
			continue;
		}
		/*
		 * Unknown (including %n, which is never honoured): copy the
		 * spec through as text so the mistake is visible in the output.
		 */
		if (*fmt)
			fmt++;
		put_n(&o, start, fmt - start);
	}
	va_end(args);

	if (size)
		buf[o.pos < size ? o.pos : size - 1] = '\0';
	/* The C return type cannot say more than INT_MAX. */
	return o.pos > __INT_MAX__ ? __INT_MAX__ : (int)o.pos;
}

int snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

int vscnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	int n = vsnprintf(buf, size, fmt, ap);

	if (!size)
		return 0;
	return (size_t)n < size ? n : (int)(size - 1);
}

int scnprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vscnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}
