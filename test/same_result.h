/* test/same_result.h: deep comparison of evaluation outcomes for the
 * tests that compare the evaluator's paths with each other (test_shapes,
 * test_fastpath): every field of a result (places, composite parts with
 * their capacity, depth and completeness, implicit bytes, value types,
 * wide bytes, implicit pointer values) and of an error record. */
#ifndef DWEXPR_TEST_SAME_RESULT_H
#define DWEXPR_TEST_SAME_RESULT_H

#include <string.h>
#include "dwexpr.h"

static int same_loc(const dwexpr_loc *a, const dwexpr_loc *b, int depth);

static int same_sld(const dwexpr_sld *x, const dwexpr_sld *y, int depth)
{
    if (x->kind != y->kind || x->bit != y->bit || x->ctx != y->ctx || x->aspace != y->aspace ||
        x->byte_offset != y->byte_offset || x->thread != y->thread || x->lane != y->lane ||
        x->frame != y->frame)
        return 0;
    switch (x->kind) {
    case DWEXPR_LOC_REGISTER: return x->u.regno == y->u.regno;
    case DWEXPR_LOC_IMPLICIT:
        return x->u.imp.bits == y->u.imp.bits &&
               (x->u.imp.bits == 0 ||
                memcmp(x->u.imp.data, y->u.imp.data, (size_t)(x->u.imp.bits + 7) / 8) == 0);
    case DWEXPR_LOC_IMPLICIT_POINTER:
        return x->u.ptr.die == y->u.ptr.die && x->u.ptr.disp == y->u.ptr.disp &&
               x->u.ptr.bits == y->u.ptr.bits;
    case DWEXPR_LOC_COMPOSITE: {
        const dwexpr_composite *c = x->u.comp, *d = y->u.comp;
        if (c->count != d->count || c->cap != d->cap || c->complete != d->complete ||
            c->depth != d->depth || c->bits != d->bits || depth > 16)
            return 0;
        for (uint32_t i = 0; i < c->count; i++)
            if (c->parts[i].bit_size != d->parts[i].bit_size ||
                !same_loc(&c->parts[i].loc, &d->parts[i].loc, depth + 1))
                return 0;
        return 1;
    }
    default: return 1;
    }
}

static int same_loc(const dwexpr_loc *a, const dwexpr_loc *b, int depth)
{
    if (a->count != b->count)
        return 0;
    for (uint32_t i = 0; i < a->count; i++)
        if (!same_sld(&a->slds[i], &b->slds[i], depth))
            return 0;
    return 1;
}

static int same_value(const dwexpr_value *v, const dwexpr_value *w)
{
    if (v->type.die != w->type.die || v->type.bits != w->type.bits ||
        v->type.encoding != w->type.encoding || v->type.lanes != w->type.lanes ||
        v->type.endian != w->type.endian || v->is_implicit_pointer != w->is_implicit_pointer)
        return 0;
    if (v->is_implicit_pointer)
        return v->ipv_aspace == w->ipv_aspace && v->ipv_die == w->ipv_die &&
               v->ipv_disp == w->ipv_disp;
    if (v->bits != w->bits || !v->wide != !w->wide)
        return 0;
    uint64_t total = (uint64_t)v->type.bits * (v->type.lanes ? v->type.lanes : 1);
    if (v->wide && memcmp(v->wide, w->wide, (size_t)(total + 7) / 8) != 0)
        return 0;
    return 1;
}

static int same_result(const dwexpr_result *a, const dwexpr_result *b)
{
    if (a->kind != b->kind)
        return 0;
    if (a->kind == DWEXPR_RESULT_VALUE)
        return same_value(&a->value, &b->value);
    return same_loc(&a->loc, &b->loc, 0);
}

static int same_error(const dwexpr_error *a, const dwexpr_error *b)
{
    return a->status == b->status && a->offset == b->offset && a->opcode == b->opcode &&
           ((!a->op_name && !b->op_name) ||
            (a->op_name && b->op_name && strcmp(a->op_name, b->op_name) == 0)) &&
           strcmp(a->message, b->message) == 0;
}

/* The same outcome: status, then the error record or the result. */

#endif
