// SPDX-License-Identifier: MIT
/*
 * System V shared memory (Linux: ipc/shm.c): shmget, shmat, shmdt and
 * shmctl. A segment is a name (a key, or none: IPC_PRIVATE) for a shared
 * anonymous memory object (mm/shmem.c), which shmat maps into a process
 * as MAP_SHARED memory is mapped; fio keeps its jobs' state in one, and
 * Linux's futex selftests wait on words in one.
 *
 * The table holds one reference on each segment's object; each attach is
 * an area holding another, as any shared area does, so fork's copies,
 * munmap's pieces and exits need nothing here, and shm_nattch is the
 * areas that map it (Linux counts its vmas too). IPC_RMID takes the name
 * and the table's reference away at once: the memory lives on in the
 * areas still attached and goes with the last of them. (Linux keeps a
 * removed segment's id usable by shmat while attached; here it is
 * EINVAL, as after the last detach on Linux.)
 */
#include <pagoda/mm.h>
#include <pagoda/mutex.h>
#include <pagoda/process.h>
#include <pagoda/shmem.h>
#include <pagoda/slab.h>
#include <pagoda/string.h>
#include <pagoda/timer.h>
#include <pagoda/time.h>
#include <pagoda/uaccess.h>

#include "../kernel/syscalls.h"

#define IPC_PRIVATE 0
#define IPC_CREAT 01000
#define IPC_EXCL 02000
#define IPC_RMID 0
#define IPC_STAT 2
#define IPC_INFO 3
#define SHM_STAT 13     /* by index, as ipcs walks the table */
#define SHM_INFO 14
#define SHM_STAT_ANY 15 /* SHM_STAT without the read-permission check */
#define IPC_64 0x100  /* glibc and musl add it to cmd; the layout is the same */
#define SHM_RDONLY 010000
#define SHM_RND 020000
#define SHM_REMAP 040000
#define SHM_NORESERVE 010000 /* shmget's: do not promise the size */
#define SHMLBA PAGE_SIZE

/*
 * Segments at once: Linux's SHMMNI is 4096; 128 keep the table to two
 * pages. Each at most SHMMAX bytes, Linux's default.
 */
#define SHMMNI 128
#define SHMMAX (~0UL - (1UL << 24))

struct shmid_kernel {
	struct shmem_object *obj; /* NULL: a free slot */
	int key;
	unsigned int seq;         /* the id is seq * SHMMNI + slot: a stale id misses */
	unsigned int mode;
	unsigned long size;       /* bytes, as asked */
	int cpid, lpid;
	s64 atime, dtime, ctime;
};

/* The segments, made on the first shmget. */
static struct shmid_kernel *shm_ids;
static unsigned int shm_seq;
static DEFINE_MUTEX(shm_lock);

static s64 now_seconds(void)
{
	return (s64)(ktime_get_ns() + realtime_offset_ns()) / (s64)NSEC_PER_SEC;
}

/* Under shm_lock: the segment an id names, or NULL. */
static struct shmid_kernel *shm_lookup(long id)
{
	struct shmid_kernel *s;

	if (id < 0 || !shm_ids)
		return NULL;
	s = &shm_ids[id % SHMMNI];
	return s->obj && s->seq == (unsigned long)id / SHMMNI ? s : NULL;
}

static long shm_id(const struct shmid_kernel *s)
{
	return (long)s->seq * SHMMNI + (s - shm_ids);
}

static long newseg(struct process *p, int key, unsigned long size, int flags)
{
	struct shmid_kernel *s = NULL;
	struct shmem_object *obj;

	if (!size || size > SHMMAX)
		return -EINVAL;
	for (unsigned int i = 0; i < SHMMNI && !s; i++)
		if (!shm_ids[i].obj)
			s = &shm_ids[i];
	if (!s)
		return -ENOSPC;
	obj = shmem_zero_setup(p, ALIGN_UP(size, PAGE_SIZE) >> PAGE_SHIFT,
			       !(flags & SHM_NORESERVE));
	if (!obj)
		return -ENOMEM;
	*s = (struct shmid_kernel){ .obj = obj, .key = key, .seq = ++shm_seq % (1u << 15),
				    .mode = (unsigned int)flags & 0777, .size = size,
				    .cpid = p->pid, .ctime = now_seconds() };
	return shm_id(s);
}

