/* The machine policy's cache model (src/engine/machine.c): a fake sysfs
 * cache directory parsed, the TL_CACHES text, the thresholds derived from the
 * caches and their environment overrides, the L1 aliasing rule, and what
 * tl_plan_describe prints of it. Tests never time anything. */
#define _DEFAULT_SOURCE /* mkdtemp, setenv */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/engine.h"
#include "tl_test.h"

/* One index<i>/ directory of a fake sysfs cache tree. */
static void put_index(const char *dir, int i, const char *level, const char *type, const char *size,
                      const char *ways)
{
    char path[600];
    snprintf(path, sizeof path, "%s/index%d", dir, i);
    mkdir(path, 0700);
    const char *names[] = {"level", "type", "size", "ways_of_associativity"};
    const char *values[] = {level, type, size, ways};
    for (int k = 0; k < 4; k++) {
        if (!values[k]) continue;
        snprintf(path, sizeof path, "%s/index%d/%s", dir, i, names[k]);
        FILE *f = fopen(path, "w");
        if (!f) continue;
        fprintf(f, "%s\n", values[k]);
        fclose(f);
    }
}

static void remove_tree(const char *dir)
{
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
}

TL_TEST(caches_from_fake_sysfs)
{
    char dir[] = "/tmp/tl_sysfs_XXXXXX";
    REQUIRE(mkdtemp(dir) != NULL);
    tl_caches c = {{1, 1}, {1, 1}, {1, 1}, "untouched"};
    CHECK(!tl_caches_from_sysfs(dir, &c)); /* no index: nothing read, c unchanged */
    CHECK_EQ_I64(c.l1d.bytes, 1);
    /* a Zen 5 like tree, the instruction cache listed between the data levels,
     * and an L4-less machine: the highest level is the LLC */
    put_index(dir, 0, "1", "Data", "48K", "12");
    put_index(dir, 1, "1", "Instruction", "32K", "8");
    put_index(dir, 2, "2", "Unified", "1024K", "16");
    put_index(dir, 3, "3", "Unified", "32768K", "16");
    REQUIRE(tl_caches_from_sysfs(dir, &c));
    CHECK_STR_EQ(c.source, "sysfs");
    CHECK_EQ_I64(c.l1d.bytes, 48 << 10);
    CHECK_EQ_I64(c.l1d.ways, 12);
    CHECK_EQ_I64(c.l2.bytes, 1 << 20);
    CHECK_EQ_I64(c.l2.ways, 16);
    CHECK_EQ_I64(c.llc.bytes, (size_t)32 << 20);
    CHECK_EQ_I64(c.llc.ways, 16);
    remove_tree(dir);

    /* an Arm SoC: L2 is the last level, no ways file for it (0: unknown) */
    REQUIRE(mkdtemp(strcpy(dir, "/tmp/tl_sysfs_XXXXXX")) != NULL);
    put_index(dir, 0, "1", "Data", "32K", "4");
    put_index(dir, 1, "2", "Unified", "512K", NULL);
    REQUIRE(tl_caches_from_sysfs(dir, &c));
    CHECK_EQ_I64(c.l1d.bytes, 32 << 10);
    CHECK_EQ_I64(c.l1d.ways, 4);
    CHECK_EQ_I64(c.llc.bytes, 512 << 10);
    CHECK_EQ_I64(c.llc.ways, 0);
    CHECK_EQ_I64(c.l2.bytes, 512 << 10);
    remove_tree(dir);

    /* instruction caches only: no data cache, false */
    REQUIRE(mkdtemp(strcpy(dir, "/tmp/tl_sysfs_XXXXXX")) != NULL);
    put_index(dir, 0, "1", "Instruction", "32K", "8");
    c.l1d.bytes = 7;
    CHECK(!tl_caches_from_sysfs(dir, &c));
    CHECK_EQ_I64(c.l1d.bytes, 7);
    remove_tree(dir);
}

/* AMD's older CPUID leaves, as a Zen 5 VM without sysfs caches or leaf
 * 0x8000001D reported them */
TL_TEST(caches_from_amd_leaves)
{
    tl_caches c = {{1, 1}, {1, 1}, {1, 1}, "untouched"};
    REQUIRE(tl_caches_from_amd_leaves(0x300c0140u, 0x04006140u, &c));
    CHECK_STR_EQ(c.source, "cpuid");
    CHECK_EQ_I64(c.l1d.bytes, 48 << 10);
    CHECK_EQ_I64(c.l1d.ways, 12);
    CHECK_EQ_I64(c.l2.bytes, 1 << 20);
    CHECK_EQ_I64(c.l2.ways, 8); /* code 6: 8 to 15 ways */
    CHECK_EQ_I64(c.llc.bytes, 0);
    /* a fully associative L1d and a 16-way (code 8) 512 KiB L2 */
    REQUIRE(tl_caches_from_amd_leaves(0x20ff0140u, 0x02008140u, &c));
    CHECK_EQ_I64(c.l1d.bytes, 32 << 10);
    CHECK_EQ_I64(c.l1d.ways, 0);
    CHECK_EQ_I64(c.l2.bytes, 512 << 10);
    CHECK_EQ_I64(c.l2.ways, 16);
    /* no L1d size: false, c unchanged */
    CHECK(!tl_caches_from_amd_leaves(0x00ff0140u, 0x04006140u, &c));
    CHECK_EQ_I64(c.l1d.bytes, 32 << 10);
}

TL_TEST(caches_text)
{
    tl_caches c = {{32 << 10, 8}, {256 << 10, 8}, {0, 0}, "defaults"};
    REQUIRE(tl_caches_parse("l1d=16K/4,llc=2M", &c));
    CHECK_STR_EQ(c.source, "TL_CACHES");
    CHECK_EQ_I64(c.l1d.bytes, 16 << 10);
    CHECK_EQ_I64(c.l1d.ways, 4);
    CHECK_EQ_I64(c.l2.bytes, 256 << 10); /* not named: kept */
    CHECK_EQ_I64(c.llc.bytes, 2 << 20);
    CHECK_EQ_I64(c.llc.ways, 0);
    static const char *const bad[] = {"l1=32K", "l1d=", "l1d=K", "l1d=32K/", "l1d=32K/0", "l1d=32KB", "llc=1M;"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        tl_caches before = c;
        if (tl_caches_parse(bad[i], &c)) FAILF("'%s' parsed", bad[i]);
        /* field by field: the levels' padding bytes are not set */
        const tl_cache_level *now[] = {&c.l1d, &c.l2, &c.llc}, *was[] = {&before.l1d, &before.l2, &before.llc};
        for (int k = 0; k < 3; k++)
            if (now[k]->bytes != was[k]->bytes || now[k]->ways != was[k]->ways) FAILF("'%s' changed level %d", bad[i], k);
        CHECK(c.source == before.source);
    }
}

/* The thresholds follow the caches; the environment overrides each. */
TL_TEST(derived_thresholds)
{
    tl_machine m;
    memset(&m, 0, sizeof m);
    unsetenv("TL_STREAM_BYTES");
    unsetenv("TL_TILE_BYTES");
    unsetenv("TL_ALIAS_ROWS");
    unsetenv("TL_ALIAS_STORE_ROWS");
    unsetenv("TL_SPLIT_STORES");
    unsetenv("TL_SLOW_PERMUTE2");
    unsetenv("TL_NARROW_512");
    unsetenv("TL_PLAIN_ROWS");
    unsetenv("TL_STAGE_BYTES");
    unsetenv("TL_ROW_STAGE_BYTES");
    unsetenv("TL_READ_STREAMS");
    unsetenv("TL_STREAM_RUN");
    m.cache = (tl_caches){{32 << 10, 8}, {1 << 20, 8}, {(size_t)32 << 20, 16}, "test"};
    tl_machine_derive(&m);
    CHECK_EQ_I64(m.stream_bytes, 8 << 20); /* a quarter of the LLC */
    CHECK_EQ_I64(m.stage_bytes, 512);
    CHECK_EQ_I64(m.row_stage_bytes, 2048);
    CHECK_EQ_I64(m.read_streams, 3);
    CHECK_EQ_I64(m.tile_bytes, 16384);
    CHECK_EQ_I64(m.way_bytes, 4096);
    CHECK_EQ_I64(m.alias_rows, 4);
    CHECK_EQ_I64(m.alias_store_rows, 8); /* the ways */
    CHECK_EQ_I64(m.stream_run_lines, 8);
    m.best_isa = TL_ISA_AVX512; /* runs of 2 where the AVX-512 path runs */
    tl_machine_derive(&m);
    CHECK_EQ_I64(m.stream_run_lines, 2);
    m.best_isa = 0;

    m.cache = (tl_caches){{48 << 10, 12}, {2 << 20, 16}, {(size_t)2 << 20, 16}, "test"};
    tl_machine_derive(&m);
    CHECK_EQ_I64(m.stream_bytes, 512 << 10);
    CHECK_EQ_I64(m.tile_bytes, 16384); /* capped by the executors' stack tiles */
    CHECK_EQ_I64(m.way_bytes, 4096);
    CHECK_EQ_I64(m.alias_rows, 6);
    CHECK_EQ_I64(m.alias_store_rows, 12);
    /* the costs by the CPU's maker: AMD's stores across lines are cheap, the
     * Zen 4's 512-bit operations run in halves, and Intel's loads from a
     * block's 16 rows of one set and its two-source byte permutes are not
     * what the ways and VBMI alone suggest */
    static const struct {
        int vendor, family;
        bool split, slow_permute2, narrow_512;
        unsigned load_rows, run512; /* run512: stream_run_lines where the AVX-512 path runs */
        size_t row_stage;
        unsigned read_streams;
    } by_vendor[] = {
        {TL_VENDOR_OTHER, 0, false, false, false, 6, 2, 2048, 3},
        {TL_VENDOR_AMD, 0x19, true, false, true, 6, 2, 2048, 1}, /* Zen 3/4 */
        {TL_VENDOR_AMD, 0x1A, true, false, false, 6, 2, 2048, 1}, /* Zen 5 */
        {TL_VENDOR_INTEL, 6, false, true, false, 16, 4, 512, 3},
        {TL_VENDOR_INTEL, 0x19, false, true, false, 16, 4, 512, 3},
        {TL_VENDOR_INTEL, 0x1A, false, true, false, 16, 4, 512, 3}};
    for (size_t v = 0; v < sizeof by_vendor / sizeof by_vendor[0]; v++) {
        m.vendor = by_vendor[v].vendor;
        m.family = by_vendor[v].family;
        tl_machine_derive(&m);
        CHECK_EQ_I64(m.split_stores, by_vendor[v].split);
        CHECK_EQ_I64(m.slow_permute2, by_vendor[v].slow_permute2);
        CHECK_EQ_I64(m.narrow_512, by_vendor[v].narrow_512);
        CHECK_EQ_I64(m.plain_rows, false); /* the host's choice, not the maker's: off for all */
        CHECK_EQ_I64(m.alias_store_rows, 12); /* the ways, whoever made it */
        CHECK_EQ_I64(m.alias_rows, by_vendor[v].load_rows);
        CHECK_EQ_I64(m.row_stage_bytes, by_vendor[v].row_stage);
        CHECK_EQ_I64(m.read_streams, by_vendor[v].read_streams);
        CHECK_EQ_I64(m.stream_run_lines, 8); /* without AVX-512, 8 whoever made it */
        m.best_isa = TL_ISA_AVX512;
        tl_machine_derive(&m);
        CHECK_EQ_I64(m.stream_run_lines, by_vendor[v].run512);
        m.best_isa = 0;
    }
    m.vendor = TL_VENDOR_OTHER;
    m.family = 0;

    m.cache = (tl_caches){{16 << 10, 4}, {0, 0}, {0, 0}, "test"}; /* no LLC known: 8 MiB */
    tl_machine_derive(&m);
    CHECK_EQ_I64(m.stream_bytes, 8 << 20);
    CHECK_EQ_I64(m.tile_bytes, 8192);
    CHECK_EQ_I64(m.way_bytes, 4096);
    CHECK_EQ_I64(m.alias_rows, 2);

    setenv("TL_STREAM_BYTES", "0", 1); /* streams everything */
    setenv("TL_TILE_BYTES", "4K", 1);
    setenv("TL_ALIAS_ROWS", "3", 1);
    setenv("TL_ALIAS_STORE_ROWS", "5", 1);
    setenv("TL_STAGE_BYTES", "1K", 1);
    setenv("TL_ROW_STAGE_BYTES", "4K", 1);
    setenv("TL_READ_STREAMS", "2", 1);
    setenv("TL_STREAM_RUN", "4", 1);
    tl_machine_derive(&m);
    CHECK_EQ_I64(m.stream_run_lines, 4);
    CHECK_EQ_I64(m.stage_bytes, 1024);
    CHECK_EQ_I64(m.row_stage_bytes, 4096);
    CHECK_EQ_I64(m.read_streams, 2);
    CHECK_EQ_I64(m.alias_store_rows, 5);
    CHECK_EQ_I64(m.stream_bytes, 0);
    CHECK_EQ_I64(m.tile_bytes, 4096);
    CHECK_EQ_I64(m.alias_rows, 3);
    setenv("TL_STREAM_BYTES", "12M", 1);
    setenv("TL_TILE_BYTES", "1000000", 1); /* beyond the stack tiles: ignored */
    setenv("TL_ALIAS_ROWS", "x", 1);       /* malformed: ignored */
    setenv("TL_ALIAS_STORE_ROWS", "", 1);  /* empty: ignored */
    setenv("TL_STAGE_BYTES", "63", 1);     /* below a line: ignored */
    setenv("TL_READ_STREAMS", "0", 1); /* no slices at all: ignored (1 is one stream) */
    setenv("TL_STREAM_RUN", "3", 1);   /* not a power of 2: ignored */
    tl_machine_derive(&m);
    CHECK_EQ_I64(m.stream_run_lines, 8);
    CHECK_EQ_I64(m.stage_bytes, 512);
    CHECK_EQ_I64(m.read_streams, 3);
    setenv("TL_STAGE_BYTES", "5000", 1); /* more than a page: ignored */
    setenv("TL_ROW_STAGE_BYTES", "5000", 1);
    setenv("TL_READ_STREAMS", "17", 1); /* more than 16: ignored */
    setenv("TL_STREAM_RUN", "16", 1);   /* more than the kernels stage: ignored */
    tl_machine_derive(&m);
    CHECK_EQ_I64(m.stream_run_lines, 8);
    CHECK_EQ_I64(m.stage_bytes, 512);
    CHECK_EQ_I64(m.row_stage_bytes, 2048);
    CHECK_EQ_I64(m.read_streams, 3);
    CHECK_EQ_I64(m.alias_store_rows, 4);
    CHECK_EQ_I64(m.stream_bytes, 12 << 20);
    CHECK_EQ_I64(m.tile_bytes, 8192);
    CHECK_EQ_I64(m.alias_rows, 2);
    /* the maker's verdicts stand unless TL_SPLIT_STORES, TL_SLOW_PERMUTE2,
     * TL_NARROW_512 or TL_PLAIN_ROWS is 0 or 1 */
    for (int family = 0x19; family <= 0x1A; family++)
        for (int vendor = TL_VENDOR_AMD; vendor <= TL_VENDOR_INTEL; vendor++) {
            static const char *const values[] = {"0", "1", "2", "yes", ""};
            bool amd = vendor == TL_VENDOR_AMD;
            m.vendor = vendor, m.family = family;
            for (int v = 0; v < 5; v++) {
                setenv("TL_SPLIT_STORES", values[v], 1);
                setenv("TL_SLOW_PERMUTE2", values[v], 1);
                setenv("TL_NARROW_512", values[v], 1);
                setenv("TL_PLAIN_ROWS", values[v], 1);
                tl_machine_derive(&m);
                CHECK_EQ_I64(m.split_stores, v < 2 ? v : amd);
                CHECK_EQ_I64(m.slow_permute2, v < 2 ? v : vendor == TL_VENDOR_INTEL);
                CHECK_EQ_I64(m.narrow_512, v < 2 ? v : amd && family == 0x19);
                CHECK_EQ_I64(m.plain_rows, v < 2 ? v : 0); /* off unless asked */
            }
        }
    m.vendor = TL_VENDOR_OTHER;
    m.family = 0;
    unsetenv("TL_STREAM_BYTES");
    unsetenv("TL_TILE_BYTES");
    unsetenv("TL_ALIAS_ROWS");
    unsetenv("TL_ALIAS_STORE_ROWS");
    unsetenv("TL_SPLIT_STORES");
    unsetenv("TL_SLOW_PERMUTE2");
    unsetenv("TL_NARROW_512");
    unsetenv("TL_PLAIN_ROWS");
    unsetenv("TL_STAGE_BYTES");
    unsetenv("TL_ROW_STAGE_BYTES");
    unsetenv("TL_READ_STREAMS");
    unsetenv("TL_STREAM_RUN");
}

