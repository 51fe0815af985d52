#!/usr/bin/env bash
# Install what Pagoda needs to build, boot and test, from the distribution's
# own packages. Called by the Makefile before anything that needs a tool, so a
# fresh clone needs nothing but `make run` or `make test`.
#
# On Debian 12 (bookworm) QEMU is 7.2, too old for the raspi4b machine, so we
# take QEMU from bookworm-backports. The backports source is derived from the
# mirror the machine already uses: we never name a package host ourselves.
#
# The Raspberry Pi 4 files (start4.elf, fixup4.dat, the board's device tree)
# come from Debian arm64 packages that tools/fetch-pi4-firmware.sh downloads,
# never installs. For apt to see them on an amd64 host, dpkg must accept the
# arm64 architecture and the release's non-free-firmware component must be in
# the sources; this script sets both up (`--pi4-sources` does only that).
set -euo pipefail

say() { printf 'install-deps: %s\n' "$*" >&2; }

# Tools we need, and the package that provides each.
declare -A PKG_OF=(
	[gcc]=gcc
	[make]=make
	[nasm]=nasm
	[ld]=binutils
	[aarch64-linux-gnu-gcc]=gcc-aarch64-linux-gnu
	[qemu-system-x86_64]=qemu-system-x86
	[qemu-system-aarch64]=qemu-system-arm
	[qemu-img]=qemu-utils
	[grub-mkrescue]=grub-common
	[xorriso]=xorriso
	[mformat]=mtools
	[python3]=python3
	[gdb]=gdb
	[gdb-multiarch]=gdb-multiarch
	[clang]=clang
	[dtc]=device-tree-compiler
	[musl-gcc]=musl-tools # user/libc: an unmodified program against musl
	[gnuplot]=gnuplot-nox # make experiment: the allocator-policy plot
	[cpio]=cpio # the initramfs read from GNU cpio's own archives (make test)
	[fio]=fio # the shell's fio output checked against fio's own (make test); the Linux peer runs it
	[dmsetup]=dmsetup # the shell's dmsetup options checked against dmsetup's own usage; and the peer's
	[sfdisk]=fdisk # make fuzz-seeds: MBR and GPT tables as util-linux writes them
	# make selftests: the arm64 selftests run on the host too, under QEMU's user mode
	[qemu-aarch64]=qemu-user
	# make test builds each kernel twice, once with the other vDSO layout
	[ccache]=ccache
)
# Package files that have no command of their own.
declare -A FILE_OF=(
	[/usr/lib/grub/i386-pc/multiboot2.mod]=grub-pc-bin
	[/usr/lib/grub/x86_64-efi/multiboot2.mod]=grub-efi-amd64-bin
	[/usr/share/ovmf/OVMF.fd]=ovmf
	# make selftests: Linux's own selftests, from the kernel source Debian ships
	[/usr/src/linux-source-6.1.tar.xz]=linux-source-6.1
	# static glibc programs for arm64 (calltest, the arm64 selftests)
	[/usr/aarch64-linux-gnu/lib/libc.a]=libc6-dev-arm64-cross
	# USERLAND=busybox and the busybox session test (x86-64; arm64's is fetched
	# by tools/fetch-busybox-arm64.sh)
	[/bin/busybox]=busybox-static
)

qemu_new_enough() {
	command -v qemu-system-aarch64 >/dev/null || return 1
	local v
	v=$(qemu-system-aarch64 --version | sed -n 's/.*version \([0-9]*\)\..*/\1/p' | head -n1)
	[ -n "$v" ] && [ "$v" -ge 9 ]
}

missing=()
for tool in "${!PKG_OF[@]}"; do
	command -v "$tool" >/dev/null 2>&1 || missing+=("${PKG_OF[$tool]}")
done
for f in "${!FILE_OF[@]}"; do
	[ -e "$f" ] || missing+=("${FILE_OF[$f]}")
done
# libFuzzer (make fuzz, and the short fuzzing run in make test) is in
# clang's runtime package, which clang itself only recommends.
fuzzer_present() {
	command -v clang >/dev/null 2>&1 &&
		[ -e "$(clang -print-runtime-dir 2>/dev/null)/libclang_rt.fuzzer-$(uname -m).a" ]
}
fuzzer_present || missing+=(libclang-rt-dev)
need_new_qemu=0
qemu_new_enough || need_new_qemu=1

# Can apt already offer the arm64 packages the Pi 4 SD card is made from?
# (Only Debian has them under these names; elsewhere there is nothing to do.)
pi4_sources_ok() {
	grep -qx 'ID=debian' /etc/os-release 2>/dev/null || return 0
	command -v apt-cache >/dev/null || return 0
	[ "$(dpkg --print-architecture)" = arm64 ] ||
		dpkg --print-foreign-architectures | grep -qx arm64 || return 1
	# raspi-firmware is an "all" package; the kernel package is arm64.
	LC_ALL=C apt-cache policy raspi-firmware linux-image-arm64:arm64 2>/dev/null |
		grep -c 'Candidate: [0-9]' | grep -qx 2
}
need_pi4_sources=0
pi4_sources_ok || need_pi4_sources=1

only_pi4=0
if [ "${1:-}" = --pi4-sources ]; then
	only_pi4=1
	missing=() need_new_qemu=0
fi

