; SPDX-License-Identifier: MIT
;
; The real-mode trampoline a secondary CPU starts in. A STARTUP IPI with
; vector V starts the CPU in 16-bit real mode at CS = V << 8, IP = 0, so
; this code is copied to a page below 1 MiB (smpboot.c) and must run at
; whatever page that is: it computes its own linear base from CS into EBX
; and patches the few absolute addresses it needs (the GDT base and the
; far-jump targets) itself.
;
; 16-bit real mode -> 32-bit protected mode (own GDT) -> PAE, CR3 = a
; trampoline PML4 that maps this page 1:1 and the kernel's upper half ->
; EFER.LME, paging -> 64-bit mode -> jump to the kernel's ap_entry(cpu) on
; the stack the boot CPU left in trampoline_data.

bits 16
section .rodata

global trampoline_start
global trampoline_end
global trampoline_data

%define OFF(x) ((x) - trampoline_start)

align 16
trampoline_start:
	cli
	cld
	mov ax, cs
	mov ds, ax
	xor ebx, ebx
	mov bx, ax
	shl ebx, 4			; EBX = linear address of this page
	lea eax, [ebx + OFF(tr_gdt)]
	mov [OFF(tr_gdtr) + 2], eax
	lea eax, [ebx + OFF(pm32)]
	mov [OFF(tr_far32)], eax
	lgdt [OFF(tr_gdtr)]
	mov eax, cr0
	or eax, 1			; PE
	mov cr0, eax
	jmp far dword [OFF(tr_far32)]

bits 32
pm32:
	mov ax, 0x10
	mov ds, ax
	mov es, ax
	mov ss, ax
	mov eax, cr4
	or eax, 1 << 5			; PAE
	mov cr4, eax
	mov eax, [ebx + OFF(tr_cr3)]
	mov cr3, eax
	mov ecx, 0xc0000080		; EFER
	mov eax, [ebx + OFF(tr_efer)]
	xor edx, edx
	wrmsr
	mov eax, cr0
	or eax, 0x80010000		; PG | WP
	mov cr0, eax
	lea eax, [ebx + OFF(lm64)]
	mov [ebx + OFF(tr_far64)], eax
	jmp far [ebx + OFF(tr_far64)]

bits 64
lm64:
	mov rsp, [rbx + OFF(tr_stack)]
	mov rdi, [rbx + OFF(tr_cpu)]
	mov rax, [rbx + OFF(tr_entry)]
	xor ebp, ebp
	push 0				; a NULL return address: ap_entry never returns
	jmp rax

align 8
tr_gdt:
	dq 0
	dq 0x00cf9a000000ffff		; 0x08: 32-bit code
	dq 0x00cf92000000ffff		; 0x10: data
	dq 0x00af9a000000ffff		; 0x18: 64-bit code
tr_gdtr:
	dw 4 * 8 - 1
	dd 0
tr_far32:
	dd 0
	dw 0x08
tr_far64:
	dd 0
	dw 0x18

; Filled in by the boot CPU before each start (struct trampoline_data).
align 8
trampoline_data:
tr_cr3:		dq 0
tr_efer:	dq 0
tr_stack:	dq 0
tr_entry:	dq 0
tr_cpu:		dq 0
trampoline_end:
