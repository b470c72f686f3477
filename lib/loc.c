/* lib/loc.c: location storage: sizes, offsets, and reading and writing
 * bits through location descriptions (seed "DWARF Location Description",
 * "DW_OP_deref_type", "Composite Location Description Operations"). */
#include "evalint.h"

enum { CHUNK = 64 }; /* bytes moved per target call */

void dwx_copy_bits(uint8_t *dst, uint64_t dpos, const uint8_t *src, uint64_t spos,
                   uint64_t nbits)
{
    if (((dpos | spos | nbits) & 7) == 0) {
        memcpy(dst + dpos / 8, src + spos / 8, (size_t)(nbits / 8));
        return;
    }
    for (uint64_t i = 0; i < nbits; i++) {
        uint64_t s = spos + i, d = dpos + i;
        unsigned bit = (src[s / 8] >> (s % 8)) & 1u;
        if (bit)
            dst[d / 8] |= (uint8_t)(1u << (d % 8));
        else
            dst[d / 8] &= (uint8_t)~(1u << (d % 8));
    }
}

static void set_bits(uint8_t *dst, uint64_t dpos, uint64_t nbits, bool one)
{
    for (uint64_t i = 0; i < nbits; i++) {
        uint64_t d = dpos + i;
        if (one)
            dst[d / 8] |= (uint8_t)(1u << (d % 8));
        else
            dst[d / 8] &= (uint8_t)~(1u << (d % 8));
    }
}

/* dwx_default_space_plain (lib/evalint.h) of a target with aspace_info:
 * out of line, so that the fast paths' callers keep small frames. Bit A
 * of the answer: space 0 is the plain one for A-byte addresses. */
unsigned dwx_default_space_sizes(const dwexpr_target *t, void *user)
{
    dwexpr_aspace_info ai;
    memset(&ai, 0, sizeof ai);
    const dwexpr_status st = t->aspace_info(user, 0, &ai);
    if (st == DWEXPR_E_NOT_FOUND)
        return DWX_ADDR_SIZES;
    const unsigned bits = ai.addr_bits == 0 || ai.addr_bits > 64 ? 64 : ai.addr_bits;
    if (st != DWEXPR_OK || ai.per_thread || ai.per_lane || bits % 8)
        return 0;
    return DWX_ADDR_SIZES & (1u << (bits / 8));
}

dwexpr_status dwx_aspace(dwexpr_ctx *ctx, const dwexpr_unit *u, uint32_t as,
                         dwexpr_aspace_info *out)
{
    memset(out, 0, sizeof *out);
    if (ctx->t->aspace_info) {
        dwexpr_status st = ctx->t->aspace_info(ctx->user, as, out);
        if (st == DWEXPR_OK) {
            if (out->addr_bits == 0 || out->addr_bits > 64)
                out->addr_bits = 64;
            return DWEXPR_OK;
        }
        if (st != DWEXPR_E_NOT_FOUND)
            return dwx_ctx_fail(ctx, st, "the target could not describe address space %u",
                                (unsigned)as);
    }
    /* DW_ASPACE_none (0) is the default address space of every target. */
    if (as == 0) {
        out->addr_bits = (uint8_t)(8 * u->addr_size);
        return DWEXPR_OK;
    }
    return dwx_ctx_fail(ctx, DWEXPR_E_BAD_ASPACE,
                        "address space %u is not defined by the target architecture",
                        (unsigned)as);
}

uint32_t dwx_loc_depth(const dwexpr_sld *slds, uint32_t n)
{
    uint32_t d = 0;
    for (uint32_t i = 0; i < n; i++)
        if (slds[i].kind == DWEXPR_LOC_COMPOSITE && slds[i].u.comp->depth > d)
            d = slds[i].u.comp->depth;
    return d;
}

