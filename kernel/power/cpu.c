// SPDX-License-Identifier: MIT
/*
 * The other CPUs during a hibernation. Linux takes them offline (CPU
 * hotplug) and brings them up again; Pagoda parks them instead, which
 * asks less of the scheduler and still leaves them able to come back
 * after a resume:
 *
 *   park     each other CPU takes a cross-CPU call, saves where it is
 *            (hib_cpu_save(): registers, stack, return address; the user
 *            FP state of the task it interrupted) and spins, interrupts
 *            off, until released. Its stack and that record are in
 *            memory, so in the image.
 *   release  after the copy (the image is written with every CPU running,
 *            so cross-CPU calls work), or when hibernation fails: the
 *            spin ends and the call returns.
 *   restart  the resumed kernel finds the CPUs as the boot kernel left
 *            them (halted, or turned off through PSCI), starts each one
 *            through the usual bring-up path on a small stack of its own,
 *            and secondary_start_kernel() sends it here: it jumps back
 *            into the call it parked in, which returns to whatever the CPU
 *            was doing before the snapshot.
 */
#include <pagoda/atomic.h>
#include <pagoda/printk.h>
#include <pagoda/sched.h>
#include <pagoda/slab.h>
#include <pagoda/smp.h>
#include <pagoda/suspend.h>
#include <pagoda/task.h>
#include <pagoda/time.h>
#include <pagoda/timer.h>

#define PARK_STACK_SIZE 16384

struct cpu_park {
	struct hib_cpu_ctx ctx;
	void *stack;		/* for the restart path, before it jumps back */
	bool parked;
	bool restarting;
};

static struct cpu_park parks[NR_CPUS];
static bool park_release;
static atomic_t nr_parked;

static void park_this_cpu(void *info)
{
	struct cpu_park *p = &parks[smp_processor_id()];
	struct task *t = current;

	(void)info;
	/* The interrupted task's live FP registers do not survive a restart. */
	if (t->ustate)
		arch_user_state_save(t->ustate);
	if (!hib_cpu_save(&p->ctx)) {
		WRITE_ONCE(p->parked, true);
		atomic_inc(&nr_parked);
		while (!READ_ONCE(park_release))
			arch_cpu_relax();
	} else {
		/* Restarted after a resume: give the task back what the restart lost. */
		if (t->ustate)
			arch_user_state_load(t->ustate);
		if (t->mm)
			arch_switch_mm(t->mm);
	}
	WRITE_ONCE(p->parked, false);
	atomic_dec(&nr_parked);
}

static bool wait_parked(int want, u64 ms)
{
	u64 deadline = ktime_get_ns() + ms * NSEC_PER_MSEC;

	while (atomic_read(&nr_parked) != want)
		if (ktime_get_ns() > deadline)
			return false;
		else
			arch_cpu_relax();
	return true;
}

int hibernate_cpus_restartable(const char *what)
{
	unsigned int cpu;

	/*
	 * Every CPU but the boot CPU: the image is made and resumed there
	 * (hibernate() moves itself to it after this check), so it is the
	 * one never stopped, whichever CPU asks.
	 */
	for_each_online_cpu(cpu)
		if (cpu != 0 && !arch_cpu_can_restart(cpu)) {
			pr_err("PM: %s: CPU %u could not be started again across an image (nothing "
			       "can take it back from where its firmware released it); boot with "
			       "maxcpus=1 for %s\n", what, cpu, what);
			return -EOPNOTSUPP;
		}
	return 0;
}

int hibernate_park_cpus(void)
{
	unsigned int cpu, me = smp_processor_id();
	int want = 0;

	for_each_online_cpu(cpu) {
		if (cpu == me)
			continue;
		if (!parks[cpu].stack)
			parks[cpu].stack = kmalloc(PARK_STACK_SIZE, GFP_KERNEL);
		if (!parks[cpu].stack)
			return -ENOMEM;
		want++;
	}
	WRITE_ONCE(park_release, false);
	atomic_set(&nr_parked, 0);
	smp_call_function(park_this_cpu, NULL, false);
	if (!wait_parked(want, 1000)) {
		pr_err("PM: hibernation: %d of %d other CPUs parked in time\n",
		       atomic_read(&nr_parked), want);
		hibernate_release_cpus();
		return -EBUSY;
	}
	return 0;
}

void hibernate_release_cpus(void)
{
	WRITE_ONCE(park_release, true);
	wait_parked(0, 1000);
}

void hibernate_restart_cpus(void)
{
	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++) {
		struct cpu_park *p = &parks[cpu];
		int err, left = atomic_read(&nr_parked) - 1;

		if (!READ_ONCE(p->parked))
			continue;
		WRITE_ONCE(p->restarting, true);
		err = arch_cpu_start(cpu, (char *)p->stack + PARK_STACK_SIZE);
		if (err || !wait_parked(left, 2000)) {
			/* It stays marked online with nobody home: say so loudly. */
			pr_err("PM: resume: CPU %u did not come back (%d)\n", cpu, err);
			continue;
		}
	}
	/* The boot kernel's release flag is not ours; ours still says "spin". */
	WRITE_ONCE(park_release, true);
}

void hibernate_cpu_restarted(unsigned int cpu)
{
	struct cpu_park *p = &parks[cpu];

	WRITE_ONCE(p->restarting, false);
	/* Its timer's deadline and its cycle stamps are this kernel's to set again. */
	sched_clock_resumed();
	clockevent_reprogram();
	hib_cpu_restore(&p->ctx);
}

/* Called by secondary_start_kernel(): is this CPU coming back from a park? */
bool hibernate_cpu_restarting(unsigned int cpu)
{
	return cpu < NR_CPUS && READ_ONCE(parks[cpu].restarting);
}
