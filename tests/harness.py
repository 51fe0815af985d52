#!/usr/bin/env python3
"""Pagoda's test harness: every level of test, one summary line.

1. Host unit tests: the ktest suites built for Linux with ASan/UBSan, and
   our printf against the C library's.
2. In-kernel suites: boots every target with test=all and reads the KTAP
   the kernel prints: x86-64 three ways (direct, BIOS, UEFI), arm64 on
   QEMU virt and raspi4b (TCG; the pi4 one boots the SD card's kernel8.img).
3. System tests: whole stories across a boot (a deliberate crash must be
   reported properly; bad parameters must be warned about and survived;
   an interactive shell session).

Every boot has a timeout, its serial log is kept under build/test/, and a
panic, a hang or a target that did not boot counts as a failure. The last
line is "N passed, N failed"; the exit status is non-zero on any failure.
Standard library only.
"""
import argparse
import os
import re
import struct
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import qemu  # noqa: E402

OUT = os.path.join(ROOT, "build", "test")
KERNEL = os.path.join(ROOT, "build", "x86_64-pc", "pagoda.elf")
# arm64 boots the raw Image; the pi4 one is the very file the SD card gets.
ARM64_IMAGE = {p: os.path.join(ROOT, "build", "arm64-%s" % p, "kernel8.img")
               for p in ("virt", "pi4")}
PI4_DTB = os.path.join(ROOT, "build", "pi4-firmware", "bcm2711-rpi-4-b.dtb")
HOST = os.path.join(ROOT, "build", "host")
# lockdep=1: the lock validator watches every suite (off by default).
TEST_CMDLINE = "test=all panic=-1 lockdep=1"

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

    def __init__(self, cmd, log, timeout, script=(), stop_after_script=False):
        self.cmd, self.log, self.timeout, self.script = cmd, log, timeout, script
        # For a machine that halts rather than exits: end it once the
        # script has seen its last pattern.
        self.stop_after_script = stop_after_script
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

        pos, script_done = 0, False
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
        else:
            script_done = True
        if self.stop_after_script and script_done and p.poll() is None:
            p.kill()
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


def sdcard_test(tally):
    """The Raspberry Pi 4 SD image: built the way `make sdcard` builds it,
    from the kernel8.img the raspi4b target boots, then taken apart again:
    one FAT32 (LBA) partition in the MBR, every file back byte for byte."""
    pi4 = os.path.join(ROOT, "build", "arm64-pi4")
    fw = os.path.join(ROOT, "build", "pi4-firmware")
    kernel = os.path.join(pi4, "kernel8.img")
    if not os.path.exists(kernel):
        # No arm64 kernel built yet: any bytes show the builder works.
        kernel = os.path.join(OUT, "kernel8-standin.img")
        with open(kernel, "wb") as f:
            f.write(bytes(range(256)) * 1024)
    img = os.path.join(OUT, "pagoda-pi4.img")
    log = os.path.join(OUT, "sdcard.log")
    steps = [[os.path.join(ROOT, "tools", "fetch-pi4-firmware.sh"), fw],
             [os.path.join(ROOT, "tools", "mksdcard.sh"), img, kernel, fw,
              os.path.join(ROOT, "boot", "pi4")]]
    with open(log, "w") as f:
        for cmd in steps:
            r = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT)
            if not tally.check("sdcard:" + os.path.basename(cmd[0]), r.returncode == 0,
                               "exit %d (log %s)" % (r.returncode, log)):
                return
    with open(img, "rb") as f:
        mbr = f.read(512)
        ptype, start, count = mbr[446 + 4], *struct.unpack_from("<II", mbr, 446 + 8)
        f.seek(start * 512)
        boot = f.read(512)
    tally.check("sdcard:mbr", mbr[510:] == b"\x55\xaa" and ptype == 0x0c and start > 0
                and all(b == 0 for b in mbr[462:510]),
                "want one partition of type 0x0c, got type 0x%02x at %d" % (ptype, start))
    tally.check("sdcard:fat32", boot[82:90] == b"FAT32   " and boot[510:] == b"\x55\xaa",
                "partition at sector %d is not FAT32" % start)
    part = "%s@@%d" % (img, start * 512)
    want = {"start4.elf": os.path.join(fw, "start4.elf"),
            "fixup4.dat": os.path.join(fw, "fixup4.dat"),
            "bcm2711-rpi-4-b.dtb": os.path.join(fw, "bcm2711-rpi-4-b.dtb"),
            "config.txt": os.path.join(ROOT, "boot", "pi4", "config.txt"),
            "cmdline.txt": os.path.join(ROOT, "boot", "pi4", "cmdline.txt"),
            "kernel8.img": kernel}
    env = dict(os.environ, MTOOLS_SKIP_CHECK="1")
    for name, src in want.items():
        r = subprocess.run(["mtype", "-i", part, "::" + name], stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, env=env)
        with open(src, "rb") as f:
            same = r.returncode == 0 and r.stdout == f.read()
        tally.check("sdcard:file." + name, same, "%s on the card differs from %s" % (name, src))
    print("  %-14s %s from %s" % ("sdcard", os.path.relpath(img, ROOT),
                                  os.path.relpath(kernel, ROOT)))


