// SPDX-License-Identifier: MIT
/*
 * From a device tree to struct boot_info: the one place that knows which
 * nodes and properties an arm64 boot needs. Each reader below takes one
 * part of the tree; a part that is missing or malformed is left zero and,
 * when it matters, warned about. Only an invalid blob or a tree with no
 * memory at all fails the whole call.
 */
#define pr_fmt(fmt) "fdt: " fmt

#include <pagoda/boot_info.h>
#include <pagoda/errname.h>
#include <pagoda/fdt.h>
#include <pagoda/printk.h>
#include <pagoda/string.h>

static bool node_has_type(const void *fdt, int node, const char *type)
{
	const char *t = fdt_getprop_str(fdt, node, "device_type");

	return t && strcmp(t, type) == 0;
}

/* Add every reg entry of node, translated to CPU addresses, as type. */
static void add_reg_regions(const void *fdt, int node, u32 type,
			    struct boot_info *bi)
{
	u64 base, size;
	int err;

	for (int i = 0; (err = fdt_reg_cpu(fdt, node, i, &base, &size)) == 0; i++)
		boot_info_add_mem(bi, base, size, type);
	if (err != -ENOENT)
		pr_warn("%s: unusable reg (%s), ignored\n",
			fdt_node_name(fdt, node), errname(err));
}

/* RAM: every enabled node with device_type = "memory", all its reg pairs. */
static void read_memory(const void *fdt, struct boot_info *bi)
{
	for (int n = fdt_root(fdt); n >= 0; n = fdt_next_node(fdt, n, NULL))
		if (node_has_type(fdt, n, "memory") && fdt_node_enabled(fdt, n))
			add_reg_regions(fdt, n, BOOT_MEM_USABLE, bi);
}

/*
 * Reserved RAM: the header's reserve map and the children of
 * /reserved-memory that have a fixed reg. (Children with only size and
 * alloc-ranges ask the OS to choose a place; nothing to reserve yet.)
 */
static void read_reserved(const void *fdt, struct boot_info *bi)
{
	u64 base, size;
	int rmem, child;

	for (int i = 0; fdt_mem_rsv(fdt, i, &base, &size) == 0; i++)
		boot_info_add_mem(bi, base, size, BOOT_MEM_FW_RESERVED);

	rmem = fdt_path_offset(fdt, "/reserved-memory");
	if (rmem < 0)
		return;
	fdt_for_each_child(fdt, rmem, child)
		if (fdt_node_enabled(fdt, child) &&
		    fdt_getprop(fdt, child, "reg", NULL))
			add_reg_regions(fdt, child, BOOT_MEM_FW_RESERVED, bi);
}

static void add_module(struct boot_info *bi, u64 base, u64 size,
		       const char *name)
{
	struct boot_module *m;

	if (bi->nr_modules == BOOT_MAX_MODULES) {
		bi->truncated = true;
		return;
	}
	m = &bi->modules[bi->nr_modules++];
	m->base = base;
	m->size = size;
	strlcpy(m->name, name, sizeof(m->name));
}

/* The console: stdout-path is "path-or-alias[:options]", e.g. "serial0:115200n8". */
static void read_stdout(const void *fdt, int chosen, struct boot_info *bi)
{
	const char *path = fdt_getprop_str(fdt, chosen, "stdout-path");
	const char *opts, *compat;
	u64 base, size;
	int node, err;

	if (!path)
		path = fdt_getprop_str(fdt, chosen, "linux,stdout-path");
	if (!path)
		return;
	node = fdt_path_offset(fdt, path);	/* stops at the ':' */
	if (node < 0) {
		pr_warn("stdout-path \"%s\" names no node\n", path);
		return;
	}
	err = fdt_reg_cpu(fdt, node, 0, &base, &size);
	if (err) {
		pr_warn("stdout-path \"%s\": no usable reg (%s)\n", path, errname(err));
		return;
	}
	bi->uart.base = base;
	bi->uart.size = size;
	compat = fdt_getprop_str(fdt, node, "compatible");
	if (compat)
		strlcpy(bi->uart.compatible, compat, sizeof(bi->uart.compatible));
	opts = strchr(path, ':');
	bi->uart.baud = 0;
	/* Digits only; a baud over 10 digits would overflow, stop before. */
	for (int i = 0; opts && isdigit(opts[1 + i]) && i < 9; i++)
		bi->uart.baud = bi->uart.baud * 10 + (u32)(opts[1 + i] - '0');
}

