/* SPDX-License-Identifier: MIT */
/*
 * User processes: an address space (a user mm, arch.h) with the areas
 * mapped in it, run by one task. A process starts in user mode at an entry
 * point with a stack, and ends by exit_group() or a fatal fault; whoever
 * started it collects its Linux-style wait status (exit code << 8, or the
 * signal number) with process_wait().
 */
#ifndef PAGODA_PROCESS_H
#define PAGODA_PROCESS_H

#include <pagoda/arch.h>
#include <pagoda/list.h>
#include <pagoda/signal.h>
#include <pagoda/spinlock.h>
#include <pagoda/timer.h>
#include <pagoda/types.h>
#include <pagoda/wait.h>
#include <pagoda/mutex.h>
#include <pagoda/rbtree.h>
#include <pagoda/rwsem.h>
#include <pagoda/sched.h>
#include <pagoda/workqueue.h>

struct task;
struct ramfs_file;
struct shmem_object;

/*
 * A mapped range [start, end) of anonymous, zeroed memory, or of the
 * kernel's pages (mm/mmap.c): Linux's vm_area_struct. A process's areas
 * never overlap; they are in a red-black tree by address (find_vma()) and
 * on a list in address order (next).
 */
/*
 * An area's PROT_NONE (with none of PROT_WRITE/PROT_EXEC): the program may
 * not touch it. Areas only: the page tables never see this bit.
 */
#define PROT_NOACCESS 0x100u

/* An area's flags (Linux's vm_flags bit of the same meaning). */
#define VM_GROWSDOWN 0x100u /* the stack: a fault just below grows it down */
#define VM_ACCOUNT 0x200u   /* its pages are promised: counted in Committed_AS (mm/util.c) */
#define VM_NORESERVE 0x400u /* MAP_NORESERVE: never promised, even once made writable */
#define VM_SHARED 0x800u    /* MAP_SHARED: pages of v->shm, never copied on write */
#define VM_HUGEPAGE 0x1000u   /* MADV_HUGEPAGE: huge pages even under transparent_hugepage=madvise */
#define VM_NOHUGEPAGE 0x2000u /* MADV_NOHUGEPAGE: never huge pages (mm/huge_memory.c) */
#define VM_DONTCOPY 0x4000u   /* MADV_DONTFORK: a fork's child does not get the area */
#define VM_WIPEONFORK 0x8000u /* MADV_WIPEONFORK: the child's copy starts empty */

/* Linux's defaults: RLIMIT_STACK (_STK_LIM) and stack_guard_gap (256 pages). */
#define STACK_RLIMIT (8 * SZ_1M)
#define STACK_GUARD_GAP (256 * PAGE_SIZE)

struct vm_area {
	u64 start, end;
	unsigned int prot; /* PROT_* including PROT_USER, or PROT_NOACCESS */
	unsigned int flags; /* VM_GROWSDOWN, VM_ACCOUNT, VM_NORESERVE, VM_SHARED, VM_*HUGEPAGE */
	const char *name;  /* "[vdso]", "[vvar]": kernel pages, never freed; NULL: anonymous */
	/*
	 * A private mapping of an initramfs file (mmap with an fd, exec's
	 * segments): a read maps the file's page from the page cache, shared
	 * and read-only, a write gets a page of the process's own (mm/memory.c,
	 * mm/filemap.c); pgoff is the file page at start. NULL: anonymous.
	 * The initramfs is never freed, so no reference is held.
	 */
	const struct ramfs_file *rf;
	/*
	 * The shared memory object (mm/shmem.c) behind a shared anonymous
	 * area, a System V segment or a tmpfs file, one reference per area;
	 * pgoff is the object's page at start. With VM_SHARED every write
	 * lands in the object; without (MAP_PRIVATE of a tmpfs file) a read
	 * maps its page read-only and a write copies it. NULL otherwise.
	 */
	struct shmem_object *shm;
	u64 pgoff;
	/*
	 * The process whose address space holds it (Linux's vm_mm: the mm is
	 * part of the process here), so that a truncate that finds the area
	 * on its object's list (shared, Linux's name) can reach its page
	 * tables. exec swaps areas between two processes and sets it again.
	 */
	struct process *vm_mm;
	struct list_head shared;
	struct vm_area *next;
	struct rb_node rb;
};

