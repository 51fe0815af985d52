// SPDX-License-Identifier: MIT
/*
 * System calls: Linux's numbers for the arch (<asm/unistd.h>, through
 * arch.h), Linux's semantics, negative errno returns. The arch's entry
 * code hands over the number and the six argument registers; a number
 * without a handler answers -ENOSYS and is logged once, so a program's
 * first unknown call shows up in the log without flooding it.
 */
#include <pagoda/arch.h>
#include <pagoda/atomic.h>
#include <pagoda/cpio.h>
#include <pagoda/cr.h>
#include <pagoda/file.h>
#include <pagoda/fs.h>
#include <pagoda/mutex.h>
#include <pagoda/printk.h>
#include <pagoda/process.h>
#include <pagoda/ramfs.h>
#include <pagoda/random.h>
#include <pagoda/sched.h>
#include <pagoda/shmem.h>
#include <pagoda/string.h>
#include <pagoda/time.h>
#include <pagoda/timer.h>
#include <pagoda/uaccess.h>
#include "syscalls.h"

/*
 * brk(2) as Linux answers it: the new break on success, the old one when
 * the request is refused (below the start, or no memory).
 */
static long sys_brk(const unsigned long *args)
{
	struct process *p = current_process();
	u64 want = args[0], old_end = ALIGN_UP(p->brk, PAGE_SIZE), new_end;

	if (want < p->brk_start || want > p->mmap_base)
		return (long)p->brk;
	new_end = ALIGN_UP(want, PAGE_SIZE);
	if (new_end > old_end &&
	    process_map_anon(p, old_end, new_end - old_end, PROT_WRITE))
		return (long)p->brk;
	if (new_end < old_end)
		process_unmap(p, new_end, old_end);
	p->brk = want;
	return (long)want;
}

#define MAP_SHARED 0x01
#define MAP_PRIVATE 0x02
#define MAP_FIXED 0x10
#define MAP_ANONYMOUS 0x20
#define MAP_NORESERVE 0x4000
#define MAP_POPULATE 0x8000
#define MAP_NONBLOCK 0x10000
#define MAP_FIXED_NOREPLACE 0x100000
#define LINUX_PROT_WRITE 2
#define LINUX_PROT_EXEC 4

/* An area's PROT_* for mmap's and mprotect's prot (PROT_NONE: PROT_NOACCESS). */
static unsigned int linux_prot(unsigned long prot)
{
	if (!(prot & 7))
		return PROT_NOACCESS;
	return (prot & LINUX_PROT_WRITE ? PROT_WRITE : 0) |
	       (prot & LINUX_PROT_EXEC ? PROT_EXEC : 0);
}

/*
 * What mmap may map of the file behind fd: an initramfs file, privately
 * (each page read on first touch: the page cache's until the process
 * writes it, then a copy of its own; mm/memory.c, mm/filemap.c), or a
 * file whose f_op->mmap gives its shared memory object (a tmpfs file,
 * a memfd), shared or privately, with a reference put by the caller.
 * Linux's checks in its order: a descriptor, then the mapping type and
 * the open's access mode, then whether the file can be mapped at all.
 * MAP_SHARED of a read-only initramfs file is granted read-only: nothing
 * can change the file, so a private copy reads the same.
 */
static long mmap_file(unsigned long flags, unsigned long prot, long fd,
		      const struct ramfs_file **rf, struct shmem_object **shm)
{
	struct file *f __free(file_put) = fget(fd);
	bool ops = f && f->kind == FILE_OPS;

	if (!f)
		return -EBADF;
	switch (flags & (MAP_SHARED | MAP_PRIVATE)) {
	case MAP_SHARED:
		if ((prot & LINUX_PROT_WRITE) && (!ops || !f->can_write))
			return -EACCES; /* no initramfs file is open for writing */
		fallthrough;
	case MAP_PRIVATE:
		if (ops && !f->can_read)
			return -EACCES;
		break;
	default:
		return -EINVAL;
	}
	if (ops && f->f_op->mmap) {
		*shm = f->f_op->mmap(f);
		return 0;
	}
	if (f->kind != FILE_RAMFS || !f->rf || (f->rf->mode & CPIO_S_IFMT) != CPIO_S_IFREG)
		return -ENODEV; /* pipes, devices, directories */
	*rf = f->rf;
	return 0;
}