/* Rows that share L1 sets: 64x64 u8 planes (4096 bytes apart) alias on a
 * 32 KiB 8-way L1, planes 4160 bytes apart do not. */
TL_TEST(rows_alias)
{
    tl_machine m;
    memset(&m, 0, sizeof m);
    m.cache = (tl_caches){{32 << 10, 8}, {1 << 20, 8}, {(size_t)32 << 20, 16}, "test"};
    tl_machine_derive(&m);
    CHECK(tl_machine_rows_alias(&m, 4096, 16));
    CHECK(tl_machine_rows_alias(&m, -8192, 16));
    CHECK(tl_machine_rows_alias(&m, 16384 * 4, 5));
    CHECK(!tl_machine_rows_alias(&m, 4096, 4)); /* within half the ways */
    CHECK(!tl_machine_rows_alias(&m, 4160, 64));
    CHECK(tl_machine_rows_alias(&m, 4100, 64)); /* 16 rows' first lines a set */
    CHECK(!tl_machine_rows_alias(&m, 4100 + 64, 64));
    CHECK(tl_machine_rows_alias(&m, 2048, 16));  /* 2 sets for 16 rows */
    CHECK(!tl_machine_rows_alias(&m, 512, 16));  /* 8 sets: 2 rows each */
    CHECK(tl_machine_rows_alias(&m, 512, 64));   /* 8 rows each */
    m.cache.l1d = (tl_cache_level){48 << 10, 12}; /* 4 KiB ways again, 6 rows allowed */
    tl_machine_derive(&m);
    CHECK(!tl_machine_rows_alias(&m, 4096, 6));
    CHECK(tl_machine_rows_alias(&m, 4096, 7));
    /* the count the store threshold (alias_store_rows) is held against */
    CHECK_EQ_I64(tl_machine_rows_per_set(&m, 4096, 16), 16);
    CHECK_EQ_I64(tl_machine_rows_per_set(&m, 6144, 16), 8); /* 2 sets */
    CHECK_EQ_I64(tl_machine_rows_per_set(&m, 4160, 16), 1);
    CHECK_EQ_I64(tl_machine_rows_per_set(&m, 16380, 16), 15); /* 63 x 65 f32 planes: rows 1..15 one set below row 0 */
    CHECK_EQ_I64(tl_machine_rows_per_set(&m, 4096 + 32, 16), 2); /* two rows a line */
    CHECK_EQ_I64(tl_machine_rows_per_set(&m, 16384, 5), 5);
    CHECK_EQ_I64(tl_machine_rows_per_set(&m, 4096, 0), 0);
}

