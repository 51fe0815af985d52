"""Level 3, hibernation across QEMU restarts (kernel/power/, docs/hibernation.md).

A boot builds up state (commands typed at the shell, a kernel thread that
counts, 64 MiB of patterned pages), then `hibernate` writes the image to
the resume device and powers off; QEMU ends. A new QEMU on the same disk,
same command line, resumes: the shell carries on (the next prompt, the
same history, no new welcome), the thread has counted on, the pattern is
intact and the clock continues. A third boot finds the signature erased.

    system-hibernate-x86_64      resume=vda2 (a partition, MBR), 2 CPUs, a user
                                 process and a dm device through it
    system-hibernate-arm64-virt  resume=vda (the whole disk), 2 CPUs
    system-hibernate-arm64-pi4   resume=mmcblk0 (the SD card), maxcpus=1 (its
                                 spin-table CPUs cannot be started twice:
                                 with all four, hibernate is refused and an
                                 image is kept, not resumed); 4 MiB of
                                 pattern, as QEMU's SD host moves data by PIO
    system-hibernate-refused     x86-64: a flipped data byte, a damaged
                                 header, another kernel build (forged, and
                                 the real VDSO_LAYOUT=alt kernel), a truncated
                                 device, foreign data: each refused with its
                                 reason, and the machine boots normally
    system-hibernate-crash       x86-64: QEMU killed during the image write
                                 (stopped at 10% and 90% by hibernate.stall_at),
                                 an older image on the device:
                                 the next boot starts fresh and says why
"""
import os
import re
import shutil
import struct

from .common import paths, rel, unit
from .disks import scratch

DISK_MIB = 160
PART_START = 2048          # sectors: partition 1, 4 MiB, unused
PART2_START = 2048 + 8192  # partition 2: the resume partition, the rest


def mbr(path, mib):
    """Two primary partitions: a small Linux one and the rest as Linux swap."""
    total = mib * 2048
    entries = b""
    for start, size, ptype in ((PART_START, 8192, 0x83),
                               (PART2_START, total - PART2_START, 0x82)):
        entries += struct.pack("<B3sB3sII", 0, b"\0\0\0", ptype, b"\0\0\0", start, size)
    sector = bytearray(512)
    sector[446:446 + 64] = entries + bytes(64 - len(entries))
    sector[510:512] = b"\x55\xaa"
    with open(path, "r+b") as f:
        f.write(sector)


def line(dev, extra=""):
    return "resume=%s panic=-1 %s" % (dev, extra)


# x86-64 also leaves a user process running through it (a musl program in a
# clock_gettime loop): after the resume it is still there, and ends by the
# signal it is sent, not by a fault. And a device-mapper device on the
# disk's first partition, written before: after the resume it is still
# there, reads back what was written, and takes new writes.
USER_PROG = "run /bin/libctest-musl clock 100000000000 &\r"
DM_BEFORE = ["dmsetup create lin --table '0 8192 linear vda1 0'\r", "blk write dm-0 0 64 9\r"]
DM_AFTER = ["dmsetup status lin\r", "blk verify dm-0 0 64 9\r", "blk write dm-0 64 8 3\r",
            "blk verify dm-0 64 8 3\r"]


def first_session(with_process, fill_mib, hib_cmd="hibernate"):
    extra = [USER_PROG] + DM_BEFORE if with_process else []
    return [(r"pagoda> ", x) for x in extra] + [
        (r"pagoda> ", "hibstate counter\r"),
        (r"pagoda> ", "hibstate fill %d 7\r" % fill_mib),
        (r"pagoda> ", "uptime\r"),
        (r"pagoda> ", hib_cmd + "\r")]


def second_session(with_process, after_cmds=()):
    seen = {}

    def remember(m):
        seen["pid"] = m.group(1)
        return ""
    tail = [(r"pagoda> ", "poweroff\r")]
    if with_process:
        tail = [(r"pagoda> ", "ps\r"),
                (r"\n +(\d+) +\d+ +[RS] +\d+ libctest-musl", remember),
                (r"pagoda> ", lambda m: "kill %s\r" % seen["pid"]),
                # Its end, not the next prompt: the process notices the
                # signal at its CPU's next tick, and a full run once
                # powered off first while the host held that vCPU back.
                (r"killed by signal", "\r"),
                (r"pagoda> ", "poweroff\r")]
    return [(r"pagoda> ", "hibstate counter\r"),
            (r"pagoda> ", "hibstate check\r"),
            (r"pagoda> ", "uptime\r"),
            (r"pagoda> ", "history\r")] + \
        [(r"pagoda> ", x) for x in (DM_AFTER if with_process else [])] + \
        [(r"pagoda> ", x) for x in after_cmds] + tail


