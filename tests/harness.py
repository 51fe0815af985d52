#!/usr/bin/env python3
"""Pagoda's test harness: every level of test, one summary line.

1. Host unit tests: the ktest suites built for Linux with ASan/UBSan, and
   our printf against the C library's.
2. In-kernel suites: boots every target with test=all and reads the KTAP
   the kernel prints.
3. System tests: whole stories across a boot (a deliberate crash must be
   reported properly; bad parameters must be warned about and survived;
   an interactive shell session).

Every boot has a timeout, its serial log is kept under build/test/, and a
panic, a hang or a target that did not boot counts as a failure. The last
line is "N passed, N failed"; the exit status is non-zero on any failure.
Standard library only.
"""
import os
import re
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import qemu  # noqa: E402

OUT = os.path.join(ROOT, "build", "test")
KERNEL = os.path.join(ROOT, "build", "x86_64-pc", "pagoda.elf")
HOST = os.path.join(ROOT, "build", "host")
TEST_CMDLINE = "test=all panic=-1"

PANIC_MARKERS = ("Kernel panic", "CPU exception")


class Tally:
    def __init__(self):
        self.passed, self.failed = [], []

    def ok(self, name):
        self.passed.append(name)

    def fail(self, name, why):
        self.failed.append(name)
        print("FAIL %s: %s" % (name, why))

    def check(self, name, cond, why):
        if cond:
            self.ok(name)
        else:
            self.fail(name, why)
        return cond


