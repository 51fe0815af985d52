/* SPDX-License-Identifier: MIT */
/*
 * The x86-64 virtual memory layout, shared by the linker script and C.
 *
 *   0000000000000000 - 00007fffffffefff  user space (TASK_SIZE; the last page
 *                                        stays unmapped, as in Linux, so that
 *                                        sysret never returns to a
 *                                        non-canonical address)
 *   ffff888000000000 - ffffc87fffffffff  direct map of all physical memory
 *   ffffc90000000000 - ffffc9ffffffffff  vmalloc and ioremap (1 TiB)
 *   ffffffff80000000 - ffffffffffffffff  the kernel image (phys + KERNEL_VIRT)
 *
 * The kernel is loaded at 2 MiB physical: low enough for any loader, and
 * 2 MiB aligned so the image starts on a large-page boundary.
 */
#ifndef X86_64_LAYOUT_H
#define X86_64_LAYOUT_H

#define KERNEL_PHYS 0x200000
#define KERNEL_VIRT 0xffffffff80000000
#define PAGE_OFFSET 0xffff888000000000
#define VMALLOC_START 0xffffc90000000000
#define VMALLOC_END 0xffffca0000000000
#define TASK_SIZE 0x00007ffffffff000

#endif
