// SPDX-License-Identifier: MIT
/*
 * The x86-64-only process calls (Linux: arch/x86/kernel/process_64.c).
 * arm64 has no arch_prctl: its thread pointer is TPIDR_EL0, which user
 * mode writes itself.
 */
#include <pagoda/arch.h>
#include <pagoda/process.h>
#include <pagoda/sched.h>
#include <pagoda/uaccess.h>
#include <pagoda/vdso.h>
#include "../../kernel/syscalls.h"

/* arch_prctl's codes, as in Linux's uapi asm/prctl.h. */
#define ARCH_SET_GS 0x1001
#define ARCH_SET_FS 0x1002
#define ARCH_GET_FS 0x1003
#define ARCH_GET_GS 0x1004
#define ARCH_MAP_VDSO_64 0x2003

/*
 * arch_prctl(code, addr): the FS base is x86-64's thread pointer, which a
 * libc sets before anything else. GS is the kernel's own (swapgs) and
 * not offered.
 */
long sys_arch_prctl(const unsigned long *args)
{
	struct process *p = current_process();

	switch (args[0]) {
	case ARCH_SET_FS:
		if (args[1] >= TASK_SIZE)
			return -EPERM;
		arch_set_tls(args[1]);
		arch_user_state_set_tls(&current_thread()->ustate, args[1]);
		return 0;
	case ARCH_GET_FS:
		arch_user_state_save(&current_thread()->ustate);
		return copy_to_user(args[1], &current_thread()->ustate.fs_base, sizeof(u64)) ?
			       -EFAULT : 0;
	case ARCH_MAP_VDSO_64:
		return vdso_remap(p, args[1]);
	default:
		return -EINVAL;
	}
}
