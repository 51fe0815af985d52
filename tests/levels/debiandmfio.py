"""Debian's dmsetup and Debian's fio together on a snapshot (level 3;
issue 35's system test; docs/userland.md, docs/dm-snapshot.md).

One x86-64 boot with Debian's /usr/sbin/dmsetup, /usr/bin/fio and their
libraries in the initramfs (tools/add-binary.sh), the host's static
busybox for the script, and two disks: vda the origin (each sector its
own number, as tests/levels/dmioctl.py makes it) and vdb a zeroed COW
device. The script makes a snapshot-origin over vda and a persistent
snapshot on vdb with 8-sector chunks, then Debian's fio writes 1 MiB of
4 KiB random blocks through each with libaio and O_DIRECT and reads them
back (crc32c headers), then `dmsetup status`, a suspend and resume of
the origin, and both removed.

Afterwards the host reads both images with its own tools: its fio
(`--verify_only`) finds the origin job's blocks on the origin image and
the snapshot job's blocks in the snapshot's view, which the project's
reader of Linux's COW format (pagoda.dmioctl.snapshot_view) assembles
from the two images; the origin must not hold the snapshot's write, the
snapshot must still read the old origin where the origin was written,
and the store must hold one exception per written chunk, no more.
"""
import os
import re
import shutil
import subprocess
import tempfile

from .common import OUT, ROOT, rel, unit
from .debianfio import FIO, counts, fio_report
from pagoda import dmioctl as dmi  # noqa: E402  (tools/ is on the path: common)

DMSETUP = "/usr/sbin/dmsetup"
NAME = "debian-dmfio-x86_64"
MIB = 1 << 20
# (device, job name, MiB offset): 1 MiB a job, on MiBs of their own.
JOBS = [("base", "origin", 1), ("snap", "snapshot", 4)]
FIO_JOB = "--name=%s --filename=%s --size=1m --offset=%dm --bs=4k --rw=randwrite " \
    "--direct=1 --randseed=7 --verify=crc32c --verify_state_save=0 %s"
ENGINE = "--ioengine=libaio --iodepth=8 --output-format=json"

SCRIPT = r"""export DM_DISABLE_UDEV=1
D="%(dm)s"
step() { echo "\$ dmsetup $*"; $D "$@" 2>&1; echo "rc=$?"; }
job() { echo "\$ fio $1"; %(fio)s "$@" 2>&1; echo "rc=$?"; }
step create base --table "0 %(n)d snapshot-origin /dev/vda"
step create snap --table "0 %(n)d snapshot /dev/vda /dev/vdb P %(chunk)d"
%(jobs)s
step status
step suspend base
step info base
step resume base
step info base
step status snap
step remove snap
step remove base
step ls
echo "dmfio: end"
""" % {"dm": dmi.DM, "fio": FIO, "n": dmi.SECTORS, "chunk": dmi.CHUNK,
       "jobs": "\n".join("job " + FIO_JOB % (job, "/dev/mapper/" + dev, off, ENGINE)
                         for dev, job, off in JOBS)}


def rootfs(top):
    """dmsetup, fio, their libraries, busybox and the script under top; the cpio."""
    shutil.rmtree(top, ignore_errors=True)
    os.makedirs(os.path.join(top, "bin"))
    os.makedirs(os.path.join(top, "dm"))
    for prog in (DMSETUP, FIO):
        subprocess.run([os.path.join(ROOT, "tools", "add-binary.sh"), prog, top], check=True,
                       capture_output=True)
    shutil.copy(shutil.which("busybox"), os.path.join(top, "bin", "busybox"))
    with open(os.path.join(top, "dm", "dmfio.sh"), "w") as f:
        f.write(SCRIPT)
    cpio = top + ".cpio"
    subprocess.run(["/usr/bin/python3", os.path.join(ROOT, "tools", "mkcpio.py"), cpio,
                    "--tree", top], check=True)
    return cpio