/* Byte/bit position of S's offset plus EXTRA bits; false on overflow. */
static bool pos_add(const dwexpr_sld *s, uint64_t extra, uint64_t *byte, unsigned *bit)
{
    uint64_t b = s->bit + (extra & 7);
    uint64_t add = (extra >> 3) + (b >> 3);
    if (s->byte_offset > UINT64_MAX - add)
        return false;
    *byte = s->byte_offset + add;
    *bit = (unsigned)(b & 7);
    return true;
}

/* Size of register REGNO in bytes; *known false when the target cannot say. */
static dwexpr_status reg_bytes(dwexpr_ctx *ctx, uint32_t regno, uint64_t *bytes, bool *known)
{
    *known = false;
    if (!ctx->t->reg_size)
        return DWEXPR_OK;
    uint32_t b = 0;
    dwexpr_status st = dwx_target_reg_size(ctx, ctx->t, ctx->user, regno, &b);
    if (st == DWEXPR_E_NOT_FOUND)
        return dwx_ctx_fail(ctx, DWEXPR_E_NOT_FOUND, "register %u does not exist on the target",
                            (unsigned)regno);
    if (st)
        return dwx_ctx_fail(ctx, st, "the target could not tell the size of register %u",
                            (unsigned)regno);
    *bytes = b;
    *known = true;
    return DWEXPR_OK;
}

static const char *kind_name(unsigned k)
{
    static const char *const names[] = {"undefined", "memory", "register", "implicit",
                                        "implicit pointer", "composite"};
    return k < 6 ? names[k] : "unknown";
}

/* Whether NBITS bits from S's offset + EXTRA fit in its storage.
 * Returns OK, E_OUT_OF_RANGE (message set) or another failure. */
static dwexpr_status fits(dwexpr_ctx *ctx, const dwexpr_sld *s, uint64_t extra, uint64_t nbits)
{
    uint64_t byte;
    unsigned bit;
    if (s->kind == DWEXPR_LOC_UNDEFINED)
        return DWEXPR_OK;
    if (!pos_add(s, extra, &byte, &bit))
        goto out;
    if (s->kind == DWEXPR_LOC_MEMORY) {
        dwexpr_aspace_info ai;
        if (s->aspace == 0 && !ctx->t->aspace_info) {
            /* what dwx_aspace answers for the default space */
            ai.addr_bits = (uint8_t)(8 * (ctx->addr_size ? ctx->addr_size : 8));
        } else {
            dwexpr_unit u;
            memset(&u, 0, sizeof u);
            u.addr_size = ctx->addr_size ? ctx->addr_size : 8;
            dwexpr_status st = dwx_aspace(ctx, &u, s->aspace, &ai);
            if (st == DWEXPR_E_BAD_ASPACE && s->aspace == 0)
                st = DWEXPR_OK;
            if (st)
                return st;
        }
        uint64_t max = dwx_mask(ai.addr_bits);
        if (nbits == 0)
            return byte <= max ? DWEXPR_OK : DWEXPR_E_OUT_OF_RANGE;
        uint64_t span = (bit + nbits - 1) / 8;
        if (byte > max || span > max - byte)
            goto out;
        return DWEXPR_OK;
    }
    uint64_t size_bits;
    switch (s->kind) {
    case DWEXPR_LOC_REGISTER: {
        uint64_t b;
        bool known;
        dwexpr_status st = reg_bytes(ctx, s->u.regno, &b, &known);
        if (st)
            return st;
        if (!known)
            return DWEXPR_OK;
        size_bits = b * 8;
        break;
    }
    case DWEXPR_LOC_IMPLICIT: size_bits = s->u.imp.bits; break;
    case DWEXPR_LOC_IMPLICIT_POINTER: size_bits = s->u.ptr.bits; break;
    case DWEXPR_LOC_COMPOSITE: size_bits = s->u.comp->bits; break;
    default: return DWEXPR_OK;
    }
    if (byte > size_bits / 8)
        goto out;
    {
        uint64_t start = byte * 8 + bit;
        if (start > size_bits || nbits > size_bits - start)
            goto out;
    }
    return DWEXPR_OK;
out:
    return dwx_ctx_fail(ctx, DWEXPR_E_OUT_OF_RANGE,
                        "%llu bits at offset %llu bits run past the end of the %s storage",
                        (unsigned long long)nbits,
                        (unsigned long long)(s->byte_offset * 8 + s->bit + extra),
                        kind_name(s->kind));
}

