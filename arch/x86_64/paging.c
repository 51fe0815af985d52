// SPDX-License-Identifier: MIT
/*
 * The kernel's page tables, built once at boot to replace head.asm's
 * temporary ones:
 *   - the image at KERNEL_VIRT with 4 KiB pages: text read-only and
 *     executable, rodata read-only, data and bss writable, both no-execute;
 *   - a direct map of physical memory at PAGE_OFFSET (1 GiB pages when the
 *     CPU has them, else 2 MiB), writable and no-execute;
 *   - nothing at all in the low half, so a NULL dereference faults.
 * That is init_mm. Page-table pages for it come from a static pool in the
 * image. Later mappings (vmalloc, ioremap, user address spaces: the
 * arch.h contract, arch_map_range() and friends) take theirs from
 * pgtable_alloc_page(), that is from memblock or the buddy allocator.
 * Every operation goes through one walker, pt_walk(), which mm/pgtable.c
 * shares with arm64 along with the range operations; this file gives it
 * the root and the table pages. Levels are numbered from the root as on
 * arm64 (asm/pgtable.h).
 */
#include <pagoda/boot_info.h>
#include <pagoda/pgtable.h>
#include <pagoda/printk.h>
#include <pagoda/smp.h>
#include <pagoda/string.h>
#include <asm/x86.h>

#define POOL_PAGES 96
static u64 pt_pool[POOL_PAGES][512] __aligned(4096);
static unsigned int pt_pool_used;
static u64 nx_bit;
static u64 direct_map_end;
static bool direct_map_live; /* page tables reachable through the direct map */

struct mm_struct init_mm;

extern char __text_start[], __text_end[], __rodata_start[], __rodata_end[];
extern char __data_start[], __kernel_end[];

static bool is_canonical(u64 va)
{
	u64 top = va >> 47;

	return top == 0 || top == (~0ULL >> 47);
}

/*
 * A new page-table page's physical address: from the image's pool while
 * booting, afterwards from portable code.
 */
phys_addr_t pt_alloc_table(void)
{
	if (direct_map_live)
		return pgtable_alloc_page();
	if (pt_pool_used == POOL_PAGES)
		return 0;
	return __pa_kernel(pt_pool[pt_pool_used++]);
}

/* A boot-pool page is the image's: it never goes back. */
void pt_free_table(phys_addr_t pa)
{
	if (direct_map_live)
		pgtable_free_page(pa);
}

/*
 * Before the switch only the image is mapped (and the pool lives in it);
 * afterwards every table is reached through the direct map.
 */
u64 *pt_table_va(phys_addr_t pa)
{
	return (u64 *)(pa + (direct_map_live ? PAGE_OFFSET : KERNEL_VIRT));
}

/* Every address is in one PML4: a user mm's upper half is init_mm's. */
u64 *pt_root(struct mm_struct *mm, u64 va)
{
	return mm->pgd;
}

/* Boot: map one page of level's size (3: 4 KiB, 2: 2 MiB, 1: 1 GiB). */
static int map_boot(u64 va, u64 pa, u64 flags, int level)
{
	int got;
	u64 *e = pt_walk(&init_mm, va, level, true, &got);

	if (!e || got != level)
		return -ENOMEM;
	*e = pa | flags | (level != PT_LEAF ? PTE_PS : 0);
	return 0;
}

