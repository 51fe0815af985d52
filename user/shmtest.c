// SPDX-License-Identifier: MIT
/*
 * shmtest: shared anonymous memory (mmap MAP_SHARED | MAP_ANONYMOUS), as
 * programs use it between a parent and its children, printed as
 * "case: answer" so the same static binary's output on Linux and on
 * Pagoda can be compared line for line (tests/levels/procmem.py).
 *
 * - a child's writes are the parent's, both ways, on every page;
 * - a futex in the shared page: a child waits, the parent wakes it;
 * - a child's mprotect(PROT_READ) is its own: its write is SIGSEGV, the
 *   parent still writes;
 * - munmap of a middle page leaves the two pieces sharing one memory;
 * - mremap grows the mapping; the pages past its original size are
 *   SIGBUS (the memory does not grow), the first pages still shared;
 * - /proc/self/maps calls it "rw-s ... /dev/zero (deleted)";
 * - sizes: more than any machine has is ENOMEM; with MAP_NORESERVE it is
 *   granted and a touch far inside it works;
 * - System V shared memory: shmget (private and by key: EEXIST, ENOENT,
 *   EINVAL), shmat (twice, once read-only), a child's writes, IPC_STAT's
 *   size and attach count through fork and exit, shmdt, IPC_RMID; the
 *   table as ipcs reads it (IPC_INFO, SHM_INFO, SHM_STAT by slot).
 */
#include <mmcheck.h>

#define MAP_NORESERVE 0x4000
#define MREMAP_MAYMOVE 1
#define FUTEX_WAIT 0
#define FUTEX_WAKE 1

static const char *how_ended(int status)
{
	static char buf[32];
	int n = 0;
	const char *what = (status & 0x7f) ? "killed by signal " : "exit ";
	int v = (status & 0x7f) ? (status & 0x7f) : (status >> 8) & 0xff;

	while (*what)
		buf[n++] = *what++;
	if (v >= 10)
		buf[n++] = (char)('0' + v / 10);
	buf[n++] = (char)('0' + v % 10);
	buf[n] = 0;
	return buf;
}

static void pause_ms(long ms)
{
	struct timespec ts = { 0, ms * 1000000 };

	syscall2(__NR_nanosleep, &ts, NULL);
}

static long map(unsigned long len, int flags)
{
	return (long)mmap(NULL, len, PROT_READ | PROT_WRITE, flags, -1, 0);
}

/* The line of /proc/self/maps that starts at addr: its permissions and its name. */
static void maps_line(unsigned long addr)
{
	static char buf[8192];
	char hex[24];
	long fd = sys_open("/proc/self/maps", O_RDONLY), n = 0, r;
	int h = 0;

	if (fd < 0) {
		printf("maps: cannot open /proc/self/maps\n");
		return;
	}
	while (n < (long)sizeof(buf) - 1 &&
	       (r = syscall3(__NR_read, fd, buf + n, sizeof(buf) - 1 - n)) > 0)
		n += r;
	buf[n] = 0;
	syscall1(__NR_close, fd);
	/* Linux's "%08lx": at least eight digits. */
	for (int shift = 60; shift >= 0; shift -= 4) {
		int d = (int)((addr >> shift) & 15);

		if (d || h || shift < 32)
			hex[h++] = (char)(d < 10 ? '0' + d : 'a' + d - 10);
	}
	hex[h++] = '-';
	for (char *line = buf; *line;) {
		char *end = line, *f = line;
		int i;

		while (*end && *end != '\n')
			end++;
		for (i = 0; i < h && line[i] == hex[i]; i++)
			;
		if (i == h) {
			/* Fields: range, perms, offset, device, inode, then the name after spaces. */
			for (int field = 0; field < 5; field++) {
				while (f < end && *f != ' ')
					f++;
				while (f < end && *f == ' ')
					f++;
				if (field == 0) {
					write(1, "maps: ", 6);
					write(1, f, 4);
				}
			}
			write(1, " ", 1);
			write(1, f, (size_t)(end - f));
			write(1, "\n", 1);
			return;
		}
		line = *end ? end + 1 : end;
	}
	printf("maps: no line at the mapping\n");
}

static int mprotect(volatile void *addr, unsigned long len, int prot)
{
	return (int)syscall3(__NR_mprotect, addr, len, prot);
}

#define IPC_PRIVATE 0
#define IPC_CREAT 01000
#define IPC_EXCL 02000
#define IPC_RMID 0
#define IPC_STAT 2
#define SHM_RDONLY 010000
#define SHM_KEY 0x5a5a0601

/* Linux's struct shmid64_ds on 64-bit machines; the fields read here. */
struct shm_stat {
	int key;
	unsigned int uid, gid, cuid, cgid, mode;
	unsigned short seq, pad;
	unsigned long unused[2];
	unsigned long segsz;
	long atime, dtime, ctime;
	int cpid, lpid;
	unsigned long nattch;
	unsigned long unused2[2];
};

static long shm_nattch(long id)
{
	struct shm_stat st;
	long r = syscall3(__NR_shmctl, id, IPC_STAT, &st);

	return r < 0 ? r : (long)st.nattch;
}

