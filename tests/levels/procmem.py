"""Process memory from a hostile program's side (level 3).

user/memhostile asks for more memory than any machine has and reads and
writes through buffers that are too long, end in a hole or point at the
kernel. The same static x86-64 binary runs on the host (Linux) first; its
output is the reference, recorded by this test, never written down. Pagoda
must print the same lines on x86-64 and on arm64 virt (the arm64 build of
the same source; its answers are arch-independent).

The same boot runs user/libc/threads.c (pthreads over clone, futex and the
robust list; musl and glibc on x86-64, glibc on arm64) and compares its
lines with the host's run of the same binary.

user/shmtest (twice, in the same boot, so the leak check covers it)
shares anonymous memory (MAP_SHARED) between a parent and its children:
writes both ways, a futex across them, a child's own mprotect, a munmap
in the middle, mremap past the original size (SIGBUS), /proc/self/maps;
its lines must be the host's.

user/oomtest (in the same boot) runs a hog that holds 70% of free memory
and then touches 50% more itself: the OOM killer must choose the hog, the
larger, and the toucher must finish. `oomtest commit` asks for promises
under the default overcommit mode; its answers must be the host's (the
host runs mode 0; tests/levels/procmem.py checks that first).

The same boot is the leak check: the program runs the machine out of memory
(`memhostile exhaust`: killed when a touch finds no page), once to warm the
caches up, then again with the
hostile run, and free memory before and after must match to the page once
the per-CPU page lists are drained: free pages plus the pages slabs hold,
and per slab cache the objects in use outside the per-CPU caches.
"""
import os
import re
import subprocess

from .common import paths, rel, unit

HOST_BIN = os.path.join(paths.BUILD, "x86_64-pc", "user", "memhostile")
FAULTS_BIN = os.path.join(paths.BUILD, "x86_64-pc", "user", "faults")
OOM_BIN = os.path.join(paths.BUILD, "x86_64-pc", "user", "oomtest")
# A slice of the system-call fuzzer after the leak check (make fuzz-syscalls
# runs it long and checks for leaks, allowing the workqueue workers the
# reaper's items start, which this check has no allowance for:
# docs/fuzzing.md).
SYZFUZZ_SLICE = ["run /bin/syzfuzz %s %s" % (os.environ.get("SYZFUZZ_SECONDS", "10"),
                                              os.environ.get("SYZFUZZ_SEED", "0x5eed")),
                 "pagealloc check"]
SHMTEST_BIN = os.path.join(paths.BUILD, "x86_64-pc", "user", "shmtest")
# Programs the session runs once, each beside the host's run of the same binary.
ONCE_LIKE_LINUX = ["filemap", "timerfdtest", "memfdtest", "socktest", "pipetest", "madvtest"]
THREADS_BINS = {"musl": os.path.join(paths.BUILD, "x86_64-pc", "user", "threads-musl"),
                "glibc": os.path.join(paths.BUILD, "x86_64-pc", "user", "threads-glibc")}
# The libcs each arch's threads program is built with (arm64: glibc only).
THREADS_LIBCS = {"x86_64": ["musl", "glibc"], "arm64-virt": ["glibc"]}


def session(arch):
    """The boot's commands: a warm-up round, a leak-check point, the round
    that counts, and the second point; the threaded programs in both."""
    threads = ["run /bin/threads-%s" % libc for libc in THREADS_LIBCS[arch]]
    return (["run /bin/memhostile exhaust", "run /bin/faults", "run /bin/shmtest"] + threads +
            ["pagealloc drain", "meminfo", "slabinfo", "run /bin/memhostile exhaust",
             "run /bin/memhostile", "run /bin/faults", "run /bin/shmtest"] + threads +
            ["run /bin/%s" % name for name in ONCE_LIKE_LINUX] +
            ["run /bin/oomtest", "run /bin/oomtest commit",
             "run /bin/oomtest adj-file", "run /bin/oomtest adj",
             "pagealloc drain", "meminfo", "slabinfo"] + SYZFUZZ_SLICE + ["poweroff"])
