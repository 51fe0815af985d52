// SPDX-License-Identifier: MIT
/*
 * Stack traces by frame pointer, for both arches: each keeps a frame
 * record {caller's frame pointer, return address} where its frame pointer
 * (x86 rbp, arm64 x29) points, as Linux's unwinders read them. The arch
 * says only which stacks a record may lie on (arch_on_kernel_stack()) and
 * how far a call stands before its return address (<asm/stacktrace.h>).
 */
#include <asm/stacktrace.h>
#include <pagoda/arch.h>
#include <pagoda/sched.h>
#include <pagoda/task.h>

/*
 * Every pointer is checked against the stack (the running one when hi is
 * 0, else [lo, hi)), so a corrupt chain ends the trace instead of faulting
 * inside the reporter; so does a chain that does not climb (a loop) or
 * runs past 32 frames.
 */
static void walk_frames(u64 fp, u64 lo, u64 hi, void (*fn)(u64 pc, void *arg), void *arg)
{
	for (int depth = 0; depth < 32 && fp; depth++) {
		u64 *frame = (u64 *)fp;
		u64 ret;

		if (hi ? fp < lo || fp + 16 > hi : !arch_on_kernel_stack(fp))
			break;
		ret = frame[1];
		if (!ret)
			break;
		fn(ret - CALL_INSN_SIZE, arg);
		if (frame[0] <= fp)
			break;
		fp = frame[0];
	}
}

void walk_stack_frames(u64 fp, void (*fn)(u64 pc, void *arg), void *arg)
{
	walk_frames(fp, 0, 0, fn, arg);
}

void arch_stack_walk(void (*fn)(u64 pc, void *arg), void *arg)
{
	walk_stack_frames((u64)__builtin_frame_address(0), fn, arg);
}

void stack_trace_task(struct task *t, void (*fn)(u64 pc, void *arg), void *arg)
{
	u64 lo = (u64)t->stack, hi = lo + t->stack_size;
	unsigned long sp = READ_ONCE(t->sp);

	if (t == arch_current()) {
		arch_stack_walk(fn, arg);
		return;
	}
	/*
	 * Running on another CPU: its saved frame is where it last switched
	 * out, long gone, and its live stack changes under the reader. None,
	 * as Linux's x86 unwinder gives none for a task on another CPU (a
	 * killed syzfuzz worker in state R with 9 s of system time was shown
	 * in pause(), where it had last slept).
	 */
	if (task_on_cpu(t))
		return;
	/* The switch frame itself must lie on the stack before it is read. */
	if (!t->stack || sp < lo || sp + 12 * 8 > hi)
		return;
	fn(arch_thread_saved_pc(sp) - CALL_INSN_SIZE, arg);
	walk_frames(arch_thread_saved_fp(sp), lo, hi, fn, arg);
}
