// SPDX-License-Identifier: MIT
/*
 * syzfuzz: random system calls from user space, the idea of trinity and
 * syzkaller in one small static program (docs/fuzzing.md).
 *
 *	syzfuzz SECONDS [SEED [WORKERS [CALLS]]]
 *	                                   fuzz for SECONDS; SEED 0 or none:
 *	                                   one from the clock, printed; CALLS
 *	                                   (name,name,...): only those
 *	syzfuzz -w SEED [NR_CALLS [CALLS]] one worker's calls, each printed:
 *	                                   the reproducer of a finding
 *
 * The parent (the supervisor) only forks workers, waits for them and
 * kills the ones that outlive their second: it makes no random call
 * itself, so nothing a worker does can end the run. Worker g runs with
 * the seed mix(SEED, g), so SEED replays the same calls in the same
 * workers. A worker makes random calls from the kernel's table of Linux
 * numbers (<asm/unistd.h>, read when this program is built, so a call
 * added to the kernel is fuzzed from its next build on), and now and
 * then a number outside it. Arguments come from pools: its own fds,
 * mappings, children and scratch files; valid, unmapped, kernel and
 * non-canonical addresses; lengths at page and type boundaries. A worker
 * forks children that make a few calls of their own and exit, and kills
 * them when it ends. Each worker leads a process group of its own, so
 * the supervisor's SIGKILL reaches the children of a worker killed
 * before it could kill them (orphans that ran on in user space, making
 * no more calls, were once taken for a leak).
 *
 * What it must never reach is other processes or the files of the
 * system: calls taking a pid get one of its own (or one that does not
 * exist), paths are scratch names or read-only /proc files, and the
 * calls in deny[] below are never made (each says why).
 */
#include <ulib.h>

struct sysent {
	long nr;
	const char *name;
};

/* {__NR_x, "x"} for every number the kernel defines (user/user.mk). */
static const struct sysent table[] = {
#include "syzfuzz_table.h"
};
#define NR_TABLE (sizeof(table) / sizeof(table[0]))

/* The calls to choose from: the whole table, or those CALLS names. */
static unsigned int chosen[NR_TABLE], nr_chosen;

static void choose(const char *names)
{
	for (unsigned int i = 0; i < NR_TABLE; i++) {
		const char *n = table[i].name, *p = names;
		int hit = !names;

		while (p && *p && !hit) {
			unsigned int k = 0;

			while (n[k] && p[k] == n[k])
				k++;
			hit = !n[k] && (p[k] == ',' || !p[k]);
			while (*p && *p != ',')
				p++;
			if (*p == ',')
				p++;
		}
		if (hit)
			chosen[nr_chosen++] = i;
	}
}

/* Never called, and why. */
static const char *const deny[][2] = {
	{ "exit", "ends the worker at once: every worker exits at its end anyway" },
	{ "exit_group", "the same as exit for a one-thread worker" },
	{ "vfork", "the child runs on its parent's stack: random calls there corrupt it" },
	{ "rt_sigreturn", "loads registers from random stack bytes: tests only that a process can crash" },
	{ "reboot", "would end the run (and the machine)" },
	{ "kexec_load", "would end the run" },
	{ "ptrace", "could stop or rewrite the supervisor or the shell" },
	{ "process_vm_writev", "writes into another process, the shell too" },
	{ "pidfd_send_signal", "signals whatever process the fd names" },
	{ "setsid", "would leave the shell's session, so the shell could not kill it" },
	{ "setpgid", "the same, for process groups" },
	{ "mount", "the system's files must stay as they are for the tests after" },
	{ "umount2", "the same" },
	{ "chroot", "the same" },
	{ "pivot_root", "the same" },
	{ "swapoff", "the same" },
};

/*
 * Calls whose arguments name processes: argument i (bit i of mask) gets a
 * pid of its own pool, never another process's. kill(-1, ...) and
 * kill(0, ...) (everything, the whole group) are never made.
 */
