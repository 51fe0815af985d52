// SPDX-License-Identifier: MIT
/*
 * System V semaphores (Linux: ipc/sem.c): the one question Pagoda
 * answers. Pagoda has no semaphore sets. A program that only asks whether
 * the kernel has them, semctl(0, 0, IPC_INFO or SEM_INFO, &seminfo) (as
 * libdevmapper does before it decides how to wait for udev), is told the
 * limits Linux has by default and that no set is in use, as a Linux with
 * none made would say; without an answer libdevmapper prints a warning
 * on every dmsetup command. Every other command names a set, and there is
 * none: -EINVAL, as Linux says for an id not in use. semget and semop
 * stay unknown calls (-ENOSYS): a program that needs a set is told so.
 */
#include <pagoda/uaccess.h>

#include "../kernel/syscalls.h"

#define IPC_INFO 3
#define SEM_INFO 19
#define IPC_64 0x100

/* Linux's defaults (include/uapi/linux/sem.h) */
#define SEMMNI 32000
#define SEMMSL 32000
#define SEMMNS (SEMMNI * SEMMSL)
#define SEMOPM 500
#define SEMVMX 32767
#define SEMUSZ 20

struct seminfo {
	int semmap, semmni, semmns, semmnu, semmsl, semopm, semume, semusz, semvmx, semaem;
};

long sys_semctl(const unsigned long *args)
{
	int cmd = (int)args[2] & ~IPC_64;
	struct seminfo si = {
		.semmap = SEMMNS, .semmni = SEMMNI, .semmns = SEMMNS, .semmnu = SEMMNS,
		.semmsl = SEMMSL, .semopm = SEMOPM, .semume = SEMOPM, .semusz = SEMUSZ,
		.semvmx = SEMVMX, .semaem = SEMVMX,
	};

	if (cmd != IPC_INFO && cmd != SEM_INFO)
		return -EINVAL;
	if (cmd == SEM_INFO)
		si.semusz = si.semaem = 0;	/* sets and semaphores in use */
	if (copy_to_user(args[3], &si, sizeof(si)))
		return -EFAULT;
	return 0;	/* the highest set index in use: none, so 0, as Linux */
}
