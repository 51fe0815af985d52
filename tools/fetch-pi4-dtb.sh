#!/usr/bin/env bash
# Fetch the Raspberry Pi 4 device tree, bcm2711-rpi-4-b.dtb, from Debian's
# arm64 kernel package into OUTDIR (usage: fetch-pi4-dtb.sh OUTDIR).
#
# The file is never committed: it is downloaded with apt at build time. This
# is best effort: without apt, network or root it says why and exits 1, and
# the FDT tests that want the real Pi 4 tree skip.
set -euo pipefail

out=${1:?usage: $0 OUTDIR}
dtb=$out/bcm2711-rpi-4-b.dtb
say() { printf 'fetch-pi4-dtb: %s\n' "$*" >&2; }

[ -s "$dtb" ] && exit 0
command -v apt-get >/dev/null || { say "no apt-get: cannot fetch the Pi 4 DTB"; exit 1; }

SUDO=
if [ "$(id -u)" -ne 0 ]; then
	if sudo -n true 2>/dev/null; then SUDO=sudo; else SUDO=; fi
fi

# The arm64 package lists must be known to apt (on an amd64 host).
if ! dpkg --print-architecture | grep -qx arm64 &&
   ! dpkg --print-foreign-architectures | grep -qx arm64; then
	if [ "$(id -u)" -ne 0 ] && [ -z "$SUDO" ]; then
		say "arm64 packages not enabled and no root: run 'sudo dpkg --add-architecture arm64 && sudo apt-get update'"
		exit 1
	fi
	say "enabling arm64 packages (dpkg --add-architecture arm64)"
	$SUDO dpkg --add-architecture arm64
	$SUDO apt-get update -qq
fi

# linux-image-arm64 is a meta-package: the real one is its dependency.
pkg=$(apt-cache depends linux-image-arm64:arm64 2>/dev/null |
	sed -n 's/.*Depends: \(linux-image-[0-9][^ :]*\).*/\1/p' | head -n1)
if [ -z "$pkg" ]; then
	say "apt knows no linux-image-arm64:arm64 (try apt-get update)"
	exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
say "downloading $pkg:arm64 for its bcm2711-rpi-4-b.dtb"
(cd "$tmp" && apt-get download -qq "$pkg:arm64" 2>/dev/null) || {
	say "apt-get download $pkg:arm64 failed"
	exit 1
}
mkdir -p "$out"
dpkg-deb --fsys-tarfile "$tmp"/*.deb |
	tar -xO --wildcards '*/broadcom/bcm2711-rpi-4-b.dtb' > "$tmp/pi4.dtb"
[ -s "$tmp/pi4.dtb" ] || { say "no bcm2711-rpi-4-b.dtb in $pkg"; exit 1; }
mv "$tmp/pi4.dtb" "$dtb"
say "wrote $dtb"
