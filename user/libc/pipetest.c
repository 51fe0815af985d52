// SPDX-License-Identifier: MIT
/*
 * pipetest: a pipe in packet mode (pipe2 with O_DIRECT, Linux 3.4 on) as a
 * program sees it, one "case: answer" line each, so that the same static
 * binary's output can be set beside Linux's (the system test runs it on
 * the host and on Pagoda). Debian's stress-ng asks for such pipes.
 *
 * - pipe2's flags: O_DIRECT taken, an unknown one refused; F_GETFL shows
 *   O_DIRECT on both ends;
 * - each write a packet, each read one packet, whatever the buffer; a
 *   write longer than a page cut into pages;
 * - a read with a short buffer: the rest of that packet dropped;
 * - how many packets wait before a nonblocking write is EAGAIN, however
 *   small they are, and that a read makes room for one more;
 * - a plain pipe beside it: the same writes joined into one read.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "errno_name.h"

static char buf[3 * 4096];

static void flags(void)
{
	int fd[2];

	printf("pipe2 O_DIRECT: %s\n", errno_answer(pipe2(fd, O_DIRECT)));
	printf("read end F_GETFL has O_DIRECT: %s\n",
	       fcntl(fd[0], F_GETFL) & O_DIRECT ? "yes" : "no");
	printf("write end F_GETFL has O_DIRECT: %s\n",
	       fcntl(fd[1], F_GETFL) & O_DIRECT ? "yes" : "no");
	close(fd[0]);
	close(fd[1]);
	printf("pipe2 unknown flag: %s\n", errno_answer(pipe2(fd, 0x1000000)));
}

/* Writes of the given sizes, then reads of rd bytes until the pipe is empty. */
static void packets(const char *name, int direct, const int *sizes, int n, size_t rd)
{
	int fd[2];
	long r;

	if (pipe2(fd, (direct ? O_DIRECT : 0) | O_NONBLOCK) < 0) {
		printf("%s: pipe2 %s\n", name, errno_name(errno));
		return;
	}
	memset(buf, 'p', sizeof(buf));
	for (int i = 0; i < n; i++)
		printf("%s: write %d: %s\n", name, sizes[i], errno_answer(write(fd[1], buf, sizes[i])));
	while ((r = read(fd[0], buf, rd)) > 0)
		printf("%s: read %zu: %ld\n", name, rd, r);
	printf("%s: then %s\n", name, errno_answer(r));
	close(fd[0]);
	close(fd[1]);
}

/* Packets of one byte until EAGAIN; then a read and one more write. */
static void capacity(void)
{
	int fd[2], n = 0;
	long r;

	if (pipe2(fd, O_DIRECT | O_NONBLOCK) < 0)
		return;
	while ((r = write(fd[1], "x", 1)) == 1 && n < 1000)
		n++;
	printf("one-byte packets before the write fails: %d, then %s\n", n, errno_answer(r));
	printf("read one: %s\n", errno_answer(read(fd[0], buf, sizeof(buf))));
	printf("one more write: %s\n", errno_answer(write(fd[1], "x", 1)));
	printf("and another: %s\n", errno_answer(write(fd[1], "x", 1)));
	close(fd[0]);
	close(fd[1]);
}

int main(void)
{
	static const int three[] = { 100, 200, 300 };
	static const int long_one[] = { 5000 };
	static const int short_rd[] = { 300, 40 };

	setvbuf(stdout, NULL, _IONBF, 0);
	flags();
	packets("packets", 1, three, 3, 4096);
	packets("plain", 0, three, 3, 4096);
	packets("long write", 1, long_one, 1, sizeof(buf));
	packets("short reads", 1, short_rd, 2, 50);
	capacity();
	printf("pipetest: done\n");
	return 0;
}
