"""Debian's fio, unmodified, on Pagoda (level 3; issue 35).

The host's /usr/bin/fio and the libraries ldd names go into an initramfs
as `make run ROOTFS=dir` packs one (tools/add-binary.sh). Pagoda boots
with it and runs one job, 256 KiB of 4 KiB random writes to a tmpfs file
with the psync engine; the host runs the same job on a file of its own.
Both must end with status 0 and issue the same I/O, which fio reports in
its "issued rwts" line; Pagoda's must also report its write bandwidth.
What fio asks that Pagoda lacks is listed in docs/userland.md.
"""
import os
import re
import shutil
import subprocess
import tempfile

from .common import OUT, ROOT, rel, unit

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
