// SPDX-License-Identifier: MIT
/*
 * libFuzzer on the initramfs reader (lib/cpio.c), its file table
 * (lib/ramfs.c) and the file system programs see on it (fs/rootfs.c):
 * the input is the boot's archives, loaded as kernel/initramfs.c's
 * load_all() does (the built-in archive, then a boot module if it starts
 * with the newc magic; Linux's populate_rootfs() unpacking the built-in
 * and then the initrd). Whatever the bytes:
 *  - loading ends, and every file the table holds lies inside the input;
 *  - every lookup ends: of each name in the table, followed and not, and
 *    of each symbolic link's target, however the links loop;
 *  - stat, readlink, open and getdents (rootfs_fs_type, Linux's
 *    vfs_getattr(), vfs_readlink(), do_filp_open() and iterate_dir())
 *    agree with the table: stat of a name without following is that
 *    name's file, readlink gives a link's target and -EINVAL for anything
 *    else, opening for writing is -EROFS, and a directory lists only its
 *    own children, each once, by their last component;
 *  - exec of every executable file ends (kernel/exec_file.c's
 *    open_initramfs(), then exec's readers on the file's bytes: a "#!"
 *    line's interpreter looked up and read in turn, fs/binfmt_script.c;
 *    an ELF program checked by lib/elf.c, its loader (PT_INTERP) looked
 *    up and checked too; Linux's search_binary_handler()).
 * Byte 0 picks: bit 0, a valid newc header in front (so mutations reach
 * past the magic into names and links); bit 1, the input is two
 * archives, cut where bits 2-7 say (in 64ths), the second a boot module.
 * `make fuzz-cpio` runs it FUZZ_SECONDS.
 */
#include <pagoda/cpio.h>
#include <pagoda/elf.h>
#include <pagoda/file.h>
#include <pagoda/fs.h>
#include <pagoda/initramfs.h>
#include <pagoda/params.h>
#include <pagoda/slab.h>
#include <pagoda/string.h>

#include "../../fs/internal.h"

#include "fuzz.h"

extern void *calloc(unsigned long n, unsigned long size);
int script_args(const char *data, u64 size, const char *path, int argc,
		const char *const *argv, int max_args, char ***nargv, int *nargc);

#define TASK_SIZE 0x00007ffffffff000ULL /* x86-64's user space */
#define MAX_ARGS 64                     /* kernel/exec.c's */

static struct ramfs fs;

/* kernel/initramfs.c's three, on this input's table. */
const struct ramfs_file *ramfs_lookup(const char *path)
{
	return ramfs_find(&fs, path, true);
}

const struct ramfs_file *ramfs_lookup_nofollow(const char *path)
{
	return ramfs_find(&fs, path, false);
}

void ramfs_for_each(void (*fn)(const struct ramfs_file *f, void *arg), void *arg)
{
	for (unsigned int i = 0; i < fs.nr; i++)
		fn(&fs.files[i], arg);
}

/* fs/readdir.c's buffer, here a list of the names the directory gave. */
struct dir_context {
	const char *names[RAMFS_MAX_FILES];
	size_t lens[RAMFS_MAX_FILES];
	unsigned int n;
};

int dir_emit(struct dir_context *ctx, const char *name, size_t len, u64 ino, unsigned int type)
{
	(void)ino;
	if (!len || memchr(name, '/', len) || ctx->n == RAMFS_MAX_FILES ||
	    (type != DT_DIR && type != DT_REG && type != DT_LNK && type != DT_UNKNOWN))
		abort();
	for (unsigned int i = 0; i < ctx->n; i++)
		if (ctx->lens[i] == len && !memcmp(ctx->names[i], name, len))
			abort(); /* each name once: the table has no two files of one path */
	ctx->names[ctx->n] = name;
	ctx->lens[ctx->n++] = len;
	return 0;
}

static bool inside(const void *p, u64 len, const u8 *buf, size_t size)
{
	return (const u8 *)p >= buf && len <= size && (const u8 *)p - buf <= (long)(size - len);
}

/*
 * Each name a directory lists is found under it without following the
 * last link (lookups past Linux's PATH_MAX here, RAMFS_PATH_MAX, fail;
 * ".." is the parent, listed on Linux too).
 */
static void check_listing(const char *dir, const struct dir_context *ctx)
{
	size_t dlen = strlen(dir);

	for (unsigned int i = 0; i < ctx->n; i++) {
		char child[RAMFS_PATH_MAX];
		size_t at = dlen ? dlen + 1 : 0;

		if (at + ctx->lens[i] >= sizeof(child) ||
		    (ctx->lens[i] == 2 && !memcmp(ctx->names[i], "..", 2)))
			continue;
		memcpy(child, dir, dlen);
		child[dlen] = '/';
		memcpy(child + at, ctx->names[i], ctx->lens[i]);
		child[at + ctx->lens[i]] = '\0';
		if (!ramfs_find(&fs, child, false))
			abort();
	}
}

