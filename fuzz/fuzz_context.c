/* fuzz/fuzz_context.c: libFuzzer harness for the dwexpr CLI's context JSON
 * loader and the whole `dwexpr eval` path, run through examples/dwexpr/
 * main.c itself (dwexpr_cli_main, examples/dwexpr/cli_main.h). */

/* Input: 3 option bytes, the context JSON, a NUL, and the expression (text,
 * or hex as with -x); the CLI runs with an argv built from them:
 *   o0  0 -x (hex expression), 1 --json, 2 --trace, 3-4 --result
 *       (none/value/location/none), 5 --read, 6 --write, 7 --lane
 *   o1  --read bits (o1 * 3 + 1) / --write bytes (o1 % 16 + 1) / --lane o1 % 72
 *   o2  0-1 --addr-size (none/4/8/2), 2-3 --encoding (none/provisional/
 *       llvm-user/none), 4 --max-steps 1000 (else 100000), 5 --all-lanes,
 *       6 expression split into words at spaces
 * stdout is captured: with --json it must hold exactly one JSON object
 * whose "ok" is true exactly when the exit status is 0 (a failure has
 * error.class and error.message); the exit status is
 * 0, 1 or 2. stderr is discarded during the call (sanitizer reports still
 * reach the real stderr). */
#include <fcntl.h>
#include <unistd.h>
#include <jansson.h>
#include "cli_main.h"
#include "fuzz_common.h"

/* Sanitizer runtimes (when linked): where their reports go. */
extern void __sanitizer_set_report_fd(void *fd) __attribute__((weak));

static int out_fd = -1, null_fd = -1, real_out = -1, real_err = -1;

/* One-time setup: a temporary file for stdout, /dev/null for stderr and
 * stdin (the CLI reads stdin for "-"; the harness never passes "-"). */
static void setup_fds(void)
{
    if (out_fd >= 0)
        return;
    FILE *t = tmpfile();
    FZ_CHECK(t != NULL, "tmpfile failed");
    out_fd = dup(fileno(t));
    fclose(t);
    null_fd = open("/dev/null", O_RDWR);
    real_out = dup(1);
    real_err = dup(2);
    FZ_CHECK(out_fd >= 0 && null_fd >= 0 && real_out >= 0 && real_err >= 0, "fd setup failed");
    FZ_CHECK(freopen("/dev/null", "r", stdin) != NULL, "cannot reopen stdin");
    if (__sanitizer_set_report_fd)
        __sanitizer_set_report_fd((void *)(intptr_t)real_err);
}

/* Run the CLI with ARGV; stdout into *OUT (malloc'ed, NUL-terminated). */
static int run_cli(int argc, char **argv, char **out, size_t *outlen)
{
    setup_fds();
    fflush(stdout);
    fflush(stderr);
    FZ_CHECK(ftruncate(out_fd, 0) == 0 && lseek(out_fd, 0, SEEK_SET) == 0, "reset stdout file");
    dup2(out_fd, 1);
    dup2(null_fd, 2);
    int rc = dwexpr_cli_main(argc, argv);
    fflush(stdout);
    fflush(stderr);
    dup2(real_out, 1);
    dup2(real_err, 2);
    off_t n = lseek(out_fd, 0, SEEK_END);
    FZ_CHECK(n >= 0, "stdout size");
    char *b = malloc((size_t)n + 1);
    FZ_CHECK(b != NULL, "out of memory");
    FZ_CHECK(pread(out_fd, b, (size_t)n, 0) == n, "read back stdout");
    b[n] = 0;
    *out = b;
    *outlen = (size_t)n;
    return rc;
}


