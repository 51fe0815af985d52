// SPDX-License-Identifier: MIT
/*
 * Hibernation's control flow (Linux's kernel/power/hibernate.c):
 *
 *   hibernate()         freeze tasks, freeze devices, stop the other CPUs,
 *                       swsusp_arch_suspend() -> swsusp_save() (the atomic
 *                       copy), CPUs and devices back, write the image,
 *                       power off. When the image is resumed, the same
 *                       swsusp_arch_suspend() call returns a second time,
 *                       with 1, and hibernate() carries on from there.
 *   software_resume()   at boot, after the drivers: if resume= holds an
 *                       image this kernel may load, read it, erase its
 *                       signature, stop every device, and jump.
 *
 * Parameters: resume=<block device> (a partition or a whole disk),
 * noresume (boot normally, leave the image alone).
 */
#include <pagoda/arch.h>
#include <pagoda/blkdev.h>
#include <pagoda/err.h>
#include <pagoda/errname.h>
#include <pagoda/freezer.h>
#include <pagoda/mm.h>
#include <pagoda/params.h>
#include <pagoda/pm.h>
#include <pagoda/preempt.h>
#include <pagoda/printk.h>
#include <pagoda/sched.h>
#include <pagoda/smp.h>
#include <pagoda/string.h>
#include <pagoda/suspend.h>
#include <pagoda/time.h>
#include <pagoda/timer.h>

#include "power.h"

static char resume_dev[32];
PARAM_STRING("resume", resume_dev,
	     "the block device hibernation writes its image to and resumes from (vda2, /dev/vda2, 253:2)");
static bool noresume;
PARAM_BOOL("noresume", noresume, "do not resume from the resume= device at boot");
static bool hibernate_at_boot;
PARAM_BOOL("hibernate", hibernate_at_boot,
	   "hibernate as soon as the boot is done (tests); the resumed kernel goes on to the shell");

bool hibernation_resuming;

/*
 * The saving kernel's state for the snapshot. In kernel data, so it is in
 * the image itself: after a resume these are what they were at the copy.
 */
static struct snapshot snap;
static struct swsusp_header header;
static u64 snapshot_ktime_ns, snapshot_real_ns;
/* In the resumed kernel: when its clock started again, for the report. */
static u64 resumed_at_ns;

int swsusp_save(void)
{
	return snapshot_copy_atomic(snapshot_in_progress);
}

/* The image's identity and the machine it was made on. */
static void fill_header(struct swsusp_header *h)
{
	struct swsusp_region regions[SWSUSP_MAX_REGIONS];
	struct swsusp_expect e;
	unsigned int nr;

	memset(h, 0, sizeof(*h));
	swsusp_fill_expect(&e, NULL, regions, &nr);
	strlcpy(h->arch, e.arch, sizeof(h->arch));
	strlcpy(h->platform, e.platform, sizeof(h->platform));
	memcpy(h->build_id, e.build_id, e.build_id_len);
	h->build_id_len = e.build_id_len;
	h->nr_cpus = num_online_cpus();
	h->nr_regions = nr;
	memcpy(h->regions, regions, nr * sizeof(*regions));
	arch_hibernation_header(&h->restore_pgd, &h->resume_entry);
}

/* Tenths of a MiB/s: an SD card under emulation moves well under one. */
u64 hibernate_mib_per_s_x10(u64 bytes, u64 ns)
{
	u64 us = ns / 1000;

	return (bytes >> 10) * 10000000 / (us ? us : 1) >> 10;
}

static struct block_device *open_resume_device(const char *who)
{
	struct block_device *bdev;

	if (!resume_dev[0]) {
		pr_err("PM: %s: no resume device: boot with resume=<device> (e.g. resume=vda2)\n", who);
		return ERR_PTR(-ENODEV);
	}
	bdev = blkdev_get_by_name(resume_dev);
	if (IS_ERR(bdev))
		pr_err("PM: %s: resume=%s: %s (%s); the block devices are in `lsblk`\n", who,
		       resume_dev, PTR_ERR(bdev) == -ENOENT ? "no such block device" :
		       errmsg((int)PTR_ERR(bdev)), errname((int)PTR_ERR(bdev)));
	return bdev;
}

/* The copy, with every other CPU stopped and interrupts off. */
static int create_image(void)
{
	unsigned long flags;
	int ret;

	/* This thread stays on this CPU while the others park. */
	preempt_disable();
	if (smp_processor_id() != 0) {
		/* hibernate() moved us to CPU 0; a resume can only come back there. */
		preempt_enable();
		return -EBUSY;
	}
	ret = hibernate_park_cpus();
	if (ret) {
		preempt_enable();
		return ret;
	}
	flags = arch_irq_save();
	snapshot_ktime_ns = ktime_get_ns();
	snapshot_real_ns = ktime_get_real_ns();
	snapshot_in_progress = &snap;
	ret = swsusp_arch_suspend();
	if (ret == 1) {
		/* Back from the image: this CPU's clock and timer first. */
		hibernation_resuming = true;
		timekeeping_resume(snapshot_ktime_ns);
		resumed_at_ns = ktime_get_ns();
		arch_hibernation_resumed();
		sched_clock_resumed();
		clockevent_reprogram();
		hibernate_restart_cpus();
	} else {
		hibernate_release_cpus();
	}
	arch_irq_restore(flags);
	preempt_enable();
	return ret;
}

