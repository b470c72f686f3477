/* examples/dwexpr/context.h: the CLI's simulated target. A context file
 * (contract "Context file", JSON) becomes a dwexpr_target whose callbacks
 * answer from the parsed state, plus the unit, limits and eval params. */
#ifndef DWEXPR_CLI_CONTEXT_H
#define DWEXPR_CLI_CONTEXT_H

/* Most lanes a simulated thread may have ("lanes", --all-lanes). */
#define CLI_MAX_LANES 4096
/* Most bits `eval --read` / the REPL's `read` move, and so at most
 * CLI_MAX_RW_BITS / 8 bytes for --write / `write`: 128 KiB, enough for any
 * variable, small enough that every read returns at once. */
#define CLI_MAX_RW_BITS (1u << 20)
/* Most bits `eval --all-lanes --read` moves in all its lanes. */
#define CLI_MAX_ALL_LANES_BITS (1u << 23)

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <jansson.h>
#include <dwexpr.h>

/* Command-line settings that override the context file. */
typedef struct cli_overrides {
    int addr_size;            /* 0: keep the context's */
    int encoding;             /* -1: keep; else a dwexpr_ext_encoding */
    bool has_lane;
    uint32_t lane;
    uint64_t max_steps;       /* 0: keep */
    int result_kind;          /* 0: keep; else a dwexpr_result_kind */
    bool all_lanes;           /* --all-lanes: evaluate once per active lane */
} cli_overrides;

typedef struct cx_state cx_state;

/* The parsed context. `target` with `user` = the cli_ctx itself. */
typedef struct cli_ctx {
    const dwexpr_arch *arch;
    char arch_name[32];
    dwexpr_unit unit;
    dwexpr_eval_params params;
    dwexpr_limits limits;
    dwexpr_target target;
    bool result_given;        /* "result" in the context or --result */
    char err[512];            /* why loading failed */
    char target_msg[200];     /* detail of the last failed target access */
    const char *args[32];     /* "args": location operands of --diexpr / --spirv (strings) */
    size_t nargs;
    cx_state *st;             /* everything else (context.c) */
} cli_ctx;

/* Load SRC: a file name, "-" for stdin, or inline JSON text starting with
 * '{'; NULL means an empty context. Returns 0, or -1 with C->err set (the
 * CLI exits 2). Call cli_ctx_free in both cases. */
int cli_ctx_load(cli_ctx *c, const char *src, const cli_overrides *ov);
/* Release everything cli_ctx_load allocated. */
void cli_ctx_free(cli_ctx *c);
/* The simulated target's whole state in the context file's format:
 * {"registers": {...}, "memory": [...]} (plus "frames" when several). */
json_t *cli_ctx_state_json(const cli_ctx *c);
/* Assemble TEXT with the context's unit and arch into a malloc'ed buffer.
 * Returns the status; ERR gets the details. */
dwexpr_status cli_assemble(const cli_ctx *c, const char *text, uint8_t **out, size_t *len,
                           dwexpr_error *err);
/* Decode hex text ("70 08 06", "0x7008", "700806") into a malloc'ed
 * buffer. Returns 0, or -1 if it is not whole bytes of hex digits. */
int cli_hex_decode(const char *s, uint8_t **out, size_t *len);
/* Whether LANE is active: bit LANE of "exec", else (AMDGPU) of the EXEC
 * register of frame 0, else every lane is. The lane count is
 * c->params.lanes ("lanes", default the AMDGPU wavefront size). */
bool cli_ctx_lane_active(const cli_ctx *c, uint32_t lane);
/* Parse a number as the context file spells it: decimal, 0x-hex, optional
 * leading '-' (two's complement). Returns 0, -1 if it is not a number, or
 * -2 if it does not fit in 64 bits: above 2^64 - 1, or below -2^63 (a
 * negative number is a two's complement pattern; wrapping one that does
 * not fit would give another number, so it is refused). */
int cli_parse_u64(const char *s, uint64_t *out);
/* Match option NAME at argv[*i] as "--name VALUE" or "--name=VALUE".
 * Returns 1 (matched, *VAL set, *i advanced past the value), 0 (not this
 * option) or -1 (value missing). */
int cli_opt_value(int argc, char **argv, int *i, const char *name, const char **val);

#endif
