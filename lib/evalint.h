/* lib/evalint.h: the evaluation context's layout and the helpers that
 * lib/ctx.c, lib/value.c, lib/loc.c and lib/eval.c share (not installed). */
#ifndef DWX_EVALINT_H
#define DWX_EVALINT_H

#include "dwx.h"

/* A stack entry: a value or a location description (seed "DWARF
 * Operation Expressions": "Each stack entry can hold either a value or a
 * location description"). A single-place location keeps its SLD inline;
 * use dwx_slds() to reach the places. */
typedef struct dwx_entry {
    uint8_t is_loc;
    uint32_t n;              /* places, when is_loc */
    dwexpr_sld *many;        /* n > 1: arena array */
    union {
        dwexpr_value v;
        dwexpr_sld one;
    } u;
} dwx_entry;

static inline const dwexpr_sld *dwx_slds(const dwx_entry *e)
{
    return e->n == 1 ? &e->u.one : e->many;
}

/* Arena chunk: kept across evaluations, reset in between. */
typedef struct dwx_chunk {
    struct dwx_chunk *next;
    size_t size, used;
    _Alignas(16) unsigned char data[];
} dwx_chunk;

/* What one (possibly nested) expression is evaluated in. The thread and
 * lane never change inside one dwexpr_eval call; frame, unit, pc and
 * object do (DW_OP_call*, DW_OP_entry_value, location lists). */
typedef struct dwx_env {
    dwexpr_unit unit;
    uint32_t frame;
    bool has_pc;
    uint64_t pc;
    const dwexpr_loc *object;
} dwx_env;

/* Expressions shorter than this many bytes decode into the context itself. */
#define DWX_SMALL_PROGRAM 32

/* The members up to err are zeroed by dwexpr_ctx_init_static; from err
 * on each is set there explicitly or written before it is read (the
 * scratch: most of the context's bytes, not worth zeroing for every
 * context a decode-time fold makes). */
