"""Level 2, disks: the hardware block drivers under the disk_integrity
suite (drivers/block/disk_integrity_test.c), each on the targets where
QEMU has the device, with scratch images the harness makes under
build/test/disks/ (qemu-img, from qemu-utils) and hands the kernel as
disktest.devs=. Small images keep the run short: the SD hosts move about
2 MiB/s under TCG.

    x86-64 direct, BIOS, UEFI   virtio-blk over PCI (modern, MSI-X, 2 queues),
                                plus (direct) a disk whose sector 4096 QEMU's
                                blkdebug fails to read
    arm64 virt                  virtio-blk over MMIO
    raspi4b                     the EMMC2 and Arasan SD hosts in PIO mode; and
                                the image `make sdcard` writes, read through EMMC2
    x86-64, arm64 virt          sdhci-pci in ADMA2 mode
    x86-64 on QEMU's pc         the i440FX: no ECAM, so PCI through ports;
                                virtio-blk (MSI-X) and sdhci-pci (INTx on an
                                ISA line) in one boot
"""
import os
import re
import subprocess

from .common import OUT, ROOT, ktap_boot, paths, qemu, rel, unit

DISKS = os.path.join(OUT, "disks")
BAD_SECTOR = 4096


def scratch(name, mib):
    """A fresh zeroed raw image (QEMU's SD card wants a power-of-two size)."""
    os.makedirs(DISKS, exist_ok=True)
    path = os.path.join(DISKS, name)
    if os.path.exists(path):
        os.remove(path)
    subprocess.run(["qemu-img", "create", "-q", "-f", "raw", path, "%dM" % mib], check=True)
    return path


def blkdebug_disk(name, mib):
    """An image behind QEMU's blkdebug driver: every read covering
    BAD_SECTOR fails with EIO."""
    img = scratch(name, mib)
    cfg = os.path.join(DISKS, name + ".blkdebug")
    with open(cfg, "w") as f:
        f.write('[inject-error]\nevent = "read_aio"\nerrno = "5"\nsector = "%d"\n'
                'once = "off"\n' % BAD_SECTOR)
    return "blkdebug:%s:%s" % (cfg, img)


def cmdline(devs, extra=""):
    return ("test=disk_integrity panic=-1 lockdep=1 disktest.devs=%s %s"
            % (",".join(devs), extra)).strip()


def check_suite(ctx, name, b, want_cases):
    """The boot counts, each case counts, and the suite must have run on
    the disks (a missing disk skips cases: that is a failure here)."""
    cases = ktap_boot(ctx.tally, name, b)
    skipped = [c[2] for c in cases if c[4] and c[2] in want_cases]
    ctx.tally.check("%s:disks-present" % name, not skipped,
                    "cases skipped for want of a disk: %s (log %s)"
                    % (", ".join(skipped), rel(b.log)))


WRITE_CASES = ("test_patterns_every_offset_and_size", "test_unaligned_buffers",
               "test_concurrent_writers", "test_full_queue_waits", "test_flush",
               "test_beyond_end_refused")


def x86_virtio(name, boot, with_bad, timeout):
    @unit(name, "kernel", needs=["x86_64"])
    def run(ctx):
        disks = [scratch(name + "-vda.img", 64)]
        extra = ""
        if with_bad:
            disks.append(blkdebug_disk(name + "-vdb.img", 16))
            extra = "disktest.bad=vdb:%d" % BAD_SECTOR
        line = cmdline(["vda"], extra)
        iso = ctx.test_iso(line) if boot != "direct" else None
        b = ctx.boot(ctx.x86_cmd(boot=boot, iso=iso, cmdline=line, disks=disks), name,
                     timeout)
        check_suite(ctx, name, b, WRITE_CASES + (("test_injected_error",) if with_bad else ()))
    run.__doc__ = "x86-64 %s boot: virtio-blk over PCI%s" % (
        boot, ", blkdebug errors" if with_bad else "")


