/* SPDX-License-Identifier: MIT */
/*
 * x86-64 kernel layout. The boot sections run at their physical address
 * (paging is off or identity-mapped then); everything else is linked at
 * KERNEL_VIRT + physical, in the top 2 GiB, so -mcmodel=kernel works.
 * Text, read-only data and data are page-aligned so each gets its own
 * permissions (text RX, rodata R, data RW and no-execute).
 */
#include "layout.h"

/* Linked at KERNEL_VIRT + physical, loaded at physical. */
#define LOAD_OFFSET KERNEL_VIRT
#include "linker.ld"

OUTPUT_FORMAT("elf64-x86-64")
ENTRY(_start32)

PHDRS {
	boot PT_LOAD FLAGS(7);
	note PT_NOTE FLAGS(4);
	KERNEL_PHDRS
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

	TEXT()

	RO_DATA
	RW_DATA()
	BSS
	__kernel_phys_end = . - KERNEL_VIRT;

	DISCARDS
}
