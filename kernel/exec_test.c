// SPDX-License-Identifier: MIT
/*
 * exec end to end on every arch: user/hello, a static program and the
 * same as a static-PIE, runs from the built-in initramfs and checks from
 * inside what the kernel promised (initial stack, auxv, brk, mmap, clocks);
 * its exit status is its count of failed checks. Files that are not
 * programs for us are refused with the right error, and nothing else
 * notices.
 */
#include <pagoda/boot_info.h>
#include <pagoda/initramfs.h>
#include <pagoda/ktest.h>
#include <pagoda/mm.h>
#include <pagoda/process.h>
#include <pagoda/string.h>

#define EXITED(code) (((code) & 0xff) << 8)

static void test_static_program(struct ktest *t)
{
	static const char *const argv[] = { "/bin/hello", "one", "two" };
	const char *why;

	KEXPECT_EQ(t, process_run("/bin/hello", 3, argv, &why), EXITED(0));
}

static void test_static_pie(struct ktest *t)
{
	static const char *const argv[] = { "/bin/hello-pie" };
	const char *why;

	KEXPECT_EQ(t, process_run("/bin/hello-pie", 1, argv, &why), EXITED(0));
}

static void test_read_only_files(struct ktest *t)
{
	static const char *const argv[] = { "/bin/fstest" };
	const char *why;

	KEXPECT_EQ(t, process_run("/bin/fstest", 1, argv, &why), EXITED(0));
}

/* The vDSO found and parsed from inside, its clocks against the syscalls. */
static void test_vdso(struct ktest *t)
{
	static const char *const argv[] = { "/bin/vdsotest", VDSO_VERSION, VDSO_SYMBOLS };
	const char *why;
	u64 calls = 0;

	KEXPECT_EQ(t, process_run_counted("/bin/vdsotest", ARRAY_SIZE(argv), argv, &why, &calls),
		   EXITED(0));
	/*
	 * It reads CLOCK_MONOTONIC 1000 times each way: the vDSO's half must
	 * not have entered the kernel (a fallback would make it 2000 and more).
	 */
	KEXPECT_GE(t, calls, 1000);
	KEXPECT_LT(t, calls, 1100);
}

/*
 * Two images of one program run the same physical text, mapped from the
 * page cache read-only, as on Linux; the kernel writing into one gets it
 * a copy of its own, and when both are gone the cache holds nothing.
 * (mmbench: its entry lies in a whole page of its text's file part.)
 */
static void test_text_shared(struct ktest *t)
{
	static const char *const argv[] = { "/bin/mmbench" };
	unsigned long cached = READ_ONCE(nr_file_pages);
	struct process *a = process_create("share-a"), *b = process_create("share-b");
	phys_addr_t pa = 0, pb = 0, own = 0;
	unsigned int prot = 0;
	const char *why;
	int code;

	KEXPECT_TRUE(t, a && b);
	if (!a || !b)
		goto out;
	KEXPECT_EQ(t, process_exec(a, "/bin/mmbench", 1, argv, &why), 0);
	KEXPECT_EQ(t, process_exec(b, "/bin/mmbench", 1, argv, &why), 0);
	KEXPECT_EQ(t, handle_mm_fault(a, a->entry, FAULT_FLAG_INSTRUCTION, &code), 0);
	KEXPECT_EQ(t, handle_mm_fault(b, b->entry, FAULT_FLAG_INSTRUCTION, &code), 0);
	KEXPECT_EQ(t, arch_lookup(&a->mm, ALIGN_DOWN(a->entry, PAGE_SIZE), &pa, &prot), 0);
	KEXPECT_FALSE(t, prot & PROT_WRITE);
	KEXPECT_EQ(t, arch_lookup(&b->mm, ALIGN_DOWN(b->entry, PAGE_SIZE), &pb, &prot), 0);
	KEXPECT_EQ(t, pa, pb);
	KEXPECT_EQ(t, READ_ONCE(nr_file_pages), cached + 1);
	KEXPECT_EQ(t, get_user_page(b, b->entry, &own), 0);
	KEXPECT_NE(t, own, pa);
	if (own && pa && own != pa)
		KEXPECT_EQ(t, memcmp(__va(own), __va(pa), PAGE_SIZE), 0);
out:
	if (a)
		process_destroy(a);
	if (b)
		process_destroy(b);
	KEXPECT_EQ(t, READ_ONCE(nr_file_pages), cached);
}

static void test_refusals(struct ktest *t)
{
	static const char *const argv[] = { "x" };
	const char *many[100];
	const char *why;

	KEXPECT_EQ(t, process_run("/bin/no-such-program", 1, argv, &why), -ENOENT);
	KEXPECT_EQ(t, process_run("/bin", 1, argv, &why), -EACCES);
	KASSERT_TRUE(t, ramfs_lookup("/etc/motd") != NULL);
	/* A text file: without an execute bit it is refused before it is read. */
	KEXPECT_EQ(t, process_run("/etc/motd", 1, argv, &why), -EACCES);
	KEXPECT_STREQ(t, why, "no execute permission");
	KASSERT_TRUE(t, ramfs_lookup("/bin/notelf") != NULL);
	KEXPECT_EQ(t, process_run("/bin/notelf", 1, argv, &why), -ENOEXEC);
	KEXPECT_STREQ(t, why, "not an ELF file");
	KASSERT_TRUE(t, ramfs_lookup("/bin/truncated") != NULL);
	KEXPECT_EQ(t, process_run("/bin/truncated", 1, argv, &why), -ENOEXEC);
	for (int i = 0; i < 100; i++)
		many[i] = "arg";
	KEXPECT_EQ(t, process_run("/bin/hello", 100, many, &why), -E2BIG);
	/* After all that, a good program still runs. */
	many[0] = "/bin/hello";
	KEXPECT_EQ(t, process_run("/bin/hello", 1, many, &why), EXITED(0));
}

