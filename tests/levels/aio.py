"""Linux's native AIO and preadv2/pwritev2 beside Linux (level 3; issue 35).

user/libc/aiotest.c prints one line per edge case (io_setup's limits,
io_submit's refusals in Linux's order, events on a tmpfs file, a context
filled until -EAGAIN, preadv2's position -1 and flags, then O_DIRECT on a
block device: eight asynchronous 64 KiB writes read back crosswise, the
alignment rule, the device's end, reads left in flight at io_destroy and
at a child's exit and at its exec, 80 MiB of reads in flight at once;
io_getevents ended by a signal). The host runs the same binary on a file in a
temporary directory and a loop device over a file of the virtio disk's
size; Pagoda boots with that disk as /dev/vda and runs the program twice
with a leak-check point after each, as tests/levels/procmem.py does:
every page a request held (the kernel's bounce pages, the contexts) must
be back, to the page. Without a loop device on the host (not root), the
device's lines are compared with nothing and the unit says so.
"""
import os
import re
import subprocess
import tempfile

from .common import paths, rel, unit
from .disks import scratch
from .procmem import KLOG, check_no_leak

DISK_MIB = 8
# 512 MiB: an eighth of it is less than aiotest's 80 MiB of reads in flight,
# so the bounce pages' share runs out and the rest go synchronously.
MEM = "512M"
# The host runs the x86-64 build: its answers are the ABI's, the same on arm64.
HOST_BIN = os.path.join(paths.BUILD, "x86_64-pc", "user", "aiotest")


def host_lines():
    """The host's output: a file in a fresh directory, a loop device if one can be made."""
    with tempfile.TemporaryDirectory() as d:
        img = os.path.join(d, "disk.img")
        with open(img, "wb") as f:
            f.truncate(DISK_MIB << 20)
        loop = subprocess.run(["losetup", "-f", "--show", img], capture_output=True, text=True)
        dev = loop.stdout.strip() if loop.returncode == 0 else None
        try:
            r = subprocess.run([HOST_BIN, os.path.join(d, "aio.dat")] + ([dev] if dev else []),
                               capture_output=True, text=True, timeout=60)
        finally:
            if dev:
                subprocess.run(["losetup", "-d", dev])
    return r.returncode, r.stdout.splitlines(), dev is not None


def runs(text, line):
    found = re.findall(r"pagoda> run %s\n(.*?)\n?run: /bin/aiotest: exit status (\d+)\n" %
                       re.escape(line), text, re.S)
    return [([l for l in out.split("\n") if not KLOG.match(l)], int(st)) for out, st in found]


def session(ctx, arch, cmd_of, timeout):
    tally, name = ctx.tally, "aio-%s" % arch
    status, want, with_dev = host_lines()
    tally.check("%s.host-run" % name, status == 0 and want[-1:] == ["aiotest: done"],
                "the host's run of aiotest exited %d" % status)
    if not with_dev:
        print("  %s: no loop device on the host: the device's lines are not compared" % name)
        cut = want.index("aiotest: done") if "aiotest: done" in want else len(want)
        want = want[:cut]
    line = "/bin/aiotest /tmp/aio.dat /dev/vda"
    point = ["pagealloc drain", "meminfo", "slabinfo"]
    script = [(r"pagoda> ", l + "\r") for l in
              ["run " + line] + point + ["run " + line] + point + ["poweroff"]]
    disk = scratch(name + ".img", DISK_MIB)
    b = ctx.boot(cmd_of(disk), name, timeout, script)
    t = b.clean_text()
    log = rel(b.log)
    tally.check("%s.boot" % name, "Power down." in t and not b.timed_out,
                "did not reach poweroff (log %s)" % log)
    got = runs(t, line)
    for i, (out, st) in enumerate(got):
        if not with_dev:
            out = [l for l in out if l != "aiotest: done"][:len(want)]
        bad = [(w, g) for w, g in zip(want, out) if w != g][:4]
        tally.check("%s.run%d-like-linux" % (name, i + 1),
                    st == 0 and not bad and len(out) == len(want),
                    "exit %d, %d lines against the host's %d; first differences (host, "
                    "pagoda): %s (log %s)" % (st, len(out), len(want), bad, log))
    tally.check("%s.two-runs" % name, len(got) == 2, "%d runs found (log %s)" % (len(got), log))
    check_no_leak(tally, name, t, log)


@unit("aio-x86_64", "system", needs=["x86_64"])
def aio_x86(ctx):
    """x86-64: native AIO and preadv2 on tmpfs and O_DIRECT virtio-blk, like Linux, no leak"""
    session(ctx, "x86_64", lambda disk: ctx.x86_cmd(cmdline="panic=-1", disks=[disk], mem=MEM),
            120)


@unit("aio-arm64-virt", "system", needs=["arm64-virt", "x86_64"])
def aio_arm64(ctx):
    """arm64 virt: the same over virtio-mmio, beside the host's answers"""
    session(ctx, "arm64-virt", lambda disk: ctx.arm64_cmd("virt", "panic=-1", disks=[disk],
                                                          mem=MEM), 240)