/* Rows that share L2 sets past its ways: planes a multiple of its way (1 MiB,
 * 16 ways: 64 KiB) apart, as 2048 x 2048 u8 planes are; not 1810 x 1810. */
TL_TEST(rows_share_l2)
{
    tl_machine m;
    memset(&m, 0, sizeof m);
    m.cache = (tl_caches){{48 << 10, 12}, {1 << 20, 16}, {(size_t)32 << 20, 16}, "test"};
    tl_machine_derive(&m);
    CHECK(tl_machine_rows_share_l2(&m, (int64_t)4 << 20, 64));
    CHECK(tl_machine_rows_share_l2(&m, -((int64_t)4 << 20), 64));
    CHECK(tl_machine_rows_share_l2(&m, 25 * 65536, 64)); /* 1280 x 1280 planes */
    CHECK(!tl_machine_rows_share_l2(&m, 1810 * 1810, 64));
    CHECK(!tl_machine_rows_share_l2(&m, (int64_t)4 << 20, 16)); /* as many as the ways */
    CHECK(tl_machine_rows_share_l2(&m, (int64_t)4 << 20, 17));
    CHECK(tl_machine_rows_share_l2(&m, 32768, 64)); /* 2 sets, 32 rows each */
    CHECK(!tl_machine_rows_share_l2(&m, 8192, 64)); /* 8 sets, 8 rows each */
    m.cache.l2 = (tl_cache_level){2 << 20, 8}; /* 256 KiB ways: 4096 sets */
    CHECK(tl_machine_rows_share_l2(&m, (int64_t)1 << 20, 9));
    CHECK(!tl_machine_rows_share_l2(&m, (int64_t)1 << 20, 8));
    CHECK(!tl_machine_rows_share_l2(&m, 65536, 32)); /* 4 sets 1024 apart, 8 rows each */
    CHECK(tl_machine_rows_share_l2(&m, 65536, 33));
    m.cache.l2 = (tl_cache_level){0, 0}; /* unknown: no verdict */
    CHECK(!tl_machine_rows_share_l2(&m, (int64_t)4 << 20, 64));
}

