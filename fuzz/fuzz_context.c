/* fuzz/fuzz_context.c: libFuzzer harness for the dwexpr CLI's context
 * JSON loader and the whole `dwexpr eval` path (examples/dwexpr, linked as
 * dwexpr_cli_core). Input: 3 option bytes, then the context JSON, a NUL,
 * and the expression (text, or hex as with -x). Output goes to /dev/null
 * or to strings that are freed; nothing reaches the terminal.
 *
 *   o0  0 hex expression (-x), 1 --json, 2 --trace, 3-4 --result
 *       (keep/value/location/keep), 5 --read, 6 --write, 7 --lane
 *   o1  --read bits (o1 * 3 + 1) / --write bytes (o1 % 16 + 1) / lane
 *   o2  0-1 --addr-size (keep/4/8/2), 2-3 --encoding (keep/provisional/
 *       llvm-user/keep), 4 --max-steps 1000 */
#include "fuzz_common.h"
#include "context.h"
#include "output.h"

/* Where the human-readable output goes. */
static FILE *sink(void)
{
    static FILE *f;
    if (!f)
        f = fopen("/dev/null", "w");
    FZ_CHECK(f != NULL, "cannot open /dev/null");
    return f;
}

/* Render OBJ as main.c's out_print_json would, into a string, and drop it. */
static void emit_json(json_t *obj)
{
    FZ_CHECK(obj != NULL, "the CLI built no JSON object");
    char *s = json_dumps(obj, JSON_COMPACT);
    FZ_CHECK(s != NULL, "json_dumps failed");
    fputs(s, sink());
    free(s);
    json_decref(obj);
}

/* The options main.c's parse_opts would have produced. */
typedef struct fz_opts {
    cli_overrides ov;
    bool hex, json, trace, has_read;
    uint64_t read_bits;
    char write_hex[40];
    bool has_write;
} fz_opts;

/* main.c usage_error: the contract's failure object (class "usage"). */
static int usage_error(const fz_opts *o, int64_t offset, const char *msg)
{
    if (o->json)
        emit_json(json_pack("{s:b,s:o}", "ok", 0, "error",
                            out_error_json("usage", offset, NULL, msg)));
    return 2;
}

/* main.c report_error. */
static int report_error(const fz_opts *o, const cli_ctx *c, const dwexpr_error *e,
                        json_t *result, json_t *program)
{
    if (o->json) {
        json_t *obj = json_pack("{s:b,s:o}", "ok", 0, "error", out_error_from(c, e));
        FZ_CHECK(obj != NULL, "no error object");
        if (result)
            json_object_set(obj, "result", result);
        if (program)
            json_object_set(obj, "program", program);
        emit_json(obj);
    } else {
        out_human_error(sink(), c, e);
    }
    return dwexpr_status_class(e->status) == DWEXPR_CLASS_USAGE ? 2 : 1;
}

/* main.c print_program (--trace). */
static void print_program(const dwexpr_program *prog, const cli_ctx *c, json_t *arr)
{
    size_t n = dwexpr_program_count(prog);
    for (size_t i = 0; i < n; i++) {
        const dwexpr_op *op = dwexpr_program_op(prog, i);
        char text[512], line[560];
        dwexpr_op_format(op, c->arch, text, sizeof text);
        snprintf(line, sizeof line, "0x%04x: %s", (unsigned)op->offset, text);
        if (arr)
            json_array_append_new(arr, json_string(line));
        else
            fprintf(sink(), "%s\n", line);
    }
}

/* main.c run_eval: evaluate, read/write through the result, print. */
static int run_eval(const fz_opts *o, cli_ctx *c, const dwexpr_program *prog, json_t *program)
{
    dwexpr_ctx *ctx = NULL;
    dwexpr_result res;
    dwexpr_error e;
    json_t *result = NULL;
    uint8_t *wbuf = NULL, *rbuf = NULL, *mask = NULL;
    size_t wlen = 0, rlen = 0;
    int rc = 0;
    dwexpr_status s;

    if (o->has_write && cli_hex_decode(o->write_hex, &wbuf, &wlen))
        return usage_error(o, -1, "--write: expected hex bytes");
    memset(&e, 0, sizeof e);
    s = dwexpr_ctx_new(&c->limits, &ctx);
    FZ_CHECK(s == DWEXPR_OK, "ctx_new with the context's limits: %s", dwexpr_status_name(s));
    memset(&res, 0, sizeof res);
    c->target_msg[0] = 0;
    s = dwexpr_eval(ctx, prog, &c->target, c, &c->params, &res);
    if (s != DWEXPR_OK) {
        rc = report_error(o, c, dwexpr_ctx_error(ctx), NULL, program);
        goto done;
    }
    if (o->json)
        result = out_result_json(c, &res);
    else
        out_human_result(sink(), c, &res);
    if ((o->has_write || o->has_read) && res.kind != DWEXPR_RESULT_LOCATION) {
        memset(&e, 0, sizeof e);
        e.status = DWEXPR_E_NOT_LOCATION;
        e.offset = -1;
        snprintf(e.message, sizeof e.message, "result is a value, not a location");
        rc = report_error(o, c, &e, result, program);
        goto done;
    }
    if (o->has_write) {
        c->target_msg[0] = 0;
        s = dwexpr_loc_write(ctx, &c->target, c, &res.loc, 8 * (uint64_t)wlen, wbuf);
        if (s != DWEXPR_OK) {
            rc = report_error(o, c, dwexpr_ctx_error(ctx), result, program);
            goto done;
        }
    }
    if (o->has_read) {
        rlen = (size_t)((o->read_bits + 7) / 8);
        rbuf = calloc(rlen ? rlen : 1, 1);
        mask = calloc(rlen ? rlen : 1, 1);
        FZ_CHECK(rbuf && mask, "out of memory");
        c->target_msg[0] = 0;
        s = dwexpr_loc_read(ctx, &c->target, c, &res.loc, o->read_bits, rbuf, mask);
        if (s != DWEXPR_OK) {
            rc = report_error(o, c, dwexpr_ctx_error(ctx), result, program);
            goto done;
        }
    }
    if (o->json) {
        json_t *obj = json_pack("{s:b,s:O}", "ok", 1, "result", result);
        FZ_CHECK(obj != NULL, "no result object");
        if (o->has_read)
            json_object_set_new(obj, "read", out_read_json(rbuf, mask, rlen));
        if (o->has_write)
            json_object_set_new(obj, "after", cli_ctx_state_json(c));
        if (program)
            json_object_set(obj, "program", program);
        emit_json(obj);
    } else {
        if (o->has_read)
            out_human_read(sink(), rbuf, mask, rlen, o->read_bits);
        if (o->has_write) {
            json_t *st = cli_ctx_state_json(c);
            out_human_state(sink(), c, st);
            json_decref(st);
        }
    }
done:
    json_decref(result);
    free(wbuf);
    free(rbuf);
    free(mask);
    dwexpr_ctx_free(ctx);
    return rc;
}

