// SPDX-License-Identifier: MIT
/*
 * dmioctltest: hostile device-mapper ioctls on /dev/mapper/control, one
 * line each ("what: answer", an errno by name), so Pagoda's answers can be
 * set beside Linux's for the same binary (tests/levels/dmioctl.py, and
 * `tools/linuxpeer.py dmioctl`, which records Linux's). The buffers are
 * what a careless or malicious program could pass: other commands,
 * versions and sizes, pointers into unmapped memory, offsets past the
 * end, strings without their NUL, target specs that loop. Each must be
 * answered, not hang, and leave nothing behind (the Pagoda test runs it
 * twice and compares the memory in between).
 *
 *	dmioctltest DEVICE      (DEVICE: a block device for a linear table)
 *
 * The layouts come from Linux's own header, as libdevmapper's do.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/dm-ioctl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include "errno_name.h"

#define BUF 16384

static int fd;
static char *buf;

static struct dm_ioctl *fresh(const char *name, uint32_t size)
{
	struct dm_ioctl *p = (struct dm_ioctl *)buf;

	memset(buf, 0, BUF);
	p->version[0] = DM_VERSION_MAJOR;
	p->data_size = size;
	p->data_start = sizeof(*p);
	if (name)
		strncpy(p->name, name, sizeof(p->name) - 1);
	return p;
}

static void say(const char *what, int r)
{
	printf("%s: %s\n", what, r < 0 ? errno_name(errno) : "ok");
}

static int dm(unsigned long cmd, void *p)
{
	return ioctl(fd, cmd, p);
}

static void on_alarm(int sig)
{
	(void)sig;
}

/* The device's event count now. */
static uint32_t events(const char *name)
{
	struct dm_ioctl *p = fresh(name, BUF);

	return dm(DM_DEV_STATUS, p) ? 0xffffffffu : p->event_nr;
}

/* A one-target table after the header. */
static void spec(struct dm_ioctl *p, size_t off, uint64_t start, uint64_t len, const char *type,
		 const char *params, uint32_t next)
{
	struct dm_target_spec s = { .sector_start = start, .length = len, .next = next };

	memcpy(s.target_type, type, strnlen(type, sizeof(s.target_type)));
	memcpy(buf + off, &s, sizeof(s));
	strcpy(buf + off + sizeof(s), params);
	(void)p;
}

