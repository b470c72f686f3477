/* examples/dwexpr/cmd_locs.c: `dwexpr locs BINARY`: every variable and
 * parameter of a binary (through the libdwarf adapter) with its scope,
 * type and location expressions, lists with their ranges; with --pc and a
 * context file (the contract's simulated target) each variable in scope
 * at that pc evaluated and read, as the contract's `dwexpr vars` entries. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dwexpr/adapter_libdwarf.h>

#include "cmd_locs.h"
#include "context.h"
#include "funcname.h"
#include "output.h"

enum { LOCS_OK = 0, LOCS_ERROR = 1, LOCS_USAGE = 2 };

/* DW_TAG_* of the pointer-like types (DWARF 5 Table 7.3). */
enum { TAG_pointer = 0x0f, TAG_reference = 0x10, TAG_rvalue_reference = 0x42 };
/* ... and of the aggregates whose members are listed. */
enum { TAG_array = 0x01, TAG_class = 0x02, TAG_structure = 0x13, TAG_union = 0x17,
       TAG_member = 0x0d, TAG_subrange = 0x21, TAG_string = 0x12, TAG_variant = 0x19,
       TAG_variant_part = 0x33, TAG_inheritance = 0x1c };
/* DW_AT_* read for members. */
enum { AT_data_bit_offset = 0x6b, AT_discr = 0x15,
       AT_discr_value = 0x16, AT_discr_list = 0x3d, AT_abstract_origin = 0x31 };
/* Bounds of the member listing: nesting depth, elements per array. */
enum { MEMBERS_DEPTH = 4, MEMBERS_ELEMENTS = 64 };

static const char usage_locs[] =
    "usage: dwexpr locs BINARY [OPTIONS]\n"
    "\n"
    "Lists every function and inlined call of BINARY with its address ranges,\n"
    "and every variable and parameter (its function, lexical block\n"
    "depth, inlined-call chain, type and bit size) with its location expression\n"
    "or location list (entries with their [low, high) ranges), disassembled.\n"
    "With --pc, only the variables in scope at that pc, evaluated against the\n"
    "context file's simulated target and read (contract \"dwexpr vars\" entries),\n"
    "and the globals of the unit holding the pc and of the units its scopes'\n"
    "abstract origins are in (gcc -flto: the compile-time units).\n"
    "\n"
    "options:\n"
    "  --json                one JSON object on stdout\n"
    "  --pc ADDR             run-time program location (default: the context's \"pc\")\n"
    "  --caller              ADDR is a return address (a caller frame): scopes and\n"
    "                        location lists are matched at ADDR - 1\n"
    "  --context FILE        simulated target: registers, memory, frames, tls_base, ...\n"
    "  --load-bias N         run-time minus link-time address (default: the context's\n"
    "                        \"load_bias\", else 0)\n"
    "  --entry-values register|call-site|register-only\n"
    "                        how DW_OP_entry_value is resolved (default register:\n"
    "                        the caller's register if the target can recover it,\n"
    "                        else the call-site parameter)\n"
    "  --no-dwo              do not read split DWARF .dwo files\n"
    "  --lane N              the lane in focus (a wavefront's: DW_OP_LLVM_push_lane,\n"
    "                        per-lane address spaces); default the context's \"lane\"\n"
    "  --all-lanes           also read every variable in each lane of the context's\n"
    "                        \"lanes\" (a \"lanes\" array of hex strings per variable)\n"
    "\n"
    "exit status: 0 ok, 1 some location could not be decoded or read, 2 bad usage\n";

typedef struct locs_opts {
    const char *binary;
    const char *context;
    bool json, has_pc, caller, no_dwo, has_bias, help, has_lane, all_lanes;
    uint64_t pc, bias, lane;
    dwexpr_libdwarf_entry_policy policy;
} locs_opts;

/* Everything one run needs: the evaluation state (cmd_locs.h). */
typedef locs_eval locs_run;

int locs_entry_policy(const char *name, dwexpr_libdwarf_entry_policy *out)
{
    static const struct {
        const char *name;
        dwexpr_libdwarf_entry_policy p;
    } tab[] = {{"register", DWEXPR_LIBDWARF_EV_REGISTER_FIRST},
               {"call-site", DWEXPR_LIBDWARF_EV_CALL_SITE_FIRST},
               {"register-only", DWEXPR_LIBDWARF_EV_REGISTER_ONLY}};
    for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
        if (strcmp(name, tab[i].name) == 0) {
            *out = tab[i].p;
            return 0;
        }
    return -1;
}

/* Whether this run's output is JSON: usage and input errors are then the
 * contract's failure object on stdout too, wherever --json stands. */
static bool usage_json;

/* "dwexpr locs: MESSAGE ARG" on stderr (and the JSON failure object);
 * returns LOCS_USAGE. */
static int usage(const char *msg, const char *arg)
{
    return out_usage(usage_json, "dwexpr locs", "%s%s%s", msg, arg ? " " : "", arg ? arg : "");
}

/* Parse the command line. Returns 0 or an exit status. */
static int parse(int argc, char **argv, locs_opts *o)
{
    static const char *const valued[] = {"--lane", "--pc", "--load-bias", "--context",
                                         "--entry-values", NULL};
    memset(o, 0, sizeof *o);
    usage_json = out_argv_json(argc, argv, valued);
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            o->help = true;
        } else if (strcmp(a, "--json") == 0) {
            o->json = usage_json = true;
        } else if (strcmp(a, "--caller") == 0) {
            o->caller = true;
        } else if (strcmp(a, "--no-dwo") == 0) {
            o->no_dwo = true;
        } else if (strcmp(a, "--all-lanes") == 0) {
            o->all_lanes = true;
        } else if (strcmp(a, "--lane") == 0) {
            if (!v || cli_parse_u64(v, &o->lane) || o->lane > UINT32_MAX)
                return usage("expected a lane number after", a);
            o->has_lane = true;
            i++;
        } else if (strcmp(a, "--pc") == 0 || strcmp(a, "--load-bias") == 0) {
            uint64_t n;
            if (!v || cli_parse_u64(v, &n))
                return usage("expected a number after", a);
            if (a[2] == 'p') {
                o->pc = n;
                o->has_pc = true;
            } else {
                o->bias = n;
                o->has_bias = true;
            }
            i++;
        } else if (strcmp(a, "--context") == 0) {
            if (!v)
                return usage("expected a file after", a);
            o->context = v;
            i++;
        } else if (strcmp(a, "--entry-values") == 0) {
            if (!v)
                return usage("expected register|call-site|register-only after", a);
            if (locs_entry_policy(v, &o->policy) != 0)
                return usage("unknown --entry-values", v);
            i++;
        } else if (a[0] == '-' && a[1]) {
            return usage("unknown option", a);
        } else if (!o->binary) {
            o->binary = a;
        } else {
            return usage("more than one binary:", a);
        }
    }
    return 0;
}

/* "0x..." as a JSON string. */
static json_t *hexnum(uint64_t v)
{
    char buf[24];
    snprintf(buf, sizeof buf, "0x%" PRIx64, v);
    return json_string(buf);
}

/* The name of a DW_LLE_* kind as encoded (adapter raw entries). */
static const char *lle_name(const dwexpr_libdwarf_attr *a, uint16_t kind)
{
    static const char *const v5[] = {"DW_LLE_end_of_list", "DW_LLE_base_addressx",
                                     "DW_LLE_startx_endx", "DW_LLE_startx_length",
                                     "DW_LLE_offset_pair", "DW_LLE_default_location",
                                     "DW_LLE_base_address", "DW_LLE_start_end",
                                     "DW_LLE_start_length"};
    static const char *const gnu[] = {"DW_LLE_GNU_end_of_list_entry",
                                      "DW_LLE_GNU_base_address_selection_entry",
                                      "DW_LLE_GNU_start_end_entry",
                                      "DW_LLE_GNU_start_length_entry"};
    if (kind == DWEXPR_LIBDWARF_LLE_PAIR)
        return "pair";
    if (a->section && strcmp(a->section, ".debug_loc.dwo") == 0)
        return kind < 4 ? gnu[kind] : "?";
    return kind < 9 ? v5[kind] : "?";
}

/* Disassembly of one expression: {"hex", "ops": [...], "error"?}.
 * Sets *BAD when it does not decode. */
static json_t *expr_json(locs_run *r, const uint8_t *p, size_t n, const dwexpr_unit *u, bool *bad)
{
    json_t *o = json_object();
    char *h = out_hex(p, n);
    json_object_set_new(o, "hex", json_string(h));
    free(h);
    size_t need = 0, cap = 64 * n + 256;
    char *text = malloc(cap);
    dwexpr_error e;
    memset(&e, 0, sizeof e);
    dwexpr_status st = text ? dwexpr_disasm(p, n, u, r->arch, text, cap, &need, &e)
                            : DWEXPR_E_NOMEM;
    if (st == DWEXPR_E_NOSPACE) {
        free(text);
        cap = need + 1;
        text = malloc(cap);
        memset(&e, 0, sizeof e);
        st = text ? dwexpr_disasm(p, n, u, r->arch, text, cap, &need, &e) : DWEXPR_E_NOMEM;
    }
    json_t *ops = json_array();
    if (text) {
        char *save = NULL;
        for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
            json_array_append_new(ops, json_string(line));
    }
    free(text);
    json_object_set_new(o, "ops", ops);
    if (st == DWEXPR_OK) {
        /* the full check: branch targets, nested blocks */
        dwexpr_program *prog = NULL;
        st = dwexpr_program_decode(p, n, u, &prog, &e);
        dwexpr_program_free(prog);
    }
    if (st != DWEXPR_OK) {
        json_object_set_new(o, "error", out_error_from(NULL, &e));
        *bad = true;
    }
    return o;
}

/* The "location" object of a variable: its form and expression(s). */
static json_t *location_json(locs_run *r, const dwexpr_libdwarf_var *v, bool *bad)
{
    const dwexpr_libdwarf_unit *lu = dwexpr_libdwarf_unit_get(r->ld, v->unit);
    const dwexpr_unit *u = &lu->unit;
    const dwexpr_libdwarf_attr *a = &v->loc;
    json_t *o = json_object();
    switch (a->kind) {
    case DWEXPR_LIBDWARF_ATTR_EXPR:
        json_object_set_new(o, "form", json_string("exprloc"));
        json_object_set_new(o, "expr", expr_json(r, a->data, a->len, u, bad));
        break;
    case DWEXPR_LIBDWARF_ATTR_LIST: {
        json_object_set_new(o, "form", json_string("loclist"));
        json_object_set_new(o, "section", json_string(a->section));
        json_object_set_new(o, "offset", hexnum(a->list_offset));
        json_t *ents = json_array();
        for (size_t i = 0; i < a->count; i++) {
            const dwexpr_loclist_entry *e = &a->entries[i];
            json_t *je = json_object();
            json_object_set_new(je, "kind", json_string(lle_name(a, a->raw[i].kind)));
            json_object_set_new(je, "entry_offset", hexnum(a->raw[i].offset));
            json_object_set_new(je, "raw", json_pack("[o,o]", hexnum(a->raw[i].op1),
                                                     hexnum(a->raw[i].op2)));
            if (e->is_default) {
                json_object_set_new(je, "default", json_true());
            } else {
                json_object_set_new(je, "low", hexnum(e->low));
                json_object_set_new(je, "high", hexnum(e->high));
            }
            json_object_set_new(je, "expr", expr_json(r, e->expr, e->expr_len, u, bad));
            json_array_append_new(ents, je);
        }
        json_object_set_new(o, "entries", ents);
        break;
    }
    case DWEXPR_LIBDWARF_ATTR_CONST: {
        json_object_set_new(o, "form", json_string("const_value"));
        char *h = out_hex(a->data, a->len);
        json_object_set_new(o, "bytes", json_string(h));
        free(h);
        break;
    }
    case DWEXPR_LIBDWARF_ATTR_NONE:
        json_object_set_new(o, "form", json_string("none"));
        break;
    default:
        json_object_set_new(o, "form", json_string("error"));
        json_object_set_new(o, "error", json_string(a->section ? a->section : "unreadable"));
        *bad = true;
        break;
    }
    return o;
}

