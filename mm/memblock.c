// SPDX-License-Identifier: MIT
/*
 * memblock: ranges of memory and of reservations, kept sorted and merged so
 * every question ("is this free?", "where is a free 2 MiB?") is a walk over
 * a few dozen entries. See include/pagoda/memblock.h.
 */
#include <pagoda/arch.h>
#include <pagoda/memblock.h>
#include <pagoda/mm.h>
#include <pagoda/printk.h>
#include <pagoda/string.h>

struct memblock memblock = {
	.memory = { .name = "memory" },
	.reserved = { .name = "reserved" },
};

void memblock_reset(struct memblock *mb)
{
	mb->memory.cnt = 0;
	mb->reserved.cnt = 0;
	mb->overflow = false;
}

static void remove_at(struct memblock_type *t, unsigned long i)
{
	memmove(&t->regions[i], &t->regions[i + 1],
		(t->cnt - i - 1) * sizeof(t->regions[0]));
	t->cnt--;
}

/*
 * Add [base, base + size) to a list, keeping it sorted by base with no two
 * entries overlapping or touching: the new range swallows its neighbours.
 */
static int type_add(struct memblock_type *t, phys_addr_t base, phys_addr_t size)
{
	phys_addr_t end = base + size;
	unsigned long i;

	if (!size)
		return 0;
	if (end < base)
		return -EINVAL; /* wraps around */
	for (i = 0; i < t->cnt; i++) {
		struct memblock_region *r = &t->regions[i];

		if (r->base + r->size < base)
			continue;
		if (r->base > end)
			break;
		/* overlaps or touches: merge r into the new range */
		base = MIN(base, r->base);
		end = MAX(end, r->base + r->size);
		remove_at(t, i);
		i--;
	}
	if (t->cnt == MEMBLOCK_MAX_REGIONS) {
		memblock.overflow = true;
		pr_err("memblock: %s list full, dropping %llx-%llx\n", t->name,
		       (unsigned long long)base, (unsigned long long)end);
		return -ENOSPC;
	}
	memmove(&t->regions[i + 1], &t->regions[i],
		(t->cnt - i) * sizeof(t->regions[0]));
	t->regions[i] = (struct memblock_region){ base, end - base };
	t->cnt++;
	return 0;
}

/* Cut [base, base + size) out of a list, splitting an entry if needed. */
static int type_remove(struct memblock_type *t, phys_addr_t base, phys_addr_t size)
{
	phys_addr_t end = base + size;

	for (unsigned long i = 0; i < t->cnt; i++) {
		struct memblock_region *r = &t->regions[i];
		phys_addr_t rend = r->base + r->size;

		if (rend <= base || r->base >= end)
			continue;
		if (r->base < base && rend > end) {
			/* the hole is inside r: r becomes two */
			if (t->cnt == MEMBLOCK_MAX_REGIONS)
				return -ENOSPC;
			memmove(&t->regions[i + 1], &t->regions[i],
				(t->cnt - i) * sizeof(t->regions[0]));
			t->cnt++;
			t->regions[i].size = base - r->base;
			t->regions[i + 1].base = end;
			t->regions[i + 1].size = rend - end;
			return 0;
		}
		if (r->base < base) {
			r->size = base - r->base;
		} else if (rend > end) {
			r->size = rend - end;
			r->base = end;
		} else {
			remove_at(t, i);
			i--;
		}
	}
	return 0;
}

int memblock_add(phys_addr_t base, phys_addr_t size)
{
	return type_add(&memblock.memory, base, size);
}

int memblock_reserve(phys_addr_t base, phys_addr_t size)
{
	return type_add(&memblock.reserved, base, size);
}

int memblock_phys_free(phys_addr_t base, phys_addr_t size)
{
	return type_remove(&memblock.reserved, base, size);
}

static bool type_contains(const struct memblock_type *t, phys_addr_t addr)
{
	for (unsigned long i = 0; i < t->cnt; i++)
		if (addr >= t->regions[i].base &&
		    addr - t->regions[i].base < t->regions[i].size)
			return true;
	return false;
}

