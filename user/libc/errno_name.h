/* SPDX-License-Identifier: MIT */
/*
 * errno's value by its <errno.h> name, for the libc test programs whose
 * output is set beside Linux's line for line: a name reads the same under
 * musl and glibc, strerror's text does not. Values no program here expects
 * fall back to that text.
 */
#ifndef USER_LIBC_ERRNO_NAME_H
#define USER_LIBC_ERRNO_NAME_H

#include <errno.h>
#include <stdio.h>
#include <string.h>

static inline const char *errno_name(int e)
{
	switch (e) {
	case EACCES: return "EACCES";
	case EAFNOSUPPORT: return "EAFNOSUPPORT";
	case EAGAIN: return "EAGAIN";
	case EBADF: return "EBADF";
	case EBUSY: return "EBUSY";
	case ECONNREFUSED: return "ECONNREFUSED";
	case EFAULT: return "EFAULT";
	case EINTR: return "EINTR";
	case EINVAL: return "EINVAL";
	case EMSGSIZE: return "EMSGSIZE";
	case ENODEV: return "ENODEV";
	case ENOENT: return "ENOENT";
	case ENOMEM: return "ENOMEM";
	case ENOSPC: return "ENOSPC";
	case ENOSYS: return "ENOSYS";
	case ENOTDIR: return "ENOTDIR";
	case ENOTSOCK: return "ENOTSOCK";
	case ENOTTY: return "ENOTTY";
	case ENXIO: return "ENXIO";
	case EOVERFLOW: return "EOVERFLOW";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case EPIPE: return "EPIPE";
	case EPROTONOSUPPORT: return "EPROTONOSUPPORT";
	case ESOCKTNOSUPPORT: return "ESOCKTNOSUPPORT";
	case ESPIPE: return "ESPIPE";
	case ETIMEDOUT: return "ETIMEDOUT";
	default: return strerror(e);
	}
}

/* A call's answer as a line shows it: the number it returned, or errno's name. */
static inline const char *errno_answer(long r)
{
	static char buf[32];

	if (r >= 0) {
		snprintf(buf, sizeof(buf), "%ld", r);
		return buf;
	}
	return errno_name(errno);
}

#endif
