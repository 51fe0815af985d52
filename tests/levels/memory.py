"""Level 3, memory: the page allocator's boot-time decisions and shell
tools, end to end on x86-64 (HMAT, mem=, memory online, the policy lab)."""
import re
import subprocess

from .common import check_lockdep_clean, ktap_boot, paths, test_cmdline, unit


def boot(ctx, name, cmdline, mem="1G", hmat=None, timeout=120):
    b = ctx.boot(ctx.x86_cmd(cmdline=cmdline, mem=mem, hmat_cache=hmat),
                 "memory-" + name, timeout)
    return b, b.clean_text()


@unit("memory-hmat", "system", needs=["x86_64"])
def hmat(ctx):
    """a direct-mapped memory-side cache in ACPI HMAT turns the shuffle on"""
    tally = ctx.tally
    b, t = boot(ctx, "hmat", "shell.run=pagealloc;poweroff panic=-1", hmat="256M")
    tally.check("memory:hmat.detected", re.search(
        r"hmat: memory-side cache for domain 0: 256 MiB, level 1, direct-mapped", t),
        "HMAT cache not reported (log %s)" % b.log)
    tally.check("memory:hmat.shuffle-on", re.search(
        r"shuffle on \(direct-mapped memory-side cache found\)", t) and
        re.search(r"mm: shuffled [1-9]\d* blocks of order 10", t),
        "shuffle did not turn on (log %s)" % b.log)
    # ...unless page_alloc.shuffle=0 says no; without HMAT it stays off.
    b, t = boot(ctx, "hmat-off", "shell.run=poweroff page_alloc.shuffle=0 panic=-1",
                hmat="256M")
    tally.check("memory:hmat.forced-off", "shuffle off (page_alloc.shuffle=0)" in t,
                "page_alloc.shuffle=0 ignored (log %s)" % b.log)
    b, t = boot(ctx, "no-hmat", "shell.run=poweroff panic=-1")
    tally.check("memory:no-hmat.shuffle-off",
                "shuffle off (no direct-mapped memory-side cache)" in t,
                "shuffle state wrong without HMAT (log %s)" % b.log)


@unit("memory-online", "system", needs=["x86_64"])
def online(ctx):
    """mem= holds memory back; onlining it later shuffles the zone"""
    # The seed's hot-add path; memtest and the invariant check see it all.
    tally = ctx.tally
    b, t = boot(ctx, "online", 'mem=256M page_alloc.shuffle=1 panic=-1 '
                'shell.run="memory;memory online all;memtest;pagealloc check;meminfo;poweroff"',
                mem="768M")
    # 256 MiB less what the kernel image and the struct pages take from it
    tally.check("memory:mem-limit", re.search(r"online: 2[45]\d MiB, offline: 5\d\d MiB", t),
                "mem=256M not applied (log %s)" % b.log)
    tally.check("memory:online", re.search(r"onlined 5\d\d MiB and shuffled its zones; 0 MiB", t),
                "memory online failed (log %s)" % b.log)
    # memtest must cover every free frame, onlined ones included: its MiB
    # against meminfo's MemFree right after it (boot-time reservations such
    # as the bounce-buffer pool move both figures alike), and well past
    # what mem=256M alone could hold.
    m = re.search(r"memtest: \d+ free frames \((\d+) MiB\) written and read back, 0 bad", t)
    free = re.search(r"MemFree:\s+(\d+) kB", t)
    tested, free_mib = (int(m.group(1)) if m else 0), (int(free.group(1)) // 1024 if free else -1)
    tally.check("memory:memtest", m and free and tested > 512 and abs(tested - free_mib) <= 8,
                "memtest did not pass over all memory: %d MiB tested, %d MiB free (log %s)"
                % (tested, free_mib, b.log))
    tally.check("memory:check", "pagealloc: free lists consistent" in t,
                "invariant check failed (log %s)" % b.log)


@unit("memory-mmlab", "system", needs=["x86_64", "host"])
def mmlab(ctx):
    """the policy lab in the kernel prints the host runner's line, number for number"""
    # Its cache size comes from HMAT; same code, same seed; a bad argument
    # is refused.
    tally = ctx.tally
    lab = ["workload=interleaved", "node=512M", "policy=shuffle-entropy", "seed=3"]
    b, t = boot(ctx, "mmlab", 'panic=-1 shell.run="mmlab info;mmlab run %s;mmlab run ratio=x;'
                'mmlab run policy=bogus;mmlab run node=128G;poweroff"' % " ".join(lab),
                hmat="64M")
    tally.check("memory:mmlab.hmat", "cache: 64 MiB, 16384 colours" in t and
                "from ACPI HMAT" in t, "mmlab did not take HMAT's cache (log %s)" % b.log)
    host = subprocess.run([paths.host_bin("mmlab-run"), "cache=64M"] + lab,
                          capture_output=True, text=True).stdout

    def strip(s):
        return re.sub(r" time=\d+ms", "", s).strip()
    kernel_line = re.search(r"^mmlab: workload=.*$", t, re.M)
    tally.check("memory:mmlab.kernel-equals-host",
                kernel_line and host and strip(kernel_line.group(0)) == strip(host),
                "kernel %r, host %r (log %s)" % (kernel_line and kernel_line.group(0), host, b.log))
    tally.check("memory:mmlab.bad-argument",
                "mmlab: ratio=x: integer 0..100000 expected (not understood)" in t
                and "Power down." in t, "bad argument not refused (log %s)" % b.log)
    # An unknown policy and a node too big for the machine: two faults, two messages.
    tally.check("memory:mmlab.unknown-policy",
                "mmlab: policy=bogus: one of inorder|shuffle|shuffle-entropy|colour" in t,
                "unknown policy not named (log %s)" % b.log)
    tally.check("memory:mmlab.no-memory",
                "mmlab: no memory for a simulated node of 131072 MiB" in t,
                "a node too big for the machine not reported as such (log %s)" % b.log)


@unit("memory-colour", "system", needs=["x86_64"], suites=True)
def colour(ctx):
    """node 0 under the colour policy: every suite, then the lab's churn"""
    # Shared, windowed colour counts under the zone locks; the invariant
    # check after the churn.
    tally = ctx.tally
    b, t = boot(ctx, "colour", test_cmdline(ctx.suites) + " page_alloc.policy=colour",
                hmat="64M", timeout=300)
    tally.check("memory:colour.policy", "policy colour" in t,
                "node 0 is not under the colour policy (log %s)" % b.log)
    ktap_boot(tally, "x86_64-policy-colour", b)
    b, t = boot(ctx, "colour-lab", 'page_alloc.policy=colour panic=-1 shell.run="mmlab run '
                'node=real workload=aged aging=1 live=20;pagealloc check;poweroff"', hmat="64M")
    tally.check("memory:colour.lab-on-node0",
                re.search(r"mmlab: workload=aged policy=colour node=real .*fails=\d+", t)
                and "pagealloc: free lists consistent" in t,
                "lab run or invariant check failed under colour (log %s)" % b.log)


@unit("memory-debug", "system", needs=["x86_64"], suites=True)
def debug(ctx):
    """every suite again with the allocators' debug checks on"""
    b, t = boot(ctx, "debug", test_cmdline(ctx.suites) + " page_alloc.debug=1 slab.debug=1",
                timeout=300)
    ktap_boot(ctx.tally, "x86_64-mm-debug", b)
    check_lockdep_clean(ctx.tally, "x86_64-mm-debug", b)
