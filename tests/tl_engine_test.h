/* Helpers shared by the engine tests (test_engine*.c): the quick-mode
 * switch and element sizes. Test code only. */
#ifndef TL_ENGINE_TEST_H
#define TL_ENGINE_TEST_H

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "tlayout.h"

/* TL_TEST_QUICK=1 (sanitizer and qemu stages): fewer pairs, no 4 MiB+ cases. */
static inline int quick(void)
{
    const char *q = getenv("TL_TEST_QUICK");
    return q && *q && strcmp(q, "0") != 0;
}

static inline unsigned bytes_of(int t) { return tl_dtype_bits((tl_dtype)t) / 8; }

static inline bool is_intt(int t) { return t == TL_U8 || t == TL_I8 || t == TL_I16; }

#endif
