// SPDX-License-Identifier: MIT
/*
 * exec: an ELF64 executable (ET_EXEC) or position-independent one (ET_DYN)
 * from the initramfs or a tmpfs (kernel/exec_file.c) is checked whole by
 * lib/elf.c, its segments are mapped (file pages from the page cache or
 * the tmpfs file's memory, privately; the rest anonymous), and the
 * stack gets Linux's initial layout, from the top down:
 *
 *	the path (AT_EXECFN), environment strings, argument strings,
 *	the platform string (AT_PLATFORM), 16 random bytes (AT_RANDOM),
 *	padding to 16 bytes, then upwards from the stack pointer:
 *	argc, argv[0..argc-1], NULL, envp[], NULL, auxv pairs, AT_NULL.
 *
 * A dynamic program (PT_INTERP) names its loader, glibc's ld.so: that file
 * is checked and mapped too, below mmap_base as a library would be, and
 * the process starts at the loader's entry with AT_BASE saying where the
 * loader is and AT_PHDR/AT_ENTRY where the program is. The loader maps
 * the libraries itself, with openat, mmap and mprotect (docs/userland.md).
 *
 * randomize_va_space= (Linux's sysctl name): 2 (the default) moves the
 * stack, the mmap area and a PIE's base by random page counts; 0 keeps
 * them at fixed addresses, for reproducible runs and debugging (Linux's
 * norandmaps on the command line does the same).
 */
#include <pagoda/arch.h>
#include <pagoda/binfmts.h>
#include <pagoda/cpio.h>
#include <pagoda/elf.h>
#include <pagoda/errname.h>
#include <pagoda/fs.h>
#include <pagoda/initramfs.h>
#include <pagoda/params.h>
#include <pagoda/process.h>
#include <pagoda/random.h>
#include <pagoda/preempt.h>
#include <pagoda/printk.h>
#include <pagoda/sched.h>
#include <pagoda/shell.h>
#include <pagoda/slab.h>
#include <pagoda/string.h>
#include <pagoda/uaccess.h>
#include <pagoda/vdso.h>
#include "syscalls.h"

static int randomize_va_space = 2;
PARAM_INT("randomize_va_space", randomize_va_space, 0, 2,
	  "address-space randomisation for new processes: 0 off, 1 or 2 on");
static bool norandmaps;
PARAM_BOOL("norandmaps", norandmaps,
	   "no address-space randomisation (Linux's name; randomize_va_space=0)");

#define STACK_SIZE (32 * PAGE_SIZE)   /* the area at first: faults below grow it */
#define ARGS_SPACE (2 * PAGE_SIZE)    /* strings and vectors must fit here */
#define MAX_ARGS 64

static const char *const default_envp[] = { "PATH=/bin", "HOME=/", "TERM=linux", NULL };

/* A random number of pages below 2^bits, or 0 without randomisation. */
static u64 random_pages(unsigned int bits)
{
	if (!randomize_va_space || norandmaps)
		return 0;
	return (get_random_u64() & ((1ULL << bits) - 1)) * PAGE_SIZE;
}

static unsigned int elf_prot(unsigned int pf)
{
	return PROT_PRESENT | (pf & PF_W ? PROT_WRITE : 0) | (pf & PF_X ? PROT_EXEC : 0);
}

/*
 * One segment, as Linux's ELF loader maps it: the pages wholly inside the
 * file part are a private mapping of the file, read on fault from the
 * page cache, so the text every run executes is the same shared pages
 * and an exec copies none of it. The page where the file part begins
 * mid-page and the one where it ends (bss begins there) are pages of the
 * process's own, holding the segment's bytes and zeros elsewhere, as the
 * bss pages after them are.
 */
