// SPDX-License-Identifier: MIT
/*
 * CPUs: per-CPU data, bringing the other CPUs up, and asking them to do
 * things (inter-processor interrupts).
 *
 * A cross-CPU call is a small request (function, argument, done flag)
 * queued on the target's list, followed by an IPI; the target runs it from
 * its interrupt handler. A sender that waits with interrupts off keeps
 * serving its own queue, so two CPUs calling each other cannot deadlock.
 * The TLB shootdown is the same mechanism with its own IPI type, so
 * `cpus` can count them apart.
 */
#include <pagoda/arch.h>
#include <pagoda/atomic.h>
#include <pagoda/errname.h>
#include <pagoda/irq.h>
#include <pagoda/ksyms.h>
#include <pagoda/list.h>
#include <pagoda/params.h>
#include <pagoda/printk.h>
#include <pagoda/sched.h>
#include <pagoda/shell.h>
#include <pagoda/smp.h>
#include <pagoda/spinlock.h>
#include <pagoda/suspend.h>
#include <pagoda/time.h>
#include <pagoda/timer.h>

_Static_assert(offsetof(struct cpu_local, self) == 0, "arch reads self at 0");
_Static_assert(offsetof(struct cpu_local, current_task) == 8, "arch reads current at 8");

struct cpu_local cpu_locals[NR_CPUS];
extern struct task init_task;
static unsigned int nr_possible = 1;

unsigned int num_possible_cpus(void)
{
	return nr_possible;
}

unsigned int num_online_cpus(void)
{
	unsigned int n = 0, c;

	for_each_online_cpu(c)
		n++;
	return n;
}

static void cpu_local_setup(unsigned int cpu, struct task *t)
{
	struct cpu_local *c = &cpu_locals[cpu];

	c->self = c;
	c->cpu = cpu;
	c->current_task = t;
	t->cpu = cpu;
}

void percpu_init_boot_cpu(void)
{
	cpu_local_setup(0, &init_task);
	arch_set_this_cpu(&cpu_locals[0]);
	arch_set_current(&init_task);
	cpu_locals[0].online = true;
}

/*
 * Linux's maxcpus=: start no more CPUs than this, the boot CPU included.
 * The others are left where the firmware holds them, as if absent (a
 * Pi 4 hibernates only with one CPU: see kernel/power/cpu.c).
 */
static u64 maxcpus = NR_CPUS;
PARAM_UINT("maxcpus", maxcpus, 1, NR_CPUS, "start at most this many CPUs, the boot CPU included");

void smp_init(void)
{
	unsigned int n = arch_smp_prepare(), cpu;

	nr_possible = MIN(MAX(n, 1u), (unsigned int)NR_CPUS);
	if (nr_possible > maxcpus) {
		pr_info("smp: %u CPUs, starting %llu (maxcpus=)\n", nr_possible,
			(unsigned long long)maxcpus);
		nr_possible = (unsigned int)maxcpus;
	}
	for (cpu = 1; cpu < nr_possible; cpu++) {
		struct task *idle = idle_task_create(cpu);
		int err;
		u64 deadline;

		if (!idle) {
			pr_err("smp: no idle task for CPU %u\n", cpu);
			continue;
		}
		cpu_local_setup(cpu, idle);
		err = arch_cpu_start(cpu, (char *)idle->stack + idle->stack_size);
		if (err) {
			pr_err("smp: CPU %u did not start (%s)\n", cpu, errmsg(err));
			continue;
		}
		deadline = ktime_get_ns() + NSEC_PER_SEC;
		while (!cpu_online(cpu) && ktime_get_ns() < deadline)
			arch_cpu_relax();
		if (!cpu_online(cpu))
			pr_err("smp: CPU %u started but never came online\n", cpu);
	}
	pr_info("smp: %u of %u CPUs online\n", num_online_cpus(), nr_possible);
}

void secondary_start_kernel(unsigned int cpu)
{
	struct cpu_local *c = &cpu_locals[cpu];

	arch_set_this_cpu(c);
	arch_set_current(c->current_task);
	arch_secondary_init();
	/* Started again after a resume from hibernation: back to where it parked. */
	if (hibernate_cpu_restarting(cpu))
		hibernate_cpu_restarted(cpu);
	timers_init_cpu();
	smp_store_release(&c->online, true);
	arch_irq_enable();
	cpu_idle_loop();
}

