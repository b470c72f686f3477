/* test/test_fastpath.c: a randomized differential test of the evaluator's
 * fast paths. Many generated expressions (mostly straight-line programs of
 * the commonest operations, with edge operands, stack underflows, mixed
 * locations and values, and a few random bytes) are evaluated under many
 * units, targets, parameters, limits and contexts:
 *   (c) the general dispatch loop: dwexpr_eval with a trace hook that lets
 *       every operation run (a trace hook turns every shortcut off): the
 *       reference;
 *   (a) dwexpr_program_decode + dwexpr_eval, twice on the same context
 *       (warm reuse), and once more after another program ran on it;
 *   (b) dwexpr_eval_bytes on another context;
 *   (d) dwexpr_eval_lanes for one lane against dwexpr_eval of that lane.
 * Each must give exactly what (c) gives: the same status, the same error
 * record (status, offset, opcode, op_name, message), the same result in
 * every field (wide bytes, composite parts with cap, depth and complete,
 * implicit bytes) and the same stack after a failure. When decoding fails,
 * dwexpr_eval_bytes reports the same decode error. The one allowance: on
 * a static context (fixed scratch) one path may run out (E_NOSPACE) where
 * another does not; such comparisons are counted in the summary.
 *
 * Deterministic (a fixed splitmix64 seed); mismatches are counted per
 * check, the first few printed as hex with their variant, then one TAP
 * line per check. A summary shows the outcomes, and minimum counts of
 * every result kind keep the generator honest. Two divergences it found
 * (now fixed in lib/eval.c) keep checks of their own: K_STACK_END (the
 * stack after a failed result conversion) and known_steps. */
#include <stdlib.h>
#include "dwexpr.h"
#include "tap.h"
#include "same_result.h"
#include "tape.h"

enum { DEFAULT_CASES = 60000, MAX_SHOWN = 20, MAX_EXPR = 160 };
/* The number of generated cases, and the minimum count of each result
 * kind (a generator that only produces errors fails). FASTPATH_CASES and
 * FASTPATH_SEED in the environment run a longer or another sweep by hand;
 * the suite uses the defaults. */
static unsigned CASES = DEFAULT_CASES;
#define MIN_KIND ((unsigned long)CASES / 60)

/* ---- the PRNG (splitmix64) ---- */
static uint64_t rng_state = 0x5eed0fa57ba7c4e5ull;