static int load_segment(struct process *p, const struct exec_file *f,
			const struct elf_segment *s, u64 bias)
{
	u64 start = bias + s->vaddr, end = start + s->memsz;
	u64 fstart = bias + s->start, fend = fstart + s->filesz;
	u64 lo = ALIGN_UP(fstart, PAGE_SIZE), hi = ALIGN_DOWN(fend, PAGE_SIZE);
	unsigned int prot = elf_prot(s->prot);
	int err;

	if (lo >= hi) /* no whole page of the file: all the process's own */
		lo = hi = end;
	if (lo > start) {
		err = process_map_anon(p, start, lo - start, prot);
		if (err)
			return err;
	}
	if (hi > lo) {
		/* vaddr and offset agree modulo the page (lib/elf.c): lo's offset is aligned. */
		u64 pgoff = (s->offset + (lo - fstart)) >> PAGE_SHIFT;

		err = f->rf ? process_map_file(p, lo, hi - lo, prot, 0, f->rf, pgoff) :
			      process_map_shmem(p, lo, hi - lo, prot, 0, f->shm, pgoff);
		if (err)
			return err;
	}
	if (end > hi && hi > lo) {
		err = process_map_anon(p, hi, end - hi, prot);
		if (err)
			return err;
	}
	/* The partial pages' file bytes: before lo, and from hi (when there is a file part). */
	err = process_write(p, fstart, (const u8 *)f->data + s->offset, MIN(lo, fend) - fstart);
	if (!err && hi > lo && fend > hi)
		err = process_write(p, hi, (const u8 *)f->data + s->offset + (hi - fstart),
				    fend - hi);
	return err;
}

static int load_segments(struct process *p, const struct exec_file *f,
			 const struct elf_info *info, u64 bias)
{
	for (unsigned int i = 0; i < info->nr_segments; i++) {
		int err = load_segment(p, f, &info->seg[i], bias);

		if (err)
			return err;
	}
	return 0;
}

struct stack_builder {
	u8 *buf;      /* the top ARGS_SPACE bytes of the stack */
	u64 base_va;  /* the user address of buf[0] */
	size_t pos;   /* next free byte, going down */
	bool full;
};

static u64 push_bytes(struct stack_builder *b, const void *data, size_t n)
{
	if (n > b->pos) {
		b->full = true;
		return 0;
	}
	b->pos -= n;
	memcpy(b->buf + b->pos, data, n);
	return b->base_va + b->pos;
}

static u64 push_str(struct stack_builder *b, const char *s)
{
	return push_bytes(b, s, strlen(s) + 1);
}

static int build_stack(struct process *p, const struct elf_info *info, u64 bias,
		       u64 interp_base, const char *path, int argc, const char *const *argv, int envc,
		       const char *const *envp, u64 stack_top)
{
	struct stack_builder b = { .base_va = stack_top - ARGS_SPACE, .pos = ARGS_SPACE };
	u64 argv_va[MAX_ARGS], envp_va[MAX_ARGS], execfn, platform, rnd;
	u64 auxv[][2] = {
		{ AT_PHDR, bias + info->phdr }, { AT_PHENT, info->phentsize },
		{ AT_PHNUM, info->phnum }, { AT_PAGESZ, PAGE_SIZE }, { AT_BASE, interp_base },
		{ AT_FLAGS, 0 }, { AT_ENTRY, bias + info->entry }, { AT_UID, 0 },
		{ AT_EUID, 0 }, { AT_GID, 0 }, { AT_EGID, 0 }, { AT_SECURE, 0 },
		{ AT_HWCAP, ELF_HWCAP }, { AT_HWCAP2, ELF_HWCAP2 }, { AT_CLKTCK, 100 },
		{ AT_MINSIGSTKSZ, ELF_MINSIGSTKSZ }, { AT_RANDOM, 0 }, { AT_EXECFN, 0 },
		{ AT_PLATFORM, 0 }, { AT_SYSINFO_EHDR, p->vdso_base }, { AT_NULL, 0 },
	};
	unsigned int words, naux = ARRAY_SIZE(auxv);
	u8 random[16];
	u64 *w;
	int err;

	if (!envp) {
		envp = default_envp;
		envc = ARRAY_SIZE(default_envp) - 1;
	}
	if (argc < 0 || argc > MAX_ARGS || envc < 0 || envc > MAX_ARGS)
		return -E2BIG;
	b.buf = kzalloc(ARGS_SPACE, GFP_KERNEL);
	if (!b.buf)
		return -ENOMEM;
	execfn = push_str(&b, path);
	for (int i = envc - 1; i >= 0; i--)
		envp_va[i] = push_str(&b, envp[i]);
	for (int i = argc - 1; i >= 0; i--)
		argv_va[i] = push_str(&b, argv[i]);
	platform = push_str(&b, ELF_PLATFORM);
	get_random_bytes(random, sizeof(random));
	rnd = push_bytes(&b, random, sizeof(random));
	for (unsigned int i = 0; i < naux; i++) {
		if (auxv[i][0] == AT_RANDOM)
			auxv[i][1] = rnd;
		else if (auxv[i][0] == AT_EXECFN)
			auxv[i][1] = execfn;
		else if (auxv[i][0] == AT_PLATFORM)
			auxv[i][1] = platform;
	}
	/* argc, argv and NULL, envp and NULL, the auxv: sp ends 16-byte aligned. */
	words = 1 + (unsigned int)argc + 1 + (unsigned int)envc + 1 + 2 * naux;
	b.pos &= ~(size_t)15;
	if (words % 2)
		b.pos -= MIN(b.pos, (size_t)8);
	if (b.full || words * 8 > b.pos) {
		kfree(b.buf);
		return -E2BIG;
	}
	b.pos -= words * 8;
	w = (u64 *)(b.buf + b.pos);
	*w++ = (u64)argc;
	for (int i = 0; i < argc; i++)
		*w++ = argv_va[i];
	*w++ = 0;
	for (int i = 0; i < envc; i++)
		*w++ = envp_va[i];
	*w++ = 0;
	for (unsigned int i = 0; i < naux; i++) {
		*w++ = auxv[i][0];
		*w++ = auxv[i][1];
	}
	err = process_write(p, b.base_va, b.buf, ARGS_SPACE);
	p->stack = b.base_va + b.pos;
	kfree(b.buf);
	return err;
}

