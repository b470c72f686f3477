/* examples/dwexpr/output.c: result, error and read output of the CLI, as
 * the contract's JSON shapes ("Result JSON") and as text for people
 * (values, single location descriptions, composites indented). */
#include "output.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static const char hexdigits[] = "0123456789abcdef";

char *out_hex(const uint8_t *b, size_t n)
{
    char *s = malloc(2 * n + 1);
    if (!s) {
        fputs("dwexpr: out of memory\n", stderr);
        exit(2);
    }
    for (size_t i = 0; i < n; i++) {
        s[2 * i] = hexdigits[b[i] >> 4];
        s[2 * i + 1] = hexdigits[b[i] & 15];
    }
    s[2 * n] = 0;
    return s;
}

/* A JSON string of hex bytes. */
static json_t *hex_json(const uint8_t *b, size_t n)
{
    char *s = out_hex(b, n);
    json_t *j = json_string(s);
    free(s);
    return j;
}

/* "0x..." for V. */
static json_t *addr_json(uint64_t v)
{
    char buf[24];
    snprintf(buf, sizeof buf, "0x%" PRIx64, v);
    return json_string(buf);
}

/* An unsigned number as a JSON integer when it fits, else a "0x" string. */
static json_t *u64_json(uint64_t v)
{
    return v <= (uint64_t)INT64_MAX ? json_integer((json_int_t)v) : addr_json(v);
}

const char *out_encoding_name(unsigned ate, char *buf, size_t cap)
{
    switch (ate) {
    case DWEXPR_ATE_GENERIC: return "generic";
    case DW_ATE_address: return "address";
    case DW_ATE_boolean: return "boolean";
    case DW_ATE_complex_float: return "complex_float";
    case DW_ATE_float: return "float";
    case DW_ATE_signed: return "signed";
    case DW_ATE_signed_char: return "signed_char";
    case DW_ATE_unsigned: return "unsigned";
    case DW_ATE_unsigned_char: return "unsigned_char";
    case DW_ATE_imaginary_float: return "imaginary_float";
    case DW_ATE_packed_decimal: return "packed_decimal";
    case DW_ATE_numeric_string: return "numeric_string";
    case DW_ATE_edited: return "edited";
    case DW_ATE_signed_fixed: return "signed_fixed";
    case DW_ATE_unsigned_fixed: return "unsigned_fixed";
    case DW_ATE_decimal_float: return "decimal_float";
    case DW_ATE_UTF: return "utf";
    case DW_ATE_UCS: return "ucs";
    case DW_ATE_ASCII: return "ascii";
    default:
        snprintf(buf, cap, "0x%02x", ate);
        return buf;
    }
}

/* Total bits of a value: element bits times lanes. */
static uint64_t value_bits(const dwexpr_value *v)
{
    return (uint64_t)v->type.bits * (v->type.lanes ? v->type.lanes : 1);
}

/* "0x..." of a value as an unsigned integer of its total bits (no leading
 * zeros; "0x0" for zero) into a malloc'ed string. */
static char *value_hex(const dwexpr_value *v)
{
    uint64_t bits = value_bits(v);
    size_t nbytes = (size_t)((bits + 7) / 8);
    char *s = malloc(2 * nbytes + 4 + 16);
    size_t k = 0;
    if (!s) {
        fputs("dwexpr: out of memory\n", stderr);
        exit(2);
    }
    s[k++] = '0';
    s[k++] = 'x';
    if (bits <= 64 || !v->wide) {
        uint64_t x = v->bits;
        if (bits < 64)
            x &= ((uint64_t)1 << bits) - 1;
        k += (size_t)snprintf(s + k, 17, "%" PRIx64, x);
        return s;
    }
    size_t i = nbytes;
    while (i > 0 && v->wide[i - 1] == 0)
        i--;
    if (i == 0) {
        s[k++] = '0';
    } else {
        uint8_t top = v->wide[i - 1];
        uint8_t rem = (uint8_t)(bits % 8);
        if (i == nbytes && rem)
            top &= (uint8_t)((1u << rem) - 1);
        if (top >> 4)
            s[k++] = hexdigits[top >> 4];
        s[k++] = hexdigits[top & 15];
        for (i--; i > 0; i--) {
            s[k++] = hexdigits[v->wide[i - 1] >> 4];
            s[k++] = hexdigits[v->wide[i - 1] & 15];
        }
    }
    s[k] = 0;
    return s;
}

