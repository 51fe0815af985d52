// SPDX-License-Identifier: MIT
/*
 * vdsobench: what the vDSO saves, measured in one process: ns per call of
 * clock_gettime(CLOCK_MONOTONIC) and gettimeofday through the vDSO and
 * through the system call, the ratio, and a trivial system call's round
 * trip (getpid), getcpu (x86-64), and what fork+exit+wait and an execve
 * cost. Timed with the vDSO's own monotonic clock. Arguments:
 * the vDSO's version and its clock_gettime and gettimeofday names (the
 * kernel's `bench vdso` passes them). Prints a table and "BENCH" JSON lines.
 */
#include <ulib.h>

#define ROUNDS 20000

typedef int (*clock_gettime_t)(long, struct timespec *);
typedef int (*gettimeofday_t)(void *, void *);

static clock_gettime_t vclock;

static long now_ns(void)
{
	struct timespec t;

	vclock(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000L + t.tv_nsec;
}

/* Figures are tenths of a ns per call; the shim's printf has no widths. */
static void row(const char *what, long vdso_t, long sys_t)
{
	long ratio10 = vdso_t ? sys_t * 10 / vdso_t : 0;

	printf("  %s: syscall/vdso x%ld.%ld (vdso %ld.%ld ns, syscall %ld.%ld ns per call)\n",
	       what, ratio10 / 10, ratio10 % 10, vdso_t / 10, vdso_t % 10, sys_t / 10, sys_t % 10);
	printf("BENCH {\"bench\":\"vdso\",\"call\":\"%s\",\"ratio\":%ld.%ld,\"vdso_ns\":%ld.%ld,\"syscall_ns\":%ld.%ld}\n",
	       what, ratio10 / 10, ratio10 % 10, vdso_t / 10, vdso_t % 10, sys_t / 10, sys_t % 10);
}

#define PROC_ROUNDS 100

/*
 * What a process costs: fork + exit + wait4, and the same with an execve
 * of this program (which exits at once) in the child. Whole microseconds
 * per round.
 */
static void process_costs(const char *self)
{
	char *const argv[] = { (char *)self, "--exit", NULL };
	long t0, fork_ns, exec_ns;
	int status;

	t0 = now_ns();
	for (int i = 0; i < PROC_ROUNDS; i++) {
		long pid = fork();

		if (pid == 0)
			exit(0);
		syscall6(__NR_wait4, pid, &status, 0, 0, 0, 0);
	}
	fork_ns = (now_ns() - t0) / PROC_ROUNDS;
	t0 = now_ns();
	for (int i = 0; i < PROC_ROUNDS; i++) {
		long pid = fork();

		if (pid == 0) {
			syscall3(__NR_execve, self, argv, 0);
			exit(1);
		}
		syscall6(__NR_wait4, pid, &status, 0, 0, 0, 0);
	}
	exec_ns = (now_ns() - t0) / PROC_ROUNDS;
	/* Both whole: their difference is the exec only when the noise allows. */
	printf("  fork+exit+wait: %ld us; fork+execve+exit+wait: %ld us\n", fork_ns / 1000,
	       exec_ns / 1000);
	printf("BENCH {\"bench\":\"vdso\",\"call\":\"fork_exit_wait\",\"us\":%ld}\n",
	       fork_ns / 1000);
	printf("BENCH {\"bench\":\"vdso\",\"call\":\"fork_exec_wait\",\"us\":%ld}\n",
	       exec_ns / 1000);
}

int main(int argc, char **argv, char **envp)
{
	gettimeofday_t vtod;
	struct timespec ts;
	long tv[2], t0, v, s;

	(void)envp;
	if (argc == 2 && !strcmp(argv[1], "--exit"))
		return 0; /* process_costs()'s exec target */
	if (argc < 4) {
		printf("usage: vdsobench VERSION CLOCK_GETTIME GETTIMEOFDAY\n");
		return 1;
	}
	vclock = (clock_gettime_t)vdso_sym(argv[2]);
	vtod = (gettimeofday_t)vdso_sym(argv[3]);
	if (!vclock || !vtod) {
		printf("vdsobench: no vDSO symbols %s/%s\n", argv[2], argv[3]);
		return 1;
	}
	/* Each figure: tenths of a ns per call, over ROUNDS calls. */
	t0 = now_ns();
	for (int i = 0; i < ROUNDS; i++)
		vclock(CLOCK_MONOTONIC, &ts);
	v = (now_ns() - t0) * 10 / ROUNDS;
	t0 = now_ns();
	for (int i = 0; i < ROUNDS; i++)
		clock_gettime(CLOCK_MONOTONIC, &ts);
	s = (now_ns() - t0) * 10 / ROUNDS;
	printf("vdso bench, %d calls each (%s):\n", ROUNDS, argv[1]);
	row("clock_gettime", v, s);
	t0 = now_ns();
	for (int i = 0; i < ROUNDS; i++)
		vtod(tv, NULL);
	v = (now_ns() - t0) * 10 / ROUNDS;
	t0 = now_ns();
	for (int i = 0; i < ROUNDS; i++)
		syscall2(__NR_gettimeofday, tv, 0);
	s = (now_ns() - t0) * 10 / ROUNDS;
	row("gettimeofday", v, s);
	t0 = now_ns();
	for (int i = 0; i < ROUNDS; i++)
		getpid();
	s = (now_ns() - t0) * 10 / ROUNDS;
	printf("  getpid: a syscall round trip, %ld.%ld ns\n", s / 10, s % 10);
	printf("BENCH {\"bench\":\"vdso\",\"call\":\"getpid\",\"syscall_ns\":%ld.%ld}\n",
	       s / 10, s % 10);
#ifdef __x86_64__
	{
		typedef long (*getcpu_t)(unsigned int *, unsigned int *, void *);
		getcpu_t vgetcpu = (getcpu_t)vdso_sym("__vdso_getcpu");
		unsigned int cpu, node;

		if (vgetcpu) {
			t0 = now_ns();
			for (int i = 0; i < ROUNDS; i++)
				vgetcpu(&cpu, &node, NULL);
			v = (now_ns() - t0) * 10 / ROUNDS;
			t0 = now_ns();
			for (int i = 0; i < ROUNDS; i++)
				syscall3(__NR_getcpu, &cpu, &node, 0);
			s = (now_ns() - t0) * 10 / ROUNDS;
			row("getcpu", v, s);
		}
	}
#endif
	process_costs(argv[0]);
	return 0;
}
