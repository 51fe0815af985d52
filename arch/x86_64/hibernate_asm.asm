; SPDX-License-Identifier: MIT
;
; Hibernation's CPU side on x86-64 (include/pagoda/suspend.h).
;
; swsusp_arch_suspend saves what a called function must keep, as every
; other CPU does when it parks (hib_cpu_save below: rbx, rbp, r12-r15, rsp
; and where to go on), and the flags and CR3, in hib_context, kernel data,
; so that they are part of the image; then makes the copy. A resume enters
; hibernate_resume_entry, which puts CR3 and the flags back and leaves
; through hib_cpu_restore: swsusp_arch_suspend returns a second time, with 1.
;
; At resume the boot kernel's own page tables and code are about to be
; overwritten, so the copy runs from restore_image_code, position-
; independent code the C side (hibernate.c) copies into a "safe" page,
; reached through hibernate_jump with temporary page tables (also in safe
; pages) that map RAM at its physical address, the direct map and the
; kernel image.

bits 64

section .data
align 8
global hib_context
hib_context:
.cpu:	times 14 dq 0		; a struct hib_cpu_ctx
.rflags:	dq 0
.cr3:	dq 0

section .text
extern swsusp_save

; int swsusp_arch_suspend(void)
global swsusp_arch_suspend
swsusp_arch_suspend:
	sub rsp, 8			; the call below finds the stack as C leaves it
	lea rdi, [rel hib_context.cpu]
	call hib_cpu_save
	test eax, eax
	jnz .out			; 1: resumed
	pushfq
	pop qword [rel hib_context.rflags]
	mov rax, cr3
	mov [rel hib_context.cr3], rax
	; The copy: its return value (0 or -errno) is ours.
	call swsusp_save
.out:
	add rsp, 8
	ret

; Entered at the end of a resume, on the temporary page tables, with the
; image's memory in place and interrupts off.
global hibernate_resume_entry
hibernate_resume_entry:
	mov rax, [rel hib_context.cr3]
	mov cr3, rax
	; Drop global TLB entries too: the boot kernel's are stale now.
	mov rcx, cr4
	mov rax, rcx
	and rax, ~(1 << 7)
	mov cr4, rax
	mov cr4, rcx
	; The saved stack (the image's) carries the flags across.
	mov rsp, [rel hib_context.cpu + 8]
	push qword [rel hib_context.rflags]
	popfq
	lea rdi, [rel hib_context.cpu]
	jmp hib_cpu_restore

; void hibernate_jump(u64 pbe_pa, u64 temp_pml4_pa, u64 code_pa, u64 entry)
; From kernel text, mapped the same by both page tables: switch to the
; temporary ones, then run the relocated copy at its physical address.
global hibernate_jump
hibernate_jump:
	mov cr3, rsi
	mov rax, cr4
	mov rsi, rax
	and rax, ~(1 << 7)
	mov cr4, rax
	mov cr4, rsi
	mov rax, rdx
	mov rdx, rcx
	jmp rax

; The relocated copy: rdi = first pbe_page (physical; 0 for none), rdx =
; where to jump when done. Uses no stack and no kernel data: every address
; it touches is physical, in a safe page or a destination frame.
global restore_image_code
global restore_image_code_end
restore_image_code:
.page:
	test rdi, rdi
	jz .done
	mov r8, [rdi + 8]		; entries in this pbe_page
	lea r9, [rdi + 16]		; the first one: {src, dst}
.entry:
	test r8, r8
	jz .chain
	mov r10, rdi
	mov rsi, [r9]
	mov rdi, [r9 + 8]
	mov ecx, 512
	rep movsq			; one page
	mov rdi, r10
	add r9, 16
	dec r8
	jmp .entry
.chain:
	mov rdi, [rdi]			; next_pa
	jmp .page
.done:
	jmp rdx
restore_image_code_end:

; Another CPU's part (kernel/power/cpu.c): where it parked, so that after a
; resume it can be started again and carry on from there.
; int hib_cpu_save(struct hib_cpu_ctx *c): 0 now, 1 when hib_cpu_restore()
; comes back to it. The return address is kept in the context, not trusted
; to the stack, which the caller goes on using.
global hib_cpu_save
hib_cpu_save:
	mov rax, [rsp]
	mov [rdi + 0], rax
	lea rax, [rsp + 8]
	mov [rdi + 8], rax
	mov [rdi + 16], rbx
	mov [rdi + 24], rbp
	mov [rdi + 32], r12
	mov [rdi + 40], r13
	mov [rdi + 48], r14
	mov [rdi + 56], r15
	xor eax, eax
	ret

; void hib_cpu_restore(struct hib_cpu_ctx *c)
global hib_cpu_restore
hib_cpu_restore:
	mov rbx, [rdi + 16]
	mov rbp, [rdi + 24]
	mov r12, [rdi + 32]
	mov r13, [rdi + 40]
	mov r14, [rdi + 48]
	mov r15, [rdi + 56]
	mov rsp, [rdi + 8]
	mov eax, 1
	jmp [rdi + 0]