/* shmget(key, size, shmflg): the id of the segment key names, made if asked. */
long sys_shmget(const unsigned long *args)
{
	int key = (int)args[0], flags = (int)args[2];
	unsigned long size = args[1];
	struct shmid_kernel *s = NULL;
	long ret;

	mutex_lock(&shm_lock);
	if (!shm_ids) {
		shm_ids = kcalloc(SHMMNI, sizeof(*shm_ids), GFP_KERNEL);
		if (!shm_ids) {
			mutex_unlock(&shm_lock);
			return -ENOMEM;
		}
	}
	for (unsigned int i = 0; key != IPC_PRIVATE && i < SHMMNI && !s; i++)
		if (shm_ids[i].obj && shm_ids[i].key == key)
			s = &shm_ids[i];
	/* Linux's order: a new one, or the old one's checks: EEXIST, then size. */
	if (!s)
		ret = key == IPC_PRIVATE || (flags & IPC_CREAT) ? newseg(current_process(), key, size, flags)
								 : -ENOENT;
	else if ((flags & IPC_CREAT) && (flags & IPC_EXCL))
		ret = -EEXIST;
	else if (size > s->size)
		ret = -EINVAL;
	else
		ret = shm_id(s);
	mutex_unlock(&shm_lock);
	return ret;
}

/* shmat(id, addr, shmflg): map the segment; its address. (The caller holds mmap_lock.) */
long sys_shmat(const unsigned long *args)
{
	struct process *p = current_process();
	u64 addr = args[1], len;
	int flags = (int)args[2];
	struct shmid_kernel *s;
	struct shmem_object *obj;
	long err;

	mutex_lock(&shm_lock);
	s = shm_lookup((long)args[0]);
	if (!s) {
		mutex_unlock(&shm_lock);
		return -EINVAL;
	}
	obj = s->obj;
	shmem_get(obj); /* across the unlock: an IPC_RMID meanwhile cannot free it */
	len = ALIGN_UP(s->size, PAGE_SIZE);
	s->atime = now_seconds();
	s->lpid = p->pid;
	mutex_unlock(&shm_lock);

	if (addr && (flags & SHM_RND))
		addr = ALIGN_DOWN(addr, SHMLBA);
	if (addr & (SHMLBA - 1)) {
		err = -EINVAL;
	} else if (!addr) {
		addr = process_find_free(p, len);
		err = addr ? 0 : -ENOMEM;
	} else if (!access_ok(addr, len)) {
		err = -EINVAL;
	} else {
		struct vm_area *v = find_vma(p, addr);

		/* Over a mapping only with SHM_REMAP, as Linux. */
		err = v && v->start < addr + len && !(flags & SHM_REMAP) ? -EINVAL : 0;
		if (!err)
			process_unmap(p, addr, addr + len);
	}
	if (!err)
		err = process_map_shmem(p, addr, len, flags & SHM_RDONLY ? 0 : PROT_WRITE,
					VM_SHARED, obj, 0);
	shmem_put(obj);
	return err ? err : (long)addr;
}

/* shmdt(addr): unmap the attach that starts at addr. (The caller holds mmap_lock.) */
long sys_shmdt(const unsigned long *args)
{
	struct process *p = current_process();
	u64 addr = args[0], end;
	struct vm_area *v;

	if (addr & (SHMLBA - 1))
		return -EINVAL;
	v = find_vma(p, addr);
	if (!v || v->start != addr || !v->shm || v->pgoff)
		return -EINVAL;
	/* The attach: the areas of this object that follow on from addr. */
	end = v->end;
	for (struct vm_area *n = v->next; n && n->start == end && n->shm == v->shm &&
	     n->pgoff == (end - addr) >> PAGE_SHIFT; n = n->next)
		end = n->end;
	mutex_lock(&shm_lock);
	for (unsigned int i = 0; shm_ids && i < SHMMNI; i++)
		if (shm_ids[i].obj == v->shm) {
			shm_ids[i].dtime = now_seconds();
			shm_ids[i].lpid = p->pid;
		}
	mutex_unlock(&shm_lock);
	return process_unmap(p, addr, end);
}

/* Linux's struct shmid64_ds on 64-bit machines (x86-64 and arm64 alike). */
struct shmid64_ds {
	struct {
		s32 key;
		u32 uid, gid, cuid, cgid;
		u32 mode; /* a 16-bit mode and its padding on x86-64, 32 bits on arm64 */
		u16 seq, pad;
		u64 unused[2];
	} perm;
	u64 segsz;
	s64 atime, dtime, ctime;
	s32 cpid, lpid;
	u64 nattch;
	u64 unused[2];
};

