/* examples/dwexpr/context.c: parse a context file (contract "Context
 * file") with jansson into a simulated target, and the dwexpr_target
 * callbacks that answer from it (registers per frame, memory blocks,
 * address spaces, CFA, TLS, .debug_addr, base types, DIEs, entry values),
 * including the simulated AMDGPU wavefront (lanes, exec, vector registers
 * per lane, private_lane memory aliasing private_wave). */
#include "context.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the parsed state ---- */

typedef struct cx_reg {
    uint32_t regno;
    uint32_t len;
    uint8_t *bytes;
} cx_reg;

enum { SAVE_SAME, SAVE_MEMORY, SAVE_REGISTER, SAVE_UNDEFINED, SAVE_VALUE };

/* caller_saves[regno] of one frame: where the caller's register lives. */
typedef struct cx_save {
    uint32_t regno;
    int kind;
    uint32_t aspace;       /* SAVE_MEMORY */
    uint64_t addr;
    uint32_t reg;          /* SAVE_REGISTER */
    uint8_t *val;          /* SAVE_VALUE: implicit bytes */
    uint32_t vlen;
} cx_save;

typedef struct cx_frame {
    bool has_pc;
    uint64_t pc;
    bool has_cfa;
    uint32_t cfa_aspace;
    uint64_t cfa;
    bool has_fb;
    dwexpr_frame_base fb;
    cx_reg *regs;
    size_t nregs, capregs;
    cx_save *saves;
    size_t nsaves;
} cx_frame;

typedef struct cx_block {
    uint32_t aspace;
    bool has_lane;
    uint32_t lane;
    bool has_thread;
    uint64_t thread;
    uint64_t address;
    uint8_t *bytes;
    size_t len;
} cx_block;

typedef struct cx_pair {
    uint64_t key, val;
} cx_pair;

typedef struct cx_aspace {
    uint32_t id;
    dwexpr_aspace_info info;
} cx_aspace;

typedef struct cx_btype {
    uint64_t die;
    dwexpr_type t;
} cx_btype;

typedef struct cx_die {
    uint64_t off;
    dwexpr_die d;
} cx_die;

typedef struct cx_entry {
    char *key;             /* lowercase hex of the block */
    dwexpr_value v;
} cx_entry;

struct cx_state {
    void **allocs;
    size_t nallocs, capallocs;
    cx_frame *frames;
    size_t nframes;
    cx_pair *reg_sizes;
    size_t nreg_sizes;
    cx_block *mem;
    size_t nmem;
    cx_aspace *aspaces;
    size_t naspaces;
    bool has_fb;
    dwexpr_frame_base fb;
    bool has_tls_base;
    uint64_t tls_base;
    cx_pair *tls_map;
    size_t ntls;
    uint64_t *debug_addr;
    size_t ndebug_addr;
    cx_entry *entries;
    size_t nentries;
    cx_btype *btypes;
    size_t nbtypes;
    cx_die *dies;
    size_t ndies;
    dwexpr_loc object;
    bool has_exec;         /* "exec": the active lane mask */
    uint64_t exec;
    uint32_t wave;         /* AMDGPU wavefront size of the arch, 0 otherwise */
};

/* ---- small helpers ---- */

/* Abort the CLI on out-of-memory (there is nothing useful left to do). */
static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p) {
        fputs("dwexpr: out of memory\n", stderr);
        exit(2);
    }
    return p;
}

/* Remember P so cli_ctx_free releases it; returns P. */
static void *track(cx_state *st, void *p)
{
    if (st->nallocs == st->capallocs) {
        size_t cap = st->capallocs ? 2 * st->capallocs : 32;
        void **n = realloc(st->allocs, cap * sizeof *n);
        if (!n) {
            fputs("dwexpr: out of memory\n", stderr);
            exit(2);
        }
        st->allocs = n;
        st->capallocs = cap;
    }
    st->allocs[st->nallocs++] = p;
    return p;
}

/* Zeroed memory owned by the state. */
static void *cx_alloc(cx_state *st, size_t n, size_t size)
{
    return track(st, xcalloc(n, size));
}

/* Record a load error (printf-style) and return -1. */
static int fail(cli_ctx *c, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static int fail(cli_ctx *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->err, sizeof c->err, fmt, ap);
    va_end(ap);
    return -1;
}

/* Record the detail of a failed target access and return S. */
static dwexpr_status tfail(cli_ctx *c, dwexpr_status s, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static dwexpr_status tfail(cli_ctx *c, dwexpr_status s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->target_msg, sizeof c->target_msg, fmt, ap);
    va_end(ap);
    return s;
}

int cli_opt_value(int argc, char **argv, int *i, const char *name, const char **val)
{
    const char *a = argv[*i];
    size_t n = strlen(name);
    if (strncmp(a, name, n) != 0)
        return 0;
    if (a[n] == '=') {
        *val = a + n + 1;
        return 1;
    }
    if (a[n] != 0)
        return 0;
    if (*i + 1 >= argc)
        return -1;
    *val = argv[++*i];
    return 1;
}

int cli_parse_u64(const char *s, uint64_t *out)
{
    bool neg = false;
    char *end;
    unsigned long long v;
    while (*s == ' ' || *s == '\t')
        s++;
    if (*s == '-') {
        neg = true;
        s++;
    } else if (*s == '+') {
        s++;
    }
    if (*s < '0' || *s > '9')
        return -1;
    errno = 0;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        v = strtoull(s + 2, &end, 16);
    else
        v = strtoull(s, &end, 10);
    int range = errno == ERANGE;
    if ((errno && !range) || end == s || (s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && end == s + 2))
        return -1;
    while (*end == ' ' || *end == '\t')
        end++;
    if (*end)
        return -1;
    if (range || (neg && (uint64_t)v > (uint64_t)1 << 63))
        return -2;
    *out = neg ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    return 0;
}

/* Value of one hex digit, or -1. */
static int hexval(int ch)
{
    if (ch >= '0' && ch <= '9')
        return ch - '0';
    if (ch >= 'a' && ch <= 'f')
        return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F')
        return ch - 'A' + 10;
    return -1;
}

int cli_hex_decode(const char *s, uint8_t **out, size_t *len)
{
    size_t n = 0, cap = strlen(s) / 2 + 1;
    uint8_t *b = xcalloc(cap, 1);
    const char *p = s;
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == ',')
            p++;
        if (!*p)
            break;
        if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
            p += 2;
        const char *q = p;
        while (hexval((unsigned char)*q) >= 0)
            q++;
        if (q == p || ((size_t)(q - p) & 1) ||
            (*q && *q != ' ' && *q != '\t' && *q != '\n' && *q != '\r' && *q != ',')) {
            free(b);
            return -1;
        }
        for (; p < q; p += 2)
            b[n++] = (uint8_t)(hexval((unsigned char)p[0]) * 16 + hexval((unsigned char)p[1]));
    }
    *out = b;
    *len = n;
    return 0;
}

/* Lowercase hex of N bytes, no spaces, into a tracked string. */
static char *hex_key(cx_state *st, const uint8_t *b, size_t n)
{
    static const char digits[] = "0123456789abcdef";
    char *s = cx_alloc(st, 2 * n + 1, 1);
    for (size_t i = 0; i < n; i++) {
        s[2 * i] = digits[b[i] >> 4];
        s[2 * i + 1] = digits[b[i] & 15];
    }
    return s;
}

/* A number field: JSON integer or string. NEG (may be NULL) tells whether
 * it was written negative. */
static int num(cli_ctx *c, const json_t *j, const char *field, uint64_t *out, bool *neg)
{
    if (json_is_integer(j)) {
        json_int_t v = json_integer_value(j);
        *out = (uint64_t)v;
        if (neg)
            *neg = v < 0;
        return 0;
    }
    if (json_is_real(j)) {
        /* 4.0 is the number 4; a real is exact only up to 2^53, so larger
         * ones (jansson has rounded them already) are refused */
        double d = json_real_value(j);
        if (d >= -9007199254740992.0 && d <= 9007199254740992.0 && d == (double)(int64_t)d) {
            *out = (uint64_t)(int64_t)d;
            if (neg)
                *neg = d < 0;
            return 0;
        }
        if (d >= -9007199254740992.0 && d <= 9007199254740992.0)
            return fail(c, "context field %s: %g is not an integer", field, d);
        return fail(c, "context field %s: %g is beyond 2^53, where JSON reals are inexact: "
                       "write it as an integer or a string \"0x...\"", field, d);
    }
    if (json_is_string(j)) {
        const char *s = json_string_value(j);
        int r = cli_parse_u64(s, out);
        if (r == 0) {
            if (neg) {
                while (*s == ' ')
                    s++;
                *neg = *s == '-';
            }
            return 0;
        }
        if (r == -2)
            return fail(c, "context field %s: \"%.80s\" does not fit in 64 bits (-2^63 .. "
                           "2^64-1)", field, s);
    }
    return fail(c, "context field %s: expected a number (integer or string \"0x1f\", \"-8\", \"12\")",
                field);
}

/* A number that must fit in 32 bits (a negative one does not). */
static int num32(cli_ctx *c, const json_t *j, const char *field, uint32_t *out)
{
    uint64_t v;
    bool neg = false;
    if (num(c, j, field, &v, &neg))
        return -1;
    if (neg && v != 0)
        return fail(c, "context field %s: %" PRId64 " is negative", field, (int64_t)v);
    if (v > UINT32_MAX)
        return fail(c, "context field %s: %" PRIu64 " does not fit in 32 bits", field, v);
    *out = (uint32_t)v;
    return 0;
}

/* Member KEY of object J, or NULL; when there is one, SUB names it for
 * messages (FIELD.KEY). */
static const json_t *opt_member(const json_t *j, const char *key, const char *field,
                                char sub[static 256])
{
    const json_t *v = json_object_get(j, key);
    if (v)
        snprintf(sub, 256, "%.120s.%.60s", field, key);
    return v;
}

/* Optional 32-bit number KEY of object J (DEF when absent). */
static int opt_num32(cli_ctx *c, const json_t *j, const char *key, const char *field,
                     uint32_t def, uint32_t *out)
{
    char sub[256];
    const json_t *v = opt_member(j, key, field, sub);
    *out = def;
    return v ? num32(c, v, sub, out) : 0;
}

/* A hex byte string field into tracked memory. */
static int hexfield(cli_ctx *c, const json_t *j, const char *field, uint8_t **out, size_t *len)
{
    if (!json_is_string(j) || cli_hex_decode(json_string_value(j), out, len))
        return fail(c, "context field %s: expected a string of hex bytes (\"0102ff\")", field);
    track(c->st, *out);
    return 0;
}

/* A boolean field. */
static int boolean(cli_ctx *c, const json_t *j, const char *field, bool *out)
{
    if (!json_is_boolean(j))
        return fail(c, "context field %s: expected true or false", field);
    *out = json_is_true(j);
    return 0;
}

/* ---- expressions and registers ---- */

dwexpr_status cli_assemble(const cli_ctx *c, const char *text, uint8_t **out, size_t *len,
                           dwexpr_error *err)
{
    size_t cap = strlen(text) + 64, need = 0;
    uint8_t *b = xcalloc(cap, 1);
    dwexpr_status s = dwexpr_asm(text, &c->unit, c->arch, b, cap, &need, err);
    if (s == DWEXPR_E_NOSPACE && need > cap) {
        free(b);
        cap = need;
        b = xcalloc(cap, 1);
        s = dwexpr_asm(text, &c->unit, c->arch, b, cap, &need, err);
    }
    if (s != DWEXPR_OK) {
        free(b);
        return s;
    }
    *out = b;
    *len = need;
    return DWEXPR_OK;
}

