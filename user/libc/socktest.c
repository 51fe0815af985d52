// SPDX-License-Identifier: MIT
/*
 * socktest: Unix domain socket pairs (socketpair, read/write, send/recv,
 * shutdown, poll) as a program sees them, one "case: answer" line each,
 * so that the same static binary's output can be set beside Linux's (the
 * system test runs it on the host and on Pagoda).
 *
 * - socketpair's refusals: another family, an unknown type, a protocol;
 * - a stream joins two writes, a seqpacket or datagram pair keeps them
 *   apart and a short buffer loses the rest of a message;
 * - one end closed: the other reads end-of-file, and a write is EPIPE
 *   (datagram: what Linux says); shutdown(SHUT_WR) does the same for one
 *   direction;
 * - poll's events, fstat's type, a child talking over the pair, a message
 *   larger than a socket can hold, send on a pipe;
 * - beside them, a pipe's capacity: what a nonblocking pipe takes before
 *   EAGAIN (Linux's default, 16 pages).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "errno_name.h"

static void refusals(void)
{
	int sv[2];

	printf("AF_INET stream: %s\n", errno_answer(socketpair(AF_INET, SOCK_STREAM, 0, sv)));
	printf("family 99: %s\n", errno_answer(socketpair(99, SOCK_STREAM, 0, sv)));
	printf("type SOCK_RDM: %s\n", errno_answer(socketpair(AF_UNIX, SOCK_RDM, 0, sv)));
	printf("type 99: %s\n", errno_answer(socketpair(AF_UNIX, 99, 0, sv)));
	printf("protocol 1: %s\n", errno_answer(socketpair(AF_UNIX, SOCK_STREAM, 1, sv)));
	printf("unknown flag: %s\n", errno_answer(socketpair(AF_UNIX, SOCK_STREAM | 0x100000, 0, sv)));
}

/* Two writes, then reads of 64 and of 3 bytes: what each type makes of them. */
static void boundaries(const char *name, int type)
{
	char buf[64];
	int sv[2];
	long n;

	if (socketpair(AF_UNIX, type | SOCK_NONBLOCK, 0, sv)) {
		printf("%s: socketpair %s\n", name, errno_answer(-1));
		return;
	}
	write(sv[0], "hello", 5);
	write(sv[0], "world!", 6);
	n = read(sv[1], buf, sizeof(buf));
	printf("%s: first read %s: %.*s\n", name, errno_answer(n), n > 0 ? (int)n : 0, buf);
	n = read(sv[1], buf, 3);
	printf("%s: read of 3: %s: %.*s\n", name, errno_answer(n), n > 0 ? (int)n : 0, buf);
	n = read(sv[1], buf, sizeof(buf));
	printf("%s: then: %s\n", name, errno_answer(n));
	write(sv[1], "back", 4);
	n = recv(sv[0], buf, sizeof(buf), 0);
	printf("%s: the other way, recv: %s\n", name, errno_answer(n));
	close(sv[0]);
	n = read(sv[1], buf, sizeof(buf));
	printf("%s: peer closed, read: %s\n", name, errno_answer(n));
	printf("%s: peer closed, write: %s\n", name, errno_answer(write(sv[1], "x", 1)));
	close(sv[1]);
}

static void shutdowns(void)
{
	char buf[8];
	int sv[2];

	socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	write(sv[0], "ab", 2);
	printf("shutdown SHUT_WR: %s\n", errno_answer(shutdown(sv[0], SHUT_WR)));
	printf("  peer reads what was sent: %s\n", errno_answer(read(sv[1], buf, sizeof(buf))));
	printf("  then end-of-file: %s\n", errno_answer(read(sv[1], buf, sizeof(buf))));
	printf("  write after: %s\n", errno_answer(write(sv[0], "x", 1)));
	printf("  the other way still works: %s\n", errno_answer(write(sv[1], "y", 1)));
	printf("  and is read: %s\n", errno_answer(read(sv[0], buf, sizeof(buf))));
	printf("shutdown how 7: %s\n", errno_answer(shutdown(sv[0], 7)));
	close(sv[0]);
	close(sv[1]);
}

static void polls(void)
{
	struct pollfd p = { .events = POLLIN | POLLOUT };
	struct stat st;
	int sv[2];

	socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	printf("stream write of 0 bytes: %s\n", errno_answer(write(sv[0], "", 0)));
	p.fd = sv[1];
	poll(&p, 1, 0);
	printf("poll, nothing sent: in %d out %d hup %d\n", !!(p.revents & POLLIN),
	       !!(p.revents & POLLOUT), !!(p.revents & POLLHUP));
	write(sv[0], "z", 1);
	poll(&p, 1, 0);
	printf("poll, a byte sent: in %d out %d hup %d\n", !!(p.revents & POLLIN),
	       !!(p.revents & POLLOUT), !!(p.revents & POLLHUP));
	close(sv[0]);
	poll(&p, 1, 0);
	printf("poll, peer closed: in %d hup %d\n", !!(p.revents & POLLIN),
	       !!(p.revents & POLLHUP));
	fstat(sv[1], &st);
	printf("fstat: socket %d, size %ld\n", S_ISSOCK(st.st_mode), (long)st.st_size);
	close(sv[1]);
}

static void child(void)
{
	char buf[32] = { 0 };
	int sv[2], status;
	pid_t pid;

	socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv);
	pid = fork();
	if (!pid) {
		close(sv[0]);
		read(sv[1], buf, sizeof(buf));
		write(sv[1], "pong", 4);
		_exit(strcmp(buf, "ping") ? 1 : 0);
	}
	close(sv[1]);
	write(sv[0], "ping", 5);
	printf("child answers: %s", errno_answer(read(sv[0], buf, sizeof(buf) - 1)));
	printf(" %s\n", buf);
	waitpid(pid, &status, 0);
	printf("child exit: %d\n", WEXITSTATUS(status));
	close(sv[0]);
}

static void sizes(void)
{
	static char big[300000];
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	int sv[2], fds[2];
	char buf[8];

	socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv);
	printf("seqpacket of 300000 bytes: %s\n", errno_answer(send(sv[0], big, sizeof(big), 0)));
	send(sv[0], "q", 1, 0);
	printf("recvfrom: %s,", errno_answer(recvfrom(sv[1], buf, sizeof(buf), 0, (void *)&ss, &len)));
	printf(" address length %d\n", (int)len);
	close(sv[0]);
	close(sv[1]);
	pipe(fds);
	printf("send on a pipe: %s\n", errno_answer(send(fds[1], "x", 1, 0)));
	printf("send on a closed descriptor: %s\n", errno_answer(send(999, "x", 1, 0)));
	close(fds[0]);
	close(fds[1]);
}

static void pipe_capacity(void)
{
	static char page[4096];
	int fds[2];
	long total = 0, n;

	pipe2(fds, O_NONBLOCK);
	while ((n = write(fds[1], page, sizeof(page))) > 0)
		total += n;
	printf("a nonblocking pipe takes %ld bytes, then %s\n", total, errno_answer(n));
	close(fds[0]);
	close(fds[1]);
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	signal(SIGPIPE, SIG_IGN);
	refusals();
	boundaries("stream", SOCK_STREAM);
	boundaries("seqpacket", SOCK_SEQPACKET);
	boundaries("dgram", SOCK_DGRAM);
	shutdowns();
	polls();
	child();
	sizes();
	pipe_capacity();
	printf("socktest: done\n");
	return 0;
}
