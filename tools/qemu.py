#!/usr/bin/env python3
"""Build and run the QEMU command line for a Pagoda target.

Used by `make run` / `make debug` (interactive, serial on the terminal,
Ctrl-A X quits) and imported by the test harness and the benchmark driver,
so every place boots a target the same way. Standard library only.
"""
import argparse
import os
import shutil
import sys

OVMF_CANDIDATES = ["/usr/share/ovmf/OVMF.fd", "/usr/share/OVMF/OVMF_CODE.fd",
                   "/usr/share/qemu/OVMF.fd"]


def kvm_usable():
    return os.access("/dev/kvm", os.R_OK | os.W_OK)


def pick_accel(requested="auto"):
    if requested != "auto":
        return requested
    return "kvm" if kvm_usable() else "tcg"


def ovmf_path():
    for p in OVMF_CANDIDATES:
        if os.path.exists(p):
            return p
    sys.exit("qemu: no OVMF firmware found (install the ovmf package)")


def build_cmd(arch="x86_64", platform="pc", boot="direct", smp=2, mem="1G",
              kernel=None, iso=None, cmdline="", accel="auto", gdb=False,
              interactive=False, extra=(), hmat_cache=None):
    """Return (argv, accel) for one boot of one target."""
    accel = pick_accel(accel)
    if arch != "x86_64":
        sys.exit("qemu: ARCH=%s is not supported yet" % arch)
    cmd = ["qemu-system-x86_64", "-machine", "q35", "-m", str(mem),
           "-smp", str(smp), "-nic", "none",
           "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04"]
    if accel == "kvm":
        # The host's CPU model, less IA32_ARCH_CAPABILITIES: some hosts
        # (nested virtualization) refuse to let QEMU set that MSR.
        cmd += ["-accel", "kvm", "-cpu", "host,-arch-capabilities"]
    else:
        cmd += ["-accel", "tcg", "-cpu", "max"]
    if hmat_cache:
        # One NUMA node with a direct-mapped memory-side cache in front of
        # it, described in ACPI HMAT: what turns the page shuffle on.
        cmd[2] = "q35,hmat=on"
        cmd += ["-object", "memory-backend-ram,size=%s,id=m0" % mem,
                "-numa", "node,nodeid=0,memdev=m0,initiator=0",
                "-numa", "cpu,node-id=0,socket-id=0"]
        for kind, val in (("access-latency", "latency=10"),
                          ("access-bandwidth", "bandwidth=10G")):
            cmd += ["-numa", "hmat-lb,initiator=0,target=0,hierarchy=memory,"
                    "data-type=%s,%s" % (kind, val)]
        cmd += ["-numa", "hmat-cache,node-id=0,size=%s,level=1,"
                "associativity=direct,policy=write-back,line=64" % hmat_cache]
    if boot == "direct":
        cmd += ["-kernel", kernel]
        if cmdline:
            cmd += ["-append", cmdline]
    elif boot in ("bios", "uefi"):
        cmd += ["-drive", "file=%s,format=raw,media=cdrom,readonly=on" % iso,
                "-boot", "d"]
        if boot == "uefi":
            cmd += ["-bios", ovmf_path()]
    else:
        sys.exit("qemu: unknown BOOT=%s (direct, bios or uefi)" % boot)
    if interactive:
        cmd += ["-nographic", "-serial", "mon:stdio"]
    else:
        # Scripted runs end at a reset too (panic=-1 reboots): QEMU exits.
        cmd += ["-display", "none", "-monitor", "none", "-serial", "stdio",
                "-no-reboot"]
    if gdb:
        cmd += ["-s", "-S"]
    cmd += list(extra)
    return cmd, accel


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--arch", default="x86_64")
    ap.add_argument("--platform", default="pc")
    ap.add_argument("--boot", default="direct")
    ap.add_argument("--smp", default="2")
    ap.add_argument("--mem", default="1G")
    ap.add_argument("--kernel")
    ap.add_argument("--iso")
    ap.add_argument("--cmdline", default="")
    ap.add_argument("--accel", default="auto")
    ap.add_argument("--gdb", action="store_true")
    ap.add_argument("--hmat-cache", default="",
                    help="describe a direct-mapped memory-side cache of this size")
    a = ap.parse_args()
    if a.boot in ("bios", "uefi") and a.cmdline:
        print("qemu: note: BOOT=%s takes CMDLINE from the ISO's grub.cfg "
              "(rebuilt by `make iso CMDLINE=...`)" % a.boot, file=sys.stderr)
    cmd, accel = build_cmd(a.arch, a.platform, a.boot, a.smp, a.mem, a.kernel,
                           a.iso, a.cmdline, a.accel, a.gdb, interactive=True,
                           hmat_cache=a.hmat_cache or None)
    if not shutil.which(cmd[0]):
        sys.exit("qemu: %s not found; run `make deps`" % cmd[0])
    print("qemu: %s boot, %s, %s CPUs, %s; Ctrl-A X quits" %
          (a.boot, accel.upper(), a.smp, a.mem), file=sys.stderr)
    os.execvp(cmd[0], cmd)


if __name__ == "__main__":
    main()