/* The inlined-call chain of scope S, innermost first (function names). */
static json_t *chain_json(const dwexpr_libdwarf_scope *s)
{
    json_t *a = json_array();
    for (; s; s = s->parent)
        if (s->kind == DWEXPR_LIBDWARF_SCOPE_FUNCTION || s->kind == DWEXPR_LIBDWARF_SCOPE_INLINED)
            json_array_append_new(a, json_string(s->name ? s->name : "?"));
    return a;
}

/* "param", "local" or "global" (contract: param|local; globals apart). */
static const char *var_kind(const dwexpr_libdwarf_var *v)
{
    if (v->is_param)
        return "param";
    return v->scope->kind == DWEXPR_LIBDWARF_SCOPE_UNIT ? "global" : "local";
}

/* The fields every listing of V has. */
static json_t *var_base_json(const dwexpr_libdwarf_var *v)
{
    const dwexpr_libdwarf_scope *fn = dwexpr_libdwarf_scope_function(v->scope);
    json_t *o = json_object();
    json_object_set_new(o, "name", json_string(v->name));
    json_object_set_new(o, "kind", json_string(var_kind(v)));
    json_object_set_new(o, "die", hexnum(v->die));
    json_object_set_new(o, "unit", json_integer((json_int_t)v->unit));
    json_object_set_new(o, "function", fn && fn->name ? json_string(fn->name) : json_null());
    json_object_set_new(o, "inline_chain", chain_json(v->scope));
    json_object_set_new(o, "decl_line", json_integer(v->decl_line));
    json_object_set_new(o, "block_depth", json_integer(v->block_depth));
    json_object_set_new(o, "type", json_string(v->type_name ? v->type_name : "?"));
    json_object_set_new(o, "bit_size", json_integer((json_int_t)v->bit_size));
    if (v->artificial)
        json_object_set_new(o, "artificial", json_true());
    return o;
}

/* One "functions" entry of the listing: function or inlined call S
 * with its ranges; NULL for any other scope (lexical blocks, units). */
static json_t *function_json(const dwexpr_libdwarf_scope *s)
{
    if (s->kind != DWEXPR_LIBDWARF_SCOPE_FUNCTION && s->kind != DWEXPR_LIBDWARF_SCOPE_INLINED)
        return NULL;
    json_t *o = json_object();
    json_object_set_new(o, "name", s->name ? json_string(s->name) : json_null());
    json_object_set_new(o, "inline", json_boolean(s->kind == DWEXPR_LIBDWARF_SCOPE_INLINED));
    json_object_set_new(o, "unit", json_integer((json_int_t)s->unit));
    json_object_set_new(o, "die", hexnum(s->die));
    const dwexpr_libdwarf_scope *outer =
        s->parent ? dwexpr_libdwarf_scope_function(s->parent) : NULL;
    json_object_set_new(o, "inlined_in",
                        s->kind == DWEXPR_LIBDWARF_SCOPE_INLINED && outer && outer->name
                            ? json_string(outer->name) : json_null());
    if (s->kind == DWEXPR_LIBDWARF_SCOPE_INLINED)
        json_object_set_new(o, "call_line", json_integer(s->call_line));
    json_t *ranges = json_array();
    for (size_t k = 0; k < s->nranges; k++) {
        json_t *pair = json_array();
        json_array_append_new(pair, hexnum(s->ranges[k].low));
        json_array_append_new(pair, hexnum(s->ranges[k].high));
        json_array_append_new(ranges, pair);
    }
    json_object_set_new(o, "ranges", ranges);
    return o;
}

/* Human form of one "functions" entry. */
static void human_function(json_t *f)
{
    json_t *name = json_object_get(f, "name");
    printf("  %s %s", json_is_true(json_object_get(f, "inline")) ? "inlined" : "function",
           json_is_string(name) ? json_string_value(name) : "?");
    size_t k;
    json_t *r;
    json_array_foreach(json_object_get(f, "ranges"), k, r)
        printf(" [%s, %s)", json_string_value(json_array_get(r, 0)),
               json_string_value(json_array_get(r, 1)));
    json_t *in = json_object_get(f, "inlined_in");
    if (json_is_string(in))
        printf(" in %s, call line %lld", json_string_value(in),
               (long long)json_integer_value(json_object_get(f, "call_line")));
    printf(" (unit %lld, die %s)\n", (long long)json_integer_value(json_object_get(f, "unit")),
           json_string_value(json_object_get(f, "die")));
}

/* The unit of LD whose .debug_info holds offset OFF (a unit of the main
 * file, not a split one: its DIEs are the .dwo's); SIZE_MAX if none. */
static size_t unit_holding(const dwexpr_libdwarf *ld, uint64_t off)
{
    size_t best = SIZE_MAX;
    uint64_t at = 0;
    for (size_t i = 0; i < dwexpr_libdwarf_unit_count(ld); i++) {
        const dwexpr_libdwarf_unit *u = dwexpr_libdwarf_unit_get(ld, i);
        if (u->split || u->offset > off || (best != SIZE_MAX && u->offset < at))
            continue;
        best = i;
        at = u->offset;
    }
    return best;
}

/* Whether the globals of UNIT are those of the code at scope S: UNIT is
 * S's own, or holds the abstract origin of S or of a scope around it
 * (DWARF 5 3.3.8.1). gcc -flto puts the code of every source file in the
 * LTO unit, whose concrete DIEs name the early-debug DIEs of each file's
 * compile-time unit (DW_AT_abstract_origin, DW_FORM_ref_addr): a global
 * LTO dropped, or a static of that file, has its only DIE there (GDB
 * finds them by name, "<optimized out>" or "Missing ELF symbol"). */
static bool unit_describes(dwexpr_libdwarf *ld, const dwexpr_libdwarf_scope *s, size_t unit)
{
    if (unit == s->unit)
        return true;
    const dwexpr_libdwarf_unit *su = dwexpr_libdwarf_unit_get(ld, s->unit);
    if (!su || su->split)
        return false; /* a split unit's references are offsets in its .dwo */
    for (; s && s->kind != DWEXPR_LIBDWARF_SCOPE_UNIT; s = s->parent) {
        dwexpr_libdwarf_attr a;
        if (dwexpr_libdwarf_attr_get(ld, s->unit, s->die, AT_abstract_origin, &a, NULL) ==
                DWEXPR_OK &&
            a.kind == DWEXPR_LIBDWARF_ATTR_REF && unit_holding(ld, a.ref) == unit)
            return true;
    }
    return false;
}

/* The units with their base types (what the base_type service answers):
 * "units" of the listing. */
static json_t *units_json(locs_run *r)
{
    json_t *a = json_array();
    for (size_t i = 0; i < dwexpr_libdwarf_unit_count(r->ld); i++) {
        const dwexpr_libdwarf_unit *u = dwexpr_libdwarf_unit_get(r->ld, i);
        json_t *o = json_object();
        json_object_set_new(o, "index", json_integer((json_int_t)i));
        json_object_set_new(o, "offset", hexnum(u->offset));
        json_object_set_new(o, "die", hexnum(u->die));
        json_object_set_new(o, "name", u->name ? json_string(u->name) : json_null());
        json_object_set_new(o, "producer", u->producer ? json_string(u->producer) : json_null());
        json_object_set_new(o, "version", json_integer(u->unit.version));
        json_object_set_new(o, "addr_size", json_integer(u->unit.addr_size));
        json_object_set_new(o, "offset_size", json_integer(u->unit.offset_size));
        json_object_set_new(o, "base_address", hexnum(u->base_address));
        json_object_set_new(o, "split", json_boolean(u->split));
        json_object_set_new(o, "dwo", u->dwo_path ? json_string(u->dwo_path) : json_null());
        if (u->dwo_missing)
            json_object_set_new(o, "dwo_missing", json_true());
        if (u->dwo_error)
            json_object_set_new(o, "dwo_error", json_string(u->dwo_error));
        const dwexpr_libdwarf_base_type *bt;
        size_t n = dwexpr_libdwarf_base_types(r->ld, i, &bt);
        json_t *ba = json_array();
        for (size_t k = 0; k < n; k++) {
            char buf[16];
            json_t *t = json_object();
            json_object_set_new(t, "die", hexnum(bt[k].die));
            json_object_set_new(t, "name", bt[k].name ? json_string(bt[k].name) : json_null());
            json_object_set_new(t, "bits", json_integer(bt[k].type.bits));
            json_object_set_new(t, "encoding",
                                json_string(out_encoding_name(bt[k].type.encoding, buf, sizeof buf)));
            json_object_set_new(t, "ate", json_integer(bt[k].type.encoding));
            if (bt[k].type.lanes > 1)
                json_object_set_new(t, "vector", json_integer(bt[k].type.lanes));
            if (bt[k].type.endian)
                json_object_set_new(t, "endian", json_integer(bt[k].type.endian));
            /* a float's format as a context file's base type gives it */
            if (bt[k].type.format == DWEXPR_FLOAT_IEEE || bt[k].type.format == DWEXPR_FLOAT_X87)
                json_object_set_new(t, "format",
                                    json_string(bt[k].type.format == DWEXPR_FLOAT_X87 ? "x87"
                                                                                      : "ieee"));
            json_array_append_new(ba, t);
        }
        json_object_set_new(o, "base_types", ba);
        json_array_append_new(a, o);
    }
    return a;
}

/* ---- the listing, streamed ----
 *
 * A listing is printed entry by entry as each is made, then freed: held
 * whole (jansson's objects), the listing of a 9 MB binary of 8,000
 * functions took 740 MB. The JSON form is exactly what json_dumps prints
 * for the whole object (out_print_json: ", " and ": " separators, keys in
 * insertion order): the members made so far, then each array's elements
 * dumped one at a time. */
typedef struct listing {
    bool json;
    bool first;                     /* no element of the open array yet */
    void (*human)(json_t *entry);   /* the human form of an entry */
} listing;

/* Start the JSON object with TOP's members (at least one); TOP is
 * consumed (the human form prints none of them). */
