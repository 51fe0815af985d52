# SPDX-License-Identifier: MIT
# The Raspberry Pi 4 pieces of the build, included by the top-level Makefile.
#   make ARCH=arm64 PLATFORM=pi4 sdcard   ->  build/arm64-pi4/pagoda-pi4.img
#   make pi4-firmware                     ->  build/pi4-firmware/ (any ARCH)
# The firmware and device tree are downloaded from Debian's packages at build
# time (tools/fetch-pi4-firmware.sh) and never committed. QEMU raspi4b boots
# with the same device tree: -dtb $(PI4_DTB).

PI4_FW := build/pi4-firmware
PI4_DTB := $(PI4_FW)/bcm2711-rpi-4-b.dtb
PI4_CONF := boot/pi4/config.txt boot/pi4/cmdline.txt

.PHONY: pi4-firmware sdcard
pi4-firmware: $(PI4_DTB)
# One fetch brings every file; the DTB stands for all of them.
$(PI4_DTB): tools/fetch-pi4-firmware.sh | $(DEPS_STAMP)
	@tools/fetch-pi4-firmware.sh $(PI4_FW)

ifeq ($(ARCH)-$(PLATFORM),arm64-pi4)
# The card carries exactly the kernel8.img the raspi4b tests boot.
# After the image, the next step (also when the image was already up to date).
sdcard: $(B)/pagoda-pi4.img
	@echo "sdcard: $< is ready. Next, write it to a card (this erases the card;"
	@echo "  find its device with lsblk first), with Raspberry Pi Imager (Use custom) or:"
	@echo "    sudo dd if=$< of=/dev/sdX bs=4M conv=fsync status=progress"
	@echo "  then wire a 3.3 V serial adapter to header pins 8/10 (GPIO 14/15), open it"
	@echo "  at 115200 baud and power the Pi on (README.md, 'On a real Raspberry Pi 4')."
$(B)/pagoda-pi4.img: $(B)/kernel8.img $(PI4_DTB) $(PI4_CONF) tools/mksdcard.sh tools/mbr.py \
		$(B)/initramfs-boot.cpio | $(DEPS_STAMP)
	@tools/mksdcard.sh $@ $(B)/kernel8.img $(PI4_FW) boot/pi4 $(B)/initramfs-boot.cpio
else
sdcard:
	@echo "sdcard: the SD card is for a Raspberry Pi 4; run: make ARCH=arm64 PLATFORM=pi4 sdcard" >&2
	@exit 1
endif
