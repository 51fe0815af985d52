# Pagoda build. The two commands a newcomer needs:
#   make run     build the x86-64 kernel and boot it in QEMU to the shell
#   make test    build everything and run every test level; ends "N passed, N failed"
# Also: make bench | experiment | iso | debug | host-test | fuzz | deps | clean
#       make lab LAB=NAME | grade [LAB=NAME]   (the course's labs: docs/course.md)
#       make ARCH=arm64 PLATFORM=pi4 sdcard   (a Raspberry Pi 4 SD-card image)
# Knobs: ARCH=x86_64|arm64 PLATFORM=pc (x86_64), virt|pi4 (arm64)
#        CMDLINE='key=value ...' SMP=1..16 MEM=SIZE (at least 16M) EL2=1 (arm64 virt at EL2)
#        GIC=3 (arm64 virt with a GICv3 instead of the GICv2)
#        BOOT=direct|bios|uefi (how `make run` boots x86-64)
#        MACHINE=q35|pc (x86-64: QEMU's chipset; pc has no ECAM, so PCI goes through ports)
#        ACCEL=auto|kvm|tcg (x86-64 guests; auto probes once: build/accel.verdict)
#        HMAT=SIZE (x86-64: describe a direct-mapped memory-side cache: shuffle turns on)
#        USERLAND=busybox (make run: Debian's busybox as /init, docs/userland.md)
#        ROOTFS=dir (make run: a host directory in the initramfs; tools/add-binary.sh)
#        ONLY=... (make test: a subset; ONLY=help lists them)
#        BENCH=NAME (make bench: one section, e.g. mm, dmsnap) BENCH_ARGS=... EXPERIMENT_ARGS=...
#        (tools/bench.py, tools/experiment.py --help)
#        DISK=file.img DISKS='a.img b.img' DISK_BUS=virtio|sdhci-pci (attach disks)

ARCH ?= x86_64
# A mistyped knob gets one line saying what it takes, before anything runs.
ifeq ($(filter x86_64 arm64,$(ARCH)),)
$(error ARCH=$(ARCH) is not one of ours: use ARCH=x86_64 or ARCH=arm64)
endif
ifeq ($(ARCH),x86_64)
PLATFORM ?= pc
ifneq ($(PLATFORM),pc)
$(error ARCH=x86_64 has one PLATFORM, pc, not '$(PLATFORM)' (the Pi 4 is ARCH=arm64 PLATFORM=pi4))
endif
else
PLATFORM ?= virt
endif
CMDLINE ?=
SMP ?= 2
MEM ?= 1G
BOOT ?= direct
MACHINE ?= q35
ACCEL ?= auto
HMAT ?=
# Disk images to attach (raw): DISK=one.img, DISKS='a.img b.img'; DISK_BUS=
# virtio (default) or sdhci-pci on x86-64 and arm64 virt; raspi4b: SD slots.
DISK ?=
DISKS ?=
# Your own files in the initramfs (make run): INITRD=archive.cpio (newc),
# ADD='host-path[=/name] ...' (default /bin/BASENAME).
INITRD ?=
ADD ?=
# ROOTFS=dir (make run): a host directory packed into the initramfs as /,
# e.g. Debian programs and their libraries put there by tools/add-binary.sh.
ROOTFS ?=
# USERLAND=busybox (make run): Debian's busybox-static and its applet links
# in the initramfs, and /init a busybox shell on the console (docs/userland.md).
USERLAND ?=
ifeq ($(filter-out busybox,$(USERLAND)),)
else
$(error USERLAND=$(USERLAND): use USERLAND=busybox, or leave it empty for the kernel shell)
endif
DISK_BUS ?= virtio
ifeq ($(filter auto kvm tcg,$(ACCEL)),)
$(error ACCEL=$(ACCEL) is not an accelerator: use ACCEL=auto, kvm or tcg)
endif
ifneq ($(HMAT),)
ifneq ($(ARCH),x86_64)
$(error HMAT=$(HMAT): the memory-side cache is described in ACPI HMAT, which only ARCH=x86_64 boots with)
endif
endif
# Recipes read it from the environment: quotes in it survive the shell.
export CMDLINE

B := build/$(ARCH)-$(PLATFORM)
# VDSO_LAYOUT=alt: the same kernel with a vDSO whose entry points all sit
# 256 bytes further in, as another kernel build's would: what a restore of
# an image from elsewhere meets (kernel/cr/vdso_cr.c). Its own build tree.
VDSO_LAYOUT ?= std
ifeq ($(VDSO_LAYOUT),alt)
B := build/$(ARCH)-$(PLATFORM)-vdso-alt
else ifneq ($(VDSO_LAYOUT),std)
$(error VDSO_LAYOUT=$(VDSO_LAYOUT): use VDSO_LAYOUT=std or alt)
endif
HB := build/host
PY := /usr/bin/python3
# Tools are installed on first use; the stamp avoids asking apt each time.
DEPS_STAMP := build/.deps-ok