def fuzz_tests(tally, seconds=10):
    """Short libFuzzer runs: `make fuzz-*` runs them for as long as you like."""
    fdt_seeds = os.path.join(ROOT, "build", "fixtures", "seeds")
    # The user programs the kernel builds are well-formed ELF files to mutate.
    elf_seeds = [d for d in (os.path.join(ROOT, "build", "x86_64-pc", "user"),
                             os.path.join(ROOT, "build", "arm64-virt", "user"))
                 if os.path.isdir(d)]
    # (binary, corpus under build/fuzz/, extra arguments: flags or seed dirs)
    fuzzers = (("fuzz-page-alloc", "page-alloc", ["-max_len=4096"]),
               ("fuzz-fdt", "fdt", [fdt_seeds]),
               ("fuzz-elf", "elf", ["-max_len=8192"] + elf_seeds))
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
            # KVM has to be about as fast as this to be worth it (under
            # nested virtualization it is tens of times slower); no need to
            # wait for it longer.
            limit = 1.5 * b.seconds + 0.5
    if probes["kvm"] is None:
        if probes["tcg"] is not None:
            return "tcg", ("KVM works but is slower than emulation here (probe boot "
                           "not done in %.1fs, %.1fs under TCG: nested virtualization?)"
                           % (limit, probes["tcg"]))
        return "tcg", "KVM probe boot failed (log build/test/probe-kvm.log)"
    return "kvm", "probe boot %.1fs" % probes["kvm"]


def qemu_cmd(accel, **kw):
    return qemu.build_cmd(accel=accel, **kw)[0]


def _outside_deliberate_reports(text):
    """The log without the output of the test cases that provoke lockdep
    reports on purpose (test_lockdep_catches_*). A case's output is what
    comes between the previous case's result line and its own."""
    parts = re.split(r"(\n\s*(?:not )?ok \d+ \S+[^\n]*)", text)
    kept = []
    for i in range(0, len(parts), 2):
        result = parts[i + 1] if i + 1 < len(parts) else ""
        if re.search(r"ok \d+ test_lockdep_catches_", result):
            continue
        kept.append(parts[i] + result)
    return "".join(kept)


def kernel_targets(tally, accel):
    iso = os.path.join(OUT, "pagoda-test.iso")
    subprocess.run([os.path.join(ROOT, "tools", "mkiso.sh"), KERNEL, iso, TEST_CMDLINE],
                   check=True, stdout=subprocess.DEVNULL)
    targets = [("x86_64-direct", "direct", 120), ("x86_64-bios", "bios", 180),
               ("x86_64-uefi", "uefi", 300)]
    # Every target with 2 and with 4 CPUs: all must come online, and the
    # scheduler and locking suites run on all of them.
    for name, boot, timeout in targets:
        for smp in (2, 4):
            full = "%s-smp%d" % (name, smp)
            cmd = qemu_cmd(accel, boot=boot, kernel=KERNEL, iso=iso, cmdline=TEST_CMDLINE,
                           smp=smp)
            b = Boot(cmd, os.path.join(OUT, full + ".log"), timeout).run()
            ktap_boot(tally, full, b)
            tally.check("%s:cpus-online" % full,
                        "smp: %d of %d CPUs online" % (smp, smp) in b.text,
                        "not every CPU came online (log %s)" % os.path.relpath(b.log, ROOT))
            check_lockdep_clean(tally, full, b)


def check_lockdep_clean(tally, name, b):
    """No lockdep report outside the cases that provoke one on purpose, and
    no scheduler BUG anywhere (neither fails a KTAP case by itself)."""
    tally.check("%s:lockdep-clean" % name, not re.search(
        r"possible circular locking|BUG: sleeping function|scheduling while atomic",
        _outside_deliberate_reports(b.text)) and "sched: BUG" not in b.text,
        "lockdep or the scheduler reported a problem (log %s)" % os.path.relpath(b.log, ROOT))


