// SPDX-License-Identifier: MIT
/*
 * crtree ROUNDS [quiet]: the seed's session00 shape for checkpoint/restore,
 * eleven processes: the root, three children, two grandchildren each, and
 * a child that ends at once with status 42 and stays a zombie until the
 * root collects it at the very end (so every checkpoint holds one). Every
 * 200 ms of the vDSO clock each grandchild sends {its number, the round}
 * down the pipe its two share with their parent; the parent checks the
 * sequence and passes each record on down the pipe the three children
 * share with the root; the root prints "crtree: round N" when all six
 * have reported round N. At the end everyone checks its clock never
 * went back and collects its children; the root prints "crtree: done, E
 * errors" and exits with E. Records in the pipes and children waiting in
 * wait4 or read are what a checkpoint of the tree must carry. quiet
 * leaves out the rounds (bench cr).
 */
#include "crlib.h"

#define KIDS 3
#define GRANDKIDS 2

struct rec {
	int who;    /* grandchild number 0..5 */
	int round;
};

static int backwards, errors, quiet;
static long last;

static void grandchild(int who, int out, long rounds)
{
	long next = cr_now_ns();

	for (int r = 1; r <= rounds; r++) {
		struct rec rec = { who, r };

		next += 200 * 1000000L;
		cr_wait_until(next, &last, &backwards, 0);
		if (write(out, &rec, sizeof(rec)) != sizeof(rec))
			errors++;
	}
	exit(errors + backwards);
}

/* Read whole records until every writer has gone; check each grandchild's sequence. */
static void relay(int in, int out, int *seen, int first, int n, long rounds)
{
	struct rec rec;
	int printed = 0;

	while (cr_read(in, &rec, sizeof(rec)) == sizeof(rec)) {
		int least = rounds;

		if (rec.who < first || rec.who >= first + n || rec.round != seen[rec.who] + 1)
			errors++;
		else
			seen[rec.who] = rec.round;
		cr_now_ns();
		if (out >= 0) {
			if (write(out, &rec, sizeof(rec)) != sizeof(rec))
				errors++;
			continue;
		}
		/* The root: a round is done when every grandchild has sent it. */
		for (int i = 0; i < n; i++)
			if (seen[first + i] < least)
				least = seen[first + i];
		while (printed < least) {
			printed++;
			if (!quiet)
				printf("crtree: round %d\n", printed);
		}
	}
	for (int i = first; i < first + n; i++)
		if (seen[i] != rounds)
			errors++;
}

static void child(int k, int out, long rounds)
{
	int p[2], seen[KIDS * GRANDKIDS] = { 0 }, status;

	if (cr_pipe(p))
		exit(100);
	for (int g = 0; g < GRANDKIDS; g++) {
		long pid = fork();

		if (pid == 0) {
			cr_close(p[0]);
			cr_close(out);
			grandchild(k * GRANDKIDS + g, p[1], rounds);
		}
		if (pid < 0)
			errors++;
	}
	cr_close(p[1]);
	relay(p[0], out, seen, k * GRANDKIDS, GRANDKIDS, rounds);
	for (int g = 0; g < GRANDKIDS; g++)
		if (cr_wait(-1, &status) < 0 || status)
			errors++;
	exit(errors + backwards);
}

int main(int argc, char **argv, char **envp)
{
	(void)envp;
	long rounds = 0, zombie;
	int p[2], seen[KIDS * GRANDKIDS] = { 0 }, status;

	for (const char *s = argc > 1 ? argv[1] : "20"; *s >= '0' && *s <= '9'; s++)
		rounds = rounds * 10 + (*s - '0');
	quiet = argc > 2 && !strcmp(argv[2], "quiet");
	cr_vclock = (cr_clock_t)vdso_sym(CR_CLOCK_NAME);
	if (!cr_vclock || cr_pipe(p)) {
		printf("crtree: no vDSO clock or no pipe\n");
		return 1;
	}
	printf("crtree: pid %ld, %d processes, %ld rounds\n", getpid(),
	       2 + KIDS * (1 + GRANDKIDS), rounds);
	zombie = fork();
	if (zombie == 0)
		exit(42);
	for (int k = 0; k < KIDS; k++) {
		long pid = fork();

		if (pid == 0) {
			cr_close(p[0]);
			child(k, p[1], rounds);
		}
		if (pid < 0)
			errors++;
	}
	cr_close(p[1]);
	relay(p[0], -1, seen, 0, KIDS * GRANDKIDS, rounds);
	if (zombie < 0 || cr_wait(zombie, &status) != zombie || status != 42 << 8) {
		printf("crtree: the zombie child was not collected with its status\n");
		errors++;
	}
	for (int k = 0; k < KIDS; k++)
		if (cr_wait(-1, &status) < 0 || status) {
			printf("crtree: a child ended with status %#x\n", status);
			errors++;
		}
	errors += backwards;
	printf("crtree: done, %d errors\n", errors);
	return errors;
}