/*
 * The loader a dynamic program names (PT_INTERP), opened as the program
 * was and checked whole. As Linux: -ENOENT when it is not there, -EACCES
 * when it is no regular file or has no execute bit, and -ENOEXEC when it
 * is no ELF for this machine or wants a loader itself. On success the
 * caller puts *interp.
 */
static int find_interp(const struct exec_file *f, const struct elf_info *info,
		       struct exec_file *interp, struct elf_info *iinfo, const char **why)
{
	/* lib/elf.c checked that the path is one NUL-terminated string in the file. */
	const char *path = (const char *)f->data + info->interp_off;
	const char *iwhy;
	int err = open_exec(path, interp, &iwhy);

	if (err) {
		*why = err == -ENOENT ? "its interpreter (PT_INTERP) does not exist" :
					"its interpreter is not an executable regular file";
		return err;
	}
	err = elf_parse(interp->data, interp->size, ELF_MACHINE, TASK_SIZE, iinfo, &iwhy);
	if (err) {
		pr_debug("exec: interpreter %s: %s\n", path, iwhy);
		*why = "its interpreter is not an ELF program for this machine";
		err = -ENOEXEC;
	} else if (iinfo->interp_len) {
		*why = "its interpreter names an interpreter of its own";
		err = -ENOEXEC;
	}
	if (err)
		exec_file_put(interp);
	return err;
}

/*
 * The loader goes where mmap would put a library of its size (below
 * mmap_base, so it moves with the mmap area's randomisation), or where
 * it says if it is not position-independent: its bias, or a negative errno.
 */
static int load_interp(struct process *p, const struct exec_file *interp,
		       const struct elf_info *iinfo, u64 *ibias)
{
	u64 base = 0;

	if (iinfo->pie) {
		base = process_find_free(p, iinfo->hi - iinfo->lo);
		if (!base)
			return -ENOMEM;
		base -= iinfo->lo;
	}
	*ibias = base;
	return load_segments(p, interp, iinfo, base);
}

/* What /proc/PID/exe and /proc/PID/cmdline show: the path, the arguments (cut to fit). */
static void record_cmdline(struct process *p, const char *path, int argc,
			   const char *const *argv)
{
	size_t n = 0;

	strlcpy(p->exe, path, sizeof(p->exe));
	for (int i = 0; i < argc; i++) {
		size_t len = strlen(argv[i]) + 1;

		if (n + len > sizeof(p->cmdline))
			break;
		memcpy(p->cmdline + n, argv[i], len);
		n += len;
	}
	p->cmdline_len = (unsigned int)n;
}

int process_exec(struct process *p, const char *path, int argc, const char *const *argv,
		 const char **why)
{
	return process_exec_env(p, path, argc, argv, 0, NULL, why);
}

static int exec_file(struct process *p, const char *path, int argc, const char *const *argv,
		     int envc, const char *const *envp, const char **why, bool interpreter);
