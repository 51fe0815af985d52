// SPDX-License-Identifier: MIT
/*
 * User mode, system calls, checked copies and user faults, on every arch:
 * tiny programs (arch/<arch>/uprog.c, the same names on each) run in their
 * own address space and report what they saw through their exit status.
 * A program that touches the kernel or an unmapped page dies with SIGSEGV
 * and nothing else does; a bad pointer handed to write() is -EFAULT; an
 * unknown system call is -ENOSYS.
 */
#include <pagoda/arch.h>
#include <pagoda/ktest.h>
#include <pagoda/preempt.h>
#include <pagoda/process.h>
#include <pagoda/sched.h>
#include <pagoda/string.h>
#include <pagoda/uaccess.h>
#include <pagoda/uprog.h>

#define CODE_VA 0x400000UL
#define DATA_VA 0x600000UL
#define HOLE_VA 0x500000UL /* never mapped */
#define STACK_TOP 0x7ff000000000UL
#define DATA_MAGIC 42

#define EXITED(code) (((code) & 0xff) << 8)

static u64 kernel_cell = 7;

/*
 * Code, a data page holding DATA_MAGIC (and "written\n" at +16), a stack;
 * NULL if any step fails.
 */
static struct process *make_process(struct ktest *t)
{
	struct process *p = process_create("uprog");
	u64 magic = DATA_MAGIC;

	if (!p)
		return NULL;
	if (process_map_anon(p, CODE_VA, PAGE_SIZE, PROT_EXEC) ||
	    process_write(p, CODE_VA, uprog_start, uprog_end - uprog_start) ||
	    process_map_anon(p, DATA_VA, PAGE_SIZE, PROT_WRITE) ||
	    process_write(p, DATA_VA, &magic, sizeof(magic)) ||
	    process_write(p, DATA_VA + 16, "written\n", 8) ||
	    process_map_anon(p, STACK_TOP - 2 * PAGE_SIZE, 2 * PAGE_SIZE, PROT_WRITE)) {
		ktest_fail(t, __FILE__, __LINE__, "cannot build a process");
		process_destroy(p);
		return NULL;
	}
	return p;
}

static int start(struct process *p, const char *entry, u64 arg)
{
	return process_start(p, CODE_VA + (u64)(entry - uprog_start), STACK_TOP, arg);
}

static int run(struct ktest *t, const char *entry, u64 arg)
{
	struct process *p = make_process(t);

	if (!p)
		return -1;
	if (start(p, entry, arg)) {
		process_destroy(p);
		return -1;
	}
	return process_wait(p);
}

static void test_hello_world(struct ktest *t)
{
	KEXPECT_EQ(t, run(t, uprog_hello, 0), EXITED(uprog_hello_len));
	KEXPECT_EQ(t, run(t, uprog_exit_arg, 0x1234), EXITED(0x34));
}

static void test_user_reads_its_memory(struct ktest *t)
{
	KEXPECT_EQ(t, run(t, uprog_load, DATA_VA), EXITED(DATA_MAGIC));
	KEXPECT_EQ(t, run(t, uprog_load, STACK_TOP - 8), EXITED(0));
}

static void test_user_fault_kills_only_it(struct ktest *t)
{
	ktest_expect_reports(t, true);
	KEXPECT_EQ(t, run(t, uprog_load, 0), SIGSEGV);
	KEXPECT_EQ(t, run(t, uprog_load, HOLE_VA), SIGSEGV);
	/* The kernel's pages are not the user's, mapped or not. */
	KEXPECT_EQ(t, run(t, uprog_load, (u64)&kernel_cell), SIGSEGV);
	KEXPECT_EQ(t, run(t, uprog_load, (u64)uprog_start), SIGSEGV);
	KEXPECT_EQ(t, kernel_cell, 7);
	/* And the next program runs as if nothing happened. */
	KEXPECT_EQ(t, run(t, uprog_hello, 0), EXITED(uprog_hello_len));
}

