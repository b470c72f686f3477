/* examples/dwexpr/repl.h: the dwexpr REPL's command interpreter. It reads
 * one command line at a time (from a terminal front end, a script, a test
 * or a fuzzer) and keeps the session: the simulated target (a context in
 * the contract's "Context file" format), the current expression, a
 * stepping session with breakpoints, and the last result for `expect`.
 * It knows nothing about terminals: repl_line.c is the front end. */
#ifndef DWEXPR_CLI_REPL_H
#define DWEXPR_CLI_REPL_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <dwexpr.h>

typedef struct repl repl;

/* A variable's location expression at a pc, as the `var` command gets it
 * from a binary (repl_elf.c; malloc'ed buffers, the REPL frees them). */
typedef struct repl_var {
    uint8_t *expr;            /* DW_AT_location at the pc (list entry chosen) */
    size_t len;
    dwexpr_unit unit;         /* of the variable's compilation unit */
    uint8_t *frame_base;      /* its function's DW_AT_frame_base exprloc, or NULL */
    size_t fb_len;
    char arch[32];            /* the binary's architecture name */
    uint64_t bit_size;        /* of its type, 0 if unknown */
    char what[300];           /* "param x: int (32 bits) in probe, list entry [a, b)" */
} repl_var;

/* What a command line did. */
typedef enum repl_status {
    REPL_OK = 0,        /* done (an evaluation error is a result, still OK) */
    REPL_FAILED,        /* the command was wrong: bad name, operand, register ... */
    REPL_EXPECT_FAILED, /* an `expect` did not match */
    REPL_QUIT           /* `quit` */
} repl_status;

/* A real process image (repl_real.c, built with libdwarf and libunwind):
 * a core file or a stopped process with the DWARF of its binary. */
typedef struct repl_real_ops {
    /* open CORE (or process PID when CORE is NULL) with BINARY's DWARF;
     * NULL with ERR set on failure */
    void *(*open)(const char *core, int pid, const char *binary, char *err, size_t errcap);
    void (*close)(void *h);
    size_t (*frame_count)(void *h);
    /* "#1 main pc 0x... sp 0x..." */
    void (*frame_desc)(void *h, size_t frame, char *buf, size_t cap);
    /* evaluate NAME's DW_AT_location in FRAME on CTX (HOOK: trace hook and
     * thread/lane settings); 0 ok (OUT points into CTX), 1 evaluation
     * failed (E has it), -1 no such variable (WHAT says why); WHAT also
     * describes the variable, *BIT_SIZE gets its type's size (0: unknown) */
    int (*var)(void *h, size_t frame, const char *name, dwexpr_ctx *ctx,
               const dwexpr_eval_params *hook, dwexpr_result *out, dwexpr_error *e,
               uint64_t *bit_size, char *what, size_t cap);
    /* the target reads and writes go to, and its user pointer */
    const dwexpr_target *(*target)(void *h, void **user);
} repl_real_ops;

/* repl_real.c's implementation. */
extern const repl_real_ops repl_real_libunwind;

/* Options of a session. */
typedef struct repl_options {
    FILE *out;            /* results and listings (stdout) */
    FILE *err;            /* one-line errors (stderr; may equal out) */
    bool no_files;        /* refuse commands that open files (fuzzing) */
    /* set asynchronously (SIGINT): a running evaluation stops with
     * "interrupted"; the interpreter clears it before each command */
    volatile sig_atomic_t *interrupt;
    /* `elf` commands: the CLI's `dwexpr locs` (NULL: not built) */
    int (*locs)(int argc, char **argv);
    /* most operations one evaluation may run before it is stopped as
     * interrupted, whatever `limit steps` says (0: no cap; fuzzing) */
    uint64_t step_cap;
    /* `var`: NAME's location expression in BINARY at *PC (NULL: any
     * scope; a location list needs a pc). Returns 0, or -1 with ERR set.
     * NULL when built without libdwarf. */
    int (*var_expr)(const char *binary, const char *name, const uint64_t *pc, repl_var *out,
                    char *err, size_t errcap);
    /* `core` / `attach` / `frame` / `var NAME` (NULL: not built) */
    const repl_real_ops *real;
    /* `frames`: the CLI's `dwexpr frames` (NULL: not built) */
    int (*frames)(int argc, char **argv);
} repl_options;

/* A new session with an empty context (generic64). NULL when out of memory. */
repl *repl_new(const repl_options *o);
void repl_free(repl *r);
/* Run one command line (without its newline). */
repl_status repl_exec(repl *r, const char *line);
/* Run the command lines of TEXT (a script): stops at the first failed
 * `expect` (returns REPL_EXPECT_FAILED) or at the first failing command
 * that the next command does not `expect error` (REPL_FAILED). NAME and
 * line numbers prefix the messages. */
repl_status repl_run_script(repl *r, const char *name, const char *text);

/* Names the front end completes: commands, then operation names, then the
 * register names of the session's architecture. Calls EACH for every name
 * starting with PREFIX. */
void repl_complete(const repl *r, const char *prefix, void (*each)(void *arg, const char *name),
                   void *arg);
/* True when LINE is the command word of a line whose argument is an
 * expression (completion then offers operation names first). */
bool repl_takes_expression(const char *line);

/* The `var` look-up through the libdwarf adapter (repl_elf.c, built with
 * libdwarf): suits repl_options.var_expr. */
int repl_elf_var(const char *binary, const char *name, const uint64_t *pc, repl_var *out,
                 char *err, size_t errcap);

/* `dwexpr repl` / `dwexpr run FILE` (repl_line.c). */
int repl_main(int argc, char **argv);
int repl_run_main(int argc, char **argv);

#endif
