# arm64 build settings, included by the top-level Makefile.
# PLATFORM=virt (QEMU virt, the default) or pi4 (QEMU raspi4b, a real Pi 4).
# The code is the same for both: the platform only picks the early console's
# address (needed before the device tree is read) and the fallbacks used
# when the device tree is silent (platform.c).
ifeq ($(filter virt pi4,$(PLATFORM)),)
$(error ARCH=arm64 needs PLATFORM=virt or PLATFORM=pi4, not '$(PLATFORM)')
endif
CROSS := aarch64-linux-gnu-
ARCH_CSRCS := $(wildcard arch/arm64/*.c)
ARCH_SSRCS := boot/arm64/head.S arch/arm64/entry.S arch/arm64/switch.S arch/arm64/fpsimd.S \
	arch/arm64/hibernate_asm.S
# No FP/SIMD registers in the kernel (no state to save on exceptions), no
# out-of-line atomics (they live in libgcc), and a frame record in every
# function, leaf or not, for the stack traces.
ARCH_CFLAGS := -mgeneral-regs-only -mno-outline-atomics -mcmodel=small \
	-mno-omit-leaf-frame-pointer -mbranch-protection=none
# The platform's name reaches the one file that reads it, so that every
# other object of the virt and Pi 4 builds is the same (and ccache's).
$(B)/obj/arch/arm64/boot.o: KCFLAGS += -DARM64_PLATFORM='"$(PLATFORM)"'
KCC := $(CROSS)gcc
KLD := $(CROSS)ld
KNM := $(CROSS)nm
KOBJCOPY := $(CROSS)objcopy
KLDFLAGS := -nostdlib -no-pie --build-id=sha1 -z max-page-size=4096 -z noexecstack --no-warn-rwx-segments
# What the loaders take: QEMU's -kernel and the Pi firmware both read a raw
# image that starts with the arm64 Image header (head.S).
ARCH_IMAGES := $(B)/kernel8.img
RUN_KERNEL := $(B)/kernel8.img
# The host's plain gdb knows only its own architecture.
GDB := gdb-multiarch
# EL2=1: QEMU virt with virtualization=on, so the kernel enters at EL2.
# GIC=3: QEMU virt with a GICv3 instead of the GICv2.
ARCH_RUN_ARGS := $(if $(filter 1 yes,$(EL2)),--el2) $(if $(filter 3,$(GIC)),--gic 3)
ifeq ($(PLATFORM),pi4)
ARCH_RUN_ARGS += --dtb $(PI4_DTB)
ARCH_RUN_DEPS := $(PI4_DTB)
endif
