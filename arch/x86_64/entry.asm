; SPDX-License-Identifier: MIT
;
; Exception and interrupt entry stubs. Each of the 256 vectors gets a tiny
; stub that makes the stack look the same whether or not the CPU pushed an
; error code, pushes the vector number and joins the common path, which
; saves every general register as a struct pt_regs (see asm/x86.h) and
; calls x86_exception() for vectors 0-31 (CPU exceptions) or
; x86_interrupt() for 32-255 (devices, the APIC timer, IPIs).
;
; From user mode (the saved CS has RPL 3) the GS base is the user's: swapgs
; brings back the kernel's per-CPU pointer on the way in and puts the user's
; back on the way out. The `syscall` instruction enters at entry_syscall_64,
; which builds the same frame by hand (the CPU pushes nothing) with vector
; SYSCALL_VECTOR and the syscall number where an error code would be, so
; one exit path serves all.

bits 64
section .text

extern x86_exception
extern x86_interrupt
extern x86_syscall
global exception_stubs
global entry_syscall_64
global x86_return_to_user

; Must match traps.c and struct cpu_local (pagoda/smp.h).
%define USER_DS (0x20 | 3)
%define USER_CS (0x28 | 3)
%define CPU_ENTRY_STACK 16
%define CPU_ENTRY_SCRATCH 24
%define SYSCALL_VECTOR 256

; The general registers back from a struct pt_regs at rsp (its first 15 words).
%macro POP_REGS 0
	pop r15
	pop r14
	pop r13
	pop r12
	pop r11
	pop r10
	pop r9
	pop r8
	pop rbp
	pop rdi
	pop rsi
	pop rdx
	pop rcx
	pop rbx
	pop rax
%endmacro

; Vectors for which the CPU pushes an error code.
%define HAS_ERR(v) ((v) == 8 || ((v) >= 10 && (v) <= 14) || (v) == 17 || (v) == 21 || (v) == 29 || (v) == 30)

%macro STUB 1
align 16
stub_%1:
%if HAS_ERR(%1)
%else
	push 0
%endif
	push %1
	jmp exception_common
%endmacro

%assign v 0
%rep 256
	STUB %[v]
%assign v v + 1
%endrep

exception_common:
	test byte [rsp + 24], 3		; the interrupted CS
	jz .saved_gs
	swapgs
	; User mode chose RFLAGS.AC and DF: the kernel wants both clear.
	push 2
	popfq
.saved_gs:
	push rax
	push rbx
	push rcx
	push rdx
	push rsi
	push rdi
	push rbp
	push r8
	push r9
	push r10
	push r11
	push r12
	push r13
	push r14
	push r15
	cld
	mov rdi, rsp
	; A frame for the unwinder: the interrupted RIP above the saved RBP.
	push qword [rsp + 17 * 8]
	push rbp
	mov rbp, rsp
	cmp qword [rdi + 15 * 8], SYSCALL_VECTOR
	je .syscall
	cmp qword [rdi + 15 * 8], 32
	jae .irq
	call x86_exception
	jmp .out
.syscall:
	call x86_syscall
	add rsp, 16
	jmp syscall_return
.irq:
	call x86_interrupt
.out:
	add rsp, 16
; rsp at a struct pt_regs: restore it and return to where it says (fork's
; child starts here, from arch_enter_user_regs()).
x86_return_to_user:
	POP_REGS
	add rsp, 16		; vector and error code
	test byte [rsp + 8], 3	; back to user mode: its GS base
	jz .iret
	swapgs
.iret:
	iretq

; Back from a system call. sysretq is much the cheaper way out (under
; QEMU's TCG iretq reads and checks two descriptors from the GDT, sysretq
; loads fixed ones), but it can only return what `syscall` left: RIP from
; RCX, RFLAGS from R11, the user's own CS and SS. So take it only when the
; frame still says so; a frame that execve, a signal or rt_sigreturn
; rewrote goes out through iretq. And never to a non-canonical RIP, where
; some CPUs raise #GP in ring 0 on the user's stack; nor with TF or RF
; set, which sysretq cannot give back as iretq does (Linux's conditions,
; arch/x86/entry/common.c).
%define PT_RCX (12 * 8)
%define PT_R11 (4 * 8)
%define PT_RIP (17 * 8)
%define PT_CS (18 * 8)
%define PT_RFLAGS (19 * 8)
%define PT_RSP (20 * 8)
%define PT_SS (21 * 8)
%define X86_EFLAGS_TF (1 << 8)
%define X86_EFLAGS_RF (1 << 16)
syscall_return:
	mov rcx, [rsp + PT_RIP]
	cmp rcx, [rsp + PT_RCX]
	jne x86_return_to_user
	mov r11, 0x00007ffffffff000	; TASK_SIZE (layout.h): below it, canonical
	cmp rcx, r11
	jae x86_return_to_user
	mov r11, [rsp + PT_RFLAGS]
	cmp r11, [rsp + PT_R11]
	jne x86_return_to_user
	test r11, X86_EFLAGS_TF | X86_EFLAGS_RF
	jnz x86_return_to_user
	cmp qword [rsp + PT_CS], USER_CS
	jne x86_return_to_user
	cmp qword [rsp + PT_SS], USER_DS
	jne x86_return_to_user
	POP_REGS
	; Interrupts are off (x86_syscall), so nothing runs on this CPU between
	; the switch to the user's stack and GS base and the return.
	mov rsp, [rsp + PT_RSP - 15 * 8]
	swapgs
	o64 sysret

; `syscall`: RIP in RCX, RFLAGS in R11, interrupts off (SFMASK), still on
; the user's stack with the user's GS base. Switch to this task's kernel
; stack (cpu_local.entry_stack, set at every context switch) and build an
; interrupt frame, then join the common path after its swapgs.
entry_syscall_64:
	swapgs
	mov [gs:CPU_ENTRY_SCRATCH], rsp
	mov rsp, [gs:CPU_ENTRY_STACK]
	push USER_DS
	push qword [gs:CPU_ENTRY_SCRATCH]
	push r11
	push USER_CS
	push rcx
	push rax		; the syscall number, as "error code"
	push SYSCALL_VECTOR
	jmp exception_common.saved_gs

section .rodata
align 8
exception_stubs:
%assign v 0
%rep 256
	dq stub_ %+ v
%assign v v + 1
%endrep
