; SPDX-License-Identifier: MIT
;
; The context switch. A task's whole saved context is its stack pointer:
; the System V ABI lets a called function clobber every register but rbx,
; rbp, r12-r15 (and rsp), so those six are all a switch must keep. Push
; them, swap stacks, pop the next task's, return into wherever it called
; arch_context_switch() from: the middle of __schedule(), or, for a new
; thread, thread_start (arch_thread_stack_init put its address there).

bits 64
section .text

extern kthread_entry
global arch_context_switch
global thread_start

; void arch_context_switch(unsigned long *prev_sp, unsigned long next_sp)
arch_context_switch:
	push rbp
	push rbx
	push r12
	push r13
	push r14
	push r15
	mov [rdi], rsp
	mov rsp, rsi
	pop r15
	pop r14
	pop r13
	pop r12
	pop rbx
	pop rbp
	ret

; A new thread's first instructions. RBP is 0 (end of stack traces).
thread_start:
	xor ebp, ebp
	call kthread_entry
	ud2
