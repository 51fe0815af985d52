// SPDX-License-Identifier: MIT
/*
 * PCI enumeration through ECAM. Each function's 4 KiB of configuration
 * space sits at base + (bus << 20 | device << 15 | function << 12) inside
 * the window the firmware names (arch_pci_ecam(): ACPI MCFG on x86, the
 * device tree on arm64), so finding devices is reading vendor IDs. Where
 * firmware names no window (QEMU's `pc`), the same 256-byte header is read
 * through x86's port-I/O mechanism instead (arch_pci_conf1_*): a function
 * with no ECAM mapping (cfg == NULL) is reached that way.
 *
 * BARs are sized by writing all-ones and reading back which bits stick;
 * x86 firmware has already placed them, and where nobody has (arm64 virt)
 * they are placed here, naturally aligned, in the bridge's 32-bit memory
 * window. Bridges are followed to the secondary buses firmware numbered.
 */
#include <pagoda/arch.h>
#include <pagoda/io.h>
#include <pagoda/pci.h>
#include <pagoda/printk.h>
#include <pagoda/shell.h>
#include <pagoda/slab.h>
#include <pagoda/string.h>
#include <pagoda/vmalloc.h>

LIST_HEAD(pci_devices);
static LIST_HEAD(pci_drivers);
static struct pci_ecam_window ecam;
static u64 mem_next; /* next free bus address in the memory window */

/*
 * Port-I/O access: what a missing function or an offset beyond the 256
 * bytes mechanism #1 reaches reads as all-ones, as a master abort does.
 */
static u32 conf1_read(u8 bus, u8 devfn, unsigned int off, unsigned int size)
{
	u32 v;

	if (arch_pci_conf1_read(bus, devfn, off, size, &v))
		return size == 4 ? 0xffffffff : (1u << (8 * size)) - 1;
	return v;
}

static void conf1_write(u8 bus, u8 devfn, unsigned int off, unsigned int size, u32 v)
{
	arch_pci_conf1_write(bus, devfn, off, size, v);
}

u8 pci_read_config_byte(struct pci_dev *p, unsigned int off)
{
	return p->cfg ? readb(p->cfg + off) : (u8)conf1_read(p->bus, p->devfn, off, 1);
}

u16 pci_read_config_word(struct pci_dev *p, unsigned int off)
{
	return p->cfg ? readw(p->cfg + off) : (u16)conf1_read(p->bus, p->devfn, off, 2);
}

u32 pci_read_config_dword(struct pci_dev *p, unsigned int off)
{
	return p->cfg ? readl(p->cfg + off) : conf1_read(p->bus, p->devfn, off, 4);
}

void pci_write_config_byte(struct pci_dev *p, unsigned int off, u8 v)
{
	if (p->cfg)
		writeb(v, p->cfg + off);
	else
		conf1_write(p->bus, p->devfn, off, 1, v);
}

void pci_write_config_word(struct pci_dev *p, unsigned int off, u16 v)
{
	if (p->cfg)
		writew(v, p->cfg + off);
	else
		conf1_write(p->bus, p->devfn, off, 2, v);
}

void pci_write_config_dword(struct pci_dev *p, unsigned int off, u32 v)
{
	if (p->cfg)
		writel(v, p->cfg + off);
	else
		conf1_write(p->bus, p->devfn, off, 4, v);
}

u8 pci_find_next_capability(struct pci_dev *p, u8 pos, u8 cap)
{
	/* At most 48 capabilities fit in 192 bytes: a loop is a broken list. */
	for (int ttl = 48; ttl-- && pos >= 0x40; ) {
		u8 id = pci_read_config_byte(p, pos);

		if (id == 0xff)
			break;
		if (id == cap)
			return pos;
		pos = pci_read_config_byte(p, pos + 1) & ~3;
	}
	return 0;
}

u8 pci_find_capability(struct pci_dev *p, u8 cap)
{
	if (!(pci_read_config_word(p, PCI_STATUS) & PCI_STATUS_CAP_LIST))
		return 0;
	return pci_find_next_capability(p, pci_read_config_byte(p, PCI_CAPABILITY_LIST) & ~3,
					cap);
}

int pci_enable_device(struct pci_dev *p)
{
	u16 cmd = pci_read_config_word(p, PCI_COMMAND);

	pci_write_config_word(p, PCI_COMMAND, cmd | PCI_COMMAND_MEMORY);
	return 0;
}

void pci_set_master(struct pci_dev *p)
{
	u16 cmd = pci_read_config_word(p, PCI_COMMAND);

	pci_write_config_word(p, PCI_COMMAND, cmd | PCI_COMMAND_MASTER);
}

