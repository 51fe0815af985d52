/* SPDX-License-Identifier: MIT */
/*
 * Linux's signal numbers (the same on x86-64 and arm64). Handlers are
 * recorded but not yet run (no signal frames): a signal whose action is
 * the default and whose default is to end the process ends it, and its
 * number is the wait status, as Linux's wait4() reports a process killed
 * by a signal (kernel/signal.c).
 */
#ifndef PAGODA_SIGNAL_H
#define PAGODA_SIGNAL_H

#include <pagoda/types.h>

#define SIGHUP 1
#define SIGINT 2
#define SIGQUIT 3
#define SIGILL 4
#define SIGTRAP 5
#define SIGABRT 6
#define SIGBUS 7
#define SIGFPE 8
#define SIGKILL 9
#define SIGUSR1 10
#define SIGSEGV 11
#define SIGUSR2 12
#define SIGPIPE 13
#define SIGALRM 14
#define SIGTERM 15
#define SIGCHLD 17
#define SIGCONT 18
#define SIGSTOP 19
#define SIGURG 23
#define SIGWINCH 28
#define _NSIG 64

#define SIG_DFL 0
#define SIG_IGN 1

/* What rt_sigaction() takes and gives: Linux's kernel layout on both arches. */
struct k_sigaction {
	u64 handler;
	u64 flags;
	u64 restorer;
	u64 mask;
};

#endif