bool memblock_is_reserved(phys_addr_t addr)
{
	return type_contains(&memblock.reserved, addr);
}

bool memblock_is_memory(phys_addr_t addr)
{
	return type_contains(&memblock.memory, addr);
}

/*
 * Memory minus reserved, ascending: for each memory region, the gaps
 * between the reservations that overlap it.
 */
void memblock_for_each_free(void (*fn)(phys_addr_t start, phys_addr_t end,
				       void *arg), void *arg)
{
	const struct memblock_type *mem = &memblock.memory;
	const struct memblock_type *res = &memblock.reserved;

	for (unsigned long i = 0; i < mem->cnt; i++) {
		phys_addr_t cur = mem->regions[i].base;
		phys_addr_t end = cur + mem->regions[i].size;

		for (unsigned long j = 0; j < res->cnt && cur < end; j++) {
			phys_addr_t rb = res->regions[j].base;
			phys_addr_t re = rb + res->regions[j].size;

			if (re <= cur || rb >= end)
				continue;
			if (rb > cur)
				fn(cur, rb, arg);
			cur = re;
		}
		if (cur < end)
			fn(cur, end, arg);
	}
}

struct fit {
	phys_addr_t size, align, start, end;
	phys_addr_t found;
};

/* Keep the highest aligned place in [start, end) that fits. */
static void try_fit(phys_addr_t s, phys_addr_t e, void *arg)
{
	struct fit *f = arg;
	phys_addr_t lo = MAX(s, f->start), hi = MIN(e, f->end), cand;

	if (hi <= lo || hi - lo < f->size)
		return;
	cand = ALIGN_DOWN(hi - f->size, f->align);
	if (cand >= lo && cand > f->found)
		f->found = cand;
}

phys_addr_t memblock_phys_alloc_range(phys_addr_t size, phys_addr_t align,
				      phys_addr_t start, phys_addr_t end)
{
	struct fit f = { size, align ? align : 1, MAX(start, (phys_addr_t)PAGE_SIZE),
			 end, 0 };

	/* Physical page 0 is never handed out: 0 means failure here. */
	if (!size)
		return 0;
	memblock_for_each_free(try_fit, &f);
	if (f.found && memblock_reserve(f.found, size))
		return 0;
	return f.found;
}

void *memblock_alloc_raw(phys_addr_t size, phys_addr_t align)
{
	phys_addr_t pa = memblock_phys_alloc_range(size, align, 0,
						   arch_direct_map_end());

	return pa ? __va(pa) : NULL;
}

void *memblock_alloc(phys_addr_t size, phys_addr_t align)
{
	void *va = memblock_alloc_raw(size, align);

	if (va)
		memset(va, 0, size);
	return va;
}

static phys_addr_t type_total(const struct memblock_type *t)
{
	phys_addr_t sum = 0;

	for (unsigned long i = 0; i < t->cnt; i++)
		sum += t->regions[i].size;
	return sum;
}

phys_addr_t memblock_phys_mem_size(void) { return type_total(&memblock.memory); }
phys_addr_t memblock_reserved_size(void) { return type_total(&memblock.reserved); }

phys_addr_t memblock_start_of_DRAM(void)
{
	return memblock.memory.cnt ? memblock.memory.regions[0].base : 0;
}

phys_addr_t memblock_end_of_DRAM(void)
{
	const struct memblock_type *m = &memblock.memory;

	return m->cnt ? m->regions[m->cnt - 1].base + m->regions[m->cnt - 1].size : 0;
}

static void dump_type(const struct memblock_type *t)
{
	pr_info("memblock: %s: %lu regions, %llu KiB\n", t->name, t->cnt,
		(unsigned long long)(type_total(t) >> 10));
	for (unsigned long i = 0; i < t->cnt; i++)
		pr_debug("  [%#014llx-%#014llx)\n",
			 (unsigned long long)t->regions[i].base,
			 (unsigned long long)(t->regions[i].base + t->regions[i].size));
}

void memblock_dump(void)
{
	dump_type(&memblock.memory);
	dump_type(&memblock.reserved);
}