# The boot's init is oomtest's init-spared case (its argument after "--",
# as Linux passes init its words), then the kernel shell runs the session.
INIT_SPARED = 'rdinit=/bin/oomtest shell.run="%s" panic=-1 -- init-spared'
# The boot runs memory out five times (init's spared case, two exhaust
# runs, two OOM-killer cases), each touching every free page under TCG:
# half a gigabyte does what a whole one does in half the time.
MEMHOSTILE_MEM = "512M"
KLOG = re.compile(r"^\[ *\d+\.\d+\] ")


# madvtest's line that needs the host's transparent huge pages on to be Linux's answer.
THP_LINE = "in the hugepage part"


def host_thp_never():
    """Whether the host has transparent huge pages off ("[never]")."""
    try:
        with open("/sys/kernel/mm/transparent_hugepage/enabled") as f:
            return "[never]" in f.read()
    except OSError:
        return True


def linux_answers(path=HOST_BIN):
    """The host's (Linux's) output of the same binary, stdout a pipe."""
    r = subprocess.run(path if isinstance(path, list) else [path], capture_output=True,
                       text=True, timeout=60)
    return r.returncode, r.stdout.splitlines()


def program_outputs(text, name, args=""):
    """Each run's lines of `/bin/NAME ARGS` in the boot, kernel log lines left out
    (the last line is the program's "BASE: done", BASE its name before any "-LIBC")."""
    runs = re.findall(r"pagoda> run /bin/%s%s\n(.*?%s: done)\n" %
                      (name, re.escape(args), name.split("-")[0]), text, re.S)
    return [[l for l in run.split("\n") if not KLOG.match(l)] for run in runs]


def program_output(text):
    """memhostile's lines in the boot (its hostile run)."""
    runs = program_outputs(text, "memhostile")
    return runs[0] if runs else None


def memory_figures(text):
    """Per leak-check point: (kB free, on per-CPU lists or in slabs, {cache:
    objects held}). The kB are meminfo's own (MemFree, the zones' pcp
    column, Slab), read in one command: a slab page freed between meminfo
    and slabinfo lands on a per-CPU list and was once counted in neither."""
    points = []
    for m in re.finditer(r"MemFree: +(\d+) kB(.*?)pagoda> slabinfo\n(.*?)errors caught", text,
                         re.S):
        free, held = int(m.group(1)), {}
        slab = re.search(r"^Slab: +(\d+) kB", m.group(2), re.M)
        pcp = sum(int(z.group(1)) for z in
                  re.finditer(r"^\w+ +(?:0x[0-9a-f]+|0) +\d+ +\d+ +(\d+) ", m.group(2), re.M))
        for line in m.group(3).split("\n"):
            f = line.split()
            if len(f) == 8 and f[1].isdigit():
                held[f[0]] = int(f[2]) - int(f[7])
        if slab:  # a meminfo without Slab: is no point (so the check fails)
            points.append((free + pcp + int(slab.group(1)), held))
    return points


def check_no_leak(tally, name, t, log):
    """NAME.no-leak: the boot's two leak-check points (memory_figures)
    agree: the same free+slab kB and the same objects in each cache."""
    pts = memory_figures(t)
    ok = len(pts) == 2 and pts[0] == pts[1]
    tally.check("%s.no-leak" % name, ok, "free+slab kB %s, caches %s (log %s)" % (
        [p[0] for p in pts], [p[1] for p in pts] if not ok else "", log))


def check_threads(ctx, arch, t, log, want_threads):
    """Each threaded run printed what the host printed, and ended with status 0."""
    for libc in THREADS_LIBCS[arch]:
        want = want_threads[libc]
        runs = program_outputs(t, "threads-%s" % libc)
        bad = [(w, g) for run in runs for w, g in zip(want, run) if w != g][:4]
        ok = (len(runs) == 2 and not bad and all(len(r) == len(want) for r in runs) and
              len(re.findall(r"run: /bin/threads-%s: exit status 0" % libc, t)) == 2)
        ctx.tally.check("system:threads-%s.%s.like-linux" % (libc, arch), ok,
                        "%d runs; first differences (linux, pagoda): %s (log %s)" %
                        (len(runs), bad, rel(log)))


