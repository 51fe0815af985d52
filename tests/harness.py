#!/usr/bin/env python3
"""Pagoda's test harness: every level of test, one summary line.

1. Host unit tests: the ktest suites built for Linux with ASan/UBSan,
   our printf against the C library's, and a short fuzzing run of the
   device-tree reader (PAGODA_FUZZ_SECONDS, default 15).
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
    fuzz_fdt(tally)


def fuzz_fdt(tally):
    """A short libFuzzer run on the device-tree reader (`make fuzz` runs longer)."""
    fuzz = os.path.join(HOST, "fuzz-fdt")
    seconds = int(os.environ.get("PAGODA_FUZZ_SECONDS", "15"))
    if not os.path.exists(fuzz):
        tally.fail("host:fuzz_fdt", "build/host/fuzz-fdt was not built")
        return
    corpus = os.path.join(HOST, "fuzz-corpus")
    os.makedirs(corpus, exist_ok=True)
    cmd = [fuzz, "-max_total_time=%d" % seconds, "-print_final_stats=1",
           "-artifact_prefix=%s/" % HOST, corpus,
           os.path.join(ROOT, "build", "fixtures", "seeds")]
    b = Boot(cmd, os.path.join(OUT, "host-fuzz-fdt.log"), seconds + 120).run()
    runs = re.search(r"stat::number_of_executed_units:\s*(\d+)", b.text)
    tally.check("host:fuzz_fdt", b.status == 0 and runs is not None,
                "fuzzer exited %s (log %s)" % (b.status, os.path.relpath(b.log, ROOT)))
    print("  %-14s %s inputs in %ds" % ("fuzz_fdt", runs.group(1) if runs else "?", seconds))


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
    for accel in ("tcg", "kvm"):
        cmd = qemu_cmd(accel, kernel=KERNEL, cmdline="test=params panic=-1")
        b = Boot(cmd, os.path.join(OUT, "probe-%s.log" % accel), 30).run()
        good = not b.timed_out and "pagoda: done" in b.text
        probes[accel] = b.seconds if good else None
    if probes["kvm"] is None:
        return "tcg", "KVM probe boot failed (log build/test/probe-kvm.log)"
    if probes["tcg"] is not None and probes["kvm"] > 3 * probes["tcg"] + 1:
        return "tcg", ("KVM works but is slower than emulation here "
                       "(probe boot %.1fs vs %.1fs under TCG: nested virtualization?)"
                       % (probes["kvm"], probes["tcg"]))
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
              ("meminfo", re.search(r"usable: \d+ KiB", t) is not None),
              ("unknown", "frobnicate: unknown command" in t),
              ("poweroff", "Power down." in t and not b.timed_out)]
    for what, ok in checks:
        tally.check("system:shell.%s" % what, ok, "(log %s)" % b.log)


def main():
    os.makedirs(OUT, exist_ok=True)
    tally = Tally()
    print("host tests")
    host_tests(tally)
    accel, why = choose_accel()
    print("kernel targets under %s (%s)" % (accel.upper(), why))
    kernel_targets(tally, accel)
    print("system tests under %s" % accel.upper())
    system_tests(tally, accel)
    print("%d passed, %d failed" % (len(tally.passed), len(tally.failed)))
    return 1 if tally.failed else 0


if __name__ == "__main__":
    sys.exit(main())
