"""Debian's own dmsetup on Pagoda, through Linux's device-mapper ioctls
(level 3; issue 35; block/dm/dm-ioctl.c, docs/dm-snapshot.md).

The guest gets /usr/sbin/dmsetup and the libraries ldd names
(tools/add-binary.sh), the host's static busybox for sh and dd, and
pagoda.dmioctl's script, which makes a snapshot-origin and a persistent
snapshot on two disks, writes through both and walks through create,
load, status, table, ls, info, deps, suspend, resume, rename, wait,
message, targets, clear, remove and remove_all. Every step's output and
exit status is held against what Debian's dmsetup printed for the same
script on Debian's Linux in the same QEMU (tests/fixtures/linux/
dmsetup-ioctl-x86_64.txt, recorded by `tools/linuxpeer.py dmioctl`),
device numbers aside. Afterwards the host reads both disk images: the
origin holds the origin write and not the snapshot write, and the COW
device is a Linux-format store whose exceptions give the snapshot's view.
"""
import os
import shutil
import subprocess

from .common import OUT, ROOT, rel, unit

from .procmem import check_no_leak
from pagoda import dmioctl as dmi  # noqa: E402  (tools/ is on the path: common)
from pagoda import linuxpeer  # noqa: E402

DMSETUP = "/usr/sbin/dmsetup"


def comparable(lines):
    """A step's lines as both kernels' may be compared: device numbers
    aside, and without the kernel's own log lines ("[   5.30] ...")."""
    return [dmi.device_numbers(l.rstrip()) for l in lines if not l.lstrip().startswith("[")]


def rootfs(top, arch):
    """dmsetup, its libraries, busybox and the script's files under top; the
    cpio. arm64's dmsetup and busybox are Debian's arm64 builds, fetched
    (never installed) by tools/add-binary.sh and tools/fetch-busybox-arm64.sh."""
    shutil.rmtree(top, ignore_errors=True)
    os.makedirs(os.path.join(top, "bin"))
    subprocess.run([os.path.join(ROOT, "tools", "add-binary.sh"), "--arch", arch, DMSETUP, top],
                   check=True, capture_output=True)
    if arch == "x86_64":
        busybox = shutil.which("busybox")
    else:
        bb_dir = os.path.join(OUT, "busybox-arm64")
        subprocess.run([os.path.join(ROOT, "tools", "fetch-busybox-arm64.sh"), bb_dir],
                       check=True, capture_output=True)
        busybox = os.path.join(bb_dir, "busybox")
    shutil.copy(busybox, os.path.join(top, "bin", "busybox"))
    for name, blob in dmi.files().items():
        os.makedirs(os.path.dirname(os.path.join(top, name)), exist_ok=True)
        with open(os.path.join(top, name), "wb") as f:
            f.write(blob)
    cpio = top + ".cpio"
    subprocess.run(["/usr/bin/python3", os.path.join(ROOT, "tools", "mkcpio.py"), cpio,
                    "--tree", top], check=True)
    return cpio


# Where Pagoda answers otherwise on purpose, and why (docs/dm-snapshot.md).
HOSTILE_DIFFERS = {
    "load, four billion targets":
        "Linux sizes its target array from the count first (2^32-1 rounded up overflows: "
        "EOVERFLOW); Pagoda walks the specs and is refused where the buffer ends (EINVAL)",
}