int script_args(const char *data, u64 size, const char *path, int argc,
		const char *const *argv, int max_args, char ***nargv, int *nargc);

int process_exec_env(struct process *p, const char *path, int argc,
		     const char *const *argv, int envc, const char *const *envp,
		     const char **why)
{
	return exec_file(p, path, argc, argv, envc, envp, why, false);
}

static int exec_file(struct process *p, const char *path, int argc, const char *const *argv,
		     int envc, const char *const *envp, const char **why, bool interpreter)
{
	struct exec_file file, *f = &file, interp = { 0 };
	struct elf_info *info, *iinfo;
	u64 bias = 0, ibias = 0, stack_top;
	char **sargv;
	int err, sargc;

	*why = "";
	err = open_exec(path, f, why);
	if (err)
		return err;
	/* "#!": the interpreter runs instead, given the script (fs/binfmt_script.c). */
	err = script_args(f->data, f->size, path, argc, argv, MAX_ARGS, &sargv, &sargc);
	if (err <= 0)
		exec_file_put(f); /* a script (its interpreter runs), or a bad one */
	if (err < 0) {
		*why = "a bad #! line";
		return err;
	}
	if (!err) {
		if (interpreter) {
			kfree(sargv);
			*why = "a script's interpreter is a script";
			return -ELOOP;
		}
		err = exec_file(p, sargv[0], sargc, (const char *const *)sargv, envc, envp, why, true);
		kfree(sargv);
		return err;
	}
	/* The program's description and, for a dynamic one, its loader's. */
	info = kmalloc(2 * sizeof(*info), GFP_KERNEL);
	if (!info) {
		exec_file_put(f);
		return -ENOMEM;
	}
	iinfo = info + 1;
	err = elf_parse(f->data, f->size, ELF_MACHINE, TASK_SIZE, info, why);
	if (!err && info->interp_len)
		err = find_interp(f, info, &interp, iinfo, why);
	if (err)
		goto out;
	if (info->pie) {
		bias = ELF_ET_DYN_BASE + random_pages(20) - info->lo;
		if (bias + info->hi > TASK_SIZE / 4 * 3) {
			*why = "a position-independent program too large for its place";
			err = -ENOMEM;
			goto out;
		}
	}
	err = load_segments(p, f, info, bias);
	if (err) {
		*why = "cannot map its segments";
		goto out;
	}
	p->brk_start = p->brk = bias + info->hi;
	stack_top = ALIGN_DOWN(TASK_SIZE - PAGE_SIZE - random_pages(22), PAGE_SIZE);
	err = process_map_anon(p, stack_top - STACK_SIZE, STACK_SIZE, PROT_WRITE);
	if (err) {
		*why = "cannot map its stack";
		goto out;
	}
	/* A fault below it grows it, to RLIMIT_STACK (mm/memory.c). */
	find_vma(p, stack_top - 1)->flags |= VM_GROWSDOWN;
	/* Room for the stack to grow to its limit, and its guard gap (Linux's mmap_base). */
	p->mmap_base = stack_top - STACK_RLIMIT - STACK_GUARD_GAP - random_pages(20);
	/* Without a vDSO a program still runs: its clocks take the syscall. */
	if (!vdso_map(p))
		pr_warn("exec: %s: no room for the vDSO\n", path);
	if (interp.data) {
		err = load_interp(p, &interp, iinfo, &ibias);
		if (err) {
			*why = "cannot map its interpreter";
			goto out;
		}
	}
	err = build_stack(p, info, bias, interp.data ? ibias : 0, path, argc, argv,
			  envc, envp, stack_top);
	if (err) {
		*why = err == -E2BIG ? "arguments too long" : "cannot build its stack";
		goto out;
	}
	/* A dynamic program starts in its loader, which calls AT_ENTRY when it is done. */
	p->entry = interp.data ? ibias + iinfo->entry : bias + info->entry;
	record_cmdline(p, path, argc, argv);
out:
	if (interp.data)
		exec_file_put(&interp);
	exec_file_put(f);
	kfree(info);
	return err;
}

#define SWAP(a, b)                        \
	do {                              \
		__typeof__(a) __t = (a);  \
		(a) = (b);                \
		(b) = __t;                \
	} while (0)

/* After the swap: p's areas are p's (Linux needs no such step: exec gives the task a new mm). */
static void set_vm_mm(struct process *p)
{
	for (struct vm_area *v = p->vmas; v; v = v->next)
		WRITE_ONCE(v->vm_mm, p);
}

