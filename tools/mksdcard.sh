#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Build a Raspberry Pi 4 SD-card image without root: an MBR with one FAT32
# partition (type 0x0c, FAT32 with LBA) made with mtools, holding the
# firmware, the device tree, config.txt, cmdline.txt and our kernel8.img.
#   usage: mksdcard.sh OUT.img KERNEL8.img FIRMWARE_DIR CONFIG_DIR [INITRAMFS.cpio]
# FIRMWARE_DIR is what fetch-pi4-firmware.sh filled; CONFIG_DIR holds
# config.txt and cmdline.txt (boot/pi4). An initramfs goes on the card as
# initramfs.cpio with an `initramfs initramfs.cpio followkernel` line added
# to config.txt: the firmware loads it after the kernel and names it in the
# device tree's /chosen, where the kernel reads it.
set -euo pipefail
out=$1 kernel=$2 fw=$3 conf=$4 initramfs=${5:-}
here=$(cd "$(dirname "$0")" && pwd)
say() { printf 'mksdcard: %s\n' "$*" >&2; }

# 64 MiB card image; the partition starts at 1 MiB (erase-block aligned,
# as card makers and Raspberry Pi OS do) and fills the rest. FAT32 needs
# at least 65525 clusters: 63 MiB in 512-byte clusters gives 129024.
MIB=$((1024 * 1024))
part_start=2048                 # sectors
part_sectors=$(((64 * MIB - part_start * 512) / 512))

files=("$fw/start4.elf" "$fw/fixup4.dat" "$fw/bcm2711-rpi-4-b.dtb"
       "$fw/LICENCE.broadcom" "$conf/config.txt" "$conf/cmdline.txt")
for f in "${files[@]}" "$kernel"; do
	if [ ! -s "$f" ]; then
		say "missing $f"
		exit 1
	fi
done

if [ -n "$initramfs" ]; then
	extra=$(mktemp -d "${TMPDIR:-/tmp}/pagoda-card.XXXXXX")
	trap 'rm -rf "$extra"' EXIT
	{ cat "$conf/config.txt"
	  printf '\n# The initramfs (added by tools/mksdcard.sh).\ninitramfs initramfs.cpio followkernel\n'
	} > "$extra/config.txt"
	cp "$initramfs" "$extra/initramfs.cpio"
	files[4]="$extra/config.txt"
	files+=("$extra/initramfs.cpio")
fi

tmp="$out.tmp"
rm -f "$tmp"
mkdir -p "$(dirname "$out")"
truncate -s $((64 * MIB)) "$tmp"
"$here/mbr.py" write "$tmp" $part_start $part_sectors 0x0c

# mtools addresses the partition as IMAGE@@OFFSET. -F: FAT32; -H: the hidden
# sectors before the partition, recorded in the boot sector; -c 1: one
# sector per cluster (the size above needs it to be FAT32 at all).
part="$tmp@@$((part_start * 512))"
export MTOOLS_SKIP_CHECK=1
mformat -i "$part" -F -c 1 -H $part_start -T $part_sectors -v PAGODA ::
mcopy -i "$part" -m "${files[@]}" ::
mcopy -i "$part" -m "$kernel" ::kernel8.img

# Read every file back and compare, so a card that is written is a card
# that was checked.
for f in "${files[@]}" "$kernel"; do
	name=$(basename "$f")
	[ "$f" = "$kernel" ] && name=kernel8.img
	if ! mtype -i "$part" "::$name" | cmp -s - "$f"; then
		say "$name differs after copying into the image"
		exit 1
	fi
done
mv "$tmp" "$out"
echo "  SDCARD  $out"
