"""What Pagoda's scripts share: standard library only.

    paths    where the build puts each kernel, image and host binary
    qemu     the QEMU command line for one boot of one target
    accel    KVM or TCG: probed once, the verdict cached under build/
    boot     one QEMU (or host program) run: log kept, input typed, timeout
    ktap     reading the KTAP the kernel's and the host's ktest print
    results  the JSON-lines result file every tool writes

Used by tests/harness.py (and its levels under tests/levels/),
tools/bench.py, tools/experiment.py and tools/qemu.py (make run, make debug).
A script puts tools/ on sys.path and imports from here; nothing here
imports from tests/.
"""
