/* SPDX-License-Identifier: MIT */
/*
 * What devices do around a hibernation (kernel/power/hibernate.c runs the
 * phases; drivers/base/pm.c walks the table). A subsystem declares its
 * hooks once, by declaration, in the linker table dev_pm_hooks:
 *
 *   freeze    the saving kernel, before the snapshot: let in-flight I/O
 *             finish and start no more (0, or an errno that aborts)
 *   thaw      the saving kernel, after the snapshot: carry on, to write
 *             the image (and again if hibernation failed)
 *   quiesce   the boot kernel, just before it jumps into an image: stop
 *             every DMA, because the memory it points at is about to be
 *             overwritten
 *   restore   the resumed kernel: the hardware was set up by the boot
 *             kernel, for the boot kernel's memory; set it up again for
 *             this kernel's (queues, interrupt messages)
 *
 * Any hook may be NULL. Linux has these as dev_pm_ops on every device;
 * Pagoda's drivers keep their devices on their own lists, so the hooks
 * are per subsystem.
 */
#ifndef PAGODA_PM_H
#define PAGODA_PM_H

#include <pagoda/types.h>

struct dev_pm_hooks {
	const char *name;
	int (*freeze)(void);
	void (*thaw)(void);
	void (*quiesce)(void);
	void (*restore)(void);
};

#define DEV_PM_HOOKS(hname, ...)                                              \
	static const struct dev_pm_hooks __dev_pm_##hname = { .name = #hname,  \
							     __VA_ARGS__ };   \
	static const struct dev_pm_hooks *__dev_pm_ptr_##hname __used          \
		__section("dev_pm_hooks") = &__dev_pm_##hname

/* Run one phase over every subsystem; dpm_freeze() thaws what it froze on failure. */
int dpm_freeze(void);
void dpm_thaw(void);
void dpm_quiesce(void);
void dpm_restore(void);

#endif
