// SPDX-License-Identifier: MIT
/*
 * `bench locks`: the cost of each primitive, uncontended (one thread, lock
 * and unlock in a loop) and contended (one thread per online CPU, each
 * pinned, all hammering one lock around a tiny critical section). The
 * contended figure is wall time per acquisition across all threads, so it
 * includes the waiting: what a lock costs a system, not one CPU.
 * lockstat's bookkeeping is included (it is on by default; lockstat=0
 * measures without it) and the machine line says which.
 */
#include <pagoda/bench.h>
#include <pagoda/bit_spinlock.h>
#include <pagoda/mutex.h>
#include <pagoda/printk.h>
#include <pagoda/rwlock.h>
#include <pagoda/rwsem.h>
#include <pagoda/sched.h>
#include <pagoda/seqlock.h>
#include <pagoda/spinlock.h>
#include <pagoda/time.h>

enum prim { P_SPIN, P_SPIN_IRQ, P_READ, P_WRITE, P_MUTEX, P_DOWN_READ, P_DOWN_WRITE,
	    P_BIT, P_SEQ_READ, NR_PRIM };

static const char *const prim_names[NR_PRIM] = {
	"spin_lock", "spin_lock_irqsave", "read_lock", "write_lock", "mutex_lock",
	"down_read", "down_write", "bit_spin_lock", "read_seqbegin",
};

static DEFINE_SPINLOCK(b_spin);
static DEFINE_RWLOCK(b_rw);
static DEFINE_MUTEX(b_mutex);
static DECLARE_RWSEM(b_rwsem);
static DEFINE_SEQLOCK(b_seq);
static unsigned long b_bits;
static volatile unsigned long b_data;

static void once(enum prim p)
{
	unsigned long flags;

	switch (p) {
	case P_SPIN: spin_lock(&b_spin); b_data++; spin_unlock(&b_spin); break;
	case P_SPIN_IRQ:
		spin_lock_irqsave(&b_spin, flags); b_data++;
		spin_unlock_irqrestore(&b_spin, flags);
		break;
	case P_READ: read_lock(&b_rw); (void)b_data; read_unlock(&b_rw); break;
	case P_WRITE: write_lock(&b_rw); b_data++; write_unlock(&b_rw); break;
	case P_MUTEX: mutex_lock(&b_mutex); b_data++; mutex_unlock(&b_mutex); break;
	case P_DOWN_READ: down_read(&b_rwsem); (void)b_data; up_read(&b_rwsem); break;
	case P_DOWN_WRITE: down_write(&b_rwsem); b_data++; up_write(&b_rwsem); break;
	case P_BIT: bit_spin_lock(0, &b_bits); b_data++; bit_spin_unlock(0, &b_bits); break;
	case P_SEQ_READ: {
		unsigned int s;

		do {
			s = read_seqbegin(&b_seq);
			(void)b_data;
		} while (read_seqretry(&b_seq, s));
		break;
	}
	default: break;
	}
}

struct contender {
	enum prim p;
	int iters;
	volatile int *go;
};

static int contend(void *arg)
{
	struct contender *c = arg;

	while (!*c->go)
		arch_cpu_relax();
	for (int i = 0; i < c->iters; i++)
		once(c->p);
	return 0;
}

static u64 uncontended_ns(enum prim p, int n)
{
	u64 t0 = arch_cycles();

	for (int i = 0; i < n; i++)
		once(p);
	return cycles_to_ns(arch_cycles() - t0) / n;
}

static u64 contended_ns(enum prim p, int n)
{
	unsigned int cpus = num_online_cpus(), cpu, k = 0;
	struct contender c[NR_CPUS];
	struct task *th[NR_CPUS];
	volatile int go = 0;
	u64 t0;

	for_each_online_cpu(cpu) {
		c[k] = (struct contender){ p, n, &go };
		th[k] = kthread_create(contend, &c[k], "contend%u", cpu);
		if (th[k]) {
			set_cpus_allowed(th[k], 1ULL << cpu);
			wake_up_process(th[k]);
		}
		k++;
	}
	t0 = arch_cycles();
	go = 1;
	for (unsigned int i = 0; i < k; i++)
		if (th[i])
			kthread_join(th[i]);
	return cycles_to_ns(arch_cycles() - t0) / ((u64)n * cpus);
}

static void bench_locks(void)
{
	const int n = 20000;

	kprintf("%u CPUs online, lockstat %s, lockdep %s\n", num_online_cpus(),
		lockstat_enabled ? "on" : "off", lockdep_enabled ? "on" : "off");
	kprintf("%-20s %16s %16s\n", "primitive", "uncontended (ns)", "contended (ns)");
	for (int p = 0; p < NR_PRIM; p++) {
		u64 u = uncontended_ns(p, n);
		u64 c = contended_ns(p, p == P_MUTEX || p == P_DOWN_WRITE ||
					       p == P_DOWN_READ ? n / 10 : n / 2);

		kprintf("%-20s %16llu %16llu\n", prim_names[p], (unsigned long long)u,
			(unsigned long long)c);
		kprintf("BENCH {\"bench\":\"locks\",\"arch\":\"%s\",\"accel\":\"%s\",\"cpus\":%u,"
			"\"lockstat\":%d,\"primitive\":\"%s\",\"uncontended_ns\":%llu,"
			"\"contended_ns\":%llu}\n", arch_name, arch_accelerator(),
			num_online_cpus(), lockstat_enabled, prim_names[p],
			(unsigned long long)u, (unsigned long long)c);
	}
}
KBENCH(locks, "lock and unlock cost per primitive, uncontended and contended",
       bench_locks);