x86_virtio("x86_64-direct-virtio-blk", "direct", True, 180)
x86_virtio("x86_64-bios-virtio-blk", "bios", False, 240)
x86_virtio("x86_64-uefi-virtio-blk", "uefi", False, 360)


@unit("x86_64-pc-disks", "kernel", needs=["x86_64"])
def x86_pc(ctx):
    """x86-64 on QEMU's pc (i440FX, no ECAM): virtio-blk and sdhci-pci found
    through port-I/O configuration space, MSI-X and INTx"""
    name = "x86_64-pc-disks"
    vda, sd = scratch(name + "-vda.img", 64), scratch(name + "-sd.img", 32)
    sdhci = qemu.drive_spec(sd, "sd0") + [
        "-device", "sdhci-pci,id=sdhci9",
        "-device", "sd-card,drive=sd0,bus=/i440FX-pcihost/pci.0/sdhci9/sd-bus"]
    b = ctx.boot(ctx.x86_cmd(cmdline=cmdline(["vda", "mmcblk0"]), disks=[vda],
                             machine="pc", extra=sdhci), name, 300)
    check_suite(ctx, name, b, WRITE_CASES)
    ctx.tally.check("%s:conf1" % name,
                    "through port-I/O configuration space (no ECAM)" in b.text,
                    "PCI was not enumerated through ports (log %s)" % rel(b.log))


@unit("arm64-virt-virtio-blk", "kernel", needs=["arm64-virt"])
def virt_virtio(ctx):
    """arm64 virt: virtio-blk over MMIO (TCG)"""
    disks = [scratch("virt-vda.img", 64)]
    b = ctx.boot(ctx.arm64_cmd("virt", cmdline(["vda"]), disks=disks),
                 "arm64-virt-virtio-blk", 240)
    check_suite(ctx, "arm64-virt-virtio-blk", b, WRITE_CASES)


def check_adma2(ctx, name, b):
    """The write suite on an sdhci-pci card, which must have come up in
    ADMA2 mode (the DMA this host is there to test)."""
    check_suite(ctx, name, b, WRITE_CASES)
    ctx.tally.check("%s:adma2" % name, "mmcblk0, 65536 sectors, ADMA2" in b.text,
                    "the card did not come up in ADMA2 mode (log %s)" % rel(b.log))


@unit("x86_64-direct-sdhci-pci", "kernel", needs=["x86_64"])
def x86_sdhci(ctx):
    """x86-64: an SD card behind sdhci-pci, ADMA2 (INTx through the I/O APIC)"""
    disks = [scratch("x86-sd.img", 32)]
    name = "x86_64-direct-sdhci-pci"
    b = ctx.boot(ctx.x86_cmd(cmdline=cmdline(["mmcblk0"]), disks=disks,
                             disk_bus="sdhci-pci"), name, 240)
    check_adma2(ctx, name, b)


@unit("arm64-virt-sdhci-pci", "kernel", needs=["arm64-virt"])
def virt_sdhci(ctx):
    """arm64 virt: an SD card behind sdhci-pci on the PCIe host, ADMA2 (TCG)"""
    disks = [scratch("virt-sd.img", 32)]
    name = "arm64-virt-sdhci-pci"
    b = ctx.boot(ctx.arm64_cmd("virt", cmdline(["mmcblk0"]), disks=disks,
                               disk_bus="sdhci-pci"), name, 300)
    check_adma2(ctx, name, b)


@unit("arm64-pi4-sd", "kernel", needs=["arm64-pi4"])
def pi4_sd(ctx):
    """raspi4b: cards in the EMMC2 slot and on the Arasan host, PIO (TCG)"""
    disks = [scratch("pi4-emmc2.img", 32), scratch("pi4-arasan.img", 16)]
    name = "arm64-pi4-sd"
    b = ctx.boot(ctx.arm64_cmd("pi4", cmdline(["mmcblk0", "mmcblk1"]), disks=disks),
                 name, 400)
    check_suite(ctx, name, b, WRITE_CASES)
    ctx.tally.check("%s:pio" % name, b.text.count("sectors, PIO") == 2,
                    "expected both SD hosts in PIO mode (log %s)" % rel(b.log))