.PHONY: all run debug test bench bench-host experiment iso host-test deps clean kernel fuzz lab grade \
	fuzz-page-alloc test-build-x86_64 test-build-host test-build-arm64-virt test-build-arm64-pi4 fuzz-partitions \
	fuzz-virtqueue dm-crash selftests busybox
all: kernel

deps: $(DEPS_STAMP)
$(DEPS_STAMP): tools/install-deps.sh
	@tools/install-deps.sh
	@mkdir -p build && touch $@

# ---------------------------------------------------------------------------
# The kernel

# The Raspberry Pi 4 SD card (sdcard) and its firmware (pi4-firmware, PI4_DTB:
# the device tree QEMU raspi4b boots with too).
include boot/pi4/sdcard.mk
include arch/$(ARCH)/build.mk

KERNEL_DIRS := kernel shell bench kernel/cr kernel/futex kernel/sched kernel/locking kernel/time kernel/power lib mm mm/lab dma drivers/tty \
	block block/partitions block/dm drivers/block drivers/block/null_blk \
	drivers/base drivers/pci drivers/virtio drivers/mmc drivers/char fs fs/ramfs fs/proc ipc net
KSRCS := $(foreach d,$(KERNEL_DIRS),$(wildcard $(d)/*.c)) $(ARCH_CSRCS)
KOBJS := $(patsubst %.c,$(B)/obj/%.o,$(KSRCS)) \
	 $(patsubst %.asm,$(B)/obj/%.o,$(ARCH_ASRCS)) \
	 $(patsubst %.S,$(B)/obj/%.o,$(ARCH_SSRCS))

KCFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Wno-unused-parameter \
	-ffreestanding -nostdinc -isystem $(shell $(KCC) -print-file-name=include) \
	-fno-stack-protector -fno-pic -fno-pie -fno-omit-frame-pointer \
	-fno-asynchronous-unwind-tables -fno-tree-loop-distribute-patterns \
	-fno-optimize-sibling-calls \
	-Iinclude -Iarch/$(ARCH)/include $(ARCH_CFLAGS) -MMD -MP

kernel: $(B)/pagoda.elf $(ARCH_IMAGES)

include user/user.mk

# Objects depend on the build files too: a flag change rebuilds everything.
BUILD_FILES := Makefile arch/$(ARCH)/build.mk

# ccache, when installed (tools/install-deps.sh installs it): the vDSO-alt
# kernels make test builds differ from the standard ones in the vDSO
# alone, and every other object comes out of the cache (x86-64's alt
# kernel, after the standard one: 12 s instead of 50 s with -j2 here).
# Its cache lives in build/, so make clean empties it and nothing outside
# the tree is touched.
CCACHE := $(shell command -v ccache 2>/dev/null)
export CCACHE_DIR := $(CURDIR)/build/.ccache
export CCACHE_MAXSIZE := 1G

$(B)/obj/%.o: %.c $(BUILD_FILES) | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CCACHE) $(KCC) $(KCFLAGS) -c $< -o $@

$(B)/obj/%.o: %.S $(BUILD_FILES) | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	@echo "  AS      $<"
	@$(KCC) $(KCFLAGS) -D__ASSEMBLER__ -Iarch/$(ARCH) -c $< -o $@

NASM_DEBUG := -g -F dwarf
# The x86 entry code has two code sections (the 32-bit .boot.text and the
# high .text), and NASM's DWARF describes one compile unit with one range:
# GDB then finds long_mode_high's pc in the unit but in none of its blocks
# and floods every `bt` with "in read in CU, but not in symtab". Without
# DWARF there, GDB names the frame from the symbol table and stops.
$(B)/obj/%head.o: NASM_DEBUG :=

$(B)/obj/%.o: %.asm $(BUILD_FILES) | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	@echo "  NASM    $<"
	@nasm -f elf64 $(NASM_DEBUG) -I arch/$(ARCH)/ $< -o $@

$(B)/kernel.ld: arch/$(ARCH)/kernel.ld.S arch/$(ARCH)/layout.h linker.ld
	@mkdir -p $(B)
	@$(KCC) -E -P -x c -Iarch/$(ARCH) -I. $< -o $@

# Two links: the first one's text symbols become the table the second
# carries (see include/pagoda/ksyms.h). The check proves they agree.
$(B)/ksyms0.c: tools/gen-ksyms.py
	@mkdir -p $(B)
	@$(PY) tools/gen-ksyms.py "" > $@
$(B)/ksyms%.o: $(B)/ksyms%.c
	@$(KCC) $(KCFLAGS) -c $< -o $@
$(B)/pagoda0.elf: $(KOBJS) $(B)/ksyms0.o $(B)/kernel.ld
	@echo "  LD      $@"
	@$(KLD) $(KLDFLAGS) -T $(B)/kernel.ld -o $@ $(KOBJS) $(B)/ksyms0.o
$(B)/ksyms1.c: $(B)/pagoda0.elf tools/gen-ksyms.py
	@$(KNM) -n $< > $(B)/pagoda0.nm
	@$(PY) tools/gen-ksyms.py $(B)/pagoda0.nm > $@
$(B)/pagoda.elf: $(KOBJS) $(B)/ksyms1.o $(B)/kernel.ld
	@echo "  LD      $@"
	@$(KLD) $(KLDFLAGS) -T $(B)/kernel.ld -o $@ $(KOBJS) $(B)/ksyms1.o
	@$(KNM) -n $@ > $(B)/pagoda.nm
	@$(PY) tools/gen-ksyms.py $(B)/pagoda.nm | cmp -s - $(B)/ksyms1.c || \
		{ echo "ksyms: symbol table does not match the final link" >&2; rm -f $@; exit 1; }

# The raw image loaders take (arm64: QEMU -kernel, the Pi firmware).
$(B)/kernel8.img: $(B)/pagoda.elf
	@echo "  OBJCOPY $@"
	@$(KOBJCOPY) -O binary $< $@

-include $(KOBJS:.o=.d)

# ---------------------------------------------------------------------------
# Running

GDB ?= gdb
# What QEMU's -kernel gets: the ELF on x86 (PVH note), the raw Image on arm64.
RUN_KERNEL ?= $(B)/pagoda.elf
QEMU_RUN = $(PY) tools/qemu.py --arch $(ARCH) --platform $(PLATFORM) \
	--boot $(BOOT) --machine $(MACHINE) --smp $(SMP) --mem $(MEM) --kernel $(RUN_KERNEL) \
	--iso $(B)/pagoda.iso --cmdline "$$CMDLINE" --accel $(ACCEL) $(ARCH_RUN_ARGS) \
	$(if $(HMAT),--hmat-cache $(HMAT)) \
	$(foreach d,$(DISK) $(DISKS),--disk $(d)) --disk-bus $(DISK_BUS) \
	$(if $(USERLAND),--initrd $(B)/busybox.cpio) \
	$(if $(INITRD),--initrd $(INITRD)) $(foreach f,$(ADD),--add $(f)) \
	$(if $(ROOTFS),--rootfs $(ROOTFS))

run: kernel $(if $(filter bios uefi,$(BOOT)),iso) $(ARCH_RUN_DEPS) $(if $(USERLAND),$(B)/busybox.cpio)
	@$(QEMU_RUN)

# Debian's busybox-static for the kernel's arch, with its applet links (tools/mkbusybox.sh).
$(B)/busybox.cpio: tools/mkbusybox.sh tools/fetch-busybox-arm64.sh tools/mkcpio.py \
		user/busybox/init user/busybox/passwd user/busybox/group | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	@echo "  BUSYBOX $@"
	@PY=$(PY) tools/mkbusybox.sh $(ARCH) $@
busybox: $(B)/busybox.cpio

debug: kernel $(if $(filter bios uefi,$(BOOT)),iso) $(ARCH_RUN_DEPS)
	@$(QEMU_RUN) --gdb --gdb-cmd $(GDB) --elf $(B)/pagoda.elf

# The ISO's grub.cfg carries CMDLINE, so the ISO depends on it: the
# command line it was asked for last is kept in a file rewritten only when
# it changes, and a new one rebuilds the ISO.
ISO_CMDLINE := $(B)/iso.cmdline
ifeq ($(ARCH)$(findstring n,$(firstword -$(MAKEFLAGS))),x86_64)
ifneq ($(file < $(ISO_CMDLINE)),$(CMDLINE))
$(shell mkdir -p $(B))
$(file > $(ISO_CMDLINE),$(CMDLINE))
endif
endif
$(ISO_CMDLINE):
	@mkdir -p $(dir $@) && touch $@

iso: $(B)/pagoda.iso
$(B)/pagoda.iso: $(B)/pagoda.elf $(ISO_CMDLINE) boot/grub/grub.cfg.in tools/mkiso.sh \
		$(B)/initramfs-boot.cpio
	@tools/mkiso.sh $< $@ "$$CMDLINE" $(B)/initramfs-boot.cpio


# ---------------------------------------------------------------------------
# Host tests: the pure code, compiled for Linux with ASan and UBSan.

# One list of what every host program links: the kernel's own library
# code (printk, parameters, time, symbols, string and number formatting)
# over tests/host's stand-ins for the machine. Each program adds its part.
HOST_RUNTIME := lib/string.c lib/vsprintf.c lib/kstrtox.c lib/random.c lib/errname.c \
	kernel/printk.c kernel/params.c kernel/time/timekeeping.c kernel/ksyms.c \
	kernel/boot_info.c \
	tests/host/host_env.c tests/host/host_locks.c
# The page allocator and its placement policies (mm/policy.h), as the
# fuzzer, the lab runner and ktest-host take them.
HOST_PAGE_ALLOC := mm/page_alloc.c mm/mm_init.c mm/fail_page_alloc.c mm/policy.c \
	$(filter-out %_test.c,$(wildcard mm/policy_*.c)) mm/page_alloc_verify.c mm/memsim.c
# The allocator-policy lab (docs/allocator-policy.md).
HOST_MMLAB := mm/lab/mmlab.c mm/lab/cache_model.c
# Warnings as the kernel has them, in every host program.
HOST_WARN := -Wall -Wextra -Wno-unused-parameter
HOST_INC := -include tests/host/host_prefix.h -Iinclude -Itests/host/include

# Hibernation's memory bitmaps (kernel/power/): pure code, both layouts.
HOST_POWER := kernel/power/memory_bitmap.c kernel/power/bitmap_list.c kernel/power/swsusp_free.c \
	bench/bitmap_bench.c
# The block layer's pure parts (splitting, merging, tags, partition parsers).
PART_SRCS := block/partitions/check.c block/partitions/msdos.c block/partitions/efi.c
BLOCK_PURE_SRCS := block/blk-merge.c block/blk-settings.c block/blk-mq-tag.c $(PART_SRCS)

# ktest-host: every suite that builds on the host (the *_test.c files).
HOST_KSRCS := $(sort $(HOST_RUNTIME) $(wildcard lib/*.c) kernel/ktest.c \
	kernel/params_test.c kernel/ksyms_test.c $(HOST_PAGE_ALLOC) $(HOST_MMLAB) \
	mm/page_alloc_test.c mm/policy_test.c mm/lab/cache_model_test.c mm/lab/mmlab_test.c \
	drivers/virtio/virtio_ring.c tests/host/virtio_ring_test.c tests/host/host_dma.c \
	dma/swiotlb.c dma/swiotlb_test.c dma/swiotlb_test_ops.c \
	$(BLOCK_PURE_SRCS) block/blk_merge_test.c block/partitions/partitions_test.c \
	tests/host/host_block.c $(HOST_POWER) kernel/power/memory_bitmap_test.c \
	block/dm/dm-snap-format.c block/dm/dm_snap_format_test.c \
	kernel/cr/image.c kernel/cr/image_test.c)
HOST_CFLAGS := -std=gnu11 -O1 -g $(HOST_WARN) \
	-fno-builtin -fsanitize=address,undefined -fno-sanitize-recover=undefined \
	-fno-omit-frame-pointer $(HOST_INC) -MMD -MP
HOST_KOBJS := $(patsubst %.c,$(HB)/obj/%.o,$(HOST_KSRCS))

$(HB)/obj/%.o: %.c tests/host/host_prefix.h
	@mkdir -p $(dir $@)
	@echo "  HOSTCC  $<"
	@$(CC) $(HOST_CFLAGS) -c $< -o $@
$(HB)/ktest-host: $(HOST_KOBJS) $(HB)/obj/tests/host/main.o
	@$(CC) -fsanitize=address,undefined -o $@ $^
# Our printf against the C library's: this one file sees libc's headers,
# not the kernel's.
$(HB)/printf-vs-libc: $(patsubst %.c,$(HB)/obj/%.o,$(HOST_RUNTIME)) tests/host/printf_vs_libc.c
	@$(CC) -std=gnu11 -O1 -g $(HOST_WARN) -fsanitize=address,undefined -o $@ $^

-include $(HOST_KOBJS:.o=.d) $(HB)/obj/tests/host/main.d

# Fuzzing (clang's libFuzzer): the page allocator driven by random programs.
FUZZ_SECONDS ?= 60
FUZZ_CFLAGS := -std=gnu11 -O1 -g -fsanitize=fuzzer,address,undefined \
	-fno-sanitize-recover=undefined -fno-builtin $(HOST_WARN) $(HOST_INC)
# Every fuzzer is linked and run the same way: $(call fuzz_link,SOURCES) in
# the binary's recipe; $(call fuzz_run,NAME,MAX_LEN,OPTIONS,MORE_INPUTS) runs
# $(HB)/fuzz-NAME FUZZ_SECONDS on its corpus build/fuzz/NAME (listed first:
# libFuzzer adds what it finds to the first directory), with its seeds
# (make fuzz-seeds) and dictionary where those exist.
define fuzz_link
	@mkdir -p $(HB)
	@echo "  CLANG   $@"
	@clang $(FUZZ_CFLAGS) -o $@ $(1)
endef
define fuzz_run
	@mkdir -p build/fuzz/$(1)
	$(HB)/fuzz-$(1) -max_total_time=$(FUZZ_SECONDS) -max_len=$(2) -print_final_stats=1 $(3) \
		build/fuzz/$(1) $(4) $(wildcard $(FUZZ_SEEDS)/$(1)) \
		$(addprefix -dict=,$(wildcard tests/host/dict/$(1).dict))
endef
FUZZ_PA_SRCS := $(HOST_RUNTIME) $(HOST_PAGE_ALLOC) tests/host/fuzz_page_alloc.c
$(HB)/fuzz-page-alloc: $(FUZZ_PA_SRCS) tests/host/host_prefix.h $(wildcard include/pagoda/*.h mm/*.h)
	$(call fuzz_link,$(FUZZ_PA_SRCS))
fuzz-page-alloc: $(HB)/fuzz-page-alloc
	$(call fuzz_run,page-alloc,4096)

# The allocator-policy lab on the host (mm/lab/mmlab.c): optimized, no
# sanitizers, for the experiment matrix (tools/experiment.py).
MMLAB_SRCS := $(HOST_RUNTIME) $(HOST_PAGE_ALLOC) $(HOST_MMLAB) tests/host/mmlab_run.c
$(HB)/mmlab-run: $(MMLAB_SRCS) tests/host/host_prefix.h $(wildcard include/pagoda/*.h mm/*.h mm/lab/*.h)
	@mkdir -p $(HB)
	@echo "  HOSTCC  $@"
	@$(CC) -std=gnu11 -O2 -g -fno-builtin $(HOST_WARN) $(HOST_INC) -o $@ $(MMLAB_SRCS)

# The page allocator's speed against a minimal buddy allocator, on the host:
# the same mm/page_alloc.c, gcc -O2, no sanitizers (docs/memory.md, "Cost").
# The peer is plain C, compiled without the kernel's prefix header.
BENCH_PA_SRCS := $(HOST_RUNTIME) $(HOST_PAGE_ALLOC) tests/host/bench_page_alloc.c
$(HB)/bench-page-alloc: $(BENCH_PA_SRCS) tests/host/peer_buddy.c tests/host/peer_buddy.h \
		tests/host/host_prefix.h $(wildcard include/pagoda/*.h mm/*.h)
	@mkdir -p $(HB)
	@echo "  HOSTCC  $@"
	@$(CC) -std=gnu11 -O2 -g $(HOST_WARN) -c tests/host/peer_buddy.c -o $(HB)/peer_buddy.o
	@$(CC) -std=gnu11 -O2 -g -fno-builtin $(HOST_WARN) $(HOST_INC) \
		-o $@ $(BENCH_PA_SRCS) $(HB)/peer_buddy.o
# The first seed's table (docs/hibernation.md): both memory-bitmap layouts
# over simulated memory up to 16 TiB, gcc -O2, no sanitizers.
BENCH_HIB_SRCS := $(HOST_RUNTIME) $(HOST_POWER) tests/host/bench_hibernate.c
$(HB)/bench-hibernate: $(BENCH_HIB_SRCS) tests/host/host_prefix.h include/pagoda/memory_bitmap.h \
		kernel/power/bitmap.h
	@mkdir -p $(HB)
	@echo "  HOSTCC  $@"
	@$(CC) -std=gnu11 -O2 -g -fno-builtin $(HOST_WARN) $(HOST_INC) -o $@ $(BENCH_HIB_SRCS)
bench-host: $(HB)/bench-page-alloc $(HB)/bench-hibernate
	$(HB)/bench-page-alloc --instructions $(BENCH_HOST_ARGS)
	$(HB)/bench-page-alloc --cost --instructions $(BENCH_HOST_ARGS)
	$(HB)/bench-hibernate

include tests/fixtures/fdt.mk

# libFuzzer on the MBR and GPT parsers (block/partitions/).
FUZZ_PART_SRCS := $(HOST_RUNTIME) $(PART_SRCS) lib/crc32.c tests/host/fuzz_partitions.c
$(HB)/fuzz-partitions: $(FUZZ_PART_SRCS) tests/host/host_prefix.h block/partitions/check.h
	$(call fuzz_link,$(FUZZ_PART_SRCS))
PART_SEEDS := build/fixtures/partition-seeds
$(PART_SEEDS)/gpt: tests/fixtures/mkpartseeds.py
	@$(PY) tests/fixtures/mkpartseeds.py $(PART_SEEDS)
fuzz-partitions: $(HB)/fuzz-partitions $(PART_SEEDS)/gpt
	$(call fuzz_run,partitions,65537,,$(PART_SEEDS))

# make fuzz: every fuzzer, FUZZ_SECONDS each.
fuzz: fuzz-page-alloc fuzz-fdt fuzz-elf fuzz-partitions fuzz-swiotlb fuzz-virtqueue fuzz-dm-snap \
	fuzz-cr-image fuzz-swsusp fuzz-cpio

# libFuzzer on the SWIOTLB slot allocator (dma/swiotlb.c).
FUZZ_SWIOTLB_SRCS := $(HOST_RUNTIME) tests/host/host_dma.c dma/swiotlb.c dma/swiotlb_test_ops.c \
	tests/host/fuzz_swiotlb.c
$(HB)/fuzz-swiotlb: $(FUZZ_SWIOTLB_SRCS) tests/host/host_prefix.h include/pagoda/swiotlb.h \
	dma/swiotlb_test_ops.h
	$(call fuzz_link,$(FUZZ_SWIOTLB_SRCS))
fuzz-swiotlb: $(HB)/fuzz-swiotlb
	$(call fuzz_run,swiotlb,4096)

# libFuzzer on the split virtqueue with a lying device (drivers/virtio/virtio_ring.c).
# The fuzzer includes virtio_ring.c itself, to check the driver's free list.
FUZZ_VQ_SRCS := $(HOST_RUNTIME) tests/host/host_dma.c tests/host/fuzz_virtqueue.c
$(HB)/fuzz-virtqueue: $(FUZZ_VQ_SRCS) drivers/virtio/virtio_ring.c tests/host/host_prefix.h \
		include/pagoda/virtio.h include/pagoda/virtio_ring.h
	$(call fuzz_link,$(FUZZ_VQ_SRCS))
fuzz-virtqueue: $(HB)/fuzz-virtqueue
	$(call fuzz_run,virtqueue,2048)

# libFuzzer on the persistent snapshot store's reader (block/dm/dm-snap-format.c).
FUZZ_DMSNAP_SRCS := $(HOST_RUNTIME) block/dm/dm-snap-format.c tests/host/fuzz_dm_snap.c \
	block/dm/dm-snap-persistent.c block/dm/dm-exception-store.c block/dm/dm-snap-transient.c \
	tests/host/host_dma.c tests/host/fuzz_dm_store.c
$(HB)/fuzz-dm-snap: $(FUZZ_DMSNAP_SRCS) tests/host/host_prefix.h block/dm/dm-snap-format.h \
		block/dm/dm-exception-store.h tests/host/fuzz_dm_store.h
	$(call fuzz_link,$(FUZZ_DMSNAP_SRCS))
.PHONY: fuzz-dm-snap
fuzz-dm-snap: $(HB)/fuzz-dm-snap
	$(call fuzz_run,dm-snap,65536)

# libFuzzer on the checkpoint image checker (kernel/cr/image.c).
FUZZ_CR_SRCS := $(HOST_RUNTIME) lib/crc32.c kernel/cr/image.c tests/host/fuzz_cr_image.c
$(HB)/fuzz-cr-image: $(FUZZ_CR_SRCS) tests/host/host_prefix.h kernel/cr/image.h
	$(call fuzz_link,$(FUZZ_CR_SRCS))
.PHONY: fuzz-cr-image
fuzz-cr-image: $(HB)/fuzz-cr-image
	$(call fuzz_run,cr-image,131072)

# libFuzzer on the hibernation image's header and pfn-list checks (kernel/power/image.c).
FUZZ_SWSUSP_SRCS := $(HOST_RUNTIME) lib/crc32.c kernel/power/image.c kernel/power/memory_bitmap.c \
	kernel/power/bitmap_list.c kernel/power/swsusp_free.c tests/host/fuzz_swsusp_header.c
$(HB)/fuzz-swsusp: $(FUZZ_SWSUSP_SRCS) tests/host/host_prefix.h kernel/power/image.h
	$(call fuzz_link,$(FUZZ_SWSUSP_SRCS))
.PHONY: fuzz-swsusp
fuzz-swsusp: $(HB)/fuzz-swsusp
	$(call fuzz_run,swsusp,16384)

# libFuzzer on the initramfs reader and its file table (lib/cpio.c, lib/ramfs.c).
FUZZ_CPIO_SRCS := $(HOST_RUNTIME) lib/cpio.c lib/ramfs.c fs/rootfs.c lib/elf.c fs/binfmt_script.c \
	tests/host/fuzz_cpio.c
$(HB)/fuzz-cpio: $(FUZZ_CPIO_SRCS) tests/host/host_prefix.h include/pagoda/cpio.h \
		include/pagoda/ramfs.h fs/internal.h
	$(call fuzz_link,$(FUZZ_CPIO_SRCS))
.PHONY: fuzz-cpio
fuzz-cpio: $(HB)/fuzz-cpio
	$(call fuzz_run,cpio,8192,-artifact_prefix=$(HB)/)

# The ELF checker's fuzzer (lib/elf.c): `make fuzz-elf` runs it FUZZ_SECONDS.
FUZZ_ELF_SRCS := tests/host/fuzz_elf.c lib/elf.c lib/string.c fs/binfmt_script.c kernel/cr/vdso_symtab.c
$(HB)/fuzz-elf: $(FUZZ_ELF_SRCS) tests/host/host_prefix.h include/pagoda/elf.h kernel/cr/cr.h | $(DEPS_STAMP)
	$(call fuzz_link,$(FUZZ_ELF_SRCS))

.PHONY: fuzz-elf
fuzz-elf: $(HB)/fuzz-elf
	$(call fuzz_run,elf,65536,-artifact_prefix=$(HB)/,$(wildcard build/*/user))

