"""The harness's units, one module per level of testing.

    host.py     level 1: host unit tests, printf, the SD image, the fuzzers
    kernel.py   level 2: the in-kernel suites on every QEMU target
    system.py   level 3: stories told through a boot (panic, params, shell)
    memory.py   level 3: the page allocator's boot decisions and tools
    docs.py     level 1: the README's make lines and shell commands exist
    tooling.py  levels 1 and 3: make's knobs, the ISO's command line, and
                a scripted `make run`'s exit status
    disks.py    level 2: the disk drivers' integrity suite on scratch images
    dmsnap.py   level 3: dm-snapshot across QEMU restarts and crashes
    cr.py       level 3: checkpoint/restore of processes, across restarts and vDSOs
    hibernate.py level 3: hibernation and resume across QEMU restarts, bad images
    procmem.py  level 3: process memory against Linux (hostile calls) and the leak check
    selftests.py level 3: Linux's own selftests on Pagoda beside the host's results
    busybox.py  level 3: a busybox session on Pagoda beside the same busybox on the host
    dynelf.py   level 3: Debian's dynamic programs through ld.so beside the host's output
    aio.py      level 3: native AIO and preadv2 beside the host's answers, no leak
    dmioctl.py  level 3: Debian's dmsetup through device-mapper ioctls, beside Linux's answers
    labs.py     level 1: every lab's student tree and grade (tools/lab.py check)

A unit is a function registered with @unit(name, level, needs=[builds],
suites=...): it takes the run's context (ctx.tally for verdicts, ctx.boot
to boot, ctx.x86_cmd / ctx.arm64_cmd for QEMU command lines) and records
every check it makes. Importing this package registers every unit, in the
order `make test` runs them. tests/README.md says how to add one.
"""
from . import host, docs, tooling, labs, kernel, disks, system, memory, dmsnap, cr, \
    hibernate, procmem, selftests, busybox, dynelf, debianfio, debiandmfio, aio, \
    dmioctl  # noqa: F401  (registration order)
from .common import BUILDS, LEVELS, UNITS  # noqa: F401
