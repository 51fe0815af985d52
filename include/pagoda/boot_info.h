/* SPDX-License-Identifier: MIT */
/*
 * struct boot_info: everything the kernel learns from its loader.
 *
 * Each boot path (PVH start info, multiboot2 from GRUB under BIOS or UEFI,
 * and on arm64 a device tree) is turned into this one structure before
 * start_kernel() runs; nothing after that looks at loader formats again.
 */
#ifndef PAGODA_BOOT_INFO_H
#define PAGODA_BOOT_INFO_H

#include <pagoda/types.h>

/*
 * Memory types, numbered as in the E820/ACPI address range map, plus one
 * of our own that no E820 map uses.
 */
enum boot_mem_type {
	BOOT_MEM_USABLE = 1,
	BOOT_MEM_RESERVED = 2,
	BOOT_MEM_ACPI = 3,
	BOOT_MEM_NVS = 4,
	BOOT_MEM_BAD = 5,
	/*
	 * RAM that a device tree reserves (the header's reserve map,
	 * /reserved-memory): firmware data, spin tables, DMA pools. Unlike
	 * BOOT_MEM_RESERVED it lies INSIDE a usable region, so whoever hands
	 * out usable memory must carve it out first.
	 */
	BOOT_MEM_FW_RESERVED = 0x10000,
};

struct boot_mem_region {
	phys_addr_t base;
	u64 size;
	u32 type;
};

struct boot_module {
	phys_addr_t base;
	u64 size;
	char name[64];
};

#define BOOT_MAX_MEM 128
#define BOOT_MAX_MODULES 8
#define BOOT_CMDLINE_MAX 2048
#define BOOT_MAX_CPUS 16	/* = NR_CPUS */
#define BOOT_MAX_DMA_RANGES 8

/*
 * The rest of this block is what a device tree tells (arm64); the x86 paths
 * leave it zero. Addresses are CPU physical, already translated through the
 * buses' ranges.
 */

/* How a secondary CPU is started (its device-tree enable-method). */
enum boot_cpu_enable {
	BOOT_CPU_ENABLE_NONE,		/* absent or a method we do not know */
	BOOT_CPU_ENABLE_PSCI,		/* PSCI CPU_ON */
	BOOT_CPU_ENABLE_SPIN_TABLE,	/* write entry to release_addr, sev */
};

struct boot_cpu {
	u64 hwid;		/* reg: the MPIDR affinity fields */
	u32 enable_method;	/* enum boot_cpu_enable */
	phys_addr_t release_addr; /* spin-table only: cpu-release-addr */
};

/* PSCI calls go through HVC (to a hypervisor) or SMC (to firmware). */
enum boot_psci_conduit { BOOT_PSCI_NONE, BOOT_PSCI_HVC, BOOT_PSCI_SMC };

/* The console UART named by /chosen stdout-path. base 0: none found. */
struct boot_uart {
	char compatible[32];	/* first compatible string: "arm,pl011" */
	phys_addr_t base;
	u64 size;
	u32 baud;		/* from "serial0:115200n8"; 0 if not given */
};

enum boot_gic_version { BOOT_GIC_NONE, BOOT_GIC_V2 = 2, BOOT_GIC_V3 = 3 };

/* The GIC: distributor, and per-CPU interfaces (v2) or redistributors (v3). */
struct boot_irqchip {
	u32 version;		/* enum boot_gic_version */
	char compatible[32];	/* the string that matched: "arm,gic-400" */
	phys_addr_t dist_base;	/* GICD */
	u64 dist_size;
	phys_addr_t cpu_base;	/* GICC: v2, or v3's optional legacy one */
	u64 cpu_size;
	phys_addr_t redist_base; /* GICR (v3): the first region */
	u64 redist_size;
};

/* Architected timer interrupts, in the order the binding lists them. */
enum { BOOT_TIMER_SEC_PHYS, BOOT_TIMER_PHYS, BOOT_TIMER_VIRT,
       BOOT_TIMER_HYP_PHYS, BOOT_TIMER_NR_IRQS };

struct boot_timer {
	u32 nr_irqs;		/* 0: no arm,armv8-timer node */
	u32 irq[BOOT_TIMER_NR_IRQS];	/* GIC INTID: PPI n is 16 + n */
	u32 irq_flags[BOOT_TIMER_NR_IRQS]; /* trigger type cell, as given */
	u32 frequency;		/* clock-frequency, 0 when absent (use CNTFRQ) */
};

/*
 * A dma-ranges entry: devices below `node` see parent_base (an address of
 * the node's parent bus; for a node under the root, CPU physical) at
 * child_base. On the Pi 4, /soc maps 0xc0000000 to 0 for 1 GiB: the
 * 30-bit DMA masters reach only the first GiB of RAM.
 */
struct boot_dma_range {
	char node[24];		/* name of the node that has the property */
	u64 child_base;
	phys_addr_t parent_base;
	u64 size;
};

/*
 * A memory-side cache (ACPI HMAT on x86): DRAM or HBM caching slower memory.
 * A direct-mapped one makes physical placement matter, which is when the
 * page allocator shuffles its free lists (mm/policy_shuffle.c).
 */
struct boot_mem_side_cache {
	u64 size;        /* bytes; 0 when none is described */
	u32 line_size;   /* bytes */
	u8 level;
	u8 associativity; /* 0 none, 1 direct mapped, 2 complex (HMAT's codes) */
};

struct boot_info {
	const char *loader; /* "pvh", "multiboot2 (BIOS)", ... */
	char cmdline[BOOT_CMDLINE_MAX];
	u32 nr_mem;
	struct boot_mem_region mem[BOOT_MAX_MEM];
	u32 nr_modules;
	struct boot_module modules[BOOT_MAX_MODULES];
	phys_addr_t acpi_rsdp; /* 0 when none */
	phys_addr_t dtb;       /* 0 when none */
	phys_addr_t kernel_start, kernel_end; /* physical extent of the image */
	/* Top of ZONE_DMA: x86's 16 MiB ISA limit, or what the device tree's
	 * dma-ranges allow the most limited masters; 0 = no separate DMA zone. */
	phys_addr_t zone_dma_limit;
	struct boot_mem_side_cache mem_side_cache;
	bool truncated; /* a table did not fit: reported at boot */

	/* From a device tree only (see above). */
	char model[64];		/* root "model", e.g. "Raspberry Pi 4 Model B" */
	u32 nr_cpus;
	struct boot_cpu cpus[BOOT_MAX_CPUS];
	u32 psci_method;	/* enum boot_psci_conduit */
	struct boot_uart uart;
	struct boot_irqchip gic;
	struct boot_timer timer;
	u32 nr_dma_ranges;
	struct boot_dma_range dma_ranges[BOOT_MAX_DMA_RANGES];
};

extern struct boot_info boot_info;

/* Add a region, merging nothing; sets truncated when full. */
void boot_info_add_mem(struct boot_info *bi, phys_addr_t base, u64 size,
		       u32 type);
/* Sort the memory map by base address (loaders do not promise order). */
void boot_info_sort_mem(struct boot_info *bi);
const char *boot_mem_type_name(u32 type);
/* Total bytes of the given type. */
u64 boot_info_mem_total(const struct boot_info *bi, u32 type);

#endif