dwexpr_status dwx_sld_check_range(dwexpr_ctx *ctx, const dwexpr_sld *s, uint64_t nbits)
{
    return fits(ctx, s, 0, nbits);
}

/* seed "General Location Description Operations": the updated bit offset
 * must be >= 0 and < the storage size; undefined locations are unchanged. */
dwexpr_status dwx_sld_add_offset(dwexpr_ctx *ctx, dwexpr_sld *s, int64_t delta_bytes,
                                 int64_t delta_bits)
{
    if (s->kind == DWEXPR_LOC_UNDEFINED)
        return DWEXPR_OK;
    bool bad = false;
    uint64_t nbyte = s->byte_offset;
    unsigned nbit = s->bit;
    if (delta_bits == 0 && delta_bytes >= 0) {
        /* the common case of the arithmetic below: whole bytes forward */
        if (nbyte > UINT64_MAX - (uint64_t)delta_bytes)
            bad = true;
        else
            nbyte += (uint64_t)delta_bytes;
    } else {
        /* floor division of the bit delta into bytes and a 0..7 remainder */
        int64_t q = delta_bits / 8, r = delta_bits % 8;
        if (r < 0) {
            r += 8;
            q -= 1;
        }
        nbit += (unsigned)r;
        if (nbit >= 8) {
            nbit -= 8;
            q += 1;
        }
        int64_t d = 0;
        if ((q > 0 && delta_bytes > INT64_MAX - q) || (q < 0 && delta_bytes < INT64_MIN - q))
            bad = true;
        else
            d = delta_bytes + q;
        if (!bad) {
            if (d >= 0) {
                if (nbyte > UINT64_MAX - (uint64_t)d)
                    bad = true;
                else
                    nbyte += (uint64_t)d;
            } else {
                uint64_t m = (uint64_t)(-(d + 1)) + 1;
                if (m > nbyte)
                    bad = true;
                else
                    nbyte -= m;
            }
        }
    }
    if (!bad) {
        /* at/after the end of the storage is an evaluation error: the
         * position must hold at least one bit (S moves there, and back
         * when it does not) */
        const uint64_t old_byte = s->byte_offset;
        const uint8_t old_bit = s->bit;
        s->byte_offset = nbyte;
        s->bit = (uint8_t)nbit;
        dwexpr_status st = fits(ctx, s, 0, 1);
        if (st == DWEXPR_OK)
            return DWEXPR_OK;
        s->byte_offset = old_byte;
        s->bit = old_bit;
        if (st != DWEXPR_E_OUT_OF_RANGE)
            return st;
    }
    return dwx_ctx_fail(ctx, DWEXPR_E_BAD_OFFSET,
                        "offset moves the %s location outside its storage", kind_name(s->kind));
}

