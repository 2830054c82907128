/* Large-file support: the build defines _FILE_OFFSET_BITS=64 (CMakeLists.txt)
 * so that 32-bit glibc targets (armv7) open files of 2 GiB and more. Without
 * it, fopen of such a file fails with EOVERFLOW and this file does not even
 * compile there (the static assertion). On 64-bit targets both hold anyway. */
#define _POSIX_C_SOURCE 200809L /* fseeko */
#include <stdio.h>
#include <sys/types.h>

#include "tl_test.h"

_Static_assert(sizeof(off_t) == 8, "off_t must be 64-bit: build with -D_FILE_OFFSET_BITS=64");

/* A sparse file of 3 GiB + 1 byte: the library must open it and report it as
 * too long for an io_1.bin, not fail to open it. */
TL_TEST(tidl_read_file_beyond_2gib)
{
    char path[64];
    snprintf(path, sizeof path, "large_file_%u.bin", (unsigned)tl_test_hash("large") % 100000u);
    FILE *f = fopen(path, "wb");
    REQUIRE(f != NULL);
    int made = fseeko(f, (off_t)3 << 30, SEEK_SET) == 0 && fputc(1, f) != EOF;
    made &= fclose(f) == 0;
    if (!made) { /* a file system without sparse files or room: nothing to learn */
        printf("note: cannot create a sparse 3 GiB file here; check skipped\n");
        remove(path);
        return;
    }
    static unsigned char image[TL_TIDL_IO_MAX_BYTES];
    size_t len = 7;
    CHECK_STATUS(tl_tidl_io_read_file(path, image, sizeof image, &len), TL_ERR_VENDOR_FILE);
    CHECK_STR_CONTAINS(tl_last_error(), "is longer than");
    CHECK_EQ_I64(len, 7); /* untouched on failure */
    remove(path);
}

int main(int argc, char **argv)
{
    tl_test_init(argc, argv);
    TL_RUN(tidl_read_file_beyond_2gib);
    return tl_test_finish();
}