def arm64_cmd(platform, cmdline, el2=False, smp=2, gic=2):
    return qemu.build_cmd(arch="arm64", platform=platform, kernel=ARM64_IMAGE[platform],
                          dtb=PI4_DTB, cmdline=cmdline, el2=el2, smp=smp, gic=gic)[0]


def arm64_targets(tally):
    """The same suites on QEMU virt and raspi4b (always TCG here).

    Like x86, every run has several CPUs and all must come online: virt
    with 2 and 4 (PSCI CPU_ON, GICv2), once more with 4 on a GICv3, and
    raspi4b, whose 4 cores are fixed by the board (the spin table).
    """
    runs = [("arm64-virt-smp2", "virt", 2, 2), ("arm64-virt-smp4", "virt", 4, 2),
            ("arm64-virt-gicv3-smp4", "virt", 4, 3), ("arm64-pi4", "pi4", 4, 2)]
    for name, platform, smp, gic in runs:
        b = Boot(arm64_cmd(platform, TEST_CMDLINE, smp=smp, gic=gic),
                 os.path.join(OUT, name + ".log"), 180).run()
        ktap_boot(tally, name, b)
        tally.check("%s:cpus-online" % name,
                    "smp: %d of %d CPUs online" % (smp, smp) in b.text,
                    "not every CPU came online (log %s)" % os.path.relpath(b.log, ROOT))
        tally.check("%s:gic" % name, "arm64: GICv%d up" % gic in b.text,
                    "the GICv%d driver did not come up (log %s)" %
                    (gic, os.path.relpath(b.log, ROOT)))
        check_lockdep_clean(tally, name, b)
        # The exit status comes through semihosting: 0 only if all passed.
        done = "pagoda: done" in b.text
        tally.check("%s:exit-status" % name, b.status == (0 if done else 1),
                    "QEMU exited %s after %s (log %s)" %
                    (b.status, "success" if done else "failures",
                     os.path.relpath(b.log, ROOT)))


def expect(tally, prefix, boot, what, pattern):
    """A check that the boot's output matches pattern."""
    tally.check("%s.%s" % (prefix, what.replace(" ", "-")),
                re.search(pattern, boot.text.replace("\r", "")) is not None,
                "missing %s (log %s)" % (what, boot.log))


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
        expect(tally, "system:panic-report", b, what, pattern)
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
    shell_errors_session(tally, accel)


