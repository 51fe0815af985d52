# The busybox session's machine-dependent half (tests/levels/busybox.py):
# Pagoda's /, processes, memory, mounts and devices, whose answers the
# harness checks by their shape (and the disk's bytes against the image's).
# $1: the disk's name under /dev (vda; mmcblk0 on the Pi 4).
DISK=/dev/${1:-vda}
echo "== ls"; ls -l /
echo "== ps"; ps
echo "== free"; free
echo "== mount"; mount
echo "== uptime"; uptime
echo "== top"; top -n1 -b | head -4
echo "== proc"; head -3 /proc/self/status; cat /proc/filesystems; head -1 /proc/meminfo
echo "== dev"; ls /dev /dev/mapper
echo "== size"; blockdev --getsize64 $DISK; blockdev --getss $DISK
echo "== disk"; dd if=$DISK bs=4k count=16 2>/dev/null | md5sum
echo "== dm"; dd if=/dev/mapper/bbdm bs=4k count=16 2>/dev/null | md5sum
echo "== dm-0"; dd if=/dev/dm-0 bs=512 count=128 2>/dev/null | md5sum
echo "== write"; echo pagoda | dd of=$DISK bs=512 seek=1024 conv=notrunc,sync 2>/dev/null
dd if=$DISK bs=512 skip=1024 count=1 2>/dev/null | head -c 6; echo
echo "== shmem"; grep Shmem: /proc/meminfo
echo "== end"