if [ ${#missing[@]} -eq 0 ] && [ $need_new_qemu -eq 0 ] && [ $need_pi4_sources -eq 0 ]; then
	exit 0
fi

if [ ! -r /etc/os-release ] || ! command -v apt-get >/dev/null; then
	say "this is not a Debian or Ubuntu machine; please install: ${missing[*]} and QEMU >= 9"
	exit 1
fi
. /etc/os-release

SUDO=
if [ "$(id -u)" -ne 0 ]; then
	if command -v sudo >/dev/null && sudo -n true 2>/dev/null || [ -t 0 ]; then
		SUDO=sudo
	else
		[ ${#missing[@]} -eq 0 ] || say "need root to install: ${missing[*]}"
		[ $need_pi4_sources -eq 0 ] ||
			say "need root to let apt see the Pi 4 firmware (dpkg --add-architecture arm64, the non-free-firmware component)"
		say "run: sudo $0   (or install those packages yourself)"
		exit 1
	fi
fi

# The mirror the machine already uses for its own release: the first URI of
# an apt source whose suite is exactly "$VERSION_CODENAME" (so not -security
# or a third-party repository), in the deb822 (.sources) or one-line format.
debian_mirror() {
	local f
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -e "$f" ] || continue
		awk -v want="$VERSION_CODENAME" '
			function flush() { if (ok && uri != "") { print uri; found = 1; exit } ok = 0; uri = "" }
			/^[ \t]*$/ { flush(); next }
			/^URIs:/ { uri = $2 }
			/^Suites:/ { for (i = 2; i <= NF; i++) if ($i == want) ok = 1 }
			/^Enabled:[ \t]*no/ { uri = "" }
			END { if (!found) flush() }' "$f" | grep . && return 0
	done
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -e "$f" ] || continue
		# deb [options] URI suite components...
		awk -v want="$VERSION_CODENAME" '$1 == "deb" {
			i = 2; if ($i ~ /^\[/) { while (i <= NF && $i !~ /\]$/) i++; i++ }
			if ($(i + 1) == want) { print $i; exit } }' "$f" | grep . && return 0
	done
	return 1
}

# add_source LIST SUITE COMPONENTS WHAT IF_NONE: a deb822 source for SUITE's
# COMPONENTS from the machine's own Debian mirror, written to LIST; WHAT
# says what is added, IF_NONE what to do by hand when there is no mirror.
add_source() {
	local list=$1 suite=$2 components=$3 what=$4 if_none=$5 mirror
	mirror=$(debian_mirror | head -n1) || true
	if [ -z "$mirror" ]; then
		say "cannot find a Debian mirror in the apt sources; $if_none by hand"
		return 1
	fi
	say "adding $what from the machine's own mirror ($mirror)"
	$SUDO tee "$list" >/dev/null <<SRC
Types: deb
URIs: $mirror
Suites: $suite
Components: $components
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
}

add_backports() {
	local list=/etc/apt/sources.list.d/pagoda-backports.sources
	[ -e "$list" ] && return 0
	add_source "$list" "${VERSION_CODENAME}-backports" "main contrib non-free non-free-firmware" \
		"${VERSION_CODENAME}-backports" "install QEMU >= 9"
}

# The release's own suite with the non-free-firmware component (where
# raspi-firmware lives), from the same mirror, unless a source has it already.
add_firmware_component() {
	local list=/etc/apt/sources.list.d/pagoda-firmware.sources
	[ -e "$list" ] && return 0
	LC_ALL=C apt-cache policy 2>/dev/null |
		grep -q "n=${VERSION_CODENAME},.*c=non-free-firmware" && return 0
	add_source "$list" "${VERSION_CODENAME}" non-free-firmware \
		"the non-free-firmware component of ${VERSION_CODENAME}" \
		"enable the non-free-firmware component"
}

setup_pi4_sources() {
	if [ "$(dpkg --print-architecture)" != arm64 ] &&
	   ! dpkg --print-foreign-architectures | grep -qx arm64; then
		say "enabling the arm64 architecture in dpkg (packages are only downloaded, never installed)"
		$SUDO dpkg --add-architecture arm64
	fi
	add_firmware_component || true
	$SUDO apt-get update -qq
	pi4_sources_ok || say "warning: apt still offers no raspi-firmware or linux-image-arm64:arm64; the Pi 4 SD card will not build"
}

if [ $only_pi4 -eq 1 ]; then
	setup_pi4_sources
	exit 0
fi

qemu_from=()
if [ $need_new_qemu -eq 1 ] && [ "${ID:-}" = debian ] && [ "${VERSION_CODENAME:-}" = bookworm ]; then
	add_backports && qemu_from=(-t bookworm-backports)
fi
# QEMU's user mode comes from where its system emulators came from: only a
# new one (8.1 on) gives arm64 programs a vDSO, which the selftests read.
[ -e /etc/apt/sources.list.d/pagoda-backports.sources ] && qemu_from=(-t bookworm-backports)

if [ ${#missing[@]} -gt 0 ] || [ $need_new_qemu -eq 1 ]; then
	say "installing: ${missing[*]:-} (QEMU >= 9 needed for raspi4b)"
fi
export DEBIAN_FRONTEND=noninteractive
if [ $need_pi4_sources -eq 1 ]; then
	setup_pi4_sources
else
	$SUDO apt-get update -qq
fi
# QEMU first, from backports where that is needed, so it is the new one.
$SUDO apt-get install -y -qq --no-install-recommends "${qemu_from[@]}" \
	qemu-system-x86 qemu-system-arm qemu-utils qemu-user ovmf >/dev/null
if [ ${#missing[@]} -gt 0 ]; then
	$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
qemu_new_enough || say "warning: QEMU is older than 9; the Pi 4 target (raspi4b) will not run"
say "done"