struct dwexpr_ctx {
    dwexpr_limits lim;
    dwx_entry *stack;        /* lim.stack entries */
    uint32_t sp;             /* entries in use */
    dwx_chunk *head, *cur;
    size_t arena_total;      /* bytes in chunks */
    bool arena_used;         /* dwx_alloc was called since the last reset */
    bool fixed;              /* no malloc: dwexpr_ctx_init_static */
    bool heap;               /* ctx itself was malloc'd */
    uint64_t steps;
    uint32_t depth;          /* nesting of calls, entry values, ... */
    uint32_t fold_room;      /* programs of at most this many operations may
                                use their folded result (lib/fold.c): the
                                smallest of the step, stack and part limits,
                                0 when the scratch is a small fixed buffer */
    uint64_t fold_have;      /* what an unbound evaluation gives a fold
                                (dwx_folded.req) before it looks at the
                                target and parameters: every address size,
                                DWX_REQ_ROOM when fold_room allows it */
    const dwexpr_target *t;  /* the caller's callbacks (or t_copy) */
    void *user;
    const dwexpr_eval_params *p; /* the caller's, valid during dwexpr_eval */
    uint8_t addr_size;       /* default address space size of the top-level unit */
    dwexpr_sld *result_slot; /* where dwexpr_eval_lanes wants the result's place
                                (NULL: result_one) */
    /* reg_size answers of targets with DWEXPR_TARGET_REG_SIZES_FIXED
     * (dwx_reg_memo): bit R of reg_known says reg_bytes[R] is reg_fn's
     * answer for register R (R < 64) */
    dwexpr_status (*reg_fn)(void *user, uint32_t regno, uint32_t *bytes);
    uint64_t reg_known;
    uint64_t reg_have;       /* DWX_REQ_REG8(R) for the registers R < 32 that
                                reg_fn says hold 8 bytes or more (what
                                guarded folds need, dwexpr_eval) */
    /* ---- from here on: not zeroed by dwexpr_ctx_init_static ---- */
    dwexpr_error err;        /* init_static sets all but the message's tail */
    dwexpr_target t_copy;    /* a shorter (older) caller's struct, zero-extended
                                (dwx_set_target fills all of it) */
    dwexpr_sld result_one;   /* the result's place when it has one (written
                                before it is handed out) */
    dwexpr_result result;    /* what dwexpr_eval_bound_ref hands out when the result
                                is not a fold's (written before it is handed out) */
    uint64_t result_bytes;   /* the implicit storage of result_one when the fast path
                                makes it from a value (lib/fast.c hand_out); the
                                same lifetime as result_one, no scratch taken */
    uint32_t reg_bytes[64];  /* see reg_known (read only where its bit is set) */
    /* dwexpr_ctx_bind: one frame's target, user and parameters, checked
     * once for the evaluations of dwexpr_eval_bound / dwexpr_eval_bytes_bound
     * (which pass &bind.p as their parameters: that is how the helpers
     * below know an evaluation is a bound one). fold, reg_direct and
     * fast are set only by a binding (each implies one); with t they are
     * all dwexpr_ctx_init_static zeroes: the rest is read only while
     * bound. */
    struct {
        const dwexpr_target *t;  /* NULL: not bound; the caller's or &t_copy */
        void *user;
        dwexpr_eval_params p;    /* the caller's, copied */
        uint16_t plain;          /* bit A: space 0 is the plain one for A-byte addresses */
        uint16_t fold;           /* bit A: folds of A-byte units may be handed out
                                    (fold_usable but the guards, the need) */
        bool reg_direct;         /* reg_direct_ok of t and p */
        bool fast;               /* fast_ok of t and p */
        uint64_t have;           /* what folds may need (DWX_REQ_* in lib/dwx.h):
                                    the fold bits, DWX_REQ_ROOM when the context's
                                    fold_room allows it, DWX_REQ_REG8(R) once
                                    register R is known to hold 8 bytes (all of
                                    them for a target without reg_size) */
        uint32_t reg_known;      /* bit R: reg_bytes[R] is t's reg_size of register R */
        uint32_t reg_bytes[32];  /* the answers, asked once per binding (R < 32) */
        dwexpr_target t_copy;    /* a shorter (older) caller's struct, zero-extended */
    } bind;
    dwx_insn small_code[DWX_SMALL_PROGRAM + 1]; /* dwexpr_eval_bytes of short expressions
                                                   (scratch: last, not zeroed by
                                                   dwexpr_ctx_init_static) */
};

/* Zero a place field by field: a memset of it where its alignment is not
 * known may become a string instruction (rep stos), which costs more than
 * these stores on the short objects every evaluation writes. */
static inline void dwx_sld_clear(dwexpr_sld *s)
{
    s->kind = 0;
    s->bit = 0;
    s->ctx = 0;
    s->aspace = 0;
    s->byte_offset = 0;
    s->thread = 0;
    s->lane = 0;
    s->frame = 0;
    s->u.ptr.die = 0;
    s->u.ptr.disp = 0;
    s->u.ptr.bits = 0;
}

/* Zero a value (compiled to vector stores). */
static inline void dwx_value_clear(dwexpr_value *v)
{
    memset(v, 0, sizeof *v);
}

/* Scratch allocation from the context arena, 16-byte aligned, zeroed is
 * NOT guaranteed. NULL when the arena limit is hit (E_NOSPACE). */
DWX_HIDDEN void *dwx_alloc_slow(dwexpr_ctx *ctx, size_t size);
static inline void *dwx_alloc(dwexpr_ctx *ctx, size_t size)
{
    /* the common case inline: a small request the current chunk holds */
    dwx_chunk *c = ctx->cur;
    if (DWX_LIKELY(c != NULL && size - 1 < 4096)) {
        size_t n = (size + 15) & ~(size_t)15;
        if (c->size - c->used >= n) {
            void *p = c->data + c->used;
            c->used += n;
            ctx->arena_used = true;
            return p;
        }
    }
    return dwx_alloc_slow(ctx, size);
}
DWX_HIDDEN void *dwx_alloc_cb(void *ctx, size_t size);
/* Make the whole arena free again (chunks are kept). Cheap when nothing
 * was allocated since the last reset. */
