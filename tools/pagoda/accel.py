"""KVM or TCG for the x86-64 guests, decided once per machine.

KVM is not always the fast choice: under nested virtualization (most cloud
VMs and CI runners) every VM exit can cost a millisecond, and this kernel
then boots tens of times slower than under TCG's emulation. So a usable
/dev/kvm is not enough: a short probe boot under each decides, and the
verdict is kept in build/accel.verdict, so `make run`, `make test`,
`make bench` and the rest choose the same way without probing again.
Delete that file to probe again; ACCEL=kvm|tcg (or PAGODA_ACCEL) overrides.
arm64 guests always run under TCG on this x86 host.
"""
import json
import os
import re
import subprocess
import sys

from . import paths
from .boot import Boot
from .qemu import build_cmd

VERDICT = os.path.join(paths.BUILD, "accel.verdict")
CHOICES = ("auto", "kvm", "tcg")


def kvm_usable():
    return os.access("/dev/kvm", os.R_OK | os.W_OK)


def uefi_kvm_problem():
    """Why OVMF cannot run under this machine's KVM, or None.

    Under PVM (the kvm_pvm module: KVM without hardware virtualization, as
    some cloud VMs provide it) the guest's firmware code is run by KVM's
    instruction emulator, which has no FWAIT: OVMF stops in its first FPU
    setup (FWAIT; FNINIT at the start of SEC) with "KVM internal error.
    Suberror: 1 ... emulation failure", and QEMU then sits paused.
    SeaBIOS gets through, only slowly.
    """
    if os.path.isdir("/sys/module/kvm_pvm"):
        return ("this machine's KVM is PVM (kvm_pvm), whose instruction emulator "
                "stops in OVMF's FPU setup (KVM internal error: emulation failure)")
    return None


def check(value, source="ACCEL"):
    """A mistyped accelerator is an error, never silently something else."""
    if value not in CHOICES:
        raise SystemExit("%s=%s: not an accelerator; use %s" %
                         (source, value, ", ".join(CHOICES)))
    return value


def emulation_failure(text, kernel):
    """The instruction KVM's emulator gave up on, from QEMU's report, or None.

    "KVM internal error. Suberror: 1 ... emulation failure" comes with the
    registers: RIP names the place (a symbol of kernel), objdump the
    instruction. Under PVM the guest's kernel code runs through that
    emulator, and it lacks many instructions (CRC32, FWAIT, ...).
    """
    if "KVM internal error" not in text:
        return None
    m = re.search(r"RIP=([0-9a-f]{16})", text)
    if not m:
        return "KVM internal error (no registers printed)"
    rip = int(m.group(1), 16)
    where, insn = "RIP %x" % rip, ""
    try:
        syms = subprocess.run(["nm", "-n", kernel], capture_output=True, text=True).stdout
        best = None
        for line in syms.splitlines():
            f = line.split()
            if len(f) == 3 and f[1] in "tTwW" and int(f[0], 16) <= rip:
                best = (f[2], rip - int(f[0], 16))
        if best:
            where = "%s+%#x" % best
        dis = subprocess.run(["objdump", "-d", "--start-address=%#x" % rip,
                              "--stop-address=%#x" % (rip + 15), kernel],
                             capture_output=True, text=True).stdout
        d = re.search(r"^\s*%x:\s+(?:[0-9a-f]{2} )+\s*(\S+)" % rip, dis, re.M)
        if d:
            insn = d.group(1) + " "
    except (OSError, ValueError):
        pass
    return "its instruction emulator cannot run %sat %s (KVM internal error: emulation " \
        "failure)" % (insn, where)