static void test_two_at_once(struct ktest *t)
{
	struct process *a = make_process(t), *b = make_process(t);

	KASSERT_TRUE(t, a && b);
	KASSERT_EQ(t, start(a, uprog_load, 0), 0);
	KASSERT_EQ(t, start(b, uprog_load, DATA_VA), 0);
	ktest_expect_reports(t, true);
	KEXPECT_EQ(t, process_wait(a), SIGSEGV);
	KEXPECT_EQ(t, process_wait(b), EXITED(DATA_MAGIC));
}

static void test_write_checks_its_pointer(struct ktest *t)
{
	long efault = -EFAULT;

	KEXPECT_EQ(t, run(t, uprog_write_arg, DATA_VA + 16), EXITED(8));
	KEXPECT_EQ(t, run(t, uprog_write_arg, HOLE_VA), EXITED(efault));
	KEXPECT_EQ(t, run(t, uprog_write_arg, (u64)&kernel_cell), EXITED(efault));
	KEXPECT_EQ(t, run(t, uprog_write_arg, TASK_SIZE - 4), EXITED(efault));
}

static void test_syscall_numbers(struct ktest *t)
{
	long enosys = -ENOSYS;

	ktest_expect_reports(t, true);
	KEXPECT_EQ(t, run(t, uprog_syscall_arg, 999), EXITED(enosys));
	KEXPECT_EQ(t, run(t, uprog_syscall_arg, ~0UL), EXITED(enosys));
	KEXPECT_EQ(t, run(t, uprog_syscall_arg, __NR_sched_yield), EXITED(0));
}

/* The copies, driven from the kernel with a process's mm loaded here. */
static void test_copy_user(struct ktest *t)
{
	struct process *p = make_process(t);
	char buf[16] = { 0 };
	u64 v = 0;

	KASSERT_TRUE(t, p != NULL);
	preempt_disable();
	current->mm = &p->mm;
	arch_switch_mm(&p->mm);
	preempt_enable();

	KEXPECT_EQ(t, copy_from_user(&v, DATA_VA, sizeof(v)), 0);
	KEXPECT_EQ(t, v, DATA_MAGIC);
	KEXPECT_EQ(t, copy_to_user(DATA_VA + 8, "pagoda", 7), 0);
	KEXPECT_EQ(t, copy_from_user(buf, DATA_VA + 8, 7), 0);
	KEXPECT_STREQ(t, buf, "pagoda");
	/* Unmapped: nothing copied; across the end of a mapping: the rest is left. */
	KEXPECT_EQ(t, copy_from_user(buf, HOLE_VA, 8), 8);
	KEXPECT_EQ(t, copy_to_user(DATA_VA + PAGE_SIZE - 4, &v, 8), 4);
	/* Read-only code: the write faults and is refused. */
	KEXPECT_EQ(t, copy_to_user(CODE_VA, &v, 8), 8);
	/* Kernel addresses and wrapping ranges never reach the copy. */
	KEXPECT_EQ(t, copy_from_user(buf, (u64)&kernel_cell, 8), 8);
	KEXPECT_EQ(t, copy_to_user((u64)&kernel_cell, &v, 8), 8);
	KEXPECT_EQ(t, copy_from_user(buf, TASK_SIZE - 4, 8), 8);
	KEXPECT_EQ(t, copy_from_user(buf, DATA_VA, ~0UL), ~0UL);
	KEXPECT_EQ(t, kernel_cell, 7);

	preempt_disable();
	current->mm = NULL;
	arch_switch_mm(&init_mm);
	preempt_enable();
	KEXPECT_EQ(t, p->mm.cpu_mask, 0);
	process_destroy(p);
}

static struct ktest_case process_cases[] = {
	KTEST_CASE(test_hello_world),
	KTEST_CASE(test_user_reads_its_memory),
	KTEST_CASE(test_user_fault_kills_only_it),
	KTEST_CASE(test_two_at_once),
	KTEST_CASE(test_write_checks_its_pointer),
	KTEST_CASE(test_syscall_numbers),
	KTEST_CASE(test_copy_user),
	{}
};
KTEST_SUITE_FULL(process, .cases = process_cases, .kernel_only = true);
