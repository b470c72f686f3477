/* lib/spirv.c: the SPIR-V front end (dwexpr/spirv.h): DebugOperation
 * sequences from text or from a binary module, lowered through the
 * DIExpression front end. The binary reader follows the SPIR-V
 * specification's "Physical Layout of a SPIR-V Module and Instruction"
 * (a 5-word header, then instructions whose first word holds the word
 * count in the high half and the opcode in the low half). */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "dwx.h"
#include "dwexpr/spirv.h"

/* Fill ERR (may be NULL) with status S at offset OFF (no operation of the
 * DWARF table) and a message; returns S. */
#define fail(err, s, off, ...) dwx_fail((err), (s), (off), DWEXPR_OP_COUNT, __VA_ARGS__)

/* ---- the operation table ---- */

static const struct {
    const char *name;
    uint32_t code;
    uint32_t nops;
    dwexpr_opid dw;
} op_tab[] = {
#define DWX_X(n, c, k, d) {#n, c, k, DWEXPR_OP_##d},
    DWEXPR_SPIRV_OPS(DWX_X)
#undef DWX_X
};
#define NOPS (sizeof op_tab / sizeof op_tab[0])

static int op_index(uint32_t code)
{
    for (unsigned i = 0; i < NOPS; i++)
        if (op_tab[i].code == code)
            return (int)i;
    return -1;
}

const char *dwexpr_spirv_op_name(uint32_t code)
{
    int i = op_index(code);
    return i < 0 ? NULL : op_tab[i].name;
}

/* Whether SET has operation CODE: the older DebugInfo set stops before
 * Fragment (DebugInfo 3.6). */
static bool set_has(dwexpr_spirv_set set, uint32_t code)
{
    return op_index(code) >= 0 && (set != DWEXPR_SPIRV_SET_DEBUGINFO || code != DWEXPR_SPIRV_OP_Fragment);
}

static const char *const set_names[] = {NULL, "DebugInfo", "OpenCL.DebugInfo.100",
                                        "NonSemantic.Shader.DebugInfo.100"};

const char *dwexpr_spirv_set_name(dwexpr_spirv_set set)
{
    return (unsigned)set < sizeof set_names / sizeof set_names[0] ? set_names[set] : NULL;
}

/* ---- text ---- */

static bool blank(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',';
}

dwexpr_status dwexpr_spirv_parse(const char *text, dwexpr_spirv_set set, dwexpr_spirv_op *ops,
                                 size_t cap, size_t *count, dwexpr_error *err)
{
    if (!text || !count || (cap && !ops))
        return fail(err, DWEXPR_E_USAGE, -1, "dwexpr_spirv_parse: bad arguments");
    if (set == DWEXPR_SPIRV_SET_NONE)
        set = DWEXPR_SPIRV_SET_OPENCL_100;
    size_t n = 0;
    int last = -1;
    const char *p = text;
    *count = 0;
    for (;;) {
        while (blank(*p))
            p++;
        if (!*p)
            break;
        const char *w = p;
        while (*p && !blank(*p))
            p++;
        size_t len = (size_t)(p - w);
        int k = -1;
        for (unsigned i = 0; i < NOPS; i++)
            if (strlen(op_tab[i].name) == len && strncmp(op_tab[i].name, w, len) == 0)
                k = (int)i;
        if (k < 0) {
            if (*w >= '0' && *w <= '9' && last >= 0)
                return fail(err, DWEXPR_E_SYNTAX, w - text,
                            "%s takes %" PRIu32 " operand(s); '%.*s' is one too many",
                            op_tab[last].name, op_tab[last].nops, (int)len, w);
            return fail(err, DWEXPR_E_SYNTAX, w - text, "unknown debug operation '%.*s'",
                        (int)len, w);
        }
        last = k;
        if (!set_has(set, op_tab[k].code))
            return fail(err, DWEXPR_E_SYNTAX, w - text, "%s is not an operation of %s",
                        op_tab[k].name, dwexpr_spirv_set_name(set));
        dwexpr_spirv_op op = {op_tab[k].code, op_tab[k].nops, {0, 0}};
        for (uint32_t j = 0; j < op.nops; j++) {
            while (blank(*p))
                p++;
            const char *v = p;
            while (*p && !blank(*p))
                p++;
            char tmp[32], *end;
            size_t vl = (size_t)(p - v);
            if (vl == 0 || vl >= sizeof tmp || !(*v >= '0' && *v <= '9'))
                return fail(err, DWEXPR_E_SYNTAX, v - text, "%s takes %u operand(s), got %u",
                            op_tab[k].name, op.nops, j);
            memcpy(tmp, v, vl);
            tmp[vl] = 0;
            errno = 0;
            unsigned long long x = strtoull(tmp, &end, 0);
            if (*end || errno == ERANGE || x > UINT32_MAX)
                return fail(err, DWEXPR_E_SYNTAX, v - text,
                            "operand '%s' of %s is not a 32-bit literal", tmp, op_tab[k].name);
            op.operand[j] = (uint32_t)x;
        }
        if (n < cap)
            ops[n] = op;
        n++;
    }
    *count = n;
    return n > cap ? fail(err, DWEXPR_E_NOSPACE, -1, "%zu operations, room for %zu", n, cap)
                   : DWEXPR_OK;
}

