/* examples/dwexpr/cmd_spirv.c: `dwexpr spirv MODULE.spv`: every
 * DebugValue / DebugDeclare of a SPIR-V module with its variable name, its
 * DebugExpression, the DWARF it lowers to and, when the initial stack
 * entry is known (an OpConstant value, or --bind), its evaluation. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_frontends.h"
#include "output.h"

static const char usage_spirv[] =
    "usage: dwexpr spirv [--json] [--context FILE] [--bind ID=V]... MODULE.spv\n"
    "\n"
    "Lists the module's DebugValue / DebugDeclare instructions: variable, operand,\n"
    "DebugExpression and the DWARF it lowers to. An entry is evaluated when its\n"
    "initial stack entry (3.6: the variable's value or address) is known: the\n"
    "operand is an OpConstant, or --bind ID=V gives it for operand <id> ID\n"
    "(V: reg:R, const:C or C, addr:A, undef). A variable described by several\n"
    "Fragment DebugValues is also shown whole: the latest value of each part\n"
    "joined into one composite (\"variables\" in JSON).\n";

#define MAX_BINDS 64

/* Read a whole file. */
static uint8_t *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0, r;
    uint8_t *b = malloc(cap);
    while (b && (r = fread(b + n, 1, cap - n, f)) > 0) {
        n += r;
        if (n == cap) {
            uint8_t *nb = realloc(b, cap * 2);
            if (!nb) {
                free(b);
                b = NULL;
                break;
            }
            b = nb;
            cap *= 2;
        }
    }
    fclose(f);
    *len = n;
    return b;
}

/* Evaluate entry E lowered as L: the result (or error) into OBJ / on stdout. */
static int eval_entry(cli_ctx *c, const dwexpr_lowered *l, json_t *obj)
{
    dwexpr_ctx *ctx = NULL;
    dwexpr_result res;
    dwexpr_status s = dwexpr_ctx_new(&c->limits, &ctx);
    if (s == DWEXPR_OK) {
        dwexpr_eval_params p = c->params;
        if (!c->result_given)
            p.result_kind = DWEXPR_RESULT_LOCATION;
        s = dwexpr_lowered_eval(ctx, l, &c->target, c, &p, &res);
    }
    if (s == DWEXPR_OK) {
        if (obj)
            json_object_set_new(obj, "result", out_result_json(c, &res));
        else {
            fputs("  result: ", stdout);
            out_human_result(stdout, c, &res);
        }
    } else {
        dwexpr_error e;
        if (ctx)
            e = *dwexpr_ctx_error(ctx);
        else {
            memset(&e, 0, sizeof e);
            e.status = s;
            e.offset = -1;
        }
        if (obj)
            json_object_set_new(obj, "error", out_error_from(c, &e));
        else {
            fputs("  ", stdout);
            out_human_error(stdout, c, &e);
        }
    }
    dwexpr_ctx_free(ctx);
    return s == DWEXPR_OK ? 0 : 1;
}

/* Whether entry E describes a fragment (its last operation is Fragment). */
static bool is_fragment(const dwexpr_spirv_entry *e, uint64_t *off, uint64_t *bits)
{
    if (!e->nops || e->ops[e->nops - 1].code != DWEXPR_SPIRV_OP_Fragment)
        return false;
    *off = e->ops[e->nops - 1].operand[0];
    *bits = e->ops[e->nops - 1].operand[1];
    return true;
}

/* Variables described by fragments (3.6 Fragment: "the offset operand
 * defines location within the source variable"): for each variable with
 * bound fragment DebugValues, the latest one of each part (a later
 * fragment replaces the earlier ones it overlaps) joined into one
 * composite, lowered and evaluated. Only when there are two parts or
 * more. Returns 1 if an evaluation failed. */
