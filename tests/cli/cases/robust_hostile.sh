# The CLI never crashes (issue 9): hostile arguments, files and sizes each give
# a message on stderr and a non-zero exit, never a signal, a hang or a
# sanitizer or valgrind report (the ASan, cross/qemu and valgrind stages run
# this case too).
# Prints one FAIL line per broken case, then a summary (compared with .out).
n=0
failed=0
have_timeout=0
command -v timeout >/dev/null 2>&1 && have_timeout=1

# hostile ARG... : must fail cleanly (exit 1 or 2 with a message)
# survive ARG... : any exit code below 128, no sanitizer report
run() {
    mode=$1
    shift
    n=$((n + 1))
    if [ "$have_timeout" = 1 ]; then
        timeout 300 tlayout "$@" >out.txt 2>err.txt </dev/null && code=0 || code=$?
    else
        tlayout "$@" >out.txt 2>err.txt </dev/null && code=0 || code=$?
    fi
    why=""
    if [ "$code" = 124 ] && [ "$have_timeout" = 1 ]; then why="hung (killed after 300 s)"
    elif [ "$code" -ge 128 ]; then why="killed by signal $((code - 128))"
    elif grep -q -E 'Sanitizer|runtime error:|^==[0-9]+== ' err.txt; then
        why="sanitizer or valgrind report"
    elif [ "$mode" = hostile ] && [ "$code" = 0 ]; then why="exit 0"
    elif [ "$mode" = hostile ] && ! [ -s err.txt ]; then why="exit $code without a message"
    fi
    if [ -n "$why" ]; then
        failed=$((failed + 1))
        printf 'FAIL case %d: %s:' "$n" "$why"
        for a in "$@"; do printf ' [%.60s]' "$a"; done
        printf '\n'
        head -c 600 err.txt | sed 's/^/    /'; echo
    fi
}
hostile() { run hostile "$@"; }
survive() { run survive "$@"; }

# the program under test must run at all, or every "clean failure" below is void
if ! tlayout --version >out.txt 2>err.txt || ! grep -q '^tlayout ' out.txt; then
    echo "FAIL: 'tlayout --version' does not work; nothing below would mean anything"
    cat err.txt
    exit 1
fi

# ---- material ----------------------------------------------------------------
long=$(printf '%080000d' 0 | tr 0 A)                      # 80000 characters
longdims=$(printf '%01000d' 0 | sed 's/0/1x/g')1              # 1001 dims
junk=$(printf '\001\377\376\033[31m\177%%s%%n%%x\302\240\342\200\256')
printf 'not a tensor' >tiny.bin
head -c 37256 /dev/zero | tr '\000' '\377' >ff37256.bin        # an io_1.bin size, every byte 0xff
head -c 376 /dev/zero | tr '\000' '\377' >ff376.bin
mkdir -p adir
: >empty.bin
head -c 239 /dev/zero >short.bin                              # NCHW:f32:1x3x4x5 needs 240

# ---- the command line itself ---------------------------------------------------
hostile
hostile ""
hostile "$junk"
hostile "$long"
hostile frobnicate
hostile -- describe
hostile --versio
for cmd in describe offset convert draw explain tidl-info threshold; do
    hostile "$cmd"
    hostile "$cmd" ""
    hostile "$cmd" "$junk"
    hostile "$cmd" "$long"
    hostile "$cmd" "%s%s%s%n%n:f32:1"
    hostile "$cmd" --no-such-option
done
hostile demo extra-argument
hostile bench --size
hostile bench --frobnicate

# ---- spec strings --------------------------------------------------------------
for spec in "$junk" "$long" ":" "::" ":::" "NCHW" "NCHW:f32" "NCHW:f32:" "NCHW:f32:x" \
    "NCHW:f32:1x3x4x5:" "NCHW:f32:1x3x4x5::" "NCHW:f32:1x3x4x5:=" "NCHW:f32:1x3x4x5:pad=" \
    "NCHW:f32:$longdims" "NCHW:f32:1x1x1x9223372036854775807" "NCHW:f32:1x1x1x99999999999999999999" \
    "NCHW:f32:0x0x0x0" "NCHW:f32:-1x1x1x1" "NCHW16c:f32:1x9223372036854775807x1x1" \
    "NCHW:f32:1x1x1x1:offset=9223372036854775807" "NCHW:f32:2x1x1x1:strides=9223372036854775807,1,1,1" \
    "yuv.nv12:u8:3x9223372036854775807x8" "larod.nhwc:u8:1x2x2x3:pitches=9223372036854775807,1,1,1" \
    "tidl:u8:1x3x4x4:cp=-1" "tidl:u8:1x3x4x4:pad=2147483648,0,0,0" \
    "dml:f32:1x3x4x4:strides=1,0,0,$long" "rknn.nc1hwc2:i8:1x6x80x80x16:c=$long" \
    "trt.chw32:i8:1x3x4x5:gen=$junk" "NCHW:i8:1x1x1x1:scale=nan" "NCHW:i8:1x1x1x1:scale=1e999"; do
    hostile describe "$spec"
    hostile describe "$spec" --json
    hostile explain "$spec"
    hostile offset "$spec" 0,0,0,0
    hostile threshold "$spec" 0.5
    hostile draw "$spec" -o out.svg
