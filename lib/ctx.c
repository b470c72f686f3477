/* lib/ctx.c: evaluation contexts and their scratch arena.
 * The arena grows by malloc'd chunks that are kept and reset between
 * evaluations, so a warmed-up context evaluates without allocating. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "evalint.h"

enum { CHUNK_MIN = 16384 };

/* What lib/fold.c needs of a context: see fold_room in lib/evalint.h. */
static uint32_t fold_room_of(const dwexpr_limits *l)
{
    uint64_t r = l->steps;
    if (l->stack < r)
        r = l->stack;
    if (l->parts < r)
        r = l->parts;
    return r > UINT32_MAX ? UINT32_MAX : (uint32_t)r;
}

/* CTX's fold_room (0 when its scratch is too small to hold what a fold
 * stands for: SCRATCH_OK false) and what that gives folds (fold_have). */
static void set_fold_room(dwexpr_ctx *ctx, bool scratch_ok)
{
    ctx->fold_room = scratch_ok ? fold_room_of(&ctx->lim) : 0;
    ctx->fold_have = DWX_ADDR_SIZES | (ctx->fold_room >= DWX_FOLD_ROOM ? DWX_REQ_ROOM : 0);
}

/* Fill unset limits with the defaults documented in dwexpr/eval.h. */
static dwexpr_limits limits_normalize(const dwexpr_limits *in)
{
    dwexpr_limits l;
    if (in)
        l = *in;
    else
        memset(&l, 0, sizeof l);
    if (!l.steps) l.steps = 1000000;
    if (!l.stack) l.stack = 1024;
    if (!l.calls) l.calls = 64;
    if (!l.parts) l.parts = 4096;
    if (!l.implicit_bytes) l.implicit_bytes = 65536;
    if (!l.arena_bytes) l.arena_bytes = (size_t)64 << 20;
    if (l.stack > (1u << 24)) l.stack = 1u << 24;
    return l;
}

dwexpr_status dwexpr_ctx_new(const dwexpr_limits *limits, dwexpr_ctx **out)
{
    if (!out)
        return DWEXPR_E_USAGE;
    *out = NULL;
    dwexpr_limits l = limits_normalize(limits);
    dwexpr_ctx *ctx = calloc(1, sizeof *ctx);
    if (!ctx)
        return DWEXPR_E_NOMEM;
    ctx->lim = l;
    ctx->stack = calloc(l.stack, sizeof *ctx->stack);
    if (!ctx->stack) {
        free(ctx);
        return DWEXPR_E_NOMEM;
    }
    ctx->heap = true;
    set_fold_room(ctx, l.arena_bytes >= 65536);
    ctx->err.offset = -1;
    ctx->err.opcode = -1;
    *out = ctx;
    return DWEXPR_OK;
}

void dwexpr_ctx_free(dwexpr_ctx *ctx)
{
    if (!ctx || !ctx->heap)
        return;
    dwx_chunk *c = ctx->head;
    while (c) {
        dwx_chunk *n = c->next;
        free(c);
        c = n;
    }
    free(ctx->stack);
    free(ctx);
}

