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
 * Every operation goes through one walker, pt_walk().
 */
#include <pagoda/arch.h>
#include <pagoda/atomic.h>
#include <pagoda/boot_info.h>
#include <pagoda/printk.h>
#include <pagoda/smp.h>
#include <pagoda/string.h>
#include <asm/x86.h>

#define PTE_P (1ULL << 0)
#define PTE_W (1ULL << 1)
#define PTE_U (1ULL << 2)
#define PTE_PWT (1ULL << 3)
#define PTE_PCD (1ULL << 4)
#define PTE_PS (1ULL << 7)
#define PTE_G (1ULL << 8)
#define PTE_NX (1ULL << 63)
#define PTE_ADDR 0x000ffffffffff000ULL

/*
 * Levels are numbered from the root as on arm64: 0 is the PML4 (512 GiB
 * per entry), 1 the PDPT (1 GiB), 2 the page directory (2 MiB), 3 the page
 * table (4 KiB). Levels 1 and 2 may hold a large page (PS).
 */
#define PT_LEAF 3

#define POOL_PAGES 96
static u64 pt_pool[POOL_PAGES][512] __aligned(4096);
static unsigned int pt_pool_used;
static u64 nx_bit;
static u64 direct_map_end;
static bool direct_map_live; /* page tables reachable through the direct map */

struct mm_struct init_mm;

extern char __text_start[], __text_end[], __rodata_start[], __rodata_end[];
extern char __data_start[], __kernel_end[];

static unsigned int pt_index(u64 va, int level)
{
	return (va >> (39 - 9 * level)) & 511;
}

static u64 level_size(int level)
{
	return 1ULL << (39 - 9 * level);
}

static bool is_leaf(u64 e, int level)
{
	return level == PT_LEAF || (level > 0 && (e & PTE_PS));
}

/* The lower half (user space) runs up to bit 47; the rest is the kernel's. */
static bool is_user_va(u64 va)
{
	return (va >> 47) == 0;
}

static bool is_canonical(u64 va)
{
	u64 top = va >> 47;

	return top == 0 || top == (~0ULL >> 47);
}

/*
 * A new page-table page's physical address: from the image's pool while
 * booting, afterwards from portable code.
 */
static u64 pgtable_alloc(void)
{
	if (direct_map_live)
		return pgtable_alloc_page();
	if (pt_pool_used == POOL_PAGES)
		return 0;
	return __pa_kernel(pt_pool[pt_pool_used++]);
}

/*
 * Before the switch only the image is mapped (and the pool lives in it);
 * afterwards every table is reached through the direct map.
 */
static u64 *table_va(u64 e)
{
	u64 pa = e & PTE_ADDR;

	return (u64 *)(pa + (direct_map_live ? PAGE_OFFSET : KERNEL_VIRT));
}

/*
 * The one walker, used by every operation below. It descends mm's tables
 * towards va's entry at level `stop` and returns the entry where it ended,
 * with that level in *levelp: the entry at `stop`, a large page above it,
 * or (without alloc) the first non-present entry. With alloc, missing
 * tables are created on the way; NULL then means no page could be had.
 * A table is installed with a compare-and-swap, so two CPUs mapping
 * neighbouring pages never lose one another's table.
 */
static u64 *pt_walk(struct mm_struct *mm, u64 va, int stop, bool alloc, int *levelp)
{
	u64 *t = mm->pgd;

	for (int level = 0;; level++) {
		u64 *e = &t[pt_index(va, level)];
		u64 old = READ_ONCE(*e);

		if (level == stop || ((old & PTE_P) && is_leaf(old, level)) ||
		    (!(old & PTE_P) && !alloc)) {
			*levelp = level;
			return e;
		}
		if (!(old & PTE_P)) {
			/* User tables must allow user access at every level. */
			u64 pa = pgtable_alloc(), seen;
			u64 want = pa | PTE_P | PTE_W | (is_user_va(va) ? PTE_U : 0);

			if (!pa)
				return NULL;
			seen = cmpxchg(e, old, want);
			if (seen != old) {
				if (direct_map_live)
					pgtable_free_page(pa);
				want = seen;
			}
			old = want;
		}
		t = table_va(old);
	}
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
	u64 step = level_size(level);

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

	for (u64 va = VMALLOC_START; va < VMALLOC_END; va += level_size(0))
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
	init_mm.pgd = table_va(pgtable_alloc());
	map_image_range(__text_start, __text_end, PTE_P | PTE_G);
	map_image_range(__rodata_start, __rodata_end, PTE_P | PTE_G | nx_bit);
	map_image_range(__data_start, __kernel_end, PTE_P | PTE_W | PTE_G | nx_bit);
	paging_map_direct();
	paging_fill_kernel_roots();
	write_cr4(read_cr4() | CR4_PGE);
	write_cr3(__pa_kernel(init_mm.pgd));
	direct_map_live = true;
	init_mm.pgd = table_va(__pa_kernel(init_mm.pgd));
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
	if (!(v & PTE_P))
		return -ENOENT;
	/* Tables above a leaf allow everything, so the leaf decides. */
	mask = level_size(level) - 1;
	if (pa)
		*pa = (v & PTE_ADDR & ~mask) | (va & mask);
	if (prot)
		*prot = PROT_PRESENT | (v & PTE_W ? PROT_WRITE : 0) |
			(v & PTE_NX ? 0 : PROT_EXEC) | (v & PTE_U ? PROT_USER : 0) |
			cache_prot(v);
	return 0;
}