int process_execve(const char *path, int argc, const char *const *argv,
		   int envc, const char *const *envp, const char **why)
{
	struct process *p = current_process(), *np;
	const char *base = strrchr(path, '/');
	int err;

	*why = "";
	np = process_create(base ? base + 1 : path);
	if (!np) {
		*why = "no memory for a new address space";
		return -ENOMEM;
	}
	err = process_exec_env(np, path, argc, argv, envc, envp, why);
	if (err) {
		process_destroy(np);
		return err;
	}
	/*
	 * The point of no return: p takes the new image, np the old one,
	 * which is then freed. Off the old tables first (they are about to
	 * go), and with no preemption in between, whose switch would load
	 * p->mm half swapped.
	 */
	de_thread(p); /* nobody else may be in the address space as it is swapped */
	exit_aio(p); /* the old image's contexts go with it, as Linux's exit_aio() at exec */
	down_write(&p->mmap_lock);
	/*
	 * Both page_table_locks: a truncate walking a file's areas
	 * (mm/shmem.c) reaches an area's tables through v->vm_mm, which must
	 * name the process that holds the area once either lock is free.
	 */
	mutex_lock(&p->page_table_lock);
	mutex_lock(&np->page_table_lock);
	preempt_disable();
	arch_switch_mm(&init_mm);
	SWAP(p->mm, np->mm);
	SWAP(p->vmas, np->vmas);
	SWAP(p->mm_rb, np->mm_rb);
	SWAP(p->map_count, np->map_count);
	set_vm_mm(p);
	set_vm_mm(np);
	p->brk_start = np->brk_start;
	p->brk = np->brk;
	p->mmap_base = np->mmap_base;
	p->vdso_base = np->vdso_base;
	p->entry = np->entry;
	p->stack = np->stack;
	arch_switch_mm(&p->mm);
	preempt_enable();
	mutex_unlock(&np->page_table_lock);
	mutex_unlock(&p->page_table_lock);
	up_write(&p->mmap_lock);
	memcpy(p->exe, np->exe, sizeof(p->exe));
	memcpy(p->cmdline, np->cmdline, sizeof(p->cmdline));
	p->cmdline_len = np->cmdline_len;
	process_destroy(np);
	strlcpy(p->name, base ? base + 1 : path, sizeof(p->name));
	strlcpy(current->name, p->name, sizeof(current->name));
	return 0;
}

void process_enter_new_image(void)
{
	struct process *p = current_process();

	/* A new program starts with clean FP registers and no thread pointer. */
	arch_user_state_init(&current_thread()->ustate);
	arch_user_state_load(&current_thread()->ustate);
	arch_enter_user(p->entry, p->stack, 0);
}

/* A NULL-terminated array of user string pointers into kernel copies. */
static int strings_from_user(u64 uvec, char **out, char *space, size_t room, int *count)
{
	size_t used = 0;
	int n = 0;

	*count = 0;
	if (!uvec)
		return 0;
	for (;;) {
		u64 ptr;
		int err;

		if (copy_from_user(&ptr, uvec + (u64)n * 8, 8))
			return -EFAULT;
		if (!ptr)
			break;
		if (n == MAX_ARGS || used >= room)
			return -E2BIG;
		err = string_from_user(space + used, ptr, room - used);
		if (err)
			return err == -ENAMETOOLONG ? -E2BIG : err;
		out[n++] = space + used;
		used += strlen(space + used) + 1;
	}
	*count = n;
	return 0;
}

/*
 * /proc/self/exe and /proc/PID/exe name a program by a link the initramfs
 * does not hold (busybox runs its applets through it): the path the link
 * gives is what runs.
 */
static void exec_resolve_proc_link(char *path)
{
	char target[PATH_MAX];
	const char *rest;
	struct vfsmount *m = lookup_mnt(path, &rest);
	bool proc = m && m->type == &proc_fs_type;
	int n;

	if (m)
		mntput(m);
	if (!proc)
		return;
	n = vfs_readlink(path, target, sizeof(target) - 1);
	if (n <= 0 || target[0] != '/')
		return;
	target[n] = '\0';
	strlcpy(path, target, PATH_MAX);
}