/* An expression field: a string, or {"hex": "..."}; bytes are tracked.
 * A string is the text form or hex bytes as -x takes them ("76 10",
 * "7610": contract "frame_base": "text or hex ("-x" style) expression").
 * The rule: a string that assembles as text is text; one that does not
 * but is whole hex bytes is those bytes; otherwise the text form's error
 * is reported. Text wins, so no text expression changes meaning (none
 * of the operation names is hex digits of even length anyway). */
static int expr_field(cli_ctx *c, const json_t *j, const char *field, uint8_t **out,
                      size_t *len)
{
    if (json_is_string(j)) {
        dwexpr_error e;
        memset(&e, 0, sizeof e);
        if (cli_assemble(c, json_string_value(j), out, len, &e) != DWEXPR_OK &&
            cli_hex_decode(json_string_value(j), out, len) != 0)
            return fail(c, "context field %s: %s (nor is it hex bytes, \"76 10\")", field,
                        e.message[0] ? e.message : "expression does not assemble");
        track(c->st, *out);
        return 0;
    }
    if (json_is_object(j) && json_object_get(j, "hex")) {
        char sub[256];
        snprintf(sub, sizeof sub, "%.120s.hex", field);
        return hexfield(c, json_object_get(j, "hex"), sub, out, len);
    }
    return fail(c, "context field %s: expected an expression (text, hex bytes, or "
                   "{\"hex\": \"...\"})", field);
}

/* True when the arch is one of the generic ones (every register addr_size). */
static bool arch_is_generic(const cli_ctx *c)
{
    return strncmp(c->arch_name, "generic", 7) == 0;
}

/* Size of register REGNO: register_sizes, the arch, listed contents
 * (when LISTED), else the address size; but for the callback (LISTED) 0,
 * "no such register", when the arch has a register table (x86_64,
 * amdgpu-*) and REGNO is neither in it nor in the context: seed "Register
 * Location Description Operations": a register location storage
 * "corresponds to each of the target architecture registers" and has its
 * size; a number the architecture does not assign has none to make up. */
static uint32_t reg_size_of(const cli_ctx *c, uint32_t regno, bool listed)
{
    const cx_state *st = c->st;
    for (size_t i = 0; i < st->nreg_sizes; i++)
        if (st->reg_sizes[i].key == regno)
            return (uint32_t)st->reg_sizes[i].val;
    if (arch_is_generic(c))
        return c->unit.addr_size;
    uint32_t n = c->arch ? dwexpr_arch_reg_size(c->arch, regno) : 0;
    if (n)
        return n;
    if (listed) {
        for (size_t f = 0; f < st->nframes; f++)
            for (size_t i = 0; i < st->frames[f].nregs; i++)
                if (st->frames[f].regs[i].regno == regno && st->frames[f].regs[i].len > n)
                    n = st->frames[f].regs[i].len;
        if (n)
            return n;
        if (c->arch) /* not generic (above): one with a register table */
            return 0;
    }
    return c->unit.addr_size;
}

/* Store number V (NEG: written negative) in SIZE bytes in target byte order. */
static uint8_t *encode_number(cli_ctx *c, uint64_t v, bool neg, size_t size)
{
    uint8_t *b = cx_alloc(c->st, size, 1);
    for (size_t i = 0; i < size; i++) {
        uint8_t byte = i < 8 ? (uint8_t)(v >> (8 * i)) : (neg ? 0xff : 0);
        b[c->unit.big_endian ? size - 1 - i : i] = byte;
    }
    return b;
}

/* Add or replace register REGNO's contents in frame F. */
static void put_reg(cx_frame *f, uint32_t regno, uint8_t *bytes, uint32_t len)
{
    for (size_t i = 0; i < f->nregs; i++)
        if (f->regs[i].regno == regno) {
            f->regs[i].bytes = bytes;
            f->regs[i].len = len;
            return;
        }
    f->regs[f->nregs].regno = regno;
    f->regs[f->nregs].bytes = bytes;
    f->regs[f->nregs].len = len;
    f->nregs++;
}

/* A vector register given per lane, {"lanes": [N0, N1, ...]} (contract
 * "Context file"): the register is `lanes` elements of reg_size/lanes
 * bytes, lane 0 at the lowest bytes (AMDGPU: a VGPR is lanes x 32 bits,
 * AMDGPUUsage "DWARF Register Mapping"); lanes not listed are zero. */
static int lane_contents(cli_ctx *c, const json_t *arr, const char *field, uint32_t regno,
                         uint8_t **out, size_t *len)
{
    char sub[256];
    uint32_t lanes = c->params.lanes;
    uint32_t size = reg_size_of(c, regno, false);
    if (!json_is_array(arr))
        return fail(c, "context field %s.lanes: expected a list of per-lane numbers", field);
    if (lanes == 0)
        return fail(c, "context field %s.lanes: the number of lanes is not known (give \"lanes\" "
                       "or an amdgpu arch)", field);
    if (size % lanes != 0 || size / lanes == 0)
        return fail(c, "context field %s.lanes: register %u has %u bytes, not a multiple of %u "
                       "lanes", field, regno, size, lanes);
    if (json_array_size(arr) > lanes)
        return fail(c, "context field %s.lanes: %zu entries for %u lanes", field,
                    json_array_size(arr), lanes);
    uint32_t elem = size / lanes;
    uint8_t *b = cx_alloc(c->st, size, 1);
    for (size_t i = 0; i < json_array_size(arr); i++) {
        uint64_t n;
        bool neg = false;
        snprintf(sub, sizeof sub, "%.120s.lanes[%zu]", field, i);
        if (num(c, json_array_get(arr, i), sub, &n, &neg))
            return -1;
        for (uint32_t k = 0; k < elem; k++) {
            uint8_t byte = k < 8 ? (uint8_t)(n >> (8 * k)) : (neg ? 0xff : 0);
            b[i * elem + (c->unit.big_endian ? elem - 1 - k : k)] = byte;
        }
    }
    *out = b;
    *len = size;
    return 0;
}

/* A "registers" object into frame F (whose regs array has room). */
static int parse_registers(cli_ctx *c, const json_t *obj, const char *field, cx_frame *f)
{
    const char *key;
    json_t *v;
    char sub[256];
    if (!json_is_object(obj))
        return fail(c, "context field %s: expected an object {\"regno\": contents}", field);
    json_object_foreach((json_t *)obj, key, v) {
        uint64_t regno;
        snprintf(sub, sizeof sub, "%.120s.%.60s", field, key);
        if (cli_parse_u64(key, &regno) || regno > UINT32_MAX)
            return fail(c, "context field %s: register keys are DWARF register numbers", sub);
        uint8_t *bytes = NULL;
        size_t len = 0;
        if (json_is_object(v) && json_object_get(v, "lanes")) {
            if (lane_contents(c, json_object_get(v, "lanes"), sub, (uint32_t)regno, &bytes, &len))
                return -1;
        } else if (json_is_object(v)) {
            char sub2[256];
            snprintf(sub2, sizeof sub2, "%.120s.bytes", sub);
            if (hexfield(c, json_object_get(v, "bytes"), sub2, &bytes, &len))
                return -1;
        } else {
            uint64_t n;
            bool neg = false;
            if (num(c, v, sub, &n, &neg))
                return -1;
            len = reg_size_of(c, (uint32_t)regno, false);
            bytes = encode_number(c, n, neg, len);
        }
        put_reg(f, (uint32_t)regno, bytes, (uint32_t)len);
    }
    return 0;
}

/* A memory address: number (aspace 0) or {"aspace": A, "address": X}. */
static int parse_addr(cli_ctx *c, const json_t *j, const char *field, uint32_t *aspace,
                      uint64_t *addr)
{
    char sub[256];
    *aspace = 0;
    if (json_is_object(j)) {
        const json_t *a = json_object_get(j, "aspace");
        snprintf(sub, sizeof sub, "%.120s.aspace", field);
        if (a && num32(c, a, sub, aspace))
            return -1;
        snprintf(sub, sizeof sub, "%.120s.address", field);
        if (!json_object_get(j, "address"))
            return fail(c, "context field %s: missing", sub);
        return num(c, json_object_get(j, "address"), sub, addr, NULL);
    }
    return num(c, j, field, addr, NULL);
}

/* frames[i].caller_saves. */
static int parse_saves(cli_ctx *c, const json_t *obj, const char *field, cx_frame *f)
{
    const char *key;
    json_t *v;
    char sub[256], sub2[256];
    if (!json_is_object(obj))
        return fail(c, "context field %s: expected an object {\"regno\": rule}", field);
    f->saves = cx_alloc(c->st, json_object_size(obj), sizeof *f->saves);
    json_object_foreach((json_t *)obj, key, v) {
        uint64_t regno;
        cx_save *s = &f->saves[f->nsaves];
        snprintf(sub, sizeof sub, "%.120s.%.60s", field, key);
        if (cli_parse_u64(key, &regno) || regno > UINT32_MAX)
            return fail(c, "context field %s: keys are DWARF register numbers", sub);
        s->regno = (uint32_t)regno;
        if (json_is_string(v) && strcmp(json_string_value(v), "undefined") == 0) {
            s->kind = SAVE_UNDEFINED;
        } else if (json_is_string(v) && strcmp(json_string_value(v), "same") == 0) {
            s->kind = SAVE_SAME;
        } else if (json_is_object(v) && json_object_get(v, "memory")) {
            snprintf(sub2, sizeof sub2, "%.120s.memory", sub);
            s->kind = SAVE_MEMORY;
            if (parse_addr(c, json_object_get(v, "memory"), sub2, &s->aspace, &s->addr))
                return -1;
        } else if (json_is_object(v) && json_object_get(v, "register")) {
            snprintf(sub2, sizeof sub2, "%.120s.register", sub);
            s->kind = SAVE_REGISTER;
            if (num32(c, json_object_get(v, "register"), sub2, &s->reg))
                return -1;
        } else if (json_is_object(v) && json_object_get(v, "value")) {
            uint64_t n;
            bool neg = false;
            snprintf(sub2, sizeof sub2, "%.120s.value", sub);
            if (num(c, json_object_get(v, "value"), sub2, &n, &neg))
                return -1;
            s->kind = SAVE_VALUE;
            s->vlen = reg_size_of(c, s->regno, false);
            s->val = encode_number(c, n, neg, s->vlen);
        } else {
            return fail(c, "context field %s: expected {\"memory\": A}, {\"register\": N}, "
                           "{\"value\": X}, \"undefined\" or \"same\"", sub);
        }
        f->nsaves++;
    }
    return 0;
}

/* ---- locations and values ---- */

static int parse_loc(cli_ctx *c, const json_t *j, const char *field, dwexpr_loc *out);

/* Optional "thread"/"lane"/"frame" of a memory or register SLD. */
static int sld_ctx(cli_ctx *c, const json_t *j, const char *field, dwexpr_sld *s)
{
    char sub[256];
    const json_t *v;
    if ((v = json_object_get(j, "thread"))) {
        snprintf(sub, sizeof sub, "%.120s.thread", field);
        if (num(c, v, sub, &s->thread, NULL))
            return -1;
        s->ctx |= DWEXPR_CTX_THREAD;
    }
    if ((v = json_object_get(j, "lane"))) {
        snprintf(sub, sizeof sub, "%.120s.lane", field);
        if (num32(c, v, sub, &s->lane))
            return -1;
        s->ctx |= DWEXPR_CTX_LANE;
    }
    if ((v = json_object_get(j, "frame"))) {
        snprintf(sub, sizeof sub, "%.120s.frame", field);
        if (num32(c, v, sub, &s->frame))
            return -1;
        s->ctx |= DWEXPR_CTX_FRAME;
    }
    return 0;
}

/* Optional number KEY of object J (DEF when absent). */
static int opt_num(cli_ctx *c, const json_t *j, const char *key, const char *field,
                   uint64_t def, uint64_t *out)
{
    char sub[256];
    const json_t *v = opt_member(j, key, field, sub);
    *out = def;
    return v ? num(c, v, sub, out, NULL) : 0;
}

