/* Shared pieces of the tlayout CLI: the command signature, the commands, and
 * small helpers for errors, files and arguments.
 *
 * Exit codes (docs/cli.md): 0 success, 1 the library or the environment
 * reported an error (message "tlayout: TL_ERR_...: detail"), 2 usage error.
 */
#ifndef TLAYOUT_CLI_H
#define TLAYOUT_CLI_H

#include <stddef.h>
#include <stdint.h>

#include "tlayout.h"

#define CLI_EXIT_OK 0
#define CLI_EXIT_ERROR 1
#define CLI_EXIT_USAGE 2

/* A command gets argv without the program name: argv[0] is the command name. */
typedef int (*cli_fn)(int argc, char **argv);

typedef struct cli_command {
    const char *name;
    cli_fn fn;
    const char *help; /* one line for `tlayout --help` */
} cli_command;

/* ---- commands (one file each: programs/cmd_<name>.c) ---------------------- */
int cmd_describe(int argc, char **argv);
int cmd_offset(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_demo(int argc, char **argv);
int cmd_draw(int argc, char **argv);
int cmd_explain(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_tidl_info(int argc, char **argv);
int cmd_threshold(int argc, char **argv);
int cmd_scan(int argc, char **argv);   /* programs/cmd_post.c */
int cmd_argmax(int argc, char **argv); /* programs/cmd_post.c */
int cmd_topk(int argc, char **argv);   /* programs/cmd_post.c */
int cmd_detect(int argc, char **argv);
/* Post-processing helpers (cmd_post.c): parse SPEC and read exactly its bytes
 * from path; parse a real number (1 when the whole text is one). */
tl_status cli_read_tensor(const char *spec, const char *path, tl_desc *d, unsigned char **data, size_t *len);
int cli_parse_real(const char *text, double *out);
/* The RKNN decode paragraph of `tlayout demo` (programs/demo_post.c). */
tl_status demo_rknn_decode(int runs);
int cmd_image(int argc, char **argv);
/* tlayout demo's first step (programs/demo_image.c): NV12 frame -> letterboxed input per
 * vendor format; prints its table, returns the count of formats that failed. */
int demo_image_step(int runs, tl_status *status);
int cmd_rknn_attr(int argc, char **argv);

/* ---- errors -------------------------------------------------------------- */
/* The CLI keeps its own error detail instead of writing the library's
 * (tl_last_error() belongs to the library; programs/ links the public API
 * only). A status travels up to die_status, which prints the CLI's detail when
 * a CLI check failed last, else the library's. */

/* Record the CLI's detail for status s and return s. printf format. */
tl_status cli_fail(tl_status s, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Forget the CLI's detail: a caller that handles a failed status instead of
 * returning it calls this, so a later library error is not shadowed. */
void cli_clear_error(void);
/* The detail die_status would print: the CLI's if set, else tl_last_error(). */
const char *cli_last_error(void);
/* Return the status of expr from the calling function unless it is TL_OK. */
#define CLI_TRY(expr)                             \
    do {                                          \
        tl_status cli_try_s_ = (expr);            \
        if (cli_try_s_ != TL_OK) return cli_try_s_; \
    } while (0)

/* Print "tlayout: <tl_status_str(s)>: <cli_last_error()>" to stderr and return
 * the exit code for it (callers `return die_status(s);`). */
int die_status(tl_status s);
/* Print "tlayout: <cmd>: <message>" and "Try 'tlayout <cmd> --help'." to
 * stderr and return CLI_EXIT_USAGE. printf format. */
int die_usage(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Record an I/O error (cli_fail: "WHAT 'PATH': strerror") and return TL_ERR_IO. */
tl_status cli_io_error(const char *what, const char *path);
/* Under --json a command sets this: die_status and die_usage then write one
 * JSON object to stderr instead of text,
 *   {"error": {"status": "TL_ERR_MISMATCH", "code": 300, "message": "..."}}
 * (status "usage" and code 2 for usage errors); stdout keeps only results. */
extern int cli_json_errors;
/* A usage error for an argument that is not an option of cmd: names the
 * closest of known[0..n-1] when there is one ("did you mean '--from'?"). */
int die_unknown_arg(const char *cmd, const char *arg, const char *const *known, size_t n);

/* ---- arguments ----------------------------------------------------------- */
/* Non-zero when arg is "-h" or "--help". */
int is_help(const char *arg);
/* Option with a value, given as "--name VALUE" or "--name=VALUE". When argv[*i]
 * is that option: stores the value in *value, advances *i past it and returns 1;
 * returns -1 when the value is missing; 0 when argv[*i] is another argument. */
int take_option(int argc, char **argv, int *i, const char *name, const char **value);
/* One valued option in a command's argv loop: when argv[i] is option `name`,
 * store its value in `dst` and go on with the next argument; a missing value
 * is command `cmd`'s usage error. Uses the loop's argc, argv, i and its locals
 * `const char *v` and `int r`:
 *     for (int i = 1; i < argc; i++) {
 *         const char *v = NULL;
 *         int r;
 *         CLI_OPT("detect", "--iou", a->iou) CLI_OPT("detect", "--map", a->map)
 *         ... flags and positional arguments ...
 *     } */
#define CLI_OPT(cmd, name, dst)                                                  \
    if ((r = take_option(argc, argv, &i, name, &v)) != 0) {                      \
        if (r < 0) return die_usage(cmd, "option %s needs a value", name);       \
        dst = v;                                                                 \
        continue;                                                                \
    }
/* Parse "i,j,k,..." (decimal, optionally negative) into out[0..max-1]; *n gets
 * the count. TL_ERR_COORD with a message naming the text when malformed. */
tl_status parse_coord(const char *text, int64_t *out, int max, int *n);
/* --threads N: 0..TL_PARALLEL_MAX_THREADS, else -1. */
int parse_threads(const char *text);
/* Parse a spec with a message that names it: "--from 'X': <parser detail>". */
tl_status parse_spec(tl_desc *d, const char *what, const char *spec);

/* ---- files ----------------------------------------------------------------- */
/* Read a whole file ("-" = stdin) into a malloc'd buffer (free it). */
/* At most max bytes of a file or "-" (stdin); never reads an endless input to its end. */
tl_status read_file(const char *path, size_t max, unsigned char **data, size_t *len);
/* Write len bytes to a file ("-" = stdout), replacing it. A regular file is
 * replaced atomically (temporary file, fsync, rename): on failure the old one
 * is left as it was. programs/cli_output.c */
tl_status write_file(const char *path, const void *data, size_t len);
/* Flush standard output at the end of a command: when anything printed was
 * lost (/dev/full, a closed stdout), say so on stderr and turn exit code 0
 * into 1 (a failed command has given its own message). Returns the exit code. */
int cli_finish_stdout(int rc);

/* ---- numbers ----------------------------------------------------------------- */
/* A bit count as bytes, exact: 12, 0.5, 12.5, 0.125. buf holds >= 32 chars. */
const char *format_bits_as_bytes(int64_t bits, char *buf, size_t len);
/* size_bytes of a validated descriptor as size_t, TL_ERR_OVERFLOW if it does not fit. */
tl_status desc_size_t(const tl_desc *d, size_t *out);

/* ---- text built in a caller's buffer ------------------------------------------ */
/* Appending never fails: text beyond cap is dropped, but len still counts it,
 * so len >= cap tells the caller to retry with a buffer of len + 1 bytes. */
typedef struct cli_sb {
    char *buf;
    size_t cap, len;
} cli_sb;
void cli_sb_printf(cli_sb *sb, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* s as a JSON string, quoted and escaped. */
void cli_sb_json_str(cli_sb *sb, const char *s);
/* The shortest decimal that reads back as the same float (as the library
 * prints scales in specs and JSON, so the CLI's text agrees with them). */
void cli_sb_float(cli_sb *sb, float f);

/* ---- overflow-checked 64-bit arithmetic: false on overflow (*r unspecified) -- */
static inline int cli_add_ok(int64_t a, int64_t b, int64_t *r) { return !__builtin_add_overflow(a, b, r); }
static inline int cli_mul_ok(int64_t a, int64_t b, int64_t *r) { return !__builtin_mul_overflow(a, b, r); }

#endif /* TLAYOUT_CLI_H */
