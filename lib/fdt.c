// SPDX-License-Identifier: MIT
/*
 * Flattened device tree reader: validation, then walking nodes and
 * properties. See include/pagoda/fdt.h for the API and docs/fdt.md for the
 * format.
 *
 * Every read of the structure block goes through next_token(), which
 * bounds-checks the token it decodes, so the walkers below cannot leave the
 * block even on a blob fdt_check() would refuse. fdt_check() uses the same
 * function and adds the rules that make the tree well formed (balanced
 * nodes, one root, FDT_END last).
 */
#include <pagoda/fdt.h>
#include <pagoda/string.h>

/* Structure block tokens. */
#define FDT_BEGIN_NODE 1
#define FDT_END_NODE 2
#define FDT_PROP 3
#define FDT_NOP 4
#define FDT_END 9
#define FDT_BAD 0	/* not a token: next_token() found a malformed one */

/* Header fields, as 32-bit word indices. */
enum {
	H_MAGIC, H_TOTALSIZE, H_OFF_STRUCT, H_OFF_STRINGS, H_OFF_RSVMAP,
	H_VERSION, H_LAST_COMP, H_BOOT_CPUID, H_SIZE_STRINGS, H_SIZE_STRUCT,
};
#define HDR_SIZE_V16 36	/* version 16 has no size_dt_struct */
#define HDR_SIZE_V17 40
/* Offsets are ints; a DTB is a few KiB, so this limit costs nothing. */
#define FDT_MAX_TOTALSIZE (64U << 20)

static u32 hdr(const void *fdt, int field)
{
	return fdt32_ld((const u8 *)fdt + 4 * field);
}

u32 fdt_totalsize(const void *fdt) { return hdr(fdt, H_TOTALSIZE); }
u32 fdt_version(const void *fdt) { return hdr(fdt, H_VERSION); }
u32 fdt_boot_cpuid(const void *fdt) { return hdr(fdt, H_BOOT_CPUID); }

/* Where the two blocks are; both empty when the header is inconsistent. */
struct blocks {
	const u8 *st;	/* structure block */
	u32 st_size;
	const char *str;	/* strings block */
	u32 str_size;
};

static struct blocks get_blocks(const void *fdt)
{
	struct blocks b = { fdt, 0, fdt, 0 };
	u64 total = hdr(fdt, H_TOTALSIZE);
	u64 off_st = hdr(fdt, H_OFF_STRUCT), off_str = hdr(fdt, H_OFF_STRINGS);
	u64 st_size, str_size = hdr(fdt, H_SIZE_STRINGS);

	if (hdr(fdt, H_VERSION) >= 17)
		st_size = hdr(fdt, H_SIZE_STRUCT);
	else
		st_size = off_st <= total ? total - off_st : 0;
	if (total > FDT_MAX_TOTALSIZE || off_st + st_size > total ||
	    off_str + str_size > total)
		return b;
	b.st = (const u8 *)fdt + off_st;
	b.st_size = (u32)st_size;
	b.str = (const char *)fdt + off_str;
	b.str_size = (u32)str_size;
	return b;
}

/*
 * Decode the token at off and set *next to the offset of the one after it.
 * Returns the token, or FDT_BAD with *why set when it does not fit in the
 * blocks: a name running off the end, a property longer than what is left,
 * a name offset outside the strings block.
 */