# Seed corpora from real inputs (tools/fuzz-seeds.py, docs/fuzzing.md):
# what the host's cpio and sfdisk write, the programs the build made, the
# boards' trees; and what one x86-64 boot writes to its disks (COW stores,
# a checkpoint image, a hibernation image). Made once; `rm -r
# build/fuzz-seeds` to make them again.
FUZZ_SEEDS := build/fuzz-seeds
FUZZ_BINS := $(addprefix $(HB)/fuzz-,dm-snap cr-image swsusp elf cpio partitions fdt page-alloc \
	swiotlb virtqueue)
$(FUZZ_SEEDS)/.host: tools/fuzz-seeds.py $(HB)/gen/fdt_fixtures.inc | $(DEPS_STAMP)
	@$(MAKE) --no-print-directory ARCH=x86_64 PLATFORM=pc kernel
	@$(PY) tools/fuzz-seeds.py host $(FUZZ_SEEDS)
	@touch $@
$(FUZZ_SEEDS)/.boot: tools/fuzz-seeds.py | $(DEPS_STAMP)
	@$(MAKE) --no-print-directory ARCH=x86_64 PLATFORM=pc kernel
	@$(PY) tools/fuzz-seeds.py boot $(FUZZ_SEEDS)
	@touch $@
.PHONY: fuzz-seeds fuzz-report
fuzz-seeds: $(FUZZ_SEEDS)/.host $(FUZZ_SEEDS)/.boot
# Every target FUZZ_SECONDS with its seeds and dictionary, one at a time;
# the corpora stay in build/fuzz/<target>, so a second run goes on.
fuzz-report: fuzz-seeds $(FUZZ_BINS)
	@$(PY) tools/fuzz-report.py $(FUZZ_SECONDS)

