// SPDX-License-Identifier: MIT
/*
 * The initramfs's file table: what the cpio archives (lib/cpio.c) name,
 * read in place, as Linux's unpacking into its rootfs would leave it.
 *   - Archives are taken in turn; a later name replaces an earlier one. A
 *     file over a file writes into it, hard links and all (Linux opens it
 *     with O_TRUNC); anything else takes the name, and the old file's
 *     other names keep it (Linux unlinks the name first).
 *   - Hard links: entries of one archive with the same inode number and
 *     device, nlink of 2 or more, are one file. GNU cpio stores the data
 *     with the last of them and none with the others; whichever entry
 *     has data gives it to all (Linux links each later name to the first
 *     and writes the data into the shared inode).
 *   - Symbolic links: the entry's data is the target. Lookups follow them,
 *     in the middle of a path too, relative to the link's directory, up
 *     to 40 times (Linux's limit) before giving up.
 *   - "." and empty names are the root itself: nothing to list.
 * Pure code: the host runs it under ASan and UBSan.
 */
#include <pagoda/cpio.h>
#include <pagoda/printk.h>
#include <pagoda/ramfs.h>
#include <pagoda/string.h>

#define MAX_SYMLINKS 40

static bool is_type(const struct ramfs_file *f, u32 type)
{
	return (f->mode & CPIO_S_IFMT) == type;
}

/* The name as the table keeps it: no "./" or "/" in front. */
static const char *clean_name(const char *name)
{
	for (;;) {
		if (name[0] == '.' && name[1] == '/')
			name += 2;
		else if (name[0] == '/')
			name++;
		else
			return name;
	}
}

static struct ramfs_file *find_len(struct ramfs *fs, const char *path, size_t len)
{
	for (unsigned int i = 0; i < fs->nr; i++)
		if (!strncmp(fs->files[i].path, path, len) && fs->files[i].path[len] == '\0')
			return &fs->files[i];
	return NULL;
}

/* The earlier name of this hard-linked file in the same archive, if any. */
static struct ramfs_file *link_of(struct ramfs *fs, const struct cpio_entry *e)
{
	if (e->nlink < 2)
		return NULL;
	for (unsigned int i = 0; i < fs->nr; i++) {
		struct ramfs_file *f = &fs->files[i];

		if (f->archive == fs->archives && f->nlink >= 2 && f->cpio_ino == e->ino &&
		    f->dev_major == e->dev_major && f->dev_minor == e->dev_minor &&
		    f->mode == e->mode)
			return f;
	}
	return NULL;
}

/*
 * f's name is about to be another file (Linux unlinks it first): its
 * other hard links keep the old file, with one of them as its identity.
 */
static void unlink_name(struct ramfs *fs, struct ramfs_file *f)
{
	struct ramfs_file *head = NULL;

	for (unsigned int i = 0; i < fs->nr; i++) {
		struct ramfs_file *g = &fs->files[i];

		if (g == f || g->inode != f)
			continue;
		if (!head)
			head = g;
		g->inode = head;
	}
}

static void add(struct ramfs *fs, const struct cpio_entry *e)
{
	const char *name = clean_name(e->name);
	struct ramfs_file *f, *first = NULL;

	if (!name[0] || !strcmp(name, "."))
		return;
	if (is_type(&(struct ramfs_file){ .mode = e->mode }, CPIO_S_IFREG))
		first = link_of(fs, e);
	f = find_len(fs, name, strlen(name));
	if (f && !first && is_type(f, CPIO_S_IFREG) &&
	    is_type(&(struct ramfs_file){ .mode = e->mode }, CPIO_S_IFREG)) {
		/*
		 * A file over a file: Linux opens the old one with O_TRUNC
		 * and writes, so every hard link of it sees the new data.
		 */
		const struct ramfs_file *inode = f->inode;

		for (unsigned int i = 0; i < fs->nr; i++)
			if (fs->files[i].inode == inode) {
				fs->files[i].data = e->data;
				fs->files[i].size = e->size;
				fs->files[i].mode = e->mode;
			}
		/* this archive's later names of it link to it */
		f->nlink = e->nlink ? e->nlink : 1;
		f->cpio_ino = e->ino;
		f->dev_major = e->dev_major;
		f->dev_minor = e->dev_minor;
		f->archive = fs->archives;
		return;
	}
	if (f) {
		unlink_name(fs, f);
	} else {
		if (fs->nr == RAMFS_MAX_FILES) {
			pr_warn("initramfs: more than %d files; %s left out\n", RAMFS_MAX_FILES,
				name);
			return;
		}
		f = &fs->files[fs->nr++];
	}
	*f = (struct ramfs_file){
		.path = name, .data = e->data, .size = e->size, .mode = e->mode,
		.nlink = e->nlink ? e->nlink : 1, .cpio_ino = e->ino,
		.dev_major = e->dev_major, .dev_minor = e->dev_minor, .archive = fs->archives,
	};
	f->inode = f;
	if (!first || first == f)
		return;
	f->inode = first->inode;
	if (!e->size) {
		/* a name without the data: the file's, as stored so far */
		f->data = first->data;
		f->size = first->size;
		return;
	}
	/* the data for every name of the file */
	for (unsigned int i = 0; i < fs->nr; i++)
		if (fs->files[i].inode == f->inode) {
			fs->files[i].data = e->data;
			fs->files[i].size = e->size;
		}
}