void *pci_iomap_range(struct pci_dev *p, int bar, u64 offset, u64 len)
{
	if (bar < 0 || bar >= PCI_NUM_RESOURCES || !p->resource[bar].start ||
	    p->resource[bar].io || offset >= p->resource[bar].len)
		return NULL;
	if (!len || len > p->resource[bar].len - offset)
		len = p->resource[bar].len - offset;
	return ioremap(p->resource[bar].start + offset, len);
}

void *pci_iomap(struct pci_dev *p, int bar, u64 maxlen)
{
	return pci_iomap_range(p, bar, 0, maxlen);
}

/* Place an unassigned memory BAR in the host bridge's window. */
static u64 assign_bar(struct pci_dev *p, int bar, u64 size)
{
	u64 at = ALIGN_UP(mem_next, size);

	if (!ecam.mem_size || at + size > ecam.mem_bus_base + ecam.mem_size) {
		pr_warn("pci %s: no room for BAR%d (%#llx bytes)\n", p->name, bar,
			(unsigned long long)size);
		return 0;
	}
	mem_next = at + size;
	return at;
}

static int read_bar(struct pci_dev *p, int bar)
{
	unsigned int off = PCI_BASE_ADDRESS_0 + 4 * bar;
	u32 orig = pci_read_config_dword(p, off), hi = 0, mask_hi = 0xffffffff;
	u64 size, addr;
	u32 mask;
	bool is64 = !(orig & PCI_BASE_ADDRESS_SPACE_IO) &&
		    (orig & 6) == PCI_BASE_ADDRESS_MEM_TYPE_64;

	pci_write_config_dword(p, off, 0xffffffff);
	mask = pci_read_config_dword(p, off);
	pci_write_config_dword(p, off, orig);
	if (is64) {
		hi = pci_read_config_dword(p, off + 4);
		pci_write_config_dword(p, off + 4, 0xffffffff);
		mask_hi = pci_read_config_dword(p, off + 4);
		pci_write_config_dword(p, off + 4, hi);
	}
	if (!mask || mask == 0xffffffff)
		return is64 ? 2 : 1; /* not implemented */
	if (orig & PCI_BASE_ADDRESS_SPACE_IO) {
		p->resource[bar].io = true;
		p->resource[bar].start = orig & ~3u;
		p->resource[bar].len = (~(mask & ~3u) & 0xffff) + 1;
		return 1;
	}
	size = ~(((u64)mask_hi << 32 | (mask & ~0xfu)) | (is64 ? 0 : 0xffffffff00000000ULL)) + 1;
	addr = ((u64)hi << 32 | (orig & ~0xfu));
	if (!addr) {
		addr = assign_bar(p, bar, size);
		if (addr) {
			pci_write_config_dword(p, off, (u32)addr | (orig & 0xf));
			if (is64)
				pci_write_config_dword(p, off + 4, (u32)(addr >> 32));
			addr += ecam.mem_base - ecam.mem_bus_base;
		}
	} else if (ecam.mem_size) {
		addr += ecam.mem_base - ecam.mem_bus_base;
	}
	p->resource[bar].start = addr;
	p->resource[bar].len = size;
	p->resource[bar].is64 = is64;
	return is64 ? 2 : 1;
}

static void scan_bus(u8 bus, int depth);

static void add_function(u8 bus, u8 devfn, volatile u8 *cfg, int depth)
{
	struct pci_dev *p = kzalloc(sizeof(*p), GFP_KERNEL);
	u32 class_rev;
	u16 cmd;

	if (!p)
		return;
	p->bus = bus;
	p->devfn = devfn;
	p->cfg = cfg;
	snprintf(p->name, sizeof(p->name), "0000:%02x:%02x.%u", bus, PCI_SLOT(devfn),
		 PCI_FUNC(devfn));
	device_initialize(&p->dev, p->name);
	/* PCIe hosts on arm64 virt say dma-coherent; x86 always snoops. */
	p->dev.dma_coherent = true;
	p->vendor = pci_read_config_word(p, PCI_VENDOR_ID);
	p->device = pci_read_config_word(p, PCI_DEVICE_ID);
	class_rev = pci_read_config_dword(p, PCI_REVISION_ID);
	p->class = class_rev >> 8;
	p->revision = (u8)class_rev;
	p->hdr_type = pci_read_config_byte(p, PCI_HEADER_TYPE) & 0x7f;
	p->pin = pci_read_config_byte(p, PCI_INTERRUPT_PIN);
	list_add_tail(&p->node, &pci_devices);
	if (p->hdr_type == 0) {
		p->subsystem_device = pci_read_config_word(p, PCI_SUBSYSTEM_ID);
		/* Stop decoding while the BARs are probed with all-ones. */
		cmd = pci_read_config_word(p, PCI_COMMAND);
		pci_write_config_word(p, PCI_COMMAND, cmd & ~(PCI_COMMAND_MEMORY | PCI_COMMAND_IO));
		for (int bar = 0; bar < PCI_NUM_RESOURCES; )
			bar += read_bar(p, bar);
		pci_write_config_word(p, PCI_COMMAND, cmd);
	} else if (p->hdr_type == 1) {
		u8 sec = pci_read_config_byte(p, PCI_SECONDARY_BUS);

		if (sec > bus && sec <= ecam.bus_end && depth < 8)
			scan_bus(sec, depth + 1);
	}
}

