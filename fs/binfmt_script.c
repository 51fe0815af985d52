// SPDX-License-Identifier: MIT
/*
 * Scripts as programs (Linux's fs/binfmt_script.c): a file that starts
 * with "#!" names its interpreter on that first line, with at most one
 * argument after it; exec runs the interpreter with that argument, then
 * the script's path, then the arguments after argv[0]. The interpreter
 * must be a program itself (a script naming a script is -ELOOP here, as
 * past Linux's nesting limit); a line longer than Linux's BINPRM_BUF_SIZE
 * with no end is -ENOEXEC.
 */
#include <pagoda/fs.h>
#include <pagoda/slab.h>
#include <pagoda/string.h>
#include <pagoda/types.h>

#define BINPRM_BUF_SIZE 256

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/*
 * data/size: the file. 0 and the new argument vector in *nargv (kmalloc'ed,
 * with its strings; the caller kfree()s it) if it is a script, 1 if it is
 * not, or -errno.
 */
int script_args(const char *data, u64 size, const char *path, int argc,
		const char *const *argv, int max_args, char ***nargv, int *nargc)
{
	char line[BINPRM_BUF_SIZE], *interp, *arg = NULL, *e, **v;
	size_t n = 0;
	int c = 0;

	if (size < 2 || data[0] != '#' || data[1] != '!')
		return 1;
	while (2 + n < size && n < sizeof(line) - 1 && data[2 + n] != '\n')
		n++;
	if (n == sizeof(line) - 1)
		return -ENOEXEC;
	memcpy(line, data + 2, n);
	line[n] = '\0';
	interp = line;
	while (is_blank(*interp))
		interp++;
	if (!*interp)
		return -ENOEXEC;
	for (e = interp; *e && !is_blank(*e); e++)
		;
	if (*e) {
		*e++ = '\0';
		while (is_blank(*e))
			e++;
		if (*e) {
			arg = e; /* the rest of the line, trailing blanks cut, is one argument */
			e += strlen(e);
			while (e > arg && is_blank(e[-1]))
				*--e = '\0';
		}
	}
	if (argc < 1)
		argc = 1;
	if (argc - 1 + (arg ? 3 : 2) > max_args)
		return -E2BIG;
	v = kmalloc((size_t)max_args * sizeof(char *) + sizeof(line) + strlen(path) + 1, GFP_KERNEL);
	if (!v)
		return -ENOMEM;
	/* The strings live after the pointers, in the same allocation. */
	e = (char *)(v + max_args);
	memcpy(e, line, sizeof(line));
	v[c++] = e + (interp - line);
	if (arg)
		v[c++] = e + (arg - line);
	v[c] = e + sizeof(line);
	memcpy(v[c++], path, strlen(path) + 1);
	for (int i = 1; i < argc; i++)
		v[c++] = (char *)argv[i];
	*nargv = v;
	*nargc = c;
	return 0;
}