static inline void dwx_arena_reset(dwexpr_ctx *ctx)
{
    if (!ctx->arena_used)
        return;
    ctx->arena_used = false;
    for (dwx_chunk *c = ctx->head; c; c = c->next)
        c->used = 0;
    ctx->cur = ctx->head;
}
/* A point in the arena to come back to (dwexpr_eval_lanes: a failing
 * lane leaves nothing behind). Chunks after the current one are unused. */
typedef struct dwx_mark {
    dwx_chunk *chunk; /* ctx->cur then; NULL: nothing allocated yet */
    size_t used;
} dwx_mark;
static inline dwx_mark dwx_arena_mark(const dwexpr_ctx *ctx)
{
    dwx_mark m = {ctx->cur, ctx->cur ? ctx->cur->used : 0};
    return m;
}
static inline void dwx_arena_rollback(dwexpr_ctx *ctx, dwx_mark m)
{
    dwx_chunk *c = m.chunk ? m.chunk : ctx->head;
    if (c)
        c->used = m.chunk ? m.used : 0;
    for (dwx_chunk *n = c ? c->next : NULL; n; n = n->next)
        n->used = 0;
    ctx->cur = c;
}
/* Copy the caller's target (its own `size` bytes at most). */
DWX_HIDDEN void dwx_set_target(dwexpr_ctx *ctx, const dwexpr_target *t, void *user);
/* T itself when it is a current-size struct, else COPY filled with what
 * T has (NULL: nothing) and the rest zero: the target an evaluation uses. */
DWX_HIDDEN const dwexpr_target *dwx_target_in_place(const dwexpr_target *t,
                                                    dwexpr_target *copy);
/* The same, with the common case (a current-size struct, used in place) inline. */
static inline void dwx_use_target(dwexpr_ctx *ctx, const dwexpr_target *t, void *user)
{
    if (DWX_LIKELY(t && t->size >= sizeof(dwexpr_target))) {
        ctx->user = user;
        ctx->t = t;
    } else {
        dwx_set_target(ctx, t, user);
    }
}

/* Whether target T's default address space is the one a target without
 * address-space facts has (seed "DWARF Address Spaces"): no aspace_info,
 * or aspace_info(0) answers ASZ-byte addresses (0 or more than 64 bits
 * read as 64, as dwx_aspace reads them) that are neither per thread nor
 * per lane, or E_NOT_FOUND (the default). Then every memory rule of space
 * 0 is the same as without the callback, and the fast path and the folds
 * may serve the target (every AMDGPU target describes its spaces). Asks
 * what dwx_aspace asks, with the same arguments. */
DWX_HIDDEN unsigned dwx_default_space_sizes(const dwexpr_target *t, void *user);
enum { DWX_ADDR_SIZES = (1u << 1) | (1u << 2) | (1u << 4) | (1u << 8) };
/* For an evaluation with target T, USER and parameters P on CTX: a bound
 * evaluation (P is the binding's copy) takes the answer dwexpr_ctx_bind
 * got (bit ASZ of bind.plain); any other asks. */
static inline bool dwx_default_space_plain(const dwexpr_ctx *ctx, const dwexpr_target *t,
                                           void *user, const dwexpr_eval_params *p,
                                           unsigned asz)
{
    if (!t->aspace_info)
        return true;
    if (p == &ctx->bind.p)
        return (ctx->bind.plain >> asz) & 1;
    return (dwx_default_space_sizes(t, user) >> asz) & 1; /* lib/loc.c */
}

/* dwx_target_reg_size's miss (lib/eval.c): T asked, the answer
 * remembered when T promises fixed register sizes. */
DWX_HIDDEN dwexpr_status dwx_target_reg_size_miss(dwexpr_ctx *ctx, const dwexpr_target *t,
                                                  void *user, uint32_t r, uint32_t *bytes);

/* Whether the context remembers T's reg_size answer for register R < 64
 * (T promises fixed register sizes, DWEXPR_TARGET_REG_SIZES_FIXED, and its
 * reg_size function is the one that answered); if so, in *BYTES. */
