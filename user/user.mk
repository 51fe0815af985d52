# User programs (user/): static Linux executables, built with the kernel's
# compiler for the kernel's arch on the shim in user/lib and user/arch, and
# packed into the initramfs the kernel carries (kernel/initramfs_builtin.c).
# No FP/SIMD registers yet: the kernel does not save them per process.
USER_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -ffreestanding -fno-builtin \
	-fno-stack-protector -fno-asynchronous-unwind-tables -mgeneral-regs-only \
	-nostdlib -static -Iuser/include -Iinclude/uapi -Iarch/$(ARCH)/include
USER_LIB := user/lib/ulib.c user/arch/$(ARCH).c
USER_DEPS := $(USER_LIB) include/uapi/linux/elf.h user/include/ulib.h user/include/mmcheck.h user/crlib.h arch/$(ARCH)/include/asm/unistd.h user/user.mk

$(B)/user/%: user/%.c $(USER_DEPS) | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	@echo "  USERCC  $@"
	@$(KCC) $(USER_CFLAGS) -fno-pie -no-pie -o $@ $< $(USER_LIB)

# The same program as a static-PIE (ET_DYN, no interpreter).
$(B)/user/%-pie: user/%.c $(USER_DEPS) | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	@echo "  USERCC  $@"
	@$(KCC) $(USER_CFLAGS) -fPIE -static-pie -o $@ $< $(USER_LIB)

USER_PROGS := hello hello-pie fstest vdsotest vdsobench forktest sigtest crloop crtree memhostile areas faults oomtest filemap shmtest

# syzfuzz (docs/fuzzing.md): its table of calls is the kernel's <asm/unistd.h>
# as it stands at the build, every __NR_ name with its number.
$(B)/gen/syzfuzz_table.h: arch/$(ARCH)/include/asm/unistd.h user/user.mk
	@mkdir -p $(dir $@)
	@awk '$$1 == "#define" && $$2 ~ /^__NR_/ { n = $$2; sub(/^__NR_/, "", n); \
		printf "\t{ %s, \"%s\" },\n", $$3, n }' $< > $@
$(B)/user/syzfuzz: user/syzfuzz.c $(B)/gen/syzfuzz_table.h $(USER_DEPS) | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	@echo "  USERCC  $@"
	@$(KCC) $(USER_CFLAGS) -I$(B)/gen -fno-pie -no-pie -o $@ $< $(USER_LIB)
USER_PROGS += syzfuzz

# The same C program against two real libcs, unmodified: Debian's musl-gcc
# and glibc's gcc -static (x86-64: Debian packages musl for the host only).
ifeq ($(ARCH),x86_64)
$(B)/user/libctest-musl: user/libc/libctest.c user/user.mk | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	@echo "  MUSLCC  $@"
	@musl-gcc -static -O2 -o $@ $<
$(B)/user/libctest-glibc: user/libc/libctest.c user/user.mk | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	@echo "  GLIBCC  $@"
	@gcc -static -O2 -o $@ $<
USER_PROGS += libctest-musl libctest-glibc
endif
# calltest: the calls Linux's programs make through their libc; musl and
# glibc on x86-64, glibc (Debian's libc6-dev-arm64-cross) on arm64.
ifeq ($(ARCH),x86_64)
$(B)/user/calltest-musl: user/libc/calltest.c user/user.mk | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	@echo "  MUSLCC  $@"
	@musl-gcc -static -O2 -o $@ $<
USER_PROGS += calltest-musl
CALLTEST_GLIBC_CC := gcc
else
CALLTEST_GLIBC_CC := aarch64-linux-gnu-gcc
endif
$(B)/user/calltest-glibc: user/libc/calltest.c user/user.mk | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	@echo "  GLIBCC  $@"
	@$(CALLTEST_GLIBC_CC) -static -O2 -o $@ $<
