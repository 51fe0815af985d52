"""Level 1: the host. The ktest suites built for Linux with ASan and UBSan,
our printf against the C library's, the SD-card image taken apart, and
short fuzzer runs."""
import concurrent.futures
import os
import re
import struct
import subprocess

from .common import OUT, ROOT, Boot, paths, parse_ktap, rel, unit
from pagoda import fuzzing  # noqa: E402


@unit("host-ktest", "host", needs=["host"], suites=True)
def host_ktest(ctx):
    """every ktest suite on the host (build/host/ktest-host)"""
    log = os.path.join(OUT, "host-ktest.log")
    b = Boot([paths.host_bin("ktest-host"), ctx.suites or "all"], log, 300).run()
    cases, suites, plan = parse_ktap(b.text)
    for suite, _, name, ok, skip in cases:
        full = "host:%s.%s" % (suite, name)
        ctx.tally.ok(full) if ok else ctx.tally.fail(full, "see %s" % log)
    ctx.tally.check("host:ktest-exit", b.status == 0 and cases,
                    "ktest-host exited %s (log %s)" % (b.status, log))
    print("  %-14s %3d cases, %4.1fs" % ("host", len(cases), b.seconds))


@unit("host-printf", "host", needs=["host"])
def host_printf(ctx):
    """the kernel's printf against the C library's"""
    b = Boot([paths.host_bin("printf-vs-libc")],
             os.path.join(OUT, "host-printf-vs-libc.log"), 300).run()
    ctx.tally.check("host:printf_vs_libc", b.status == 0,
                    b.text.strip().splitlines()[-1] if b.text.strip() else "no output")


@unit("sdcard", "host")
def sdcard(ctx):
    """the Pi 4 SD image built as `make sdcard` does, then taken apart"""
    # One FAT32 (LBA) partition in the MBR, every file back byte for byte.
    tally = ctx.tally
    fw = paths.PI4_FIRMWARE
    kernel = paths.ARM64_IMAGE["pi4"]
    if not os.path.exists(kernel):
        # No arm64 kernel built yet: any bytes show the builder works.
        kernel = os.path.join(OUT, "kernel8-standin.img")
        with open(kernel, "wb") as f:
            f.write(bytes(range(256)) * 1024)
    img = os.path.join(OUT, "pagoda-pi4.img")
    log = os.path.join(OUT, "sdcard.log")
    steps = [[os.path.join(ROOT, "tools", "fetch-pi4-firmware.sh"), fw],
             [os.path.join(ROOT, "tools", "mksdcard.sh"), img, kernel, fw,
              os.path.join(ROOT, "boot", "pi4")]]
    with open(log, "w") as f:
        for cmd in steps:
            r = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT)
            if not tally.check("sdcard:" + os.path.basename(cmd[0]), r.returncode == 0,
                               "exit %d (log %s)" % (r.returncode, log)):
                return
    with open(img, "rb") as f:
        mbr = f.read(512)
        ptype, start, count = mbr[446 + 4], *struct.unpack_from("<II", mbr, 446 + 8)
        f.seek(start * 512)
        boot = f.read(512)
    tally.check("sdcard:mbr", mbr[510:] == b"\x55\xaa" and ptype == 0x0c and start > 0
                and all(b == 0 for b in mbr[462:510]),
                "want one partition of type 0x0c, got type 0x%02x at %d" % (ptype, start))
    tally.check("sdcard:fat32", boot[82:90] == b"FAT32   " and boot[510:] == b"\x55\xaa",
                "partition at sector %d is not FAT32" % start)
    part = "%s@@%d" % (img, start * 512)
    want = {"start4.elf": os.path.join(fw, "start4.elf"),
            "fixup4.dat": os.path.join(fw, "fixup4.dat"),
            "bcm2711-rpi-4-b.dtb": os.path.join(fw, "bcm2711-rpi-4-b.dtb"),
            "config.txt": os.path.join(ROOT, "boot", "pi4", "config.txt"),
            "cmdline.txt": os.path.join(ROOT, "boot", "pi4", "cmdline.txt"),
            "kernel8.img": kernel}
    env = dict(os.environ, MTOOLS_SKIP_CHECK="1")
    for name, src in want.items():
        r = subprocess.run(["mtype", "-i", part, "::" + name], stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, env=env)
        with open(src, "rb") as f:
            same = r.returncode == 0 and r.stdout == f.read()
        tally.check("sdcard:file." + name, same, "%s on the card differs from %s" % (name, src))
    print("  %-14s %s from %s" % ("sdcard", rel(img), rel(kernel)))


@unit("host-fuzz", "host", needs=["host"])
def fuzz(ctx, seconds=4):
    """short libFuzzer runs (make fuzz-* runs them as long as you like)"""
    # Four seconds each, two at a time: a smoke test of every fuzzer, its
    # seeds and its corpus within make test's 20 minutes (the seeds alone
    # replay in well under a second); make fuzz and make fuzz-report run
    # them for real, for as long as FUZZ_SECONDS says.
    fdt_seeds = os.path.join(paths.BUILD, "fixtures", "seeds")
    # The user programs the kernel builds are well-formed ELF files to mutate.
    elf_seeds = [d for d in (os.path.join(paths.BUILD, "x86_64-pc", "user"),
                             os.path.join(paths.BUILD, "arm64-virt", "user"))
                 if os.path.isdir(d)]
    # (binary, corpus under build/fuzz/, extra arguments: flags or seed dirs);
    # each target's -max_len is pagoda.fuzzing's, shared with make fuzz-report.
    more = {"fdt": [fdt_seeds], "elf": elf_seeds,
            "partitions": [os.path.join(paths.BUILD, "fixtures", "partition-seeds")]}
    order = ("page-alloc", "fdt", "elf", "partitions", "swiotlb", "virtqueue", "dm-snap",
             "cr-image", "swsusp", "cpio")
    fuzzers = tuple(("fuzz-" + t, t, ["-max_len=%d" % fuzzing.MAX_LEN[t]] + more.get(t, []))
                    for t in order)
    def start(name, corpus, extra):
        exe = paths.host_bin(name)
        cdir = os.path.join(paths.BUILD, "fuzz", corpus)
        os.makedirs(cdir, exist_ok=True)
        log = os.path.join(OUT, "host-%s.log" % name)
        flags = [a for a in extra if a.startswith("-")]
        dirs = [a for a in extra if not a.startswith("-")]
        # The seeds `make fuzz-seeds` made from real inputs, and the
        # dictionary, when they are there (docs/fuzzing.md).
        seeds = os.path.join(paths.BUILD, "fuzz-seeds", corpus)
        dirs += [seeds] if os.path.isdir(seeds) else []
        dic = os.path.join(paths.ROOT, "tests", "host", "dict", corpus + ".dict")
        flags += ["-dict=" + dic] if os.path.exists(dic) else []
        return Boot([exe, "-max_total_time=%d" % seconds,
                     "-artifact_prefix=%s/" % paths.HOST] + flags + [cdir] + dirs,
                    log, seconds + 120).run()

    # Each fuzzer is one process on one CPU: two at a time use both of the
    # machine's CPUs and halve the wall time, not the fuzzing done.
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        boots = list(pool.map(lambda f: start(*f), fuzzers))
    for (name, _, _), b in zip(fuzzers, boots):
        log = b.log
        runs = re.search(r"Done (\d+) runs", b.text)
        ctx.tally.check("host:%s" % name, b.status == 0 and runs,
                        "fuzzer found a failure or did not run (log %s)" % log)
        print("  %-14s %s runs in %ds" % (name, runs.group(1) if runs else "?", seconds))
