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

/* Loaded wherever, linked at KERNEL_VIRT: only the MMU relocates it. */
#define LOAD_OFFSET 0
#include "linker.ld"

OUTPUT_FORMAT("elf64-littleaarch64")
OUTPUT_ARCH(aarch64)
ENTRY(_head)

PHDRS {
	KERNEL_PHDRS
}

SECTIONS {
	. = KERNEL_VIRT;
	_head = .;

	TEXT(KEEP(*(.head.text)) __head_text_end = .;)

	RO_DATA
	/* The file ends with .data: a whole page keeps the image page-sized. */
	RW_DATA(. = ALIGN(4096);)
	BSS
	__image_size = ABSOLUTE(__kernel_end - _head);

	DISCARDS
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
