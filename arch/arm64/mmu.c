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
 * These are init_mm's: its root is TTBR1's table. A user address space
 * (arch_mm_init()) has only a lower half, loaded into TTBR0; its upper half
 * is TTBR1's, the kernel's, shared by construction.
 *
 * Boot-time table pages come from a pool in the image; after boot, the
 * arch.h contract (arch_map_range() and friends) takes them from
 * pgtable_alloc_page() (mm/pgtable_alloc.c). Every operation goes through
 * one walker, pt_walk(), which mm/pgtable.c shares with x86-64 along with
 * the range operations; this file gives it the roots and the table pages.
 */
#include <pagoda/boot_info.h>
#include <pagoda/errname.h>
#include <pagoda/pgtable.h>
#include <pagoda/printk.h>
#include <pagoda/smp.h>
#include <pagoda/string.h>
#include <asm/arm64.h>

u64 kimage_voffset;
u64 image_phys_start;
static u64 image_phys_end;
static u64 direct_map_end;
static u64 devmap_next = DEVMAP_START;

struct mm_struct init_mm;

#define BOOT_POOL_PAGES 32
static u64 boot_pool[BOOT_POOL_PAGES][512] __aligned(4096);
static unsigned int boot_pool_used;
static bool boot_tables = true; /* until arm64_start hands over */
/* init_mm's lower half (TTBR0): no entries, so a NULL dereference faults. */
static u64 empty_root[512] __aligned(4096);

extern char _head[], __text_end[], __rodata_start[], __rodata_end[];
extern char __data_start[], __kernel_end[];

/* Attribute bits for each kind of kernel mapping. */
#define ATTR_TEXT (PTE_KERNEL | PTE_ATTR(MT_NORMAL) | PTE_RDONLY)
#define ATTR_RODATA (PTE_KERNEL | PTE_ATTR(MT_NORMAL) | PTE_RDONLY | PTE_PXN)
#define ATTR_DATA (PTE_KERNEL | PTE_ATTR(MT_NORMAL) | PTE_PXN)
#define ATTR_DIRECT (PTE_KERNEL | PTE_ATTR(MT_NORMAL) | PTE_PXN)
#define ATTR_MASK (PTE_ATTR(7) | PTE_USER | PTE_RDONLY | PTE_PXN | PTE_UXN | PTE_AF | \
		   PTE_SH_INNER | PTE_NG)

void paging_boot_done(void)
{
	boot_tables = false;
}

phys_addr_t pt_alloc_table(void)
{
	if (boot_tables) {
		if (boot_pool_used == BOOT_POOL_PAGES)
			return 0;
		return __pa_kernel(boot_pool[boot_pool_used++]);
	}
	return pgtable_alloc_page();
}

/* A boot-pool page is the image's: it never goes back. */
void pt_free_table(phys_addr_t pa)
{
	if (!boot_tables)
		pgtable_free_page(pa);
}

/* A table page's virtual address: in the image (boot pool) or the direct map. */
u64 *pt_table_va(phys_addr_t pa)
{
	if (pa >= image_phys_start && pa < image_phys_end)
		return (u64 *)(pa + kimage_voffset);
	return __va(pa);
}

/*
 * The root that translates va in mm: the upper half is always the
 * kernel's (TTBR1), the lower half mm's own (TTBR0; init_mm has none).
 * NULL for an address in neither half.
 */
u64 *pt_root(struct mm_struct *mm, u64 va)
{
	u64 top = va >> VA_BITS;

	if (top == (~0ULL >> VA_BITS))
		return init_mm.pgd;
	if (top == 0)
		return mm == &init_mm ? empty_root : mm->pgd;
	return NULL;
}

/*
 * While only the boot CPU runs (boot_tables), TLB maintenance stays local:
 * no other CPU has walked these tables, and a broadcast is costly (under
 * TCG it stops every virtual CPU). Afterwards it goes to the whole inner
 * shareable domain. Only the boot-time mappings below use these; the
 * arch.h contract flushes through flush_tlb_kernel_range().
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

/* Does the leaf e at level map va to pa with attrs already? */
static bool same_leaf(u64 e, int level, u64 va, u64 pa, u64 attrs)
{
	u64 span = pt_level_size(level);
	u64 base = e & PTE_ADDR_MASK & ~(span - 1);

	return (e & ATTR_MASK) == (attrs & ATTR_MASK) && base + (va & (span - 1)) == pa;
}

