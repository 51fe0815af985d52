# x86-64 build settings, included by the top-level Makefile.
ARCH_CSRCS := $(wildcard arch/x86_64/*.c)
ARCH_ASRCS := boot/x86_64/head.asm arch/x86_64/entry.asm arch/x86_64/switch.asm \
	arch/x86_64/trampoline.asm arch/x86_64/hibernate_asm.asm
ARCH_CFLAGS := -m64 -mcmodel=kernel -mno-red-zone -mgeneral-regs-only
KCC := gcc
KLD := ld
KNM := nm
KLDFLAGS := -nostdlib -no-pie --build-id=sha1 -z max-page-size=4096 -z noexecstack --no-warn-rwx-segments