static u32 next_token(const struct blocks *b, u32 off, u32 *next,
		      const char **why)
{
	u32 tag, len, nameoff;
	size_t n;

	if (off > b->st_size || b->st_size - off < 4) {
		*why = "structure block ends without FDT_END";
		return FDT_BAD;
	}
	tag = fdt32_ld(b->st + off);
	off += 4;
	switch (tag) {
	case FDT_BEGIN_NODE:
		n = strnlen((const char *)b->st + off, b->st_size - off);
		if (n == b->st_size - off) {
			*why = "node name runs off the structure block";
			return FDT_BAD;
		}
		off = ALIGN_UP(off + (u32)n + 1, 4);
		break;
	case FDT_PROP:
		if (b->st_size - off < 8) {
			*why = "property header runs off the structure block";
			return FDT_BAD;
		}
		len = fdt32_ld(b->st + off);
		nameoff = fdt32_ld(b->st + off + 4);
		off += 8;
		if (len > b->st_size - off) {
			*why = "property length runs off the structure block";
			return FDT_BAD;
		}
		if (nameoff >= b->str_size) {
			*why = "property name offset is past the strings block";
			return FDT_BAD;
		}
		if (!memchr(b->str + nameoff, 0, b->str_size - nameoff)) {
			*why = "property name is not terminated in the strings block";
			return FDT_BAD;
		}
		off = ALIGN_UP(off + len, 4);
		break;
	case FDT_END_NODE:
	case FDT_NOP:
	case FDT_END:
		break;
	default:
		*why = "unknown token in the structure block";
		return FDT_BAD;
	}
	*next = off;
	return tag;
}

/* next_token() for the accessors, which only need to stop on bad input. */
static u32 token(const struct blocks *b, int off, u32 *next)
{
	const char *why;

	if (off < 0)
		return FDT_BAD;
	return next_token(b, (u32)off, next, &why);
}

/* ---- Validation ------------------------------------------------------- */

static int check_header(const void *fdt, size_t max_size, const char **why)
{
	u32 total, version, hsize, off, size;

	if (!fdt) {
		*why = "no device tree (NULL pointer)";
		return -EINVAL;
	}
	if (max_size < HDR_SIZE_V16) {
		*why = "smaller than a device tree header";
		return -EINVAL;
	}
	if (hdr(fdt, H_MAGIC) != FDT_MAGIC) {
		*why = "bad magic (not a device tree blob)";
		return -EINVAL;
	}
	version = hdr(fdt, H_VERSION);
	if (version < 16) {
		*why = "version older than 16";
		return -EINVAL;
	}
	if (hdr(fdt, H_LAST_COMP) > 17) {
		*why = "last compatible version is newer than 17";
		return -EINVAL;
	}
	hsize = version >= 17 ? HDR_SIZE_V17 : HDR_SIZE_V16;
	total = hdr(fdt, H_TOTALSIZE);
	if (max_size < hsize || total < hsize) {
		*why = "totalsize is smaller than the header";
		return -EINVAL;
	}
	if (total > max_size) {
		*why = "totalsize is larger than the memory holding the blob";
		return -EINVAL;
	}
	if (total > FDT_MAX_TOTALSIZE) {
		*why = "totalsize is implausibly large (over 64 MiB)";
		return -EINVAL;
	}

	off = hdr(fdt, H_OFF_STRUCT);
	size = version >= 17 ? hdr(fdt, H_SIZE_STRUCT) : total - MIN(off, total);
	if (off < hsize || !IS_ALIGNED(off, 4) ||
	    (version >= 17 && !IS_ALIGNED(size, 4))) {
		*why = "structure block is misaligned or overlaps the header";
		return -EINVAL;
	}
	if ((u64)off + size > total) {
		*why = "structure block extends past totalsize";
		return -EINVAL;
	}
	off = hdr(fdt, H_OFF_STRINGS);
	size = hdr(fdt, H_SIZE_STRINGS);
	if (off < hsize) {
		*why = "strings block overlaps the header";
		return -EINVAL;
	}
	if ((u64)off + size > total) {
		*why = "strings block extends past totalsize";
		return -EINVAL;
	}
	return 0;
}