/*
 * Boot-time mappings in init_mm: [va, va + size) to pa, all page aligned
 * (callers round up what they are given). With `blocks`,
 * aligned 1 GiB and 2 MiB pieces become block entries. With `same_ok`, an
 * existing leaf that already says exactly this is accepted (the direct map
 * is built over the DTB's early pages); otherwise a present leaf is -EEXIST.
 */
static int map_boot(u64 va, u64 pa, u64 size, u64 attrs, bool blocks, bool same_ok)
{
	while (size) {
		int level = PT_LEAF, got;
		u64 chunk, *e;

		if (blocks)
			for (int l = 1; l < PT_LEAF; l++)
				if (IS_ALIGNED(va | pa, pt_level_size(l)) && size >= pt_level_size(l)) {
					level = l;
					break;
				}
		for (;;) {
			e = pt_walk(&init_mm, va, level, true, &got);
			if (!e)
				return -ENOMEM;
			/* Already split into a table: map it in smaller pieces. */
			if (got == level && pte_table(*e, level)) {
				level++;
				continue;
			}
			break;
		}
		if (*e & PTE_VALID) {
			u64 span = pt_level_size(got);

			if (!same_ok || !same_leaf(*e, got, va, pa, attrs))
				return -EEXIST;
			chunk = MIN(size, ALIGN_DOWN(va + span, span) - va);
		} else {
			*e = pa | attrs | (level == PT_LEAF ? PTE_TABLE : 0);
			chunk = pt_level_size(level);
		}
		va += chunk;
		pa += chunk;
		size -= chunk;
	}
	return 0;
}

static void map_image(char *start, char *end, u64 attrs)
{
	/* A section's last page is whole, though its end may not be. */
	u64 va = (u64)start, size = ALIGN_UP((u64)end, PAGE_SIZE) - va;

	if (map_boot(va, __pa_kernel(va), size, attrs, false, false))
		panic("mmu: out of boot page tables mapping the kernel");
}

/*
 * Called with head.S's tables live and nothing else set up: build the real
 * upper half for the image and switch to it.
 */
void paging_init(u64 image_pa)
{
	kimage_voffset = KERNEL_VIRT - image_pa;
	image_phys_start = image_pa;
	image_phys_end = image_pa + (u64)(__kernel_end - _head);
	init_mm.pgd = pt_table_va(pt_alloc_table());
	map_image(_head, __text_end, ATTR_TEXT);
	map_image(__rodata_start, __rodata_end, ATTR_RODATA);
	map_image(__data_start, __kernel_end, ATTR_DATA);

	/* Both the old and the new tables map this code identically. */
	write_sysreg(ttbr0_el1, __pa_kernel(empty_root));
	write_sysreg(ttbr1_el1, __pa_kernel(init_mm.pgd));
	isb();
	flush_tlb_all();
}