static uint64_t rnd(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
/* 0 .. n-1 */
static uint32_t below(uint32_t n) { return (uint32_t)(rnd() % n); }
/* true with probability pct/100 */
static int chance(unsigned pct) { return below(100) < pct; }

static uint64_t mix3(uint64_t a, uint64_t b, uint64_t c)
{
    uint64_t z = a * 0x9e3779b97f4a7c15ull ^ (b + 0x632be59bd9b4e019ull) ^ (c << 17) ^ (c >> 7);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* ---- the target variant of one case ---- */
enum { M_ABSENT, M_PRESENT, M_FAIL, M_NOT_FOUND };
enum { FB_MEMORY, FB_EXPR, FB_REG, FB_FAIL, FB_ABSENT };

typedef struct variant {
    unsigned reg_size;      /* M_* */
    unsigned reg_read_fail; /* some registers cannot be read */
    unsigned mem_fail;      /* some addresses cannot be read */
    unsigned aspace;        /* aspace_info present (not 0): what space 0 is (t_aspace_info) */
    unsigned frame_base;    /* FB_* */
    unsigned fb_base;       /* FB_MEMORY: an index into fb_bases (0: the usual one) */
    unsigned cfa;           /* M_ABSENT / M_PRESENT / M_FAIL */
    unsigned entry;         /* M_* */
    unsigned debug_addr;    /* M_* */
    unsigned base_type;     /* base_type present */
    unsigned tls;           /* tls_address present */
    size_t size;            /* target.size */
} variant;

static variant tv;
static const uint8_t fb_breg7[] = {0x77, 0x10};  /* DW_OP_breg7 16 */
static const uint8_t fb_reg6[] = {0x56};         /* DW_OP_reg6 */

static dwexpr_status t_reg_size(void *u, uint32_t r, uint32_t *bytes)
{
    const variant *v = u;
    if (v->reg_size == M_FAIL && r % 5 == 3)
        return DWEXPR_E_TARGET;
    if ((v->reg_size == M_NOT_FOUND && r % 7 == 2) || r == 99 || (r >= 1000 && r < 2560))
        return DWEXPR_E_NOT_FOUND;
    *bytes = (r >= 17 && r <= 32) ? 16 : r == 40 ? 2 : r == 41 ? 4 : r >= 2560 ? 256 : 8;
    return DWEXPR_OK;
}

static dwexpr_status t_reg_read(void *u, const dwexpr_regref *r, uint64_t off, void *buf,
                                size_t len)
{
    const variant *v = u;
    if (v->reg_read_fail && r->regno % 6 == 5)
        return DWEXPR_E_TARGET;
    uint8_t *o = buf;
    uint64_t fr = (r->ctx & DWEXPR_CTX_FRAME) ? r->frame : 0;
    uint64_t th = (r->ctx & DWEXPR_CTX_THREAD) ? r->thread : 0;
    for (size_t i = 0; i < len; i++)
        o[i] = (uint8_t)mix3(0x7e6 + r->regno, off + i, fr * 1000 + th);
    return DWEXPR_OK;
}

static dwexpr_status t_mem_read(void *u, const dwexpr_memref *m, void *buf, size_t len)
{
    const variant *v = u;
    if (v->mem_fail && ((m->address >> 8) % 7 == 3 || m->address == 0))
        return DWEXPR_E_TARGET;
    uint8_t *o = buf;
    for (size_t i = 0; i < len; i++)
        o[i] = (uint8_t)mix3(0x3e3 + m->aspace, m->address + i, 0);
    return DWEXPR_OK;
}

/* Address spaces 0 and 1 (32-bit, per lane). What space 0 is depends on
 * the variant (its aspace field): 64-bit (1), addr_bits 0, read as 64 (2),
 * per thread (3), unknown to the target, so the default (4), a failure
 * (5), 32-bit (6). */
static dwexpr_status t_aspace_info(void *u, uint32_t as, dwexpr_aspace_info *out)
{
    const variant *v = u;
    if (as > 1)
        return DWEXPR_E_NOT_FOUND;
    out->addr_bits = 32;
    out->per_thread = false;
    out->per_lane = as == 1;
    if (as == 0) {
        out->addr_bits = v->aspace == 2 ? 0 : v->aspace == 6 ? 32 : 64;
        out->per_thread = v->aspace == 3;
        if (v->aspace == 4)
            return DWEXPR_E_NOT_FOUND;
        if (v->aspace == 5)
            return DWEXPR_E_TARGET;
    }
    return DWEXPR_OK;
}

static dwexpr_status t_tls(void *u, const dwexpr_frameref *f, uint64_t ta, dwexpr_sld *out)
{
    (void)u; (void)f;
    if (ta == 13)
        return DWEXPR_E_NOT_FOUND;
    memset(out, 0, sizeof *out);
    out->kind = DWEXPR_LOC_MEMORY;
    out->byte_offset = 0x7000000u + ta;
    return DWEXPR_OK;
}

static dwexpr_status t_cfa(void *u, const dwexpr_frameref *f, dwexpr_sld *out)
{
    const variant *v = u;
    if (v->cfa == M_FAIL)
        return DWEXPR_E_TARGET;
    memset(out, 0, sizeof *out);
    out->kind = DWEXPR_LOC_MEMORY;
    out->byte_offset = 0x7fff0100u + 0x40u * f->frame;
    return DWEXPR_OK;
}

static dwexpr_status t_register_location(void *u, const dwexpr_frameref *f, uint32_t regno,
                                         dwexpr_sld *out)
{
    (void)u;
    memset(out, 0, sizeof *out);
    if (regno == 30)
        return DWEXPR_OK; /* undefined */
    if (regno == 12)
        return DWEXPR_E_NOT_FOUND;
    if (regno % 4 == 1) {
        /* still in a register of the younger frame */
        out->kind = DWEXPR_LOC_REGISTER;
        out->u.regno = regno;
        out->ctx = DWEXPR_CTX_FRAME | (f->ctx & DWEXPR_CTX_THREAD);
        out->thread = f->thread;
        out->frame = f->frame ? f->frame - 1 : 0;
        return DWEXPR_OK;
    }
    out->kind = DWEXPR_LOC_MEMORY;
    out->byte_offset = 0x5000u + 0x100u * f->frame + 8u * regno;
    return DWEXPR_OK;
}

static dwexpr_status t_entry_value(void *u, const dwexpr_frameref *f, const uint8_t *b,
                                   size_t len, dwexpr_value *out)
{
    const variant *v = u;
    (void)f;
    if (v->entry == M_NOT_FOUND)
        return DWEXPR_E_NOT_FOUND;
    if (v->entry == M_FAIL)
        return DWEXPR_E_TARGET;
    out->bits = 0xe0000000u + ((uint64_t)len << 8) + (len ? b[0] : 0);
    return DWEXPR_OK;
}

static dwexpr_status t_base_type(void *u, const dwexpr_unit *unit, uint64_t die, dwexpr_type *out)
{
    (void)u; (void)unit;
    memset(out, 0, sizeof *out);
    out->die = die;
    out->lanes = 1;
    switch (die) {
    case 0x10: out->bits = 32; out->encoding = DW_ATE_signed; return DWEXPR_OK;
    case 0x20: out->bits = 64; out->encoding = DW_ATE_unsigned; return DWEXPR_OK;
    case 0x30: out->bits = 32; out->encoding = DW_ATE_float; return DWEXPR_OK;
    case 0x40: out->bits = 128; out->encoding = DW_ATE_unsigned; return DWEXPR_OK;
    case 0x50: out->bits = 8; out->encoding = DW_ATE_unsigned_char; return DWEXPR_OK;
    case 0x60: out->bits = 16; out->encoding = DW_ATE_signed; out->endian = DW_END_big;
        return DWEXPR_OK;
    default: return DWEXPR_E_NOT_FOUND;
    }
}

static dwexpr_status t_debug_addr(void *u, const dwexpr_unit *unit, uint64_t i, uint64_t *out)
{
    const variant *v = u;
    (void)unit;
    if (v->debug_addr == M_NOT_FOUND || i >= 1000)
        return DWEXPR_E_NOT_FOUND;
    *out = 0x600000u + 8 * i;
    return DWEXPR_OK;
}

/* FB_MEMORY frame bases: the usual one, the ends of 2-, 4- and 8-byte
 * address spaces (so that DW_OP_fbreg's offset can leave them either way),
 * and two that are not plain memory (a bit offset, another address space). */
static const uint64_t fb_bases[] = {0x7fff0000u, 0, 0x10, 0xffff, 0xfffffff0u, 0xffffffffu,
                                    0x100000000ull, 0xfffffffffffffff8ull, 0xffffffffffffffffull,
                                    0x7fff0000u, 0x7fff0000u};
enum { FB_BIT = 9, FB_ASPACE = 10 };

static dwexpr_status t_frame_base(void *u, const dwexpr_frameref *f, dwexpr_frame_base *out)
{
    const variant *v = u;
    (void)f;
    switch (v->frame_base) {
    case FB_EXPR:
        out->expr = fb_breg7;
        out->expr_len = sizeof fb_breg7;
        return DWEXPR_OK;
    case FB_REG:
        out->expr = fb_reg6;
        out->expr_len = sizeof fb_reg6;
        return DWEXPR_OK;
    case FB_FAIL: return DWEXPR_E_TARGET;
    default:
        out->loc.kind = DWEXPR_LOC_MEMORY;
        out->loc.byte_offset = fb_bases[v->fb_base];
        out->loc.bit = v->fb_base == FB_BIT ? 3 : 0;
        out->loc.aspace = v->fb_base == FB_ASPACE ? 1 : 0;
        return DWEXPR_OK;
    }
}

static dwexpr_status t_frame_pc(void *u, const dwexpr_frameref *f, uint64_t *pc)
{
    (void)u;
    *pc = 0x4000u + 0x10u * f->frame;
    return DWEXPR_OK;
}

/* The target struct of variant V. */
static dwexpr_target make_target(const variant *v)
{
    dwexpr_target t;
    memset(&t, 0, sizeof t);
    t.size = v->size;
    if (v->reg_size != M_ABSENT)
        t.reg_size = t_reg_size;
    t.reg_read = t_reg_read;
    t.mem_read = t_mem_read;
    if (v->aspace)
        t.aspace_info = t_aspace_info;
    if (v->tls)
        t.tls_address = t_tls;
    if (v->cfa != M_ABSENT)
        t.cfa = t_cfa;
    t.register_location = t_register_location;
    if (v->entry != M_ABSENT)
        t.entry_value = t_entry_value;
    if (v->base_type)
        t.base_type = t_base_type;
    if (v->debug_addr != M_ABSENT)
        t.debug_addr = t_debug_addr;
    if (v->frame_base != FB_ABSENT)
        t.frame_base = t_frame_base;
    t.frame_pc = t_frame_pc;
    return t;
}

static void random_variant(variant *v)
{
    memset(v, 0, sizeof *v);
    v->reg_size = chance(70) ? M_PRESENT : (unsigned)below(4);
    v->reg_read_fail = chance(15);
    v->mem_fail = chance(15);
    v->aspace = chance(80) ? 0 : 1 + (unsigned)below(6);
    v->frame_base = chance(55) ? FB_MEMORY : (unsigned)below(5);
    v->fb_base = chance(60) ? 0 : (unsigned)below(sizeof fb_bases / sizeof fb_bases[0]);
    v->cfa = chance(75) ? M_PRESENT : chance(50) ? M_ABSENT : M_FAIL;
    v->entry = chance(55) ? M_PRESENT : (unsigned)below(4);
    v->debug_addr = chance(75) ? M_PRESENT : chance(50) ? M_ABSENT : M_NOT_FOUND;
    v->base_type = chance(60);
    v->tls = chance(50);
    static const size_t older[] = {offsetof(dwexpr_target, aspace_info),
                                   offsetof(dwexpr_target, cfa),
                                   offsetof(dwexpr_target, entry_value),
                                   offsetof(dwexpr_target, debug_addr),
                                   offsetof(dwexpr_target, frame_pc)};
    v->size = chance(92) ? sizeof(dwexpr_target) : older[below(5)];
}

/* ---- the expression generator ---- */
typedef struct gen {
    uint8_t b[MAX_EXPR];
    size_t n;
    int depth;          /* simulated stack depth (a guide, not exact) */
    uint8_t asz;
    uint8_t refsz;      /* bytes of a DIE reference (offset size; address size in DWARF 2) */
} gen;

static void put1(gen *g, uint64_t x)
{
    if (g->n < MAX_EXPR)
        g->b[g->n++] = (uint8_t)x;
}
static void putn(gen *g, uint64_t x, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        put1(g, x >> (8 * i));
}
static void uleb(gen *g, uint64_t x)
{
    do {
        uint8_t c = x & 0x7f;
        x >>= 7;
        put1(g, c | (x ? 0x80 : 0));
    } while (x);
}
static void sleb(gen *g, int64_t x)
{
    for (;;) {
        uint8_t c = x & 0x7f;
        x >>= 7; /* arithmetic shift on every compiler we build with */
        if ((x == 0 && !(c & 0x40)) || (x == -1 && (c & 0x40))) {
            put1(g, c);
            return;
        }
        put1(g, c | 0x80);
    }
}

/* A realistic or edge operand value. */
static uint64_t value(void)
{
    static const uint64_t edges[] = {0, 1, 2, 3, 7, 8, 16, 31, 32, 63, 64, 65, 127, 128, 255, 256,
                                     0x7fff, 0x8000, 0xffff, 0x10000, 0x7fffffff, 0x80000000u,
                                     0xffffffffu, 0x100000000ull, 0x7fffffffffffffffull,
                                     0x8000000000000000ull, 0xffffffffffffffffull,
                                     0xfffffffffffffffeull, 0x400000, 0x7fff0000};
    switch (below(4)) {
    case 0: return edges[below(sizeof edges / sizeof edges[0])];
    case 1: return below(64);
    case 2: return 0x400000u + 8 * below(4096);
    default: {
        unsigned sh = below(64); /* one call per statement: a fixed order */
        return rnd() >> sh;
    }
    }
}
static int64_t offset(void)
{
    static const int64_t edges[] = {0, 1, -1, 8, -8, 16, -16, 63, 64, -64, -65, 127, 128, -129,
                                    0x7fffffff, -0x80000000ll, INT64_MAX, INT64_MIN, 4096};
    if (chance(50))
        return edges[below(sizeof edges / sizeof edges[0])];
    return (int64_t)below(512) - 256;
}
static uint32_t regno(void)
{
    static const uint32_t odd[] = {17, 20, 32, 33, 40, 41, 99, 128, 1000, 2560, 65535, 0xffffffffu};
    if (chance(85))
        return below(32);
    return odd[below(sizeof odd / sizeof odd[0])];
}
static uint64_t piece_size(void)
{
    static const uint64_t sz[] = {0, 1, 2, 4, 8, 9, 16, 17, 3, 0x8000, 0x2000000000000000ull,
                                  0xffffffffffffffffull};
    if (chance(80)) {
        unsigned i = 1 + below(4);
        return sz[i + (chance(30) ? below(4) : 0)];
    }
    return sz[below(sizeof sz / sizeof sz[0])];
}
static uint64_t die_ref(void)
{
    static const uint64_t dies[] = {0, 0x10, 0x20, 0x30, 0x40, 0x50, 0x60, 0x70};
    return dies[below(sizeof dies / sizeof dies[0])];
}

/* A value producer: pushes one entry. */
static void emit_producer(gen *g)
{
    unsigned k = below(100);
    if (k < 25) {
        put1(g, 0x30 + below(32)); /* lit */
    } else if (k < 40) {
        static const uint8_t op[] = {0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f};
        static const unsigned len[] = {1, 1, 2, 2, 4, 4, 8, 8};
        unsigned i = below(8);
        put1(g, op[i]);
        putn(g, value(), len[i]);
    } else if (k < 48) {
        put1(g, 0x10);
        uleb(g, value());
    } else if (k < 54) {
        put1(g, 0x11);
        sleb(g, (int64_t)value());
    } else if (k < 58) {
        put1(g, 0x03); /* addr */
        putn(g, value(), g->asz);
    } else if (k < 62) {
        put1(g, chance(50) ? 0xa1 : 0xa2); /* addrx / constx */
        uleb(g, chance(90) ? below(8) : value());
    } else if (k < 74) {
        put1(g, 0x70 + below(32)); /* breg */
        sleb(g, offset());
    } else if (k < 78) {
        put1(g, 0x92); /* bregx */
        uleb(g, regno());
        sleb(g, offset());
    } else if (k < 86) {
        put1(g, 0x91); /* fbreg */
        sleb(g, offset());
    } else if (k < 90) {
        put1(g, 0x9c); /* call_frame_cfa */
    } else if (k < 96) {
        put1(g, chance(85) ? 0xa3 : 0xf3); /* entry_value */
        switch (below(8)) {
        case 0: put1(g, 2); put1(g, 0x90); put1(g, regno() & 0x7f); break; /* regx */
        case 1: put1(g, 2); put1(g, 0x70 + below(32)); put1(g, 0); break;  /* breg N 0 */
        case 2: put1(g, 0); break;                                          /* empty */
        case 3: put1(g, 1); put1(g, chance(50) ? 0xff : below(256)); break; /* odd byte */
        default: put1(g, 1); put1(g, 0x50 + below(32)); break;              /* regN */
        }
    } else if (k < 98) {
        put1(g, 0x97); /* push_object_address */
    } else {
        put1(g, 0xa5); /* regval_type */
        uleb(g, regno());
        uleb(g, die_ref());
    }
    g->depth++;
}

/* A location: a register, implicit pointer storage, or implicit value
 * storage. */
static void emit_location(gen *g)
{
    unsigned k = below(100);
    if (k < 55) {
        put1(g, 0x50 + below(32));
    } else if (k < 72) {
        put1(g, 0x90);
        uleb(g, regno());
    } else if (k < 82) {
        put1(g, chance(80) ? 0xa0 : 0xf2); /* implicit_pointer, GNU_implicit_pointer */
        putn(g, chance(90) ? die_ref() : value(), g->refsz);
        sleb(g, chance(70) ? 0 : offset());
    } else {
        put1(g, 0x9e); /* implicit_value */
        static const unsigned lens[] = {0, 1, 2, 4, 8, 9, 16, 17};
        unsigned len = lens[below(8)];
        uleb(g, len);
        for (unsigned i = 0; i < len; i++)
            put1(g, below(256));
    }
    g->depth++;
}

/* An operation on the stack (arithmetic, stack manipulation, deref...). */
static void emit_operation(gen *g)
{
    static const uint8_t binary[] = {0x22, 0x1c, 0x1e, 0x1b, 0x1d, 0x1a, 0x21, 0x27, 0x24, 0x25,
                                     0x26, 0x29, 0x2e, 0x2d, 0x2b, 0x2c, 0x2a};
    static const uint8_t unary[] = {0x1f, 0x20, 0x19};
    unsigned k = below(100);
    if (k < 30) {
        uint8_t op = binary[below(sizeof binary)];
        if (op >= 0x24 && op <= 0x26 && chance(70)) {
            /* a shift count 0..70 or huge */
            put1(g, 0x08);
            put1(g, chance(90) ? below(71) : 0xff);
            g->depth++;
        }
        put1(g, op);
        g->depth--;
    } else if (k < 40) {
        put1(g, unary[below(3)]);
    } else if (k < 48) {
        put1(g, 0x23); /* plus_uconst */
        uleb(g, value());
    } else if (k < 62) {
        static const uint8_t st[] = {0x12, 0x13, 0x16, 0x14, 0x17};
        static const int dd[] = {1, -1, 0, 1, 0};
        unsigned i = below(5);
        put1(g, st[i]);
        g->depth += dd[i];
    } else if (k < 66) {
        put1(g, 0x15); /* pick */
        put1(g, chance(80) ? below(3) : below(256));
        g->depth++;
    } else if (k < 72) {
        put1(g, 0x06); /* deref */
    } else if (k < 78) {
        put1(g, 0x94); /* deref_size */
        put1(g, chance(85) ? 1 + below(8) : (chance(50) ? 0 : 9 + below(247)));
    } else if (k < 82) {
        put1(g, chance(50) ? 0x96 : 0xf0); /* nop, GNU_uninit */
    } else if (k < 86) {
        /* convert, reinterpret, and their GNU spellings */
        static const uint8_t conv[4] = {0xa8, 0xa9, 0xf7, 0xf9};
        put1(g, chance(70) ? 0xa8 : conv[below(4)]);
        uleb(g, die_ref());
    } else if (k < 88) {
        put1(g, 0xa6); /* deref_type */
        put1(g, chance(85) ? 1 + below(8) : below(32));
        uleb(g, die_ref());
    } else if (k < 91) {
        put1(g, chance(50) ? 0x9b : 0xe0); /* form_tls_address / GNU_push_tls_address */
    } else if (k < 96 && chance(35)) {
        /* a selection as compilers write it: X Y C DW_OP_bra 1;
         * DW_OP_swap; DW_OP_drop, C ? X : Y (the tape's T_SELECT when C
         * is the target's) */
        emit_producer(g);
        emit_producer(g);
        emit_producer(g);
        put1(g, 0x28);
        put1(g, 1);
        put1(g, 0);
        put1(g, 0x16);
        put1(g, 0x13);
        g->depth -= 2;
    } else if (k < 96) {
        /* skip or bra over the next operation (sometimes a bad target) */
        int bra = chance(50);
        if (bra) {
            put1(g, 0x30 + below(2));
            g->depth++;
        }
        put1(g, bra ? 0x28 : 0x2f);
        size_t at = g->n;
        putn(g, 0, 2);
        size_t from = g->n;
        emit_producer(g);
        int16_t d = (int16_t)(g->n - from);
        if (chance(10))
            d = (int16_t)((int)below(9) - 4);
        if (at + 2 <= MAX_EXPR) {
            g->b[at] = (uint8_t)d;
            g->b[at + 1] = (uint8_t)((uint16_t)d >> 8);
        }
        if (bra)
            g->depth--;
    } else {
        emit_producer(g);
    }
}

/* A whole expression into G. */
static void generate(gen *g)
{
    g->n = 0;
    g->depth = 0;
    unsigned shape = below(100);
    if (shape < 14) {
        /* a producer or location alone, maybe a value */
        if (chance(60))
            emit_producer(g);
        else
            emit_location(g);
        if (chance(50))
            put1(g, 0x9f);
    } else if (shape < 40) {
        /* a straight-line computation, mostly ending as a value */
        unsigned n = 1 + below(6);
        emit_producer(g);
        for (unsigned i = 0; i < n; i++) {
            if (g->depth < 2 && chance(70))
                emit_producer(g);
            else
                emit_operation(g);
        }
        if (chance(60))
            put1(g, 0x9f);
    } else if (shape < 55) {
        /* constants only (target-independent): folding material */
        unsigned n = below(7);
        g->depth = 0;
        put1(g, 0x30 + below(32));
        g->depth = 1;
        for (unsigned i = 0; i < n; i++) {
            if (g->depth < 2) {
                if (chance(50)) {
                    static const unsigned len[] = {1, 1, 2, 2, 4, 4, 8, 8};
                    unsigned w = below(8);
                    put1(g, 0x08 + w);
                    putn(g, value(), len[w]);
                } else {
                    put1(g, 0x30 + below(32));
                }
                g->depth++;
            } else {
                unsigned k = below(10);
                if (k < 7) {
                    static const uint8_t ops[] = {0x22, 0x1c, 0x1e, 0x1b, 0x1d, 0x1a, 0x21,
                                                  0x27, 0x24, 0x25, 0x26, 0x29, 0x2e, 0x2d,
                                                  0x2b, 0x2c, 0x2a};
                    put1(g, ops[below(sizeof ops)]);
                    g->depth--;
                } else if (k < 8) {
                    put1(g, 0x23);
                    uleb(g, value());
                } else {
                    static const uint8_t ops[] = {0x1f, 0x20, 0x19, 0x12, 0x16, 0x96};
                    uint8_t op = ops[below(sizeof ops)];
                    put1(g, op);
                    if (op == 0x12)
                        g->depth++;
                }
            }
        }
        if (chance(75))
            put1(g, 0x9f);
    } else if (shape < 75) {
        /* pieces: parts of registers, memory, values, undefined */
        unsigned n = 1 + below(5);
        for (unsigned i = 0; i < n; i++) {
            unsigned k = below(10);
            if (k < 4)
                emit_location(g);
            else if (k < 8)
                emit_producer(g);
            else if (k == 8) {
                emit_producer(g);
                if (chance(50))
                    emit_operation(g);
            }
            if (k >= 4 && k <= 8 && chance(40))
                put1(g, 0x9f);
            if (chance(85)) {
                put1(g, 0x93);
                uleb(g, piece_size());
            } else {
                put1(g, 0x9d); /* bit_piece */
                uleb(g, chance(80) ? 1 + below(64) : piece_size());
                uleb(g, chance(80) ? below(16) : value());
            }
        }
    } else if (shape < 93) {
        /* a mix: anything, in any order (underflows, locations in
         * arithmetic, pieces after stack_value, several entries left) */
        unsigned n = 1 + below(8);
        for (unsigned i = 0; i < n; i++) {
            unsigned k = below(100);
            if (k < 30)
                emit_producer(g);
            else if (k < 45)
                emit_location(g);
            else if (k < 80)
                emit_operation(g);
            else if (k < 88)
                put1(g, 0x9f);
            else {
                put1(g, 0x93);
                uleb(g, piece_size());
            }
        }
    } else {
        /* some random bytes, or a valid start then random bytes */
        if (chance(50))
            emit_producer(g);
        unsigned n = 1 + below(6);
        for (unsigned i = 0; i < n; i++)
            put1(g, below(256));
    }
    /* now and then a random byte somewhere: decode errors */
    if (g->n && chance(3)) {
        uint32_t at = below((uint32_t)g->n);
        g->b[at] = (uint8_t)below(256);
    }
    if (g->n && chance(2))
        g->n = below((uint32_t)g->n); /* truncated */
}

/* ---- deep comparison ---- */
static int same_outcome(dwexpr_status sa, const dwexpr_ctx *ca, const dwexpr_result *ra,
                        dwexpr_status sb, const dwexpr_ctx *cb, const dwexpr_result *rb)
{
    if (sa != sb)
        return 0;
    if (sa != DWEXPR_OK)
        return same_error(dwexpr_ctx_error(ca), dwexpr_ctx_error(cb));
    return same_result(ra, rb);
}

/* The stacks as the failing operation found them: depth and top entries. */
static int same_stack(const dwexpr_ctx *a, const dwexpr_ctx *b)
{
    size_t n = dwexpr_ctx_stack_depth(a);
    if (n != dwexpr_ctx_stack_depth(b))
        return 0;
    for (size_t i = 0; i < n && i < 3; i++) {
        dwexpr_result x, y;
        if (dwexpr_ctx_stack_get(a, i, &x) != DWEXPR_OK ||
            dwexpr_ctx_stack_get(b, i, &y) != DWEXPR_OK || !same_result(&x, &y))
            return 0;
    }
    return 1;
}

/* ---- bookkeeping ---- */
enum {
    K_DECODE_BYTES,  /* decode error: eval_bytes says the same */
    K_EVAL,          /* decode + eval vs the loop */
    K_WARM,          /* the second eval on the same context */
    K_BYTES,         /* eval_bytes vs the loop */
    K_HISTORY,       /* eval after another program on the context */
    K_STACK,         /* the stack after a failing operation */
    K_STACK_END,     /* the stack after the final conversion failed */
    K_STEPS_KNOWN,   /* a known divergence: steps of a producer's nested evaluation */
    K_LANES,         /* eval_lanes (one lane) vs eval of that lane vs the loop */
    K_BOUND,         /* dwexpr_ctx_bind + dwexpr_eval_bound vs the loop */
    K_BYTES_BOUND,   /* dwexpr_ctx_bind + dwexpr_eval_bytes_bound vs the loop */
    K_COUNT
};
static const char *const check_name[K_COUNT] = {
    "a decode error is the same through dwexpr_eval_bytes",
    "decode + dwexpr_eval gives what the general loop gives",
    "dwexpr_eval again on the same (warm) context gives the same",
    "dwexpr_eval_bytes gives what the general loop gives",
    "dwexpr_eval after another program on the context gives the same",
    "after a failing operation the stack is the same as the general loop's",
    "after the result conversion fails the stack is the same as the general loop's",
    ("fbreg / entry_value; stack_value under a step limit: the steps of the nested "
     "evaluation count in the shortcuts as in the loop"),
    "dwexpr_eval_lanes for one lane gives dwexpr_eval of that lane and the loop",
    "dwexpr_eval_bound (dwexpr_ctx_bind) gives what the general loop gives",
    "dwexpr_eval_bytes_bound (dwexpr_ctx_bind) gives what the general loop gives"};
static unsigned long mismatches[K_COUNT], checked[K_COUNT];
static unsigned shown;

/* Everything that describes one case. */
typedef struct kase {
    unsigned index;
    gen g;
    dwexpr_unit unit;
    dwexpr_eval_params p;
    int params_null;     /* (a), (b) get NULL for the all-zero params */
    dwexpr_limits lim;
    int lim_default;
    size_t static_size;  /* 0: heap contexts */
} kase;

static const char *outcome_text(dwexpr_status st, const dwexpr_ctx *ctx, const dwexpr_result *r)
{
    static char buf[4][300];
    static int k;
    char *b = buf[k++ & 3];
    if (st != DWEXPR_OK) {
        const dwexpr_error *e = dwexpr_ctx_error(ctx);
        snprintf(b, 300, "%s at %lld op 0x%x %s: %s", dwexpr_status_name(st),
                 (long long)e->offset, (unsigned)e->opcode, e->op_name ? e->op_name : "-",
                 e->message);
    } else if (r->kind == DWEXPR_RESULT_VALUE) {
        snprintf(b, 300, "value 0x%llx (%u bits, enc %u, die 0x%llx)",
                 (unsigned long long)r->value.bits, (unsigned)r->value.type.bits,
                 (unsigned)r->value.type.encoding, (unsigned long long)r->value.type.die);
    } else if (r->kind == DWEXPR_RESULT_LOCATION && r->loc.count) {
        const dwexpr_sld *s = &r->loc.slds[0];
        snprintf(b, 300, "location x%u: kind %u off 0x%llx bit %u ctx 0x%x%s",
                 (unsigned)r->loc.count, (unsigned)s->kind, (unsigned long long)s->byte_offset,
                 (unsigned)s->bit, (unsigned)s->ctx,
                 s->kind == DWEXPR_LOC_COMPOSITE ? " (composite)" : "");
    } else {
        snprintf(b, 300, "result kind %d", (int)r->kind);
    }
    return b;
}

static void show(const kase *c, int check, const char *got, const char *want)
{
    /* the first few cases of each check (once per case), at most
     * MAX_SHOWN in all */
    static unsigned cases_shown[K_COUNT], last_case[K_COUNT];
    ++mismatches[check];
    if (cases_shown[check] && last_case[check] == c->index)
        return;
    if (cases_shown[check] >= 5 || shown >= MAX_SHOWN)
        return;
    cases_shown[check]++;
    last_case[check] = c->index;
    ++shown;
    printf("# case %u: %s\n#   bytes:", c->index, check_name[check]);
    for (size_t i = 0; i < c->g.n; i++)
        printf(" %02x", c->g.b[i]);
    printf("\n#   unit: addr %u, version %u, %s, bias 0x%llx, offset %u\n",
           (unsigned)c->unit.addr_size, (unsigned)c->unit.version,
           c->unit.big_endian ? "big endian" : "little endian",
           (unsigned long long)c->unit.load_bias, (unsigned)c->unit.offset_size);
    printf("#   target: size %zu reg_size %u reg_read_fail %u mem_fail %u aspace %u "
           "frame_base %u/%u cfa %u entry %u debug_addr %u base_type %u tls %u\n",
           tv.size, tv.reg_size, tv.reg_read_fail, tv.mem_fail, tv.aspace, tv.frame_base,
           tv.fb_base, tv.cfa,
           tv.entry, tv.debug_addr, tv.base_type, tv.tls);
    printf("#   params%s: kind %d ctx 0x%x thread %llu lane %u frame %u pc %d/0x%llx object %d "
           "initial %zu\n", c->params_null ? " (NULL)" : "", (int)c->p.result_kind,
           (unsigned)c->p.ctx, (unsigned long long)c->p.thread, (unsigned)c->p.lane,
           (unsigned)c->p.frame, (int)c->p.has_pc, (unsigned long long)c->p.pc,
           c->p.object != NULL, c->p.initial_count);
    if (c->lim_default)
        printf("#   limits: defaults");
    else
        printf("#   limits: steps %llu stack %u parts %u implicit %llu",
               (unsigned long long)c->lim.steps, (unsigned)c->lim.stack, (unsigned)c->lim.parts,
               (unsigned long long)c->lim.implicit_bytes);
    if (c->static_size)
        printf(", static contexts of %zu bytes\n", c->static_size);
    else
        printf(", heap contexts\n");
    printf("#   got:  %s\n#   want: %s\n", got, want);
}

/* A stack mismatch: both depths and the error. */
static void show_stack(const kase *c, const dwexpr_ctx *got, const dwexpr_ctx *want)
{
    char g[400], w[400];
    snprintf(g, sizeof g, "%zu entries after %s", dwexpr_ctx_stack_depth(got),
             outcome_text(dwexpr_ctx_error(got)->status, got, NULL));
    snprintf(w, sizeof w, "%zu entries after %s", dwexpr_ctx_stack_depth(want),
             outcome_text(dwexpr_ctx_error(want)->status, want, NULL));
    show(c, dwexpr_ctx_error(want)->offset < 0 ? K_STACK_END : K_STACK, g, w);
}

/* outcome distribution of the general loop */
static unsigned long n_nospace, n_ok, n_class[DWEXPR_CLASS_COUNT], n_value, n_loc_kind[8], n_multi,
    n_decode_fail, n_with_params, n_zero_params, n_static;
/* programs compiled into a tape (lib/tape.c), and by kind of tape operation */
static unsigned long n_tape, n_tape_code[DWX_TAPE_CODES];

static void tally(dwexpr_status st, const dwexpr_result *r)
{
    n_class[dwexpr_status_class(st)]++;
    n_nospace += st == DWEXPR_E_NOSPACE;
    if (st != DWEXPR_OK)
        return;
    n_ok++;
    if (r->kind == DWEXPR_RESULT_VALUE) {
        n_value++;
    } else if (r->loc.count) {
        n_loc_kind[r->loc.slds[0].kind & 7]++;
        if (r->loc.count > 1)
            n_multi++;
    }
}

/* ---- contexts ---- */
static dwexpr_ctx *hctx[4];   /* default heap contexts, warm across cases */
static _Alignas(16) unsigned char sbuf[4][16384];

static int let_run(void *arg, const dwexpr_ctx *ctx, const dwexpr_trace_event *ev)
{
    (void)arg; (void)ctx; (void)ev;
    return 0;
}

/* Other programs a context sees between two evaluations (its history). */
static dwexpr_program *others[6];
static void make_others(void)
{
    static const uint8_t o0[] = {0x50, 0x93, 0x04, 0x35, 0x9f, 0x93, 0x02, 0x93, 0x08};
    static const uint8_t o1[] = {0x9e, 0x10, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    static const uint8_t o2[] = {0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x22};
    static const uint8_t o3[] = {0x31, 0x30, 0x1b};                  /* division by zero */
    static const uint8_t o4[] = {0x75, 0x08, 0x06, 0x23, 0x10, 0x9f}; /* breg5 8 deref ... */
    static const uint8_t o5[] = {0x9c, 0x93, 0x08, 0x5a, 0x93, 0x08, 0x91, 0x78, 0x93, 0x04,
                                 0x10, 0xff, 0x01, 0x9f, 0x93, 0x02};
    static const struct { const uint8_t *b; size_t n; } src[6] = {
        {o0, sizeof o0}, {o1, sizeof o1}, {o2, sizeof o2},
        {o3, sizeof o3}, {o4, sizeof o4}, {o5, sizeof o5}};
    const dwexpr_unit u = {.addr_size = 8, .offset_size = 4, .version = 5};
    for (int i = 0; i < 6; i++)
        if (dwexpr_program_decode(src[i].b, src[i].n, &u, &others[i], NULL) != DWEXPR_OK)
            others[i] = NULL;
}

/* ---- one case ---- */
static dwexpr_sld obj_sld[2], init_sld[2][2];
static dwexpr_loc obj_loc, init_locs[2];
static dwexpr_value init_vals[2];

static void random_sld(dwexpr_sld *s, const dwexpr_eval_params *p)
{
    memset(s, 0, sizeof *s);
    switch (below(3)) {
    case 0:
        s->kind = DWEXPR_LOC_MEMORY;
        s->byte_offset = value();
        break;
    case 1:
        s->kind = DWEXPR_LOC_REGISTER;
        s->u.regno = regno();
        break;
    default:
        s->kind = DWEXPR_LOC_MEMORY;
        s->byte_offset = 0x400000u + 8 * below(64);
        s->bit = (uint8_t)below(8);
        break;
    }
    s->ctx = (uint16_t)(p->ctx & (DWEXPR_CTX_THREAD | DWEXPR_CTX_LANE));
    s->thread = p->thread;
    s->lane = p->lane;
}

static void random_params(kase *c)
{
    dwexpr_eval_params *p = &c->p;
    memset(p, 0, sizeof *p);
    c->params_null = 0;
    if (chance(72)) {
        c->params_null = chance(30);
        return;
    }
    if (chance(35)) {
        p->ctx |= DWEXPR_CTX_THREAD;
        p->thread = chance(50) ? 1 : rnd();
    }
    if (chance(25)) {
        p->frame = 1 + (chance(20) ? below(3) : 0);
        if (chance(70))
            p->ctx |= DWEXPR_CTX_FRAME;
    } else if (chance(15)) {
        p->ctx |= DWEXPR_CTX_FRAME;
    }
    if (chance(25)) {
        p->ctx |= DWEXPR_CTX_LANE;
        p->lane = below(64);
        p->lanes = chance(50) ? 64 : 0;
    }
    if (chance(40))
        p->result_kind = chance(50) ? DWEXPR_RESULT_VALUE : DWEXPR_RESULT_LOCATION;
    if (chance(25)) {
        p->has_pc = true;
        p->pc = 0x1000 + below(0x1000);
    }
    if (chance(20)) {
        random_sld(&obj_sld[0], p);
        obj_loc.count = 1;
        if (chance(15)) {
            random_sld(&obj_sld[1], p);
            obj_loc.count = 2;
        }
        obj_loc.slds = obj_sld;
        p->object = &obj_loc;
    }
    if (chance(30)) {
        p->initial_count = 1 + below(2);
        for (size_t i = 0; i < p->initial_count; i++) {
            memset(&init_vals[i], 0, sizeof init_vals[i]);
            init_vals[i].type.bits = 8u * c->unit.addr_size;
            init_vals[i].type.lanes = 1;
            uint64_t v = value();
            init_vals[i].bits = c->unit.addr_size == 8 ? v : v & ((1ull << (8 * c->unit.addr_size)) - 1);
            init_locs[i].count = 0;
            init_locs[i].slds = init_sld[i];
            if (chance(35)) {
                random_sld(&init_sld[i][0], p);
                init_locs[i].count = 1;
            }
        }
        p->initial_values = init_vals;
        p->initial_locs = chance(70) ? init_locs : NULL;
    }
}

/* Contexts for case C: the warm heap ones, or fresh ones with C's limits
 * (static ones on a small buffer now and then). False if none can be made. */
static int make_contexts(const kase *c, dwexpr_ctx *ctx[4], int *fresh)
{
    *fresh = 0;
    if (c->lim_default && !c->static_size) {
        for (int i = 0; i < 4; i++)
            ctx[i] = hctx[i];
        return 1;
    }
    const dwexpr_limits *lim = c->lim_default ? NULL : &c->lim;
    for (int i = 0; i < 4; i++) {
        ctx[i] = NULL;
        if (c->static_size &&
            dwexpr_ctx_init_static(sbuf[i], c->static_size, lim, &ctx[i]) == DWEXPR_OK) {
            n_static += i == 0;
            continue;
        }
        if (c->static_size) {
            /* too small for these limits: all four on the heap */
            for (int j = 0; j < i; j++)
                ctx[j] = NULL;
            for (int j = 0; j < 4; j++)
                if (dwexpr_ctx_new(lim, &ctx[j]) != DWEXPR_OK)
                    return 0;
            *fresh = 1;
            return 1;
        }
        if (dwexpr_ctx_new(lim, &ctx[i]) != DWEXPR_OK)
            return 0;
    }
    *fresh = !c->static_size;
    return 1;
}

/* On a static context the paths use different scratch (dwexpr_eval_bytes
 * decodes long expressions into it, dwexpr_eval_lanes keeps each lane's
 * result), so one may run out where another does not: E_NOSPACE on either
 * side is the one difference allowed there (counted, not hidden). */
static unsigned long n_nospace_excused;
static int nospace_excused(const kase *c, dwexpr_status got, dwexpr_status want)
{
    if (!c->static_size || (got != DWEXPR_E_NOSPACE && want != DWEXPR_E_NOSPACE))
        return 0;
    n_nospace_excused++;
    return 1;
}

/* A producer whose operation may evaluate a nested expression (DW_OP_fbreg
 * with an expression frame base, DW_OP_entry_value evaluated in the
 * caller frame), then DW_OP_stack_value, under a step limit. */
static int nested_sv(const kase *c)
{
    const uint8_t *b = c->g.b;
    return !c->lim_default && c->lim.steps && c->g.n >= 2 && b[c->g.n - 1] == 0x9f &&
           (b[0] == 0x91 || b[0] == 0xa3 || b[0] == 0xf3);
}

/* K_STEPS_KNOWN: a divergence this test found and lib/eval.c fixed
 * (one_direct set ctx->steps = 2 after the producer, dropping the steps
 * its nested evaluation used, and did not check the limit before
 * DW_OP_stack_value; the loop stops with E_STEPS). Recorded under its own
 * check as well as the main ones; it excuses nothing. */
static int known_steps(const kase *c, dwexpr_status got, const dwexpr_ctx *cg,
                       const dwexpr_result *rg, dwexpr_status want, const dwexpr_ctx *cw,
                       const dwexpr_result *rw)
{
    if (!nested_sv(c) || got != DWEXPR_OK || want != DWEXPR_E_STEPS)
        return 0;
    show(c, K_STEPS_KNOWN, outcome_text(got, cg, rg), outcome_text(want, cw, rw));
    return 0;
}

static void run_case(kase *c)
{
    dwexpr_ctx *ctx[4];
    int fresh;
    if (!make_contexts(c, ctx, &fresh)) {
        TAP_OK(0, "case %u: contexts", c->index);
        return;
    }
    dwexpr_ctx *ca = ctx[0], *cb = ctx[1], *cc = ctx[2], *cd = ctx[3];
    const dwexpr_target target = make_target(&tv);
    const dwexpr_eval_params *pa = c->params_null ? NULL : &c->p;
    dwexpr_eval_params traced = c->p;
    traced.trace = let_run;
    if (!c->p.ctx && !c->p.frame && !c->p.result_kind && !c->p.initial_count && !c->p.object &&
        !c->p.has_pc)
        n_zero_params++;
    else
        n_with_params++;

    dwexpr_program *prog = NULL;
    dwexpr_error derr;
    dwexpr_result ra, rb, rc;
    dwexpr_status ds = dwexpr_program_decode(c->g.b, c->g.n, &c->unit, &prog, &derr);
    if (ds == DWEXPR_OK && prog->tape) {
        n_tape++;
        const uint32_t codes = dwx_tape_codes(prog->tape);
        for (unsigned k = 0; k < DWX_TAPE_CODES; k++)
            n_tape_code[k] += (codes >> k) & 1;
    }
    if (ds != DWEXPR_OK) {
        n_decode_fail++;
        tally(ds, NULL);
        dwexpr_status sb = dwexpr_eval_bytes(cb, c->g.b, c->g.n, &c->unit, &target, &tv, pa, &rb);
        checked[K_DECODE_BYTES]++;
        if ((sb != ds || !same_error(dwexpr_ctx_error(cb), &derr)) &&
            !nospace_excused(c, sb, ds)) {
            char want[300];
            snprintf(want, sizeof want, "%s at %lld op 0x%x %s: %s", dwexpr_status_name(ds),
                     (long long)derr.offset, (unsigned)derr.opcode,
                     derr.op_name ? derr.op_name : "-", derr.message);
            show(c, K_DECODE_BYTES, outcome_text(sb, cb, &rb), want);
        }
        /* the same through the bound entry */
        if (dwexpr_ctx_bind(cb, &target, &tv, pa) == DWEXPR_OK) {
            sb = dwexpr_eval_bytes_bound(cb, c->g.b, c->g.n, &c->unit, &rb);
            checked[K_BYTES_BOUND]++;
            if ((sb != ds || !same_error(dwexpr_ctx_error(cb), &derr)) &&
                !nospace_excused(c, sb, ds))
                show(c, K_BYTES_BOUND, outcome_text(sb, cb, &rb), "the decode error");
        } else {
            TAP_OK(0, "case %u: dwexpr_ctx_bind", c->index);
        }
        goto done;
    }

    if (nested_sv(c))
        checked[K_STEPS_KNOWN]++;

    /* (c) the general loop: the reference */
    memset(&rc, 0x5a, sizeof rc);
    dwexpr_status sc = dwexpr_eval(cc, prog, &target, &tv, &traced, &rc);
    tally(sc, &rc);

    /* (a) decode + eval, twice */
    memset(&ra, 0x5a, sizeof ra);
    dwexpr_status sa = dwexpr_eval(ca, prog, &target, &tv, pa, &ra);
    checked[K_EVAL]++;
    if (!same_outcome(sa, ca, &ra, sc, cc, &rc) && !nospace_excused(c, sa, sc) &&
        !known_steps(c, sa, ca, &ra, sc, cc, &rc))
        show(c, K_EVAL, outcome_text(sa, ca, &ra), outcome_text(sc, cc, &rc));
    if (sc != DWEXPR_OK && sa == sc && !(c->static_size && sc == DWEXPR_E_NOSPACE)) {
        checked[dwexpr_ctx_error(cc)->offset < 0 ? K_STACK_END : K_STACK]++;
        if (!same_stack(ca, cc))
            show_stack(c, ca, cc);
    }
    memset(&ra, 0xa5, sizeof ra);
    sa = dwexpr_eval(ca, prog, &target, &tv, pa, &ra);
    checked[K_WARM]++;
    if (!same_outcome(sa, ca, &ra, sc, cc, &rc) && !nospace_excused(c, sa, sc) &&
        !known_steps(c, sa, ca, &ra, sc, cc, &rc))
        show(c, K_WARM, outcome_text(sa, ca, &ra), outcome_text(sc, cc, &rc));

    /* (b) from the bytes */
    memset(&rb, 0x5a, sizeof rb);
    dwexpr_status sb = dwexpr_eval_bytes(cb, c->g.b, c->g.n, &c->unit, &target, &tv, pa, &rb);
    checked[K_BYTES]++;
    if (!same_outcome(sb, cb, &rb, sc, cc, &rc) && !nospace_excused(c, sb, sc) &&
        !known_steps(c, sb, cb, &rb, sc, cc, &rc))
        show(c, K_BYTES, outcome_text(sb, cb, &rb), outcome_text(sc, cc, &rc));
    if (sc != DWEXPR_OK && sb == sc && !(c->static_size && sc == DWEXPR_E_NOSPACE)) {
        checked[dwexpr_ctx_error(cc)->offset < 0 ? K_STACK_END : K_STACK]++;
        if (!same_stack(cb, cc))
            show_stack(c, cb, cc);
    }

    /* (e) bound to the case's target, user and parameters: twice each, so
     * that a warm context and a fold handed out again are seen too */
    if (dwexpr_ctx_bind(ca, &target, &tv, pa) != DWEXPR_OK ||
        dwexpr_ctx_bind(cb, &target, &tv, pa) != DWEXPR_OK) {
        TAP_OK(0, "case %u: dwexpr_ctx_bind", c->index);
    } else {
        for (int k = 0; k < 2; k++) {
            memset(&ra, 0x5a + k, sizeof ra);
            sa = dwexpr_eval_bound(ca, prog, &ra);
            checked[K_BOUND]++;
            if (!same_outcome(sa, ca, &ra, sc, cc, &rc) && !nospace_excused(c, sa, sc) &&
                !known_steps(c, sa, ca, &ra, sc, cc, &rc))
                show(c, K_BOUND, outcome_text(sa, ca, &ra), outcome_text(sc, cc, &rc));
            else if (sc != DWEXPR_OK && sa == sc && !(c->static_size && sc == DWEXPR_E_NOSPACE)) {
                checked[dwexpr_ctx_error(cc)->offset < 0 ? K_STACK_END : K_STACK]++;
                if (!same_stack(ca, cc))
                    show_stack(c, ca, cc);
            }
            memset(&rb, 0x5a + k, sizeof rb);
            sb = dwexpr_eval_bytes_bound(cb, c->g.b, c->g.n, &c->unit, &rb);
            checked[K_BYTES_BOUND]++;
            if (!same_outcome(sb, cb, &rb, sc, cc, &rc) && !nospace_excused(c, sb, sc) &&
                !known_steps(c, sb, cb, &rb, sc, cc, &rc))
                show(c, K_BYTES_BOUND, outcome_text(sb, cb, &rb), outcome_text(sc, cc, &rc));
        }
    }

    /* (a) again after another program ran on the context */
    {
        const dwexpr_program *other = others[below(6)];
        dwexpr_result ro;
        if (other)
            (void)dwexpr_eval(ca, other, &target, &tv, NULL, &ro);
        memset(&ra, 0x3c, sizeof ra);
        sa = dwexpr_eval(ca, prog, &target, &tv, pa, &ra);
        checked[K_HISTORY]++;
        if (!same_outcome(sa, ca, &ra, sc, cc, &rc) && !nospace_excused(c, sa, sc) &&
        !known_steps(c, sa, ca, &ra, sc, cc, &rc))
            show(c, K_HISTORY, outcome_text(sa, ca, &ra), outcome_text(sc, cc, &rc));
    }

    /* (d) one lane through eval_lanes, when the params name no lane */
    if (!(c->p.ctx & DWEXPR_CTX_LANE)) {
        uint32_t lane = chance(50) ? below(4) : below(64);
        dwexpr_eval_params lp = c->p, ltr;
        lp.lane = lane;
        lp.ctx |= DWEXPR_CTX_LANE;
        ltr = lp;
        ltr.trace = let_run;
        dwexpr_result rl, rs, rt;
        dwexpr_status stl[1], sl, ss, st;
        memset(&rl, 0x5a, sizeof rl);
        st = dwexpr_eval(cc, prog, &target, &tv, &ltr, &rt);
        ss = dwexpr_eval(ca, prog, &target, &tv, &lp, &rs);
        sl = dwexpr_eval_lanes(cd, prog, &target, &tv, pa, lane, 1, 1, &rl, stl);
        checked[K_LANES]++;
        if (!same_outcome(ss, ca, &rs, st, cc, &rt) && !nospace_excused(c, ss, st) &&
            !known_steps(c, ss, ca, &rs, st, cc, &rt))
            show(c, K_LANES, outcome_text(ss, ca, &rs), outcome_text(st, cc, &rt));
        else if (sl != stl[0] ||
                 (!same_outcome(sl, cd, &rl, st, cc, &rt) && !nospace_excused(c, sl, st) &&
                  !known_steps(c, sl, cd, &rl, st, cc, &rt))) {
            char got[400];
            snprintf(got, sizeof got, "eval_lanes %s (lane status %s): %s",
                     dwexpr_status_name(sl), dwexpr_status_name(stl[0]),
                     outcome_text(stl[0], cd, &rl));
            show(c, K_LANES, got, outcome_text(st, cc, &rt));
        }
    }
    dwexpr_program_free(prog);
done:
    if (fresh)
        for (int i = 0; i < 4; i++)
            dwexpr_ctx_free(ctx[i]);
}

static void random_case(kase *c, unsigned index)
{
    c->index = index;
    memset(&c->unit, 0, sizeof c->unit);
    static const uint8_t asz[] = {1, 2, 4};
    c->unit.addr_size = chance(75) ? 8 : asz[below(3)];
    c->unit.version = chance(75) ? 5 : (uint16_t)(2 + below(4));
    c->unit.offset_size = chance(90) ? 4 : 8;
    c->unit.big_endian = chance(10);
    c->unit.load_bias = chance(80) ? 0 : chance(50) ? 0x10000 : 0xfffffffffffff000ull;
    c->g.asz = c->unit.addr_size;
    c->g.refsz = c->unit.version == 2 ? c->unit.addr_size : c->unit.offset_size;
    random_variant(&tv);
    generate(&c->g);
    random_params(c);
    c->lim_default = chance(85);
    memset(&c->lim, 0, sizeof c->lim);
    if (!c->lim_default) {
        if (chance(50))
            c->lim.steps = 1 + below(6);
        if (chance(40))
            c->lim.stack = 1 + below(4);
        if (chance(40))
            c->lim.parts = 1 + below(3);
        if (chance(40))
            c->lim.implicit_bytes = 1 + below(8);
    }
    static const size_t ssz[] = {1024, 2048, 4096, 16384};
    c->static_size = chance(8) ? ssz[below(4)] : 0;
    if (c->static_size && !c->lim.stack) {
        /* a stack small enough for the buffer (the default 1024 entries
         * do not fit in 16 KiB) */
        c->lim_default = 0;
        c->lim.stack = 4 + below(60);
    }
}

/* Fixed cases first: the known step-count divergence (so its own check
 * does not depend on the generator reaching it) and its neighbours. */
static void fixed_cases(void)
{
    static const struct {
        uint8_t b[10];
        size_t n;
        unsigned frame_base, entry;
        uint64_t steps;
        unsigned asz; /* 0: 8 */
    } fx[] = {
        {{0x91, 0x76, 0x9f}, 3, FB_EXPR, M_PRESENT, 2, 0},       /* fbreg -10; stack_value */
        {{0x91, 0xf6, 0x01, 0x9f}, 4, FB_EXPR, M_PRESENT, 2, 0}, /* two-byte LEB128 */
        {{0x91, 0x76, 0x9f}, 3, FB_EXPR, M_PRESENT, 3, 0},       /* enough steps */
        {{0x91, 0x76, 0x9f}, 3, FB_MEMORY, M_PRESENT, 2, 0},     /* no nested expression */
        {{0xa3, 0x01, 0x55, 0x9f}, 4, FB_MEMORY, M_NOT_FOUND, 2, 0}, /* entry value in the caller */
        {{0xa3, 0x02, 0x75, 0x08, 0x9f}, 5, FB_MEMORY, M_NOT_FOUND, 2, 0},
        /* tapes (lib/tape.c) of 4-byte addresses: results that leave the
         * 32 bits before the shift (dwx_int_binary masks its operands, so
         * the tape's own masks are not seen: the same as the fast loop's) */
        {{0x70, 0x00, 0x20, 0x34, 0x25}, 5, FB_MEMORY, M_PRESENT, 64, 4}, /* not; lit4; shr */
        {{0x70, 0x00, 0x1f, 0x34, 0x25}, 5, FB_MEMORY, M_PRESENT, 64, 4}, /* neg; lit4; shr */
        {{0x70, 0x01, 0x19, 0x34, 0x25}, 5, FB_MEMORY, M_PRESENT, 64, 4}, /* abs; lit4; shr */
        /* breg0 0; plus_uconst 0xffffffff; lit4; shr */
        {{0x70, 0x00, 0x23, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x34, 0x25}, 10, FB_MEMORY, M_PRESENT, 64, 4},
    };
    static kase c;
    for (size_t i = 0; i < sizeof fx / sizeof fx[0]; i++) {
        memset(&c, 0, sizeof c);
        c.index = CASES + (unsigned)i;
        const unsigned asz = fx[i].asz ? fx[i].asz : 8;
        c.unit = (dwexpr_unit){.addr_size = (uint8_t)asz, .offset_size = 4, .version = 5};
        c.g.asz = asz;
        memcpy(c.g.b, fx[i].b, fx[i].n);
        c.g.n = fx[i].n;
        c.lim.steps = fx[i].steps;
        memset(&tv, 0, sizeof tv);
        tv.reg_size = tv.cfa = tv.debug_addr = M_PRESENT;
        tv.frame_base = fx[i].frame_base;
        tv.entry = fx[i].entry;
        tv.size = sizeof(dwexpr_target);
        run_case(&c);
    }
}

/* DW_OP_convert's results keep no bits above their type
 * (dwexpr_value.bits: "zero above type size"; DWARF 5 2.5.1.6: extended
 * by the source's signedness, cut to the result's size) on every path:
 * from the bytes, pre-decoded (fast loop or tape), bound. The paths
 * compared with one another above cannot see a rule they share
 * (dwx_convert_int); the CLI's output masks by the type. */
static void convert_bits(void)
{
    static const struct {
        uint8_t b[8];
        size_t n;
        uint64_t bits;
        unsigned tbits;
        const char *what;
    } cv[] = {
        {{0x0b, 0x34, 0x12, 0xa8, 0x50}, 5, 0x34, 8, "const2u 0x1234; convert u8"},
        {{0x11, 0x7f, 0xa8, 0x10}, 4, 0xffffffff, 32, "consts -1; convert s32"},
        {{0x11, 0x7f, 0xa8, 0x10, 0xa8, 0x50}, 6, 0xff, 8, "consts -1; convert s32; convert u8"},
        {{0x08, 0x80, 0xa8, 0x50, 0xa8, 0x10}, 6, 0x80, 32,
         "const1u 0x80; convert u8; convert s32 (zero-extended)"},
        {{0x11, 0x7e, 0xa8, 0x10, 0xa8, 0x20}, 6, 0xfffffffffffffffe, 64,
         "consts -2; convert s32; convert u64 (sign-extended)"},
        /* bits 0: register 0's low 32 bits (the mock's register is a hash) */
        {{0x70, 0x00, 0xa8, 0x10}, 4, 0, 32, "breg0 0; convert s32 (a tape's register)"},
    };
    variant v;
    memset(&v, 0, sizeof v);
    v.size = sizeof(dwexpr_target);
    v.base_type = true;
    const dwexpr_target t = make_target(&v);
    const dwexpr_unit unit = {.addr_size = 8, .offset_size = 4, .version = 5};
    uint8_t rb[8];
    const dwexpr_regref r0 = {.regno = 0};
    uint64_t reg0 = 0;
    if (t.reg_read(&v, &r0, 0, rb, 8) == DWEXPR_OK)
        for (int k = 7; k >= 0; k--)
            reg0 = reg0 << 8 | rb[k];
    TAP_OK(reg0 >> 32 != 0, "register 0 (0x%llx) has bits above 32 to cut",
           (unsigned long long)reg0);
    dwexpr_ctx *ctx;
    if (dwexpr_ctx_new(NULL, &ctx) != DWEXPR_OK)
        return;
    for (size_t i = 0; i < sizeof cv / sizeof cv[0]; i++) {
        dwexpr_program *prog = NULL;
        dwexpr_error err;
        dwexpr_result r[3];
        dwexpr_status st[3];
        memset(r, 0, sizeof r);
        st[0] = dwexpr_eval_bytes(ctx, cv[i].b, cv[i].n, &unit, &t, &v, NULL, &r[0]);
        st[1] = st[2] = DWEXPR_E_USAGE;
        if (dwexpr_program_decode(cv[i].b, cv[i].n, &unit, &prog, &err) == DWEXPR_OK) {
            st[1] = dwexpr_eval(ctx, prog, &t, &v, NULL, &r[1]);
            if (dwexpr_ctx_bind(ctx, &t, &v, NULL) == DWEXPR_OK)
                st[2] = dwexpr_eval_bound(ctx, prog, &r[2]);
        }
        const uint64_t want = cv[i].bits ? cv[i].bits : reg0 & 0xffffffffu;
        for (int k = 0; k < 3; k++)
            TAP_OK(st[k] == DWEXPR_OK && r[k].kind == DWEXPR_RESULT_VALUE &&
                       r[k].value.bits == want && r[k].value.type.bits == cv[i].tbits,
                   "%s: 0x%llx, %u bits (%s)", cv[i].what, (unsigned long long)want,
                   cv[i].tbits, k == 0 ? "from the bytes" : k == 1 ? "pre-decoded" : "bound");
        dwexpr_program_free(prog);
    }
    dwexpr_ctx_free(ctx);
}

int main(void)
{
    const char *env = getenv("FASTPATH_CASES");
    if (env && strtoul(env, NULL, 0) > 0)
        CASES = (unsigned)strtoul(env, NULL, 0);
    env = getenv("FASTPATH_SEED");
    if (env)
        rng_state = strtoull(env, NULL, 0);
    const uint64_t seed = rng_state;
    for (int i = 0; i < 4; i++)
        if (dwexpr_ctx_new(NULL, &hctx[i]) != DWEXPR_OK)
            return 1;
    make_others();
    fixed_cases();
    convert_bits();
    static kase c;
    for (unsigned i = 0; i < CASES; i++) {
        random_case(&c, i);
        run_case(&c);
    }
    for (int k = 0; k < K_COUNT; k++) {
        TAP_OK(mismatches[k] == 0 && checked[k] > 0, "%s (%lu checked, %lu differ)",
               check_name[k], checked[k], mismatches[k]);
    }
    printf("# %u cases, seed 0x%llx (%lu all-zero params, %lu with params): %lu ok, %lu decode failures\n",
           CASES, (unsigned long long)seed, n_zero_params, n_with_params, n_ok, n_decode_fail);
    printf("# %lu cases on static contexts: %lu ended E_NOSPACE in the loop, %lu comparisons "
           "excused by E_NOSPACE on one side\n", n_static, n_nospace, n_nospace_excused);
    printf("# errors by class:");
    for (int k = 1; k < DWEXPR_CLASS_COUNT; k++)
        printf(" %s %lu", dwexpr_class_name((dwexpr_class)k), n_class[k]);
    printf("\n# results: value %lu, memory %lu, register %lu, implicit %lu, implicit pointer "
           "%lu, composite %lu, undefined %lu (several places: %lu)\n",
           n_value, n_loc_kind[DWEXPR_LOC_MEMORY], n_loc_kind[DWEXPR_LOC_REGISTER],
           n_loc_kind[DWEXPR_LOC_IMPLICIT], n_loc_kind[DWEXPR_LOC_IMPLICIT_POINTER],
           n_loc_kind[DWEXPR_LOC_COMPOSITE], n_loc_kind[DWEXPR_LOC_UNDEFINED], n_multi);
    /* the generator reaches successful evaluations of every kind, and
     * errors of the classes the fast paths must report alike */
    TAP_OK(n_value >= MIN_KIND, "at least %lu value results (%lu)", MIN_KIND, n_value);
    TAP_OK(n_loc_kind[DWEXPR_LOC_MEMORY] >= MIN_KIND, "at least %lu memory locations (%lu)", MIN_KIND,
           n_loc_kind[DWEXPR_LOC_MEMORY]);
    TAP_OK(n_loc_kind[DWEXPR_LOC_REGISTER] >= MIN_KIND, "at least %lu register locations (%lu)", MIN_KIND,
           n_loc_kind[DWEXPR_LOC_REGISTER]);
    TAP_OK(n_loc_kind[DWEXPR_LOC_IMPLICIT] >= MIN_KIND, "at least %lu implicit locations (%lu)", MIN_KIND,
           n_loc_kind[DWEXPR_LOC_IMPLICIT]);
    TAP_OK(n_loc_kind[DWEXPR_LOC_COMPOSITE] >= MIN_KIND, "at least %lu composite locations (%lu)", MIN_KIND,
           n_loc_kind[DWEXPR_LOC_COMPOSITE]);
    /* about 0.35% of the cases give one (214 of the default 60,000):
     * the bound of 1/300 of them, until round 8, failed for some
     * FASTPATH_SEED sweeps (seed 5, 200,000 cases: 642 against 666);
     * 1/600 still fails a generator that makes none */
    TAP_OK(n_loc_kind[DWEXPR_LOC_IMPLICIT_POINTER] >= MIN_KIND / 10,
           "at least %lu implicit pointer locations (%lu)", MIN_KIND / 10,
           n_loc_kind[DWEXPR_LOC_IMPLICIT_POINTER]);
    TAP_OK(n_ok >= CASES / 4u, "at least a quarter of the cases succeed (%lu)", n_ok);
#if DWX_HOST_LITTLE
    /* the tapes the comparisons ran: every kind of tape operation, in
     * dozens of programs at least (the default sweep: 7,891 tapes, the
     * rarest operation, DW_OP_reinterpret's, in 66) */
    TAP_OK(n_tape >= MIN_KIND, "at least %lu programs compiled into a tape (%lu)", MIN_KIND, n_tape);
    printf("# tapes: %lu; by code (lib/tape.c enum tape_code):", n_tape);
    for (unsigned k = 0; k < DWX_TAPE_CODES; k++)
        printf(" %lu", n_tape_code[k]);
    printf("\n");
    unsigned long fewest = ~0ul;
    unsigned fewest_code = 0;
    for (unsigned k = 0; k < DWX_TAPE_CODES; k++)
        if (n_tape_code[k] < fewest) {
            fewest = n_tape_code[k];
            fewest_code = k;
        }
    TAP_OK(fewest >= MIN_KIND / 25, "every kind of tape operation in at least %lu tapes (fewest: "
           "code %u in %lu)", MIN_KIND / 25, fewest_code, fewest);
#else
    /* built without the fast path (DWX_HOST_LITTLE 0: .ci/run's general
     * tree): no program is a fast-path candidate, so none has a tape */
    TAP_OK(n_tape == 0, "no tapes without the fast path (%lu)", n_tape);
#endif
    static const dwexpr_class need[] = {DWEXPR_CLASS_DECODE, DWEXPR_CLASS_ILL_FORMED,
                                        DWEXPR_CLASS_EVALUATION, DWEXPR_CLASS_CONTEXT,
                                        DWEXPR_CLASS_LIMIT, DWEXPR_CLASS_TARGET};
    for (size_t i = 0; i < sizeof need / sizeof need[0]; i++)
        TAP_OK(n_class[need[i]] >= MIN_KIND / 5, "at least %lu %s errors (%lu)", MIN_KIND / 5,
               dwexpr_class_name(need[i]), n_class[need[i]]);
    for (int i = 0; i < 6; i++)
        dwexpr_program_free(others[i]);
    for (int i = 0; i < 4; i++)
        dwexpr_ctx_free(hctx[i]);
    return TAP_DONE();
}
