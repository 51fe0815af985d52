"""Debian's dmsetup driving device-mapper through Linux's ioctls: one
script, run unchanged under Pagoda (tests/levels/dmioctl.py) and under
Debian's Linux in the same QEMU (`tools/linuxpeer.py dmioctl`, which
records Linux's answers as a fixture), so Pagoda's output is held against
what Linux printed, not against what someone expected.

The guest has Debian's /usr/sbin/dmsetup with its libraries, the host's
static busybox (for sh and dd), two data files, and two disks: vda the
origin (every sector filled with a pattern of its own number, so the host
can tell a sector's bytes from any other's) and vdb the COW device, all
zero. The script makes a snapshot-origin over vda and a persistent
snapshot on vdb, writes through both, and walks through every ioctl
dmsetup has a verb for. Afterwards the host reads both images: the
origin must hold the origin write and not the snapshot write, and the
COW device must be a Linux-format store whose exceptions give the
snapshot's view (the old origin, plus the snapshot write).

Pure parts only; standard library.
"""
import re
import struct

SECTORS = 16384            # 8 MiB disks
CHUNK = 8                  # sectors per snapshot chunk
ORIGIN_WRITE = (16, 4)     # 4 KiB blocks: seek, count (through the origin)
SNAP_WRITE = (100, 2)      # through the snapshot
DM = "/usr/sbin/dmsetup --noudevsync --noudevrules"

# One command per line; "$ dmsetup ..." precedes what it printed and
# "rc=N" follows, so the two logs are cut into the same steps.
SCRIPT = r"""export DM_DISABLE_UDEV=1
D="%(dm)s"
BB=/bin/busybox
step() { echo "\$ dmsetup $*"; $D "$@" 2>&1; echo "rc=$?"; }
dd() { echo "\$ dd $*"; $BB dd "$@" conv=fsync 2>/dev/null; echo "rc=$?"; }
step version
step create base --table "0 %(n)d snapshot-origin /dev/vda"
step create snap --table "0 %(n)d snapshot /dev/vda /dev/vdb P %(chunk)d"
step ls
dd if=/dm/a of=/dev/mapper/base bs=4096 seek=%(ow)d count=%(owc)d
dd if=/dm/b of=/dev/mapper/snap bs=4096 seek=%(sw)d count=%(swc)d
step status
step table
step status snap
step table snap
step info snap
step deps snap
step ls --tree
step info -c snap
step suspend base
step info base
step resume base
step status base
step rename snap snap2
step ls
step rename snap2 snap
step wait snap 1000
step message snap 0 hello
step targets
step create bad --table "0 8 nosuch-target"
step create odd --table "0 8 linear /dev/nosuch 0"
step ls
step create u1 -u PAGODA-U1 --table "0 8 linear /dev/vda 0"
step info u1
step remove -u PAGODA-U1
step create u2 --table "0 8 linear /dev/vdb 8"
step rename u2 --setuuid PAGODA-U2
step info -c u2
step remove u2
step remove snap
step remove base
step ls
step create empty --notable
step info empty
step load empty --table "0 8 linear /dev/vda 0"
step info empty
step clear empty
step info empty
step load empty --table "0 8 linear /dev/vda 0"
step resume empty
step table empty
step remove_all
step ls
echo "== dmioctltest"
/bin/dmioctltest /dev/vda
echo "dmioctl: end"
""" % {"dm": DM, "n": SECTORS, "chunk": CHUNK, "ow": ORIGIN_WRITE[0], "owc": ORIGIN_WRITE[1],
       "sw": SNAP_WRITE[0], "swc": SNAP_WRITE[1]}


def data(which, blocks):
    """The bytes a dd writes: blocks of 4 KiB, each byte naming the file
    and its block, so a misplaced block is seen."""
    tag = {"a": 0xA0, "b": 0xB0}[which]
    return b"".join(bytes([tag | (i & 15)]) * 4096 for i in range(blocks))


