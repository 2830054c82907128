# Output files are replaced atomically (issue 15): a write that fails leaves the
# old file whole, even when it is also the input; a successful one keeps the
# file's permissions and a symlink's target; no temporary file is left behind.
# NCHW 1x2x1x2 "abcd" (c0 = ab, c1 = cd) is NHWC "acbd".
conv() { tlayout convert --from NCHW:u8:1x2x1x2 --to NHWC:u8:1x1x2x2 "$@"; }
printf abcd > x
cp x x.orig
chmod 640 x
# a file-size limit: the write fails with EFBIG. Messages go through a pipe, as
# the limit also applies to files the shell would write.
msg=$( (ulimit -f 0; conv -i x -o x 2>&1 || echo "exit=$?") )
echo "limit: $msg"
cmp x x.orig && echo "limit: x intact"
# a full device is written in place (not a regular file) and fails
if conv -i x -o /dev/full 2>err; then echo "full: exit 0"; else echo "full: exit $?"; fi
cat err
# success: in place, permissions kept
conv -i x -o x
printf 'converted: '; cat x; echo
ls -l x | cut -c1-10
# through a symlink: the target is replaced, the link stays
cp x.orig y
ln -s y link
conv -i x.orig -o link
test -L link && echo "link kept"
printf 'target: '; cat y; echo
ls -A