def session(ctx, name, arch, cmd_of, timeout):
    """Boot, run the script, then dmioctltest once more with a leak-check
    point after each (docs/userland.md); compare with Linux and the disks."""
    tally = ctx.tally
    if not os.path.exists(DMSETUP) or not shutil.which("busybox"):
        tally.check("%s.installed" % name, False,
                    "%s or busybox is missing: tools/install-deps.sh installs them" % DMSETUP)
        return
    top = os.path.join(OUT, name)
    cpio = rootfs(top, arch)
    origin, cow = top + "-origin.img", top + "-cow.img"
    with open(origin, "wb") as f:
        f.write(dmi.origin_image())
    with open(cow, "wb") as f:
        f.truncate(dmi.SECTORS * 512)
    point = ["pagealloc drain", "meminfo", "slabinfo"]
    typed = ["run /bin/busybox sh /dm/script.sh"] + point + \
        ["run /bin/dmioctltest /dev/vda"] + point + ["poweroff"]
    b = ctx.boot(cmd_of(cpio, [origin, cow]), name, timeout,
                 [(r"pagoda> ", l + "\r") for l in typed])
    t = b.clean_text().replace("\r", "")
    log = rel(b.log)
    with open(linuxpeer.dmioctl_fixture("x86_64")) as f:
        linux = f.read()
    got, want = dmi.steps(t), dmi.steps(linux)
    tally.check("%s.ran" % name, "dmioctl: end" in t and len(got) == len(want),
                "%d of Linux's %d steps ran (log %s)" % (len(got), len(want), log))
    for i, (cmd, lines, rc) in enumerate(want):
        step = "%s.%02d.%s" % (name, i, "-".join(cmd.split()[:2]))
        if i >= len(got):
            tally.fail(step, "did not run (log %s)" % log)
            continue
        gcmd, glines, grc = got[i]
        same = comparable(glines) == comparable(lines)
        if cmd == "dmsetup targets":
            # Pagoda has four of Linux's targets (no striped, error...): each
            # must be listed as Linux lists it, at Linux's version.
            same = bool(glines) and set(comparable(glines)) <= set(comparable(lines))
        tally.check(step, gcmd == cmd and grc == rc and same,
                    "`%s`: Pagoda said %r (rc %d), Linux %r (rc %d) (log %s)" % (
                        cmd, comparable(glines), grc, comparable(lines), rc, log))
    # The hostile ioctls: each answer Linux's, but for the listed differences.
    mine, theirs = dmi.hostile(t), dmi.hostile(linux)
    bad = [(w, g) for w, g in zip(theirs, mine)
           if w != g and w.split(":")[0] not in HOSTILE_DIFFERS]
    tally.check("%s.hostile-like-linux" % name, mine and len(mine) == len(theirs) and not bad,
                "%d answers against Linux's %d; first differences (Linux, Pagoda): %s (log %s)"
                % (len(mine), len(theirs), bad[:4], log))
    check_no_leak(tally, name, t, log)
    tally.check("%s.poweroff" % name, "Power down." in t and not b.timed_out,
                "did not reach poweroff (log %s)" % log)
    with open(origin, "rb") as f:
        o = f.read()
    with open(cow, "rb") as f:
        c = f.read()
    want_o, want_s = dmi.expected_images()
    tally.check("%s.origin-on-disk" % name, o == want_o,
                "the origin image is not the origin plus the origin write (%s)" % rel(origin))
    try:
        view = dmi.snapshot_view(o, c)
        why = "the snapshot read from the COW store is not the old origin plus its write"
    except ValueError as e:
        view, why = None, str(e)
    tally.check("%s.cow-store-on-disk" % name, view == want_s, "%s (%s)" % (why, rel(cow)))


@unit("debian-dmsetup-x86_64", "system", needs=["x86_64"])
def debian_dmsetup(ctx):
    """x86-64: Debian's dmsetup makes a snapshot-origin and a snapshot through
    /dev/mapper/control and prints what it prints on Linux; hostile ioctls
    answered as Linux answers them, no leak; disks the host reads as Linux's format"""
    session(ctx, "debian-dmsetup-x86_64", "x86_64",
            lambda cpio, disks: ctx.initrd_cmd("x86_64", cpio, "panic=-1 lockdep=1",
                                               disks=disks), 240)


@unit("debian-dmsetup-arm64-virt", "system", needs=["arm64-virt"])
def debian_dmsetup_arm64(ctx):
    """arm64 virt: the same with Debian's arm64 dmsetup and busybox, held against
    Linux's x86-64 answers (the same dmsetup release; the ioctl ABI is the same)"""
    session(ctx, "debian-dmsetup-arm64-virt", "arm64",
            lambda cpio, disks: ctx.initrd_cmd("arm64-virt", cpio, "panic=-1 lockdep=1",
                                               disks=disks), 600)