/*
 * execve(path, argv, envp): the arguments and environment are copied in
 * before anything changes, and must fit the exec's ARGS_SPACE together;
 * on failure the caller carries on with an errno, as on Linux.
 */
long sys_execve(const unsigned long *args)
{
	struct process *p = current_process();
	char path[256], *argv[MAX_ARGS], *envp[MAX_ARGS], *space;
	int argc, envc, err;
	const char *why;

	err = user_path_at(AT_FDCWD, args[0], path);
	if (err)
		return err;
	if (!path[0])
		return -ENOENT;
	exec_resolve_proc_link(path);
	space = kmalloc(2 * ARGS_SPACE, GFP_KERNEL);
	if (!space)
		return -ENOMEM;
	err = strings_from_user(args[1], argv, space, ARGS_SPACE, &argc);
	if (!err)
		err = strings_from_user(args[2], envp, space + ARGS_SPACE, ARGS_SPACE, &envc);
	if (!err) {
		/* Handlers do not survive an exec (their code is gone); ignored signals do. */
		for (int i = 0; i < _NSIG; i++)
			if (p->sigaction[i].handler != SIG_IGN)
				p->sigaction[i] = (struct k_sigaction){ 0 };
		err = process_execve(path, argc, (const char *const *)argv, envc,
				     args[2] ? (const char *const *)envp : NULL, &why);
		if (!err) {
			/* The new program has no alternate signal stack, no robust list, no tid word. */
			current_thread()->altstack = (struct sigstack){ .flags = SS_DISABLE };
			current_thread()->robust_list = 0;
			current_thread()->clear_child_tid = 0;
			/*
			 * Exec'd before the close-on-exec files go, as Linux
			 * clears PF_FORKNOEXEC first: a parent that learns of
			 * the exec from a pipe closing here must find its
			 * setpgid -EACCES already (jobtest once saw it granted).
			 */
			WRITE_ONCE(p->did_exec, true);
			process_files_close_on_exec(p);
		}
	}
	kfree(space);
	if (err)
		return err;
	process_enter_new_image();
}

/* The kernel shell's working directory (its cd): where run's programs start. */
static char run_cwd[sizeof(((struct process *)0)->cwd)] = "/";

/*
 * A process the kernel starts from the initramfs: made, exec'd and
 * started, or NULL with *err and *why said. global_init: it is Linux's
 * init, the one process the OOM killer never chooses.
 */
static struct process *spawn(const char *path, int argc, const char *const *argv,
			     bool global_init, const char **why, int *err)
{
	const char *base = strrchr(path, '/');
	struct process *p = process_create(base ? base + 1 : path);

	*why = "";
	if (!p) {
		*why = "no memory for a process";
		*err = -ENOMEM;
		return NULL;
	}
	p->global_init = global_init;
	strlcpy(p->cwd, run_cwd, sizeof(p->cwd));
	*err = process_exec(p, path, argc, argv, why);
	if (!*err)
		*err = process_start(p, p->entry, p->stack, 0);
	if (*err) {
		process_destroy(p);
		return NULL;
	}
	return p;
}

static int run_and_wait(const char *path, int argc, const char *const *argv,
			bool global_init, const char **why, u64 *nr_syscalls)
{
	int err;
	struct process *p = spawn(path, argc, argv, global_init, why, &err);

	if (!p)
		return err;
	console_set_foreground(p->pid);
	err = process_wait_counted(p, nr_syscalls);
	console_set_foreground(0);
	return err;
}

int process_run_counted(const char *path, int argc, const char *const *argv,
			const char **why, u64 *nr_syscalls)
{
	return run_and_wait(path, argc, argv, false, why, nr_syscalls);
}

int process_run(const char *path, int argc, const char *const *argv, const char **why)
{
	return process_run_counted(path, argc, argv, why, NULL);
}

/* run PATH ARGS &: started and left to run; the reaper collects it when it ends. */
static int run_background(int argc, const char *const *argv)
{
	const char *base = strrchr(argv[0], '/'), *why;
	struct process *p = process_create(base ? base + 1 : argv[0]);
	int err;

	if (!p)
		return -ENOMEM;
	err = process_exec(p, argv[0], argc, argv, &why);
	if (!err) {
		p->autoreap = true;
		err = process_start(p, p->entry, p->stack, 0);
	}
	if (err) {
		kprintf("run: %s: %s\n", argv[0], why);
		process_destroy(p);
		return err;
	}
	kprintf("[%d] %s\n", p->pid, argv[0]);
	return 0;
}

