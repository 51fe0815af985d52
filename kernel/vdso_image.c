// SPDX-License-Identifier: MIT
/*
 * This arch's vDSO (arch/<arch>/vdso/, built by user/user.mk), carried in
 * .rodata on whole pages of its own, so those very pages can be mapped
 * into every process, read-only.
 */
#ifndef VDSO_IMAGE
#error "the Makefile passes VDSO_IMAGE, the vDSO to carry"
#endif

__asm__(".pushsection .rodata.vdso, \"a\"\n"
	".balign 4096\n"
	".globl vdso_image_start, vdso_image_end\n"
	"vdso_image_start:\n"
	".incbin \"" VDSO_IMAGE "\"\n"
	".balign 4096\n"
	"vdso_image_end:\n"
	".popsection\n");
