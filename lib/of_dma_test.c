// SPDX-License-Identifier: MIT
/*
 * Tests for lib/of_dma.c: dma-ranges as a device's bus windows (the real
 * Pi 4 tree's EMMC2 behind emmc2bus when the build fetched it, and built
 * trees for the odd shapes), and restricted-dma-pool lookup through
 * memory-region phandles, with the regions Linux refuses.
 */
#include <pagoda/fdt.h>
#include <pagoda/ktest.h>
#include <pagoda/of_dma.h>
#include <pagoda/printk.h>
#include <pagoda/string.h>

#include "fdt_test.h"

static void be32s(u8 *out, const u32 *v, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		fdt_test_st32(out + 4 * i, v[i]);
}

static void prop_cells(const char *name, const u32 *v, unsigned int n)
{
	u8 buf[64];

	be32s(buf, v, n);
	fdtb_prop(name, buf, 4 * n);
}

/* A bus with the given cells and dma-ranges, and one child "dev". */
static void bus(const char *name, u32 ac, u32 sc, const u32 *dr, unsigned int n)
{
	fdtb_begin(name);
	fdtb_prop_u32("#address-cells", ac);
	fdtb_prop_u32("#size-cells", sc);
	fdtb_prop("ranges", NULL, 0);
	if (dr)
		prop_cells("dma-ranges", dr, n);
	fdtb_begin("dev");
	fdtb_end();
	fdtb_end();
}

/*
 * A /reserved-memory child: its compatible, a one-cell base and size, an
 * optional empty flag property (no-map, reusable) and the phandle that
 * memory-region names it by. The three regions differ only in these.
 */
static void reserved_region(const char *name, const char *compatible, const u32 *reg,
			    const char *flag, u32 phandle)
{
	fdtb_begin(name);
	fdtb_prop_str("compatible", compatible);
	prop_cells("reg", reg, 2);
	if (flag)
		fdtb_prop(flag, NULL, 0);
	fdtb_prop_u32("phandle", phandle);
	fdtb_end();
}

static const u8 *build_tree(size_t *size)
{
	/* emmc2bus's shape: 2 address cells below, 1 above (root), 1 size cell. */
	static const u32 pi4[] = { 0, 0xc0000000, 0, 0x40000000 };
	static const u32 two[] = { 0x80000000, 0, 0x10000000,
				   0x90000000, 0x20000000, 0 /* empty */,
				   0xa0000000, 0x40000000, 0x1000 };
	static const u32 five[] = { 1, 1, 1, 2, 2, 1, 3, 3, 1, 4, 4, 1, 5, 5, 1 };
	static const u32 ragged[] = { 0, 0xc0000000, 0 };
	static const u32 pool[] = { 0x30000000, 0x400000 }, nomap[] = { 0x31000000, 0x100000 };
	static const u32 cma[] = { 0x32000000, 0x100000 };

	fdtb_start();
	fdtb_begin("");
	fdtb_prop_u32("#address-cells", 1);
	fdtb_prop_u32("#size-cells", 1);
	bus("emmc2bus", 2, 1, pi4, 4);
	bus("twobus", 1, 1, two, 9);
	bus("fivebus", 1, 1, five, 15);
	bus("raggedbus", 2, 1, ragged, 3);
	bus("wide", 3, 1, pi4, 4);
	bus("plain", 1, 1, NULL, 0);
	fdtb_begin("reserved-memory");
	fdtb_prop_u32("#address-cells", 1);
	fdtb_prop_u32("#size-cells", 1);
	fdtb_prop("ranges", NULL, 0);
	reserved_region("restricted@30000000", "restricted-dma-pool", pool, NULL, 1);
	reserved_region("restricted@31000000", "restricted-dma-pool", nomap, "no-map", 2);
	reserved_region("cma@32000000", "shared-dma-pool", cma, "reusable", 3);
	fdtb_end();
	fdtb_begin("devices");
	fdtb_begin("restricted");
	prop_cells("memory-region", (const u32[]){ 3, 1 }, 2);
	fdtb_end();
	fdtb_begin("cma-only");
	prop_cells("memory-region", (const u32[]){ 3 }, 1);
	fdtb_end();
	fdtb_begin("nomap");
	prop_cells("memory-region", (const u32[]){ 2 }, 1);
	fdtb_end();
	fdtb_begin("dangling");
	prop_cells("memory-region", (const u32[]){ 9 }, 1);
	fdtb_end();
	fdtb_begin("torn");
	fdtb_prop("memory-region", (const u8[]){ 0, 0, 1 }, 3);
	fdtb_end();
	fdtb_begin("none");
	fdtb_end();
	fdtb_end();
	fdtb_end();
	return fdtb_finish(true, size);
}

