// SPDX-License-Identifier: MIT
/*
 * vfstest DIR: the file calls a shell makes, with the answers Linux
 * gives, in a writable directory DIR (Pagoda: /tmp, its tmpfs; the host:
 * any directory of a Linux file system). Every expectation was first
 * checked by running this on the host; the busybox test runs it on both
 * (tests/levels/busybox.py) and each must print "vfstest: 0 failed".
 * Built unmodified against musl and glibc, as calltest is.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

#define CHECK_PROG "vfstest"
#include "check.h"

static int count_entries(const char *dir, const char *want, int *found)
{
	char buf[4096];
	int fd = open(dir, O_RDONLY | O_DIRECTORY), n, total = 0;

	*found = 0;
	if (fd < 0)
		return -1;
	while ((n = (int)syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0)
		for (int off = 0; off < n;) {
			unsigned short reclen;

			memcpy(&reclen, buf + off + 16, 2);
			if (!strcmp(buf + off + 19, want))
				*found = 1;
			total++;
			off += reclen;
		}
	close(fd);
	return total;
}

int main(int argc, char **argv)
{
	char d[512], a[600], b[600], c[600], cwd[600], small[2];
	struct stat st;
	int fd, fd2, found;

	if (argc != 2) {
		fprintf(stderr, "usage: vfstest DIR\n");
		return 2;
	}
	snprintf(d, sizeof(d), "%s/vfstest.%d", argv[1], (int)getpid());
	snprintf(a, sizeof(a), "%s/a", d);
	snprintf(b, sizeof(b), "%s/b", d);
	snprintf(c, sizeof(c), "%s/c", d);

	WORKS(mkdir(d, 0755));
	FAILS(mkdir(d, 0755), EEXIST);
	FAILS(mkdir("/", 0755), EEXIST);
	FAILS(open(a, O_RDONLY), ENOENT);
	fd = open(a, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	check("open O_CREAT", fd >= 0);
	FAILS(open(a, O_WRONLY | O_CREAT | O_EXCL, 0666), EEXIST);
	check("write", write(fd, "hello\n", 6) == 6);
	check("F_GETFD is FD_CLOEXEC", fcntl(fd, F_GETFD) == FD_CLOEXEC);
	check("F_GETFL is O_WRONLY", (fcntl(fd, F_GETFL) & O_ACCMODE) == O_WRONLY);
	WORKS(fcntl(fd, F_SETFL, O_APPEND));
	check("F_GETFL has O_APPEND", fcntl(fd, F_GETFL) & O_APPEND);
	check("lseek to 0", lseek(fd, 0, SEEK_SET) == 0);
	check("append", write(fd, "x", 1) == 1 && lseek(fd, 0, SEEK_CUR) == 7);
	fd2 = fcntl(fd, F_DUPFD, 10);
	check("F_DUPFD at 10 or above", fd2 >= 10);
	check("a dup has no FD_CLOEXEC", fcntl(fd2, F_GETFD) == 0);
	check("dup3 O_CLOEXEC", dup3(fd, fd2, O_CLOEXEC) == fd2 && fcntl(fd2, F_GETFD) == FD_CLOEXEC);
	FAILS(dup3(fd, fd, 0), EINVAL);
	close(fd2);
	FAILS(ftruncate(open(a, O_RDONLY), 1), EINVAL);
	WORKS(ftruncate(fd, 3));
	check("stat size 3", stat(a, &st) == 0 && st.st_size == 3 && S_ISREG(st.st_mode));
	check("mode from umask 022", (st.st_mode & 0777) == 0644);
	WORKS(truncate(a, 10000));
	check("stat size 10000", stat(a, &st) == 0 && st.st_size == 10000);
	/* chmod, fchmod, fchmodat: the permission bits change, the type stays. */
	WORKS(chmod(a, 0600));
	check("chmod 0600", stat(a, &st) == 0 && st.st_mode == (S_IFREG | 0600));
	WORKS(fchmod(fd, 04751));
	check("fchmod 04751", stat(a, &st) == 0 && st.st_mode == (S_IFREG | 04751));
	WORKS(fchmodat(AT_FDCWD, d, 0700, 0));
	check("fchmodat on a directory", stat(d, &st) == 0 && st.st_mode == (S_IFDIR | 0700));
	WORKS(chmod(d, 0755));
	FAILS(chmod(b, 0644), ENOENT);
	WORKS(chmod(a, 0644));
	/* Symbolic links: to a, relative; dangling; to the root, across mounts. */
	{
		char e[620], buf[64];
		ssize_t n;

		snprintf(e, sizeof(e), "%s/e", d);
		WORKS(symlink("a", e));
		FAILS(symlink("a", e), EEXIST);
		check("lstat: a link of 1 byte", lstat(e, &st) == 0 && S_ISLNK(st.st_mode) &&
		      st.st_size == 1 && (st.st_mode & 0777) == 0777);
		check("stat: what it names", stat(e, &st) == 0 && S_ISREG(st.st_mode) &&
		      st.st_size == 10000);
		n = readlink(e, buf, sizeof(buf));
		check("readlink", n == 1 && buf[0] == 'a');
		FAILS(readlink(a, buf, sizeof(buf)), EINVAL);
		FAILS(open(e, O_RDONLY | O_NOFOLLOW), ELOOP);
		fd2 = open(e, O_RDONLY);
		check("open through the link", fd2 >= 0 && read(fd2, buf, 3) == 3 && !memcmp(buf, "hel", 3));
		close(fd2);
		WORKS(unlink(e));
		check("a outlives its link", stat(a, &st) == 0);
		WORKS(symlink("nowhere", e));
		FAILS(stat(e, &st), ENOENT);
		WORKS(unlink(e));
		WORKS(symlink("/", e));
		check("a link to / is a directory", stat(e, &st) == 0 && S_ISDIR(st.st_mode));
		WORKS(unlink(e));
		FAILS(symlink("", e), ENOENT);
	}
	close(fd);
	fd = open(a, O_RDONLY);
	{
		char buf[16] = { 0 };

		check("read after a hole", pread(fd, buf, 4, 0) == 4 && !memcmp(buf, "hel\0", 4));
	}
	FAILS(write(fd, "x", 1), EBADF);
	FAILS((int)syscall(SYS_getdents64, fd, a, 64), ENOTDIR);
	close(fd);
	FAILS(open(a, O_RDONLY | O_DIRECTORY), ENOTDIR);
	FAILS(open(d, O_WRONLY), EISDIR);
	FAILS(unlink(d), EISDIR);
	FAILS(rmdir(a), ENOTDIR);
	WORKS(mkdir(c, 0755));
	FAILS(mkdir(c, 0755), EEXIST);
	FAILS(rmdir(d), ENOTEMPTY);
	FAILS(rename(d, c), EINVAL);
	FAILS(rename(c, a), ENOTDIR);
	FAILS(rename(a, c), EISDIR);
	WORKS(rename(a, b));
	FAILS(stat(a, &st), ENOENT);
	check("getdents64 lists b", count_entries(d, "b", &found) == 4 && found);
	FAILS(chdir(b), ENOTDIR);
	WORKS(chdir(d));
	check("getcwd", getcwd(cwd, sizeof(cwd)) && !strcmp(cwd, d));
	FAILS((int)syscall(SYS_getcwd, small, sizeof(small)), ERANGE);
	check("relative stat", stat("b", &st) == 0 && st.st_size == 10000);
	check("dot dot", stat("c/../b", &st) == 0);
	check("umask answers the old", umask(077) == 022 && umask(022) == 077);
	{
		int p[2];
		struct pollfd pf[2];

		check("pipe2", pipe2(p, O_CLOEXEC) == 0 && fcntl(p[0], F_GETFD) == FD_CLOEXEC);
		pf[0] = (struct pollfd){ .fd = p[0], .events = POLLIN };
		pf[1] = (struct pollfd){ .fd = p[1], .events = POLLOUT };
		check("poll: writable, not readable", poll(pf, 2, 0) == 1 && pf[1].revents == POLLOUT &&
							      !pf[0].revents);
		check("write to the pipe", write(p[1], "z", 1) == 1);
		check("poll: readable", poll(pf, 1, 100) == 1 && pf[0].revents == POLLIN);
		close(p[1]);
		check("poll: hangup", poll(pf, 1, 0) == 1 && (pf[0].revents & POLLHUP));
		close(p[0]);
	}
	WORKS(unlink("b"));
	WORKS(rmdir("c"));
	WORKS(chdir("/"));
	WORKS(rmdir(d));
	FAILS(rmdir(d), ENOENT);
	printf("vfstest: %d failed\n", failed);
	return failed != 0;
}