static int variables(cli_ctx *c, const dwexpr_spirv_module *m, const dwexpr_spirv_record *recs,
                     const bool *bounds, json_t *out)
{
    size_t n = dwexpr_spirv_module_count(m);
    int rc = 0;
    dwexpr_spirv_record *pick = calloc(n ? n : 1, sizeof *pick);
    size_t *ids = calloc(n ? n : 1, sizeof *ids);
    bool *done = calloc(n ? n : 1, sizeof *done);
    if (!pick || !ids || !done)
        goto out;
    for (size_t i = 0; i < n; i++) {
        const dwexpr_spirv_entry *e = dwexpr_spirv_module_entry(m, i);
        uint64_t off = 0, bits = 0;
        if (done[i] || e->is_declare || !is_fragment(e, &off, &bits))
            continue;
        /* the variable's fragment entries, newest first, none overlapping a newer one */
        size_t k = 0;
        bool all_bound = true;
        for (size_t j = n; j-- > i;) {
            const dwexpr_spirv_entry *f = dwexpr_spirv_module_entry(m, j);
            uint64_t fo = 0, fb = 0;
            if (f->variable_id != e->variable_id || f->is_declare || !is_fragment(f, &fo, &fb))
                continue;
            done[j] = true;
            bool hidden = false;
            for (size_t q = 0; q < k; q++) {
                const dwexpr_spirv_entry *g = dwexpr_spirv_module_entry(m, ids[q]);
                uint64_t go = 0, gb = 0;
                is_fragment(g, &go, &gb);
                hidden |= fo < go + gb && go < fo + fb;
            }
            if (hidden)
                continue;
            all_bound &= bounds[j];
            pick[k] = recs[j];
            ids[k++] = j;
        }
        if (k < 2 || !all_bound)
            continue;
        dwexpr_lowered *l = NULL;
        dwexpr_error err;
        json_t *o = NULL, *from = NULL;
        if (out) {
            from = json_array();
            for (size_t q = k; q-- > 0;)
                json_array_append_new(from, json_integer(dwexpr_spirv_module_entry(m, ids[q])->id));
            o = json_pack("{s:s,s:i,s:o}", "variable", e->name, "variable_id",
                          (json_int_t)e->variable_id, "entries", from);
            json_array_append_new(out, o);
        } else {
            printf("variable %s (%%%" PRIu32 "): %zu fragments joined:", e->name, e->variable_id, k);
            for (size_t q = k; q-- > 0;)
                printf(" %%%" PRIu32, dwexpr_spirv_module_entry(m, ids[q])->id);
            putchar('\n');
        }
        if (dwexpr_spirv_lower(pick, k, &c->unit, &l, &err) != DWEXPR_OK) {
            if (o)
                json_object_set_new(o, "error", out_error_from(c, &err));
            else
                printf("  cannot lower: %s\n", err.message);
            rc = 1;
            continue;
        }
        if (o)
            json_object_set_new(o, "lowered", cli_fe_lowered_json(l, c));
        else
            cli_fe_lowered_print(stdout, l, c, "  ");
        rc |= eval_entry(c, l, o);
        dwexpr_lowered_free(l);
    }
out:
    free(pick);
    free(ids);
    free(done);
    return rc;
}

