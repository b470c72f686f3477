/* examples/dwexpr/repl_expect.c: `expect`, how REPL scripts check the
 * last result: a value, a location in the compact notation, an error
 * class (and offset), the bytes read, the stack where stepping stopped. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "output.h"
#include "picture.h"
#include "repl_fmt.h"
#include "repl_int.h"

/* ---- expect ---- */

/* Collapse runs of blanks of S into one space, trim the ends. */
static void squeeze(const char *s, char *out, size_t cap)
{
    size_t k = 0;
    bool space = false;
    while (isspace((unsigned char)*s))
        s++;
    for (; *s && k + 1 < cap; s++) {
        if (isspace((unsigned char)*s)) {
            space = true;
            continue;
        }
        if (space && k + 1 < cap)
            out[k++] = ' ';
        space = false;
        out[k++] = *s;
    }
    out[k] = 0;
}

static repl_status expect_failed(repl *r, const char *want, const char *got)
{
    fflush(r->o.out);
    fprintf(r->o.err, "expect failed: wanted %s, got %s\n", want, got);
    fflush(r->o.err);
    return REPL_EXPECT_FAILED;
}

/* What the last result is, for messages. */
static void last_desc(const repl *r, char *buf, size_t cap)
{
    switch (r->last) {
    case LAST_VALUE: snprintf(buf, cap, "value %s", r->last_text); break;
    case LAST_LOCATION: snprintf(buf, cap, "location %s", r->last_text); break;
    case LAST_ERROR:
        snprintf(buf, cap, "error %s%s%s", r->last_class, r->last_text[0] ? ": " : "",
                 r->last_text);
        break;
    default: snprintf(buf, cap, "no result"); break;
    }
}

/* Hex digits of a value text "type 0xHEX (...)" or a number N, normalized
 * (lowercase, no 0x, no leading zeros). */
static int norm_hex(const char *s, char *out, size_t cap)
{
    uint64_t v;
    if (strncmp(s, "0x", 2) == 0 || strncmp(s, "0X", 2) == 0) {
        s += 2;
        while (*s == '0' && s[1])
            s++;
        size_t k = 0;
        for (; *s && k + 1 < cap; s++) {
            if (!isxdigit((unsigned char)*s))
                return -1;
            out[k++] = (char)tolower((unsigned char)*s);
        }
        out[k] = 0;
        return k ? 0 : -1;
    }
    if (rp_parse_num(s, &v))
        return -1;
    snprintf(out, cap, "%" PRIx64, v);
    return 0;
}

repl_status rp_cmd_expect(repl *r, const char *line, int argc, char **argv)
{
    char got[700], want[600];
    last_desc(r, got, sizeof got);
    if (argc < 2)
        return rp_fail(r, "expect: value|location|error|read|stack|at|top ...");
    const char *what = argv[1];
    char rest[540];
    squeeze(rp_after_words(line, 2), rest, sizeof rest);
    snprintf(want, sizeof want, "%s %s", what, rest);
    if (strcmp(what, "value") == 0) {
        /* expect value N [TYPE]: N compares as a number of the value's bits */
        char a[200], b[200], type[64] = "";
        if (argc < 3 || argc > 4 || norm_hex(argv[2], a, sizeof a))
            return rp_fail(r, "expect value: expected a number and an optional type (generic64)");
        if (r->last != LAST_VALUE)
            return expect_failed(r, want, got);
        const char *sp = strchr(r->last_text, ' ');
        if (!sp || norm_hex(sp + 1, b, sizeof b) != 0) {
            /* "generic64 0x2a (42)": the hex word ends at the next blank */
            char word[200];
            snprintf(word, sizeof word, "%s", sp ? sp + 1 : "");
            char *end = strchr(word, ' ');
            if (end)
                *end = 0;
            if (norm_hex(word, b, sizeof b))
                return expect_failed(r, want, got);
        }
        snprintf(type, sizeof type, "%.*s", (int)(sp - r->last_text), r->last_text);
        if (strcmp(a, b) != 0 || (argc == 4 && strcmp(argv[3], type) != 0))
            return expect_failed(r, want, got);
        return REPL_OK;
    }
    if (strcmp(what, "location") == 0) {
        char have[600];
        squeeze(r->last_text ? r->last_text : "", have, sizeof have);
        if (r->last != LAST_LOCATION || strcmp(have, rest) != 0)
            return expect_failed(r, want, got);
        return REPL_OK;
    }
    if (strcmp(what, "error") == 0) {
        /* expect error CLASS [at OFFSET] */
        uint64_t off = 0;
        if (argc != 3 && !(argc == 5 && strcmp(argv[3], "at") == 0 && !rp_parse_num(argv[4], &off)))
            return rp_fail(r, "expect error: expected CLASS [at OFFSET]");
        bool ok = r->last == LAST_ERROR && strcmp(r->last_class, argv[2]) == 0;
        if (ok && argc == 5)
            ok = r->last_offset == (int64_t)off;
        if (!ok) {
            if (r->last == LAST_ERROR && r->last_offset >= 0)
                snprintf(got + strlen(got), sizeof got - strlen(got), " (at 0x%" PRIx64 ")",
                         (uint64_t)r->last_offset);
            return expect_failed(r, want, got);
        }
        return REPL_OK;
    }
    if (strcmp(what, "read") == 0) {
        if (argc != 3)
            return rp_fail(r, "expect read: expected HEX (xx for undefined bytes)");
        if (!r->last_read || strcasecmp(r->last_read, argv[2]) != 0)
            return expect_failed(r, want, r->last_read ? r->last_read : "no read");
        return REPL_OK;
    }
    if (strcmp(what, "stack") == 0 || strcmp(what, "at") == 0) {
        uint64_t n;
        if (argc != 3 || rp_parse_num(argv[2], &n))
            return rp_fail(r, "expect %s: expected a number", what);
        char have[64];
        if (!r->have_stack)
            return expect_failed(r, want, "no stack (not stopped)");
        if (what[0] == 's') {
            snprintf(have, sizeof have, "%zu entries", dwexpr_ctx_stack_depth(r->ctx));
            if (dwexpr_ctx_stack_depth(r->ctx) != n)
                return expect_failed(r, want, have);
        } else {
            snprintf(have, sizeof have, "%s at 0x%x", r->session ? "stopped" : "not stopped",
                     r->stop_offset);
            if (!r->session || r->stop_offset != n)
                return expect_failed(r, want, have);
        }
        return REPL_OK;
    }
    if (strcmp(what, "top") == 0) {
        dwexpr_result e;
        sbuf s = {0};
        char have[600];
        if (!r->have_stack || dwexpr_ctx_stack_depth(r->ctx) == 0 ||
            dwexpr_ctx_stack_get(r->ctx, 0, &e) != DWEXPR_OK)
            return expect_failed(r, want, "no stack entry");
        fmt_result(&s, r->c.arch, &e);
        squeeze(sb_str(&s), have, sizeof have);
        sb_free(&s);
        if (strcmp(have, rest) != 0)
            return expect_failed(r, want, have);
        return REPL_OK;
    }
    return rp_fail(r, "expect: \"%s\"? (value, location, error, read, stack, at, top)", what);
}
