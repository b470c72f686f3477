/* examples/dwexpr/repl_fmt.c: the REPL's compact one-line notation of
 * values and location descriptions (repl_fmt.h shows every form). */
#include "repl_fmt.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"

void sb_printf(sbuf *b, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        size_t room = b->cap - b->len;
        va_start(ap, fmt);
        int n = vsnprintf(b->s ? b->s + b->len : NULL, room, fmt, ap);
        va_end(ap);
        if (n < 0)
            return;
        if ((size_t)n < room) {
            b->len += (size_t)n;
            return;
        }
        size_t cap = b->cap ? b->cap * 2 : 128;
        while (cap - b->len <= (size_t)n)
            cap *= 2;
        char *s = realloc(b->s, cap);
        if (!s) {
            fputs("dwexpr: out of memory\n", stderr);
            exit(2);
        }
        b->s = s;
        b->cap = cap;
    }
}

void sb_free(sbuf *b)
{
    free(b->s);
    memset(b, 0, sizeof *b);
}

const char *sb_str(const sbuf *b)
{
    return b->s ? b->s : "";
}

void fmt_size(sbuf *b, uint64_t nbits)
{
    if (nbits % 8 == 0)
        sb_printf(b, "%" PRIu64 "B", nbits / 8);
    else
        sb_printf(b, "%" PRIu64 "b", nbits);
}

/* "+4B" / "+3b" for a non-zero offset. */
static void fmt_offset(sbuf *b, uint64_t bo)
{
    if (bo) {
        sb_printf(b, "+");
        fmt_size(b, bo);
    }
}

void fmt_type(sbuf *b, const dwexpr_type *t)
{
    char buf[16];
    sb_printf(b, "%s%u", out_encoding_name(t->encoding, buf, sizeof buf), t->bits);
    if (t->lanes > 1)
        sb_printf(b, "x%u", t->lanes);
}

void fmt_value(sbuf *b, const dwexpr_value *v)
{
    uint64_t bits = (uint64_t)v->type.bits * (v->type.lanes ? v->type.lanes : 1);
    fmt_type(b, &v->type);
    if (v->is_implicit_pointer) {
        sb_printf(b, " implicit_ptr(DIE 0x%" PRIx64 "%+" PRId64 ")", v->ipv_die, v->ipv_disp);
        return;
    }
    if (bits > 64 && v->wide) {
        size_t n = (size_t)((bits + 7) / 8), i = n;
        while (i > 1 && v->wide[i - 1] == 0)
            i--;
        sb_printf(b, " 0x");
        for (bool first = true; i > 0; i--, first = false)
            sb_printf(b, first ? "%x" : "%02x", v->wide[i - 1]);
        return;
    }
    uint64_t x = v->bits;
    if (bits < 64)
        x &= ((uint64_t)1 << bits) - 1;
    sb_printf(b, " 0x%" PRIx64, x);
    unsigned n = v->type.bits;
    if (v->type.lanes > 1 || n == 0 || n > 64)
        return;
    if (v->type.encoding == DW_ATE_float && n == 32) {
        float f;
        uint32_t w = (uint32_t)x;
        memcpy(&f, &w, sizeof f);
        sb_printf(b, " (%g)", (double)f);
    } else if (v->type.encoding == DW_ATE_float && n == 64) {
        double d;
        memcpy(&d, &x, sizeof d);
        sb_printf(b, " (%g)", d);
    } else if (v->type.encoding == DW_ATE_boolean) {
        sb_printf(b, x ? " (true)" : " (false)");
    } else if (v->type.encoding == DW_ATE_float) {
        return;
    } else if ((v->type.encoding == DWEXPR_ATE_GENERIC || v->type.encoding == DW_ATE_signed ||
                v->type.encoding == DW_ATE_signed_char) && ((x >> (n - 1)) & 1)) {
        /* the generic type's sign is not fixed (seed "DWARF Expression
         * Value"): a set top bit reads as negative, the hex shows the rest */
        if (n < 64)
            x |= ~(((uint64_t)1 << n) - 1);
        sb_printf(b, " (%" PRId64 ")", (int64_t)x);
    } else {
        sb_printf(b, " (%" PRIu64 ")", x);
    }
}