/* The "type" object of a value. */
static json_t *type_json(const dwexpr_type *t)
{
    char buf[16];
    json_t *o = json_object();
    json_object_set_new(o, "bits", json_integer(t->bits));
    json_object_set_new(o, "encoding", json_string(out_encoding_name(t->encoding, buf, sizeof buf)));
    if (t->lanes > 1)
        json_object_set_new(o, "vector", json_integer(t->lanes));
    return o;
}

static json_t *loc_json(const dwexpr_loc *l);

/* Add "thread"/"lane"/"frame" as the SLD's context flags say. A register
 * of the top frame is the register itself: "frame" appears only for a
 * caller frame's storage (frame > 0). */
static void ctx_fields(json_t *o, const dwexpr_sld *s)
{
    if (s->ctx & DWEXPR_CTX_THREAD)
        json_object_set_new(o, "thread", u64_json(s->thread));
    if (s->ctx & DWEXPR_CTX_LANE)
        json_object_set_new(o, "lane", json_integer(s->lane));
    if ((s->ctx & DWEXPR_CTX_FRAME) && s->frame != 0)
        json_object_set_new(o, "frame", json_integer(s->frame));
}

/* One SLD in the contract's shapes. */
static json_t *sld_json(const dwexpr_sld *s)
{
    json_t *o = json_object();
    uint64_t bo = s->byte_offset * 8 + s->bit;
    switch (s->kind) {
    case DWEXPR_LOC_MEMORY:
        json_object_set_new(o, "kind", json_string("memory"));
        json_object_set_new(o, "aspace", json_integer(s->aspace));
        json_object_set_new(o, "address", addr_json(s->byte_offset));
        json_object_set_new(o, "bit_offset", json_integer(s->bit));
        ctx_fields(o, s);
        break;
    case DWEXPR_LOC_REGISTER:
        json_object_set_new(o, "kind", json_string("register"));
        json_object_set_new(o, "regno", json_integer(s->u.regno));
        json_object_set_new(o, "bit_offset", u64_json(bo));
        ctx_fields(o, s);
        break;
    case DWEXPR_LOC_IMPLICIT:
        json_object_set_new(o, "kind", json_string("implicit"));
        json_object_set_new(o, "bytes", hex_json(s->u.imp.data, (size_t)((s->u.imp.bits + 7) / 8)));
        json_object_set_new(o, "bit_size", u64_json(s->u.imp.bits));
        json_object_set_new(o, "bit_offset", u64_json(bo));
        break;
    case DWEXPR_LOC_IMPLICIT_POINTER:
        json_object_set_new(o, "kind", json_string("implicit_pointer"));
        json_object_set_new(o, "die", addr_json(s->u.ptr.die));
        json_object_set_new(o, "displacement", json_integer(s->u.ptr.disp));
        json_object_set_new(o, "aspace", json_integer(s->aspace));
        json_object_set_new(o, "bit_offset", u64_json(bo));
        break;
    case DWEXPR_LOC_COMPOSITE: {
        json_t *parts = json_array();
        json_object_set_new(o, "kind", json_string("composite"));
        json_object_set_new(o, "bit_offset", u64_json(bo));
        for (uint32_t i = 0; s->u.comp && i < s->u.comp->count; i++) {
            const dwexpr_part *p = &s->u.comp->parts[i];
            json_array_append_new(parts, json_pack("{s:o,s:o}", "bit_size", u64_json(p->bit_size),
                                                   "locations", loc_json(&p->loc)));
        }
        json_object_set_new(o, "parts", parts);
        break;
    }
    default:
        json_object_set_new(o, "kind", json_string("undefined"));
        break;
    }
    return o;
}

/* The list of SLDs of a location description. */
static json_t *loc_json(const dwexpr_loc *l)
{
    json_t *a = json_array();
    for (uint32_t i = 0; i < l->count; i++)
        json_array_append_new(a, sld_json(&l->slds[i]));
    return a;
}

json_t *out_result_json(const cli_ctx *c, const dwexpr_result *r)
{
    json_t *o = json_object();
    (void)c;
    if (r->kind == DWEXPR_RESULT_VALUE) {
        json_object_set_new(o, "kind", json_string("value"));
        json_object_set_new(o, "type", type_json(&r->value.type));
        if (r->value.is_implicit_pointer) {
            json_object_set_new(o, "hex", json_null());
            json_object_set_new(o, "implicit_pointer",
                                json_pack("{s:o,s:I,s:i}", "die", addr_json(r->value.ipv_die),
                                          "displacement", (json_int_t)r->value.ipv_disp,
                                          "aspace", (int)r->value.ipv_aspace));
        } else {
            char *h = value_hex(&r->value);
            json_object_set_new(o, "hex", json_string(h));
            free(h);
        }
    } else {
        json_object_set_new(o, "kind", json_string("location"));
        json_object_set_new(o, "locations", loc_json(&r->loc));
    }
    return o;
}