static int child(const u8 *f, const char *bus)
{
	char path[48];

	snprintf(path, sizeof(path), "/%s/dev", bus);
	return fdt_path_offset(f, path);
}

static void test_dma_range_map_shapes(struct ktest *t)
{
	struct bus_dma_region map[5];
	size_t size;
	const u8 *f = build_tree(&size);

	KASSERT_TRUE(t, f != NULL);
	KEXPECT_EQ(t, of_dma_range_map(f, child(f, "emmc2bus"), map, 4), 1);
	KEXPECT_EQ(t, map[0].dma_start, 0xc0000000);
	KEXPECT_EQ(t, map[0].cpu_start, 0);
	KEXPECT_EQ(t, map[0].size, 0x40000000);
	KEXPECT_EQ(t, map[1].size, 0);
	/* Zero-sized windows decode nothing and are left out. */
	KEXPECT_EQ(t, of_dma_range_map(f, child(f, "twobus"), map, 4), 2);
	KEXPECT_EQ(t, map[1].dma_start, 0xa0000000);
	KEXPECT_EQ(t, map[1].cpu_start, 0x40000000);
	KEXPECT_EQ(t, map[1].size, 0x1000);
	KEXPECT_EQ(t, map[2].size, 0);
	KEXPECT_EQ(t, of_dma_range_map(f, child(f, "fivebus"), map, 4), -E2BIG);
	KEXPECT_EQ(t, of_dma_range_map(f, child(f, "raggedbus"), map, 4), -EINVAL);
	KEXPECT_EQ(t, of_dma_range_map(f, child(f, "wide"), map, 4), -EINVAL);
	KEXPECT_EQ(t, of_dma_range_map(f, child(f, "plain"), map, 4), 0);
	KEXPECT_EQ(t, map[0].size, 0);
}

static void test_restricted_region_lookup(struct ktest *t)
{
	const char *why;
	u64 base = 0, len = 0;
	size_t size;
	const u8 *f = build_tree(&size);

	KASSERT_TRUE(t, f != NULL);
	KEXPECT_EQ(t, of_restricted_dma_region(f, fdt_path_offset(f, "/devices/restricted"),
					       &base, &len, &why), 1);
	KEXPECT_EQ(t, base, 0x30000000);
	KEXPECT_EQ(t, len, 0x400000);
	KEXPECT_EQ(t, of_restricted_dma_region(f, fdt_path_offset(f, "/devices/cma-only"),
					       &base, &len, &why), 0);
	KEXPECT_EQ(t, of_restricted_dma_region(f, fdt_path_offset(f, "/devices/none"),
					       &base, &len, &why), 0);
	KEXPECT_EQ(t, of_restricted_dma_region(f, fdt_path_offset(f, "/devices/nomap"),
					       &base, &len, &why), -EINVAL);
	KEXPECT_TRUE(t, why && strstr(why, "no-map"));
	KEXPECT_EQ(t, of_restricted_dma_region(f, fdt_path_offset(f, "/devices/dangling"),
					       &base, &len, &why), -EINVAL);
	KEXPECT_TRUE(t, why && strstr(why, "phandle"));
	KEXPECT_EQ(t, of_restricted_dma_region(f, fdt_path_offset(f, "/devices/torn"),
					       &base, &len, &why), -EINVAL);
}

/*
 * The real Pi 4: EMMC2 (the SD slot) sees RAM at bus 0xc0000000, and only
 * its first GiB; QEMU ignores the offset, a real board does not.
 */
static void test_dma_range_map_pi4_debian(struct ktest *t)
{
	struct bus_dma_region map[5];
	size_t size;
	const u8 *f = fdt_test_fixture("pi4-debian", &size);
	int emmc2;

	if (!f) {
		ktest_skip(t, "Pi 4 tree not built in (host only, when "
			      "tools/fetch-pi4-dtb.sh could fetch it)");
		return;
	}
	emmc2 = fdt_node_by_compatible(f, -1, "brcm,bcm2711-emmc2");
	KASSERT_TRUE(t, emmc2 >= 0);
	KEXPECT_EQ(t, of_dma_range_map(f, emmc2, map, 4), 1);
	KEXPECT_EQ(t, map[0].dma_start, 0xc0000000);
	KEXPECT_EQ(t, map[0].cpu_start, 0);
	KEXPECT_EQ(t, map[0].size, SZ_1G);
}

static struct ktest_case of_dma_cases[] = {
	KTEST_CASE(test_dma_range_map_shapes),
	KTEST_CASE(test_restricted_region_lookup),
	KTEST_CASE(test_dma_range_map_pi4_debian),
	{}
};
KTEST_SUITE(of_dma, of_dma_cases);
