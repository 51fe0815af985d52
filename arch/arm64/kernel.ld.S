/* SPDX-License-Identifier: MIT */
/*
 * arm64 kernel layout. Everything is linked at KERNEL_VIRT; the image may
 * be loaded at any page-aligned physical address and head.S runs
 * position-independent code until the MMU maps KERNEL_VIRT onto it.
 * Text, read-only data and data are page-aligned so each gets its own
 * permissions (text RX, rodata R, data RW and never executable).
 *
 * kernel8.img is this file's loadable bytes from _head up to the end of
 * .data (objcopy -O binary); .bss is not in the file, but the Image
 * header's image_size covers it so loaders leave room.
 */
#include "layout.h"

OUTPUT_FORMAT("elf64-littleaarch64")
OUTPUT_ARCH(aarch64)
ENTRY(_head)

PHDRS {
	text PT_LOAD FLAGS(5);
	rodata PT_LOAD FLAGS(4);
	data PT_LOAD FLAGS(6);
}

SECTIONS {
	. = KERNEL_VIRT;
	_head = .;

	.text : {
		__text_start = .;
		KEEP(*(.head.text))
		__head_text_end = .;
		*(.text .text.*)
		__text_end = .;
	} :text

	. = ALIGN(4096);
	.rodata : {
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
	.data : {
		__data_start = .;
		*(.data .data.*)
		/* The file ends here: keep a whole page so the image is page-sized. */
		. = ALIGN(4096);
	} :data
	.bss (NOLOAD) : {
		. = ALIGN(16);
		__bss_start = .;
		*(.bss .bss.*)
		*(COMMON)
		. = ALIGN(16);
		__bss_end = .;
	} :data
	. = ALIGN(4096);
	__kernel_end = .;
	__image_size = ABSOLUTE(__kernel_end - _head);

	/DISCARD/ : { *(.comment) *(.note.GNU-stack) *(.note.gnu.property) *(.eh_frame) }
}

ASSERT(__image_size <= EARLY_L3_TABLES * 0x200000,
       "kernel image too large for head.S's early page tables (EARLY_L3_TABLES)")
/*
 * Secondary CPUs turn their MMU on in .head.text, fetched through head.S's
 * identity map of the 2 MiB block holding _head: keeping it in the image's
 * first page keeps it in that block wherever the page-aligned image lands.
 */
ASSERT(__head_text_end - _head <= 4096,
       ".head.text must fit in the image's first page (the identity map covers it)")