int ramfs_load(struct ramfs *fs, const void *buf, size_t size, const char *what)
{
	struct cpio_iter it;
	struct cpio_entry e;
	const char *why;
	unsigned int n = 0, archives = 0;
	int r;

	cpio_iter_init(&it, buf, size);
	fs->archives++;
	while ((r = cpio_next(&it, &e, &why)) > 0) {
		if (r == CPIO_TRAILER) {
			/* hard links do not reach into the next archive */
			fs->archives++;
			archives++;
			continue;
		}
		add(fs, &e);
		n++;
	}
	if (r < 0) {
		pr_err("initramfs: %s: %s at byte %zu; the %u entries before it are kept\n", what,
		       why, it.pos, n);
		return r;
	}
	pr_info("initramfs: %s: %u entries in %u archive%s\n", what, n, MAX(archives, 1u),
		archives > 1 ? "s" : "");
	return 0;
}

/*
 * rest becomes the link f's target, taken from the link's directory
 * (dir_path, the path so far up to the link) unless it is absolute,
 * followed by tail, what was left of the path; false if that is too long.
 */
static bool splice_link(char *rest, const char *dir_path, const struct ramfs_file *f,
			const char *tail)
{
	char next[RAMFS_PATH_MAX];
	const char *target = f->data, *slash = strrchr(dir_path, '/');
	size_t tlen = (size_t)f->size, left = strlen(tail);
	size_t dir = (tlen && target[0] == '/') || !slash ? 0 : (size_t)(slash - dir_path);

	if (dir + 1 + tlen + left >= sizeof(next))
		return false;
	memcpy(next, dir_path, dir);
	next[dir] = '/';
	memcpy(next + dir + 1, target, tlen);
	memcpy(next + dir + 1 + tlen, tail, left + 1);
	memcpy(rest, next, dir + 1 + tlen + left + 1);
	return true;
}

/*
 * path with the symbolic links in it followed, into out (RAMFS_PATH_MAX):
 * false if it is too long or loops. Components "." and ".." are resolved
 * as the walk goes ("/.." is "/").
 */
static bool walk(struct ramfs *fs, const char *path, char *out, bool follow_last)
{
	char rest[RAMFS_PATH_MAX];
	size_t len = 0;
	int hops = 0;

	if (strlen(path) >= sizeof(rest))
		return false;
	memcpy(rest, path, strlen(path) + 1);
	out[0] = '\0';
	for (char *p = rest; *p;) {
		struct ramfs_file *f;
		const char *comp;
		size_t clen;

		while (*p == '/')
			p++;
		if (!*p)
			break;
		comp = p;
		clen = strchr(p, '/') ? (size_t)(strchr(p, '/') - p) : strlen(p);
		p += clen;
		if (clen == 1 && comp[0] == '.')
			continue;
		if (clen == 2 && comp[0] == '.' && comp[1] == '.') {
			char *up = strrchr(out, '/');

			len = up ? (size_t)(up - out) : 0;
			out[len] = '\0';
			continue;
		}
		if (len + !!len + clen >= RAMFS_PATH_MAX)
			return false;
		if (len)
			out[len++] = '/';
		memcpy(out + len, comp, clen);
		len += clen;
		out[len] = '\0';
		f = find_len(fs, out, len);
		if (!f || !is_type(f, CPIO_S_IFLNK) || (!*p && !follow_last))
			continue;
		/* a link: its target, then what was left of the path */
		if (++hops > MAX_SYMLINKS || !splice_link(rest, out, f, p))
			return false;
		p = rest;
		len = 0;
		out[0] = '\0';
	}
	return true;
}

const struct ramfs_file *ramfs_find(struct ramfs *fs, const char *path, bool follow)
{
	char resolved[RAMFS_PATH_MAX];

	if (!walk(fs, path, resolved, follow))
		return NULL;
	return resolved[0] ? find_len(fs, resolved, strlen(resolved)) : NULL;
}
