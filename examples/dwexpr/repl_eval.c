/* examples/dwexpr/repl_eval.c: the REPL's expressions: taking text or
 * hex, evaluating, errors with a caret, the trace, stepping, the stack,
 * disassembly, reading and writing through a location, pictures.
 *
 * Stepping re-runs the evaluation from the start and stops it (through
 * the trace hook) before the wanted operation: the simulated target is
 * not changed by evaluating, so every run sees the same operations, and
 * the stack at the stop is the interrupted evaluation's stack. */
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

/* ---- the expression ---- */

/* Character offsets in TEXT where each operation starts (a word naming
 * an operation, with or without DW_OP_). Returns the count (at most MAX). */
static size_t op_columns(const char *text, size_t *cols, size_t max)
{
    size_t n = 0;
    const char *p = text;
    while (*p && n < max) {
        while (isspace((unsigned char)*p))
            p++;
        const char *w = p;
        while (*p && !isspace((unsigned char)*p))
            p++;
        if (p > w && dwexpr_op_by_name(w, (size_t)(p - w)) != DWEXPR_OP_COUNT)
            cols[n++] = (size_t)(w - text);
    }
    return n;
}

/* Print the expression with a caret under what byte OFFSET (an operation
 * offset; CHAR_AT >= 0: a character of the text instead) points at. */
static void print_caret(repl *r, int64_t offset, int64_t char_at)
{
    FILE *f = r->o.err;
    if (!r->text)
        return;
    if (r->is_hex) {
        if (offset < 0 || (size_t)offset >= r->len)
            return;
        fputs("  ", f);
        for (size_t i = 0; i < r->len && i < 40; i++)
            fprintf(f, i ? " %02x" : "%02x", r->bytes[i]);
        fputc('\n', f);
        if (offset < 40)
            fprintf(f, "  %*s^\n", (int)(3 * offset), "");
        return;
    }
    if (char_at < 0 && r->prog && offset >= 0) {
        size_t count = dwexpr_program_count(r->prog), *cols = calloc(count + 1, sizeof *cols);
        if (cols && op_columns(r->text, cols, count + 1) == count)
            for (size_t i = 0; i < count; i++) {
                dwexpr_op view;
                if (dwexpr_program_op(r->prog, i, &view)->offset == (uint64_t)offset)
                    char_at = (int64_t)cols[i];
            }
        free(cols);
    } else if (char_at < 0 && offset >= 0) {
        /* no program (it did not decode): the operation whose text before
         * it assembles to OFFSET bytes */
        size_t n = strlen(r->text), *cols = calloc(n + 1, sizeof *cols);
        char *prefix = malloc(n + 1);
        size_t count = cols && prefix ? op_columns(r->text, cols, n + 1) : 0;
        for (size_t i = 0; i < count && char_at < 0; i++) {
            uint8_t *b = NULL;
            size_t len = 0;
            dwexpr_error e;
            memcpy(prefix, r->text, cols[i]);
            prefix[cols[i]] = 0;
            if (cli_assemble(&r->c, prefix, &b, &len, &e) == DWEXPR_OK && len == (size_t)offset)
                char_at = (int64_t)cols[i];
            free(b);
        }
        free(prefix);
        free(cols);
    }
    if (char_at < 0 || (size_t)char_at > strlen(r->text) || strlen(r->text) > 400)
        return;
    fprintf(f, "  %s\n  %*s^\n", r->text, (int)char_at, "");
}

/* Report failure E of the current expression: one line, then the caret. */
void rp_report(repl *r, const dwexpr_error *e, int64_t char_at)
{
    char msg[512];
    sbuf line = {0};
    json_t *o = out_error_from(&r->c, e);
    snprintf(msg, sizeof msg, "%s", json_string_value(json_object_get(o, "message")));
    json_decref(o);
    const char *cls = dwexpr_class_name(dwexpr_status_class(e->status));
    sb_printf(&line, "error (%s)", cls);
    if (e->offset >= 0 && char_at < 0)
        sb_printf(&line, " at 0x%04" PRIx64, (uint64_t)e->offset);
    else if (char_at >= 0)
        sb_printf(&line, " at character %" PRId64, char_at);
    /* the op name, unless the message starts with it already */
    if (e->op_name && strncmp(msg, e->op_name, strlen(e->op_name)) != 0)
        sb_printf(&line, " %s", e->op_name);
    sb_printf(&line, ": %s", msg);
    fflush(r->o.out);
    fprintf(r->o.err, "%s\n", sb_str(&line));
    print_caret(r, e->offset, char_at);
    fflush(r->o.err);
    rp_set_last(r, LAST_ERROR, msg, cls, char_at >= 0 ? -1 : e->offset);
    sb_free(&line);
}

