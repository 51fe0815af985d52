// SPDX-License-Identifier: MIT
/*
 * Lock classes, lock statistics and the small lock validator described in
 * pagoda/lockdep.h.
 *
 * The order graph is a bit matrix: after[a] has bit b when class b was
 * taken while class a was held. Before a task waits for class B while
 * holding A, a new edge A -> B is checked: if B already reaches A through
 * the graph, some other path takes them the other way round, and the two
 * can deadlock. Only new edges cost a search, so the steady state is a
 * bit test per held lock.
 */
#include <pagoda/arch.h>
#include <pagoda/atomic.h>
#include <pagoda/params.h>
#include <pagoda/printk.h>
#include <pagoda/sched.h>
#include <pagoda/shell.h>
#include <pagoda/spinlock.h>
#include <pagoda/string.h>
#include <pagoda/time.h>

bool lockdep_enabled;
PARAM_BOOL("lockdep", lockdep_enabled,
	   "check lock order and sleeping in atomic context (debug; slower)");
bool lockstat_enabled = true;
PARAM_BOOL("lockstat", lockstat_enabled,
	   "count acquisitions, contentions, wait and hold time per lock class");

struct lockdep_counts lockdep_counts;

#define MAX_LOCK_CLASSES 256
#define WORDS (MAX_LOCK_CLASSES / 64)

static struct lock_class *classes[MAX_LOCK_CLASSES]; /* by id; 0 unused */
static unsigned int nr_classes = 1;
static unsigned long after[MAX_LOCK_CLASSES][WORDS];
static arch_spinlock_t graph_lock;

static struct lock_class unnamed_class = { .name = "(unnamed spinlock)" };

static const char *const kind_names[LOCK_KINDS] = {
	"spin", "rwlock", "mutex", "rwsem",
};

static void register_class(struct lock_class *c)
{
	unsigned long flags = arch_irq_save();

	arch_spin_lock(&graph_lock);
	if (!c->id && nr_classes < MAX_LOCK_CLASSES) {
		classes[nr_classes] = c;
		smp_store_release(&c->id, (u16)nr_classes);
		nr_classes++;
	}
	arch_spin_unlock(&graph_lock);
	arch_irq_restore(flags);
}

static inline struct lock_class *class_of(struct lock_class *c)
{
	if (!c)
		c = &unnamed_class;
	if (unlikely(!smp_load_acquire(&c->id)))
		register_class(c);
	return c;
}

/* A static lock's own class, made once; racing first users agree by cmpxchg. */
#define MAX_STATIC_CLASSES 192
static struct lock_class static_classes[MAX_STATIC_CLASSES];
static unsigned int nr_static_classes;

struct lock_class *lock_class_static(struct lock_class **slot, const char *name, u8 kind)
{
	struct lock_class *c, *none = NULL;
	unsigned int i;

	if (!name)
		return &unnamed_class;
	i = __atomic_fetch_add(&nr_static_classes, 1, __ATOMIC_RELAXED);
	if (i >= MAX_STATIC_CLASSES)
		return &unnamed_class; /* (and its stats lump together) */
	c = &static_classes[i];
	c->name = name;
	c->kind = kind;
	if (!__atomic_compare_exchange_n(slot, &none, c, false, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE))
		return none; /* someone else's won; our slot stays unused */
	return c;
}

unsigned int lock_class_count(void)
{
	return nr_classes - 1;
}

struct lock_class *lock_class_get(unsigned int i)
{
	return i + 1 < nr_classes ? classes[i + 1] : NULL;
}

static bool edge(unsigned int a, unsigned int b)
{
	return after[a][b / 64] & (1UL << (b % 64));
}

/* Does from reach to? Breadth first over the matrix. */
static bool reaches(unsigned int from, unsigned int to)
{
	unsigned long seen[WORDS] = { 0 };
	u16 queue[MAX_LOCK_CLASSES];
	unsigned int head = 0, tail = 0;

	queue[tail++] = (u16)from;
	seen[from / 64] |= 1UL << (from % 64);
	while (head < tail) {
		unsigned int a = queue[head++];

		if (a == to)
			return true;
		for (unsigned int w = 0; w < WORDS; w++) {
			unsigned long next = after[a][w] & ~seen[w];

			while (next) {
				unsigned int b = w * 64 + __builtin_ctzl(next);

				next &= next - 1;
				seen[w] |= 1UL << (b % 64);
				queue[tail++] = (u16)b;
			}
		}
	}
	return false;
}

void lockdep_print_held(void)
{
	struct task *t = current;

	printk(KERN_ERR "%d lock(s) held by %s:\n", t->lockdep_depth, t->name);
	for (int i = 0; i < t->lockdep_depth && i < MAX_LOCK_DEPTH; i++)
		printk(KERN_ERR "  #%d: %s (%s) at %p\n", i, t->held_locks[i].class->name,
		       kind_names[t->held_locks[i].class->kind], t->held_locks[i].lock);
}