static inline bool dwx_reg_memo(const dwexpr_ctx *ctx, const dwexpr_target *t, uint32_t r,
                                uint32_t *bytes)
{
    if (r < 64 && ((ctx->reg_known >> r) & 1) && t->reg_size == ctx->reg_fn &&
        (t->flags & DWEXPR_TARGET_REG_SIZES_FIXED)) {
        *bytes = ctx->reg_bytes[r];
        return true;
    }
    return false;
}

/* T's reg_size of register R (T must have the callback) for USER: from
 * the context's memory when T promises fixed register sizes
 * (DWEXPR_TARGET_REG_SIZES_FIXED) and its reg_size function is the one
 * that answered; else asked. */
static inline dwexpr_status dwx_target_reg_size(dwexpr_ctx *ctx, const dwexpr_target *t,
                                                void *user, uint32_t r, uint32_t *bytes)
{
    return dwx_reg_memo(ctx, t, r, bytes) ? DWEXPR_OK
                                          : dwx_target_reg_size_miss(ctx, t, user, r, bytes);
}

/* The bound target's reg_size of register R, asked, and remembered when
 * it answers (lib/eval.c; out of line: the callers inline the lookup). */
DWX_HIDDEN dwexpr_status dwx_bound_reg_size_ask(dwexpr_ctx *ctx, uint32_t r, uint32_t *bytes);

/* The bound target's reg_size of register R (it must have the callback),
 * from the binding's memory of the answers for registers 0..31; asked
 * and (when successful) remembered the first time. */
static inline dwexpr_status dwx_bound_reg_size(dwexpr_ctx *ctx, uint32_t r, uint32_t *bytes)
{
    if (r < 32 && ((ctx->bind.reg_known >> r) & 1)) {
        *bytes = ctx->bind.reg_bytes[r];
        return DWEXPR_OK;
    }
    return dwx_bound_reg_size_ask(ctx, r, bytes);
}

/* reg_size of register R through ctx->t (it must have the callback) for
 * an evaluation with parameters P: a bound one (P is the binding's copy)
 * by dwx_bound_reg_size. */
static inline dwexpr_status dwx_reg_size(dwexpr_ctx *ctx, const dwexpr_eval_params *p,
                                         uint32_t r, uint32_t *bytes)
{
    if (dwx_reg_memo(ctx, ctx->t, r, bytes))
        return DWEXPR_OK;
    return p == &ctx->bind.p ? dwx_bound_reg_size(ctx, r, bytes)
                             : dwx_target_reg_size_miss(ctx, ctx->t, ctx->user, r, bytes);
}

/* The fast path (lib/fast.c): evaluate the bytes of a straight-line
 * expression of the commonest operations in one pass, for a
 * little-endian unit, parameters ctx->p (top frame, no initial stack, no
 * trace, result kind unspecified) and a current-size target (it checks
 * dwx_default_space_plain itself), all set up on CTX (ctx->t, ctx->user,
 * ctx->p, a reset arena and error record, depth 0, an empty stack: what
 * lib/eval.c's direct_begin or a new context leaves). It fills *OUT
 * exactly as the general path would, or declines (anything else, or any
 * failure) having handed out nothing.
 *
 * dwx_fast_fold: PROG's bytes; true when it gave the result (lib/fold.c). */
DWX_HIDDEN bool dwx_fast_fold(dwexpr_ctx *ctx, const dwexpr_program *prog, dwexpr_result *out);

/* dwexpr_eval_bytes from the fast path of UNIT normalized
 * (dwx_unit_normalize), on CTX set up as for it, else
 * dwx_eval_bytes_general.
 * UNIT must pass dwx_unit_fine (lib/dwx.h), be little-endian, and LEN be at
 * most UINT32_MAX. */
DWX_HIDDEN dwexpr_status dwx_fast_eval_bytes(dwexpr_ctx *ctx, const uint8_t *bytes, size_t len,
                                             const dwexpr_unit *unit, dwexpr_result *out);

/* dwexpr_eval_bytes by the general path (lib/eval.c), with the target,
 * user and parameters in ctx->t, ctx->user and ctx->p. */
DWX_HIDDEN dwexpr_status dwx_eval_bytes_general(dwexpr_ctx *ctx, const uint8_t *bytes, size_t len,
                                                const dwexpr_unit *unit, dwexpr_result *out);

