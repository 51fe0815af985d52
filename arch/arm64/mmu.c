// SPDX-License-Identifier: MIT
/*
 * The kernel's page tables (TTBR1_EL1, the upper half), built once at boot
 * to replace head.S's temporary ones:
 *   - the image at KERNEL_VIRT with 4 KiB pages: text read-only and
 *     executable, rodata read-only, data and bss writable; only text may
 *     execute (PXN everywhere else, UXN everywhere);
 *   - a direct map of all RAM the device tree names at PAGE_OFFSET + pa,
 *     with 1 GiB and 2 MiB blocks where alignment allows, writable, never
 *     executable;
 *   - device mappings (Device-nGnRnE) for the UART, the GIC and the like,
 *     handed out from the DEVMAP window by early_ioremap();
 * and an empty TTBR0 (the lower half), so a NULL dereference faults.
 *
 * Four levels of 512 entries, each indexing 9 bits of the address:
 * level 0 covers 512 GiB per entry, level 1 1 GiB, level 2 2 MiB and
 * level 3 4 KiB. Levels 1 and 2 may hold a block instead of a table.
 *
 * Boot-time table pages come from a pool in the image; after boot,
 * arch_map_range() and friends take theirs from pgtable_alloc_page()
 * (mm/pgtable_alloc.c).
 */
#include <pagoda/arch.h>
#include <pagoda/boot_info.h>
#include <pagoda/printk.h>
#include <pagoda/string.h>
#include <asm/arm64.h>
#include "pgtable.h"

u64 kimage_voffset;
u64 image_phys_start;
static u64 image_phys_end;
static u64 *kernel_root;
static u64 direct_map_end;
static u64 devmap_next = DEVMAP_START;

#define BOOT_POOL_PAGES 32
static u64 boot_pool[BOOT_POOL_PAGES][512] __aligned(4096);
static unsigned int boot_pool_used;
static bool boot_tables = true; /* until arm64_start hands over */
/* TTBR0 after boot: no entries, so the lower half faults. */
static u64 empty_root[512] __aligned(4096);

extern char _head[], __text_end[], __rodata_start[], __rodata_end[];
extern char __data_start[], __kernel_end[];

/* Attribute bits for each kind of kernel mapping. */
#define ATTR_TEXT (PTE_KERNEL | PTE_ATTR(MT_NORMAL) | PTE_RDONLY)
#define ATTR_RODATA (PTE_KERNEL | PTE_ATTR(MT_NORMAL) | PTE_RDONLY | PTE_PXN)
#define ATTR_DATA (PTE_KERNEL | PTE_ATTR(MT_NORMAL) | PTE_PXN)
#define ATTR_MASK (PTE_ATTR(7) | PTE_RDONLY | PTE_PXN | PTE_UXN | PTE_AF | PTE_SH_INNER)

void arm64_mmu_boot_done(void)
{
	boot_tables = false;
}

static phys_addr_t alloc_table(void)
{
	if (boot_tables) {
		if (boot_pool_used == BOOT_POOL_PAGES)
			return 0;
		return __pa_kernel(boot_pool[boot_pool_used++]);
	}
	return pgtable_alloc_page();
}

/* A table page's virtual address: in the image (boot pool) or the direct map. */
static u64 *table_va(phys_addr_t pa)
{
	if (pa >= image_phys_start && pa < image_phys_end)
		return (u64 *)(pa + kimage_voffset);
	return __va(pa);
}

static unsigned int pt_index(u64 va, int level)
{
	return (va >> (39 - 9 * level)) & 511;
}

static u64 level_size(int level)
{
	return 1ULL << (39 - 9 * level);
}

static bool is_table(u64 e, int level)
{
	return level < 3 && (e & (PTE_VALID | PTE_TABLE)) == (PTE_VALID | PTE_TABLE);
}

/*
 * Map [va, va + size) to pa in the subtree `table` at `level`. With
 * `blocks`, aligned 1 GiB and 2 MiB pieces become block entries. With
 * `same_ok`, an existing leaf that already says exactly this is accepted
 * (the direct map is built over the DTB's early pages); otherwise a present
 * leaf is -EEXIST.
 */
static int map_level(u64 *table, int level, u64 va, u64 pa, u64 size, u64 attrs,
		     bool blocks, bool same_ok)
{
	u64 step = level_size(level);

	while (size) {
		u64 chunk = MIN(size, ALIGN_DOWN(va + step, step) - va);
		u64 *e = &table[pt_index(va, level)];
		int err;

		if (level == 3) {
			u64 want = pa | attrs | PTE_TABLE;

			if ((*e & PTE_VALID) && !(same_ok && *e == want))
				return -EEXIST;
			*e = want;
		} else if (!(*e & PTE_VALID) && blocks && level >= 1 && chunk == step &&
			   IS_ALIGNED(pa, step)) {
			*e = pa | attrs;
		} else if (*e & PTE_VALID && !is_table(*e, level)) {
			/* An existing block: fine only if it already maps this. */
			u64 base = *e & PTE_ADDR_MASK & ~(step - 1);

			if (!same_ok || (*e & ATTR_MASK) != (attrs & ATTR_MASK) ||
			    base + (va & (step - 1)) != pa)
				return -EEXIST;
		} else {
			if (!(*e & PTE_VALID)) {
				phys_addr_t t = alloc_table();

				if (!t)
					return -ENOMEM;
				*e = t | PTE_VALID | PTE_TABLE;
			}
			err = map_level(table_va(*e & PTE_ADDR_MASK), level + 1, va, pa, chunk,
					attrs, blocks, same_ok);
			if (err)
				return err;
		}
		va += chunk;
		pa += chunk;
		size -= chunk;
	}
	return 0;
}

