# The busybox session's machine-independent half (tests/levels/busybox.py):
# run by busybox's sh under Pagoda and, with the same busybox binary, on the
# host; the two outputs must be the same, line for line. $1: a directory to
# work in (Pagoda: /tmp, its tmpfs). Everything made here is removed again.
# Only stdout is compared: under Pagoda stderr is the console too, so it
# goes (the shell's own "Terminated" for a killed job comes whenever it
# notices, before or after the next line).
exec 2>/dev/null
D=$1/bb-session
mkdir "$D" && cd "$D" || exit 1
echo "hello, world" > f
echo "second line" >> f
cat f
wc -l < f
grep -n second f
sed 's/world/Pagoda/' f
awk '{ n += length($0) } END { print NR, n }' f
printf '3\n1\n2\n10\n' | sort -n | tr '\n' ' '; echo
printf 'b\na\nb\n' | sort | uniq -c
md5sum f
dd if=/dev/zero bs=4k count=8 2>/dev/null | md5sum
head -c 32 f | hexdump -C
seq 1 5 | xargs echo
mkdir sub && mv f sub/g && ls sub
ls -l sub/g | awk '{ print $1, $2, $5, $NF }'
chmod 751 sub/g && chmod u-w,g+w sub/g && ls -l sub/g | awk '{ print $1 }'
ln -s g sub/l && readlink sub/l && ls -l sub/l | awk '{ print $1, $(NF-2), $NF }' && wc -c < sub/l
truncate -s 5 sub/g && cat sub/g && echo
cp sub/g h && cmp sub/g h && echo same
printf '#!/bin/sh\necho "a script in $1 ran with $2"\n' > run.sh && chmod +x run.sh &&
	./run.sh tmp arg
cp /bin/busybox busybox && ./busybox echo "a copied busybox runs"
rm -f run.sh busybox
rm -rf sub h && ls -A
{ echo out; echo err >&2; } 2>&1 | sort
x=$(echo sub | tr a-z A-Z) && echo "$x"
test -c /dev/null && echo "/dev/null is a character device"
sleep 1 && echo slept
sleep 30 & kill %1; wait $!; echo "kill %1: $?"
sleep 1 & wait; echo "wait: $?"
true | sleep 1 & wait %1; echo "wait %1: $?"
cd / && rmdir "$D" && echo clean
