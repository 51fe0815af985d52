// SPDX-License-Identifier: MIT
/*
 * errno names and messages (<pagoda/errname.h>), for the values in
 * <pagoda/types.h>. The messages are the ones people know from the C
 * library's strerror(), so they can search for them.
 */
#include <pagoda/errname.h>
#include <pagoda/types.h>

static const struct {
	int err;
	const char *name;
	const char *msg;
} errs[] = {
	{ EPERM, "EPERM", "Operation not permitted" },
	{ ENOENT, "ENOENT", "No such file or directory" },
	{ ESRCH, "ESRCH", "No such process" },
	{ EINTR, "EINTR", "Interrupted system call" },
	{ EIO, "EIO", "Input/output error" },
	{ E2BIG, "E2BIG", "Argument list too long" },
	{ ENOEXEC, "ENOEXEC", "Exec format error" },
	{ EBADF, "EBADF", "Bad file descriptor" },
	{ ECHILD, "ECHILD", "No child processes" },
	{ EAGAIN, "EAGAIN", "Resource temporarily unavailable" },
	{ ENOMEM, "ENOMEM", "Cannot allocate memory" },
	{ EACCES, "EACCES", "Permission denied" },
	{ EFAULT, "EFAULT", "Bad address" },
	{ EBUSY, "EBUSY", "Device or resource busy" },
	{ EEXIST, "EEXIST", "File exists" },
	{ ENODEV, "ENODEV", "No such device" },
	{ EINVAL, "EINVAL", "Invalid argument" },
	{ EPIPE, "EPIPE", "Broken pipe" },
	{ ENOSPC, "ENOSPC", "No space left on device" },
	{ ERANGE, "ERANGE", "Numerical result out of range" },
	{ EDEADLK, "EDEADLK", "Resource deadlock avoided" },
	{ ENOSYS, "ENOSYS", "Function not implemented" },
	{ EOVERFLOW, "EOVERFLOW", "Value too large for defined data type" },
	{ ENOTSOCK, "ENOTSOCK", "Socket operation on non-socket" },
	{ EMSGSIZE, "EMSGSIZE", "Message too long" },
	{ EPROTONOSUPPORT, "EPROTONOSUPPORT", "Protocol not supported" },
	{ ESOCKTNOSUPPORT, "ESOCKTNOSUPPORT", "Socket type not supported" },
	{ EOPNOTSUPP, "EOPNOTSUPP", "Operation not supported" },
	{ EAFNOSUPPORT, "EAFNOSUPPORT", "Address family not supported by protocol" },
	{ ENOBUFS, "ENOBUFS", "No buffer space available" },
	{ EISCONN, "EISCONN", "Transport endpoint is already connected" },
	{ ETIMEDOUT, "ETIMEDOUT", "Connection timed out" },
	{ ECONNREFUSED, "ECONNREFUSED", "Connection refused" },
};

static int find(int err)
{
	if (err < 0)
		err = -err;
	for (unsigned int i = 0; i < ARRAY_SIZE(errs); i++)
		if (errs[i].err == err)
			return (int)i;
	return -1;
}

const char *errname(int err)
{
	int i = find(err);

	return i < 0 ? "E?" : errs[i].name;
}

const char *errmsg(int err)
{
	int i = find(err);

	return i < 0 ? "Unknown error" : errs[i].msg;
}