USER_PROGS += calltest-glibc
# threads: pthreads over clone, futex and the robust list (musl and glibc
# on x86-64, glibc on arm64), as calltest.
ifeq ($(ARCH),x86_64)
$(B)/user/threads-musl: user/libc/threads.c user/libc/errno_name.h user/user.mk | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	@echo "  MUSLCC  $@"
	@musl-gcc -static -O2 -pthread -o $@ $<
USER_PROGS += threads-musl
endif
$(B)/user/threads-glibc: user/libc/threads.c user/libc/errno_name.h user/user.mk | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	@echo "  GLIBCC  $@"
	@$(CALLTEST_GLIBC_CC) -static -O2 -pthread -o $@ $<
USER_PROGS += threads-glibc
# timerfdtest: timerfd's calls; memfdtest: memfd_create and tmpfs files
# mapped shared and private; socktest: socketpair and its calls; pipetest:
# pipes in packet mode (O_DIRECT); aiotest:
# Linux's native AIO and preadv2/pwritev2; dmioctltest: hostile
# device-mapper ioctls; madvtest: madvise and mincore. glibc on both arches (the
# system tests set their output beside the host's).
$(B)/user/timerfdtest $(B)/user/memfdtest $(B)/user/socktest $(B)/user/pipetest $(B)/user/aiotest \
		$(B)/user/dmioctltest $(B)/user/madvtest: $(B)/user/%: user/libc/%.c \
		user/libc/errno_name.h user/user.mk | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	@echo "  GLIBCC  $@"
	@$(CALLTEST_GLIBC_CC) -static -O2 -Wall -o $@ $<
USER_PROGS += timerfdtest memfdtest socktest pipetest aiotest dmioctltest madvtest
# vfstest: the file calls a shell makes (fs/); jobtest: process groups,
# sessions, the terminal's foreground group and SIGCHLD (kernel/jobctl.c).
# Both on one libc per arch: musl on x86-64, glibc on arm64.
ifeq ($(ARCH),x86_64)
CHECK_CC := musl-gcc
CHECK_CC_SAYS := MUSLCC
else
CHECK_CC := aarch64-linux-gnu-gcc
CHECK_CC_SAYS := GLIBCC
endif
$(B)/user/vfstest $(B)/user/jobtest: $(B)/user/%: user/libc/%.c user/libc/check.h user/user.mk \
		| $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	@echo "  $(CHECK_CC_SAYS)  $@"
	@$(CHECK_CC) -static -O2 -o $@ $<
USER_PROGS += vfstest jobtest
# forkrace: fork while a thread of the parent writes (the cow suite runs it).
$(B)/user/forkrace: user/libc/forkrace.c user/user.mk | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	@echo "  $(CHECK_CC_SAYS)  $@"
	@$(CHECK_CC) -static -O2 -pthread -o $@ $<
USER_PROGS += forkrace
# futextest: FUTEX_WAIT and FUTEX_WAKE, a mode per promise (the futex suite runs it).
$(B)/user/futextest: user/libc/futextest.c user/user.mk | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	@echo "  $(CHECK_CC_SAYS)  $@"
	@$(CHECK_CC) -static -O2 -Wall -pthread -o $@ $<
USER_PROGS += futextest
# mmbench: `bench mm`; the same file boots on Debian's Linux beside it
# (tools/linuxpeer.py), so it is built against glibc, static.
$(B)/user/mmbench: user/mmbench.c user/user.mk | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	@echo "  GLIBCC  $@"
	@$(CALLTEST_GLIBC_CC) -static -O2 -Wall -o $@ $<
USER_PROGS += mmbench
# Fixtures for exec's refusals: a text file, and a program cut short; a
# symbolic link for fstest.
INITRAMFS_FILES := $(foreach p,$(USER_PROGS),bin/$(p)=$(B)/user/$(p)) \
	etc/motd=user/motd bin/truncated=$(B)/user/truncated etc/motd-link@motd \
	bin/notelf=$(B)/user/notelf

