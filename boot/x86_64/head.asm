; SPDX-License-Identifier: MIT
;
; Pagoda's x86-64 entry: the first instructions the CPU runs in the kernel.
;
; Two loaders can start us, and both leave the CPU in 32-bit protected mode
; with paging off:
;   - QEMU's -kernel through the PVH ELF note: EBX = hvm_start_info.
;   - GRUB (BIOS or UEFI) through the multiboot2 header: EAX = magic,
;     EBX = multiboot2 information.
; We record the time stamp counter first (for `bench boot`), build just
; enough page tables to reach long mode, map the kernel in the higher half
; and jump to x86_64_start() in C, which turns the loader's information into
; struct boot_info and builds the real page tables.

%define KERNEL_VIRT     0xffffffff80000000
%define MB2_MAGIC       0xe85250d6
%define MB2_ARCH_I386   0
%define PVH_MAGIC       0x336ec578
%define XEN_ELFNOTE_PHYS32_ENTRY 18

%define CR0_PG          (1 << 31)
%define CR0_WP          (1 << 16)
%define CR4_PAE         (1 << 5)
%define MSR_EFER        0xc0000080
%define EFER_LME        (1 << 8)
%define EFER_NXE        (1 << 11)
%define PTE_P           1
%define PTE_W           2
%define PTE_PS          0x80

; ---------------------------------------------------------------------------
; The multiboot2 header must sit, 8-byte aligned, in the first 32 KiB of the
; file; the linker script puts this section first.
section .multiboot2 progbits alloc noexec nowrite align=8
mb2_header:
	dd MB2_MAGIC
	dd MB2_ARCH_I386
	dd mb2_header_end - mb2_header
	dd -(MB2_MAGIC + MB2_ARCH_I386 + (mb2_header_end - mb2_header))
	; A framebuffer is acceptable (optional, any mode). The kernel writes
	; to the serial port only, but under UEFI, which has no text mode to
	; hand over, GRUB otherwise warns "no console will be available to
	; OS". grub.cfg asks for text mode under BIOS.
	dw 5, 1			; type: framebuffer; flags: optional
	dd 20			; size
	dd 0, 0, 0		; width, height, depth: no preference
	dd 0			; padding: tags are 8-byte aligned
	; The end tag.
	dw 0, 0
	dd 8
mb2_header_end:

; The PVH note tells QEMU (and Xen) the 32-bit physical entry point.
section .note.pvh note alloc noexec nowrite align=4
	dd 4			; name size ("Xen\0")
	dd 4			; descriptor size
	dd XEN_ELFNOTE_PHYS32_ENTRY
	db "Xen", 0
	dd pvh_entry

; ---------------------------------------------------------------------------
section .boot.text progbits alloc exec nowrite align=16
bits 32

global _start32
global pvh_entry

; Multiboot2 entry: EAX = magic, EBX = info.
_start32:
	mov edi, eax
	mov esi, ebx
	jmp common32

; PVH entry: EBX = start info; there is no magic in a register, so we
; pass the start-info magic and let C check the structure itself.
pvh_entry:
	mov edi, PVH_MAGIC
	mov esi, ebx

common32:
	cli
	cld
	; The earliest moment we can name: kernel entry for the boot benchmark.
	rdtsc
	mov [boot_tsc_low], eax
	mov [boot_tsc_low + 4], edx
	mov esp, boot_stack32_top

	; Long mode needs CPUID leaf 0x80000001 with the LM bit.
	mov eax, 0x80000000
	cpuid
	cmp eax, 0x80000001
	jb no_long_mode
	mov eax, 0x80000001
	cpuid
	test edx, 1 << 29
	jz no_long_mode
	mov ebp, edx		; keep the feature bits: NX is bit 20

	lgdt [gdt64_ptr]

	mov eax, cr4
	or eax, CR4_PAE
	mov cr4, eax
	mov eax, early_pml4
	mov cr3, eax

	mov ecx, MSR_EFER
	rdmsr
	or eax, EFER_LME
	test ebp, 1 << 20
	jz .no_nx
	or eax, EFER_NXE
.no_nx:
	wrmsr

	mov eax, cr0
	or eax, CR0_PG | CR0_WP
	mov cr0, eax
	jmp 0x08:long_mode_low

; Say why we stop on the first serial port, then halt.
no_long_mode:
	mov esi, no_lm_msg
.next:
	lodsb
	test al, al
	jz .halt
	mov dx, 0x3f8
	out dx, al
	jmp .next
.halt:
	hlt
	jmp .halt

bits 64
long_mode_low:
	xor eax, eax
	mov ax, 0x10
	mov ds, ax
	mov es, ax
	mov ss, ax
	xor eax, eax
	mov fs, ax
	mov gs, ax
	mov rax, long_mode_high
	jmp rax

; ---------------------------------------------------------------------------
section .boot.data progbits alloc noexec write align=4096

; Early page tables: the first 4 GiB identity-mapped (the loader's data may
; lie anywhere there) and the first 2 GiB again at KERNEL_VIRT, all with
; 2 MiB pages. x86_64_start() replaces them with the real ones.
early_pml4:
	dq early_pdpt_low + PTE_P + PTE_W
	times 510 dq 0
	dq early_pdpt_high + PTE_P + PTE_W
early_pdpt_low:
	dq early_pd + 0x0000 + PTE_P + PTE_W
	dq early_pd + 0x1000 + PTE_P + PTE_W
	dq early_pd + 0x2000 + PTE_P + PTE_W
	dq early_pd + 0x3000 + PTE_P + PTE_W
	times 508 dq 0
early_pdpt_high:
	times 510 dq 0
	dq early_pd + 0x0000 + PTE_P + PTE_W
	dq early_pd + 0x1000 + PTE_P + PTE_W
early_pd:
%assign i 0
%rep 2048
	dq (i << 21) + PTE_P + PTE_W + PTE_PS
%assign i i + 1
%endrep

align 16
gdt64:
	dq 0
	dq 0x00af9a000000ffff	; 0x08: 64-bit code
	dq 0x00cf92000000ffff	; 0x10: data
gdt64_end:
gdt64_ptr:
	dw gdt64_end - gdt64 - 1
	dd gdt64

global boot_tsc_low
align 8
boot_tsc_low:
	dq 0

no_lm_msg:
	db "Pagoda: this CPU has no 64-bit long mode; stopping.", 13, 10, 0

align 16
	times 1024 db 0
boot_stack32_top:

; ---------------------------------------------------------------------------
section .text
bits 64
extern x86_64_start
extern __bss_start
extern __bss_end
global long_mode_high

long_mode_high:
	; EDI/ESI hold the loader's magic and information address.
	mov r12d, edi
	mov r13d, esi
	; Loaders zero .bss, but nothing promises it: do it ourselves.
	mov rdi, __bss_start
	mov rcx, __bss_end
	sub rcx, rdi
	shr rcx, 3
	xor eax, eax
	rep stosq
	mov rsp, boot_stack_top
	xor ebp, ebp		; the end of every stack trace
	mov edi, r12d
	mov esi, r13d
	call x86_64_start
.hang:
	cli
	hlt
	jmp .hang

section .bss
align 16
global boot_stack
boot_stack:
	resb 16384
global boot_stack_top
boot_stack_top:
