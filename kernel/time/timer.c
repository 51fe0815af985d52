// SPDX-License-Identifier: MIT
/*
 * Kernel timers, the per-CPU clockevent, sleeping, and the clocks.
 *
 * Each CPU keeps its pending timers in a list sorted by expiry and programs
 * its one-shot timer for the earliest, or for the next scheduler tick if a
 * task is running (idle CPUs take no ticks). A timer fires on the CPU that
 * armed it, in interrupt context, in expiry order.
 */
#include <pagoda/arch.h>
#include <pagoda/atomic.h>
#include <pagoda/errname.h>
#include <pagoda/printk.h>
#include <pagoda/process.h>
#include <pagoda/sched.h>
#include <pagoda/shell.h>
#include <pagoda/spinlock.h>
#include <pagoda/timer.h>
#include <pagoda/vdso.h>

static struct timer_base {
	arch_spinlock_t lock;
	struct list_head list;
	struct timer_list *running;
	u64 next_tick;
} bases[NR_CPUS];

static s64 realtime_offset; /* CLOCK_REALTIME - CLOCK_MONOTONIC */
static bool have_rtc;

void timer_setup(struct timer_list *t, void (*fn)(struct timer_list *))
{
	t->function = fn;
	t->cpu = -1;
	t->expires = 0;
	INIT_LIST_HEAD(&t->entry);
	arch_spin_lock_init(&t->arm_lock);
}

bool timer_pending(const struct timer_list *t)
{
	return READ_ONCE(t->cpu) >= 0;
}

/* Lock the base t is on, or return NULL when t is not pending. */
static struct timer_base *lock_timer_base(struct timer_list *t)
{
	for (;;) {
		int cpu = READ_ONCE(t->cpu);
		struct timer_base *b;

		if (cpu < 0)
			return NULL;
		b = &bases[cpu];
		arch_spin_lock(&b->lock);
		if (READ_ONCE(t->cpu) == cpu)
			return b;
		arch_spin_unlock(&b->lock);
	}
}

static bool detach(struct timer_list *t)
{
	struct timer_base *b = lock_timer_base(t);

	if (!b)
		return false;
	list_del_init(&t->entry);
	WRITE_ONCE(t->cpu, -1);
	arch_spin_unlock(&b->lock);
	return true;
}

/*
 * Linux moves a timer between bases under its old base's lock, marked
 * migrating meanwhile; here t->cpu is -1 while t is on no list, so there
 * is no base to lock, and the timer's own arm_lock serializes instead.
 * Without it two CPUs re-arming one timer (the swiotlb shrink timer, from
 * the grow and the shrink workers at once) both linked it, and the next
 * walk of either list went round the loop they made, interrupts off.
 * Lock order: arm_lock, then a base's lock. The expiry in
 * clockevent_interrupt() takes only the base's, and t->function runs
 * outside it, so a function may re-arm its own timer.
 */
bool mod_timer(struct timer_list *t, u64 expires)
{
	unsigned long flags = arch_irq_save();
	unsigned int cpu = smp_processor_id();
	struct timer_base *b = &bases[cpu];
	struct timer_list *pos;
	bool was, first;

	arch_spin_lock(&t->arm_lock);
	was = detach(t);
	t->expires = expires;
	arch_spin_lock(&b->lock);
	list_for_each_entry(pos, &b->list, entry)
		if (pos->expires > expires)
			break;
	list_add_tail(&t->entry, &pos->entry);
	WRITE_ONCE(t->cpu, (int)cpu);
	first = b->list.next == &t->entry;
	arch_spin_unlock(&b->lock);
	arch_spin_unlock(&t->arm_lock);
	if (first)
		clockevent_reprogram();
	arch_irq_restore(flags);
	return was;
}

bool del_timer(struct timer_list *t)
{
	unsigned long flags = arch_irq_save();
	bool was;

	arch_spin_lock(&t->arm_lock);
	was = detach(t);
	arch_spin_unlock(&t->arm_lock);
	arch_irq_restore(flags);
	return was;
}

/* Walk each list with a bound: a loop or a broken link is caught, not followed forever. */
bool timer_bases_consistent(void)
{
	bool ok = true;

	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++) {
		struct timer_base *b = &bases[cpu];
		unsigned long flags = arch_irq_save();
		struct list_head *p;
		u64 last = 0;
		unsigned int n = 0;

		arch_spin_lock(&b->lock);
		for (p = b->list.next; b->list.next && p != &b->list && ok; p = p->next) {
			struct timer_list *t = list_entry(p, struct timer_list, entry);

			ok = ++n < 100000 && p->next->prev == p && t->cpu == (int)cpu &&
			     t->expires >= last;
			last = t->expires;
		}
		arch_spin_unlock(&b->lock);
		arch_irq_restore(flags);
	}
	return ok;
}

bool del_timer_sync(struct timer_list *t)
{
	bool was = del_timer(t);
	unsigned int cpu;

	smp_rmb(); /* "not pending" (read by del_timer) before "running" */
	/* It may be running right now on some CPU: wait until it returns. */
	for_each_online_cpu(cpu)
		while (READ_ONCE(bases[cpu].running) == t)
			arch_cpu_relax();
	return was;
}

void clockevent_reprogram(void)
{
	unsigned long flags = arch_irq_save();
	struct timer_base *b = &bases[smp_processor_id()];
	u64 next = U64_MAX;

	arch_spin_lock(&b->lock);
	if (!list_empty(&b->list))
		next = list_first_entry(&b->list, struct timer_list, entry)->expires;
	arch_spin_unlock(&b->lock);
	if (current != this_cpu()->idle || !scheduler_running) {
		if (!b->next_tick)
			b->next_tick = ktime_get_ns() + TICK_NSEC;
		next = MIN(next, b->next_tick);
	}
	arch_timer_set_deadline(next == U64_MAX ? U64_MAX : ktime_to_cycles(next));
	arch_irq_restore(flags);
}

