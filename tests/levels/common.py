"""What every level of the harness shares: the tally, the registry of
units, the run's context and the checks more than one level makes."""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools"))
from pagoda import accel, paths, qemu  # noqa: E402
from pagoda.boot import Boot  # noqa: E402
from pagoda.ktap import failure_lines, parse as parse_ktap  # noqa: E402


OUT = os.path.join(paths.BUILD, "test")
KERNEL = paths.X86_KERNEL
PANIC_MARKERS = ("Kernel panic", "CPU exception")


# Suites "all" leaves out here: the labs unit boots them, in a lab's
# full-tree grade. futex (the threads lab's) runs user/libc/futextest.c
# for about 4 s a boot, which each of the kernel units' ten boots would
# pay again.
LAB_SUITES = ("futex",)


def all_suites(but=()):
    """test='s "all", less LAB_SUITES and but."""
    return ",".join(("all",) + tuple("-" + s for s in LAB_SUITES + tuple(but)))


def test_cmdline(suites=None):
    """What a KTAP boot's kernel is given. lockdep=1: the lock validator
    watches every suite (off by default)."""
    return "test=%s panic=-1 lockdep=1" % (suites or all_suites())


class Tally:
    """Every check's verdict: counted, printed when it fails, and written
    to build/test/results.jsonl (kind "test") as it comes."""

    def __init__(self, results=None):
        self.passed, self.failed = [], []
        self.results = results

    def _record(self, name, ok, why=""):
        if self.results:
            self.results.write("test", {"name": name, "ok": ok, "why": why})

    def ok(self, name):
        self.passed.append(name)
        self._record(name, True)

    def fail(self, name, why):
        self.failed.append(name)
        print("FAIL %s: %s" % (name, why))
        self._record(name, False, why)

    def check(self, name, cond, why):
        if cond:
            self.ok(name)
        else:
            self.fail(name, why)
        return cond


class Unit:
    """One selectable piece of the run: usually one boot (or a few boots
    that tell one story). ONLY= selects units by level or name."""

    def __init__(self, name, level, fn, needs, suites):
        self.name, self.level, self.fn = name, level, fn
        self.needs, self.suites = needs, suites

    @property
    def doc(self):
        """The first line of the function's docstring: what ONLY=help shows."""
        return (self.fn.__doc__ or "").strip().split("\n")[0]


UNITS = []
LEVELS = ("host", "kernel", "system")
# What a unit can need built first; tests/harness.py --builds lists them for
# the Makefile, which knows how to make each (its test-build-% targets).
BUILDS = ("x86_64", "host", "arm64-virt", "arm64-pi4", "x86_64-vdso-alt", "arm64-virt-vdso-alt")


def unit(name, level, needs=(), suites=False):
    """Register fn(ctx) as a unit. needs: builds it boots (BUILDS).
    suites=True: it boots KTAP suites, so NAME:SUITE can narrow it, and
    fn reads ctx.suites (None means all)."""
    assert level in LEVELS and all(n in BUILDS for n in needs), name

    def register(fn):
        assert name not in [u.name for u in UNITS], name
        UNITS.append(Unit(name, level, fn, tuple(needs), suites))
        return fn
    return register


class Context:
    """What a unit gets: the tally, the accelerator (chosen on first use),
    the suites it was narrowed to, the Pi 4 device tree."""

    def __init__(self, tally, pi4_dtb, requested_accel="auto"):
        self.tally, self.pi4_dtb = tally, pi4_dtb
        self.requested_accel = requested_accel
        self.suites = None
        self._accel = None
        self._isos = {}

    @property
    def accel(self):
        if self._accel is None:
            self._accel, why = accel.choose(self.requested_accel)
            print("x86-64 guests under %s (%s)" % (self._accel.upper(), why))
        return self._accel

    def x86_cmd(self, **kw):
        """A QEMU command for the x86-64 kernel under the chosen accelerator
        (TCG for UEFI where OVMF cannot run under this KVM: pagoda.accel)."""
        kw.setdefault("kernel", KERNEL)
        use = self.accel
        if use == "kvm" and kw.get("boot") == "uefi" and accel.uefi_kvm_problem():
            use = "tcg"
        return qemu.build_cmd(accel=use, **kw)[0]

    def arm64_cmd(self, platform, cmdline, el2=False, smp=2, gic=2, **kw):
        kw.setdefault("kernel", paths.ARM64_IMAGE[platform])
        return qemu.build_cmd(arch="arm64", platform=platform, dtb=self.pi4_dtb,
                              cmdline=cmdline, el2=el2, smp=smp, gic=gic, **kw)[0]

    def initrd_cmd(self, machine, cpio, cmdline="panic=-1", **kw):
        """A QEMU command that boots machine (x86_64, arm64-virt or
        arm64-pi4) with cpio as its initrd: the system tests that bring
        their own programs (Debian's, Linux's selftests) boot this way."""
        kw["extra"] = ["-initrd", cpio] + kw.get("extra", [])
        if machine == "x86_64":
            return self.x86_cmd(cmdline=cmdline, **kw)
        return self.arm64_cmd(machine[len("arm64-"):], cmdline, **kw)

    def test_iso(self, cmdline):
        """A GRUB ISO of the x86-64 kernel whose grub.cfg passes cmdline;
        made once per command line per run."""
        if cmdline not in self._isos:
            iso = os.path.join(OUT, "pagoda-test.iso" if cmdline == test_cmdline()
                               else "pagoda-test-%d.iso" % len(self._isos))
            subprocess.run([os.path.join(ROOT, "tools", "mkiso.sh"), KERNEL, iso, cmdline,
                            os.path.join(os.path.dirname(KERNEL), "initramfs-boot.cpio")],
                           check=True, stdout=subprocess.DEVNULL)
            self._isos[cmdline] = iso
        return self._isos[cmdline]

    def boot(self, cmd, name, timeout, script=(), stop_after_script=False):
        """Run one boot, its serial log kept as build/test/NAME.log. One
        that runs out of time says where it stood, in make test's own
        output: a CI run keeps that output but not the logs."""
        b = Boot(cmd, os.path.join(OUT, name + ".log"), timeout, script,
                 stop_after_script).run()
        if b.timed_out:
            tail = [l.strip() for l in b.clean_text().splitlines() if l.strip()][-8:]
            print("  %s: still running after %d s; its last lines: %s"
                  % (name, timeout, " | ".join(tail)))
        return b