/* /chosen: bootargs, initrd, console. */
static void read_chosen(const void *fdt, struct boot_info *bi)
{
	int chosen = fdt_path_offset(fdt, "/chosen");
	const char *args;
	u64 start, end;

	if (chosen < 0)
		return;
	args = fdt_getprop_str(fdt, chosen, "bootargs");
	if (args && strlcpy(bi->cmdline, args, sizeof(bi->cmdline)) >=
			    sizeof(bi->cmdline)) {
		pr_warn("bootargs longer than %u bytes, cut\n",
			(unsigned int)sizeof(bi->cmdline) - 1);
		bi->truncated = true;
	}
	if (fdt_read_u64(fdt, chosen, "linux,initrd-start", &start) == 0 &&
	    fdt_read_u64(fdt, chosen, "linux,initrd-end", &end) == 0) {
		if (end > start)
			add_module(bi, start, end - start, "initrd");
		else
			pr_warn("initrd end 0x%llx is not above its start 0x%llx\n",
				(unsigned long long)end,
				(unsigned long long)start);
	}
	read_stdout(fdt, chosen, bi);
}

/*
 * The words a device tree uses, indexed by the enum they become. The
 * first entry is the empty word: match_string() stops at a NULL one.
 */
static const char *const enable_methods[] = {
	[BOOT_CPU_ENABLE_NONE] = "",
	[BOOT_CPU_ENABLE_PSCI] = "psci",
	[BOOT_CPU_ENABLE_SPIN_TABLE] = "spin-table",
};

static const char *const conduits[] = {
	[BOOT_PSCI_NONE] = "",
	[BOOT_PSCI_HVC] = "hvc",
	[BOOT_PSCI_SMC] = "smc",
};

/* /cpus/cpu@N: the hardware id and how to start the CPU. */
static void read_cpus(const void *fdt, struct boot_info *bi)
{
	int cpus = fdt_path_offset(fdt, "/cpus"), cpu;
	int ac = cpus >= 0 ? fdt_address_cells(fdt, cpus) : -1;

	if (cpus < 0)
		return;
	fdt_for_each_child(fdt, cpus, cpu) {
		struct boot_cpu *c;
		const char *method;
		const void *reg;
		u32 len;
		int m;

		if (!node_has_type(fdt, cpu, "cpu"))
			continue;	/* cpu-map, l2-cache ... */
		reg = fdt_getprop(fdt, cpu, "reg", &len);
		if (!reg || ac < 1 || ac > 2 || len < 4 * (u32)ac) {
			pr_warn("%s: no usable reg, CPU ignored\n",
				fdt_node_name(fdt, cpu));
			continue;
		}
		if (bi->nr_cpus == BOOT_MAX_CPUS) {
			bi->truncated = true;
			break;
		}
		c = &bi->cpus[bi->nr_cpus++];
		c->hwid = fdt_cells(reg, ac);
		method = fdt_getprop_str(fdt, cpu, "enable-method");
		m = match_string(enable_methods, ARRAY_SIZE(enable_methods), method);
		c->enable_method = m < 0 ? BOOT_CPU_ENABLE_NONE : m;
		if (fdt_read_u64(fdt, cpu, "cpu-release-addr", &c->release_addr))
			c->release_addr = 0;
	}
}

