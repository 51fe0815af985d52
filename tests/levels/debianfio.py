"""Debian's fio, unmodified, on Pagoda (level 3; issue 35).

The host's /usr/bin/fio and the libraries ldd names go into an initramfs
as `make run ROOTFS=dir` packs one (tools/add-binary.sh). Pagoda boots
with it and runs one job, 256 KiB of 4 KiB random writes to a tmpfs file
with the psync engine; the host runs the same job on a file of its own.
Both must end with status 0 and issue the same I/O, which fio reports in
its "issued rwts" line; Pagoda's must also report its write bandwidth.
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
from .procmem import KLOG

FIO = "/usr/bin/fio"
JOB = "--name=t --filename=%s --size=256k --rw=randwrite --bs=4k --ioengine=psync --randseed=7"


def issued(text):
    return re.findall(r"^\s*issued rwts: (.*)$", text, re.M)


@unit("debian-fio-x86_64", "system", needs=["x86_64"])
def debian_fio(ctx):
    """x86-64: Debian's fio runs a random-write job on a tmpfs file, issuing what the host does"""
    tally = ctx.tally
    if not os.path.exists(FIO):
        tally.check("debian-fio.installed", False,
                    "%s is missing: tools/install-deps.sh installs fio" % FIO)
        return
    top = os.path.join(OUT, "debian-fio-x86_64")
    shutil.rmtree(top, ignore_errors=True)
    os.makedirs(top)
    subprocess.run([os.path.join(ROOT, "tools", "add-binary.sh"), FIO, top], check=True,
                   capture_output=True)
    cpio = os.path.join(OUT, "debian-fio-x86_64.cpio")
    subprocess.run(["/usr/bin/python3", os.path.join(ROOT, "tools", "mkcpio.py"), cpio,
                    "--tree", top], check=True)
    with tempfile.TemporaryDirectory() as d:
        host = subprocess.run([FIO] + (JOB % os.path.join(d, "fio.dat")).split(),
                              capture_output=True, text=True, timeout=60)
    want = issued(host.stdout)
    tally.check("debian-fio.host-run", host.returncode == 0 and len(want) == 1,
                "the host's fio exited %d: %s" % (host.returncode, host.stderr[-300:]))
    line = "%s %s" % (FIO, JOB % "/tmp/fio.dat")
    cmdline = 'shell.run="run %s;poweroff" panic=-1' % line
    b = ctx.boot(ctx.x86_cmd(cmdline=cmdline, extra=["-initrd", cpio]), "debian-fio-x86_64",
                 120)
    t = b.clean_text()
    ok = "run: %s: exit status 0" % FIO in t and issued(t) == want and \
        re.search(r"WRITE: bw=\d", t) is not None
    tally.check("debian-fio.x86_64.job-like-host", ok,
                "pagoda issued %s, host %s; exit line %s (log %s)" % (
                    issued(t), want, re.findall(r"run: %s: .*" % FIO, t), rel(b.log)))


# One job per engine, each on its own MiB of /dev/vda: 4 KiB random writes
# with O_DIRECT, which fio then reads back and checks (crc32c headers).
# libaio keeps 8 in flight (io_submit, io_getevents); pvsync2 sets
# RWF_HIPRI on each preadv2/pwritev2.
DISK_JOBS = [("libaio", "--ioengine=libaio --iodepth=8", 0),
             ("psync", "--ioengine=psync", 1),
             ("pvsync2", "--ioengine=pvsync2 --hipri", 2)]
DISK_JOB = "--name=%s --filename=%s --size=1m --offset=%dm --bs=4k --rw=randwrite --direct=1 " \
    "--randseed=7 --verify=crc32c --verify_state_save=0 --output-format=json %s"


def fio_tree(name):
    """build/test/NAME: Debian's fio and its libraries, packed as ROOTFS= packs them."""
    top = os.path.join(OUT, name)
    shutil.rmtree(top, ignore_errors=True)
    os.makedirs(top)
    subprocess.run([os.path.join(ROOT, "tools", "add-binary.sh"), FIO, top], check=True,
                   capture_output=True)
    cpio = os.path.join(OUT, name + ".cpio")
    subprocess.run(["/usr/bin/python3", os.path.join(ROOT, "tools", "mkcpio.py"), cpio,
                    "--tree", top], check=True)
    return cpio


def fio_json(text, job):
    """The JSON report of the run of job NAME in the boot (kernel log lines
    left out; the console may wrap the echoed command), and its exit status."""
    m = re.search(r"pagoda> run %s --name=%s (.*?)\nrun: %s: exit status (\d+)\n" %
                  (re.escape(FIO), re.escape(job), re.escape(FIO)), text, re.S)
    if not m:
        return None, None
    out = [l for l in m.group(1).split("\n") if not KLOG.match(l)]
    start = next((i for i, l in enumerate(out) if l == "{"), None)
    try:
        return json.loads("\n".join(out[start:])) if start is not None else None, int(m.group(2))
    except ValueError:
        return None, int(m.group(2))


@unit("debian-fio-disk-x86_64", "system", needs=["x86_64"])
def debian_fio_disk(ctx):
    """x86-64: Debian's fio with libaio, psync and pvsync2 on /dev/vda; JSON counts, data checked on the host"""
    tally, name = ctx.tally, "debian-fio-disk-x86_64"
    if not os.path.exists(FIO):
        tally.check("%s.installed" % name, False, "%s is missing" % FIO)
        return
    cpio = fio_tree(name)
    disk = scratch(name + ".img", 8)
    lines = ["%s %s" % (FIO, DISK_JOB % (e, "/dev/vda", off, opts)) for e, opts, off in DISK_JOBS]
    script = [(r"pagoda> ", "run %s\r" % l) for l in lines] + [(r"pagoda> ", "poweroff\r")]
    b = ctx.boot(ctx.x86_cmd(cmdline="panic=-1", extra=["-initrd", cpio], disks=[disk]), name,
                 180, script)
    t = b.clean_text()
    log = rel(b.log)
    tally.check("%s.boot" % name, "Power down." in t and not b.timed_out,
                "did not reach poweroff (log %s)" % log)
    for engine, opts, off in DISK_JOBS:
        rep, status = fio_json(t, engine)
        job = (rep or {}).get("jobs", [{}])[0]
        counts = [job.get(d, {}).get(k) for d in ("write", "read") for k in ("total_ios", "io_bytes")]
        tally.check("%s.%s" % (name, engine),
                    status == 0 and job.get("error") == 0 and
                    job.get("job options", {}).get("ioengine") == engine and
                    counts == [256, 1 << 20, 256, 1 << 20],
                    "exit %s, error %s, [write ios, bytes, read ios, bytes] %s (log %s)" % (
                        status, job.get("error"), counts, log))
        # The host's own fio reads the image back and checks every block's header.
        v = subprocess.run([FIO] + (DISK_JOB % (engine, disk, off, "--ioengine=psync "
                                                "--verify_only")).split(),
                           capture_output=True, text=True, timeout=60)
        try:
            err = json.loads(v.stdout)["jobs"][0]["error"]
        except (ValueError, KeyError, IndexError):
            err = "no report"
        tally.check("%s.%s-host-verifies" % (name, engine), v.returncode == 0 and err == 0,
                    "the host's fio --verify_only on %s: exit %d, error %s" % (
                        rel(disk), v.returncode, err))