/* Where sys_mmap's checks passed: make the area, of the right kind. */
static int mmap_region(struct process *p, u64 addr, u64 len, unsigned int kprot,
		       unsigned long flags, const struct ramfs_file *rf,
		       struct shmem_object *shm, u64 pgoff)
{
	unsigned int vm_flags = flags & MAP_NORESERVE ? VM_NORESERVE : 0;

	if (shm)
		return process_map_shmem(p, addr, len, kprot,
					 vm_flags | (flags & MAP_SHARED ? VM_SHARED : 0), shm, pgoff);
	if ((flags & MAP_ANONYMOUS) && (flags & MAP_SHARED))
		return process_map_shared_anon(p, addr, len, kprot, vm_flags);
	return process_map_file(p, addr, len, kprot, vm_flags, rf, pgoff);
}

/*
 * mmap(2): anonymous memory, private or shared (mm/shmem.c), private
 * mappings of initramfs files, shared or private ones of tmpfs files.
 */
static long sys_mmap(const unsigned long *args)
{
	struct process *p = current_process();
	u64 addr = args[0], len = ALIGN_UP(args[1], PAGE_SIZE), off = args[5];
	unsigned long prot = args[2], flags = args[3];
	unsigned int kprot = linux_prot(prot);
	const struct ramfs_file *rf = NULL;
	struct shmem_object *shm __free(shmem_put) = NULL;
	int err;

	if (off & (PAGE_SIZE - 1))
		return -EINVAL; /* before anything else, as Linux's sys_mmap */
	if (!(flags & MAP_ANONYMOUS)) {
		err = (int)mmap_file(flags, prot, (long)args[4], &rf, &shm);
		if (err)
			return err;
	}
	if (!args[1] || len < args[1])
		return -EINVAL;
	/* Anonymous memory is shared or private, not both (MAP_SHARED_VALIDATE): Linux's order. */
	if ((flags & MAP_ANONYMOUS) && (flags & (MAP_SHARED | MAP_PRIVATE)) != MAP_SHARED &&
	    (flags & (MAP_SHARED | MAP_PRIVATE)) != MAP_PRIVATE)
		return -EINVAL;
	if (flags & MAP_FIXED_NOREPLACE) {
		/*
		 * At addr exactly, but never over an area already there: -EEXIST,
		 * as Linux (mmap_lock is held: see changes_areas).
		 */
		struct vm_area *v;

		if (!IS_ALIGNED(addr, PAGE_SIZE) || !access_ok(addr, len))
			return -EINVAL;
		v = find_vma(p, addr);
		if (v && v->start < addr + len)
			return -EEXIST;
	} else if (flags & MAP_FIXED) {
		if (!IS_ALIGNED(addr, PAGE_SIZE) || !access_ok(addr, len))
			return -EINVAL;
		process_unmap(p, addr, addr + len);
	} else {
		addr = process_find_free(p, len);
		if (!addr)
			return -ENOMEM;
	}
	err = mmap_region(p, addr, len, kprot, flags, rf, shm, off >> PAGE_SHIFT);
	if (err)
		return err;
	/*
	 * Faulted in now, as far as memory allows (Linux ignores a failure
	 * here too); MAP_NONBLOCK beside it asks for no faulting, so none.
	 */
	if ((flags & (MAP_POPULATE | MAP_NONBLOCK)) == MAP_POPULATE)
		mm_populate(p, addr, len);
	return (long)addr;
}

static long sys_munmap(const unsigned long *args)
{
	u64 addr = args[0], len = ALIGN_UP(args[1], PAGE_SIZE);

	if (!IS_ALIGNED(addr, PAGE_SIZE) || !args[1] || !access_ok(addr, len))
		return -EINVAL;
	return process_unmap(current_process(), addr, addr + len);
}

