/* examples/dwexpr/cli_frontends.c: `dwexpr eval --diexpr / --spirv`: the
 * expressions are parsed and lowered by the library's front ends
 * (dwexpr/diexpr.h, dwexpr/spirv.h) and the lowered DWARF is evaluated like
 * any other expression; the output adds the source text and the lowering. */
#include "cli_frontends.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"


int cli_fe_option(int argc, char **argv, int *i, cli_fe_opts *fe, char *msg, size_t cap)
{
    const char *v = NULL, *a = argv[*i];
    int r;
    if (strcmp(a, "--declare") == 0) {
        fe->declare = true;
        return 1;
    }
    if ((r = cli_opt_value(argc, argv, i, "--spirv-set", &v)) != 0) {
        /* the instruction set whose operation table the text uses */
        for (int k = 1; r > 0 && dwexpr_spirv_set_name((dwexpr_spirv_set)k); k++)
            if (strcmp(v, dwexpr_spirv_set_name((dwexpr_spirv_set)k)) == 0) {
                fe->spirv_set = k;
                return 1;
            }
        snprintf(msg, cap, "--spirv-set: DebugInfo, OpenCL.DebugInfo.100 or "
                           "NonSemantic.Shader.DebugInfo.100");
        return -1;
    }
    int kind = 0;
    if ((r = cli_opt_value(argc, argv, i, "--diexpr", &v)) != 0)
        kind = 1;
    else if ((r = cli_opt_value(argc, argv, i, "--spirv", &v)) != 0)
        kind = 2;
    if (kind) {
        if (r < 0) {
            snprintf(msg, cap, "option %s needs a value", a);
            return -1;
        }
        if (fe->kind && fe->kind != kind) {
            snprintf(msg, cap, "--diexpr and --spirv cannot be mixed");
            return -1;
        }
        if (fe->n == CLI_FE_MAX_EXPRS) {
            snprintf(msg, cap, "at most %d expressions", CLI_FE_MAX_EXPRS);
            return -1;
        }
        fe->kind = kind;
        cli_fe_expr *e = &fe->exprs[fe->n];
        *e = fe->n == 0 ? fe->pending : (cli_fe_expr){0};
        e->text = v;
        fe->n++;
        return 1;
    }
    if ((r = cli_opt_value(argc, argv, i, "--arg", &v)) == 0)
        return 0;
    if (r < 0) {
        snprintf(msg, cap, "option --arg needs a value (N=VALUE)");
        return -1;
    }
    /* --arg N=VALUE: location operand N of the latest expression */
    char *end;
    unsigned long n = strtoul(v, &end, 10);
    dwexpr_diarg arg;
    if (end == v || *end != '=' || n >= CLI_FE_MAX_ARGS ||
        dwexpr_diarg_parse(end + 1, &arg) != DWEXPR_OK) {
        snprintf(msg, cap, "--arg %.200s: expected N=VALUE with N < %d and VALUE one of "
                           "reg:R, const:C (or a bare number), addr:A, undef", v, CLI_FE_MAX_ARGS);
        return -1;
    }
    cli_fe_expr *e = fe->n ? &fe->exprs[fe->n - 1] : &fe->pending;
    e->args[n] = arg;
    e->given[n] = true;
    if (n + 1 > e->nargs)
        e->nargs = n + 1;
    return 1;
}

/* ---- synthesized DIEs in the CLI's target ---- */

static const dwexpr_lowered *g_low;
static dwexpr_target g_inner;

static dwexpr_status fe_base_type(void *user, const dwexpr_unit *u, uint64_t die, dwexpr_type *out)
{
    for (size_t i = 0; i < dwexpr_lowered_type_count(g_low); i++)
        if (dwexpr_lowered_type(g_low, i)->die == die) {
            *out = *dwexpr_lowered_type(g_low, i);
            return DWEXPR_OK;
        }
    return g_inner.base_type ? g_inner.base_type(user, u, die, out) : DWEXPR_E_NOT_FOUND;
}

static dwexpr_status fe_die(void *user, const dwexpr_unit *u, uint64_t off, bool section_relative,
                            dwexpr_die *out)
{
    for (size_t i = 0; i < dwexpr_lowered_die_count(g_low); i++) {
        uint64_t die;
        const uint8_t *b;
        size_t n;
        dwexpr_lowered_die(g_low, i, &die, &b, &n);
        if (die == off) {
            memset(out, 0, sizeof *out);
            out->kind = DWEXPR_DIE_EXPRLOC;
            out->unit = *dwexpr_lowered_unit(g_low);
            out->expr = b;
            out->expr_len = n;
            return DWEXPR_OK;
        }
    }
    return g_inner.die ? g_inner.die(user, u, off, section_relative, out) : DWEXPR_E_NOT_FOUND;
}

/* ---- showing a lowering ---- */