# The system calls: user/syzfuzz in one boot of ARCH (arm64: virt), then
# the leak, free-list and lockdep checks (tools/fuzz-syscalls.py). SEED=
# replays a run; CALLS=name,name,... fuzzes only those; OWNERS=cache,...
# (slab.debug=1) says who allocated each named cache's extra objects.
.PHONY: fuzz-syscalls
fuzz-syscalls: kernel $(ARCH_RUN_DEPS)
	@$(PY) tools/fuzz-syscalls.py $(FUZZ_SECONDS) --arch $(ARCH) $(if $(SEED),--seed $(SEED)) \
		$(if $(CALLS),--calls $(CALLS)) $(if $(OWNERS),--owners $(OWNERS))

host-test: $(HB)/ktest-host $(HB)/printf-vs-libc
	@$(HB)/ktest-host all
	@$(HB)/printf-vs-libc

# ---------------------------------------------------------------------------
# The full test run and the benchmarks

# ONLY= runs a subset (`make test ONLY=help` lists the selectors and the
# units; tests/README.md). The harness says which builds the selection
# needs; each is one test-build-% target below.
ifneq ($(filter test,$(MAKECMDGOALS)),)
# make test CHANGED=1 (or CHANGED=REF): only what the files changed since
# HEAD (or REF) need, as tests/changed.py maps them.
ifneq ($(CHANGED),)
ONLY := $(shell $(PY) tests/changed.py $(CHANGED))
ifeq ($(ONLY),)
ONLY := docs
endif
endif