static void listing_open(const listing *l, json_t *top)
{
    if (l->json) {
        char *s = json_dumps(top, JSON_ENSURE_ASCII);
        if (s && s[0])
            fwrite(s, 1, strlen(s) - 1, stdout); /* all but the closing brace */
        free(s);
    }
    json_decref(top);
}

/* Open array member KEY (a plain name) whose entries print as HUMAN
 * without --json. */
static void listing_array(listing *l, const char *key, void (*human)(json_t *))
{
    if (l->json)
        printf(", \"%s\": [", key);
    l->first = true;
    l->human = human;
}

/* Print ENTRY, an element of the open array, and free it. */
static void listing_entry(listing *l, json_t *entry)
{
    if (l->json) {
        char *s = json_dumps(entry, JSON_ENSURE_ASCII);
        if (!l->first)
            fputs(", ", stdout);
        if (s)
            fputs(s, stdout);
        free(s);
    } else {
        l->human(entry);
    }
    l->first = false;
    json_decref(entry);
}

static void listing_array_end(const listing *l)
{
    if (l->json)
        fputc(']', stdout);
}

static void listing_close(const listing *l)
{
    if (l->json)
        fputs("}\n", stdout);
}

/* Human forms of a unit and of a variable of the listing. */
static void human_unit(json_t *v)
{
    const char *dwo_error = json_string_value(json_object_get(v, "dwo_error"));
    printf("unit %lld: %s (DWARF %lld, address size %lld%s%s%s)\n",
           (long long)json_integer_value(json_object_get(v, "index")),
           json_is_string(json_object_get(v, "name"))
               ? json_string_value(json_object_get(v, "name")) : "?",
           (long long)json_integer_value(json_object_get(v, "version")),
           (long long)json_integer_value(json_object_get(v, "addr_size")),
           json_is_true(json_object_get(v, "split")) ? ", split" : "",
           dwo_error ? "; its .dwo not read: " : "", dwo_error ? dwo_error : "");
}

static void human_listed_var(json_t *v)
{
    locs_human_var(v, false);
}

/* ---- evaluation at a pc ---- */

/* The focus for evaluations: the run's thread and lane, FRAME, PC. */
static dwexpr_eval_params where_at(const locs_run *r, uint32_t frame, uint64_t pc)
{
    dwexpr_eval_params q = r->focus;
    q.frame = frame;
    q.has_pc = true;
    q.pc = pc;
    q.ctx |= DWEXPR_CTX_FRAME;
    q.trace = NULL;
    return q;
}

/* Move every place of LOC (a copy) by DISP bytes (an implicit pointer's
 * displacement). */
static void displace(dwexpr_loc *loc, int64_t disp)
{
    for (uint32_t i = 0; i < loc->count; i++) {
        dwexpr_sld *s = (dwexpr_sld *)(uintptr_t)&loc->slds[i];
        if (s->kind != DWEXPR_LOC_UNDEFINED)
            s->byte_offset += (uint64_t)disp;
    }
}

/* Move every place of LOC (a copy) by BITS bits, negative too (an
 * element of an array with a negative stride). */
static void move_bits(dwexpr_loc *loc, int64_t bits)
{
    int64_t q = bits / 8, rem = bits % 8;
    if (rem < 0) {
        rem += 8;
        q -= 1;
    }
    for (uint32_t i = 0; i < loc->count; i++) {
        dwexpr_sld *s = (dwexpr_sld *)(uintptr_t)&loc->slds[i];
        if (s->kind == DWEXPR_LOC_UNDEFINED)
            continue;
        unsigned b = s->bit + (unsigned)rem;
        s->byte_offset += (uint64_t)q + b / 8;
        s->bit = (uint8_t)(b % 8);
    }
}

/* Where the bytes of an array of type TYPE (OBJECT: the object its bounds
 * and strides are computed for) start, in bits from its first element:
 * a dimension with a negative stride has its elements below the first
 * one; the array's bytes start at the lowest (GDB's Fortran arrays with
 * negative strides, fortran_adjust_dynamic_array_base_address_hack). 0
 * for other types. */
static int64_t array_start(locs_run *r, size_t unit, uint64_t type, const dwexpr_loc *object,
                           const dwexpr_eval_params *where)
{
    int64_t start = 0;
    dwexpr_libdwarf_dim dim;
    dwexpr_error e;
    for (unsigned i = 0; i < 16 && dwexpr_libdwarf_array_dim(r->b, r->aux, unit, type, i, object,
                                                             where, &dim, &e) == DWEXPR_OK;
         i++)
        if (dim.stride_bits < 0 && dim.has_count && dim.count > 1)
            start += (dim.count - 1) * dim.stride_bits;
    return start;
}

/* Make every implicit-pointer place inside LOC (a copy: composites'
 * parts, at any depth) undefined storage; the count made. GDB shows such
 * a part as "<synthetic pointer>": it has no bytes to read, while the
 * object's other parts do. */
static unsigned undefine_implicit_parts(dwexpr_loc *loc)
{
    unsigned n = 0;
    for (uint32_t i = 0; i < loc->count; i++) {
        dwexpr_sld *s = (dwexpr_sld *)(uintptr_t)&loc->slds[i];
        if (s->kind == DWEXPR_LOC_IMPLICIT_POINTER) {
            memset(s, 0, sizeof *s);
            s->kind = DWEXPR_LOC_UNDEFINED;
            n++;
        } else if (s->kind == DWEXPR_LOC_COMPOSITE && s->u.comp) {
            for (uint32_t k = 0; k < s->u.comp->count; k++)
                n += undefine_implicit_parts(&s->u.comp->parts[k].loc);
        }
    }
    return n;
}

/* The implicit-pointer place holding bits [0, BITS) of LOC, when LOC is
 * one composite place whose bits there all lie inside one part that is
 * an implicit pointer (seed "Composite Location Description Operations":
 * parts laid end to end); NULL otherwise. */
static const dwexpr_sld *implicit_part_at(const dwexpr_loc *loc, uint64_t bits)
{
    if (loc->count != 1)
        return NULL;
    const dwexpr_sld *s = &loc->slds[0];
    uint64_t at = 8 * s->byte_offset + s->bit;
    for (int depth = 0; depth < 8 && s->kind == DWEXPR_LOC_COMPOSITE && s->u.comp; depth++) {
        const dwexpr_composite *c = s->u.comp;
        const dwexpr_sld *inner = NULL;
        uint64_t start = 0;
        for (uint32_t k = 0; k < c->count; start += c->parts[k].bit_size, k++) {
            if (at < start + c->parts[k].bit_size) {
                if (at + bits > start + c->parts[k].bit_size || c->parts[k].loc.count != 1)
                    return NULL;
                inner = &c->parts[k].loc.slds[0];
                break;
            }
        }
        if (!inner)
            return NULL;
        if (inner->kind == DWEXPR_LOC_IMPLICIT_POINTER)
            return inner;
        at = at - start + 8 * inner->byte_offset + inner->bit;
        s = inner;
    }
    return NULL;
}

/* read_hex of LOC as it is. */
static json_t *read_hex_as_is(locs_run *r, dwexpr_ctx *ctx, const dwexpr_loc *loc, uint64_t bits,
                        bool *all_undef, dwexpr_error *err, dwexpr_status *st,
                        uint64_t *short_bits)
{
    size_t n = (size_t)((bits + 7) / 8);
    uint8_t *buf = calloc(n ? n : 1, 1), *mask = calloc(n ? n : 1, 1);
    *all_undef = false;
    if (!buf || !mask) {
        free(buf);
        free(mask);
        *st = DWEXPR_E_NOMEM;
        return NULL;
    }
    *st = dwexpr_loc_read(ctx, &r->t, r->b, loc, bits, buf, mask);
    if (*st == DWEXPR_E_OUT_OF_RANGE && loc->count == 1 &&
        loc->slds[0].kind == DWEXPR_LOC_COMPOSITE && loc->slds[0].u.comp) {
        /* a composite smaller than the object (DW_OP_piece for the first
         * members only): the bits it does not describe are not available,
         * as GDB shows them */
        const dwexpr_sld *s = &loc->slds[0];
        uint64_t start = 8 * s->byte_offset + s->bit, have = s->u.comp->bits;
        if (have > start && have - start < bits) {
            uint64_t part = have - start;
            if (short_bits)
                *short_bits = part;
            memset(mask, 0, n);
            *st = dwexpr_loc_read(ctx, &r->t, r->b, loc, part, buf, mask);
            for (uint64_t bit = part; bit < 8 * (uint64_t)n; bit++)
                mask[bit / 8] |= (uint8_t)(1u << (bit % 8));
        } else if (have <= start) {
            /* wholly past the pieces (a member of such an object) */
            if (short_bits)
                *short_bits = 0;
            memset(mask, 0xff, n);
            *st = DWEXPR_OK;
        }
    }
    if (*st) {
        *err = *dwexpr_ctx_error(ctx);
        free(buf);
        free(mask);
        return NULL;
    }
    bool any_def = false;
    for (size_t i = 0; i < n; i++)
        any_def |= mask[i] == 0;
    *all_undef = n > 0 && !any_def;
    json_t *j = out_read_json(buf, mask, n);
    json_t *h = json_incref(json_object_get(j, "hex"));
    json_decref(j);
    free(buf);
    free(mask);
    return h;
}

/* Read BITS bits through LOC into a "hex" string with "xx" holes; *ALL_UNDEF
 * when every byte is undefined. NULL with *ERR on failure. A part that
 * is an implicit pointer (GDB's "<synthetic pointer>" member of a
 * structure or array) has no bytes to read: its bits are holes, the other
 * parts' bytes are read, and the object is not optimized out. */
static json_t *read_hex(locs_run *r, dwexpr_ctx *ctx, const dwexpr_loc *loc, uint64_t bits,
                        bool *all_undef, dwexpr_error *err, dwexpr_status *st,
                        uint64_t *short_bits)
{
    json_t *h = read_hex_as_is(r, ctx, loc, bits, all_undef, err, st, short_bits);
    dwexpr_loc plain;
    if (h || *st != DWEXPR_E_IMPLICIT_PTR || dwexpr_libdwarf_loc_copy(loc, &plain) != DWEXPR_OK)
        return h;
    if (undefine_implicit_parts(&plain)) {
        const dwexpr_error first = *err;
        h = read_hex_as_is(r, ctx, &plain, bits, all_undef, err, st, short_bits);
        if (h) {
            *all_undef = false;
        } else {
            *st = DWEXPR_E_IMPLICIT_PTR;
            *err = first;
        }
    }
    dwexpr_libdwarf_loc_free(&plain);
    return h;
}

static json_t *members_json(locs_run *r, size_t unit, uint64_t type, const dwexpr_loc *loc,
                            const dwexpr_loc *object, const dwexpr_eval_params *where, int depth,
                            uint64_t bytes);
static const char *data_absent(locs_run *r, size_t unit, uint64_t dtype, const dwexpr_loc *desc,
                               const dwexpr_eval_params *where);