/* main.c cmd_eval, from the context text onwards. */
static int cmd_eval(const fz_opts *o, const char *context, const char *expr)
{
    cli_ctx c;
    uint8_t *bytes = NULL;
    size_t len = 0;
    dwexpr_program *prog = NULL;
    json_t *program = NULL;
    dwexpr_error e;
    int rc;

    if (cli_ctx_load(&c, context, &o->ov)) {
        FZ_CHECK(memchr(c.err, 0, sizeof c.err) && c.err[0], "load failed without a message");
        rc = usage_error(o, -1, c.err);
        goto done;
    }
    /* The CLI trusts its user with the resource limits; a fuzzer would
     * only find that 2^32 stack entries do not fit in memory. */
    if (c.limits.stack > 4096)
        c.limits.stack = 4096;
    if (!c.limits.steps || c.limits.steps > 100000)
        c.limits.steps = 100000;
    if (!c.limits.implicit_bytes || c.limits.implicit_bytes > (1u << 20))
        c.limits.implicit_bytes = 1u << 20;
    c.limits.arena_bytes = (size_t)16 << 20;
    if ((o->has_read || o->has_write) && !c.result_given)
        c.params.result_kind = DWEXPR_RESULT_LOCATION;
    if (o->hex) {
        if (cli_hex_decode(expr, &bytes, &len)) {
            rc = usage_error(o, -1, "-x: expected hex bytes");
            goto done;
        }
    } else {
        memset(&e, 0, sizeof e);
        dwexpr_status s = cli_assemble(&c, expr, &bytes, &len, &e);
        if (s != DWEXPR_OK) {
            FZ_CHECK(dwexpr_status_class(s) == DWEXPR_CLASS_USAGE ||
                         dwexpr_status_class(s) == DWEXPR_CLASS_LIMIT,
                     "cli_assemble failed with %s", dwexpr_status_name(s));
            rc = usage_error(o, e.offset, e.message[0] ? e.message : dwexpr_strerror(s));
            goto done;
        }
    }
    memset(&e, 0, sizeof e);
    if (dwexpr_program_decode(bytes, len, &c.unit, &prog, &e) != DWEXPR_OK) {
        FZ_CHECK(fz_decode_class(e.status), "decode failed with %s",
                 dwexpr_status_name(e.status));
        rc = report_error(o, &c, &e, NULL, NULL);
        goto done;
    }
    if (o->trace && o->json)
        print_program(prog, &c, program = json_array());
    else if (o->trace)
        print_program(prog, &c, NULL);
    rc = run_eval(o, &c, prog, program);
done:
    json_decref(program);
    dwexpr_program_free(prog);
    free(bytes);
    cli_ctx_free(&c);
    return rc;
}

/* Split the input, set the options, run the eval path. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 3)
        return 0;
    fz_opts o;
    memset(&o, 0, sizeof o);
    uint8_t o0 = data[0], o1 = data[1], o2 = data[2];
    o.hex = o0 & 1;
    o.json = (o0 >> 1) & 1;
    o.trace = (o0 >> 2) & 1;
    static const int kinds[4] = {0, DWEXPR_RESULT_VALUE, DWEXPR_RESULT_LOCATION, 0};
    o.ov.result_kind = kinds[(o0 >> 3) & 3];
    if (o0 & 0x20) {
        o.has_read = true;
        o.read_bits = (uint64_t)o1 * 3 + 1;
    }
    if (o0 & 0x40) {
        o.has_write = true;
        size_t n = (size_t)(o1 % 16) + 1;
        for (size_t i = 0; i < n; i++)
            snprintf(o.write_hex + 2 * i, 3, "%02x", (unsigned)((o1 * (i + 7)) & 0xff));
    }
    if (o0 & 0x80) {
        o.ov.has_lane = true;
        o.ov.lane = o1 % 72;
    }
    static const int asz[4] = {0, 4, 8, 2};
    o.ov.addr_size = asz[o2 & 3];
    static const int enc[4] = {-1, DWEXPR_EXT_PROVISIONAL, DWEXPR_EXT_LLVM_USER, -1};
    o.ov.encoding = enc[(o2 >> 2) & 3];
    o.ov.max_steps = (o2 & 0x10) ? 1000 : 0;

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
     * never let the fuzzer name files (or "-", stdin) */
    const char *p = buf;
    while (*p == ' ' || *p == '\t' || *p == '\n')
        p++;
    const char *context = *p == '{' ? buf : NULL;
    cmd_eval(&o, context, expr);
    free(buf);
    return 0;
}
