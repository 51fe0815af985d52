; SPDX-License-Identifier: MIT
;
; Exception and interrupt entry stubs. Each of the 256 vectors gets a tiny
; stub that makes the stack look the same whether or not the CPU pushed an
; error code, pushes the vector number and joins the common path, which
; saves every general register as a struct pt_regs (see asm/x86.h) and
; calls x86_exception() for vectors 0-31 (CPU exceptions) or
; x86_interrupt() for 32-255 (devices, the APIC timer, IPIs).

bits 64
section .text

extern x86_exception
extern x86_interrupt
global exception_stubs

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
	cmp qword [rdi + 15 * 8], 32
	jae .irq
	call x86_exception
	jmp .out
.irq:
	call x86_interrupt
.out:
	add rsp, 16
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
	add rsp, 16		; vector and error code
	iretq

section .rodata
align 8
exception_stubs:
%assign v 0
%rep 256
	dq stub_ %+ v
%assign v v + 1
%endrep