int main(int argc, char **argv)
{
	const size_t hdr = sizeof(struct dm_ioctl), sl = sizeof(struct dm_target_spec);
	char params[128];
	struct dm_ioctl *p;
	char *edge;
	int r;

	if (argc != 2) {
		fprintf(stderr, "usage: dmioctltest BLOCKDEV\n");
		return 2;
	}
	snprintf(params, sizeof(params), "%s 0", argv[1]);
	buf = malloc(BUF);
	fd = open("/dev/mapper/control", O_RDWR);
	say("open control", fd);
	if (fd < 0 || !buf)
		return 1;

	/* Another driver's command, an unknown one, no buffer at all */
	say("TCGETS", ioctl(fd, 0x5401, buf));
	say("unknown command", dm(_IOWR(DM_IOCTL, 200, struct dm_ioctl), fresh(NULL, BUF)));
	p = fresh(NULL, BUF);
	p->version[0] = 3;
	say("unknown command, version 3", dm(_IOWR(DM_IOCTL, 200, struct dm_ioctl), p));
	say("version, NULL buffer", dm(DM_VERSION, NULL));

	/* Versions: another major is refused, and the kernel's goes back anyway */
	p = fresh(NULL, hdr);
	p->version[0] = 3;
	r = dm(DM_VERSION, p);
	say("version 3", r);
	printf("version 3: kernel says %u\n", p->version[0]);
	p = fresh(NULL, hdr);
	p->version[1] = 9999;
	say("version 4.9999", dm(DM_VERSION, p));
	p = fresh(NULL, hdr);
	say("version 4.0", dm(DM_VERSION, p));
	printf("version 4.0: kernel says %u\n", p->version[0]);

	/* Sizes: too small; larger than the buffer really is (it ends at an unmapped page) */
	p = fresh(NULL, 10);
	say("list, data_size 10", dm(DM_LIST_DEVICES, p));
	edge = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (edge != MAP_FAILED && !mprotect(edge + 4096, 4096, PROT_NONE)) {
		struct dm_ioctl *e = (struct dm_ioctl *)(edge + 4096 - hdr);

		memset(e, 0, hdr);
		e->version[0] = DM_VERSION_MAJOR;
		e->data_size = BUF;
		say("list, data_size past the mapping", dm(DM_LIST_DEVICES, e));
		e->data_size = hdr;
		say("list, header just below the hole", dm(DM_LIST_DEVICES, e));
		printf("list, header just below the hole: full %d\n",
		       !!(e->flags & DM_BUFFER_FULL_FLAG));
	}
	p = fresh(NULL, hdr);
	say("list, no room", dm(DM_LIST_DEVICES, p));
	printf("list, no room: full %d\n", !!(p->flags & DM_BUFFER_FULL_FLAG));

	/* Names */
	say("create, no name", dm(DM_DEV_CREATE, fresh("", BUF)));
	say("create a/b", dm(DM_DEV_CREATE, fresh("a/b", BUF)));
	say("create hx", dm(DM_DEV_CREATE, fresh("hx", BUF)));
	say("create hx again", dm(DM_DEV_CREATE, fresh("hx", BUF)));
	p = fresh("hx", BUF);
	strcpy(p->uuid, "some-uuid");
	say("status by name and uuid", dm(DM_DEV_STATUS, p));
	say("status of nosuch", dm(DM_DEV_STATUS, fresh("nosuch", BUF)));

	/* Tables */
	p = fresh("hx", BUF);
	say("load, no targets", dm(DM_TABLE_LOAD, p));
	p = fresh("hx", BUF);
	p->target_count = 1;
	p->data_start = BUF + 100;
	say("load, data_start past the end", dm(DM_TABLE_LOAD, p));
	p = fresh("hx", BUF);
	p->target_count = 1;
	spec(p, hdr, 0, 8, "linear", params, 0);
	memset(buf + hdr + sl, 'p', BUF - hdr - sl);
	say("load, parameters without NUL", dm(DM_TABLE_LOAD, p));
	p = fresh("hx", BUF);
	p->target_count = 2;
	spec(p, hdr, 0, 8, "linear", params, 0);
	say("load, next 0", dm(DM_TABLE_LOAD, p));
	p = fresh("hx", BUF);
	p->target_count = 0xffffffffu;
	for (size_t off = hdr; off + sl + 8 <= BUF; off += sl + 8)
		spec(p, off, 0, 1, "nosuch", "", sl + 8);
	say("load, four billion targets", dm(DM_TABLE_LOAD, p));
	p = fresh("hx", BUF);
	p->target_count = 1;
	spec(p, hdr, 0, 8, "nosuch", "", 0);
	say("load, unknown type", dm(DM_TABLE_LOAD, p));
	spec(p, hdr, 0, 8, "linear", "/dev/nosuch 0", 0);
	say("load, no such device", dm(DM_TABLE_LOAD, p));
	spec(p, hdr, 0, 8, "linear", params, 0);
	say("load, good", dm(DM_TABLE_LOAD, p));
	printf("load, good: inactive %d\n", !!(p->flags & DM_INACTIVE_PRESENT_FLAG));
	say("resume", dm(DM_DEV_SUSPEND, fresh("hx", BUF)));
	p = fresh("hx", BUF);
	p->flags = DM_STATUS_TABLE_FLAG;
	p->data_size = hdr + sl + 2;
	say("table, no room for the line", dm(DM_TABLE_STATUS, p));
	printf("table, no room for the line: full %d\n", !!(p->flags & DM_BUFFER_FULL_FLAG));

	/* Rename and message payloads */
	p = fresh("hx", BUF);
	p->data_start = BUF + 1;
	say("rename, data_start past the end", dm(DM_DEV_RENAME, p));
	p = fresh("hx", BUF);
	memset(buf + hdr, 'n', BUF - hdr);
	say("rename, name without NUL", dm(DM_DEV_RENAME, p));
	p = fresh("hx", BUF);
	p->data_start = BUF - 4;
	say("message, past the end", dm(DM_TARGET_MSG, p));
	p = fresh("hx", BUF);
	say("message, empty", dm(DM_TARGET_MSG, p));
	p = fresh("hx", BUF);
	strcpy(buf + hdr + 8, "hello");
	say("message, linear takes none", dm(DM_TARGET_MSG, p));

	/* Waits: a signal ends one for the current event, a rename is an event */
	{
		struct sigaction sa = { .sa_handler = on_alarm };	/* no SA_RESTART */
		uint32_t ev = events("hx");
		int pfd[2], status, e;
		pid_t pid;
		char c;

		sigaction(SIGALRM, &sa, NULL);
		p = fresh("hx", BUF);
		p->event_nr = ev;
		alarm(1);
		say("wait, ended by a signal", dm(DM_DEV_WAIT, p));
		alarm(0);
		p = fresh("hx", BUF);
		strcpy(buf + hdr, "hy");
		say("rename hx hy", dm(DM_DEV_RENAME, p));
		p = fresh("hy", BUF);
		p->event_nr = ev;
		say("wait, after a rename", dm(DM_DEV_WAIT, p));
		printf("wait, after a rename: %u event(s), %u target(s)\n", p->event_nr - ev,
		       p->target_count);
		p = fresh("hy", BUF);
		strcpy(buf + hdr, "hx");
		say("rename hy hx", dm(DM_DEV_RENAME, p));

		/* A remove while another process waits: both end well */
		if (pipe(pfd) == 0 && (pid = fork()) >= 0) {
			if (pid == 0) {
				p = fresh("hx", BUF);
				p->event_nr = events("hx");
				p = fresh("hx", BUF);
				p->event_nr = events("hx");
				if (write(pfd[1], "w", 1) != 1)
					_exit(1);
				r = dm(DM_DEV_WAIT, p);
				say("wait, ended by a remove", r);
				fflush(stdout);
				_exit(0);
			}
			if (read(pfd[0], &c, 1) == 1)
				sleep(1);	/* the child is in its wait by then */
			r = dm(DM_DEV_REMOVE, fresh("hx", BUF));
			e = errno;
			waitpid(pid, &status, 0);
			errno = e;
			say("remove hx while waited", r);
		}
	}
	say("remove hx again", dm(DM_DEV_REMOVE, fresh("hx", BUF)));
	printf("dmioctltest: done\n");
	return 0;
}