/* The one-shot decode of dwexpr_eval_bytes's general path: LEN bytes at
 * BYTES of UNIT (normalized here) into *PROG, its insns in
 * ctx->small_code (fewer than DWX_SMALL_PROGRAM bytes) or the scratch;
 * a failure (ill-formed bytes, no scratch) recorded on CTX. The fast path
 * decodes with it too, where it must know what the decoder says of bytes
 * it does not run (forward branches). */
DWX_HIDDEN dwexpr_status dwx_decode_oneshot(dwexpr_ctx *ctx, const uint8_t *bytes, size_t len,
                                            const dwexpr_unit *unit, dwexpr_program *prog);

/* The rest of dwexpr_eval_bytes's general path after dwx_decode_oneshot
 * gave PROG, with nothing else put in the scratch since (the target,
 * user and parameters in ctx->t, ctx->user and ctx->p): what
 * dwx_eval_bytes_general gives, without decoding again. */
DWX_HIDDEN dwexpr_status dwx_eval_oneshot_decoded(dwexpr_ctx *ctx, const dwexpr_program *prog,
                                                  dwexpr_result *out);

/* dwexpr_eval of PROG (fast, little-endian: dwx_fast_candidate) from the
 * fast path, on CTX set up as for it: a DWX_SHAPE_ONE / DWX_SHAPE_ONE_SV
 * program from its decoded producer, any other over its bytes; else
 * dwx_eval_other. */
DWX_HIDDEN dwexpr_status dwx_fast_prog(dwexpr_ctx *ctx, const dwexpr_program *prog,
                                       dwexpr_result *out);

/* dwx_fast_prog of a DWX_SHAPE_ONE / DWX_SHAPE_ONE_SV program (fast):
 * its producer kind's copy of the fast path (prog->one, lib/fast.c), by
 * one indexed call. */
typedef dwexpr_status (*dwx_one_fn)(dwexpr_ctx *, const dwexpr_program *, dwexpr_result *);
DWX_HIDDEN extern const dwx_one_fn dwx_one_fns[];
static inline dwexpr_status dwx_fast_one(dwexpr_ctx *ctx, const dwexpr_program *prog,
                                         dwexpr_result *out)
{
    return dwx_one_fns[prog->one](ctx, prog, out);
}

/* dwexpr_eval of PROG by a shape's direct path, else the general loop
 * (lib/eval.c), with the target, user and parameters in ctx->t,
 * ctx->user and ctx->p. */
DWX_HIDDEN dwexpr_status dwx_eval_other(dwexpr_ctx *ctx, const dwexpr_program *prog,
                                        dwexpr_result *out);

/* Record an error on CTX (offset -1, no operation); returns S. */
DWX_HIDDEN dwexpr_status dwx_ctx_fail(dwexpr_ctx *ctx, dwexpr_status s, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* ---- values (lib/value.c) ---- */
/* The generic type of unit U (seed "DWARF Expression Value"). */
static inline dwexpr_type dwx_generic_type(const dwexpr_unit *u)
{
    dwexpr_type t;
    memset(&t, 0, sizeof t);
    t.bits = 8u * u->addr_size;
    t.encoding = DWEXPR_ATE_GENERIC;
    t.lanes = 1;
    return t;
}
DWX_HIDDEN bool dwx_type_equal(const dwexpr_type *a, const dwexpr_type *b);
/* The low BITS bits set (all for 64 and more). */
static inline uint64_t dwx_mask(uint32_t bits)
{
    return bits >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << bits) - 1);
}
/* V (N bits, 1..64) read as signed. */
static inline int64_t dwx_sext(uint64_t v, uint32_t n)
{
    if (n >= 64)
        return (int64_t)v;
    uint64_t sign = (uint64_t)1 << (n - 1);
    v &= dwx_mask(n);
    return (int64_t)((v ^ sign) - sign);
}

/* 128-bit integers where the compiler has them (gcc and clang on 64-bit
 * hosts): DW_OP_convert to and from, and arithmetic on, integral base
 * types of 65 to 128 bits (__int128 variables). Elsewhere such values are
 * "not supported" errors (and with -DDWX_NO_INT128, which tests that). */