/* Why an object's size (a dynamic type's: bounds, counts) could not be
 * computed: the error E as eval --json reports one, with the binding's
 * note when it has one (which DIE, which attribute). */
static json_t *size_error_json(locs_run *r, const dwexpr_error *e)
{
    json_t *j = out_error_from(r->c, e);
    json_object_set_new(j, "status", json_string(dwexpr_status_name(e->status)));
    const char *note = dwexpr_libdwarf_binding_message(r->b);
    if (note && note[0])
        json_object_set_new(j, "detail", json_string(note));
    return j;
}

/* TYPE of UNIT (through typedefs and qualifiers) when it has
 * DW_AT_data_location, else 0. */
static uint64_t data_location_of(locs_run *r, size_t unit, uint64_t type)
{
    uint64_t t = type;
    for (int depth = 0; t && depth < 16; depth++) {
        dwexpr_libdwarf_attr a;
        if (dwexpr_libdwarf_attr_get(r->ld, unit, t, 0x50 /* DW_AT_data_location */, &a,
                                     NULL) == DWEXPR_OK)
            return t;
        dwexpr_libdwarf_type_info ti;
        if (dwexpr_libdwarf_type_get(r->ld, unit, t, &ti) != DWEXPR_OK)
            return 0;
        /* typedef, const, volatile */
        if (ti.tag != 0x16 && ti.tag != 0x26 && ti.tag != 0x35)
            return 0;
        t = ti.target;
    }
    return 0;
}

/* The type of V when it has DW_AT_data_location (data_location_of). */
static uint64_t data_location_type(locs_run *r, const dwexpr_libdwarf_var *v)
{
    return data_location_of(r, v->unit, v->type);
}

/* V's value through DW_AT_data_location of its type DTYPE: the data
 * location (object: the descriptor LOC) and its dynamic size (bounds
 * computed from the descriptor). Fills "data_location" and "hex". */
static json_t *read_data(locs_run *r, const dwexpr_libdwarf_var *v, json_t *o, uint64_t dtype,
                         const dwexpr_loc *desc, const dwexpr_eval_params *where)
{
    dwexpr_result dr;
    dwexpr_error e;
    uint64_t bytes = 0;
    json_object_set_new(o, "optimized_out", json_false());
    const char *absent = data_absent(r, v->unit, dtype, desc, where);
    if (absent) {
        /* an unallocated allocatable or a disassociated pointer: GDB's
         * "<not allocated>" / "<not associated>", a value of no bytes */
        json_object_set_new(o, "bit_size", json_integer(0));
        json_object_set_new(o, "hex", json_string(""));
        json_object_set_new(o, "data_absent", json_string(absent));
        return o;
    }
    if (dwexpr_libdwarf_eval_data_location(r->b, r->aux, v->unit, dtype, desc, where, &dr, &e)) {
        json_object_set_new(o, "data_location", out_error_from(NULL, &e));
        json_object_set_new(o, "hex", json_null());
        return o;
    }
    json_object_set_new(o, "data_location", out_result_json(NULL, &dr));
    if (dwexpr_libdwarf_type_size(r->b, r->aux2, v->unit, v->type, desc, where, &bytes, &e)) {
        /* no bytes, and why: the size (bounds from the descriptor) */
        json_object_set_new(o, "size_error", size_error_json(r, &e));
        json_object_set_new(o, "hex", json_null());
        return o;
    }
    if (bytes == 0) {
        json_object_set_new(o, "hex", json_null());
        return o;
    }
    json_object_set_new(o, "bit_size", json_integer((json_int_t)(8 * bytes)));
    bool au;
    dwexpr_status st;
    dwexpr_loc data, from;
    bool have_data = dwexpr_libdwarf_loc_copy(&dr.loc, &data) == DWEXPR_OK;
    /* the data location is the first element's; with a negative stride
     * the bytes start below it */
    int64_t start = array_start(r, v->unit, dtype, desc, where);
    bool moved = start && dwexpr_libdwarf_loc_copy(&dr.loc, &from) == DWEXPR_OK;
    if (moved)
        move_bits(&from, start);
    json_t *h = read_hex(r, r->aux, moved ? &from : &dr.loc, 8 * bytes, &au, &e, &st, NULL);
    if (moved)
        dwexpr_libdwarf_loc_free(&from);
    if (!h)
        json_object_set_new(o, "read_error", out_error_from(r->c, &e));
    json_object_set_new(o, "hex", h ? h : json_null());
    if (have_data) {
        json_t *mem = h && !au ? members_json(r, v->unit, v->type, &data, desc, where, 0, bytes) : NULL;
        if (mem)
            json_object_set_new(o, "members", mem);
        dwexpr_libdwarf_loc_free(&data);
    }
    return o;
}

/* Move every place of LOC (a copy) by BITS bits. */
static void shift_bits(dwexpr_loc *loc, uint64_t bits)
{
    for (uint32_t i = 0; i < loc->count; i++) {
        dwexpr_sld *s = (dwexpr_sld *)(uintptr_t)&loc->slds[i];
        if (s->kind == DWEXPR_LOC_UNDEFINED)
            continue;
        uint64_t b = s->bit + bits;
        s->byte_offset += b / 8;
        s->bit = (uint8_t)(b % 8);
    }
}

/* TYPE through typedefs and qualifiers; *TI gets its info. 0 if unknown. */
static uint64_t strip_type(locs_run *r, size_t unit, uint64_t type, dwexpr_libdwarf_type_info *ti)
{
    for (int depth = 0; type && depth < 16; depth++) {
        if (dwexpr_libdwarf_type_get(r->ld, unit, type, ti) != DWEXPR_OK)
            return 0;
        /* typedef, const, volatile, restrict, atomic */
        if (ti->tag != 0x16 && ti->tag != 0x26 && ti->tag != 0x35 && ti->tag != 0x37 &&
            ti->tag != 0x47)
            return type;
        type = ti->target;
    }
    return 0;
}


static json_t *implicit_pointer_json(locs_run *r, size_t unit, uint64_t type, const dwexpr_sld *s,
                                     const dwexpr_eval_params *where);

/* Whether the data of an object of type DTYPE (the type holding
 * DW_AT_data_location) whose descriptor is at DESC exists: false when
 * DTYPE's DW_AT_allocated or DW_AT_associated (DWARF 5 5.18.1, 5.18.2: a
 * constant or an expression, DW_OP_push_object_address pushing the
 * descriptor) is zero, GDB's type_not_allocated / type_not_associated
 * (an unallocated allocatable, a disassociated pointer array: GDB prints
 * "<not allocated>" / "<not associated>" and resolves the type to no
 * bytes, as it does not evaluate the bounds of an absent object): GDB's
 * words for it, "not allocated" or "not associated". NULL (present) when
 * neither attribute is there or its value cannot be had. */
static const char *data_absent(locs_run *r, size_t unit, uint64_t dtype, const dwexpr_loc *desc,
                               const dwexpr_eval_params *where)
{
    static const char *const words[2] = {"not allocated", "not associated"};
    static const uint16_t ats[2] = {0x4e /* DW_AT_allocated */, 0x4f /* DW_AT_associated */};
    const dwexpr_libdwarf_unit *lu = dwexpr_libdwarf_unit_get(r->ld, unit);
    for (int i = 0; i < 2; i++) {
        dwexpr_libdwarf_attr a;
        if (dwexpr_libdwarf_attr_get(r->ld, unit, dtype, ats[i], &a, NULL) != DWEXPR_OK)
            continue;
        if (a.kind == DWEXPR_LIBDWARF_ATTR_CONST) {
            if ((a.is_signed ? (uint64_t)a.sconst : a.uconst) == 0)
                return words[i];
            continue;
        }
        if (a.kind != DWEXPR_LIBDWARF_ATTR_EXPR || !lu)
            continue;
        dwexpr_eval_params q = *where;
        q.result_kind = DWEXPR_RESULT_VALUE;
        q.object = desc;
        dwexpr_result v;
        if (dwexpr_eval_bytes(r->aux, a.data, a.len, &lu->unit, dwexpr_libdwarf_binding_target(r->b),
                              r->b, &q, &v) == DWEXPR_OK &&
            v.kind == DWEXPR_RESULT_VALUE && !v.value.is_implicit_pointer && !v.value.wide &&
            v.value.bits == 0)
            return words[i];
    }
    return NULL;
}

/* Fill member entry M, of TYPE whose DW_AT_data_location DTYPE has, from
 * the descriptor at LOC (the member's location): its bit_size computed
 * from the descriptor (bounds), hex read at the data location (from the
 * lowest element with a negative stride) and the elements as members;
 * hex null when the data location, size or bytes cannot be had (an
 * unallocated or disassociated component: GDB has no contents either). */
static json_t *member_data(locs_run *r, size_t unit, json_t *m, uint64_t type, uint64_t dtype,
                           const dwexpr_loc *loc, const dwexpr_eval_params *where, int depth)
{
    dwexpr_result dr;
    dwexpr_error e;
    uint64_t bytes = 0;
    dwexpr_loc data, from;
    const char *absent = data_absent(r, unit, dtype, loc, where);
    if (absent) {
        /* GDB's "<not allocated>" member: no bits, empty contents */
        json_object_set_new(m, "bit_size", json_integer(0));
        json_object_set_new(m, "hex", json_string(""));
        json_object_set_new(m, "data_absent", json_string(absent));
        return m;
    }
    if (dwexpr_libdwarf_eval_data_location(r->b, r->aux, unit, dtype, loc, where, &dr, &e) ||
        dwexpr_libdwarf_loc_copy(&dr.loc, &data) != DWEXPR_OK) {
        json_object_set_new(m, "bit_size", json_integer(0));
        json_object_set_new(m, "hex", json_null());
        return m;
    }
    if (dwexpr_libdwarf_type_size(r->b, r->aux2, unit, type, loc, where, &bytes, &e) || !bytes) {
        json_object_set_new(m, "bit_size", json_integer(0));
        json_object_set_new(m, "hex", json_null());
        dwexpr_libdwarf_loc_free(&data);
        return m;
    }
    json_object_set_new(m, "bit_size", json_integer((json_int_t)(8 * bytes)));
    int64_t start = array_start(r, unit, dtype, loc, where);
    bool moved = start && dwexpr_libdwarf_loc_copy(&data, &from) == DWEXPR_OK;
    if (moved)
        move_bits(&from, start);
    bool au;
    dwexpr_status st;
    json_t *h = read_hex(r, r->aux, moved ? &from : &data, 8 * bytes, &au, &e, &st, NULL);
    if (moved)
        dwexpr_libdwarf_loc_free(&from);
    if (!h)
        json_object_set_new(m, "read_error", out_error_from(r->c, &e));
    json_object_set_new(m, "hex", h ? h : json_null());
    json_t *sub = h && !au ? members_json(r, unit, type, &data, loc, where, depth + 1, bytes) : NULL;
    if (sub)
        json_object_set_new(m, "members", sub);
    dwexpr_libdwarf_loc_free(&data);
    return m;
}

/* One member entry: name, type, bit_offset (from the start of the
 * containing object; null when an expression places it), bit_size, hex
 * read through LOC (the member's own location, a copy), and its own
 * members. */
