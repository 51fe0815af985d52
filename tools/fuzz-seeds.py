#!/usr/bin/env python3
"""Seed corpora for the libFuzzer targets, made from real inputs.

    tools/fuzz-seeds.py host OUT      what the host's own tools write
    tools/fuzz-seeds.py boot OUT      what a Pagoda boot writes to its disks

`host` writes OUT/cpio (GNU cpio archives), OUT/partitions (tables made by
util-linux's sfdisk), OUT/elf (the static programs the build made and the
host's static busybox) and OUT/fdt (the boards' device trees). `boot`
boots the x86-64 kernel once under QEMU (TCG) with four scratch disks and
has it write what it writes for a user: persistent COW stores at five chunk
sizes (dmtorture through a snapshot, as tests/levels/dmsnap.py does),
checkpoint images (crloop, crtree) and a hibernation image; then cuts each
into the input its fuzzer takes (OUT/dm-snap, OUT/cr-image, OUT/swsusp).
Nothing here lays out a format's bytes by hand: where a fuzzer's input
carries a selector byte in front (see each tests/host/fuzz_*.c), that
byte is the only thing added. docs/fuzzing.md lists the sources.
"""
import glob
import os
import shutil
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
from pagoda import paths, qemu  # noqa: E402
from pagoda.boot import Boot  # noqa: E402


