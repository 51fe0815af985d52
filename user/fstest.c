// SPDX-License-Identifier: MIT
/*
 * fstest: the read-only initramfs from a program's side. /etc/motd is read
 * whole and in pieces, seeks land where asked, and what cannot work fails
 * with Linux's errors (a missing file, opening for writing, a bad
 * descriptor, reading a directory); /etc/motd-link, a symbolic link to
 * it, is followed by open and stat, described by lstat (newfstatat with
 * AT_SYMLINK_NOFOLLOW) and read by readlinkat. Exit status: the failed
 * checks.
 */
#include <ulib.h>

#define AT_FDCWD -100
#define O_RDONLY 0
#define O_WRONLY 1
#define AT_SYMLINK_NOFOLLOW 0x100
#define S_IFMT 0170000
#define S_IFREG 0100000
#define S_IFLNK 0120000
/* struct stat: st_mode's offset differs (x86-64 keeps st_nlink before it); st_size is at 48 */
#ifdef __x86_64__
#define ST_MODE 24
#else
#define ST_MODE 16
#endif
#define ST_SIZE 48

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

static unsigned int stat_mode(const char *path, int flags, long *size)
{
	unsigned long st[18]; /* 144 bytes on x86-64; arm64's 128 fit too */
	long r = syscall4(__NR_newfstatat, AT_FDCWD, path, st, flags);

	if (r)
		return 0;
	*size = (long)st[ST_SIZE / 8];
	return *(unsigned int *)((char *)st + ST_MODE);
}

static void check_symlink(void)
{
	char buf[64];
	long fd, n, size = 0;

	fd = sys_open("/etc/motd-link", O_RDONLY);
	check(fd >= 3, "open through a symbolic link");
	n = fd >= 3 ? sys_read(fd, buf, 7) : -1;
	check(n == 7 && !memcmp_prefix(buf, "Welcome"), "read through a symbolic link");
	check((stat_mode("/etc/motd-link", 0, &size) & S_IFMT) == S_IFREG && size > 18,
	      "stat follows the link");
	check((stat_mode("/etc/motd-link", AT_SYMLINK_NOFOLLOW, &size) & S_IFMT) == S_IFLNK &&
	      size == 4, "lstat describes the link (size: the target's length)");
	n = syscall4(__NR_readlinkat, AT_FDCWD, "/etc/motd-link", buf, sizeof(buf));
	check(n == 4 && !memcmp_prefix(buf, "motd"), "readlinkat gives the target");
	check(syscall4(__NR_readlinkat, AT_FDCWD, "/etc/motd", buf, sizeof(buf)) == -22,
	      "readlinkat of a file is -EINVAL");
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
	check_symlink();
	printf("fstest: %d failure(s)\n", failures);
	return failures;
}