done

# huge but valid: anything but a crash
for spec in "tidl:u8:1x3x4x2147483647:pad=2147483647,0,0,0" "NCHW:u8:1x1x1x1152921504606846975" \
    "NCHW:f32:1x1x1x1:size=9223372036854775807" "yuv.i420:u8:3x4x6:chroma=1152921504606846975"; do
    survive describe "$spec" --json
    survive explain "$spec"
    survive offset "$spec" 0,0,0,0
    survive threshold "$spec" 0.5
    survive draw "$spec" -o out.svg
done

# ---- coordinates -----------------------------------------------------------------
for coord in "" "," ",,," "0,0,0" "0,0,0,0,0" "-1,0,0,0" "0,3,0,0" "1,0,0,0" \
    "99999999999999999999,0,0,0" "9223372036854775807,0,0,0" "-9223372036854775808,0,0,0" \
    "0x10,0,0,0" "0,0,0,0," "a,b,c,d" "$junk" "$long"; do
    hostile offset NCHW:f32:1x3x4x5 "$coord"
done
hostile threshold NCHW:i8:1x1x1x1:scale=0.1 ""
hostile threshold NCHW:i8:1x1x1x1:scale=0.1 "$junk"
hostile threshold NCHW:f32:1x1x1x1 0.5

# ---- files -----------------------------------------------------------------------
f="--from NCHW:f32:1x3x4x5 --to NHWC:f32:1x4x5x3"
hostile convert $f -i /nonexistent/in.bin -o out.bin
hostile convert $f -i short.bin -o out.bin
hostile convert $f -i empty.bin -o out.bin
hostile convert $f -i /dev/null -o out.bin
hostile convert $f -i adir -o out.bin
hostile convert $f -i tiny.bin -o out.bin
hostile convert $f -i "$long" -o out.bin
hostile convert --from NCHW:f32:1x3x4x5 --to NCHW:f32:1x3x4x6 -i ff37256.bin -o out.bin
hostile convert --from NCHW:u8:1x1x65536x65536 --to NCHW:u8:1x1x65536x65536 -i tiny.bin -o out.bin
hostile convert --from W:u8:8589934592 --to W:u8:8589934592 -i /dev/null -o out.bin
hostile convert --from dml:f32:1x3x4x4 --to dml:f32:1x3x4x4:strides=1,0,0,0 -i ff37256.bin -o out.bin
hostile convert $f -i ff37256.bin -o /nonexistent/dir/out.bin
hostile convert $f -i ff37256.bin -o adir
hostile convert $f -i ff37256.bin
hostile convert $f -o out.bin
hostile convert $f -i ff37256.bin -o out.bin --keep-padding --frobnicate
if [ -w /dev/full ]; then
    hostile convert $f -i ff37256.bin -o /dev/full
    hostile draw NCHW:f32:1x3x4x5 -o /dev/full
fi
survive convert $f -i ff37256.bin -o out.bin
survive convert --from NCHW:f32:1x3x4x5 --to NCHW:i8:1x3x4x5:scale=1e-30 -i ff37256.bin -o out.bin
for file in /nonexistent empty.bin tiny.bin ff376.bin ff37256.bin adir /dev/null "$long" "$junk"; do
    hostile tidl-info "$file"
    hostile tidl-info "$file" --json
done
hostile tidl-info --write-sample 9 9 out.bin
hostile tidl-info --write-sample 4 3 out.bin
hostile tidl-info --write-sample 4 1 /nonexistent/dir/io_1.bin
hostile draw NCHW:f32:1x3x4x5 -o /nonexistent/dir/out.svg
hostile draw NCHW:f32:1x3x4x5 -o out.svg --lines -1
hostile draw NCHW:f32:1x3x4x5 -o out.svg --cells 99999999999999999999
survive draw NCHW:f32:1x3x4x5 -o out.svg --title "$junk"
survive draw NCHW:f32:1x3x4x5 -o out.svg --title "$long"

if [ "$failed" = 0 ]; then
    echo "hostile arguments: every case ended cleanly"
else
    echo "hostile arguments: $failed of $n cases broke"
fi
