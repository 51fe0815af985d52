// SPDX-License-Identifier: MIT
/*
 * Memory management on the machine's own memory (node 0): real frames
 * that are written and read, the direct map, vmalloc's page tables and
 * guard pages, and the slab allocator with its debug checks. Kernel only.
 */
#include <pagoda/arch.h>
#include <pagoda/boot_info.h>
#include <pagoda/ktest.h>
#include <pagoda/mm.h>
#include <pagoda/sched.h>
#include <pagoda/slab.h>
#include <pagoda/smp.h>
#include <pagoda/string.h>
#include <pagoda/vmalloc.h>
#include "internal.h"

static void expect_node0_consistent(struct ktest *t)
{
	char why[160];
	int err = page_alloc_verify(NODE_DATA(0), why, sizeof(why));

	if (err)
		ktest_log(t, "verify: %s", why);
	KEXPECT_EQ(t, err, 0);
}

static void test_node0_manages_usable_ram(struct ktest *t)
{
	struct pglist_data *pgdat = NODE_DATA(0);

	KASSERT_TRUE(t, pgdat != NULL);
	KEXPECT_FALSE(t, pgdat->simulated);
	/* All RAM but the reservations and mem= is managed. */
	KEXPECT_GT(t, totalram_pages() + mm_offline_pages(), 0);
	KEXPECT_LE(t, nr_free_pages(), totalram_pages());
	/* The kernel's own frames are never handed out (RAM need not start at 0). */
	KEXPECT_TRUE(t, PageReserved(pfn_to_page(boot_info.kernel_start >> PAGE_SHIFT)));
	expect_node0_consistent(t);
}

static void test_real_pages_distinct_and_zeroed(struct ktest *t)
{
	struct page *pages[64];
	bool zero = true, distinct = true;

	for (int i = 0; i < 64; i++) {
		u64 *p;

		pages[i] = alloc_pages(GFP_KERNEL | __GFP_ZERO, i % 4);
		KASSERT_TRUE(t, pages[i] != NULL);
		p = page_address(pages[i]);
		for (size_t k = 0; k < (PAGE_SIZE << (i % 4)) / 8; k++)
			zero = zero && p[k] == 0;
		memset(p, i + 1, PAGE_SIZE << (i % 4));
	}
	for (int i = 0; i < 64; i++) {
		const u8 *p = page_address(pages[i]);

		for (size_t k = 0; k < (PAGE_SIZE << (i % 4)); k += 512)
			distinct = distinct && p[k] == (u8)(i + 1);
	}
	for (int i = 0; i < 64; i++)
		__free_pages(pages[i], i % 4);
	KEXPECT_TRUE(t, zero);
	KEXPECT_TRUE(t, distinct);
	expect_node0_consistent(t);
}

static void test_zone_requests_on_real_memory(struct ktest *t)
{
	struct page *dma = alloc_pages(GFP_DMA, 0);
	struct page *dma32 = alloc_pages(GFP_DMA32, 2);

	if (NODE_DATA(0)->node_zones[ZONE_DMA].managed_pages) {
		KASSERT_TRUE(t, dma != NULL);
		KEXPECT_EQ(t, page_zone(dma)->idx, ZONE_DMA);
		__free_page(dma);
	}
	KASSERT_TRUE(t, dma32 != NULL);
	KEXPECT_LT(t, page_to_phys(dma32), 4 * SZ_1G);
	__free_pages(dma32, 2);
}

static void test_pcp_off_and_on(struct ktest *t)
{
	bool saved = page_alloc_pcp;
	struct page *p;

	page_alloc_pcp = false;
	p = alloc_page(GFP_KERNEL);
	KASSERT_TRUE(t, p != NULL);
	__free_page(p);
	page_alloc_pcp = saved;
	drain_all_pages(NODE_DATA(0));
	expect_node0_consistent(t);
}

static void test_free_pages_by_address(struct ktest *t)
{
	unsigned long a = __get_free_pages(GFP_KERNEL, 3);
	unsigned long z = get_zeroed_page(GFP_KERNEL);

	KASSERT_TRUE(t, a != 0 && z != 0);
	KEXPECT_EQ(t, *(u64 *)z, 0);
	KEXPECT_EQ(t, virt_to_page((void *)a)->order, 3);
	free_pages(a, 3);
	free_page(z);
	expect_node0_consistent(t);
}