/* Take TEXT (text form, or hex when HEX) as the current expression.
 * Returns REPL_OK (a decode error is reported and is the result) or
 * REPL_FAILED (syntax errors). *DECODED tells whether it decoded. */
repl_status rp_set_expr_unit(repl *r, const char *text, bool hex, const dwexpr_unit *unit,
                                 bool *decoded)
{
    dwexpr_error e;
    memset(&e, 0, sizeof e);
    *decoded = false;
    rp_end_session(r, NULL);
    rp_invalidate(r);
    dwexpr_program_free(r->prog);
    r->prog = NULL;
    free(r->bytes);
    r->bytes = NULL;
    r->len = 0;
    free(r->text);
    r->text = rp_xstrdup(text);
    r->is_hex = hex;
    if (hex) {
        if (cli_hex_decode(text, &r->bytes, &r->len))
            return rp_fail(r, "expected hex bytes, e.g. eval -x \"70 08 06\"");
    } else {
        dwexpr_status s = cli_assemble(&r->c, text, &r->bytes, &r->len, &e);
        if (s != DWEXPR_OK) {
            if (!e.status)
                e.status = s;
            rp_report(r, &e, e.offset >= 0 ? e.offset : 0);
            return REPL_FAILED;
        }
    }
    if (dwexpr_program_decode(r->bytes, r->len, unit ? unit : &r->c.unit, &r->prog, &e) !=
        DWEXPR_OK) {
        rp_report(r, &e, -1);
        return REPL_OK;
    }
    *decoded = true;
    return REPL_OK;
}

repl_status rp_set_expr(repl *r, const char *text, bool hex, bool *decoded)
{
    return rp_set_expr_unit(r, text, hex, NULL, decoded);
}

/* Most stack entries a trace or stop line shows (`stack` shows all). */
#define LINE_ENTRIES 8

/* The stack of CTX, top first, as "[a] [b]" on F. */
void rp_print_stack_line(repl *r, FILE *f)
{
    size_t d = dwexpr_ctx_stack_depth(r->ctx);
    if (!d)
        fputs("(empty)", f);
    for (size_t i = 0; i < d; i++) {
        if (i == LINE_ENTRIES) {
            fprintf(f, " ... %zu more (stack shows all)", d - i);
            break;
        }
        dwexpr_result e;
        sbuf s = {0};
        if (dwexpr_ctx_stack_get(r->ctx, i, &e) == DWEXPR_OK)
            fmt_result(&s, r->c.arch, &e);
        fprintf(f, "%s[%s]", i ? " " : "", sb_str(&s));
        sb_free(&s);
    }
}

/* The text of the operation of event EV. */
static void event_op(repl *r, const dwexpr_trace_event *ev, char *buf, size_t cap)
{
    if (ev->op)
        dwexpr_op_format(ev->op, r->c.arch, buf, cap);
    else
        snprintf(buf, cap, "%s", dwexpr_op_info(ev->id)->name);
}

/* The trace hook: interrupts (Ctrl-C), stepping stops, and the trace
 * printout (each operation with the stack it left). */
