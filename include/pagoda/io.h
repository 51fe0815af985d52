/* SPDX-License-Identifier: MIT */
/*
 * Device register access with Linux's names. readX() is ordered before the
 * memory accesses that follow it (a driver that reads "done" then reads the
 * buffer sees the device's data); writeX() is ordered after the memory
 * accesses before it (a ring filled, then the doorbell). The __raw_ forms
 * promise nothing but the access itself.
 */
#ifndef PAGODA_IO_H
#define PAGODA_IO_H

#include <pagoda/arch.h>

#define __raw_read(type, addr) (*(const volatile type *)(addr))
#define __raw_write(type, v, addr) (*(volatile type *)(addr) = (v))

static inline u8 readb(const volatile void *a)
{
	u8 v = __raw_read(u8, a);

	__iormb();
	return v;
}

static inline u16 readw(const volatile void *a)
{
	u16 v = __raw_read(u16, a);

	__iormb();
	return v;
}

static inline u32 readl(const volatile void *a)
{
	u32 v = __raw_read(u32, a);

	__iormb();
	return v;
}

static inline void writeb(u8 v, volatile void *a)
{
	__iowmb();
	__raw_write(u8, v, a);
}

static inline void writew(u16 v, volatile void *a)
{
	__iowmb();
	__raw_write(u16, v, a);
}

static inline void writel(u32 v, volatile void *a)
{
	__iowmb();
	__raw_write(u32, v, a);
}

/* Two 32-bit halves, low first: what 64-bit virtio and SDHCI fields take. */
static inline void lo_hi_writeq(u64 v, volatile void *a)
{
	writel((u32)v, a);
	writel((u32)(v >> 32), (volatile u8 *)a + 4);
}

#endif
