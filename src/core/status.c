/* Status names and the thread-local error detail (zstd style: one table). */
#include <stdio.h>
#include <string.h>

#include "internal.h"

#if defined(__STDC_NO_THREADS__) && !defined(__GNUC__)
#define TL_THREAD_LOCAL
#elif defined(__GNUC__)
#define TL_THREAD_LOCAL __thread
#else
#define TL_THREAD_LOCAL _Thread_local
#endif

static TL_THREAD_LOCAL char last_error[1024];

const char *tl_status_str(tl_status s)
{
    switch (s) {
    case TL_OK: return "TL_OK";
    case TL_ERR_NULL: return "TL_ERR_NULL";
    case TL_ERR_RANK: return "TL_ERR_RANK";
    case TL_ERR_DIM: return "TL_ERR_DIM";
    case TL_ERR_DTYPE: return "TL_ERR_DTYPE";
    case TL_ERR_PAD: return "TL_ERR_PAD";
    case TL_ERR_AXIS: return "TL_ERR_AXIS";
    case TL_ERR_STRIDE: return "TL_ERR_STRIDE";
    case TL_ERR_ALIAS: return "TL_ERR_ALIAS";
    case TL_ERR_OVERFLOW: return "TL_ERR_OVERFLOW";
    case TL_ERR_PLANE: return "TL_ERR_PLANE";
    case TL_ERR_QUANT: return "TL_ERR_QUANT";
    case TL_ERR_COORD: return "TL_ERR_COORD";
    case TL_ERR_SIZE: return "TL_ERR_SIZE";
    case TL_ERR_LABEL: return "TL_ERR_LABEL";
    case TL_ERR_SPEC_SYNTAX: return "TL_ERR_SPEC_SYNTAX";
    case TL_ERR_SPEC_LAYOUT: return "TL_ERR_SPEC_LAYOUT";
    case TL_ERR_SPEC_OPTION: return "TL_ERR_SPEC_OPTION";
    case TL_ERR_SPEC_VALUE: return "TL_ERR_SPEC_VALUE";
    case TL_ERR_MISMATCH: return "TL_ERR_MISMATCH";
    case TL_ERR_BUFFER_SMALL: return "TL_ERR_BUFFER_SMALL";
    case TL_ERR_READONLY: return "TL_ERR_READONLY";
    case TL_ERR_UNSUPPORTED: return "TL_ERR_UNSUPPORTED";
    case TL_ERR_NOMEM: return "TL_ERR_NOMEM";
    case TL_ERR_VENDOR: return "TL_ERR_VENDOR";
    case TL_ERR_VENDOR_FILE: return "TL_ERR_VENDOR_FILE";
    case TL_ERR_VENDOR_EXPORT: return "TL_ERR_VENDOR_EXPORT";
    case TL_ERR_IO: return "TL_ERR_IO";
    }
    return "TL_ERR_UNKNOWN";
}

const char *tl_last_error(void) { return last_error; }

void tl_clear_error(void) { last_error[0] = '\0'; }

tl_status tl_fail(tl_status s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error, sizeof last_error, fmt, ap);
    va_end(ap);
    return s;
}

tl_status tl_fail_prefix(tl_status s, const char *prefix)
{
    size_t p = strlen(prefix) + 2, n = strlen(last_error);
    if (p >= sizeof last_error) return s;
    if (p + n >= sizeof last_error) n = sizeof last_error - 1 - p;
    memmove(last_error + p, last_error, n);
    last_error[p + n] = '\0';
    memcpy(last_error, prefix, p - 2);
    memcpy(last_error + p - 2, ": ", 2);
    return s;
}

tl_status tl_fail_append(tl_status s, const char *fmt, ...)
{
    size_t n = strlen(last_error);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error + n, sizeof last_error - n, fmt, ap);
    va_end(ap);
    return s;
}

unsigned tl_version(void) { return TLAYOUT_VERSION_NUMBER; }
const char *tl_version_string(void) { return TLAYOUT_VERSION_STRING; }
