/* SPDX-License-Identifier: MIT */
/*
 * x86-64 kernel layout. The boot sections run at their physical address
 * (paging is off or identity-mapped then); everything else is linked at
 * KERNEL_VIRT + physical, in the top 2 GiB, so -mcmodel=kernel works.
 * Text, read-only data and data are page-aligned so each gets its own
 * permissions (text RX, rodata R, data RW and no-execute).
 */
#include "layout.h"

OUTPUT_FORMAT("elf64-x86-64")
ENTRY(_start32)

PHDRS {
	boot PT_LOAD FLAGS(7);
	note PT_NOTE FLAGS(4);
	text PT_LOAD FLAGS(5);
	rodata PT_LOAD FLAGS(4);
	data PT_LOAD FLAGS(6);
}

SECTIONS {
	. = KERNEL_PHYS;
	__kernel_phys_start = .;
	.boot : {
		KEEP(*(.multiboot2))
		*(.boot.text)
		. = ALIGN(4096);
		*(.boot.data)
	} :boot
	.note.pvh : { KEEP(*(.note.pvh)) } :boot :note

	. = ALIGN(4096) + KERNEL_VIRT;

	.text : AT(ADDR(.text) - KERNEL_VIRT) {
		__text_start = .;
		*(.text .text.*)
		__text_end = .;
	} :text

	. = ALIGN(4096);
	.rodata : AT(ADDR(.rodata) - KERNEL_VIRT) {
		__rodata_start = .;
		*(.rodata .rodata.*)
		. = ALIGN(8);
		__start_ktest_suites = .;
		KEEP(*(ktest_suites))
		__stop_ktest_suites = .;
		__start_kparams = .;
		KEEP(*(kparams))
		__stop_kparams = .;
		__start_kcmds = .;
		KEEP(*(kcmds))
		__stop_kcmds = .;
		__start_kbenches = .;
		KEEP(*(kbenches))
		__stop_kbenches = .;
		__start___ex_table = .;
		KEEP(*(__ex_table))
		__stop___ex_table = .;
		/* Last, so its size cannot move any text address. */
		KEEP(*(.ksyms))
		__rodata_end = .;
	} :rodata

	. = ALIGN(4096);
	.data : AT(ADDR(.data) - KERNEL_VIRT) {
		__data_start = .;
		*(.data .data.*)
	} :data
	.bss (NOLOAD) : AT(ADDR(.bss) - KERNEL_VIRT) {
		. = ALIGN(16);
		__bss_start = .;
		*(.bss .bss.*)
		*(COMMON)
		. = ALIGN(16);
		__bss_end = .;
	} :data
	. = ALIGN(4096);
	__kernel_end = .;
	__kernel_phys_end = . - KERNEL_VIRT;

	/DISCARD/ : { *(.comment) *(.note.GNU-stack) *(.note.gnu.property) *(.eh_frame) }
}