static const struct {
	const char *name;
	unsigned int mask;
} pid_args[] = {
	{ "kill", 1 }, { "tkill", 1 }, { "tgkill", 3 }, { "wait4", 1 }, { "waitid", 2 },
	{ "prlimit64", 1 }, { "sched_setaffinity", 1 }, { "sched_getaffinity", 1 },
	{ "sched_setscheduler", 1 }, { "sched_setparam", 1 }, { "sched_getparam", 1 },
	{ "sched_getscheduler", 1 }, { "setpriority", 2 }, { "getpriority", 2 },
	{ "rt_sigqueueinfo", 1 }, { "rt_tgsigqueueinfo", 3 }, { "pidfd_open", 1 },
	{ "get_robust_list", 1 }, { "kcmp", 3 }, { "getpgid", 1 }, { "getsid", 1 },
	{ "process_vm_readv", 1 }, { "ioprio_set", 2 }, { "ioprio_get", 2 },
	{ "migrate_pages", 1 }, { "move_pages", 1 }, { "sched_setattr", 1 },
	{ "sched_getattr", 1 }, { "sched_rr_get_interval", 1 }, { "capget", 0 },
};

static int same(const char *a, const char *b)
{
	return !strcmp(a, b);
}

/* ---- the random source: splitmix64, so a seed names the whole sequence */

static unsigned long rng;