/* A page freed on another CPU sits on that CPU's list until it drains. */
static int free_page_here(void *arg)
{
	struct page *p = alloc_page(GFP_KERNEL);

	(void)arg;
	if (!p)
		return -ENOMEM;
	__free_page(p);
	return (int)smp_processor_id();
}

static unsigned long pcp_pages_of(unsigned int cpu)
{
	unsigned long n = 0;
	struct zone *z;

	for_each_zone_in_node(z, NODE_DATA(0))
		n += pcp_free_pages(&z->pcp[cpu]);
	return n;
}

static void test_drain_reaches_other_cpus(struct ktest *t)
{
	u64 saved_mask = current->cpus_allowed;
	unsigned int me, other;
	struct task *th;

	if (num_online_cpus() < 2 || !page_alloc_pcp) {
		ktest_skip(t, "needs a second CPU and per-CPU lists");
		return;
	}
	/* Stay on one CPU: a wake-up could otherwise move us onto the other. */
	me = smp_processor_id();
	KASSERT_EQ(t, set_cpus_allowed(current, 1ULL << me), 0);
	me = smp_processor_id();
	other = me == 0 ? 1 : 0;
	th = kthread_create(free_page_here, NULL, "pcpfree");
	KASSERT_TRUE(t, th != NULL);
	KASSERT_EQ(t, set_cpus_allowed(th, 1ULL << other), 0);
	wake_up_process(th);
	KEXPECT_EQ(t, kthread_join(th), (int)other);
	KEXPECT_GT(t, pcp_pages_of(other), 0);
	drain_all_pages(NODE_DATA(0));
	KEXPECT_EQ(t, pcp_pages_of(other), 0);
	KEXPECT_EQ(t, smp_processor_id(), me);
	set_cpus_allowed(current, saved_mask);
	expect_node0_consistent(t);
}

static struct ktest_case mm_node0_cases[] = {
	KTEST_CASE(test_node0_manages_usable_ram),
	KTEST_CASE(test_real_pages_distinct_and_zeroed),
	KTEST_CASE(test_zone_requests_on_real_memory),
	KTEST_CASE(test_pcp_off_and_on),
	KTEST_CASE(test_free_pages_by_address),
	KTEST_CASE(test_drain_reaches_other_cpus),
	{}
};
KTEST_SUITE_FULL(mm_node0, .cases = mm_node0_cases, .kernel_only = true);

/* --- vmalloc and the page-table API -------------------------------------------- */

static void test_vmalloc_large_buffer(struct ktest *t)
{
	size_t size = 10 * SZ_1M + 123;
	unsigned long before = nr_free_pages();
	u8 *buf = vmalloc(size);
	u64 v;
	bool ok = true;

	KASSERT_TRUE(t, buf != NULL);
	KEXPECT_TRUE(t, is_vmalloc_addr(buf));
	for (size_t i = 0; i < size; i += 4096)
		buf[i] = (u8)(i >> 12);
	for (size_t i = 0; i < size; i += 4096)
		ok = ok && buf[i] == (u8)(i >> 12);
	KEXPECT_TRUE(t, ok);
	KEXPECT_EQ(t, arch_virt_to_phys(&init_mm, (u64)buf + 4096),
		   page_to_phys(vmalloc_to_page(buf + 4096)));
	/* The guard page after the area is not mapped. */
	KEXPECT_EQ(t, arch_probe_write_u64(buf + ALIGN_UP(size, PAGE_SIZE), 1), -EFAULT);
	KEXPECT_EQ(t, arch_probe_read_u64(buf + ALIGN_UP(size, PAGE_SIZE) - 8, &v), 0);
	vfree(buf);
	drain_all_pages(NODE_DATA(0));
	/* Page-table pages stay; everything else is back. */
	KEXPECT_LE(t, before - nr_free_pages(), 8);
	KEXPECT_EQ(t, arch_page_prot(&init_mm, (u64)buf), 0);
}