/* Length of the well-formed UTF-8 sequence at P (Unicode 3.9, table
 * 3-7: no overlong forms, surrogates or code points past U+10FFFF), or 0. */
static size_t utf8_seq(const unsigned char *p)
{
    unsigned char c = p[0];
    if (c < 0x80)
        return 1;
    size_t n = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
    if (n == 0)
        return 0;
    unsigned char lo = 0x80, hi = 0xbf;
    if (c == 0xe0)
        lo = 0xa0;
    else if (c == 0xed)
        hi = 0x9f;
    else if (c == 0xf0)
        lo = 0x90;
    else if (c == 0xf4)
        hi = 0x8f;
    if (p[1] < lo || p[1] > hi)
        return 0;
    for (size_t i = 2; i < n; i++)
        if (p[i] < 0x80 || p[i] > 0xbf)
            return 0;
    return n;
}

json_t *out_text_json(const char *s)
{
    json_t *j = json_string(s);
    if (j)
        return j;
    /* not UTF-8 (a command-line argument can be anything): each byte of a
     * malformed sequence becomes the four characters \xNN */
    size_t n = strlen(s), k = 0;
    char *b = malloc(4 * n + 1);
    if (!b)
        return json_string("?");
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        size_t len = utf8_seq(p);
        if (len) {
            memcpy(b + k, p, len);
            k += len;
            p += len;
        } else {
            snprintf(b + k, 5, "\\x%02x", *p++);
            k += 4;
        }
    }
    b[k] = 0;
    j = json_string(b);
    free(b);
    return j ? j : json_string("?");
}

json_t *out_error_json(const char *cls, int64_t offset, const char *op, const char *msg)
{
    json_t *o = json_object();
    json_object_set_new(o, "class", json_string(cls));
    json_object_set_new(o, "offset", offset >= 0 ? json_integer(offset) : json_null());
    json_object_set_new(o, "op", op ? out_text_json(op) : json_null());
    json_object_set_new(o, "message", out_text_json(msg));
    return o;
}

/* The message of E, with the simulated target's detail for target errors. */
static void error_message(const cli_ctx *c, const dwexpr_error *e, char *buf, size_t cap)
{
    const char *m = e->message[0] ? e->message : dwexpr_strerror(e->status);
    dwexpr_class k = dwexpr_status_class(e->status);
    if (c && c->target_msg[0] && (k == DWEXPR_CLASS_TARGET || k == DWEXPR_CLASS_CONTEXT) &&
        !strstr(m, c->target_msg))
        snprintf(buf, cap, "%s (%s)", m, c->target_msg);
    else
        snprintf(buf, cap, "%s", m);
}

json_t *out_error_from(const cli_ctx *c, const dwexpr_error *e)
{
    char msg[512];
    error_message(c, e, msg, sizeof msg);
    return out_error_json(dwexpr_class_name(dwexpr_status_class(e->status)), e->offset,
                          e->op_name, msg);
}

json_t *out_read_json(const uint8_t *buf, const uint8_t *mask, size_t n)
{
    char *s = out_hex(buf, n);
    bool complete = true;
    for (size_t i = 0; i < n; i++)
        if (mask && mask[i]) {
            s[2 * i] = s[2 * i + 1] = 'x';
            complete = false;
        }
    json_t *o = json_pack("{s:s,s:b}", "hex", s, "complete", complete);
    free(s);
    return o;
}

void out_print_json(json_t *obj)
{
    char *s = json_dumps(obj, JSON_ENSURE_ASCII);
    if (s) {
        fputs(s, stdout);
        fputc('\n', stdout);
        free(s);
    }
    json_decref(obj);
}

bool out_argv_json(int argc, char **argv, const char *const *valued)
{
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0)
            return false;
        if (strcmp(argv[i], "--json") == 0)
            return true;
        for (size_t k = 0; valued && valued[k]; k++)
            if (strcmp(argv[i], valued[k]) == 0) {
                i++;
                break;
            }
    }
    return false;
}

int out_usage(bool json, const char *prefix, const char *fmt, ...)
{
    char msg[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "%s: %s\n", prefix, msg);
    if (json)
        out_print_json(json_pack("{s:b,s:o}", "ok", 0, "error",
                                 out_error_json("usage", -1, NULL, msg)));
    return 2;
}