static void report_resumed(void)
{
	pr_info("PM: resumed from hibernation; the clock carries on from %llu.%03llu s; "
		"CPUs, devices and tasks back in %llu us\n",
		(unsigned long long)(snapshot_ktime_ns / NSEC_PER_SEC),
		(unsigned long long)(snapshot_ktime_ns / NSEC_PER_MSEC % 1000),
		(unsigned long long)((ktime_get_ns() - resumed_at_ns) / 1000));
}

int hibernate(void)
{
	struct block_device *bdev = open_resume_device("hibernation");
	u64 t0 = ktime_get_ns(), t_frozen, t_prepared, t_copied, allowed = current->cpus_allowed;
	int err;

	if (IS_ERR(bdev))
		return (int)PTR_ERR(bdev);
	err = hibernate_cpus_restartable("hibernation");
	if (err)
		goto out_put;
	/*
	 * The boot kernel jumps into the image on the boot CPU, so the image
	 * must be made there: the CPU state it holds is that CPU's, and the
	 * others are the parked ones. (Linux hibernates from the boot CPU too.)
	 */
	err = set_cpus_allowed(current, 1);
	if (err)
		goto out_put;
	/* Every struct page must be written before the pages are walked. */
	page_alloc_wait_deferred();
	pr_info("PM: hibernation: freezing tasks\n");
	err = freeze_processes();
	if (err)
		goto out_put;
	err = dpm_freeze();
	if (err)
		goto out_thaw;
	t_frozen = ktime_get_ns();
	err = snapshot_create_bitmaps(&snap);
	if (!err)
		err = snapshot_preallocate(&snap);
	if (err) {
		pr_err("PM: hibernation: cannot prepare the snapshot (%d)\n", err);
		goto out_release;
	}
	t_prepared = ktime_get_ns();
	err = create_image();
	if (err < 0) {
		pr_err("PM: hibernation: the atomic copy failed (%d)\n", err);
		goto out_release;
	}
	if (err == 1) {
		/* The resumed kernel: devices for this kernel's memory, then tasks. */
		dpm_restore();
		snapshot_release(&snap);
		thaw_processes();
		hibernation_resuming = false;
		set_cpus_allowed(current, allowed);
		blkdev_put(bdev);
		report_resumed();
		return 0;
	}
	snapshot_trim_copies(&snap);
	t_copied = ktime_get_ns();
	pr_info("PM: hibernation: snapshot of %lu pages (%lu MiB) in %llu ms (bitmaps and %lu "
		"copy pages %llu ms, the atomic copy %llu ms)\n", snap.image_pages,
		snap.image_pages >> (20 - PAGE_SHIFT),
		(unsigned long long)((t_copied - t_frozen) / NSEC_PER_MSEC), snap.nr_copies,
		(unsigned long long)((t_prepared - t_frozen) / NSEC_PER_MSEC),
		(unsigned long long)((t_copied - t_prepared) / NSEC_PER_MSEC));
	/* Devices back, to write the image; tasks stay frozen. */
	dpm_thaw();
	fill_header(&header);
	header.ktime_ns = snapshot_ktime_ns;
	header.real_ns = snapshot_real_ns;
	err = swsusp_write(bdev, &snap, &header);
	if (!err) {
		u64 ns = swsusp_last_write_ns;
		u64 mibs = hibernate_mib_per_s_x10((u64)snap.image_pages * PAGE_SIZE, ns);

		pr_info("PM: hibernation: image written to %s: %lu pages in %llu ms (%llu.%llu MiB/s; "
			"checksums %llu ms, waiting for the device %llu ms)\n",
			bdev->bd_name, snap.image_pages, (unsigned long long)(ns / NSEC_PER_MSEC),
			(unsigned long long)(mibs / 10), (unsigned long long)(mibs % 10),
			(unsigned long long)(swsusp_crc_ns / NSEC_PER_MSEC),
			(unsigned long long)(swsusp_wait_ns / NSEC_PER_MSEC));
		pr_info("PM: hibernation: done in %llu ms (freeze %llu, snapshot %llu, write %llu); "
			"powering off\n", (unsigned long long)((ktime_get_ns() - t0) / NSEC_PER_MSEC),
			(unsigned long long)((t_frozen - t0) / NSEC_PER_MSEC),
			(unsigned long long)((t_copied - t_frozen) / NSEC_PER_MSEC),
			(unsigned long long)(ns / NSEC_PER_MSEC));
		arch_emulator_exit(0);
		arch_poweroff();
	}
	snapshot_release(&snap);
	goto out_thaw_dev;
out_release:
	snapshot_release(&snap);
out_thaw_dev:
	dpm_thaw();
out_thaw:
	thaw_processes();
out_put:
	set_cpus_allowed(current, allowed);
	blkdev_put(bdev);
	return err;
}