#define IPC_INFO 3
#define SHM_STAT 13
#define SHM_INFO 14

/*
 * Walk the table as ipcs does: SHM_INFO answers the highest slot in use,
 * SHM_STAT a slot's segment id. Is id there, and how big is it?
 */
static int listed(long id, unsigned long *size)
{
	struct shm_stat st;
	unsigned long info[8];
	long max = syscall3(__NR_shmctl, 0, SHM_INFO, info);

	for (long i = 0; i <= max; i++)
		if (syscall3(__NR_shmctl, i, SHM_STAT, &st) == id) {
			*size = st.segsz;
			return 1;
		}
	return 0;
}

/* The limits and the in-use counts: only facts that hold on any machine. */
static void sysv_table(long id)
{
	unsigned long lim[9], info[6], size = 0;
	long r = syscall3(__NR_shmctl, 0, IPC_INFO, lim);

	printf("IPC_INFO: %s, shmmin %lu, shmmni at least 128: %s\n", r >= 0 ? "a slot" : answer(r),
	       lim[1], lim[2] >= 128 ? "yes" : "no");
	r = syscall3(__NR_shmctl, 0, SHM_INFO, info);
	printf("SHM_INFO: %s, segments in use at least 1: %s, pages promised at least 4: %s\n",
	       r >= 0 ? "a slot" : answer(r), (int)info[0] >= 1 ? "yes" : "no",
	       info[1] >= 4 ? "yes" : "no");
	printf("SHM_STAT walk finds it: %s", listed(id, &size) ? "yes" : "no");
	printf(", size %lu; slot -1: %s\n", size, answer(syscall3(__NR_shmctl, -1, SHM_STAT, info)));
}

/* System V shared memory: the same memory by an id, attached with shmat. */
static void sysv(void)
{
	struct shm_stat st;
	volatile char *a, *b;
	long id, id2, pid, r;

	id = syscall3(__NR_shmget, IPC_PRIVATE, 3 * PAGE + 100, IPC_CREAT | 0600);
	printf("shmget private, 3 pages and 100 bytes: %s\n", answer(id));
	a = (volatile char *)syscall3(__NR_shmat, id, NULL, 0);
	printf("shmat: %s, reads zeros: %s\n", answer((long)a), a[0] == 0 ? "yes" : "no");
	syscall3(__NR_shmctl, id, IPC_STAT, &st);
	printf("IPC_STAT: size %lu, attached %lu, made by me: %s, key private: %s\n", st.segsz,
	       st.nattch, st.cpid == getpid() ? "yes" : "no", st.key == IPC_PRIVATE ? "yes" : "no");
	sysv_table(id);
	pid = fork();
	if (pid == 0) {
		a[0] = 's';
		a[3 * PAGE + 50] = 't';
		exit((int)shm_nattch(id));
	}
	r = wait_status(pid);
	printf("a child's writes: %c %c; it saw %ld attached; after its exit %ld\n", a[0],
	       a[3 * PAGE + 50], (r >> 8) & 0xff, shm_nattch(id));
	b = (volatile char *)syscall3(__NR_shmat, id, NULL, SHM_RDONLY);
	printf("a second attach, read-only: %s, reads %c, attached %ld\n", answer((long)b), b[0],
	       shm_nattch(id));
	printf("shmdt inside an attach: %s\n", answer(syscall1(__NR_shmdt, a + PAGE)));
	/* One call a statement: the order of a call's arguments is the compiler's. */
	r = syscall1(__NR_shmdt, a);
	printf("shmdt: %s, ", answer(r));
	r = syscall1(__NR_shmdt, b);
	printf("%s, attached %ld\n", answer(r), shm_nattch(id));
	r = syscall3(__NR_shmctl, id, IPC_RMID, NULL);
	printf("IPC_RMID: %s; ", answer(r));
	r = syscall3(__NR_shmat, id, NULL, 0);
	printf("shmat after: %s; ", answer(r));
	printf("IPC_STAT after: %s\n", answer(shm_nattch(id)));
	{
		unsigned long size;

		printf("SHM_STAT walk after: %s\n", listed(id, &size) ? "found" : "gone");
	}

	/* A key names one segment; a run cut short may have left ours. */
	id = syscall3(__NR_shmget, SHM_KEY, PAGE, 0);
	if (id >= 0)
		syscall3(__NR_shmctl, id, IPC_RMID, NULL);
	id = syscall3(__NR_shmget, SHM_KEY, PAGE, IPC_CREAT | IPC_EXCL | 0600);
	id2 = syscall3(__NR_shmget, SHM_KEY, PAGE, 0);
	printf("shmget by key: %s; again: the same id: %s\n", answer(id), id2 == id ? "yes" : "no");
	r = syscall3(__NR_shmget, SHM_KEY, PAGE, IPC_CREAT | IPC_EXCL | 0600);
	printf("  IPC_CREAT | IPC_EXCL again: %s; ", answer(r));
	r = syscall3(__NR_shmget, SHM_KEY, 2 * PAGE, 0);
	printf("bigger than it is: %s; ", answer(r));
	printf("another key: %s\n", answer(syscall3(__NR_shmget, SHM_KEY + 1, PAGE, 0)));
	printf("  size 0 made new: %s\n", answer(syscall3(__NR_shmget, IPC_PRIVATE, 0, IPC_CREAT)));
	syscall3(__NR_shmctl, id, IPC_RMID, NULL);
}