/* Move COUNT bytes at byte BYTE of a memory or register storage. */
static dwexpr_status xfer(dwexpr_ctx *ctx, const dwexpr_sld *s, uint64_t byte, uint8_t *buf,
                          size_t count, bool write)
{
    dwexpr_status st;
    if (s->kind == DWEXPR_LOC_MEMORY) {
        dwexpr_memref m;
        m.aspace = s->aspace;
        m.ctx = s->ctx & (DWEXPR_CTX_THREAD | DWEXPR_CTX_LANE);
        m.thread = s->thread;
        m.lane = s->lane;
        m.address = byte;
        if (write ? !ctx->t->mem_write : !ctx->t->mem_read)
            return dwx_ctx_fail(ctx, DWEXPR_E_UNSUPPORTED, "the target cannot %s memory",
                                write ? "write" : "read");
        st = write ? ctx->t->mem_write(ctx->user, &m, buf, count)
                   : ctx->t->mem_read(ctx->user, &m, buf, count);
        if (st)
            return dwx_ctx_fail(ctx, st == DWEXPR_E_NOT_FOUND ? DWEXPR_E_TARGET : st,
                                "cannot %s %zu bytes of memory at 0x%llx (address space %u)",
                                write ? "write" : "read", count, (unsigned long long)byte,
                                (unsigned)s->aspace);
        return DWEXPR_OK;
    }
    dwexpr_regref r;
    r.thread = s->thread;
    r.frame = s->frame;
    r.regno = s->u.regno;
    r.ctx = s->ctx;
    if (write ? !ctx->t->reg_write : !ctx->t->reg_read)
        return dwx_ctx_fail(ctx, DWEXPR_E_UNSUPPORTED, "the target cannot %s registers",
                            write ? "write" : "read");
    st = write ? ctx->t->reg_write(ctx->user, &r, byte, buf, count)
               : ctx->t->reg_read(ctx->user, &r, byte, buf, count);
    if (st)
        return dwx_ctx_fail(ctx, st == DWEXPR_E_NOT_FOUND ? DWEXPR_E_TARGET : st,
                            "cannot %s register %u", write ? "write" : "read",
                            (unsigned)s->u.regno);
    return DWEXPR_OK;
}

static dwexpr_status read_sld(dwexpr_ctx *ctx, const dwexpr_sld *s, uint64_t extra,
                              uint64_t nbits, uint8_t *dst, uint64_t dpos, uint8_t *mask);

dwexpr_status dwx_read_loc(dwexpr_ctx *ctx, const dwexpr_loc *loc, uint64_t extra,
                           uint64_t nbits, uint8_t *dst, uint64_t dpos, uint8_t *mask)
{
    /* seed "DW_OP_deref_type": any one of several places may be read;
     * try them in order and keep the first failure if none works. */
    dwexpr_status first = DWEXPR_OK;
    dwexpr_error saved;
    for (uint32_t i = 0; i < loc->count; i++) {
        if (mask)
            set_bits(mask, dpos, nbits, false);
        dwexpr_status st = read_sld(ctx, &loc->slds[i], extra, nbits, dst, dpos, mask);
        if (st == DWEXPR_OK)
            return DWEXPR_OK;
        if (first == DWEXPR_OK) {
            first = st;
            saved = ctx->err;
        }
    }
    if (first == DWEXPR_OK)
        return dwx_ctx_fail(ctx, DWEXPR_E_UNDEFINED_READ, "location description has no places");
    ctx->err = saved;
    return first;
}

static dwexpr_status composite_walk(dwexpr_ctx *ctx, const dwexpr_sld *s, uint64_t extra,
                                    uint64_t nbits, uint8_t *buf, uint64_t bpos, uint8_t *mask,
                                    bool write)
{
    const dwexpr_composite *c = s->u.comp;
    uint64_t start = s->byte_offset * 8 + s->bit + extra, end = start + nbits, pos = 0;
    for (uint32_t i = 0; i < c->count && pos < end; i++) {
        const dwexpr_part *p = &c->parts[i];
        uint64_t pend = pos + p->bit_size;
        uint64_t lo = start > pos ? start : pos, hi = end < pend ? end : pend;
        if (lo < hi) {
            dwexpr_status st =
                write ? dwx_write_loc(ctx, &p->loc, lo - pos, hi - lo, buf, bpos + (lo - start))
                      : dwx_read_loc(ctx, &p->loc, lo - pos, hi - lo, buf, bpos + (lo - start),
                                     mask);
            if (st)
                return st;
        }
        pos = pend;
    }
    return DWEXPR_OK;
}

