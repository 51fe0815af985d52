# Debian's bash on Pagoda (tests/levels/dynelf.py): fork, exec, pipes and
# substitutions of dynamic programs. It runs on the host too, from the
# test's directory, so every path is taken relative to where it is.
R=${0%/etc/dyn/*}
PATH=$R/bin:$R/usr/bin
cd "$R/etc/dyn" || exit 1
echo "bash ${BASH_VERSION%%(*}"
for i in 1 2 3; do echo "line $i"; done
x=$(echo substituted | sort)
echo "$x"
ls | sort -r
ls | md5sum
ls /nonexistent 2>/dev/null || echo "ls failed: $?"
(exit 3); echo "subshell: $?"
sort words | md5sum
