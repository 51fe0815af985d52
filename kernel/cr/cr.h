/* SPDX-License-Identifier: MIT */
/* Checkpoint/restore's parts, each in its own file of kernel/cr/. */
#ifndef KERNEL_CR_CR_H
#define KERNEL_CR_CR_H

#include <pagoda/arch.h>
#include <pagoda/cr.h>
#include <pagoda/mutex.h>
#include <pagoda/types.h>
#include "image.h"

struct process;

/* The processes one checkpoint takes: the root first. */
#define CR_SET_MAX CR_MAX_PROCS
struct cr_set {
	unsigned int n;
	struct process *p[CR_SET_MAX];
};

/* One checkpoint or restore at a time (the checker's state is static). */
extern struct mutex cr_lock;

/* freeze.c: stop pid (and with tree its descendants): 0 or -errno, *why. */
int cr_freeze(int pid, bool tree, struct cr_set *set, const char **why);
/* Let them go on, or (kill) end them with SIGKILL, as CRIU does after a dump. */
void cr_thaw(struct cr_set *set, bool kill);
/* Does regs return p to a PC inside its vDSO? */
bool cr_in_vdso(struct process *p, const struct pt_regs *regs);

/* A growing image in vmalloc'd memory. */
struct cr_buf {
	u8 *data;
	size_t len, cap;
};
void cr_buf_free(struct cr_buf *b);

/* dump.c: the image of a frozen set: 0 or -errno with *why. */
int cr_dump(const struct cr_set *set, struct cr_buf *out, const char **why);

/*
 * restore.c: rebuild and start every process of a checked image: 0 or
 * -errno, *why. before_start (may be NULL) runs when all are built and
 * none has run yet.
 */
int cr_restore(const void *img, size_t len, void (*before_start)(void), const char **why);
/* The limits this kernel's restore takes (for cr_image_check()). */
void cr_limits(struct cr_limits *lim);

/* store.c: an image to or from a block device by name ("vdb", "ram0"). */
int cr_store_write(const char *dev, const struct cr_buf *b, const char **why);
int cr_store_read(const char *dev, struct cr_buf *b, const char **why);

/* vdso_symtab.c: the exported functions of a vDSO image (pure: ELF only). */
int cr_vdso_symtab_parse(const void *image, size_t len, struct cr_symtab *out,
			 const char **why);
/* vdso_cr.c: the running kernel's table, computed once at boot (CRIU's kdat). */
const struct cr_symtab *cr_kdat_symtab(void);
/*
 * The restore in progress (under cr_lock): false for the seed's "before"
 * (legacy), true for its "after"; cr.vdso= gives the default.
 */
extern bool cr_vdso_kdat;
bool cr_vdso_boot_mode_kdat(void);
/* What the last restore did with the vDSO, in words ("none" when no process had one). */
extern const char *cr_last_vdso;
/* The running vDSO's table for one restore: kept from boot, or (legacy) read now. */
int cr_vdso_running(struct cr_symtab *out, const char **why);
bool cr_symtab_equal(const struct cr_symtab *a, const struct cr_symtab *b);
/*
 * Give p the vDSO the image's process had: none, the same one mapped at
 * its place, or (another kernel's) ours elsewhere with jumps at the old
 * entry points, whose old bytes restore.c has mapped as p's own memory
 * already. 0 or -errno with *why.
 */
int cr_vdso_restore(struct process *p, const struct cr_proc *pr, const struct cr_symtab *img,
		    const struct cr_symtab *run, const char **why);

/* shell/cr_cmds.c: the whole commands, for the shell, the tests and bench cr. */
int cr_checkpoint(int pid, bool tree, bool leave_running, const char *dev, const char **why,
		  unsigned int *nr, size_t *bytes);
/* After a killing checkpoint: wait until the killed processes' pids are free. */
void cr_wait_killed(void);
/* vdso_mode: CR_VDSO_BOOT (cr.vdso=), CR_VDSO_KDAT or CR_VDSO_LEGACY. */
enum { CR_VDSO_BOOT, CR_VDSO_KDAT, CR_VDSO_LEGACY };
int cr_restore_dev(const char *dev, int vdso_mode, void (*before_start)(void),
		   const char **why);

#endif
