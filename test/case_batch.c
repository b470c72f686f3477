/* test/case_batch.c: dwexpr-case-batch, a test-only driver that runs many
 * `dwexpr` command lines in one long-lived process (test/run_cases.py
 * --batch). A sanitized process start and LeakSanitizer's exit check cost
 * about 0.1 s each; the case suite runs about 2000 command lines.
 *
 *   dwexpr-case-batch DIR      DIR: a directory for the per-request files
 *
 * Protocol (stdin -> stdout, binary-safe, decimal lengths):
 *
 *   request:   "run ARGC STDINLEN\n", then ARGC times "LEN\n" and LEN
 *              bytes (argv[0] first; no NUL inside), then STDINLEN bytes
 *   response:  "done STATUS OUTLEN ERRLEN\n", OUTLEN bytes of stdout,
 *              ERRLEN bytes of stderr
 *
 * Each request runs dwexpr_cli_main (examples/dwexpr/main.c) with fd 0 a
 * file holding exactly the request's stdin bytes (stdin freopen'ed: no
 * stale buffer, EOF or error state), fds 1 and 2 files that are read back;
 * STATUS is the return value as the process exit status shows it (& 0xff).
 *
 * What the driver does not survive is a failure of the case that caused it:
 * a crash, a sanitizer report (reports go to the driver's own stderr), an
 * exit() of the CLI, or a leak: when LeakSanitizer is linked, every request
 * after which the heap holds other than before it gets a leak check. The
 * driver then dies without a response; run_cases.py fails that case, shows
 * the driver's stderr and starts a new driver. End of input between requests
 * exits 0; a truncated or malformed request exits 2 with a message.
 *
 * The CLI's static state, audited for repeated calls in one process: no
 * getopt (each command parses its own argv; optind is reset anyway);
 * cli_frontends.c's g_low / g_inner are set by every --diexpr / --spirv
 * evaluation before the hooks that read them are installed in that call's
 * target; cmd_locs.c / cmd_vars.c's usage_json and cmd_vars.c's
 * vars_machine / vars_unw are set at the start of each call; funcname.c
 * caches the demangler's dlopen (the same answer every time); debugfile.c's
 * CRC table is the same every time; repl_line.c's completion state and
 * SIGINT handler belong to the interactive REPL, which run_cases.py never
 * sends here (only its BATCH_COMMANDS come here: eval, asm, disasm, spirv,
 * ops, cfi and --help / --version; frames, vars, locs, repl, run and
 * anything else run as a process).
 * libdwexpr keeps no mutable static state. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_main.h"

/* Sanitizer runtimes, when linked: where reports go, the bytes the heap
 * holds, and a leak check that does not end the process. */
extern void __sanitizer_set_report_fd(void *fd) __attribute__((weak));
extern size_t __sanitizer_get_current_allocated_bytes(void) __attribute__((weak));
extern int __lsan_do_recoverable_leak_check(void) __attribute__((weak));

enum {
    MAX_ARGS = 4096,                  /* arguments of one request */
    MAX_ARG_LEN = 16 << 20,           /* bytes of one argument */
    EXIT_BAD_REQUEST = 2,
    EXIT_LEAK = 23,                   /* LeakSanitizer found a leak */
};

static FILE *req;                     /* the requests (the driver's stdin) */
static int resp_fd = -1, err_fd = -1; /* the driver's own stdout / stderr */
static char *in_path;                 /* the file a request's stdin is in */
static int out_fd = -1, cerr_fd = -1; /* the files behind fds 1 and 2 */