def origin_sector(n):
    """Sector n of the origin as the host made it: its number, repeated."""
    return struct.pack("<Q", n) * 64


def origin_image():
    return b"".join(origin_sector(n) for n in range(SECTORS))


def files():
    """{guest path: bytes} the guest needs beside dmsetup and busybox."""
    return {"dm/script.sh": SCRIPT.encode(),
            "dm/a": data("a", ORIGIN_WRITE[1]), "dm/b": data("b", SNAP_WRITE[1])}


# ---- the console log ------------------------------------------------------

NUMBER = re.compile(r"\b\d+:\d+\b|\(\d+, \d+\)|\b\d+, \d+\b")
# `dmsetup info -c`'s row: name, then the major and minor columns, then Stat
INFO_ROW = re.compile(r"^(\S+ +)\d+ +\d+( +[L-][I-][s-][rw-] )")


def steps(text):
    """[(command, [lines], rc)] from a console log of SCRIPT, in order."""
    text = text.replace("\r", "")
    out = []
    for m in re.finditer(r"^\$ (.*)\n((?:(?!\$ |rc=).*\n)*?)rc=(\d+)$", text, re.M):
        lines = [l for l in m.group(2).split("\n") if l.strip()]
        out.append((m.group(1), lines, int(m.group(3))))
    return out


def hostile(text):
    """dmioctltest's lines (user/libc/dmioctltest.c) from a console log of SCRIPT."""
    text = text.replace("\r", "")
    start = text.find("== dmioctltest\n")
    end = text.find("dmioctltest: done", start)
    if start < 0 or end < 0:
        return []
    return [l for l in text[start:end].split("\n")[1:] if l.strip() and not l.startswith("[")]


def device_numbers(text):
    """Device numbers ("254:0", "(254, 0)", "254, 0", info -c's columns) as N:N: the
    two kernels number their disks differently, and that is all that may
    differ in a line that names one."""
    return INFO_ROW.sub(r"\1N:N\2", NUMBER.sub("N:N", text))


# ---- the images afterwards ------------------------------------------------

def cow_exceptions(cow, chunk=CHUNK):
    """A Linux-format persistent store's exceptions {old chunk: new chunk},
    read as Linux's dm-snap-persistent.c lays it out (docs/dm-snapshot.md):
    chunk 0 the header, then areas of (chunk bytes / 16) records, each
    followed by its data chunks. Raises ValueError for a bad header."""
    magic, valid, version, csize = struct.unpack_from("<4I", cow, 0)
    if magic != 0x70416e53 or version != 1:
        raise ValueError("no snapshot header (magic %#x version %d)" % (magic, version))
    if csize != chunk:
        raise ValueError("chunk size %d, the table said %d" % (csize, chunk))
    cb = chunk * 512
    per_area = cb // 16
    found, area = {}, 0
    while True:
        at = (1 + (per_area + 1) * area) * cb
        if at + cb > len(cow):
            return found, valid
        n = 0
        for i in range(per_area):
            old, new = struct.unpack_from("<QQ", cow, at + 16 * i)
            if new == 0:
                return found, valid
            found[old] = new
            n += 1
        area += 1


def snapshot_view(origin, cow, chunk=CHUNK):
    """The snapshot's bytes: each chunk from the COW device where an
    exception says so, else from the origin."""
    ex, _valid = cow_exceptions(cow, chunk)
    cb = chunk * 512
    out = bytearray(origin)
    for old, new in ex.items():
        out[old * cb:(old + 1) * cb] = cow[new * cb:(new + 1) * cb]
    return bytes(out)


def expected_images():
    """What the origin and the snapshot must read after SCRIPT."""
    origin = bytearray(origin_image())
    snap = bytearray(origin)
    s, c = ORIGIN_WRITE
    origin[s * 4096:(s + c) * 4096] = data("a", c)
    s, c = SNAP_WRITE
    snap[s * 4096:(s + c) * 4096] = data("b", c)
    return bytes(origin), bytes(snap)