static u64 prot_bits(unsigned int prot)
{
	u64 f = PTE_P;

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

static bool range_ok(struct mm_struct *mm, u64 va, u64 size)
{
	if (!size || !IS_ALIGNED(va, PAGE_SIZE) || !IS_ALIGNED(size, PAGE_SIZE) ||
	    va + size < va)
		return false;
	if (mm == &init_mm)
		return va >= VMALLOC_START && va + size <= VMALLOC_END;
	return va + size <= TASK_SIZE;
}

static bool prot_ok(struct mm_struct *mm, unsigned int prot)
{
	unsigned int known = PROT_PRESENT | PROT_WRITE | PROT_EXEC | PROT_DEVICE |
			     PROT_NOCACHE | PROT_USER;

	return (prot & PROT_PRESENT) && !(prot & ~known) &&
	       !(prot & PROT_USER) == (mm == &init_mm);
}

/* Every page of the range present as a 4 KiB entry. */
static bool fully_mapped(struct mm_struct *mm, u64 va, u64 size)
{
	int level;

	for (u64 a = va; a < va + size; a += PAGE_SIZE) {
		u64 *e = pt_walk(mm, a, PT_LEAF, false, &level);

		if (level != PT_LEAF || !(READ_ONCE(*e) & PTE_P))
			return false;
	}
	return true;
}

/* Some page of the range present (or under a large page). */
static bool any_mapped(struct mm_struct *mm, u64 va, u64 size)
{
	int level;

	for (u64 a = va; a < va + size;) {
		u64 *e = pt_walk(mm, a, PT_LEAF, false, &level);

		if (READ_ONCE(*e) & PTE_P)
			return true;
		/* A missing table: skip everything it would have held. */
		a = ALIGN_DOWN(a, level_size(level)) + level_size(level);
		if (!a)
			break;
	}
	return false;
}

/* Unmap and protect end here: see arch.h for who flushes where. */
static void flush_range(struct mm_struct *mm, u64 va, u64 size)
{
	if (mm == &init_mm)
		flush_tlb_kernel_range(va, va + size);
	else
		flush_tlb_mm_range(mm, va, va + size);
}

static void clear_range(struct mm_struct *mm, u64 va, u64 size)
{
	int level;

	for (u64 a = va; a < va + size; a += PAGE_SIZE)
		WRITE_ONCE(*pt_walk(mm, a, PT_LEAF, false, &level), 0);
}

int arch_map_range(struct mm_struct *mm, u64 va, phys_addr_t pa, u64 size,
		   unsigned int prot)
{
	u64 flags = prot_bits(prot);
	int level;

	if (!range_ok(mm, va, size) || !IS_ALIGNED(pa, PAGE_SIZE) || !prot_ok(mm, prot))
		return -EINVAL;
	if (any_mapped(mm, va, size))
		return -EEXIST;
	for (u64 off = 0; off < size; off += PAGE_SIZE) {
		u64 *e = pt_walk(mm, va + off, PT_LEAF, true, &level);

		if (!e) {
			clear_range(mm, va, off);
			flush_range(mm, va, off);
			return -ENOMEM;
		}
		WRITE_ONCE(*e, (pa + off) | flags);
	}
	return 0;
}

int arch_protect_range(struct mm_struct *mm, u64 va, u64 size, unsigned int prot)
{
	u64 flags = prot_bits(prot);
	int level;

	if (!range_ok(mm, va, size) || !prot_ok(mm, prot) || !fully_mapped(mm, va, size))
		return -EINVAL;
	for (u64 a = va; a < va + size; a += PAGE_SIZE) {
		u64 *e = pt_walk(mm, a, PT_LEAF, false, &level);

		WRITE_ONCE(*e, (*e & PTE_ADDR) | flags);
	}
	flush_range(mm, va, size);
	return 0;
}

int arch_unmap_range(struct mm_struct *mm, u64 va, u64 size)
{
	if (!range_ok(mm, va, size) || !fully_mapped(mm, va, size))
		return -EINVAL;
	clear_range(mm, va, size);
	flush_range(mm, va, size);
	return 0;
}

/* --- user address spaces ----------------------------------------------------- */

int arch_mm_init(struct mm_struct *mm)
{
	phys_addr_t pa = pgtable_alloc_page();

	if (!pa)
		return -ENOMEM;
	mm->pgd = table_va(pa);
	mm->cpu_mask = 0;
	/* The kernel half: the same lower-level tables as init_mm's. */
	memcpy(mm->pgd + 256, init_mm.pgd + 256, 256 * sizeof(u64));
	return 0;
}

/* Free a user table at `level` and every table below it (not the pages). */
static void free_tables(u64 *t, int level)
{
	if (level < PT_LEAF)
		for (int i = 0; i < 512; i++)
			if (t[i] & PTE_P)
				free_tables(table_va(t[i]), level + 1);
	pgtable_free_page((u64)t - PAGE_OFFSET);
}

void arch_mm_free(struct mm_struct *mm)
{
	if (mm == &init_mm || !mm->pgd)
		return;
	for (int i = 0; i < 256; i++)
		if (mm->pgd[i] & PTE_P)
			free_tables(table_va(mm->pgd[i]), 1);
	pgtable_free_page((u64)mm->pgd - PAGE_OFFSET);
	mm->pgd = NULL;
}
