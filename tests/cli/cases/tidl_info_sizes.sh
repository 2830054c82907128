# The three sizes of the issue's "Done when" (V2; V4 1 core; V4 4 cores),
# written by the documented test aid and read back by size.
for v in "2 1" "4 1" "4 4"; do
    set -- $v
    tlayout tidl-info --write-sample "$1" "$2" "io_$1_$2.bin"
    echo "$(wc -c < "io_$1_$2.bin" | tr -d ' ') bytes"
    tlayout tidl-info "io_$1_$2.bin" | grep -E '^io_|spec '
done
