// SPDX-License-Identifier: MIT
/*
 * The shim's portable half: start-up from Linux's initial stack, system
 * call wrappers, a few string functions and printf.
 */
#include <linux/elf.h>
#include <ulib.h>

int ulib_argc;
char **ulib_argv, **ulib_envp;
unsigned long *ulib_auxv;

/*
 * From _start, with the stack pointer the kernel left: argc, argv[],
 * NULL, envp[], NULL, then the auxiliary vector's (type, value) pairs.
 */
__attribute__((noreturn)) void ulib_start(long *sp);
void ulib_start(long *sp)
{
	char **p;

	ulib_argc = (int)sp[0];
	ulib_argv = (char **)(sp + 1);
	ulib_envp = ulib_argv + ulib_argc + 1;
	for (p = ulib_envp; *p; p++)
		;
	ulib_auxv = (unsigned long *)(p + 1);
	exit(main(ulib_argc, ulib_argv, ulib_envp));
}

unsigned long getauxval(unsigned long type)
{
	for (unsigned long *a = ulib_auxv; a[0]; a += 2)
		if (a[0] == type)
			return a[1];
	return 0;
}

long write(int fd, const void *buf, size_t n)
{
	return syscall3(__NR_write, fd, buf, n);
}

void exit(int code)
{
	for (;;)
		syscall1(__NR_exit_group, code);
}

long getpid(void)
{
	return syscall0(__NR_getpid);
}

long ulib_sigaction(int sig, void *handler, unsigned long flags)
{
	struct ksigaction sa = { (unsigned long)handler, flags | SA_RESTORER,
				 (unsigned long)ulib_restorer, 0 };

	return syscall4(__NR_rt_sigaction, sig, &sa, NULL, 8);
}

/* arm64 has no fork(2): clone with only SIGCHLD is the same call. */
long fork(void)
{
#ifdef __NR_fork
	return syscall0(__NR_fork);
#else
	return syscall6(__NR_clone, SIGCHLD, 0, 0, 0, 0, 0);
#endif
}

/*
 * The vDSO's symbol by name, or NULL: through PT_DYNAMIC's tables, whose
 * values are offsets from the base (the vDSO is linked at 0); DT_HASH's
 * second word counts the symbols.
 */
void *vdso_sym(const char *name)
{
	const unsigned char *base = (const unsigned char *)getauxval(AT_SYSINFO_EHDR);
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)base;
	const uint64_t *dyn = NULL;
	const Elf64_Sym *syms = NULL;
	const char *strs = NULL;
	unsigned long nsyms = 0;

	if (!base)
		return NULL;
	for (unsigned int i = 0; i < eh->e_phnum; i++) {
		const Elf64_Phdr *ph = (const Elf64_Phdr *)(base + eh->e_phoff) + i;

		if (ph->p_type == PT_DYNAMIC)
			dyn = (const uint64_t *)(base + ph->p_offset);
	}
	for (; dyn && dyn[0] != DT_NULL; dyn += 2) {
		if (dyn[0] == DT_HASH)
			nsyms = ((const uint32_t *)(base + dyn[1]))[1];
		else if (dyn[0] == DT_STRTAB)
			strs = (const char *)(base + dyn[1]);
		else if (dyn[0] == DT_SYMTAB)
			syms = (const Elf64_Sym *)(base + dyn[1]);
	}
	for (unsigned long i = 1; syms && strs && i < nsyms; i++)
		if (syms[i].st_shndx && !strcmp(strs + syms[i].st_name, name))
			return (void *)(base + syms[i].st_value);
	return NULL;
}

void *sbrk(long delta)
{
	static unsigned long cur;
	unsigned long want;

	if (!cur)
		cur = (unsigned long)syscall1(__NR_brk, 0);
	want = cur + delta;
	if ((unsigned long)syscall1(__NR_brk, want) != want)
		return (void *)-1;
	cur = want;
	return (void *)(want - delta);
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, long off)
{
	return (void *)syscall6(__NR_mmap, addr, len, prot, flags, fd, off);
}

int munmap(void *addr, size_t len)
{
	return (int)syscall2(__NR_munmap, addr, len);
}

int clock_gettime(int clk, struct timespec *ts)
{
	return (int)syscall2(__NR_clock_gettime, clk, ts);
}

size_t strlen(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

int strcmp(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return (unsigned char)*a - (unsigned char)*b;
}

void *memset(void *d, int c, size_t n)
{
	unsigned char *p = d;

	while (n--)
		*p++ = (unsigned char)c;
	return d;
}

void *memcpy(void *d, const void *s, size_t n)
{
	unsigned char *p = d;
	const unsigned char *q = s;

	while (n--)
		*p++ = *q++;
	return d;
}

/* printf: %s %c %d %u %x %p with an optional l; enough for test output. */
struct out {
	char buf[256];
	size_t n;
};

static void put(struct out *o, char c)
{
	if (o->n == sizeof(o->buf)) {
		write(1, o->buf, o->n);
		o->n = 0;
	}
	o->buf[o->n++] = c;
}

static void put_num(struct out *o, unsigned long v, unsigned int base, int neg)
{
	char tmp[24];
	int i = 0;

	do {
		tmp[i++] = "0123456789abcdef"[v % base];
		v /= base;
	} while (v);
	if (neg)
		put(o, '-');
	while (i)
		put(o, tmp[--i]);
}

int printf(const char *fmt, ...)
{
	struct out o = { .n = 0 };
	va_list ap;

	va_start(ap, fmt);
	for (; *fmt; fmt++) {
		int l = 0;

		if (*fmt != '%') {
			put(&o, *fmt);
			continue;
		}
		if (*++fmt == 'l')
			l = 1, fmt++;
		switch (*fmt) {
		case 's':
			for (const char *s = va_arg(ap, const char *); s && *s; s++)
				put(&o, *s);
			break;
		case 'c':
			put(&o, (char)va_arg(ap, int));
			break;
		case 'd': {
			long v = l ? va_arg(ap, long) : va_arg(ap, int);

			put_num(&o, v < 0 ? -(unsigned long)v : (unsigned long)v, 10, v < 0);
			break;
		}
		case 'u':
			put_num(&o, l ? va_arg(ap, unsigned long) : va_arg(ap, unsigned int), 10, 0);
			break;
		case 'x':
			put_num(&o, l ? va_arg(ap, unsigned long) : va_arg(ap, unsigned int), 16, 0);
			break;
		case 'p':
			put(&o, '0');
			put(&o, 'x');
			put_num(&o, (unsigned long)va_arg(ap, void *), 16, 0);
			break;
		default:
			put(&o, '%');
			if (*fmt)
				put(&o, *fmt);
			else
				fmt--;
		}
	}
	va_end(ap);
	write(1, o.buf, o.n);
	return 0;
}