static json_t *member_entry(locs_run *r, size_t unit, const char *name, uint64_t type,
                            const char *type_name, json_t *bit_offset, uint64_t bit_size,
                            const dwexpr_loc *loc, const dwexpr_eval_params *where, int depth)
{
    json_t *m = json_object();
    json_object_set_new(m, "name", json_string(name ? name : ""));
    json_object_set_new(m, "type", json_string(type_name ? type_name : "?"));
    json_object_set_new(m, "bit_offset", bit_offset);
    bool au;
    dwexpr_error e;
    dwexpr_status st;
    /* a member whose type has DW_AT_data_location (a Fortran derived
     * type's allocatable or pointer array component: the member is the
     * descriptor) is the data the descriptor locates, as a variable of
     * that type is (read_data): GDB resolves the member's dynamic type
     * with the member's address as the object address (value_primitive_field
     * -> resolve_dynamic_type), so its bytes and size are those of the
     * elements ("vals = (1.5, 2.5, 3.5)", 192 bits), not the descriptor's */
    uint64_t dtype = data_location_of(r, unit, type);
    if (dtype)
        return member_data(r, unit, m, type, dtype, loc, where, depth);
    json_object_set_new(m, "bit_size", json_integer((json_int_t)bit_size));
    const dwexpr_sld *ip = bit_size ? implicit_part_at(loc, bit_size) : NULL;
    if (ip) {
        /* a member that is an implicit pointer: as a variable that is one */
        json_object_set_new(m, "hex", json_null());
        json_object_set_new(m, "implicit_pointer", implicit_pointer_json(r, unit, type, ip, where));
        return m;
    }
    /* a member of no bits (Rust's PhantomData, a zero-sized allocator)
     * has nothing to read: no bytes, "" (GDB's empty contents) */
    json_t *h = bit_size ? read_hex(r, r->aux2, loc, bit_size, &au, &e, &st, NULL)
                         : json_string("");
    if (!h && bit_size)
        json_object_set_new(m, "read_error", out_error_from(r->c, &e));
    json_object_set_new(m, "hex", h ? h : json_null());
    json_t *sub = members_json(r, unit, type, loc, NULL, where, depth + 1, 0);
    if (sub)
        json_object_set_new(m, "members", sub);
    return m;
}

/* The bit offset of a member at ML in an object at LOC, both single
 * memory locations of one address space with the member at or past the
 * object's start; -1 otherwise. */
static int64_t placed_offset(const dwexpr_loc *loc, const dwexpr_loc *ml)
{
    if (loc->count != 1 || ml->count != 1)
        return -1;
    const dwexpr_sld *o = &loc->slds[0], *m = &ml->slds[0];
    if (o->kind != DWEXPR_LOC_MEMORY || m->kind != DWEXPR_LOC_MEMORY || o->aspace != m->aspace)
        return -1;
    const uint64_t ob = 8 * o->byte_offset + o->bit, mb = 8 * m->byte_offset + m->bit;
    return mb >= ob && mb - ob <= INT64_MAX ? (int64_t)(mb - ob) : -1;
}

/* Append to A the entry of data member DIE (member_entry) of an object
 * at LOC; false when the listing must stop (out of memory). A base class
 * (DW_TAG_inheritance) is an entry too, as GDB lists a class's base
 * subobjects among its fields ("{<Base> = {...}, m = 1}"): named by its
 * type (GDB's field name for it, TYPE_BASECLASS_NAME), "base": true. */
static bool append_member(locs_run *r, size_t unit, uint64_t die, const dwexpr_loc *loc,
                          const dwexpr_eval_params *where, int depth, json_t *a)
{
    dwexpr_libdwarf_member m;
    if (dwexpr_libdwarf_member_get(r->ld, unit, die, &m) != DWEXPR_OK)
        return true;
    const bool base = m.tag == TAG_inheritance;
    if (base)
        m.name = m.type_name;
    /* the static bit offset, when the DWARF gives one */
    json_t *bo = json_null();
    dwexpr_libdwarf_attr at;
    uint64_t bits = 8 * m.offset;
    const bool known = m.offset_known;
    if (dwexpr_libdwarf_attr_get(r->ld, unit, die, AT_data_bit_offset, &at, NULL) ==
            DWEXPR_OK && at.kind == DWEXPR_LIBDWARF_ATTR_CONST)
        bits += at.uconst;
    dwexpr_result res;
    dwexpr_error e;
    dwexpr_loc ml;
    if (dwexpr_libdwarf_eval_member_location(r->b, r->aux, unit, die, loc, where, &res, &e)) {
        /* a constant offset past the pieces a composite describes is
         * an offset error for the evaluator; its bits are not
         * available, which reading the shifted object shows ("xx") */
        if (!known || dwexpr_libdwarf_loc_copy(loc, &ml) != DWEXPR_OK) {
            json_t *o = json_object();
            json_object_set_new(o, "name", json_string(m.name ? m.name : ""));
            json_object_set_new(o, "error", out_error_from(r->c, &e));
            json_array_append_new(a, o);
            return true;
        }
        shift_bits(&ml, bits);
    } else if (dwexpr_libdwarf_loc_copy(&res.loc, &ml) != DWEXPR_OK) {
        return false;
    }
    if (m.has_bit_offset && m.bit_field) {
        /* DWARF 2-4: from the storage unit's most significant bit */
        const dwexpr_libdwarf_unit *lu = dwexpr_libdwarf_unit_get(r->ld, unit);
        uint64_t sb = 8 * m.storage_bytes, shift = m.bit_offset;
        if (!lu->unit.big_endian)
            shift = sb >= m.bit_offset + m.bit_size ? sb - m.bit_offset - m.bit_size : 0;
        shift_bits(&ml, shift);
        bits += shift;
    }
    if (known) {
        bo = json_integer((json_int_t)bits);
    } else {
        /* placed by an expression (a virtual base: the offset the
         * object's vtable holds, which GDB's baseclass_offset reads too):
         * where it put the member in this object, when both are in memory */
        const int64_t placed = placed_offset(loc, &ml);
        if (placed >= 0)
            bo = json_integer((json_int_t)placed);
    }
    json_t *entry = member_entry(r, unit, m.name, m.type, m.type_name, bo, m.bit_size, &ml,
                                 where, depth);
    if (base)
        json_object_set_new(entry, "base", json_true());
    json_array_append_new(a, entry);
    dwexpr_libdwarf_loc_free(&ml);
    return true;
}

/* Append to A the members of the variant that variant part VP
 * (DW_TAG_variant_part, DWARF 5 5.7.10: a Rust enum, Option<T>) selects
 * in an object at LOC: the variant whose DW_AT_discr_value is the value of
 * the discriminant (the member DW_AT_discr names, read as unsigned and
 * compared in its size), else the one with neither DW_AT_discr_value nor
 * DW_AT_discr_list (the default variant). GDB lists the members of the
 * active variant alone (its resolved type keeps that variant's fields);
 * the discriminant itself is unnamed and not listed. Nothing when the
 * discriminant cannot be read, or a variant has a DW_AT_discr_list
 * (ranges: not read here) and none other matches. */
static void append_variant(locs_run *r, size_t unit, uint64_t vp, const dwexpr_loc *loc,
                           const dwexpr_eval_params *where, int depth, json_t *a)
{
    dwexpr_libdwarf_attr at;
    if (dwexpr_libdwarf_attr_get(r->ld, unit, vp, AT_discr, &at, NULL) != DWEXPR_OK ||
        at.kind != DWEXPR_LIBDWARF_ATTR_REF)
        return;
    json_t *tmp = json_array();
    append_member(r, unit, at.ref, loc, where, depth, tmp);
    const char *hex = json_string_value(json_object_get(json_array_get(tmp, 0), "hex"));
    uint64_t discr = 0;
    size_t nbytes = hex ? strlen(hex) / 2 : 0;
    bool ok = hex && nbytes > 0 && nbytes <= 8;
    for (size_t k = nbytes; ok && k > 0; k--) {
        unsigned byte;
        ok = sscanf(hex + 2 * (k - 1), "%2x", &byte) == 1;
        discr = discr << 8 | byte;
    }
    json_decref(tmp);
    if (!ok)
        return; /* unavailable ("xx") or wider than 64 bits */
    const uint64_t mask = nbytes == 8 ? UINT64_MAX : (((uint64_t)1 << (8 * nbytes)) - 1);
    uint64_t var, chosen = 0, fallback = 0;
    for (size_t i = 0; !chosen && dwexpr_libdwarf_child_die(r->ld, unit, vp, TAG_variant, i, &var) ==
                                      DWEXPR_OK;
         i++) {
        if (dwexpr_libdwarf_attr_get(r->ld, unit, var, AT_discr_value, &at, NULL) == DWEXPR_OK) {
            if (at.kind == DWEXPR_LIBDWARF_ATTR_CONST && (at.uconst & mask) == discr)
                chosen = var;
        } else if (dwexpr_libdwarf_attr_get(r->ld, unit, var, AT_discr_list, &at, NULL) !=
                       DWEXPR_OK &&
                   !fallback) {
            fallback = var;
        }
    }
    if (!chosen)
        chosen = fallback;
    uint64_t die;
    for (size_t i = 0; chosen && dwexpr_libdwarf_child_die(r->ld, unit, chosen, TAG_member, i,
                                                           &die) == DWEXPR_OK;
         i++)
        if (!append_member(r, unit, die, loc, where, depth, a))
            break;
}

/* The members of an object of TYPE at LOC (not in any of R's contexts):
 * a structure's, union's or class's data members read through
 * DW_AT_data_member_location (a constant, or an expression with the
 * object's location pushed) and DW_AT_data_bit_offset (DWARF 5 5.7.6),
 * or DWARF 2-4's DW_AT_bit_offset (counted from the most significant bit
 * of the storage unit: on a little-endian target the bit offset is
 * storage bits - DW_AT_bit_offset - DW_AT_bit_size); the elements of an
 * array of one dimension (at most MEMBERS_ELEMENTS), its count and stride
 * (DW_AT_byte_stride / DW_AT_bit_stride) computed for OBJECT (the object
 * the bounds belong to, a Fortran descriptor; NULL: LOC, the first
 * element's location), each element's bit_offset counted from the start
 * of the array's bytes (the lowest element with a negative stride);
 * without a count, BYTES (when not 0) is the array's size, else its
 * type's or the one computed for LOC. NULL for other types and arrays of
 * several dimensions. */
