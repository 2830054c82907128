# An endless input: tidl-info reads one byte more than the largest io_1.bin
# and stops (`timeout` turns an unbounded read into exit 124, not a hang).
if timeout 10 tlayout tidl-info /dev/zero; then echo "unexpected success"; else echo "exit $?"; fi
if timeout 10 tlayout tidl-info - < /dev/zero; then echo "unexpected success"; else echo "exit $?"; fi
