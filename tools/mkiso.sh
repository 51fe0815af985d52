#!/usr/bin/env bash
# Build a bootable ISO (BIOS and UEFI) holding the kernel and a GRUB menu
# that starts it with multiboot2.
#   usage: mkiso.sh KERNEL.elf OUT.iso [CMDLINE] [INITRAMFS.cpio]
# An initramfs becomes a module2 line: the kernel reads every module that
# is a newc archive after its built-in one (docs/processes.md).
set -euo pipefail
kernel=$1 out=$2 cmdline=${3:-} initramfs=${4:-}
stage=$(mktemp -d "${TMPDIR:-/tmp}/pagoda-iso.XXXXXX")
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/boot/grub"
cp "$kernel" "$stage/boot/pagoda.elf"
# The command line goes into grub.cfg verbatim; escape sed's specials.
esc=$(printf '%s' "$cmdline" | sed -e 's/[\/&|]/\\&/g')
modules=""
if [ -n "$initramfs" ]; then
	cp "$initramfs" "$stage/boot/initramfs.cpio"
	modules="	module2 /boot/initramfs.cpio initramfs"
fi
sed -e "s|@CMDLINE@|$esc|" -e "s|@MODULES@|$modules|" \
	"$(dirname "$0")/../boot/grub/grub.cfg.in" > "$stage/boot/grub/grub.cfg"
mkdir -p "$(dirname "$out")"
if ! grub-mkrescue -o "$out" "$stage" >"$stage.log" 2>&1; then
	cat "$stage.log" >&2
	rm -f "$stage.log"
	echo "mkiso: grub-mkrescue failed (needs grub-pc-bin, grub-efi-amd64-bin, xorriso, mtools)" >&2
	exit 1
fi
rm -f "$stage.log"
echo "  ISO     $out"
