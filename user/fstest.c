// SPDX-License-Identifier: MIT
/*
 * fstest: the read-only initramfs from a program's side. /etc/motd is read
 * whole and in pieces, seeks land where asked, and what cannot work fails
 * with Linux's errors (a missing file, opening for writing, a bad
 * descriptor, reading a directory). Exit status: the failed checks.
 */
#include <ulib.h>

#define AT_FDCWD -100
#define O_RDONLY 0
#define O_WRONLY 1

static int failures;

static int memcmp_prefix(const char *s, const char *prefix)
{
	while (*prefix)
		if (*s++ != *prefix++)
			return 1;
	return 0;
}

static void check(int ok, const char *what)
{
	if (!ok) {
		printf("fstest: FAIL: %s\n", what);
		failures++;
	}
}

static long sys_open(const char *path, int flags)
{
	return syscall3(__NR_openat, AT_FDCWD, path, flags);
}

static long sys_read(long fd, void *buf, size_t n)
{
	return syscall3(__NR_read, fd, buf, n);
}

int main(int argc, char **argv, char **envp)
{
	static const char want[] = "Welcome to Pagoda.";
	char buf[128];
	long fd, n, total = 0, dir;

	(void)argc, (void)argv, (void)envp;

	fd = sys_open("/etc/motd", O_RDONLY);
	check(fd >= 3, "open /etc/motd");
	n = sys_read(fd, buf, sizeof(buf) - 1);
	check(n > (long)sizeof(want) - 1, "read /etc/motd");
	buf[n > 0 ? n : 0] = '\0';
	check(n > 0 && !memcmp_prefix(buf, want), "/etc/motd says what user/motd says");
	check(sys_read(fd, buf, sizeof(buf)) == 0, "end of file reads 0");
	check(syscall3(__NR_lseek, fd, 8, 0) == 8, "lseek SEEK_SET");
	while ((n = sys_read(fd, buf, 5)) > 0)
		total += n;
	check(total + 8 == syscall3(__NR_lseek, fd, 0, 2), "pieces add up to the size");
	check(syscall3(__NR_lseek, fd, -1, 0) == -22, "a negative offset is -EINVAL");
	check(syscall1(__NR_close, fd) == 0, "close");
	check(syscall1(__NR_close, fd) == -9, "close twice is -EBADF");
	check(sys_read(fd, buf, 1) == -9, "read after close is -EBADF");
	check(sys_open("/etc/nothing", O_RDONLY) == -2, "a missing file is -ENOENT");
	check(sys_open("/etc/motd", O_WRONLY) == -30, "writing is -EROFS");
	check(sys_open((const char *)16, O_RDONLY) == -14, "a bad path pointer is -EFAULT");
	dir = sys_open("/bin", O_RDONLY);
	check(dir >= 3 && sys_read(dir, buf, 1) == -21, "reading a directory is -EISDIR");
	printf("fstest: %d failure(s)\n", failures);
	return failures;
}
