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


def probe(kernel=paths.X86_KERNEL):
    """Boot test=params under TCG, then under KVM; return (accel, why)."""
    print("accel: /dev/kvm is usable; timing one short boot under TCG and under KVM "
          "(once: the verdict is kept in %s)" % paths.rel(VERDICT), file=sys.stderr)
    probes, limit = {}, 30
    for accel in ("tcg", "kvm"):
        cmd = build_cmd(accel=accel, kernel=kernel, cmdline="test=params panic=-1")[0]
        b = Boot(cmd, os.path.join(paths.BUILD, "accel-probe-%s.log" % accel), limit).run()
        good = not b.timed_out and "pagoda: done" in b.text
        probes[accel] = b.seconds if good else None
        if good:
            # KVM has to be about as fast as this to be worth it (under
            # nested virtualization it is tens of times slower); no need
            # to wait for it longer.
            limit = 1.5 * b.seconds + 0.5
    if probes["kvm"] is None:
        if probes["tcg"] is not None:
            return "tcg", ("KVM is slower than emulation here (probe boot not done "
                           "in %.1fs, %.1fs under TCG: nested virtualization?)"
                           % (limit, probes["tcg"]))
        return "tcg", "the KVM probe boot failed (log build/accel-probe-kvm.log)"
    return "kvm", "probe boot %.1fs under KVM, %.1fs under TCG" % (
        probes["kvm"], probes["tcg"] or 0.0)


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
    try:
        with open(VERDICT) as f:
            v = json.load(f)
        if v.get("accel") in ("kvm", "tcg"):
            return v["accel"], "%s; cached in %s" % (v["why"], paths.rel(VERDICT))
    except (OSError, ValueError):
        pass
    if not os.path.exists(kernel):
        return "tcg", "no kernel yet to probe KVM with"
    accel, why = probe(kernel)
    os.makedirs(paths.BUILD, exist_ok=True)
    with open(VERDICT, "w") as f:
        json.dump({"accel": accel, "why": why}, f)
    return accel, why