def step(got, cmd):
    """The lines and exit status of the script's first step `cmd` (its
    first words: a table or fio's options may follow); ([], None): none ran."""
    return next(((lines, rc) for c, lines, rc in got if c == cmd or c.startswith(cmd + " ")),
                ([], None))


def linux_usage(exceptions, chunk=dmi.CHUNK):
    """What Linux's persistent store reports for a store that has taken
    `exceptions` chunks in order (dm-snap-persistent.c): chunk 0 the header,
    then areas of one metadata chunk and (chunk bytes / 16) data chunks.
    (sectors allocated, metadata sectors): the next free chunk and the
    metadata chunks up to the current area, in sectors."""
    per_area = chunk * 512 // 16
    area, used = divmod(exceptions, per_area)
    next_free = 2 + area * (per_area + 1) + used
    return next_free * chunk, (area + 2) * chunk


def host_verifies(image, job, off):
    """The host's fio finds every block the job wrote in image: (ok, why)."""
    v = subprocess.run([FIO] + (FIO_JOB % (job, image, off, "--ioengine=psync --verify_only "
                                           "--output-format=json")).split(),
                       capture_output=True, text=True, timeout=60, cwd=tempfile.gettempdir())
    rep = fio_report(v.stdout.split("\n"))
    err = rep["jobs"][0].get("error") if rep else "no report"
    return v.returncode == 0 and err == 0, "exit %d, error %s" % (v.returncode, err)