size_t dwexpr_spirv_format(const dwexpr_spirv_op *ops, size_t n, char *buf, size_t cap)
{
    size_t len = 0;
    char tmp[64];
    if (cap)
        buf[0] = 0;
    for (size_t i = 0; i < n; i++) {
        const char *name = dwexpr_spirv_op_name(ops[i].code);
        int k = name ? snprintf(tmp, sizeof tmp, "%s%s", i ? " " : "", name)
                     : snprintf(tmp, sizeof tmp, "%s?%" PRIu32, i ? " " : "", ops[i].code);
        for (uint32_t j = 0; j < ops[i].nops && j < 2; j++)
            k += snprintf(tmp + k, sizeof tmp - (size_t)k, " %" PRIu32, ops[i].operand[j]);
        if (cap && len + (size_t)k < cap)
            memcpy(buf + len, tmp, (size_t)k + 1);
        else if (cap && len < cap)
            buf[len] = 0;
        len += (size_t)k;
    }
    return len;
}

/* ---- lowering ---- */

dwexpr_status dwexpr_spirv_lower(const dwexpr_spirv_record *recs, size_t n, const dwexpr_unit *unit,
                                 dwexpr_lowered **out, dwexpr_error *err)
{
    if (!recs || n == 0 || !out || !unit)
        return fail(err, DWEXPR_E_USAGE, -1, "dwexpr_spirv_lower: bad arguments");
    *out = NULL;
    dwexpr_diexpr **exprs = calloc(n, sizeof *exprs);
    dwexpr_dbg_record *dr = calloc(n, sizeof *dr);
    dwexpr_status s = DWEXPR_OK;
    if (!exprs || !dr) {
        s = fail(err, DWEXPR_E_NOMEM, -1, "out of memory");
        goto done;
    }
    for (size_t r = 0; r < n; r++) {
        const dwexpr_spirv_record *rec = &recs[r];
        dwexpr_diexpr_op *ops = calloc(rec->nops + 1, sizeof *ops);
        if (!ops) {
            s = fail(err, DWEXPR_E_NOMEM, -1, "out of memory");
            goto done;
        }
        for (size_t i = 0; i < rec->nops; i++) {
            const dwexpr_spirv_op *o = &rec->ops[i];
            int k = op_index(o->code);
            if (k < 0 || o->nops != op_tab[k].nops) {
                free(ops);
                s = fail(err, DWEXPR_E_SYNTAX, (int64_t)r,
                         k < 0 ? "expression %zu: unknown debug operation %" PRIu32
                               : "expression %zu: operation %" PRIu32 " has the wrong operand count",
                         r, o->code);
                goto done;
            }
            /* 3.6: every operation is the DWARF one of its name; BitPiece
             * lists offset before size (DW_OP_bit_piece: size, offset);
             * Fragment is BitPiece within the source variable, i.e.
             * LLVM's DW_OP_LLVM_fragment */
            if (o->code == DWEXPR_SPIRV_OP_Fragment) {
                ops[i].internal = true;
                ops[i].id = DWEXPR_DIOP_LLVM_fragment;
            } else {
                ops[i].id = op_tab[k].dw;
            }
            ops[i].nops = o->nops;
            if (o->code == DWEXPR_SPIRV_OP_BitPiece) {
                ops[i].operand[0] = o->operand[1];
                ops[i].operand[1] = o->operand[0];
            } else {
                ops[i].operand[0] = o->operand[0];
                ops[i].operand[1] = o->operand[1];
            }
        }
        dwexpr_error e;
        s = dwx_diexpr_from_spirv_ops(ops, rec->nops, &exprs[r], &e);
        free(ops);
        if (s != DWEXPR_OK) {
            s = fail(err, s, (int64_t)r, "expression %zu: %s", r, e.message);
            goto done;
        }
        dr[r].expr = exprs[r];
        dr[r].kind = rec->is_declare ? DWEXPR_DBG_DECLARE : DWEXPR_DBG_VALUE;
        dr[r].args = &rec->initial;
        dr[r].nargs = 1;
    }
    s = dwexpr_diexpr_lower(dr, n, unit, out, err);
done:
    for (size_t r = 0; exprs && r < n; r++)
        dwexpr_diexpr_free(exprs[r]);
    free(exprs);
    free(dr);
    return s;
}

