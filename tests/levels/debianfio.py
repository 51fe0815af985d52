"""Debian's fio, unmodified, on Pagoda (level 3; issue 35).

Debian's /usr/bin/fio and the libraries its loader loads go into an
initramfs as `make run ROOTFS=dir` packs one (tools/add-binary.sh: the
host's own on x86-64, Debian's arm64 build fetched with apt on arm64).
Pagoda boots with it and runs one job twice, 256 KiB of 4 KiB random
writes to a tmpfs file with the psync engine, a leak-check point after
each run; the host runs the same job on a file of its own. Every run must
end with status 0 and its JSON report count the I/O the job asks for, as
the host's does. The disk units run libaio, psync and pvsync2 with
O_DIRECT on /dev/vda, twice, and the host's fio checks what they wrote.
What fio asks that Pagoda lacks is listed in docs/userland.md.
"""
import json
import os
import re
import shutil
import subprocess
import tempfile

from .common import OUT, ROOT, rel, unit
from .disks import scratch
from .procmem import KLOG, check_no_leak

FIO = "/usr/bin/fio"
JOB = "--name=t --filename=%s --size=256k --rw=randwrite --bs=4k --ioengine=psync --randseed=7 " \
    "--output-format=json"
# What JOB asks for: 64 writes of 4 KiB, nothing read.
JOB_COUNTS = [64, 256 << 10, 0, 0]
POINT = ["pagealloc drain", "meminfo", "slabinfo"]


def counts(job):
    """[write ios, write bytes, read ios, read bytes] of one job of fio's JSON."""
    return [job.get(d, {}).get(k) for d in ("write", "read") for k in ("total_ios", "io_bytes")]


def fio_tree(name, arch="x86_64"):
    """build/test/NAME: Debian's fio and its libraries, packed as ROOTFS= packs
    them. arm64's is Debian's arm64 build, fetched (never installed) by
    tools/add-binary.sh with the libraries the arm64 loader loads."""
    top = os.path.join(OUT, name)
    shutil.rmtree(top, ignore_errors=True)
    os.makedirs(top)
    subprocess.run([os.path.join(ROOT, "tools", "add-binary.sh"), "--arch", arch, FIO, top],
                   check=True, capture_output=True)
    cpio = os.path.join(OUT, name + ".cpio")
    subprocess.run(["/usr/bin/python3", os.path.join(ROOT, "tools", "mkcpio.py"), cpio,
                    "--tree", top], check=True)
    return cpio


def fio_report(lines):
    """fio's JSON report from the lines it printed, kernel log lines left
    out (None where there is none or it does not parse)."""
    out = [l for l in lines if not KLOG.match(l)]
    start = next((i for i, l in enumerate(out) if l == "{"), None)
    try:
        return json.loads("\n".join(out[start:])) if start is not None else None
    except ValueError:
        return None


def fio_runs(text, job):
    """[(JSON report, exit status)] of each run of job NAME in the boot (the
    console may wrap the echoed command); the report is None where it does
    not parse."""
    return [(fio_report(m.group(1).split("\n")), int(m.group(2))) for m in re.finditer(
        r"pagoda> run %s --name=%s (.*?)\nrun: %s: exit status (\d+)\n" %
        (re.escape(FIO), re.escape(job), re.escape(FIO)), text, re.S)]


def tmpfs_session(ctx, name, cmd_of, timeout):
    """Run JOB on the host, then twice on Pagoda with a leak-check point
    after each: every run must exit 0 and report the I/O JOB asks for,
    as the host's does."""
    tally = ctx.tally
    if not os.path.exists(FIO):
        tally.check("%s.installed" % name, False,
                    "%s is missing: tools/install-deps.sh installs fio" % FIO)
        return
    cpio = fio_tree(name, "x86_64" if name.endswith("x86_64") else "arm64")
    with tempfile.TemporaryDirectory() as d:
        host = subprocess.run([FIO] + (JOB % os.path.join(d, "fio.dat")).split(),
                              capture_output=True, text=True, timeout=60, cwd=tempfile.gettempdir())
    try:
        want = counts(json.loads(host.stdout)["jobs"][0])
    except (ValueError, KeyError, IndexError):
        want = None
    tally.check("%s.host-run" % name, host.returncode == 0 and want == JOB_COUNTS,
                "the host's fio exited %d, counts %s: %s" % (host.returncode, want,
                                                             host.stderr[-300:]))
    line = "run %s %s" % (FIO, JOB % "/tmp/fio.dat")
    b = ctx.boot(cmd_of(cpio), name, timeout,
                 [(r"pagoda> ", l + "\r") for l in [line] + POINT + [line] + POINT + ["poweroff"]])
    t = b.clean_text()
    log = rel(b.log)
    runs = fio_runs(t, "t")
    for i, (rep, status) in enumerate(runs):
        job = (rep or {}).get("jobs", [{}])[0]
        tally.check("%s.run%d-like-host" % (name, i + 1),
                    status == 0 and job.get("error") == 0 and counts(job) == want and
                    (job.get("write", {}).get("bw_bytes") or 0) > 0,
                    "exit %s, error %s, [write ios, bytes, read ios, bytes] %s, the host's %s, "
                    "write bw %s (log %s)" % (status, job.get("error"), counts(job), want,
                                              job.get("write", {}).get("bw_bytes"), log))
    tally.check("%s.two-runs" % name, len(runs) == 2, "%d runs found (log %s)" % (len(runs), log))
    check_no_leak(tally, name, t, log)
    tally.check("%s.poweroff" % name, "Power down." in t and not b.timed_out,
                "did not reach poweroff (log %s)" % log)