@unit(NAME, "system", needs=["x86_64"])
def debian_dmfio(ctx):
    """x86-64: Debian's dmsetup makes a snapshot, Debian's fio writes through origin and snapshot; the host reads both disks"""
    tally = ctx.tally
    if not os.path.exists(DMSETUP) or not os.path.exists(FIO) or not shutil.which("busybox"):
        tally.check("%s.installed" % NAME, False, "%s, %s or busybox is missing: "
                    "tools/install-deps.sh installs them" % (DMSETUP, FIO))
        return
    top = os.path.join(OUT, NAME)
    cpio = rootfs(top)
    origin, cow = top + "-origin.img", top + "-cow.img"
    old = dmi.origin_image()
    with open(origin, "wb") as f:
        f.write(old)
    with open(cow, "wb") as f:
        f.truncate(dmi.SECTORS * 512)
    b = ctx.boot(ctx.initrd_cmd("x86_64", cpio, disks=[origin, cow]),
                 NAME, 120, [(r"pagoda> ", "run /bin/busybox sh /dm/dmfio.sh\r"),
                             (r"dmfio: end", "poweroff\r")])
    t = b.clean_text().replace("\r", "")
    log = rel(b.log)
    got = dmi.steps(t)
    tally.check("%s.ran" % NAME, "dmfio: end" in t and "Power down." in t and not b.timed_out,
                "the script did not run to its end and power off (log %s)" % log)
    for cmd in ("create base", "create snap", "suspend base", "resume base", "remove snap",
                "remove base"):
        lines, rc = step(got, "dmsetup " + cmd)
        tally.check("%s.dmsetup-%s" % (NAME, cmd.replace(" ", "-")), rc == 0 and not lines,
                    "`dmsetup %s`: rc %s, said %s (log %s)" % (cmd, rc, lines, log))
    for dev, job, off in JOBS:
        lines, rc = step(got, "fio --name=" + job)
        rep = fio_report(lines)
        j = (rep or {}).get("jobs", [{}])[0]
        tally.check("%s.fio-%s" % (NAME, job),
                    rc == 0 and j.get("error") == 0 and counts(j) == [256, MIB] * 2,
                    "through /dev/mapper/%s: rc %s, error %s, [write ios, bytes, read ios, "
                    "bytes] %s (log %s)" % (dev, rc, j.get("error"), counts(j), log))
    # The store's usage as Linux would report it for the chunks written.
    written = sum(MIB // (dmi.CHUNK * 512) for _ in JOBS)
    alloc, meta = linux_usage(written)
    want = ["base: 0 %d snapshot-origin " % dmi.SECTORS,
            "snap: 0 %d snapshot %d/%d %d" % (dmi.SECTORS, alloc, dmi.SECTORS, meta)]
    lines, rc = step(got, "dmsetup status")
    tally.check("%s.status" % NAME, rc == 0 and [l.rstrip() for l in lines] ==
                [w.rstrip() for w in want],
                "`dmsetup status` said %s, rc %s; want %s (log %s)" % (lines, rc, want, log))
    states = [m for c, ls, _ in got if c == "dmsetup info base"
              for m in re.findall(r"^State: +(\S+)", "\n".join(ls), re.M)]
    tally.check("%s.suspended-then-active" % NAME, states == ["SUSPENDED", "ACTIVE"],
                "`dmsetup info base` after suspend, after resume: states %s (log %s)" % (
                    states, log))
    lines, rc = step(got, "dmsetup ls")
    tally.check("%s.all-removed" % NAME, rc == 0 and lines == ["No devices found"],
                "`dmsetup ls` at the end: %s, rc %s (log %s)" % (lines, rc, log))
    check_disks(tally, origin, cow, old)


def check_disks(tally, origin, cow, old):
    """The images after the boot, read on the host."""
    with open(origin, "rb") as f:
        o = f.read()
    with open(cow, "rb") as f:
        c = f.read()
    (_, o_job, o_off), (_, s_job, s_off) = JOBS
    ok, why = host_verifies(origin, o_job, o_off)
    tally.check("%s.origin-holds-fio" % NAME, ok, "the host's fio --verify_only on %s at %d MiB: "
                "%s" % (rel(origin), o_off, why))
    span = lambda img, off: img[off * MIB:(off + 1) * MIB]  # noqa: E731
    rest = [(a, b) for a, b in ((0, o_off), (o_off + 1, s_off), (s_off + 1, len(old) // MIB))]
    tally.check("%s.origin-else-untouched" % NAME,
                len(o) == len(old) and all(o[a * MIB:b * MIB] == old[a * MIB:b * MIB]
                                           for a, b in rest + [(s_off, s_off + 1)]),
                "the origin changed outside the origin job's MiB (%s)" % rel(origin))
    try:
        ex, _valid = dmi.cow_exceptions(c)
        view = dmi.snapshot_view(o, c)
        why = ""
    except ValueError as e:
        ex, view, why = {}, None, str(e)
    per = MIB // (dmi.CHUNK * 512)
    want = set(range(o_off * per, (o_off + 1) * per)) | set(range(s_off * per, (s_off + 1) * per))
    tally.check("%s.cow-exceptions" % NAME, set(ex) == want and len(set(ex.values())) == len(ex),
                "%s%d exceptions, %d of the %d chunks written, %d elsewhere (%s)" % (
                    why + "; " if why else "", len(ex), len(set(ex) & want), len(want),
                    len(set(ex) - want), rel(cow)))
    if view is None:
        tally.fail("%s.snapshot-holds-fio" % NAME, "no snapshot view: %s (%s)" % (why, rel(cow)))
        return
    tally.check("%s.snapshot-keeps-old-origin" % NAME,
                span(view, o_off) == span(old, o_off) and
                all(view[a * MIB:b * MIB] == old[a * MIB:b * MIB] for a, b in rest),
                "the snapshot's view does not read the old origin outside its own job (%s)"
                % rel(cow))
    with tempfile.TemporaryDirectory() as d:
        img = os.path.join(d, "snapshot-view.img")
        with open(img, "wb") as f:
            f.write(view)
        ok, why = host_verifies(img, s_job, s_off)
    tally.check("%s.snapshot-holds-fio" % NAME, ok, "the host's fio --verify_only on the "
                "snapshot's view (from %s and %s) at %d MiB: %s" % (rel(origin), rel(cow),
                                                                     s_off, why))
