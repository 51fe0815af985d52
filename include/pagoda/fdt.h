/* SPDX-License-Identifier: MIT */
/*
 * Flattened device tree (DTB) reader: lib/fdt.c, lib/fdt_boot_info.c.
 *
 * A DTB is a header, a memory reserve map, a structure block (a stream of
 * big-endian tokens: BEGIN_NODE name, PROP len nameoff data, END_NODE, NOP,
 * END) and a strings block holding the property names. See docs/fdt.md.
 *
 * Rule of use: call fdt_check() once on a blob that came from outside. Only
 * a blob it accepted is handed to the accessors below. The accessors still
 * never read outside the header's blocks, whatever the blob holds, but on an
 * unchecked blob their answers mean nothing.
 *
 * Nodes and properties are named by their offset in the structure block
 * (an int >= 0); a negative int is an error (-ENOENT: no such thing).
 * All multi-byte values in a DTB are big-endian: use fdt32_ld()/fdt_cells()
 * on property data, never a cast.
 */
#ifndef PAGODA_FDT_H
#define PAGODA_FDT_H

#include <pagoda/types.h>

#define FDT_MAGIC 0xd00dfeedU
#define FDT_MAX_DEPTH 32	/* deeper trees are rejected by fdt_check() */

struct boot_info;

/* Load a big-endian 32/64-bit value from any alignment. */
static inline u32 fdt32_ld(const void *p)
{
	const u8 *b = p;

	return (u32)b[0] << 24 | (u32)b[1] << 16 | (u32)b[2] << 8 | b[3];
}

static inline u64 fdt64_ld(const void *p)
{
	return (u64)fdt32_ld(p) << 32 | fdt32_ld((const u8 *)p + 4);
}

/*
 * Validate a blob of at most max_size readable bytes: header, reserve map,
 * block bounds and the whole token stream. Returns 0, or -EINVAL with *why
 * (if why is not NULL) set to a static sentence naming the problem.
 */
int fdt_check(const void *fdt, size_t max_size, const char **why);

/* Header fields (valid after fdt_check()). */
u32 fdt_totalsize(const void *fdt);
u32 fdt_version(const void *fdt);
u32 fdt_boot_cpuid(const void *fdt);

/* Entry i of the memory reserve map; -ENOENT past the last one. */
int fdt_mem_rsv(const void *fdt, int i, u64 *base, u64 *size);

/* ---- Nodes ------------------------------------------------------------ */

/* The root node ("/"). */
int fdt_root(const void *fdt);
/*
 * The node after `node` in depth-first order. *depth is updated: it goes up
 * by one into a child and down when leaving nodes (the root is depth 0).
 * Returns -ENOENT after the last node. Walk the whole tree with:
 *	for (depth = 0, n = fdt_root(fdt); n >= 0; n = fdt_next_node(fdt, n, &depth))
 */
int fdt_next_node(const void *fdt, int node, int *depth);
int fdt_first_child(const void *fdt, int node);
int fdt_next_sibling(const void *fdt, int node);
#define fdt_for_each_child(fdt, parent, child)                          \
	for (child = fdt_first_child(fdt, parent); child >= 0;          \
	     child = fdt_next_sibling(fdt, child))
/* The parent node (a walk from the root); -ENOENT for the root. */
int fdt_parent(const void *fdt, int node);

/* The node's name with unit address ("cpu@0"); "" for the root. */
const char *fdt_node_name(const void *fdt, int node);
/*
 * Look up "/cpus/cpu@0". A component without '@' also matches a node whose
 * name is that plus a unit address ("/cpus/cpu" finds "cpu@0"). A path not
 * starting with '/' begins with an alias from /aliases ("serial0/...").
 */
int fdt_path_offset(const void *fdt, const char *path);
/* The first node after `from` (-1: from the start) that is compatible. */
int fdt_node_by_compatible(const void *fdt, int from, const char *compat);
/* The node whose "phandle" (or "linux,phandle") is ph. */
int fdt_node_by_phandle(const void *fdt, u32 ph);
/* status absent, "okay" or "ok". */
bool fdt_node_enabled(const void *fdt, int node);

/* ---- Properties --------------------------------------------------------- */

struct fdt_prop {
	const char *name;
	const void *data;
	u32 len;
};

/* Property `name` of node: its data (never NULL when found) and length. */
const void *fdt_getprop(const void *fdt, int node, const char *name, u32 *len);
/* Iterate a node's properties: returns the property's offset or -ENOENT. */
int fdt_first_prop(const void *fdt, int node, struct fdt_prop *p);
int fdt_next_prop(const void *fdt, int prop, struct fdt_prop *p);

/* A property that is exactly one cell / one or two cells. -ENOENT, -EINVAL. */
int fdt_read_u32(const void *fdt, int node, const char *name, u32 *out);
int fdt_read_u64(const void *fdt, int node, const char *name, u64 *out);
/*
 * A NUL-terminated string property; NULL when absent or not terminated
 * within its length.
 */
const char *fdt_getprop_str(const void *fdt, int node, const char *name);
/* Read n (0..2) big-endian cells as one number. */
u64 fdt_cells(const void *p, int n);

/* String lists ("a\0b\0"). A list whose last string is unterminated is invalid. */
int fdt_stringlist_count(const void *data, u32 len);
/* String i of the list or NULL. */
const char *fdt_stringlist_get(const void *data, u32 len, int i);
bool fdt_stringlist_contains(const void *data, u32 len, const char *s);
bool fdt_node_is_compatible(const void *fdt, int node, const char *compat);

/* ---- Addresses ----------------------------------------------------------- */

/*
 * The #address-cells / #size-cells that apply to the reg of the children of
 * `node`: node's own property, else the spec's defaults 2 and 1 (they are
 * not inherited from further up; DTSpec 2.3.5). Values outside 0..2 cells
 * (address) / 0..2 (size) are refused by fdt_reg() with -EINVAL.
 */
int fdt_address_cells(const void *fdt, int node);
int fdt_size_cells(const void *fdt, int node);
/* Number of (address, size) entries in node's reg, or a negative error. */
int fdt_reg_count(const void *fdt, int node);
/* Entry i of node's reg, as the parent bus sees it (untranslated). */
int fdt_reg(const void *fdt, int node, int i, u64 *base, u64 *size);
/*
 * Translate a bus address of a node's reg (a child of `parent`) to a CPU
 * physical address through the `ranges` of parent and every ancestor.
 * Empty ranges is the identity; a missing ranges below the root, or an
 * address no range covers, is -ERANGE.
 */
int fdt_translate(const void *fdt, int parent, u64 *addr);
/* fdt_reg() then fdt_translate(); on error *base and *size are untouched. */
int fdt_reg_cpu(const void *fdt, int node, int i, u64 *base, u64 *size);

/* The node that handles node's interrupts (interrupt-parent, walking up). */
int fdt_interrupt_parent(const void *fdt, int node);

/* ---- Boot -------------------------------------------------------------- */

/*
 * Check the blob and fill the device-tree parts of *bi: memory, reserved
 * ranges, command line, initrd, console UART, CPUs, PSCI, GIC, timer,
 * dma-ranges, model. Returns 0 or a negative errno (reason logged with
 * pr_err). Tables that overflow set bi->truncated.
 */
int fdt_fill_boot_info(const void *fdt, size_t max_size, struct boot_info *bi);

#endif