TEST_BUILDS := $(shell $(PY) tests/harness.py --only '$(ONLY)' --builds || echo FAILED)
endif
# The builds use every CPU unless make was given its own -j: a fresh
# clone's six builds are about a fifth of make test's time.
TEST_JOBS ?= $(shell nproc 2>/dev/null || echo 1)
test: $(DEPS_STAMP)
	@$(if $(filter FAILED,$(TEST_BUILDS)),exit 2)
	@$(foreach b,$(TEST_BUILDS),$(MAKE) --no-print-directory \
		$(if $(filter -j%,$(MAKEFLAGS))$(findstring jobserver,$(MAKEFLAGS)),,-j$(TEST_JOBS)) \
		test-build-$(b) &&) true
	@$(PY) tests/harness.py --only '$(ONLY)' --pi4-dtb $(PI4_DTB) --accel $(ACCEL)

# Linux's own selftests (Debian's linux-source-6.1) on x86-64 and arm64 virt,
# each beside the host's result for the same binary (docs/userland.md).
selftests: $(DEPS_STAMP)
	@$(MAKE) --no-print-directory test ONLY=selftests

# dm-snapshot crash consistency, many times (make test runs 2): QEMU killed at
# random writes, seeds printed; DM_CRASH_SEED= repeats a run.
CRASH_RUNS ?= 25
dm-crash: $(DEPS_STAMP)
	@$(MAKE) --no-print-directory test-build-x86_64
	@DM_CRASH_RUNS=$(CRASH_RUNS) $(PY) tests/harness.py --only system-dm-crash --accel $(ACCEL)

