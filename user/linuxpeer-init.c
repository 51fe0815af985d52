// SPDX-License-Identifier: MIT
/*
 * linuxpeer-init: the whole userland of the Linux peer (tools/linuxpeer.py).
 * Debian's kernel runs it as /init from the initramfs the harness builds;
 * it mounts /dev, /proc and /sys, then runs /peer/script one line at a
 * time and powers the machine off. A line is words, single quotes keep
 * spaces ('0 131072 snapshot-origin /dev/vda'); its first word is one of
 *
 *	insmod FILE [PARAMS]   load a module (finit_module)
 *	zero DEV BYTES         write BYTES zero bytes at the start of DEV
 *	echo WORDS             print them
 *	PROGRAM ARGS           run it and wait (PATH /bin:/sbin)
 *
 * Each line is echoed as "peer$ LINE" first; a failure prints
 * "peer: ... failed" with the reason and the script goes on, so the
 * harness sees every error in the console log. Static (glibc), built by
 * the harness for the guest's architecture; not a Pagoda program.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_WORDS 64

static char *env[] = { "PATH=/bin:/sbin:/usr/bin:/usr/sbin", "HOME=/",
		       "DM_DISABLE_UDEV=1", NULL };

static void mount_one(const char *src, const char *dir, const char *type)
{
	mkdir(dir, 0755);
	if (mount(src, dir, type, 0, NULL) && errno != EBUSY)
		printf("peer: mount %s on %s failed: %s\n", type, dir, strerror(errno));
}

/* Split line in place into words; single quotes group. -1 on an open quote. */
static int split(char *line, char **words)
{
	int n = 0;
	char *r = line, *w = line;

	while (*r) {
		while (*r == ' ' || *r == '\t')
			r++;
		if (!*r)
			break;
		if (n == MAX_WORDS - 1)
			return -1;
		words[n++] = w;
		while (*r && *r != ' ' && *r != '\t') {
			if (*r == '\'') {
				char *end = strchr(r + 1, '\'');

				if (!end)
					return -1;
				memmove(w, r + 1, end - r - 1);
				w += end - r - 1;
				r = end + 1;
			} else {
				*w++ = *r++;
			}
		}
		if (*r)
			r++;
		*w++ = '\0';
	}
	words[n] = NULL;
	return n;
}

static void insmod(char **words)
{
	int fd = open(words[1], O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		printf("peer: insmod %s failed: %s\n", words[1], strerror(errno));
		return;
	}
	if (syscall(SYS_finit_module, fd, words[2] ? words[2] : "", 0) && errno != EEXIST)
		printf("peer: insmod %s failed: %s\n", words[1], strerror(errno));
	close(fd);
}

static void zero(char **words)
{
	static char buf[65536];
	long left = words[2] ? atol(words[2]) : 0;
	int fd = open(words[1], O_WRONLY);

	if (fd < 0 || left <= 0) {
		printf("peer: zero %s failed: %s\n", words[1],
		       fd < 0 ? strerror(errno) : "want a byte count");
		if (fd >= 0)
			close(fd);
		return;
	}
	while (left > 0) {
		ssize_t n = write(fd, buf, left < (long)sizeof(buf) ? left : (long)sizeof(buf));

		if (n <= 0) {
			printf("peer: zero %s failed: %s\n", words[1], strerror(errno));
			break;
		}
		left -= n;
	}
	fsync(fd);
	close(fd);
}

static void run(char **words)
{
	int status;
	pid_t pid = fork();

	if (pid < 0) {
		printf("peer: fork failed: %s\n", strerror(errno));
		return;
	}
	if (pid == 0) {
		execvpe(words[0], words, env);
		printf("peer: %s failed: %s\n", words[0], strerror(errno));
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid)
		printf("peer: waitpid failed: %s\n", strerror(errno));
	else if (status)
		printf("peer: %s failed: status 0x%x\n", words[0], status);
}

int main(void)
{
	char line[4096], *words[MAX_WORDS];
	FILE *script;
	int fd;

	mount_one("devtmpfs", "/dev", "devtmpfs");
	/* The archive's own /dev/console is under the mount now: take it again. */
	fd = open("/dev/console", O_RDWR);
	if (fd >= 0) {
		dup2(fd, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		if (fd > 2)
			close(fd);
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	mount_one("proc", "/proc", "proc");
	mount_one("sysfs", "/sys", "sysfs");
	environ = env;
	script = fopen("/peer/script", "r");
	if (!script)
		printf("peer: /peer/script: %s\n", strerror(errno));
	while (script && fgets(line, sizeof(line), script)) {
		int n;

		line[strcspn(line, "\n")] = '\0';
		printf("peer$ %s\n", line);
		n = split(line, words);
		if (n < 0)
			printf("peer: line failed: too many words or an open quote\n");
		else if (n == 0 || words[0][0] == '#')
			continue;
		else if (!strcmp(words[0], "insmod") && n >= 2)
			insmod(words);
		else if (!strcmp(words[0], "zero") && n >= 2)
			zero(words);
		else if (!strcmp(words[0], "echo"))
			for (int i = 1; i < n || i == 1; i++)
				printf("%s%s", i < n ? words[i] : "", i < n - 1 ? " " : "\n");
		else
			run(words);
	}
	printf("peer: done\n");
	fflush(stdout);
	sync();
	reboot(RB_POWER_OFF);
	return 0;
}
