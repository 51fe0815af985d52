#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Fetch what a Raspberry Pi 4 boots from, besides our kernel, into OUTDIR
# (build/pi4-firmware): the VideoCore firmware start4.elf and fixup4.dat from
# Debian's raspi-firmware package, the board's device tree
# bcm2711-rpi-4-b.dtb from Debian's arm64 kernel package, and the firmware's
# licence. Packages are only downloaded (apt-get download) and unpacked here,
# never installed. The same DTB is what QEMU raspi4b boots with (-dtb).
#   usage: fetch-pi4-firmware.sh OUTDIR
set -euo pipefail
out=${1:?usage: fetch-pi4-firmware.sh OUTDIR}
here=$(cd "$(dirname "$0")" && pwd)
say() { printf 'pi4-firmware: %s\n' "$*" >&2; }

want=(start4.elf fixup4.dat bcm2711-rpi-4-b.dtb LICENCE.broadcom)
have_all() {
	local f
	for f in "${want[@]}"; do [ -s "$out/$f" ] || return 1; done
}
have_all && exit 0

if ! command -v apt-get >/dev/null || ! command -v dpkg-deb >/dev/null; then
	say "needs apt-get and dpkg-deb (Debian); or put ${want[*]} in $out by hand"
	exit 1
fi
# dpkg must know arm64 and apt must see non-free-firmware: install-deps sets
# both up (with sudo) and returns at once when they already are.
"$here/install-deps.sh" --pi4-sources

# The kernel package behind the linux-image-arm64 metapackage, e.g.
# linux-image-6.1.0-35-arm64:arm64.
kpkg=$(apt-cache depends linux-image-arm64:arm64 2>/dev/null |
	awk '$1 == "Depends:" && $2 ~ /^linux-image-/ { print $2; exit }')
if [ -z "$kpkg" ]; then
	say "apt knows no linux-image-arm64:arm64; is the arm64 architecture enabled?"
	say "run: tools/install-deps.sh --pi4-sources"
	exit 1
fi

dl=$(mktemp -d "${TMPDIR:-/tmp}/pagoda-pi4fw.XXXXXX")
trap 'rm -rf "$dl"' EXIT
# apt's download sandbox user must be able to write here when we are root.
chmod 0777 "$dl"
say "downloading raspi-firmware and $kpkg (about 65 MB, once)"
(cd "$dl" && apt-get download -q=2 raspi-firmware "$kpkg") || {
	say "apt-get download failed; see the message above"
	exit 1
}

mkdir -p "$dl/x"
for deb in "$dl"/*.deb; do
	dpkg-deb -x "$deb" "$dl/x"
done
dtb=$(find "$dl/x/usr/lib" -path '*/broadcom/bcm2711-rpi-4-b.dtb' | head -n1)
fw=$dl/x/usr/lib/raspi-firmware
for f in "$fw/start4.elf" "$fw/fixup4.dat" "$dtb"; do
	if [ ! -s "$f" ]; then
		say "the packages did not contain ${f:-bcm2711-rpi-4-b.dtb}"
		exit 1
	fi
done

mkdir -p "$out"
rm -f "$out/LICENCE.broadcom"
install -m 0644 "$fw/start4.elf" "$fw/fixup4.dat" "$dtb" "$out/"
# The firmware is redistributable under Broadcom's terms, which travel with it.
# (Written last: have_all above then never trusts a half-finished fetch.)
install -m 0644 "$dl/x/usr/share/doc/raspi-firmware/copyright" "$out/LICENCE.broadcom"
# Where each file came from, for the record.
for deb in "$dl"/*.deb; do
	dpkg-deb --showformat='${Package} ${Version}\n' -W "$deb"
done > "$out/SOURCES"
say "$(paste -sd',' "$out/SOURCES" | sed 's/,/, /g') -> $out"
