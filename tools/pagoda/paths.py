"""Where the Makefile puts things. Written once: every script asks here."""
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.path.join(ROOT, "build")
# QEMU's -kernel takes the ELF on x86 (its PVH note) ...
X86_KERNEL = os.path.join(BUILD, "x86_64-pc", "pagoda.elf")
X86_ISO = os.path.join(BUILD, "x86_64-pc", "pagoda.iso")
# ... and the raw Image on arm64: the pi4 one is the very file the SD card gets.
ARM64_IMAGE = {p: os.path.join(BUILD, "arm64-%s" % p, "kernel8.img")
               for p in ("virt", "pi4")}
# The same kernels with another vDSO layout (make VDSO_LAYOUT=alt): checkpoint/restore's tests.
X86_KERNEL_VDSO_ALT = os.path.join(BUILD, "x86_64-pc-vdso-alt", "pagoda.elf")
ARM64_VIRT_VDSO_ALT = os.path.join(BUILD, "arm64-virt-vdso-alt", "kernel8.img")
PI4_FIRMWARE = os.path.join(BUILD, "pi4-firmware")
PI4_DTB = os.path.join(PI4_FIRMWARE, "bcm2711-rpi-4-b.dtb")
HOST = os.path.join(BUILD, "host")


def host_bin(name):
    """A host program the Makefile builds under build/host/."""
    return os.path.join(HOST, name)


def out_dir(name):
    """build/NAME/ (test, bench, experiment), created on first use."""
    d = os.path.join(BUILD, name)
    os.makedirs(d, exist_ok=True)
    return d


def rel(path):
    """A path as a person at the top of the tree would type it."""
    return os.path.relpath(path, ROOT)