void fmt_reg(sbuf *b, const dwexpr_arch *arch, uint32_t regno)
{
    const char *name = arch ? dwexpr_arch_reg_name(arch, regno) : NULL;
    if (name)
        sb_printf(b, "%s", name);
    else
        sb_printf(b, "%u", regno);
}

/* "[aspace=5,lane=3]"-style context list; ASPACE < 0: none to show. */
static void fmt_ctx(sbuf *b, const dwexpr_sld *s, int64_t aspace)
{
    bool any = false;
#define SEP() sb_printf(b, any ? "," : "["), any = true
    if (aspace > 0) {
        SEP();
        sb_printf(b, "aspace=%" PRId64, aspace);
    }
    if (s->ctx & DWEXPR_CTX_THREAD) {
        SEP();
        sb_printf(b, "thread=%" PRIu64, s->thread);
    }
    if (s->ctx & DWEXPR_CTX_LANE) {
        SEP();
        sb_printf(b, "lane=%u", s->lane);
    }
    if ((s->ctx & DWEXPR_CTX_FRAME) && s->frame) {
        SEP();
        sb_printf(b, "frame=%u", s->frame);
    }
#undef SEP
    if (any)
        sb_printf(b, "]");
}

void fmt_sld(sbuf *b, const dwexpr_arch *arch, const dwexpr_sld *s)
{
    uint64_t bo = s->byte_offset * 8 + s->bit;
    switch (s->kind) {
    case DWEXPR_LOC_MEMORY:
        sb_printf(b, "mem");
        fmt_ctx(b, s, s->aspace);
        sb_printf(b, ":0x%" PRIx64, s->byte_offset);
        if (s->bit)
            sb_printf(b, "+%ub", s->bit);
        break;
    case DWEXPR_LOC_REGISTER:
        sb_printf(b, "reg ");
        fmt_reg(b, arch, s->u.regno);
        fmt_ctx(b, s, -1);
        fmt_offset(b, bo);
        break;
    case DWEXPR_LOC_IMPLICIT: {
        size_t n = (size_t)((s->u.imp.bits + 7) / 8);
        sb_printf(b, "implicit ");
        fmt_size(b, s->u.imp.bits);
        if (n) {
            sb_printf(b, " ");
            for (size_t i = 0; i < n && i < 16; i++)
                sb_printf(b, "%02x", s->u.imp.data[i]);
            if (n > 16)
                sb_printf(b, "..");
        }
        fmt_offset(b, bo);
        break;
    }
    case DWEXPR_LOC_IMPLICIT_POINTER:
        sb_printf(b, "implicit_ptr(DIE 0x%" PRIx64 "%+" PRId64, s->u.ptr.die, s->u.ptr.disp);
        if (s->aspace)
            sb_printf(b, ",aspace=%u", s->aspace);
        sb_printf(b, ")");
        fmt_offset(b, bo);
        break;
    case DWEXPR_LOC_COMPOSITE: {
        const dwexpr_composite *c = s->u.comp;
        sb_printf(b, "composite{");
        for (uint32_t i = 0; c && i < c->count; i++) {
            if (i)
                sb_printf(b, ", ");
            fmt_size(b, c->parts[i].bit_size);
            sb_printf(b, ": ");
            fmt_loc(b, arch, &c->parts[i].loc);
        }
        if (c && !c->complete)
            sb_printf(b, c->count ? ", ...incomplete" : "...incomplete");
        sb_printf(b, "}");
        fmt_offset(b, bo);
        break;
    }
    default:
        sb_printf(b, "undef");
        break;
    }
}

void fmt_loc(sbuf *b, const dwexpr_arch *arch, const dwexpr_loc *l)
{
    if (l->count == 1) {
        fmt_sld(b, arch, &l->slds[0]);
        return;
    }
    sb_printf(b, "(");
    for (uint32_t i = 0; i < l->count; i++) {
        if (i)
            sb_printf(b, " | ");
        fmt_sld(b, arch, &l->slds[i]);
    }
    sb_printf(b, ")");
}

void fmt_result(sbuf *b, const dwexpr_arch *arch, const dwexpr_result *r)
{
    if (r->kind == DWEXPR_RESULT_LOCATION)
        fmt_loc(b, arch, &r->loc);
    else
        fmt_value(b, &r->value);
}