@unit("debian-fio-x86_64", "system", needs=["x86_64"])
def debian_fio(ctx):
    """x86-64: Debian's fio runs a random-write job on a tmpfs file twice, issuing what the host does, no leak"""
    tmpfs_session(ctx, "debian-fio-x86_64", lambda cpio: ctx.initrd_cmd("x86_64", cpio), 120)


@unit("debian-fio-arm64-virt", "system", needs=["arm64-virt"])
def debian_fio_arm64(ctx):
    """arm64 virt: the same with Debian's arm64 fio and the libraries its loader loads"""
    tmpfs_session(ctx, "debian-fio-arm64-virt",
                  lambda cpio: ctx.initrd_cmd("arm64-virt", cpio), 300)


# One job per engine, each on its own MiB of /dev/vda: 4 KiB random writes
# with O_DIRECT, which fio then reads back and checks (crc32c headers).
# libaio keeps 8 in flight (io_submit, io_getevents); pvsync2 sets
# RWF_HIPRI on each preadv2/pwritev2.
DISK_JOBS = [("libaio", "--ioengine=libaio --iodepth=8", 0),
             ("psync", "--ioengine=psync", 1),
             ("pvsync2", "--ioengine=pvsync2 --hipri", 2)]
DISK_JOB = "--name=%s --filename=%s --size=%dk --offset=%dm --bs=4k --rw=randwrite --direct=1 " \
    "--randseed=7 --verify=crc32c --verify_state_save=0 --output-format=json %s"
# The jobs run twice, a leak-check point after each round: the second round
# smaller (it is there for the leak check), on MiBs of its own, so that the
# host can check each run's blocks (KiB per job, the MiB the round starts at).
ROUNDS = [(1024, 0), (256, 4)]


def disk_session(ctx, name, cmd_of, timeout):
    """The three jobs on /dev/vda, a leak-check point, the three again and
    another point; each run's JSON must count what its job asked for, and
    the host's own fio must find every block each run wrote."""
    tally = ctx.tally
    if not os.path.exists(FIO):
        tally.check("%s.installed" % name, False, "%s is missing" % FIO)
        return
    cpio = fio_tree(name, "x86_64" if name.endswith("x86_64") else "arm64")
    disk = scratch(name + ".img", 8)
    typed = []
    for kib, base in ROUNDS:
        typed += ["run %s %s" % (FIO, DISK_JOB % (e, "/dev/vda", kib, base + off, opts))
                  for e, opts, off in DISK_JOBS] + POINT
    b = ctx.boot(cmd_of(cpio, disk), name, timeout,
                 [(r"pagoda> ", l + "\r") for l in typed + ["poweroff"]])
    t = b.clean_text()
    log = rel(b.log)
    tally.check("%s.boot" % name, "Power down." in t and not b.timed_out,
                "did not reach poweroff (log %s)" % log)
    for engine, opts, off in DISK_JOBS:
        runs = fio_runs(t, engine)
        got, want = [], []
        for (rep, status), (kib, _) in zip(runs, ROUNDS):
            job = (rep or {}).get("jobs", [{}])[0]
            got.append((status, job.get("error"), job.get("job options", {}).get("ioengine"),
                        counts(job)))
            want.append((0, 0, engine, [kib // 4, kib << 10] * 2))
        tally.check("%s.%s" % (name, engine), len(runs) == len(ROUNDS) and got == want,
                    "per run (exit, error, engine, [write ios, bytes, read ios, bytes]): %s, "
                    "asked %s (log %s)" % (got, want, log))
        # The host's own fio reads the image back and checks every block's header.
        for kib, base in ROUNDS:
            v = subprocess.run([FIO] + (DISK_JOB % (engine, disk, kib, base + off,
                                                    "--ioengine=psync --verify_only")).split(),
                               capture_output=True, text=True, timeout=60, cwd=tempfile.gettempdir())
            try:
                err = json.loads(v.stdout)["jobs"][0]["error"]
            except (ValueError, KeyError, IndexError):
                err = "no report"
            tally.check("%s.%s-%dm-host-verifies" % (name, engine, base + off),
                        v.returncode == 0 and err == 0,
                        "the host's fio --verify_only on %s: exit %d, error %s" % (
                            rel(disk), v.returncode, err))
    check_no_leak(tally, name, t, log)


@unit("debian-fio-disk-x86_64", "system", needs=["x86_64"])
def debian_fio_disk(ctx):
    """x86-64: Debian's fio with libaio, psync and pvsync2 on /dev/vda twice; JSON counts, no leak, data checked on the host"""
    disk_session(ctx, "debian-fio-disk-x86_64",
                 lambda cpio, disk: ctx.initrd_cmd("x86_64", cpio, disks=[disk]), 180)


@unit("debian-fio-disk-arm64-virt", "system", needs=["arm64-virt"])
def debian_fio_disk_arm64(ctx):
    """arm64 virt: the same with Debian's arm64 fio"""
    disk_session(ctx, "debian-fio-disk-arm64-virt",
                 lambda cpio, disk: ctx.initrd_cmd("arm64-virt", cpio, disks=[disk]), 400)
