/* SPDX-License-Identifier: MIT */
/*
 * Linux's signal numbers, flags and the layouts a handler sees (the same
 * numbers on x86-64 and arm64; the frames are each arch's, arch/<arch>/
 * signal.c). A signal whose action is the default and whose default is to
 * end the process ends it, and its number is the wait status, as Linux's
 * wait4() reports a process killed by a signal (kernel/signal.c).
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
#define SIGTSTP 20
#define SIGTTIN 21
#define SIGTTOU 22
#define SIGURG 23
#define SIGVTALRM 26
#define SIGPROF 27
#define SIGWINCH 28
#define _NSIG 64

#define SIG_DFL 0
#define SIG_IGN 1

/* sa_flags */
#define SA_NOCLDSTOP 0x00000001
#define SA_NOCLDWAIT 0x00000002
#define SA_SIGINFO 0x00000004
#define SA_RESTORER 0x04000000
#define SA_ONSTACK 0x08000000
#define SA_RESTART 0x10000000
#define SA_NODEFER 0x40000000
#define SA_RESETHAND 0x80000000

/* si_code */
#define SI_USER 0
#define SI_TKILL -6

/* sigaltstack's ss_flags */
#define SS_ONSTACK 1
#define SS_DISABLE 2
#define SS_AUTODISARM (1U << 31)

/*
 * An alternate signal stack, laid out as Linux's stack_t on both arches
 * (ss_sp, ss_flags and its padding, ss_size), so that sigaltstack() and a
 * signal frame's uc_stack copy it whole. The kernel's copies keep pad 0:
 * whoever reads one from user memory clears it.
 */
struct sigstack {
	u64 sp;
	u32 flags;
	u32 pad;
	u64 size;
};
_Static_assert(sizeof(struct sigstack) == 24, "Linux's stack_t");

/* What a handler is told (the arch writes Linux's 128-byte siginfo from it). */
struct ksiginfo {
	int signo, code;
	int pid, uid;   /* SI_USER, SI_TKILL: the sender */
	u64 addr;       /* a fault's address, else 0 */
};

/*
 * Linux's 128-byte siginfo, the same on x86-64 and arm64: si_signo,
 * si_errno, si_code, then the sender (pid, uid) or the fault's address.
 */
void siginfo_layout(u8 info[128], const struct ksiginfo *k);

/* What rt_sigaction() takes and gives: Linux's kernel layout on both arches. */
struct k_sigaction {
	u64 handler;
	u64 flags;
	u64 restorer;
	u64 mask;
};

#endif
