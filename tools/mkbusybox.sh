#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Pack Debian's busybox-static into a newc archive for Pagoda's initramfs:
# /bin/busybox and a symbolic link for each of its applets, where busybox
# itself would install them (`busybox --list-full`: bin/ls, usr/bin/awk...),
# each pointing at /bin/busybox, with user/busybox/'s /init and /etc files. The binary is the package's own: on
# x86-64 the installed /bin/busybox (tools/install-deps.sh), on arm64 the
# arm64 package fetched with apt-get download (tools/fetch-busybox-arm64.sh).
#   usage: mkbusybox.sh ARCH OUT.cpio
set -euo pipefail
arch=${1:?usage: mkbusybox.sh x86_64|arm64 OUT.cpio}
out=${2:?usage: mkbusybox.sh x86_64|arm64 OUT.cpio}
here=$(cd "$(dirname "$0")" && pwd)
say() { printf 'busybox: %s\n' "$*" >&2; }

case $arch in
x86_64)
	bb=/bin/busybox
	[ -x "$bb" ] || { say "no $bb: run tools/install-deps.sh (package busybox-static)"; exit 1; }
	list() { "$bb" --list-full; }
	;;
arm64)
	dir=$(dirname "$out")/busybox-arm64
	"$here/fetch-busybox-arm64.sh" "$dir"
	bb=$dir/busybox
	# The arm64 binary lists its own applets under QEMU's user mode (qemu-user).
	list() { qemu-aarch64 "$bb" --list-full; }
	;;
*)
	say "ARCH=$arch: x86_64 or arm64"
	exit 1
	;;
esac

# /init (a shell on the console, job control off) and the user database
# busybox's ps and ls look names up in.
src=$(cd "$here/../user/busybox" && pwd)
pairs=("bin/busybox=$bb" "init=$src/init" "etc/passwd=$src/passwd" "etc/group=$src/group")
while read -r applet; do
	[ -n "$applet" ] && [ "$applet" != bin/busybox ] && pairs+=("$applet@/bin/busybox")
done < <(list)
[ ${#pairs[@]} -gt 100 ] || { say "$bb --list-full gave too few applets"; exit 1; }
exec "${PY:-/usr/bin/python3}" "$here/mkcpio.py" "$out" "${pairs[@]}"