static void scan_bus(u8 bus, int depth)
{
	volatile u8 *base = NULL;

	if (ecam.base) {
		base = ioremap(ecam.base + ((u64)(bus - ecam.bus_start) << 20), SZ_1M);
		if (!base) {
			pr_err("pci: cannot map the configuration space of bus %u\n", bus);
			return;
		}
	}
	for (unsigned int devfn = 0; devfn < 256; devfn++) {
		volatile u8 *cfg = base ? base + (devfn << 12) : NULL;
		u16 vendor = cfg ? readw(cfg + PCI_VENDOR_ID) :
				   (u16)conf1_read(bus, (u8)devfn, PCI_VENDOR_ID, 2);
		u8 hdr;

		if (vendor == 0xffff || vendor == 0) {
			if (PCI_FUNC(devfn) == 0)
				devfn += 7; /* no function 0: no device */
			continue;
		}
		hdr = cfg ? readb(cfg + PCI_HEADER_TYPE) :
			    (u8)conf1_read(bus, (u8)devfn, PCI_HEADER_TYPE, 1);
		add_function(bus, (u8)devfn, cfg, depth);
		/* Functions 1-7 exist only on multi-function devices. */
		if (PCI_FUNC(devfn) == 0 && !(hdr & 0x80))
			devfn += 7;
	}
}

int pci_init(void)
{
	struct pci_dev *p;
	u32 host_id;
	int n = 0;

	if (arch_pci_ecam(&ecam)) {
		/* No ECAM: is there a host bridge behind port-I/O config space? */
		if (arch_pci_conf1_read(0, 0, PCI_VENDOR_ID, 4, &host_id) ||
		    (host_id & 0xffff) == 0xffff || !(host_id & 0xffff))
			return 0;
		ecam = (struct pci_ecam_window){ .bus_start = 0, .bus_end = 255 };
	}
	mem_next = ecam.mem_bus_base;
	scan_bus(ecam.bus_start, 0);
	list_for_each_entry(p, &pci_devices, node)
		n++;
	if (ecam.base)
		pr_info("pci: %d functions behind ECAM at %#llx (buses %u-%u)\n", n,
			(unsigned long long)ecam.base, ecam.bus_start, ecam.bus_end);
	else
		pr_info("pci: %d functions through port-I/O configuration space (no ECAM)\n", n);
	return n;
}

static const struct pci_device_id *match(const struct pci_driver *drv,
					 const struct pci_dev *p)
{
	for (const struct pci_device_id *id = drv->id_table; id->vendor; id++) {
		if (id->vendor != PCI_ANY_ID && id->vendor != p->vendor)
			continue;
		if (id->device != PCI_ANY_ID && id->device != p->device)
			continue;
		if ((p->class & id->class_mask) != (id->class & id->class_mask))
			continue;
		return id;
	}
	return NULL;
}

int pci_register_driver(struct pci_driver *drv)
{
	struct pci_dev *p;
	int bound = 0;

	list_add_tail(&drv->node, &pci_drivers);
	list_for_each_entry(p, &pci_devices, node) {
		const struct pci_device_id *id;
		int err;

		if (p->driver || !(id = match(drv, p)))
			continue;
		p->driver = drv;
		err = drv->probe(p, id);
		if (err) {
			pr_warn("pci %s: %s: probe failed (%d)\n", p->name, drv->name, err);
			p->driver = NULL;
			continue;
		}
		bound++;
	}
	return bound;
}

static int cmd_lspci(int argc, char **argv)
{
	struct pci_dev *p;

	(void)argc;
	(void)argv;
	list_for_each_entry(p, &pci_devices, node) {
		kprintf("%s  %06x  %04x:%04x  %s\n", p->name, p->class, p->vendor, p->device,
			p->driver ? p->driver->name : "-");
		for (int i = 0; i < PCI_NUM_RESOURCES; i++)
			if (p->resource[i].len)
				kprintf("    BAR%d %s %#llx size %#llx\n", i,
					p->resource[i].io ? "io " : "mem",
					(unsigned long long)p->resource[i].start,
					(unsigned long long)p->resource[i].len);
	}
	return 0;
}
SHELL_CMD(lspci, "lspci", "PCI functions: address, class, ids, driver, BARs", cmd_lspci);