/* ---- cross-CPU calls ------------------------------------------------- */

struct call_single_data {
	smp_call_func_t fn;
	void *info;
	struct list_head node;
	int picked; /* the target has taken fn and info: the sender may go */
	int done;   /* fn has returned */
};

static struct call_queue {
	arch_spinlock_t lock;
	struct list_head list;
} call_queues[NR_CPUS];

/* Run what others queued for this CPU. Interrupts are off. */
static void flush_call_queue(void)
{
	struct call_queue *q = &call_queues[smp_processor_id()];

	for (;;) {
		struct call_single_data *csd;
		smp_call_func_t fn;
		void *info;

		arch_spin_lock(&q->lock);
		if (!q->list.next || list_empty(&q->list)) {
			arch_spin_unlock(&q->lock);
			return;
		}
		csd = list_first_entry(&q->list, struct call_single_data, node);
		list_del(&csd->node);
		arch_spin_unlock(&q->lock);
		fn = csd->fn;
		info = csd->info;
		smp_store_release(&csd->picked, 1);
		fn(info);
		smp_store_release(&csd->done, 1);
	}
}

static void queue_call(unsigned int cpu, struct call_single_data *csd, enum ipi_type type)
{
	struct call_queue *q = &call_queues[cpu];
	unsigned long flags = arch_irq_save();

	arch_spin_lock(&q->lock);
	if (!q->list.next)
		INIT_LIST_HEAD(&q->list);
	list_add_tail(&csd->node, &q->list);
	arch_spin_unlock(&q->lock);
	arch_irq_restore(flags);
	arch_send_ipi(cpu, type);
}

/*
 * A call the target has not picked up after csd_lock_timeout ms is
 * reported, with what this CPU can see of the target (its task, how deep
 * in interrupts it is, whether it still takes any), and its IPI is sent
 * again, as Linux's CSD_LOCK_WAIT_DEBUG does. Both outcomes say something:
 * a target that answers the second IPI had lost the first; one that still
 * takes no interrupts is stuck with them masked, and the report names
 * the task it is stuck in. A target that takes interrupts but never picks
 * the call has lost it from its queue.
 */
static u64 csd_lock_timeout = 5000;
PARAM_UINT("smp.csd_lock_timeout", csd_lock_timeout, 0, 600000,
	   "ms a cross-CPU call may wait before it is reported and its IPI sent again (0: never)");

/* A test's shorter timeout (smp_set_test_csd_timeout_ms), 0: none. */
static unsigned int test_csd_timeout_ms;
static unsigned long csd_reports;

void smp_set_test_csd_timeout_ms(unsigned int ms)
{
	WRITE_ONCE(test_csd_timeout_ms, ms);
}

unsigned long smp_csd_lock_reports(void)
{
	return READ_ONCE(csd_reports);
}

static u64 csd_timeout_ns(void)
{
	unsigned int test_ms = READ_ONCE(test_csd_timeout_ms);

	return (test_ms ? test_ms : csd_lock_timeout) * NSEC_PER_MSEC;
}

struct csd_wait {
	u64 start_ns, report_ns; /* first look at the clock; next report due */
	u64 irqs;		 /* the target's interrupt count at the last report */
	unsigned int reports;
};

extern char __text_start[], __text_end[];

/*
 * Where a CPU that takes no interrupt is stuck, read from outside: the
 * words of its task's stack that point into kernel text, the deepest
 * first, as Linux prints "?" entries. Some are stale (left below the
 * live frames by earlier, deeper calls), so read it as a list of
 * suspects, the live call chain among them. Only for a target that has
 * taken no interrupt since the last look: masked, it cannot switch away,
 * so its stack stays allocated while this reads it.
 */
static void csd_scan_stack(unsigned int cpu, struct task *t)
{
	const u64 *w, *end;
	unsigned int shown = 0;

	if (!t || !t->stack)
		return;
	w = t->stack;
	end = (const u64 *)((char *)t->stack + t->stack_size);
	pr_err("smp: CPU %u's task %s[%d]: kernel text on its stack, deepest first:\n", cpu,
	       t->name, t->pid);
	for (; w < end && shown < 48; w++) {
		u64 v = READ_ONCE(*w), off;
		const char *sym;

		if (v < (u64)(unsigned long)__text_start || v >= (u64)(unsigned long)__text_end)
			continue;
		sym = ksym_lookup(v, &off);
		pr_err("smp:   +%#5lx %s+%#llx\n", (unsigned long)((const char *)w - (const char *)t->stack),
		       sym ? sym : "?", (unsigned long long)off);
		shown++;
	}
}