def put(out, target, name, data):
    d = os.path.join(out, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def fresh(out, target):
    shutil.rmtree(os.path.join(out, target), ignore_errors=True)
    os.makedirs(os.path.join(out, target))


# ---------------------------------------------------------------- cpio

def cpio_tree(top):
    """A small tree with every kind of entry the initramfs reader knows."""
    os.makedirs(os.path.join(top, "etc", "init.d"))
    os.makedirs(os.path.join(top, "bin"))
    with open(os.path.join(top, "etc", "motd"), "w") as f:
        f.write("welcome\n")
    with open(os.path.join(top, "etc", "init.d", "rcS"), "w") as f:
        f.write("#!/bin/sh\necho up\n")
    os.chmod(os.path.join(top, "etc", "init.d", "rcS"), 0o755)
    with open(os.path.join(top, "bin", "tool"), "wb") as f:
        f.write(bytes(range(256)) * 3)
    os.link(os.path.join(top, "bin", "tool"), os.path.join(top, "bin", "tool-again"))
    os.symlink("motd", os.path.join(top, "etc", "motd-link"))
    os.symlink("/etc/init.d/rcS", os.path.join(top, "bin", "rc"))
    os.symlink("../etc", os.path.join(top, "bin", "up"))
    open(os.path.join(top, "empty"), "w").close()


def gnu_cpio(top, fmt, names=None):
    if names is None:
        names = subprocess.run(["find", "."], cwd=top, capture_output=True, text=True,
                               check=True).stdout
        names = "\n".join(sorted(names.split())) + "\n"
    return subprocess.run(["cpio", "-o", "-H", fmt, "--quiet", "--reproducible"], cwd=top,
                          input=names.encode(), capture_output=True, check=True).stdout


def seeds_cpio(out):
    """fuzz_cpio: byte 0 even = the rest is the archive as it is."""
    fresh(out, "cpio")
    with tempfile.TemporaryDirectory() as tmp:
        cpio_tree(tmp)
        newc, crc = gnu_cpio(tmp, "newc"), gnu_cpio(tmp, "crc")
        one = gnu_cpio(tmp, "newc", "etc\netc/motd\n")
        links = gnu_cpio(tmp, "newc", "bin\nbin/tool\nbin/tool-again\nbin/rc\nbin/up\n")
    for name, data in (("newc", newc), ("crc", crc), ("one-file", one), ("links", links),
                       ("back-to-back", one + links + newc)):
        put(out, "cpio", name, b"\x00" + data)
    # byte 0 = 2 | 32 << 2: cut in half, the second half a boot module
    # (kernel/initramfs.c); the same tree again, every name replaced
    for name, first, second in (("module-newc", newc, newc), ("module-crc", newc, crc)):
        if len(first) == len(second):
            put(out, "cpio", name, b"\x82" + first + second)


# ---------------------------------------------------------------- partitions

def sfdisk(script, sectors, lbs=512):
    with tempfile.NamedTemporaryFile(suffix=".img") as img:
        img.truncate(sectors * lbs)
        img.flush()
        cmd = ["sfdisk", "--no-reread", "--no-tell-kernel", "-q", img.name]
        if lbs != 512:
            cmd[1:1] = ["--sector-size", str(lbs)]
        subprocess.run(cmd, input=script.encode(), capture_output=True, check=True)
        return open(img.name, "rb").read()


def seeds_partitions(out):
    """fuzz_partitions: a disk image, then one byte whose bit 0 picks
    4096-byte blocks; 0 here, 512-byte sectors."""
    fresh(out, "partitions")
    if not shutil.which("sfdisk"):
        print("fuzz-seeds: no sfdisk (Debian's fdisk): no partition seeds", file=sys.stderr)
        return
    tables = {
        "mbr-primary": ("label: dos\nunit: sectors\n"
                        "start=2, size=40, type=83\nstart=42, size=40, type=82, bootable\n"
                        "start=82, size=40, type=c\n", 128),
        "mbr-logical": ("label: dos\nunit: sectors\n"
                        "start=2, size=20, type=83\nstart=24, size=100, type=5\n"
                        "start=26, size=30, type=83\nstart=58, size=30, type=7\n"
                        "start=90, size=30, type=82\n", 128),
        "gpt": ("label: gpt\nunit: sectors\nfirst-lba: 34\ntable-length: 128\n"
                "start=34, size=20, type=0FC63DAF-8483-4772-8E79-3D69D8477DE4, name=root\n"
                "start=54, size=20, type=0657FD6D-A4AB-43C4-84E5-0933C84B4F4F, name=swap\n"
                "start=74, size=20, type=C12A7328-F81F-11D2-BA4B-00A0C93EC93B\n", 128),
        "gpt-short-table": ("label: gpt\nunit: sectors\nfirst-lba: 3\ntable-length: 4\n"
                            "start=3, size=30\nstart=33, size=60\n", 100),
    }
    for name, (script, sectors) in tables.items():
        put(out, "partitions", name, sfdisk(script, sectors) + b"\x00")


# ---------------------------------------------------------------- elf

def seeds_elf(out):
    """fuzz_elf: the file itself. The programs the build made for both
    arches (user/), their vDSOs (what restore's symbol reader takes), the
    host's static busybox, whole; and the first scripts ("#!") of the
    host's /usr/bin, for the script reader."""
    fresh(out, "elf")
    files = sorted(glob.glob(os.path.join(paths.BUILD, "*", "user", "*")))
    files += sorted(glob.glob(os.path.join(paths.BUILD, "*", "vdso", "vdso.so")))
    files += [p for p in ("/bin/busybox",) if os.path.exists(p)]
    scripts = 0
    for p in files + sorted(glob.glob("/usr/bin/*")):
        if not os.path.isfile(p):
            continue
        with open(p, "rb") as f:
            data = f.read(512) if p not in files else f.read()
        if data[:4] == b"\x7fELF" and p in files:
            put(out, "elf", p.strip("/").replace("/", "_"), data)
        elif data[:2] == b"#!" and scripts < 8:
            put(out, "elf", p.strip("/").replace("/", "_"), data[:512])
            scripts += 1


# ---------------------------------------------------------------- fdt

def seeds_fdt(out):
    """fuzz_fdt: the device trees of the three boards, as
    tools/gen-fdt-fixtures.py cuts them to their size (ours, QEMU virt's
    as it dumps them, the Pi 4's from Debian when it could be fetched)."""
    fresh(out, "fdt")
    for p in sorted(glob.glob(os.path.join(paths.BUILD, "fixtures", "seeds", "*.dtb"))):
        shutil.copy(p, os.path.join(out, "fdt", os.path.basename(p)))


# ---------------------------------------------------------------- the boot

COW_SLICE = 256                 # sectors of vdb per COW store (128 KiB)
ORIGIN_SECTORS = 2048
# chunk size in sectors -> dmtorture writes: each store fits the fuzzer's
# 64 KiB, and the smallest chunk fills two whole metadata areas.
DM_CHUNKS = ((1, 8), (2, 8), (4, 8), (8, 6), (16, 4))


def dm_steps():
    steps = ["dmtorture init vda %d" % ORIGIN_SECTORS]
    for k, (chunk, writes) in enumerate(DM_CHUNKS):
        steps += ["dmsetup create cow%d --table '0 %d linear vdb %d'" % (k, COW_SLICE,
                                                                       k * COW_SLICE),
                  "dmsetup create base --table '0 %d snapshot-origin vda'" % ORIGIN_SECTORS,
                  "dmsetup create snap --table '0 %d snapshot vda cow%d P %d'"
                  % (ORIGIN_SECTORS, k, chunk),
                  "dmtorture run base snap %d" % writes,
                  "dmsetup status snap",
                  "dmsetup remove snap", "dmsetup remove base", "dmsetup remove cow%d" % k]
    return steps


def boot_disks(tmp):
    sizes = {"vda": 4, "vdb": 4, "vdc": 16, "vdd": 160}
    out = []
    for name, mib in sizes.items():
        p = os.path.join(tmp, name + ".img")
        with open(p, "wb") as f:
            f.truncate(mib << 20)
        out.append(p)
    return out


def run_boot(tmp, log):
    P = r"pagoda> "
    pids = {}

    def grab(key):
        def f(m):
            pids[key] = m.group(1)
            return ""
        return f
    script = [(P, s + "\r") for s in dm_steps()]
    script += [
        (P, "run /bin/crloop 30 &\r"), (r"pid (\d+), vDSO clock", grab("loop")),
        (r"crloop: tick 2", lambda m: "checkpoint %s --leave-running vdc\r" % pids["loop"]),
        (r"checkpoint: .*\n", "\r"),
    ]
    script += [(P, "hibernate\r")]
    disks = boot_disks(tmp)
    cmd = qemu.build_cmd(accel="tcg", cmdline="resume=vdd panic=-1", disks=disks,
                         kernel=paths.X86_KERNEL)[0]
    b = Boot(cmd, log, 600, script).run()
    return b, disks


def split_images(tmp_disk):
    with open(tmp_disk, "rb") as f:
        return f.read()


def dm_store_end(store):
    """Chunks a persistent store uses: its header, every area the reader
    reads (the full ones and the first not full), every data chunk."""
    magic, valid, version, chunk = struct.unpack_from("<IIII", store)
    if magic != 0x70416E53 or not chunk:
        return 0
    cb = chunk * 512
    per_area = cb // 16
    end, area = 1, 0
    while True:
        loc = 1 + area * (per_area + 1)
        if (loc + 1) * cb > len(store):
            return end
        end = max(end, loc + 1)
        used = 0
        for i in range(per_area):
            old, new = struct.unpack_from("<QQ", store, loc * cb + 16 * i)
            if new == 0:
                break
            used += 1
            end = max(end, new + 1)
        if used < per_area:
            return end
        area += 1


def crc32c(data, crc=0xFFFFFFFF):
    """lib/crc32.c's crc32c(~0U, ...): Castagnoli, reflected, no final xor."""
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 if crc & 1 else 0)
    return crc