/* The detected machine has a cache model and the plan prints it. */
TL_TEST(describe_prints_policy)
{
    const tl_machine *m = tl_machine_get();
    CHECK(m->cache.l1d.bytes >= 4096);
    CHECK(m->tile_bytes >= 4096);
    CHECK(m->alias_rows >= 1);
    tl_machine f = *m;
    f.cache = (tl_caches){{48 << 10, 12}, {2 << 20, 16}, {(size_t)96 << 20, 16}, "test"};
    f.vendor = TL_VENDOR_OTHER;
    tl_machine_derive(&f);
    tl_machine_set(&f);
    tl_desc s, d;
    REQUIRE_STATUS(tl_desc_parse(&s, "NCHW:u8:1x64x64x64"), TL_OK);
    REQUIRE_STATUS(tl_desc_parse(&d, "NHWC:u8:1x64x64x64"), TL_OK);
    tl_plan *p = NULL;
    REQUIRE_STATUS(tl_plan_create(&p, &s, &d, 0), TL_OK);
    const char *text = tl_plan_describe(p);
    CHECK_STR_CONTAINS(text, "streaming stores above 25165824 destination bytes (or source and destination bytes on average) in rows of 4096+ bytes (staged 512 bytes at a time, rows 2048, mostly-read steps in 3 streams, runs of ");
    char runs[64];
    snprintf(runs, sizeof runs, "runs of %u lines into planes)", f.stream_run_lines);
    CHECK_STR_CONTAINS(text, runs);
    CHECK_STR_CONTAINS(text, "L1 tiles of 16384 bytes, at most 6 rows per L1 set (rows 4096 bytes apart share one), 12 stored");
    CHECK_STR_CONTAINS(text, "caches (test): L1d 49152 bytes 12-way, L2 2097152 bytes 16-way, LLC 100663296 bytes 16-way");
    CHECK(!strstr(text, "permutes") && !strstr(text, "halves"));
    tl_plan_destroy(p);
    f.vendor = TL_VENDOR_INTEL; /* the maker's costs are printed too */
    tl_machine_derive(&f);
    tl_machine_set(&f);
    REQUIRE_STATUS(tl_plan_create(&p, &s, &d, 0), TL_OK);
    CHECK_STR_CONTAINS(tl_plan_describe(p), "(rows 4096 bytes apart share one), 12 stored, two-source byte permutes slow\n");
    tl_plan_destroy(p);
    f.vendor = TL_VENDOR_AMD;
    f.family = 0x19;
    tl_machine_derive(&f);
    tl_machine_set(&f);
    REQUIRE_STATUS(tl_plan_create(&p, &s, &d, 0), TL_OK);
    CHECK_STR_CONTAINS(tl_plan_describe(p), "12 stored, stores across lines, 512-bit operations in halves\n");
    tl_plan_destroy(p);
    tl_machine_set(NULL);
}

