/* test/bench/bench.c: the evaluation benchmark of ../shared/bench/README.md.
 * Reads the corpus (addr_size hex [v=N] [bt=off:ate:size,...] per line),
 * answers every target question with exactly the README's mock target, and
 * prints dwexpr-cold (decode + evaluate from the bytes), dwexpr-warm
 * (pre-decoded programs) figures, checks that both give identical results,
 * and counts heap allocations made after the first pass. */
#define _GNU_SOURCE
#include <endian.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <malloc.h>
#include <string.h>
#include <time.h>
#include "dwexpr.h"

/* ---- counting allocator: glibc's own entry points behind ours ---- */
/* Not under AddressSanitizer, whose own malloc must stay the program's
 * (the sanitizer build runs the mock check only): there the counts stay
 * unknown and the timing mode says so. */
#if defined(__SANITIZE_ADDRESS__)
#  define BENCH_COUNTS_ALLOCS 0
#elif defined(__has_feature)
#  if __has_feature(address_sanitizer)
#    define BENCH_COUNTS_ALLOCS 0
#  endif
#endif
#ifndef BENCH_COUNTS_ALLOCS
#  define BENCH_COUNTS_ALLOCS 1
#endif
static unsigned long long n_allocs;
static long long live_bytes; /* heap in use, as malloc_usable_size counts it */
#if BENCH_COUNTS_ALLOCS
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);
static void *counted(void *p)
{
    live_bytes += p ? (long long)malloc_usable_size(p) : 0;
    return p;
}
void *malloc(size_t n) { n_allocs++; return counted(__libc_malloc(n)); }
void *calloc(size_t a, size_t b) { n_allocs++; return counted(__libc_calloc(a, b)); }
void *realloc(void *p, size_t n)
{
    n_allocs++;
    live_bytes -= p ? (long long)malloc_usable_size(p) : 0;
    return counted(__libc_realloc(p, n));
}
void free(void *p)
{
    live_bytes -= p ? (long long)malloc_usable_size(p) : 0;
    __libc_free(p);
}
#endif

/* ---- the corpus ---- */
typedef struct bt { uint64_t off; unsigned ate, size; } bt;
typedef struct expr {
    char *line;        /* the corpus line as read (mode split) */
    uint8_t *bytes;
    size_t len;
    dwexpr_unit unit;
    bt *types;
    unsigned ntypes;
    dwexpr_program *prog;
} expr;

