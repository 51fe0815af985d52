// SPDX-License-Identifier: MIT
/*
 * SD hosts across a hibernation (include/pagoda/pm.h tells the phases).
 *
 * The card keeps state of its own: after power-up it is given an address
 * (the RCA, which a real card picks itself), put in the transfer state,
 * switched to a 4-bit bus and a faster clock. A resumed kernel finds the
 * card as the boot kernel left it, maybe with another RCA, and the host's
 * registers as the boot kernel wrote them; so, as Linux does on resume,
 * each host in use is reset and its card taken through identification
 * again, and the card must prove to be the same one (its CID): writing
 * this kernel's idea of a file system onto another card would destroy it.
 *
 *   freeze   wait until no command is in flight on any host
 *   quiesce  (the boot kernel) signals off and a full reset: no DMA, no
 *            interrupt while memory is replaced
 *   restore  reset, identify the card again (polling, as at boot), check
 *            the CID and the size, then interrupts on
 */
#include <pagoda/mmc.h>
#include <pagoda/pm.h>
#include <pagoda/printk.h>
#include <pagoda/string.h>
#include <pagoda/time.h>

#define MMC_PM_MAX_HOSTS 8

static struct mmc_host *hosts[MMC_PM_MAX_HOSTS];
static unsigned int nr_hosts;

void mmc_pm_register(struct mmc_host *h)
{
	if (nr_hosts < MMC_PM_MAX_HOSTS)
		hosts[nr_hosts++] = h;
	else
		pr_warn("%s: more SD hosts than hibernation tracks; not set up after a resume\n",
			h->name);
}

static int mmc_pm_freeze(void)
{
	u64 deadline = ktime_get_ns() + 5 * NSEC_PER_SEC;

	for (unsigned int i = 0; i < nr_hosts; i++)
		while (READ_ONCE(hosts[i]->cmd)) {
			if (ktime_get_ns() > deadline) {
				pr_err("%s: a command is still in flight\n", hosts[i]->name);
				return -EBUSY;
			}
			msleep(1);
		}
	return 0;
}

static void mmc_pm_quiesce(void)
{
	for (unsigned int i = 0; i < nr_hosts; i++)
		sdhci_quiesce(hosts[i]);
}

static void mmc_pm_restore(void)
{
	for (unsigned int i = 0; i < nr_hosts; i++) {
		struct mmc_host *h = hosts[i];
		struct mmc_card old = h->card;
		int err;

		h->irq_mode = false;
		h->cmd = NULL;
		sdhci_init_regs(h);
		err = mmc_sd_init_card(h);
		if (!err && (memcmp(old.cid, h->card.cid, sizeof(old.cid)) ||
			     old.sectors != h->card.sectors))
			err = -ENODEV;
		if (err) {
			/* Every request fails from now on; nothing reaches a card. */
			pr_err("%s: the card is not the one the image used (%d); its disk is gone\n",
			       h->name, err);
			h->card_present = false;
			sdhci_quiesce(h);
			continue;
		}
		sdhci_enable_irq(h);
		pr_info("%s: card identified again after resume (RCA %#x)\n", h->name, h->card.rca);
	}
}

DEV_PM_HOOKS(mmc, .freeze = mmc_pm_freeze, .quiesce = mmc_pm_quiesce,
	     .restore = mmc_pm_restore);