/* Linux's name: is v a MAP_SHARED area (its writes seen by every mapper)? */
static inline bool vma_is_shared(const struct vm_area *v)
{
	return v->flags & VM_SHARED;
}

#define NR_OPEN 16
#define FD_CLOEXEC 1

struct file;

/*
 * One thread of a process: Linux keeps this in task_struct; Pagoda's task
 * is a kernel thread, so what a user thread has of its own lives here
 * (kernel/thread.c). Everything else (memory, files, signal actions, the
 * family) is the process's and shared by all its threads.
 */
struct thread {
	/* FP/SIMD and the thread pointer while off the CPU; first, for its alignment. */
	struct arch_user_state ustate;
	struct process *proc;
	struct task *task;
	int tid;                      /* its task's pid; the first thread's is the process's */
	u64 sigmask;                  /* blocked signals: each thread has its own */
	u64 sigpending;               /* sent to this thread alone (tgkill), with a handler */
	struct sigstack altstack;     /* sigaltstack: size 0 when there is none */
	/*
	 * rt_sigsuspend(): the mask to put back once a handler has run (its
	 * frame keeps this one, not the temporary one), Linux's saved_sigmask.
	 */
	u64 saved_sigmask;
	bool restore_sigmask;
	/* CLONE_CHILD_CLEARTID, set_tid_address(): zeroed and woken (futex) at exit. */
	u64 clear_child_tid;
	/* set_robust_list(): the user's list of futexes it holds, walked at exit. */
	u64 robust_list;
	void *fork_regs;              /* a forked or cloned thread's first registers */
	struct list_head node;        /* on proc->threads */
	bool dead;                    /* has left the address space; joined later */
};