/* mprotect(2) on the program's anonymous areas (mm/mmap.c). */
static long sys_mprotect(const unsigned long *args)
{
	u64 addr = args[0], len = ALIGN_UP(args[1], PAGE_SIZE);
	unsigned long prot = args[2];
	unsigned int kprot = linux_prot(prot);

	if (!IS_ALIGNED(addr, PAGE_SIZE) || len < args[1] || (prot & ~7UL))
		return -EINVAL;
	if (!len)
		return 0;
	if (!access_ok(addr, len))
		return -ENOMEM;
	return process_protect(current_process(), addr, addr + len, kprot);
}

/* mremap(old, old_size, new_size, flags, new_address) */
static long sys_mremap(const unsigned long *args)
{
	unsigned long flags = args[3];

	if (flags & ~(unsigned long)(MREMAP_MAYMOVE | MREMAP_FIXED | MREMAP_DONTUNMAP))
		return -EINVAL;
	if (!access_ok(args[0], args[1]))
		return -EFAULT;
	return process_mremap(current_process(), args[0], args[1], args[2], flags, args[4]);
}

/* struct utsname: six fields of 65 bytes. */
static long sys_uname(const unsigned long *args)
{
	static const char *const fields[6] = {
		"Pagoda", "pagoda", "6.1.0-pagoda", "#1", ELF_PLATFORM, "(none)",
	};
	char u[6][65];

	memset(u, 0, sizeof(u));
	for (int i = 0; i < 6; i++)
		strlcpy(u[i], fields[i], sizeof(u[i]));
	return copy_to_user(args[0], u, sizeof(u)) ? -EFAULT : 0;
}

static long sys_getrandom(const unsigned long *args)
{
	u8 chunk[64];
	unsigned long done = 0, count = MIN(args[1], 1UL << 20);

	while (done < count) {
		unsigned long n = MIN(count - done, sizeof(chunk));

		get_random_bytes(chunk, n);
		if (copy_to_user(args[0] + done, chunk, n))
			return done ? (long)done : -EFAULT;
		done += n;
	}
	return (long)done;
}

static long sys_getppid(const unsigned long *args)
{
	struct process *p = current_process();
	long ppid;

	(void)args;
	mutex_lock(&process_lock);
	ppid = p->parent ? p->parent->pid : 0; /* 0: started by the kernel, or orphaned */
	mutex_unlock(&process_lock);
	return ppid;
}

/* exit_group(code): every thread of the process ends (kernel/exit.c). */
static long sys_exit_group(const unsigned long *args)
{
	process_exit((int)((args[0] & 0xff) << 8));
}

/* exit(code): the calling thread ends; the last one's code is the process's. */
static long sys_exit(const unsigned long *args)
{
	thread_exit((int)((args[0] & 0xff) << 8));
}

/* getpid(): the thread group's id, the same in every thread. */
static long sys_getpid(const unsigned long *args)
{
	(void)args;
	return current_process()->pid;
}

static long sys_sched_yield(const unsigned long *args)
{
	(void)args;
	yield();
	return 0;
}