/* One single location description in the result JSON's SLD shapes, or a
 * bare number (memory, aspace 0). */
static int parse_sld(cli_ctx *c, const json_t *j, const char *field, dwexpr_sld *s)
{
    uint64_t bo, v;
    char sub[256];
    memset(s, 0, sizeof *s);
    if (!json_is_object(j)) {
        s->kind = DWEXPR_LOC_MEMORY;
        return num(c, j, field, &s->byte_offset, NULL);
    }
    const json_t *k = json_object_get(j, "kind");
    const char *kind = json_is_string(k) ? json_string_value(k) : "";
    if (opt_num(c, j, "bit_offset", field, 0, &bo))
        return -1;
    if (strcmp(kind, "memory") == 0) {
        s->kind = DWEXPR_LOC_MEMORY;
        if (opt_num32(c, j, "aspace", field, 0, &s->aspace) ||
            opt_num(c, j, "address", field, 0, &s->byte_offset))
            return -1;
        s->byte_offset += bo / 8;
        s->bit = (uint8_t)(bo % 8);
        return sld_ctx(c, j, field, s);
    }
    s->byte_offset = bo / 8;
    s->bit = (uint8_t)(bo % 8);
    if (strcmp(kind, "register") == 0) {
        s->kind = DWEXPR_LOC_REGISTER;
        snprintf(sub, sizeof sub, "%.120s.regno", field);
        if (!json_object_get(j, "regno"))
            return fail(c, "context field %s: missing", sub);
        if (num32(c, json_object_get(j, "regno"), sub, &s->u.regno))
            return -1;
        return sld_ctx(c, j, field, s);
    }
    if (strcmp(kind, "undefined") == 0) {
        memset(s, 0, sizeof *s);
        s->kind = DWEXPR_LOC_UNDEFINED;
        return 0;
    }
    if (strcmp(kind, "implicit") == 0) {
        uint8_t *b;
        size_t n;
        s->kind = DWEXPR_LOC_IMPLICIT;
        snprintf(sub, sizeof sub, "%.120s.bytes", field);
        if (hexfield(c, json_object_get(j, "bytes"), sub, &b, &n))
            return -1;
        s->u.imp.data = b;
        if (opt_num(c, j, "bit_size", field, 8 * (uint64_t)n, &s->u.imp.bits))
            return -1;
        /* the storage is the bytes given: no more bits than they hold */
        if (s->u.imp.bits > 8 * (uint64_t)n)
            return fail(c, "context field %s.bit_size: %" PRIu64 " bits, but \"bytes\" holds %zu",
                        field, s->u.imp.bits, 8 * n);
        return 0;
    }
    if (strcmp(kind, "implicit_pointer") == 0) {
        s->kind = DWEXPR_LOC_IMPLICIT_POINTER;
        if (opt_num(c, j, "die", field, 0, &s->u.ptr.die) ||
            opt_num(c, j, "displacement", field, 0, &v))
            return -1;
        s->u.ptr.disp = (int64_t)v;
        if (opt_num32(c, j, "aspace", field, 0, &s->aspace) ||
            opt_num32(c, j, "bit_size", field, 8u * c->unit.addr_size, &s->u.ptr.bits))
            return -1;
        return 0;
    }
    if (strcmp(kind, "composite") == 0) {
        const json_t *parts = json_object_get(j, "parts");
        snprintf(sub, sizeof sub, "%.120s.parts", field);
        if (!json_is_array(parts))
            return fail(c, "context field %s: expected a list of {\"bit_size\", \"locations\"}", sub);
        dwexpr_composite *comp = cx_alloc(c->st, 1, sizeof *comp);
        size_t n = json_array_size(parts);
        comp->parts = cx_alloc(c->st, n, sizeof *comp->parts);
        comp->count = comp->cap = (uint32_t)n;
        comp->complete = !json_is_false(json_object_get(j, "complete"));
        for (size_t i = 0; i < n; i++) {
            const json_t *p = json_array_get(parts, i);
            char psub[256];
            snprintf(psub, sizeof psub, "%.120s.parts[%zu]", field, i);
            if (!json_is_object(p) || !json_object_get(p, "bit_size"))
                return fail(c, "context field %s: expected {\"bit_size\": N, \"locations\": [...]}", psub);
            if (opt_num(c, p, "bit_size", psub, 0, &comp->parts[i].bit_size))
                return -1;
            comp->bits += comp->parts[i].bit_size;
            const json_t *l = json_object_get(p, "locations");
            if (!l)
                l = json_object_get(p, "location");
            if (l) {
                char lsub[256];
                snprintf(lsub, sizeof lsub, "%.120s.locations", psub);
                if (parse_loc(c, l, lsub, &comp->parts[i].loc))
                    return -1;
                for (uint32_t q = 0; q < comp->parts[i].loc.count; q++) {
                    const dwexpr_sld *ps = &comp->parts[i].loc.slds[q];
                    if (ps->kind == DWEXPR_LOC_COMPOSITE && ps->u.comp->depth > comp->depth)
                        comp->depth = ps->u.comp->depth;
                }
            } else {
                dwexpr_sld *u = cx_alloc(c->st, 1, sizeof *u);
                u->kind = DWEXPR_LOC_UNDEFINED;
                comp->parts[i].loc.count = 1;
                comp->parts[i].loc.slds = u;
            }
        }
        comp->depth++;
        s->kind = DWEXPR_LOC_COMPOSITE;
        s->u.comp = comp;
        return 0;
    }
    return fail(c, "context field %s: \"kind\" must be memory, register, implicit, "
                   "implicit_pointer, undefined or composite", field);
}

/* A LOCATION: one SLD, a list of SLDs, or {"locations": [...]}. */
static int parse_loc(cli_ctx *c, const json_t *j, const char *field, dwexpr_loc *out)
{
    char sub[256];
    if (json_is_object(j) && !json_object_get(j, "kind") && json_object_get(j, "locations"))
        j = json_object_get(j, "locations");
    if (json_is_array(j)) {
        size_t n = json_array_size(j);
        if (n == 0)
            return fail(c, "context field %s: a location needs at least one place", field);
        dwexpr_sld *s = cx_alloc(c->st, n, sizeof *s);
        for (size_t i = 0; i < n; i++) {
            snprintf(sub, sizeof sub, "%.120s[%zu]", field, i);
            if (parse_sld(c, json_array_get(j, i), sub, &s[i]))
                return -1;
        }
        out->count = (uint32_t)n;
        out->slds = s;
        return 0;
    }
    dwexpr_sld *s = cx_alloc(c->st, 1, sizeof *s);
    if (parse_sld(c, j, field, s))
        return -1;
    out->count = 1;
    out->slds = s;
    return 0;
}

/* Look up a base type of the context. */
static const cx_btype *find_btype(const cx_state *st, uint64_t die)
{
    for (size_t i = 0; i < st->nbtypes; i++)
        if (st->btypes[i].die == die)
            return &st->btypes[i];
    return NULL;
}

/* A value: number (or {"bytes": hex}) V of base type TYPEJ (DIE offset;
 * absent or 0 = generic). */
static int make_value(cli_ctx *c, const json_t *vj, const json_t *typej, const char *field,
                      dwexpr_value *out)
{
    char sub[256];
    memset(out, 0, sizeof *out);
    out->type.bits = 8u * c->unit.addr_size;
    out->type.lanes = 1;
    if (typej) {
        uint64_t die;
        snprintf(sub, sizeof sub, "%.120s.type", field);
        if (num(c, typej, sub, &die, NULL))
            return -1;
        if (die) {
            const cx_btype *bt = find_btype(c->st, die);
            if (!bt)
                return fail(c, "context field %s: no base type 0x%" PRIx64 " in \"base_types\"",
                            sub, die);
            out->type = bt->t;
        }
    }
    uint64_t total = (uint64_t)out->type.bits * (out->type.lanes ? out->type.lanes : 1);
    size_t nbytes = (size_t)((total + 7) / 8);
    uint8_t *b;
    if (json_is_object(vj)) {
        size_t n;
        snprintf(sub, sizeof sub, "%.120s.bytes", field);
        if (hexfield(c, json_object_get(vj, "bytes"), sub, &b, &n))
            return -1;
        if (n < nbytes) {
            uint8_t *w = cx_alloc(c->st, nbytes, 1);
            memcpy(w, b, n);
            b = w;
        }
    } else {
        uint64_t v;
        bool neg = false;
        if (num(c, vj, field, &v, &neg))
            return -1;
        b = cx_alloc(c->st, nbytes > 8 ? nbytes : 8, 1);
        for (size_t i = 0; i < nbytes || i < 8; i++)
            b[i] = i < 8 ? (uint8_t)(v >> (8 * i)) : (neg ? 0xff : 0);
    }
    if (total > 64) {
        out->wide = b;
        for (size_t i = 0; i < 8; i++)
            out->bits |= (uint64_t)b[i] << (8 * i);
    } else {
        for (size_t i = 0; i < nbytes; i++)
            out->bits |= (uint64_t)b[i] << (8 * i);
        if (total < 64)
            out->bits &= ((uint64_t)1 << total) - 1;
    }
    return 0;
}

/* ---- the top-level fields ---- */

/* DW_ATE_* for an encoding name (or a number). */
static int ate_by_name(cli_ctx *c, const json_t *j, const char *field, uint16_t *out)
{
    static const struct { const char *name; uint16_t ate; } names[] = {
        {"generic", DWEXPR_ATE_GENERIC}, {"address", DW_ATE_address},
        {"boolean", DW_ATE_boolean}, {"complex_float", DW_ATE_complex_float},
        {"float", DW_ATE_float}, {"signed", DW_ATE_signed},
        {"signed_char", DW_ATE_signed_char}, {"unsigned", DW_ATE_unsigned},
        {"unsigned_char", DW_ATE_unsigned_char}, {"imaginary_float", DW_ATE_imaginary_float},
        {"packed_decimal", DW_ATE_packed_decimal}, {"numeric_string", DW_ATE_numeric_string},
        {"edited", DW_ATE_edited}, {"signed_fixed", DW_ATE_signed_fixed},
        {"unsigned_fixed", DW_ATE_unsigned_fixed}, {"decimal_float", DW_ATE_decimal_float},
        {"utf", DW_ATE_UTF}, {"UTF", DW_ATE_UTF}, {"ucs", DW_ATE_UCS}, {"UCS", DW_ATE_UCS},
        {"ascii", DW_ATE_ASCII}, {"ASCII", DW_ATE_ASCII},
    };
    if (json_is_string(j)) {
        const char *s = json_string_value(j);
        if (strncmp(s, "DW_ATE_", 7) == 0)
            s += 7;
        for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
            if (strcmp(names[i].name, s) == 0) {
                *out = names[i].ate;
                return 0;
            }
    }
    uint64_t v;
    if (!json_is_string(j) || cli_parse_u64(json_string_value(j), &v) == 0) {
        if (num(c, j, field, &v, NULL) == 0 && v <= 0xff) {
            *out = (uint16_t)v;
            return 0;
        }
    }
    return fail(c, "context field %s: unknown base type encoding", field);
}

/* "base_types": {"0x2a": {"bits", "encoding", "vector", "endian",
 * "format", "name"}}: a float's "format" is "ieee" or "x87", else the
 * arch's for its size and "name" (dwexpr_arch_float_format: x86_64 takes
 * a 128-bit float as x87's long double, unless named "__float128"). */