/* What programs see of one name of the table, through the root's operations. */
static void vfs_checks(const struct ramfs_file *f)
{
	static struct dir_context ctx;
	const struct file_system_type *t = &rootfs_fs_type;
	struct kstat k;
	struct file file;
	char link[RAMFS_PATH_MAX];
	u32 type = f->mode & CPIO_S_IFMT;
	int r;

	if (t->getattr(NULL, f->path, &k, false) || k.mode != f->mode || k.size != f->size ||
	    k.nlink != f->nlink)
		abort(); /* lstat of a name is that name's file */
	if (t->getattr(NULL, f->path, &k, true) != (ramfs_lookup(f->path) ? 0 : -ENOENT))
		abort();
	r = t->readlink(NULL, f->path, link, sizeof(link));
	if (type == CPIO_S_IFLNK ? r != (int)MIN(f->size, sizeof(link)) : r != -EINVAL)
		abort();
	memset(&file, 0, sizeof(file));
	r = t->open(NULL, f->path, O_RDONLY, 0, &file);
	if (r ? r != -ENOENT || ramfs_lookup(f->path) : file.rf != ramfs_lookup(f->path))
		abort();
	if (t->open(NULL, f->path, O_WRONLY | O_CREAT, 0644, &file) != -EROFS)
		abort();
	if (type != CPIO_S_IFDIR)
		return;
	ctx.n = 0;
	if (t->readdir(NULL, f->path, &ctx))
		abort();
	check_listing(f->path, &ctx);
}

/* script_args()'s vector: the C library's allocator. */
void *kmalloc(size_t size, gfp_t gfp)
{
	(void)gfp;
	return calloc(1, size ? size : 1);
}

void kfree(const void *p)
{
	free((void *)p);
}

/* kernel/exec_file.c's may_exec(): a regular file with an execute bit. */
static const struct ramfs_file *open_exec(const char *path)
{
	const struct ramfs_file *rf = ramfs_lookup(path);

	if (!rf || (rf->mode & CPIO_S_IFMT) != CPIO_S_IFREG || !(rf->mode & 0111))
		return NULL;
	return rf;
}

/* exec_file(): a script runs its interpreter (which may not be a script), an ELF its loader. */
static void exec_checks(const char *path, bool interpreter)
{
	static const char *const argv[] = { "prog", "arg" };
	static struct elf_info info, iinfo;
	const struct ramfs_file *rf = open_exec(path), *loader;
	const char *why;
	char **v;
	int n, r;

	if (!rf)
		return;
	r = script_args(rf->data, rf->size, path, 2, argv, MAX_ARGS, &v, &n);
	if (!r) {
		if (n < 3 || strcmp(v[n - 1], "arg"))
			abort();
		if (!interpreter)
			exec_checks(v[0], true);
		kfree(v);
		return;
	}
	if (r < 0 || elf_parse(rf->data, rf->size, EM_X86_64, TASK_SIZE, &info, &why))
		return;
	if (info.nr_segments == 0 || info.entry < info.lo || info.entry >= info.hi)
		abort();
	if (!info.interp_len)
		return;
	/* find_interp(): lib/elf.c made it one string inside the file */
	loader = open_exec((const char *)rf->data + info.interp_off);
	if (loader && !elf_parse(loader->data, loader->size, EM_X86_64, TASK_SIZE, &iinfo, &why) &&
	    iinfo.nr_segments == 0)
		abort();
}

/* kernel/initramfs.c's load_module(): only an archive is read. */
static void load_module(const u8 *m, size_t size)
{
	if (size >= 6 && (!memcmp(m, "070701", 6) || !memcmp(m, "070702", 6)))
		ramfs_load(&fs, m, size, "module");
	else
		cpio_compression(m, size);
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	static const char head[] = "070701" "00000001" "000081a4" "00000000" "00000000"
				   "00000002" "00000000" "00000000" "00000000" "00000000"
				   "00000000" "00000000" "00000002" "00000000" "a\0";
	static struct dir_context root;
	static bool quiet;
	size_t hlen = sizeof(head) - 1; /* 110 + "a\0": 112, 4-aligned */
	size_t n, cut;
	u8 *buf;

	if (!quiet) {
		parse_params("loglevel=0");
		quiet = true;
	}
	if (!size)
		return 0;
	n = (data[0] & 1) ? size - 1 + hlen : size - 1;
	buf = malloc(n ? n : 1);
	if (data[0] & 1) {
		memcpy(buf, head, hlen);
		memcpy(buf + hlen, data + 1, size - 1);
	} else {
		memcpy(buf, data + 1, size - 1);
	}
	/* a module starts on a page in memory: here on a 4-byte boundary */
	cut = (data[0] & 2) ? (n * (data[0] >> 2) / 64) & ~(size_t)3 : n;
	memset(&fs, 0, sizeof(fs));
	ramfs_load(&fs, buf, cut, "built-in");
	if (cut < n)
		load_module(buf + cut, n - cut);
	if (fs.nr > RAMFS_MAX_FILES)
		abort();
	for (unsigned int i = 0; i < fs.nr; i++) {
		const struct ramfs_file *f = &fs.files[i], *g;
		char target[RAMFS_PATH_MAX];

		if (!inside(f->path, strlen(f->path) + 1, buf, n) || !inside(f->data, f->size, buf, n))
			abort();
		if (!f->inode || f->inode < fs.files || f->inode >= fs.files + fs.nr)
			abort();
		/* a name of the table is found, as itself when not followed */
		g = ramfs_find(&fs, f->path, false);
		if (g && (g < fs.files || g >= fs.files + fs.nr))
			abort();
		ramfs_find(&fs, f->path, true);
		if (f->size < sizeof(target)) {
			memcpy(target, f->data, f->size);
			target[f->size] = '\0';
			ramfs_find(&fs, target, true);
		}
		if (g == f) {
			vfs_checks(f);
			exec_checks(f->path, false);
		}
	}
	root.n = 0;
	if (rootfs_fs_type.readdir(NULL, "", &root))
		abort();
	check_listing("", &root);
	free(buf);
	return 0;
}