def counter_of(text):
    m = re.findall(r"hibstate: counter (\d+) at uptime (\d+) ms", text)
    return [(int(a), int(b)) for a, b in m]


def uptime_of(text):
    return [float(x) for x in re.findall(r"up (\d+\.\d+) s", text)]


def hibernate_unit(name, needs, make_cmd, dev, partitioned, with_process, fill_mib=64,
                   disk_mib=DISK_MIB, before=None, after_cmds=(), after_expect=(),
                   hib_cmd="hibernate"):
    pages = fill_mib * 256

    @unit(name, "system", needs=[needs])
    def run(ctx):
        disk = scratch(name + ".img", disk_mib)
        if partitioned:
            mbr(disk, disk_mib)
        b1 = ctx.boot(make_cmd(ctx, line(dev), [disk]), name + "-1", 600,
                      first_session(with_process, fill_mib, hib_cmd))
        t1 = b1.clean_text()
        wrote = "PM: hibernation: image written to %s" % dev in t1 and not b1.timed_out
        if not ctx.tally.check("%s:image-written" % name, wrote,
                               "no image written, or QEMU did not end (log %s)" % rel(b1.log)):
            return
        if before and not before(ctx, name, disk):
            return
        b2 = ctx.boot(make_cmd(ctx, line(dev), [disk]), name + "-2", 600,
                      second_session(with_process, after_cmds))
        t2 = b2.clean_text()
        c1, c2 = counter_of(t1), counter_of(t2)
        u1, u2 = uptime_of(t1), uptime_of(t2)
        after = t2.split("PM: resumed from hibernation", 1)[-1]
        checks = [
            ("resumed", "PM: resume: image on %s" % dev in t2 and
             "PM: resumed from hibernation" in t2),
            # The shell carried on: no second welcome, the same history.
            ("shell-carried-on", "Welcome to Pagoda" not in after and
             re.search(r"\n +\d+  hibstate fill %d 7\n +\d+  uptime\n +\d+  %s\n"
                       % (fill_mib, re.escape(hib_cmd)), t2) is not None),
            ("thread-counted-on", bool(c1 and c2 and c2[0][0] > c1[-1][0])),
            ("pattern-intact", "hibstate: %d of %d pages intact, 0 bad" % (pages, pages) in t2),
            ("clock-continues", bool(u1 and u2 and u2[0] > u1[-1] and
                                     c1 and c2 and c2[0][1] > c1[-1][1])),
            ("powered-off", "Power down." in t2 and not b2.timed_out),
            # Long image I/O is not a lockup: the reading or writing task
            # passes preemption points (kernel/watchdog.c).
            ("no-soft-lockup", "BUG: soft lockup" not in t1 + t2),
        ]
        if after_expect:
            # (the devices' lines come before "resumed from hibernation")
            resumed = t2.split("PM: resume: jumping into the image", 1)[-1]
            checks.append(("device-set-up-again", all(x in resumed for x in after_expect)))
        if with_process:
            # Its end is logged while the shell echoes the next command:
            # the console may break that line anywhere, so join the pieces.
            joined = re.sub(r"\r?\n", "", after)
            checks.append(("user-process-carried-on",
                           re.search(r"libctest-musl: killed by signal 15", joined) is not None))
            checks.append(("dm-device-carried-on",
                           "0 8192 linear" in after and
                           "verify 64 sectors at 0: 0 bad" in after and
                           "verify 8 sectors at 64: 0 bad" in after))
        for what, ok in checks:
            ctx.tally.check("%s:%s" % (name, what), ok, "(logs %s, %s)" % (rel(b1.log), rel(b2.log)))
        # Used once: the signature was erased, so this boot is a fresh one.
        b3 = ctx.boot(make_cmd(ctx, line(dev), [disk]), name + "-3", 200,
                      [(r"pagoda> ", "poweroff\r")])
        t3 = b3.clean_text()
        ctx.tally.check("%s:used-once" % name,
                        "PM: resume: no image on %s" % dev in t3 and "Welcome to Pagoda" in t3,
                        "the image was offered again (log %s)" % rel(b3.log))
    run.__doc__ = ("hibernation on %s: state built, hibernate, QEMU restarted with "
                   "resume=%s: shell, thread, memory and clock carry on" % (needs, dev))