# An executable text file (no #!): exec reads it and answers -ENOEXEC, where
# /etc/motd, with no execute bit, is -EACCES before it is read.
$(B)/user/notelf: user/motd
	@mkdir -p $(dir $@)
	@cp $< $@ && chmod 755 $@

$(B)/user/truncated: $(B)/user/hello
	@head -c 200 $< > $@ && chmod 755 $@

$(B)/initramfs.cpio: $(addprefix $(B)/user/,$(USER_PROGS)) $(B)/user/truncated $(B)/user/notelf user/motd \
		tools/mkcpio.py
	@echo "  CPIO    $@"
	@$(PY) tools/mkcpio.py $@ $(INITRAMFS_FILES)

# A second, small archive for the boot loader to hand over as a module
# (tools/mkiso.sh's GRUB module2, tools/mksdcard.sh's config.txt
# initramfs line), as a distribution ships its initramfs beside the
# kernel: its one file is found nowhere else, so seeing it proves the path.
$(B)/initramfs-boot.cpio: user/boot-module.txt tools/mkcpio.py
	@echo "  CPIO    $@"
	@$(PY) tools/mkcpio.py $@ etc/boot-module=user/boot-module.txt

$(B)/obj/kernel/initramfs_builtin.o: $(B)/initramfs.cpio
$(B)/obj/kernel/initramfs_builtin.o: KCFLAGS += -DINITRAMFS_IMAGE='"$(B)/initramfs.cpio"'

# The vDSO (arch/$(ARCH)/vdso/): its own shared object with its own linker
# script and symbol versions, then carried in the kernel image
# (kernel/vdso_image.c) and mapped into every process.
VDSO_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -fPIC -ffreestanding -fno-builtin \
	-fno-stack-protector -fno-asynchronous-unwind-tables -mgeneral-regs-only \
	-nostdlib -shared -Wl,-soname=linux-vdso.so.1 -Wl,--hash-style=both \
	-Wl,--no-undefined -Wl,-z,max-page-size=4096 -Wl,--build-id=none -Iinclude
$(B)/vdso/vdso.so: arch/$(ARCH)/vdso/vclock.c arch/$(ARCH)/vdso/vdso.lds lib/vdso/gettimeofday.c \
		include/pagoda/vdso.h user/user.mk | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	@echo "  VDSO    $@"
	@$(KCC) $(VDSO_CFLAGS) $(if $(filter alt,$(VDSO_LAYOUT)),-DVDSO_LAYOUT_ALT) \
		-Wl,-T,arch/$(ARCH)/vdso/vdso.lds -o $@ arch/$(ARCH)/vdso/vclock.c

$(B)/obj/kernel/vdso_image.o: $(B)/vdso/vdso.so

# arm64: the sigreturn trampoline's offset in the vDSO, for the signal frame
# of a handler without sa_restorer (arch/arm64/signal.c), read from the
# image as Linux's gen_vdso_offsets.sh does.
ifeq ($(ARCH),arm64)
$(B)/vdso/vdso-offsets.h: $(B)/vdso/vdso.so
	@$(KNM) $< | awk '$$3 == "__kernel_rt_sigreturn" { \
		print "#define VDSO_RT_SIGRETURN_OFFSET 0x" $$1 "ULL" }' > $@
	@grep -q VDSO_RT_SIGRETURN_OFFSET $@ || { echo "no __kernel_rt_sigreturn in $<"; rm -f $@; exit 1; }
$(B)/obj/arch/arm64/signal.o: $(B)/vdso/vdso-offsets.h
$(B)/obj/arch/arm64/signal.o: KCFLAGS += -DVDSO_OFFSETS='"$(CURDIR)/$(B)/vdso/vdso-offsets.h"'
endif
$(B)/obj/kernel/vdso_image.o: KCFLAGS += -DVDSO_IMAGE='"$(B)/vdso/vdso.so"'