int rp_hook(void *arg, const dwexpr_ctx *ctx, const dwexpr_trace_event *ev)
{
    repl *r = arg;
    (void)ctx;
    r->events++;
    if ((r->o.interrupt && *r->o.interrupt) || (r->o.step_cap && r->events > r->o.step_cap)) {
        r->interrupted = true;
        goto stop;
    }
    bool stop = false;
    switch (r->mode) {
    case STOP_STEP:
        stop = r->events >= r->target_event;
        break;
    case STOP_NEXT:
        stop = r->events >= r->target_event && ev->depth <= r->stop_depth;
        break;
    case STOP_CONTINUE:
        if (r->events >= r->target_event && ev->depth == 0)
            for (size_t i = 0; i < r->nbreaks; i++)
                stop |= r->breaks[i] == ev->offset;
        break;
    default:
        break;
    }
    if (r->trace && r->events > r->quiet_until) {
        if (r->prev_op[0]) {
            fprintf(r->o.out, "  %*s%-34s ", 2 * (int)r->prev_depth, "", r->prev_op);
            rp_print_stack_line(r, r->o.out);
            fputc('\n', r->o.out);
        }
    }
    char text[140];
    event_op(r, ev, text, sizeof text);
    snprintf(r->prev_op, sizeof r->prev_op, "0x%04x %s", (unsigned)ev->offset, text);
    r->prev_depth = ev->depth;
    if (!stop)
        return 0;
stop:
    r->stopped = true;
    r->stop_event = r->events;
    r->stop_depth = ev->depth;
    r->stop_offset = ev->offset;
    event_op(r, ev, r->stop_op, sizeof r->stop_op);
    return 1;
}

/* Show result RES: "value: ..." / "location: ..."; it becomes the last. */
void rp_show_result(repl *r)
{
    sbuf s = {0};
    fmt_result(&s, r->c.arch, &r->res);
    fprintf(r->o.out, "%s: %s\n", r->res.kind == DWEXPR_RESULT_LOCATION ? "location" : "value",
            sb_str(&s));
    rp_set_last(r, r->res.kind == DWEXPR_RESULT_LOCATION ? LAST_LOCATION : LAST_VALUE, sb_str(&s),
             NULL, -1);
    sb_free(&s);
}

/* Run the current program, stopping as MODE says. Prints the result, the
 * error, or where it stopped. */
repl_status rp_run(repl *r, stop_mode mode, uint64_t target)
{
    if (!r->prog)
        return rp_fail(r, "no expression (eval EXPR, or start EXPR to step)");
    if (!r->ctx && dwexpr_ctx_new(&r->c.limits, &r->ctx) != DWEXPR_OK)
        return rp_fail(r, "cannot create an evaluation context");
    rp_invalidate(r);
    r->mode = mode;
    r->events = 0;
    r->target_event = target;
    /* a re-run prints nothing the run before it printed */
    r->quiet_until = r->session ? r->stop_event : 0;
    r->stopped = r->interrupted = false;
    r->prev_op[0] = 0;
    r->c.params.trace = rp_hook;
    r->c.params.trace_arg = r;
    r->c.target_msg[0] = 0;
    dwexpr_status s = dwexpr_eval(r->ctx, r->prog, &r->c.target, &r->c, &r->c.params, &r->res);
    r->c.params.trace = NULL;
    if (s == DWEXPR_OK) {
        if (r->trace && r->prev_op[0])
            fprintf(r->o.out, "  %*s%-34s (end)\n", 2 * (int)r->prev_depth, "", r->prev_op);
        rp_end_session(r, NULL);
        r->have_result = true;
        rp_show_result(r);
        return REPL_OK;
    }
    r->have_stack = true;
    if (r->stopped && (mode != STOP_NEVER || r->session)) {
        r->session = true;
        fprintf(r->o.out, "%s at 0x%04x: %s", r->interrupted ? "interrupted" : "stopped",
                r->stop_offset, r->stop_op);
        if (r->stop_depth)
            fprintf(r->o.out, "  (depth %u)", r->stop_depth);
        fprintf(r->o.out, "  (step %" PRIu64 ")\n  stack: ", r->stop_event);
        rp_print_stack_line(r, r->o.out);
        fputc('\n', r->o.out);
        rp_set_last(r, LAST_NONE, "", NULL, -1);
        return REPL_OK;
    }
    rp_end_session(r, NULL);
    rp_report(r, dwexpr_ctx_error(r->ctx), -1);
    return REPL_OK;
}

/* eval [-x HEX | EXPR] */
repl_status rp_cmd_eval(repl *r, const char *line, int argc, char **argv)
{
    bool hex = argc > 1 && strcmp(argv[1], "-x") == 0, ok;
    const char *text = rp_after_words(line, hex ? 2 : 1);
    if (!*text) {
        if (!r->prog)
            return rp_fail(r, "eval: expected an expression, e.g. eval DW_OP_lit1 DW_OP_lit2 DW_OP_plus");
        rp_end_session(r, NULL);
        return rp_run(r, STOP_NEVER, 0);
    }
    repl_status st = rp_set_expr(r, text, hex, &ok);
    if (!ok)
        return st;
    return rp_run(r, STOP_NEVER, 0);
}