/* Source and destination fit the L2 together, or not; never when its size
 * is unknown, and no sum wraps. */
TL_TEST(fits_in_l2)
{
    tl_machine f;
    memset(&f, 0, sizeof f);
    CHECK(!tl_machine_in_l2(&f, 0, 0)); /* unknown */
    f.cache.l2.bytes = 2 << 20;
    CHECK(tl_machine_in_l2(&f, 0, 0));
    CHECK(tl_machine_in_l2(&f, 1 << 20, 1 << 20));
    CHECK(!tl_machine_in_l2(&f, 1 << 20, (1 << 20) + 1));
    CHECK(!tl_machine_in_l2(&f, (2 << 20) + 1, 0));
    CHECK(!tl_machine_in_l2(&f, 1 << 20, UINT64_MAX)); /* the sum would wrap */
    CHECK(!tl_machine_in_l2(&f, UINT64_MAX, 1 << 20));
}

/* A plan streams when its destination, or its source and destination on
 * average, pass the threshold: a narrowing plan's large source evicts the
 * destination it writes before anyone reads it. */
TL_TEST(streaming_choice)
{
    tl_machine f = *tl_machine_get();
    f.stream_bytes = 1 << 20;
    CHECK(!tl_machine_streams(&f, 1 << 20, 1 << 20));
    CHECK(tl_machine_streams(&f, 0, (1 << 20) + 1));             /* the destination alone */
    CHECK(tl_machine_streams(&f, 3 << 20, 768 << 10));           /* f32 into i8: 1.875 MiB on average */
    CHECK(!tl_machine_streams(&f, (1 << 20) + (1 << 19), 1 << 19)); /* 1 MiB on average */
    CHECK(tl_machine_streams(&f, (1 << 20) + (1 << 19), (1 << 19) + 2)); /* a byte past it */
    f.stream_bytes = SIZE_MAX; /* sizes up to SIZE_MAX never wrap (size_t may be 32 bits) */
    CHECK(!tl_machine_streams(&f, SIZE_MAX, SIZE_MAX));
    f.stream_bytes = SIZE_MAX / 2; /* their sum would wrap 64 bits */
    CHECK(tl_machine_streams(&f, SIZE_MAX, SIZE_MAX / 2));
    f.stream_bytes = 1 << 20;
    tl_machine_set(&f);
    static const char *const pairs[][3] = {
        {"NCHW:f32:1x3x512x512", "NHWC:i8:1x512x512x3:scale=0.05", "streams"}, /* 3 MiB into 0.75 */
        {"NCHW:f32:1x3x256x256", "NHWC:i8:1x256x256x3:scale=0.05", "no"},      /* 0.75 MiB into 192 KiB */
        {"NHWC:u8:1x512x512x3", "NCHW:f32:1x3x512x512", "streams"},            /* 3 MiB destination */
    };
    for (size_t k = 0; k < sizeof pairs / sizeof pairs[0]; k++) {
        tl_desc s, d;
        REQUIRE_STATUS(tl_desc_parse(&s, pairs[k][0]), TL_OK);
        REQUIRE_STATUS(tl_desc_parse(&d, pairs[k][1]), TL_OK);
        tl_plan *p = NULL;
        REQUIRE_STATUS(tl_plan_create(&p, &s, &d, 0), TL_OK);
        bool streams = strstr(tl_plan_describe(p), ", streaming stores\n") != NULL;
        if (!tl_test_check(streams == (pairs[k][2][0] == 's'), __FILE__, __LINE__, pairs[k][1]))
            fprintf(stderr, "  from %s: %s\n", pairs[k][0], tl_plan_describe(p));
        tl_plan_destroy(p);
    }
    tl_machine_set(NULL);
}

int main(int argc, char **argv)
{
    tl_test_init(argc, argv);
    TL_RUN(caches_from_fake_sysfs);
    TL_RUN(caches_from_amd_leaves);
    TL_RUN(caches_text);
    TL_RUN(derived_thresholds);
    TL_RUN(rows_alias);
    TL_RUN(rows_share_l2);
    TL_RUN(describe_prints_policy);
    TL_RUN(streaming_choice);
    TL_RUN(fits_in_l2);
    return tl_test_finish();
}
