// SPDX-License-Identifier: MIT
/*
 * Freezing a process or a tree for a checkpoint. A process is asked to
 * stop (cr_freeze), woken out of any wait in the kernel (its call returns
 * -EINTR, as for a signal) and stops on its way back to user mode, the
 * one place where everything it owns is at rest: its registers in the
 * frame the entry code saved, FP/SIMD and thread pointer saved, no lock
 * held. A call the freeze interrupted is rewound so that it runs again
 * when the process goes on, as Linux's freezer restarts it
 * (-ERESTARTNOINTR): a wait4 or a pipe read is never seen to fail.
 *
 * Never inside the vDSO, though: its code is the kernel's, not the
 * program's, and the kernel that restores the image may have another
 * one, whose entry points get jumps to its own (vdso_cr.c). A process
 * stopped half way through the old code would go on there after the
 * restore, reading clock data that is no longer mapped below it: it
 * faults, or spins on a sequence count nobody writes, and the tree
 * never finishes. So a process caught there is stepped out first.
 *
 * The tree is walked again once every member has stopped, because a
 * parent may have forked between the walk and its stop; frozen, none can.
 */
#include <pagoda/cr.h>
#include <pagoda/printk.h>
#include <pagoda/process.h>
#include <pagoda/sched.h>
#include <pagoda/time.h>
#include <pagoda/vdso.h>
#include "cr.h"

void cr_note_interrupted(struct process *p, unsigned long nr, unsigned long arg0)
{
	if (!READ_ONCE(p->cr_freeze) || signal_pending_thread(p))
		return; /* a signal's -EINTR is the program's to see */
	p->cr_restart = true;
	p->cr_restart_nr = nr;
	p->cr_restart_arg0 = arg0;
}

bool cr_in_vdso(struct process *p, const struct pt_regs *regs)
{
	u64 pc = arch_cr_user_pc(regs);

	return p->vdso_base && pc >= p->vdso_base &&
	       pc - p->vdso_base < (u64)(vdso_image_end - vdso_image_start);
}

/*
 * Put off a stop inside the vDSO: step the process out of it. Waiting
 * for its next entry into the kernel did not always do: under TCG an
 * interrupt is taken where a translated block ends, and reading the
 * counter ends one, so a program that spins on clock_gettime is caught
 * at the same instruction inside nearly every time; and a bound on the
 * time it ran inside can be spent by a host that pauses the vCPU's
 * thread while the process is there. So it goes back
 * to user mode single-stepped (arch_user_single_step()): after each
 * instruction it traps to cr_step_trap(), which lets it go on until its
 * PC is outside, where the way back to user mode stops it. The vDSO's
 * functions are a few dozen instructions; CR_VDSO_STEPS is there for a
 * sequence count the kernel keeps odd, and CR_VDSO_WAIT_NS, well inside
 * the freeze's 5 s, for a process that is never run at all. Past
 * either it stops where it is: the image restores on a kernel with the
 * same vDSO, and another kernel's restore refuses it (vdso_cr.c) rather
 * than run the old code on.
 */
#define CR_VDSO_STEPS 10000

/* The task's flag, which the trap handlers and arm64's switch read, then the arch's bits. */
static void user_single_step(struct pt_regs *regs, bool on)
{
	current->user_step = on;
	arch_user_single_step(regs, on);
}
#define CR_VDSO_WAIT_NS (4000 * NSEC_PER_MSEC)

static bool stop_later(struct process *p, struct pt_regs *regs)
{
	u64 now;

	/*
	 * A call the freeze interrupted must stop here to be rewound; none
	 * of the vDSO's fallback calls waits, so that is never one from it.
	 */
	if (p->cr_restart || !cr_in_vdso(p, regs))
		return false;
	now = ktime_get_ns();
	if (!p->cr_vdso_since) {
		p->cr_vdso_since = now;
		p->cr_vdso_steps = 0;
	}
	if (p->cr_vdso_steps < CR_VDSO_STEPS && now - p->cr_vdso_since < CR_VDSO_WAIT_NS) {
		user_single_step(regs, true);
		return true;
	}
	/* Said, because only a kernel with the same vDSO can restore it now. */
	pr_info("cr: %s[%d] stopped inside the vDSO after %llu ms and %llu steps\n",
		p->name, p->pid, (now - p->cr_vdso_since) / NSEC_PER_MSEC,
		(unsigned long long)p->cr_vdso_steps);
	return false;
}