int mmu_map_dtb(phys_addr_t pa, u64 size)
{
	u64 start = ALIGN_DOWN(pa, PAGE_SIZE), end = ALIGN_UP(pa + size, PAGE_SIZE);
	int err = map_boot(PAGE_OFFSET + start, start, end - start, ATTR_DIRECT, false, true);

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
		err = map_boot(PAGE_OFFSET + start, start, end - start, ATTR_DIRECT, true, true);
		if (err) {
			pr_warn("mmu: direct map of %llx-%llx failed (%s)\n",
				(unsigned long long)start, (unsigned long long)end, errname(err));
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
	if (map_boot(va, start, len, PROT_DEVICE_RW, false, false))
		return NULL;
	devmap_next += len + PAGE_SIZE; /* an unmapped guard page between mappings */
	flush_tlb_range(va, len);
	return (void *)(va + (pa - start));
}

/* ---- the arch.h contract --------------------------------------------------- */

int arch_lookup(struct mm_struct *mm, u64 va, phys_addr_t *pa, unsigned int *prot)
{
	int level;
	u64 *e = pt_walk(mm, va, PT_LEAF, false, &level);
	u64 v, span;
	unsigned int p;

	if (!e)
		return -ENOENT;
	v = READ_ONCE(*e);
	/* Invalid, or a reserved encoding (a level-0 block, a level-3 "block"). */
	if (!(v & PTE_VALID) || level == 0 || (level == PT_LEAF && !(v & PTE_TABLE)))
		return -ENOENT;
	span = pt_level_size(level);
	if (pa)
		*pa = (v & PTE_ADDR_MASK & ~(span - 1)) | (va & (span - 1));
	if (prot) {
		p = PROT_PRESENT;
		if (!(v & PTE_RDONLY))
			p |= PROT_WRITE;
		if (v & PTE_USER)
			p |= PROT_USER | (v & PTE_UXN ? 0 : PROT_EXEC);
		else if (!(v & PTE_PXN))
			p |= PROT_EXEC;
		if (((v >> 2) & 7) == MT_DEVICE)
			p |= PROT_DEVICE;
		if (((v >> 2) & 7) == MT_NORMAL_NC)
			p |= PROT_NOCACHE;
		*prot = p;
	}
	return 0;
}

/*
 * User pages are never executable at EL1 (PXN) and are tagged with an
 * ASID (nG); kernel pages are never executable at EL0 (UXN). Device
 * memory never executes.
 */
u64 pte_prot_bits(unsigned int prot)
{
	u64 a = PTE_VALID | PTE_AF | PTE_SH_INNER | PTE_TABLE;
	bool exec = (prot & PROT_EXEC) && !(prot & PROT_DEVICE);

	/* PROT_NONE: EL1 read-only, so no EL0 access (nor LDTR/STTR) reaches it. */
	if (prot & PROT_NONE_USER)
		return a | PTE_ATTR(MT_NORMAL) | PTE_RDONLY | PTE_NG | PTE_PXN | PTE_UXN;

	if (prot & PROT_DEVICE)
		a |= PTE_ATTR(MT_DEVICE);
	else
		a |= PTE_ATTR(prot & PROT_NOCACHE ? MT_NORMAL_NC : MT_NORMAL);
	if (!(prot & PROT_WRITE))
		a |= PTE_RDONLY;
	if (prot & PROT_USER)
		a |= PTE_USER | PTE_NG | PTE_PXN | (exec ? 0 : PTE_UXN);
	else
		a |= PTE_UXN | (exec ? 0 : PTE_PXN);
	return a;
}

/* ---- user address spaces ---------------------------------------------------- */

/* A user root is only a lower half: the upper half is TTBR1's, the kernel's. */
void pt_share_kernel_half(struct mm_struct *mm)
{
}

#define CNTKCTL_EL0VCTEN (1 << 1)

static struct mm_struct *loaded_mm[NR_CPUS];

/*
 * TTBR0 gets mm's lower half (init_mm: the empty one). Without ASIDs yet,
 * the previous half's entries are dropped from this CPU's TLB here, which
 * is what lets unmap and protect flush only the CPUs in mm->cpu_mask.
 */
void arch_switch_mm(struct mm_struct *mm)
{
	unsigned int cpu = smp_processor_id();
	struct mm_struct *prev = loaded_mm[cpu] ? loaded_mm[cpu] : &init_mm;
	u64 root = mm == &init_mm ? __pa_kernel(empty_root) : __pa(mm->pgd);

	if (prev == mm)
		return;
	if (mm != &init_mm) {
		__atomic_fetch_or(&mm->cpu_mask, 1UL << cpu, __ATOMIC_SEQ_CST);
		/* EL0 may read the virtual counter: the vDSO's clocks need it. */
		write_sysreg(cntkctl_el1, read_sysreg(cntkctl_el1) | CNTKCTL_EL0VCTEN);
	}
	write_sysreg(ttbr0_el1, root);
	isb();
	dsb(nshst);
	__asm__ volatile("tlbi vmalle1" ::: "memory");
	dsb(nsh);
	isb();
	if (prev != &init_mm)
		__atomic_fetch_and(&prev->cpu_mask, ~(1UL << cpu), __ATOMIC_SEQ_CST);
	loaded_mm[cpu] = mm;
}