static int hexval(int c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
         : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* Parse one corpus line; 0 on success. */
static int parse_line(char *line, expr *e)
{
    memset(e, 0, sizeof *e);
    char *save = NULL, *tok = strtok_r(line, " \t\n", &save);
    if (!tok)
        return -1;
    e->unit.addr_size = (uint8_t)atoi(tok);
    e->unit.offset_size = 4;
    e->unit.version = 5;
    if (!(tok = strtok_r(NULL, " \t\n", &save)))
        return -1;
    size_t n = strlen(tok) / 2;
    e->bytes = malloc(n ? n : 1);
    for (size_t i = 0; i < n; i++)
        e->bytes[i] = (uint8_t)(hexval(tok[2 * i]) * 16 + hexval(tok[2 * i + 1]));
    e->len = n;
    while ((tok = strtok_r(NULL, " \t\n", &save))) {
        if (strncmp(tok, "v=", 2) == 0) {
            e->unit.version = (uint16_t)atoi(tok + 2);
        } else if (strncmp(tok, "bt=", 3) == 0) {
            char *s2 = NULL;
            for (char *t = strtok_r(tok + 3, ",", &s2); t; t = strtok_r(NULL, ",", &s2)) {
                e->types = realloc(e->types, sizeof(bt) * (e->ntypes + 1));
                bt *b = &e->types[e->ntypes++];
                b->off = strtoull(t, &t, 16);
                b->ate = (unsigned)strtoul(t + 1, &t, 10);
                b->size = (unsigned)strtoul(t + 1, NULL, 10);
            }
        }
    }
    return 0;
}

/* ---- the mock target (bench/README.md "The mock target") ---- */
static dwexpr_status m_reg_size(void *u, uint32_t r, uint32_t *bytes)
{
    (void)u;
    *bytes = (r >= 17 && r <= 32) ? 16 : 8; /* x86-64 xmm registers are 16 bytes */
    return DWEXPR_OK;
}
/* The two callbacks that hand out bytes store a whole word for the size
 * evaluators ask most (8 bytes of a register from offset 0; 8 bytes of
 * memory) instead of a byte loop or a libc memcpy of a variable size (other
 * sizes take those as before): the mock's cost is part
 * of every figure, so it is kept to what a debugger's register cache or
 * memory read would cost at least (a load and a store). The answers are
 * those of bench/README.md either way. */
static dwexpr_status m_reg_read(void *u, const dwexpr_regref *r, uint64_t off, void *buf,
                                size_t len)
{
    (void)u;
    /* the register's 16 bytes, little-endian: the value, then zeros */
    const uint64_t v = htole64(0x7ffe0000u + 0x100u * (uint64_t)r->regno);
    if (off == 0 && len == 8) {
        memcpy(buf, &v, 8);
        return DWEXPR_OK;
    }
    const uint64_t b[2] = {v, 0};
    if (off > 16 || len > 16 - off)
        return DWEXPR_E_TARGET;
    memcpy(buf, (const uint8_t *)b + off, len);
    return DWEXPR_OK;
}
static dwexpr_status m_mem_read(void *u, const dwexpr_memref *m, void *buf, size_t len)
{
    (void)u;
    const uint64_t v = m->address * 2654435761u;
    if (len == 8) {
        const uint64_t w = htole64(v);
        memcpy(buf, &w, 8);
        return DWEXPR_OK;
    }
    uint8_t *o = buf;
    for (size_t i = 0; i < len; i++)
        o[i] = i < 8 ? (uint8_t)(v >> (8 * i)) : 0;
    return DWEXPR_OK;
}
static dwexpr_status m_frame_base(void *u, const dwexpr_frameref *f, dwexpr_frame_base *out)
{
    (void)u; (void)f;
    out->expr = NULL;
    out->loc.kind = DWEXPR_LOC_MEMORY;
    out->loc.byte_offset = 0x7fff0000u;
    return DWEXPR_OK;
}
static dwexpr_status m_cfa(void *u, const dwexpr_frameref *f, dwexpr_sld *out)
{
    (void)u; (void)f;
    out->kind = DWEXPR_LOC_MEMORY;
    out->byte_offset = 0x7fff0100u;
    return DWEXPR_OK;
}
static dwexpr_status m_tls(void *u, const dwexpr_frameref *f, uint64_t ta, dwexpr_sld *out)
{
    (void)u; (void)f;
    out->kind = DWEXPR_LOC_MEMORY;
    out->byte_offset = 0x7f000000u + ta;
    return DWEXPR_OK;
}
static dwexpr_status m_debug_addr(void *u, const dwexpr_unit *unit, uint64_t i, uint64_t *out)
{
    (void)u; (void)unit;
    *out = 0x600000u + 8 * i;
    return DWEXPR_OK;
}
static dwexpr_status m_entry_value(void *u, const dwexpr_frameref *f, const uint8_t *b,
                                   size_t len, dwexpr_value *out)
{
    (void)u; (void)f;
    out->bits = 0xe0000000u + ((uint64_t)len << 8) + (len ? b[0] : 0);
    return DWEXPR_OK; /* type left 0: generic */
}
static dwexpr_status m_param_ref(void *u, const dwexpr_frameref *f, const dwexpr_unit *unit,
                                 uint64_t die, dwexpr_value *out)
{
    (void)u; (void)f; (void)unit;
    out->bits = 0xa0000000u + die;
    return DWEXPR_OK;
}
static dwexpr_status m_die(void *u, const dwexpr_unit *unit, uint64_t off, bool sec,
                           dwexpr_die *out)
{
    (void)u; (void)unit; (void)off; (void)sec;
    out->kind = DWEXPR_DIE_NONE; /* call*: no location, no effect */
    return DWEXPR_OK;
}
/* The corpus lines; a unit's id is its line's index, whose bt= table
 * answers base types (as a debugger finds a unit's DIEs by its handle). */
static const expr *corpus;
static dwexpr_status m_base_type(void *u, const dwexpr_unit *unit, uint64_t die, dwexpr_type *t)
{
    (void)u;
    const expr *cur = &corpus[unit->id];
    for (unsigned i = 0; i < cur->ntypes; i++) {
        const bt *b = &cur->types[i];
        if (b->off != die)
            continue;
        /* integers of 1, 2, 4 or 8 bytes, floats of 4 or 8 (a 16-byte
         * integer is "anything else": generic) */
        const bool int_size = b->size == 1 || b->size == 2 || b->size == 4 || b->size == 8;
        t->bits = 8 * b->size;
        switch (b->ate) {
        case 5: case 6:
            if (!int_size)
                break;
            t->encoding = DW_ATE_signed;
            return DWEXPR_OK;
        case 2: case 7: case 8: case 0x10:
            if (!int_size)
                break;
            t->encoding = DW_ATE_unsigned;
            return DWEXPR_OK;
        case 4:
            if (b->size == 4 || b->size == 8) {
                t->encoding = DW_ATE_float;
                return DWEXPR_OK;
            }
            break;
        default: break;
        }
        break;
    }
    t->encoding = DWEXPR_ATE_GENERIC; /* anything else: generic */
    t->bits = 8u * unit->addr_size;
    return DWEXPR_OK;
}

static const dwexpr_target mock = {
    .size = sizeof(dwexpr_target),
    .reg_size = m_reg_size, .reg_read = m_reg_read, .mem_read = m_mem_read,
    .frame_base = m_frame_base, .cfa = m_cfa, .tls_address = m_tls,
    .debug_addr = m_debug_addr, .entry_value = m_entry_value,
    .parameter_ref = m_param_ref, .die = m_die, .base_type = m_base_type,
    .flags = DWEXPR_TARGET_REG_SIZES_FIXED, /* m_reg_size: by the number only */
};

/* The same mock on a target that describes its address spaces (every
 * AMDGPU target does): the default space 0 of 64-bit addresses, as the
 * corpus units have, no other. Results must be those of the mock; the
 * figure shows what such targets pay (dwexpr-warm-aspace). */
static dwexpr_status m_aspace_info(void *u, uint32_t aspace, dwexpr_aspace_info *out)
{
    (void)u;
    if (aspace != 0)
        return DWEXPR_E_BAD_ASPACE;
    out->addr_bits = 64;
    out->per_thread = false;
    out->per_lane = false;
    return DWEXPR_OK;
}
static dwexpr_target aspace_mock;

/* ---- results, for the cold/warm/lanes/general identity checks ---- */
typedef struct summary { int status; uint64_t a, b, c, d; } summary;

/* Every field of a value, or of a location's places (a composite's parts
 * by size and kind; implicit storage by its bytes), folded into a few words. */
static uint64_t mix(uint64_t h, uint64_t v)
{
    return (h ^ v) * 0x100000001b3u + (h >> 29);
}

static uint64_t fold_sld(const dwexpr_sld *l)
{
    uint64_t h = mix(mix(mix(mix(0, l->kind), l->bit), l->ctx), l->aspace);
    h = mix(mix(mix(mix(h, l->byte_offset), l->thread), l->lane), l->frame);
    switch (l->kind) {
    case DWEXPR_LOC_REGISTER: return mix(h, l->u.regno);
    case DWEXPR_LOC_IMPLICIT:
        h = mix(h, l->u.imp.bits);
        for (uint64_t i = 0; i < (l->u.imp.bits + 7) / 8; i++)
            h = mix(h, l->u.imp.data[i]);
        return h;
    case DWEXPR_LOC_IMPLICIT_POINTER:
        return mix(mix(mix(h, l->u.ptr.die), (uint64_t)l->u.ptr.disp), l->u.ptr.bits);
    case DWEXPR_LOC_COMPOSITE: {
        const dwexpr_composite *c = l->u.comp;
        h = mix(mix(mix(h, c->count), c->bits), c->complete);
        for (uint32_t i = 0; i < c->count; i++) {
            h = mix(mix(h, c->parts[i].bit_size), c->parts[i].loc.count);
            for (uint32_t k = 0; k < c->parts[i].loc.count; k++)
                h = mix(h, fold_sld(&c->parts[i].loc.slds[k]));
        }
        return h;
    }
    default: return h;
    }
}

static summary summarize(dwexpr_status st, const dwexpr_result *r)
{
    summary s = {(int)st, 0, 0, 0, 0};
    if (st)
        return s;
    s.a = r->kind;
    if (r->kind == DWEXPR_RESULT_VALUE) {
        const dwexpr_value *v = &r->value;
        s.b = v->bits;
        s.c = mix(mix(mix(mix(0, v->type.die), v->type.bits), v->type.encoding), v->type.lanes);
        s.d = mix(mix(mix(mix(v->is_implicit_pointer, v->ipv_aspace), v->ipv_die),
                      (uint64_t)v->ipv_disp), v->type.endian);
        if (v->wide)
            for (uint64_t i = 0; i < ((uint64_t)v->type.bits * v->type.lanes + 7) / 8; i++)
                s.d = mix(s.d, v->wide[i]);
    } else {
        s.b = r->loc.count;
        for (uint32_t i = 0; i < r->loc.count; i++)
            s.c = mix(s.c, fold_sld(&r->loc.slds[i]));
    }
    return s;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* A trace hook that lets everything run: it makes the evaluator take its
 * general dispatch loop for every program (no shaped paths). */
static int no_trace(void *arg, const dwexpr_ctx *ctx, const dwexpr_trace_event *ev)
{
    (void)arg; (void)ctx; (void)ev;
    return 0;
}

/* COLD_BOUND, WARM_BOUND, ASPACE_BOUND: COLD, WARM and WARM_ASPACE through
 * the bound API (dwexpr_ctx_bind once per pass: one frame, every
 * expression of the corpus); WARM_REF: WARM_BOUND by dwexpr_eval_bound_ref
 * (the result where it is, not copied) */
enum kind { COLD, WARM, LANE1, GENERAL, WARM_ASPACE, COLD_BOUND, WARM_BOUND, ASPACE_BOUND,
            WARM_REF };

/* One pass over the corpus; returns errors. Timed passes (OUT NULL) run a
 * tight loop per kind, so that the figures measure the evaluator. */
static size_t pass(dwexpr_ctx *ctx, expr *es, size_t n, enum kind k, summary *out)
{
    static const dwexpr_eval_params params; /* unspecified result, empty stack */
    static const dwexpr_eval_params traced = {.trace = no_trace};
    size_t errors = 0;
    dwexpr_result r;
    const dwexpr_result *ref = NULL;
    if (k == COLD_BOUND || k == WARM_BOUND || k == WARM_REF)
        dwexpr_ctx_bind(ctx, &mock, NULL, &params);
    else if (k == ASPACE_BOUND)
        dwexpr_ctx_bind(ctx, &aspace_mock, NULL, &params);
    if (!out && k == COLD_BOUND) {
        for (size_t i = 0; i < n; i++)
            errors += dwexpr_eval_bytes_bound(ctx, es[i].bytes, es[i].len, &es[i].unit, &r) !=
                      DWEXPR_OK;
        return errors;
    }
    if (!out && (k == WARM_BOUND || k == ASPACE_BOUND)) {
        for (size_t i = 0; i < n; i++)
            errors += (es[i].prog ? dwexpr_eval_bound(ctx, es[i].prog, &r)
                                  : dwexpr_eval_bytes_bound(ctx, es[i].bytes, es[i].len,
                                                            &es[i].unit, &r)) != DWEXPR_OK;
        return errors;
    }
    if (!out && k == WARM_REF) {
        for (size_t i = 0; i < n; i++)
            errors += (es[i].prog ? dwexpr_eval_bound_ref(ctx, es[i].prog, &ref)
                                  : dwexpr_eval_bytes_bound(ctx, es[i].bytes, es[i].len,
                                                            &es[i].unit, &r)) != DWEXPR_OK;
        return errors;
    }
    if (!out && k == COLD) {
        for (size_t i = 0; i < n; i++)
            errors += dwexpr_eval_bytes(ctx, es[i].bytes, es[i].len, &es[i].unit, &mock, &es[i],
                                        &params, &r) != DWEXPR_OK;
        return errors;
    }
    if (!out && (k == WARM || k == WARM_ASPACE)) {
        const dwexpr_target *t = k == WARM ? &mock : &aspace_mock;
        for (size_t i = 0; i < n; i++)
            errors += (es[i].prog ? dwexpr_eval(ctx, es[i].prog, t, &es[i], &params, &r)
                                  : dwexpr_eval_bytes(ctx, es[i].bytes, es[i].len, &es[i].unit,
                                                      t, &es[i], &params, &r)) != DWEXPR_OK;
        return errors;
    }
    for (size_t i = 0; i < n; i++) {
        dwexpr_status st;
        if (k == COLD)
            st = dwexpr_eval_bytes(ctx, es[i].bytes, es[i].len, &es[i].unit, &mock, &es[i],
                                   &params, &r);
        else if (k == COLD_BOUND || ((k == WARM_BOUND || k == ASPACE_BOUND) && !es[i].prog))
            st = dwexpr_eval_bytes_bound(ctx, es[i].bytes, es[i].len, &es[i].unit, &r);
        else if (k == WARM_BOUND || k == ASPACE_BOUND)
            st = dwexpr_eval_bound(ctx, es[i].prog, &r);
        else if (k == WARM_REF && !es[i].prog)
            st = dwexpr_eval_bytes_bound(ctx, es[i].bytes, es[i].len, &es[i].unit, &r);
        else if (k == WARM_REF) {
            st = dwexpr_eval_bound_ref(ctx, es[i].prog, &ref);
            if (st == DWEXPR_OK)
                r = *ref; /* (summarize reads no result of a failure) */
        }
        else if (!es[i].prog)
            st = dwexpr_eval_bytes(ctx, es[i].bytes, es[i].len, &es[i].unit, &mock, &es[i],
                                   &params, &r); /* its decode error */
        else if (k == WARM)
            st = dwexpr_eval(ctx, es[i].prog, &mock, &es[i], &params, &r);
        else if (k == GENERAL)
            st = dwexpr_eval(ctx, es[i].prog, &mock, &es[i], &traced, &r);
        else if (k == WARM_ASPACE)
            st = dwexpr_eval(ctx, es[i].prog, &aspace_mock, &es[i], &params, &r);
        else
            dwexpr_eval_lanes(ctx, es[i].prog, &mock, &es[i], &params, 0, 1, 1, &r, &st);
        errors += st != DWEXPR_OK;
        if (out)
            out[i] = summarize(st, &r);
    }
    return errors;
}

/* ---- lanes: one per-lane location (the VGPR lane part, design note
 * amdgpu-and-encodings.md) for all 64 lanes of a wave64 ----
 * DW_OP_regx VGPR0 (2560); DW_OP_LLVM_push_lane; DW_OP_lit4; DW_OP_mul;
 * DW_OP_LLVM_offset, in the DW_OP_LLVM_user (0xe9) encoding. The target is
 * the mock above with wave64 VGPRs of 64 lanes x 4 bytes. */
static const uint8_t lane_expr[] = {0x90, 0x80, 0x14, 0xe9, 0x03, 0x34, 0x1e, 0xe9, 0x04};
enum { LANES = 64 };

static dwexpr_status m_lane_reg_size(void *u, uint32_t r, uint32_t *bytes)
{
    if (r >= 2560 && r <= 2815) {
        *bytes = 4 * LANES;
        return DWEXPR_OK;
    }
    return m_reg_size(u, r, bytes);
}

static dwexpr_target lane_mock;

static void lanes_pass(dwexpr_ctx *ctx, const dwexpr_program *prog, dwexpr_result *res,
                       dwexpr_status *st)
{
    static const dwexpr_eval_params params = {.ctx = DWEXPR_CTX_THREAD, .lanes = LANES};
    dwexpr_eval_lanes(ctx, prog, &lane_mock, NULL, &params, 0, LANES, ~(uint64_t)0, res, st);
}

/* Median ns per lane over 5 runs of >= SECONDS each. */
static double measure_lanes(dwexpr_ctx *ctx, const dwexpr_program *prog, double seconds)
{
    dwexpr_result res[LANES];
    dwexpr_status st[LANES];
    double runs[5];
    for (int k = 0; k < 5; k++) {
        double t0 = now(), t;
        size_t evals = 0;
        do {
            for (int j = 0; j < 1000; j++)
                lanes_pass(ctx, prog, res, st);
            evals += 1000 * LANES;
        } while ((t = now()) - t0 < seconds);
        runs[k] = (t - t0) * 1e9 / (double)evals;
    }
    qsort(runs, 5, sizeof runs[0], cmp_double);
    return runs[2];
}

/* The batch against 64 single-lane dwexpr_eval calls and the expected
 * place (VGPR0, byte 4 * lane); returns mismatches. */
static size_t check_lanes(dwexpr_ctx *ctx, const dwexpr_program *prog, size_t *errors)
{
    dwexpr_result res[LANES];
    dwexpr_status st[LANES];
    lanes_pass(ctx, prog, res, st);
    summary batch[LANES];
    size_t bad = 0;
    *errors = 0;
    for (int i = 0; i < LANES; i++) {
        batch[i] = summarize(st[i], &res[i]);
        *errors += st[i] != DWEXPR_OK;
        bad += st[i] || res[i].kind != DWEXPR_RESULT_LOCATION || res[i].loc.count != 1 ||
               res[i].loc.slds[0].kind != DWEXPR_LOC_REGISTER ||
               res[i].loc.slds[0].u.regno != 2560 ||
               res[i].loc.slds[0].byte_offset != 4u * (unsigned)i;
    }
    for (int i = 0; i < LANES; i++) {
        dwexpr_eval_params p = {.ctx = DWEXPR_CTX_THREAD | DWEXPR_CTX_LANE, .lanes = LANES,
                                .lane = (uint32_t)i};
        dwexpr_result r;
        dwexpr_status s1 = dwexpr_eval(ctx, prog, &lane_mock, NULL, &p, &r);
        summary one = summarize(s1, &r);
        bad += memcmp(&one, &batch[i], sizeof one) != 0;
        p.trace = no_trace; /* the general dispatch loop */
        s1 = dwexpr_eval(ctx, prog, &lane_mock, NULL, &p, &r);
        one = summarize(s1, &r);
        bad += memcmp(&one, &batch[i], sizeof one) != 0;
    }
    return bad;
}

/* The kind of corpus line I for the per-kind figures (mode split), asked
 * of the evaluator, not of a list of operations: "reg" one operation that
 * gives a register; "free" any other that evaluates without a target;
 * "one" one operation, or one and DW_OP_stack_value, that needs the target
 * (fails without one with class context); "rest" everything else. */
static const char *kind_of(dwexpr_ctx *ctx, const expr *e)
{
    static const dwexpr_eval_params params;
    dwexpr_result r;
    if (!e->prog)
        return "rest";
    const size_t n = dwexpr_program_count(e->prog);
    const dwexpr_status st = dwexpr_eval(ctx, e->prog, NULL, NULL, &params, &r);
    if (st == DWEXPR_OK)
        return n == 1 && r.kind == DWEXPR_RESULT_LOCATION && r.loc.count == 1 &&
                       r.loc.slds[0].kind == DWEXPR_LOC_REGISTER
                   ? "reg"
                   : "free";
    dwexpr_op view;
    if (dwexpr_status_class(st) == DWEXPR_CLASS_CONTEXT &&
        (n == 1 || (n == 2 && dwexpr_program_op(e->prog, 1, &view)->id == DWEXPR_OP_stack_value)))
        return "one";
    return "rest";
}

/* Decode and free every expression once; returns failures. */
static size_t decode_pass(expr *es, size_t n)
{
    size_t failures = 0;
    for (size_t i = 0; i < n; i++) {
        dwexpr_program *pr = NULL;
        dwexpr_error err;
        if (dwexpr_program_decode(es[i].bytes, es[i].len, &es[i].unit, &pr, &err) == 0)
            dwexpr_program_free(pr);
        else
            failures++;
    }
    return failures;
}

/* Median ns per dwexpr_program_decode + dwexpr_program_free over 5 runs. */
static double measure_decode(expr *es, size_t n, double seconds)
{
    double runs[5];
    for (int k = 0; k < 5; k++) {
        double t0 = now(), t;
        size_t progs = 0;
        do {
            decode_pass(es, n);
            progs += n;
        } while ((t = now()) - t0 < seconds);
        runs[k] = (t - t0) * 1e9 / (double)progs;
    }
    qsort(runs, 5, sizeof runs[0], cmp_double);
    return runs[2];
}

/* Median ns per evaluation over 5 runs of >= SECONDS each. */
static double measure(dwexpr_ctx *ctx, expr *es, size_t n, enum kind kind, double seconds)
{
    double runs[5];
    for (int k = 0; k < 5; k++) {
        double t0 = now(), t;
        size_t evals = 0;
        do {
            pass(ctx, es, n, kind, NULL);
            evals += n;
        } while ((t = now()) - t0 < seconds);
        runs[k] = (t - t0) * 1e9 / (double)evals;
    }
    qsort(runs, 5, sizeof runs[0], cmp_double);
    return runs[2];
}

/* Append to BUF (SIZE bytes, *K used): what printf would print, cut at
 * the end of BUF. */
static void put(char *buf, size_t size, size_t *k, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (*k < size) {
        const int n = vsnprintf(buf + *k, size - *k, fmt, ap);
        *k = n < 0 ? size : *k + (size_t)n;
    }
    va_end(ap);
}

/* One place of a result as test/bench/gimli/src/main.rs prints gimli's:
 * mem:ADDR, reg:N, imp:BYTES, iptr:DIE:DISP or undef, then +bN for a bit
 * offset into the storage ("other" for anything else). */
static void describe_place(const dwexpr_sld *s, char *buf, size_t size, size_t *k)
{
    const uint64_t off = s->byte_offset * 8 + s->bit;
    switch (s->kind) {
    case DWEXPR_LOC_MEMORY:
        if (s->aspace)
            put(buf, size, k, "mem%u:", (unsigned)s->aspace);
        else
            put(buf, size, k, "mem:");
        put(buf, size, k, "0x%llx", (unsigned long long)s->byte_offset);
        if (s->bit)
            put(buf, size, k, "+b%u", (unsigned)s->bit);
        return;
    case DWEXPR_LOC_REGISTER:
        put(buf, size, k, "reg:%u", (unsigned)s->u.regno);
        break;
    case DWEXPR_LOC_IMPLICIT:
        put(buf, size, k, "imp:");
        for (uint64_t i = 0; i < (s->u.imp.bits + 7) / 8; i++)
            put(buf, size, k, "%02x", s->u.imp.data[i]);
        break;
    case DWEXPR_LOC_IMPLICIT_POINTER:
        put(buf, size, k, "iptr:0x%llx:%lld", (unsigned long long)s->u.ptr.die,
            (long long)s->u.ptr.disp);
        break;
    case DWEXPR_LOC_UNDEFINED:
        put(buf, size, k, "undef");
        return;
    default:
        put(buf, size, k, "other");
        return;
    }
    if (off)
        put(buf, size, k, "+b%llu", (unsigned long long)off);
}

/* A location's places, '|' between them. */
static void describe_loc(const dwexpr_loc *l, char *buf, size_t size, size_t *k)
{
    for (uint32_t i = 0; i < l->count; i++) {
        if (i)
            put(buf, size, k, "|");
        describe_place(&l->slds[i], buf, size, k);
    }
}

/* The result R (of a successful evaluation) as mock-check.txt's expect=
 * and the mode dump write it: val:HEX (a value), a location's places, or
 * [BITS:PLACES,...] (a composite). */
static void describe(const dwexpr_result *r, char *buf, size_t size)
{
    size_t k = 0;
    buf[0] = 0;
    if (r->kind == DWEXPR_RESULT_VALUE) {
        put(buf, size, &k, "val:0x%llx", (unsigned long long)r->value.bits);
        return;
    }
    const dwexpr_sld *s = r->loc.count == 1 ? &r->loc.slds[0] : NULL;
    if (s && s->kind == DWEXPR_LOC_COMPOSITE) {
        const dwexpr_composite *c = s->u.comp;
        put(buf, size, &k, "[");
        for (uint32_t i = 0; i < c->count; i++) {
            put(buf, size, &k, "%s%llu:", i ? "," : "", (unsigned long long)c->parts[i].bit_size);
            describe_loc(&c->parts[i].loc, buf, size, &k);
        }
        put(buf, size, &k, "]");
    } else {
        describe_loc(&r->loc, buf, size, &k);
    }
}

/* What an evaluation that returned ST with result R gave, as the mode
 * dump prints it: `err CLASS OP: MESSAGE`, or describe()'s text. */
static void outcome(dwexpr_ctx *ctx, dwexpr_status st, const dwexpr_result *r, char *buf,
                    size_t size)
{
    if (st == DWEXPR_OK) {
        describe(r, buf, size);
        return;
    }
    const dwexpr_error *e = dwexpr_ctx_error(ctx);
    snprintf(buf, size, "err %s %s: %s", dwexpr_class_name(dwexpr_status_class(e->status)),
             e->op_name ? e->op_name : "-", e->message);
}

/* Mode dump: every corpus expression's result, one line each: N (the
 * line's index) and what outcome() says of it from the bytes
 * (dwexpr_eval_bytes). The same expression pre-decoded (dwexpr_eval) and
 * through the bound API (dwexpr_eval_bound) must give the same, message
 * included; where they do not, the line says `paths differ` and all three,
 * which no other evaluator prints. test/bench/gimli-compare.py compares
 * the dump with gimli's (test/bench/gimli, mode dump). */
static void dump_results(dwexpr_ctx *ctx, const expr *es, size_t n)
{
    static const dwexpr_eval_params params;
    static char cold[1 << 16], warm[1 << 16], bound[1 << 16];
    dwexpr_ctx_bind(ctx, &mock, NULL, &params);
    for (size_t i = 0; i < n; i++) {
        dwexpr_result r;
        dwexpr_status st = dwexpr_eval_bytes(ctx, es[i].bytes, es[i].len, &es[i].unit, &mock,
                                             NULL, &params, &r);
        outcome(ctx, st, &r, cold, sizeof cold);
        if (!es[i].prog) { /* it does not decode: an error from the bytes too */
            if (st == DWEXPR_OK)
                printf("%zu paths differ: from the bytes %s | does not decode\n", i, cold);
            else
                printf("%zu %s\n", i, cold);
            continue;
        }
        st = dwexpr_eval(ctx, es[i].prog, &mock, NULL, &params, &r);
        outcome(ctx, st, &r, warm, sizeof warm);
        st = dwexpr_eval_bound(ctx, es[i].prog, &r);
        outcome(ctx, st, &r, bound, sizeof bound);
        if (strcmp(cold, warm) != 0 || strcmp(cold, bound) != 0)
            printf("%zu paths differ: from the bytes %s | pre-decoded %s | bound %s\n", i, cold,
                   warm, bound);
        else
            printf("%zu %s\n", i, cold);
    }
}

/* Mode check: every line of CORPUS (test/bench/mock-check.txt) carries
 * expect=RESULT; each is evaluated from its bytes and pre-decoded with
 * the mock and must give RESULT (or fail, for expect=err). TAP output;
 * exit status 1 on a mismatch. */
static int check_mock(dwexpr_ctx *ctx, const expr *es, size_t n)
{
    static const dwexpr_eval_params params;
    int failed = 0;
    printf("1..%zu\n", 2 * n);
    for (size_t i = 0; i < n; i++) {
        const char *want = strstr(es[i].line, "expect=");
        char expect[512] = "(no expect=)", got[512];
        if (want)
            sscanf(want + 7, "%511s", expect);
        for (int warm = 0; warm < 2; warm++) {
            dwexpr_result r;
            dwexpr_status st =
                warm ? (es[i].prog ? dwexpr_eval(ctx, es[i].prog, &mock, NULL, &params, &r)
                                   : DWEXPR_E_USAGE)
                     : dwexpr_eval_bytes(ctx, es[i].bytes, es[i].len, &es[i].unit, &mock, NULL,
                                         &params, &r);
            if (st == DWEXPR_OK)
                describe(&r, got, sizeof got);
            else
                snprintf(got, sizeof got, "err");
            const bool ok = strcmp(got, expect) == 0 && (!warm || es[i].prog); /* decodes */
            failed |= !ok;
            printf("%s %zu - %s: %s %s", ok ? "ok" : "not ok", 2 * i + 1 + (size_t)warm,
                   warm ? "pre-decoded" : "from bytes", got, es[i].line);
        }
    }
    return failed;
}

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : "../shared/bench/corpus.txt";
    /* time | errors | dump (gimli-compare.py) | check (mock-check.txt) |
     * split=PREFIX (the corpus by kind, kind_of) | callgrind passes:
     * cold1 | cold3 | warm1 | warm3 | aspace1 | aspace3 | coldb1 | coldb3 | warmb1 |
     * warmb3 | warmr1 | warmr3 | aspaceb1 | aspaceb3 | lanes1 | lanes3 | decode1 | decode3 */
    const char *mode = argc > 2 ? argv[2] : "time";
    double seconds = getenv("BENCH_SECONDS") ? atof(getenv("BENCH_SECONDS")) : 2.0;
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "bench: cannot open %s\n", path);
        return 2;
    }
    size_t n = 0, cap = 0;
    expr *es = NULL;
    char line[8192];
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        if (n == cap)
            es = realloc(es, sizeof *es * (cap = cap ? 2 * cap : 1024));
        char *copy = strdup(line);
        if (parse_line(line, &es[n]) == 0) {
            es[n].line = copy;
            es[n].unit.id = n;
            n++;
        } else {
            free(copy);
        }
    }
    fclose(f);
    corpus = es;

    size_t ops = 0;
    const long long heap_before = live_bytes;
    for (size_t i = 0; i < n; i++) {
        dwexpr_error err;
        if (dwexpr_program_decode(es[i].bytes, es[i].len, &es[i].unit, &es[i].prog, &err) == 0)
            ops += dwexpr_program_count(es[i].prog);
    }
    /* what the pre-decoded programs take (malloc's usable sizes, not its
     * per-block header): the memory a warm pass reads from */
    const double program_bytes = (double)(live_bytes - heap_before) / (double)n;
    dwexpr_ctx *ctx = NULL;
    if (dwexpr_ctx_new(NULL, &ctx))
        return 2;

    lane_mock = mock;
    aspace_mock = mock;
    aspace_mock.aspace_info = m_aspace_info;
    lane_mock.reg_size = m_lane_reg_size;
    dwexpr_unit lane_unit = {.addr_size = 8, .offset_size = 4, .version = 5};
    dwexpr_program *lane_prog = NULL;
    dwexpr_error lerr;
    if (dwexpr_program_decode(lane_expr, sizeof lane_expr, &lane_unit, &lane_prog, &lerr)) {
        fprintf(stderr, "bench: the lane expression does not decode: %s\n", lerr.message);
        return 2;
    }

    /* callgrind modes: N passes of one kind, for differential counts
     * (cold/warm: one pass = every corpus expression; lanes: one pass =
     * 1000 batches of 64 lanes) */
    if (strncmp(mode, "cold", 4) == 0 || strncmp(mode, "warm", 4) == 0 ||
        strncmp(mode, "aspace", 6) == 0) {
        /* coldN, warmN, aspaceN; coldbN, warmbN, aspacebN: bound; warmrN:
         * bound, by reference */
        const size_t len = mode[0] == 'a' ? 6 : 4;
        const bool bound = mode[len] == 'b' || mode[len] == 'r';
        const enum kind kind = mode[0] == 'w' && mode[len] == 'r' ? WARM_REF
                               : mode[0] == 'w' ? (bound ? WARM_BOUND : WARM)
                               : mode[0] == 'c' ? (bound ? COLD_BOUND : COLD)
                                                : (bound ? ASPACE_BOUND : WARM_ASPACE);
        int passes = atoi(mode + len + bound);
        for (int k = 0; k < passes; k++)
            pass(ctx, es, n, kind, NULL);
        printf("passes=%d n=%zu\n", passes, n);
        return 0;
    }
    if (strncmp(mode, "decode", 6) == 0) {
        /* dwexpr_program_decode + dwexpr_program_free of every expression */
        int passes = atoi(mode + 6);
        for (int k = 0; k < passes; k++)
            decode_pass(es, n);
        printf("passes=%d n=%zu\n", passes, n);
        return 0;
    }
    if (strncmp(mode, "lanes", 5) == 0) {
        int passes = atoi(mode + 5);
        dwexpr_result res[LANES];
        dwexpr_status st[LANES];
        for (int k = 0; k < passes; k++)
            for (int j = 0; j < 1000; j++)
                lanes_pass(ctx, lane_prog, res, st);
        printf("passes=%d lanes=%d\n", passes, 1000 * LANES);
        return 0;
    }

    if (strncmp(mode, "split=", 6) == 0) {
        /* write the corpus lines by kind (kind_of) to PREFIX-reg.txt,
         * PREFIX-free.txt, PREFIX-one.txt and PREFIX-rest.txt */
        static const char *const kinds[4] = {"reg", "free", "one", "rest"};
        FILE *outs[4];
        size_t counts[4] = {0};
        for (int k = 0; k < 4; k++) {
            char name[4096];
            snprintf(name, sizeof name, "%s-%s.txt", mode + 6, kinds[k]);
            if (!(outs[k] = fopen(name, "w"))) {
                fprintf(stderr, "bench: cannot write %s\n", name);
                return 2;
            }
        }
        for (size_t i = 0; i < n; i++) {
            const char *k = kind_of(ctx, &es[i]);
            int j = 0;
            while (strcmp(kinds[j], k) != 0)
                j++;
            fputs(es[i].line, outs[j]);
            counts[j]++;
        }
        for (int k = 0; k < 4; k++) {
            fclose(outs[k]);
            printf("%s %zu (%.1f%%)\n", kinds[k], counts[k], 100.0 * (double)counts[k] / (double)n);
        }
        return 0;
    }
    if (strcmp(mode, "check") == 0 || strcmp(mode, "dump") == 0) {
        /* (everything freed: both run in the sanitizer build's tests) */
        int failed = 0;
        if (strcmp(mode, "check") == 0)
            failed = check_mock(ctx, es, n);
        else
            dump_results(ctx, es, n);
        dwexpr_program_free(lane_prog);
        dwexpr_ctx_free(ctx);
        for (size_t i = 0; i < n; i++) {
            dwexpr_program_free(es[i].prog);
            free(es[i].bytes);
            free(es[i].types);
            free(es[i].line);
        }
        free(es);
        return failed;
    }
    if (strcmp(mode, "errors") == 0) {
        /* list the expressions that fail, with the reason */
        static const dwexpr_eval_params params;
        dwexpr_result r;
        for (size_t i = 0; i < n; i++) {
            if (dwexpr_eval_bytes(ctx, es[i].bytes, es[i].len, &es[i].unit, &mock, &es[i],
                                  &params, &r) == DWEXPR_OK)
                continue;
            const dwexpr_error *e = dwexpr_ctx_error(ctx);
            printf("%u ", es[i].unit.addr_size);
            for (size_t k = 0; k < es[i].len; k++)
                printf("%02x", es[i].bytes[k]);
            printf(": %s at %lld %s: %s\n", dwexpr_class_name(dwexpr_status_class(e->status)),
                   (long long)e->offset, e->op_name ? e->op_name : "-", e->message);
        }
        return 0;
    }
    /* identity: cold (from the bytes), warm (pre-decoded), one lane of the
     * batch API, the general dispatch loop (shaped paths off) and warm on
     * the target that describes its address spaces */
    summary *cold = malloc(sizeof *cold * n), *other = malloc(sizeof *other * n);
    size_t errors = pass(ctx, es, n, COLD, cold); /* warm-up; grows the arena */
    enum { OTHERS = 8 };
    size_t mismatches[OTHERS] = {0};
    const enum kind others[OTHERS] = {WARM,       LANE1,      GENERAL,      WARM_ASPACE,
                                      COLD_BOUND, WARM_BOUND, ASPACE_BOUND, WARM_REF};
    for (int k = 0; k < OTHERS; k++) {
        pass(ctx, es, n, others[k], other);
        for (size_t i = 0; i < n; i++)
            mismatches[k] += memcmp(&cold[i], &other[i], sizeof cold[i]) != 0;
    }
    size_t lane_errors = 0, lane_mismatches = check_lanes(ctx, lane_prog, &lane_errors);
    unsigned long long before = n_allocs;
    pass(ctx, es, n, COLD, NULL);
    pass(ctx, es, n, WARM, NULL);
    pass(ctx, es, n, COLD_BOUND, NULL);
    pass(ctx, es, n, WARM_BOUND, NULL);
    pass(ctx, es, n, WARM_REF, NULL);
    {
        dwexpr_result res[LANES];
        dwexpr_status st[LANES];
        lanes_pass(ctx, lane_prog, res, st);
    }
    unsigned long long allocs = n_allocs - before;
    char allocs_text[32] = "unmeasured";
    if (BENCH_COUNTS_ALLOCS)
        snprintf(allocs_text, sizeof allocs_text, "%llu", allocs);

    double cold_ns = measure(ctx, es, n, COLD, seconds);
    double warm_ns = measure(ctx, es, n, WARM, seconds);
    double aspace_ns = measure(ctx, es, n, WARM_ASPACE, seconds);
    double cold_bound_ns = measure(ctx, es, n, COLD_BOUND, seconds);
    double warm_bound_ns = measure(ctx, es, n, WARM_BOUND, seconds);
    double aspace_bound_ns = measure(ctx, es, n, ASPACE_BOUND, seconds);
    double warm_ref_ns = measure(ctx, es, n, WARM_REF, seconds);
    double lane_ns = measure_lanes(ctx, lane_prog, seconds);
    size_t decode_failures = decode_pass(es, n);
    double decode_ns = measure_decode(es, n, seconds);
    printf("dwexpr-cold ns_per_eval=%.1f ns_per_op=%.2f evals_per_s=%.0f errors=%zu n=%zu\n",
           cold_ns, cold_ns * n / ops, 1e9 / cold_ns, errors, n);
    printf("dwexpr-warm ns_per_eval=%.1f ns_per_op=%.2f evals_per_s=%.0f errors=%zu n=%zu\n",
           warm_ns, warm_ns * n / ops, 1e9 / warm_ns, errors, n);
    printf("dwexpr-warm-aspace ns_per_eval=%.1f ns_per_op=%.2f evals_per_s=%.0f errors=%zu "
           "n=%zu\n", aspace_ns, aspace_ns * n / ops, 1e9 / aspace_ns, errors, n);
    printf("dwexpr-cold-bound ns_per_eval=%.1f ns_per_op=%.2f evals_per_s=%.0f errors=%zu "
           "n=%zu\n", cold_bound_ns, cold_bound_ns * n / ops, 1e9 / cold_bound_ns, errors, n);
    printf("dwexpr-warm-bound ns_per_eval=%.1f ns_per_op=%.2f evals_per_s=%.0f errors=%zu "
           "n=%zu\n", warm_bound_ns, warm_bound_ns * n / ops, 1e9 / warm_bound_ns, errors, n);
    printf("dwexpr-warm-aspace-bound ns_per_eval=%.1f ns_per_op=%.2f evals_per_s=%.0f "
           "errors=%zu n=%zu\n", aspace_bound_ns, aspace_bound_ns * n / ops,
           1e9 / aspace_bound_ns, errors, n);
    printf("dwexpr-warm-bound-ref ns_per_eval=%.1f ns_per_op=%.2f evals_per_s=%.0f "
           "errors=%zu n=%zu\n", warm_ref_ns, warm_ref_ns * n / ops, 1e9 / warm_ref_ns,
           errors, n);
    printf("dwexpr-lanes ns_per_eval=%.1f ns_per_op=%.2f evals_per_s=%.0f errors=%zu n=%d\n",
           lane_ns, lane_ns / 5, 1e9 / lane_ns, lane_errors, LANES);
    printf("dwexpr-decode ns_per_program=%.1f ns_per_op=%.2f programs_per_s=%.0f errors=%zu "
           "n=%zu\n", decode_ns, decode_ns * n / ops, 1e9 / decode_ns, decode_failures, n);
    printf("dwexpr-programs bytes_per_program=%.1f n=%zu\n", program_bytes, n);
    printf("dwexpr-check ops=%zu cold_warm_mismatches=%zu cold_lane_mismatches=%zu "
           "cold_general_mismatches=%zu cold_aspace_mismatches=%zu "
           "cold_bound_mismatches=%zu warm_bound_mismatches=%zu aspace_bound_mismatches=%zu "
           "warm_ref_mismatches=%zu lanes_vs_single_mismatches=%zu "
           "allocs_after_first_pass=%s\n",
           ops, mismatches[0], mismatches[1], mismatches[2], mismatches[3], mismatches[4],
           mismatches[5], mismatches[6], mismatches[7], lane_mismatches, allocs_text);
    dwexpr_program_free(lane_prog);
    dwexpr_ctx_free(ctx);
    size_t bad = lane_mismatches;
    for (int k = 0; k < OTHERS; k++)
        bad += mismatches[k];
    return bad || allocs ? 1 : 0;
}
