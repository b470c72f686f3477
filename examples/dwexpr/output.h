/* examples/dwexpr/output.h: what the CLI prints: the contract's result and
 * error JSON objects, and the human-readable forms of the same things. */
#ifndef DWEXPR_CLI_OUTPUT_H
#define DWEXPR_CLI_OUTPUT_H

#include <stdio.h>
#include <jansson.h>
#include <dwexpr.h>
#include "context.h"

/* The "result" object of a successful evaluation. */
json_t *out_result_json(const cli_ctx *c, const dwexpr_result *r);
/* The "error" object: class, offset (null when < 0), op (null when NULL),
 * message. */
json_t *out_error_json(const char *cls, int64_t offset, const char *op, const char *msg);
/* A JSON string of text S: S itself when it is UTF-8, else S with each
 * byte of a malformed sequence written as the four characters \xNN (jansson
 * refuses such strings, and a field would go missing). */
json_t *out_text_json(const char *s);
/* The "error" object for a library failure; C (may be NULL) adds the
 * simulated target's detail to target-class messages. */
json_t *out_error_from(const cli_ctx *c, const dwexpr_error *e);
/* The "read" object: bytes in storage order, "xx" where MASK has bits. */
json_t *out_read_json(const uint8_t *buf, const uint8_t *mask, size_t n);
/* Print OBJ on one line to stdout and release it. */
void out_print_json(json_t *obj);
/* Whether the command line ARGV (a command's arguments) asks for --json,
 * wherever it stands: a usage error found before the parser reaches
 * --json is still reported as the JSON object. VALUED (NULL-terminated)
 * names the options that take a value, which is skipped (`--context
 * --json` names a file); everything after "--" is an operand. */
bool out_argv_json(int argc, char **argv, const char *const *valued);
/* A usage or input error (exit status 2; contract: "--json prints exactly
 * one JSON object"): "PREFIX: MESSAGE" on stderr and, with JSON, the
 * failure object (class "usage", offset and op null) on stdout. Returns 2. */
int out_usage(bool json, const char *prefix, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* "0102ff": lowercase hex of N bytes into a malloc'ed string. */
char *out_hex(const uint8_t *b, size_t n);

/* Human forms. */
void out_human_result(FILE *f, const cli_ctx *c, const dwexpr_result *r);
void out_human_error(FILE *f, const cli_ctx *c, const dwexpr_error *e);
void out_human_read(FILE *f, const uint8_t *buf, const uint8_t *mask, size_t n, uint64_t bits);
/* The simulated target's state (cli_ctx_state_json) as lines. */
void out_human_state(FILE *f, const cli_ctx *c, const json_t *state);

/* Contract name of a DW_ATE_* encoding ("generic", "signed", ...). */
const char *out_encoding_name(unsigned ate, char *buf, size_t cap);

#endif
