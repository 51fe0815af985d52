// SPDX-License-Identifier: MIT
/*
 * jobtest: the calls a job-control shell makes, with the answers Linux
 * gives: process groups and sessions (setpgid, getpgid, setsid, getsid),
 * the terminal's foreground group (tcsetpgrp/tcgetpgrp: TIOCSPGRP and
 * TIOCGPGRP), a signal to a whole group (kill(-pgid)), waiting for one
 * of a group (waitpid(-pgid), waitpid(0)), SIGCHLD and sigsuspend.
 *
 * Run as a session leader with its terminal on fd 0 as the controlling
 * one: Pagoda's kernel shell starts every program so; the harness runs
 * it on the host in a new session on a pseudo-terminal
 * (tests/levels/busybox.py). Both must print "jobtest: 0 failed".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define CHECK_PROG "jobtest"
#include "check.h"

/* A child that waits for a signal (in the caller's group until moved). */
static pid_t sleeper(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		for (;;)
			pause();
	}
	return pid;
}

static volatile sig_atomic_t chld_seen;

static void on_chld(int sig)
{
	(void)sig;
	chld_seen++;
}

int main(void)
{
	pid_t me = getpid(), a, b, c, got;
	int st = 0;
	sigset_t block, none, now;

	/* A session leader: its own group and session. */
	IS(getpgid(0), me);
	IS(getsid(0), me);
	IS(getpgrp(), me);
	FAILS(setsid(), EPERM);            /* already leads a group */
	FAILS(setpgid(0, 0), EPERM);       /* a session leader stays in its group */
	FAILS(setpgid(0, -1), EINVAL);
	FAILS(getpgid(-1), ESRCH);
	FAILS(getpgid(0x7ffffff0), ESRCH);
	FAILS(kill(-0x7ffffff0, 0), ESRCH); /* no such group */
	IS(kill(0, 0), 0);                  /* its own group */
	IS(tcgetpgrp(0), me);               /* the session's terminal has its group in front */

	/* Two children moved into a group of the first one's. */
	a = sleeper();
	b = sleeper();
	IS(getpgid(a), me);                 /* forked into the parent's group */
	IS(setpgid(a, a), 0);
	IS(getpgid(a), a);
	IS(setpgid(b, a), 0);
	IS(getpgid(b), a);
	FAILS(setpgid(b, 0x7ffffff0), EPERM); /* no such group in the session */
	IS(getsid(a), me);

	/* The terminal handed to that group and back (a background tcsetpgrp would get SIGTTOU). */
	signal(SIGTTOU, SIG_IGN);
	IS(tcsetpgrp(0, a), 0);
	IS(tcgetpgrp(0), a);
	FAILS(tcsetpgrp(0, 0x7ffffff0), ESRCH);
	IS(tcsetpgrp(0, me), 0);
	IS(tcgetpgrp(0), me);

	/* The group killed as one (kill %1), and waited for as one. */
	FAILS(waitpid(0, &st, WNOHANG), ECHILD); /* neither child is in the caller's group now */
	IS(waitpid(-a, &st, WNOHANG), 0);      /* both alive */
	IS(kill(-a, SIGTERM), 0);
	got = waitpid(-a, &st, 0);
	check("waitpid(-a) took a or b", got == a || got == b);
	check("killed by SIGTERM", WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM);
	got = waitpid(-a, &st, 0);
	check("waitpid(-a) took the other", got == a || got == b);
	FAILS(waitpid(-a, &st, 0), ECHILD);
	FAILS(kill(-a, 0), ESRCH);             /* the group is gone with its last process */

	/* A child that has run execve is out of reach (the pipe closes at its exec). */
	{
		int p[2];
		char x;

		if (pipe2(p, O_CLOEXEC) == 0) {
			c = fork();
			if (c == 0) {
				execl("/bin/sleep", "sleep", "30", (char *)NULL);
				_exit(127);
			}
			close(p[1]);
			check("the pipe closed at the child's exec", read(p[0], &x, 1) == 0);
			close(p[0]);
			FAILS(setpgid(c, c), EACCES);
			kill(c, SIGKILL);
			IS(waitpid(c, &st, 0), c);
		}
	}

	/* Stopped and continued: the parent's waitpid hears of each once. */
	c = sleeper();
	IS(kill(c, SIGSTOP), 0);
	IS(waitpid(c, &st, WUNTRACED), c);
	check("stopped by SIGSTOP", WIFSTOPPED(st) && WSTOPSIG(st) == SIGSTOP);
	IS(waitpid(c, &st, WUNTRACED | WNOHANG), 0); /* told once */
	IS(kill(c, SIGCONT), 0);
	IS(waitpid(c, &st, WCONTINUED), c);
	check("continued", WIFCONTINUED(st));
	IS(setpgid(c, c), 0);                    /* SIGTSTP is dropped in an orphaned group */
	IS(kill(c, SIGTSTP), 0);
	IS(waitpid(c, &st, WUNTRACED), c);
	check("stopped by SIGTSTP", WIFSTOPPED(st) && WSTOPSIG(st) == SIGTSTP);
	IS(kill(c, SIGTERM), 0);                 /* waits for SIGCONT: only SIGKILL acts now */
	IS(waitpid(c, &st, WNOHANG), 0);
	IS(kill(c, SIGKILL), 0);
	IS(waitpid(c, &st, 0), c);
	check("killed while stopped", WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);

	/* A child's setsid: a new session and group, both its pid. */
	c = fork();
	if (c == 0)
		_exit(setsid() == getpid() && getsid(0) == getpid() && getpgrp() == getpid() ? 7 : 1);
	IS(waitpid(c, &st, 0), c);
	check("the child's setsid", WIFEXITED(st) && WEXITSTATUS(st) == 7);

	/* SIGCHLD ends a sigsuspend; the mask from before comes back after. */
	sigemptyset(&block);
	sigaddset(&block, SIGCHLD);
	sigemptyset(&none);
	signal(SIGCHLD, on_chld);
	sigprocmask(SIG_BLOCK, &block, NULL);
	c = fork();
	if (c == 0)
		_exit(3);
	while (!chld_seen)
		FAILS(sigsuspend(&none), EINTR);
	sigprocmask(SIG_BLOCK, NULL, &now);
	check("SIGCHLD blocked again after sigsuspend", sigismember(&now, SIGCHLD) == 1);
	IS(waitpid(c, &st, 0), c);
	check("exit status 3", WIFEXITED(st) && WEXITSTATUS(st) == 3);
	sigprocmask(SIG_UNBLOCK, &block, NULL);

	/* SIGCHLD ignored: children leave no zombie, wait finds none. */
	signal(SIGCHLD, SIG_IGN);
	c = fork();
	if (c == 0)
		_exit(0);
	FAILS(waitpid(-1, &st, 0), ECHILD);
	signal(SIGCHLD, SIG_DFL);

	printf("jobtest: %d failed\n", failed);
	return failed != 0;
}