#if defined(__SIZEOF_INT128__) && !defined(DWX_NO_INT128)
#  define DWX_HAVE_INT128 1
__extension__ typedef unsigned __int128 dwx_u128;
__extension__ typedef __int128 dwx_i128;
/* The low BITS bits set (all for 128 and more). */
static inline dwx_u128 dwx_mask128(uint32_t bits)
{
    return bits >= 128 ? ~(dwx_u128)0 : (((dwx_u128)1 << bits) - 1);
}
/* V (N bits, 1..128) read as signed. */
static inline dwx_i128 dwx_sext128(dwx_u128 v, uint32_t n)
{
    if (n >= 128)
        return (dwx_i128)v;
    const dwx_u128 sign = (dwx_u128)1 << (n - 1);
    v &= dwx_mask128(n);
    return (dwx_i128)((v ^ sign) - sign);
}
#endif

/* The integer rules of DWARF 5 2.5.1.4/2.5.1.5 on N-bit operands: the one
 * definition dwx_value_binary and the fast path (lib/fast.c) share, as
 * dwx_int_binary (N 1..64, words T = uint64_t) and dwx_int128_binary (N
 * 1..128, DWX_HAVE_INT128). GENERIC: the generic type; SGN: a signed
 * type. Comparisons give 0/1 and compare generic operands as signed; div
 * is signed for generic and signed operands (MIN / -1 wraps), mod is
 * unsigned for generic ones (as GDB) and floored for signed ones; a shift
 * count >= N shifts everything out (0, or all sign bits for shra of a
 * negative generic or signed operand; shra of an unsigned type shifts
 * zeros in, as shr). *OUT
 * gets the result masked to N bits. Returns DWEXPR_OK, DWEXPR_E_DIV_ZERO,
 * or DWEXPR_E_USAGE when X is not a binary operation. Always inline (gcc
 * once called it from the fast loop: warm +1.5 instructions). */
#define DWX_INT_BINARY(name, T, ST, mask, sext)                                            \
    static DWX_ALWAYS_INLINE dwexpr_status name(unsigned x, T ua, T ub, uint32_t n,          \
                                                bool generic, bool sgn, T *out)             \
    {                                                                                      \
        const T m = mask(n);                                                               \
        ua &= m;                                                                           \
        ub &= m;                                                                           \
        const ST sa = sext(ua, n), sb = sext(ub, n);                                       \
        const bool s = generic || sgn;                                                     \
        T ur;                                                                              \
        switch (x) {                                                                       \
        case DWEXPR_OP_eq: ur = ua == ub; break;                                           \
        case DWEXPR_OP_ne: ur = ua != ub; break;                                           \
        case DWEXPR_OP_lt: ur = s ? sa < sb : ua < ub; break;                              \
        case DWEXPR_OP_le: ur = s ? sa <= sb : ua <= ub; break;                            \
        case DWEXPR_OP_gt: ur = s ? sa > sb : ua > ub; break;                              \
        case DWEXPR_OP_ge: ur = s ? sa >= sb : ua >= ub; break;                            \
        case DWEXPR_OP_plus: ur = ua + ub; break;                                          \
        case DWEXPR_OP_minus: ur = ua - ub; break;                                         \
        case DWEXPR_OP_mul: ur = ua * ub; break;                                           \
        case DWEXPR_OP_and: ur = ua & ub; break;                                           \
        case DWEXPR_OP_or: ur = ua | ub; break;                                            \
        case DWEXPR_OP_xor: ur = ua ^ ub; break;                                           \
        case DWEXPR_OP_div:                                                                \
            if (ub == 0)                                                                   \
                return DWEXPR_E_DIV_ZERO;                                                  \
            if (s)                                                                         \
                ur = sb == -1 ? (T)0 - ua : (T)(sa / sb);                                  \
            else                                                                           \
                ur = ua / ub;                                                              \
            break;                                                                         \
        case DWEXPR_OP_mod:                                                                \
            if (ub == 0)                                                                   \
                return DWEXPR_E_DIV_ZERO;                                                  \
            if (sgn) {                                                                     \
                ST rem = sb == -1 ? 0 : sa % sb;                                           \
                if (rem != 0 && ((rem < 0) != (sb < 0)))                                   \
                    rem += sb;                                                             \
                ur = (T)rem;                                                               \
            } else {                                                                       \
                ur = ua % ub;                                                              \
            }                                                                              \
            break;                                                                         \
        case DWEXPR_OP_shl:                                                                \
        case DWEXPR_OP_shr:                                                                \
        case DWEXPR_OP_shra: {                                                             \
            /* shra keeps the sign (DWARF 5 2.5.1.4): a value of an                        \
             * unsigned type has none, its top bit is magnitude */                         \
            const bool neg = x == DWEXPR_OP_shra && s && sa < 0;                           \
            if (ub >= n)                                                                   \
                ur = neg ? m : 0;                                                          \
            else if (x == DWEXPR_OP_shl)                                                   \
                ur = ua << ub;                                                             \
            else if (neg)                                                                  \
                ur = ~((~(T)sa) >> ub);                                                    \
            else                                                                           \
                ur = ua >> ub;                                                             \
            break;                                                                         \
        }                                                                                  \
        default:                                                                           \
            return DWEXPR_E_USAGE;                                                         \
        }                                                                                  \
        *out = ur & m;                                                                     \
        return DWEXPR_OK;                                                                  \
    }
