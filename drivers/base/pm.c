// SPDX-License-Identifier: MIT
/* The device phases of a hibernation, over the dev_pm_hooks table (pagoda/pm.h). */
#include <pagoda/pm.h>
#include <pagoda/printk.h>

extern const struct dev_pm_hooks *__start_dev_pm_hooks[];
extern const struct dev_pm_hooks *__stop_dev_pm_hooks[];

#define for_each_hooks(h) \
	for (const struct dev_pm_hooks **h = __start_dev_pm_hooks; h < __stop_dev_pm_hooks; h++)

int dpm_freeze(void)
{
	for_each_hooks(h) {
		int err = (*h)->freeze ? (*h)->freeze() : 0;

		if (!err)
			continue;
		pr_err("PM: %s would not freeze (%d)\n", (*h)->name, err);
		/* Thaw, in reverse, the ones that did. */
		while (h-- > __start_dev_pm_hooks)
			if ((*h)->thaw)
				(*h)->thaw();
		return err;
	}
	return 0;
}

void dpm_thaw(void)
{
	for_each_hooks(h)
		if ((*h)->thaw)
			(*h)->thaw();
}

void dpm_quiesce(void)
{
	for_each_hooks(h)
		if ((*h)->quiesce)
			(*h)->quiesce();
}

void dpm_restore(void)
{
	for_each_hooks(h)
		if ((*h)->restore)
			(*h)->restore();
}
