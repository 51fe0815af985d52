/* SPDX-License-Identifier: MIT */
/*
 * Linux's signal numbers (the same on x86-64 and arm64). No delivery yet:
 * a fatal one ends the process, and its number is the wait status, as
 * Linux's wait4() reports a process killed by a signal.
 */
#ifndef PAGODA_SIGNAL_H
#define PAGODA_SIGNAL_H

#define SIGILL 4
#define SIGTRAP 5
#define SIGBUS 7
#define SIGFPE 8
#define SIGKILL 9
#define SIGSEGV 11

#endif