dwexpr_status dwexpr_ctx_init_static(void *mem, size_t size, const dwexpr_limits *limits,
                                     dwexpr_ctx **out)
{
    if (!out || !mem || ((uintptr_t)mem & 15))
        return DWEXPR_E_USAGE;
    *out = NULL;
    dwexpr_limits l = limits_normalize(limits);
    size_t need = (sizeof(dwexpr_ctx) + 15) & ~(size_t)15;
    size_t stack_bytes = ((size_t)l.stack * sizeof(dwx_entry) + 15) & ~(size_t)15;
    if (size < need + stack_bytes + sizeof(dwx_chunk) + 256)
        return DWEXPR_E_NOSPACE;
    unsigned char *m = mem;
    dwexpr_ctx *ctx = (dwexpr_ctx *)m;
    /* all but the scratch members from err on (lib/evalint.h): those are
     * set here or written before they are read */
    _Static_assert(offsetof(dwexpr_ctx, small_code) + sizeof ctx->small_code ==
                       sizeof(dwexpr_ctx),
                   "small_code is the context's last member");
    _Static_assert(offsetof(dwexpr_ctx, err) < offsetof(dwexpr_ctx, t_copy) &&
                       offsetof(dwexpr_ctx, t_copy) < offsetof(dwexpr_ctx, result_one) &&
                       offsetof(dwexpr_ctx, result_one) < offsetof(dwexpr_ctx, result) &&
                       offsetof(dwexpr_ctx, result) < offsetof(dwexpr_ctx, result_bytes) &&
                       offsetof(dwexpr_ctx, result_bytes) < offsetof(dwexpr_ctx, bind) &&
                       offsetof(dwexpr_ctx, bind) < offsetof(dwexpr_ctx, small_code),
                   "the context's scratch members come after err");
    memset(ctx, 0, offsetof(dwexpr_ctx, err));
    ctx->err.status = DWEXPR_OK;
    ctx->err.op_name = NULL;
    ctx->err.message[0] = 0;
    /* not bound: the bound entries read only these before they know the
     * context is bound (each flag implies a binding) */
    ctx->bind.t = NULL;
    ctx->bind.fold = 0;
    ctx->bind.have = 0;
    ctx->bind.reg_direct = false;
    ctx->bind.fast = false;
    ctx->lim = l;
    ctx->stack = (dwx_entry *)(m + need);
    dwx_chunk *c = (dwx_chunk *)(m + need + stack_bytes);
    c->next = NULL;
    c->used = 0;
    c->size = size - need - stack_bytes - sizeof(dwx_chunk);
    ctx->head = ctx->cur = c;
    ctx->arena_total = c->size;
    ctx->fixed = true;
    set_fold_room(ctx, c->size >= 65536);
    ctx->err.offset = -1;
    ctx->err.opcode = -1;
    *out = ctx;
    return DWEXPR_OK;
}

const dwexpr_error *dwexpr_ctx_error(const dwexpr_ctx *ctx)
{
    static const dwexpr_error none = {DWEXPR_E_USAGE, -1, -1, NULL, "no context"};
    /* after a success only the status is written (the fast paths): the
     * record then reads as no failure */
    static const dwexpr_error fine = {DWEXPR_OK, -1, -1, NULL, ""};
    if (!ctx)
        return &none;
    return ctx->err.status == DWEXPR_OK ? &fine : &ctx->err;
}

void *dwx_alloc_slow(dwexpr_ctx *ctx, size_t size)
{
    size = (size + 15) & ~(size_t)15;
    if (size == 0)
        size = 16;
    ctx->arena_used = true;
    for (dwx_chunk *c = ctx->cur; c; c = c->next) {
        if (c->size - c->used >= size) {
            void *p = c->data + c->used;
            c->used += size;
            ctx->cur = c;
            return p;
        }
        /* A chunk too full for this request stays behind: later small
         * requests use the newer chunk (the arena is reset per evaluation). */
    }
    if (ctx->fixed)
        return NULL;
    size_t csize = size > CHUNK_MIN ? size : CHUNK_MIN;
    if (ctx->arena_total + csize > ctx->lim.arena_bytes)
        return NULL;
    dwx_chunk *c = malloc(sizeof(dwx_chunk) + csize);
    if (!c)
        return NULL;
    c->size = csize;
    c->used = size;
    c->next = NULL;
    /* Append after the last chunk so the reset walk keeps order. */
    dwx_chunk **pp = &ctx->head;
    while (*pp)
        pp = &(*pp)->next;
    *pp = c;
    ctx->cur = c;
    ctx->arena_total += csize;
    return c->data;
}

void *dwx_alloc_cb(void *ctx, size_t size)
{
    return dwx_alloc((dwexpr_ctx *)ctx, size);
}

const dwexpr_target *dwx_target_in_place(const dwexpr_target *t, dwexpr_target *copy)
{
    if (t && t->size >= sizeof(dwexpr_target))
        return t; /* the common case: used in place, nothing copied */
    /* an older caller's shorter struct (or none): its own size, the rest NULL */
    memset(copy, 0, sizeof *copy);
    if (t)
        memcpy(copy, t, t->size);
    copy->size = sizeof *copy;
    return copy;
}

void dwx_set_target(dwexpr_ctx *ctx, const dwexpr_target *t, void *user)
{
    ctx->user = user;
    ctx->t = dwx_target_in_place(t, &ctx->t_copy);
}

dwexpr_status dwx_ctx_fail(dwexpr_ctx *ctx, dwexpr_status s, const char *fmt, ...)
{
    ctx->err.status = s;
    ctx->err.offset = -1;
    ctx->err.opcode = -1;
    ctx->err.op_name = NULL;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ctx->err.message, sizeof ctx->err.message, fmt, ap);
    va_end(ap);
    return s;
}