DWX_INT_BINARY(dwx_int_binary, uint64_t, int64_t, dwx_mask, dwx_sext)
#if defined(DWX_HAVE_INT128)
DWX_INT_BINARY(dwx_int128_binary, dwx_u128, dwx_i128, dwx_mask128, dwx_sext128)
#endif
#undef DWX_INT_BINARY

/* Binary arithmetic/logical/relational operation X (an opid) on A, B
 * (B was on top); result in *R. */
DWX_HIDDEN dwexpr_status dwx_value_binary(dwexpr_ctx *ctx, const dwexpr_unit *u, int x,
                                          const dwexpr_value *a, const dwexpr_value *b,
                                          dwexpr_value *r);
/* Unary abs, neg, not. */
DWX_HIDDEN dwexpr_status dwx_value_unary(dwexpr_ctx *ctx, int x, const dwexpr_value *a,
                                         dwexpr_value *r);
/* DW_OP_convert / DW_OP_reinterpret to T. */
DWX_HIDDEN dwexpr_status dwx_value_convert(dwexpr_ctx *ctx, const dwexpr_value *a,
                                           const dwexpr_type *t, bool reinterpret,
                                           dwexpr_value *r);
/* A value of type T from the NBITS (= T's total size) bits in BUF (least
 * significant bit first). Wide values are copied into the arena. */
DWX_HIDDEN dwexpr_status dwx_value_from_bits(dwexpr_ctx *ctx, const dwexpr_unit *u,
                                             const dwexpr_type *t, const uint8_t *buf,
                                             dwexpr_value *r);
/* The storage bytes of V (ceil(bits/8)) into OUT, in the target's byte
 * order for V's type. */
DWX_HIDDEN void dwx_value_to_bytes(const dwexpr_unit *u, const dwexpr_value *v, uint8_t *out);
/* Whether values of T are stored big-endian. */
static inline bool dwx_type_big(const dwexpr_unit *u, const dwexpr_type *t)
{
    return t->endian == DW_END_big || (t->endian != DW_END_little && u->big_endian);
}
/* Total bit size of a value's type (bits * lanes). */
static inline uint64_t dwx_value_bits(const dwexpr_value *v)
{
    return (uint64_t)v->type.bits * (v->type.lanes ? v->type.lanes : 1);
}

/* Whether ENC is an integral encoding (seed "DWARF Expression Value"):
 * dwexpr_type_is_integral's rule. DW_ATE_address is taken as integral
 * (unsigned) so typed addresses can be used as addresses; DW_ATE_UTF
 * characters are unsigned integers; vendor encodings are integral. */