int main(int argc, char **argv, char **envp)
{
	volatile char *m, *g;
	volatile int *word;
	long pid, r;
	int woke = 0;

	(void)argc;
	(void)argv;
	(void)envp;
	m = (volatile char *)map(4 * PAGE, MAP_SHARED | MAP_ANONYMOUS);
	printf("map 4 pages shared: %s, reads zeros: %s\n", answer((long)m),
	       m[0] == 0 && m[3 * PAGE + 7] == 0 ? "yes" : "no");

	m[PAGE] = 'p';
	pid = fork();
	if (pid == 0) {
		int saw = m[PAGE] == 'p';

		m[0] = 'c';
		m[3 * PAGE + 7] = 'C';
		exit(saw ? 5 : 6);
	}
	r = wait_status(pid);
	printf("child read the parent's write: %s; parent reads the child's: %c %c\n",
	       ((r >> 8) & 0xff) == 5 ? "yes" : "no", m[0], m[3 * PAGE + 7]);

	/* A futex in the shared page: no FUTEX_PRIVATE_FLAG, the key is the memory. */
	word = (volatile int *)(m + 2 * PAGE + 64);
	*word = 0;
	pid = fork();
	if (pid == 0) {
		int woken = 0;

		while (*word == 0)
			woken |= syscall6(__NR_futex, word, FUTEX_WAIT, 0, NULL, NULL, 0) == 0;
		exit(woken ? 3 : 4);
	}
	/*
	 * Wake until a wake finds the child asleep (it goes back to sleep: the
	 * word is still 0), then set the word and wake once more, so that the
	 * child never sleeps on with nobody left to wake it.
	 */
	for (int tries = 0; tries < 2000 && !woke; tries++) {
		pause_ms(2);
		woke = (int)syscall6(__NR_futex, word, FUTEX_WAKE, 1, NULL, NULL, 0) == 1;
	}
	*word = 1;
	syscall6(__NR_futex, word, FUTEX_WAKE, 1, NULL, NULL, 0);
	r = wait_status(pid);
	printf("futex: the parent's wake found the child's wait: %s; child %s\n",
	       woke ? "yes" : "no", how_ended((int)r));

	pid = fork();
	if (pid == 0) {
		mprotect(m, 4 * PAGE, PROT_READ);
		m[PAGE] = 'x';
		exit(9);
	}
	r = wait_status(pid);
	m[PAGE] = 'P';
	printf("child's write after its mprotect(PROT_READ): %s; parent writes: %c\n",
	       how_ended((int)r), m[PAGE]);

	munmap((void *)(m + 2 * PAGE), PAGE);
	pid = fork();
	if (pid == 0) {
		m[3 * PAGE] = 'z';
		exit(m[0] == 'c' ? 0 : 1);
	}
	r = wait_status(pid);
	printf("after munmap of the middle page: the child reads the head: %s, "
	       "the parent reads the child's tail write: %c\n",
	       ((r >> 8) & 0xff) == 0 ? "yes" : "no", m[3 * PAGE]);
	munmap((void *)m, 4 * PAGE);

	g = (volatile char *)map(2 * PAGE, MAP_SHARED | MAP_ANONYMOUS);
	g[0] = 'g';
	maps_line((unsigned long)g);
	catch_sigbus();
	g = (volatile char *)syscall4(__NR_mremap, g, 2 * PAGE, 4 * PAGE, MREMAP_MAYMOVE);
	printf("mremap 2 -> 4 pages: %s, the old page reads: %c\n", answer((long)g), g[0]);
	barrier();
	r = g[3 * PAGE + 8];
	printf("  a page past the original size: %d SIGBUS, si_code %d, si_addr map+%lu\n",
	       buses, bus_code, bus_addr - (unsigned long)g);
	munmap((void *)g, 4 * PAGE);

	printf("shared and private both (MAP_SHARED_VALIDATE): %s\n",
	       answer(map(PAGE, MAP_SHARED | MAP_PRIVATE | MAP_ANONYMOUS)));
	printf("neither shared nor private: %s\n", answer(map(PAGE, MAP_ANONYMOUS)));
	printf("64 TiB shared: %s\n", answer(map(64UL << 40, MAP_SHARED | MAP_ANONYMOUS)));
	g = (volatile char *)map(64UL << 40, MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE);
	printf("64 TiB shared, MAP_NORESERVE: %s\n", answer((long)g));
	if ((long)g > 0) {
		g[(33UL << 40) + 5] = 'f';
		printf("  a touch 33 TiB in reads back: %c\n", g[(33UL << 40) + 5]);
		munmap((void *)g, 64UL << 40);
	}
	sysv();
	printf("shmtest: done\n");
	return 0;
}