def check_twice(ctx, arch, t, log, name, want):
    """Both runs of /bin/NAME in the boot printed the host's lines."""
    runs = program_outputs(t, name)
    bad = [(w, g) for run in runs for w, g in zip(want, run) if w != g][:4]
    ctx.tally.check("system:%s.%s.like-linux" % (name, arch),
                    len(runs) == 2 and not bad and all(len(r) == len(want) for r in runs),
                    "%d runs; first differences (linux, pagoda): %s (log %s)" %
                    (len(runs), bad, rel(log)))


def check_boot(ctx, arch, b, want, want_faults, want_commit, want_threads, want_once,
               want_adj_file, want_shm):
    t = b.clean_text()
    # The boot's init (rdinit=, its argument after --) held more than the
    # child the shortage found: Linux never chooses init (mm/oom_kill.c's
    # oom_unkillable_task), so the child went and init ended by itself.
    spared = "init: the child touching 50 percent was killed by SIGKILL; init lives"
    ctx.tally.check("system:oom.%s.init-spared" % arch,
                    spared in t and "init: /bin/oomtest ended (wait status 0)" in t,
                    "init's lines: %s (log %s)" % (
                        re.findall(r"^(?:\[ *[\d.]+\] )?init: .*", t, re.M)[:6], rel(b.log)))
    check_twice(ctx, arch, t, b.log, "shmtest", want_shm)
    for name in ONCE_LIKE_LINUX:
        got = program_outputs(t, name)
        if name == "madvtest" and host_thp_never():
            got = [[l for l in run if THP_LINE not in l] for run in got]
        ctx.tally.check("system:%s.%s.like-linux" % (name, arch), got == [want_once[name]],
                        "linux %s, pagoda %s (log %s)" % (want_once[name], got, rel(b.log)))
    check_threads(ctx, arch, t, b.log, want_threads)
    check_twice(ctx, arch, t, b.log, "faults", want_faults)
    got = program_output(t)
    if got != want:
        diff = [("linux: %r  pagoda: %r" % (w, g)) for w, g in zip(want, got or [])
                if w != g][:6]
        why = "%d lines against Linux's %d; first differences: %s (log %s)" % (
            len(got or []), len(want), diff, rel(b.log))
    else:
        why = ""
    ctx.tally.check("system:memhostile.%s.like-linux" % arch, got == want, why)
    pts = memory_figures(t)
    ok = len(pts) == 2 and pts[0] == pts[1]
    why = "free+slab kB %s, caches %s (log %s)" % (
        [p[0] for p in pts], [p[1] for p in pts] if not ok else "", rel(b.log))
    ctx.tally.check("system:memhostile.%s.no-leak" % arch, ok, why)
    # The OOM killer chose the hog (the larger), once, and the toucher
    # finished; in the adj run, the one with oom_score_adj 1000, once.
    oom = program_outputs(t, "oomtest") + program_outputs(t, "oomtest", " commit")
    kills = re.findall(r"Out of memory: Killed process \d+ \(oomtest\) total-vm:\d+kB, "
                       r"anon-rss:\d+kB, .* oom_score_adj:(-?\d+)",
                       t[t.find("Welcome to Pagoda"):])  # the shell's runs, not init's
    ok = (len(oom) == 2 and "oom: toucher touched 50 percent of free memory" in oom[0] and
          "oom: hog killed by SIGKILL" in oom[0] and sorted(kills) == ["0", "1000"])
    ctx.tally.check("system:oom.%s.kills-the-larger" % arch, ok,
                    "oomtest said %s; kill reports with oom_score_adj %s (log %s)" % (
                        oom[:1], kills, rel(b.log)))
    ctx.tally.check("system:overcommit.%s.mode0-like-linux" % arch,
                    len(oom) == 2 and oom[1] == want_commit,
                    "linux %s, pagoda %s (log %s)" % (want_commit, oom[1:], rel(b.log)))
    adj_file = program_outputs(t, "oomtest", " adj-file")
    ctx.tally.check("system:oom.%s.adj-file-like-linux" % arch, adj_file == [want_adj_file],
                    "linux %s, pagoda %s (log %s)" % (want_adj_file, adj_file, rel(b.log)))
    adj = program_outputs(t, "oomtest", " adj")
    ctx.tally.check("system:oom.%s.adj-outweighs-size" % arch,
                    len(adj) == 1 and all(l in adj[0] for l in (
                        "adj: the hog's oom_score is 0: yes; the small one's above 1000: yes",
                        "adj: toucher touched 30 percent of free memory",
                        "adj: the small one (oom_score_adj 1000) killed by SIGKILL: yes")),
                    "oomtest adj said %s (log %s)" % (adj, rel(b.log)))
    committed = re.findall(r"Committed_AS: +(\d+) kB", t)
    ctx.tally.check("system:overcommit.%s.promises-given-back" % arch,
                    committed == ["0", "0"], "Committed_AS %s with no process (log %s)" %
                    (committed, rel(b.log)))
    # No process left: no process pages, and the page tables back to the kernel's own.
    anon = re.findall(r"AnonPages: +(\d+) kB", t)
    tables = re.findall(r"PageTables: +(\d+) kB", t)
    ctx.tally.check("system:memhostile.%s.anon-and-tables" % arch,
                    anon == ["0", "0"] and len(tables) == 2 and tables[0] == tables[1],
                    "AnonPages %s, PageTables %s (log %s)" % (anon, tables, rel(b.log)))
    # Each run ends: its mappings refused at last, or (pages come on first
    # touch) killed when a touch finds no memory, as Linux's OOM killer would.
    fz = re.findall(r"syzfuzz: \d+ workers: .*", t)
    ctx.tally.check("system:syzfuzz.%s.slice" % arch,
                    len(fz) == 1 and "syzfuzz: done" in t and
                    "pagealloc: free lists consistent" in t and
                    not any(m in t for m in ("Kernel panic", "CPU exception", "BUG:")),
                    "seed %s: %s (log %s)" % (re.findall(r"syzfuzz: seed (0x[0-9a-f]+)", t), fz,
                                              rel(b.log)))
    ends = re.findall(r"exhaust: \d+ x 64 MiB mapped|"
                      r"Out of memory: Killed process \d+ \(memhostile\)", t)
    ctx.tally.check("system:memhostile.%s.exhaust" % arch,
                    len(ends) == 2 and "Power down." in t and not b.timed_out,
                    "(log %s)" % rel(b.log))


