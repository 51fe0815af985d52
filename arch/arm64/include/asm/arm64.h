/* SPDX-License-Identifier: MIT */
/* System registers, barriers and shared definitions, for arch/arm64 only. */
#ifndef ASM_ARM64_H
#define ASM_ARM64_H

#include <pagoda/types.h>
#include "../../layout.h"

#define read_sysreg(r)                                          \
	({                                                      \
		u64 __v;                                        \
		__asm__ volatile("mrs %0, " #r : "=r"(__v));    \
		__v;                                            \
	})
#define write_sysreg(r, v) \
	__asm__ volatile("msr " #r ", %0" ::"r"((u64)(v)) : "memory")

#define isb() __asm__ volatile("isb" ::: "memory")
#define dsb(opt) __asm__ volatile("dsb " #opt ::: "memory")

/* MMIO: device memory accesses, ordered by the Device-nGnRnE mapping. */
static inline u32 readl(const volatile void *addr)
{
	return *(const volatile u32 *)addr;
}
static inline void writel(u32 v, volatile void *addr)
{
	*(volatile u32 *)addr = v;
}
static inline u64 readq(const volatile void *addr)
{
	return *(const volatile u64 *)addr;
}
static inline void writeq(u64 v, volatile void *addr)
{
	*(volatile u64 *)addr = v;
}

/*
 * Physical <-> virtual. The direct map covers all RAM once paging_init()
 * has run; the image is reachable at its link address from the first C
 * instruction (kimage_voffset = KERNEL_VIRT - load address).
 */
extern u64 kimage_voffset;
#define __va(pa) ((void *)((u64)(pa) + PAGE_OFFSET))
#define __pa(va) ((u64)(va) - PAGE_OFFSET)
#define __pa_kernel(va) ((u64)(va) - kimage_voffset)

/* Exception classes (ESR_EL1.EC) that the kernel tells apart. */
#define ESR_EC(esr) (((esr) >> 26) & 0x3f)
#define EC_UNKNOWN 0x00
#define EC_IABT_LOW 0x20
#define EC_IABT_CUR 0x21
#define EC_DABT_LOW 0x24
#define EC_DABT_CUR 0x25
#define EC_SVC64 0x15
#define EC_BRK 0x3c

/* Saved by the exception entry (entry.S); the layout is shared with it. */
struct pt_regs {
	u64 regs[31]; /* x0..x30 (x29 the frame pointer, x30 the link register) */
	u64 sp;
	u64 pc;       /* ELR_EL1: where to return */
	u64 pstate;   /* SPSR_EL1 */
	u64 esr, far;
	u64 frame[2]; /* a frame record {x29, pc}, so traces go through */
};

/* The exception that entered, as entry.S numbers the vector slots. */
enum vector_kind {
	VEC_SYNC, VEC_IRQ, VEC_FIQ, VEC_SERROR,
};

/* traps.c, user.c */
void arm64_dump_regs(const struct pt_regs *r);
void arm64_user_sync(struct pt_regs *regs, const char *name);
/* A fault on a user address (mm/memory.c): true when handled (retry, or a handler runs). */
bool arm64_user_addr_fault(struct pt_regs *regs, bool user);
void arm64_fpsimd_cpu_init(void);
/* Software step at EL0 (step.c): the OS Lock off at boot; MDSCR_EL1.SS as next wants it. */
struct task;
void arm64_debug_cpu_init(void);
void arm64_step_switch(const struct task *next);
/* CRC-32C with the ARMv8 CRC32 instructions, when the CPU has them (crc32c.c). */
void arm64_crc32c_init(void);

/* mmu.c */
void paging_init(u64 image_pa);
void paging_map_direct(void);
/*
 * Boot-time device mappings in the DEVMAP window, before mm/ exists (its
 * ioremap() takes over afterwards, in the vmalloc window). Never unmapped.
 */
void *early_ioremap(phys_addr_t pa, u64 size);
int mmu_map_dtb(phys_addr_t pa, u64 size);
extern u64 image_phys_start;

#endif