static int parse_base_types(cli_ctx *c, const json_t *obj)
{
    const char *key;
    json_t *v;
    char sub[256], sub2[256];
    cx_state *st = c->st;
    if (!json_is_object(obj))
        return fail(c, "context field base_types: expected an object {\"die\": type}");
    st->btypes = cx_alloc(st, json_object_size(obj), sizeof *st->btypes);
    json_object_foreach((json_t *)obj, key, v) {
        cx_btype *bt = &st->btypes[st->nbtypes];
        uint64_t n;
        snprintf(sub, sizeof sub, "base_types.%.120s", key);
        if (cli_parse_u64(key, &bt->die) || !json_is_object(v))
            return fail(c, "context field %s: expected \"<die offset>\": {\"bits\": N, \"encoding\": E}", sub);
        bt->t.die = bt->die;
        if (opt_num(c, v, "bits", sub, 0, &n))
            return -1;
        if (n == 0 && opt_num(c, v, "byte_size", sub, 0, &n) == 0)
            n *= 8;
        if (n == 0 || n > 0xffffffffu)
            return fail(c, "context field %s.bits: a base type needs a size", sub);
        bt->t.bits = (uint32_t)n;
        if (opt_num(c, v, "vector", sub, 1, &n))
            return -1;
        if (n == 0 || n > 0xffff)
            return fail(c, "context field %s.vector: 1..65535", sub);
        bt->t.lanes = (uint16_t)n;
        bt->t.encoding = DW_ATE_unsigned;
        if (json_object_get(v, "encoding")) {
            snprintf(sub2, sizeof sub2, "%.120s.encoding", sub);
            if (ate_by_name(c, json_object_get(v, "encoding"), sub2, &bt->t.encoding))
                return -1;
        }
        const json_t *e = json_object_get(v, "endian");
        bt->t.endian = DW_END_default;
        if (e) {
            const char *es = json_is_string(e) ? json_string_value(e) : "";
            if (strcmp(es, "little") == 0)
                bt->t.endian = DW_END_little;
            else if (strcmp(es, "big") == 0)
                bt->t.endian = DW_END_big;
            else if (strcmp(es, "default") != 0)
                return fail(c, "context field %s.endian: little, big or default", sub);
        }
        const json_t *fm = json_object_get(v, "format"), *nm = json_object_get(v, "name");
        if ((fm && !json_is_string(fm)) || (nm && !json_is_string(nm)))
            return fail(c, "context field %s: \"format\" and \"name\" are strings", sub);
        if (bt->t.encoding == DW_ATE_float)
            bt->t.format = dwexpr_arch_float_format(c->arch, bt->t.bits,
                                                    nm ? json_string_value(nm) : NULL);
        if (fm) {
            const char *fs = json_string_value(fm);
            if (bt->t.encoding != DW_ATE_float)
                return fail(c, "context field %s.format: only a float has a format", sub);
            if (strcmp(fs, "ieee") == 0)
                bt->t.format = DWEXPR_FLOAT_IEEE;
            else if (strcmp(fs, "x87") == 0)
                bt->t.format = DWEXPR_FLOAT_X87;
            else
                return fail(c, "context field %s.format: ieee or x87", sub);
        }
        st->nbtypes++;
    }
    return 0;
}

/* "frames" and "registers". */
static int parse_frames(cli_ctx *c, const json_t *root)
{
    cx_state *st = c->st;
    const json_t *frames = json_object_get(root, "frames");
    const json_t *regs = json_object_get(root, "registers");
    char sub[256], sub2[256];
    if (frames && !json_is_array(frames))
        return fail(c, "context field frames: expected a list of frames (frames[0] = top)");
    st->nframes = frames && json_array_size(frames) ? json_array_size(frames) : 1;
    st->frames = cx_alloc(st, st->nframes, sizeof *st->frames);
    if (frames)
        c->params.ctx |= DWEXPR_CTX_FRAME;
    for (size_t i = 0; i < st->nframes; i++) {
        cx_frame *f = &st->frames[i];
        const json_t *fj = frames ? json_array_get(frames, i) : NULL;
        const json_t *v;
        size_t cap = 0;
        if (fj && !json_is_object(fj))
            return fail(c, "context field frames[%zu]: expected an object", i);
        if (fj && json_is_object(json_object_get(fj, "registers")))
            cap += json_object_size(json_object_get(fj, "registers"));
        if (i == 0 && json_is_object(regs))
            cap += json_object_size(regs);
        if (i == 0)
            cap++;     /* the EXEC register made from "exec" */
        f->regs = cx_alloc(st, cap, sizeof *f->regs);
        f->capregs = cap;
        if (i == 0 && regs && parse_registers(c, regs, "registers", f))
            return -1;
        if (!fj)
            continue;
        if ((v = json_object_get(fj, "registers"))) {
            snprintf(sub, sizeof sub, "frames[%zu].registers", i);
            if (parse_registers(c, v, sub, f))
                return -1;
        }
        if ((v = json_object_get(fj, "caller_saves"))) {
            snprintf(sub, sizeof sub, "frames[%zu].caller_saves", i);
            if (parse_saves(c, v, sub, f))
                return -1;
        }
        if ((v = json_object_get(fj, "pc"))) {
            snprintf(sub, sizeof sub, "frames[%zu].pc", i);
            if (num(c, v, sub, &f->pc, NULL))
                return -1;
            f->has_pc = true;
        }
        if ((v = json_object_get(fj, "cfa"))) {
            snprintf(sub, sizeof sub, "frames[%zu].cfa", i);
            if (parse_addr(c, v, sub, &f->cfa_aspace, &f->cfa))
                return -1;
            f->has_cfa = true;
        }
        if ((v = json_object_get(fj, "frame_base"))) {
            snprintf(sub, sizeof sub, "frames[%zu].frame_base", i);
            if (json_is_object(v) && json_object_get(v, "location")) {
                dwexpr_loc l;
                snprintf(sub2, sizeof sub2, "%.120s.location", sub);
                if (parse_loc(c, json_object_get(v, "location"), sub2, &l))
                    return -1;
                f->fb.loc = l.slds[0];
            } else {
                uint8_t *b;
                size_t n;
                if (expr_field(c, v, sub, &b, &n))
                    return -1;
                f->fb.expr = b;
                f->fb.expr_len = n;
                f->fb.unit = c->unit;
            }
            f->has_fb = true;
        }
    }
    return 0;
}

static const dwexpr_aspace_info *find_aspace(const cli_ctx *c, uint32_t aspace,
                                            dwexpr_aspace_info *tmp);

/* "memory": [{aspace, lane, thread, address, bytes}]. A block lies in its
 * address space: its last byte is at most the largest address of the
 * space's address size (it would wrap to address 0 otherwise); a space the
 * context does not know takes 64-bit addresses. */
static int parse_memory(cli_ctx *c, const json_t *arr)
{
    cx_state *st = c->st;
    char sub[256], sub2[256];
    if (!json_is_array(arr))
        return fail(c, "context field memory: expected a list of {\"address\", \"bytes\"}");
    st->nmem = json_array_size(arr);
    st->mem = cx_alloc(st, st->nmem, sizeof *st->mem);
    for (size_t i = 0; i < st->nmem; i++) {
        const json_t *b = json_array_get(arr, i);
        cx_block *m = &st->mem[i];
        const json_t *v;
        snprintf(sub, sizeof sub, "memory[%zu]", i);
        if (!json_is_object(b) || !json_object_get(b, "address"))
            return fail(c, "context field %s: expected {\"address\": A, \"bytes\": \"hex\"}", sub);
        if (opt_num32(c, b, "aspace", sub, 0, &m->aspace) ||
            opt_num(c, b, "address", sub, 0, &m->address))
            return -1;
        snprintf(sub2, sizeof sub2, "%.120s.bytes", sub);
        if (hexfield(c, json_object_get(b, "bytes"), sub2, &m->bytes, &m->len))
            return -1;
        dwexpr_aspace_info tmp;
        const dwexpr_aspace_info *ai = find_aspace(c, m->aspace, &tmp);
        unsigned bits = ai && ai->addr_bits && ai->addr_bits < 64 ? ai->addr_bits : 64;
        uint64_t top = bits == 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
        if (m->address > top || (m->len && m->len - 1 > top - m->address))
            return fail(c, "context field %s: %zu bytes at 0x%" PRIx64 " run past the end of "
                           "address space %u (%u-bit addresses, last 0x%" PRIx64 ")",
                        sub, m->len, m->address, m->aspace, bits, top);
        if ((v = json_object_get(b, "lane"))) {
            snprintf(sub2, sizeof sub2, "%.120s.lane", sub);
            if (num32(c, v, sub2, &m->lane))
                return -1;
            m->has_lane = true;
        }
        if ((v = json_object_get(b, "thread"))) {
            snprintf(sub2, sizeof sub2, "%.120s.thread", sub);
            if (num(c, v, sub2, &m->thread, NULL))
                return -1;
            m->has_thread = true;
        }
    }
    return 0;
}

/* "address_spaces": {"5": {"addr_size": 4, "per_lane": true, "per_thread": false}}. */
static int parse_aspaces(cli_ctx *c, const json_t *obj)
{
    cx_state *st = c->st;
    const char *key;
    json_t *v;
    char sub[256], sub2[256];
    if (!json_is_object(obj))
        return fail(c, "context field address_spaces: expected an object {\"aspace\": {...}}");
    st->aspaces = cx_alloc(st, json_object_size(obj), sizeof *st->aspaces);
    json_object_foreach((json_t *)obj, key, v) {
        cx_aspace *a = &st->aspaces[st->naspaces];
        uint64_t id, sz;
        snprintf(sub, sizeof sub, "address_spaces.%.120s", key);
        if (cli_parse_u64(key, &id) || id > UINT32_MAX || !json_is_object(v))
            return fail(c, "context field %s: expected \"<aspace>\": {\"addr_size\": N}", sub);
        a->id = (uint32_t)id;
        if (opt_num(c, v, "addr_size", sub, c->unit.addr_size, &sz))
            return -1;
        if (sz == 0 || sz > 8)
            return fail(c, "context field %s.addr_size: 1..8 bytes", sub);
        a->info.addr_bits = (uint8_t)(8 * sz);
        if (json_object_get(v, "per_lane")) {
            snprintf(sub2, sizeof sub2, "%.120s.per_lane", sub);
            if (boolean(c, json_object_get(v, "per_lane"), sub2, &a->info.per_lane))
                return -1;
        }
        if (json_object_get(v, "per_thread")) {
            snprintf(sub2, sizeof sub2, "%.120s.per_thread", sub);
            if (boolean(c, json_object_get(v, "per_thread"), sub2, &a->info.per_thread))
                return -1;
        }
        st->naspaces++;
    }
    return 0;
}

/* "object" and "initial_stack". */
static int parse_stack(cli_ctx *c, const json_t *root)
{
    cx_state *st = c->st;
    const json_t *v;
    char sub[256];
    if ((v = json_object_get(root, "object"))) {
        if (parse_loc(c, v, "object", &st->object))
            return -1;
        c->params.object = &st->object;
    }
    if (!(v = json_object_get(root, "initial_stack")))
        return 0;
    if (!json_is_array(v))
        return fail(c, "context field initial_stack: expected a list, bottom first");
    size_t n = json_array_size(v);
    dwexpr_value *vals = cx_alloc(st, n, sizeof *vals);
    dwexpr_loc *locs = cx_alloc(st, n, sizeof *locs);
    for (size_t i = 0; i < n; i++) {
        const json_t *e = json_array_get(v, i);
        snprintf(sub, sizeof sub, "initial_stack[%zu]", i);
        if (json_is_object(e) && json_object_get(e, "location")) {
            char sub2[256];
            snprintf(sub2, sizeof sub2, "%.120s.location", sub);
            if (parse_loc(c, json_object_get(e, "location"), sub2, &locs[i]))
                return -1;
        } else if (json_is_object(e) && json_object_get(e, "value")) {
            char sub2[256];
            snprintf(sub2, sizeof sub2, "%.120s.value", sub);
            if (make_value(c, json_object_get(e, "value"), json_object_get(e, "type"), sub2,
                           &vals[i]))
                return -1;
        } else if (!json_is_object(e)) {
            if (make_value(c, e, NULL, sub, &vals[i]))
                return -1;
        } else {
            return fail(c, "context field %s: expected {\"value\": X}, {\"value\": X, \"type\": DIE} "
                           "or {\"location\": LOCATION}", sub);
        }
    }
    c->params.initial_values = vals;
    c->params.initial_locs = locs;
    c->params.initial_count = n;
    return 0;
}