static void csd_wait_toolong(struct csd_wait *w, struct call_single_data *csd,
			     unsigned int cpu, enum ipi_type type, u64 now)
{
	struct cpu_local *c = &cpu_locals[cpu];
	struct task *t = READ_ONCE(c->current_task);
	u64 irqs = READ_ONCE(c->irqs), off;
	const char *fn = ksym_lookup((u64)(unsigned long)csd->fn, &off);

	pr_err("smp: CPU %u has waited %llu ms for CPU %u to %s %s (IPI %u); CPU %u runs %s[%d], "
	       "interrupt depth %u, %llu interrupts since the last look%s; sending the IPI again\n",
	       smp_processor_id(), (unsigned long long)((now - w->start_ns) / NSEC_PER_MSEC), cpu,
	       smp_load_acquire(&csd->picked) ? "finish" : "pick up", fn ? fn : "a call",
	       (unsigned int)type, cpu, t ? t->name : "?", t ? t->pid : -1,
	       READ_ONCE(c->irq_depth), (unsigned long long)(irqs - w->irqs),
	       w->reports ? "" : " (first look)");
	if (!w->reports && irqs == w->irqs)
		csd_scan_stack(cpu, t);
	w->irqs = irqs;
	w->reports++;
	__atomic_add_fetch(&csd_reports, 1, __ATOMIC_RELAXED);
	w->report_ns = now + csd_timeout_ns();
	arch_send_ipi(cpu, type);
}

static void wait_call(struct call_single_data *csd, unsigned int cpu, enum ipi_type type,
		      bool wait)
{
	int *flag = wait ? &csd->done : &csd->picked;
	struct csd_wait w = { 0 };
	unsigned int spins = 0;

	while (!smp_load_acquire(flag)) {
		u64 now;

		if (!arch_irqs_enabled())
			flush_call_queue();
		arch_cpu_relax();
		if (++spins % 1024 || !csd_timeout_ns())
			continue;
		now = ktime_get_ns();
		if (!w.start_ns) {
			w.start_ns = now;
			w.report_ns = now + csd_timeout_ns();
			w.irqs = READ_ONCE(cpu_locals[cpu].irqs);
		} else if (now >= w.report_ns) {
			csd_wait_toolong(&w, csd, cpu, type, now);
		}
	}
	if (w.reports)
		pr_err("smp: CPU %u answered after %llu ms and %u IPIs sent again\n", cpu,
		       (unsigned long long)((ktime_get_ns() - w.start_ns) / NSEC_PER_MSEC),
		       w.reports);
}

/* Run fn on every online CPU in mask but this one, then (maybe) wait. */
static void call_many(u64 mask, smp_call_func_t fn, void *info, bool wait,
		      enum ipi_type type)
{
	struct call_single_data csd[NR_CPUS];
	unsigned int me, cpu;

	preempt_disable();
	me = smp_processor_id();
	for_each_online_cpu(cpu) {
		if (cpu == me || !(mask & (1ULL << cpu)))
			continue;
		csd[cpu] = (struct call_single_data){ .fn = fn, .info = info };
		queue_call(cpu, &csd[cpu], type);
	}
	/* Always wait until picked: csd lives on this stack. */
	for_each_online_cpu(cpu)
		if (cpu != me && (mask & (1ULL << cpu)))
			wait_call(&csd[cpu], cpu, type, wait);
	preempt_enable();
}

int smp_call_function_single(unsigned int cpu, smp_call_func_t fn, void *info, bool wait)
{
	unsigned long flags;

	if (!cpu_online(cpu))
		return -ENODEV;
	preempt_disable();
	if (cpu == smp_processor_id()) {
		flags = arch_irq_save();
		fn(info);
		arch_irq_restore(flags);
	} else {
		call_many(1ULL << cpu, fn, info, wait, IPI_CALL_FUNC);
	}
	preempt_enable();
	return 0;
}

void smp_call_function(smp_call_func_t fn, void *info, bool wait)
{
	call_many(CPU_MASK_ALL, fn, info, wait, IPI_CALL_FUNC);
}