static void test_vmalloc_protect(struct ktest *t)
{
	u64 *p = vzalloc(3 * PAGE_SIZE);

	KASSERT_TRUE(t, p != NULL);
	KEXPECT_EQ(t, p[100], 0);
	KEXPECT_EQ(t, arch_probe_write_u64(p, 7), 0);
	KEXPECT_EQ(t, vmalloc_protect(p, PROT_PRESENT), 0);
	KEXPECT_EQ(t, arch_page_prot(&init_mm, (u64)p), PROT_PRESENT);
	KEXPECT_EQ(t, arch_probe_write_u64(p + 600, 7), -EFAULT);
	KEXPECT_EQ(t, p[0], 7);
	KEXPECT_EQ(t, vmalloc_protect(p, PROT_PRESENT | PROT_WRITE), 0);
	KEXPECT_EQ(t, arch_probe_write_u64(p + 600, 7), 0);
	vfree(p);
}

static void test_map_range_errors(struct ktest *t)
{
	u64 va = VMALLOC_END - 64 * PAGE_SIZE; /* beyond what vmalloc hands out here */
	struct page *pg = alloc_page(GFP_KERNEL);

	KASSERT_TRUE(t, pg != NULL);
	KEXPECT_EQ(t, arch_map_range(&init_mm, va + 1, page_to_phys(pg), PAGE_SIZE, PROT_PRESENT), -EINVAL);
	KEXPECT_EQ(t, arch_map_range(&init_mm, va, page_to_phys(pg), PAGE_SIZE, PROT_PRESENT | PROT_WRITE), 0);
	KEXPECT_EQ(t, arch_map_range(&init_mm, va, page_to_phys(pg), PAGE_SIZE, PROT_PRESENT), -EEXIST);
	KEXPECT_EQ(t, arch_virt_to_phys(&init_mm, va + 12), page_to_phys(pg) + 12);
	KEXPECT_EQ(t, arch_protect_range(&init_mm, va, 2 * PAGE_SIZE, PROT_PRESENT), -EINVAL);
	KEXPECT_EQ(t, arch_unmap_range(&init_mm, va, PAGE_SIZE), 0);
	KEXPECT_EQ(t, arch_virt_to_phys(&init_mm, va), (phys_addr_t)-1);
	KEXPECT_EQ(t, arch_unmap_range(&init_mm, va, PAGE_SIZE), -EINVAL);
	__free_page(pg);
}

static void test_ioremap_aliases_memory(struct ktest *t)
{
	struct page *pg = alloc_page(GFP_KERNEL | __GFP_ZERO);
	u64 *direct, *io;

	KASSERT_TRUE(t, pg != NULL);
	direct = page_address(pg);
	io = ioremap(page_to_phys(pg) + 16, 32);
	KASSERT_TRUE(t, io != NULL);
	KEXPECT_EQ(t, (unsigned long)io & (PAGE_SIZE - 1), 16);
	io[0] = 0x1234;
	KEXPECT_EQ(t, direct[2], 0x1234);
	iounmap(io);
	__free_page(pg);
}

static struct ktest_case vmalloc_cases[] = {
	KTEST_CASE(test_vmalloc_large_buffer),
	KTEST_CASE(test_vmalloc_protect),
	KTEST_CASE(test_map_range_errors),
	KTEST_CASE(test_ioremap_aliases_memory),
	{}
};
KTEST_SUITE_FULL(vmalloc, .cases = vmalloc_cases, .kernel_only = true);

/* --- slab ------------------------------------------------------------------------- */

static void test_kmalloc_sizes(struct ktest *t)
{
	static const size_t sizes[] = { 1, 7, 8, 9, 64, 100, 500, 1000, 4096, 8000,
					8192, 8193, 20000, 100000 };
	void *p[ARRAY_SIZE(sizes)];
	bool ok = true;

	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
		p[i] = kmalloc(sizes[i], GFP_KERNEL);
		KASSERT_TRUE(t, p[i] != NULL);
		KEXPECT_GE(t, ksize(p[i]), sizes[i]);
		KEXPECT_EQ(t, (unsigned long)p[i] % 8, 0);
		memset(p[i], (int)i, sizes[i]);
	}
	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++)
		ok = ok && ((u8 *)p[i])[sizes[i] - 1] == (u8)i;
	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++)
		kfree(p[i]);
	KEXPECT_TRUE(t, ok);
	KEXPECT_TRUE(t, kmalloc(0, GFP_KERNEL) == NULL);
	KEXPECT_TRUE(t, kcalloc((size_t)-1 / 2, 4, GFP_KERNEL) == NULL);
	kfree(NULL);
}

