/*
 * The futex calls themselves, one promise per mode (the lab "threads",
 * docs/labs/threads.md; the suite futex in kernel/futex/futex_test.c runs
 * each mode as a case). Raw FUTEX_WAIT and FUTEX_WAKE on words of its
 * own, with pthreads only to have several threads: it runs alike on
 * Linux, where every mode exits 0.
 *
 *   value     a wait whose word holds another value returns EAGAIN at
 *             once; one whose word holds it sleeps (to its timeout)
 *   wake-n    three threads wait on one word: a wake of 1 wakes one, and
 *             the count it returns is the number that left
 *   private   after fork, parent and child each have a private word at
 *             the same address: a wake of the parent's reaches no waiter
 *             of the child's
 *   shared    a word in MAP_SHARED memory is one futex in both: the
 *             parent's wake reaches the child's waiter
 *   pingpong  two threads hand a turn back and forth 2000 times, each
 *             waking the other: a wake that comes between a waiter's read
 *             of the word and its queueing must not be lost
 *
 * Every wait has a timeout and an alarm bounds the whole run, so a wrong
 * kernel costs a failed mode, never a hung boot. Prints a line per check
 * and exits with the number that failed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* <linux/futex.h>'s numbers (musl's headers have no linux/). */
#define FUTEX_WAIT 0
#define FUTEX_WAKE 1
#define FUTEX_PRIVATE_FLAG 128
#define FUTEX_WAIT_PRIVATE (FUTEX_WAIT | FUTEX_PRIVATE_FLAG)
#define FUTEX_WAKE_PRIVATE (FUTEX_WAKE | FUTEX_PRIVATE_FLAG)

#define HANG_GUARD 60	/* seconds: far beyond any mode's right run */

static int fails;

static void check(int ok, const char *what)
{
	printf("futextest: %s: %s\n", what, ok ? "ok" : "FAIL");
	fflush(stdout);
	fails += !ok;
}

