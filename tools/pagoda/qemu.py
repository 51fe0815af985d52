"""The QEMU command line for one boot of one Pagoda target.

`make run` and `make debug` (through tools/qemu.py), the test harness, the
benchmarks and the experiment all boot through build_cmd(), so every place
boots a target the same way. The accelerator is chosen by the caller
(pagoda.accel): build_cmd takes "kvm" or "tcg" as it is.
"""
import os
import sys

OVMF_CANDIDATES = ["/usr/share/ovmf/OVMF.fd", "/usr/share/OVMF/OVMF_CODE.fd",
                   "/usr/share/qemu/OVMF.fd"]


def ovmf_path():
    for p in OVMF_CANDIDATES:
        if os.path.exists(p):
            return p
    sys.exit("qemu: no OVMF firmware found (install the ovmf package)")


def arm64_cmd(platform, smp, mem, kernel, dtb, cmdline, el2, gic=2):
    """QEMU for arm64: always TCG on an x86 host.

    Both platforms take the raw Image (kernel8.img): QEMU reads its arm64
    header, loads it at RAM base + text_offset and enters it with x0 = the
    device tree. -semihosting lets the kernel report an exit status.
    virt's interrupt controller is a GICv2 unless gic=3.
    """
    if platform == "virt":
        machine = "virt,gic-version=%s" % gic + (",virtualization=on" if el2 else "")
        cmd = ["qemu-system-aarch64", "-machine", machine, "-cpu", "cortex-a72",
               "-m", str(mem), "-smp", str(smp), "-nic", "none"]
    elif platform == "pi4":
        # The board fixes its own RAM (2 GiB) and CPUs (4); it boots at EL2
        # and parks CPUs 1-3 on the spin table, like the Pi firmware.
        if not dtb or not os.path.exists(dtb):
            sys.exit("qemu: raspi4b needs the Pi 4 device tree (%s); run "
                     "`make pi4-firmware`" % dtb)
        cmd = ["qemu-system-aarch64", "-machine", "raspi4b", "-dtb", dtb]
    else:
        sys.exit("qemu: unknown arm64 PLATFORM=%s (virt or pi4)" % platform)
    # MTTCG: one host thread per virtual CPU, as on x86.
    cmd += ["-accel", "tcg,thread=multi", "-semihosting", "-kernel", kernel]
    if cmdline:
        cmd += ["-append", cmdline]
    return cmd


DISK_BUSES = ("virtio", "sdhci-pci", "sd")


def drive_spec(path, ident, fmt=None):
    """A -drive for one image. A path may be a QEMU blkdebug spec
    ("blkdebug:CONFIG:IMAGE"), which injects errors; it is then raw underneath."""
    if not path.startswith("blkdebug:") and not os.path.exists(path):
        sys.exit("qemu: disk image %s does not exist (make one with "
                 "`qemu-img create -f raw %s 64M`)" % (path, path))
    if path.startswith("blkdebug:"):
        parts = path.split(":", 2)
        if len(parts) != 3 or not os.path.exists(parts[1]) or not os.path.exists(parts[2]):
            sys.exit("qemu: %s: want blkdebug:CONFIG:IMAGE with both files present" % path)
    return ["-drive", "if=none,id=%s,file=%s,format=%s,cache=writeback"
            % (ident, path, fmt or "raw")]


