// SPDX-License-Identifier: MIT
/*
 * Just enough ACPI to find tables and to power off or reset the machine:
 * the RSDP (from the loader, else the BIOS areas), the XSDT or RSDT, the
 * FADT's PM1a control block and reset register, and the \_S5 sleep type
 * read straight out of the DSDT's AML. Other tables are found through
 * acpi_find_table(): the MADT by apic.c, HMAT by hmat.c.
 */
#include <pagoda/boot_info.h>
#include <pagoda/mm.h>
#include <pagoda/printk.h>
#include <pagoda/string.h>
#include <asm/x86.h>
#include "acpi.h"

struct rsdp {
	char sig[8];
	u8 checksum;
	char oem[6];
	u8 revision;
	u32 rsdt;
	u32 length;
	u64 xsdt;
	u8 xchecksum, reserved[3];
} __packed;

static const struct acpi_header *root;
static bool root_is_xsdt;

static bool checksum_ok(const void *p, size_t n)
{
	u8 sum = 0;

	for (size_t i = 0; i < n; i++)
		sum += ((const u8 *)p)[i];
	return sum == 0;
}

static const struct rsdp *scan_rsdp(u64 pa, u64 len)
{
	for (u64 off = 0; off + 20 <= len; off += 16) {
		const struct rsdp *r = __va(pa + off);

		if (!memcmp(r->sig, "RSD PTR ", 8) && checksum_ok(r, 20))
			return r;
	}
	return NULL;
}

static const struct rsdp *find_rsdp(void)
{
	const struct rsdp *r;
	u64 ebda;

	if (boot_info.acpi_rsdp)
		return __va(boot_info.acpi_rsdp);
	ebda = (u64)*(const u16 *)__va(0x40e) << 4;
	if (ebda && (r = scan_rsdp(ebda, 1024)))
		return r;
	return scan_rsdp(0xe0000, 0x20000);
}

const struct acpi_header *acpi_find_table(const char sig[4])
{
	u32 n, esz;

	if (!root)
		return NULL;
	esz = root_is_xsdt ? 8 : 4;
	n = (root->length - sizeof(*root)) / esz;
	for (u32 i = 0; i < n; i++) {
		const u8 *ent = (const u8 *)(root + 1) + i * esz;
		u64 pa = esz == 8 ? *(const u64 *)ent : *(const u32 *)ent;
		const struct acpi_header *h = __va(pa);

		if (!memcmp(h->sig, sig, 4) && checksum_ok(h, h->length))
			return h;
	}
	return NULL;
}

/* ---- power ---------------------------------------------------------------- */

static u16 pm1a_cnt;
static u16 slp_typ_s5;
static bool have_s5;
static struct { u8 space; u64 addr; u8 value; bool ok; } reset_reg;

/*
 * \_S5 is "Name(_S5, Package(){a, b, ...})": the AML bytes are the name,
 * PackageOp (0x12), a package length, an element count, then the first
 * element as a ByteConst (0x0a nn), Zero (0x00) or One (0x01).
 */
static void find_s5(const struct acpi_header *dsdt)
{
	const u8 *p = (const u8 *)(dsdt + 1);
	const u8 *end = (const u8 *)dsdt + dsdt->length;

	for (; p + 8 < end; p++) {
		if (memcmp(p, "_S5_", 4) || p[4] != 0x12)
			continue;
		p += 5;
		p += ((*p >> 6) & 3) + 1; /* PkgLength: lead byte + follow bytes */
		p++;                      /* NumElements */
		if (p >= end)
			return;
		if (*p == 0x0a && p + 1 < end)
			slp_typ_s5 = p[1];
		else if (*p <= 1)
			slp_typ_s5 = *p;
		else
			return;
		have_s5 = true;
		return;
	}
}

void acpi_init(void)
{
	const struct rsdp *r = find_rsdp();
	const u8 *fadt;

	if (!r) {
		pr_warn("acpi: no RSDP found; poweroff and reboot use fallbacks\n");
		return;
	}
	if (r->revision >= 2 && r->xsdt) {
		root = __va(r->xsdt);
		root_is_xsdt = true;
	} else {
		root = __va((u64)r->rsdt);
	}
	fadt = (const u8 *)acpi_find_table("FACP");
	if (!fadt)
		return;
	pm1a_cnt = (u16)*(const u32 *)(fadt + 64);
	{
		u64 dsdt = *(const u32 *)(fadt + 40);
		const struct acpi_header *fh = (const void *)fadt;

		if (fh->length >= 148 && *(const u64 *)(fadt + 140))
			dsdt = *(const u64 *)(fadt + 140);
		if (dsdt)
			find_s5(__va(dsdt));
		/* RESET_REG_SUP is FADT flag bit 10; the GAS is at 116. */
		if (fh->length >= 129 && (*(const u32 *)(fadt + 112) & (1 << 10))) {
			reset_reg.space = fadt[116];
			reset_reg.addr = *(const u64 *)(fadt + 120);
			reset_reg.value = fadt[128];
			reset_reg.ok = reset_reg.space == 1; /* system I/O */
		}
	}
	pr_info("acpi: %s at %llx, PM1a_CNT %#x, S5 %s\n",
		root_is_xsdt ? "XSDT" : "RSDT", (unsigned long long)__pa(root),
		pm1a_cnt, have_s5 ? "found" : "missing");
}

bool acpi_poweroff(void)
{
	if (!pm1a_cnt || !have_s5)
		return false;
	outw(pm1a_cnt, (inw(pm1a_cnt) & ~(7 << 10)) | (slp_typ_s5 << 10) | (1 << 13));
	return true;
}

bool acpi_reset(void)
{
	if (!reset_reg.ok)
		return false;
	outb((u16)reset_reg.addr, reset_reg.value);
	return true;
}