struct process {
	/*
	 * The first thread, the group leader (Linux's): its tid is the pid.
	 * Kept until the process is collected, even when it ends before the
	 * others. First in the struct for ustate's alignment.
	 */
	struct thread main;
	struct mm_struct mm;
	struct vm_area *vmas; /* sorted by address */
	struct rb_root mm_rb; /* the same areas, by address */
	unsigned int map_count; /* how many */
	/*
	 * Held while the areas change (the memory system calls, exec's swap,
	 * exit) and by anyone else reading them (the shell's maps): Linux's
	 * mmap_lock. Never held across a copy to or from user memory.
	 */
	struct rw_semaphore mmap_lock;
	/*
	 * Taken inside mmap_lock (read) by the fault handler while it looks at
	 * and fills one page table entry: two threads faulting on one page map
	 * one page. A mutex: the handler allocates under it.
	 */
	struct mutex page_table_lock;
	/*
	 * The threads (kernel/thread.c), under thread_lock: every one not yet
	 * collected, live or dead, and how many are live (still in the address
	 * space: Linux's mm_users). The last one out tears the process down.
	 */
	struct list_head threads;
	unsigned int nr_threads;
	spinlock_t thread_lock;
	/* exit_group() or a fatal signal: every thread ends, the process with group_exit_code. */
	bool group_exit;
	int group_exit_code;
	/* execve() from a thread: every other thread ends (de_thread(), kernel/thread.c). */
	struct thread *exec_thread;
	struct task *task;            /* the leader's (main.task): the collector joins it */
	u64 entry, stack, arg;
	u64 brk_start, brk;   /* the heap: [brk_start, brk), whole pages mapped */
	u64 mmap_base;        /* mmap() hands out addresses below this */
	u64 vdso_base;        /* AT_SYSINFO_EHDR, 0 when not mapped */
	u64 nr_syscalls;      /* system calls it made (a clock read through the vDSO is none) */
	char name[16];
	struct file *fds[NR_OPEN];  /* NULL: free */
	/* fget()'s read of a slot and its reference, against a close freeing the file */
	spinlock_t files_lock;
	u8 fd_flags[NR_OPEN];       /* FD_CLOEXEC: closed by a successful exec */
	char cwd[256];              /* the working directory, absolute and clean (fs/namei.c) */
	unsigned int umask;
	char exe[128];              /* the program's path, as /proc/PID/exe links to it */
	char cmdline[256];          /* its arguments, NUL after each: /proc/PID/cmdline */
	unsigned int cmdline_len;
	u64 start_time;             /* ns since boot: /proc/PID/stat's starttime */
	/*
	 * The family (kernel/fork.c), under process_lock. A process the
	 * kernel started (process_start()) has no parent and is collected by
	 * process_wait(); a forked one by its parent's wait4(), or, once
	 * orphaned, by the reaper.
	 */
	int pid;                      /* its task's */
	/*
	 * Its process group and session (kernel/jobctl.c): a process the
	 * kernel starts leads a new one of each, a forked one is in its
	 * parent's. A job-control shell moves each job to a group of its own.
	 */
	int pgid, sid;
	bool did_exec;                /* has run execve since fork: setpgid from the parent is -EACCES */
	/*
	 * Job control's stop (kernel/signal.c): a stop signal asks every
	 * thread to stop at its way back to user mode (stop_pending); there
	 * they sleep on stop_wait until SIGCONT or a kill. The parent's
	 * wait4 hears of each change once (WUNTRACED, WCONTINUED).
	 */
	bool stop_pending, stopped, stop_report, cont_report;
	int stop_sig;
	wait_queue_head_t stop_wait;
	struct process *parent;       /* NULL: started by the kernel, or orphaned */
	struct list_head children;    /* its forked children, live or zombie */
	struct list_head sibling;     /* in the parent's children */
	bool autoreap;                /* the reaper collects it: forked, or run in the background */
	bool reap_quietly;            /* its parent ignores SIGCHLD: no line when collected */
	bool zombie;                  /* ended; exit_status waits for wait4() */
	int exit_status;
	unsigned long child_events;   /* bumped when a child ends: wait4() sleeps on it */
	wait_queue_head_t child_exit;
	struct work_struct reap_work;
	struct list_head all;         /* on process_list: ps, kill */
	/*
	 * Signals (kernel/signal.c): recorded actions (shared by the threads),
	 * one pending kill, and the signals sent to the process as a whole,
	 * which any thread that does not block them takes (each thread's mask
	 * and its own pending set are in struct thread).
	 */
	struct k_sigaction sigaction[_NSIG];
	int pending_kill;             /* a fatal signal another process sent; 0: none */
	u64 sigpending;               /* signals with a handler, waiting to be delivered */
	int sigsender[_NSIG];         /* who sent each pending one (its pid) */
	/* ITIMER_REAL (kernel/time/itimer.c): SIGALRM when it runs out, then every it_real_incr ns. */
	struct timer_list it_real;
	u64 it_real_incr;
	/* ITIMER_VIRTUAL, ITIMER_PROF: ns of CPU time left (0: off) and the interval, by the tick. */
	u64 it_cpu_value[2], it_cpu_incr[2];
	spinlock_t itimer_lock;
	/*
	 * Checkpoint (kernel/cr/freeze.c): asked to stop at its next return
	 * to user mode, and stopped there with cr_regs (on its kernel stack)
	 * and ustate as its whole user state; a system call the request
	 * interrupted is rewound to run again (cr_restart, nr, first argument).
	 * cr_vdso_since, cr_vdso_steps: when a stop was first put off because
	 * the process was inside the vDSO (0: not put off), and how many
	 * instructions it has been stepped since.
	 */
	bool cr_freeze, cr_frozen, cr_restart;
	u64 cr_restart_nr, cr_restart_arg0, cr_vdso_since, cr_vdso_steps;
	struct pt_regs *cr_regs;
	wait_queue_head_t cr_wait;
	/*
	 * Usage (kernel/rusage.c): its own (run time kept at exit), and its
	 * collected children's summed (maxrss: the largest, in pages).
	 */
	struct process_acct {
		u64 sum_exec_ns, utime_ticks, stime_ticks, min_flt, maxrss;
	} acct, cacct;
	/* The OOM killer (mm/oom_kill.c): its bias for this process, and whether it chose it. */
	int oom_score_adj;
	bool oom_victim;
	/* rdinit='s program: Linux's global init, which the OOM killer never chooses */
	bool global_init;
};