@unit("system-memhostile", "system", needs=["x86_64", "arm64-virt"])
def memhostile(ctx):
    """mmap/brk beyond all memory and read/write/readv/writev/pread/pwrite over
    bad buffers answer as Linux does, so do demand paging, stack growth and
    SIGSEGV's si_code/si_addr (x86-64, arm64 virt); pthreads (musl, glibc)
    behave as on Linux; running out of memory and threads leak nothing"""
    rc, want = linux_answers()
    ctx.tally.check("system:memhostile.host-run", rc == 0 and want[-1:] == ["memhostile: done"],
                    "the host's run of %s exited %d" % (rel(HOST_BIN), rc))
    rc, want_faults = linux_answers(FAULTS_BIN)
    ctx.tally.check("system:faults.host-run", rc == 0 and want_faults[-1:] == ["faults: done"],
                    "the host's run of %s exited %d" % (rel(FAULTS_BIN), rc))
    with open("/proc/sys/vm/overcommit_memory") as f:
        mode = f.read().strip()
    rc, want_commit = linux_answers([OOM_BIN, "commit"])
    ctx.tally.check("system:overcommit.host-run",
                    mode == "0" and rc == 0 and want_commit[-1:] == ["oomtest: done"],
                    "the host's run of %s commit exited %d under vm.overcommit_memory=%s "
                    "(the reference needs 0)" % (rel(OOM_BIN), rc, mode))
    want_threads = {}
    for libc, path in THREADS_BINS.items():
        rc, want_threads[libc] = linux_answers(path)
        ctx.tally.check("system:threads-%s.host-run" % libc,
                        rc == 0 and want_threads[libc][-1:] == ["threads: done"],
                        "the host's run of %s exited %d" % (rel(path), rc))
    rc, want_adj_file = linux_answers([OOM_BIN, "adj-file"])
    ctx.tally.check("system:oom.adj-file.host-run",
                    rc == 0 and want_adj_file[-1:] == ["oomtest: done"],
                    "the host's run of %s adj-file exited %d" % (rel(OOM_BIN), rc))
    want_once = {}
    for name in ONCE_LIKE_LINUX:
        path = os.path.join(paths.BUILD, "x86_64-pc", "user", name)
        rc, want_once[name] = linux_answers(path)
        if name == "madvtest" and host_thp_never():
            print("  madvtest: this host has transparent huge pages \"never\": its line for "
                  "a MADV_HUGEPAGE stretch is not Linux's answer with them, and is not compared")
            want_once[name] = [l for l in want_once[name] if THP_LINE not in l]
        ctx.tally.check("system:%s.host-run" % name,
                        rc == 0 and want_once[name][-1:] == ["%s: done" % name],
                        "the host's run of %s exited %d" % (rel(path), rc))
    rc, want_shm = linux_answers(SHMTEST_BIN)
    ctx.tally.check("system:shmtest.host-run", rc == 0 and want_shm[-1:] == ["shmtest: done"],
                    "the host's run of %s exited %d" % (rel(SHMTEST_BIN), rc))
    cmdline = INIT_SPARED % ";".join(session("x86_64"))
    b = ctx.boot(ctx.x86_cmd(cmdline=cmdline, mem=MEMHOSTILE_MEM), "system-memhostile-x86_64",
                 600)
    check_boot(ctx, "x86_64", b, want, want_faults, want_commit, want_threads, want_once,
               want_adj_file, want_shm)
    cmdline = INIT_SPARED % ";".join(session("arm64-virt"))
    b = ctx.boot(ctx.arm64_cmd("virt", cmdline, mem=MEMHOSTILE_MEM),
                 "system-memhostile-arm64-virt", 600)
    check_boot(ctx, "arm64-virt", b, want, want_faults, want_commit, want_threads,
               want_once, want_adj_file, want_shm)