/* init's argv: its path and what follows "--" on the command line, in words. */
#define INIT_MAX_ARGS 16

static char init_path[64] = "/init";
PARAM_STRING("rdinit", init_path, "the first program, run from the initramfs at boot if present");
static char init_path_alt[64];
PARAM_STRING("init", init_path_alt,
	     "the same as rdinit= (there is no root filesystem but the initramfs)");

/*
 * As Linux's rdinit=: the initramfs's /init runs before anything else; a
 * program that is not there is no error unless named explicitly. When it
 * ends, Pagoda goes on to the shell (Linux would panic: init must not
 * exit; a teaching kernel is more useful with a prompt).
 */
void run_init_process(void)
{
	struct kernel_param *named = param_find("init");
	const char *path = named && named->set ? init_path_alt : init_path;
	const char *argv[INIT_MAX_ARGS + 1] = { path };
	char args[256];
	const char *why;
	int argc, status, n;

	/* The boot's mounts (/dev, /proc, /tmp) before anyone looks (fs/namespace.c). */
	vfs_init();
	if (!ramfs_lookup(path)) {
		if ((named && named->set) || param_find("rdinit")->set)
			pr_err("init: %s is not in the initramfs; starting the shell\n", path);
		return;
	}
	/* Linux hands init the command line's words after "--" (kernel/params.c). */
	strlcpy(args, param_init_args(), sizeof(args));
	n = argv_split_inplace(args, (char **)&argv[1], INIT_MAX_ARGS - 1);
	if (n < 0) {
		pr_warn("init: more than %d arguments after --: the rest are dropped\n",
			INIT_MAX_ARGS - 1);
		n = INIT_MAX_ARGS - 1;
	}
	argc = 1 + n;
	pr_info("init: running %s%s%s\n", path, argc > 1 ? " " : "", param_init_args());
	status = run_and_wait(path, argc, argv, true, &why, NULL);
	if (status < 0)
		pr_err("init: %s: %s; starting the shell\n", path, why);
	else
		pr_info("init: %s ended (wait status %#x); starting the shell\n", path, status);
}

/*
 * run PATH [ARGS...]: start a program from the initramfs and wait for it.
 * Its exit code becomes the command's status (a signal: -EINTR), so a
 * script or the test harness sees failure.
 */
static int cmd_run(int argc, char **argv)
{
	const char *why;
	int status;

	if (argc < 2)
		return -EINVAL;
	if (!strcmp(argv[argc - 1], "&"))
		return run_background(argc - 2, (const char *const *)argv + 1);
	status = process_run(argv[1], argc - 1, (const char *const *)argv + 1, &why);
	if (status < 0) {
		kprintf("run: %s: %s\n", argv[1], why);
		return status;
	}
	if (status & 0x7f) {
		kprintf("run: %s: killed by signal %d\n", argv[1], status & 0x7f);
		return -EINTR;
	}
	kprintf("run: %s: exit status %d\n", argv[1], (status >> 8) & 0xff);
	return (status >> 8) & 0xff;
}
SHELL_CMD(run, "run PATH [ARGS...] [&]", "run a program from the initramfs and wait for it (&: in the background)",
	  cmd_run);

/*
 * cd [DIR]: the directory run's programs start in (their getcwd, where
 * their relative paths lead); "/" without DIR. A program that writes its
 * files where it stands (Linux's selftests do) needs a writable one: /tmp.
 */
static int cmd_cd(int argc, char **argv)
{
	char abs[PATH_MAX];
	struct kstat k;
	int err;

	if (argc > 2)
		return -EINVAL;
	err = path_normalize(run_cwd, argc == 2 ? argv[1] : "/", abs);
	if (!err && strlen(abs) >= sizeof(run_cwd))
		err = -ENAMETOOLONG;
	if (!err)
		err = vfs_getattr(abs, &k, true);
	if (!err && !S_ISDIR(k.mode))
		err = -ENOTDIR;
	if (err) {
		kprintf("cd: %s: %s\n", argv[1], errname(err));
		return err;
	}
	strlcpy(run_cwd, abs, sizeof(run_cwd));
	return 0;
}
SHELL_CMD(cd, "cd [DIR]", "change the directory run's programs start in", cmd_cd);