/* Every process that has started and not been collected, under process_lock. */
extern struct list_head process_list;
/* End the caller now if another process has killed it (at system call boundaries). */
void signal_check_pending(void);
/* kernel/signal.c: sig to p as process sender sent it (a child's SIGCHLD), any context. */
void signal_send_from(struct process *p, int sig, int sender);
/* kernel/signal.c: sig to p from the kernel itself (a timer, the OOM killer), any context. */
void signal_send_kernel(struct process *p, int sig);
/*
 * On the way back to user mode (after a system call, an interrupt): end
 * the process if it was killed, else run the first unblocked pending
 * signal's handler by pushing a frame on its stack (regs is the frame the
 * arch will return through).
 */
struct pt_regs;
void signal_deliver(struct pt_regs *regs);
/*
 * A fault taken in user mode: run the program's handler for sig (with
 * si_code code and the address) if it has one and does not block it.
 * true: regs now enter the handler; false: the fault ends the process.
 */
bool signal_fault(struct pt_regs *regs, int sig, int code, u64 addr);

/* The running thread, or NULL in a kernel thread. */
static inline struct thread *current_thread(void)
{
	return current->user_thread;
}

/*
 * Has the calling thread of p a signal to act on: a kill, the group
 * ending, or one with a handler that it does not block?
 */
static inline bool signal_pending_thread(const struct process *p)
{
	const struct thread *t = current_thread();

	struct thread *ex = p ? READ_ONCE(p->exec_thread) : NULL;

	return p && t && (READ_ONCE(p->pending_kill) || READ_ONCE(p->group_exit) || (ex && ex != t) ||
			  READ_ONCE(p->stop_pending) ||
			  ((__atomic_load_n(&p->sigpending, __ATOMIC_ACQUIRE) |
			    __atomic_load_n(&t->sigpending, __ATOMIC_ACQUIRE)) & ~t->sigmask));
}

/* Should a wait in a system call end (-EINTR): a signal, or a checkpoint freezing it? */
static inline bool signal_pending(const struct process *p)
{
	return p && (READ_ONCE(p->cr_freeze) || signal_pending_thread(p));
}
/* kernel/file.c: fds 0-2 on the console; a child's copy of them; all closed. */
void process_files_init(struct process *p);
void process_files_copy(struct process *c, struct process *p);
void process_files_close(struct process *p);
/* exec: the descriptors marked FD_CLOEXEC closed (kernel/file.c). */
void process_files_close_on_exec(struct process *p);
/* p's areas as /proc/PID/maps lists them, to m or the console (process_lock held). */
struct seq_file;
void show_maps(struct seq_file *m, struct process *p);
/* The process table, for the shell's ps. */
void process_ps_print(void);
/* kernel/time/itimer.c: a new process's timer, disarmed; stopped for good at exit. */
void itimer_init(struct process *p);
void itimer_exit(struct process *p);
/* The scheduler tick charged current a tick, of user time if user: the CPU-time timers. */
void itimer_tick(bool user);
/* Send sig to process pid from the kernel (the shell's kill): 0 or -ESRCH. */
int kill_process(int pid, int sig);
/* sig to pid and every process forked from it (a terminal's Ctrl-C). */
int kill_process_group(int pid, int sig);
/* kernel/jobctl.c, under process_lock: sig to every live process of group pgid; how many. */
int kill_pgrp_locked(int pgid, int sig, int sender);
/* Under process_lock: is there a live process in group pgid of session sid (sid 0: any)? */
bool pgrp_exists_locked(int pgid, int sid);
/* The console's foreground group for a process of session sid (drivers/tty/n_tty.c), or 0. */
int tty_foreground_pgrp(int sid);