/* Disassembly lines of BYTES in C's unit into the JSON array ARR. */
static void disasm_lines(const uint8_t *bytes, size_t len, const dwexpr_unit *u, const cli_ctx *c,
                         json_t *arr, FILE *f, const char *indent)
{
    size_t need = 0;
    dwexpr_error e;
    dwexpr_disasm(bytes, len, u, c->arch, NULL, 0, &need, &e);
    char *text = malloc(need + 1);
    if (!text)
        return;
    dwexpr_disasm(bytes, len, u, c->arch, text, need + 1, &need, &e);
    for (char *line = text; *line;) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = 0;
        if (arr)
            json_array_append_new(arr, json_string(line));
        if (f)
            fprintf(f, "%s%s\n", indent, line);
        if (!nl)
            break;
        line = nl + 1;
    }
    free(text);
}

json_t *cli_fe_lowered_json(const dwexpr_lowered *l, const cli_ctx *c)
{
    size_t len;
    const uint8_t *b = dwexpr_lowered_bytes(l, &len);
    char *hex = out_hex(b, len);
    json_t *prog = json_array();
    disasm_lines(b, len, dwexpr_lowered_unit(l), c, prog, NULL, "");
    json_t *o = json_pack("{s:s,s:o}", "hex", hex, "program", prog);
    free(hex);
    if (dwexpr_lowered_type_count(l)) {
        json_t *t = json_object();
        for (size_t i = 0; i < dwexpr_lowered_type_count(l); i++) {
            const dwexpr_type *ty = dwexpr_lowered_type(l, i);
            char key[24], eb[32];
            snprintf(key, sizeof key, "0x%" PRIx64, ty->die);
            json_object_set_new(t, key, json_pack("{s:i,s:s}", "bits", (json_int_t)ty->bits,
                                                  "encoding",
                                                  out_encoding_name(ty->encoding, eb, sizeof eb)));
        }
        json_object_set_new(o, "base_types", t);
    }
    if (dwexpr_lowered_die_count(l)) {
        json_t *d = json_object();
        for (size_t i = 0; i < dwexpr_lowered_die_count(l); i++) {
            uint64_t die;
            const uint8_t *db;
            size_t dn;
            char key[24];
            dwexpr_lowered_die(l, i, &die, &db, &dn);
            snprintf(key, sizeof key, "0x%" PRIx64, die);
            char *dh = out_hex(db, dn);
            json_t *lines = json_array();
            disasm_lines(db, dn, dwexpr_lowered_unit(l), c, lines, NULL, "");
            json_object_set_new(d, key, json_pack("{s:s,s:o}", "location", dh, "program", lines));
            free(dh);
        }
        json_object_set_new(o, "dies", d);
    }
    uint64_t tag;
    if (dwexpr_lowered_tag_offset(l, &tag))
        json_object_set_new(o, "tag_offset", json_integer((json_int_t)tag));
    return o;
}

void cli_fe_lowered_print(FILE *f, const dwexpr_lowered *l, const cli_ctx *c, const char *indent)
{
    size_t len;
    const uint8_t *b = dwexpr_lowered_bytes(l, &len);
    fprintf(f, "%slowered to DWARF (%zu bytes):", indent, len);
    for (size_t i = 0; i < len; i++)
        fprintf(f, " %02x", b[i]);
    fputc('\n', f);
    char ind2[64];
    snprintf(ind2, sizeof ind2, "%s  ", indent);
    disasm_lines(b, len, dwexpr_lowered_unit(l), c, NULL, f, ind2);
    for (size_t i = 0; i < dwexpr_lowered_type_count(l); i++) {
        const dwexpr_type *ty = dwexpr_lowered_type(l, i);
        char eb[32];
        fprintf(f, "%sbase type 0x%" PRIx64 ": %u bits, %s (synthesized)\n", indent, ty->die,
                (unsigned)ty->bits, out_encoding_name(ty->encoding, eb, sizeof eb));
    }
    for (size_t i = 0; i < dwexpr_lowered_die_count(l); i++) {
        uint64_t die;
        const uint8_t *db;
        size_t dn;
        dwexpr_lowered_die(l, i, &die, &db, &dn);
        fprintf(f, "%sartificial variable 0x%" PRIx64 " (synthesized), location:\n", indent, die);
        disasm_lines(db, dn, dwexpr_lowered_unit(l), c, NULL, f, ind2);
    }
    uint64_t tag;
    if (dwexpr_lowered_tag_offset(l, &tag))
        fprintf(f, "%stag offset %" PRIu64 " (DW_AT_LLVM_tag_offset; the location is untagged)\n",
                indent, tag);
}

/* ---- eval --diexpr / --spirv ---- */

