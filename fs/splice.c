// SPDX-License-Identifier: MIT
/*
 * sendfile(2): Pagoda moves file data only through a program's buffers,
 * so it answers -EINVAL, what Linux answers for a pair of files it cannot
 * splice; programs (busybox's cat and cp) then copy with read and write.
 */
#include <pagoda/types.h>
#include "../kernel/syscalls.h"

long sys_sendfile(const unsigned long *args)
{
	(void)args;
	return -EINVAL;
}
