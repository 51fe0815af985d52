#!/usr/bin/env python3
"""`make run` / `make debug`: boot one Pagoda target with the serial
console on the terminal (Ctrl-A X quits). The command line itself comes
from pagoda.qemu, the accelerator from pagoda.accel, shared with the test
harness and the benchmarks. Standard library only.
"""
import argparse
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pagoda import accel as accel_mod  # noqa: E402
from pagoda.qemu import build_cmd  # noqa: E402


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
    ap.add_argument("--dtb", help="device tree for raspi4b")
    ap.add_argument("--el2", action="store_true",
                    help="arm64 virt: emulate EL2, so the kernel enters there")
    ap.add_argument("--gic", default="2", choices=("2", "3"),
                    help="arm64 virt: the GIC version (2 or 3)")
    ap.add_argument("--disk", action="append", default=[],
                    help="attach a raw disk image (repeatable)")
    ap.add_argument("--disk-bus", default="virtio", choices=("virtio", "sdhci-pci"),
                    help="how disks attach on x86-64 and arm64 virt")
    a = ap.parse_args()
    if a.boot in ("bios", "uefi") and a.cmdline:
        print("qemu: note: BOOT=%s takes CMDLINE from the ISO's grub.cfg "
              "(rebuilt by `make iso CMDLINE=...`)" % a.boot, file=sys.stderr)
    accel, why = accel_mod.choose(a.accel, a.arch, a.kernel)
    cmd, accel = build_cmd(a.arch, a.platform, a.boot, a.smp, a.mem, a.kernel,
                           a.iso, a.cmdline, accel, a.gdb, interactive=True,
                           hmat_cache=a.hmat_cache or None, dtb=a.dtb, el2=a.el2,
                           gic=a.gic, disks=a.disk, disk_bus=a.disk_bus)
    if not shutil.which(cmd[0]):
        sys.exit("qemu: %s not found; run `make deps`" % cmd[0])
    if a.arch == "arm64" and a.platform == "pi4":
        what = "raspi4b (4 CPUs, 2 GiB, fixed by the board)"
    elif a.arch == "arm64":
        what = "virt%s, GICv%s, %s CPUs, %s" % (" at EL2" if a.el2 else "", a.gic, a.smp,
                                               a.mem)
    else:
        what = "%s boot, %s CPUs, %s" % (a.boot, a.smp, a.mem)
    print("qemu: %s, %s (%s); Ctrl-A X quits" % (what, accel.upper(), why),
          file=sys.stderr)
    os.execvp(cmd[0], cmd)


if __name__ == "__main__":
    main()
