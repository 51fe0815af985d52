// SPDX-License-Identifier: MIT
/*
 * Directories as programs read them: getdents64(2), after Linux's
 * fs/readdir.c. When a directory is opened its file system lists it once
 * (readdir: dir_emit() per entry), into a buffer already laid out as
 * struct linux_dirent64 records; getdents64 hands out whole records from
 * the file's position, which is a byte offset into that buffer (and each
 * record's d_off the offset of the next, so a program may lseek back to
 * one it saw). A directory that changes while open is seen as it was
 * when opened, as POSIX allows.
 *
 * Mount points inside the directory are listed too (a directory of the
 * initramfs need not exist for a file system to be mounted there).
 */
#include <pagoda/file.h>
#include <pagoda/process.h>
#include <pagoda/slab.h>
#include <pagoda/string.h>
#include <pagoda/uaccess.h>
#include <pagoda/uio.h>
#include "../kernel/syscalls.h"
#include "internal.h"

struct dir_context {
	u8 *buf;
	size_t len, cap;
};

/* struct linux_dirent64: d_ino, d_off, d_reclen, d_type, then the name. */
#define DIRENT_HDR 19

static u16 reclen_at(const struct dir_context *ctx, size_t off)
{
	u16 r;

	memcpy(&r, ctx->buf + off + 16, 2);
	return r;
}

static bool dir_has(const struct dir_context *ctx, const char *name, size_t len)
{
	for (size_t off = 0; off < ctx->len; off += reclen_at(ctx, off)) {
		const char *n = (const char *)ctx->buf + off + DIRENT_HDR;

		if (!strncmp(n, name, len) && !n[len])
			return true;
	}
	return false;
}

int dir_emit(struct dir_context *ctx, const char *name, size_t len, u64 ino, unsigned int type)
{
	size_t reclen = ALIGN_UP(DIRENT_HDR + len + 1, 8);
	s64 next;
	u16 r = (u16)reclen;
	u8 t = (u8)type;

	if (!len || len > NAME_MAX || dir_has(ctx, name, len))
		return 0;
	if (ctx->len + reclen > ctx->cap) {
		size_t cap = ctx->cap ? ctx->cap * 2 : 1024;
		u8 *nb;

		while (cap < ctx->len + reclen)
			cap *= 2;
		nb = kmalloc(cap, GFP_KERNEL);
		if (!nb)
			return -ENOMEM;
		memcpy(nb, ctx->buf, ctx->len);
		kfree(ctx->buf);
		ctx->buf = nb;
		ctx->cap = cap;
	}
	next = (s64)(ctx->len + reclen);
	memset(ctx->buf + ctx->len, 0, reclen);
	memcpy(ctx->buf + ctx->len, &ino, 8);
	memcpy(ctx->buf + ctx->len + 8, &next, 8);
	memcpy(ctx->buf + ctx->len + 16, &r, 2);
	memcpy(ctx->buf + ctx->len + 18, &t, 1);
	memcpy(ctx->buf + ctx->len + DIRENT_HDR, name, len);
	ctx->len += reclen;
	return 0;
}

static long dir_read(struct file *f, struct iov_iter *to, u64 *pos)
{
	(void)f;
	(void)to;
	(void)pos;
	return -EISDIR;
}

static void dir_release(struct file *f)
{
	struct dir_context *ctx = f->private_data;

	kfree(ctx->buf);
	kfree(ctx);
}

static const struct file_operations dir_fops = {
	.read = dir_read,
	.release = dir_release,
};

int dir_open(struct vfsmount *m, const char *path, const char *abs, struct file *f)
{
	struct dir_context *ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);
	int err;

	if (!ctx)
		return -ENOMEM;
	err = dir_emit(ctx, ".", 1, 1, DT_DIR);
	if (!err)
		err = dir_emit(ctx, "..", 2, 1, DT_DIR);
	if (!err && m->type->readdir)
		err = m->type->readdir(m, path, ctx);
	if (!err)
		err = mounts_emit_children(abs, ctx);
	if (err) {
		kfree(ctx->buf);
		kfree(ctx);
		return err;
	}
	f->kind = FILE_OPS;
	f->f_op = &dir_fops;
	f->private_data = ctx;
	f->is_dir = true;
	return 0;
}

/* getdents64(fd, buf, count): whole records from the position; 0 at the end. */
long sys_getdents64(const unsigned long *args)
{
	struct file *f __free(file_put) = fget((long)args[0]);
	struct dir_context *ctx;
	size_t count = args[2], done = 0;

	if (!f)
		return -EBADF;
	if (!f->is_dir || f->f_op != &dir_fops)
		return -ENOTDIR;
	ctx = f->private_data;
	while (f->pos < ctx->len) {
		u16 r = reclen_at(ctx, f->pos);

		if (!r || f->pos + r > ctx->len)
			return done ? (long)done : -EINVAL; /* an lseek to no record's start */
		if (done + r > count)
			break;
		if (copy_to_user(args[1] + done, ctx->buf + f->pos, r))
			return done ? (long)done : -EFAULT;
		done += r;
		f->pos += r;
	}
	if (!done && f->pos < ctx->len)
		return -EINVAL; /* the buffer holds not even one record */
	return (long)done;
}
