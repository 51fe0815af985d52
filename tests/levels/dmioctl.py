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

from pagoda import dmioctl as dmi  # noqa: E402  (tools/ is on the path: common)
from pagoda import linuxpeer  # noqa: E402

DMSETUP = "/usr/sbin/dmsetup"


def fixture_steps(arch):
    with open(linuxpeer.dmioctl_fixture(arch)) as f:
        return dmi.steps(f.read())


def comparable(lines):
    """A step's lines as both kernels' may be compared: device numbers
    aside, and without the kernel's own log lines ("[   5.30] ...")."""
    return [dmi.device_numbers(l.rstrip()) for l in lines if not l.lstrip().startswith("[")]


def rootfs(top):
    """dmsetup, its libraries, busybox and the script's files under top; the cpio."""
    shutil.rmtree(top, ignore_errors=True)
    os.makedirs(top)
    subprocess.run([os.path.join(ROOT, "tools", "add-binary.sh"), DMSETUP, top], check=True,
                   capture_output=True)
    os.makedirs(os.path.join(top, "bin"), exist_ok=True)
    shutil.copy(shutil.which("busybox"), os.path.join(top, "bin", "busybox"))
    for name, blob in dmi.files().items():
        os.makedirs(os.path.dirname(os.path.join(top, name)), exist_ok=True)
        with open(os.path.join(top, name), "wb") as f:
            f.write(blob)
    cpio = top + ".cpio"
    subprocess.run(["/usr/bin/python3", os.path.join(ROOT, "tools", "mkcpio.py"), cpio,
                    "--tree", top], check=True)
    return cpio


@unit("debian-dmsetup-x86_64", "system", needs=["x86_64"])
def debian_dmsetup(ctx):
    """x86-64: Debian's dmsetup makes a snapshot-origin and a snapshot through
    /dev/mapper/control, prints what it prints on Linux, and leaves disks
    the host reads as Linux's format"""
    tally = ctx.tally
    if not os.path.exists(DMSETUP) or not shutil.which("busybox"):
        tally.check("debian-dmsetup.installed", False,
                    "%s or busybox is missing: tools/install-deps.sh installs them" % DMSETUP)
        return
    top = os.path.join(OUT, "debian-dmsetup-x86_64")
    cpio = rootfs(top)
    origin, cow = top + "-origin.img", top + "-cow.img"
    with open(origin, "wb") as f:
        f.write(dmi.origin_image())
    with open(cow, "wb") as f:
        f.truncate(dmi.SECTORS * 512)
    cmdline = 'shell.run="run /bin/busybox sh /dm/script.sh;poweroff" panic=-1 lockdep=1'
    b = ctx.boot(ctx.x86_cmd(cmdline=cmdline, disks=[origin, cow], extra=["-initrd", cpio]),
                 "debian-dmsetup-x86_64", 240)
    t = b.clean_text()
    got, want = dmi.steps(t), fixture_steps("x86_64")
    tally.check("debian-dmsetup.x86_64.ran", "dmioctl: end" in t and len(got) == len(want),
                "%d of Linux's %d steps ran (log %s)" % (len(got), len(want), rel(b.log)))
    for i, (cmd, lines, rc) in enumerate(want):
        name = "debian-dmsetup.x86_64.%02d.%s" % (i, "-".join(cmd.split()[:2]))
        if i >= len(got):
            tally.fail(name, "did not run (log %s)" % rel(b.log))
            continue
        gcmd, glines, grc = got[i]
        same = comparable(glines) == comparable(lines)
        if cmd == "dmsetup targets":
            # Pagoda has four of Linux's targets (no striped, error...): each
            # must be listed as Linux lists it, at Linux's version.
            same = bool(glines) and set(comparable(glines)) <= set(comparable(lines))
        tally.check(name, gcmd == cmd and grc == rc and same,
                    "`%s`: Pagoda said %r (rc %d), Linux %r (rc %d) (log %s)" % (
                        cmd, comparable(glines), grc, comparable(lines), rc, rel(b.log)))
    with open(origin, "rb") as f:
        o = f.read()
    with open(cow, "rb") as f:
        c = f.read()
    want_o, want_s = dmi.expected_images()
    tally.check("debian-dmsetup.x86_64.origin-on-disk", o == want_o,
                "the origin image is not the origin plus the origin write (%s)" % rel(origin))
    try:
        view = dmi.snapshot_view(o, c)
        why = "the snapshot read from the COW store is not the old origin plus its write"
    except ValueError as e:
        view, why = None, str(e)
    tally.check("debian-dmsetup.x86_64.cow-store-on-disk", view == want_s,
                "%s (%s)" % (why, rel(cow)))