/* The reserve map: 16-byte (address, size) pairs ending in a (0, 0) pair. */
static int check_rsvmap(const void *fdt, const char **why)
{
	u32 total = hdr(fdt, H_TOTALSIZE), off = hdr(fdt, H_OFF_RSVMAP);
	u32 hsize = hdr(fdt, H_VERSION) >= 17 ? HDR_SIZE_V17 : HDR_SIZE_V16;
	const u8 *p = fdt;

	if (off < hsize || !IS_ALIGNED(off, 8)) {
		*why = "memory reserve map is misaligned or overlaps the header";
		return -EINVAL;
	}
	for (;; off += 16) {
		u64 base, size;

		if (off > total || total - off < 16) {
			*why = "memory reserve map has no terminating entry";
			return -EINVAL;
		}
		base = fdt64_ld(p + off);
		size = fdt64_ld(p + off + 8);
		if (!base && !size)
			return 0;
		if (base + size < base) {
			*why = "memory reserve map entry wraps around the address space";
			return -EINVAL;
		}
	}
}

/*
 * Walk the whole token stream once: one root node, BEGIN/END_NODE balanced,
 * properties inside nodes and before their subnodes, FDT_END after the root.
 */
static int check_structure(const void *fdt, const char **why)
{
	struct blocks b = get_blocks(fdt);
	u32 off = 0, next, tag;
	int depth = 0;
	bool seen_root = false;
	u64 has_child = 0;	/* bit d: the open node at depth d has a subnode */

	for (;; off = next) {
		tag = next_token(&b, off, &next, why);
		switch (tag) {
		case FDT_BAD:
			return -EINVAL;
		case FDT_BEGIN_NODE:
			if (depth == 0 && seen_root) {
				*why = "more than one root node";
				return -EINVAL;
			}
			if (depth > 0 && b.st[off + 4] == '\0') {
				*why = "node with an empty name";
				return -EINVAL;
			}
			if (depth == FDT_MAX_DEPTH) {
				*why = "nodes nested too deep";
				return -EINVAL;
			}
			if (depth > 0)
				has_child |= 1ULL << depth;
			depth++;
			has_child &= ~(1ULL << depth);
			seen_root = true;
			break;
		case FDT_END_NODE:
			if (depth == 0) {
				*why = "FDT_END_NODE without a matching FDT_BEGIN_NODE";
				return -EINVAL;
			}
			depth--;
			break;
		case FDT_PROP:
			if (depth == 0) {
				*why = "property outside any node";
				return -EINVAL;
			}
			if (has_child & (1ULL << depth)) {
				*why = "property after a subnode";
				return -EINVAL;
			}
			break;
		case FDT_NOP:
			break;
		case FDT_END:
			if (!seen_root) {
				*why = "no root node";
				return -EINVAL;
			}
			if (depth) {
				*why = "FDT_END inside an open node (unbalanced nodes)";
				return -EINVAL;
			}
			if (hdr(fdt, H_VERSION) >= 17 && next != b.st_size) {
				*why = "data after FDT_END in the structure block";
				return -EINVAL;
			}
			return 0;
		}
	}
}

int fdt_check(const void *fdt, size_t max_size, const char **why)
{
	const char *dummy;
	int err;

	if (!why)
		why = &dummy;
	*why = NULL;
	err = check_header(fdt, max_size, why);
	if (!err)
		err = check_rsvmap(fdt, why);
	if (!err)
		err = check_structure(fdt, why);
	return err;
}

int fdt_mem_rsv(const void *fdt, int i, u64 *base, u64 *size)
{
	u32 total = hdr(fdt, H_TOTALSIZE), off = hdr(fdt, H_OFF_RSVMAP);
	const u8 *p = fdt;

	if (i < 0)
		return -ENOENT;
	/* Walk from the start: an entry after the terminator does not count. */
	for (int k = 0;; k++, off += 16) {
		if (off > total || total - off < 16)
			return -ENOENT;
		*base = fdt64_ld(p + off);
		*size = fdt64_ld(p + off + 8);
		if (!*base && !*size)
			return -ENOENT;
		if (k == i)
			return 0;
	}
}

/* ---- Nodes ------------------------------------------------------------ */

