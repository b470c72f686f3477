/* examples/dwexpr/cmd_locs.h: the `dwexpr locs` command (libdwarf adapter):
 * a static listing of every variable's location expressions, and with
 * --pc and a context file their evaluation at that pc; and the variable
 * evaluation it shares with `dwexpr vars` (cmd_vars.c). */
#ifndef DWEXPR_CLI_CMD_LOCS_H
#define DWEXPR_CLI_CMD_LOCS_H

#include <stdbool.h>
#include <jansson.h>
#include <dwexpr/adapter_libdwarf.h>

#include "context.h"

/* Run `dwexpr locs`; ARGV holds the arguments after "locs" (ARGC of them).
 * Returns the exit status: 0 ok, 1 the binary has DWARF errors (listed),
 * 2 bad usage or unreadable input. */
int cmd_locs(int argc, char **argv);
/* --entry-values NAME (register | call-site | register-only) as a policy.
 * Returns 0, or -1 for an unknown name. */
int locs_entry_policy(const char *name, dwexpr_libdwarf_entry_policy *out);
/* Run `dwexpr vars` (cmd_vars.c): a core file's or stopped process's
 * frames with their variables. Exit status 0 ok, 1 some location could
 * not be evaluated or unwinding failed, 2 bad usage or input. */
int cmd_vars(int argc, char **argv);

/* What evaluating variables needs: the DWARF, the combined target and
 * three contexts (the variable's location, and nested reads such as
 * sizes and implicit pointer targets). */
typedef struct locs_eval {
    dwexpr_libdwarf *ld;
    const dwexpr_arch *arch;
    const cli_ctx *c;              /* context file (error details), or NULL */
    bool machine;                  /* there is a register/memory target */
    bool all_lanes;                /* add each lane's bytes (focus.lanes of them) */
    dwexpr_eval_params focus;      /* thread, lane and context flags of every evaluation */
    dwexpr_target t;               /* the binding's target */
    dwexpr_libdwarf_binding *b;
    dwexpr_ctx *ctx, *aux, *aux2;
    int rc;                        /* 1 once some location could not be evaluated */
} locs_eval;

/* Evaluate variable V in machine frame FRAME at PC (link-time; a caller
 * frame's pc - 1) and read it: the contract's `dwexpr vars` entry (name,
 * kind, decl_line, block_depth, type, bit_size, result, hex,
 * optimized_out) plus the static listing fields; with E->all_lanes a
 * "lanes" array of every lane's "hex". */
json_t *locs_eval_var(locs_eval *e, const dwexpr_libdwarf_var *v, uint32_t frame, uint64_t pc);

/* Append to FRAMES the frames of machine frame FRAME at PC (link-time,
 * as above) whose innermost scope is INNER: its inlined calls, innermost
 * first, then the function, each with the variables in scope (contract
 * "dwexpr vars"). They are numbered from FIRST_INDEX; RUNTIME_PC is the
 * pc shown. EXTRA (may be NULL) gives fields merged into each frame
 * object ("cfa"). Returns the number of frames appended. */
unsigned locs_eval_frames(locs_eval *e, uint32_t frame, uint64_t pc,
                          const dwexpr_libdwarf_scope *inner, uint64_t runtime_pc,
                          unsigned first_index, json_t *frames,
                          json_t *(*extra)(void *user, unsigned frame), void *extra_user);

/* Append to FRAMES the tail call frame (GDB's TAILCALL_FRAME) FRAME at PC
 * (link-time, the return pc of its tail call site minus 1) whose
 * innermost scope is INNER: one frame, "inline": false and "tail_call":
 * true, of the innermost function or inlined call, as GDB shows it
 * (no inlined callers of its own), numbered INDEX. False (nothing
 * appended) when INNER is in no function. */
bool locs_eval_tail_frame(locs_eval *e, uint32_t frame, uint64_t pc,
                          const dwexpr_libdwarf_scope *inner, uint64_t runtime_pc, unsigned index,
                          json_t *frames, json_t *(*extra)(void *user, unsigned frame),
                          void *extra_user);

/* Print one variable entry for people (EVALUATED: its value, else its
 * location listing). */
void locs_human_var(const json_t *v, bool evaluated);

#endif