def probe(kernel=paths.X86_KERNEL):
    """Boot test=params under TCG, then under KVM; return (accel, why, broken).

    broken: why KVM cannot run Pagoda at all here (so ACCEL=kvm is refused),
    or None when it merely is slower.
    """
    print("accel: /dev/kvm is usable; timing one short boot under TCG and under KVM "
          "(once: the verdict is kept in %s)" % paths.rel(VERDICT), file=sys.stderr)
    probes, limit, text = {}, 30, ""
    for accel in ("tcg", "kvm"):
        cmd = build_cmd(accel=accel, kernel=kernel, cmdline="test=params panic=-1")[0]
        # A KVM that cannot run the kernel stops with an internal error and
        # QEMU then sits paused: stop at that line rather than wait.
        b = Boot(cmd, os.path.join(paths.BUILD, "accel-probe-%s.log" % accel), limit,
                 [(r"KVM internal error[\s\S]*?Code=", "")], stop_after_script=True).run()
        good = "pagoda: done" in b.text and "KVM internal error" not in b.text
        probes[accel] = b.seconds if good else None
        text = b.clean_text()
        if good:
            # KVM has to be about as fast as this to be worth it (under
            # nested virtualization it is tens of times slower), but is
            # given a few seconds to show why not.
            limit = max(1.5 * b.seconds + 0.5, 5.0)
    tcg = probes["tcg"]
    failure = emulation_failure(text, kernel)
    if failure:
        return "tcg", "KVM cannot run Pagoda here: %s (log %s)" % (
            failure, paths.rel(os.path.join(paths.BUILD, "accel-probe-kvm.log"))), failure
    if probes["kvm"] is None:
        if tcg is not None:
            return "tcg", ("KVM is slower than emulation here (probe boot not done "
                           "in %.1fs, %.1fs under TCG: nested virtualization?)"
                           % (limit, tcg)), None
        return "tcg", "the KVM probe boot failed (log build/accel-probe-kvm.log)", None
    if tcg is not None and probes["kvm"] > 1.5 * tcg + 0.5:
        return "tcg", "KVM is slower than emulation here (probe boot %.1fs under KVM, " \
            "%.1fs under TCG)" % (probes["kvm"], tcg), None
    return "kvm", "probe boot %.1fs under KVM, %.1fs under TCG" % (
        probes["kvm"], tcg or 0.0), None


def verdict(kernel=paths.X86_KERNEL):
    """The cached verdict, probing first if there is none: (accel, why, broken)."""
    try:
        with open(VERDICT) as f:
            v = json.load(f)
        if v.get("accel") in ("kvm", "tcg"):
            return v["accel"], "%s; cached in %s" % (v["why"], paths.rel(VERDICT)), \
                v.get("broken")
    except (OSError, ValueError):
        pass
    if not os.path.exists(kernel):
        return "tcg", "no kernel yet to probe KVM with", None
    accel, why, broken = probe(kernel)
    os.makedirs(paths.BUILD, exist_ok=True)
    with open(VERDICT, "w") as f:
        json.dump({"accel": accel, "why": why, "broken": broken}, f)
    return accel, why, broken


def choose(requested="auto", arch="x86_64", kernel=paths.X86_KERNEL, boot="direct"):
    """Return (accel, why): why is one short clause saying how it was chosen."""
    check(requested)
    if arch != "x86_64":
        return "tcg", "arm64 guests run under TCG on this host"
    if boot == "uefi" and kvm_usable():
        problem = uefi_kvm_problem()
        if problem and requested == "kvm":
            raise SystemExit("ACCEL=kvm BOOT=uefi: %s; use ACCEL=tcg" % problem)
        if problem:
            return "tcg", "UEFI: " + problem
    if requested == "kvm" and kvm_usable():
        # Refused where it cannot work, with what the probe saw.
        broken = verdict(kernel)[2]
        if broken:
            raise SystemExit("ACCEL=kvm: this machine's KVM cannot run Pagoda: %s; use "
                             "ACCEL=tcg (or delete %s to probe again)"
                             % (broken, paths.rel(VERDICT)))
    if requested != "auto":
        return requested, "ACCEL=%s" % requested
    forced = os.environ.get("PAGODA_ACCEL")
    if forced:
        check(forced, "PAGODA_ACCEL")
        if forced == "kvm" and boot == "uefi" and uefi_kvm_problem():
            return "tcg", "UEFI: " + uefi_kvm_problem()
        if forced != "auto":
            return forced, "PAGODA_ACCEL=%s" % forced
    if not kvm_usable():
        return "tcg", "/dev/kvm not usable"
    accel, why, _ = verdict(kernel)
    return accel, why
