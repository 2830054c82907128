# Every golden case of tests/image/golden (outputs made by OpenCV 4.6 with
# tests/image/gen_golden.py) must come out of `tlayout image` byte for byte.
gold="$DATA/../../image/golden"
grep -v '^#' "$gold/manifest" | while read -r name args; do
    # shellcheck disable=SC2086 # the manifest's arguments are words
    tlayout image $args -i "$gold/$name.in" -o "$name.got"
    if cmp -s "$name.got" "$gold/$name.out"; then echo "$name same"; else echo "$name DIFFERS"; fi
done