void on_each_cpu(smp_call_func_t fn, void *info, bool wait)
{
	unsigned long flags;

	preempt_disable();
	call_many(CPU_MASK_ALL, fn, info, wait, IPI_CALL_FUNC);
	flags = arch_irq_save();
	fn(info);
	arch_irq_restore(flags);
	preempt_enable();
}

struct tlb_range {
	u64 start, end;
};

static void tlb_flush_func(void *info)
{
	struct tlb_range *r = info;

	arch_flush_tlb_local(r->start, r->end);
}

void flush_tlb_kernel_range(u64 start, u64 end)
{
	struct tlb_range r = { start, end };

	preempt_disable();
	arch_flush_tlb_local(start, end);
	if (num_online_cpus() > 1)
		call_many(CPU_MASK_ALL, tlb_flush_func, &r, true, IPI_TLB_FLUSH);
	preempt_enable();
}

/*
 * A user half is in the TLBs only of CPUs where it is loaded (loading one
 * drops the previous one's entries), so only those need the shootdown.
 */
void flush_tlb_mm_range(struct mm_struct *mm, u64 start, u64 end)
{
	struct tlb_range r = { start, end };
	unsigned long mask;
	unsigned int me;

	preempt_disable();
	me = smp_processor_id();
	/*
	 * The entry's change before the mask's read: a CPU that loads mm
	 * sets its bit first (arch_switch_mm()), so either it is seen here
	 * or its walk sees the new entry. A store then a load need a full
	 * barrier, even on x86.
	 */
	smp_mb();
	mask = smp_load_acquire(&mm->cpu_mask);
	if (mask & (1UL << me))
		arch_flush_tlb_local(start, end);
	if (mask & ~(1UL << me))
		call_many(mask, tlb_flush_func, &r, true, IPI_TLB_FLUSH);
	preempt_enable();
}

void smp_send_stop(void)
{
	unsigned int cpu, me = smp_processor_id();

	for_each_online_cpu(cpu)
		if (cpu != me)
			arch_send_ipi(cpu, IPI_STOP);
}

void ipi_handle(enum ipi_type type)
{
	struct cpu_local *c = this_cpu();

	if (type < NR_IPI)
		c->ipis[type]++;
	switch (type) {
	case IPI_RESCHEDULE:
		/* need_resched is already set; irq_exit() acts on it. */
		c->resched_ipi_cycles = arch_cycles();
		break;
	case IPI_CALL_FUNC:
	case IPI_TLB_FLUSH:
		flush_call_queue();
		break;
	case IPI_STOP:
		smp_store_release(&c->online, false);
		arch_irq_disable();
		arch_cpu_die();
	default:
		break;
	}
}

static int cmd_cpus(int argc, char **argv)
{
	unsigned int cpu;

	(void)argc;
	(void)argv;
	kprintf("%u of %u CPUs online, clockevent %s\n", num_online_cpus(), nr_possible,
		arch_timer_name());
	kprintf("%3s %6s %-16s %5s %8s %8s %18s %6s\n", "CPU", "HWID", "RUNNING", "TASKS",
		"IRQS", "TIMER", "IPI resch/call/tlb", "IDLE%");
	for (cpu = 0; cpu < nr_possible; cpu++) {
		struct cpu_local *c = &cpu_locals[cpu];
		struct task *t = READ_ONCE(c->current_task);
		u64 now = arch_cycles(), since = READ_ONCE(c->idle_since);
		u64 idle = c->idle_cycles + (since ? now - since : 0);
		u64 busy = now - boot_entry_cycles;

		if (!cpu_online(cpu)) {
			kprintf("%3u %6llu offline\n", cpu, (unsigned long long)arch_cpu_hwid(cpu));
			continue;
		}
		kprintf("%3u %6llu %-16s %5u %8llu %8llu %6llu/%5llu/%5llu %5llu%%\n", cpu,
			(unsigned long long)arch_cpu_hwid(cpu), t ? t->name : "?",
			rq_nr_running(cpu), (unsigned long long)c->irqs,
			(unsigned long long)c->timer_irqs,
			(unsigned long long)c->ipis[IPI_RESCHEDULE],
			(unsigned long long)c->ipis[IPI_CALL_FUNC],
			(unsigned long long)c->ipis[IPI_TLB_FLUSH],
			(unsigned long long)(busy ? idle * 100 / busy : 0));
	}
	return 0;
}
SHELL_CMD(cpus, "cpus", "CPUs: online, hardware id, running task, interrupts, idle time",
	  cmd_cpus);