void clockevent_interrupt(void)
{
	struct timer_base *b = &bases[smp_processor_id()];
	u64 now = ktime_get_ns();

	this_cpu()->timer_irqs++;
	vdso_update_tick(now);
	arch_spin_lock(&b->lock);
	while (!list_empty(&b->list)) {
		struct timer_list *t = list_first_entry(&b->list, struct timer_list, entry);

		if (t->expires > now)
			break;
		list_del_init(&t->entry);
		/*
		 * "Running" before "not pending": del_timer_sync() reads them in
		 * the other order, so it sees at least one and waits.
		 */
		WRITE_ONCE(b->running, t);
		smp_wmb();
		WRITE_ONCE(t->cpu, -1);
		arch_spin_unlock(&b->lock);
		t->function(t);
		arch_spin_lock(&b->lock);
		WRITE_ONCE(b->running, NULL);
	}
	arch_spin_unlock(&b->lock);
	if (b->next_tick && now >= b->next_tick) {
		b->next_tick = 0;
		if (scheduler_running) {
			scheduler_tick();
			itimer_tick(this_cpu()->irq_from_user);
		}
	}
	clockevent_reprogram();
}

void timers_init_cpu(void)
{
	struct timer_base *b = &bases[smp_processor_id()];

	arch_spin_lock_init(&b->lock);
	INIT_LIST_HEAD(&b->list);
	clockevent_reprogram();
}

/* ---- sleeping ---------------------------------------------------------- */

struct sleeper {
	struct timer_list timer;
	struct task *task;
};

static void sleeper_wake(struct timer_list *t)
{
	wake_up_process(container_of(t, struct sleeper, timer)->task);
}

u64 schedule_timeout(u64 ns)
{
	struct sleeper s = { .task = current };
	u64 expires = ktime_get_ns() + ns, now;

	timer_setup(&s.timer, sleeper_wake);
	mod_timer(&s.timer, expires);
	schedule();
	del_timer_sync(&s.timer);
	now = ktime_get_ns();
	return expires > now ? expires - now : 0;
}

void msleep(unsigned int ms)
{
	u64 left = (u64)ms * NSEC_PER_MSEC;

	might_sleep();
	while (left) {
		set_current_state(TASK_UNINTERRUPTIBLE);
		left = schedule_timeout(left);
	}
}

/* ---- clocks ------------------------------------------------------------ */

s64 realtime_offset_ns(void)
{
	return READ_ONCE(realtime_offset);
}

u64 ktime_get_real_ns(void)
{
	return (u64)((s64)ktime_get_ns() + realtime_offset_ns());
}

bool realtime_from_rtc(void)
{
	return have_rtc;
}

void timekeeping_resume(u64 saved_ns)
{
	s64 secs;

	/*
	 * The counter restarted with the machine. Move the clock's origin so
	 * that "now" is the instant the image was taken: uptime and every
	 * timer deadline carry on from there. The unsigned difference in
	 * ktime_get_ns() stays right even when the new origin is "negative".
	 */
	boot_entry_cycles = arch_cycles() - (ktime_to_cycles(saved_ns) - boot_entry_cycles);
	secs = arch_rtc_read_seconds();
	if (secs >= 0)
		WRITE_ONCE(realtime_offset, secs * (s64)NSEC_PER_SEC - (s64)ktime_get_ns());
	vdso_update_clock();
}

void time_init(void)
{
	s64 secs = arch_rtc_read_seconds();

	if (secs >= 0) {
		have_rtc = true;
		WRITE_ONCE(realtime_offset, secs * (s64)NSEC_PER_SEC - (s64)ktime_get_ns());
	} else {
		pr_warn("time: no real-time clock (%s); the date starts at 1970\n",
			errmsg((int)secs));
	}
	timers_init_cpu();
	pr_info("time: clocksource cycle counter at %llu kHz, clockevent %s, %u Hz tick when busy\n",
		(unsigned long long)(arch_cycles_hz() / 1000), arch_timer_name(), HZ);
}

/* Civil date from days since 1970 (Howard Hinnant's algorithm, as facts). */
static void civil_from_days(s64 z, int *y, unsigned int *m, unsigned int *d)
{
	s64 era, yoe, doy, doe, mp;

	z += 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = z - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	*d = (unsigned int)(doy - (153 * mp + 2) / 5 + 1);
	*m = (unsigned int)(mp < 10 ? mp + 3 : mp - 9);
	*y = (int)(yoe + era * 400 + (*m <= 2));
}

static int cmd_date(int argc, char **argv)
{
	u64 ns = ktime_get_real_ns(), s = ns / NSEC_PER_SEC;
	unsigned int m, d;
	int y;

	(void)argc;
	(void)argv;
	civil_from_days((s64)(s / 86400), &y, &m, &d);
	kprintf("%04d-%02u-%02u %02llu:%02llu:%02llu UTC%s\n", y, m, d,
		(unsigned long long)(s / 3600 % 24), (unsigned long long)(s / 60 % 60),
		(unsigned long long)(s % 60), have_rtc ? "" : " (no RTC: time since boot)");
	return 0;
}
SHELL_CMD(date, "date", "the real-time clock (CLOCK_REALTIME)", cmd_date);
