/* examples/dwexpr/main.c: the dwexpr command line (contract "dwexpr eval",
 * "dwexpr asm", "dwexpr disasm", plus "ops" and --help): option parsing,
 * command dispatch and exit codes (0 ok, 1 error, 2 bad usage/input). */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_main.h"
#include "cmds.h"
#ifdef DWEXPR_HAVE_LIBDWARF
#include "cmd_locs.h"
#endif
#include "cli_frontends.h"
#include "context.h"
#include "output.h"
#include "repl.h"

enum { EXIT_OKAY = 0, EXIT_ERROR = 1, EXIT_USAGE = 2 };

static const char usage_main[] =
    "usage: dwexpr COMMAND [OPTIONS] ...\n"
    "\n"
    "commands:\n"
    "  eval    evaluate one DWARF expression against a simulated target\n"
    "  asm     assemble the text form into bytes (space-separated hex)\n"
    "  disasm  print the text form of expression bytes, one operation per line\n"
    "  ops     list every operation dwexpr knows\n"
    "  frames  the call stack of a core file or stopped process (--core / --pid)\n"
    "  cfi     dump the call frame information of an ELF file (--pc: the row)\n"
    "  locs    variables of a binary and their locations (libdwarf)\n"
    "  repl    an interactive session: step through expressions, see the stack\n"
    "          and where each bit of a location comes from (dwexpr alone on a tty)\n"
    "  run     run a script of REPL commands (exit 1 at the first failed expect)\n"
    "  spirv   list (and evaluate) the debug expressions of a SPIR-V module\n"
    "  vars    every frame's variables in a core file or stopped process\n"
    "\n"
    "`dwexpr COMMAND --help` describes a command's options.\n";

static const char usage_eval[] =
    "usage: dwexpr eval [OPTIONS] EXPR...\n"
    "       dwexpr eval [OPTIONS] -x HEX\n"
    "\n"
    "EXPR is the text form (DW_OP_breg6 -8 DW_OP_deref); several words are\n"
    "joined with spaces; \"-\" reads text from stdin. -x takes the bytes as hex\n"
    "(\"76 78 06\").\n"
    "\n"
    "options:\n"
    "  --context FILE        simulated target (JSON; \"-\" = stdin; or inline '{...}')\n"
    "  --result value|location   the kind of result wanted\n"
    "  --read BITS           read BITS bits of the object through the result location\n"
    "                        (at most 1048576 bits; with --all-lanes 8388608 in all)\n"
    "  --write HEX           write these bytes through the result location, show the state\n"
    "                        (at most 131072 bytes)\n"
    "  --json                print one JSON object (contract \"Result JSON\")\n"
    "  --trace               print each operation with the stack it finds (\"trace\" in JSON),\n"
    "                        after the program's disassembly\n"
    "                        (per-step tracing comes with the REPL)\n"
    "  --lane N              current lane (overrides the context)\n"
    "  --all-lanes           evaluate once per active lane (\"exec\", or the EXEC\n"
    "                        register on amdgpu, else every one of \"lanes\")\n"
    "  --addr-size N         address size in bytes (overrides the context)\n"
    "  --encoding provisional|llvm-user   how DW_OP_LLVM_* are encoded\n"
    "  --max-steps N         operation limit\n"
    "  --diexpr '!DIExpression(...)'   an LLVM DIExpression instead of EXPR (repeat for\n"
    "                        fragments of one variable); lowered to DWARF and shown\n"
    "  --spirv 'Deref PlusUconst 8'    SPIR-V DebugOperations instead of EXPR\n"
    "  --arg N=V             location operand N of the expression before it (DW_OP_LLVM_arg N;\n"
    "                        for --spirv 0 = the initial stack entry): reg:R, const:C or C,\n"
    "                        addr:A, undef\n"
    "  --declare             a #dbg_declare / DebugDeclare (an address), not a value\n"
    "  --spirv-set NAME      DebugInfo | OpenCL.DebugInfo.100 (default) |\n"
    "                        NonSemantic.Shader.DebugInfo.100: the operations --spirv knows\n"
    "\n"
    "exit status: 0 ok, 1 evaluation/ill-formed/decode error, 2 bad usage or input\n";

static const char usage_asm[] =
    "usage: dwexpr asm [--context FILE] [--encoding E] [--addr-size N] EXPR...\n"
    "\n"
    "Prints the bytes of EXPR as space-separated hex. EXPR \"-\" reads stdin\n"
    "(disasm output is accepted: offsets, (register names) and # comments are ignored).\n";

static const char usage_disasm[] =
    "usage: dwexpr disasm [--context FILE] [--encoding E] [--addr-size N] HEX...\n"
    "\n"
    "Prints one operation per line (0x0003: DW_OP_breg6 (rbp) -8). HEX may hold\n"
    "spaces or be split over several arguments; \"-\" reads it from stdin.\n"
    "A decode error prints the operations before it, then exits 1.\n";