def shell_errors_session(tally, accel):
    """The shell's error paths and line editor, typed as a person would,
    on a machine booted with three bad words on its command line."""
    left, right, home, end = "\x1b[D", "\x1b[C", "\x1b[H", "\x1b[F"
    keys = [
        # Each command that fails says so, by name, with its usage line.
        "memory online -5\r", "memory online abc\r", "memory online\r", "memory foo\r",
        "pagealloc bogus\r", "meminfo extra args\r", "pagealloc drain\r",
        "test nosuchsuite\r", "params page_alloc.policy\r",
        # Editing: Home/End/Delete in several spellings, Ctrl-A/E/K/U/W.
        "xuptime" + "\x1b[1~" + "\x1b[3~" + "\r",       # Home, Delete
        "cpu" + home + end + "s\r",                      # ESC [ H / ESC [ F
        "ps" + "\x1bOH" + "\x1bOF" + "\r",               # ESC O H / ESC O F
        "params loglevel junk\x17\r",                   # Ctrl-W
        "help me" + left * 3 + "\x0b\r",                # Left, Ctrl-K
        "reboot\x15date\r",                             # Ctrl-U
        "dat" + left + right + "\x01\x05e\r",            # Ctrl-A, Ctrl-E
        "w" * 300 + "\r",                               # over the limit
        "params shell.columns\r",
    ]
    # The shell asks the terminal's width (ESC [ 6 n); answer as a terminal
    # 100 columns wide would.
    script = [(r"\x1b\[6n", "\x1b[24;100R")] + [(r"pagoda> ", k) for k in keys]
    # A long command stopped by Ctrl-C as soon as it has started.
    script += [(r"pagoda> ", "mmlab run workload=aged\r"), (r"workload=aged\r?\n", "\x03"),
               (r"pagoda> ", "poweroff\r")]
    cmd = qemu_cmd(accel, kernel=KERNEL,
                   cmdline="bogus=1 loglevel=99 page_alloc.policy=nonsense panic=-1")
    b = Boot(cmd, os.path.join(OUT, "system-shell-errors.log"), 180, script).run()
    t = b.text.replace("\r", "")
    usage = lambda cmd, u: re.search(r"pagoda> %s\n(.*\n)?%s: Invalid argument \(EINVAL\)\n"
                                     r"usage: %s\n" % (re.escape(cmd), cmd.split()[0],
                                                         re.escape(u)), t) is not None
    checks = [
        ("params.three-problems", "params: 3 problem(s) on the command line" in t),
        ("params.choices", "bad value 'nonsense' for page_alloc.policy "
                           "(auto|inorder|shuffle|shuffle-entropy|colour)" in t),
        ("params.in-effect", re.search(r"page_alloc.policy +auto ", t) is not None),
        ("memory.negative", usage("memory online -5", "memory [online SIZE|all]")),
        ("memory.not-a-size", usage("memory online abc", "memory [online SIZE|all]")
         and "'abc' is not a size" in t),
        ("memory.no-size", usage("memory online", "memory [online SIZE|all]")),
        ("memory.unknown-verb", usage("memory foo", "memory [online SIZE|all]")),
        ("pagealloc.usage", usage("pagealloc bogus", "pagealloc [check|drain]")),
        ("meminfo.no-args", "meminfo: takes no arguments (EINVAL)" in t),
        ("pagealloc.drain", re.search(r"pagealloc: per-CPU lists drained, \d+ pages", t)
         is not None),
        ("test.no-suite", "test: No such file or directory (ENOENT)" in t),
        ("edit.home-delete", re.search(r"\nup \d+\.\d+ s", t) is not None),
        ("edit.no-tilde", "~: unknown command" not in t and "unknown command" not in t),
        ("edit.home-end", re.search(r"pagoda> cpu[^\n]*\n\d+ of \d+ CPUs online", t)
         is not None),
        ("edit.ss3-home-end", re.search(r"pagoda> ps[^\n]*\n +PID NAME", t) is not None),
        ("edit.ctrl-w", "no parameter 'junk'" not in t and
         len(re.findall(r"\n  loglevel +7 ", t)) >= 1),
        ("edit.ctrl-k", re.search(r"help +this list", t) is not None),
        ("edit.ctrl-u-ctrl-a-e", len(re.findall(r"\n\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC", t)) == 2
         and b.text.count("Welcome to Pagoda") == 1),
        ("edit.too-long", "line longer than 255 characters refused, nothing run" in t),
        ("ctrl-c", "mmlab: interrupted (Ctrl-C)" in t),
        ("columns-asked", re.search(r"shell\.columns +100 ", t) is not None),
        ("poweroff", "Power down." in t and not b.timed_out),
    ]
    for what, ok in checks:
        tally.check("system:shell-errors.%s" % what, ok, "(log %s)" % b.log)


