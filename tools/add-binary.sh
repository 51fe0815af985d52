#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Copy a Debian program and the shared libraries it loads into DIR, at the
# paths they have on Debian, for `make run ROOTFS=DIR` (docs/userland.md).
#
#   usage: add-binary.sh [--arch x86_64|arm64] PROGRAM DIR [HOST-PATH...]
#
# x86_64 (the default): PROGRAM is the host's own (a path, or a name on
# PATH); the libraries are the ones `ldd` names, and the loader the program
# asks for (PT_INTERP). Links are followed: DIR gets the files themselves,
# except that the loader's path (/lib64/ld-linux-x86-64.so.2) is kept.
# Each HOST-PATH after DIR (x86_64 only) is copied too, a directory whole,
# with the libraries its shared objects need: a program's own modules, as
# python3's /usr/lib/python3.11 (docs/userland.md).
#
# arm64: PROGRAM names a host program too (/usr/bin/md5sum), and the arm64
# build of the package that holds it is fetched with `apt-get download`
# (only downloaded and unpacked, never installed: as
# tools/fetch-busybox-arm64.sh does), with libc6. The libraries copied are
# the arm64 loader's own list (ld.so --list, run under qemu-aarch64). To
# get them, the DT_NEEDED names of the program and of every library found
# so far are walked; each missing one is looked up on the host (`dpkg -S`),
# and those packages' arm64 builds are fetched together, round after round,
# until none is missing. The downloads stay in build/debian-arm64 for the
# next time.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
say() { printf 'add-binary: %s\n' "$*" >&2; }
die() { say "$*"; exit 1; }

arch=x86_64
if [ "${1:-}" = --arch ]; then
	arch=${2:?--arch takes x86_64 or arm64}
	shift 2