test-build-x86_64:
	@$(MAKE) --no-print-directory kernel iso ARCH=x86_64 CMDLINE=
test-build-host:
	@$(MAKE) --no-print-directory host-test-bins ARCH=x86_64
test-build-arm64-virt:
	@$(MAKE) --no-print-directory kernel ARCH=arm64 PLATFORM=virt
test-build-x86_64-vdso-alt:
	@$(MAKE) --no-print-directory kernel ARCH=x86_64 VDSO_LAYOUT=alt CMDLINE=
test-build-arm64-virt-vdso-alt:
	@$(MAKE) --no-print-directory kernel ARCH=arm64 PLATFORM=virt VDSO_LAYOUT=alt
test-build-arm64-pi4:
	@$(MAKE) --no-print-directory kernel $(PI4_DTB) ARCH=arm64 PLATFORM=pi4

host-test-bins: $(HB)/ktest-host $(HB)/printf-vs-libc $(HB)/fuzz-page-alloc $(HB)/fuzz-elf \
	$(HB)/fuzz-partitions $(PART_SEEDS)/gpt $(HB)/mmlab-run \
	$(HB)/bench-page-alloc $(HB)/fuzz-swiotlb $(HB)/fuzz-virtqueue $(HB)/bench-hibernate \
	$(HB)/fuzz-dm-snap $(HB)/fuzz-cr-image $(HB)/fuzz-swsusp $(HB)/fuzz-cpio

