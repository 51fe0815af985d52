/* SPDX-License-Identifier: MIT */
/*
 * The host test build's "virtual memory layout": the simulated physical
 * memory is a host buffer, and PAGE_OFFSET is whatever makes
 * PAGE_OFFSET + pa land inside it (set by the simulation, tests/host/).
 */
#ifndef ASM_MEMORY_H
#define ASM_MEMORY_H

extern unsigned long host_page_offset;
#define PAGE_OFFSET host_page_offset
#define KERNEL_VIRT 0UL
#define VMALLOC_START 0UL
#define VMALLOC_END 0UL
#define TASK_SIZE 0x00007ffffffff000UL

#endif