/* ---- binary modules ---- */

/* SPIR-V core opcodes the reader needs (SPIR-V spec 3.42 "Instructions"). */
enum {
    SPV_OpName = 5,
    SPV_OpString = 7,
    SPV_OpExtInstImport = 11,
    SPV_OpExtInst = 12,
    SPV_OpConstant = 43
};
/* Debug instruction numbers shared by the three sets (3.1 "Instruction
 * Enumeration"). */
enum {
    DBG_InfoNone = 0,
    DBG_LocalVariable = 26,
    DBG_InlinedVariable = 27,
    DBG_Declare = 28,
    DBG_Value = 29,
    DBG_Operation = 30,
    DBG_Expression = 31
};

#define SPIRV_MAGIC 0x07230203u

/* One remembered instruction: result id and where its words are. */
typedef struct rec {
    uint32_t id;
    uint32_t opcode;      /* core opcode */
    uint32_t dbg;         /* OpExtInst of a debug set: instruction number, else ~0 */
    dwexpr_spirv_set set;
    size_t word, count;
} rec;

struct dwexpr_spirv_module {
    dwexpr_spirv_set set;
    dwexpr_spirv_entry *entries;
    size_t count;
    char **strings;       /* owned names */
    size_t nstrings;
    dwexpr_spirv_op **opbufs;
    size_t nopbufs;
};

typedef struct reader {
    const uint8_t *bytes;
    size_t nwords;
    bool swap;
    rec *recs;               /* definitions, sorted by id after the first pass */
    size_t nrecs;
    rec *names;              /* OpName, by target id, in module order */
    size_t nnames;
    dwexpr_spirv_module *m;
    dwexpr_error *err;
} reader;

