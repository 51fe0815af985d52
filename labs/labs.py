"""The course's labs, one declaration each (docs/course.md).

A declaration names the lab, its handout, the files the student writes
in (each changed by the lab's stub patch, labs/stubs/NAME.patch, which
turns the reference solution into the student's starting point), files
only the full tree has, whole-file stubs that stand in for solution
files, and its tests with their points. `make lab LAB=name` writes the
student tree, `make grade LAB=name` grades a tree; tools/pagoda/lab.py
does the work.

Test kinds: Host(suite, case, points) runs a ktest case on the host;
Kernel(suite, case, points, arch=, smp=, cmdline=, timeout=) runs one in QEMU;
Check(name, points, fn) runs fn(grader, log) -> (ok, detail).
"""
import os
import re
import subprocess

from pagoda.lab import Check, Host, Kernel, Lab


def run(grader, log, argv, timeout=120):
    """argv in the graded tree; its output (also written to log), or None
    when it did not finish."""
    try:
        r = subprocess.run(argv, cwd=grader.tree, capture_output=True, text=True,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        return None
    with open(log, "w") as f:
        f.write(r.stdout + r.stderr)
    return r.stdout + r.stderr


def fuzz_check(name):
    """A Check body: build/host/NAME (a libFuzzer program), seed 1, for the
    grader's fuzz_seconds (20 s when a class is graded)."""
    def check(grader, log):
        ok, mlog = grader.make("build/host/" + name)
        if not ok:
            return False, "the fuzzer does not build (%s)" % mlog
        # Crash files go beside the grade's logs, never into the tree's root.
        out = run(grader, log, ["build/host/" + name,
                                "-max_total_time=%d" % grader.fuzz_seconds, "-max_len=4096",
                                "-seed=1", "-artifact_prefix=" + os.path.join(grader.out, "")],
                  timeout=120)
        return (bool(out and "Done" in out and "ERROR" not in out),
                "the fuzzer failed (log %s)" % log)
    return check


policy_fuzz = fuzz_check("fuzz-page-alloc")


# --- 1. Boot and the shell -------------------------------------------------

def shell_boot(grader, log, cmdline):
    ok, mlog = grader.make("kernel", "ARCH=x86_64")
    if not ok:
        return None, "the kernel does not build (%s)" % mlog
    from pagoda import qemu
    kernel = os.path.join(grader.tree, "build", "x86_64-pc", "pagoda.elf")
    cmd = qemu.build_cmd(kernel=kernel, cmdline=cmdline, accel="tcg")[0]
    out = run(grader, log, cmd, timeout=120)
    if out is None:
        return None, "the boot did not end (a hang?)"
    return out, ""


def hello_default(grader, log):
    out, why = shell_boot(grader, log, 'shell.run="hello;poweroff"')
    if out is None:
        return False, why
    return "Hello, world!" in out, "no 'Hello, world!' (log %s)" % log


def hello_param(grader, log):
    out, why = shell_boot(grader, log, 'hello.name=Ada shell.run="hello;hello Grace Alan;'
                          'help;poweroff"')
    if out is None:
        return False, why
    want = ("Hello, Ada!", "Hello, Grace!", "Hello, Alan!")
    missing = [w for w in want if w not in out]
    listed = re.search(r"^\s*hello\b.*\bgreet", out, re.M) is not None
    if missing or not listed:
        return False, "missing %s (log %s)" % (", ".join(missing) or "`help` line", log)
    return True, ""


def hello_bad_param(grader, log):
    # A name too long for the buffer is refused at boot, and the default stays.
    out, why = shell_boot(grader, log, "hello.name=%s shell.run=\"hello;poweroff\"" % ("x" * 40))
    if out is None:
        return False, why
    return ("Hello, world!" in out and "hello.name" in out.split("Hello, world!")[0],
            "a 40-character name should be refused with a warning naming hello.name "
            "(log %s)" % log)


SHELL = Lab("shell", "boot and the shell: a command and a parameter", "docs/labs/shell.md",
            solution_only=["kernel/hello.c"],
            tests=[Check("hello prints the default greeting", 10, hello_default),
                   Check("hello.name= and arguments; help lists hello", 10, hello_param),
                   Check("a bad hello.name is refused, the default kept", 5,
                         hello_bad_param)])


# --- 2. The buddy allocator ----------------------------------------------------

BUDDY = Lab("buddy", "the buddy allocator: split and merge", "docs/labs/buddy.md",
            files=["mm/page_alloc.c"],
            tests=[Host("page_alloc", "test_everything_allocatable_once", 10),
                   Host("page_alloc", "test_random_workload_restores_free_lists", 10),
                   Host("page_alloc", "test_zones_and_fallback", 5),
                   Host("page_alloc", "test_zone_end_inside_a_block", 5),
                   Host("page_alloc", "test_migratetype_steal", 5),
                   Host("page_alloc", "test_every_policy_keeps_invariants", 5),
                   Host("page_alloc_policy", "test_split_halves_at_head", 5),
                   Check("fuzz-page-alloc, 20 s", 5, policy_fuzz),
                   Kernel("mm_node0", "test_node0_manages_usable_ram", 5),
                   Kernel("mm_node0", "test_real_pages_distinct_and_zeroed", 5)])


# --- 3. The free-list shuffle ------------------------------------------------

SHUFFLE = Lab("shuffle", "the free-list shuffle: Fisher-Yates over free blocks",
              "docs/labs/shuffle.md", files=["mm/policy_shuffle.c"],
              tests=[Host("page_alloc", "test_shuffled_allocation_uncorrelated", 10),
                     Host("page_alloc", "test_fixed_seed_reproduces", 5),
                     Host("page_alloc", "test_shuffle_permutes_free_set", 5),
                     Host("page_alloc", "test_every_policy_keeps_invariants", 5),
                     Host("page_alloc", "test_online_later_is_shuffled", 5)])


# --- 4. Placement policy -------------------------------------------------------

def graded_policy(grader):
    """The student's `mine`; the full tree grades its own answer, colour."""
    mine = os.path.join(grader.tree, "mm", "policy_mine.c")
    return "mine" if os.path.exists(mine) else "colour"


def mean_conflict(grader, log, workload, policy):
    ok, mlog = grader.make("build/host/mmlab-run")
    if not ok:
        return None, "mmlab-run does not build (%s)" % mlog
    rates = []
    for seed in (1, 2, 3, 4):
        out = run(grader, log, ["build/host/mmlab-run", "workload=" + workload,
                                "policy=" + policy, "seed=%d" % seed])
        m = re.search(r"conflict=([\d.]+)%", out or "")
        if not m:
            return None, "mmlab-run %s %s seed=%d failed (log %s)" % (workload, policy, seed, log)
        rates.append(float(m.group(1)))
    return sum(rates) / len(rates), ""


def policy_registered(grader, log):
    pol = graded_policy(grader)
    ok, mlog = grader.make("build/host/mmlab-run")
    out = run(grader, log, ["build/host/mmlab-run", "workload=fresh", "policy=" + pol]) if ok else ""
    return bool(out and "conflict=" in out), "policy %s is not registered (log %s)" % (pol, log)


def against_baseline(grader, log, workload, baseline):
    """Both graded comparisons: the graded policy's and baseline's mean
    conflict rates on workload, as (policy, its rate, baseline's rate, why);
    a rate is None, and why says which run failed, when mmlab-run did."""
    pol = graded_policy(grader)
    a, why = mean_conflict(grader, log, workload, pol)
    b, why2 = mean_conflict(grader, log, workload, baseline)
    return pol, a, b, why or why2


def policy_beats_shuffle(grader, log):
    pol, a, b, why = against_baseline(grader, log, "interleaved", "shuffle-entropy")
    if a is None or b is None:
        return False, why
    return a <= b, "interleaved: %s %.3f%% > shuffle-entropy %.3f%%" % (pol, a, b)


def policy_keeps_fresh(grader, log):
    pol, a, b, why = against_baseline(grader, log, "fresh", "inorder")
    if a is None or b is None:
        return False, why
    return a <= b * 1.10, "fresh: %s %.3f%% is more than 10%% above inorder's %.3f%%" % (pol, a, b)




def policy_first_steps(tree):
    """The handout's steps 1 and 2: copy in-order to mine, register it."""
    with open(os.path.join(tree, "mm", "policy_inorder.c")) as f:
        text = f.read()
    text = text.replace("policy_inorder", "policy_mine").replace('"inorder"', '"mine"')
    with open(os.path.join(tree, "mm", "policy_mine.c"), "w") as f:
        f.write(text)
    h = os.path.join(tree, "mm", "policy.h")
    with open(h) as f:
        lines = f.read().split("\n")
    # Above the macro's last line, as the handout says.
    i = max(n for n, l in enumerate(lines) if l.lstrip().startswith("POLICY(\""))
    j = i
    while lines[j].rstrip().endswith("\\"):
        j += 1
    lines.insert(j, '\tPOLICY("mine", policy_mine) \\')
    with open(h, "w") as f:
        f.write("\n".join(lines))


POLICY = Lab("policy", "a page-placement policy that beats the shuffle",
             "docs/labs/placement-policy.md",
             files=["mm/policy.h", "mm/policy_test.c"],
             replace={"mm/policy_colour.c": "labs/stubs/policy_colour.c"},
             tests=[Check("your policy is registered", 5, policy_registered),
                    Host("page_alloc", "test_every_policy_keeps_invariants", 5),
                    Host("page_alloc", "test_every_policy_repeats_with_a_seed", 5),
                    Check("fuzz-page-alloc, 20 s, every policy", 5, policy_fuzz),
                    Check("interleaved: mean conflicts <= shuffle-entropy (4 seeds)", 10,
                          policy_beats_shuffle),
                    Check("fresh: within 10% of in-order (4 seeds)", 10, policy_keeps_fresh)],
             first_steps=policy_first_steps)


# --- 5. Locks ------------------------------------------------------------------

# alone: four CPUs contend for a lock and its order is graded; beside
# another lab's boots, two host CPUs would have to run eight.
LOCKS = Lab("locks", "locks: a ticket spinlock and a mutex whose waiters sleep",
            "docs/labs/locks.md", files=["include/pagoda/spinlock.h", "kernel/locking/mutex.c"],
            alone=True,
            tests=[Kernel("lock_fairness", "test_ticket_spinlock_is_fifo", 15, smp=4,
                          cmdline="lockdep=1"),
                   Kernel("lock_fairness", "test_mutex_waiters_sleep_in_order", 15, smp=4,
                          cmdline="lockdep=1"),
                   Kernel("locking", "test_spinlock_contention", 5, smp=4, cmdline="lockdep=1"),
                   Kernel("locking", "test_mutex_contention", 5, smp=4, cmdline="lockdep=1"),
                   Kernel("locking", "test_lockdep_catches_inversion", 5, smp=4,
                          cmdline="lockdep=1"),
                   Kernel("lock_fairness", "test_ticket_spinlock_is_fifo", 5, arch="arm64",
                          smp=4, cmdline="lockdep=1")])


# --- 6. Scheduling ----------------------------------------------------------

# alone: the grade measures CPU shares and preemption in time.
SCHED = Lab("sched", "scheduling: weighted fair choice (CFS-style vruntime)", "docs/labs/sched.md",
            files=["kernel/sched/core.c"], alone=True,
            tests=[Kernel("sched", "test_weights", 20),
                   Kernel("sched", "test_weights", 10, arch="arm64"),
                   Kernel("sched", "test_preemption", 5),
                   Kernel("sched", "test_no_lost_wakeups", 5),
                   Kernel("sched", "test_load_balance", 5, smp=4)])


# --- The SWIOTLB slot allocator ------------------------------------------------

SWIOTLB = Lab("swiotlb", "bounce buffers: the SWIOTLB slot allocator", "docs/labs/swiotlb.md",
              files=["dma/swiotlb.c"],
              tests=[Host("swiotlb", "test_random_against_model", 15),
                     Host("swiotlb", "test_bounce_directions", 5),
                     Host("swiotlb", "test_max_mapping_size", 5),
                     Host("swiotlb", "test_area_hashing", 5),
                     Host("swiotlb", "test_search_goes_on", 5),
                     Host("swiotlb", "test_exhaustion_transient_growth", 5),
                     Check("fuzz-swiotlb, 20 s", 5, fuzz_check("fuzz-swiotlb")),
                     # The kernel itself, built and booted: every mapping
                     # bounced, one area shared by mappers on four CPUs.
                     Kernel("swiotlb_dma", "test_concurrent_grow_shrink", 10, smp=4,
                            cmdline="swiotlb=force swiotlb=512,1")])


# --- System calls ----------------------------------------------------------------

SYSCALL = Lab("syscall", "system calls: brk, the heap of a static Linux program",
              "docs/labs/syscall.md", files=["kernel/syscall.c"],
              tests=[Kernel("exec", "test_static_program", 15),
                     Kernel("exec", "test_static_pie", 10),
                     Kernel("exec", "test_static_program", 10, arch="arm64"),
                     Kernel("exec", "test_refusals", 5)])


# --- Hibernation's radix-tree memory bitmap ------------------------------------

BITMAP = Lab("bitmap", "hibernation's memory bitmap: the radix tree's lookup and walk",
             "docs/labs/bitmap.md", files=["kernel/power/memory_bitmap.c"],
             tests=[Host("memory_bitmap", "test_layouts_agree_with_model", 15),
                    Host("memory_bitmap", "test_rtree_shape", 5),
                    Host("memory_bitmap", "test_swsusp_free_ways_agree", 10),
                    Host("memory_bitmap", "test_allocation_failure_frees_everything", 5),
                    Kernel("softlockup", "test_full_bitmap_walk_is_quiet", 5)])


# --- The vDSO's clock read ----------------------------------------------------

VDSO = Lab("vdso", "the vDSO: clock_gettime without entering the kernel", "docs/labs/vdso.md",
           files=["lib/vdso/gettimeofday.c"],
           tests=[Kernel("exec", "test_vdso", 15),
                  Kernel("exec", "test_vdso", 15, arch="arm64"),
                  Kernel("exec", "test_static_program", 5)])


# --- Lazy allocation: demand paging of anonymous memory ------------------------

LAZY = Lab("lazy", "lazy allocation: demand paging of anonymous memory", "docs/labs/lazy.md",
           files=["mm/memory.c"],
           tests=[Kernel("lazy", "test_read_maps_the_zero_page", 10),
                  Kernel("lazy", "test_write_maps_an_own_zeroed_page", 10),
                  Kernel("lazy", "test_write_after_read", 10),
                  Kernel("lazy", "test_programs_run", 10)])


# --- Copy-on-write fork ----------------------------------------------------------

COW = Lab("cow", "copy-on-write fork: share at fork, copy at the first write",
          "docs/labs/cow.md", files=["mm/memory.c"],
          tests=[Kernel("cow", "test_fork_shares_read_only", 15),
                 Kernel("cow", "test_child_write_copies", 15),
                 Kernel("cow", "test_exit_order", 10),
                 # Two CPUs: a thread of the parent writes on one while
                 # the other forks (the TLB flush of fork's protection).
                 # A boot of its own, after the cases above: a wrong
                 # version they catch can hang it.
                 Kernel("cow_threads", "test_fork_while_a_thread_writes", 5,
                        timeout=120),
                 # Last: a wrong version may hang forktest, and the
                 # grade stops at the first lost points before it.
                 Kernel("lazy", "test_programs_run", 5)])


# --- Threads: futex wait and wake ------------------------------------------------

def futex_case(case, points):
    # One x86-64 boot runs user/libc/futextest.c's five modes in about
    # ten seconds; every wait in it has a timeout, so two minutes bound
    # even a wrong version.
    return Kernel("futex", case, points, timeout=120)


THREADS = Lab("threads", "threads and futexes: wait and wake", "docs/labs/threads.md",
              files=["kernel/futex/core.c", "kernel/futex/waitwake.c"],
              tests=[futex_case("test_wait_checks_the_value", 10),
                     futex_case("test_wake_wakes_at_most_n", 10),
                     futex_case("test_private_futex_is_per_process", 10),
                     futex_case("test_shared_futex_across_fork", 5),
                     futex_case("test_no_lost_wakeups", 10)])


# --- Page tables: walking a range, freeing the tables ----------------------------

PGTABLE = Lab("pgtable", "page tables: walk a range, give the tables back",
              "docs/labs/pgtable.md", files=["mm/pgtable.c"],
              tests=[Kernel("mm_struct", "test_user_pages_only_in_their_mm", 5),
                     Kernel("mm_struct", "test_overlap_is_eexist", 10),
                     Kernel("mm_struct", "test_overlap_past_a_missing_table", 10),
                     Kernel("mm_struct", "test_destroy_frees_tables", 10),
                     Kernel("mm_struct", "test_free_reaches_every_index", 10)])


# --- dm-snapshot: the exception table and its bucket locks -----------------------

def dm_case(case, points):
    # One x86-64 boot runs the whole dm suite in seconds; two minutes
    # bound a wrong version that hangs it. (arm64 runs the same suite in
    # make test's kernel units; a second boot here would double the
    # lab's share of the labs unit.)
    return Kernel("dm", case, points, timeout=120)


DMSNAP = Lab("dmsnap", "dm-snapshot: the exception table and its bucket locks",
             "docs/labs/dm-snapshot.md", files=["block/dm/dm-snap.c"],
             tests=[dm_case("test_dm_exception_table_spread", 10),
                    dm_case("test_dm_snapshot_model_fine", 20),
                    dm_case("test_dm_snapshot_model_mutex", 5),
                    dm_case("test_dm_snapshot_linux_format", 5),
                    dm_case("test_dm_snapshot_reload", 5),
                    dm_case("test_dm_snapshot_merge", 5)])


LABS = [SHELL, BUDDY, SHUFFLE, POLICY, LOCKS, SCHED, SWIOTLB, BITMAP, SYSCALL, PGTABLE, LAZY,
        COW, THREADS, VDSO, DMSNAP]
