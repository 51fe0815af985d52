"""Level 2: the in-kernel suites. Every target boots with test=all (less
common.LAB_SUITES, which the labs unit boots; or the suites
ONLY=TARGET:SUITE names) and its KTAP is read: each case counts, and
so does the boot itself (no hang, no panic, the plan matched, the end
reached), every CPU online, lockdep quiet."""
import re

from .common import (all_suites, check_cpus_online, check_lockdep_clean, ktap_boot, rel,
                     test_cmdline, unit)


# The suites neither a firmware's boot path nor a board can change (locks,
# the block layer and device-mapper on memory disks, pure models): the
# direct x86 boots and arm64 virt's run them; a GRUB boot (BIOS, UEFI) and
# the Pi 4 run the rest, which read what the loader or the board hands
# over (memory map, ACPI's or the device tree's CPUs, the initramfs, the
# command line, the board's devices), and so does arm64 virt's GICv3
# boot. About 20 s of each of six boots.
PLATFORM_INDEPENDENT = ("locking", "lock_fairness", "softlockup", "dm", "dm_ioctl",
                        "dm_snap_format", "block",
                        "disk_integrity", "fio", "mmlab", "cache_model", "page_alloc_policy",
                        "cr_image")


def platform_suites(suites, narrowed):
    """What test= gets: ONLY='s suites, else all, less PLATFORM_INDEPENDENT
    where narrowed."""
    if suites is None and narrowed:
        return all_suites(PLATFORM_INDEPENDENT)
    return suites


def x86_target(name, boot, smp, timeout):
    """x86-64 booted three ways (QEMU -kernel, GRUB under BIOS, GRUB under
    UEFI: the ISOs from tools/mkiso.sh), with 2 and with 4 CPUs."""
    @unit(name, "kernel", needs=["x86_64"], suites=True)
    def run(ctx):
        cmdline = test_cmdline(platform_suites(ctx.suites, boot != "direct"))
        iso = ctx.test_iso(cmdline) if boot != "direct" else None
        b = ctx.boot(ctx.x86_cmd(boot=boot, iso=iso, cmdline=cmdline, smp=smp),
                     name, timeout)
        ktap_boot(ctx.tally, name, b)
        check_cpus_online(ctx.tally, name, b, smp)
        check_lockdep_clean(ctx.tally, name, b)
        # All passed: ACPI power off, QEMU exits 0; any failure: isa-debug-exit
        # with 1, QEMU exits 3 (arch/x86_64/power.c).
        done = "pagoda: done" in b.text
        ctx.tally.check("%s:exit-status" % name, b.status == (0 if done else 3),
                        "QEMU exited %s after %s (log %s)" %
                        (b.status, "success" if done else "failures", rel(b.log)))
    run.__doc__ = "x86-64, %s boot, %d CPUs" % (boot, smp)


for _boot, _timeout in (("direct", 120), ("bios", 180), ("uefi", 300)):
    for _smp in (2, 4):
        x86_target("x86_64-%s-smp%d" % (_boot, _smp), _boot, _smp, _timeout)


def arm64_target(name, platform, smp, gic):
    """arm64 on QEMU virt (PSCI CPU_ON; GICv2, or GICv3) and raspi4b
    (its 4 cores fixed by the board: the spin table); always TCG here."""
    @unit(name, "kernel", needs=["arm64-" + platform], suites=True)
    def run(ctx):
        # GICv3 changes how interrupts and IPIs arrive, which the smp,
        # timer and scheduler suites exercise; the board-free suites ran
        # on the GICv2 boot of the same 4 CPUs (locking alone was 15 s).
        suites = platform_suites(ctx.suites, platform == "pi4" or gic == 3)
        b = ctx.boot(ctx.arm64_cmd(platform, test_cmdline(suites), smp=smp, gic=gic),
                     name, 180)
        ktap_boot(ctx.tally, name, b)
        check_cpus_online(ctx.tally, name, b, smp)
        ctx.tally.check("%s:gic" % name, "arm64: GICv%d up" % gic in b.text,
                        "the GICv%d driver did not come up (log %s)" % (gic, rel(b.log)))
        check_lockdep_clean(ctx.tally, name, b)
        # The exit status comes through semihosting: 0 only if all passed.
        done = "pagoda: done" in b.text
        ctx.tally.check("%s:exit-status" % name, b.status == (0 if done else 1),
                        "QEMU exited %s after %s (log %s)" %
                        (b.status, "success" if done else "failures", rel(b.log)))
    run.__doc__ = "arm64 %s, %d CPUs, GICv%d (TCG)" % (
        "raspi4b" if platform == "pi4" else platform, smp, gic)


for _args in (("arm64-virt-smp2", "virt", 2, 2), ("arm64-virt-smp4", "virt", 4, 2),
              ("arm64-virt-gicv3-smp4", "virt", 4, 3), ("arm64-pi4", "pi4", 4, 2)):
    arm64_target(*_args)


@unit("x86_64-swiotlb-force", "kernel", needs=["x86_64"], suites=True)
def swiotlb_force(ctx):
    """x86-64 direct boot with every DMA mapping bounced through a 1 MiB
    SWIOTLB pool (swiotlb=force swiotlb=512): the DMA API suites pass
    bounced, and swiotlb_dma holds more mappings than the pool has slots,
    so the pool must grow, and then, with mappers on every CPU and shrink
    passes beside them, grow and give pools back under load."""
    name = "x86_64-swiotlb-force"
    cmdline = "swiotlb=force swiotlb=512 " + test_cmdline(
        ctx.suites or "dma,swiotlb,swiotlb_dma,swiotlb_restricted")
    b = ctx.boot(ctx.x86_cmd(boot="direct", cmdline=cmdline, smp=2), name, 120)
    ktap_boot(ctx.tally, name, b)
    check_swiotlb_force(ctx, name, b, cmdline)


def check_swiotlb_force(ctx, name, b, cmdline):
    ctx.tally.check("%s:pool" % name, "swiotlb: 1024 KiB in 512 slots" in b.text,
                    "the 1 MiB boot pool was not set up (log %s)" % rel(b.log))
    check_lockdep_clean(ctx.tally, name, b)
    if "swiotlb_dma" not in cmdline:
        return
    ctx.tally.check("%s:grew" % name, re.search(r"pool 1024 KiB, grew [1-9]", b.text),
                    "the pool did not grow (log %s)" % rel(b.log))
    ctx.tally.check("%s:grew-and-shrank-under-load" % name,
                    re.search(r"mappers x \d+ x 4 KiB: grew [1-9]\d* pools, gave back [1-9]",
                              b.text),
                    "concurrent mappers did not see pools grow and go (log %s)" % rel(b.log))


@unit("arm64-pi4-swiotlb-force", "kernel", needs=["arm64-pi4"], suites=True)
def pi4_swiotlb_force(ctx):
    """raspi4b, 4 CPUs: the same, every DMA mapping bounced through a 1 MiB
    pool that grows and shrinks under four CPUs' mappers (its SD hosts are
    PIO in QEMU, so the disks bounce nothing there)"""
    name = "arm64-pi4-swiotlb-force"
    cmdline = "swiotlb=force swiotlb=512 " + test_cmdline(
        ctx.suites or "dma,swiotlb,swiotlb_dma,swiotlb_restricted")
    b = ctx.boot(ctx.arm64_cmd("pi4", cmdline, smp=4), name, 240)
    ktap_boot(ctx.tally, name, b)
    check_swiotlb_force(ctx, name, b, cmdline)