@unit("arm64-pi4-sdcard-image", "kernel", needs=["arm64-pi4"])
def pi4_card_image(ctx):
    """raspi4b: the card `make sdcard` writes, read through the EMMC2 slot"""
    name = "arm64-pi4-sdcard-image"
    img = os.path.join(DISKS, "pagoda-pi4-card.img")
    os.makedirs(DISKS, exist_ok=True)
    log = os.path.join(OUT, name + "-mksdcard.log")
    with open(log, "w") as f:
        r = subprocess.run([os.path.join(ROOT, "tools", "fetch-pi4-firmware.sh"),
                            paths.PI4_FIRMWARE], stdout=f, stderr=subprocess.STDOUT)
        if r.returncode == 0:
            r = subprocess.run([os.path.join(ROOT, "tools", "mksdcard.sh"), img,
                                paths.ARM64_IMAGE["pi4"], paths.PI4_FIRMWARE,
                                os.path.join(ROOT, "boot", "pi4")],
                               stdout=f, stderr=subprocess.STDOUT)
    if not ctx.tally.check("%s:mksdcard" % name, r.returncode == 0,
                           "mksdcard.sh failed (log %s)" % rel(log)):
        return
    line = "test=disk_integrity panic=-1 disktest.pi4card=mmcblk0p1"
    b = ctx.boot(ctx.arm64_cmd("pi4", line, disks=[img]), name, 240)
    cases = ktap_boot(ctx.tally, name, b)
    ran = [c for c in cases if c[2] == "test_pi4_card_image" and not c[4]]
    ctx.tally.check("%s:read" % name, bool(ran),
                    "the card image's check did not run (log %s)" % rel(b.log))


def check_grew_and_shrank(ctx, name, b):
    """swiotlb_dma logs how many pools it grew and how many went back."""
    m = re.search(r"pool 1024 KiB, grew (\d+) pools, gave back (\d+)", b.text)
    ctx.tally.check("%s:grew" % name, m and int(m.group(1)) > 0,
                    "the pool did not grow (log %s)" % rel(b.log))
    ctx.tally.check("%s:shrank" % name, m and int(m.group(2)) > 0,
                    "no grown pool was given back (log %s)" % rel(b.log))


def swiotlb_force_line(devs, suites="disk_integrity,swiotlb_dma"):
    """Every mapping bounced from a 1 MiB pool that grows, and grown pools
    given back after 50 ms idle: the concurrent writers on every CPU run
    while pools come and go."""
    return cmdline(devs, "swiotlb=force swiotlb=512 swiotlb.shrink_ms=50").replace(
        "test=disk_integrity", "test=" + suites)


@unit("x86_64-swiotlb-virtio-blk", "kernel", needs=["x86_64"])
def x86_swiotlb_virtio(ctx):
    """x86-64 direct: disk_integrity on virtio-blk with every DMA mapping
    bounced through SWIOTLB from a 1 MiB pool (swiotlb=force swiotlb=512),
    grown pools given back after 50 ms idle, while writers run on every CPU;
    swiotlb_dma makes the pool grow and shrink; the data must be intact."""
    name = "x86_64-swiotlb-virtio-blk"
    disks = [scratch(name + "-vda.img", 64)]
    line = swiotlb_force_line(["vda"])
    b = ctx.boot(ctx.x86_cmd(boot="direct", cmdline=line, disks=disks), name, 240)
    check_suite(ctx, name, b, WRITE_CASES)
    ctx.tally.check("%s:pool" % name, "swiotlb: 1024 KiB in 512 slots" in b.text,
                    "the 1 MiB boot pool was not set up (log %s)" % rel(b.log))
    check_grew_and_shrank(ctx, name, b)