static unsigned long rnd(void)
{
	unsigned long z = (rng += 0x9e3779b97f4a7c15UL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9UL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebUL;
	return z ^ (z >> 31);
}

static unsigned long below(unsigned long n)
{
	return n ? rnd() % n : 0;
}

static unsigned long mix(unsigned long seed, unsigned long k)
{
	unsigned long save = rng, v;

	rng = seed ^ (k * 0xd1342543de82ef95UL);
	v = rnd();
	rng = save;
	return v;
}

/* ---- the pools */

#define PAGE 4096UL
#define POOL 16

static long fds[POOL], pids[POOL];
static unsigned long maps[POOL], map_len[POOL];
static unsigned int nr_fds, nr_pids, nr_maps;
static unsigned char *scratch;	/* 4 pages, the last one unmapped (a hole) */
static long self;
static int is_child;

static const char *const paths[] = {
	"syzfuzz-a", "syzfuzz-b", "syzfuzz-dir/x", "/proc/self/maps", "/proc/self/status",
	"/nonexistent/file", "",
	"syzfuzz-long-name-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
	"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
	"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
};

static void remember(long *pool, unsigned int *n, long v)
{
	if (*n < POOL)
		pool[(*n)++] = v;
	else
		pool[below(POOL)] = v;
}

static long a_pid(void)
{
	switch (below(5)) {
	case 0:
		return self;
	case 1:
		return 0x3fffffff;		/* no such process */
	default:
		return nr_pids ? pids[below(nr_pids)] : self;
	}
}

static long a_fd(void)
{
	switch (below(6)) {
	case 0:
		return -1;
	case 1:
		return 0x7fffffff;
	case 2:
		return (long)below(64);
	default:
		return nr_fds ? fds[below(nr_fds)] : 0;
	}
}

static unsigned long a_len(void)
{
	static const unsigned long lens[] = {
		0, 1, 8, 16, 64, 4095, 4096, 4097, 8192, 3 * 4096, 65536, 1UL << 20,
		0x7fffffff, 0x80000000UL, 0xffffffffUL, 1UL << 47, -4096UL, -1UL, -2UL,
	};

	return below(4) ? lens[below(sizeof(lens) / sizeof(lens[0]))] : below(1 << 16);
}

static unsigned long a_ptr(void)
{
	static const unsigned long bad[] = {
		0, 1, 4095, 0x1000, 0x7ffffffff000UL, 0x7fffffffffffUL, 0x0000800000000000UL,
		0xffff800000000000UL, 0xffffffff80000000UL, 0xffff000000000000UL, -1UL,
		0xffffffffffffe000UL,
	};

	switch (below(8)) {
	case 0:
		return bad[below(sizeof(bad) / sizeof(bad[0]))];
	case 1:	/* ends in the hole after the scratch pages */
		return (unsigned long)scratch + 3 * PAGE - 1 - below(64);
	case 2:
		return nr_maps ? maps[below(nr_maps)] + below(2) * PAGE : (unsigned long)scratch;
	case 3:
		return (unsigned long)paths[below(sizeof(paths) / sizeof(paths[0]))];
	default:
		return (unsigned long)scratch + below(3 * PAGE);
	}
}

static unsigned long an_int(void)
{
	static const unsigned long ints[] = {
		0, 1, 2, 3, 4, 8, 16, 32, 64, 0x80, 0x100, 0x800, 0x1000, 0x80000, 0x7fffffff,
		0x80000000UL, 0xffffffffUL, -1UL, 1UL << 63,
	};

	switch (below(4)) {
	case 0:
		return rnd();
	case 1:
		return 1UL << below(64);
	default:
		return ints[below(sizeof(ints) / sizeof(ints[0]))];
	}
}

static unsigned long an_arg(void)
{
	switch (below(4)) {
	case 0:
		return (unsigned long)a_fd();
	case 1:
		return a_ptr();
	case 2:
		return a_len();
	default:
		return an_int();
	}
}

/* ---- the calls */

static int denied(const char *name)
{
	for (unsigned int i = 0; i < sizeof(deny) / sizeof(deny[0]); i++)
		if (same(name, deny[i][0]))
			return 1;
	return 0;
}

static unsigned int pid_mask(const char *name)
{
	for (unsigned int i = 0; i < sizeof(pid_args) / sizeof(pid_args[0]); i++)
		if (same(name, pid_args[i].name))
			return pid_args[i].mask;
	return 0;
}

/* Calls a child may not make: it must end by itself, soon. */
static int may_block(const char *name)
{
	static const char *const slow[] = {
		"pause", "read", "readv", "pread64", "preadv", "wait4", "waitid", "futex",
		"nanosleep", "clock_nanosleep", "rt_sigsuspend", "rt_sigtimedwait", "poll",
		"ppoll", "select", "pselect6", "epoll_wait", "epoll_pwait", "accept", "accept4",
		"recvfrom", "recvmsg", "msgrcv", "semop", "flock", "execve", "execveat",
	};

	for (unsigned int i = 0; i < sizeof(slow) / sizeof(slow[0]); i++)
		if (same(name, slow[i]))
			return 1;
	return 0;
}

#define SIGKILL 9
#define WNOHANG 1
#define CLONE_VM 0x100UL
#define CLONE_FS 0x200UL
#define CLONE_FILES 0x400UL
#define CLONE_SIGHAND 0x800UL
#define CLONE_VFORK 0x4000UL
#define CLONE_THREAD 0x10000UL
#define CLONE_SETTLS 0x80000UL
#define CLONE_PARENT_SETTID 0x100000UL
#define CLONE_CHILD_CLEARTID 0x200000UL
#define CLONE_CHILD_SETTID 0x1000000UL

static void child_calls(void);

/*
 * One call, its arguments drawn; the answer feeds the pools. verbose:
 * print it (the reproducer's mode).
 */
static void one_call(int verbose)
{
	const struct sysent *e;
	unsigned long a[6];
	unsigned int mask;
	long nr, ret;
	const char *name;

	if (nr_chosen == NR_TABLE && below(200) == 0) {
		/* Any number: one outside the table is one the kernel has no handler for. */
		nr = (long)below(512);
		name = "?";
		for (unsigned int i = 0; i < NR_TABLE; i++)
			if (table[i].nr == nr)
				name = table[i].name;
	} else {
		e = &table[chosen[below(nr_chosen)]];
		nr = e->nr;
		name = e->name;
	}
	for (int i = 0; i < 6; i++)
		a[i] = an_arg();
	if (denied(name) || (is_child && may_block(name)))
		return;
	mask = pid_mask(name);
	for (int i = 0; i < 6; i++)
		if (mask & (1u << i))
			a[i] = (unsigned long)a_pid();
	if (same(name, "kill") || same(name, "tkill") || same(name, "tgkill")) {
		unsigned int sig = (unsigned int)below(65);

		/* itself only with a signal it survives (0, or ignored by default) */
		if (a[0] == (unsigned long)self || a[1] == (unsigned long)self)
			sig = (unsigned int)(below(2) ? 0 : 28 /* SIGWINCH */);
		a[same(name, "tgkill") ? 2 : 1] = sig;
	}
	if (same(name, "clone")) {
		/* a fork, whatever else: a shared VM or stack would run the child on ours */
		a[0] = (a[0] & ~(CLONE_VM | CLONE_VFORK | CLONE_THREAD | CLONE_SIGHAND |
				 CLONE_SETTLS | 0xffUL)) | (below(2) ? SIGCHLD : below(65));
		a[1] = 0;
	}
	if (verbose)
		printf("syzfuzz: %s(%lx, %lx, %lx, %lx, %lx, %lx)", name, a[0], a[1], a[2], a[3],
		       a[4], a[5]);
	if (same(name, "fork") || same(name, "clone")) {
		if (nr_pids >= POOL || is_child) {
			if (verbose)
				printf(" skipped\n");
			return;
		}
		ret = same(name, "fork") ? fork()
					 : syscall6(nr, a[0], 0, a[2], a[3], a[4], a[5]);
		if (ret == 0)
			child_calls();		/* never returns */
	} else {
		ret = syscall6(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
	}
	if (verbose)
		printf(" = %ld\n", ret);
	if (ret < 0)
		return;
	if (same(name, "open") || same(name, "openat") || same(name, "dup") ||
	    same(name, "dup2") || same(name, "dup3") || same(name, "creat") ||
	    same(name, "eventfd2") || same(name, "memfd_create") || same(name, "epoll_create1") ||
	    same(name, "socket") || same(name, "timerfd_create") || same(name, "signalfd4"))
		remember(fds, &nr_fds, ret);
	else if ((same(name, "pipe") || same(name, "pipe2")) && a[0] >= (unsigned long)scratch &&
		 a[0] < (unsigned long)scratch + 3 * PAGE - 8) {
		int *p = (int *)a[0];

		remember(fds, &nr_fds, p[0]);
		remember(fds, &nr_fds, p[1]);
	} else if (same(name, "fork") || same(name, "clone")) {
		remember(pids, &nr_pids, ret);
	} else if ((same(name, "mmap") || same(name, "mremap")) && nr_maps < POOL) {
		maps[nr_maps] = (unsigned long)ret;
		map_len[nr_maps++] = same(name, "mmap") ? a[1] : a[2];
	}
}

/* A worker's child: a few calls that cannot wait forever, then exit. */
static void child_calls(void)
{
	is_child = 1;
	self = getpid();
	nr_pids = 0;
	rng ^= (unsigned long)self << 32;
	for (int i = 0; i < 16; i++)
		one_call(0);
	syscall1(__NR_exit_group, 0);
	for (;;)
		;
}

/*
 * A call that waits (pause, a read of its own empty pipe, a long sleep)
 * would hold a worker until the supervisor kills it: SIGALRM every 20 ms,
 * caught without SA_RESTART, ends such a wait with -EINTR and the worker
 * goes on. Its own calls (alarm, setitimer, rt_sigaction, a mask) take
 * the timer or the handler away now and then: every 8 calls they are set
 * again. A wait begun before that is ended by the supervisor's kill.
 */
#define SIGALRM 14
#define ITIMER_REAL 0

static void on_alarm(int sig)
{
	(void)sig;
}

static void wake_every_20ms(void)
{
	long it[4] = { 0, 20000, 0, 20000 };	/* interval, value: 20 ms */

	unsigned long unblock = 1UL << (SIGALRM - 1);

	ulib_sigaction(SIGALRM, on_alarm, 0);
	syscall4(__NR_rt_sigprocmask, 1 /* SIG_UNBLOCK */, &unblock, 0, 8);
	syscall3(__NR_setitimer, ITIMER_REAL, it, 0);
}

static void setup(void)
{
	self = getpid();
	scratch = mmap(0, 4 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if ((long)scratch < 0 && (long)scratch > -4096) {
		printf("syzfuzz: no scratch memory\n");
		exit(1);
	}
	munmap(scratch + 3 * PAGE, PAGE);
	for (unsigned long i = 0; i < 3 * PAGE; i++)
		scratch[i] = (unsigned char)rnd();
}

/* A worker: CALLS calls, then its children killed and collected. */
static void worker(unsigned long seed, long calls, int verbose)
{
	rng = seed;
	setup();
	if (!verbose) {
		/* Random writes to fds 0-2 would flood the console: make them a read-only file. */
		long fd = syscall4(__NR_openat, -100, "/proc/self/status", 0, 0);

		for (int i = 0; fd >= 0 && i < 3; i++)
			if (fd != i)
				syscall3(__NR_dup3, fd, i, 0);
	}
	for (long i = 0; i < calls; i++) {
		if (i % 8 == 0)
			wake_every_20ms();
		one_call(verbose);
	}
	for (unsigned int i = 0; i < nr_pids; i++) {
		syscall2(__NR_kill, pids[i], SIGKILL);
		syscall4(__NR_wait4, pids[i], 0, 0, 0);
	}
	if (verbose)
		printf("syzfuzz: worker done\n");
	syscall1(__NR_exit_group, 0);
}

static unsigned long parse(const char *s)
{
	unsigned long v = 0;
	int base = 10;

	if (s[0] == '0' && s[1] == 'x') {
		base = 16;
		s += 2;
	}
	for (; *s; s++) {
		int d = *s >= '0' && *s <= '9' ? *s - '0' :
			*s >= 'a' && *s <= 'f' ? *s - 'a' + 10 : -1;

		if (d < 0 || d >= base)
			break;
		v = v * base + (unsigned long)d;
	}
	return v;
}

static unsigned long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long)ts.tv_sec * 1000 + (unsigned long)ts.tv_nsec / 1000000;
}

#define MAX_WORKERS 8
#define WORKER_CALLS 2000
#define WORKER_MS 1000
#define STUCK_MS 10000

/* Print /proc/PID/NAME, each line after a prefix; the part after skip_to, if given. */
static void show_proc(long pid, const char *name, char skip_to)
{
	char path[48], buf[2048], *p = path, *line;
	const char *digits = "0123456789";
	char num[24];
	int n = 0;
	long fd, len;

	memcpy(p, "/proc/", 6);
	p += 6;
	do
		num[n++] = digits[pid % 10];
	while ((pid /= 10) > 0);
	while (n)
		*p++ = num[--n];
	*p++ = '/';
	memcpy(p, name, strlen(name) + 1);
	fd = syscall4(__NR_openat, -100, path, 0, 0);
	if (fd < 0) {
		printf("syzfuzz:   %s: error %ld\n", path, fd);
		return;
	}
	len = syscall3(__NR_read, fd, buf, sizeof(buf) - 1);
	syscall1(__NR_close, fd);
	buf[len > 0 ? len : 0] = 0;
	line = buf;
	if (skip_to)
		while (*line && *line != skip_to)
			line++;
	while (*line) {
		char *end = line;

		while (*end && *end != '\n')
			end++;
		if (*end)
			*end++ = 0;
		printf("syzfuzz:   %s: %s\n", name, line);
		line = end;
	}
}

#define SHM_STAT 13
#define SHM_INFO 14
#define IPC_RMID 0

/*
 * System V segments outlive the processes that made them, on Linux as
 * here: a worker's shmget without IPC_RMID leaves one for good (syzkaller
 * runs each program in an IPC namespace of its own for this). The
 * supervisor removes what is left, found as ipcs finds it (SHM_INFO for
 * the highest slot, SHM_STAT for the id in each), so that the memory the
 * run took comes back and a leak check sees only what the kernel lost.
 */
static unsigned long remove_shm_segments(void)
{
	unsigned char info[64], ds[128];
	long max = syscall3(__NR_shmctl, 0, SHM_INFO, info), id;
	unsigned long removed = 0;

	for (long i = 0; i <= max; i++) {
		id = syscall3(__NR_shmctl, i, SHM_STAT, ds);
		if (id >= 0 && syscall3(__NR_shmctl, id, IPC_RMID, 0) == 0)
			removed++;
	}
	return removed;
}

int main(int argc, char **argv, char **envp)
{
	unsigned long seed, end, started[MAX_WORKERS] = { 0 }, wseed[MAX_WORKERS] = { 0 };
	long alive[MAX_WORKERS] = { 0 };
	int sent[MAX_WORKERS] = { 0 };
	unsigned long spawned = 0, exited = 0, killed = 0, crashed = 0, stuck = 0;
	unsigned int nworkers = 4;
	struct timespec tick = { 0, 10 * 1000 * 1000 }, second = { 1, 0 };

	(void)envp;
	if (argc >= 3 && same(argv[1], "-w")) {
		choose(argc > 4 ? argv[4] : 0);
		worker(parse(argv[2]), argc > 3 ? (long)parse(argv[3]) : WORKER_CALLS, 1);
		return 0;
	}
	if (argc < 2) {
		printf("usage: syzfuzz SECONDS [SEED [WORKERS [NAME,...]]] | "
		       "syzfuzz -w WORKER_SEED [NR_CALLS [NAME,...]]\n");
		return 2;
	}
	seed = argc > 2 ? parse(argv[2]) : 0;
	if (!seed) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		seed = mix((unsigned long)ts.tv_nsec, (unsigned long)ts.tv_sec) | 1;
	}
	if (argc > 3)
		nworkers = (unsigned int)parse(argv[3]);
	if (nworkers < 1 || nworkers > MAX_WORKERS)
		nworkers = 4;
	choose(argc > 4 ? argv[4] : 0);
	if (!nr_chosen) {
		printf("syzfuzz: none of %s is in the table\n", argv[4]);
		return 2;
	}
	printf("syzfuzz: seed 0x%lx, %u workers, %lu s, %u of the table's %lu calls\n", seed,
	       nworkers, parse(argv[1]), nr_chosen, (unsigned long)NR_TABLE);
	end = now_ms() + parse(argv[1]) * 1000;
	for (;;) {
		unsigned long now = now_ms();
		int status;
		long pid;

		for (unsigned int i = 0; i < nworkers; i++) {
			if (alive[i] && !sent[i] && now - started[i] > WORKER_MS) {
				syscall2(__NR_kill, -alive[i], SIGKILL);
				killed++;
				sent[i] = 1;
			}
			if (alive[i] && now - started[i] > WORKER_MS + STUCK_MS) {
				printf("syzfuzz: worker %ld (-w 0x%lx) still there %d ms after SIGKILL\n",
				       alive[i], wseed[i], STUCK_MS);
				/* what it is doing: its state and where in the kernel it waits */
				show_proc(alive[i], "stat", ')');
				show_proc(alive[i], "status", 0); /* its signals: pending, blocked */
				show_proc(alive[i], "stack", 0);
				/*
				 * Busy or waiting? A task running on a CPU has no stack to
				 * show (Linux's answer too); its system time, a second
				 * later, says whether it is working in the kernel.
				 */
				syscall2(__NR_nanosleep, &second, 0);
				show_proc(alive[i], "stat", ')');
				stuck++;
				alive[i] = 0;
			}
			if (!alive[i] && now < end) {
				unsigned long ws = mix(seed, spawned);

				pid = fork();
				if (pid == 0) {
					syscall2(__NR_setpgid, 0, 0);
					worker(ws, WORKER_CALLS, 0);
				}
				if (pid < 0) {
					printf("syzfuzz: fork: %ld\n", pid);
					break;
				}
				/* both sides, as a shell does: whichever runs first */
				syscall2(__NR_setpgid, pid, pid);
				alive[i] = pid;
				started[i] = now;
				wseed[i] = ws;
				sent[i] = 0;
				spawned++;
			}
		}
		while ((pid = syscall4(__NR_wait4, -1, &status, WNOHANG, 0)) > 0) {
			for (unsigned int i = 0; i < nworkers; i++) {
				if (alive[i] != pid)
					continue;
				alive[i] = 0;
				/* the worker's children it had no time to kill: orphans, same group */
				syscall2(__NR_kill, -pid, SIGKILL);
				if ((status & 0x7f) == 0)
					exited++;
				else if ((status & 0x7f) != SIGKILL && crashed++ < 4)
					/* its own doing (a signal its calls asked for): shown, not a finding */
					printf("syzfuzz: worker %ld (-w 0x%lx) ended by signal %d\n", pid,
					       wseed[i], status & 0x7f);
			}
		}
		if (now >= end) {
			int left = 0;

			for (unsigned int i = 0; i < nworkers; i++)
				if (alive[i]) {
					if (!sent[i])
						syscall2(__NR_kill, -alive[i], SIGKILL);
					sent[i] = 1;
					left = 1;
				}
			if (!left)
				break;
		}
		syscall2(__NR_nanosleep, &tick, 0);
	}
	printf("syzfuzz: %lu workers: %lu finished, %lu killed at their time, %lu ended by a "
	       "signal, %lu would not die; seed 0x%lx\n", spawned, exited, killed, crashed, stuck,
	       seed);
	printf("syzfuzz: %lu System V segments the workers left removed\n", remove_shm_segments());
	printf("syzfuzz: done\n");
	return 0;
}