/* The raw call: its answer, or -errno. */
static long futex(volatile int *word, int op, int val, long timeout_ms)
{
	struct timespec ts = { timeout_ms / 1000, (timeout_ms % 1000) * 1000000L };
	long r = syscall(SYS_futex, word, op, val, timeout_ms ? &ts : NULL, NULL, 0);

	return r < 0 ? -errno : r;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* --- value -------------------------------------------------------------- */

static void mode_value(void)
{
	volatile int word = 5;

	check(futex(&word, FUTEX_WAIT_PRIVATE, 4, 500) == -EAGAIN,
	      "a wait on a word that changed returns EAGAIN");
	check(futex(&word, FUTEX_WAIT_PRIVATE, 5, 50) == -ETIMEDOUT,
	      "a wait on a word that holds the value sleeps to its timeout");
	check(futex(&word, FUTEX_WAKE_PRIVATE, 1, 0) == 0, "a wake with no waiter wakes 0");
}

/* --- wake-n ------------------------------------------------------------- */

#define WAITERS 3

static volatile int gate;		/* 0 while the waiters are to wait */
static volatile int ready, left;	/* waiters about to wait; waiters gone */

static void *gate_waiter(void *arg)
{
	(void)arg;
	__atomic_fetch_add(&ready, 1, __ATOMIC_SEQ_CST);
	/* Five seconds: a lost waiter ends, the mode fails, the run goes on. */
	futex(&gate, FUTEX_WAIT_PRIVATE, 0, 5000);
	__atomic_fetch_add(&left, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

static void mode_wake_n(void)
{
	pthread_t t[WAITERS];
	int woken = 0, over = 0, mismatch = 0;

	for (int i = 0; i < WAITERS; i++)
		pthread_create(&t[i], NULL, gate_waiter, NULL);
	while (__atomic_load_n(&ready, __ATOMIC_SEQ_CST) < WAITERS)
		sleep_ms(1);
	/* Time to queue: a wake before a waiter queued only wakes fewer. */
	sleep_ms(200);
	for (int tries = 0; woken < WAITERS && tries < 100; tries++) {
		long r = futex(&gate, FUTEX_WAKE_PRIVATE, 1, 0);

		if (r < 0 || r > 1)
			over++;
		if (r > 0)
			woken += r;
		/* Those woken have left, and no one else: they had no other way out. */
		for (int w = 0; w < 100 && __atomic_load_n(&left, __ATOMIC_SEQ_CST) < woken; w++)
			sleep_ms(2);
		sleep_ms(10);
		mismatch += __atomic_load_n(&left, __ATOMIC_SEQ_CST) != woken;
	}
	check(!over, "a wake of 1 wakes at most one waiter");
	check(!mismatch, "the waiters that left are the ones a wake counted");
	check(woken == WAITERS, "every waiter is woken in the end");
	for (int i = 0; i < WAITERS; i++)
		pthread_join(t[i], NULL);
}

/* --- private and shared: two processes ----------------------------------- */

/*
 * A child waits on word (its own copy after fork, or the parent's word
 * itself when it is shared) for up to wait_ms, and exits 0 if the wait
 * answered want. The parent, told by a pipe that the child is about to
 * wait, wakes word every 10 ms for 0.3 s; the total it woke is
 * returned, the child's verdict in *child_ok.
 */
static long wake_a_child(volatile int *word, int op_wait, int op_wake, long wait_ms, long want,
			 int *child_ok)
{
	int p[2], status;
	long woken = 0;
	char c;
	pid_t pid;

	if (pipe(p) || (pid = fork()) < 0) {
		*child_ok = 0;
		return -1;
	}
	if (!pid) {
		long r;

		close(p[0]);
		if (write(p[1], "w", 1) != 1)
			_exit(2);
		r = futex(word, op_wait, 0, wait_ms);
		_exit(r == want ? 0 : 1);
	}
	close(p[1]);
	if (read(p[0], &c, 1) != 1)
		woken = -1;
	for (int i = 0; i < 30 && woken >= 0; i++) {
		long r;

		sleep_ms(10);
		r = futex(word, op_wake, INT_MAX, 0);
		if (r < 0) {
			woken = -1;
			break;
		}
		woken += r;
		if (want == 0 && woken)
			break;
	}
	close(p[0]);
	*child_ok = waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
		    WEXITSTATUS(status) == 0;
	return woken;
}

static volatile int private_word;

static void mode_private(void)
{
	int child_ok;
	long woken;

	/*
	 * The child's word is its own page after fork, at the same address:
	 * a private futex is (mm, address), and this mm has no waiter.
	 */
	woken = wake_a_child(&private_word, FUTEX_WAIT_PRIVATE, FUTEX_WAKE_PRIVATE, 600,
			     -ETIMEDOUT, &child_ok);
	check(woken == 0, "a private wake reaches no other process's waiter");
	check(child_ok, "the child's private wait times out, unwoken");
}

static void mode_shared(void)
{
	volatile int *word = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
				  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int child_ok;
	long woken;

	if (word == MAP_FAILED) {
		check(0, "mmap MAP_SHARED");
		return;
	}
	/* Shared (no FUTEX_PRIVATE_FLAG): the key is the memory, not the process. */
	woken = wake_a_child(word, FUTEX_WAIT, FUTEX_WAKE, 5000, 0, &child_ok);
	check(woken == 1, "a shared wake reaches the other process's waiter");
	check(child_ok, "the child's shared wait returns 0, woken");
}

/* --- pingpong ------------------------------------------------------------- */

#define ROUNDS 2000

static volatile int turn;	/* whose turn: 0 or 1 */
static volatile int lost, failed_wait;

static void *player(void *arg)
{
	int me = (int)(long)arg;

	for (int i = 0; i < ROUNDS && !lost; i++) {
		while (__atomic_load_n(&turn, __ATOMIC_SEQ_CST) != me) {
			long r = futex(&turn, FUTEX_WAIT_PRIVATE, !me, 2000);

			/*
			 * Two seconds with the turn ours: the other player
			 * handed it over and woke us, and the wake was lost.
			 */
			if (r == -ETIMEDOUT && __atomic_load_n(&turn, __ATOMIC_SEQ_CST) == me) {
				lost = 1;
				return NULL;
			}
			/* A wait that cannot sleep makes this a spin: no test of wakes. */
			if (r && r != -EAGAIN && r != -ETIMEDOUT)
				failed_wait = lost = 1;
			if (lost)
				return NULL;
		}
		__atomic_store_n(&turn, !me, __ATOMIC_SEQ_CST);
		futex(&turn, FUTEX_WAKE_PRIVATE, 1, 0);
	}
	return NULL;
}

static void mode_pingpong(void)
{
	pthread_t t;

	pthread_create(&t, NULL, player, (void *)1L);
	player((void *)0L);
	if (lost)
		futex(&turn, FUTEX_WAKE_PRIVATE, INT_MAX, 0);
	pthread_join(t, NULL);
	check(!failed_wait, "every wait slept or saw the turn change");
	check(!lost, "2000 hand-overs, no wake lost");
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		void (*fn)(void);
	} modes[] = {
		{ "value", mode_value },	{ "wake-n", mode_wake_n },
		{ "private", mode_private },	{ "shared", mode_shared },
		{ "pingpong", mode_pingpong },
	};

	alarm(HANG_GUARD);
	for (unsigned int i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if (argc > 1 && !strcmp(argv[1], modes[i].name)) {
			modes[i].fn();
			printf("futextest %s: %s\n", argv[1], fails ? "FAIL" : "ok");
			return fails;
		}
	printf("usage: futextest value|wake-n|private|shared|pingpong\n");
	return 2;
}