/* "tls_base", "tls_map", "debug_addr", "entry_values", "frame_base". */
static int parse_tables(cli_ctx *c, const json_t *root)
{
    cx_state *st = c->st;
    const json_t *v;
    const char *key;
    json_t *e;
    char sub[256];
    if ((v = json_object_get(root, "tls_base"))) {
        if (num(c, v, "tls_base", &st->tls_base, NULL))
            return -1;
        st->has_tls_base = true;
    }
    if ((v = json_object_get(root, "tls_map"))) {
        if (!json_is_object(v))
            return fail(c, "context field tls_map: expected an object {\"offset\": address}");
        st->tls_map = cx_alloc(st, json_object_size(v), sizeof *st->tls_map);
        json_object_foreach((json_t *)v, key, e) {
            snprintf(sub, sizeof sub, "tls_map.%.120s", key);
            if (cli_parse_u64(key, &st->tls_map[st->ntls].key))
                return fail(c, "context field %s: keys are TLS offsets (numbers)", sub);
            if (num(c, e, sub, &st->tls_map[st->ntls].val, NULL))
                return -1;
            st->ntls++;
        }
    }
    if ((v = json_object_get(root, "debug_addr"))) {
        if (!json_is_array(v))
            return fail(c, "context field debug_addr: expected a list of addresses");
        st->ndebug_addr = json_array_size(v);
        st->debug_addr = cx_alloc(st, st->ndebug_addr, sizeof *st->debug_addr);
        for (size_t i = 0; i < st->ndebug_addr; i++) {
            snprintf(sub, sizeof sub, "debug_addr[%zu]", i);
            if (num(c, json_array_get(v, i), sub, &st->debug_addr[i], NULL))
                return -1;
        }
    }
    if ((v = json_object_get(root, "entry_values"))) {
        if (!json_is_object(v))
            return fail(c, "context field entry_values: expected an object {\"block hex\": value}");
        st->entries = cx_alloc(st, json_object_size(v), sizeof *st->entries);
        json_object_foreach((json_t *)v, key, e) {
            uint8_t *b;
            size_t n;
            cx_entry *en = &st->entries[st->nentries];
            snprintf(sub, sizeof sub, "entry_values.%.120s", key);
            if (cli_hex_decode(key, &b, &n))
                return fail(c, "context field %s: keys are the DW_OP_entry_value block in hex", sub);
            en->key = hex_key(st, b, n);
            free(b);
            if (json_is_object(e) && json_object_get(e, "value")) {
                char sub2[256];
                snprintf(sub2, sizeof sub2, "%.120s.value", sub);
                if (make_value(c, json_object_get(e, "value"), json_object_get(e, "type"), sub2,
                               &en->v))
                    return -1;
            } else if (make_value(c, e, NULL, sub, &en->v)) {
                return -1;
            }
            st->nentries++;
        }
    }
    if ((v = json_object_get(root, "frame_base"))) {
        if (json_is_object(v) && json_object_get(v, "location")) {
            dwexpr_loc l;
            if (parse_loc(c, json_object_get(v, "location"), "frame_base.location", &l))
                return -1;
            st->fb.loc = l.slds[0];
        } else {
            uint8_t *b;
            size_t n;
            if (expr_field(c, v, "frame_base", &b, &n))
                return -1;
            st->fb.expr = b;
            st->fb.expr_len = n;
            st->fb.unit = c->unit;
        }
        st->has_fb = true;
    }
    return 0;
}

/* "dies": {"0x50": {"location", "const_value", "byte_size", "loclist"}}. */
static int parse_dies(cli_ctx *c, const json_t *obj)
{
    cx_state *st = c->st;
    const char *key;
    json_t *v;
    char sub[256], sub2[256];
    if (!json_is_object(obj))
        return fail(c, "context field dies: expected an object {\"offset\": {...}}");
    st->dies = cx_alloc(st, json_object_size(obj), sizeof *st->dies);
    json_object_foreach((json_t *)obj, key, v) {
        cx_die *d = &st->dies[st->ndies];
        const json_t *e;
        snprintf(sub, sizeof sub, "dies.%.120s", key);
        if (cli_parse_u64(key, &d->off) || !json_is_object(v))
            return fail(c, "context field %s: expected \"<die offset>\": {\"location\": ...}", sub);
        if (opt_num(c, v, "byte_size", sub, 0, &d->d.byte_size))
            return -1;
        d->d.kind = DWEXPR_DIE_NONE;
        if ((e = json_object_get(v, "const_value"))) {
            uint8_t *b;
            size_t n;
            snprintf(sub2, sizeof sub2, "%.120s.const_value", sub);
            if (hexfield(c, e, sub2, &b, &n))
                return -1;
            d->d.kind = DWEXPR_DIE_CONST_VALUE;
            d->d.expr = b;
            d->d.expr_len = n;
        }
        if ((e = json_object_get(v, "location"))) {
            uint8_t *b;
            size_t n;
            snprintf(sub2, sizeof sub2, "%.120s.location", sub);
            if (expr_field(c, e, sub2, &b, &n))
                return -1;
            d->d.kind = DWEXPR_DIE_EXPRLOC;
            d->d.expr = b;
            d->d.expr_len = n;
        }
        if ((e = json_object_get(v, "loclist"))) {
            snprintf(sub2, sizeof sub2, "%.120s.loclist", sub);
            if (!json_is_array(e))
                return fail(c, "context field %s: expected a list of {\"low\", \"high\", \"expr\"}", sub2);
            size_t n = json_array_size(e);
            dwexpr_loclist_entry *en = cx_alloc(st, n, sizeof *en);
            for (size_t i = 0; i < n; i++) {
                const json_t *le = json_array_get(e, i);
                char lsub[256], esub[260];
                uint8_t *b;
                size_t blen;
                snprintf(lsub, sizeof lsub, "%.120s[%zu]", sub2, i);
                if (!json_is_object(le) || !json_object_get(le, "expr"))
                    return fail(c, "context field %s: expected {\"low\", \"high\", \"expr\"} or "
                                   "{\"default\": true, \"expr\"}", lsub);
                en[i].is_default = json_is_true(json_object_get(le, "default"));
                if (!en[i].is_default &&
                    (!json_object_get(le, "low") || !json_object_get(le, "high")))
                    return fail(c, "context field %s: a bounded entry needs \"low\" and \"high\"", lsub);
                if (opt_num(c, le, "low", lsub, 0, &en[i].low) ||
                    opt_num(c, le, "high", lsub, 0, &en[i].high))
                    return -1;
                snprintf(esub, sizeof esub, "%.120s.expr", lsub);
                if (expr_field(c, json_object_get(le, "expr"), esub, &b, &blen))
                    return -1;
                en[i].expr = b;
                en[i].expr_len = blen;
            }
            d->d.kind = DWEXPR_DIE_LOCLIST;
            d->d.entries = en;
            d->d.count = n;
        }
        st->ndies++;
    }
    return 0;
}

/* Optional count KEY of "limits" V (0 when absent): a negative one is
 * refused rather than taken as its huge two's complement pattern. */
static int limit_num(cli_ctx *c, const json_t *v, const char *key, uint64_t *out)
{
    char sub[256];
    const json_t *j = json_object_get(v, key);
    bool neg = false;
    *out = 0;
    if (!j)
        return 0;
    snprintf(sub, sizeof sub, "limits.%.60s", key);
    if (num(c, j, sub, out, &neg))
        return -1;
    if (neg && *out != 0)
        return fail(c, "context field %s: %" PRId64 " is negative", sub, (int64_t)*out);
    return 0;
}

/* "limits": {"steps", "stack", "calls", "parts", "implicit_bytes"}. */
static int parse_limits(cli_ctx *c, const json_t *v)
{
    uint64_t n;
    if (!json_is_object(v))
        return fail(c, "context field limits: expected {\"steps\", \"stack\", \"calls\"}");
    if (limit_num(c, v, "steps", &c->limits.steps))
        return -1;
    if (limit_num(c, v, "stack", &n))
        return -1;
    c->limits.stack = n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
    if (limit_num(c, v, "calls", &n))
        return -1;
    c->limits.calls = n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
    if (limit_num(c, v, "parts", &n))
        return -1;
    c->limits.parts = n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
    return limit_num(c, v, "implicit_bytes", &c->limits.implicit_bytes);
}

/* "arch", "addr_size", "offset_size", "dwarf_version", "ext_encoding",
 * "byte_order", "load_bias", then the command-line overrides. */
static int parse_unit(cli_ctx *c, const json_t *root, const cli_overrides *ov)
{
    const json_t *v;
    uint64_t n;
    const char *arch = "generic64";
    if ((v = json_object_get(root, "arch"))) {
        if (!json_is_string(v))
            return fail(c, "context field arch: expected a name (generic32, generic64, x86_64, "
                           "amdgpu-wave64, amdgpu-wave32)");
        arch = json_string_value(v);
    }
    c->arch = dwexpr_arch_find(arch);
    if (!c->arch)
        return fail(c, "context field arch: unknown architecture \"%s\" (known: generic32, "
                       "generic64, x86_64, amdgpu-wave64, amdgpu-wave32)", arch);
    snprintf(c->arch_name, sizeof c->arch_name, "%s", arch);
    c->st->wave = dwexpr_amdgpu_lanes(c->arch);
    c->unit.addr_size = (uint8_t)dwexpr_arch_addr_size(c->arch);
    if (c->unit.addr_size == 0)
        c->unit.addr_size = 8;
    if ((v = json_object_get(root, "addr_size"))) {
        if (num(c, v, "addr_size", &n, NULL))
            return -1;
        if (n != 1 && n != 2 && n != 4 && n != 8)
            return fail(c, "context field addr_size: 1, 2, 4 or 8");
        c->unit.addr_size = (uint8_t)n;
    }
    c->unit.offset_size = 4;
    if ((v = json_object_get(root, "offset_size"))) {
        if (num(c, v, "offset_size", &n, NULL))
            return -1;
        if (n != 4 && n != 8)
            return fail(c, "context field offset_size: 4 or 8");
        c->unit.offset_size = (uint8_t)n;
    }
    c->unit.version = 5;
    if ((v = json_object_get(root, "dwarf_version"))) {
        if (num(c, v, "dwarf_version", &n, NULL))
            return -1;
        if (n < 2 || n > 5)
            return fail(c, "context field dwarf_version: 2..5");
        c->unit.version = (uint16_t)n;
    }
    c->unit.ext_encoding = DWEXPR_EXT_LLVM_USER;
    if ((v = json_object_get(root, "ext_encoding"))) {
        const char *s = json_is_string(v) ? json_string_value(v) : "";
        if (strcmp(s, "provisional") == 0)
            c->unit.ext_encoding = DWEXPR_EXT_PROVISIONAL;
        else if (strcmp(s, "llvm-user") != 0)
            return fail(c, "context field ext_encoding: \"provisional\" or \"llvm-user\"");
    }
    if ((v = json_object_get(root, "byte_order"))) {
        const char *s = json_is_string(v) ? json_string_value(v) : "";
        if (strcmp(s, "big") == 0)
            c->unit.big_endian = 1;
        else if (strcmp(s, "little") != 0)
            return fail(c, "context field byte_order: \"little\" or \"big\"");
    }
    if ((v = json_object_get(root, "load_bias")) && num(c, v, "load_bias", &c->unit.load_bias, NULL))
        return -1;
    if (ov && ov->addr_size)
        c->unit.addr_size = (uint8_t)ov->addr_size;
    if (ov && ov->encoding >= 0)
        c->unit.ext_encoding = (uint8_t)ov->encoding;
    return 0;
}