class Boot:
    """One QEMU run: output captured to a log, optional scripted input."""

    def __init__(self, cmd, log, timeout, script=()):
        self.cmd, self.log, self.timeout, self.script = cmd, log, timeout, script
        self.text, self.status, self.timed_out = "", None, False

    def run(self):
        os.makedirs(os.path.dirname(self.log), exist_ok=True)
        start = time.time()
        p = subprocess.Popen(self.cmd, stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        chunks, lock = [], threading.Lock()

        def reader():
            while True:
                b = p.stdout.read1(4096)
                if not b:
                    break
                with lock:
                    chunks.append(b.decode("utf-8", "replace"))

        t = threading.Thread(target=reader, daemon=True)
        t.start()

        def seen():
            with lock:
                return "".join(chunks)

        pos = 0
        for wait_for, send in self.script:
            while time.time() - start < self.timeout and p.poll() is None:
                m = re.compile(wait_for).search(seen(), pos)
                if m:
                    pos = m.end()
                    break
                time.sleep(0.05)
            if p.poll() is not None or time.time() - start >= self.timeout:
                break
            try:
                # Type it like a person would: serial input has no buffer.
                for ch in send:
                    p.stdin.write(ch.encode())
                    p.stdin.flush()
                    time.sleep(0.002)
            except BrokenPipeError:
                break
        try:
            p.wait(timeout=max(1, self.timeout - (time.time() - start)))
        except subprocess.TimeoutExpired:
            self.timed_out = True
            p.kill()
            p.wait()
        t.join(timeout=5)
        self.text = seen()
        self.status = p.returncode
        self.seconds = time.time() - start
        with open(self.log, "w") as f:
            f.write(self.text)
        return self


def parse_ktap(text):
    """Return (cases, suites, plan): cases are (suite, n, name, ok, skip)."""
    cases, suites, plan = [], [], None
    current = None
    for raw in text.splitlines():
        line = raw.rstrip("\r")
        m = re.match(r"^1\.\.(\d+)$", line)
        if m and plan is None:
            plan = int(m.group(1))
            continue
        m = re.match(r"^    # Subtest: (\S+)", line)
        if m:
            current = m.group(1)
            continue
        m = re.match(r"^    (not ok|ok) (\d+) (\S+)(.*)$", line)
        if m and current:
            skip = "# SKIP" in m.group(4)
            cases.append((current, int(m.group(2)), m.group(3),
                          m.group(1) == "ok", skip))
            continue
        m = re.match(r"^(not ok|ok) (\d+) (\S+)", line)
        if m:
            suites.append((m.group(3), m.group(1) == "ok"))
            current = None
    return cases, suites, plan


def ktap_boot(tally, target, boot):
    """Count a KTAP boot: each case is a test, and so is the boot itself."""
    cases, suites, plan = parse_ktap(boot.text)
    for suite, _, name, ok, skip in cases:
        full = "%s:%s.%s" % (target, suite, name)
        if ok:
            tally.ok(full)
        else:
            tally.fail(full, "see %s" % os.path.relpath(boot.log, ROOT))
    problems = []
    if boot.timed_out:
        problems.append("hung (no exit within %ds)" % boot.timeout)
    if any(mk in boot.text for mk in PANIC_MARKERS):
        problems.append("kernel panic")
    if plan is None:
        problems.append("no KTAP output: did it boot?")
    elif len(suites) != plan:
        problems.append("KTAP plan says %d suites, saw %d" % (plan, len(suites)))
    if "pagoda: done" not in boot.text and "pagoda: FAILED" not in boot.text:
        problems.append("never reached the end of the test run")
    tally.check("%s:boot" % target, not problems,
                "; ".join(problems) + " (log: %s)" % os.path.relpath(boot.log, ROOT))
    print("  %-14s %3d cases, %4.1fs, log %s" %
          (target, len(cases), boot.seconds, os.path.relpath(boot.log, ROOT)))


def host_tests(tally):
    log = os.path.join(OUT, "host-ktest.log")
    b = Boot([os.path.join(HOST, "ktest-host"), "all"], log, 300).run()
    cases, suites, plan = parse_ktap(b.text)
    for suite, _, name, ok, skip in cases:
        full = "host:%s.%s" % (suite, name)
        tally.ok(full) if ok else tally.fail(full, "see %s" % log)
    tally.check("host:ktest-exit", b.status == 0 and cases,
                "ktest-host exited %s (log %s)" % (b.status, log))
    print("  %-14s %3d cases, %4.1fs" % ("host", len(cases), b.seconds))
    b = Boot([os.path.join(HOST, "printf-vs-libc")],
             os.path.join(OUT, "host-printf-vs-libc.log"), 300).run()
    tally.check("host:printf_vs_libc", b.status == 0,
                b.text.strip().splitlines()[-1] if b.text.strip() else "no output")


def fuzz_tests(tally, seconds=10):
    """Short libFuzzer runs: `make fuzz-*` runs them for as long as you like."""
    fdt_seeds = os.path.join(ROOT, "build", "fixtures", "seeds")
    # (binary, corpus under build/fuzz/, extra arguments: flags or seed dirs)
    fuzzers = (("fuzz-page-alloc", "page-alloc", ["-max_len=4096"]),
               ("fuzz-fdt", "fdt", [fdt_seeds]))
    for name, corpus, extra in fuzzers:
        exe = os.path.join(HOST, name)
        cdir = os.path.join(ROOT, "build", "fuzz", corpus)
        os.makedirs(cdir, exist_ok=True)
        log = os.path.join(OUT, "host-%s.log" % name)
        flags = [a for a in extra if a.startswith("-")]
        dirs = [a for a in extra if not a.startswith("-")]
        b = Boot([exe, "-max_total_time=%d" % seconds,
                  "-artifact_prefix=%s/" % HOST] + flags + [cdir] + dirs,
                 log, seconds + 120).run()
        runs = re.search(r"Done (\d+) runs", b.text)
        tally.check("host:%s" % name, b.status == 0 and runs,
                    "fuzzer found a failure or did not run (log %s)" % log)
        print("  %-14s %s runs in %ds" % (name, runs.group(1) if runs else "?", seconds))


def choose_accel():
    """KVM when /dev/kvm works, else TCG.

    "Works" includes "is not slower than emulation": under nested
    virtualization every VM exit can cost a millisecond, and KVM then runs
    this kernel far slower than TCG. A probe boot under each decides.
    """
    forced = os.environ.get("PAGODA_ACCEL")
    if forced:
        return forced, "PAGODA_ACCEL"
    if not qemu.kvm_usable():
        return "tcg", "/dev/kvm not usable"
    probes = {}
    limit = 30
    for accel in ("tcg", "kvm"):
        cmd = qemu_cmd(accel, kernel=KERNEL, cmdline="test=params panic=-1")
        b = Boot(cmd, os.path.join(OUT, "probe-%s.log" % accel), limit).run()
        good = not b.timed_out and "pagoda: done" in b.text
        probes[accel] = b.seconds if good else None
        if good:
            # KVM only has to beat this; no need to wait for it longer.
            limit = 3 * b.seconds + 1
    if probes["kvm"] is None:
        if probes["tcg"] is not None:
            return "tcg", ("KVM works but is slower than emulation here (probe boot "
                           "not done in %.1fs, %.1fs under TCG: nested virtualization?)"
                           % (limit, probes["tcg"]))
        return "tcg", "KVM probe boot failed (log build/test/probe-kvm.log)"
    return "kvm", "probe boot %.1fs" % probes["kvm"]


def qemu_cmd(accel, **kw):
    return qemu.build_cmd(accel=accel, **kw)[0]


def kernel_targets(tally, accel):
    iso = os.path.join(OUT, "pagoda-test.iso")
    subprocess.run([os.path.join(ROOT, "tools", "mkiso.sh"), KERNEL, iso, TEST_CMDLINE],
                   check=True, stdout=subprocess.DEVNULL)
    targets = [("x86_64-direct", "direct", 120), ("x86_64-bios", "bios", 180),
               ("x86_64-uefi", "uefi", 300)]
    for name, boot, timeout in targets:
        cmd = qemu_cmd(accel, boot=boot, kernel=KERNEL, iso=iso, cmdline=TEST_CMDLINE)
        b = Boot(cmd, os.path.join(OUT, name + ".log"), timeout).run()
        ktap_boot(tally, name, b)


def system_tests(tally, accel):
    # A deliberate NULL write: the report must name the fault, show the
    # registers and a symbolized trace through the command, then panic.
    cmd = qemu_cmd(accel, kernel=KERNEL, cmdline="shell.run=panic panic=-1")
    b = Boot(cmd, os.path.join(OUT, "system-panic.log"), 120).run()
    for what, pattern in [("exception name", r"#PF page fault"),
                          ("null pointer", r"NULL pointer dereference"),
                          ("registers", r"RIP: 0008:ffffffff8[0-9a-f]+ cmd_panic\+0x"),
                          ("cr2", r"CR2: 0000000000000000"),
                          ("trace", r"Call trace:\n(.*\n)*?.*shell_exec\+0x"),
                          ("panic", r"Kernel panic - not syncing: fatal exception")]:
        ok = re.search(pattern, b.text.replace("\r", "")) is not None
        tally.check("system:panic-report.%s" % what.replace(" ", "-"), ok,
                    "missing %s (log %s)" % (what, b.log))
    # panic=-1 resets, and -no-reboot turns the reset into QEMU's exit.
    tally.check("system:panic-report.exits", not b.timed_out,
                "QEMU did not exit after the panic (log %s)" % b.log)

    # Bad parameters: warned about, defaults kept, the boot goes on.
    cmd = qemu_cmd(accel, kernel=KERNEL,
                   cmdline="loglevel=99 nosuchparam=1 panic=banana test=params")
    b = Boot(cmd, os.path.join(OUT, "system-badparams.log"), 120).run()
    t = b.text
    tally.check("system:bad-params.range", "bad value '99' for loglevel" in t, "no loglevel warning")
    tally.check("system:bad-params.unknown", "unknown parameter 'nosuchparam'" in t, "no unknown-key warning")
    tally.check("system:bad-params.int", "bad value 'banana' for panic" in t, "no panic= warning")
    tally.check("system:bad-params.survives", "pagoda: done" in t and not b.timed_out, "boot did not finish")

    # An interactive session: typing, editing, history, commands, poweroff.
    # Each step waits for the next prompt, then types.
    keys = ["help\r", "uptimX\x7fe\r", "\x1b[A\r", "params loglevel\r",
            "meminfo\r", "frobnicate\r", "poweroff\r"]
    script = [(r"pagoda> ", k) for k in keys]
    cmd = qemu_cmd(accel, kernel=KERNEL, cmdline="panic=-1")
    b = Boot(cmd, os.path.join(OUT, "system-shell.log"), 120, script).run()
    t = b.text.replace("\r", "")
    checks = [("prompt", "pagoda> " in t),
              ("help", re.search(r"uptime\s+time since", t) is not None),
              ("backspace", re.search(r"pagoda> uptimX\x08 \x08e\nup \d", t) is not None),
              ("history", len(re.findall(r"\nup \d+\.\d+ s", t)) >= 2),
              ("params", re.search(r"loglevel\s+7\s", t) is not None),
              ("meminfo", re.search(r"MemTotal: +\d+ kB", t) is not None),
              ("unknown", "frobnicate: unknown command" in t),
              ("poweroff", "Power down." in t and not b.timed_out)]
    for what, ok in checks:
        tally.check("system:shell.%s" % what, ok, "(log %s)" % b.log)


def memory_tests(tally, accel):
    """The page allocator's boot-time decisions and shell tools, end to end."""
    def boot(name, cmdline, mem="1G", hmat=None, timeout=120):
        cmd = qemu.build_cmd(accel=accel, kernel=KERNEL, cmdline=cmdline, mem=mem,
                             hmat_cache=hmat)[0]
        b = Boot(cmd, os.path.join(OUT, "memory-%s.log" % name), timeout).run()
        return b, b.text.replace("\r", "")

    # A direct-mapped memory-side cache in ACPI HMAT turns the shuffle on...
    b, t = boot("hmat", "shell.run=pagealloc;poweroff panic=-1", hmat="256M")
    tally.check("memory:hmat.detected", re.search(
        r"hmat: memory-side cache for domain 0: 256 MiB, level 1, direct-mapped", t),
        "HMAT cache not reported (log %s)" % b.log)
    tally.check("memory:hmat.shuffle-on", re.search(
        r"shuffle on \(direct-mapped memory-side cache found\)", t) and
        re.search(r"mm: shuffled [1-9]\d* blocks of order 10", t),
        "shuffle did not turn on (log %s)" % b.log)
    # ...unless page_alloc.shuffle=0 says no; without HMAT it stays off.
    b, t = boot("hmat-off", "shell.run=poweroff page_alloc.shuffle=0 panic=-1", hmat="256M")
    tally.check("memory:hmat.forced-off", "shuffle off (page_alloc.shuffle=0)" in t,
                "page_alloc.shuffle=0 ignored (log %s)" % b.log)
    b, t = boot("no-hmat", "shell.run=poweroff panic=-1")
    tally.check("memory:no-hmat.shuffle-off",
                "shuffle off (no direct-mapped memory-side cache)" in t,
                "shuffle state wrong without HMAT (log %s)" % b.log)

    # mem= holds memory back; onlining it later shuffles the zone (the
    # seed's hot-add path); memtest and the invariant check see it all.
    b, t = boot("online", 'mem=256M page_alloc.shuffle=1 panic=-1 '
                'shell.run="memory;memory online all;memtest;pagealloc check;meminfo;poweroff"',
                mem="768M")
    tally.check("memory:mem-limit", re.search(r"online: 25\d MiB, offline: 5\d\d MiB", t),
                "mem=256M not applied (log %s)" % b.log)
    tally.check("memory:online", re.search(r"onlined 5\d\d MiB and shuffled its zones; 0 MiB", t),
                "memory online failed (log %s)" % b.log)
    tally.check("memory:memtest", re.search(r"memtest: \d+ free frames \(7\d\d MiB\) written and read back, 0 bad", t),
                "memtest did not pass over all memory (log %s)" % b.log)
    tally.check("memory:check", "pagealloc: free lists consistent" in t,
                "invariant check failed (log %s)" % b.log)

    # Every suite again with the allocators' debug checks on.
    b, t = boot("debug", TEST_CMDLINE + " page_alloc.debug=1 slab.debug=1", timeout=300)
    ktap_boot(tally, "x86_64-mm-debug", b)


def main():
    os.makedirs(OUT, exist_ok=True)
    tally = Tally()
    print("host tests")
    host_tests(tally)
    fuzz_tests(tally)
    accel, why = choose_accel()
    print("kernel targets under %s (%s)" % (accel.upper(), why))
    kernel_targets(tally, accel)
    print("system tests under %s" % accel.upper())
    system_tests(tally, accel)
    print("memory tests under %s" % accel.upper())
    memory_tests(tally, accel)
    print("%d passed, %d failed" % (len(tally.passed), len(tally.failed)))
    return 1 if tally.failed else 0


if __name__ == "__main__":
    sys.exit(main())