bool cr_step_trap(struct pt_regs *regs)
{
	struct process *p = current_process();

	if (!current->user_step || !p)
		return false;
	p->cr_vdso_steps++;
	if (READ_ONCE(p->cr_freeze) && cr_in_vdso(p, regs) && p->cr_vdso_steps < CR_VDSO_STEPS) {
		user_single_step(regs, true); /* arm64 clears SPSR.SS at each step */
		return true;
	}
	/* Out (or the checkpoint is over): the caller's signal_deliver() stops it here. */
	user_single_step(regs, false);
	return true;
}

void cr_step_off(struct pt_regs *regs)
{
	if (current->user_step)
		user_single_step(regs, false);
}

void cr_freeze_point(struct process *p, struct pt_regs *regs)
{
	if (stop_later(p, regs))
		return;
	cr_step_off(regs); /* the image's frame must not carry the kernel's step flag */
	if (!p->cr_vdso_since)
		p->cr_vdso_steps = 0; /* so it says what this stop took (freeze_test.c) */
	p->cr_vdso_since = 0;
	if (p->cr_restart) {
		arch_cr_restart_syscall(regs, p->cr_restart_nr, p->cr_restart_arg0);
		p->cr_restart = false;
	}
	arch_user_state_save(&current_thread()->ustate);
	p->cr_regs = regs;
	__atomic_store_n(&p->cr_frozen, true, __ATOMIC_RELEASE);
	wait_event(p->cr_wait, !READ_ONCE(p->cr_freeze));
	WRITE_ONCE(p->cr_frozen, false);
	p->cr_regs = NULL;
}

/* Under process_lock: add p's descendants not yet in set (a breadth-first walk). */
static int add_children(struct cr_set *set, const char **why)
{
	for (unsigned int i = 0; i < set->n; i++) {
		struct process *c;

		list_for_each_entry(c, &set->p[i]->children, sibling) {
			bool have = false;

			for (unsigned int j = 0; j < set->n; j++)
				have |= set->p[j] == c;
			if (have)
				continue;
			if (set->n == CR_SET_MAX) {
				*why = "the tree has more processes than an image holds (32)";
				return -E2BIG;
			}
			set->p[set->n++] = c;
		}
	}
	return 0;
}

static bool settled(struct process *p)
{
	return READ_ONCE(p->zombie) || __atomic_load_n(&p->cr_frozen, __ATOMIC_ACQUIRE);
}

int cr_freeze(int pid, bool tree, struct cr_set *set, const char **why)
{
	struct process *q;
	unsigned int before;
	int err = 0;

	set->n = 0;
	mutex_lock(&process_lock);
	list_for_each_entry(q, &process_list, all)
		if (q->pid == pid && !q->zombie && q->task)
			set->p[0] = q;
	if (!set->p[0]) {
		mutex_unlock(&process_lock);
		*why = "no such running process";
		return -ESRCH;
	}
	if (set->p[0]->cr_freeze) {
		mutex_unlock(&process_lock);
		*why = "already being checkpointed";
		return -EBUSY;
	}
	set->n = 1;
	do {
		before = set->n;
		if (tree)
			err = add_children(set, why);
		for (unsigned int i = 0; i < set->n; i++) {
			struct process *m = set->p[i];

			if (m->zombie || m->cr_freeze)
				continue;
			WRITE_ONCE(m->cr_freeze, true);
			wake_up_process(m->task); /* out of any wait: it must notice */
		}
		mutex_unlock(&process_lock);
		for (unsigned int i = 0; !err && i < set->n; i++) {
			u64 deadline = ktime_get_ns() + 5 * NSEC_PER_SEC;

			while (!settled(set->p[i]) && ktime_get_ns() < deadline)
				msleep(1);
			if (!settled(set->p[i])) {
				*why = "a process did not stop within 5 s (asleep in a call that cannot be interrupted)";
				err = -ETIMEDOUT;
			}
		}
		mutex_lock(&process_lock);
	} while (!err && tree && set->n != before);
	mutex_unlock(&process_lock);
	if (err)
		cr_thaw(set, false);
	return err;
}

void cr_thaw(struct cr_set *set, bool kill)
{
	for (unsigned int i = 0; i < set->n; i++) {
		struct process *m = set->p[i];

		if (kill && !m->zombie)
			WRITE_ONCE(m->pending_kill, SIGKILL);
		__atomic_store_n(&m->cr_freeze, false, __ATOMIC_RELEASE);
		wake_up_all(&m->cr_wait);
	}
	set->n = 0;
}