static syscall_fn_t *const sys_call_table[NR_syscalls] = {
	[__NR_write] = sys_write,
	[__NR_exit] = sys_exit,
	[__NR_exit_group] = sys_exit_group,
	[__NR_getpid] = sys_getpid,
	[__NR_gettid] = sys_gettid,
	[__NR_futex] = sys_futex,
	[__NR_futex_waitv] = sys_futex_waitv,
	[__NR_get_robust_list] = sys_get_robust_list,
	[__NR_sched_yield] = sys_sched_yield,
	[__NR_writev] = sys_writev,
	[__NR_readv] = sys_readv,
	[__NR_pread64] = sys_pread64,
	[__NR_pwrite64] = sys_pwrite64,
	[__NR_preadv] = sys_preadv,
	[__NR_pwritev] = sys_pwritev,
	[__NR_preadv2] = sys_preadv2,
	[__NR_pwritev2] = sys_pwritev2,
	[__NR_io_setup] = sys_io_setup,
	[__NR_io_destroy] = sys_io_destroy,
	[__NR_io_submit] = sys_io_submit,
	[__NR_io_getevents] = sys_io_getevents,
	[__NR_io_cancel] = sys_io_cancel,
	[__NR_brk] = sys_brk,
	[__NR_mmap] = sys_mmap,
	[__NR_munmap] = sys_munmap,
	[__NR_mprotect] = sys_mprotect,
	[__NR_mremap] = sys_mremap,
	[__NR_clock_gettime] = sys_clock_gettime,
	[__NR_clock_getres] = sys_clock_getres,
	[__NR_gettimeofday] = sys_gettimeofday,
	[__NR_uname] = sys_uname,
	[__NR_getrandom] = sys_getrandom,
	[__NR_ioctl] = sys_ioctl,
	[__NR_set_tid_address] = sys_set_tid_address,
	[__NR_getppid] = sys_getppid,
	[__NR_openat] = sys_openat,
	[__NR_read] = sys_read,
	[__NR_close] = sys_close,
	[__NR_lseek] = sys_lseek,
	[__NR_dup] = sys_dup,
	[__NR_dup3] = sys_dup3,
	[__NR_pipe2] = sys_pipe2,
	[__NR_fstat] = sys_fstat,
	[__NR_newfstatat] = sys_newfstatat,
	[__NR_readlinkat] = sys_readlinkat,
	[__NR_execve] = sys_execve,
	[__NR_clone] = sys_clone,
	[__NR_wait4] = sys_wait4,
	[__NR_getuid] = sys_getuid,
	[__NR_geteuid] = sys_getuid,
	[__NR_getgid] = sys_getuid,
	[__NR_getegid] = sys_getuid,
	[__NR_set_robust_list] = sys_set_robust_list,
	[__NR_madvise] = sys_madvise,
	[__NR_getcpu] = sys_getcpu,
	[__NR_prlimit64] = sys_prlimit64,
	[__NR_nanosleep] = sys_nanosleep,
	[__NR_clock_nanosleep] = sys_clock_nanosleep,
	[__NR_rt_sigaction] = sys_rt_sigaction,
	[__NR_rt_sigprocmask] = sys_rt_sigprocmask,
	[__NR_rt_sigsuspend] = sys_rt_sigsuspend,
	[__NR_sigaltstack] = sys_sigaltstack,
	[__NR_kill] = sys_kill,
	[__NR_rt_sigreturn] = sys_rt_sigreturn,
	[__NR_tgkill] = sys_tgkill,
	[__NR_tkill] = sys_tkill,
	[__NR_getitimer] = sys_getitimer,
	[__NR_setitimer] = sys_setitimer,
	[__NR_sched_getaffinity] = sys_sched_getaffinity,
	[__NR_sched_setaffinity] = sys_sched_setaffinity,
	[__NR_rseq] = sys_rseq,
	[__NR_sysinfo] = sys_sysinfo,
	[__NR_getrusage] = sys_getrusage,
	[__NR_faccessat] = sys_faccessat,
	[__NR_faccessat2] = sys_faccessat2,
	[__NR_statx] = sys_statx,
	[__NR_fadvise64] = sys_fadvise64,
	[__NR_statfs] = sys_statfs,
	[__NR_fstatfs] = sys_fstatfs,
	[__NR_getdents64] = sys_getdents64,
	[__NR_mkdirat] = sys_mkdirat,
	[__NR_unlinkat] = sys_unlinkat,
	[__NR_fchmodat] = sys_fchmodat,
	[__NR_fchmod] = sys_fchmod,
	[__NR_symlinkat] = sys_symlinkat,
	[__NR_renameat2] = sys_renameat2,
	[__NR_renameat] = sys_renameat,
	[__NR_fcntl] = sys_fcntl,
	[__NR_umask] = sys_umask,
	[__NR_chdir] = sys_chdir,
	[__NR_fchdir] = sys_fchdir,
	[__NR_getcwd] = sys_getcwd,
	[__NR_mount] = sys_mount,
	[__NR_umount2] = sys_umount2,
	[__NR_reboot] = sys_reboot,
	[__NR_truncate] = sys_truncate,
	[__NR_ftruncate] = sys_ftruncate,
	[__NR_fsync] = sys_fsync,
	[__NR_getpgid] = sys_getpgid,
	[__NR_setpgid] = sys_setpgid,
	[__NR_getsid] = sys_getsid,
	[__NR_setsid] = sys_setsid,
	[__NR_fdatasync] = sys_fsync,
	[__NR_ppoll] = sys_ppoll,
	[__NR_pselect6] = sys_pselect6,
	[__NR_sync] = sys_sync,
	[__NR_utimensat] = sys_utimensat,
	[__NR_memfd_create] = sys_memfd_create,
	[__NR_msync] = sys_msync,
	[__NR_mincore] = sys_mincore,
	[__NR_fallocate] = sys_fallocate,
	[__NR_socketpair] = sys_socketpair,
	[__NR_sendto] = sys_sendto,
	[__NR_recvfrom] = sys_recvfrom,
	[__NR_shutdown] = sys_shutdown,
	[__NR_timerfd_create] = sys_timerfd_create,
	[__NR_timerfd_settime] = sys_timerfd_settime,
	[__NR_timerfd_gettime] = sys_timerfd_gettime,
	[__NR_getpriority] = sys_getpriority,
	[__NR_setpriority] = sys_setpriority,
	[__NR_prctl] = sys_prctl,
	[__NR_sendfile] = sys_sendfile,
	[__NR_shmget] = sys_shmget,
	[__NR_shmat] = sys_shmat,
	[__NR_shmdt] = sys_shmdt,
	[__NR_shmctl] = sys_shmctl,
	[__NR_semctl] = sys_semctl,
	/* The arch's own rows (asm/syscall_table.h): x86-64's older calls. */
#define __SYSCALL(nr, handler) [nr] = handler,
#include <asm/syscall_table.h>
#undef __SYSCALL
};