/* "dwexpr: MESSAGE" on stderr. */
static void complain(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
static void complain(const char *fmt, ...)
{
    va_list ap;
    fputs("dwexpr: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

/* A usage error: message on stderr, and with JSON also the contract's
 * failure object (class "usage") on stdout. Returns EXIT_USAGE. */
static int usage_error(bool json, int64_t offset, const char *msg)
{
    complain("%s", msg);
    if (json)
        out_print_json(json_pack("{s:b,s:o}", "ok", 0, "error",
                                 out_error_json("usage", offset, NULL, msg)));
    return EXIT_USAGE;
}

/* Read all of stdin into a malloc'ed string (NULL on failure). */
static char *read_stdin(void)
{
    size_t n = 0, cap = 4096, r;
    char *b = malloc(cap);
    if (!b)
        return NULL;
    while ((r = fread(b + n, 1, cap - n - 1, stdin)) > 0) {
        n += r;
        if (n + 1 == cap) {
            char *nb = realloc(b, cap * 2);
            if (!nb) {
                free(b);
                return NULL;
            }
            b = nb;
            cap *= 2;
        }
    }
    b[n] = 0;
    return b;
}

/* Join WORDS with spaces; a word "-" is replaced by stdin. Malloc'ed.
 * A '#' comment of the text form runs to the end of the line; it must not
 * run on into the next argument (`asm "0x0000: DW_OP_lit1 # hi"
 * "0x0001: DW_OP_lit2"`), so a word holding a '#' is followed by a newline
 * instead: still one separator character, the offsets do not move. */
static char *join_words(char **words, int n)
{
    size_t len = 1;
    char *in = NULL;
    for (int i = 0; i < n; i++) {
        if (strcmp(words[i], "-") == 0 && !in) {
            in = read_stdin();
            if (!in)
                return NULL;
        }
        len += (strcmp(words[i], "-") == 0 ? strlen(in) : strlen(words[i])) + 1;
    }
    char *s = malloc(len);
    if (!s) {
        free(in);
        return NULL;
    }
    s[0] = 0;
    for (int i = 0; i < n; i++) {
        const char *w = strcmp(words[i], "-") == 0 ? in : words[i];
        if (i)
            strcat(s, strchr(i > 0 && strcmp(words[i - 1], "-") == 0 ? in : words[i - 1], '#')
                          ? "\n" : " ");
        strcat(s, w);
    }
    free(in);
    return s;
}


/* Options shared by the commands. */
typedef struct cli_opts {
    const char *context;
    cli_overrides ov;
    bool json, trace, help;
    bool has_read;
    uint64_t read_bits;
    const char *write_hex;
    const char *hex;            /* -x */
    cli_fe_opts fe;             /* --diexpr / --spirv (cli_frontends.c) */
    char **words;
    int nwords;
    char err[400];              /* why parse_opts failed */
} cli_opts;

/* parse_opts failed: the message into O->err (the caller reports it, as a
 * JSON object too with --json). Returns -1. */
static int opt_fail(cli_opts *o, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static int opt_fail(cli_opts *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(o->err, sizeof o->err, fmt, ap);
    va_end(ap);
    return -1;
}

/* Parse a count option value. */
static int parse_count(cli_opts *o, const char *opt, const char *v, uint64_t max, uint64_t *out)
{
    if (cli_parse_u64(v, out) || *v == '-' || *out > max)
        return opt_fail(o, "%s: expected a number up to %" PRIu64 ", got \"%.200s\"", opt, max, v);
    return 0;
}

/* Whether ARGV (a command's arguments) asks for --json, wherever it
 * stands: a usage error found before the parser reaches --json is still
 * reported as the JSON object (contract "--json prints exactly one JSON
 * object"). The values of options that take one are skipped, and
 * everything after "--" is an operand. */
static bool argv_wants_json(int argc, char **argv)
{
    static const char *const valued[] = {"--context", "--encoding", "--addr-size", "--result",
                                         "--read", "--write", "--lane", "--max-steps", "-x",
                                         "--diexpr", "--spirv", "--arg", "--spirv-set", NULL};
    return out_argv_json(argc, argv, valued);
}

/* Whether O reads stdin twice: the context from "-" and the expression
 * (or hex) from "-" too; stdin holds one of them. Sets O->err. */
static bool stdin_twice(cli_opts *o)
{
    if (!o->context || strcmp(o->context, "-") != 0)
        return false;
    bool twice = o->hex && strcmp(o->hex, "-") == 0;
    for (int i = 0; i < o->nwords; i++)
        twice |= strcmp(o->words[i], "-") == 0;
    if (twice)
        opt_fail(o, "--context - and an expression \"-\" cannot both read stdin");
    return twice;
}

/* Parse the options of a command. Unknown "--x" options are errors; any
 * other word (including "-8") is an operand. Returns 0 or -1. */
static int parse_opts(int argc, char **argv, bool eval, cli_opts *o)
{
    memset(o, 0, sizeof *o);
    o->ov.encoding = -1;
    o->words = calloc((size_t)argc + 1, sizeof *o->words);
    if (!o->words)
        return opt_fail(o, "out of memory");
    bool only_words = false;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v = NULL;
        int r;
        uint64_t n;
        if (only_words || a[0] != '-' || strcmp(a, "-") == 0 ||
            (a[1] >= '0' && a[1] <= '9') || (a[1] != '-' && a[1] != 'x' && a[1] != 'h')) {
            o->words[o->nwords++] = argv[i];
            continue;
        }
        if (strcmp(a, "--") == 0) {
            only_words = true;
            continue;
        }
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            o->help = true;
            continue;
        }
        if (strcmp(a, "--json") == 0 && eval) {
            o->json = true;
            continue;
        }
        if (strcmp(a, "--trace") == 0 && eval) {
            o->trace = true;
            continue;
        }
        if ((r = cli_opt_value(argc, argv, &i, "--context", &v)) != 0) {
            if (r < 0)
                goto missing;
            o->context = v;
            continue;
        }
        if ((r = cli_opt_value(argc, argv, &i, "--encoding", &v)) != 0) {
            if (r < 0)
                goto missing;
            if (strcmp(v, "provisional") == 0)
                o->ov.encoding = DWEXPR_EXT_PROVISIONAL;
            else if (strcmp(v, "llvm-user") == 0)
                o->ov.encoding = DWEXPR_EXT_LLVM_USER;
            else
                return opt_fail(o, "--encoding: \"provisional\" or \"llvm-user\", not \"%.200s\"", v);
            continue;
        }
        if ((r = cli_opt_value(argc, argv, &i, "--addr-size", &v)) != 0) {
            if (r < 0)
                goto missing;
            if (parse_count(o, "--addr-size", v, 8, &n))
                return -1;
            if (n != 1 && n != 2 && n != 4 && n != 8)
                return opt_fail(o, "--addr-size: 1, 2, 4 or 8");
            o->ov.addr_size = (int)n;
            continue;
        }
        if (!eval)
            goto unknown;
        if ((r = cli_fe_option(argc, argv, &i, &o->fe, o->err, sizeof o->err)) != 0) {
            if (r < 0)
                return -1;
            continue;
        }
        if ((r = cli_opt_value(argc, argv, &i, "--result", &v)) != 0) {
            if (r < 0)
                goto missing;
            if (strcmp(v, "value") == 0)
                o->ov.result_kind = DWEXPR_RESULT_VALUE;
            else if (strcmp(v, "location") == 0)
                o->ov.result_kind = DWEXPR_RESULT_LOCATION;
            else
                return opt_fail(o, "--result: \"value\" or \"location\", not \"%.200s\"", v);
            continue;
        }
        if ((r = cli_opt_value(argc, argv, &i, "--read", &v)) != 0) {
            if (r < 0)
                goto missing;
            if (parse_count(o, "--read", v, CLI_MAX_RW_BITS, &o->read_bits))
                return -1;
            o->has_read = true;
            continue;
        }
        if ((r = cli_opt_value(argc, argv, &i, "--write", &v)) != 0) {
            if (r < 0)
                goto missing;
            o->write_hex = v;
            continue;
        }
        if ((r = cli_opt_value(argc, argv, &i, "--lane", &v)) != 0) {
            if (r < 0)
                goto missing;
            if (parse_count(o, "--lane", v, UINT32_MAX, &n))
                return -1;
            o->ov.has_lane = true;
            o->ov.lane = (uint32_t)n;
            continue;
        }
        if (strcmp(a, "--all-lanes") == 0) {
            o->ov.all_lanes = true;
            continue;
        }
        if ((r = cli_opt_value(argc, argv, &i, "--max-steps", &v)) != 0) {
            if (r < 0)
                goto missing;
            if (parse_count(o, "--max-steps", v, UINT64_MAX, &o->ov.max_steps))
                return -1;
            if (o->ov.max_steps == 0)
                return opt_fail(o, "--max-steps: at least 1");
            continue;
        }
        if (strcmp(a, "-x") == 0 || strncmp(a, "-x=", 3) == 0) {
            if (a[2] == '=')
                o->hex = a + 3;
            else if (i + 1 < argc)
                o->hex = argv[++i];
            else
                goto missing;
            continue;
        }
    unknown:
        return opt_fail(o, "unknown option %.200s (see dwexpr %s --help)", a,
                        eval ? "eval" : "COMMAND");
    missing:
        return opt_fail(o, "option %.200s needs a value", a);
    }
    return stdin_twice(o) ? -1 : 0;
}

/* Append the decoded program to the JSON array ARR, one "0x0003: DW_OP_..."
 * line per operation. */
static void print_program(const dwexpr_program *prog, const cli_ctx *c, json_t *arr)
{
    size_t n = dwexpr_program_count(prog);
    for (size_t i = 0; i < n; i++) {
        dwexpr_op view;
        const dwexpr_op *op = dwexpr_program_op(prog, i, &view);
        char text[512], line[560];
        dwexpr_op_format(op, c->arch, text, sizeof text);
        snprintf(line, sizeof line, "0x%04x: %s", (unsigned)op->offset, text);
        json_array_append_new(arr, json_string(line));
    }
}

/* The expression bytes of an eval: -x hex (plus any words), or the words
 * assembled. Returns 0, or an exit status after reporting. */
static int eval_bytes(const cli_opts *o, const cli_ctx *c, uint8_t **bytes, size_t *len)
{
    if (o->hex) {
        char **all = calloc((size_t)o->nwords + 1, sizeof *all);
        if (!all)
            return usage_error(o->json, -1, "out of memory");
        all[0] = (char *)o->hex;
        memcpy(all + 1, o->words, (size_t)o->nwords * sizeof *all);
        char *text = join_words(all, o->nwords + 1);
        free(all);
        if (!text)
            return usage_error(o->json, -1, "cannot read stdin");
        int bad = cli_hex_decode(text, bytes, len);
        free(text);
        if (bad)
            return usage_error(o->json, -1, "-x: expected hex bytes, e.g. -x \"76 78 06\"");
        return 0;
    }
    if (o->nwords == 0)
        return usage_error(o->json, -1, "no expression given (see dwexpr eval --help)");
    char *text = join_words(o->words, o->nwords);
    if (!text)
        return usage_error(o->json, -1, "cannot read stdin");
    dwexpr_error e;
    memset(&e, 0, sizeof e);
    dwexpr_status s = cli_assemble(c, text, bytes, len, &e);
    free(text);
    if (s != DWEXPR_OK) {
        char msg[300];
        snprintf(msg, sizeof msg, "%s", e.message[0] ? e.message : dwexpr_strerror(s));
        return usage_error(o->json, e.offset, msg);
    }
    return 0;
}

/* Report a library failure E (JSON object or human line). RESULT (may be
 * NULL) is the evaluation's result object, kept alongside. */
static int report_error(const cli_opts *o, const cli_ctx *c, const dwexpr_error *e, json_t *result,
                        json_t *program)
{
    if (o->json) {
        json_t *obj = json_pack("{s:b,s:o}", "ok", 0, "error", out_error_from(c, e));
        if (result)
            json_object_set(obj, "result", result);
        if (program)
            json_object_set(obj, "program", program);
        if (o->fe.extra)
            json_object_update(obj, o->fe.extra);
        out_print_json(obj);
    } else {
        fflush(stdout);
        out_human_error(stderr, c, e);
    }
    return dwexpr_status_class(e->status) == DWEXPR_CLASS_USAGE ? EXIT_USAGE : EXIT_ERROR;
}

/* --trace: one line (or JSON object) per operation, with the stack it
 * finds. The stack is listed top first. */
typedef struct trace_state {
    const cli_ctx *c;
    json_t *steps;     /* JSON mode: the "trace" array; else NULL */
    const char *prefix;
} trace_state;

static int trace_step(void *arg, const dwexpr_ctx *ctx, const dwexpr_trace_event *ev)
{
    trace_state *ts = arg;
    char text[256];
    if (ev->op)
        dwexpr_op_format(ev->op, ts->c->arch, text, sizeof text);
    else
        snprintf(text, sizeof text, "%s", dwexpr_op_info(ev->id)->name);
    size_t depth = dwexpr_ctx_stack_depth(ctx);
    if (ts->steps) {
        json_t *stack = json_array();
        for (size_t i = 0; i < depth; i++) {
            dwexpr_result r;
            if (dwexpr_ctx_stack_get(ctx, i, &r) == DWEXPR_OK)
                json_array_append_new(stack, out_result_json(ts->c, &r));
        }
        json_array_append_new(ts->steps, json_pack("{s:i,s:i,s:s,s:o}", "depth", (int)ev->depth,
                                                   "offset", (json_int_t)ev->offset, "op", text,
                                                   "stack", stack));
        return 0;
    }
    printf("%s%*s0x%04x: %-32s stack(%zu)", ts->prefix ? ts->prefix : "", 2 * (int)ev->depth, "",
           (unsigned)ev->offset, text, depth);
    for (size_t i = 0; i < depth && i < 4; i++) {
        dwexpr_result r;
        if (dwexpr_ctx_stack_get(ctx, i, &r) != DWEXPR_OK)
            break;
        json_t *j = out_result_json(ts->c, &r);
        char *d = json_dumps(j, JSON_COMPACT);
        printf("%s %s", i ? " |" : ":", d ? d : "?");
        free(d);
        json_decref(j);
    }
    if (depth > 4)
        printf(" | ...");
    putchar('\n');
    return 0;
}

/* One evaluation of PROG with C's params, then the read/write asked for
 * (WBUF/WLEN: --write bytes). JSON mode (OBJ non-NULL): sets "ok",
 * "result", "read" or "error" in OBJ. Human mode: prints the result and
 * read after PREFIX (NULL: the plain single-lane form; errors then go to
 * stderr). Returns the exit status of this evaluation. */
static int eval_once(const cli_opts *o, cli_ctx *c, dwexpr_ctx *ctx, const dwexpr_program *prog,
                     const uint8_t *wbuf, size_t wlen, json_t *obj, const char *prefix)
{
    dwexpr_result res;
    dwexpr_error e;
    const dwexpr_error *fail = NULL;
    uint8_t *rbuf = NULL, *mask = NULL;
    size_t rlen = 0;
    json_t *result = NULL;
    int rc = EXIT_OKAY;
    dwexpr_status s;

    memset(&res, 0, sizeof res);
    memset(&e, 0, sizeof e);
    if (obj)
        json_object_set_new(obj, "ok", json_true());    /* keeps "ok" first */
    c->target_msg[0] = 0;
    trace_state ts = {c, NULL, prefix};
    if (o->trace) {
        /* per-step trace through the library's hook */
        if (obj)
            ts.steps = json_array();
        c->params.trace = trace_step;
        c->params.trace_arg = &ts;
    }
    s = dwexpr_eval(ctx, prog, &c->target, c, &c->params, &res);
    c->params.trace = NULL;
    if (ts.steps)
        json_object_set_new(obj, "trace", ts.steps);
    if (s != DWEXPR_OK) {
        fail = dwexpr_ctx_error(ctx);
        goto out;
    }
    /* Results point into CTX: render them before any further use of it. */
    if (obj) {
        result = out_result_json(c, &res);
        json_object_set(obj, "result", result);
    } else if (!prefix)
        out_human_result(stdout, c, &res);
    else if (!o->has_read) {
        fputs(prefix, stdout);
        out_human_result(stdout, c, &res);
    }
    if ((wbuf || o->has_read) && res.kind != DWEXPR_RESULT_LOCATION) {
        e.status = DWEXPR_E_NOT_LOCATION;
        e.offset = -1;
        snprintf(e.message, sizeof e.message, "result is a value, not a location: nothing to %s",
                 wbuf ? "write" : "read");
        fail = &e;
        goto out;
    }
    if (wbuf) {
        c->target_msg[0] = 0;
        s = dwexpr_loc_write(ctx, &c->target, c, &res.loc, 8 * (uint64_t)wlen, wbuf);
        if (s != DWEXPR_OK) {
            fail = dwexpr_ctx_error(ctx);
            goto out;
        }
    }
    if (o->has_read) {
        rlen = (size_t)((o->read_bits + 7) / 8);
        rbuf = calloc(rlen ? rlen : 1, 1);
        mask = calloc(rlen ? rlen : 1, 1);
        if (!rbuf || !mask) {
            e.status = DWEXPR_E_NOMEM;
            e.offset = -1;
            snprintf(e.message, sizeof e.message, "out of memory");
            fail = &e;
            goto out;
        }
        c->target_msg[0] = 0;
        s = dwexpr_loc_read(ctx, &c->target, c, &res.loc, o->read_bits, rbuf, mask);
        if (s != DWEXPR_OK) {
            fail = dwexpr_ctx_error(ctx);
            goto out;
        }
        if (obj) {
            json_object_set_new(obj, "read", out_read_json(rbuf, mask, rlen));
        } else {
            if (prefix)
                fputs(prefix, stdout);
            out_human_read(stdout, rbuf, mask, rlen, o->read_bits);
        }
    }
out:
    if (obj) {
        json_object_set_new(obj, "ok", json_boolean(!fail));
        if (fail)
            json_object_set_new(obj, "error", out_error_from(c, fail));
    } else if (fail && prefix) {
        fputs(prefix, stdout);
        out_human_error(stdout, c, fail);
    } else if (fail) {
        fflush(stdout);
        out_human_error(stderr, c, fail);
    }
    if (fail)
        rc = dwexpr_status_class(fail->status) == DWEXPR_CLASS_USAGE ? EXIT_USAGE : EXIT_ERROR;
    json_decref(result);
    free(rbuf);
    free(mask);
    return rc;
}

/* Evaluate (once, or once per active lane with --all-lanes), read/write
 * through the result as asked, and print (contract "dwexpr eval"). With
 * --all-lanes the JSON is {"ok", "lanes": [{"lane": N, "ok", "result",
 * "read" | "error"}, ...]} (plus "after" for --write: the state after
 * every lane wrote) and the exit status is 1 if any lane failed. */
static int run_eval(const cli_opts *o, cli_ctx *c, const dwexpr_program *prog, json_t *program)
{
    dwexpr_ctx *ctx = NULL;
    uint8_t *wbuf = NULL;
    size_t wlen = 0;
    int rc = EXIT_OKAY;
    json_t *obj = NULL;
    dwexpr_status s;

    if (o->write_hex && cli_hex_decode(o->write_hex, &wbuf, &wlen))
        return usage_error(o->json, -1, "--write: expected hex bytes, e.g. --write \"2a000000\"");
    if (wlen > CLI_MAX_RW_BITS / 8) {
        free(wbuf);
        char msg[100];
        snprintf(msg, sizeof msg, "--write: at most %u bytes", CLI_MAX_RW_BITS / 8);
        return usage_error(o->json, -1, msg);
    }
    s = dwexpr_ctx_new(&c->limits, &ctx);
    if (s != DWEXPR_OK) {
        dwexpr_error e;
        memset(&e, 0, sizeof e);
        e.status = s;
        e.offset = -1;
        snprintf(e.message, sizeof e.message, "cannot create an evaluation context: %s",
                 dwexpr_strerror(s));
        rc = report_error(o, c, &e, NULL, program);
        goto done;
    }
    if (o->json)
        obj = json_object();
    if (!o->ov.all_lanes) {
        rc = eval_once(o, c, ctx, prog, wbuf, wlen, obj, NULL);
    } else {
        json_t *lanes = o->json ? json_array() : NULL;
        unsigned nlanes = 0, failed = 0;
        for (uint32_t lane = 0; lane < c->params.lanes; lane++) {
            if (!cli_ctx_lane_active(c, lane))
                continue;
            char prefix[32];
            json_t *lo = o->json ? json_pack("{s:i}", "lane", (json_int_t)lane) : NULL;
            snprintf(prefix, sizeof prefix, "lane %u: ", lane);
            c->params.lane = lane;
            c->params.ctx |= DWEXPR_CTX_LANE;
            int r = eval_once(o, c, ctx, prog, wbuf, wlen, lo, prefix);
            if (r != EXIT_OKAY) {
                failed++;
                if (rc == EXIT_OKAY || r == EXIT_USAGE)
                    rc = r;
            }
            nlanes++;
            if (lanes)
                json_array_append_new(lanes, lo);
        }
        if (obj) {
            json_object_set_new(obj, "ok", json_boolean(failed == 0));
            json_object_set_new(obj, "lanes", lanes);
        } else if (nlanes == 0) {
            printf("no active lanes\n");
        }
    }
    if (wbuf && (o->ov.all_lanes || rc == EXIT_OKAY)) {
        json_t *st = cli_ctx_state_json(c);
        if (obj) {
            json_object_set_new(obj, "after", st);
        } else {
            if (o->ov.all_lanes)
                printf("after writing %zu bytes in each lane:\n", wlen);
            else
                printf("after writing %zu bytes:\n", wlen);
            out_human_state(stdout, c, st);
            json_decref(st);
        }
    }
    if (obj) {
        if (program)
            json_object_set(obj, "program", program);
        if (o->fe.extra)
            json_object_update(obj, o->fe.extra);
        out_print_json(obj);
    }
done:
    free(wbuf);
    dwexpr_ctx_free(ctx);
    return rc;
}

/* dwexpr eval. */
static int cmd_eval(int argc, char **argv)
{
    cli_opts o;
    cli_ctx c;
    uint8_t *bytes = NULL;
    size_t len = 0;
    dwexpr_program *prog = NULL;
    json_t *program = NULL;
    int rc;

    if (parse_opts(argc, argv, true, &o)) {
        rc = usage_error(o.json || argv_wants_json(argc, argv), -1, o.err);
        free(o.words);
        cli_fe_free(&o.fe);
        return rc;
    }
    if (o.help) {
        fputs(usage_eval, stdout);
        free(o.words);
        return EXIT_OKAY;
    }
    if (cli_ctx_load(&c, o.context, &o.ov)) {
        rc = usage_error(o.json, -1, c.err);
        goto done;
    }
    if (o.ov.all_lanes && o.ov.has_lane) {
        rc = usage_error(o.json, -1, "--lane and --all-lanes exclude each other");
        goto done;
    }
    if (o.ov.all_lanes && c.params.lanes == 0) {
        rc = usage_error(o.json, -1, "--all-lanes: the number of lanes is not known (context "
                                     "\"lanes\", or an amdgpu arch)");
        goto done;
    }
    if (o.ov.all_lanes && o.has_read) {
        /* every lane reads: bound the sum as --read bounds one lane */
        uint64_t active = 0;
        for (uint32_t lane = 0; lane < c.params.lanes; lane++)
            active += cli_ctx_lane_active(&c, lane);
        if (active * o.read_bits > CLI_MAX_ALL_LANES_BITS) {
            char msg[160];
            snprintf(msg, sizeof msg, "--read with --all-lanes: %" PRIu64 " lanes of %" PRIu64
                     " bits is more than %u bits in all", active, o.read_bits,
                     CLI_MAX_ALL_LANES_BITS);
            rc = usage_error(o.json, -1, msg);
            goto done;
        }
    }
    /* A read or write needs a location: ask for one unless told otherwise. */
    if ((o.has_read || o.write_hex) && !c.result_given)
        c.params.result_kind = DWEXPR_RESULT_LOCATION;
    if (o.fe.kind) {
        char msg[512];
        int64_t off;
        rc = 0;
        if (o.nwords || o.hex)
            rc = usage_error(o.json, -1, "--diexpr / --spirv give the expression: no EXPR or -x");
        else if (cli_fe_bytes(&o.fe, &c, o.json, &bytes, &len, &off, msg, sizeof msg))
            rc = usage_error(o.json, off, msg);
        if (rc)
            goto done;
    } else if (o.fe.pending.nargs || o.fe.declare) {
        rc = usage_error(o.json, -1, "--arg / --declare go with --diexpr or --spirv");
        goto done;
    } else if ((rc = eval_bytes(&o, &c, &bytes, &len)) != 0)
        goto done;
    dwexpr_error e;
    memset(&e, 0, sizeof e);
    if (dwexpr_program_decode(bytes, len, &c.unit, &prog, &e) != DWEXPR_OK) {
        rc = report_error(&o, &c, &e, NULL, NULL);
        goto done;
    }
    /* --trace: the JSON form also lists the program; the human form shows
     * each operation as it runs (trace_step) */
    if (o.trace && o.json)
        print_program(prog, &c, program = json_array());
    rc = run_eval(&o, &c, prog, program);
done:
    json_decref(program);
    dwexpr_program_free(prog);
    free(bytes);
    free(o.words);
    cli_fe_free(&o.fe);
    cli_ctx_free(&c);
    return rc;
}

/* dwexpr asm. */
static int cmd_asm(int argc, char **argv)
{
    cli_opts o;
    cli_ctx c;
    uint8_t *bytes = NULL;
    size_t len = 0;
    int rc = EXIT_OKAY;

    if (parse_opts(argc, argv, false, &o)) {
        /* asm prints text only: --json is itself an unknown option, but
         * the one asking for it still gets the JSON failure object */
        usage_error(argv_wants_json(argc, argv), -1, o.err);
        free(o.words);
        return EXIT_USAGE;
    }
    if (o.help || o.nwords == 0) {
        fputs(usage_asm, o.help ? stdout : stderr);
        free(o.words);
        return o.help ? EXIT_OKAY : EXIT_USAGE;
    }
    if (cli_ctx_load(&c, o.context, &o.ov)) {
        rc = usage_error(false, -1, c.err);
        goto done;
    }
    char *text = join_words(o.words, o.nwords);
    if (!text) {
        rc = usage_error(false, -1, "cannot read stdin");
        goto done;
    }
    dwexpr_error e;
    memset(&e, 0, sizeof e);
    dwexpr_status s = cli_assemble(&c, text, &bytes, &len, &e);
    if (s != DWEXPR_OK) {
        if (e.offset >= 0)
            complain("asm: %s (at character %" PRId64 ")",
                     e.message[0] ? e.message : dwexpr_strerror(s), e.offset);
        else
            complain("asm: %s", e.message[0] ? e.message : dwexpr_strerror(s));
        rc = EXIT_USAGE;
    } else {
        for (size_t i = 0; i < len; i++)
            printf(i ? " %02x" : "%02x", bytes[i]);
        putchar('\n');
    }
    free(text);
done:
    free(bytes);
    free(o.words);
    cli_ctx_free(&c);
    return rc;
}

/* dwexpr disasm. */
static int cmd_disasm(int argc, char **argv)
{
    cli_opts o;
    cli_ctx c;
    uint8_t *bytes = NULL;
    size_t len = 0, need = 0, cap;
    char *out = NULL;
    int rc = EXIT_OKAY;

    if (parse_opts(argc, argv, false, &o)) {
        /* as asm: no --json output, but a JSON failure object for it */
        usage_error(argv_wants_json(argc, argv), -1, o.err);
        free(o.words);
        return EXIT_USAGE;
    }
    if (o.help || o.nwords == 0) {
        fputs(usage_disasm, o.help ? stdout : stderr);
        free(o.words);
        return o.help ? EXIT_OKAY : EXIT_USAGE;
    }
    if (cli_ctx_load(&c, o.context, &o.ov)) {
        rc = usage_error(false, -1, c.err);
        goto done;
    }
    char *text = join_words(o.words, o.nwords);
    if (!text || cli_hex_decode(text, &bytes, &len)) {
        free(text);
        rc = usage_error(false, -1, "disasm: expected hex bytes, e.g. \"76 78 06\"");
        goto done;
    }
    free(text);
    dwexpr_error e;
    memset(&e, 0, sizeof e);
    cap = 64 * len + 256;
    out = malloc(cap);
    if (!out) {
        rc = usage_error(false, -1, "out of memory");
        goto done;
    }
    dwexpr_status s = dwexpr_disasm(bytes, len, &c.unit, c.arch, out, cap, &need, &e);
    if (s == DWEXPR_E_NOSPACE && need >= cap) {
        free(out);
        cap = need + 1;
        out = malloc(cap);
        if (!out) {
            rc = usage_error(false, -1, "out of memory");
            goto done;
        }
        memset(&e, 0, sizeof e);
        s = dwexpr_disasm(bytes, len, &c.unit, c.arch, out, cap, &need, &e);
    }
    fputs(out, stdout);
    if (s != DWEXPR_OK) {
        fflush(stdout);
        out_human_error(stderr, &c, &e);
        rc = dwexpr_status_class(s) == DWEXPR_CLASS_USAGE ? EXIT_USAGE : EXIT_ERROR;
    }
done:
    free(out);
    free(bytes);
    free(o.words);
    cli_ctx_free(&c);
    return rc;
}

/* Name of an operand layout. */
static const char *operands_name(dwexpr_operands k)
{
    static const char *const names[] = {
#define DWX_X(n) #n,
        DWEXPR_OPERAND_LIST(DWX_X)
#undef DWX_X
    };
    return (unsigned)k < sizeof names / sizeof names[0] ? names[k] : "?";
}

/* dwexpr ops: the operation table (--json for a list of objects). */
static int cmd_ops(int argc, char **argv)
{
    bool json = false;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0) {
            json = true;
        } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            puts("usage: dwexpr ops [--json]\n\nLists every operation: opcode (DW_OP_LLVM_*: "
                 "provisional byte / DW_OP_LLVM_user sub-op), name, operands, description.");
            return EXIT_OKAY;
        } else {
            return out_usage(out_argv_json(argc, argv, NULL), "dwexpr", "ops: unknown argument %s",
                             argv[i]);
        }
    }
    json_t *arr = json ? json_array() : NULL;
    for (int id = 0; id < (int)DWEXPR_OP_COUNT; id++) {
        const dwexpr_opinfo *in = dwexpr_op_info((dwexpr_opid)id);
        char code[32];
        if (!in)
            continue;
        if (in->subop && in->code)
            snprintf(code, sizeof code, "0x%02x|0xe9+%u", in->code, in->subop);
        else if (in->subop)
            snprintf(code, sizeof code, "0xe9+%u", in->subop);
        else
            snprintf(code, sizeof code, "0x%02x", in->code);
        if (json) {
            json_t *o = json_pack("{s:s,s:i,s:s,s:s}", "name", in->name, "code", in->code,
                                  "operands", operands_name(in->operands), "doc", in->doc);
            if (in->subop)
                json_object_set_new(o, "llvm_user_subop", json_integer(in->subop));
            json_array_append_new(arr, o);
        } else {
            printf("%-12s %-34s %-12s %s\n", code, in->name, operands_name(in->operands), in->doc);
        }
    }
    if (json)
        out_print_json(arr);
    return EXIT_OKAY;
}