int fdt_root(const void *fdt)
{
	struct blocks b = get_blocks(fdt);
	u32 off = 0, next, tag;

	while ((tag = token(&b, (int)off, &next)) == FDT_NOP)
		off = next;
	return tag == FDT_BEGIN_NODE ? (int)off : -ENOENT;
}

int fdt_next_node(const void *fdt, int node, int *depth)
{
	struct blocks b = get_blocks(fdt);
	int local = 0;
	u32 off, next;

	if (!depth)
		depth = &local;
	if (token(&b, node, &next) != FDT_BEGIN_NODE)
		return -EINVAL;
	/* Each token moves off forward by at least 4 bytes: this ends. */
	for (off = next;; off = next) {
		switch (token(&b, (int)off, &next)) {
		case FDT_BEGIN_NODE:
			(*depth)++;
			return (int)off;
		case FDT_END_NODE:
			(*depth)--;
			break;
		case FDT_PROP:
		case FDT_NOP:
			break;
		default:
			return -ENOENT;
		}
	}
}

int fdt_first_child(const void *fdt, int node)
{
	int depth = 0, n = fdt_next_node(fdt, node, &depth);

	return n >= 0 && depth == 1 ? n : -ENOENT;
}

int fdt_next_sibling(const void *fdt, int node)
{
	int depth = 0;

	/* Skip the node's own subtree; stop where we are back at its level. */
	do
		node = fdt_next_node(fdt, node, &depth);
	while (node >= 0 && depth > 0);
	return node >= 0 && depth == 0 ? node : -ENOENT;
}

int fdt_parent(const void *fdt, int node)
{
	int stack[FDT_MAX_DEPTH + 1];
	int depth = 0;

	for (int n = fdt_root(fdt); n >= 0; n = fdt_next_node(fdt, n, &depth)) {
		if (depth < 0 || depth > FDT_MAX_DEPTH)
			return -EINVAL;
		stack[depth] = n;
		if (n == node)
			return depth ? stack[depth - 1] : -ENOENT;
	}
	return -ENOENT;
}

const char *fdt_node_name(const void *fdt, int node)
{
	struct blocks b = get_blocks(fdt);
	u32 next;

	if (token(&b, node, &next) != FDT_BEGIN_NODE)
		return NULL;
	return (const char *)b.st + node + 4;
}

/* Does node name `name` match the path component comp[0..len)? */
static bool name_matches(const char *name, const char *comp, size_t len)
{
	if (strncmp(name, comp, len) != 0)
		return false;
	if (name[len] == '\0')
		return true;
	return name[len] == '@' && !memchr(comp, '@', len);
}

static int child_named(const void *fdt, int parent, const char *comp,
		       size_t len)
{
	int child;

	fdt_for_each_child(fdt, parent, child)
		if (name_matches(fdt_node_name(fdt, child), comp, len))
			return child;
	return -ENOENT;
}

/* The alias name[0..len) from /aliases, which must be an absolute path. */
static int alias_node(const void *fdt, const char *name, size_t len)
{
	int aliases = child_named(fdt, fdt_root(fdt), "aliases", 7);
	struct fdt_prop p;
	int off;

	if (aliases < 0)
		return -ENOENT;
	for (off = fdt_first_prop(fdt, aliases, &p); off >= 0;
	     off = fdt_next_prop(fdt, off, &p)) {
		if (strncmp(p.name, name, len) != 0 || p.name[len] != '\0')
			continue;
		/* Only absolute targets: an alias cannot lead to another. */
		if (!p.len || ((const char *)p.data)[0] != '/' ||
		    !memchr(p.data, 0, p.len))
			return -EINVAL;
		return fdt_path_offset(fdt, p.data);
	}
	return -ENOENT;
}