/* "result", "thread", "lane", "lanes", "exec", "pc" and overrides. */
static int parse_params(cli_ctx *c, const json_t *root, const cli_overrides *ov)
{
    const json_t *v;
    uint64_t n;
    if ((v = json_object_get(root, "result"))) {
        const char *s = json_is_string(v) ? json_string_value(v) : "";
        if (strcmp(s, "value") == 0)
            c->params.result_kind = DWEXPR_RESULT_VALUE;
        else if (strcmp(s, "location") == 0)
            c->params.result_kind = DWEXPR_RESULT_LOCATION;
        else if (strcmp(s, "unspecified") != 0)
            return fail(c, "context field result: \"value\", \"location\" or \"unspecified\"");
        c->result_given = c->params.result_kind != 0;
    }
    if ((v = json_object_get(root, "thread"))) {
        if (num(c, v, "thread", &c->params.thread, NULL))
            return -1;
        c->params.ctx |= DWEXPR_CTX_THREAD;
    }
    if ((v = json_object_get(root, "lane"))) {
        if (num32(c, v, "lane", &c->params.lane))
            return -1;
        c->params.ctx |= DWEXPR_CTX_LANE;
    }
    /* lanes per thread: the wavefront size unless the context says */
    c->params.lanes = c->st->wave;
    if ((v = json_object_get(root, "lanes")) && num32(c, v, "lanes", &c->params.lanes))
        return -1;
    /* a lane count is a SIMD width: bound it so --all-lanes stays finite
     * (fuzz/regressions/fuzz_context/all-lanes-huge-lane-count) */
    if (c->params.lanes > CLI_MAX_LANES)
        return fail(c, "context field lanes: %u is more than %u lanes", c->params.lanes,
                    (unsigned)CLI_MAX_LANES);
    if ((v = json_object_get(root, "exec"))) {
        if (num(c, v, "exec", &n, NULL))
            return -1;
        c->st->has_exec = true;
        c->st->exec = n;
    }
    if ((v = json_object_get(root, "pc"))) {
        if (num(c, v, "pc", &c->params.pc, NULL))
            return -1;
        c->params.has_pc = true;
    }
    if ((v = json_object_get(root, "limits")) && parse_limits(c, v))
        return -1;
    if (ov && ov->has_lane) {
        c->params.lane = ov->lane;
        c->params.ctx |= DWEXPR_CTX_LANE;
    }
    if (ov && ov->max_steps)
        c->limits.steps = ov->max_steps;
    if (ov && ov->result_kind) {
        c->params.result_kind = (dwexpr_result_kind)ov->result_kind;
        c->result_given = true;
    }
    return 0;
}

/* "register_sizes": {"2560": 256}. */
static int parse_reg_sizes(cli_ctx *c, const json_t *obj)
{
    cx_state *st = c->st;
    const char *key;
    json_t *v;
    char sub[256];
    if (!json_is_object(obj))
        return fail(c, "context field register_sizes: expected an object {\"regno\": bytes}");
    st->reg_sizes = cx_alloc(st, json_object_size(obj), sizeof *st->reg_sizes);
    json_object_foreach((json_t *)obj, key, v) {
        cx_pair *p = &st->reg_sizes[st->nreg_sizes];
        snprintf(sub, sizeof sub, "register_sizes.%.120s", key);
        if (cli_parse_u64(key, &p->key) || p->key > UINT32_MAX)
            return fail(c, "context field %s: keys are DWARF register numbers", sub);
        if (num(c, v, sub, &p->val, NULL))
            return -1;
        if (p->val == 0 || p->val > (1u << 20))
            return fail(c, "context field %s: a register size in bytes (1..1048576)", sub);
        st->nreg_sizes++;
    }
    return 0;
}

/* ---- the target callbacks ---- */

/* The best memory block holding byte ADDR for access M (per-lane and
 * per-thread blocks beat shared ones), or NULL. */
static const cx_block *find_byte(const cx_state *st, const dwexpr_memref *m, uint64_t addr)
{
    const cx_block *best = NULL;
    int best_score = -1;
    for (size_t i = 0; i < st->nmem; i++) {
        const cx_block *b = &st->mem[i];
        int score = 0;
        if (b->aspace != m->aspace || addr - b->address >= b->len)
            continue;
        if (b->has_lane) {
            if (!(m->ctx & DWEXPR_CTX_LANE) || m->lane != b->lane)
                continue;
            score++;
        }
        if (b->has_thread) {
            if (!(m->ctx & DWEXPR_CTX_THREAD) || m->thread != b->thread)
                continue;
            score++;
        }
        if (score > best_score) {
            best = b;
            best_score = score;
        }
    }
    return best;
}

/* The block and offset holding byte ADDR of access M, or NULL. On AMDGPU
 * a private_lane byte that no aspace 5 block holds is the private_wave
 * byte it maps to (AMDGPUUsage "Address Space Identifier": the private_lane
 * address L of lane N is private_wave address (L/4)*W*4 + N*4 + L%4). */
static const cx_block *find_mem(const cli_ctx *c, const dwexpr_memref *m, uint64_t addr,
                                uint64_t *off)
{
    const cx_block *b = find_byte(c->st, m, addr);
    if (!b && c->st->wave && m->aspace == DW_ASPACE_AMDGPU_private_lane &&
        (m->ctx & DWEXPR_CTX_LANE)) {
        dwexpr_memref w = *m;
        w.aspace = DW_ASPACE_AMDGPU_private_wave;
        w.ctx = (uint16_t)(m->ctx & DWEXPR_CTX_THREAD);
        addr = dwexpr_amdgpu_private_lane_to_wave(addr & 0xffffffffu, m->lane, c->st->wave) &
               0xffffffffu;
        b = find_byte(c->st, &w, addr);
    }
    if (b)
        *off = addr - b->address;
    return b;
}

/* Read or write LEN bytes of simulated memory (all bytes must exist). */
static dwexpr_status mem_access(cli_ctx *c, const dwexpr_memref *m, uint8_t *rbuf,
                                const uint8_t *wbuf, size_t len)
{
    uint64_t off;
    for (size_t i = 0; i < len; i++)
        if (!find_mem(c, m, m->address + i, &off)) {
            if (m->ctx & DWEXPR_CTX_LANE)
                return tfail(c, DWEXPR_E_TARGET,
                             "no memory block of the context holds 0x%" PRIx64 " in aspace %u for lane %u",
                             m->address + i, m->aspace, m->lane);
            return tfail(c, DWEXPR_E_TARGET,
                         "no memory block of the context holds 0x%" PRIx64 " in aspace %u",
                         m->address + i, m->aspace);
        }
    for (size_t i = 0; i < len; i++) {
        const cx_block *b = find_mem(c, m, m->address + i, &off);
        if (rbuf)
            rbuf[i] = b->bytes[off];
        else
            b->bytes[off] = wbuf[i];
    }
    return DWEXPR_OK;
}

/* Callback: read memory. */
static dwexpr_status cb_mem_read(void *user, const dwexpr_memref *m, void *buf, size_t len)
{
    return mem_access(user, m, buf, NULL, len);
}

/* Callback: write memory. */
static dwexpr_status cb_mem_write(void *user, const dwexpr_memref *m, const void *buf, size_t len)
{
    return mem_access(user, m, NULL, buf, len);
}

/* Register REGNO's stored contents in frame F, or NULL. */
static cx_reg *find_reg(const cx_frame *f, uint32_t regno)
{
    for (size_t i = 0; i < f->nregs; i++)
        if (f->regs[i].regno == regno)
            return &f->regs[i];
    return NULL;
}

/* caller_saves rule for REGNO in frame F, or NULL. */
static const cx_save *find_save(const cx_frame *f, uint32_t regno)
{
    for (size_t i = 0; i < f->nsaves; i++)
        if (f->saves[i].regno == regno)
            return &f->saves[i];
    return NULL;
}

/* Where register REGNO of FRAME lives: stored contents, memory (caller
 * saves), or an implicit value; follows "same"/"register" rules down. */
typedef struct cx_where {
    cx_reg *reg;
    const cx_save *save;   /* SAVE_MEMORY or SAVE_VALUE */
} cx_where;

static dwexpr_status reg_where(cli_ctx *c, uint32_t frame, uint32_t regno, cx_where *w)
{
    const cx_state *st = c->st;
    uint32_t f0 = frame, r0 = regno;
    memset(w, 0, sizeof *w);
    for (;;) {
        if (frame < st->nframes && (w->reg = find_reg(&st->frames[frame], regno)))
            return DWEXPR_OK;
        if (frame == 0) {
            if (f0 == 0)
                return tfail(c, DWEXPR_E_TARGET, "register %u is not in the context", r0);
            return tfail(c, DWEXPR_E_TARGET,
                         "register %u of frame %u has no contents in the context (unwound to "
                         "register %u of frame 0)", r0, f0, regno);
        }
        if (frame >= st->nframes)
            return tfail(c, DWEXPR_E_NO_CONTEXT, "frame %u is not in the context", frame);
        const cx_save *s = find_save(&st->frames[frame - 1], regno);
        frame--;
        if (!s || s->kind == SAVE_SAME)
            continue;
        if (s->kind == SAVE_REGISTER) {
            regno = s->reg;
            continue;
        }
        if (s->kind == SAVE_UNDEFINED)
            return tfail(c, DWEXPR_E_TARGET, "register %u of frame %u is undefined (caller_saves)",
                         r0, f0);
        w->save = s;
        return DWEXPR_OK;
    }
}

/* Read or write register bytes [OFFSET, OFFSET+LEN) of R. */
static dwexpr_status reg_access(cli_ctx *c, const dwexpr_regref *r, uint64_t offset,
                                uint8_t *rbuf, const uint8_t *wbuf, size_t len)
{
    cx_where w;
    dwexpr_status s = reg_where(c, r->frame, r->regno, &w);
    if (s != DWEXPR_OK)
        return s;
    if (w.reg) {
        if (offset > w.reg->len || len > w.reg->len - offset)
            return tfail(c, DWEXPR_E_TARGET,
                         "register %u: bytes %" PRIu64 "..%" PRIu64 " are past its %u bytes in the context",
                         r->regno, offset, offset + len, w.reg->len);
        if (rbuf)
            memcpy(rbuf, w.reg->bytes + offset, len);
        else
            memcpy(w.reg->bytes + offset, wbuf, len);
        return DWEXPR_OK;
    }
    if (w.save->kind == SAVE_MEMORY) {
        dwexpr_memref m;
        memset(&m, 0, sizeof m);
        m.aspace = w.save->aspace;
        m.address = w.save->addr + offset;
        return mem_access(c, &m, rbuf, wbuf, len);
    }
    if (!rbuf)
        return tfail(c, DWEXPR_E_TARGET, "register %u of frame %u is a computed value (caller_saves)",
                     r->regno, r->frame);
    if (offset > w.save->vlen || len > w.save->vlen - offset)
        return tfail(c, DWEXPR_E_TARGET, "register %u: read past its %u bytes", r->regno, w.save->vlen);
    memcpy(rbuf, w.save->val + offset, len);
    return DWEXPR_OK;
}

/* Callback: register size. */
static dwexpr_status cb_reg_size(void *user, uint32_t regno, uint32_t *bytes)
{
    *bytes = reg_size_of(user, regno, true);
    return *bytes ? DWEXPR_OK : DWEXPR_E_NOT_FOUND;
}

/* Callback: read register bytes. */
static dwexpr_status cb_reg_read(void *user, const dwexpr_regref *r, uint64_t offset, void *buf,
                                 size_t len)
{
    return reg_access(user, r, offset, buf, NULL, len);
}

/* Callback: write register bytes. */
static dwexpr_status cb_reg_write(void *user, const dwexpr_regref *r, uint64_t offset,
                                  const void *buf, size_t len)
{
    return reg_access(user, r, offset, NULL, buf, len);
}