static void test_kzalloc_and_dma(struct ktest *t)
{
	u8 *a = kmalloc(200, GFP_KERNEL);
	u8 *z;
	void *d = kmalloc(100, GFP_DMA);
	bool zero = true;

	KASSERT_TRUE(t, a != NULL);
	memset(a, 0xee, 200);
	kfree(a);
	z = kzalloc(200, GFP_KERNEL);
	KASSERT_TRUE(t, z != NULL);
	for (int i = 0; i < 200; i++)
		zero = zero && z[i] == 0;
	KEXPECT_TRUE(t, zero);
	kfree(z);
	if (NODE_DATA(0)->node_zones[ZONE_DMA].managed_pages) {
		KASSERT_TRUE(t, d != NULL);
		KEXPECT_EQ(t, virt_to_page(d)->zone_idx, ZONE_DMA);
	}
	kfree(d);
}

static void test_cache_many_objects_distinct(struct ktest *t)
{
	struct kmem_cache *c = kmem_cache_create("test-obj", 72, 0, SLAB_RANDOM);
	static u64 *objs[3000];
	bool ok = true;

	KASSERT_TRUE(t, c != NULL);
	for (int i = 0; i < 3000; i++) {
		objs[i] = kmem_cache_alloc(c, GFP_KERNEL);
		KASSERT_TRUE(t, objs[i] != NULL);
		for (int k = 0; k < 9; k++)
			objs[i][k] = (u64)i;
	}
	for (int i = 0; i < 3000; i++)
		for (int k = 0; k < 9; k++)
			ok = ok && objs[i][k] == (u64)i;
	KEXPECT_TRUE(t, ok);
	ktest_expect_reports(t, true);	/* "destroy with objects in use" */
	KEXPECT_EQ(t, kmem_cache_destroy(c), -EBUSY);
	ktest_expect_reports(t, false);
	for (int i = 0; i < 3000; i++)
		kmem_cache_free(c, objs[i]);
	KEXPECT_EQ(t, kmem_cache_destroy(c), 0);
}

/* Random free lists: a fresh slab does not hand out its slots in order. */
static void test_random_freelist_order(struct ktest *t)
{
	struct kmem_cache *plain = kmem_cache_create("test-plain", 256, 0, 0);
	struct kmem_cache *rnd = kmem_cache_create("test-random", 256, 0, SLAB_RANDOM);
	void *a[12], *b[12]; /* one slab even with debug red zones */
	int plain_asc = 0, rnd_asc = 0;

	KASSERT_TRUE(t, plain && rnd);
	for (int i = 0; i < 12; i++) {
		a[i] = kmem_cache_alloc(plain, GFP_KERNEL);
		b[i] = kmem_cache_alloc(rnd, GFP_KERNEL);
	}
	for (int i = 1; i < 12; i++) {
		plain_asc += a[i] > a[i - 1];
		rnd_asc += b[i] > b[i - 1];
	}
	ktest_log(t, "ascending steps of 11: in order %d, randomized %d", plain_asc, rnd_asc);
	/* In order: monotonic (the per-CPU stack hands a batch out in reverse). */
	KEXPECT_TRUE(t, plain_asc == 0 || plain_asc == 11);
	KEXPECT_TRUE(t, rnd_asc > 0 && rnd_asc < 11);
	for (int i = 0; i < 12; i++) {
		kmem_cache_free(plain, a[i]);
		kmem_cache_free(rnd, b[i]);
	}
	kmem_cache_destroy(plain);
	kmem_cache_destroy(rnd);
}