int fdt_path_offset(const void *fdt, const char *path)
{
	const char *p = path, *end;
	int node;

	/* The path stops at ':' (stdout-path's options follow it). */
	for (end = path; *end && *end != ':'; end++)
		;
	if (*p != '/') {
		const char *slash = memchr(p, '/', (size_t)(end - p));
		const char *alias_end = slash ? slash : end;

		if (alias_end == p)
			return -EINVAL;
		node = alias_node(fdt, p, (size_t)(alias_end - p));
		p = alias_end;
	} else {
		node = fdt_root(fdt);
	}
	while (node >= 0 && p < end) {
		const char *c;

		while (p < end && *p == '/')
			p++;
		if (p == end)
			break;
		for (c = p; c < end && *c != '/'; c++)
			;
		node = child_named(fdt, node, p, (size_t)(c - p));
		p = c;
	}
	return node;
}

int fdt_node_by_compatible(const void *fdt, int from, const char *compat)
{
	int n = from < 0 ? fdt_root(fdt) : fdt_next_node(fdt, from, NULL);

	for (; n >= 0; n = fdt_next_node(fdt, n, NULL))
		if (fdt_node_is_compatible(fdt, n, compat))
			return n;
	return -ENOENT;
}

int fdt_node_by_phandle(const void *fdt, u32 ph)
{
	u32 v;

	if (ph == 0 || ph == 0xffffffffU)
		return -ENOENT;
	for (int n = fdt_root(fdt); n >= 0; n = fdt_next_node(fdt, n, NULL)) {
		if ((fdt_read_u32(fdt, n, "phandle", &v) == 0 ||
		     fdt_read_u32(fdt, n, "linux,phandle", &v) == 0) && v == ph)
			return n;
	}
	return -ENOENT;
}

bool fdt_node_enabled(const void *fdt, int node)
{
	u32 len;
	const char *s = fdt_getprop(fdt, node, "status", &len);

	if (!s)
		return true;
	return (len == 5 && !memcmp(s, "okay", 5)) ||
	       (len == 3 && !memcmp(s, "ok", 3));
}

/* ---- Properties --------------------------------------------------------- */

/* The first property at or after off (skipping NOPs), or -ENOENT. */
static int prop_from(const void *fdt, u32 off, struct fdt_prop *p)
{
	struct blocks b = get_blocks(fdt);
	u32 next, tag;

	while ((tag = token(&b, (int)off, &next)) == FDT_NOP)
		off = next;
	if (tag != FDT_PROP)
		return -ENOENT;
	p->len = fdt32_ld(b.st + off + 4);
	p->name = b.str + fdt32_ld(b.st + off + 8);
	p->data = b.st + off + 12;
	return (int)off;
}

/* The first property after the token at off, which must be a tag: or -EINVAL. */
static int prop_after(const void *fdt, int off, u32 tag, struct fdt_prop *p)
{
	struct blocks b = get_blocks(fdt);
	u32 next;

	if (token(&b, off, &next) != tag)
		return -EINVAL;
	return prop_from(fdt, next, p);
}

int fdt_first_prop(const void *fdt, int node, struct fdt_prop *p)
{
	return prop_after(fdt, node, FDT_BEGIN_NODE, p);
}

int fdt_next_prop(const void *fdt, int prop, struct fdt_prop *p)
{
	return prop_after(fdt, prop, FDT_PROP, p);
}

const void *fdt_getprop(const void *fdt, int node, const char *name, u32 *len)
{
	struct fdt_prop p;

	for (int off = fdt_first_prop(fdt, node, &p); off >= 0;
	     off = fdt_next_prop(fdt, off, &p)) {
		if (strcmp(p.name, name) == 0) {
			if (len)
				*len = p.len;
			return p.data;
		}
	}
	return NULL;
}

int fdt_read_u32(const void *fdt, int node, const char *name, u32 *out)
{
	u32 len;
	const void *p = fdt_getprop(fdt, node, name, &len);

	if (!p)
		return -ENOENT;
	if (len != 4)
		return -EINVAL;
	*out = fdt32_ld(p);
	return 0;
}

