// SPDX-License-Identifier: MIT
/*
 * A device's DMA as its device tree describes it (pagoda/of_dma.h).
 *
 * dma-ranges sits on a bus node and maps the children's bus addresses to
 * the parent's: (child address, parent address, size) triples, each in
 * that bus's and its parent's #address-cells and the bus's #size-cells.
 * The Pi 4's emmc2bus says bus 0xc0000000 is CPU 0 for 1 GiB: the EMMC2
 * controller must be given 0xc0000000 + phys, and cannot reach above 1 GiB.
 *
 * A restricted DMA pool is a /reserved-memory child compatible with
 * "restricted-dma-pool" that a device names in its memory-region list:
 * all of that device's DMA then bounces through that region (Linux's
 * kernel/dma/swiotlb.c, rmem_swiotlb_setup), so a device that must not see
 * the rest of memory never gets an address outside it.
 */
#include <pagoda/fdt.h>
#include <pagoda/of_dma.h>

int of_dma_range_map(const void *fdt, int node, struct bus_dma_region *map, int max)
{
	int bus = fdt_parent(fdt, node), up = bus >= 0 ? fdt_parent(fdt, bus) : -1;
	int cac, pac, sc, stride, n = 0;
	const u8 *r;
	u32 len, off;

	map[0].size = 0;
	if (bus < 0 || up < 0 || !(r = fdt_getprop(fdt, bus, "dma-ranges", &len)) || !len)
		return 0;
	cac = fdt_address_cells(fdt, bus);
	pac = fdt_address_cells(fdt, up);
	sc = fdt_size_cells(fdt, bus);
	if (cac < 1 || cac > 2 || pac < 1 || pac > 2 || sc < 1 || sc > 2)
		return -EINVAL;
	stride = 4 * (cac + pac + sc);
	if (len % stride)
		return -EINVAL;
	for (off = 0; off < len; off += stride) {
		u64 size = fdt_cells(r + off + 4 * (cac + pac), sc);

		if (!size)
			continue; /* a zero-sized window decodes nothing */
		if (n == max)
			return -E2BIG;
		map[n].dma_start = fdt_cells(r + off, cac);
		map[n].cpu_start = fdt_cells(r + off + 4 * cac, pac);
		map[n].size = size;
		n++;
	}
	map[n].size = 0;
	return n;
}

int of_restricted_dma_region(const void *fdt, int node, u64 *base, u64 *size,
			     const char **why)
{
	const u8 *ph;
	u32 len, i;

	*why = NULL;
	ph = fdt_getprop(fdt, node, "memory-region", &len);
	if (!ph)
		return 0;
	if (len % 4) {
		*why = "memory-region is not a list of phandles";
		return -EINVAL;
	}
	for (i = 0; i < len; i += 4) {
		int rmem = fdt_node_by_phandle(fdt, fdt32_ld(ph + i));

		if (rmem < 0) {
			*why = "memory-region names a phandle that does not exist";
			return -EINVAL;
		}
		if (!fdt_node_is_compatible(fdt, rmem, "restricted-dma-pool"))
			continue;
		if (fdt_getprop(fdt, rmem, "reusable", NULL) ||
		    fdt_getprop(fdt, rmem, "no-map", NULL)) {
			*why = "a restricted-dma-pool cannot be reusable or no-map";
			return -EINVAL;
		}
		if (fdt_reg_cpu(fdt, rmem, 0, base, size) || !*size) {
			*why = "the restricted-dma-pool has no usable reg";
			return -EINVAL;
		}
		return 1;
	}
	return 0;
}
