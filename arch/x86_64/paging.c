// SPDX-License-Identifier: MIT
/*
 * The kernel's page tables, built once at boot to replace head.asm's
 * temporary ones:
 *   - the image at KERNEL_VIRT with 4 KiB pages: text read-only and
 *     executable, rodata read-only, data and bss writable, both no-execute;
 *   - a direct map of physical memory at PAGE_OFFSET (1 GiB pages when the
 *     CPU has them, else 2 MiB), writable and no-execute;
 *   - nothing at all in the low half, so a NULL dereference faults.
 * Page-table pages come from a static pool until memory management exists.
 */
#include <pagoda/arch.h>
#include <pagoda/boot_info.h>
#include <pagoda/printk.h>
#include <pagoda/string.h>
#include <asm/x86.h>

#define PTE_P (1ULL << 0)
#define PTE_W (1ULL << 1)
#define PTE_PS (1ULL << 7)
#define PTE_G (1ULL << 8)
#define PTE_NX (1ULL << 63)
#define PTE_ADDR 0x000ffffffffff000ULL
#define PAGE_SIZE 4096ULL

#define POOL_PAGES 96
static u64 pt_pool[POOL_PAGES][512] __aligned(4096);
static unsigned int pt_pool_used;
static u64 *kernel_pml4;
static u64 nx_bit;
static u64 direct_map_end;

extern char __text_start[], __text_end[], __rodata_start[], __rodata_end[];
extern char __data_start[], __kernel_end[];

static u64 *pt_alloc(void)
{
	if (pt_pool_used == POOL_PAGES)
		return NULL;
	return pt_pool[pt_pool_used++];
}

/* Page-table pages live in the image, so their physical address is known. */
static u64 table_pa(u64 *t) { return __pa_kernel(t); }
static u64 *table_va(u64 e) { return (u64 *)((e & PTE_ADDR) + KERNEL_VIRT); }

static u64 *next_level(u64 *table, unsigned int idx)
{
	if (!(table[idx] & PTE_P)) {
		u64 *t = pt_alloc();

		if (!t)
			return NULL;
		table[idx] = table_pa(t) | PTE_P | PTE_W;
	}
	return table_va(table[idx]);
}

static unsigned int idx(u64 va, int level)
{
	return (va >> (12 + 9 * level)) & 511;
}

/* Map one page of the given size (level 0: 4 KiB, 1: 2 MiB, 2: 1 GiB). */
static int map_one(u64 va, u64 pa, u64 flags, int level)
{
	u64 *t = kernel_pml4;

	for (int l = 3; l > level; l--) {
		t = next_level(t, idx(va, l));
		if (!t)
			return -ENOMEM;
	}
	t[idx(va, level)] = pa | flags | (level ? PTE_PS : 0);
	return 0;
}

static void map_image_range(char *start, char *end, u64 flags)
{
	for (u64 va = (u64)start; va < (u64)end; va += PAGE_SIZE)
		if (map_one(va, __pa_kernel(va), flags, 0))
			panic("paging: out of boot page tables mapping the kernel");
}

static u64 highest_address(void)
{
	u64 top = 4 * SZ_1G; /* cover the PCI hole, the APICs and firmware */

	/*
	 * Only memory the kernel may use or read: firmware can reserve far-away
	 * ranges (QEMU's q35 reserves one at 1 TiB) that need no mapping.
	 */
	for (u32 i = 0; i < boot_info.nr_mem; i++)
		if (boot_info.mem[i].type != BOOT_MEM_RESERVED)
			top = MAX(top, boot_info.mem[i].base + boot_info.mem[i].size);
	return ALIGN_UP(top, SZ_1G);
}

static void map_direct(void)
{
	u64 top = highest_address();
	int level = cpu.pdpe1gb ? 2 : 1;
	u64 step = level == 2 ? SZ_1G : SZ_2M;

	for (u64 pa = 0; pa < top; pa += step) {
		if (map_one(PAGE_OFFSET + pa, pa, PTE_P | PTE_W | PTE_G | nx_bit,
			    level)) {
			pr_warn("paging: direct map stops at %llu MiB (boot page-table pool full)\n",
				(unsigned long long)(pa >> 20));
			break;
		}
		direct_map_end = pa + step;
	}
}

u64 x86_direct_map_end(void)
{
	return direct_map_end;
}

void paging_init(void)
{
	nx_bit = cpu.nx ? PTE_NX : 0;
	kernel_pml4 = pt_alloc();
	map_image_range(__text_start, __text_end, PTE_P | PTE_G);
	map_image_range(__rodata_start, __rodata_end, PTE_P | PTE_G | nx_bit);
	map_image_range(__data_start, __kernel_end, PTE_P | PTE_W | PTE_G | nx_bit);
	map_direct();
	write_cr4(read_cr4() | CR4_PGE);
	write_cr3(table_pa(kernel_pml4));
}

/*
 * Walk the live page tables for va. Writable only if every level allows
 * it; executable only if no level says no-execute.
 */
unsigned int arch_page_prot(u64 va)
{
	u64 *t = (u64 *)((read_cr3() & PTE_ADDR) + KERNEL_VIRT);
	bool w = true, x = true;

	for (int level = 3; level >= 0; level--) {
		u64 e = t[idx(va, level)];

		if (!(e & PTE_P))
			return 0;
		w = w && (e & PTE_W);
		x = x && !(e & PTE_NX);
		if (level == 0 || (e & PTE_PS))
			break;
		t = table_va(e);
	}
	return PROT_PRESENT | (w ? PROT_WRITE : 0) | (x ? PROT_EXEC : 0);
}