# The course (docs/course.md): `make lab LAB=NAME` writes the student tree
# (build/labs/NAME, a git repository to hand out), `make grade` grades this
# tree (a student tree grades its own lab; LAB= picks one; all otherwise).
LAB ?=
lab: $(DEPS_STAMP)
	@$(if $(LAB),,$(error make lab needs LAB=NAME: $(shell $(PY) tools/lab.py list | cut -d' ' -f1 | tr '\n' ' ')))
	@$(PY) tools/lab.py make $(LAB)
grade: $(DEPS_STAMP)
	@$(PY) tools/lab.py grade $(LAB)

# The allocator-policy lab's matrix on the host and a slice in QEMU
# (tools/experiment.py; docs/allocator-policy.md).
experiment: $(DEPS_STAMP)
	@$(MAKE) --no-print-directory kernel $(HB)/mmlab-run ARCH=x86_64 CMDLINE=
	@$(PY) tools/experiment.py --accel $(ACCEL) $(EXPERIMENT_ARGS)

bench: $(DEPS_STAMP) $(HB)/bench-page-alloc $(HB)/bench-hibernate
	@$(MAKE) --no-print-directory kernel ARCH=x86_64 CMDLINE=
	@$(MAKE) --no-print-directory kernel ARCH=arm64 PLATFORM=virt
	@$(MAKE) --no-print-directory kernel $(PI4_DTB) ARCH=arm64 PLATFORM=pi4
	@$(PY) tools/bench.py --pi4-dtb $(PI4_DTB) --accel $(ACCEL) $(if $(BENCH),--bench $(BENCH)) $(BENCH_ARGS)

clean:
	rm -rf build/x86_64-* build/arm64-* build/host build/test build/.ccache