/* ---- human output ---- */

/* Context suffix (" thread 1 lane 3 frame 2") of an SLD. */
static void human_ctx(FILE *f, const dwexpr_sld *s)
{
    if (s->ctx & DWEXPR_CTX_THREAD)
        fprintf(f, " thread %" PRIu64, s->thread);
    if (s->ctx & DWEXPR_CTX_LANE)
        fprintf(f, " lane %u", s->lane);
    if ((s->ctx & DWEXPR_CTX_FRAME) && s->frame)
        fprintf(f, " frame %u", s->frame);
}

/* " +N bits" when an offset is not zero. */
static void human_bits(FILE *f, uint64_t bo)
{
    if (bo % 8 == 0 && bo)
        fprintf(f, " +%" PRIu64 " bytes", bo / 8);
    else if (bo)
        fprintf(f, " +%" PRIu64 " bits", bo);
}

static void human_loc(FILE *f, const cli_ctx *c, const dwexpr_loc *l, int indent);

/* One SLD on its own line (nested parts indented below it). */
static void human_sld(FILE *f, const cli_ctx *c, const dwexpr_sld *s, int indent)
{
    uint64_t bo = s->byte_offset * 8 + s->bit;
    const char *name;
    switch (s->kind) {
    case DWEXPR_LOC_MEMORY:
        fprintf(f, "memory 0x%" PRIx64, s->byte_offset);
        if (s->bit)
            fprintf(f, " bit %u", s->bit);
        fprintf(f, " [aspace %u]", s->aspace);
        human_ctx(f, s);
        fputc('\n', f);
        break;
    case DWEXPR_LOC_REGISTER:
        fprintf(f, "register %u", s->u.regno);
        name = c && c->arch ? dwexpr_arch_reg_name(c->arch, s->u.regno) : NULL;
        if (name)
            fprintf(f, " (%s)", name);
        human_bits(f, bo);
        human_ctx(f, s);
        fputc('\n', f);
        break;
    case DWEXPR_LOC_IMPLICIT: {
        char *h = out_hex(s->u.imp.data, (size_t)((s->u.imp.bits + 7) / 8));
        fprintf(f, "implicit value %s (%" PRIu64 " bits)", h, s->u.imp.bits);
        free(h);
        human_bits(f, bo);
        fputc('\n', f);
        break;
    }
    case DWEXPR_LOC_IMPLICIT_POINTER:
        fprintf(f, "implicit pointer to DIE 0x%" PRIx64 " %+" PRId64 " [aspace %u]", s->u.ptr.die,
                s->u.ptr.disp, s->aspace);
        human_bits(f, bo);
        fputc('\n', f);
        break;
    case DWEXPR_LOC_COMPOSITE: {
        const dwexpr_composite *comp = s->u.comp;
        uint64_t at = 0;
        fprintf(f, "composite (%" PRIu64 " bits%s)", comp ? comp->bits : 0,
                comp && !comp->complete ? ", incomplete" : "");
        human_bits(f, bo);
        fputc('\n', f);
        for (uint32_t i = 0; comp && i < comp->count; i++) {
            const dwexpr_part *p = &comp->parts[i];
            fprintf(f, "%*sbits %" PRIu64 "..%" PRIu64 ": ", indent + 2, "", at, at + p->bit_size);
            at += p->bit_size;
            human_loc(f, c, &p->loc, indent + 4);
        }
        break;
    }
    default:
        fputs("undefined\n", f);
        break;
    }
}

/* A location description: one SLD inline, several as an indented list. */
static void human_loc(FILE *f, const cli_ctx *c, const dwexpr_loc *l, int indent)
{
    if (l->count == 1) {
        human_sld(f, c, &l->slds[0], indent);
        return;
    }
    fprintf(f, "%u places:\n", l->count);
    for (uint32_t i = 0; i < l->count; i++) {
        fprintf(f, "%*s- ", indent + 2, "");
        human_sld(f, c, &l->slds[i], indent + 4);
    }
}

