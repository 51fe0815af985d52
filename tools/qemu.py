#!/usr/bin/env python3
"""`make run` / `make debug`: boot one Pagoda target with the serial
console on the terminal (Ctrl-A X quits). The command line itself comes
from pagoda.qemu, the accelerator from pagoda.accel, shared with the test
harness and the benchmarks. Standard library only.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pagoda import accel as accel_mod, paths  # noqa: E402
from pagoda.qemu import build_cmd  # noqa: E402


# Every per-CPU array in the kernel is NR_CPUS long (include/pagoda/smp.h).
NR_CPUS = 16
# Below this the kernel has no room for its page tables and allocators.
MIN_MEM_MIB = 16


def mib(value):
    """QEMU's size syntax as we accept it: a number of MiB, or with M or G."""
    m = re.fullmatch(r"(\d+)([MG]?)", value)
    if not m:
        return None
    return int(m.group(1)) * (1024 if m.group(2) == "G" else 1)


def check_knobs(a):
    """SMP=, MEM= and HMAT= as `make run` passes them: one clear line each."""
    if not a.smp.isdigit() or not 1 <= int(a.smp) <= NR_CPUS:
        sys.exit("qemu: SMP=%s: Pagoda runs 1 to %d CPUs (NR_CPUS)" % (a.smp, NR_CPUS))
    size = mib(a.mem)
    if size is None or size < MIN_MEM_MIB:
        sys.exit("qemu: MEM=%s: give at least %dM, as a number with M or G (MEM=512M, MEM=2G)"
                 % (a.mem, MIN_MEM_MIB))
    if a.hmat_cache:
        cache = mib(a.hmat_cache)
        if cache is None or not 0 < cache < size:
            sys.exit("qemu: HMAT=%s: the memory-side cache's size, with M or G, smaller "
                     "than MEM=%s (HMAT=64M)" % (a.hmat_cache, a.mem))


def gdb_hint(a, accel):
    """The GDB command that works for this target and accelerator: under
    KVM a software breakpoint cannot be planted before the guest has set up
    its page tables (GDB's write goes through them), so use a hardware one."""
    brk = "hbreak" if accel == "kvm" else "break"
    return ("%s %s -ex 'target remote localhost:1234' -ex '%s start_kernel' -ex continue"
            % (a.gdb_cmd or "gdb", a.elf or a.kernel, brk))


def initrd_module(a):
    """The -initrd module for INITRD=, ADD= and ROOTFS=, or None.

    The kernel unpacks every archive of a module back to back, after its
    built-in one (docs/processes.md), so ADD='s files become one more
    archive appended to INITRD='s, and ROOTFS='s directory one more after
    that (a later archive's file replaces an earlier one's). Boot loaders: QEMU's own only (direct
    x86 and both arm64 boards); the ISO's GRUB has its module list fixed.
    """
    if not a.initrd and not a.add and not a.rootfs:
        return None
    if a.boot != "direct":
        sys.exit("qemu: INITRD=, ADD= and ROOTFS= go with BOOT=direct (QEMU loads the archive); "
                 "the ISO's GRUB has no room for it")
    blob = b""
    for initrd in a.initrd:
        if not os.path.isfile(initrd):
            sys.exit("qemu: INITRD=%s: no such file" % initrd)
        with open(initrd, "rb") as f:
            data = f.read()
        if data[:6] not in (b"070701", b"070702"):
            sys.exit("qemu: INITRD=%s is not a newc cpio archive (Pagoda has no "
                     "decompressors: `cpio -o -H newc`, uncompressed)" % initrd)
        blob += b"\0" * (-len(blob) % 4) + data
    if a.add:
        pairs = []
        for spec in a.add:
            path, _, name = spec.partition("=")
            if not os.path.isfile(path):
                sys.exit("qemu: ADD=%s: no such file" % path)
            name = name or "/bin/" + os.path.basename(path)
            if not name.startswith("/"):
                sys.exit("qemu: ADD=%s: the name in the initramfs must start with /" % spec)
            pairs.append("%s=%s" % (name.lstrip("/"), path))
        added = os.path.join(paths.BUILD, "run-add.cpio")
        os.makedirs(paths.BUILD, exist_ok=True)
        r = subprocess.run([sys.executable, os.path.join(os.path.dirname(__file__), "mkcpio.py"),
                            added] + pairs)
        if r.returncode:
            sys.exit(r.returncode)
        with open(added, "rb") as f:
            blob += b"\0" * (-len(blob) % 4) + f.read()
    if a.rootfs:
        packed = os.path.join(paths.BUILD, "run-rootfs.cpio")
        os.makedirs(paths.BUILD, exist_ok=True)
        r = subprocess.run([sys.executable, os.path.join(os.path.dirname(__file__), "mkcpio.py"),
                            packed, "--tree", a.rootfs])
        if r.returncode:
            sys.exit(r.returncode)
        with open(packed, "rb") as f:
            blob += b"\0" * (-len(blob) % 4) + f.read()
    out = os.path.join(paths.BUILD, "run-initrd.cpio")
    with open(out, "wb") as f:
        f.write(blob)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--arch", default="x86_64")
    ap.add_argument("--platform", default="pc")
    ap.add_argument("--boot", default="direct")
    ap.add_argument("--machine", default="q35", help="x86-64: q35 or pc")
    ap.add_argument("--smp", default="2")
    ap.add_argument("--mem", default="1G")
    ap.add_argument("--kernel")
    ap.add_argument("--iso")
    ap.add_argument("--cmdline", default="")
    ap.add_argument("--accel", default="auto")
    ap.add_argument("--gdb", action="store_true", help="wait for GDB on port 1234")
    ap.add_argument("--gdb-cmd", help="the debugger to name in the hint (gdb-multiarch)")
    ap.add_argument("--elf", help="the ELF with symbols, for the hint")
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
    ap.add_argument("--initrd", action="append", default=[],
                    help="a newc archive for the initramfs (repeatable: read in order)")
    ap.add_argument("--add", action="append", default=[],
                    help="HOST-PATH[=/NAME]: a file into the initramfs (repeatable)")
    ap.add_argument("--rootfs", default="",
                    help="a host directory packed into the initramfs as / (tools/add-binary.sh)")
    a = ap.parse_args()
    if a.arch != "arm64" or a.platform != "pi4":
        check_knobs(a)
    initrd = initrd_module(a)
    accel, why = accel_mod.choose(a.accel, a.arch, a.kernel, a.boot)
    cmd, accel = build_cmd(a.arch, a.platform, a.boot, a.smp, a.mem, a.kernel,
                           a.iso, a.cmdline, accel, a.gdb, interactive=True,
                           hmat_cache=a.hmat_cache or None, dtb=a.dtb, el2=a.el2,
                           gic=a.gic, disks=a.disk, disk_bus=a.disk_bus,
                           machine=a.machine, extra=["-initrd", initrd] if initrd else [])
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
    if a.gdb:
        print("qemu: waiting for GDB. In another terminal run:\n  %s" % gdb_hint(a, accel),
              file=sys.stderr)
    os.execvp(cmd[0], cmd)


if __name__ == "__main__":
    main()
