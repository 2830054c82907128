/* The CLI's own error detail and text builder (declared in cli.h).
 *
 * programs/ links the public API only, so it cannot write the
 * library's thread-local error: it keeps its detail here, and die_status
 * chooses between the two. The CLI runs on one thread, so plain statics do.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* Same length as the library's detail, so a message truncates the same way. */
static char cli_error[1024];
static int cli_error_set;

tl_status cli_fail(tl_status s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cli_error, sizeof cli_error, fmt, ap);
    va_end(ap);
    cli_error_set = 1;
    return s;
}

void cli_clear_error(void)
{
    cli_error[0] = '\0';
    cli_error_set = 0;
}

const char *cli_last_error(void)
{
    return cli_error_set ? cli_error : tl_last_error();
}

void cli_sb_printf(cli_sb *sb, const char *fmt, ...)
{
    size_t room = sb->len < sb->cap ? sb->cap - sb->len : 0;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(room ? sb->buf + sb->len : NULL, room, fmt, ap);
    va_end(ap);
    if (n > 0) sb->len += (size_t)n;
}

void cli_sb_json_str(cli_sb *sb, const char *s)
{
    cli_sb_printf(sb, "\"");
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            cli_sb_printf(sb, "\\%c", c);
        else if (c == '\n')
            cli_sb_printf(sb, "\\n");
        else if (c < 0x20 || c == 0x7f)
            cli_sb_printf(sb, "\\u%04x", c);
        else
            cli_sb_printf(sb, "%c", c);
    }
    cli_sb_printf(sb, "\"");
}

void cli_sb_float(cli_sb *sb, float f)
{
    char tmp[48];
    for (int prec = 1; prec <= 9; prec++) {
        snprintf(tmp, sizeof tmp, "%.*g", prec, (double)f);
        if (strtof(tmp, NULL) == f) break;
    }
    cli_sb_printf(sb, "%s", tmp);
}

const char *format_bits_as_bytes(int64_t bits, char *buf, size_t len)
{
    uint64_t mag = bits < 0 ? 0u - (uint64_t)bits : (uint64_t)bits;
    unsigned frac = (unsigned)(mag % 8u) * 125u; /* thousandths of a byte */
    int n = snprintf(buf, len, "%s%" PRIu64, bits < 0 ? "-" : "", mag / 8u);
    if (frac && n > 0 && (size_t)n < len) {
        char f[8];
        snprintf(f, sizeof f, ".%03u", frac);
        for (size_t k = strlen(f); k > 1 && f[k - 1] == '0'; k--) f[k - 1] = '\0';
        snprintf(buf + n, len - (size_t)n, "%s", f);
    }
    return buf;
}

int parse_threads(const char *text)
{
    char *end;
    long v = strtol(text, &end, 10);
    if (end == text || *end || v < 0 || v > (long)TL_PARALLEL_MAX_THREADS) return -1;
    return (int)v;
}
