"""`make bench BENCH=fio-user`: Debian's fio in Pagoda's user space, beside
the kernel shell's fio on the same disk in the same boot, and beside the
same Debian fio on Debian's Linux in the same QEMU (issue 35).

One job, the issue's: 4 KiB random reads at queue depth 8 through libaio
with O_DIRECT on a 64 MiB virtio disk (x86-64 q35 under TCG, 2 CPUs,
1 GiB), `runtime` seconds a run. Pagoda runs the in-kernel fio and
Debian's fio in turns, five of each, so that both see the same host
load; Linux (pagoda.linuxpeer) runs Debian's fio five times. The table is
the median IOPS of the five, the spread (max/min) beside it, and the
ratios: user space over the kernel's fio (what the system calls, the
bounce copy and the wake-ups cost), and Pagoda's user space over Linux's.
"""
import os
import re
import shutil
import subprocess

from . import linuxpeer, paths, qemu
from .boot import Boot

FIO = "/usr/bin/fio"
JOB = ("--name=rr --filename=/dev/vda --rw=randread --bs=4k --iodepth=8 --ioengine=libaio "
       "--direct=1 --size=64m --runtime=%d --time_based")
READ_IOPS = re.compile(r"read: IOPS=([\d.]+)(k?)")


def read_iops(text):
    """Each fio report's read IOPS in a console log, in order."""
    return [float(m.group(1)) * (1000 if m.group(2) else 1)
            for m in READ_IOPS.finditer(text.replace("\r", ""))]


def fio_cpio(out):
    """OUT/fio-user.cpio: Debian's fio and what ldd names, as ROOTFS= packs them."""
    top = os.path.join(out, "fio-user-root")
    shutil.rmtree(top, ignore_errors=True)
    subprocess.run([os.path.join(paths.ROOT, "tools", "add-binary.sh"), FIO, top], check=True,
                   capture_output=True)
    cpio = os.path.join(out, "fio-user.cpio")
    subprocess.run(["python3", os.path.join(paths.ROOT, "tools", "mkcpio.py"), cpio,
                    "--tree", top], check=True)
    return cpio


def pagoda(out, disk, runtime, runs):
    """{"kernel": [IOPS per run], "user": [...]} from one x86-64 boot, or None."""
    job = JOB % runtime
    lines = []
    for _ in range(runs):
        lines += ["fio " + job, "run %s %s" % (FIO, job)]
    cmd = qemu.build_cmd(kernel=paths.X86_KERNEL, accel="tcg", cmdline="panic=-1",
                         disks=[disk], extra=["-initrd", fio_cpio(out)])[0]
    script = [(r"pagoda> ", l + "\r") for l in lines + ["poweroff"]]
    b = Boot(cmd, os.path.join(out, "fio-user-pagoda.log"), 120 + 4 * runtime * runs,
             script=script).run()
    got = read_iops(b.text)
    if len(got) != 2 * runs:
        print("bench: fio-user: %d fio reports of %d (log %s)" % (
            len(got), 2 * runs, paths.rel(b.log)))
        return None
    return {"kernel": got[0::2], "user": got[1::2]}


def linux(out, disk, runtime, runs):
    """[IOPS per run] of Debian's fio on Debian's Linux (x86-64), the same disk image."""
    linuxpeer.fetch("x86_64")
    files = linuxpeer.with_libraries({"usr/bin/fio": os.path.realpath(FIO)})
    cpio = linuxpeer.initramfs("x86_64", "fio-user", files,
                               ["%s %s" % (FIO, JOB % runtime)] * runs,
                               modules=["virtio_blk", linuxpeer.ARCHES["x86_64"]["transport"]])
    b = linuxpeer.boot("x86_64", cpio, os.path.join(out, "fio-user-linux.log"), disks=[disk])
    got = read_iops(b.text)
    if len(got) != runs:
        raise linuxpeer.PeerError("%d fio reports of %d (log %s)" % (
            len(got), runs, paths.rel(b.log)))
    return got


def bench(out, disk, runtime=4, runs=5):
    """Run both sides, print the table; the BENCH records."""
    print("bench: fio-user on Pagoda (the shell's fio and Debian's, in turns)")
    got = pagoda(out, disk, runtime, runs) or {}
    version = linuxpeer.kernel_version("x86_64")
    print("bench: fio-user on Linux")
    try:
        got["linux"] = linux(out, disk, runtime, runs)
        version = linuxpeer.kernel_version("x86_64")
    except linuxpeer.PeerError as e:
        print("bench: no Linux beside Pagoda: %s" % e)
    print("\nfio-user: 4 KiB random reads, libaio QD8, O_DIRECT, 64 MiB virtio disk, x86_64 "
          "q35 under TCG, 2 CPUs, 1 GiB, %d s a run; IOPS, median of %d (spread max/min)"
          % (runtime, runs))
    names = {"kernel": "Pagoda, the shell's fio (in the kernel)",
             "user": "Pagoda, Debian's fio (user space)",
             "linux": "Linux %s, Debian's fio" % version}
    med = {}
    recs = []
    for key in ("kernel", "user", "linux"):
        if key not in got:
            print("  %-48s %12s" % (names[key], "-"))
            continue
        m, spread = linuxpeer.median_spread(got[key])
        med[key] = m
        print("  %-48s %12s" % (names[key], "%.0f (x%.2f)" % (m, spread)))
        recs.append({"bench": "fio-user", "case": key, "iops": m, "spread": round(spread, 3),
                     "runs": got[key], "linux": version, "target": "x86_64",
                     "qemu_accel": "tcg", "runtime_s": runtime})
    if "user" in med and "kernel" in med:
        print("  Debian's fio on Pagoda / the shell's fio: %.2f" % (med["user"] / med["kernel"]))
    if "user" in med and "linux" in med:
        print("  Debian's fio, Pagoda / Linux: %.2f" % (med["user"] / med["linux"]))
    return recs
