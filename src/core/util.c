/* Small shared utilities: checked rounding, string building, number lists. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

bool tl_rup_ok(int64_t a, int64_t b, int64_t *r)
{
    if (b <= 1) {
        *r = a;
        return true;
    }
    int64_t t;
    if (!tl_add_ok(a, b - 1, &t)) return false;
    return tl_mul_ok(t / b, b, r);
}

static void sb_vprintf(tl_strbuf *sb, const char *fmt, va_list ap)
{
    size_t room = sb->len < sb->cap ? sb->cap - sb->len : 0;
    int n = vsnprintf(room ? sb->buf + sb->len : NULL, room, fmt, ap);
    if (n > 0) sb->len += (size_t)n;
}

void tl_sb_printf(tl_strbuf *sb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(sb, fmt, ap);
    va_end(ap);
}

void tl_sb_i64_list(tl_strbuf *sb, const int64_t *v, int n, const char *sep)
{
    for (int i = 0; i < n; i++) tl_sb_printf(sb, "%s%lld", i ? sep : "", (long long)v[i]);
}

void tl_sb_float(tl_strbuf *sb, float f)
{
    char tmp[48];
    for (int prec = 1; prec <= 9; prec++) {
        snprintf(tmp, sizeof tmp, "%.*g", prec, (double)f);
        if (strtof(tmp, NULL) == f) break;
    }
    tl_sb_printf(sb, "%s", tmp);
}

tl_status tl_parse_i64(const char *key, const char *value, int64_t *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(value, &end, 10);
    if (end == value || *end != '\0' || errno == ERANGE)
        return tl_fail(TL_ERR_SPEC_VALUE, "%s=%s: not a 64-bit integer", key, value);
    *out = (int64_t)v;
    return TL_OK;
}

tl_status tl_parse_f32(const char *key, const char *value, float *out)
{
    char *end;
    errno = 0;
    float v = strtof(value, &end);
    if (end == value || *end != '\0' || (errno == ERANGE && v == 0.0f) || !isfinite(v)) /* subnormals are fine */
        return tl_fail(TL_ERR_SPEC_VALUE, "%s=%s: not a finite number", key, value);
    *out = v;
    return TL_OK;
}

tl_status tl_parse_i64_list(const char *key, const char *value, int64_t *out, int want, int max,
                            int *got)
{
    int cap = want >= 0 ? want : max, n = 0;
    const char *p = value;
    for (;;) {
        char item[32];
        size_t len = strcspn(p, ",");
        if (len == 0 || len >= sizeof item)
            return tl_fail(TL_ERR_SPEC_VALUE, "%s=%s: item %d is empty or too long", key, value, n);
        if (n >= cap)
            return tl_fail(TL_ERR_SPEC_VALUE, "%s=%s: expected %s%d values", key, value,
                           want >= 0 ? "" : "at most ", cap);
        memcpy(item, p, len);
        item[len] = '\0';
        TL_TRY(tl_parse_i64(key, item, &out[n]));
        n++;
        if (p[len] == '\0') break;
        p += len + 1;
    }
    if (want >= 0 && n != want)
        return tl_fail(TL_ERR_SPEC_VALUE, "%s=%s: expected %d values, got %d", key, value, want, n);
    if (got) *got = n;
    return TL_OK;
}

tl_spec_opt *tl_spec_take(tl_spec *s, const char *key)
{
    bool seen = false;
    for (int i = 0; i < s->nasked; i++) seen |= strcmp(s->asked[i], key) == 0;
    if (!seen && s->nasked < TL_SPEC_MAX_ASKED) s->asked[s->nasked++] = key;
    for (int i = 0; i < s->nopts; i++)
        if (strcmp(s->opts[i].key, key) == 0) {
            s->opts[i].used = true;
            return &s->opts[i];
        }
    return NULL;
}