/* start [-x HEX | EXPR]: stop before the first operation. */
repl_status rp_cmd_start(repl *r, const char *line, int argc, char **argv)
{
    bool hex = argc > 1 && strcmp(argv[1], "-x") == 0, ok = true;
    const char *text = rp_after_words(line, hex ? 2 : 1);
    repl_status st = REPL_OK;
    if (*text)
        st = rp_set_expr(r, text, hex, &ok);
    if (!ok)
        return st;
    rp_end_session(r, NULL);
    return rp_run(r, STOP_STEP, 1);
}

/* step [N] / next / continue: with no session, start one. */
repl_status rp_cmd_step(repl *r, int argc, char **argv, stop_mode mode)
{
    uint64_t n = 1;
    if (argc > 2 || (argc == 2 && (rp_parse_num(argv[1], &n) || argv[1][0] == '-' || n == 0)))
        return rp_fail(r, "%s: expected an optional count of at least 1", argv[0]);
    if (!r->prog)
        return rp_fail(r, "%s: no expression (start EXPR)", argv[0]);
    if (!r->session && mode != STOP_CONTINUE) {
        rp_end_session(r, NULL);
        return rp_run(r, STOP_STEP, n);
    }
    uint64_t base = r->session ? r->stop_event : 0;
    if (mode == STOP_NEXT)
        return rp_run(r, STOP_NEXT, base + 1);
    if (mode == STOP_CONTINUE)
        return rp_run(r, STOP_CONTINUE, base + 1);
    return rp_run(r, STOP_STEP, base + n);
}

/* break [OFFSET] / delete OFFSET|all */
repl_status rp_cmd_break(repl *r, int argc, char **argv, bool del)
{
    uint64_t off;
    if (!del && argc == 1) {
        if (!r->nbreaks)
            fprintf(r->o.out, "no breakpoints (break OFFSET)\n");
        for (size_t i = 0; i < r->nbreaks; i++)
            fprintf(r->o.out, "breakpoint at 0x%04x\n", r->breaks[i]);
        return REPL_OK;
    }
    if (del && argc == 2 && strcmp(argv[1], "all") == 0) {
        r->nbreaks = 0;
        return REPL_OK;
    }
    if (argc != 2 || rp_parse_num(argv[1], &off) || argv[1][0] == '-' || off > UINT32_MAX)
        return rp_fail(r, "%s: expected an operation offset (e.g. 0x3)", argv[0]);
    for (size_t i = 0; i < r->nbreaks; i++)
        if (r->breaks[i] == off) {
            if (del)
                r->breaks[i] = r->breaks[--r->nbreaks];
            return REPL_OK;
        }
    if (del)
        return rp_fail(r, "delete: no breakpoint at 0x%" PRIx64, off);
    if (r->prog) {
        bool found = false;
        dwexpr_op view;
        for (size_t i = 0; i < dwexpr_program_count(r->prog); i++)
            found |= dwexpr_program_op(r->prog, i, &view)->offset == off;
        if (!found)
            return rp_fail(r, "break: no operation starts at 0x%" PRIx64 " (disasm shows offsets)",
                        off);
    }
    if (r->nbreaks == MAX_BREAKS)
        return rp_fail(r, "break: at most %d breakpoints", MAX_BREAKS);
    r->breaks[r->nbreaks++] = (uint32_t)off;
    fprintf(r->o.out, "breakpoint at 0x%04" PRIx64 "\n", off);
    return REPL_OK;
}

repl_status rp_cmd_stack(repl *r, int argc, char **argv)
{
    (void)argc;
    (void)argv;
    if (!r->have_stack) {
        if (r->have_result) {
            fputs("(the evaluation finished) result: ", r->o.out);
            rp_show_result(r);
        } else {
            fputs("no stack: start EXPR and step, or evaluate one that fails\n", r->o.out);
        }
        return REPL_OK;
    }
    size_t d = dwexpr_ctx_stack_depth(r->ctx);
    if (!d)
        fputs("the stack is empty\n", r->o.out);
    for (size_t i = 0; i < d; i++) {
        dwexpr_result e;
        sbuf s = {0};
        if (dwexpr_ctx_stack_get(r->ctx, i, &e) == DWEXPR_OK)
            fmt_result(&s, r->c.arch, &e);
        fprintf(r->o.out, "  %zu: %s%s\n", i, sb_str(&s), i == 0 ? "   <- top" : "");
        sb_free(&s);
    }
    return REPL_OK;
}

