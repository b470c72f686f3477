/* examples/dwexpr/repl_int.h: what the REPL's files share (repl.c,
 * repl_target.c, repl_eval.c, repl_expect.c, repl_image.c): the session
 * and the helpers and commands one file defines and another calls. Every
 * command takes the words of its line (ARGV[0] is the command) and returns
 * a repl_status; a wrong command prints one "error: ..." line (rp_fail). */
#ifndef DWEXPR_CLI_REPL_INT_H
#define DWEXPR_CLI_REPL_INT_H

#include <stdint.h>
#include <stdio.h>
#include <jansson.h>

#include "context.h"
#include "repl.h"

/* Highest DWARF register number searched for a register name. */
#define REG_NAME_SCAN 8192
/* Largest register the REPL shows or sets, in bytes (a 1024-lane VGPR
 * of 64-bit lanes is 8 KiB). */
#define REG_MAX_BYTES 65536u
/* Most breakpoints. */
#define MAX_BREAKS 64

/* What the last command produced, for `expect`. */
typedef enum { LAST_NONE, LAST_VALUE, LAST_LOCATION, LAST_ERROR } last_kind;

/* How a stepping run decides to stop. */
typedef enum { STOP_NEVER, STOP_STEP, STOP_NEXT, STOP_CONTINUE } stop_mode;

struct repl {
    repl_options o;
    json_t *doc;              /* the context */
    cli_ctx c;                /* doc, loaded */
    dwexpr_ctx *ctx;          /* evaluation context (results point into it) */

    /* the current expression */
    char *text;               /* as typed (text form or hex) */
    bool is_hex;
    uint8_t *bytes;
    size_t len;
    dwexpr_program *prog;

    /* the last evaluation's outcome */
    bool have_result;         /* res valid (ctx, bytes and c untouched since) */
    dwexpr_result res;
    bool have_stack;          /* ctx's stack is the one of an error or a stop */

    /* stepping session */
    bool session;
    uint64_t stop_event;      /* stopped before event number stop_event (1-based) */
    unsigned stop_depth;
    uint32_t stop_offset;
    char stop_op[160];
    uint32_t breaks[MAX_BREAKS];
    size_t nbreaks;

    /* the running evaluation (hook state) */
    stop_mode mode;
    uint64_t events, target_event, quiet_until;
    bool stopped, interrupted;
    char prev_op[160];        /* trace: the operation whose stack comes next */
    unsigned prev_depth;
    bool trace;

    /* a real process image (core / attach) */
    void *real;
    size_t real_frame;
    bool res_real;            /* res came from the real image: read/write go there */
    uint64_t obj_bits;        /* size of the object res locates (a variable's), 0 unknown */

    /* for expect */
    last_kind last;
    char *last_text;          /* notation, or the error message */
    char last_class[24];
    int64_t last_offset;
    char *last_read;          /* hex of the last `read`, xx for undefined bytes */
};

/* repl.c: helpers and the context document */
/* A copy of S (exits on out of memory). */
char *rp_xstrdup(const char *s);
/* The last result `expect` compares with. */
void rp_set_last(repl *r, last_kind k, const char *text, const char *cls, int64_t offset);
/* A command error: one "error: ..." line; the last result becomes a
 * usage error. Returns REPL_FAILED. */
repl_status rp_fail(repl *r, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
int rp_split_words(const char *s, char *buf, size_t cap, char **w, int max);
const char *rp_after_words(const char *s, int n);
int rp_parse_num(const char *s, uint64_t *out);
void rp_invalidate(repl *r);
void rp_end_session(repl *r, const char *why);
/* Load DOC as the session's context (the session owns it; on failure it
 * is released and the old context stays). */
repl_status rp_reload(repl *r, json_t *doc);
/* A copy of the context document to change and pass to rp_reload. */
json_t *rp_edit(repl *r);
json_t *rp_doc_regs(json_t *doc);
void rp_strip_comments(char *s);

/* repl_target.c: the simulated target's registers, memory and settings */
repl_status rp_cmd_reg(repl *r, int argc, char **argv);
repl_status rp_cmd_regnames(repl *r, int argc, char **argv);
repl_status rp_cmd_mem(repl *r, int argc, char **argv);
repl_status rp_cmd_clear(repl *r, int argc, char **argv);
repl_status rp_cmd_set(repl *r, const char *line, int argc, char **argv);
repl_status rp_cmd_unset(repl *r, int argc, char **argv);
repl_status rp_cmd_arch(repl *r, int argc, char **argv);
repl_status rp_cmd_lane(repl *r, int argc, char **argv);
repl_status rp_cmd_limit(repl *r, int argc, char **argv);
repl_status rp_cmd_load(repl *r, int argc, char **argv);
repl_status rp_cmd_save(repl *r, int argc, char **argv);
repl_status rp_cmd_context(repl *r, int argc, char **argv);

/* repl_eval.c: expressions, evaluation, stepping and what results show */
/* Report E of the current expression: one line, then the caret. */
void rp_report(repl *r, const dwexpr_error *e, int64_t char_at);
repl_status rp_set_expr_unit(repl *r, const char *text, bool hex, const dwexpr_unit *unit,
                                 bool *decoded);
repl_status rp_set_expr(repl *r, const char *text, bool hex, bool *decoded);
void rp_print_stack_line(repl *r, FILE *f);
/* The trace hook: Ctrl-C, stepping stops, the trace printout. */
int rp_hook(void *arg, const dwexpr_ctx *ctx, const dwexpr_trace_event *ev);
void rp_show_result(repl *r);
/* Run the current program, stopping as MODE says (STOP_STEP: before
 * event TARGET); prints the result, the error or the stop. */
repl_status rp_run(repl *r, stop_mode mode, uint64_t target);
repl_status rp_cmd_eval(repl *r, const char *line, int argc, char **argv);
repl_status rp_cmd_start(repl *r, const char *line, int argc, char **argv);
repl_status rp_cmd_step(repl *r, int argc, char **argv, stop_mode mode);
repl_status rp_cmd_break(repl *r, int argc, char **argv, bool del);
repl_status rp_cmd_stack(repl *r, int argc, char **argv);
repl_status rp_cmd_disasm(repl *r, const char *line, int argc);
repl_status rp_cmd_asm(repl *r, const char *line);
repl_status rp_need_location(repl *r, const char *cmd);
repl_status rp_cmd_read(repl *r, int argc, char **argv);
repl_status rp_cmd_write(repl *r, int argc, char **argv);
repl_status rp_cmd_picture(repl *r, int argc, char **argv);

/* repl_expect.c */
repl_status rp_cmd_expect(repl *r, const char *line, int argc, char **argv);

/* repl_image.c: binaries and process images */
repl_status rp_cmd_var(repl *r, int argc, char **argv);
repl_status rp_cmd_open_real(repl *r, int argc, char **argv, bool core);
repl_status rp_cmd_frame(repl *r, int argc, char **argv);
/* Run the CLI command TOOL (`dwexpr locs` / `frames`) with ARGV[1..]
 * (plus the session's context when WITH_CTX). */
repl_status rp_run_tool(repl *r, int (*tool)(int, char **), const char *name, int argc,
                        char **argv, bool with_ctx);

/* repl.c: the command table */
repl_status rp_cmd_help(repl *r, int argc, char **argv);

#endif