AREAS_BIN = os.path.join(paths.BUILD, "x86_64-pc", "user", "areas")
MAPS_LINE = re.compile(r"^([0-9a-f]+)-([0-9a-f]+) ([-r][-w][-x][ps]) ")


def area_story(text):
    """user/areas's steps, each with the areas over its region and heap as
    page ranges relative to them: {"step 3: ...": ["r 0-32 rw-p", ...]}."""
    m = re.search(r"areas: pid \d+ region ([0-9a-f]+) heap ([0-9a-f]+)", text)
    if not m:
        return None
    places = [("r", int(m.group(1), 16), 32), ("h", int(m.group(2), 16), 4)]
    story, step = {}, None
    for line in text[m.end():].split("\n"):
        line = KLOG.sub("", line.strip())
        # After the shell's prompt, when it is a background program's line.
        s = re.search(r"(step \d+: .*)", line)
        if s:
            step = s.group(1)
            story[step] = []
            continue
        a = MAPS_LINE.match(line)
        if not a or step is None:
            continue
        lo, hi = int(a.group(1), 16), int(a.group(2), 16)
        for tag, base, pages in places:
            end = base + pages * 4096
            if lo < end and hi > base:
                story[step].append("%s %d-%d %s" % (tag, (max(lo, base) - base) // 4096,
                                                    (min(hi, end) - base) // 4096, a.group(3)))
    return story


def areas_script():
    """Type `maps PID` at each step user/areas pauses at."""
    seen = {}

    def remember(m):
        seen["pid"] = m.group(1)
        return "maps %s\r" % seen["pid"]
    script = [(r"pagoda> ", "run /bin/areas &\r"),
              (r"areas: pid (\d+)", lambda m: (seen.update(pid=m.group(1)), "")[1]),
              (r"step 1: [^\n]*\n", lambda m: "maps %s\r" % seen["pid"])]
    for k in range(2, 20):
        script.append((r"step %d: [^\n]*\n" % k, lambda m: "maps %s\r" % seen["pid"]))
    # The same boot runs under strict overcommit: oomtest's promises after it.
    script.append((r"areas: done", "run /bin/oomtest commit\r"))
    script.append((r"oomtest: done", "poweroff\r"))
    return script


OVERCOMMIT2 = os.path.join(paths.ROOT, "tests", "fixtures", "linux",
                           "oomtest-commit-overcommit2.txt")


def linux_overcommit2():
    """Linux's answers under vm.overcommit_memory=2, recorded on Debian's
    kernel in the same QEMU by `tools/linuxpeer.py overcommit`."""
    with open(OVERCOMMIT2) as f:
        return [l.rstrip("\n") for l in f if not l.startswith("#")]


def check_overcommit2(ctx, arch, b):
    want = linux_overcommit2()
    # Typed after a background program's line: the prompt may sit elsewhere.
    got = [[l for l in run.split("\n") if not KLOG.match(l)] for run in
           re.findall(r"run /bin/oomtest commit\n(.*?oomtest: done)\n", b.clean_text(), re.S)]
    ctx.tally.check("system:overcommit.%s.mode2-like-linux" % arch,
                    got[:1] == [want], "linux %s, pagoda %s (log %s)" % (want, got, rel(b.log)))


def check_areas(ctx, arch, b, want):
    got = area_story(b.clean_text())
    diff = []
    for step in want:
        if (got or {}).get(step) != want[step]:
            diff.append("%s: linux %s, pagoda %s" % (step, want[step], (got or {}).get(step)))
    ctx.tally.check("system:areas.%s.like-linux" % arch, got is not None and not diff and
                    len(got) == len(want), "%s (log %s)" % ("; ".join(diff[:4]), rel(b.log)))


@unit("system-areas", "system", needs=["x86_64", "arm64-virt", "arm64-pi4"])
def areas(ctx):
    """mmap, munmap, mprotect (PROT_NONE too), mremap and brk split and merge
    areas as Linux does: `maps PID` after each step against the host's
    /proc/self/maps of the same binary (x86-64, arm64 virt, the Pi 4); the
    boot runs under vm.overcommit_memory=2 and oomtest's promises answer as
    Linux's"""
    r = subprocess.run([AREAS_BIN, "proc"], capture_output=True, text=True, timeout=60)
    want = area_story(r.stdout)
    ctx.tally.check("system:areas.host-run", r.returncode == 0 and want and len(want) == 19,
                    "the host's run of %s exited %d" % (rel(AREAS_BIN), r.returncode))
    if not want:
        return
    cmdline = "panic=-1 vm.overcommit_memory=2"
    b = ctx.boot(ctx.x86_cmd(cmdline=cmdline), "system-areas-x86_64", 180, areas_script())
    check_areas(ctx, "x86_64", b, want)
    check_overcommit2(ctx, "x86_64", b)
    b = ctx.boot(ctx.arm64_cmd("virt", cmdline), "system-areas-arm64-virt", 180,
                 areas_script())
    check_areas(ctx, "arm64-virt", b, want)
    check_overcommit2(ctx, "arm64-virt", b)
    # The Pi 4's own page tables, timer and memory map under the same story.
    b = ctx.boot(ctx.arm64_cmd("pi4", cmdline), "system-areas-arm64-pi4", 180, areas_script())
    check_areas(ctx, "arm64-pi4", b, want)
    check_overcommit2(ctx, "arm64-pi4", b)
