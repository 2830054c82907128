/* Output files and standard output (declared in cli.h).
 *
 * A regular file is replaced atomically: the bytes go to a temporary file in
 * the same directory, which is flushed, fsync'd and renamed over the target.
 * A failed write (full disk, a file-size limit, EIO on a camera's flash)
 * leaves the old file whole, even when it is also the input
 * (`convert -i x -o x`). Standard output ("-") and files that are not regular
 * (/dev/null, a FIFO, a terminal) are written directly: they cannot be
 * renamed over. Standard output is checked once more when the command ends
 * (cli_finish_stdout), so a command whose printed text was lost fails.
 */
#define _XOPEN_SOURCE 700 /* mkstemp, realpath, fchmod */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

static tl_status write_stream(FILE *f, const char *path, const void *data, size_t len)
{
    if (fwrite(data, 1, len, f) == len && fflush(f) == 0) return TL_OK;
    if (f == stdout) return cli_fail(TL_ERR_IO, "cannot write standard output: %s", strerror(errno));
    return cli_io_error("cannot write", path);
}

static tl_status write_all(int fd, const unsigned char *p, size_t len)
{
    while (len) {
        ssize_t n = write(fd, p, len);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return TL_ERR_IO;
        p += n;
        len -= (size_t)n;
    }
    return TL_OK;
}

/* The temporary file's name: "<dir>/.<name>.tlayout-XXXXXX" beside target. */
static tl_status temp_name(const char *target, char *buf, size_t cap)
{
    const char *slash = strrchr(target, '/');
    int dir_len = slash ? (int)(slash - target + 1) : 0;
    int n = snprintf(buf, cap, "%.*s.%s.tlayout-XXXXXX", dir_len, target, slash ? slash + 1 : target);
    if (n < 0 || (size_t)n >= cap) return cli_fail(TL_ERR_IO, "output path '%s' is too long", target);
    return TL_OK;
}

/* The mode a new file gets from fopen: 0666 less the umask. */
static mode_t new_file_mode(void)
{
    mode_t mask = umask(0);
    umask(mask);
    return 0666 & ~mask;
}

static tl_status replace_regular(const char *path, const char *target, mode_t mode, const void *data, size_t len)
{
    char tmp[PATH_MAX + 32];
    CLI_TRY(temp_name(target, tmp, sizeof tmp));
    int fd = mkstemp(tmp);
    if (fd < 0) return cli_io_error("cannot create", path); /* the directory is not writable */
    /* a file-size limit must fail the write (EFBIG), not kill us mid-way */
    void (*old)(int) = signal(SIGXFSZ, SIG_IGN);
    int ok = write_all(fd, data, len) == TL_OK && fchmod(fd, mode) == 0 && fsync(fd) == 0;
    int saved = errno;
    ok = close(fd) == 0 && ok;
    if (!ok && !saved) saved = errno;
    signal(SIGXFSZ, old);
    if (ok && rename(tmp, target) == 0) return TL_OK;
    if (ok) saved = errno;
    unlink(tmp);
    return cli_fail(TL_ERR_IO, "cannot write '%s': %s; the old file is left as it was", path, strerror(saved));
}

tl_status write_file(const char *path, const void *data, size_t len)
{
    if (strcmp(path, "-") == 0) return write_stream(stdout, "standard output", data, len);
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) { /* a device or FIFO: write in place */
        FILE *f = fopen(path, "wb");
        if (!f) return cli_io_error("cannot open", path);
        tl_status s = write_stream(f, path, data, len);
        if (fclose(f) != 0 && s == TL_OK) s = cli_io_error("cannot write", path);
        return s;
    }
    if (stat(path, &st) != 0) { /* a new file */
        if (errno != ENOENT) return cli_io_error("cannot create", path);
        return replace_regular(path, path, new_file_mode(), data, len);
    }
    /* an existing file, maybe through a symlink: replace what the link points
     * to, keeping its permissions */
    char *real = realpath(path, NULL);
    if (!real) return cli_io_error("cannot resolve", path);
    tl_status s = replace_regular(path, real, st.st_mode & 07777, data, len);
    free(real);
    return s;
}

int cli_finish_stdout(int rc)
{
    errno = 0;
    int bad = fflush(stdout) != 0 || ferror(stdout);
    if (!bad || rc != CLI_EXIT_OK) return rc; /* a failed command has said why */
    fprintf(stderr, "tlayout: TL_ERR_IO: cannot write standard output: %s\n",
            errno ? strerror(errno) : "an earlier write failed");
    return CLI_EXIT_ERROR;
}