static void report_inversion(struct lock_class *held, struct lock_class *want)
{
	lockdep_counts.inversions++;
	printk(KERN_ERR "======================================================\n");
	printk(KERN_ERR "WARNING: possible circular locking dependency detected\n");
	printk(KERN_ERR "%s is trying to take %s (%s)\n", current->name, want->name,
	       kind_names[want->kind]);
	printk(KERN_ERR "while holding %s (%s),\n", held->name, kind_names[held->kind]);
	printk(KERN_ERR "but elsewhere %s was taken (directly or through others) before %s:\n",
	       want->name, held->name);
	printk(KERN_ERR "  CPU0: lock(%s); lock(%s)   CPU1: lock(%s); lock(%s)  -> deadlock\n",
	       held->name, want->name, want->name, held->name);
	lockdep_print_held();
	printk(KERN_ERR "stack:\n");
	arch_stack_walk(print_stack_frame, NULL);
}

void lock_acquire(struct lock_class *c, const void *lock, bool read)
{
	struct task *t;
	unsigned long flags;

	if (!lockdep_enabled)
		return;
	c = class_of(c);
	t = current;
	flags = arch_irq_save();
	for (int i = 0; i < t->lockdep_depth && i < MAX_LOCK_DEPTH; i++) {
		struct held_lock *h = &t->held_locks[i];
		unsigned int a = h->class->id, b = c->id;

		if (h->lock == lock && !(read && h->read)) {
			lockdep_counts.inversions++;
			printk(KERN_ERR "WARNING: %s takes %s (%s) it already holds: self-deadlock\n",
			       t->name, c->name, kind_names[c->kind]);
			arch_stack_walk(print_stack_frame, NULL);
			continue;
		}
		if (a == b || c == &unnamed_class || h->class == &unnamed_class || edge(a, b))
			continue;
		arch_spin_lock(&graph_lock);
		if (reaches(b, a)) {
			arch_spin_unlock(&graph_lock);
			report_inversion(h->class, c);
			continue;
		}
		after[a][b / 64] |= 1UL << (b % 64);
		arch_spin_unlock(&graph_lock);
	}
	arch_irq_restore(flags);
}