/* Look up an address space: listed, or 0 with the unit's address size. */
static const dwexpr_aspace_info *find_aspace(const cli_ctx *c, uint32_t aspace,
                                            dwexpr_aspace_info *tmp)
{
    for (size_t i = 0; i < c->st->naspaces; i++)
        if (c->st->aspaces[i].id == aspace)
            return &c->st->aspaces[i].info;
    /* AMDGPU: spaces 1-6 from the architecture (AMDGPUUsage "Address
     * Space Identifier"); space 0 keeps the unit's address size */
    if (aspace != 0 && c->st->wave)
        return dwexpr_amdgpu_aspace_info(aspace, tmp) == DWEXPR_OK ? tmp : NULL;
    if (aspace != 0)
        return NULL;
    memset(tmp, 0, sizeof *tmp);
    tmp->addr_bits = (uint8_t)(8 * c->unit.addr_size);
    return tmp;
}

/* Callback: address space properties. */
static dwexpr_status cb_aspace_info(void *user, uint32_t aspace, dwexpr_aspace_info *out)
{
    dwexpr_aspace_info tmp;
    const dwexpr_aspace_info *a = find_aspace(user, aspace, &tmp);
    if (!a)
        return tfail(user, DWEXPR_E_NOT_FOUND, "address space %u is not in the context", aspace);
    *out = *a;
    return DWEXPR_OK;
}

/* A memory SLD in ASPACE at ADDR, per lane/thread as the space says. */
static void memory_sld(const cli_ctx *c, const dwexpr_frameref *f, uint32_t aspace,
                       uint64_t addr, dwexpr_sld *out)
{
    dwexpr_aspace_info tmp;
    const dwexpr_aspace_info *a = find_aspace(c, aspace, &tmp);
    memset(out, 0, sizeof *out);
    out->kind = DWEXPR_LOC_MEMORY;
    out->aspace = aspace;
    out->byte_offset = addr;
    if (a && f && a->per_lane && (f->ctx & DWEXPR_CTX_LANE)) {
        out->ctx |= DWEXPR_CTX_LANE;
        out->lane = f->lane;
    }
    if (a && f && (a->per_thread || a->per_lane) && (f->ctx & DWEXPR_CTX_THREAD)) {
        out->ctx |= DWEXPR_CTX_THREAD;
        out->thread = f->thread;
    }
}

/* Callback: DW_OP_form_tls_address. */
static dwexpr_status cb_tls_address(void *user, const dwexpr_frameref *f, uint64_t ta,
                                    dwexpr_sld *out)
{
    cli_ctx *c = user;
    for (size_t i = 0; i < c->st->ntls; i++)
        if (c->st->tls_map[i].key == ta) {
            memory_sld(c, NULL, 0, c->st->tls_map[i].val, out);
            return DWEXPR_OK;
        }
    if (!c->st->has_tls_base)
        return tfail(c, DWEXPR_E_NOT_FOUND, "no tls_base or tls_map entry for TLS offset 0x%" PRIx64, ta);
    /* the simulated run-time adds in the default address space's width, as
     * a 64-bit one does (seed "DW_OP_form_tls_address": TA's meaning is the
     * run-time environment's; the memory storage is the range of the
     * space's addresses, "Memory Location Description Operations") */
    uint64_t a = c->st->tls_base + ta;
    if (c->unit.addr_size < 8)
        a &= ((uint64_t)1 << (8 * c->unit.addr_size)) - 1;
    memory_sld(c, NULL, 0, a, out);
    return DWEXPR_OK;
}

/* Callback: DW_OP_call_frame_cfa. */
static dwexpr_status cb_cfa(void *user, const dwexpr_frameref *f, dwexpr_sld *out)
{
    cli_ctx *c = user;
    if (f->frame >= c->st->nframes || !c->st->frames[f->frame].has_cfa)
        return tfail(c, DWEXPR_E_NOT_FOUND, "frame %u has no cfa in the context", f->frame);
    memory_sld(c, f, c->st->frames[f->frame].cfa_aspace, c->st->frames[f->frame].cfa, out);
    return DWEXPR_OK;
}

/* A register SLD for REGNO in FRAME. */
static void register_sld(const dwexpr_frameref *f, uint32_t frame, uint32_t regno, dwexpr_sld *out)
{
    memset(out, 0, sizeof *out);
    out->kind = DWEXPR_LOC_REGISTER;
    out->u.regno = regno;
    out->frame = frame;
    out->ctx = DWEXPR_CTX_FRAME;
    if (f->ctx & DWEXPR_CTX_THREAD) {
        out->ctx |= DWEXPR_CTX_THREAD;
        out->thread = f->thread;
    }
}

/* Callback: where register REGNO of frame f->frame lives (caller_saves). */
static dwexpr_status cb_register_location(void *user, const dwexpr_frameref *f, uint32_t regno,
                                          dwexpr_sld *out)
{
    cli_ctx *c = user;
    uint32_t frame = f->frame;
    if (frame == 0) {
        register_sld(f, 0, regno, out);
        return DWEXPR_OK;
    }
    if (frame >= c->st->nframes)
        return tfail(c, DWEXPR_E_NO_CONTEXT, "frame %u is not in the context", frame);
    const cx_save *s = find_save(&c->st->frames[frame - 1], regno);
    if (!s) {
        if (find_reg(&c->st->frames[frame], regno))
            register_sld(f, frame, regno, out);
        else
            register_sld(f, frame - 1, regno, out);
        return DWEXPR_OK;
    }
    switch (s->kind) {
    case SAVE_MEMORY:
        memory_sld(c, f, s->aspace, s->addr, out);
        break;
    case SAVE_REGISTER:
        register_sld(f, frame - 1, s->reg, out);
        break;
    case SAVE_UNDEFINED:
        memset(out, 0, sizeof *out);
        out->kind = DWEXPR_LOC_UNDEFINED;
        break;
    case SAVE_VALUE:
        memset(out, 0, sizeof *out);
        out->kind = DWEXPR_LOC_IMPLICIT;
        out->u.imp.data = s->val;
        out->u.imp.bits = 8u * s->vlen;
        break;
    default:
        register_sld(f, frame - 1, regno, out);
        break;
    }
    return DWEXPR_OK;
}

/* Callback: DW_OP_entry_value shortcut from "entry_values". */
static dwexpr_status cb_entry_value(void *user, const dwexpr_frameref *f, const uint8_t *block,
                                    size_t len, dwexpr_value *out)
{
    cli_ctx *c = user;
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < c->st->nentries; i++) {
        const char *k = c->st->entries[i].key;
        size_t j;
        if (strlen(k) != 2 * len)
            continue;
        for (j = 0; j < len; j++)
            if (k[2 * j] != digits[block[j] >> 4] || k[2 * j + 1] != digits[block[j] & 15])
                break;
        if (j == len) {
            *out = c->st->entries[i].v;
            return DWEXPR_OK;
        }
    }
    return DWEXPR_E_NOT_FOUND;
}

/* Callback: base type DIE. */
static dwexpr_status cb_base_type(void *user, const dwexpr_unit *unit, uint64_t die,
                                  dwexpr_type *out)
{
    cli_ctx *c = user;
    const cx_btype *bt = find_btype(c->st, die);
    if (!bt)
        return tfail(c, DWEXPR_E_NOT_FOUND, "no base type 0x%" PRIx64 " in the context", die);
    *out = bt->t;
    return DWEXPR_OK;
}

/* Callback: a DIE (one table for unit- and section-relative offsets). */
static dwexpr_status cb_die(void *user, const dwexpr_unit *unit, uint64_t offset,
                            bool section_relative, dwexpr_die *out)
{
    cli_ctx *c = user;
    for (size_t i = 0; i < c->st->ndies; i++)
        if (c->st->dies[i].off == offset) {
            *out = c->st->dies[i].d;
            out->unit = c->unit;
            return DWEXPR_OK;
        }
    return tfail(c, DWEXPR_E_NOT_FOUND, "no DIE 0x%" PRIx64 " in the context", offset);
}

/* Callback: .debug_addr entry. */
static dwexpr_status cb_debug_addr(void *user, const dwexpr_unit *unit, uint64_t index,
                                   uint64_t *out)
{
    cli_ctx *c = user;
    if (index >= c->st->ndebug_addr)
        return tfail(c, DWEXPR_E_NOT_FOUND, "debug_addr has no entry %" PRIu64, index);
    *out = c->st->debug_addr[index];
    return DWEXPR_OK;
}

/* Callback: frame base (frames[f].frame_base, else the top-level one). */
static dwexpr_status cb_frame_base(void *user, const dwexpr_frameref *f, dwexpr_frame_base *out)
{
    cli_ctx *c = user;
    if (f->frame < c->st->nframes && c->st->frames[f->frame].has_fb) {
        *out = c->st->frames[f->frame].fb;
        return DWEXPR_OK;
    }
    if (!c->st->has_fb)
        return tfail(c, DWEXPR_E_NOT_FOUND, "no frame_base in the context");
    *out = c->st->fb;
    return DWEXPR_OK;
}

/* Callback: program location of a frame. */
static dwexpr_status cb_frame_pc(void *user, const dwexpr_frameref *f, uint64_t *pc)
{
    cli_ctx *c = user;
    if (f->frame < c->st->nframes && c->st->frames[f->frame].has_pc) {
        *pc = c->st->frames[f->frame].pc;
        return DWEXPR_OK;
    }
    if (f->frame == 0 && c->params.has_pc) {
        *pc = c->params.pc;
        return DWEXPR_OK;
    }
    return tfail(c, DWEXPR_E_NOT_FOUND, "frame %u has no pc in the context", f->frame);
}

/* ---- loading ---- */

/* Blank out // and block comments outside strings (the contract's sample
 * is commented), keeping line numbers. */
static void strip_comments(char *s)
{
    bool in_str = false;
    for (char *p = s; *p; p++) {
        if (in_str) {
            if (*p == '\\' && p[1])
                p++;
            else if (*p == '"')
                in_str = false;
        } else if (*p == '"') {
            in_str = true;
        } else if (p[0] == '/' && p[1] == '/') {
            while (*p && *p != '\n')
                *p++ = ' ';
            if (!*p)
                break;
        } else if (p[0] == '/' && p[1] == '*') {
            *p++ = ' ';
            *p = ' ';
            for (p++; *p && !(p[0] == '*' && p[1] == '/'); p++)
                if (*p != '\n')
                    *p = ' ';
            if (!*p)
                break;
            *p++ = ' ';
            *p = ' ';
        }
    }
}

/* Whether the integer literal P (N characters, an optional '-' and digits
 * without a leading zero) lies outside jansson's json_int_t, int64. */
static bool beyond_int64(const char *p, size_t n)
{
    bool neg = *p == '-';
    const char *lim = neg ? "9223372036854775808" : "9223372036854775807";
    if (neg) {
        p++;
        n--;
    }
    if (n != strlen(lim))
        return n > strlen(lim);
    return strncmp(p, lim, n) > 0;
}

/* Contract "Context file": numbers may be JSON numbers; jansson keeps
 * integers as int64 and refuses the rest ("too big integer"), so that
 * 2^63 .. 2^64-1 could only be written as strings. Every integer literal
 * outside int64 (in a value position: after ':', ',' or '[') is put in
 * quotes before parsing, and the number fields read it as they read
 * "0x..." strings: 2^63 .. 2^64-1 are the numbers they say, the rest are
 * refused as not fitting in 64 bits. JSON_DECODE_INT_AS_REAL would round
 * them. Returns TEXT, or a malloc'ed copy with quotes (TEXT freed). */
