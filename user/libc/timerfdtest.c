// SPDX-License-Identifier: MIT
/*
 * timerfdtest: timerfd_create, timerfd_settime and timerfd_gettime as a
 * program sees them, one line per case, so that the same static binary's
 * output can be set beside Linux's (the system test runs it on the host
 * and on Pagoda). Timing cases print only what holds however late the
 * program is woken: "at least", "within".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "errno_name.h"

static const char *err_name(long r)
{
	return r >= 0 ? "ok" : errno_name(errno);
}

static void ms_sleep(long ms)
{
	struct timespec ts = { ms / 1000, ms % 1000 * 1000000 };

	nanosleep(&ts, NULL);
}

static struct itimerspec ms_spec(long value_ms, long interval_ms)
{
	struct itimerspec its = {
		.it_value = { value_ms / 1000, value_ms % 1000 * 1000000 },
		.it_interval = { interval_ms / 1000, interval_ms % 1000 * 1000000 },
	};
	return its;
}

static long ms_of(const struct timespec *ts)
{
	return ts->tv_sec * 1000 + ts->tv_nsec / 1000000;
}

int main(void)
{
	struct itimerspec its, cur, old;
	uint64_t n = 0;
	int fd, nb;
	long r;

	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("create, clock 99: %s\n", err_name(timerfd_create(99, 0)));
	printf("create, flag 1: %s\n", err_name(timerfd_create(CLOCK_MONOTONIC, 1)));
	fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
	nb = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK);
	printf("create, monotonic and nonblocking: %s\n", fd >= 0 && nb >= 0 ? "ok" : "FAIL");
	printf("create, realtime: %s\n", err_name(timerfd_create(CLOCK_REALTIME, 0)));
	printf("create, boottime: %s\n", err_name(timerfd_create(CLOCK_BOOTTIME, 0)));

	its = ms_spec(10, 0);
	printf("settime, fd -1: %s\n", err_name(timerfd_settime(-1, 0, &its, NULL)));
	printf("settime, not a timerfd: %s\n", err_name(timerfd_settime(0, 0, &its, NULL)));
	printf("settime, flag 4: %s\n", err_name(timerfd_settime(fd, 4, &its, NULL)));
	its.it_value.tv_nsec = 1000000000;
	printf("settime, nsec 1e9: %s\n", err_name(timerfd_settime(fd, 0, &its, NULL)));
	printf("settime, NULL value: %s\n", err_name(timerfd_settime(fd, 0, NULL, NULL)));
	printf("gettime, not a timerfd: %s\n", err_name(timerfd_gettime(1, &cur)));

	r = timerfd_gettime(fd, &cur);
	printf("gettime, disarmed: %s %ld %ld\n", err_name(r), ms_of(&cur.it_value),
	       ms_of(&cur.it_interval));

	its = ms_spec(200, 0);
	timerfd_settime(nb, 0, &its, NULL);
	printf("read, nonblocking, not expired: %s\n", err_name(read(nb, &n, sizeof(n))));
	printf("poll, not expired: %d\n", poll(&(struct pollfd){ .fd = nb, .events = POLLIN }, 1, 0));
	timerfd_gettime(nb, &cur);
	printf("gettime, armed 200 ms: left within (0, 200]: %s\n",
	       ms_of(&cur.it_value) <= 200 && (cur.it_value.tv_sec || cur.it_value.tv_nsec) ? "yes" : "no");
	its = ms_spec(20, 0);
	timerfd_settime(nb, 0, &its, &old);
	printf("settime, old value within (0, 200], no interval: %s\n",
	       ms_of(&old.it_value) <= 200 && old.it_value.tv_nsec && !ms_of(&old.it_interval) ?
	       "yes" : "no");
	ms_sleep(60);
	printf("poll, expired: %d\n", poll(&(struct pollfd){ .fd = nb, .events = POLLIN }, 1, 0));
	printf("read, 4 bytes: %s\n", err_name(read(nb, &n, 4)));
	r = read(nb, &n, sizeof(n));
	printf("read, expired one-shot: %ld bytes, %llu expiration\n", r, (unsigned long long)n);
	printf("read again: %s\n", err_name(read(nb, &n, sizeof(n))));
	timerfd_gettime(nb, &cur);
	printf("gettime, one-shot done: %ld %ld\n", ms_of(&cur.it_value), ms_of(&cur.it_interval));

	its = ms_spec(10, 10);
	timerfd_settime(nb, 0, &its, NULL);
	ms_sleep(105);
	r = read(nb, &n, sizeof(n));
	printf("read, 10 ms interval after 105 ms: at least 10: %s\n", r == 8 && n >= 10 ? "yes" : "no");
	timerfd_gettime(nb, &cur);
	printf("gettime, periodic: interval %ld, left within (0, 10]: %s\n", ms_of(&cur.it_interval),
	       ms_of(&cur.it_value) <= 10 && (cur.it_value.tv_sec || cur.it_value.tv_nsec) ? "yes" : "no");
	its = ms_spec(0, 0);
	timerfd_settime(nb, 0, &its, NULL);
	printf("disarmed: read %s\n", err_name(read(nb, &n, sizeof(n))));

	its = ms_spec(30, 0);
	timerfd_settime(fd, 0, &its, NULL);
	r = read(fd, &n, sizeof(n));
	printf("read, blocking, 30 ms one-shot: %ld bytes, %llu expiration\n", r,
	       (unsigned long long)n);
	clock_gettime(CLOCK_MONOTONIC, &its.it_value);
	its.it_value.tv_nsec += 20000000;
	if (its.it_value.tv_nsec >= 1000000000) {
		its.it_value.tv_sec++;
		its.it_value.tv_nsec -= 1000000000;
	}
	its.it_interval = (struct timespec){ 0, 0 };
	timerfd_settime(fd, TFD_TIMER_ABSTIME, &its, NULL);
	printf("poll, absolute 20 ms ahead, 2 s timeout: %d\n",
	       poll(&(struct pollfd){ .fd = fd, .events = POLLIN }, 1, 2000));
	r = read(fd, &n, sizeof(n));
	printf("read, absolute: %ld bytes, %llu expiration\n", r, (unsigned long long)n);
	its.it_value = (struct timespec){ 1, 0 }; /* long past: at once */
	timerfd_settime(fd, TFD_TIMER_ABSTIME, &its, NULL);
	r = read(fd, &n, sizeof(n));
	printf("read, absolute time in the past: %ld bytes, %llu expiration\n", r,
	       (unsigned long long)n);
	close(fd);
	close(nb);
	printf("timerfdtest: done\n");
	return 0;
}