/* Family links and zombie states of every process. */
extern struct mutex process_lock;

struct process *process_create(const char *name);
/* The first area ending above addr (it may start above addr too), or NULL. */
struct vm_area *find_vma(struct process *p, u64 addr);
/* The area before v, or NULL. */
struct vm_area *vma_prev(struct vm_area *v);
/* A copy of v, no pages, linked into c (fork): 0 or -ENOMEM. */
int dup_vma(struct process *c, struct vm_area *v);

/*
 * Demand paging (mm/memory.c). handle_mm_fault(), with p->mmap_lock held
 * for reading: a fault at addr in p
 * (flags: FAULT_FLAG_WRITE, FAULT_FLAG_INSTRUCTION): 0 when a page is
 * there now (retry the access), -EFAULT with *si_code SEGV_MAPERR or
 * SEGV_ACCERR, -EIO with BUS_ADRERR (a file mapping's page wholly past
 * the file's end: SIGBUS, as Linux), or -ENOMEM.
 */
#define FAULT_FLAG_WRITE 1u
#define FAULT_FLAG_INSTRUCTION 2u
#define SEGV_MAPERR 1
#define SEGV_ACCERR 2
#define BUS_ADRERR 2
int handle_mm_fault(struct process *p, u64 addr, unsigned int flags, int *si_code);
/*
 * The arch's page fault on a user address, from user mode or from the
 * kernel's copy to or from user memory (with interrupts as the faulting
 * code had them): FAULT_DONE (retry the access), or FAULT_BAD (SIGSEGV) or
 * FAULT_SIGBUS with *si_code (user mode: that signal, signal_fault();
 * kernel: the exception table's fixup). Out of memory, the OOM killer.
 */
#define FAULT_DONE 0
#define FAULT_BAD 1
#define FAULT_SIGBUS 2
int user_page_fault(u64 addr, unsigned int flags, bool from_user, int *si_code);
/*
 * MAP_POPULATE (Linux's mm_populate()): fault in every page of [start,
 * start + len) that its area allows to be read, for a write where the
 * area is private and writable (so copy-on-write is broken now, not at
 * the first store); stops quietly at the first failure, and at a kill.
 */
void mm_populate(struct process *p, u64 start, u64 len);
/* The page at va for the kernel to write (exec, restore), whatever the area's protection. */
int get_user_page(struct process *p, u64 va, phys_addr_t *pa);
/* The shared zero page (made on first use; 0 if there is no memory), and is pa it? */
phys_addr_t zero_page_pa(void);
bool is_zero_pa(phys_addr_t pa);
/* The entry protection for a page of v: never writable when the page is shared. */
unsigned int page_pte_prot(const struct vm_area *v, phys_addr_t pa);
/*
 * p's present leaf entry for va, or NULL with *skip the bytes from va that
 * are certainly absent (a whole missing table's worth, or a page).
 */
u64 *user_pte(struct process *p, u64 va, u64 *skip);
/* The first present leaf entry in [*va, end), *va moved to it; NULL: none. */
u64 *next_user_pte(struct process *p, u64 *va, u64 end);
/*
 * Unmap the present pages of [start, end), freeing them if ours (not the
 * zero page). Takes p->page_table_lock.
 */
void zap_page_range(struct process *p, u64 start, u64 end, bool ours);
/*
 * The same for [start, end) of v, a shmem area, in whichever process
 * holds it (v->vm_mm): every page (even_cows), or only the shmem
 * object's, leaving the area's own copies. Under the object's i_mmap_lock.
 */
