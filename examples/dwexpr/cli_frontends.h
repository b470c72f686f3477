/* examples/dwexpr/cli_frontends.h: the producer-side front ends in the
 * CLI: `dwexpr eval --diexpr '!DIExpression(...)' [--arg N=V] [--declare]`,
 * `dwexpr eval --spirv 'Deref PlusUconst 8' --arg 0=V` (cli_frontends.c)
 * and `dwexpr spirv MODULE.spv` (cmd_spirv.c). */
#ifndef DWEXPR_CLI_FRONTENDS_H
#define DWEXPR_CLI_FRONTENDS_H

#include <stdbool.h>
#include <jansson.h>
#include <dwexpr.h>
#include "context.h"

#define CLI_FE_MAX_EXPRS 16
#define CLI_FE_MAX_ARGS 32

/* One --diexpr / --spirv with the --arg values that follow it. */
typedef struct cli_fe_expr {
    const char *text;
    dwexpr_diarg args[CLI_FE_MAX_ARGS];
    bool given[CLI_FE_MAX_ARGS];
    size_t nargs;               /* highest index given + 1 */
} cli_fe_expr;

typedef struct cli_fe_opts {
    int kind;                   /* 0: none, 1: --diexpr, 2: --spirv */
    bool declare;               /* --declare: #dbg_declare / DebugDeclare */
    int spirv_set;              /* --spirv-set: a dwexpr_spirv_set, 0 = OpenCL.DebugInfo.100 */
    cli_fe_expr exprs[CLI_FE_MAX_EXPRS];
    size_t n;
    cli_fe_expr pending;        /* --arg before the first expression */
    dwexpr_lowered *low;
    json_t *extra;              /* fields added to the eval JSON output */
} cli_fe_opts;

/* Match a front-end option of `eval` at argv[*i]: 1 matched (*i advanced),
 * 0 not one, -1 bad (why in MSG, CAP bytes). */
int cli_fe_option(int argc, char **argv, int *i, cli_fe_opts *fe, char *msg, size_t cap);
/* Parse, lower and show the expressions (human lines on stdout unless
 * JSON; FE->extra for JSON); the lowered bytes go to a malloc'ed *BYTES.
 * Makes C's target answer for the synthesized base types / DIEs. Returns
 * 0, or -1 with MSG (and *OFF, the character offset or -1) set: a usage
 * error. */
int cli_fe_bytes(cli_fe_opts *fe, cli_ctx *c, bool json, uint8_t **bytes, size_t *len,
                 int64_t *off, char *msg, size_t cap);
/* Release what cli_fe_bytes kept. */
void cli_fe_free(cli_fe_opts *fe);
/* The "lowered" JSON object (hex, program, synthesized types and DIEs, tag offset). */
json_t *cli_fe_lowered_json(const dwexpr_lowered *l, const cli_ctx *c);
/* The same for people, each line after INDENT. */
void cli_fe_lowered_print(FILE *f, const dwexpr_lowered *l, const cli_ctx *c, const char *indent);

/* dwexpr spirv [--json] [--context FILE] [--bind ID=V] MODULE.spv */
int cmd_spirv(int argc, char **argv);

#endif