# tests/host/fuzz_swsusp_header.c's build_id: the kernel it stands for.
FUZZ_BUILD_ID = bytes([0xde, 0xad, 0xbe, 0xef] + list(range(1, 17)))


def swsusp_as_fuzzer_machine(header):
    """The real header with the fuzzer's build id and its CRC made right
    again: every other field is as the kernel wrote it."""
    h = bytearray(header)
    h[64:96] = FUZZ_BUILD_ID + bytes(12)
    struct.pack_into("<I", h, 96, len(FUZZ_BUILD_ID))
    struct.pack_into("<I", h, 28, 0)
    struct.pack_into("<I", h, 28, crc32c(bytes(h)))
    return bytes(h)


def seeds_boot(out):
    fresh(out, "dm-snap")
    fresh(out, "cr-image")
    fresh(out, "swsusp")
    log = os.path.join(paths.BUILD, "fuzz-seeds", "boot.log")
    with tempfile.TemporaryDirectory(dir=os.path.join(paths.BUILD)) as tmp:
        b, (vda, vdb, vdc, vdd) = run_boot(tmp, log)
        text = b.clean_text()
        cow = split_images(vdb)
        for k, (chunk, writes) in enumerate(DM_CHUNKS):
            store = cow[k * COW_SLICE * 512:(k + 1) * COW_SLICE * 512]
            end = dm_store_end(store)
            if not end:
                print("fuzz-seeds: chunk %d: no store written (log %s)" % (chunk, log),
                      file=sys.stderr)
                continue
            whole = store[:end * chunk * 512]
            put(out, "dm-snap", "chunk%d-%dwrites" % (chunk, writes), whole)
            # the same store as it was made: its header and empty area
            put(out, "dm-snap", "chunk%d-new" % chunk,
                whole[:chunk * 512] + bytes(chunk * 512))
        img = split_images(vdc)
        magic, = struct.unpack_from("<Q", img)
        total, = struct.unpack_from("<Q", img, 24)
        if magic and 0 < total <= len(img):
            # fuzz_cr_image: byte 0 even = the image as it is; odd = its
            # checksums made right again after mutation; 3 = its record
            # count and length too
            put(out, "cr-image", "crloop", b"\x00" + img[:total])
            put(out, "cr-image", "crloop-recrc", b"\x01" + img[:total])
            put(out, "cr-image", "crloop-recount", b"\x03" + img[:total])
        else:
            print("fuzz-seeds: no checkpoint image (log %s)" % log, file=sys.stderr)
        hib = split_images(vdd)
        if hib[:16] == b"PAGODA-HIBERNATE":
            hsize, = struct.unpack_from("<I", hib, 20)
            header = swsusp_as_fuzzer_machine(hib[:hsize])
            meta = hib[4096:4096 * 3]
            # fuzz_swsusp_header: header struct then the pfn list (byte 0
            # is the signature's 'P', even: taken as it is)
            put(out, "swsusp", "x86_64-pc", header + meta)
            put(out, "swsusp", "x86_64-pc-header", header)
            put(out, "swsusp", "x86_64-pc-own-build-id", hib[:hsize])
        else:
            print("fuzz-seeds: no hibernation image (log %s)" % log, file=sys.stderr)
    return text


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("host", "boot"):
        print(__doc__, file=sys.stderr)
        return 2
    out = sys.argv[2]
    os.makedirs(out, exist_ok=True)
    if sys.argv[1] == "host":
        seeds_cpio(out)
        seeds_partitions(out)
        seeds_elf(out)
        seeds_fdt(out)
    else:
        seeds_boot(out)
    for t in sorted(os.listdir(out)):
        d = os.path.join(out, t)
        if os.path.isdir(d):
            files = os.listdir(d)
            print("  SEEDS   %-12s %3d files, %7d bytes" % (
                t, len(files), sum(os.path.getsize(os.path.join(d, f)) for f in files)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