void out_human_result(FILE *f, const cli_ctx *c, const dwexpr_result *r)
{
    if (r->kind == DWEXPR_RESULT_LOCATION) {
        fputs("location: ", f);
        human_loc(f, c, &r->loc, 0);
        return;
    }
    const dwexpr_value *v = &r->value;
    char buf[16];
    const char *enc = out_encoding_name(v->type.encoding, buf, sizeof buf);
    if (v->is_implicit_pointer) {
        fprintf(f, "value: implicit pointer to DIE 0x%" PRIx64 " %+" PRId64 " [aspace %u] (%u bits)\n",
                v->ipv_die, v->ipv_disp, v->ipv_aspace, v->type.bits);
        return;
    }
    char *h = value_hex(v);
    fprintf(f, "value %s (%s, ", h, enc);
    free(h);
    if (v->type.lanes > 1)
        fprintf(f, "%u x %u bits)", v->type.lanes, v->type.bits);
    else
        fprintf(f, "%u bits)", v->type.bits);
    /* A decimal reading for scalars that fit in 64 bits. */
    if (v->type.lanes <= 1 && v->type.bits <= 64 && v->type.bits > 0) {
        uint64_t x = v->bits;
        unsigned n = v->type.bits;
        if (v->type.encoding == DW_ATE_float && n == 32) {
            float fl;
            uint32_t w = (uint32_t)x;
            memcpy(&fl, &w, sizeof fl);
            fprintf(f, " = %g", (double)fl);
        } else if (v->type.encoding == DW_ATE_float && n == 64) {
            double d;
            memcpy(&d, &x, sizeof d);
            fprintf(f, " = %g", d);
        } else if (v->type.encoding == DWEXPR_ATE_GENERIC || v->type.encoding == DW_ATE_signed ||
                   v->type.encoding == DW_ATE_signed_char) {
            if (n < 64 && (x >> (n - 1)) & 1)
                x |= ~(((uint64_t)1 << n) - 1);
            fprintf(f, " = %" PRId64, (int64_t)x);
        } else if (v->type.encoding == DW_ATE_unsigned || v->type.encoding == DW_ATE_unsigned_char ||
                   v->type.encoding == DW_ATE_address || v->type.encoding == DW_ATE_UTF) {
            fprintf(f, " = %" PRIu64, x);
        } else if (v->type.encoding == DW_ATE_boolean) {
            fputs(x ? " = true" : " = false", f);
        }
    }
    fputc('\n', f);
}

void out_human_error(FILE *f, const cli_ctx *c, const dwexpr_error *e)
{
    char msg[512];
    error_message(c, e, msg, sizeof msg);
    fprintf(f, "error (%s)", dwexpr_class_name(dwexpr_status_class(e->status)));
    if (e->offset >= 0)
        fprintf(f, " at 0x%04" PRIx64, (uint64_t)e->offset);
    if (e->op_name)
        fprintf(f, " %s", e->op_name);
    fprintf(f, ": %s\n", msg);
}

void out_human_read(FILE *f, const uint8_t *buf, const uint8_t *mask, size_t n, uint64_t bits)
{
    bool complete = true;
    fprintf(f, "read %" PRIu64 " bits:", bits);
    for (size_t i = 0; i < n; i++) {
        if (mask && mask[i]) {
            fputs(" xx", f);
            complete = false;
        } else {
            fprintf(f, " %02x", buf[i]);
        }
    }
    fputs(complete ? "\n" : "  (xx: undefined storage, optimized out)\n", f);
}

/* "register 6 (rbp): c0e0..." lines of one registers object. */
static void human_regs(FILE *f, const cli_ctx *c, const json_t *regs, const char *prefix)
{
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)regs, key, v) {
        unsigned long regno = strtoul(key, NULL, 10);
        const char *name = c && c->arch ? dwexpr_arch_reg_name(c->arch, (uint32_t)regno) : NULL;
        fprintf(f, "  %sregister %s", prefix, key);
        if (name)
            fprintf(f, " (%s)", name);
        fprintf(f, ": %s\n", json_string_value(json_object_get(v, "bytes")));
    }
}

void out_human_state(FILE *f, const cli_ctx *c, const json_t *state)
{
    const json_t *mem = json_object_get(state, "memory"), *frames = json_object_get(state, "frames");
    size_t i;
    json_t *m;
    if (json_is_array(frames)) {
        json_array_foreach(frames, i, m) {
            char prefix[32];
            snprintf(prefix, sizeof prefix, "frame %zu ", i);
            human_regs(f, c, json_object_get(m, "registers"), prefix);
        }
    } else {
        human_regs(f, c, json_object_get(state, "registers"), "");
    }
    json_array_foreach(mem, i, m) {
        fprintf(f, "  memory %s [aspace %d]", json_string_value(json_object_get(m, "address")),
                (int)json_integer_value(json_object_get(m, "aspace")));
        if (json_object_get(m, "lane"))
            fprintf(f, " lane %d", (int)json_integer_value(json_object_get(m, "lane")));
        fprintf(f, ": %s\n", json_string_value(json_object_get(m, "bytes")));
    }
}