static inline bool dwx_encoding_integral(uint32_t enc)
{
    switch (enc) {
    case DWEXPR_ATE_GENERIC:
    case DW_ATE_address:
    case DW_ATE_boolean:
    case DW_ATE_signed:
    case DW_ATE_signed_char:
    case DW_ATE_unsigned:
    case DW_ATE_unsigned_char:
    case DW_ATE_UTF:
        return true;
    default:
        return enc >= DW_ATE_lo_user && enc <= DW_ATE_hi_user;
    }
}

/* DW_OP_convert between integral types (DWARF 5 2.5.1.6), the case the
 * commonest conversions take: V, a value of FROM_BITS (1..64) bits of a
 * signed (FROM_SIGNED) or other integral type, converted to T, one lane
 * of an integral type of 1..64 bits: extended by its signedness (the
 * generic type is unsigned here, as GDB's address type), cut to T's
 * bits. Fills *R as dwx_value_convert does (true); false, R untouched,
 * for any other T (dwx_value_convert answers). Inline: the fast loop and
 * the tape call it before dwx_value_convert, which calls it first. */
static inline bool dwx_convert_int_bits(uint64_t v, uint32_t from_bits, bool from_signed,
                                        const dwexpr_type *t, dwexpr_value *r)
{
    if (from_bits - 1 >= 64 || t->bits - 1 >= 64 || t->lanes > 1 ||
        !dwx_encoding_integral(t->encoding))
        return false;
    v &= dwx_mask(from_bits);
    if (from_signed)
        v = (uint64_t)dwx_sext(v, from_bits);
    memset(r, 0, sizeof *r);
    r->type = *t;
    r->bits = v & dwx_mask(t->bits);
    return true;
}

/* dwx_convert_int_bits of value A: one lane of an integral type of 1..64
 * bits, not wide, not an implicit pointer; false for any other A. */
static inline bool dwx_convert_int(const dwexpr_value *a, const dwexpr_type *t, dwexpr_value *r)
{
    const dwexpr_type *f = &a->type;
    return !a->is_implicit_pointer && !a->wide && f->lanes <= 1 &&
           dwx_encoding_integral(f->encoding) &&
           dwx_convert_int_bits(a->bits, f->bits,
                                f->encoding == DW_ATE_signed || f->encoding == DW_ATE_signed_char,
                                t, r);
}

/* ---- locations (lib/loc.c) ---- */
/* Add DELTA bits to the offset of S (seed "General Location Description
 * Operations"): E_BAD_OFFSET when it leaves [0, size). */
DWX_HIDDEN dwexpr_status dwx_sld_add_offset(dwexpr_ctx *ctx, dwexpr_sld *s, int64_t delta_bytes,
                                            int64_t delta_bits);
/* Check that NBITS bits from S's offset lie inside its storage. */
DWX_HIDDEN dwexpr_status dwx_sld_check_range(dwexpr_ctx *ctx, const dwexpr_sld *s,
                                             uint64_t nbits);
/* Read NBITS bits starting EXTRA bits after the start of LOC into DST at
 * bit DPOS. MASK as in dwexpr_loc_read (may be NULL). */
DWX_HIDDEN dwexpr_status dwx_read_loc(dwexpr_ctx *ctx, const dwexpr_loc *loc, uint64_t extra,
                                      uint64_t nbits, uint8_t *dst, uint64_t dpos, uint8_t *mask);
DWX_HIDDEN dwexpr_status dwx_write_loc(dwexpr_ctx *ctx, const dwexpr_loc *loc, uint64_t extra,
                                       uint64_t nbits, const uint8_t *src, uint64_t spos);
/* Copy NBITS bits, least significant first. */
DWX_HIDDEN void dwx_copy_bits(uint8_t *dst, uint64_t dpos, const uint8_t *src, uint64_t spos,
                              uint64_t nbits);
/* Address-space facts for AS (space 0 defaults to the unit's address size). */
DWX_HIDDEN dwexpr_status dwx_aspace(dwexpr_ctx *ctx, const dwexpr_unit *u, uint32_t as,
                                    dwexpr_aspace_info *out);
/* Composite nesting depth of a location (0 for none). */
DWX_HIDDEN uint32_t dwx_loc_depth(const dwexpr_sld *slds, uint32_t n);

#endif