/* Linux's struct shminfo64 (IPC_INFO): the limits. */
struct shminfo64 {
	u64 shmmax, shmmin, shmmni, shmseg, shmall;
	u64 unused[4];
};

/* Linux's struct shm_info (SHM_INFO): what is in use. */
struct shm_info {
	s32 used_ids;
	u64 shm_tot, shm_rss, shm_swp; /* pages: promised, resident, swapped */
	u64 swap_attempts, swap_successes;
};

/* Under shm_lock: the highest slot in use, or -1 (Linux's ipc_get_maxidx). */
static long shm_max_index(void)
{
	long max = -1;

	for (unsigned int i = 0; shm_ids && i < SHMMNI; i++)
		if (shm_ids[i].obj)
			max = i;
	return max;
}

/*
 * IPC_INFO and SHM_INFO: the limits, or the segments in use; both answer
 * the highest slot in use (0 when none), as Linux does: with SHM_STAT by
 * slot, what `ipcs -m` needs to list the segments without knowing their
 * ids.
 */
static long shm_info(int cmd, unsigned long buf)
{
	long max;
	int err;

	mutex_lock(&shm_lock);
	max = shm_max_index();
	if (cmd == IPC_INFO) {
		struct shminfo64 si = { .shmmax = SHMMAX, .shmmin = 1, .shmmni = SHMMNI,
					.shmseg = SHMMNI, .shmall = ~0UL >> PAGE_SHIFT };

		mutex_unlock(&shm_lock);
		err = copy_to_user(buf, &si, sizeof(si)) ? -EFAULT : 0;
	} else {
		struct shm_info info;

		memset(&info, 0, sizeof(info));
		for (unsigned int i = 0; shm_ids && i < SHMMNI; i++)
			if (shm_ids[i].obj) {
				info.used_ids++;
				info.shm_tot += ALIGN_UP(shm_ids[i].size, PAGE_SIZE) >> PAGE_SHIFT;
				info.shm_rss += shmem_nr_resident(shm_ids[i].obj);
			}
		mutex_unlock(&shm_lock);
		err = copy_to_user(buf, &info, sizeof(info)) ? -EFAULT : 0;
	}
	return err ? err : max < 0 ? 0 : max;
}

/* shmctl(id, cmd, buf): IPC_STAT, IPC_RMID; IPC_INFO, SHM_INFO and SHM_STAT[_ANY] (by slot). */
long sys_shmctl(const unsigned long *args)
{
	int cmd = (int)args[1] & ~IPC_64;
	struct shmid_kernel *s;
	struct shmid64_ds ds;
	long ret = 0;

	if (cmd == IPC_INFO || cmd == SHM_INFO)
		return shm_info(cmd, args[2]);
	if (cmd != IPC_STAT && cmd != IPC_RMID && cmd != SHM_STAT && cmd != SHM_STAT_ANY)
		return -EINVAL;
	mutex_lock(&shm_lock);
	if (cmd == SHM_STAT || cmd == SHM_STAT_ANY) {
		/* args[0] is a slot, and the answer the id of the segment there. */
		s = args[0] < SHMMNI && shm_ids && shm_ids[args[0]].obj ? &shm_ids[args[0]] : NULL;
		if (s)
			ret = shm_id(s);
	} else {
		s = shm_lookup((long)args[0]);
	}
	if (!s) {
		mutex_unlock(&shm_lock);
		return -EINVAL;
	}
	if (cmd == IPC_RMID) {
		struct shmem_object *obj = s->obj;

		s->obj = NULL;
		mutex_unlock(&shm_lock);
		shmem_put(obj);
		return 0;
	}
	memset(&ds, 0, sizeof(ds));
	ds.perm.key = s->key;
	ds.perm.mode = s->mode;
	ds.perm.seq = (u16)s->seq;
	ds.segsz = s->size;
	ds.atime = s->atime;
	ds.dtime = s->dtime;
	ds.ctime = s->ctime;
	ds.cpid = s->cpid;
	ds.lpid = s->lpid;
	ds.nattch = shmem_users(s->obj) - 1; /* the areas: all but the table's reference */
	mutex_unlock(&shm_lock);
	return copy_to_user(args[2], &ds, sizeof(ds)) ? -EFAULT : ret;
}