/*
 * The leaf entry for va in the live tables, and its level; NULL when
 * unmapped (or outside both halves).
 */
static u64 *lookup(u64 va, int *level_out)
{
	u64 top = va >> VA_BITS;
	u64 root;

	if (top == 0)
		root = read_sysreg(ttbr0_el1);
	else if (top == (~0ULL >> VA_BITS))
		root = read_sysreg(ttbr1_el1);
	else
		return NULL;
	u64 *t = table_va(root & PTE_ADDR_MASK);

	for (int level = 0; level <= 3; level++) {
		u64 *e = &t[pt_index(va, level)];

		if (!(*e & PTE_VALID))
			return NULL;
		if (!is_table(*e, level)) {
			if (level == 0 || (level == 3 && !(*e & PTE_TABLE)))
				return NULL; /* reserved encodings */
			*level_out = level;
			return e;
		}
		t = table_va(*e & PTE_ADDR_MASK);
	}
	return NULL;
}

/*
 * While only the boot CPU runs (boot_tables), TLB maintenance stays local:
 * no other CPU has walked these tables, and a broadcast is costly (under
 * TCG it stops every virtual CPU). Afterwards it goes to the whole inner
 * shareable domain, as other CPUs will share the kernel's tables.
 */
static void flush_tlb_all(void)
{
	if (boot_tables) {
		dsb(nshst);
		__asm__ volatile("tlbi vmalle1" ::: "memory");
		dsb(nsh);
	} else {
		dsb(ishst);
		__asm__ volatile("tlbi vmalle1is" ::: "memory");
		dsb(ish);
	}
	isb();
}

static void flush_tlb_range(u64 va, u64 size)
{
	if (boot_tables || size > 64 * PAGE_SIZE) {
		flush_tlb_all();
		return;
	}
	dsb(ishst);
	for (u64 a = va; a < va + size; a += PAGE_SIZE)
		__asm__ volatile("tlbi vaae1is, %0" ::"r"((a >> 12) & ((1ULL << 44) - 1))
				 : "memory");
	dsb(ish);
	isb();
}

static void map_image(char *start, char *end, u64 attrs)
{
	u64 va = (u64)start, size = (u64)end - va;

	if (map_level(kernel_root, 0, va, __pa_kernel(va), size, attrs, false, false))
		panic("mmu: out of boot page tables mapping the kernel");
}

/*
 * Called with head.S's tables live and nothing else set up: build the real
 * upper half for the image and switch to it.
 */
void paging_early(u64 image_pa)
{
	kimage_voffset = KERNEL_VIRT - image_pa;
	image_phys_start = image_pa;
	image_phys_end = image_pa + (u64)(__kernel_end - _head);
	kernel_root = table_va(alloc_table());
	map_image(_head, __text_end, ATTR_TEXT);
	map_image(__rodata_start, __rodata_end, ATTR_RODATA);
	map_image(__data_start, __kernel_end, ATTR_DATA);

	/* Both the old and the new tables map this code identically. */
	write_sysreg(ttbr0_el1, __pa_kernel(empty_root));
	write_sysreg(ttbr1_el1, __pa_kernel(kernel_root));
	isb();
	flush_tlb_all();
}

#define ATTR_DIRECT (PTE_KERNEL | PTE_ATTR(MT_NORMAL) | PTE_PXN)

int mmu_map_dtb(phys_addr_t pa, u64 size)
{
	u64 start = ALIGN_DOWN(pa, PAGE_SIZE), end = ALIGN_UP(pa + size, PAGE_SIZE);
	int err = map_level(kernel_root, 0, PAGE_OFFSET + start, start, end - start,
			    ATTR_DIRECT, false, true);

	flush_tlb_all();
	return err;
}

/* Every region of the boot memory map is RAM on arm64: map them all. */
void paging_map_direct(void)
{
	for (u32 i = 0; i < boot_info.nr_mem; i++) {
		const struct boot_mem_region *r = &boot_info.mem[i];
		u64 start = ALIGN_DOWN(r->base, PAGE_SIZE);
		u64 end = ALIGN_UP(r->base + r->size, PAGE_SIZE);
		int err;

		if (end <= start)
			continue;
		if (end > (1ULL << (VA_BITS - 1))) {
			pr_warn("mmu: RAM at %llx-%llx is beyond the direct map; not mapped\n",
				(unsigned long long)start, (unsigned long long)end);
			continue;
		}
		err = map_level(kernel_root, 0, PAGE_OFFSET + start, start, end - start,
				ATTR_DIRECT, true, true);
		if (err) {
			pr_warn("mmu: direct map of %llx-%llx failed (%d)\n",
				(unsigned long long)start, (unsigned long long)end, err);
			continue;
		}
		direct_map_end = MAX(direct_map_end, end);
	}
	flush_tlb_all();
}

