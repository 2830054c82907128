/* Replay driver: runs a fuzz target's LLVMFuzzerTestOneInput on saved inputs,
 * without libFuzzer, so the corpora are ordinary ctest tests under any
 * compiler (gcc, cross builds under qemu, valgrind).
 *
 *   fuzz_<target>_replay PATH...    each PATH is an input file or a directory
 *                                   of them (not recursive; sorted by name)
 *
 * A broken property aborts inside the target; the driver names the input
 * first so the failure says which file it was. Exit 1 when no input at all was
 * found (a misspelt corpus path must not pass silently).
 */
#define _POSIX_C_SOURCE 200809L
#define _FILE_OFFSET_BITS 64 /* 32-bit targets: stat/readdir of 64-bit inodes (qemu on a 64-bit host) */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_common.h"

#define REPLAY_MAX_BYTES (4u << 20) /* larger than any input a target wants */

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "fuzz replay: cannot open %s\n", path);
        return -1;
    }
    uint8_t *buf = malloc(REPLAY_MAX_BYTES);
    if (!buf) {
        fclose(f);
        fprintf(stderr, "fuzz replay: out of memory\n");
        return -1;
    }
    size_t n = fread(buf, 1, REPLAY_MAX_BYTES, f);
    int err = ferror(f);
    fclose(f);
    if (err) {
        free(buf);
        fprintf(stderr, "fuzz replay: cannot read %s\n", path);
        return -1;
    }
    /* an exact-size copy, so ASan catches a target reading past the input */
    uint8_t *exact = malloc(n ? n : 1);
    if (!exact) {
        free(buf);
        return -1;
    }
    memcpy(exact, buf, n);
    free(buf);
    fprintf(stderr, "replay %s (%zu bytes)\n", path, n);
    LLVMFuzzerTestOneInput(exact, n);
    free(exact);
    return 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Runs every regular file of a directory; returns the count or -1. */
static int run_dir(const char *dir)
{
    DIR *dp = opendir(dir);
    if (!dp) {
        fprintf(stderr, "fuzz replay: cannot open directory %s\n", dir);
        return -1;
    }
    char **names = NULL;
    size_t count = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(dp)) != NULL) {
        if (e->d_name[0] == '.') continue;
        if (count == cap) {
            cap = cap ? cap * 2 : 64;
            char **bigger = realloc(names, cap * sizeof *names);
            if (!bigger) break;
            names = bigger;
        }
        size_t len = strlen(dir) + strlen(e->d_name) + 2;
        names[count] = malloc(len);
        if (!names[count]) break;
        snprintf(names[count], len, "%s/%s", dir, e->d_name);
        count++;
    }
    closedir(dp);
    if (count) qsort(names, count, sizeof *names, by_name);
    int ran = 0;
    for (size_t i = 0; i < count; i++) {
        struct stat st;
        if (stat(names[i], &st) == 0 && S_ISREG(st.st_mode) && run_file(names[i]) == 0) ran++;
        free(names[i]);
    }
    free(names);
    return ran;
}

int main(int argc, char **argv)
{
    int total = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            fprintf(stderr, "fuzz replay: %s does not exist\n", argv[i]);
            return 1;
        }
        int n = S_ISDIR(st.st_mode) ? run_dir(argv[i]) : (run_file(argv[i]) == 0 ? 1 : -1);
        if (n < 0) return 1;
        total += n;
    }
    if (total == 0) {
        fprintf(stderr, "fuzz replay: no input found in the paths given\n");
        return 1;
    }
    printf("%d inputs replayed, every property held\n", total);
    return 0;
}
