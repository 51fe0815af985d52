// SPDX-License-Identifier: MIT
/*
 * The built-in initramfs: the archive the Makefile packed from user/'s
 * programs (INITRAMFS_IMAGE), carried in .rodata.
 */
#ifndef INITRAMFS_IMAGE
#error "the Makefile passes INITRAMFS_IMAGE, the archive to carry"
#endif

__asm__(".pushsection .rodata.initramfs, \"a\"\n"
	".balign 16\n"
	".globl __initramfs_start, __initramfs_end\n"
	"__initramfs_start:\n"
	".incbin \"" INITRAMFS_IMAGE "\"\n"
	"__initramfs_end:\n"
	".popsection\n");