static json_t *members_json(locs_run *r, size_t unit, uint64_t type, const dwexpr_loc *loc,
                            const dwexpr_loc *object, const dwexpr_eval_params *where, int depth,
                            uint64_t bytes)
{
    dwexpr_libdwarf_type_info ti;
    if (depth >= MEMBERS_DEPTH || !(type = strip_type(r, unit, type, &ti)))
        return NULL;
    if (ti.tag == TAG_array) {
        dwexpr_libdwarf_type_info et;
        uint64_t elem = ti.target;
        uint64_t second;
        if (!elem || dwexpr_libdwarf_type_get(r->ld, unit, elem, &et) != DWEXPR_OK || !et.bytes ||
            dwexpr_libdwarf_child_die(r->ld, unit, type, TAG_subrange, 1, &second) == DWEXPR_OK)
            return NULL;
        /* the element count and the distance between elements (DWARF 5
         * 5.13: DW_AT_byte_stride / DW_AT_bit_stride), computed for this
         * object (a Fortran section's descriptor) */
        uint64_t count = 0;
        int64_t stride = 8 * (int64_t)et.bytes;
        dwexpr_libdwarf_dim dim;
        dwexpr_error e;
        if (dwexpr_libdwarf_array_dim(r->b, r->aux, unit, type, 0, object ? object : loc, where,
                                      &dim, &e) == DWEXPR_OK && dim.has_count) {
            count = (uint64_t)dim.count;
            if (dim.stride_bits)
                stride = dim.stride_bits;
        } else {
            if (bytes)
                ti.bytes = bytes;
            if (!ti.bytes) {
                /* a dynamic array (a VLA): its size computed for this object */
                if (dwexpr_libdwarf_type_size(r->b, r->aux, unit, type, loc, where, &ti.bytes,
                                              &e) ||
                    !ti.bytes)
                    return NULL;
            }
            count = ti.bytes / et.bytes;
        }
        /* a packed array's element is its stride's bits; with a negative
         * stride the array's bytes start at its last element */
        uint64_t ebits = 8 * et.bytes, span = stride < 0 ? (uint64_t)-stride : (uint64_t)stride;
        if (span && span < ebits)
            ebits = span;
        int64_t first = stride < 0 && count > 1 ? -(int64_t)(count - 1) * stride : 0;
        json_t *a = json_array();
        for (uint64_t k = 0; k < count && k < MEMBERS_ELEMENTS; k++) {
            dwexpr_loc el;
            if (dwexpr_libdwarf_loc_copy(loc, &el) != DWEXPR_OK)
                break;
            move_bits(&el, (int64_t)k * stride);
            char name[32];
            snprintf(name, sizeof name, "[%" PRIu64 "]", k);
            json_array_append_new(a, member_entry(r, unit, name, elem, et.name,
                                                  json_integer((json_int_t)(first +
                                                                            (int64_t)k * stride)),
                                                  ebits, &el, where, depth));
            dwexpr_libdwarf_loc_free(&el);
        }
        return a;
    }
    if (ti.tag == TAG_string && bytes) {
        /* a string type (Fortran character(len=...)): its characters */
        json_t *a = json_array();
        for (uint64_t k = 0; k < bytes && k < MEMBERS_ELEMENTS; k++) {
            dwexpr_loc el;
            if (dwexpr_libdwarf_loc_copy(loc, &el) != DWEXPR_OK)
                break;
            displace(&el, (int64_t)k);
            char name[32];
            snprintf(name, sizeof name, "[%" PRIu64 "]", k);
            json_array_append_new(a, member_entry(r, unit, name, 0, "character",
                                                  json_integer((json_int_t)(8 * k)), 8, &el,
                                                  where, depth));
            dwexpr_libdwarf_loc_free(&el);
        }
        return a;
    }
    if (ti.tag != TAG_structure && ti.tag != TAG_union && ti.tag != TAG_class)
        return NULL;
    json_t *a = json_array();
    uint64_t die;
    /* the base classes first, as GDB's fields */
    for (size_t i = 0; dwexpr_libdwarf_child_die(r->ld, unit, type, TAG_inheritance, i, &die) ==
                       DWEXPR_OK; i++)
        if (!append_member(r, unit, die, loc, where, depth, a))
            break;
    for (size_t i = 0; dwexpr_libdwarf_child_die(r->ld, unit, type, TAG_member, i, &die) ==
                       DWEXPR_OK; i++)
        if (!append_member(r, unit, die, loc, where, depth, a))
            break;
    /* the active variant's members (a Rust enum's); C, C++ and Fortran
     * types have no variant parts */
    for (size_t i = 0; dwexpr_libdwarf_child_die(r->ld, unit, type, TAG_variant_part, i, &die) ==
                       DWEXPR_OK; i++)
        append_variant(r, unit, die, loc, where, depth, a);
    return a;
}

/* The frame base and static link of function scope FN at PC, as result
 * objects (errors as error objects); only concrete functions have them. */
static void frame_attrs(locs_run *r, const dwexpr_libdwarf_scope *fn, uint32_t frame, uint64_t pc,
                        json_t *f)
{
    if (fn->kind != DWEXPR_LIBDWARF_SCOPE_FUNCTION)
        return;
    dwexpr_eval_params where = where_at(r, frame, pc);
    dwexpr_result res;
    dwexpr_error e;
    dwexpr_libdwarf_attr a;
    if (dwexpr_libdwarf_attr_get(r->ld, fn->unit, fn->die, 0x40, &a, NULL) == DWEXPR_OK) {
        if (dwexpr_libdwarf_eval_frame_base(r->b, r->ctx, fn->unit, fn->die, &where, &res, &e))
            json_object_set_new(f, "frame_base", out_error_from(r->c, &e));
        else
            json_object_set_new(f, "frame_base", out_result_json(NULL, &res));
    }
    if (dwexpr_libdwarf_attr_get(r->ld, fn->unit, fn->die, 0x48, &a, NULL) == DWEXPR_OK) {
        if (dwexpr_libdwarf_eval_static_link(r->b, r->ctx, fn->unit, fn->die, &where, &res, &e))
            json_object_set_new(f, "static_link", out_error_from(r->c, &e));
        else
            json_object_set_new(f, "static_link", out_result_json(NULL, &res));
    }
}

/* The value of V (BITS bits) held in an x87 register (x86-64 DWARF
 * 33-40, st0-7): the register has 10 bytes (the 80-bit extended format),
 * its long double 16 (or 12) with the value in the low 10 and the rest
 * padding (psABI 3.1.2). GDB reads it as a conversion from the
 * register's format to the type's (i387_register_to_value), here the
 * same format: the register's bytes and zeros for the padding
 * (target_float_convert). So too a constant of the 80-bit format alone,
 * 10 bytes (clang -flto's DW_AT_const_value of a long double parameter
 * it propagated: the value, no padding). NULL, leaving *ERR, when V is
 * not such a value or the register cannot be read. */
static json_t *read_x87(locs_run *r, dwexpr_ctx *ctx, const dwexpr_libdwarf_var *v,
                        const dwexpr_loc *loc, uint64_t bits, bool *all_undef,
                        dwexpr_error *err, dwexpr_status *st)
{
    const dwexpr_sld *s = loc->count == 1 ? &loc->slds[0] : NULL;
    if (!s || s->byte_offset || s->bit || r->arch != dwexpr_arch_find("x86_64"))
        return NULL;
    uint32_t rb = 0;
    if (s->kind == DWEXPR_LOC_REGISTER) {
        if (s->u.regno < 33 || s->u.regno > 40 || !r->t.reg_size ||
            r->t.reg_size(r->b, s->u.regno, &rb) != DWEXPR_OK)
            return NULL;
    } else if (s->kind == DWEXPR_LOC_IMPLICIT) {
        rb = s->u.imp.bits == 80 ? 10 : 0;
    }
    if (rb != 10 || bits % 8 || bits <= 8 * (uint64_t)rb || bits > 128)
        return NULL;
    dwexpr_libdwarf_type_info ti;
    if (!strip_type(r, v->unit, v->type, &ti) || ti.tag != 0x24 /* DW_TAG_base_type */ ||
        ti.encoding != 0x04 /* DW_ATE_float */ ||
        dwexpr_arch_float_format(r->arch, (uint32_t)bits, ti.name) != DWEXPR_FLOAT_X87)
        return NULL;
    dwexpr_error e2;
    dwexpr_status st2;
    json_t *h = read_hex(r, ctx, loc, 8 * (uint64_t)rb, all_undef, &e2, &st2, NULL);
    if (!h) {
        *err = e2;
        *st = st2;
        return NULL;
    }
    char hex[2 * 16 + 1];
    snprintf(hex, sizeof hex, "%s%.*s", json_string_value(h), (int)(bits / 4 - 2 * rb),
             "000000000000000000000000000000");
    json_decref(h);
    *st = DWEXPR_OK;
    return json_string(hex);
}

/* One variable in the focused lane (locs_eval_var without --all-lanes). */
/* What an implicit pointer S (DW_OP_implicit_pointer: GDB's "<synthetic
 * pointer>") of pointer type TYPE points to: the object's DIE, the
 * displacement, and the bytes of the pointed-to type read at the
 * object's location moved by the displacement ("hex"; all "xx" when the
 * object has no location: optimized out), or the error computing it. */
static json_t *implicit_pointer_json(locs_run *r, size_t unit, uint64_t type, const dwexpr_sld *s,
                                     const dwexpr_eval_params *where)
{
    json_t *p = json_object();
    json_object_set_new(p, "die", hexnum(s->u.ptr.die));
    json_object_set_new(p, "displacement", json_integer(s->u.ptr.disp));
    dwexpr_libdwarf_type_info ti;
    dwexpr_result pr;
    dwexpr_error pe;
    const size_t tu = unit;
    memset(&ti, 0, sizeof ti); /* no type: nothing to read */
    if (dwexpr_libdwarf_type_get(r->ld, tu, type, &ti) == DWEXPR_OK) {
        while (ti.tag != TAG_pointer && ti.tag != TAG_reference &&
               ti.tag != TAG_rvalue_reference && ti.target &&
               dwexpr_libdwarf_type_get(r->ld, tu, ti.target, &ti) == DWEXPR_OK) {
        }
    }
    dwexpr_libdwarf_type_info pt;
    uint64_t pbytes = 0;
    if (ti.target && dwexpr_libdwarf_type_get(r->ld, tu, ti.target, &pt) == DWEXPR_OK)
        pbytes = pt.bytes;
    if (dwexpr_libdwarf_eval_location(r->b, r->aux, tu, s->u.ptr.die, where, &pr, &pe) ==
        DWEXPR_OK) {
        dwexpr_loc copy;
        if (pbytes && dwexpr_libdwarf_loc_copy(&pr.loc, &copy) == DWEXPR_OK) {
            displace(&copy, s->u.ptr.disp);
            bool au;
            dwexpr_status rs;
            json_t *h = read_hex(r, r->aux, &copy, 8 * pbytes, &au, &pe, &rs, NULL);
            json_object_set_new(p, "hex", h ? h : json_null());
            dwexpr_libdwarf_loc_free(&copy);
        }
    } else if (pe.status == DWEXPR_E_NOT_FOUND && pbytes) {
        /* the object pointed to has no location: optimized out */
        char *xs = malloc(2 * (size_t)pbytes + 1);
        if (xs) {
            memset(xs, 'x', 2 * (size_t)pbytes);
            xs[2 * pbytes] = 0;
            json_object_set_new(p, "hex", json_string(xs));
            free(xs);
        }
    } else {
        json_object_set_new(p, "error", out_error_from(NULL, &pe));
    }
    return p;
}