/* Move NBITS bits between BUF (at bit BPOS) and a memory or register
 * storage starting at BYTE, bit BIT, at most CHUNK bytes per target call.
 * A write keeps the other bits of partial bytes: read, merge, write. */
static dwexpr_status move_bits(dwexpr_ctx *ctx, const dwexpr_sld *s, uint64_t byte,
                               unsigned bit, uint64_t nbits, uint8_t *buf, uint64_t bpos,
                               bool write)
{
    uint8_t tmp[CHUNK];
    dwexpr_status st;
    for (uint64_t done = 0; done < nbits;) {
        uint64_t rel = bit + done;
        uint64_t b0 = byte + rel / 8;
        unsigned bo = (unsigned)(rel % 8);
        uint64_t take = nbits - done;
        if (take > 8 * CHUNK - bo)
            take = 8 * CHUNK - bo;
        size_t count = (size_t)((bo + take + 7) / 8);
        if (!write || bo || (bo + take) % 8)
            if ((st = xfer(ctx, s, b0, tmp, count, false)))
                return st;
        if (write) {
            dwx_copy_bits(tmp, bo, buf, bpos + done, take);
            if ((st = xfer(ctx, s, b0, tmp, count, true)))
                return st;
        } else {
            dwx_copy_bits(buf, bpos + done, tmp, bo, take);
        }
        done += take;
    }
    return DWEXPR_OK;
}

static dwexpr_status read_sld(dwexpr_ctx *ctx, const dwexpr_sld *s, uint64_t extra,
                              uint64_t nbits, uint8_t *dst, uint64_t dpos, uint8_t *mask)
{
    if (nbits == 0)
        return DWEXPR_OK;
    switch (s->kind) {
    case DWEXPR_LOC_UNDEFINED:
        if (!mask)
            return dwx_ctx_fail(ctx, DWEXPR_E_UNDEFINED_READ,
                                "read of %llu bits from undefined storage (optimized out)",
                                (unsigned long long)nbits);
        set_bits(mask, dpos, nbits, true);
        set_bits(dst, dpos, nbits, false);
        return DWEXPR_OK;
    case DWEXPR_LOC_IMPLICIT_POINTER:
        /* seed "Implicit Location Description Operations": only a deref of
         * the whole storage (handled by the evaluator) may read it. */
        return dwx_ctx_fail(ctx, DWEXPR_E_IMPLICIT_PTR,
                            "implicit pointer storage can only be dereferenced whole");
    default:
        break;
    }
    dwexpr_status st = fits(ctx, s, extra, nbits);
    if (st)
        return st;
    uint64_t byte = 0;
    unsigned bit = 0;
    pos_add(s, extra, &byte, &bit);
    if (s->kind == DWEXPR_LOC_IMPLICIT) {
        dwx_copy_bits(dst, dpos, s->u.imp.data, byte * 8 + bit, nbits);
        return DWEXPR_OK;
    }
    if (s->kind == DWEXPR_LOC_COMPOSITE)
        return composite_walk(ctx, s, extra, nbits, dst, dpos, mask, false);
    return move_bits(ctx, s, byte, bit, nbits, dst, dpos, false);
}

static dwexpr_status write_sld(dwexpr_ctx *ctx, const dwexpr_sld *s, uint64_t extra,
                               uint64_t nbits, const uint8_t *src, uint64_t spos)
{
    if (nbits == 0)
        return DWEXPR_OK;
    switch (s->kind) {
    case DWEXPR_LOC_UNDEFINED:
    case DWEXPR_LOC_IMPLICIT:
    case DWEXPR_LOC_IMPLICIT_POINTER:
        return dwx_ctx_fail(ctx, DWEXPR_E_READ_ONLY, "%s storage cannot be written",
                            kind_name(s->kind));
    default:
        break;
    }
    dwexpr_status st = fits(ctx, s, extra, nbits);
    if (st)
        return st;
    if (s->kind == DWEXPR_LOC_COMPOSITE)
        return composite_walk(ctx, s, extra, nbits, (uint8_t *)(uintptr_t)src, spos, NULL, true);
    uint64_t byte = 0;
    unsigned bit = 0;
    pos_add(s, extra, &byte, &bit);
    return move_bits(ctx, s, byte, bit, nbits, (uint8_t *)(uintptr_t)src, spos, true);
}