static void read_psci(const void *fdt, struct boot_info *bi)
{
	static const char *const compats[] = { "arm,psci-1.0", "arm,psci-0.2",
					       "arm,psci" };
	int node = -ENOENT, m;

	for (size_t i = 0; i < ARRAY_SIZE(compats) && node < 0; i++)
		node = fdt_node_by_compatible(fdt, -1, compats[i]);
	if (node < 0 || !fdt_node_enabled(fdt, node))
		return;
	m = match_string(conduits, ARRAY_SIZE(conduits), fdt_getprop_str(fdt, node, "method"));
	if (m > BOOT_PSCI_NONE)
		bi->psci_method = m;
	else
		pr_warn("psci node without a method we know, PSCI unused\n");
}

static const struct {
	const char *compat;
	u32 version;
} gic_compats[] = {
	{ "arm,gic-v3", BOOT_GIC_V3 },
	{ "arm,gic-400", BOOT_GIC_V2 },
	{ "arm,cortex-a15-gic", BOOT_GIC_V2 },
	{ "arm,cortex-a9-gic", BOOT_GIC_V2 },
	{ "arm,cortex-a7-gic", BOOT_GIC_V2 },
};

/* Does node match a GIC binding? Returns its index in gic_compats or -1. */
static int gic_kind(const void *fdt, int node)
{
	for (size_t i = 0; i < ARRAY_SIZE(gic_compats); i++)
		if (fdt_node_is_compatible(fdt, node, gic_compats[i].compat))
			return (int)i;
	return -1;
}

/*
 * The GIC. reg is GICD then, for v2, GICC; for v3, the redistributor
 * regions (#redistributor-regions, default 1) and then an optional GICC.
 */
static void read_gic(const void *fdt, struct boot_info *bi)
{
	struct boot_irqchip *g = &bi->gic;
	u32 nr_redist = 1;
	int node, kind = -1, err;

	for (node = fdt_root(fdt); node >= 0; node = fdt_next_node(fdt, node, NULL)) {
		kind = gic_kind(fdt, node);
		if (kind >= 0 && fdt_node_enabled(fdt, node))
			break;
	}
	if (node < 0)
		return;
	err = fdt_reg_cpu(fdt, node, 0, &g->dist_base, &g->dist_size);
	if (err) {
		pr_warn("%s: no usable distributor reg (%s)\n",
			fdt_node_name(fdt, node), errname(err));
		return;
	}
	g->version = gic_compats[kind].version;
	strlcpy(g->compatible, gic_compats[kind].compat, sizeof(g->compatible));
	if (g->version == BOOT_GIC_V2) {
		fdt_reg_cpu(fdt, node, 1, &g->cpu_base, &g->cpu_size);
		return;
	}
	fdt_read_u32(fdt, node, "#redistributor-regions", &nr_redist);
	fdt_reg_cpu(fdt, node, 1, &g->redist_base, &g->redist_size);
	if (nr_redist < 64)
		fdt_reg_cpu(fdt, node, 1 + (int)nr_redist, &g->cpu_base,
			    &g->cpu_size);
}

/*
 * The architected timer's four interrupts. They are decoded when the
 * interrupt parent is a GIC, whose specifier is (type, number, flags):
 * type 0 is an SPI (INTID 32 + n), 1 a PPI (INTID 16 + n).
 */
static void read_timer(const void *fdt, struct boot_info *bi)
{
	struct boot_timer *tm = &bi->timer;
	int node, intc;
	const u8 *irqs;
	u32 len, cells;

	node = fdt_node_by_compatible(fdt, -1, "arm,armv8-timer");
	if (node < 0)
		node = fdt_node_by_compatible(fdt, -1, "arm,armv7-timer");
	if (node < 0)
		return;
	if (fdt_read_u32(fdt, node, "clock-frequency", &tm->frequency))
		tm->frequency = 0;
	irqs = fdt_getprop(fdt, node, "interrupts", &len);
	intc = fdt_interrupt_parent(fdt, node);
	if (!irqs || intc < 0 || gic_kind(fdt, intc) < 0 ||
	    fdt_read_u32(fdt, intc, "#interrupt-cells", &cells) || cells != 3) {
		pr_warn("timer interrupts are not GIC interrupts, ignored\n");
		return;
	}
	for (u32 i = 0; i < BOOT_TIMER_NR_IRQS && (i + 1) * 12 <= len; i++) {
		u32 type = fdt32_ld(irqs + 12 * i);
		u32 num = fdt32_ld(irqs + 12 * i + 4);

		if (type > 1 || num > 987) {	/* INTIDs end at 1019 */
			pr_warn("timer interrupt %u is malformed, ignored\n", i);
			tm->nr_irqs = 0;
			return;
		}
		tm->irq[i] = num + (type == 1 ? 16 : 32);
		tm->irq_flags[i] = fdt32_ld(irqs + 12 * i + 8);
		tm->nr_irqs = i + 1;
	}
}