int fdt_read_u64(const void *fdt, int node, const char *name, u64 *out)
{
	u32 len;
	const void *p = fdt_getprop(fdt, node, name, &len);

	if (!p)
		return -ENOENT;
	if (len != 4 && len != 8)
		return -EINVAL;
	*out = fdt_cells(p, (int)len / 4);
	return 0;
}

const char *fdt_getprop_str(const void *fdt, int node, const char *name)
{
	u32 len;
	const char *s = fdt_getprop(fdt, node, name, &len);

	return s && memchr(s, 0, len) ? s : NULL;
}

u64 fdt_cells(const void *p, int n)
{
	u64 v = 0;

	for (int i = 0; i < n; i++)
		v = v << 32 | fdt32_ld((const u8 *)p + 4 * i);
	return v;
}

/*
 * Call-free walk over a string list: returns the start of string i, or of
 * the end when the list has fewer; NULL when a string is unterminated.
 */
static const char *stringlist_walk(const void *data, u32 len, int i, int *count)
{
	const char *s = data;
	u32 pos = 0;
	int n = 0;

	while (pos < len) {
		const char *nul = memchr(s + pos, 0, len - pos);

		if (!nul)
			return NULL;
		if (n == i)
			return s + pos;
		pos = (u32)(nul - s) + 1;
		n++;
	}
	*count = n;
	return s + pos;
}

int fdt_stringlist_count(const void *data, u32 len)
{
	int count = 0;

	if (!data)
		return -ENOENT;
	if (!stringlist_walk(data, len, -1, &count))
		return -EINVAL;
	return count;
}

const char *fdt_stringlist_get(const void *data, u32 len, int i)
{
	int count = -1;
	const char *s;

	if (!data || i < 0)
		return NULL;
	s = stringlist_walk(data, len, i, &count);
	/* count is set only when the walk ran past the last string. */
	return count >= 0 ? NULL : s;
}

bool fdt_stringlist_contains(const void *data, u32 len, const char *s)
{
	const char *item;

	for (int i = 0; (item = fdt_stringlist_get(data, len, i)); i++)
		if (strcmp(item, s) == 0)
			return true;
	return false;
}

bool fdt_node_is_compatible(const void *fdt, int node, const char *compat)
{
	u32 len;
	const void *list = fdt_getprop(fdt, node, "compatible", &len);

	return list && fdt_stringlist_contains(list, len, compat);
}

/* ---- Addresses ----------------------------------------------------------- */

static int read_cells(const void *fdt, int node, const char *name, int dflt)
{
	u32 v;
	int err = fdt_read_u32(fdt, node, name, &v);

	if (err == -ENOENT)
		return dflt;
	if (err || v > 4)
		return -EINVAL;
	return (int)v;
}

int fdt_address_cells(const void *fdt, int node)
{
	return read_cells(fdt, node, "#address-cells", 2);
}

int fdt_size_cells(const void *fdt, int node)
{
	return read_cells(fdt, node, "#size-cells", 1);
}

/* The reg of node under parent: its data and the cells of one entry. */
static const u8 *reg_layout(const void *fdt, int node, int parent, int *ac,
			    int *sc, int *count)
{
	u32 len;
	const u8 *reg;

	*ac = fdt_address_cells(fdt, parent);
	*sc = fdt_size_cells(fdt, parent);
	/* We return numbers in a u64: more than two cells would be cut. */
	if (*ac < 1 || *ac > 2 || *sc < 0 || *sc > 2)
		return NULL;
	reg = fdt_getprop(fdt, node, "reg", &len);
	if (!reg || len % (4 * (u32)(*ac + *sc)))
		return NULL;
	*count = (int)(len / (4 * (u32)(*ac + *sc)));
	return reg;
}