int cli_fe_bytes(cli_fe_opts *fe, cli_ctx *c, bool json, uint8_t **bytes, size_t *len,
                 int64_t *off, char *msg, size_t cap)
{
    dwexpr_error e;
    dwexpr_status s = DWEXPR_OK;
    int rc = -1;
    dwexpr_diexpr *dx[CLI_FE_MAX_EXPRS] = {0};
    dwexpr_dbg_record drec[CLI_FE_MAX_EXPRS];
    dwexpr_spirv_record srec[CLI_FE_MAX_EXPRS];
    dwexpr_spirv_op sops[CLI_FE_MAX_EXPRS][64];
    json_t *texts = json_array();

    *off = -1;
    memset(&e, 0, sizeof e);
    for (size_t k = 0; k < fe->n; k++) {
        cli_fe_expr *x = &fe->exprs[k];
        /* no --arg: the context's "args" */
        for (size_t a = 0; x->nargs == 0 && a < c->nargs; a++) {
            if (dwexpr_diarg_parse(c->args[a], &x->args[a]) != DWEXPR_OK) {
                snprintf(msg, cap, "context field args[%zu]: \"%s\" is not reg:R, const:C, "
                                   "addr:A or undef", a, c->args[a]);
                goto out;
            }
            x->given[a] = true;
            if (a + 1 == c->nargs)
                x->nargs = c->nargs;
        }
        for (size_t a = 0; a < x->nargs; a++)
            if (!x->given[a]) {
                snprintf(msg, cap, "expression %zu: location operand %zu is not given "
                                   "(--arg %zu=...)", k, a, a);
                goto out;
            }
        if (fe->kind == 1) {
            s = dwexpr_diexpr_parse(x->text, &dx[k], &e);
            if (s != DWEXPR_OK) {
                snprintf(msg, cap, "--diexpr: %s (at character %" PRId64 " of \"%s\")", e.message,
                         e.offset, x->text);
                *off = e.offset;
                goto out;
            }
            char canon[1024];
            dwexpr_diexpr_format(dx[k], canon, sizeof canon);
            json_array_append_new(texts, json_string(canon));
            drec[k] = (dwexpr_dbg_record){dx[k], fe->declare ? DWEXPR_DBG_DECLARE : DWEXPR_DBG_VALUE,
                                          x->args, x->nargs};
        } else {
            size_t n = 0;
            s = dwexpr_spirv_parse(x->text, fe->spirv_set ? (dwexpr_spirv_set)fe->spirv_set
                                                          : DWEXPR_SPIRV_SET_OPENCL_100,
                                   sops[k], 64, &n, &e);
            if (s != DWEXPR_OK) {
                snprintf(msg, cap, "--spirv: %s (at character %" PRId64 " of \"%s\")", e.message,
                         e.offset, x->text);
                *off = e.offset;
                goto out;
            }
            if (x->nargs != 1) {
                snprintf(msg, cap, "--spirv: the initial stack entry (the variable's %s) is "
                                   "needed: --arg 0=VALUE, and only operand 0",
                         fe->declare ? "address" : "value");
                goto out;
            }
            char canon[1024];
            dwexpr_spirv_format(sops[k], n, canon, sizeof canon);
            json_array_append_new(texts, json_string(canon));
            srec[k] = (dwexpr_spirv_record){sops[k], n, fe->declare, x->args[0]};
        }
    }
    s = fe->kind == 1 ? dwexpr_diexpr_lower(drec, fe->n, &c->unit, &fe->low, &e)
                      : dwexpr_spirv_lower(srec, fe->n, &c->unit, &fe->low, &e);
    if (s != DWEXPR_OK) {
        snprintf(msg, cap, "%s: %s", fe->kind == 1 ? "--diexpr" : "--spirv", e.message);
        goto out;
    }
    size_t n;
    const uint8_t *b = dwexpr_lowered_bytes(fe->low, &n);
    *bytes = malloc(n ? n : 1);
    if (!*bytes) {
        snprintf(msg, cap, "out of memory");
        goto out;
    }
    memcpy(*bytes, b, n);
    *len = n;
    /* the lowering's synthesized base types and DIEs come from the target */
    g_low = fe->low;
    g_inner = c->target;
    c->target.base_type = fe_base_type;
    c->target.die = fe_die;
    /* a DIExpression / DebugExpression describes where the variable is */
    if (!c->result_given)
        c->params.result_kind = DWEXPR_RESULT_LOCATION;
    if (json) {
        fe->extra = json_pack("{s:s,s:s,s:O,s:o}", "frontend", fe->kind == 1 ? "diexpr" : "spirv",
                              "record", fe->declare ? "declare" : "value", "expressions", texts,
                              "lowered", cli_fe_lowered_json(fe->low, c));
    } else {
        for (size_t k = 0; k < json_array_size(texts); k++)
            printf("%s: %s\n", fe->kind == 1 ? "DIExpression" : "DebugExpression",
                   json_string_value(json_array_get(texts, k)));
        cli_fe_lowered_print(stdout, fe->low, c, "");
    }
    rc = 0;
out:
    json_decref(texts);
    for (size_t k = 0; k < fe->n; k++)
        dwexpr_diexpr_free(dx[k]);
    return rc;
}

void cli_fe_free(cli_fe_opts *fe)
{
    dwexpr_lowered_free(fe->low);
    json_decref(fe->extra);
    fe->low = NULL;
    fe->extra = NULL;
}