void zap_page_range_single(struct vm_area *v, u64 start, u64 end, bool even_cows);
/* Lock the page tables of the process that holds v (exec may move v meanwhile). */
struct process *lock_vma_mm(struct vm_area *v);
/* Give the present pages of [start, end) in v v's protection (page_pte_prot()). */
int protect_page_range(struct process *p, struct vm_area *v, u64 start, u64 end);
/* fork: copy v's present pages from p into c (whose area is made): 0 or -ENOMEM. */
int copy_page_range(struct process *c, struct process *p, const struct vm_area *v);

/* Unmap and free every area and its pages (the page tables stay). */
void process_free_areas(struct process *p);
/*
 * Map [va, va + size) of zeroed pages with prot | PROT_USER: 0 or -errno.
 * A writable area is promised its pages (VM_ACCOUNT, mm/util.c) unless
 * vm_flags holds VM_NORESERVE; -ENOMEM when the policy refuses.
 */
int process_map_anon(struct process *p, u64 va, u64 size, unsigned int prot);
int process_map_anon_flags(struct process *p, u64 va, u64 size, unsigned int prot,
			   unsigned int vm_flags);
/* The same, backed by file pages from pgoff on (read on fault, copied on write). */
int process_map_file(struct process *p, u64 va, u64 size, unsigned int prot,
		     unsigned int vm_flags, const struct ramfs_file *rf, u64 pgoff);
/*
 * mmap(MAP_SHARED | MAP_ANONYMOUS): a new object of size bytes of zero
 * pages (mm/shmem.c) that this area, the pieces cut from it and fork's
 * copies all map: a write through one is seen through all. 0 or -ENOMEM.
 */
int process_map_shared_anon(struct process *p, u64 va, u64 size, unsigned int prot,
			    unsigned int vm_flags);
/*
 * Map [va, va + size) of obj from its page pgoff on (System V shmat, a
 * tmpfs file): shared with VM_SHARED, else privately (a write copies the
 * page). 0 or -errno.
 */
int process_map_shmem(struct process *p, u64 va, u64 size, unsigned int prot,
		      unsigned int vm_flags, struct shmem_object *shm, u64 pgoff);
/*
 * Map n pages the kernel owns (pas[i] each) at va, read-only plus prot,
 * as an area called name; unmapping it never frees them: 0 or -errno.
 */
int process_map_kernel_pages(struct process *p, u64 va, const phys_addr_t *pas,
			     unsigned int n, unsigned int prot, const char *name);
/* Unmap [start, end) (page aligned), splitting areas: 0 or -EINVAL. */
int process_unmap(struct process *p, u64 start, u64 end);
/*
 * Change the protection of [start, end), area after area from start as
 * Linux's mprotect: 0, or -ENOMEM at a hole, -EACCES at the vDSO (the
 * areas before it changed), or -EINVAL. prot may be PROT_NOACCESS.
 */
int process_protect(struct process *p, u64 start, u64 end, unsigned int prot);
/*
 * Set and clear VM_* flags of [start, end), which lies inside one area,
 * splitting it at the range's edges and merging what has become alike
 * (Linux's vma_modify_flags()): 0, -ENOMEM (nothing changed) or -EINVAL.
 */
int vma_modify_flags(struct process *p, u64 start, u64 end, unsigned int set,
		     unsigned int clear);
/* madvise(2) on p (mm/madvise.c): 0 or a negative errno, as Linux answers. */
int do_madvise(struct process *p, u64 start, u64 len_in, int behavior);
/* mremap(2)'s flags, Linux's values. */
#define MREMAP_MAYMOVE 1
#define MREMAP_FIXED 2
#define MREMAP_DONTUNMAP 4
/*
 * mremap(2): shrink, grow in place, or (MREMAP_MAYMOVE) move, to new_addr
 * with MREMAP_FIXED; with MREMAP_DONTUNMAP the old range stays mapped,
 * empty. The vDSO moves whole and keeps p->vdso_base right. The new
 * address or a negative errno.
 */