/*
 * Lower bi->zone_dma_limit to the end of a DMA window (exclusive): the
 * zone must hold only memory that every master can reach. As in Linux, the
 * window's parent address is taken as a CPU address, which holds for buses
 * directly under the root (all of them on the Pi 4).
 */
static void limit_dma_zone(struct boot_info *bi, u64 parent, u64 size)
{
	u64 end = parent + size < parent ? ~0ULL : parent + size;

	if (!bi->zone_dma_limit || end < bi->zone_dma_limit)
		bi->zone_dma_limit = end;
}

/*
 * dma-ranges: (child address, parent address, size) triples, recorded, and
 * the lowest window end becomes the DMA zone's limit. Buses with more than
 * two address cells (PCI) have their own encoding and are left to their
 * drivers.
 */
static void read_dma_ranges(const void *fdt, struct boot_info *bi)
{
	for (int n = fdt_root(fdt); n >= 0; n = fdt_next_node(fdt, n, NULL)) {
		int parent, cac, csc, pac;
		const u8 *r;
		u32 len, entry;

		r = fdt_getprop(fdt, n, "dma-ranges", &len);
		if (!r || !len)
			continue;	/* absent or empty (identity) */
		parent = fdt_parent(fdt, n);
		if (parent < 0)
			continue;
		cac = fdt_address_cells(fdt, n);
		csc = fdt_size_cells(fdt, n);
		pac = fdt_address_cells(fdt, parent);
		if (cac < 1 || cac > 2 || csc < 1 || csc > 2 || pac < 1 || pac > 2)
			continue;
		entry = 4 * (u32)(cac + pac + csc);
		if (len % entry) {
			pr_warn("%s: malformed dma-ranges, ignored\n",
				fdt_node_name(fdt, n));
			continue;
		}
		for (; len; len -= entry, r += entry) {
			struct boot_dma_range *d;

			if (bi->nr_dma_ranges == BOOT_MAX_DMA_RANGES) {
				bi->truncated = true;
				return;
			}
			d = &bi->dma_ranges[bi->nr_dma_ranges++];
			strlcpy(d->node, fdt_node_name(fdt, n), sizeof(d->node));
			d->child_base = fdt_cells(r, cac);
			d->parent_base = fdt_cells(r + 4 * cac, pac);
			d->size = fdt_cells(r + 4 * (cac + pac), csc);
			limit_dma_zone(bi, d->parent_base, d->size);
		}
	}
}

int fdt_fill_boot_info(const void *fdt, size_t max_size, struct boot_info *bi)
{
	const char *why, *model;
	int err = fdt_check(fdt, max_size, &why);

	if (err) {
		pr_err("invalid device tree: %s\n", why);
		return err;
	}
	if (!bi->loader)
		bi->loader = "device tree";
	model = fdt_getprop_str(fdt, fdt_root(fdt), "model");
	if (model)
		strlcpy(bi->model, model, sizeof(bi->model));
	read_memory(fdt, bi);
	read_reserved(fdt, bi);
	read_chosen(fdt, bi);
	read_cpus(fdt, bi);
	read_psci(fdt, bi);
	read_gic(fdt, bi);
	read_timer(fdt, bi);
	read_dma_ranges(fdt, bi);
	boot_info_sort_mem(bi);
	if (!boot_info_mem_total(bi, BOOT_MEM_USABLE)) {
		pr_err("device tree describes no usable memory\n");
		return -ENODEV;
	}
	return 0;
}
