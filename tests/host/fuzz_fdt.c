// SPDX-License-Identifier: MIT
/*
 * libFuzzer target for the device-tree reader (make fuzz).
 *
 * Any input: fdt_check() must answer without a fault. An input it accepts
 * goes through fdt_fill_boot_info() and every accessor on every node. An
 * input it refuses but whose header at least fits the buffer goes through
 * the accessors too, since they promise to stay inside the header's blocks
 * whatever the blob holds. ASan and UBSan turn any stray read into a crash.
 */
#include <pagoda/boot_info.h>
#include <pagoda/fdt.h>
#include <pagoda/string.h>

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

static struct boot_info bi;

static void touch_node(const void *fdt, int node)
{
	struct fdt_prop p;
	u64 base, len;
	u32 v;
	int n;

	(void)fdt_node_name(fdt, node);
	(void)fdt_parent(fdt, node);
	(void)fdt_first_child(fdt, node);
	(void)fdt_next_sibling(fdt, node);
	(void)fdt_node_enabled(fdt, node);
	(void)fdt_interrupt_parent(fdt, node);
	for (int off = fdt_first_prop(fdt, node, &p); off >= 0;
	     off = fdt_next_prop(fdt, off, &p)) {
		(void)fdt_stringlist_count(p.data, p.len);
		(void)fdt_stringlist_get(p.data, p.len, 1);
		(void)strlen(p.name);
	}
	n = fdt_reg_count(fdt, node);
	for (int i = 0; i < n && i < 8; i++)
		(void)fdt_reg_cpu(fdt, node, i, &base, &len);
	if (fdt_read_u32(fdt, node, "phandle", &v) == 0)
		(void)fdt_node_by_phandle(fdt, v);
}

/* Walk everything, with a cap so a huge tree cannot make one run slow. */
static void walk(const void *fdt)
{
	static const char *const paths[] = {
		"/", "/chosen", "/cpus/cpu", "/soc/serial", "serial0",
		"serial0:115200", "/a/b/c/d", "x/y",
	};
	int depth = 0, count = 0;
	u64 base, len;

	for (int n = fdt_root(fdt); n >= 0 && count < 48;
	     n = fdt_next_node(fdt, n, &depth), count++)
		touch_node(fdt, n);
	for (size_t i = 0; i < ARRAY_SIZE(paths); i++)
		(void)fdt_path_offset(fdt, paths[i]);
	(void)fdt_node_by_compatible(fdt, -1, "arm,pl011");
	for (int i = 0; i < 4; i++)
		(void)fdt_mem_rsv(fdt, i, &base, &len);
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	/* An exact-size heap copy: ASan then sees a read one byte past. */
	u8 *copy = __builtin_malloc(size ? size : 1);
	memcpy(copy, data, size);
	if (fdt_check(copy, size, NULL) == 0) {
		memset(&bi, 0, sizeof(bi));
		(void)fdt_fill_boot_info(copy, size, &bi);
		walk(copy);
	} else if (size >= 40 && fdt32_ld(copy) == FDT_MAGIC &&
		   fdt32_ld(copy + 4) <= size) {
		walk(copy);
	}
	__builtin_free(copy);
	return 0;
}