/* A message on the driver's own stderr, then exit (no response). */
static void die(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));
static void die(int status, const char *fmt, ...)
{
    char msg[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    dprintf(err_fd >= 0 ? err_fd : 2, "dwexpr-case-batch: %s\n", msg);
    _exit(status);
}

/* Read exactly N bytes of the request into BUF; dies on a short read. */
static void read_exact(void *buf, size_t n, const char *what)
{
    if (n && fread(buf, 1, n, req) != n)
        die(EXIT_BAD_REQUEST, "truncated request: %s", what);
}

/* Read a decimal number ending in TERM (at most MAX) from the request;
 * dies on anything else. */
static void read_num(char term, uint64_t max, const char *what, uint64_t *out)
{
    uint64_t v = 0;
    int ch, digits = 0;
    while ((ch = getc(req)) >= '0' && ch <= '9') {
        if (++digits > 12 || (v = v * 10 + (uint64_t)(ch - '0')) > max)
            die(EXIT_BAD_REQUEST, "bad request: %s is more than %" PRIu64, what, max);
    }
    if (ch == EOF)
        die(EXIT_BAD_REQUEST, "truncated request: %s", what);
    if (digits == 0 || ch != term)
        die(EXIT_BAD_REQUEST, "bad request: %s is not a number ended by %s", what,
            term == '\n' ? "a newline" : "a space");
    *out = v;
}

/* Copy N request bytes into the file IN_PATH (created or truncated). */
static void save_stdin(uint64_t n)
{
    int fd = open(in_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0)
        die(1, "cannot write %s: %s", in_path, strerror(errno));
    char buf[65536];
    while (n > 0) {
        size_t k = n < sizeof buf ? (size_t)n : sizeof buf;
        read_exact(buf, k, "stdin bytes");
        for (size_t done = 0; done < k;) {
            ssize_t w = write(fd, buf + done, k - done);
            if (w < 0 && errno != EINTR)
                die(1, "cannot write %s: %s", in_path, strerror(errno));
            done += w > 0 ? (size_t)w : 0;
        }
        n -= k;
    }
    close(fd);
}

/* Write N bytes to the driver's stdout (the response). */
static void write_all(const void *p, size_t n)
{
    const char *b = p;
    while (n > 0) {
        ssize_t w = write(resp_fd, b, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            die(1, "cannot write the response: %s", strerror(errno));
        b += w;
        n -= (size_t)w;
    }
}

/* The size of FD's file. */
static size_t file_size(int fd)
{
    struct stat st;
    if (fstat(fd, &st) != 0)
        die(1, "fstat: %s", strerror(errno));
    return (size_t)st.st_size;
}

/* Copy the first LEN bytes of FD's file to the response, in chunks (some
 * command lines print megabytes: no buffer of that size on the heap). */
static void copy_out(int fd, size_t len)
{
    char buf[65536];
    for (size_t off = 0; off < len;) {
        size_t k = len - off < sizeof buf ? len - off : sizeof buf;
        ssize_t r = pread(fd, buf, k, (off_t)off);
        if (r <= 0)
            die(1, "cannot read back a captured stream");
        write_all(buf, (size_t)r);
        off += (size_t)r;
    }
}

/* Empty FD's file and rewind it (fd 1 or 2 shares its offset). */
static void reset_file(int fd)
{
    if (ftruncate(fd, 0) != 0 || lseek(fd, 0, SEEK_SET) != 0)
        die(1, "cannot reset a capture file: %s", strerror(errno));
}

/* A new unlinked file in DIR for capturing a stream. */
static int capture_file(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 16;
    char *p = malloc(n);
    if (!p)
        die(1, "out of memory");
    snprintf(p, n, "%s/%s.XXXXXX", dir, name);
    int fd = mkstemp(p);
    if (fd < 0)
        die(1, "cannot create a file in %s: %s", dir, strerror(errno));
    unlink(p);
    free(p);
    return fd;
}

/* The bytes allocated on the heap now (0 without a sanitizer runtime that
 * counts them). */
static size_t heap_bytes(void)
{
    return __sanitizer_get_current_allocated_bytes ? __sanitizer_get_current_allocated_bytes() : 0;
}

/* Run one command line: ARGV with the stdin saved in IN_PATH; writes the
 * response. Dies (no response) when LeakSanitizer finds a leak. */
static void run_one(int argc, char **argv)
{
    fflush(stdout);
    fflush(stderr);
    reset_file(out_fd);
    reset_file(cerr_fd);
    if (!freopen(in_path, "rb", stdin))
        die(1, "cannot reopen stdin: %s", strerror(errno));
    if (dup2(out_fd, 1) < 0 || dup2(cerr_fd, 2) < 0)
        die(1, "dup2: %s", strerror(errno));
    clearerr(stdout);
    clearerr(stderr);
    optind = 1;
    errno = 0;

    size_t before = heap_bytes();
    int status = dwexpr_cli_main(argc, argv) & 0xff;

    fflush(stdout);
    fflush(stderr);
    /* stdin's buffer was allocated when it was read: free it */
    if (!freopen(in_path, "rb", stdin))
        die(1, "cannot reopen stdin: %s", strerror(errno));
    /* A leak leaves the heap holding other than it held before the call
     * (the CLI keeps no heap state between calls; stdout's buffer is
     * allocated once): the whole leak check (about 15 ms) runs only then,
     * or always when the runtime does not count the heap's bytes. */
    bool changed = !__sanitizer_get_current_allocated_bytes || heap_bytes() != before;
    if (__lsan_do_recoverable_leak_check && changed && __lsan_do_recoverable_leak_check())
        die(EXIT_LEAK, "LeakSanitizer: the request above leaked (argv[1] %s)",
            argc > 1 ? argv[1] : "(none)");
    size_t olen = file_size(out_fd), elen = file_size(cerr_fd);
    char head[80];
    int hl = snprintf(head, sizeof head, "done %d %zu %zu\n", status, olen, elen);
    write_all(head, (size_t)hl);
    copy_out(out_fd, olen);
    copy_out(cerr_fd, elen);
}

/* Read and run requests until end of input. */
int main(int argc, char **argv)
{
    if (argc != 2)
        die(EXIT_BAD_REQUEST, "usage: dwexpr-case-batch DIR");
    /* keep the driver's own streams; fds 0, 1 and 2 become the CLI's */
    int req_fd = dup(0);
    resp_fd = dup(1);
    err_fd = dup(2);
    if (req_fd < 0 || resp_fd < 0 || err_fd < 0 || !(req = fdopen(req_fd, "rb")))
        die(1, "cannot keep the standard streams: %s", strerror(errno));
    if (__sanitizer_set_report_fd)
        __sanitizer_set_report_fd((void *)(intptr_t)err_fd);
    size_t n = strlen(argv[1]) + 32;
    if (!(in_path = malloc(n)))
        die(1, "out of memory");
    snprintf(in_path, n, "%s/batch-stdin.%ld", argv[1], (long)getpid());
    out_fd = capture_file(argv[1], "batch-stdout");
    cerr_fd = capture_file(argv[1], "batch-stderr");

    char word[4];
    uint64_t nargs, inlen;
    for (;;) {
        int ch = getc(req);
        if (ch == EOF)
            break;
        word[0] = (char)ch;
        read_exact(word + 1, 3, "header");
        if (memcmp(word, "run ", 4) != 0)
            die(EXIT_BAD_REQUEST, "bad request: expected \"run ARGC STDINLEN\"");
        read_num(' ', MAX_ARGS, "ARGC", &nargs);
        read_num('\n', UINT64_MAX / 2, "STDINLEN", &inlen);
        if (nargs == 0)
            die(EXIT_BAD_REQUEST, "bad request: ARGC is 0 (argv[0] comes first)");
        char **av = calloc((size_t)nargs + 1, sizeof *av);
        if (!av)
            die(1, "out of memory");
        for (uint64_t i = 0; i < nargs; i++) {
            uint64_t len;
            read_num('\n', MAX_ARG_LEN, "an argument's LEN", &len);
            if (!(av[i] = malloc((size_t)len + 1)))
                die(1, "out of memory");
            read_exact(av[i], (size_t)len, "an argument");
            av[i][len] = 0;
            if (strlen(av[i]) != len)
                die(EXIT_BAD_REQUEST, "bad request: argument %" PRIu64 " holds a NUL", i);
        }
        save_stdin(inlen);
        run_one((int)nargs, av);
        for (uint64_t i = 0; i < nargs; i++)
            free(av[i]);
        free(av);
    }
    unlink(in_path);
    free(in_path);
    return 0;
}
