// SPDX-License-Identifier: MIT
/*
 * The vDSO's clocks, written once for every arch (as Linux's
 * lib/vdso/gettimeofday.c): each arch's vclock.c includes this file after
 * defining vdso_read_cycles() and vdso_syscall2() and including its
 * <asm/unistd.h>, then names the entry points its C libraries look up. It
 * runs in user mode, inside every process: no kernel calls, no globals,
 * only the vvar page, read under its sequence count.
 */
#include <pagoda/vdso.h>

#define NSEC_PER_SEC_V 1000000000ULL

#ifdef VDSO_LAYOUT_ALT
/*
 * `make VDSO_LAYOUT=alt`: 256 bytes the linker script puts before all the
 * code, so every entry point moves as it would in another kernel build's
 * vDSO; restoring an image across the two needs jumps (kernel/cr/).
 */
__asm__(".pushsection .text.vdso_pad, \"ax\"\n\t.fill 256, 1, 0\n\t.popsection");
#endif

struct vdso_timespec {
	long tv_sec, tv_nsec;
};

struct vdso_timeval {
	long tv_sec, tv_usec;
};

/* The vvar page, which the arch's vdso.lds places just below the image. */
extern struct vdso_data vvar_page __attribute__((visibility("hidden")));

static inline const volatile struct vdso_data *vdso_data(void)
{
	return &vvar_page;
}

/* A clock not served here: the system call, as without a vDSO. */
static int clock_gettime_fallback(long clk, struct vdso_timespec *ts)
{
	return (int)vdso_syscall2(__NR_clock_gettime, clk, (long)ts);
}

static int gettimeofday_fallback(struct vdso_timeval *tv, void *tz)
{
	return (int)vdso_syscall2(__NR_gettimeofday, (long)tv, (long)tz);
}

static int clock_getres_fallback(long clk, struct vdso_timespec *res)
{
	return (int)vdso_syscall2(__NR_clock_getres, clk, (long)res);
}

/* a * b / c as kernel/time/timekeeping.c computes it, to the nanosecond. */
static inline u64 vdso_mul_div(u64 a, u64 b, u64 c)
{
	return (a / c) * b + (a % c) * b / c;
}

static inline u32 vdso_read_begin(const volatile struct vdso_data *vd)
{
	u32 seq;

	while ((seq = __atomic_load_n(&vd->seq, __ATOMIC_ACQUIRE)) & 1)
		;
	return seq;
}

static inline bool vdso_read_retry(const volatile struct vdso_data *vd, u32 seq)
{
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return __atomic_load_n(&vd->seq, __ATOMIC_RELAXED) != seq;
}

/* 0 with *ns set, or -1: this clock is not served here. */
static int vdso_clock_ns(const volatile struct vdso_data *vd, long clk, u64 *ns)
{
	u32 seq;
	u64 v;

	do {
		seq = vdso_read_begin(vd);
		if (vd->clock_mode != VDSO_CLOCK_COUNTER)
			return -1;
		switch (clk) {
		case 0: /* CLOCK_REALTIME */
		case 1: /* CLOCK_MONOTONIC */
		case 4: /* CLOCK_MONOTONIC_RAW */
		case 7: /* CLOCK_BOOTTIME */
		case 11: /* CLOCK_TAI: realtime, the TAI offset being 0 */
			v = vdso_mul_div(vdso_read_cycles() - vd->boot_cycles, NSEC_PER_SEC_V, vd->hz);
			if (clk == 0 || clk == 11)
				v += (u64)vd->real_offset_ns;
			break;
		case 5: /* CLOCK_REALTIME_COARSE */
			v = vd->coarse_ns + (u64)vd->real_offset_ns;
			break;
		case 6: /* CLOCK_MONOTONIC_COARSE */
			v = vd->coarse_ns;
			break;
		default:
			return -1;
		}
	} while (vdso_read_retry(vd, seq));
	*ns = v;
	return 0;
}

static int do_clock_gettime(long clk, struct vdso_timespec *ts)
{
	u64 ns;

	if (vdso_clock_ns(vdso_data(), clk, &ns))
		return clock_gettime_fallback(clk, ts);
	ts->tv_sec = (long)(ns / NSEC_PER_SEC_V);
	ts->tv_nsec = (long)(ns % NSEC_PER_SEC_V);
	return 0;
}

static int do_gettimeofday(struct vdso_timeval *tv, void *tz)
{
	u64 ns;

	if (vdso_clock_ns(vdso_data(), 0, &ns))
		return gettimeofday_fallback(tv, tz);
	if (tv) {
		tv->tv_sec = (long)(ns / NSEC_PER_SEC_V);
		tv->tv_usec = (long)(ns % NSEC_PER_SEC_V / 1000);
	}
	if (tz) {
		/* Linux's sys_tz, never set here: minutes west and DST both 0. */
		((int *)tz)[0] = 0;
		((int *)tz)[1] = 0;
	}
	return 0;
}

static int do_clock_getres(long clk, struct vdso_timespec *res)
{
	u64 ns;

	if (vdso_clock_ns(vdso_data(), clk, &ns))
		return clock_getres_fallback(clk, res);
	if (res) {
		/* The coarse clocks move a tick at a time; the others by the nanosecond. */
		res->tv_sec = 0;
		res->tv_nsec = clk == 5 || clk == 6 ? (long)vdso_data()->coarse_res_ns : 1;
	}
	return 0;
}
