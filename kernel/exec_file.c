// SPDX-License-Identifier: MIT
/*
 * Where an exec's program comes from (Linux's open_exec()): a file of the
 * initramfs, read in place and mapped from the page cache, or a file of a
 * mounted file system that can be mapped: a tmpfs file (one copied to
 * /tmp, a script written there), whose bytes are read once into a copy
 * for the loader to parse and whose pages map privately from its shared
 * memory object (mm/shmem.c), as Linux maps a program from its page
 * cache. Which one a path names is the mount's business: a tmpfs on /tmp
 * hides whatever the initramfs has under /tmp.
 */
#include <pagoda/binfmts.h>
#include <pagoda/cpio.h>
#include <pagoda/file.h>
#include <pagoda/fs.h>
#include <pagoda/initramfs.h>
#include <pagoda/ramfs.h>
#include <pagoda/shmem.h>
#include <pagoda/string.h>
#include <pagoda/vmalloc.h>

/* Linux's may_open() and do_open_execat(): root too needs an execute bit. */
static int may_exec(u32 mode, const char **why)
{
	if ((mode & CPIO_S_IFMT) != CPIO_S_IFREG) {
		*why = "not a regular file";
		return -EACCES;
	}
	if (!(mode & 0111)) {
		*why = "no execute permission";
		return -EACCES;
	}
	return 0;
}

static int open_initramfs(const char *path, struct exec_file *x, const char **why)
{
	const struct ramfs_file *rf = ramfs_lookup(path);
	int err;

	if (!rf) {
		*why = "no such file";
		return -ENOENT;
	}
	err = may_exec(rf->mode, why);
	if (err)
		return err;
	*x = (struct exec_file){ .data = rf->data, .size = rf->size, .rf = rf };
	return 0;
}

/* A mounted file system's file: its object to map, its bytes copied. */
static int open_mapped(const char *path, struct exec_file *x, const char **why)
{
	struct file *f;
	struct kstat k;
	int err = vfs_open(path, O_RDONLY, 0, &f);

	if (err) {
		*why = "no such file";
		return err;
	}
	err = f->f_op && f->f_op->getattr ? f->f_op->getattr(f, &k) : -EACCES;
	if (!err)
		err = may_exec(k.mode, why);
	if (!err && !f->f_op->mmap) {
		*why = "a file that cannot be mapped";
		err = -EACCES;
	}
	if (err) {
		file_put(f);
		return err;
	}
	*x = (struct exec_file){ .size = k.size, .shm = f->f_op->mmap(f) };
	file_put(f);
	x->copy = vmalloc(MAX(x->size, 1));
	if (!x->copy) {
		exec_file_put(x);
		*why = "no memory to read it";
		return -ENOMEM;
	}
	shmem_read(x->shm, 0, x->copy, x->size);
	x->data = x->copy;
	return 0;
}

int open_exec(const char *path, struct exec_file *x, const char **why)
{
	const char *rest;
	struct vfsmount *m = lookup_mnt(path, &rest);
	bool initramfs = m && m->type == &rootfs_fs_type;

	*x = (struct exec_file){ 0 };
	if (m)
		mntput(m);
	if (!m) {
		*why = "no such file";
		return -ENOENT;
	}
	return initramfs ? open_initramfs(path, x, why) : open_mapped(path, x, why);
}

void exec_file_put(struct exec_file *x)
{
	if (x->shm)
		shmem_put(x->shm);
	vfree(x->copy);
	*x = (struct exec_file){ 0 };
}