dwexpr_status dwx_write_loc(dwexpr_ctx *ctx, const dwexpr_loc *loc, uint64_t extra,
                            uint64_t nbits, const uint8_t *src, uint64_t spos)
{
    /* seed "DWARF Location Description": a changed value must be written
     * to all the single location descriptions. */
    if (loc->count == 0)
        return dwx_ctx_fail(ctx, DWEXPR_E_READ_ONLY, "location description has no places");
    for (uint32_t i = 0; i < loc->count; i++) {
        dwexpr_status st = write_sld(ctx, &loc->slds[i], extra, nbits, src, spos);
        if (st)
            return st;
    }
    return DWEXPR_OK;
}

static void reset_err(dwexpr_ctx *ctx)
{
    ctx->err.status = DWEXPR_OK;
    ctx->err.offset = -1;
    ctx->err.opcode = -1;
    ctx->err.op_name = NULL;
    ctx->err.message[0] = 0;
}

/* Whether some place of LOC can hold NBITS bits from its offset: the read
 * below fails at once (with the first place's error, as it would) when none
 * can, before BUF and the mask are touched, so a read far larger than its
 * storage costs nothing (audit D item 1). Undefined storage has no end, and
 * an implicit pointer fails for its own reason in read_sld: both pass. */
static dwexpr_status read_fits(dwexpr_ctx *ctx, const dwexpr_loc *loc, uint64_t nbits)
{
    dwexpr_status first = DWEXPR_OK;
    dwexpr_error saved;
    if (nbits == 0 || loc->count == 0)
        return DWEXPR_OK;
    for (uint32_t i = 0; i < loc->count; i++) {
        const dwexpr_sld *s = &loc->slds[i];
        if (s->kind == DWEXPR_LOC_IMPLICIT_POINTER)
            return DWEXPR_OK;
        dwexpr_status st = fits(ctx, s, 0, nbits);
        if (st == DWEXPR_OK)
            return DWEXPR_OK;
        if (first == DWEXPR_OK) {
            first = st;
            saved = ctx->err;
        }
    }
    ctx->err = saved;
    return first;
}

dwexpr_status dwexpr_loc_read(dwexpr_ctx *ctx, const dwexpr_target *target, void *user,
                              const dwexpr_loc *loc, uint64_t nbits, uint8_t *buf,
                              uint8_t *undef_mask)
{
    if (!ctx || !loc || (nbits && !buf))
        return DWEXPR_E_USAGE;
    dwx_set_target(ctx, target, user);
    reset_err(ctx);
    dwexpr_status st = read_fits(ctx, loc, nbits);
    if (st != DWEXPR_OK)
        return st;
    if (nbits) {
        memset(buf, 0, (size_t)((nbits + 7) / 8));
        if (undef_mask)
            memset(undef_mask, 0, (size_t)((nbits + 7) / 8));
    }
    return dwx_read_loc(ctx, loc, 0, nbits, buf, 0, undef_mask);
}

dwexpr_status dwexpr_loc_write(dwexpr_ctx *ctx, const dwexpr_target *target, void *user,
                               const dwexpr_loc *loc, uint64_t nbits, const uint8_t *buf)
{
    if (!ctx || !loc || (nbits && !buf))
        return DWEXPR_E_USAGE;
    dwx_set_target(ctx, target, user);
    reset_err(ctx);
    return dwx_write_loc(ctx, loc, 0, nbits, buf, 0);
}