/* disasm [HEX]: the current program, breakpoints (*) and the stop (=>). */
repl_status rp_cmd_disasm(repl *r, const char *line, int argc)
{
    if (argc > 1) {
        uint8_t *b = NULL;
        size_t n = 0, need = 0;
        dwexpr_error e;
        memset(&e, 0, sizeof e);
        if (cli_hex_decode(rp_after_words(line, 1), &b, &n)) {
            free(b);
            return rp_fail(r, "disasm: expected hex bytes, e.g. disasm 76 78 06");
        }
        char *out = malloc(64 * n + 256);
        dwexpr_status s = out ? dwexpr_disasm(b, n, &r->c.unit, r->c.arch, out, 64 * n + 256,
                                              &need, &e)
                              : DWEXPR_E_NOMEM;
        if (out)
            fputs(out, r->o.out);
        free(out);
        free(b);
        if (s != DWEXPR_OK)
            return rp_fail(r, "disasm: %s at byte 0x%" PRIx64,
                        e.message[0] ? e.message : dwexpr_strerror(s), (uint64_t)e.offset);
        return REPL_OK;
    }
    if (!r->prog)
        return rp_fail(r, "disasm: no expression (eval EXPR, or disasm HEX)");
    for (size_t i = 0; i < dwexpr_program_count(r->prog); i++) {
        dwexpr_op view;
        const dwexpr_op *op = dwexpr_program_op(r->prog, i, &view);
        char text[256];
        bool bp = false;
        for (size_t k = 0; k < r->nbreaks; k++)
            bp |= r->breaks[k] == op->offset;
        dwexpr_op_format(op, r->c.arch, text, sizeof text);
        fprintf(r->o.out, "%s%c0x%04x: %s\n",
                r->session && r->stop_depth == 0 && r->stop_offset == op->offset ? "=>" : "  ",
                bp ? '*' : ' ', (unsigned)op->offset, text);
    }
    return REPL_OK;
}

repl_status rp_cmd_asm(repl *r, const char *line)
{
    uint8_t *b = NULL;
    size_t n = 0;
    dwexpr_error e;
    memset(&e, 0, sizeof e);
    const char *text = rp_after_words(line, 1);
    if (cli_assemble(&r->c, text, &b, &n, &e) != DWEXPR_OK) {
        free(b);
        return rp_fail(r, "asm: %s at character %" PRId64 "\n  %s\n  %*s^", e.message, e.offset,
                    text, (int)(e.offset > 0 ? e.offset : 0), "");
    }
    for (size_t i = 0; i < n; i++)
        fprintf(r->o.out, i ? " %02x" : "%02x", b[i]);
    fputc('\n', r->o.out);
    free(b);
    return REPL_OK;
}

/* read BITS / write HEX through the last location. */
repl_status rp_need_location(repl *r, const char *cmd)
{
    if (!r->have_result || r->res.kind != DWEXPR_RESULT_LOCATION)
        return rp_fail(r, "%s: the last result is not a location (eval with `set result \"location\"`"
                       " or a location expression)", cmd);
    return REPL_OK;
}