static void stat_max(u64 *max, u64 v)
{
	u64 old = __atomic_load_n(max, __ATOMIC_RELAXED);

	while (v > old && !__atomic_compare_exchange_n(max, &old, v, true,
						       __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
}

static void fill_held(struct held_lock *h, struct lock_class *c, const void *lock, bool read)
{
	h->class = c;
	h->lock = lock;
	h->read = read;
	h->acquired_at = arch_cycles();
}

void lock_acquired(struct lock_class *c, const void *lock, bool read, bool contended,
		   u64 wait_cycles)
{
	struct task *t;
	unsigned long flags;

	if (!lockstat_enabled && !lockdep_enabled)
		return;
	c = class_of(c);
	if (lockstat_enabled) {
		__atomic_fetch_add(&c->acquisitions, 1, __ATOMIC_RELAXED);
		if (contended) {
			u64 ns = cycles_to_ns(wait_cycles);

			__atomic_fetch_add(&c->contentions, 1, __ATOMIC_RELAXED);
			__atomic_fetch_add(&c->wait_ns, ns, __ATOMIC_RELAXED);
			stat_max(&c->wait_max_ns, ns);
		}
	}
	t = current;
	if (!lockdep_enabled) {
		/*
		 * Statistics only: an interrupt handler pushes onto the same
		 * task's stack, but takes and drops its locks before it
		 * returns, so claiming the slot first (depth, then the entry)
		 * is enough. Masking them cost a DAIF save and restore per
		 * lock and unlock, which QEMU's TCG charges dearly: in the
		 * arm64 page fault (rwsem.c) down_read() went from 1.9-2.0 to
		 * 1.3 us, mutex_unlock() and up_read() from 1.7-1.8 to 1.2-1.3
		 * us, with this and rwsem.c's change together. lockdep reads
		 * the whole stack from interrupts: with it on, they are masked.
		 */
		int d = t->lockdep_depth;

		WRITE_ONCE(t->lockdep_depth, d + 1);
		barrier();
		if (d < MAX_LOCK_DEPTH)
			fill_held(&t->held_locks[d], c, lock, read);
		return;
	}
	/* Interrupt handlers push onto the same task's stack: keep them out. */
	flags = arch_irq_save();
	if (t->lockdep_depth < MAX_LOCK_DEPTH)
		fill_held(&t->held_locks[t->lockdep_depth], c, lock, read);
	t->lockdep_depth++;
	arch_irq_restore(flags);
}

void lock_release(struct lock_class *c, const void *lock)
{
	struct task *t;
	unsigned long flags;
	bool masked;
	int i;

	if (!lockstat_enabled && !lockdep_enabled)
		return;
	t = current;
	/*
	 * Statistics only: no masking (see lock_acquired()). An interrupt
	 * handler meanwhile pushes above the entries moved here and pops
	 * again; the depth drops only once they are in place.
	 */
	masked = READ_ONCE(lockdep_enabled); /* once: it may be switched meanwhile */
	flags = masked ? arch_irq_save() : 0;
	/* Usually the last one taken; search down for out-of-order unlocks. */
	for (i = MIN(t->lockdep_depth, MAX_LOCK_DEPTH) - 1; i >= 0; i--)
		if (t->held_locks[i].lock == lock)
			break;
	if (i >= 0) {
		struct held_lock *h = &t->held_locks[i];
		u64 ns = cycles_to_ns(arch_cycles() - h->acquired_at);

		if (lockstat_enabled) {
			__atomic_fetch_add(&h->class->hold_ns, ns, __ATOMIC_RELAXED);
			stat_max(&h->class->hold_max_ns, ns);
		}
		for (; i + 1 < MIN(t->lockdep_depth, MAX_LOCK_DEPTH); i++)
			t->held_locks[i] = t->held_locks[i + 1];
		barrier();
		WRITE_ONCE(t->lockdep_depth, t->lockdep_depth - 1);
	} else if (t->lockdep_depth > MAX_LOCK_DEPTH) {
		t->lockdep_depth--; /* one taken past the table's end */
	}
	/* Not found: taken before lockstat/lockdep were switched on. */
	if (masked)
		arch_irq_restore(flags);
	(void)c;
}

void __might_sleep(const char *file, int line)
{
	struct task *t;

	if (!lockdep_enabled || !scheduler_running)
		return;
	t = current;
	if (!t->preempt_count && arch_irqs_enabled() && !in_interrupt())
		return;
	lockdep_counts.sleep_in_atomic++;
	printk(KERN_ERR "BUG: sleeping function called from invalid context at %s:%d\n",
	       file, line);
	printk(KERN_ERR "in_interrupt: %d, irqs_disabled: %d, preempt_count: %d, task: %s\n",
	       in_interrupt(), !arch_irqs_enabled(), t->preempt_count, t->name);
	lockdep_print_held();
	arch_stack_walk(print_stack_frame, NULL);
}

void lockdep_forget_class(struct lock_class *c)
{
	unsigned long flags;
	unsigned int id = c->id;

	if (!id)
		return;
	flags = arch_irq_save();
	arch_spin_lock(&graph_lock);
	memset(after[id], 0, sizeof(after[id]));
	for (unsigned int a = 0; a < MAX_LOCK_CLASSES; a++)
		after[a][id / 64] &= ~(1UL << (id % 64));
	arch_spin_unlock(&graph_lock);
	arch_irq_restore(flags);
}

void lockstat_reset(void)
{
	for (unsigned int i = 1; i < nr_classes; i++) {
		struct lock_class *c = classes[i];

		__atomic_store_n(&c->acquisitions, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&c->contentions, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&c->wait_ns, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&c->wait_max_ns, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&c->hold_ns, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&c->hold_max_ns, 0, __ATOMIC_RELAXED);
	}
}

static int cmd_lockstat(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "reset")) {
		lockstat_reset();
		kprintf("lockstat: counters cleared\n");
		return 0;
	}
	if (argc > 1)
		return -EINVAL;	/* the shell prints the usage */
	if (!lockstat_enabled)
		kprintf("lockstat is off (boot with lockstat=1)\n");
	kprintf("%-28s %-6s %10s %10s %12s %10s %12s %10s\n", "class", "kind", "acquired",
		"contended", "wait-total", "wait-max", "hold-total", "hold-max");
	kprintf("%-28s %-6s %10s %10s %12s %10s %12s %10s\n", "", "", "", "", "(us)", "(us)",
		"(us)", "(us)");
	for (unsigned int i = 1; i < nr_classes; i++) {
		struct lock_class *c = classes[i];

		if (!c->acquisitions)
			continue;
		kprintf("%-28.28s %-6s %10llu %10llu %12llu %10llu %12llu %10llu\n", c->name,
			kind_names[c->kind], (unsigned long long)c->acquisitions,
			(unsigned long long)c->contentions,
			(unsigned long long)(c->wait_ns / 1000),
			(unsigned long long)(c->wait_max_ns / 1000),
			(unsigned long long)(c->hold_ns / 1000),
			(unsigned long long)(c->hold_max_ns / 1000));
	}
	kprintf("lockdep: %s; reports: %lu inversion(s), %lu sleep(s) in atomic, "
		"%lu schedule(s) while atomic\n", lockdep_enabled ? "on" : "off",
		lockdep_counts.inversions, lockdep_counts.sleep_in_atomic,
		lockdep_counts.sched_while_atomic);
	return 0;
}
SHELL_CMD(lockstat, "lockstat [reset]",
	  "lock statistics per lock class (acquisitions, contention, wait/hold time)",
	  cmd_lockstat);