fi
usage="usage: add-binary.sh [--arch x86_64|arm64] PROGRAM DIR [HOST-PATH...]"
prog=${1:?$usage}
dir=${2:?$usage}
shift 2
extra=("$@")
case $prog in
/*) ;;
*) prog=$(command -v "$prog") || die "$1: not on PATH" ;;
esac
[ -e "$prog" ] || die "$prog: no such file"
mkdir -p "$dir"

# put SRC DEST: SRC's bytes (links followed) at DIR/DEST, mode kept.
put() {
	mkdir -p "$dir/$(dirname "$2")"
	cp -L --preserve=mode "$1" "$dir/$2"
}

# The loader PT_INTERP names, from the program's headers.
interp_of() {
	LC_ALL=C readelf -l "$1" | sed -n 's/.*\[Requesting program interpreter: \(.*\)\]/\1/p'
}

if [ "$arch" = x86_64 ]; then
	interp=$(interp_of "$prog")
	[ -n "$interp" ] || say "$prog is static: copied alone"
	put "$prog" "$prog"
	# "name => /path (addr)" and "/path (addr)"; the vDSO has no path.
	while read -r lib; do
		put "$lib" "$lib"
	done < <(ldd "$prog" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }
				    $1 ~ /^\// { print $1 }')
	[ -z "$interp" ] || put "$interp" "$interp"
	for path in "${extra[@]}"; do
		[ -e "$path" ] || die "$path: no such file or directory"
		mkdir -p "$dir/$(dirname "$path")"
		cp -a "$path" "$dir/$(dirname "$path")/"
		# The libraries the tree's shared objects load that are not there yet.
		find -L "$path" -type f -name '*.so*' -exec ldd {} + 2>/dev/null |
			awk '$2 == "=>" && $3 ~ /^\// { print $3 }' | sort -u |
			while read -r lib; do
				[ -e "$dir/$lib" ] || put "$lib" "$lib"
			done
	done
	say "$prog and its libraries${extra:+ and ${extra[*]}} -> $dir"
	exit 0
fi
[ ${#extra[@]} -eq 0 ] || die "HOST-PATH copies are for x86_64 only"
[ "$arch" = arm64 ] || die "--arch $arch: x86_64 or arm64"

command -v apt-get >/dev/null && command -v dpkg-deb >/dev/null ||
	die "needs apt-get and dpkg-deb (Debian)"
command -v qemu-aarch64 >/dev/null || die "needs qemu-aarch64 (qemu-user) to list the libraries"
cache=$(cd "$here/.." && pwd)/build/debian-arm64
root=$cache/root
mkdir -p "$cache/debs" "$root"

# fetch PACKAGE...: their arm64 .debs downloaded once (in one apt-get call)
# and each unpacked once into $root.
fetch() {
	local want=() pkg dl deb
	for pkg in "${@%%:*}"; do
		ls "$cache/debs/${pkg}_"*_arm64.deb >/dev/null 2>&1 || want+=("$pkg:arm64")
	done
	if [ ${#want[@]} -gt 0 ]; then
		"$here/install-deps.sh" --pi4-sources
		dl=$(mktemp -d "${TMPDIR:-/tmp}/pagoda-deb.XXXXXX")
		# apt's download sandbox user must be able to write here when we are root.
		chmod 0777 "$dl"
		say "downloading ${want[*]}"
		(cd "$dl" && apt-get download -q=2 "${want[@]}") || {
			rm -rf "$dl"
			die "apt-get download ${want[*]} failed"
		}
		mv "$dl"/*.deb "$cache/debs/"
		rm -rf "$dl"
	fi
	# Unpacked once: a stamp per .deb in $root says it is there already.
	for pkg in "${@%%:*}"; do
		deb=$(ls "$cache/debs/${pkg}_"*_arm64.deb | head -n 1)
		if [ ! -e "$root/.unpacked/$(basename "$deb")" ]; then
			dpkg-deb -x "$deb" "$root"
			mkdir -p "$root/.unpacked"
			touch "$root/.unpacked/$(basename "$deb")"
		fi
	done
}

# The package that holds a host file, from dpkg's own records.
owner() {
	{ dpkg -S "$1" 2>/dev/null || true; } | head -n 1 | cut -d: -f1 | cut -d, -f1
}

# Merged /usr: dpkg records one of /bin/bash and /usr/bin/bash, the host has both.
real=$(readlink -f "$prog")
pkg=
for cand in "$real" "$prog" "${real#/usr}" "/usr${prog#/usr}"; do
	pkg=$(owner "$cand")
	[ -n "$pkg" ] && break
done
[ -n "$pkg" ] || die "$prog: no Debian package holds it (dpkg -S)"
fetch libc6 "$pkg"
# Where the program is in the arm64 package: the same path, with or without /usr.
target=
for cand in "$real" "$prog" "/usr${prog#/usr}" "${prog#/usr}" "${real#/usr}"; do
	if [ -f "$root$cand" ]; then
		target=$cand
		break
	fi
done
[ -n "$target" ] || die "$pkg:arm64 has no $prog"
interp=$(interp_of "$root$target")
put "$root$target" "$prog"
if [ -z "$interp" ]; then
	say "$prog is static: copied alone"
	exit 0
fi

# The arm64 loader lists what it loads, under qemu-aarch64 with $root as /.
list() {
	qemu-aarch64 -L "$root" "$root$interp" --list "$root$target" 2>&1 || true
}

# The loader stops at the first library it cannot find, so asking it alone
# would fetch one package per round (fio needs some fifty). Instead walk the
# DT_NEEDED names of everything found so far, in the tree the loader would
# search, and name every missing one at once.
needed() {
	LC_ALL=C readelf -d "$1" 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'
}
# The soname's file in $root: the loader's own directories, then anywhere
# (a RUNPATH such as ceph's /usr/lib/aarch64-linux-gnu/ceph).
find_lib() {
	local d
	for d in /lib/aarch64-linux-gnu /usr/lib/aarch64-linux-gnu /lib /usr/lib; do
		[ -e "$root$d/$1" ] && { echo "$root$d/$1"; return; }
	done
	find "$root" -name "$1" \( -type f -o -type l \) -print -quit 2>/dev/null
}
missing_libs() {
	local -A seen=()
	local todo=("$root$target") f lib path
	while [ ${#todo[@]} -gt 0 ]; do
		f=${todo[0]}
		todo=("${todo[@]:1}")
		for lib in $(needed "$f"); do
			[ -n "${seen[$lib]:-}" ] && continue
			seen[$lib]=1
			path=$(find_lib "$lib")
			if [ -n "$path" ]; then
				todo+=("$path")
			else
				echo "$lib"
			fi
		done
	done
}
# The host package of the same library: its arm64 build has the same name.
host_pkg() {
	local cand host
	for cand in "/lib/$(gcc -print-multiarch)/$1" "/usr/lib/$(gcc -print-multiarch)/$1" "*/$1"; do
		host=$(owner "$cand")
		[ -n "$host" ] && { echo "$host"; return; }
	done
}
missing=
for _ in 1 2 3 4 5 6 7 8 9 10 11 12; do
	missing=$(missing_libs | sort -u)
	# The loader's word too, for a library the walk took as found.
	missing=$(printf '%s\n%s\n' "$missing" "$(list | sed -n \
		-e 's/^[[:space:]]*\([^[:space:]]*\) => not found.*/\1/p' \
		-e 's/.*error while loading shared libraries: \([^:]*\):.*/\1/p')" | sed '/^$/d' | sort -u)
	[ -z "$missing" ] && break
	pkgs=()
	for lib in $missing; do
		host=$(host_pkg "$lib")
		[ -n "$host" ] || die "$lib: no host package holds it to name the arm64 one"
		pkgs+=("$host")
	done
	before=$(ls "$root/.unpacked" | wc -l)
	fetch $(printf '%s\n' "${pkgs[@]}" | sort -u)
	[ "$(ls "$root/.unpacked" | wc -l)" -gt "$before" ] ||
		die "fetched ${pkgs[*]} and still missing: $missing"
done
[ -z "$missing" ] || die "still missing after fetching: $missing"
while read -r lib; do
	put "$root$lib" "$lib"
done < <(list | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }' |
	 sed "s|^$root||" | sort -u)
put "$root$interp" "$interp"
say "$prog ($pkg:arm64) and its libraries -> $dir"