static char *quote_big_ints(char *text)
{
    size_t extra = 0;
    for (int pass = 0; pass < 2; pass++) {
        char *out = NULL, *o = NULL;
        if (pass == 1) {
            if (extra == 0)
                return text;
            out = o = xcalloc(strlen(text) + extra + 1, 1);
        }
        bool in_str = false;
        char last = 0;      /* the last non-blank character outside strings */
        for (const char *p = text; *p;) {
            if (in_str) {
                if (*p == '\\' && p[1]) {
                    if (o) {
                        *o++ = *p;
                        *o++ = p[1];
                    }
                    p += 2;
                    continue;
                }
                if (*p == '"')
                    in_str = false;
            } else if (*p == '"') {
                in_str = true;
            } else if ((*p == '-' || (*p >= '1' && *p <= '9')) &&
                       (last == ':' || last == ',' || last == '[')) {
                const char *q = p + (*p == '-');
                if (*q >= '1' && *q <= '9') {
                    while (*q >= '0' && *q <= '9')
                        q++;
                    bool integer = *q != '.' && *q != 'e' && *q != 'E';
                    if (integer && beyond_int64(p, (size_t)(q - p))) {
                        if (o) {
                            *o++ = '"';
                            memcpy(o, p, (size_t)(q - p));
                            o += q - p;
                            *o++ = '"';
                        }
                        extra += 2;
                        last = '"';
                        p = q;
                        continue;
                    }
                }
            }
            if (!in_str && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r')
                last = *p;
            if (o)
                *o++ = *p;
            p++;
        }
        if (pass == 1) {
            *o = 0;
            free(text);
            return out;
        }
    }
    return text;
}

/* Read a whole stream into a malloc'ed NUL-terminated string; *LEN gets
 * the number of bytes read (more than strlen when the stream holds NULs). */
static char *slurp(FILE *f, size_t *len)
{
    size_t n = 0, cap = 4096;
    char *b = xcalloc(cap, 1);
    size_t r;
    while ((r = fread(b + n, 1, cap - n - 1, f)) > 0) {
        n += r;
        if (cap - n - 1 == 0) {
            char *nb = realloc(b, cap * 2);
            if (!nb) {
                free(b);
                return NULL;
            }
            b = nb;
            cap *= 2;
        }
    }
    b[n] = 0;
    *len = n;
    return b;
}

/* Fill in the target's callbacks. */
static void setup_target(cli_ctx *c)
{
    dwexpr_target *t = &c->target;
    memset(t, 0, sizeof *t);
    t->size = sizeof *t;
    t->reg_size = cb_reg_size;
    t->reg_read = cb_reg_read;
    t->reg_write = cb_reg_write;
    t->mem_read = cb_mem_read;
    t->mem_write = cb_mem_write;
    t->aspace_info = cb_aspace_info;
    t->register_location = cb_register_location;
    t->entry_value = cb_entry_value;
}

/* Offer the services the context file provides: a table that is absent
 * leaves its callback NULL, so the library reports a missing context
 * element (class "context") rather than a missing entry. */
static void offer_services(cli_ctx *c, const json_t *root)
{
    const cx_state *st = c->st;
    dwexpr_target *t = &c->target;
    bool cfa = false, fb = st->has_fb, pc = c->params.has_pc;
    for (size_t i = 0; i < st->nframes; i++) {
        cfa |= st->frames[i].has_cfa;
        fb |= st->frames[i].has_fb;
        pc |= st->frames[i].has_pc;
    }
    if (st->has_tls_base || json_object_get(root, "tls_map"))
        t->tls_address = cb_tls_address;
    if (cfa)
        t->cfa = cb_cfa;
    if (json_object_get(root, "dies"))
        t->die = cb_die;
    /* with a type table, a type it lacks is ill-formed DWARF */
    if (json_object_get(root, "base_types"))
        t->base_type = cb_base_type;
    if (json_object_get(root, "debug_addr"))
        t->debug_addr = cb_debug_addr;
    if (fb)
        t->frame_base = cb_frame_base;
    if (pc)
        t->frame_pc = cb_frame_pc;
}

/* "exec" on AMDGPU is also the contents of the EXEC register of frame 0
 * (EXEC_MASK_64 / EXEC_MASK_32); a listed EXEC register must agree. */
static int apply_exec(cli_ctx *c)
{
    cx_state *st = c->st;
    if (!st->has_exec || !st->wave)
        return 0;
    uint32_t regno = dwexpr_amdgpu_exec_regno(c->arch);
    uint32_t size = reg_size_of(c, regno, false);
    uint8_t *b = encode_number(c, st->exec, false, size);
    const cx_reg *r = find_reg(&st->frames[0], regno);
    if (r && (r->len != size || memcmp(r->bytes, b, size) != 0))
        return fail(c, "context fields exec and registers.%u (EXEC) disagree", regno);
    if (!r)
        put_reg(&st->frames[0], regno, b, size);
    return 0;
}

/* A lane not in the execution mask is inactive (contract "exec"). */
bool cli_ctx_lane_active(const cli_ctx *c, uint32_t lane)
{
    const cx_state *st = c->st;
    if (st->has_exec)
        return lane < 64 && ((st->exec >> lane) & 1);
    if (st->wave) {
        const cx_reg *r = find_reg(&st->frames[0], dwexpr_amdgpu_exec_regno(c->arch));
        if (r)
            return lane / 8 < r->len && ((r->bytes[lane / 8] >> (lane % 8)) & 1);
    }
    return true;
}

/* "args": ["reg:1", "const:5", "addr:0x1000", "undef"]: the location
 * operands of `eval --diexpr` / `--spirv` (cli_frontends.c checks them). */
static int parse_args(cli_ctx *c, const json_t *v)
{
    if (!json_is_array(v) || json_array_size(v) > sizeof c->args / sizeof c->args[0])
        return fail(c, "context field args: a list of at most %zu strings",
                    sizeof c->args / sizeof c->args[0]);
    for (size_t i = 0; i < json_array_size(v); i++) {
        const char *s = json_string_value(json_array_get(v, i));
        if (!s)
            return fail(c, "context field args[%zu]: a string (reg:R, const:C, addr:A, undef)", i);
        char *copy = cx_alloc(c->st, strlen(s) + 1, 1);
        memcpy(copy, s, strlen(s) + 1);
        c->args[c->nargs++] = copy;
    }
    return 0;
}

/* Parse the root object, in dependency order. */
static int parse_root(cli_ctx *c, const json_t *root, const cli_overrides *ov)
{
    const json_t *v;
    if (parse_unit(c, root, ov) || parse_params(c, root, ov))
        return -1;
    if ((v = json_object_get(root, "register_sizes")) && parse_reg_sizes(c, v))
        return -1;
    if ((v = json_object_get(root, "address_spaces")) && parse_aspaces(c, v))
        return -1;
    if (parse_frames(c, root) || apply_exec(c))
        return -1;
    if (!c->params.has_pc && c->st->frames[0].has_pc) {
        c->params.has_pc = true;
        c->params.pc = c->st->frames[0].pc;
    }
    if ((v = json_object_get(root, "memory")) && parse_memory(c, v))
        return -1;
    if ((v = json_object_get(root, "base_types")) && parse_base_types(c, v))
        return -1;
    if ((v = json_object_get(root, "args")) && parse_args(c, v))
        return -1;
    if (parse_stack(c, root) || parse_tables(c, root))
        return -1;
    if ((v = json_object_get(root, "dies")) && parse_dies(c, v))
        return -1;
    offer_services(c, root);
    return 0;
}

int cli_ctx_load(cli_ctx *c, const char *src, const cli_overrides *ov)
{
    char *text = NULL;
    const char *name = src;
    json_error_t jerr;
    memset(c, 0, sizeof *c);
    c->st = xcalloc(1, sizeof *c->st);
    setup_target(c);
    if (!src) {
        text = xcalloc(3, 1);
        strcpy(text, "{}");
        name = "(empty context)";
    } else {
        const char *p = src;
        while (*p == ' ' || *p == '\t' || *p == '\n')
            p++;
        if (*p == '{') {
            text = xcalloc(strlen(src) + 1, 1);
            strcpy(text, src);
            name = "(inline context)";
        } else {
            FILE *f = strcmp(src, "-") == 0 ? stdin : fopen(src, "rb");
            if (!f)
                return fail(c, "cannot read context file %s: %s", src, strerror(errno));
            size_t n = 0;
            text = slurp(f, &n);
            if (f != stdin)
                fclose(f);
            if (!text)
                return fail(c, "cannot read context file %s", src);
            /* JSON text has no NUL bytes: the parser would stop at one and
             * ignore the rest */
            if (strlen(text) != n) {
                size_t at = strlen(text);
                free(text);
                return fail(c, "context %s: a NUL byte at offset %zu (not JSON text)",
                            strcmp(src, "-") == 0 ? "(stdin)" : src, at);
            }
        }
    }
    strip_comments(text);
    text = quote_big_ints(text);
    json_t *root = json_loads(text, JSON_REJECT_DUPLICATES, &jerr);
    free(text);
    if (!root)
        return fail(c, "context %s: line %d column %d: %s", name, jerr.line, jerr.column, jerr.text);
    int rc;
    if (!json_is_object(root))
        rc = fail(c, "context %s: expected a JSON object", name);
    else
        rc = parse_root(c, root, ov);
    json_decref(root);
    return rc;
}

void cli_ctx_free(cli_ctx *c)
{
    if (!c->st)
        return;
    for (size_t i = 0; i < c->st->nallocs; i++)
        free(c->st->allocs[i]);
    free(c->st->allocs);
    free(c->st);
    c->st = NULL;
}

/* ---- state dump (--write "after") ---- */

/* A string "0x..." for an address. */
static json_t *hex_u64(uint64_t v)
{
    char buf[24];
    snprintf(buf, sizeof buf, "0x%" PRIx64, v);
    return json_string(buf);
}

/* A JSON string of lowercase hex bytes. */
static json_t *hex_bytes(const uint8_t *b, size_t n)
{
    static const char digits[] = "0123456789abcdef";
    char *s = xcalloc(2 * n + 1, 1);
    for (size_t i = 0; i < n; i++) {
        s[2 * i] = digits[b[i] >> 4];
        s[2 * i + 1] = digits[b[i] & 15];
    }
    json_t *j = json_string(s);
    free(s);
    return j;
}

/* {"regno": {"bytes": "..."}} of one frame. */
static json_t *regs_json(const cx_frame *f)
{
    json_t *o = json_object();
    char key[16];
    for (size_t i = 0; i < f->nregs; i++) {
        snprintf(key, sizeof key, "%u", f->regs[i].regno);
        json_object_set_new(o, key, json_pack("{s:o}", "bytes",
                                              hex_bytes(f->regs[i].bytes, f->regs[i].len)));
    }
    return o;
}

json_t *cli_ctx_state_json(const cli_ctx *c)
{
    const cx_state *st = c->st;
    json_t *o = json_object();
    json_t *mem = json_array();
    json_object_set_new(o, "registers", regs_json(&st->frames[0]));
    for (size_t i = 0; i < st->nmem; i++) {
        const cx_block *b = &st->mem[i];
        json_t *m = json_object();
        json_object_set_new(m, "aspace", json_integer(b->aspace));
        if (b->has_lane)
            json_object_set_new(m, "lane", json_integer(b->lane));
        if (b->has_thread)
            json_object_set_new(m, "thread", b->thread <= (uint64_t)INT64_MAX
                                                 ? json_integer((json_int_t)b->thread)
                                                 : hex_u64(b->thread));
        json_object_set_new(m, "address", hex_u64(b->address));
        json_object_set_new(m, "bytes", hex_bytes(b->bytes, b->len));
        json_array_append_new(mem, m);
    }
    json_object_set_new(o, "memory", mem);
    if (st->nframes > 1) {
        json_t *fr = json_array();
        for (size_t i = 0; i < st->nframes; i++)
            json_array_append_new(fr, json_pack("{s:o}", "registers", regs_json(&st->frames[i])));
        json_object_set_new(o, "frames", fr);
    }
    return o;
}
