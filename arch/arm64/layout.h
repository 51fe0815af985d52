/* SPDX-License-Identifier: MIT */
/*
 * The arm64 virtual memory layout (48-bit virtual addresses, 4 KiB pages),
 * shared by the linker script, head.S and C.
 *
 *   0000000000000000 - 0000ffffffffffff  TTBR0: user space (TASK_SIZE);
 *                                        empty in init_mm, so NULL faults
 *   ffff000000000000 - ffff7fffffffffff  direct map of all RAM (PAGE_OFFSET + pa)
 *   ffff800000000000 - ffff80ffffffffff  vmalloc (1 TiB, owned by mm/)
 *   fffffffe00000000 - fffffffeffffffff  device mappings made by arch/arm64
 *                                        at boot (UART, GIC, power controller)
 *   ffffffff80000000 - ...               the kernel image, wherever it was loaded
 *
 * Unlike x86 the image has no fixed physical address: QEMU virt loads it
 * at 0x40080000, the Pi firmware at 0x80000. head.S maps KERNEL_VIRT to
 * wherever the image's first byte is, with 4 KiB pages, so any page-aligned
 * load address works (kimage_voffset holds the difference).
 */
#ifndef ARM64_LAYOUT_H
#define ARM64_LAYOUT_H

#define VA_BITS 48
#define PAGE_OFFSET 0xffff000000000000
#define VMALLOC_START 0xffff800000000000
#define VMALLOC_END 0xffff810000000000
#define DEVMAP_START 0xfffffffe00000000
#define DEVMAP_END 0xffffffff00000000
#define KERNEL_VIRT 0xffffffff80000000
#define TASK_SIZE 0x0001000000000000

/* The arm64 boot protocol's default; the Pi firmware loads kernel8.img here. */
#define TEXT_OFFSET 0x80000
/*
 * head.S maps the image (text to bss) with this many level-3 tables of
 * 2 MiB each; the linker script checks the image fits.
 */
#define EARLY_L3_TABLES 8

#endif
