/* SPDX-License-Identifier: MIT */
/*
 * Virtually contiguous kernel memory (mm/vmalloc.c): buffers too big to find
 * as one physically contiguous block, each followed by an unmapped guard
 * page; and ioremap() for device registers.
 */
#ifndef PAGODA_VMALLOC_H
#define PAGODA_VMALLOC_H

#include <pagoda/types.h>

struct page;

void *vmalloc(size_t size);
void *vzalloc(size_t size);
void vfree(const void *addr);
/* Change the protection of a whole vmalloc area (PROT_* from arch.h). */
int vmalloc_protect(const void *addr, unsigned int prot);
struct page *vmalloc_to_page(const void *addr);
bool is_vmalloc_addr(const void *addr);

/* Map device memory uncached; the offset within the page is kept. */
void *ioremap(phys_addr_t pa, size_t size);
/*
 * The same with other PROT_* bits (arch.h): PROT_NOCACHE gives an uncached
 * alias of RAM, for coherent DMA buffers of devices that do not snoop.
 */
void *ioremap_prot(phys_addr_t pa, size_t size, unsigned int prot);
void iounmap(void *addr);

/* The vmalloc window's areas, one line each (shell `vmallocinfo`). */
void vmalloc_print_info(void);

#endif