static uint32_t word(const reader *r, size_t i)
{
    const uint8_t *p = r->bytes + 4 * i;
    return r->swap ? (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]
                   : (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

static int rec_cmp(const void *a, const void *b)
{
    const rec *x = a, *y = b;
    return x->id < y->id ? -1 : x->id > y->id ? 1 : (x->word > y->word) - (x->word < y->word);
}

/* The definition of ID (the recs are sorted by id once the module is read). */
static const rec *find(const reader *r, uint32_t id)
{
    size_t lo = 0, hi = r->nrecs;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (r->recs[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < r->nrecs && r->recs[lo].id == id ? &r->recs[lo] : NULL;
}

/* The literal string starting at word FIRST of the instruction at WORD
 * with COUNT words, copied (NULL and an error if not NUL terminated). */
static char *lit_string(reader *r, size_t at, size_t first, size_t count)
{
    size_t maxlen = 4 * (count - first);
    char *s = malloc(maxlen + 1);
    if (!s) {
        fail(r->err, DWEXPR_E_NOMEM, -1, "out of memory");
        return NULL;
    }
    for (size_t i = first; i < count; i++) {
        uint32_t w = word(r, at + i);
        for (int b = 0; b < 4; b++)
            s[4 * (i - first) + (size_t)b] = (char)(w >> (8 * b));
    }
    s[maxlen] = 0;
    if (memchr(s, 0, maxlen) == NULL) {
        free(s);
        fail(r->err, DWEXPR_E_BAD_OPERAND, (int64_t)(4 * at),
             "the string of the instruction at word %zu is not NUL terminated", at);
        return NULL;
    }
    return s;
}

static char *keep_string(reader *r, char *s)
{
    dwexpr_spirv_module *m = r->m;
    char **ns = realloc(m->strings, (m->nstrings + 1) * sizeof *ns);
    if (!ns) {
        free(s);
        fail(r->err, DWEXPR_E_NOMEM, -1, "out of memory");
        return NULL;
    }
    m->strings = ns;
    m->strings[m->nstrings++] = s;
    return s;
}

/* The value of OpConstant ID (Shader set literals), or an error. */
static dwexpr_status const_value(reader *r, uint32_t id, size_t at, uint64_t *out)
{
    const rec *c = find(r, id);
    if (!c || c->opcode != SPV_OpConstant || c->count < 4)
        return fail(r->err, DWEXPR_E_BAD_OPERAND, (int64_t)(4 * at),
                    "instruction at word %zu: %%%" PRIu32 " is not an OpConstant", at, id);
    *out = word(r, c->word + 3);
    if (c->count >= 5)
        *out |= (uint64_t)word(r, c->word + 4) << 32;
    return DWEXPR_OK;
}

/* A literal operand: the word itself, or (Shader set) the OpConstant it names. */
static dwexpr_status literal(reader *r, const rec *in, size_t i, uint32_t *out)
{
    uint32_t w = word(r, in->word + i);
    if (in->set != DWEXPR_SPIRV_SET_SHADER_100) {
        *out = w;
        return DWEXPR_OK;
    }
    uint64_t v;
    dwexpr_status s = const_value(r, w, in->word, &v);
    if (s == DWEXPR_OK && v > UINT32_MAX)
        s = fail(r->err, DWEXPR_E_BAD_OPERAND, (int64_t)(4 * in->word),
                 "instruction at word %zu: literal %%%" PRIu32 " does not fit 32 bits", in->word, w);
    *out = (uint32_t)v;
    return s;
}

/* The debug instruction ID of kind DBG, as referenced from instruction AT. */
static const rec *debug_ref(reader *r, uint32_t id, uint32_t dbg, size_t at, const char *what)
{
    const rec *x = find(r, id);
    if (!x || x->dbg != dbg) {
        fail(r->err, DWEXPR_E_BAD_OPERAND, (int64_t)(4 * at),
             "instruction at word %zu: %s %%%" PRIu32 " is not a %s", at, what, id,
             dbg == DBG_Expression ? "DebugExpression" : "DebugOperation");
        return NULL;
    }
    return x;
}

/* Decode the DebugExpression EX into a new operation array. */
static dwexpr_status expression(reader *r, const rec *ex, dwexpr_spirv_op **out, size_t *n)
{
    size_t nops = ex->count > 5 ? ex->count - 5 : 0;
    dwexpr_spirv_op *ops = calloc(nops + 1, sizeof *ops);
    if (!ops)
        return fail(r->err, DWEXPR_E_NOMEM, -1, "out of memory");
    dwexpr_spirv_module *m = r->m;
    dwexpr_spirv_op **nb = realloc(m->opbufs, (m->nopbufs + 1) * sizeof *nb);
    if (!nb) {
        free(ops);
        return fail(r->err, DWEXPR_E_NOMEM, -1, "out of memory");
    }
    m->opbufs = nb;
    m->opbufs[m->nopbufs++] = ops;
    for (size_t i = 0; i < nops; i++) {
        const rec *o = debug_ref(r, word(r, ex->word + 5 + i), DBG_Operation, ex->word, "operation");
        if (!o)
            return r->err ? r->err->status : DWEXPR_E_BAD_OPERAND;
        if (o->count < 6)
            return fail(r->err, DWEXPR_E_BAD_OPERAND, (int64_t)(4 * o->word),
                        "DebugOperation at word %zu has no operation", o->word);
        uint32_t code;
        dwexpr_status s = literal(r, o, 5, &code);
        if (s != DWEXPR_OK)
            return s;
        int k = op_index(code);
        if (k < 0 || !set_has(o->set, code))
            return fail(r->err, DWEXPR_E_UNKNOWN_OP, (int64_t)(4 * o->word),
                        "DebugOperation at word %zu: %s has no operation %" PRIu32 "%s", o->word,
                        dwexpr_spirv_set_name(o->set), code, k >= 0 ? " (Fragment)" : "");
        if (o->count - 6 != op_tab[k].nops)
            return fail(r->err, DWEXPR_E_BAD_OPERAND, (int64_t)(4 * o->word),
                        "DebugOperation at word %zu: %s takes %" PRIu32 " operand(s), has %zu",
                        o->word, op_tab[k].name, op_tab[k].nops, o->count - 6);
        ops[i].code = code;
        ops[i].nops = op_tab[k].nops;
        for (uint32_t j = 0; j < ops[i].nops; j++)
            if ((s = literal(r, o, 6 + j, &ops[i].operand[j])) != DWEXPR_OK)
                return s;
    }
    *out = ops;
    *n = nops;
    return DWEXPR_OK;
}

/* Fill entry E from the DebugValue / DebugDeclare IN. */
static dwexpr_status entry(reader *r, const rec *in, dwexpr_spirv_entry *e)
{
    if (in->count < 8)
        return fail(r->err, DWEXPR_E_BAD_OPERAND, (int64_t)(4 * in->word),
                    "%s at word %zu has %zu words, needs at least 8",
                    in->dbg == DBG_Declare ? "DebugDeclare" : "DebugValue", in->word, in->count);
    memset(e, 0, sizeof *e);
    e->is_declare = in->dbg == DBG_Declare;
    e->id = in->id;
    e->word = in->word;
    e->variable_id = word(r, in->word + 5);
    e->operand_id = word(r, in->word + 6);
    e->expr_id = word(r, in->word + 7);
    e->name = "";
    /* the variable's name: DebugLocalVariable Name (4.8), through a
     * DebugInlinedVariable's Variable */
    const rec *v = find(r, e->variable_id);
    if (v && v->dbg == DBG_InlinedVariable && v->count >= 6)
        v = find(r, word(r, v->word + 5));
    if (!v)
        return fail(r->err, DWEXPR_E_BAD_OPERAND, (int64_t)(4 * in->word),
                    "instruction at word %zu: local variable %%%" PRIu32 " is not defined",
                    in->word, e->variable_id);
    if (v->dbg == DBG_LocalVariable && v->count >= 6) {
        const rec *s = find(r, word(r, v->word + 5));
        if (s && s->opcode == SPV_OpString) {
            char *str = lit_string(r, s->word, 2, s->count);
            if (!str || !keep_string(r, str))
                return r->err ? r->err->status : DWEXPR_E_NOMEM;
            e->name = str;
        }
    }
    /* the operand: an OpName, and the value of an OpConstant */
    for (size_t i = 0; i < r->nnames; i++) {
        const rec *x = &r->names[i];
        if (x->id == e->operand_id && x->count >= 3) {
            char *str = lit_string(r, x->word, 2, x->count);
            if (!str || !keep_string(r, str))
                return r->err ? r->err->status : DWEXPR_E_NOMEM;
            e->operand_name = str;
            break;
        }
    }
    const rec *c = find(r, e->operand_id);
    if (c && c->opcode == SPV_OpConstant && c->count >= 4 && c->count <= 5) {
        e->has_const = true;
        const_value(r, e->operand_id, in->word, &e->const_value);
    }
    const rec *ex = debug_ref(r, e->expr_id, DBG_Expression, in->word, "expression");
    if (!ex)
        return r->err ? r->err->status : DWEXPR_E_BAD_OPERAND;
    dwexpr_spirv_op *ops = NULL;
    dwexpr_status s = expression(r, ex, &ops, &e->nops);
    e->ops = ops;
    return s;
}

void dwexpr_spirv_module_free(dwexpr_spirv_module *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->nstrings; i++)
        free(m->strings[i]);
    for (size_t i = 0; i < m->nopbufs; i++)
        free(m->opbufs[i]);
    free(m->strings);
    free(m->opbufs);
    free(m->entries);
    free(m);
}

dwexpr_spirv_set dwexpr_spirv_module_set(const dwexpr_spirv_module *m)
{
    return m ? m->set : DWEXPR_SPIRV_SET_NONE;
}

size_t dwexpr_spirv_module_count(const dwexpr_spirv_module *m)
{
    return m ? m->count : 0;
}

const dwexpr_spirv_entry *dwexpr_spirv_module_entry(const dwexpr_spirv_module *m, size_t i)
{
    return m && i < m->count ? &m->entries[i] : NULL;
}

dwexpr_status dwexpr_spirv_module_read(const uint8_t *bytes, size_t len, dwexpr_spirv_module **out,
                                       dwexpr_error *err)
{
    if (!out || (len && !bytes))
        return fail(err, DWEXPR_E_USAGE, -1, "dwexpr_spirv_module_read: bad arguments");
    *out = NULL;
    if (len % 4)
        return fail(err, DWEXPR_E_TRUNCATED, (int64_t)(len & ~(size_t)3),
                    "%zu bytes is not a whole number of 32-bit words (truncated module?)", len);
    if (len < 20)
        return fail(err, DWEXPR_E_TRUNCATED, 0,
                    "%zu bytes: the 5-word SPIR-V header is cut short", len);
    reader r = {bytes, len / 4, false, NULL, 0, NULL, 0, NULL, err};
    uint32_t magic = word(&r, 0);
    if (magic != SPIRV_MAGIC) {
        r.swap = true;
        if (word(&r, 0) != SPIRV_MAGIC)
            return fail(err, DWEXPR_E_BAD_OPERAND, 0,
                        "bad magic number 0x%08" PRIx32 ": not a SPIR-V module", magic);
    }
    dwexpr_status s = DWEXPR_OK;
    r.m = calloc(1, sizeof *r.m);
    if (!r.m)
        return fail(err, DWEXPR_E_NOMEM, -1, "out of memory");
    /* imported debug sets: id -> set */
    uint32_t set_ids[8];
    dwexpr_spirv_set set_of[8];
    size_t nsets = 0, cap = 0, ncap = 0;
    for (size_t at = 5; at < r.nwords;) {
        uint32_t w0 = word(&r, at), count = w0 >> 16, opcode = w0 & 0xffff;
        if (count == 0) {
            s = fail(err, DWEXPR_E_BAD_OPERAND, (int64_t)(4 * at),
                     "instruction at word %zu (opcode %" PRIu32 ") has word count 0", at, opcode);
            goto done;
        }
        if (count > r.nwords - at) {
            s = fail(err, DWEXPR_E_TRUNCATED, (int64_t)(4 * at),
                     "instruction at word %zu (opcode %" PRIu32 ") has %" PRIu32
                     " words, only %zu left (truncated module)", at, opcode, count, r.nwords - at);
            goto done;
        }
        rec x = {0, opcode, ~0u, DWEXPR_SPIRV_SET_NONE, at, count};
        bool keep = false;
        switch (opcode) {
        case SPV_OpName:
            keep = count >= 2;
            if (keep)
                x.id = word(&r, at + 1); /* the target */
            break;
        case SPV_OpString:
        case SPV_OpExtInstImport:
            if (count < 3) {
                s = fail(err, DWEXPR_E_BAD_OPERAND, (int64_t)(4 * at),
                         "instruction at word %zu (opcode %" PRIu32 ") has no string", at, opcode);
                goto done;
            }
            x.id = word(&r, at + 1);
            keep = true;
            if (opcode == SPV_OpExtInstImport) {
                char *name = lit_string(&r, at, 2, count);
                if (!name) {
                    s = err ? err->status : DWEXPR_E_BAD_OPERAND;
                    goto done;
                }
                for (unsigned k = 1; k < sizeof set_names / sizeof set_names[0]; k++)
                    if (strcmp(name, set_names[k]) == 0 && nsets < 8) {
                        set_ids[nsets] = x.id;
                        set_of[nsets++] = (dwexpr_spirv_set)k;
                        if (r.m->set == DWEXPR_SPIRV_SET_NONE)
                            r.m->set = (dwexpr_spirv_set)k;
                    }
                free(name);
            }
            break;
        case SPV_OpConstant:
            keep = count >= 3;
            if (keep)
                x.id = word(&r, at + 2);
            break;
        case SPV_OpExtInst:
            if (count < 5) {
                s = fail(err, DWEXPR_E_BAD_OPERAND, (int64_t)(4 * at),
                         "OpExtInst at word %zu has %" PRIu32 " words, needs at least 5", at, count);
                goto done;
            }
            x.id = word(&r, at + 2);
            for (size_t k = 0; k < nsets; k++)
                if (set_ids[k] == word(&r, at + 3)) {
                    x.set = set_of[k];
                    x.dbg = word(&r, at + 4);
                    keep = true;
                }
            break;
        default:
            break;
        }
        if (keep) {
            rec **list = opcode == SPV_OpName ? &r.names : &r.recs;
            size_t *nl = opcode == SPV_OpName ? &r.nnames : &r.nrecs;
            size_t *cl = opcode == SPV_OpName ? &ncap : &cap;
            if (*nl == *cl) {
                *cl = *cl ? 2 * *cl : 64;
                rec *nr = realloc(*list, *cl * sizeof *nr);
                if (!nr) {
                    s = fail(err, DWEXPR_E_NOMEM, -1, "out of memory");
                    goto done;
                }
                *list = nr;
            }
            (*list)[(*nl)++] = x;
        }
        at += count;
    }
    /* entries in module order, then the definitions sorted for find() */
    size_t n = 0;
    for (size_t i = 0; i < r.nrecs; i++)
        n += r.recs[i].dbg == DBG_Value || r.recs[i].dbg == DBG_Declare;
    rec *order = malloc((n ? n : 1) * sizeof *order);
    if (!order) {
        s = fail(err, DWEXPR_E_NOMEM, -1, "out of memory");
        goto done;
    }
    n = 0;
    for (size_t i = 0; i < r.nrecs; i++)
        if (r.recs[i].dbg == DBG_Value || r.recs[i].dbg == DBG_Declare)
            order[n++] = r.recs[i];
    if (r.nrecs)
        qsort(r.recs, r.nrecs, sizeof *r.recs, rec_cmp);
    r.m->entries = calloc(n ? n : 1, sizeof *r.m->entries);
    if (!r.m->entries) {
        free(order);
        s = fail(err, DWEXPR_E_NOMEM, -1, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        if ((s = entry(&r, &order[i], &r.m->entries[r.m->count])) != DWEXPR_OK) {
            free(order);
            goto done;
        }
        r.m->count++;
    }
    free(order);
    *out = r.m;
    r.m = NULL;
done:
    free(r.recs);
    free(r.names);
    dwexpr_spirv_module_free(r.m);
    return s;
}