/* Dispatch on the command word (cli_main.h; entry.c's main calls it). */
int dwexpr_cli_main(int argc, char **argv)
{
    if (argc < 2) {
        if (isatty(0) && isatty(1))
            return repl_main(0, argv + 1);
        fputs(usage_main, stderr);
        return EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        fputs(usage_main, stdout);
        return EXIT_OKAY;
    }
    if (strcmp(cmd, "--version") == 0) {
        printf("dwexpr %d.%d.%d\n", DWEXPR_VERSION_MAJOR, DWEXPR_VERSION_MINOR,
               DWEXPR_VERSION_PATCH);
        return EXIT_OKAY;
    }
    if (strcmp(cmd, "eval") == 0)
        return cmd_eval(argc - 2, argv + 2);
    if (strcmp(cmd, "asm") == 0)
        return cmd_asm(argc - 2, argv + 2);
    if (strcmp(cmd, "disasm") == 0)
        return cmd_disasm(argc - 2, argv + 2);
    if (strcmp(cmd, "frames") == 0)
        return cmd_frames(argc - 2, argv + 2);
    if (strcmp(cmd, "cfi") == 0)
        return cmd_cfi(argc - 2, argv + 2);
#ifdef DWEXPR_HAVE_LIBDWARF
    if (strcmp(cmd, "locs") == 0)
        return cmd_locs(argc - 2, argv + 2);
    if (strcmp(cmd, "vars") == 0)
        return cmd_vars(argc - 2, argv + 2);
#endif
    if (strcmp(cmd, "ops") == 0)
        return cmd_ops(argc - 2, argv + 2);
    if (strcmp(cmd, "repl") == 0)
        return repl_main(argc - 2, argv + 2);
    if (strcmp(cmd, "run") == 0)
        return repl_run_main(argc - 2, argv + 2);
    if (strcmp(cmd, "spirv") == 0)
        return cmd_spirv(argc - 2, argv + 2);
    /* with --json anywhere (`dwexpr diexpr --json ...`: the DIExpression
     * front end is `eval --diexpr`), the JSON failure object too */
    out_usage(out_argv_json(argc - 1, argv + 1, NULL), "dwexpr", "unknown command \"%s\"", cmd);
    fputs(usage_main, stderr);
    return EXIT_USAGE;
}