int cmd_spirv(int argc, char **argv)
{
    static const char *const valued[] = {"--context", "--bind", NULL};
    /* usage errors print the JSON failure object too with --json, wherever
     * it stands (contract: "--json prints exactly one JSON object") */
    bool json = out_argv_json(argc, argv, valued);
    const char *context = NULL, *path = NULL;
    uint32_t bind_id[MAX_BINDS];
    dwexpr_diarg bind[MAX_BINDS];
    size_t nbinds = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(usage_spirv, stdout);
            return 0;
        } else if (strcmp(a, "--json") == 0) {
            json = true;
        } else if ((strcmp(a, "--context") == 0 || strcmp(a, "--bind") == 0) && i + 1 >= argc) {
            return out_usage(json, "dwexpr", "spirv: option %s needs a value", a);
        } else if (strcmp(a, "--context") == 0) {
            context = argv[++i];
        } else if (strcmp(a, "--bind") == 0) {
            const char *v = argv[++i];
            char *end;
            unsigned long id = strtoul(v[0] == '%' ? v + 1 : v, &end, 10);
            if (nbinds == MAX_BINDS)
                return out_usage(json, "dwexpr", "spirv: at most %d --bind", MAX_BINDS);
            if (*end != '=' || id > UINT32_MAX ||
                dwexpr_diarg_parse(end + 1, &bind[nbinds]) != DWEXPR_OK)
                return out_usage(json, "dwexpr",
                                 "--bind %s: expected ID=V (V: reg:R, const:C, addr:A, undef)", v);
            bind_id[nbinds++] = (uint32_t)id;
        } else if (a[0] == '-' && a[1]) {
            out_usage(json, "dwexpr", "spirv: unknown option %s", a);
            fputs(usage_spirv, stderr);
            return 2;
        } else if (!path) {
            path = a;
        } else {
            return out_usage(json, "dwexpr", "spirv: one module only (%s and %s)", path, a);
        }
    }
    if (!path) {
        out_usage(json, "dwexpr", "spirv: no module given");
        fputs(usage_spirv, stderr);
        return 2;
    }
    size_t len = 0;
    uint8_t *bytes = read_file(path, &len);
    if (!bytes)
        return out_usage(json, "dwexpr", "cannot read %s", path);
    cli_ctx c;
    cli_overrides ov;
    memset(&ov, 0, sizeof ov);
    ov.encoding = -1;
    if (cli_ctx_load(&c, context, &ov)) {
        out_usage(json, "dwexpr", "%s", c.err);
        cli_ctx_free(&c);
        free(bytes);
        return 2;
    }
    dwexpr_spirv_module *m = NULL;
    dwexpr_error e;
    int rc = 0;
    if (dwexpr_spirv_module_read(bytes, len, &m, &e) != DWEXPR_OK) {
        if (json)
            out_print_json(json_pack("{s:b,s:o}", "ok", 0, "error", out_error_from(&c, &e)));
        else
            fprintf(stderr, "dwexpr: %s: %s (byte %" PRId64 ")\n", path, e.message, e.offset);
        rc = 1;
        goto done;
    }
    json_t *list = json ? json_array() : NULL;
    size_t count = dwexpr_spirv_module_count(m);
    dwexpr_spirv_record *recs = calloc(count ? count : 1, sizeof *recs);
    bool *bounds = calloc(count ? count : 1, sizeof *bounds);
    if (!recs || !bounds) {
        free(recs);
        free(bounds);
        json_decref(list);
        rc = out_usage(json, "dwexpr", "out of memory");
        goto done;
    }
    const char *setname = dwexpr_spirv_set_name(dwexpr_spirv_module_set(m));
    if (!json)
        printf("%s: %zu debug expression%s (%s)\n", path, dwexpr_spirv_module_count(m),
               dwexpr_spirv_module_count(m) == 1 ? "" : "s", setname ? setname : "no debug set");
    for (size_t i = 0; i < dwexpr_spirv_module_count(m); i++) {
        const dwexpr_spirv_entry *en = dwexpr_spirv_module_entry(m, i);
        char text[1024];
        dwexpr_spirv_format(en->ops, en->nops, text, sizeof text);
        dwexpr_spirv_record r = {en->ops, en->nops, en->is_declare, {0}};
        bool bound = false;
        for (size_t k = 0; k < nbinds; k++)
            if (bind_id[k] == en->operand_id) {
                r.initial = bind[k];
                bound = true;
            }
        if (!bound && en->has_const && !en->is_declare) {
            r.initial.kind = DWEXPR_DIARG_CONST;
            r.initial.value = en->const_value;
            bound = true;
        }
        json_t *o = NULL;
        if (json) {
            o = json_pack("{s:s,s:i,s:i,s:s,s:i,s:i,s:s}", "kind",
                          en->is_declare ? "declare" : "value", "id", (json_int_t)en->id, "word",
                          (json_int_t)en->word, "variable", en->name, "variable_id",
                          (json_int_t)en->variable_id, "operand", (json_int_t)en->operand_id,
                          "expression", text);
            if (en->operand_name)
                json_object_set_new(o, "operand_name", json_string(en->operand_name));
            if (en->has_const)
                json_object_set_new(o, "operand_value", json_integer((json_int_t)en->const_value));
            json_array_append_new(list, o);
        } else {
            printf("%%%" PRIu32 " %s %s (%%%" PRIu32 "), operand %%%" PRIu32 "%s%s%s: %s\n",
                   en->id, en->is_declare ? "DebugDeclare" : "DebugValue", en->name,
                   en->variable_id, en->operand_id, en->operand_name ? " (" : "",
                   en->operand_name ? en->operand_name : "", en->operand_name ? ")" : "", text);
        }
        recs[i] = r;
        bounds[i] = bound;
        /* without a binding the initial entry is a placeholder register 0
         * so the lowering still shows; nothing is evaluated */
        if (!bound) {
            r.initial.kind = DWEXPR_DIARG_REG;
            r.initial.value = 0;
        }
        dwexpr_lowered *l = NULL;
        if (dwexpr_spirv_lower(&r, 1, &c.unit, &l, &e) != DWEXPR_OK) {
            if (o)
                json_object_set_new(o, "error", out_error_from(&c, &e));
            else
                printf("  cannot lower: %s\n", e.message);
            rc = 1;
            continue;
        }
        if (o) {
            json_object_set_new(o, "lowered", cli_fe_lowered_json(l, &c));
            json_object_set_new(o, "bound", json_boolean(bound));
        } else {
            cli_fe_lowered_print(stdout, l, &c, "  ");
        }
        if (bound)
            rc |= eval_entry(&c, l, o);
        else if (!o)
            printf("  not evaluated: the %s of %%%" PRIu32 " is unknown (--bind %" PRIu32
                   "=...); lowered with register 0 for it\n",
                   en->is_declare ? "address" : "value", en->operand_id, en->operand_id);
        dwexpr_lowered_free(l);
    }
    json_t *vars = json ? json_array() : NULL;
    rc |= variables(&c, m, recs, bounds, vars);
    free(recs);
    free(bounds);
    if (json)
        out_print_json(json_pack("{s:b,s:s?,s:o,s:o}", "ok", rc == 0, "instruction_set", setname,
                                 "entries", list, "variables", vars));
done:
    dwexpr_spirv_module_free(m);
    cli_ctx_free(&c);
    free(bytes);
    return rc;
}