/*
 * The calls that change a process's areas run under its mmap_lock, as
 * Linux's take mmap_write_lock(): the shell's maps may be reading them.
 * None of them copies to or from user memory meanwhile.
 */
static const bool changes_areas[NR_syscalls] = {
	[__NR_brk] = true,
	[__NR_mmap] = true,
	[__NR_munmap] = true,
	[__NR_mprotect] = true,
	[__NR_mremap] = true,
	[__NR_madvise] = true,
	[__NR_shmat] = true,
	[__NR_shmdt] = true,
};

static unsigned long reported[NR_syscalls / 64 + 1];

static void report_unknown(unsigned long nr)
{
	unsigned long slot = MIN(nr, (unsigned long)NR_syscalls);
	unsigned long bit = 1UL << (slot % 64);

	if (__atomic_fetch_or(&reported[slot / 64], bit, __ATOMIC_RELAXED) & bit)
		return;
	pr_warn("syscall: %s[%d] called unknown number %lu: -ENOSYS (logged once%s)\n",
		current->name, current->pid, nr, nr >= NR_syscalls ? " for all out of range" : "");
}

long syscall_dispatch(unsigned long nr, const unsigned long args[6])
{
	struct process *p = current_process();
	unsigned long arg0 = args[0]; /* arm64's args are the frame: x0 gets the result */
	long ret;

	if (p) {
		__atomic_fetch_add(&p->nr_syscalls, 1, __ATOMIC_RELAXED); /* threads count at once */
		signal_check_pending();
	}
	if (nr < NR_syscalls && sys_call_table[nr] && p && changes_areas[nr]) {
		down_write(&p->mmap_lock);
		ret = sys_call_table[nr](args);
		up_write(&p->mmap_lock);
	} else if (nr < NR_syscalls && sys_call_table[nr]) {
		ret = sys_call_table[nr](args);
	} else {
		report_unknown(nr);
		ret = -ENOSYS;
	}
	/* Killed while it slept in the call: end before returning to the program. */
	if (p)
		signal_check_pending();
	if (p && ret == -EINTR)
		cr_note_interrupted(p, nr, arg0);
	return ret;
}
