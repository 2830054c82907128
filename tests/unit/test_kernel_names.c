/* Kernel names are found with grep. Every name the registry can report (the
 * names tl_plan_describe prints) occurs as a whole word in src/, in two
 * places: its row (a family's .inc list, or registry.c for the table rows
 * written there) and its definition (a .c or .h under src/kernels/). A name
 * built only by token pasting (##) fails here; .ci/stages/layers.sh forbids
 * the pasting itself. Each build checks the kernels of its own ISAs (the
 * cross stages check NEON). */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/engine.h"
#include "tl_test.h"

typedef struct src_file {
    char path[512];
    char *text;
} src_file;

typedef struct src_tree {
    src_file *files;
    size_t n, cap;
} src_tree;

static int ends_with(const char *s, const char *tail)
{
    size_t ls = strlen(s), lt = strlen(tail);
    return ls >= lt && strcmp(s + ls - lt, tail) == 0;
}

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (cap - n - 1 == 0) {
            char *bigger = realloc(buf, cap * 2);
            if (!bigger) { free(buf); buf = NULL; break; }
            buf = bigger, cap *= 2;
        }
    }
    fclose(f);
    if (buf) buf[n] = 0;
    return buf;
}

/* Every .c, .h and .inc file below dir. */
static void load_tree(src_tree *t, const char *dir)
{
    DIR *d = opendir(dir);
    REQUIRE(d != NULL);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') continue;
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        if (stat(path, &st) != 0) continue;
        if (S_ISDIR(st.st_mode)) {
            load_tree(t, path);
            continue;
        }
        if (!ends_with(path, ".c") && !ends_with(path, ".h") && !ends_with(path, ".inc")) continue;
        if (t->n == t->cap) {
            t->cap = t->cap ? t->cap * 2 : 64;
            t->files = realloc(t->files, t->cap * sizeof *t->files);
            REQUIRE(t->files != NULL);
        }
        src_file *f = &t->files[t->n++];
        snprintf(f->path, sizeof f->path, "%s", path);
        f->text = read_text(path);
        REQUIRE(f->text != NULL);
    }
    closedir(d);
}

static int word_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* grep -w: name with no identifier character on either side. */
static int has_word(const char *text, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = strstr(text, name); p; p = strstr(p + 1, name))
        if ((p == text || !word_char(p[-1])) && !word_char(p[n])) return 1;
    return 0;
}

/* The kinds of file a name must occur in. */
static int is_row_file(const char *path) { return ends_with(path, ".inc") || ends_with(path, "/engine/registry.c"); }
static int is_kernel_file(const char *path)
{
    return strstr(path, "/src/kernels/") && (ends_with(path, ".c") || ends_with(path, ".h"));
}

static src_tree g_src;
static size_t g_checked;

static void check_name(const char *name)
{
    int in_row = 0, in_kernels = 0;
    for (size_t i = 0; i < g_src.n; i++) {
        if (!has_word(g_src.files[i].text, name)) continue;
        in_row |= is_row_file(g_src.files[i].path);
        in_kernels |= is_kernel_file(g_src.files[i].path);
    }
    if (!in_row) FAILF("%s: not written out in a .inc row (or registry.c)", name);
    if (!in_kernels) FAILF("%s: not written out where src/kernels/ defines it", name);
    g_checked++;
}

TL_TEST(registry_names_are_written_out)
{
    const tl_row_kernel *rows;
    const tl_t2d_kernel *t2d;
    const tl_ilv_kernel *ilv;
    const tl_repack_kernel *rp;
    const tl_fill_kernel *fill;
    size_t n;
    load_tree(&g_src, TL_SOURCE_DIR "/src");
    REQUIRE(g_src.n > 0);
    tl_registry_rows(&rows, &n);
    for (size_t i = 0; i < n; i++) check_name(rows[i].name);
    tl_registry_luts(&rows, &n);
    for (size_t i = 0; i < n; i++) check_name(rows[i].name);
    tl_registry_group4(&rows, &n);
    for (size_t i = 0; i < n; i++) check_name(rows[i].name);
    tl_registry_t2d(&t2d, &n);
    for (size_t i = 0; i < n; i++) check_name(t2d[i].name);
    tl_registry_ilv(&ilv, &n);
    for (size_t i = 0; i < n; i++) check_name(ilv[i].name);
    tl_registry_repack(&rp, &n);
    for (size_t i = 0; i < n; i++) check_name(rp[i].name);
    tl_registry_fill(&fill, &n);
    for (size_t i = 0; i < n; i++) check_name(fill[i].name);
    CHECK(g_checked > 0);
}

/* The search itself: a name inside a longer identifier does not count. */
TL_TEST(whole_words_only)
{
    CHECK(has_word("XX(tl_x8_transpose_ukernel__sse2, sse2)", "tl_x8_transpose_ukernel__sse2"));
    CHECK(!has_word("tl_x8_transpose_ukernel__sse2x", "tl_x8_transpose_ukernel__sse2"));
    CHECK(!has_word("tl_##t##_transpose_ukernel__sse2", "tl_x8_transpose_ukernel__sse2"));
    CHECK(!has_word("xtl_x8_transpose_ukernel__sse2", "tl_x8_transpose_ukernel__sse2"));
}

int main(int argc, char **argv)
{
    tl_test_init(argc, argv);
    TL_RUN(whole_words_only);
    TL_RUN(registry_names_are_written_out);
    for (size_t i = 0; i < g_src.n; i++) free(g_src.files[i].text);
    free(g_src.files);
    return tl_test_finish();
}
