/*
 * fork while another thread of the parent writes. The child's memory is
 * the parent's at the moment of the fork and stays so, whatever the
 * parent's threads do afterwards. fork makes the parent's pages read-only
 * (copy-on-write), but a CPU running the writer may still hold a writable
 * TLB entry for the page it keeps writing: unless fork flushes it, the
 * writer's next stores go on landing in the page the child now shares,
 * without a fault (docs/processes.md, "Copy-on-write").
 *
 * Each round forks while the writer runs on another CPU; the child reads
 * the counter, spins a while, and reads it again: it must not have moved.
 * A plain C program on a real libc (musl on x86-64, glibc on arm64).
 * Prints one line and exits 0, or 1 with the round that failed.
 *
 * When fork does get it wrong, parent and child can share more than the
 * counter: their stacks. A child may then come back from fork as the
 * parent (so a child knows itself by getpid()), and any local may be
 * garbage (so the first failure leaves at once, with _exit()). Should
 * they still run each other's frames for ever, an alarm of HANG_GUARD
 * seconds, far beyond a correct run's second or so, turns that into a
 * death by SIGALRM instead of a hung boot.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define ROUNDS 8
#define SPIN 1000000L	/* the child's wait between its two reads */
#define HANG_GUARD 30

static volatile unsigned long counter;	/* private data: copied on write at fork */
static volatile int started, stop;
/*
 * Written once before the first fork. A child knows itself by getpid(),
 * not by fork's answer: with a wrong fork the child may run on a stack
 * the parent is still writing, and come back from fork as the parent.
 */
static pid_t parent_pid;

static void *writer(void *arg)
{
	(void)arg;
	started = 1;
	while (!stop)
		counter++;
	return NULL;
}

int main(void)
{
	pthread_t t;
	int bad = 0;

	if (pthread_create(&t, NULL, writer, NULL)) {
		printf("forkrace: no thread\n");
		return 2;
	}
	parent_pid = getpid();
	alarm(HANG_GUARD);
	while (!started)
		;
	for (int round = 0; round < ROUNDS && !bad; round++) {
		pid_t pid = fork(), got;
		int status;

		if (pid == 0 || getpid() != parent_pid) {
			unsigned long a = counter, b;

			alarm(HANG_GUARD);	/* a child does not inherit its parent's */
			for (volatile long i = 0; i < SPIN; i++)
				;
			b = counter;
			_exit(a == b && pid == 0 ? 0 : 1);
		}
		if (pid < 0) {
			printf("forkrace: fork failed in round %d: %s\n", round, strerror(errno));
			bad = 2;
		} else if ((got = waitpid(pid, &status, 0)) != pid) {
			printf("forkrace: waitpid(%d) gave %d in round %d: %s\n", (int)pid,
			       (int)got, round, strerror(errno));
			bad = 2;
		} else if (!WIFEXITED(status) || WEXITSTATUS(status)) {
			printf("forkrace: round %d: the child's memory changed after the fork\n",
			       round);
			bad = 1;
		}
		/*
		 * Out at once, the writer with us: after a wrong fork this
		 * stack may hold anything, the thread handle too, and a join
		 * could wait for ever.
		 */
		if (bad) {
			fflush(stdout);
			_exit(bad);
		}
	}
	stop = 1;
	pthread_join(t, NULL);
	if (!bad)
		printf("forkrace: %d forks, no child saw the parent's writes\n", ROUNDS);
	return bad;
}