def disk_args(arch, platform, disks, bus="virtio", machine="q35"):
    """QEMU arguments that attach each disk image in turn.

    virtio: x86-64 and arm64 virt get modern virtio-blk; on x86 over PCI
    (disable-legacy=on: device id 0x1042, two request queues), on virt over
    MMIO (version 2 windows need force-legacy=false). sdhci-pci: an SD card
    behind a PCI SDHCI controller (ADMA2), x86-64 and virt. On raspi4b the
    first image is the card in the EMMC2 slot (the real Pi 4's SD slot), the
    second the card on the Arasan SDHCI; `bus` does not apply there.
    """
    args = []
    if not disks:
        return args
    if arch == "arm64" and platform == "pi4":
        if len(disks) > 2:
            sys.exit("qemu: raspi4b has two SD slots; %d disks given" % len(disks))
        args += drive_spec(disks[0], "e2")
        args += ["-device", "sd-card,drive=e2,bus=/generic-sdhci/sd-bus"]
        if len(disks) == 2:
            if not os.path.exists(disks[1]):
                sys.exit("qemu: disk image %s does not exist" % disks[1])
            args += ["-drive", "if=sd,file=%s,format=raw,cache=writeback" % disks[1]]
        return args
    if bus not in DISK_BUSES or bus == "sd":
        sys.exit("qemu: DISK_BUS=%s is not one of virtio, sdhci-pci" % bus)
    if arch == "arm64":
        args += ["-global", "virtio-mmio.force-legacy=false"]
    # virt hands virtio-mmio transports to -device lines from the highest
    # address down, and the guest (Pagoda, or Linux) numbers disks in
    # address order: the last image would be vda. Attach them last first,
    # so that the first image given is vda, as on x86.
    order = list(enumerate(disks))
    if arch == "arm64" and bus == "virtio":
        order.reverse()
    for i, path in order:
        ident = "disk%d" % i
        args += drive_spec(path, ident)
        if bus == "sdhci-pci":
            # The card's bus is named by its path from the host bridge.
            host = ("gpex-pcihost/pcie.0" if arch == "arm64" else
                    "i440FX-pcihost/pci.0" if machine == "pc" else "q35-pcihost/pcie.0")
            args += ["-device", "sdhci-pci,id=sdhci%d" % i,
                     "-device", "sd-card,drive=%s,bus=/%s/sdhci%d/sd-bus"
                     % (ident, host, i)]
        elif arch == "arm64":
            args += ["-device", "virtio-blk-device,drive=%s" % ident]
        else:
            args += ["-device", "virtio-blk-pci,drive=%s,disable-legacy=on,"
                     "num-queues=2" % ident]
    return args


def build_cmd(arch="x86_64", platform="pc", boot="direct", smp=2, mem="1G",
              kernel=None, iso=None, cmdline="", accel="tcg", gdb=False,
              interactive=False, extra=(), hmat_cache=None, dtb=None, el2=False,
              gic=2, disks=(), disk_bus="virtio", machine="q35"):
    """Return (argv, accel) for one boot of one target.

    accel is "kvm" or "tcg" (pagoda.accel.choose() decides between them);
    arm64 always runs under TCG on this x86 host.
    """
    extra = list(extra) + disk_args(arch, platform, list(disks), disk_bus, machine)
    if arch == "arm64":
        cmd, accel = arm64_cmd(platform, smp, mem, kernel, dtb, cmdline, el2, gic), "tcg"
        return finish_cmd(cmd, interactive, gdb, extra), accel
    if arch != "x86_64":
        sys.exit("qemu: unknown ARCH=%s (x86_64 or arm64)" % arch)
    if accel not in ("kvm", "tcg"):
        sys.exit("qemu: unknown accelerator %r (kvm or tcg)" % accel)
    if machine not in ("q35", "pc"):
        # q35: ICH9 with PCI Express (ECAM); pc: the i440FX, PCI through ports.
        sys.exit("qemu: MACHINE=%s is not one of q35, pc" % machine)
    cmd = ["qemu-system-x86_64", "-machine", machine, "-m", str(mem),
           "-smp", str(smp), "-nic", "none",
           "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04"]
    if accel == "kvm":
        # The host's CPU model, less IA32_ARCH_CAPABILITIES: some hosts
        # (nested virtualization) refuse to let QEMU set that MSR.
        cmd += ["-accel", "kvm", "-cpu", "host,-arch-capabilities"]
    else:
        # MTTCG: one host thread per virtual CPU, so -smp N really runs
        # N CPUs at once (locks see real contention).
        cmd += ["-accel", "tcg,thread=multi", "-cpu", "max"]
    if hmat_cache:
        # One NUMA node with a direct-mapped memory-side cache in front of
        # it, described in ACPI HMAT: what turns the page shuffle on.
        cmd[2] = machine + ",hmat=on"
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
    return finish_cmd(cmd, interactive, gdb, extra), accel


def finish_cmd(cmd, interactive, gdb, extra):
    """The serial console and monitor wiring every target shares."""
    if interactive:
        cmd += ["-nographic", "-serial", "mon:stdio"]
    else:
        # Scripted runs end at a reset too (panic=-1 reboots): QEMU exits.
        cmd += ["-display", "none", "-monitor", "none", "-serial", "stdio",
                "-no-reboot"]
    if gdb:
        cmd += ["-s", "-S"]
    cmd += list(extra)
    return cmd
