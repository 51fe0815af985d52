// SPDX-License-Identifier: MIT
/*
 * The kernel's page tables, built once at boot to replace head.asm's
 * temporary ones:
 *   - the image at KERNEL_VIRT with 4 KiB pages: text read-only and
 *     executable, rodata read-only, data and bss writable, both no-execute;
 *   - a direct map of physical memory at PAGE_OFFSET (1 GiB pages when the
 *     CPU has them, else 2 MiB), writable and no-execute;
 *   - nothing at all in the low half, so a NULL dereference faults.
 * Page-table pages for those come from a static pool in the image. Later
 * mappings (vmalloc, ioremap: arch_map_range() and friends) take theirs
 * from pgtable_alloc_page(), that is from memblock or the buddy allocator.
 */
#include <pagoda/arch.h>
#include <pagoda/boot_info.h>
#include <pagoda/printk.h>
#include <pagoda/smp.h>
#include <pagoda/string.h>
#include <asm/x86.h>

#define PTE_P (1ULL << 0)
#define PTE_W (1ULL << 1)
#define PTE_PWT (1ULL << 3)
#define PTE_PCD (1ULL << 4)
#define PTE_PS (1ULL << 7)
#define PTE_G (1ULL << 8)
#define PTE_NX (1ULL << 63)
#define PTE_ADDR 0x000ffffffffff000ULL

#define POOL_PAGES 96
static u64 pt_pool[POOL_PAGES][512] __aligned(4096);
static unsigned int pt_pool_used;
static u64 *kernel_pml4;
static u64 nx_bit;
static u64 direct_map_end;
static bool direct_map_live; /* page tables reachable through the direct map */

extern char __text_start[], __text_end[], __rodata_start[], __rodata_end[];
extern char __data_start[], __kernel_end[];

/*
 * A new page-table page's physical address: from the image's pool while
 * booting, afterwards from portable code.
 */
static u64 pt_alloc(void)
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

static u64 *next_level(u64 *table, unsigned int idx)
{
	if (!(table[idx] & PTE_P)) {
		u64 pa = pt_alloc();

		if (!pa)
			return NULL;
		table[idx] = pa | PTE_P | PTE_W;
	}
	if (table[idx] & PTE_PS)
		return NULL; /* a large page already covers this range */
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

u64 arch_direct_map_end(void)
{
	return direct_map_end;
}

void paging_init(void)
{
	nx_bit = cpu.nx ? PTE_NX : 0;
	kernel_pml4 = table_va(pt_alloc());
	map_image_range(__text_start, __text_end, PTE_P | PTE_G);
	map_image_range(__rodata_start, __rodata_end, PTE_P | PTE_G | nx_bit);
	map_image_range(__data_start, __kernel_end, PTE_P | PTE_W | PTE_G | nx_bit);
	map_direct();
	write_cr4(read_cr4() | CR4_PGE);
	write_cr3(__pa_kernel(kernel_pml4));
	direct_map_live = true;
	kernel_pml4 = table_va(__pa_kernel(kernel_pml4));
}

/*
 * Walk the live page tables for va. Writable only if every level allows
 * it; executable only if no level says no-execute.
 */
unsigned int arch_page_prot(u64 va)
{
	u64 *t = table_va(read_cr3());
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

/* --- runtime kernel mappings (vmalloc, ioremap) ------------------------- */

/* The level-0 entry for va, or NULL when a table on the way is missing. */
static u64 *pte_lookup(u64 va)
{
	u64 *t = kernel_pml4;

	for (int level = 3; level > 0; level--) {
		u64 e = t[idx(va, level)];

		if (!(e & PTE_P) || (e & PTE_PS))
			return NULL;
		t = table_va(e);
	}
	return &t[idx(va, 0)];
}

static u64 prot_bits(unsigned int prot)
{
	u64 f = PTE_P;

	if (prot & PROT_WRITE)
		f |= PTE_W;
	if (!(prot & PROT_EXEC))
		f |= nx_bit;
	if (prot & (PROT_DEVICE | PROT_NOCACHE))
		f |= PTE_PCD | PTE_PWT; /* uncached, as MMIO needs */
	return f;
}

/*
 * Every CPU may have cached the old entries: flush_tlb_kernel_range()
 * flushes here and sends the shootdown IPI to the others (kernel/smp.c,
 * arch_flush_tlb_local() in irq.c does each CPU's part).
 */
static void flush_range(u64 va, u64 size)
{
	flush_tlb_kernel_range(va, va + size);
}

static bool range_ok(u64 va, u64 size)
{
	return IS_ALIGNED(va, PAGE_SIZE) && IS_ALIGNED(size, PAGE_SIZE) && size &&
	       va + size > va;
}

int arch_map_range(u64 va, phys_addr_t pa, u64 size, unsigned int prot)
{
	u64 flags = prot_bits(prot);

	if (!range_ok(va, size) || !IS_ALIGNED(pa, PAGE_SIZE))
		return -EINVAL;
	for (u64 off = 0; off < size; off += PAGE_SIZE) {
		u64 *t = kernel_pml4;
		u64 *pte;

		for (int l = 3; l > 0; l--) {
			t = next_level(t, idx(va + off, l));
			if (!t) {
				arch_unmap_range(va, off);
				return -ENOMEM;
			}
		}
		pte = &t[idx(va + off, 0)];
		if (*pte & PTE_P) {
			if (off)
				arch_unmap_range(va, off);
			return -EEXIST;
		}
		*pte = (pa + off) | flags;
	}
	return 0;
}

int arch_protect_range(u64 va, u64 size, unsigned int prot)
{
	u64 flags = prot_bits(prot);

	if (!range_ok(va, size))
		return -EINVAL;
	for (u64 off = 0; off < size; off += PAGE_SIZE) {
		u64 *pte = pte_lookup(va + off);

		if (!pte || !(*pte & PTE_P))
			return -EINVAL;
	}
	for (u64 off = 0; off < size; off += PAGE_SIZE) {
		u64 *pte = pte_lookup(va + off);

		*pte = (*pte & PTE_ADDR) | flags;
	}
	flush_range(va, size);
	return 0;
}

int arch_unmap_range(u64 va, u64 size)
{
	int err = 0;

	if (!size)
		return 0;
	if (!range_ok(va, size))
		return -EINVAL;
	for (u64 off = 0; off < size; off += PAGE_SIZE) {
		u64 *pte = pte_lookup(va + off);

		if (pte && (*pte & PTE_P))
			*pte = 0;
		else
			err = -EINVAL;
	}
	flush_range(va, size);
	return err;
}

phys_addr_t arch_virt_to_phys(u64 va)
{
	u64 *t = table_va(read_cr3());

	for (int level = 3; level >= 0; level--) {
		u64 e = t[idx(va, level)];

		if (!(e & PTE_P))
			return (phys_addr_t)-1;
		if (level == 0 || (e & PTE_PS)) {
			u64 mask = (1ULL << (12 + 9 * level)) - 1;

			return (e & PTE_ADDR & ~mask) | (va & mask);
		}
		t = table_va(e);
	}
	return (phys_addr_t)-1;
}