static void *next_safe_page(void *ctx)
{
	return restore_plan_safe_page(ctx);
}

static struct restore_plan plan;

/*
 * The boot kernel's other CPUs: stopped in a state the resumed kernel can
 * start them from (arch_cpu_die()), and known to be there before the jump.
 */
static void stop_other_cpus(void)
{
	unsigned int cpu, me = smp_processor_id();
	u64 deadline = ktime_get_ns() + NSEC_PER_SEC;

	smp_send_stop();
	for_each_online_cpu(cpu)
		while (cpu != me && cpu_online(cpu) && ktime_get_ns() < deadline)
			arch_cpu_relax();
	/* Past clearing its flag, each is on its way off: give it time to get there. */
	udelay(20000);
}

void hibernate_boot_request(void)
{
	int err;

	if (!hibernate_at_boot)
		return;
	/* Once: the resumed kernel comes back here, and must not go round again. */
	hibernate_at_boot = false;
	err = hibernate();
	if (err)
		pr_err("PM: hibernate (command line): failed (%d); going on with the boot\n", err);
}

void software_resume(void)
{
	struct block_device *bdev;
	struct swsusp_header h;
	u64 mibs, allowed = current->cpus_allowed;
	int err;

	if (!resume_dev[0])
		return;
	if (noresume) {
		pr_info("PM: resume: noresume: not looking at %s\n", resume_dev);
		return;
	}
	bdev = open_resume_device("resume");
	if (IS_ERR(bdev))
		return;
	if (swsusp_check(bdev, &h))
		goto out_put;
	pr_info("PM: resume: image on %s: %llu pages, taken at uptime %llu s; loading\n",
		bdev->bd_name, (unsigned long long)h.image_pages,
		(unsigned long long)(h.ktime_ns / NSEC_PER_SEC));
	/*
	 * The jump into the image must be made on the boot CPU, where the
	 * image was made (hibernate() moves there too): init may run on
	 * another by now, and that one would be stopped with the rest.
	 */
	if (set_cpus_allowed(current, 1) || smp_processor_id() != 0) {
		pr_err("PM: resume: cannot move to the boot CPU; the image on %s is kept\n",
		       bdev->bd_name);
		goto out_put;
	}
	/* Kept for a boot that can use it: nothing is read, nothing erased. */
	if (hibernate_cpus_restartable("resume")) {
		pr_err("PM: resume: the image on %s is kept; booting normally\n", bdev->bd_name);
		goto out_put;
	}
	page_alloc_wait_deferred();
	err = restore_plan_init(&plan, h.image_pages);
	if (err) {
		pr_err("PM: resume: no memory for the bitmaps (%d); booting normally\n", err);
		goto out_put;
	}
	err = swsusp_read(bdev, &h, &plan);
	if (err)
		goto out_release;
	mibs = hibernate_mib_per_s_x10(h.image_pages * PAGE_SIZE, swsusp_last_read_ns);
	pr_info("PM: resume: image read in %llu ms (%llu.%llu MiB/s; checksums %llu ms, waiting "
		"for the device %llu ms): %lu pages in place, %lu to copy\n",
		(unsigned long long)(swsusp_last_read_ns / NSEC_PER_MSEC),
		(unsigned long long)(mibs / 10), (unsigned long long)(mibs % 10),
		(unsigned long long)(swsusp_crc_ns / NSEC_PER_MSEC),
		(unsigned long long)(swsusp_wait_ns / NSEC_PER_MSEC), plan.direct, plan.relocated);
	/* Used once: a crash from here on must not resume the same image again. */
	err = swsusp_erase_signature(bdev);
	if (err) {
		pr_err("PM: resume: cannot erase the image's signature (%d); booting normally\n", err);
		goto out_release;
	}
	blkdev_put(bdev);
	stop_other_cpus();
	dpm_quiesce();
	pr_info("PM: resume: jumping into the image %llu ms after boot\n",
		(unsigned long long)(ktime_get_ns() / NSEC_PER_MSEC));
	arch_irq_disable();
	err = swsusp_arch_resume(plan.pbe_head ? __pa(plan.pbe_head) : 0, h.restore_pgd,
				 h.resume_entry, next_safe_page, &plan);
	/* Devices are reset and the other CPUs stopped: no way back to a normal boot. */
	panic("PM: resume: the restore code could not start (%d)", err);
out_release:
	restore_plan_release(&plan);
out_put:
	/* a normal boot after all: init may run anywhere again */
	set_cpus_allowed(current, allowed);
	blkdev_put(bdev);
}