repl_status rp_cmd_read(repl *r, int argc, char **argv)
{
    uint64_t bits;
    if (argc != 2 || rp_parse_num(argv[1], &bits) || argv[1][0] == '-' || bits == 0 ||
        bits > CLI_MAX_RW_BITS)
        return rp_fail(r, "read: expected a bit count (1..1048576)");
    if (rp_need_location(r, "read") != REPL_OK)
        return REPL_FAILED;
    size_t n = (size_t)((bits + 7) / 8);
    uint8_t *buf = calloc(n, 1), *mask = calloc(n, 1);
    if (!buf || !mask) {
        free(buf);
        free(mask);
        return rp_fail(r, "out of memory");
    }
    r->c.target_msg[0] = 0;
    void *user = &r->c;
    const dwexpr_target *t = r->res_real ? r->o.real->target(r->real, &user) : &r->c.target;
    dwexpr_status s = dwexpr_loc_read(r->ctx, t, user, &r->res.loc, bits, buf, mask);
    if (s != DWEXPR_OK) {
        free(buf);
        free(mask);
        dwexpr_error e = *dwexpr_ctx_error(r->ctx);
        e.offset = -1;
        rp_report(r, &e, -1);
        return REPL_OK;
    }
    out_human_read(r->o.out, buf, mask, n, bits);
    char *h = out_hex(buf, n);
    for (size_t i = 0; i < n; i++)
        if (mask[i])
            h[2 * i] = h[2 * i + 1] = 'x';
    free(r->last_read);
    r->last_read = h;
    free(buf);
    free(mask);
    return REPL_OK;
}

repl_status rp_cmd_write(repl *r, int argc, char **argv)
{
    uint8_t *b = NULL;
    size_t n = 0;
    if (r->res_real && r->have_result)
        return rp_fail(r, "write: the result is in a process image (core files are read-only)");
    if (argc != 2 || cli_hex_decode(argv[1], &b, &n) || n == 0) {
        free(b);
        return rp_fail(r, "write: expected hex bytes (e.g. write 2a000000)");
    }
    if (rp_need_location(r, "write") != REPL_OK) {
        free(b);
        return REPL_FAILED;
    }
    r->c.target_msg[0] = 0;
    dwexpr_status s = dwexpr_loc_write(r->ctx, &r->c.target, &r->c, &r->res.loc, 8 * (uint64_t)n, b);
    free(b);
    if (s != DWEXPR_OK) {
        dwexpr_error e = *dwexpr_ctx_error(r->ctx);
        e.offset = -1;
        rp_report(r, &e, -1);
        return REPL_OK;
    }
    /* the simulated target changed: take its state into the document */
    json_t *st = cli_ctx_state_json(&r->c), *doc = rp_edit(r);
    json_t *frames = json_object_get(st, "frames"), *dframes = json_object_get(doc, "frames");
    if (json_is_array(frames) && json_is_array(dframes)) {
        for (size_t i = 0; i < json_array_size(frames) && i < json_array_size(dframes); i++)
            json_object_set(json_array_get(dframes, i), "registers",
                            json_object_get(json_array_get(frames, i), "registers"));
    } else {
        json_object_update(rp_doc_regs(doc), json_object_get(st, "registers"));
    }
    json_object_set(doc, "memory", json_object_get(st, "memory"));
    json_decref(st);
    if (rp_reload(r, doc) != REPL_OK)
        return REPL_FAILED;
    fprintf(r->o.out, "wrote %zu bytes\n", n);
    return REPL_OK;
}

/* picture [--svg FILE] [BITS] */
repl_status rp_cmd_picture(repl *r, int argc, char **argv)
{
    const char *svg = NULL;
    uint64_t bits = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--svg") == 0 && i + 1 < argc)
            svg = argv[++i];
        else if (rp_parse_num(argv[i], &bits) || argv[i][0] == '-' || bits == 0 || bits > (1u << 24))
            return rp_fail(r, "picture: expected [--svg FILE] [BITS], not \"%s\"", argv[i]);
    }
    if (rp_need_location(r, "picture") != REPL_OK)
        return REPL_FAILED;
    if (svg && r->o.no_files)
        return rp_fail(r, "picture: files are off in this session");
    FILE *f = svg ? fopen(svg, "w") : r->o.out;
    if (!f)
        return rp_fail(r, "picture: cannot write %s: %s", svg, strerror(errno));
    char err[200];
    /* the object's size: given, else the variable's, else the composite's */
    int bad = picture_draw(f, svg != NULL, r->c.arch, &r->res.loc, bits ? bits : r->obj_bits,
                           8u * r->c.unit.addr_size, err, sizeof err);
    if (svg && fclose(f) != 0 && !bad)
        return rp_fail(r, "picture: cannot write %s", svg);
    if (bad)
        return rp_fail(r, "picture: %s", err);
    if (svg)
        fprintf(r->o.out, "wrote %s\n", svg);
    return REPL_OK;
}