static void test_debug_catches_misuse(struct ktest *t)
{
	struct kmem_cache *c = kmem_cache_create("test-debug", 40, 0, SLAB_DEBUG);
	unsigned long e0 = slab_errors();
	u8 *p, *q;

	KASSERT_TRUE(t, c != NULL);
	ktest_expect_reports(t, true);	/* each misuse is reported */
	p = kmem_cache_alloc(c, GFP_KERNEL);
	KASSERT_TRUE(t, p != NULL);
	kmem_cache_free(c, p);
	kmem_cache_free(c, p); /* double free */
	KEXPECT_EQ(t, slab_errors(), e0 + 1);

	q = kmem_cache_alloc(c, GFP_KERNEL);
	KASSERT_TRUE(t, q != NULL);
	q[40] = 0; /* one byte past the end */
	kmem_cache_free(c, q);
	KEXPECT_EQ(t, slab_errors(), e0 + 2);

	q = kmem_cache_alloc(c, GFP_KERNEL);
	KASSERT_TRUE(t, q != NULL);
	kmem_cache_free(c, q + 8); /* not an object start */
	KEXPECT_EQ(t, slab_errors(), e0 + 3);
	kmem_cache_free(c, q);

	p = kmem_cache_alloc(c, GFP_KERNEL);
	KASSERT_TRUE(t, p != NULL);
	kmem_cache_free(c, p);
	p[20] = 1; /* write after free: seen when the slot is handed out again */
	for (int i = 0; i < 200 && slab_errors() == e0 + 3; i++) {
		q = kmem_cache_alloc(c, GFP_KERNEL);
		KASSERT_TRUE(t, q != NULL);
	}
	KEXPECT_EQ(t, slab_errors(), e0 + 4);
	/* (the objects are left allocated: the cache is not destroyed) */
}

static noinline void *owner_alloc_one(struct kmem_cache *c)
{
	return kmem_cache_alloc(c, GFP_KERNEL);
}

/* Zeroed, so that the compiler cannot fold the two into one function. */
static noinline void *owner_alloc_two(struct kmem_cache *c)
{
	return kmem_cache_alloc(c, GFP_KERNEL | __GFP_ZERO);
}

/*
 * A debug object remembers who allocated it (slabinfo CACHE): the
 * function that called kmem_cache_alloc(), counted until it is freed.
 */
static void test_debug_remembers_owner(struct ktest *t)
{
	struct kmem_cache *c = kmem_cache_create("test-owner", 100, 0, SLAB_DEBUG);
	struct kmem_cache *plain = kmem_cache_create("test-no-owner", 100, 0, 0);
	void *a[3], *b[2];

	KASSERT_TRUE(t, c != NULL && plain != NULL);
	for (int i = 0; i < 3; i++)
		KASSERT_TRUE(t, (a[i] = owner_alloc_one(c)) != NULL);
	for (int i = 0; i < 2; i++)
		KASSERT_TRUE(t, (b[i] = owner_alloc_two(c)) != NULL);
	KEXPECT_EQ(t, kmem_cache_count_owned(c, "owner_alloc_one"), 3);
	KEXPECT_EQ(t, kmem_cache_count_owned(c, "owner_alloc_two"), 2);
	KEXPECT_EQ(t, kmem_cache_count_owned(c, "test_debug_remembers_owner"), 0);
	kmem_cache_free(c, a[1]);
	KEXPECT_EQ(t, kmem_cache_count_owned(c, "owner_alloc_one"), 2);
	kmem_cache_free(c, a[0]);
	kmem_cache_free(c, a[2]);
	for (int i = 0; i < 2; i++)
		kmem_cache_free(c, b[i]);
	KEXPECT_EQ(t, kmem_cache_count_owned(c, "owner_alloc_two"), 0);
	/* A cache without debug checks keeps no record (unless slab.debug=1 made it one). */
	if (!kmem_cache_debug(plain))
		KEXPECT_EQ(t, kmem_cache_count_owned(plain, "owner_alloc_one"), -EOPNOTSUPP);
	KEXPECT_EQ(t, kmem_cache_destroy(c), 0);
	KEXPECT_EQ(t, kmem_cache_destroy(plain), 0);
}

static struct ktest_case slab_cases[] = {
	KTEST_CASE(test_kmalloc_sizes),
	KTEST_CASE(test_kzalloc_and_dma),
	KTEST_CASE(test_cache_many_objects_distinct),
	KTEST_CASE(test_random_freelist_order),
	KTEST_CASE(test_debug_catches_misuse),
	KTEST_CASE(test_debug_remembers_owner),
	{}
};
KTEST_SUITE_FULL(slab, .cases = slab_cases, .kernel_only = true);