static json_t *eval_var_one(locs_eval *r, const dwexpr_libdwarf_var *v, uint32_t frame,
                            uint64_t pc)
{
    json_t *o = var_base_json(v);
    bool bad = false;
    json_object_set_new(o, "location", location_json(r, v, &bad));
    dwexpr_eval_params where = where_at(r, frame, pc);
    dwexpr_result res;
    dwexpr_error err;
    memset(&err, 0, sizeof err);
    bool optimized_out = false;
    dwexpr_status st;
    if (v->loc.kind == DWEXPR_LIBDWARF_ATTR_NONE) {
        /* no DW_AT_location and no DW_AT_const_value: optimized out (DWARF 5 4.1) */
        json_object_set_new(o, "result", json_pack("{s:s,s:[{s:s}]}", "kind", "location",
                                                   "locations", "kind", "undefined"));
        json_object_set_new(o, "hex", json_null());
        json_object_set_new(o, "optimized_out", json_true());
        return o;
    }
    st = dwexpr_libdwarf_eval_location(r->b, r->ctx, v->unit, v->die, &where, &res, &err);
    if (st) {
        json_t *e = out_error_from(r->c, &err);
        json_object_set_new(e, "status", json_string(dwexpr_status_name(err.status)));
        const char *note = dwexpr_libdwarf_binding_message(r->b);
        if (note[0])
            json_object_set_new(e, "detail", json_string(note));
        json_object_set_new(o, "result", e);
        json_object_set_new(o, "hex", json_null());
        /* reading undefined storage while computing the location (an entry
         * value the caller no longer has): the value is not available */
        json_object_set_new(o, "optimized_out", json_boolean(err.status == DWEXPR_E_UNDEFINED_READ));
        if (err.status != DWEXPR_E_UNDEFINED_READ)
            r->rc = LOCS_ERROR;
        return o;
    }
    json_object_set_new(o, "result", out_result_json(r->c, &res));
    /* a type with DW_AT_data_location (a descriptor: Fortran arrays): the
     * value is the data it points to */
    uint64_t dtype = data_location_type(r, v);
    if (dtype)
        return read_data(r, v, o, dtype, &res.loc, &where);
    /* the object's size: static, else computed (VLAs) on the other context */
    uint64_t bits = v->bit_size;
    if (!bits && v->type) {
        uint64_t bytes = 0;
        dwexpr_error e2;
        if (dwexpr_libdwarf_type_size(r->b, r->aux, v->unit, v->type, &res.loc, &where, &bytes,
                                      &e2) == DWEXPR_OK)
            bits = 8 * bytes;
        else /* no bytes, and why (a bound that cannot be computed here) */
            json_object_set_new(o, "size_error", size_error_json(r, &e2));
        json_object_set_new(o, "bit_size", json_integer((json_int_t)bits));
    }
    bool single_undef = res.loc.count == 1 && res.loc.slds[0].kind == DWEXPR_LOC_UNDEFINED;
    if (res.loc.count == 1 && res.loc.slds[0].kind == DWEXPR_LOC_IMPLICIT_POINTER) {
        /* GDB's <synthetic pointer>: no bytes; show what it points to */
        const dwexpr_sld *s = &res.loc.slds[0];
        json_object_set_new(o, "hex", json_null());
        json_object_set_new(o, "optimized_out", json_false());
        json_object_set_new(o, "implicit_pointer",
                            implicit_pointer_json(r, v->unit, v->type, s, &where));
        return o;
    }
    if (bits == 0 || single_undef) {
        json_object_set_new(o, "hex", json_null());
        json_object_set_new(o, "optimized_out", json_boolean(single_undef));
        return o;
    }
    bool all_undef;
    uint64_t short_bits = 0;
    dwexpr_loc whole;
    bool have_whole = dwexpr_libdwarf_loc_copy(&res.loc, &whole) == DWEXPR_OK;
    json_t *h = read_hex(r, r->ctx, &res.loc, bits, &all_undef, &err, &st, &short_bits);
    if (!h && st == DWEXPR_E_OUT_OF_RANGE)
        h = read_x87(r, r->ctx, v, &res.loc, bits, &all_undef, &err, &st);
    if (short_bits)
        json_object_set_new(o, "short_composite", json_pack("{s:I}", "bits", (json_int_t)short_bits));
    if (!h) {
        json_object_set_new(o, "hex", json_null());
        json_t *e = out_error_from(r->c, &err);
        json_object_set_new(e, "status", json_string(dwexpr_status_name(err.status)));
        json_object_set_new(o, "read_error", e);
        optimized_out = false;
    } else if (all_undef) {
        json_decref(h);
        json_object_set_new(o, "hex", json_null());
        optimized_out = true;
    } else {
        json_object_set_new(o, "hex", h);
    }
    json_object_set_new(o, "optimized_out", json_boolean(optimized_out));
    if (have_whole) {
        /* structures, unions and arrays: their members, read one by one */
        if (h && !all_undef) {
            json_t *mem = members_json(r, v->unit, v->type, &whole, NULL, &where, 0, bits / 8);
            if (mem)
                json_object_set_new(o, "members", mem);
        }
        dwexpr_libdwarf_loc_free(&whole);
    }
    (void)bad;
    return o;
}

json_t *locs_eval_var(locs_eval *r, const dwexpr_libdwarf_var *v, uint32_t frame, uint64_t pc)
{
    json_t *o = eval_var_one(r, v, frame, pc);
    if (!r->all_lanes || !r->focus.lanes)
        return o;
    /* every lane of the wavefront: the bytes each lane reads */
    dwexpr_eval_params save = r->focus;
    json_t *lanes = json_array();
    for (uint32_t l = 0; l < save.lanes; l++) {
        r->focus.lane = l;
        r->focus.ctx |= DWEXPR_CTX_LANE;
        json_t *x = eval_var_one(r, v, frame, pc);
        json_t *h = json_object_get(x, "hex");
        json_array_append(lanes, h ? h : json_null());
        json_decref(x);
    }
    r->focus = save;
    json_object_set_new(o, "lanes", lanes);
    return o;
}

/* The name GDB shows for function scope FN: its C++ linkage name
 * demangled (funcname_demangle), else the DWARF's qualified name. A Rust
 * function's is always the DWARF's (DW_AT_name in its namespaces:
 * "r1::main::{closure#0}"): GDB names a Rust symbol by dwarf2_full_name,
 * not by demangling its linkage name, which holds a hash
 * ("_ZN2r14main28_$u7b$$u7b$closure$u7d$$u7d$17h...E"). */
static const char *frame_function(locs_eval *r, const dwexpr_libdwarf_scope *fn, char *buf,
                                  size_t cap)
{
    const bool rust = dwexpr_libdwarf_unit_language(r->ld, fn->unit) == 0x1c /* DW_LANG_Rust */;
    if (!rust && funcname_demangle(dwexpr_libdwarf_scope_linkage_name(r->ld, fn), buf, cap))
        return buf;
    const char *q = dwexpr_libdwarf_scope_qualified_name(r->ld, fn);
    return q ? q : fn->name ? fn->name : "?";
}

/* The frame object of function or inlined scope FN (INDEX) at PC of
 * frame FRAME, whose innermost scope is INNER, with its variables. */
static json_t *eval_frame(locs_eval *r, const dwexpr_libdwarf_scope *fn, uint32_t frame,
                          uint64_t pc, const dwexpr_libdwarf_scope *inner, uint64_t runtime_pc,
                          unsigned index, bool is_inline, json_t *(*extra)(void *, unsigned),
                          void *extra_user)
{
    json_t *f = json_object();
    json_object_set_new(f, "index", json_integer(index));
    char name[512];
    json_object_set_new(f, "function", json_string(frame_function(r, fn, name, sizeof name)));
    json_object_set_new(f, "inline", json_boolean(is_inline));
    json_object_set_new(f, "pc", hexnum(runtime_pc));
    if (extra) {
        json_t *x = extra(extra_user, frame);
        json_object_update(f, x);
        json_decref(x);
    }
    json_object_set_new(f, "die", hexnum(fn->die));
    if (r->c || r->machine)
        frame_attrs(r, fn, frame, pc, f);
    json_t *vars = json_array();
    for (size_t i = 0; i < dwexpr_libdwarf_var_count(r->ld); i++) {
        const dwexpr_libdwarf_var *v = dwexpr_libdwarf_var_get(r->ld, i);
        if (v->scope->kind == DWEXPR_LIBDWARF_SCOPE_UNIT ||
            dwexpr_libdwarf_scope_function(v->scope) != fn ||
            !dwexpr_libdwarf_var_visible(v, inner))
            continue;
        json_array_append_new(vars, locs_eval_var(r, v, frame, pc));
    }
    json_object_set_new(f, "vars", vars);
    return f;
}

unsigned locs_eval_frames(locs_eval *r, uint32_t frame, uint64_t pc,
                          const dwexpr_libdwarf_scope *inner, uint64_t runtime_pc,
                          unsigned first_index, json_t *frames, json_t *(*extra)(void *, unsigned),
                          void *extra_user)
{
    unsigned index = first_index;
    for (const dwexpr_libdwarf_scope *fn = dwexpr_libdwarf_scope_function(inner); fn;
         fn = dwexpr_libdwarf_scope_function(fn->parent), index++) {
        json_array_append_new(frames, eval_frame(r, fn, frame, pc, inner, runtime_pc, index,
                                                 fn->kind == DWEXPR_LIBDWARF_SCOPE_INLINED,
                                                 extra, extra_user));
        if (fn->kind == DWEXPR_LIBDWARF_SCOPE_FUNCTION) {
            index++;
            break; /* a nested function's host is another frame, not an inlined caller */
        }
    }
    return index - first_index;
}

bool locs_eval_tail_frame(locs_eval *r, uint32_t frame, uint64_t pc,
                          const dwexpr_libdwarf_scope *inner, uint64_t runtime_pc, unsigned index,
                          json_t *frames, json_t *(*extra)(void *, unsigned), void *extra_user)
{
    const dwexpr_libdwarf_scope *fn = dwexpr_libdwarf_scope_function(inner);
    if (!fn)
        return false;
    json_t *f = eval_frame(r, fn, frame, pc, inner, runtime_pc, index, false, extra, extra_user);
    json_object_set_new(f, "tail_call", json_true());
    json_array_append_new(frames, f);
    return true;
}

/* ---- human output ---- */

static void human_expr(const json_t *e, const char *indent)
{
    size_t i;
    json_t *op;
    json_array_foreach(json_object_get(e, "ops"), i, op)
        printf("%s%s\n", indent, json_string_value(op));
    json_t *err = json_object_get(e, "error");
    if (err)
        printf("%s! %s\n", indent, json_string_value(json_object_get(err, "message")));
}