static void map_image_range(char *start, char *end, u64 flags)
{
	for (u64 va = (u64)start; va < (u64)end; va += PAGE_SIZE)
		if (map_boot(va, __pa_kernel(va), flags, PT_LEAF))
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

static void paging_map_direct(void)
{
	u64 top = highest_address();
	int level = cpu.pdpe1gb ? 1 : 2;
	u64 step = pt_level_size(level);

	for (u64 pa = 0; pa < top; pa += step) {
		if (map_boot(PAGE_OFFSET + pa, pa, PTE_P | PTE_W | PTE_G | nx_bit, level)) {
			pr_warn("paging: direct map stops at %llu MiB (boot page-table pool full)\n",
				(unsigned long long)(pa >> 20));
			break;
		}
		direct_map_end = pa + step;
	}
}

/*
 * Give the vmalloc window its top-level entries now, so the kernel half of
 * the root never changes after boot and a user mm's copy of it (made by
 * arch_mm_init()) stays right forever.
 */
static void paging_fill_kernel_roots(void)
{
	int level;

	for (u64 va = VMALLOC_START; va < VMALLOC_END; va += pt_level_size(0))
		if (!pt_walk(&init_mm, va, 1, true, &level))
			panic("paging: out of boot page tables for the vmalloc window");
}

u64 arch_direct_map_end(void)
{
	return direct_map_end;
}

void paging_init(void)
{
	nx_bit = cpu.nx ? PTE_NX : 0;
	init_mm.pgd = pt_table_va(pt_alloc_table());
	map_image_range(__text_start, __text_end, PTE_P | PTE_G);
	map_image_range(__rodata_start, __rodata_end, PTE_P | PTE_G | nx_bit);
	map_image_range(__data_start, __kernel_end, PTE_P | PTE_W | PTE_G | nx_bit);
	paging_map_direct();
	paging_fill_kernel_roots();
	write_cr4(read_cr4() | CR4_PGE);
	write_cr3(__pa_kernel(init_mm.pgd));
	direct_map_live = true;
	init_mm.pgd = pt_table_va(__pa_kernel(init_mm.pgd));
}

/* --- the arch.h contract ---------------------------------------------------- */

static unsigned int cache_prot(u64 v)
{
	if (!(v & PTE_PCD))
		return 0;
	return v & PTE_PWT ? PROT_DEVICE : PROT_NOCACHE;
}

/* x86 keeps instruction fetches coherent with stores: nothing to do. */
void arch_sync_icache(void *kaddr, size_t len)
{
	(void)kaddr;
	(void)len;
}

int arch_lookup(struct mm_struct *mm, u64 va, phys_addr_t *pa, unsigned int *prot)
{
	int level;
	u64 *e, v, mask;

	if (!is_canonical(va))
		return -ENOENT;
	e = pt_walk(mm, va, PT_LEAF, false, &level);
	v = READ_ONCE(*e);
	if (!pte_present(v))
		return -ENOENT;
	/* Tables above a leaf allow everything, so the leaf decides. */
	mask = pt_level_size(level) - 1;
	if (pa)
		*pa = (v & PTE_ADDR & ~mask) | (va & mask);
	if (prot)
		*prot = PROT_PRESENT | (v & PTE_W ? PROT_WRITE : 0) |
			(v & PTE_NX ? 0 : PROT_EXEC) | (v & PTE_U ? PROT_USER : 0) |
			cache_prot(v);
	return 0;
}

u64 pte_prot_bits(unsigned int prot)
{
	u64 f = PTE_P;

	/* PROT_NONE: mapped for the kernel's bookkeeping, present to no access at all. */
	if (prot & PROT_NONE_USER)
		return PTE_PROTNONE | nx_bit;

	if (prot & PROT_WRITE)
		f |= PTE_W;
	if (!(prot & PROT_EXEC))
		f |= nx_bit;
	/*
	 * With the power-on PAT, PCD|PWT selects UC (MMIO: strong ordering,
	 * no speculation) and PCD alone UC- (uncached RAM for DMA buffers);
	 * the two stay apart, so a lookup can tell which was asked for.
	 */
	if (prot & PROT_DEVICE)
		f |= PTE_PCD | PTE_PWT;
	else if (prot & PROT_NOCACHE)
		f |= PTE_PCD;
	/* Kernel entries are global: they survive CR3 loads. */
	f |= prot & PROT_USER ? PTE_U : PTE_G;
	return f;
}

/* --- user address spaces ----------------------------------------------------- */

/* The kernel half of a new root: the same lower-level tables as init_mm's. */
void pt_share_kernel_half(struct mm_struct *mm)
{
	memcpy(mm->pgd + PTRS_USER_ROOT, init_mm.pgd + PTRS_USER_ROOT,
	       (PTRS_PER_TABLE - PTRS_USER_ROOT) * sizeof(u64));
}