hibernate_unit("system-hibernate-x86_64", "x86_64",
               lambda ctx, l, d: ctx.x86_cmd(cmdline=l, disks=d, smp=2), "vda2", True, True)
# From the second CPU: the image is made on the boot CPU whichever CPU asks.
hibernate_unit("system-hibernate-arm64-virt", "arm64-virt",
               lambda ctx, l, d: ctx.arm64_cmd("virt", l, disks=d, smp=2), "vda", False, False,
               hib_cmd="taskset -c 1 hibernate")


def pi4_all_cpus(ctx, name, disk):
    """Between the two boots of the Pi 4 unit: with all four CPUs up, the
    image is found but kept (no read, no erase), and `hibernate` is
    refused; both say to boot with maxcpus=1."""
    b = ctx.boot(ctx.arm64_cmd("pi4", line("mmcblk0"), disks=[disk]), name + "-4cpus", 300,
                 [(r"pagoda> ", "hibernate\r"), (r"pagoda> ", "poweroff\r")])
    t = b.clean_text()
    return all([
        ctx.tally.check("%s:image-kept-with-4-cpus" % name,
                        "PM: resume: the image on mmcblk0 is kept; booting normally" in t and
                        "maxcpus=1 for resume" in t and "Welcome to Pagoda" in t,
                        "four CPUs: the image was not kept, or no normal boot (log %s)"
                        % rel(b.log)),
        ctx.tally.check("%s:hibernate-refused-with-4-cpus" % name,
                        "maxcpus=1 for hibernation" in t and "Power down." in t,
                        "four CPUs: hibernate was not refused (log %s)" % rel(b.log))])


hibernate_unit("system-hibernate-arm64-pi4", "arm64-pi4",
               lambda ctx, l, d: ctx.arm64_cmd("pi4", l + " maxcpus=1", disks=d), "mmcblk0",
               False, False, fill_mib=4, disk_mib=128, before=pi4_all_cpus,
               # the card identified again, and reading and writing it (past the image)
               after_cmds=["blk write mmcblk0 200000 64 5\r", "blk verify mmcblk0 200000 64 5\r"],
               after_expect=["mmc0: card identified again after resume",
                             "verify 64 sectors at 200000: 0 bad"])


# --- bad images ---------------------------------------------------------------

HEADER = struct.Struct("<16sIIII16s16s32sII QQII II")  # through nr_regions, reserved0


def crc32c(data, crc=0xffffffff):
    table = crc32c.table
    if table is None:
        table = crc32c.table = []
        for i in range(256):
            c = i
            for _ in range(8):
                c = (c >> 1) ^ (0x82f63b78 if c & 1 else 0)
            table.append(c)
    for b in data:
        crc = (crc >> 8) ^ table[(crc ^ b) & 0xff]
    return crc


crc32c.table = None
IMAGE_PAGES_OFF = 104  # u64 image_pages
HEADER_CRC_OFF = 28
BUILD_ID_OFF = 64


def reseal(block, size):
    """Make the header checksum right again, as a forger would."""
    block[HEADER_CRC_OFF:HEADER_CRC_OFF + 4] = b"\0\0\0\0"
    block[HEADER_CRC_OFF:HEADER_CRC_OFF + 4] = struct.pack("<I", crc32c(bytes(block[:size])))


def variant(src, dst, change):
    shutil.copyfile(src, dst)
    with open(dst, "r+b") as f:
        block = bytearray(f.read(4096))
        fields = HEADER.unpack_from(block)
        size, meta = fields[2], fields[11]
        change(f, block, size, meta)


