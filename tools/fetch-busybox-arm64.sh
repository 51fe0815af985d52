#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Fetch Debian's busybox-static for arm64 into OUTDIR (build/.../busybox-arm64):
# the package is only downloaded (apt-get download) and unpacked here, never
# installed, as tools/fetch-pi4-firmware.sh does for the Pi 4's files. dpkg
# must accept the arm64 architecture (tools/install-deps.sh --pi4-sources
# sets that up).
#   usage: fetch-busybox-arm64.sh OUTDIR
set -euo pipefail
out=${1:?usage: fetch-busybox-arm64.sh OUTDIR}
here=$(cd "$(dirname "$0")" && pwd)
say() { printf 'busybox-arm64: %s\n' "$*" >&2; }

[ -x "$out/busybox" ] && [ -s "$out/SOURCE" ] && exit 0
if ! command -v apt-get >/dev/null || ! command -v dpkg-deb >/dev/null; then
	say "needs apt-get and dpkg-deb (Debian); or put an arm64 busybox in $out by hand"
	exit 1
fi
"$here/install-deps.sh" --pi4-sources

dl=$(mktemp -d "${TMPDIR:-/tmp}/pagoda-busybox.XXXXXX")
trap 'rm -rf "$dl"' EXIT
# apt's download sandbox user must be able to write here when we are root.
chmod 0777 "$dl"
say "downloading busybox-static:arm64 (about 1 MB, once)"
(cd "$dl" && apt-get download -q=2 busybox-static:arm64) || {
	say "apt-get download failed; see the message above"
	exit 1
}
deb=$(ls "$dl"/*.deb)
mkdir -p "$dl/x" "$out"
dpkg-deb -x "$deb" "$dl/x"
if [ ! -s "$dl/x/bin/busybox" ]; then
	say "the package has no bin/busybox"
	exit 1
fi
install -m 0755 "$dl/x/bin/busybox" "$out/busybox"
# Where it came from, for the record (written last: the check above trusts it).
dpkg-deb --showformat='${Package} ${Version} ${Architecture}\n' -W "$deb" > "$out/SOURCE"
say "$(cat "$out/SOURCE") -> $out"
