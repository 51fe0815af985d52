#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Write or read the MBR partition table of a disk image, without root.

    mbr.py write IMAGE START_SECTOR SECTORS TYPE   one primary partition
    mbr.py show IMAGE                              print the four entries

Only what an SD card for the Raspberry Pi needs: one primary partition,
512-byte sectors, LBA addressing (the CHS fields are filled the way
fdisk does for a 255-head, 63-sector geometry, or saturated above 8 GiB).
Standard library only.
"""
import struct
import sys

SECTOR = 512
TABLE = 446           # the partition table follows the boot code
SIGNATURE = b"\x55\xaa"
# A fixed disk identifier ("PAGD"), so two builds of the same files match.
DISK_ID = 0x44474150


def chs(lba):
    """Cylinder/head/sector bytes for an LBA, or the 'use LBA' filler."""
    heads, spt = 255, 63
    c, rest = divmod(lba, heads * spt)
    if c > 1023:
        return b"\xfe\xff\xff"
    h, s = divmod(rest, spt)
    s += 1
    return bytes([h, ((c >> 2) & 0xc0) | s, c & 0xff])


def entry(start, count, ptype, boot=False):
    return struct.pack("<B3sB3sII", 0x80 if boot else 0, chs(start), ptype,
                       chs(start + count - 1), start, count)


def write(image, start, count, ptype):
    with open(image, "r+b") as f:
        f.seek(0, 2)
        if f.tell() < (start + count) * SECTOR:
            sys.exit("mbr: %s is smaller than the partition" % image)
        f.seek(440)
        f.write(struct.pack("<IH", DISK_ID, 0))
        f.write(entry(start, count, ptype) + bytes(16 * 3))
        f.write(SIGNATURE)


def read(image):
    """The non-empty entries as (index, boot, type, start, sectors)."""
    with open(image, "rb") as f:
        mbr = f.read(SECTOR)
    if len(mbr) != SECTOR or mbr[510:] != SIGNATURE:
        raise ValueError("%s: no MBR signature" % image)
    parts = []
    for i in range(4):
        boot, _, ptype, _, start, count = struct.unpack_from("<B3sB3sII", mbr, TABLE + 16 * i)
        if ptype:
            parts.append((i + 1, boot == 0x80, ptype, start, count))
    return parts


def main(argv):
    if len(argv) == 6 and argv[1] == "write":
        write(argv[2], int(argv[3], 0), int(argv[4], 0), int(argv[5], 0))
    elif len(argv) == 3 and argv[1] == "show":
        for i, boot, ptype, start, count in read(argv[2]):
            print("%d%s type 0x%02x start %d sectors %d (%d MiB)" %
                  (i, "*" if boot else "", ptype, start, count, count * SECTOR >> 20))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