u64 arch_direct_map_end(void)
{
	return direct_map_end;
}

void *early_ioremap(phys_addr_t pa, u64 size)
{
	u64 start = ALIGN_DOWN(pa, PAGE_SIZE), len = ALIGN_UP(pa + size, PAGE_SIZE) - start;
	u64 va = devmap_next;

	if (!size || va + len > DEVMAP_END)
		return NULL;
	if (map_level(kernel_root, 0, va, start, len, PROT_DEVICE_RW, false, false))
		return NULL;
	devmap_next += len + PAGE_SIZE; /* an unmapped guard page between mappings */
	flush_tlb_range(va, len);
	return (void *)(va + (pa - start));
}

/* ---- the arch.h interface ----------------------------------------------- */

unsigned int arch_page_prot(u64 va)
{
	int level;
	u64 *e = lookup(va, &level);
	unsigned int prot;

	if (!e)
		return 0;
	prot = PROT_PRESENT;
	if (!(*e & PTE_RDONLY))
		prot |= PROT_WRITE;
	if (!(*e & PTE_PXN))
		prot |= PROT_EXEC;
	if (((*e >> 2) & 7) == MT_DEVICE)
		prot |= PROT_DEVICE;
	if (((*e >> 2) & 7) == MT_NORMAL_NC)
		prot |= PROT_NOCACHE;
	return prot;
}

phys_addr_t arch_virt_to_phys(u64 va)
{
	int level;
	u64 *e = lookup(va, &level);
	u64 span;

	if (!e)
		return (phys_addr_t)-1;
	span = level_size(level);
	return (*e & PTE_ADDR_MASK & ~(span - 1)) | (va & (span - 1));
}

static u64 prot_attrs(unsigned int prot)
{
	u64 a = PTE_KERNEL;

	if (prot & PROT_DEVICE)
		a |= PTE_ATTR(MT_DEVICE);
	else
		a |= PTE_ATTR(prot & PROT_NOCACHE ? MT_NORMAL_NC : MT_NORMAL);
	if (!(prot & PROT_WRITE))
		a |= PTE_RDONLY;
	if (!(prot & PROT_EXEC) || (prot & PROT_DEVICE))
		a |= PTE_PXN;
	return a;
}

/* Ranges the interface may touch: the upper half below the image. */
static bool range_ok(u64 va, u64 size)
{
	return IS_ALIGNED(va, PAGE_SIZE) && IS_ALIGNED(size, PAGE_SIZE) && size &&
	       va >= VMALLOC_START && va + size > va && va + size <= KERNEL_VIRT;
}

/* True when every page of the range is mapped by a level-3 entry. */
static bool fully_mapped(u64 va, u64 size)
{
	int level;

	for (u64 a = va; a < va + size; a += PAGE_SIZE) {
		u64 *e = lookup(a, &level);

		if (!e || level != 3)
			return false;
	}
	return true;
}

int arch_unmap_range(u64 va, u64 size)
{
	int level;

	if (!range_ok(va, size) || !fully_mapped(va, size))
		return -EINVAL;
	for (u64 a = va; a < va + size; a += PAGE_SIZE)
		*lookup(a, &level) = 0;
	flush_tlb_range(va, size);
	return 0;
}

int arch_map_range(u64 va, phys_addr_t pa, u64 size, unsigned int prot)
{
	int level, err;

	if (!range_ok(va, size) || !IS_ALIGNED(pa, PAGE_SIZE) || !(prot & PROT_PRESENT))
		return -EINVAL;
	for (u64 a = va; a < va + size; a += PAGE_SIZE)
		if (lookup(a, &level))
			return -EEXIST;
	err = map_level(kernel_root, 0, va, pa, size, prot_attrs(prot), false, false);
	if (err) {
		/* Undo the part that was mapped before the tables ran out. */
		for (u64 a = va; a < va + size; a += PAGE_SIZE) {
			u64 *e = lookup(a, &level);

			if (e)
				*e = 0;
		}
	}
	flush_tlb_range(va, size);
	return err;
}

int arch_protect_range(u64 va, u64 size, unsigned int prot)
{
	int level;
	u64 attrs = prot_attrs(prot);

	if (!range_ok(va, size) || !(prot & PROT_PRESENT) || !fully_mapped(va, size))
		return -EINVAL;
	/*
	 * Break before make: a live entry is never rewritten in place, so no
	 * TLB can ever hold two different answers for one address.
	 */
	for (u64 a = va; a < va + size; a += PAGE_SIZE) {
		u64 *e = lookup(a, &level);
		u64 pa = *e & PTE_ADDR_MASK;

		*e = 0;
		flush_tlb_range(a, PAGE_SIZE);
		*e = pa | attrs | PTE_TABLE;
	}
	flush_tlb_range(va, size);
	return 0;
}