/* Build the argv of `dwexpr eval` from the input and check the outcome. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 3)
        return 0;
    uint8_t o0 = data[0], o1 = data[1], o2 = data[2];

    /* context text up to the first NUL, the expression after it */
    size_t n = size - 3;
    char *buf = malloc(n + 2);
    FZ_CHECK(buf != NULL, "out of memory");
    memcpy(buf, data + 3, n);
    buf[n] = 0;
    buf[n + 1] = 0;
    size_t clen = strlen(buf);
    char *expr = buf + clen + 1;   /* no separator: an empty expression */
    /* cli_ctx_load takes a file name unless the text starts with '{':
     * never let the input name a file (or "-", stdin) */
    const char *p = buf;
    while (*p == ' ' || *p == '\t' || *p == '\n')
        p++;
    const char *context = *p == '{' ? buf : NULL;

    char *argv[64];
    char read_s[16], write_s[40], lane_s[16];
    int argc = 0;
    argv[argc++] = "dwexpr";
    argv[argc++] = "eval";
    bool json = (o0 >> 1) & 1;
    if (context) {
        argv[argc++] = "--context";
        argv[argc++] = buf;
    }
    if (json)
        argv[argc++] = "--json";
    if (o0 & 4)
        argv[argc++] = "--trace";
    static char *const results[4] = {NULL, "value", "location", NULL};
    if (results[(o0 >> 3) & 3]) {
        argv[argc++] = "--result";
        argv[argc++] = results[(o0 >> 3) & 3];
    }
    if (o0 & 0x20) {
        snprintf(read_s, sizeof read_s, "%u", (unsigned)o1 * 3 + 1);
        argv[argc++] = "--read";
        argv[argc++] = read_s;
    }
    if (o0 & 0x40) {
        size_t nb = (size_t)(o1 % 16) + 1;
        for (size_t i = 0; i < nb; i++)
            snprintf(write_s + 2 * i, 3, "%02x", (unsigned)((o1 * (i + 7)) & 0xff));
        argv[argc++] = "--write";
        argv[argc++] = write_s;
    }
    if (o0 & 0x80) {
        snprintf(lane_s, sizeof lane_s, "%u", (unsigned)o1 % 72);
        argv[argc++] = "--lane";
        argv[argc++] = lane_s;
    }
    static char *const asz[4] = {NULL, "4", "8", "2"};
    if (asz[o2 & 3]) {
        argv[argc++] = "--addr-size";
        argv[argc++] = asz[o2 & 3];
    }
    static char *const enc[4] = {NULL, "provisional", "llvm-user", NULL};
    if (enc[(o2 >> 2) & 3]) {
        argv[argc++] = "--encoding";
        argv[argc++] = enc[(o2 >> 2) & 3];
    }
    /* always bounded: the CLI trusts its user with "limits.steps" */
    argv[argc++] = "--max-steps";
    argv[argc++] = (o2 & 0x10) ? "1000" : "100000";
    if (o2 & 0x20)
        argv[argc++] = "--all-lanes";
    if (o0 & 1) {
        argv[argc++] = "-x";
        argv[argc++] = expr;
    }
    argv[argc++] = "--";   /* what follows are words, never options */
    if (!(o0 & 1)) {
        if (o2 & 0x40) {
            /* several words, joined again with spaces by the CLI */
            char *s = expr;
            while (*s && argc < 62) {
                argv[argc++] = s;
                while (*s && *s != ' ')
                    s++;
                if (*s)
                    *s++ = 0;
            }
        } else {
            argv[argc++] = expr;
        }
    }
    /* a word (or -x value) "-" reads stdin: keep the text, not the meaning */
    for (int i = 0; i < argc; i++)
        if (strcmp(argv[i], "-") == 0)
            argv[i] = " -";
    argv[argc] = NULL;

    char *out = NULL;
    size_t outlen = 0;
    int rc = run_cli(argc, argv, &out, &outlen);
    if (getenv("FUZZ_VERBOSE"))
        fprintf(stderr, "exit %d: %.200s\n", rc, out);
    FZ_CHECK(rc == 0 || rc == 1 || rc == 2, "exit status %d", rc);
    if (json) {
        json_error_t jerr;
        json_t *doc = json_loadb(out, outlen, 0, &jerr);
        FZ_CHECK(doc != NULL && json_is_object(doc),
                 "--json stdout is not exactly one JSON object (%s): %.300s", jerr.text, out);
        json_t *ok = json_object_get(doc, "ok");
        FZ_CHECK(json_is_boolean(ok), "no boolean \"ok\": %.300s", out);
        FZ_CHECK(json_is_true(ok) == (rc == 0), "\"ok\" is %s but the exit status is %d",
                 json_is_true(ok) ? "true" : "false", rc);
        if (!json_is_true(ok) && !json_object_get(doc, "lanes")) {
            json_t *err = json_object_get(doc, "error");
            const char *cls = json_string_value(json_object_get(err, "class"));
            FZ_CHECK(cls != NULL, "a failure without error.class: %.300s", out);
            /* jansson drops a string that is not UTF-8: the message must
             * survive whatever bytes the input holds */
            FZ_CHECK(json_is_string(json_object_get(err, "message")),
                     "a failure without error.message: %.300s", out);
            FZ_CHECK((strcmp(cls, "usage") == 0) == (rc == 2),
                     "error class %s with exit status %d", cls, rc);
        }
        json_decref(doc);
    }
    free(out);
    free(buf);
    return 0;
}