def rel(path):
    return paths.rel(path)


def panic_summary(text, most=14):
    """The lines that say why a kernel died (the exception, the faulting
    address, the call trace, the panic message), so that a failure seen
    only in a CI run's printed output still tells where to look."""
    lines = text.splitlines()
    start = next((i for i, l in enumerate(lines)
                  if any(mk in l for mk in PANIC_MARKERS)), None)
    if start is None:
        return ""
    keep = [re.sub(r"^\[[ 0-9.]+\] ", "", l).strip() for l in lines[start:]]
    # register dumps say little in one line; the call trace says where
    keep = [l for l in keep if l and not l.startswith("---")
            and not re.match(r"^(?!RIP)(X\d\d|SP|R[A-Z0-9]{1,2}|CR\d|ESR|TTBR0):", l)]
    return ": " + " | ".join(keep[:most])


def ktap_boot(tally, target, boot):
    """Count a KTAP boot: each case is a test, and so is the boot itself."""
    cases, suites, plan = parse_ktap(boot.text)
    said = failure_lines(boot.text) if not all(c[3] for c in cases) else {}
    for suite, _, name, ok, skip in cases:
        full = "%s:%s.%s" % (target, suite, name)
        if ok:
            tally.ok(full)
        else:
            why = " | ".join(said.get((suite, name), []))
            tally.fail(full, "%ssee %s" % (why + "; " if why else "", rel(boot.log)))
    problems = []
    if boot.timed_out:
        problems.append("hung (no exit within %ds)" % boot.timeout)
    if any(mk in boot.text for mk in PANIC_MARKERS):
        problems.append("kernel panic" + panic_summary(boot.text))
    if plan is None:
        problems.append("no KTAP output: did it boot?")
    elif len(suites) != plan:
        problems.append("KTAP plan says %d suites, saw %d" % (plan, len(suites)))
    if "pagoda: done" not in boot.text and "pagoda: FAILED" not in boot.text:
        problems.append("never reached the end of the test run")
    tally.check("%s:boot" % target, not problems,
                "; ".join(problems) + " (log: %s)" % rel(boot.log))
    print("  %-14s %3d cases, %4.1fs, log %s" %
          (target, len(cases), boot.seconds, rel(boot.log)))
    return cases


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


def check_lockdep_clean(tally, name, b):
    """No lockdep report outside the cases that provoke one on purpose, and
    no scheduler BUG anywhere (neither fails a KTAP case by itself)."""
    tally.check("%s:lockdep-clean" % name, not re.search(
        r"possible circular locking|BUG: sleeping function|scheduling while atomic",
        _outside_deliberate_reports(b.text)) and "sched: BUG" not in b.text,
        "lockdep or the scheduler reported a problem (log %s)" % rel(b.log))


def check_cpus_online(tally, name, b, n):
    tally.check("%s:cpus-online" % name, "smp: %d of %d CPUs online" % (n, n) in b.text,
                "not every CPU came online (log %s)" % rel(b.log))


def expect(tally, prefix, boot, what, pattern):
    """A check that the boot's output matches pattern."""
    tally.check("%s.%s" % (prefix, what.replace(" ", "-")),
                re.search(pattern, boot.clean_text()) is not None,
                "missing %s (log %s)" % (what, boot.log))