@unit("arm64-virt-swiotlb-virtio-blk", "kernel", needs=["arm64-virt"])
def virt_swiotlb_virtio(ctx):
    """arm64 virt: the same over virtio-mmio, with the restricted-pool suite"""
    name = "arm64-virt-swiotlb-virtio-blk"
    disks = [scratch(name + "-vda.img", 64)]
    line = swiotlb_force_line(["vda"], "disk_integrity,swiotlb_dma,swiotlb_restricted")
    b = ctx.boot(ctx.arm64_cmd("virt", line, disks=disks), name, 300)
    check_suite(ctx, name, b, WRITE_CASES)
    ctx.tally.check("%s:pool" % name, "swiotlb: 1024 KiB in 512 slots" in b.text,
                    "the 1 MiB boot pool was not set up (log %s)" % rel(b.log))
    check_grew_and_shrank(ctx, name, b)


def natural_bounce(name, target, boot_cmd):
    @unit(name, "kernel", needs=[target])
    def run(ctx):
        disks = [scratch(name + "-sd.img", 32)]
        b = ctx.boot(boot_cmd(ctx, cmdline(["mmcblk0"]), disks), name, 300)
        check_suite(ctx, name, b, WRITE_CASES)
        ctx.tally.check("%s:boot-pool" % name, "swiotlb: 65536 KiB in 32768 slots" in b.text,
                        "no boot pool although RAM reaches above 4 GiB (log %s)" % rel(b.log))
        ctx.tally.check("%s:bounced" % name, re.search(
            r"swiotlb: 0000:\S+ bounces 0x1\w{8}\+\w+ \(beyond its DMA mask 0xffffffff", b.text),
            "the SD host never bounced a buffer from above 4 GiB (log %s)" % rel(b.log))
        ctx.tally.check("%s:not-forced" % name, ", force" not in b.text,
                        "swiotlb was forced (log %s)" % rel(b.log))
    run.__doc__ = ("%s, 6 GiB of RAM: sdhci-pci's 32-bit ADMA2 bounces buffers above "
                   "4 GiB without swiotlb=force" % target)


natural_bounce("x86_64-natural-bounce-sdhci-pci", "x86_64",
               lambda ctx, line, disks: ctx.x86_cmd(cmdline=line, disks=disks, mem="6G",
                                                    disk_bus="sdhci-pci"))
natural_bounce("arm64-virt-natural-bounce-sdhci-pci", "arm64-virt",
               lambda ctx, line, disks: ctx.arm64_cmd("virt", line, disks=disks, mem="6G",
                                                      disk_bus="sdhci-pci"))


@unit("x86_64-restricted-virtio-blk", "kernel", needs=["x86_64"])
def x86_restricted_virtio(ctx):
    """x86-64: virtio-blk given a 256 KiB restricted DMA pool on the command
    line (swiotlb.restricted=256K@virtio0, the name docs/swiotlb.md lists;
    a name no device has is reported): every mapping bounces through it, it never
    grows, a full pool makes requests wait, and the data is intact"""
    name = "x86_64-restricted-virtio-blk"
    disks = [scratch(name + "-vda.img", 64)]
    # By the virtio device's name (its PCI function does the DMA), and a
    # name no device has, which must be reported rather than ignored.
    line = cmdline(["vda"], "swiotlb.restricted=256K@virtio0,256K@virtio9")
    b = ctx.boot(ctx.x86_cmd(boot="direct", cmdline=line, disks=disks), name, 240)
    ctx.tally.check("%s:unknown-name-said" % name,
                    "swiotlb.restricted=...@virtio9: no device has that name" in b.text,
                    "a name matching no device was silently ignored (log %s)" % rel(b.log))
    check_suite(ctx, name, b, WRITE_CASES)
    ctx.tally.check("%s:restricted" % name, re.search(
        r"swiotlb: 0000:00:02.0 bounces only through \w+\+0x40000 \(restricted", b.text),
                    "the disk did not get its restricted pool (log %s)" % rel(b.log))
    ctx.tally.check("%s:never-grew" % name, "swiotlb: could not grow" not in b.text and
                    "transient" not in b.text,
                    "a restricted pool grew (log %s)" % rel(b.log))