int fdt_reg_count(const void *fdt, int node)
{
	int ac, sc, count, parent = fdt_parent(fdt, node);

	if (parent < 0)
		return -EINVAL;
	if (!fdt_getprop(fdt, node, "reg", NULL))
		return -ENOENT;
	if (!reg_layout(fdt, node, parent, &ac, &sc, &count))
		return -EINVAL;
	return count;
}

int fdt_reg(const void *fdt, int node, int i, u64 *base, u64 *size)
{
	int ac, sc, count, parent = fdt_parent(fdt, node);
	const u8 *reg;

	if (parent < 0)
		return -EINVAL;
	if (!fdt_getprop(fdt, node, "reg", NULL))
		return -ENOENT;
	reg = reg_layout(fdt, node, parent, &ac, &sc, &count);
	if (!reg)
		return -EINVAL;
	if (i < 0 || i >= count)
		return -ENOENT;
	reg += (size_t)i * 4 * (size_t)(ac + sc);
	*base = fdt_cells(reg, ac);
	*size = fdt_cells(reg + 4 * ac, sc);
	return 0;
}

/*
 * One step up: map addr from node's child bus to node's parent's bus via
 * node's ranges, a list of (child address, parent address, size).
 */
static int translate_one(const void *fdt, int node, int parent, u64 *addr)
{
	int cac = fdt_address_cells(fdt, node), csc = fdt_size_cells(fdt, node);
	int pac = fdt_address_cells(fdt, parent);
	u32 len, entry;
	const u8 *r = fdt_getprop(fdt, node, "ranges", &len);

	if (!r)
		return -ERANGE;	/* no ranges: this bus is not mapped */
	if (len == 0)
		return 0;	/* empty ranges: the identity */
	if (cac < 1 || cac > 2 || pac < 1 || pac > 2 || csc < 1 || csc > 2)
		return -EINVAL;
	entry = 4 * (u32)(cac + pac + csc);
	if (len % entry)
		return -EINVAL;
	for (; len; len -= entry, r += entry) {
		u64 child = fdt_cells(r, cac);
		u64 to = fdt_cells(r + 4 * cac, pac);
		u64 size = fdt_cells(r + 4 * (cac + pac), csc);

		if (*addr >= child && *addr - child < size) {
			*addr = to + (*addr - child);
			return 0;
		}
	}
	return -ERANGE;
}

int fdt_translate(const void *fdt, int parent, u64 *addr)
{
	int root = fdt_root(fdt), node = parent;

	/* Each step goes to a parent, so at most FDT_MAX_DEPTH steps. */
	while (node >= 0 && node != root) {
		int up = fdt_parent(fdt, node);
		int err;

		if (up < 0)
			return -EINVAL;
		err = translate_one(fdt, node, up, addr);
		if (err)
			return err;
		node = up;
	}
	return node == root ? 0 : -EINVAL;
}

int fdt_reg_cpu(const void *fdt, int node, int i, u64 *base, u64 *size)
{
	u64 b, s;
	int err = fdt_reg(fdt, node, i, &b, &s);

	if (!err)
		err = fdt_translate(fdt, fdt_parent(fdt, node), &b);
	if (err)
		return err;	/* *base and *size untouched */
	*base = b;
	*size = s;
	return 0;
}

int fdt_interrupt_parent(const void *fdt, int node)
{
	u32 ph;

	/*
	 * interrupt-parent names it by phandle; without one it is the tree
	 * parent. Either way, the walk goes on until a node that is an
	 * interrupt controller (#interrupt-cells). Bounded against phandle
	 * loops.
	 */
	for (int steps = 0; steps < 2 * FDT_MAX_DEPTH; steps++) {
		int p;

		if (fdt_read_u32(fdt, node, "interrupt-parent", &ph) == 0)
			p = fdt_node_by_phandle(fdt, ph);
		else
			p = fdt_parent(fdt, node);
		if (p < 0)
			return -ENOENT;
		if (fdt_getprop(fdt, p, "#interrupt-cells", NULL))
			return p;
		node = p;
	}
	return -EINVAL;
}
