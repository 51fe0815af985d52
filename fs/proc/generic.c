// SPDX-License-Identifier: MIT
/*
 * A /proc file is made whole when it is opened: its printer writes the
 * text into a buffer (a page first, twice as much each time it does not
 * fit, as Linux's seq_read() grows), and reads then come from that copy,
 * so a program reading in small pieces sees one consistent text.
 */
#include <pagoda/file.h>
#include <pagoda/process.h>
#include <pagoda/slab.h>
#include <pagoda/string.h>
#include <pagoda/uio.h>
#include "internal.h"

#define PROC_MAX_TEXT (256 * 1024)

static long proc_read(struct file *f, struct iov_iter *to, u64 *pos)
{
	struct seq_file *m = f->private_data;
	size_t n, copied;

	if (*pos >= m->count)
		return 0;
	n = MIN(iov_iter_count(to), m->count - (size_t)*pos);
	copied = copy_to_iter(m->buf + *pos, n, to);
	*pos += copied;
	return copied || !n ? (long)copied : -EFAULT;
}

static int proc_getattr(struct file *f, struct kstat *k)
{
	int err = vfs_getattr(f->path, k, true);

	/* A /proc file's size is 0, as Linux's stat says, however much it reads. */
	if (err == -ENOENT) /* the process ended since: what it was */
		*k = (struct kstat){ .nlink = 1, .mode = S_IFREG | 0444, .blksize = 1024 };
	return 0;
}

static void proc_release(struct file *f)
{
	struct seq_file *m = f->private_data;

	kfree(m->buf);
	kfree(m);
}

static const struct file_operations proc_seq_fops = {
	.read = proc_read,
	.getattr = proc_getattr,
	.release = proc_release,
};

/* What a writable file remembers: whose file it is, and who takes the text. */
struct proc_writer {
	proc_write_t write;
	int pid;
};

static struct process *find_process(int pid);

/*
 * One write is one value, as Linux's proc files for settings take it: at
 * most 31 bytes, a trailing newline allowed (`echo 500 > ...`).
 */
static long proc_write(struct file *f, struct iov_iter *from, u64 *pos)
{
	struct proc_writer *w = f->private_data;
	size_t n = iov_iter_count(from);
	struct process *p;
	char text[32];
	int err;

	if (n >= sizeof(text))
		return -EINVAL;
	if (copy_from_iter(text, n, from) != n)
		return -EFAULT;
	text[n] = 0;
	if (n && text[n - 1] == '\n')
		text[n - 1] = 0;
	mutex_lock(&process_lock);
	p = find_process(w->pid);
	err = p && !p->zombie ? w->write(p, text) : -ESRCH;
	mutex_unlock(&process_lock);
	if (err)
		return err;
	*pos += n;
	return (long)n;
}

static void proc_writer_release(struct file *f)
{
	kfree(f->private_data);
}

static const struct file_operations proc_write_fops = {
	.write = proc_write,
	.getattr = proc_getattr,
	.release = proc_writer_release,
};

int proc_open_write(struct file *f, proc_write_t write, int pid)
{
	struct proc_writer *w = kzalloc(sizeof(*w), GFP_KERNEL);

	if (!w)
		return -ENOMEM;
	*w = (struct proc_writer){ .write = write, .pid = pid };
	f->f_op = &proc_write_fops;
	f->private_data = w;
	return 0;
}

static struct process *find_process(int pid)
{
	struct process *p;

	list_for_each_entry(p, &process_list, all)
		if (p->pid == pid)
			return p;
	return NULL;
}

int proc_open_show(struct file *f, proc_show_t show, int pid)
{
	struct seq_file *m = kzalloc(sizeof(*m), GFP_KERNEL);
	size_t size = 4096;
	int err = 0;

	if (!m)
		return -ENOMEM;
	for (;;) {
		struct process *p = NULL;

		m->buf = kmalloc(size, GFP_KERNEL);
		if (!m->buf) {
			err = -ENOMEM;
			break;
		}
		m->size = size;
		m->count = 0;
		m->overflow = false;
		if (pid) {
			mutex_lock(&process_lock);
			p = find_process(pid);
			if (p)
				show(m, p);
			mutex_unlock(&process_lock);
			if (!p) {
				err = -ESRCH;
				break;
			}
		} else {
			show(m, NULL);
		}
		if (!m->overflow)
			break;
		kfree(m->buf);
		m->buf = NULL;
		size *= 2;
		if (size > PROC_MAX_TEXT) {
			err = -ENOMEM;
			break;
		}
	}
	if (err) {
		kfree(m->buf);
		kfree(m);
		return err;
	}
	f->f_op = &proc_seq_fops;
	f->private_data = m;
	return 0;
}