@unit("system-hibernate-refused", "system", needs=["x86_64", "x86_64-vdso-alt"])
def refused(ctx):
    """x86-64: images that must not be resumed (a flipped data byte, a
    damaged header, another build, a truncated device, foreign data) are
    refused with the reason, and the machine boots normally"""
    name = "system-hibernate-refused"
    good = scratch(name + "-good.img", 64)
    cmd = lambda l, d: ctx.x86_cmd(cmdline=l, disks=[d], smp=1)
    b = ctx.boot(cmd(line("vda", 'shell.run="hibstate fill 4 3;hibernate"'), good), name + "-0", 300)
    if not ctx.tally.check(name + ":image-written", "PM: hibernation: image written" in b.clean_text(),
                           "(log %s)" % rel(b.log)):
        return

    def flip_data(f, block, size, meta):
        f.seek((1 + meta) * 4096 + 1000)
        byte = f.read(1)
        f.seek((1 + meta) * 4096 + 1000)
        f.write(bytes([byte[0] ^ 0x40]))

    def damage_header(f, block, size, meta):
        block[IMAGE_PAGES_OFF] ^= 1   # a count, checksum left as it was
        f.seek(0)
        f.write(block)

    def other_build(f, block, size, meta):
        block[BUILD_ID_OFF] ^= 0xff
        reseal(block, size)
        f.seek(0)
        f.write(block)

    def truncate(f, block, size, meta):
        f.truncate((1 + meta + 8) * 4096 // (1 << 20) * (1 << 20) + (1 << 20))

    def foreign(f, block, size, meta):
        f.seek(0)
        f.write(os.urandom(1 << 20))

    def unchanged(f, block, size, meta):
        pass

    # (what, the change, the reason expected, the kernel that boots)
    cases = [("data-checksum", flip_data, "data checksum does not match", None),
             ("header-checksum", damage_header, "header checksum does not match", None),
             ("other-build-forged", other_build, "different kernel build", None),
             # A real other build: the kernel of make VDSO_LAYOUT=alt, given a good image.
             ("other-build", unchanged, "different kernel build", paths.X86_KERNEL_VDSO_ALT),
             ("truncated", truncate, "larger than the resume device", None),
             ("foreign-data", foreign, "no hibernation signature", None)]
    for what, change, why, kernel in cases:
        disk = os.path.join(os.path.dirname(good), "%s-%s.img" % (name, what))
        variant(good, disk, change)
        l = line("vda", 'shell.run="poweroff"')
        c = cmd(l, disk) if not kernel else \
            ctx.x86_cmd(cmdline=l, disks=[disk], smp=1, kernel=kernel)
        b = ctx.boot(c, "%s-%s" % (name, what), 200)
        t = b.clean_text()
        ctx.tally.check("%s:%s" % (name, what),
                        why in t and "PM: resumed" not in t and "Welcome to Pagoda" in t
                        and "Power down." in t,
                        "expected a refusal naming %r and a normal boot (log %s)" % (why, rel(b.log)))


@unit("system-hibernate-crash", "system", needs=["x86_64"])
def crash(ctx):
    """x86-64: QEMU killed while the image is written (an older image on the
    device): the next boot finds no image, says so and starts fresh"""
    name = "system-hibernate-crash"
    for pct in (10, 90):
        disk = scratch("%s-%d.img" % (name, pct), 64)
        cmd = lambda l: ctx.x86_cmd(cmdline=l, disks=[disk], smp=1)
        # The older image comes from the `hibernate` boot parameter.
        old = ctx.boot(cmd(line("vda", "hibernate")), "%s-%d-old" % (name, pct), 300)
        if not ctx.tally.check("%s:%d.old-image" % (name, pct),
                               "PM: hibernation: image written" in old.clean_text(),
                               "(log %s)" % rel(old.log)):
            continue
        # noresume leaves the old image alone; the new write stops at pct%
        # (hibernate.stall_at) and QEMU is killed there.
        b1 = ctx.boot(cmd(line("vda", 'noresume hibernate.stall_at=%d '
                               'shell.run="hibstate fill 16 1;hibernate"' % pct)),
                      "%s-%d-1" % (name, pct), 300,
                      [(r"stalled at \d+%", "")], stop_after_script=True)
        killed = re.search(r"stalled at \d+%", b1.clean_text()) is not None and \
            "image written" not in b1.clean_text()
        if not ctx.tally.check("%s:%d.killed" % (name, pct), killed, "(log %s)" % rel(b1.log)):
            continue
        b2 = ctx.boot(cmd(line("vda", 'shell.run="poweroff"')), "%s-%d-2" % (name, pct), 200)
        t = b2.clean_text()
        ctx.tally.check("%s:%d.fresh-boot" % (name, pct),
                        "PM: resume: no image on vda: no hibernation signature" in t and
                        "PM: resumed" not in t and "Welcome to Pagoda" in t,
                        "a half-written image was taken, or the boot did not say why (log %s)"
                        % rel(b2.log))