def arm64_system_tests(tally):
    # The same deliberate NULL write, reported the arm64 way.
    b = Boot(arm64_cmd("virt", "shell.run=panic panic=-1"),
             os.path.join(OUT, "system-arm64-panic.log"), 60).run()
    for what, pattern in [("exception class", r"Data Abort \(ESR 0x9600004[4-7]: EC 0x25"),
                          ("null pointer", r"write: translation fault .*NULL pointer dereference"),
                          ("registers", r"PC: ffffffff8[0-9a-f]+ cmd_panic\+0x"),
                          ("far", r"FAR: 0000000000000000"),
                          ("trace", r"Call trace:\n(.*\n)*?.*shell_exec\+0x"),
                          ("panic", r"Kernel panic - not syncing: fatal exception Data Abort")]:
        expect(tally, "system:arm64-panic-report", b, what, pattern)
    tally.check("system:arm64-panic-report.exits", not b.timed_out,
                "QEMU did not exit after the panic (log %s)" % b.log)

    # raspi4b without -dtb hands over ATAGS, not a device tree: the kernel
    # must say so plainly and panic. (With no command line there is no
    # panic=, so it halts, as panic's default says: the boot is cut short.)
    cmd = [a for a in arm64_cmd("pi4", "") if a not in ("-dtb", PI4_DTB)]
    script = [(r"---\[ end Kernel panic", "")]
    b = Boot(cmd, os.path.join(OUT, "system-arm64-no-dtb.log"), 30, script,
             stop_after_script=True).run()
    tally.check("system:arm64-no-dtb.reported",
                "holds no device tree" in b.text and "Kernel panic" in b.text,
                "no clear error without a device tree (log %s)" % b.log)

    # Entry at EL2 (virt with virtualization=on; the Pi firmware does the
    # same) and the way out of each board: PSCI through SMC on virt, the
    # BCM2835 watchdog on the Pi. `poweroff` must end QEMU by itself. The
    # virt one has 4 CPUs on a GICv3: secondaries started by PSCI through
    # SMC, each dropping from EL2 itself and opening ICC_SRE_EL1 there. The
    # typing goes through the PL011's receive interrupt on both.
    for name, platform, el2, entered, power, gic in [
            ("virt-el2", "virt", True, "entered at EL2", "PSCI via SMC", 3),
            ("pi4", "pi4", False, "entered at EL2", "BCM2835 watchdog", 2)]:
        script = [(r"pagoda> ", "uptime\r"), (r"pagoda> ", "poweroff\r")]
        b = Boot(arm64_cmd(platform, "panic=-1", el2, smp=4, gic=gic),
                 os.path.join(OUT, "system-arm64-%s-shell.log" % name), 60, script).run()
        t = b.text.replace("\r", "")
        for what, ok in [("entry", entered in t), ("power-method", power in t),
                         ("cpus-online", "smp: 4 of 4 CPUs online" in t),
                         ("input-irq", "console input on interrupt" in t),
                         ("uptime", re.search(r"\nup \d+\.\d+ s", t) is not None),
                         ("poweroff", "Power down." in t and not b.timed_out)]:
            tally.check("system:arm64-%s.%s" % (name, what), ok, "(log %s)" % b.log)


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

    # The allocator-policy lab: its cache size comes from HMAT, and the
    # kernel's run of a cell prints the host runner's line, number for
    # number (same code, same seed); a bad argument is refused.
    lab = ["workload=interleaved", "node=512M", "policy=shuffle-entropy", "seed=3"]
    b, t = boot("mmlab", 'panic=-1 shell.run="mmlab info;mmlab run %s;mmlab run ratio=x;'
                'mmlab run policy=bogus;mmlab run node=128G;poweroff"' % " ".join(lab),
                hmat="64M")
    tally.check("memory:mmlab.hmat", "cache: 64 MiB, 16384 colours" in t and
                "from ACPI HMAT" in t, "mmlab did not take HMAT's cache (log %s)" % b.log)
    host = subprocess.run([os.path.join(HOST, "mmlab-run"), "cache=64M"] + lab,
                          capture_output=True, text=True).stdout
    strip = lambda s: re.sub(r" time=\d+ms", "", s).strip()
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

    # Node 0 under the colour policy (shared, windowed colour counts under
    # the zone locks): every suite, then the lab's churn on node 0 and the
    # invariant check after it.
    b, t = boot("colour", TEST_CMDLINE + " page_alloc.policy=colour", hmat="64M", timeout=300)
    tally.check("memory:colour.policy", "policy colour" in t,
                "node 0 is not under the colour policy (log %s)" % b.log)
    ktap_boot(tally, "x86_64-policy-colour", b)
    b, t = boot("colour-lab", 'page_alloc.policy=colour panic=-1 shell.run="mmlab run '
                'node=real workload=aged aging=1 live=20;pagealloc check;poweroff"', hmat="64M")
    tally.check("memory:colour.lab-on-node0",
                re.search(r"mmlab: workload=aged policy=colour node=real .*fails=\d+", t)
                and "pagealloc: free lists consistent" in t,
                "lab run or invariant check failed under colour (log %s)" % b.log)

    # Every suite again with the allocators' debug checks on.
    b, t = boot("debug", TEST_CMDLINE + " page_alloc.debug=1 slab.debug=1", timeout=300)
    ktap_boot(tally, "x86_64-mm-debug", b)
    check_lockdep_clean(tally, "x86_64-mm-debug", b)


def main():
    global PI4_DTB
    ap = argparse.ArgumentParser()
    ap.add_argument("--pi4-dtb", default=PI4_DTB, help="device tree for raspi4b")
    PI4_DTB = os.path.abspath(ap.parse_args().pi4_dtb)
    os.makedirs(OUT, exist_ok=True)
    tally = Tally()
    print("host tests")
    host_tests(tally)
    sdcard_test(tally)
    fuzz_tests(tally)
    accel, why = choose_accel()
    print("kernel targets under %s (%s)" % (accel.upper(), why))
    kernel_targets(tally, accel)
    print("arm64 targets under TCG")
    arm64_targets(tally)
    print("system tests under %s (arm64: TCG)" % accel.upper())
    system_tests(tally, accel)
    arm64_system_tests(tally)
    print("memory tests under %s" % accel.upper())
    memory_tests(tally, accel)
    print("%d passed, %d failed" % (len(tally.passed), len(tally.failed)))
    return 1 if tally.failed else 0


if __name__ == "__main__":
    sys.exit(main())
