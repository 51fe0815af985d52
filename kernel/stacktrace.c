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

/*
 * Every pointer is checked against the stack, so a corrupt chain ends
 * the trace instead of faulting inside the reporter; so does a chain
 * that does not climb (a loop) or runs past 32 frames.
 */
void walk_stack_frames(u64 fp, void (*fn)(u64 pc, void *arg), void *arg)
{
	for (int depth = 0; depth < 32 && fp && arch_on_kernel_stack(fp); depth++) {
		u64 *frame = (u64 *)fp;
		u64 ret = frame[1];

		if (!ret)
			break;
		fn(ret - CALL_INSN_SIZE, arg);
		if (frame[0] <= fp)
			break;
		fp = frame[0];
	}
}

void arch_stack_walk(void (*fn)(u64 pc, void *arg), void *arg)
{
	walk_stack_frames((u64)__builtin_frame_address(0), fn, arg);
}