long process_mremap(struct process *p, u64 old, u64 old_len, u64 new_len, unsigned int flags,
		    u64 new_addr);
/* A free, page-aligned range of len bytes below p->mmap_base, or 0. */
u64 process_find_free(struct process *p, u64 len);
/* Copy into the process's memory (it need not be running): 0 or -EFAULT. */
int process_write(struct process *p, u64 va, const void *src, size_t n);
/* Start it at entry with stack pointer sp; arg goes in the first argument register. */
int process_start(struct process *p, u64 entry, u64 sp, u64 arg);
/* Wait for it to end, free it, and return its wait status. */
int process_wait(struct process *p);
/* The same, also giving its system call count. */
int process_wait_counted(struct process *p, u64 *nr_syscalls);
/* Free a process that was never started. */
void process_destroy(struct process *p);
/* Unmap and free its areas and page tables (the struct stays). */
void process_free_memory(struct process *p);
/* Free the struct of a process whose task has been joined. */
void process_free(struct process *p);
/* kernel/exit.c: tell the parent (or the reaper) that p ended with status. */
void exit_notify(struct process *p, int status);

/*
 * Load the static ELF executable at path in the initramfs into p (fresh
 * from process_create()) with Linux's initial stack; p->entry and
 * p->stack are then ready for process_start(). 0, or a negative errno
 * with *why saying why (a malformed file, a dynamic one, no memory).
 */
int process_exec(struct process *p, const char *path, int argc, const char *const *argv,
		 const char **why);
/* Create, exec, run and wait: the wait status, or a negative errno. */
int process_run(const char *path, int argc, const char *const *argv, const char **why);
/* The same, also telling how many system calls the program made. */
int process_run_counted(const char *path, int argc, const char *const *argv,
			const char **why, u64 *nr_syscalls);

/*
 * Load the program at path into the running process in place of the one
 * it runs now (execve). The new image is built in a fresh address space
 * first, so a failure returns an errno and leaves the caller as it was;
 * on success (0) the old image is gone and process_enter_new_image()
 * starts the new one. envp NULL: the default environment.
 */
int process_execve(const char *path, int argc, const char *const *argv,
		   int envc, const char *const *envp, const char **why);
__noreturn void process_enter_new_image(void);
/* As process_exec(), with an environment (envp NULL: the default one). */
int process_exec_env(struct process *p, const char *path, int argc,
		     const char *const *argv, int envc, const char *const *envp,
		     const char **why);

/* init=/rdinit=: run /init (or the one named) if the initramfs has it. */
void run_init_process(void);

/* The running process, or NULL in a kernel thread. */
struct process *current_process(void);
/* End the current process: exit_group(code) or a fatal signal (every thread ends). */
__noreturn void process_exit(int status);
/*
 * kernel/thread.c. End the calling thread alone (exit(2)); the last one
 * out ends the process with status (or the group's code).
 */
__noreturn void thread_exit(int status);
/* The first thread's struct, set up in a new process (process_create()). */
void thread_init_main(struct process *p);
/* Collecting p: join its dead threads and free them (the leader's task is the caller's). */
void process_free_threads(struct process *p);
/* Wake every live thread of p (a fatal signal, the group ending); thread_lock not held. */
void wake_all_threads(struct process *p);
/*
 * execve() in a process with threads: end every thread but the caller and
 * wait until they have left the address space.
 */
void de_thread(struct process *p);
/* Should the calling thread end now (the group ends, or another thread execs)? */
bool thread_must_exit(struct process *p);
/* clone(CLONE_THREAD): a new thread in the caller's process; its tid or -errno. */
long clone_thread(unsigned long flags, u64 newsp, u64 parent_tid, u64 child_tid, u64 tls);
__noreturn void process_exit_signal(int sig);

#endif
