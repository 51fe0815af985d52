"""The libFuzzer targets, in one table for every runner: `make test`'s
short slice (tests/levels/host.py) and `make fuzz-report`
(tools/fuzz-report.py). The Makefile's `make fuzz-NAME` rules pass the
same lengths (a host unit checks they agree)."""

# (target, binary, -max_len). An input longer than max_len is cut to it,
# so each is at least its largest seed (cr-image's crloop image: 107,753
# bytes; the ELF programs the build makes: tens of kB).
TARGETS = (
    ("dm-snap", "fuzz-dm-snap", 65536),
    ("cr-image", "fuzz-cr-image", 131072),
    ("swsusp", "fuzz-swsusp", 16384),
    ("elf", "fuzz-elf", 65536),
    ("cpio", "fuzz-cpio", 8192),
    ("partitions", "fuzz-partitions", 65537),
    ("fdt", "fuzz-fdt", 16384),
    ("page-alloc", "fuzz-page-alloc", 4096),
    ("swiotlb", "fuzz-swiotlb", 4096),
    ("virtqueue", "fuzz-virtqueue", 2048),
)

MAX_LEN = {name: n for name, _, n in TARGETS}