/* fork, wait4, execve, getppid and kill, checked from user/forktest. */
static void test_fork_wait_exec(struct ktest *t)
{
	static const char *const argv[] = { "/bin/forktest" };
	const char *why;

	KEXPECT_EQ(t, process_run("/bin/forktest", 1, argv, &why), EXITED(0));
}

/* Run argv[0], which must exit 0; skipped (why: skip) where this arch does not build it. */
static void run_to_exit_0(struct ktest *t, int argc, const char *const argv[], const char *skip)
{
	const char *why;

	if (!ramfs_lookup(argv[0])) {
		ktest_skip(t, skip);
		return;
	}
	KEXPECT_EQ(t, process_run(argv[0], argc, argv, &why), EXITED(0));
}

/*
 * The same unmodified C program against a real libc: stdio with doubles,
 * malloc, strtod, clocks, fork and waitpid with FP work on both sides.
 * Built for x86-64 only (Debian's musl is the host's).
 */
static void run_libc_program(struct ktest *t, const char *path)
{
	const char *const argv[] = { path };

	run_to_exit_0(t, 1, argv, "not in this arch's initramfs (x86-64 only)");
}

static void test_musl_program(struct ktest *t)
{
	run_libc_program(t, "/bin/libctest-musl");
}

static void test_glibc_program(struct ktest *t)
{
	run_libc_program(t, "/bin/libctest-glibc");
}

/*
 * user/libc/calltest.c: x86-64's open/creat/access, alarm and setitimer,
 * the affinity calls, the CPU-time clocks, CLOCK_TAI and the coarse
 * clocks, each as Linux answered them when the program ran on the host.
 */
static void run_calltest(struct ktest *t, const char *path)
{
	const char *const argv[] = { path, "/etc/motd", "/bin/hello", "/etc/new" };

	run_to_exit_0(t, 4, argv, "not in this arch's initramfs (musl: x86-64 only)");
}

static void test_calltest_musl(struct ktest *t)
{
	run_calltest(t, "/bin/calltest-musl");
}

static void test_calltest_glibc(struct ktest *t)
{
	run_calltest(t, "/bin/calltest-glibc");
}

/* musl's clock_gettime finds the vDSO itself: 1000 reads, almost no system calls. */
static void test_musl_uses_the_vdso(struct ktest *t)
{
	static const char *const argv[] = { "/bin/libctest-musl", "clock", "1000" };
	const char *why;
	u64 calls = 0;

	if (!ramfs_lookup(argv[0])) {
		ktest_skip(t, "not in this arch's initramfs (x86-64 only)");
		return;
	}
	KEXPECT_EQ(t, process_run_counted(argv[0], 3, argv, &why, &calls), EXITED(0));
	/* Start-up (TLS, tid, exit) takes a handful; a fallback would be 1000 more. */
	KEXPECT_LT(t, calls, 50);
	ktest_log(t, "musl: 1000 clock_gettime calls, %llu system calls in all",
		  (unsigned long long)calls);
}

/*
 * An initramfs the boot loader handed over (the ISO's GRUB module2 line;
 * config.txt's on a Pi 4) is read after the built-in one: its file is
 * there. A boot without one (QEMU -kernel) has nothing to check.
 */
static void test_boot_loader_initramfs(struct ktest *t)
{
	bool module = false;

	for (u32 i = 0; i < boot_info.nr_modules; i++)
		module |= !strcmp(boot_info.modules[i].name, "initramfs");
	if (!module) {
		ktest_skip(t, "no initramfs module from the boot loader (a direct boot)");
		return;
	}
	KEXPECT_TRUE(t, ramfs_lookup("/etc/boot-module") != NULL);
	KEXPECT_TRUE(t, ramfs_lookup("/bin/hello") != NULL); /* the built-in one still there */
}

/* Signal handlers with Linux's frames, checked from user/sigtest. */
static void test_signal_handlers(struct ktest *t)
{
	static const char *const argv[] = { "/bin/sigtest" };
	const char *why;

	ktest_expect_reports(t, true); /* the undeliverable signal is reported */
	KEXPECT_EQ(t, process_run("/bin/sigtest", 1, argv, &why), EXITED(0));
}

static struct ktest_case exec_cases[] = {
	KTEST_CASE(test_static_program),
	KTEST_CASE(test_static_pie),
	KTEST_CASE(test_read_only_files),
	KTEST_CASE(test_vdso),
	KTEST_CASE(test_refusals),
	KTEST_CASE(test_text_shared),
	KTEST_CASE(test_fork_wait_exec),
	KTEST_CASE(test_signal_handlers),
	KTEST_CASE(test_musl_program),
	KTEST_CASE(test_glibc_program),
	KTEST_CASE(test_musl_uses_the_vdso),
	KTEST_CASE(test_calltest_musl),
	KTEST_CASE(test_calltest_glibc),
	KTEST_CASE(test_boot_loader_initramfs),
	{}
};
KTEST_SUITE_FULL(exec, .cases = exec_cases, .kernel_only = true);
