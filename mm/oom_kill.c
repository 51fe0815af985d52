// SPDX-License-Identifier: MIT
/*
 * The out-of-memory killer, after Linux's mm/oom_kill.c.
 *
 * Overcommit (mm/util.c) lets processes be promised more memory than
 * there is; demand paging (mm/memory.c) hands the pages out one touch at a
 * time. When a touch finds no free page, someone must give memory back,
 * and the kernel chooses who: the process whose death frees the most.
 *
 * The choice is Linux's oom_badness(): a process's pages of its own
 * (mm->rss) plus its page-table pages, moved by its oom_score_adj in
 * thousandths of all memory (-1000: never chosen; +1000: chosen first).
 * The victim gets SIGKILL and is marked; until its memory is back, no
 * second victim is chosen (a dying process frees everything on its way
 * out, so one is enough), and the faulting process waits and tries its
 * touch again. So a process that merely touched last survives a larger
 * one's greed, as on Linux.
 *
 * Pagoda has no swap and no page cache to shrink: the only memory the
 * killer can win back is processes' own. Where it cannot wait (a fault
 * with interrupts off) or finds nobody to kill, the faulting process
 * itself goes, as before the killer existed.
 */
#include <pagoda/mm.h>
#include <pagoda/oom.h>
#include <pagoda/printk.h>
#include <pagoda/process.h>
#include <pagoda/sched.h>
#include <pagoda/time.h>
#include <pagoda/wait.h>

/* Victims killed whose memory is not back yet, and when the last was chosen (process_lock). */
static int oom_victims;
static u64 oom_last_kill_ns;
/* Victims whose memory came back, ever: a waiter waits for this to move. */
static unsigned long oom_reaped;
static DECLARE_WAIT_QUEUE_HEAD(oom_victims_wait);

/*
 * How long a faulting process waits for a victim's memory before it gives
 * up, and before another victim may be chosen. Generous: a victim of 700
 * MiB takes about a second to give it all back under TCG on a quiet host,
 * and several times that on a loaded one.
 */
#define OOM_WAIT_NS (30ULL * 1000 * 1000 * 1000)

#define KB(pages) ((pages) * (PAGE_SIZE / 1024))

/*
 * How much killing p would give back, in pages, as Linux ranks it; LONG_MIN
 * for one that must not or need not be chosen. Under process_lock.
 */
long oom_badness(struct process *p, unsigned long totalpages)
{
	long points, adj = p->oom_score_adj;

	/* Linux's oom_unkillable_task(): init's death would end the system. */
	if (adj == OOM_SCORE_ADJ_MIN || p->global_init || p->zombie || p->oom_victim || !p->task)
		return LONG_MIN;
	points = (long)(READ_ONCE(p->mm.rss) + READ_ONCE(p->mm.pgtables));
	adj *= (long)(totalpages / 1000);
	return points + adj;
}

/* Linux's report line, field for field (no files or swap here: those are 0). */
static void dump_victim(struct process *p)
{
	pr_err("Out of memory: Killed process %d (%s) total-vm:%lukB, anon-rss:%lukB, "
	       "file-rss:0kB, shmem-rss:0kB, UID:0 pgtables:%lukB oom_score_adj:%d\n",
	       p->pid, p->name, KB(READ_ONCE(p->mm.total_vm)), KB(READ_ONCE(p->mm.rss)),
	       KB(READ_ONCE(p->mm.pgtables)), p->oom_score_adj);
}

/*
 * Memory ran out for `who`: choose a victim and kill it. True when memory
 * is on its way back (a victim chosen now, or one still dying); false when
 * there is nobody to kill.
 */
static bool out_of_memory(struct process *who)
{
	unsigned long totalpages = totalram_pages();
	struct process *p, *chosen = NULL;
	long best = LONG_MIN;

	mutex_lock(&process_lock);
	/*
	 * One victim at a time, unless the last has not given its memory back
	 * in OOM_WAIT_NS: then another is chosen (the stuck one is skipped).
	 * Linux's oom_reaper frees a stuck victim's memory itself; here the
	 * next victim is the way forward.
	 */
	if (oom_victims && ktime_get_ns() - oom_last_kill_ns < OOM_WAIT_NS) {
		mutex_unlock(&process_lock);
		return true;
	}
	list_for_each_entry(p, &process_list, all) {
		long points = oom_badness(p, totalpages);

		/* Ties go to the later process, as Linux's walk leaves them. */
		if (points == LONG_MIN || points < best)
			continue;
		best = points;
		chosen = p;
	}
	if (chosen) {
		pr_warn("%s (%d) invoked oom-killer: order=0, oom_score_adj=%d\n", who->name,
			who->pid, who->oom_score_adj);
		chosen->oom_victim = true;
		oom_victims++;
		oom_last_kill_ns = ktime_get_ns();
		dump_victim(chosen);
		signal_send_kernel(chosen, SIGKILL);
	}
	mutex_unlock(&process_lock);
	return chosen;
}

/* p's memory is all back (process_exit()): the next shortage may choose again. */
void exit_oom_victim(struct process *p)
{
	if (!READ_ONCE(p->oom_victim))
		return;
	mutex_lock(&process_lock);
	oom_victims--;
	WRITE_ONCE(oom_reaped, oom_reaped + 1);
	pr_info("oom: process %d (%s) gave its memory back %llu ms after it was chosen\n", p->pid,
		p->name, (unsigned long long)((ktime_get_ns() - oom_last_kill_ns) / 1000000));
	mutex_unlock(&process_lock);
	wake_up_all(&oom_victims_wait);
}

bool pagefault_out_of_memory(struct process *p)
{
	unsigned long seen = READ_ONCE(oom_reaped);

	/* Waiting needs a task that may sleep. */
	if (!arch_irqs_enabled() || preempt_count())
		return false;
	if (READ_ONCE(p->oom_victim) || !out_of_memory(p) || READ_ONCE(p->oom_victim))
		return false;
	/*
	 * Someone else is dying for this memory: wait until a victim's memory
	 * is back (not until none is left: a stuck one may never be), then
	 * touch again.
	 */
	if (!wait_event_timeout(oom_victims_wait,
				READ_ONCE(oom_reaped) != seen || signal_pending(p), OOM_WAIT_NS)) {
		pr_err("oom: %s (%d): no memory came back in %llu s\n", p->name, p->pid,
		       OOM_WAIT_NS / 1000000000ULL);
		return false;
	}
	return !READ_ONCE(p->pending_kill);
}
