#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Write a cpio "newc" archive (Linux's initramfs format) from NAME=FILE pairs.

    tools/mkcpio.py OUT bin/hello=build/x86_64-pc/user/hello ...
    tools/mkcpio.py OUT etc/motd-link@motd      (a symbolic link to "motd")
    tools/mkcpio.py OUT --tree DIR              (DIR's files and links, as /)

Directories on the way to each name get entries of their own, mtimes are 0
and inode numbers count up, so the same inputs always give the same bytes.
Standard library only.
"""
import os
import stat
import sys


def header(ino, mode, size, name):
    fields = [ino, mode, 0, 0, 1, 0, size, 0, 0, 0, 0, len(name) + 1, 0]
    return b"070701" + b"".join(b"%08x" % f for f in fields)


def entry(ino, mode, name, data):
    out = header(ino, mode, len(data), name) + name.encode() + b"\0"
    out += b"\0" * (-len(out) % 4)
    out += data + b"\0" * (-len(data) % 4)
    return out


USAGE = "usage: mkcpio.py OUT [NAME=FILE | NAME@TARGET | --tree DIR ...]"


def tree_pairs(top):
    """NAME=FILE and NAME@TARGET for everything under top, sorted (make run
    ROOTFS=DIR): DIR/usr/bin/md5sum becomes /usr/bin/md5sum. Links stay
    links; other kinds of file (fifos, devices) are not for an initramfs."""
    if not os.path.isdir(top):
        sys.exit("mkcpio.py: --tree %s: not a directory" % top)
    pairs = []
    for d, subdirs, files in os.walk(top):
        subdirs.sort()
        for name in sorted(files) + [s for s in subdirs if os.path.islink(os.path.join(d, s))]:
            path = os.path.join(d, name)
            rel = os.path.relpath(path, top)
            if os.path.islink(path):
                pairs.append("%s@%s" % (rel, os.readlink(path)))
            elif os.path.isfile(path):
                pairs.append("%s=%s" % (rel, path))
    return pairs


def main(argv):
    if len(argv) > 1 and argv[1] in ("-h", "--help"):
        print(USAGE)
        print(__doc__.split("\n\n", 1)[1].strip())
        return
    if len(argv) < 2 or argv[1].startswith("-"):
        # An option where OUT goes is a mistake, not a file name to write.
        sys.exit(USAGE)
    out, pairs, args = argv[1], [], argv[2:]
    while args:
        if args[0] == "--tree":
            if len(args) < 2:
                sys.exit(USAGE)
            pairs += tree_pairs(args[1])
            args = args[2:]
        else:
            pairs.append(args.pop(0))
    blob, ino, dirs = b"", 1, set()
    for pair in pairs:
        link = "@" in pair and ("=" not in pair or pair.index("@") < pair.index("="))
        if not link and "=" not in pair:
            sys.exit("mkcpio.py: %r is not NAME=FILE or NAME@TARGET" % pair)
        name, path = pair.split("@" if link else "=", 1)
        name = name.strip("/")
        parts = name.split("/")
        for i in range(1, len(parts)):
            d = "/".join(parts[:i])
            if d not in dirs:
                dirs.add(d)
                blob += entry(ino, stat.S_IFDIR | 0o755, d, b"")
                ino += 1
        if link:
            data, mode = path.encode(), stat.S_IFLNK | 0o777
        else:
            with open(path, "rb") as f:
                data = f.read()
            mode = stat.S_IFREG | (0o755 if os.access(path, os.X_OK) else 0o644)
        blob += entry(ino, mode, name, data)
        ino += 1
    blob += entry(ino, 0, "TRAILER!!!", b"")
    with open(out, "wb") as f:
        f.write(blob)


if __name__ == "__main__":
    main(sys.argv)
