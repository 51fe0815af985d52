/* SPDX-License-Identifier: MIT */
/* Pipes (kernel/pipe.c) and poll()'s events. */
#ifndef PAGODA_PIPE_H
#define PAGODA_PIPE_H

#include <pagoda/types.h>

struct file;
struct iov_iter;

/* packets: Linux's packet mode (pipe2's O_DIRECT). */
int pipe_create(struct file **r, struct file **w, bool packets);
bool pipe_is_packets(const struct file *f);
void pipe_release(struct file *f);
/* poll()'s events (Linux's values) and what a pipe end is ready for. */
#define POLLIN 0x001
#define POLLPRI 0x002
#define POLLOUT 0x004
#define POLLERR 0x008
#define POLLHUP 0x010
#define POLLNVAL 0x020
#define POLLRDNORM 0x040
#define POLLWRNORM 0x100
unsigned int pipe_poll(struct file *f);
long pipe_read(struct file *f, struct iov_iter *to);
long pipe_write(struct file *f, struct iov_iter *from);
size_t pipe_peek(struct file *f, void *buf, size_t max);
int pipe_fill(struct file *f, const void *buf, size_t n);

#endif
