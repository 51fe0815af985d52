// SPDX-License-Identifier: MIT
/*
 * reboot(2), after Linux's kernel/reboot.c: with the two magic numbers,
 * power off, halt (here the same: QEMU exits) or restart; the Ctrl-Alt-Del
 * switches are accepted and change nothing (there is no keyboard to
 * press them on). Wrong magic is -EINVAL, an unknown command too.
 */
#include <pagoda/arch.h>
#include <pagoda/printk.h>
#include "syscalls.h"

#define LINUX_REBOOT_MAGIC1 0xfee1deadUL
#define LINUX_REBOOT_MAGIC2 672274793UL
#define LINUX_REBOOT_MAGIC2A 85072278UL
#define LINUX_REBOOT_MAGIC2B 369367448UL
#define LINUX_REBOOT_MAGIC2C 537993216UL
#define LINUX_REBOOT_CMD_RESTART 0x01234567U
#define LINUX_REBOOT_CMD_HALT 0xcdef0123U
#define LINUX_REBOOT_CMD_CAD_ON 0x89abcdefU
#define LINUX_REBOOT_CMD_CAD_OFF 0x00000000U
#define LINUX_REBOOT_CMD_POWER_OFF 0x4321fedcU

long sys_reboot(const unsigned long *args)
{
	unsigned long m2 = args[1];

	if ((u32)args[0] != LINUX_REBOOT_MAGIC1 ||
	    (m2 != LINUX_REBOOT_MAGIC2 && m2 != LINUX_REBOOT_MAGIC2A &&
	     m2 != LINUX_REBOOT_MAGIC2B && m2 != LINUX_REBOOT_MAGIC2C))
		return -EINVAL;
	switch ((u32)args[2]) {
	case LINUX_REBOOT_CMD_CAD_ON:
	case LINUX_REBOOT_CMD_CAD_OFF:
		return 0;
	case LINUX_REBOOT_CMD_RESTART:
		kprintf("reboot: Restarting system\n");
		arch_reboot();
	case LINUX_REBOOT_CMD_HALT:
	case LINUX_REBOOT_CMD_POWER_OFF:
		kprintf("reboot: Power down\n");
		arch_poweroff();
	default:
		return -EINVAL;
	}
}