/* A location listing for people: expression or list entries. */
static void human_location(const json_t *loc)
{
    const char *form = json_string_value(json_object_get(loc, "form"));
    if (strcmp(form, "exprloc") == 0) {
        human_expr(json_object_get(loc, "expr"), "      ");
    } else if (strcmp(form, "loclist") == 0) {
        printf("      %s list at %s\n", json_string_value(json_object_get(loc, "section")),
               json_string_value(json_object_get(loc, "offset")));
        size_t i;
        json_t *e;
        json_array_foreach(json_object_get(loc, "entries"), i, e) {
            if (json_object_get(e, "default"))
                printf("      <default> (%s)\n", json_string_value(json_object_get(e, "kind")));
            else
                printf("      [%s, %s) (%s)\n", json_string_value(json_object_get(e, "low")),
                       json_string_value(json_object_get(e, "high")),
                       json_string_value(json_object_get(e, "kind")));
            human_expr(json_object_get(e, "expr"), "        ");
        }
    } else if (strcmp(form, "const_value") == 0) {
        printf("      const_value %s\n", json_string_value(json_object_get(loc, "bytes")));
    } else {
        printf("      %s\n", form);
    }
}

/* One variable for people: its declaration, then its location or value. */
void locs_human_var(const json_t *v, bool evaluated)
{
    const json_t *fn = json_object_get(v, "function");
    printf("  %s %s: %s (%lld bits) [%s line %lld, block depth %lld, die %s]\n",
           json_string_value(json_object_get(v, "kind")),
           json_string_value(json_object_get(v, "name")),
           json_string_value(json_object_get(v, "type")),
           (long long)json_integer_value(json_object_get(v, "bit_size")),
           json_is_string(fn) ? json_string_value(fn) : "<unit>",
           (long long)json_integer_value(json_object_get(v, "decl_line")),
           (long long)json_integer_value(json_object_get(v, "block_depth")),
           json_string_value(json_object_get(v, "die")));
    if (!evaluated) {
        human_location(json_object_get(v, "location"));
        return;
    }
    const json_t *res = json_object_get(v, "result");
    const json_t *hex = json_object_get(v, "hex");
    if (json_object_get(res, "class") && json_is_true(json_object_get(v, "optimized_out")))
        /* a value the evaluation could not recover (an entry value the
         * caller does not keep, ...): GDB's "<optimized out>", with why */
        printf("      <optimized out> (%s%s%s)\n",
               json_string_value(json_object_get(res, "message")),
               json_object_get(res, "detail") ? "; " : "",
               json_object_get(res, "detail")
                   ? json_string_value(json_object_get(res, "detail")) : "");
    else if (json_object_get(res, "class"))
        printf("      error (%s): %s%s%s\n", json_string_value(json_object_get(res, "class")),
               json_string_value(json_object_get(res, "message")),
               json_object_get(res, "detail") ? "; " : "",
               json_object_get(res, "detail")
                   ? json_string_value(json_object_get(res, "detail")) : "");
    else if (json_is_true(json_object_get(v, "optimized_out")))
        printf("      <optimized out>\n");
    else if (json_is_string(json_object_get(v, "data_absent")))
        /* GDB's words: "<not allocated>", "<not associated>" */
        printf("      <%s>\n", json_string_value(json_object_get(v, "data_absent")));
    else if (json_is_string(hex))
        printf("      = %s\n", json_string_value(hex));
    else if (json_object_get(v, "implicit_pointer"))
        printf("      <synthetic pointer> to %s\n",
               json_string_value(json_object_get(json_object_get(v, "implicit_pointer"), "die")));
    else if (json_object_get(v, "read_error"))
        printf("      unreadable: %s\n",
               json_string_value(json_object_get(json_object_get(v, "read_error"), "message")));
    else if (json_object_get(v, "size_error")) {
        /* the object's size (a dynamic type's bounds) could not be computed */
        const json_t *e = json_object_get(v, "size_error");
        printf("      size unknown: %s%s%s\n", json_string_value(json_object_get(e, "message")),
               json_object_get(e, "detail") ? "; " : "",
               json_object_get(e, "detail") ? json_string_value(json_object_get(e, "detail")) : "");
    }
    const json_t *lanes = json_object_get(v, "lanes");
    if (json_is_array(lanes)) {
        size_t i;
        json_t *h;
        json_array_foreach(lanes, i, h)
            printf("%s%s", i % 8 ? " " : (i ? "\n        " : "      lanes: "),
                   json_is_string(h) ? json_string_value(h) : "-");
        printf("\n");
    }
}

/* ---- the command ---- */

int cmd_locs(int argc, char **argv)
{
    locs_opts o;
    int rc = parse(argc, argv, &o);
    if (rc)
        return rc;
    if (o.help) {
        fputs(usage_locs, stdout);
        return LOCS_OK;
    }
    if (!o.binary) {
        usage("no binary given", NULL);
        fputs(usage_locs, stderr);
        return LOCS_USAGE;
    }
    locs_run r;
    cli_ctx c;
    bool have_ctx = false;
    memset(&r, 0, sizeof r);
    memset(&c, 0, sizeof c);
    dwexpr_error err;
    if (dwexpr_libdwarf_open(o.binary, o.no_dwo ? DWEXPR_LIBDWARF_NO_DWO : 0, &r.ld, &err))
        return usage(err.message, NULL);
    rc = LOCS_OK;
    if (o.context) {
        cli_overrides ov;
        memset(&ov, 0, sizeof ov);
        ov.encoding = -1;
        if (cli_ctx_load(&c, o.context, &ov)) {
            rc = usage(c.err, NULL);
            goto done;
        }
        have_ctx = true;
        r.c = &c;
        r.machine = true;
        r.focus = c.params;
        r.arch = c.arch;
        if (o.has_pc) {
            /* --pc is frame 0's pc (unless the context's frame 0 has one) */
            c.params.pc = o.pc;
            c.params.has_pc = true;
        } else if (c.params.has_pc) {
            o.pc = c.params.pc;
            o.has_pc = true;
        }
    }
    if (!r.arch || !o.context)
        r.arch = dwexpr_arch_find(dwexpr_libdwarf_arch_name(r.ld));
    if ((o.has_lane || o.all_lanes) && (!have_ctx || !o.has_pc)) {
        rc = usage("--lane and --all-lanes need --context and a pc", NULL);
        goto done;
    }
    if (o.has_lane) {
        if (c.params.lanes && o.lane >= c.params.lanes) {
            char buf[64];
            snprintf(buf, sizeof buf, "%llu (the context has %u lanes)",
                     (unsigned long long)o.lane, (unsigned)c.params.lanes);
            rc = usage("no such lane:", buf);
            goto done;
        }
        r.focus.lane = (uint32_t)o.lane;
        r.focus.ctx |= DWEXPR_CTX_LANE;
    }
    if (o.all_lanes && !c.params.lanes) {
        rc = usage("--all-lanes: the context has no lanes", NULL);
        goto done;
    }
    r.all_lanes = o.all_lanes;
    uint64_t bias = o.has_bias ? o.bias : (have_ctx ? c.unit.load_bias : 0);
    dwexpr_libdwarf_set_load_bias(r.ld, bias);
    if (dwexpr_libdwarf_target(r.ld, have_ctx ? &c.target : NULL, have_ctx ? &c : NULL,
                               &r.t, &r.b) ||
        dwexpr_ctx_new(NULL, &r.ctx) || dwexpr_ctx_new(NULL, &r.aux) ||
        dwexpr_ctx_new(NULL, &r.aux2)) {
        rc = usage("out of memory", NULL);
        goto done;
    }
    dwexpr_libdwarf_binding_set_entry_policy(r.b, o.policy);
    json_t *top = json_object();
    json_object_set_new(top, "binary", json_string(o.binary));
    json_object_set_new(top, "arch", json_string(dwexpr_libdwarf_arch_name(r.ld)));
    json_object_set_new(top, "load_bias", hexnum(bias));
    if (!o.has_pc) {
        listing l = {.json = o.json};
        json_t *units = units_json(&r);
        size_t i;
        json_t *v;
        if (l.json) {
            json_object_set_new(top, "units", units);
        } else {
            json_array_foreach(units, i, v)
                human_unit(v);
            json_decref(units);
        }
        listing_open(&l, top);
        top = NULL;
        listing_array(&l, "functions", human_function);
        for (size_t k = 0; k < dwexpr_libdwarf_scope_count(r.ld); k++) {
            json_t *f = function_json(dwexpr_libdwarf_scope_get(r.ld, k));
            if (f)
                listing_entry(&l, f);
        }
        listing_array_end(&l);
        listing_array(&l, "vars", human_listed_var);
        for (size_t k = 0; k < dwexpr_libdwarf_var_count(r.ld); k++) {
            const dwexpr_libdwarf_var *var = dwexpr_libdwarf_var_get(r.ld, k);
            json_t *j = var_base_json(var);
            bool bad = false;
            json_object_set_new(j, "location", location_json(&r, var, &bad));
            if (bad)
                rc = LOCS_ERROR;
            listing_entry(&l, j);
        }
        listing_array_end(&l);
        listing_close(&l);
    } else {
        uint64_t link = o.pc - bias;
        uint64_t at = o.caller && link ? link - 1 : link;
        dwexpr_libdwarf_binding_set_pc(r.b, 0, link);
        dwexpr_libdwarf_binding_set_return_address(r.b, 0, o.caller);
        json_object_set_new(top, "pc", hexnum(o.pc));
        json_object_set_new(top, "link_pc", hexnum(link));
        const dwexpr_libdwarf_scope *inner = dwexpr_libdwarf_scope_at(r.ld, at);
        json_t *frames = json_array();
        if (inner)
            locs_eval_frames(&r, 0, at, inner, o.pc, 0, frames, NULL, NULL);
        json_object_set_new(top, "frames", frames);
        json_t *globals = json_array();
        for (size_t i = 0; i < dwexpr_libdwarf_var_count(r.ld); i++) {
            const dwexpr_libdwarf_var *v = dwexpr_libdwarf_var_get(r.ld, i);
            if (v->scope->kind == DWEXPR_LIBDWARF_SCOPE_UNIT && inner &&
                unit_describes(r.ld, inner, v->unit))
                json_array_append_new(globals, locs_eval_var(&r, v, 0, at));
        }
        json_object_set_new(top, "globals", globals);
        if (!inner)
            fprintf(stderr, "dwexpr locs: no function at pc 0x%" PRIx64 "\n", link);
        if (!o.json) {
            size_t i, k;
            json_t *f, *v;
            json_array_foreach(frames, i, f) {
                printf("frame %zu: %s%s at %s\n", i,
                       json_string_value(json_object_get(f, "function")),
                       json_is_true(json_object_get(f, "inline")) ? " (inlined)" : "",
                       json_string_value(json_object_get(f, "pc")));
                json_array_foreach(json_object_get(f, "vars"), k, v)
                    locs_human_var(v, true);
            }
            printf("globals:\n");
            json_array_foreach(globals, k, v)
                locs_human_var(v, true);
        }
        rc = r.rc;
    }
    if (top && o.json)
        out_print_json(top);
    else
        json_decref(top);
done:
    dwexpr_ctx_free(r.ctx);
    dwexpr_ctx_free(r.aux);
    dwexpr_ctx_free(r.aux2);
    dwexpr_libdwarf_binding_free(r.b);
    if (have_ctx || o.context)
        cli_ctx_free(&c);
    dwexpr_libdwarf_close(r.ld);
    return rc;
}
