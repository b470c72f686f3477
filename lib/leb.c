/* lib/leb.c: LEB128 and fixed-size integer readers and writers
 * (DWARF 5 7.6 Variable Length Data, 7.7.1 operand sizes). Readers never
 * look past END and accept padded encodings whose value fits 64 bits. */
#include "dwx.h"

/* Up to 8 encoded bytes read as one little-endian word: the payload of
 * the first N bytes, N being where the first byte without the
 * continuation bit (0x80) stands; false when none of the 8 has it. The
 * 7-bit groups are packed by three halving steps (7 -> 14 -> 28 -> 56
 * bits) instead of a loop over the bytes. */
static inline bool read_word(uint64_t w, uint64_t *v, unsigned *n)
{
    const uint64_t stops = ~w & 0x8080808080808080u;
    if (!stops)
        return false;
    const uint64_t keep = stops ^ (stops - 1); /* bits up to the first stop's bit 7 */
    uint64_t x = w & keep & 0x7f7f7f7f7f7f7f7fu;
    x = ((x & 0x7f007f007f007f00u) >> 1) | (x & 0x007f007f007f007fu);
    x = ((x & 0x3fff00003fff0000u) >> 2) | (x & 0x00003fff00003fffu);
    x = ((x & 0x0fffffff00000000u) >> 4) | (x & 0x000000000fffffffu);
    *v = x;
    *n = (unsigned)(dwx_ctz64(stops) >> 3) + 1;
    return true;
}

/* The common case of both readers: an encoding of at most 9 bytes (63
 * payload bits, nothing to check) inside the buffer. True with the
 * payload in *V, its bit count (7 per byte) in *BITS, *P moved past it;
 * false (nothing moved) for anything longer or truncated. With 8 bytes
 * to read, one word (read_word) on a little-endian host. */
static inline bool read_short(const uint8_t **p, const uint8_t *end, uint64_t *v,
                              unsigned *bits, uint8_t *nbytes)
{
    const uint8_t *q = *p;
#if DWX_HOST_LITTLE
    if ((size_t)(end - q) >= 8) {
        uint64_t w;
        unsigned n;
        memcpy(&w, q, 8);
        if (read_word(w, v, &n)) {
            if (nbytes)
                *nbytes = (uint8_t)n;
            *p = q + n;
            *bits = 7 * n;
            return true;
        }
    }
#endif
    const uint8_t *const stop = (size_t)(end - q) > 9 ? q + 9 : end;
    uint64_t x = 0;
    for (unsigned shift = 0; q < stop; shift += 7) {
        const uint8_t b = *q++;
        x |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            if (nbytes)
                *nbytes = (uint8_t)(q - *p);
            *p = q;
            *v = x;
            *bits = shift + 7;
            return true;
        }
    }
    return false;
}

/* dwx_read_uleb of any encoding, padded or long (the general loop). */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static dwexpr_status read_uleb_long(const uint8_t **p, const uint8_t *end,
                                    uint64_t *out, uint8_t *nbytes)
{
    const uint8_t *q = *p;
    uint64_t v = 0;
    unsigned shift = 0;
    bool overflow = false;
    for (;;) {
        if (q >= end)
            return DWEXPR_E_TRUNCATED;
        uint8_t b = *q++;
        uint8_t payload = b & 0x7f;
        if (shift < 63)
            v |= (uint64_t)payload << shift;
        else if (shift == 63) {
            if (payload > 1)
                overflow = true;
            v |= (uint64_t)(payload & 1) << 63;
        } else if (payload)
            overflow = true;
        if (!(b & 0x80))
            break;
        if (shift < 70)
            shift += 7;
    }
    size_t n = (size_t)(q - *p);
    if (nbytes)
        *nbytes = n > 255 ? 255 : (uint8_t)n;
    *p = q;
    if (overflow)
        return DWEXPR_E_LEB_OVERFLOW;
    *out = v;
    return DWEXPR_OK;
}

/* Read an unsigned LEB128 (DWARF 5 7.6). Bytes past bit 63 may only pad:
 * the 10th byte may carry bit 63 alone, later payloads must be zero
 * (read_short, else the general loop). */
dwexpr_status dwx_read_uleb(const uint8_t **p, const uint8_t *end,
                            uint64_t *out, uint8_t *nbytes)
{
    uint64_t v;
    unsigned bits;
    if (!read_short(p, end, &v, &bits, nbytes))
        return read_uleb_long(p, end, out, nbytes);
    *out = v;
    return DWEXPR_OK;
}

/* dwx_read_sleb of any encoding, padded or long (the general loop). */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static dwexpr_status read_sleb_long(const uint8_t **p, const uint8_t *end,
                                    int64_t *out, uint8_t *nbytes)
{
    const uint8_t *q = *p;
    uint64_t v = 0;
    unsigned shift = 0;
    bool overflow = false;
    int sign = -1; /* fixed once bit 63 is read: 0 or 0x7f */
    uint8_t b;
    for (;;) {
        if (q >= end)
            return DWEXPR_E_TRUNCATED;
        b = *q++;
        uint8_t payload = b & 0x7f;
        if (shift < 63) {
            v |= (uint64_t)payload << shift;
        } else {
            if (sign < 0)
                sign = (payload & 1) ? 0x7f : 0;
            if (payload != sign)
                overflow = true;
            if (shift == 63)
                v |= (uint64_t)(payload & 1) << 63;
        }
        if (!(b & 0x80))
            break;
        if (shift < 70)
            shift += 7;
    }
    /* sign-extend from the last byte when it ended below bit 63 */
    if (shift < 63 && (b & 0x40) && shift + 7 < 64)
        v |= ~(uint64_t)0 << (shift + 7);
    size_t n = (size_t)(q - *p);
    if (nbytes)
        *nbytes = n > 255 ? 255 : (uint8_t)n;
    *p = q;
    if (overflow)
        return DWEXPR_E_LEB_OVERFLOW;
    *out = (int64_t)v;
    return DWEXPR_OK;
}

/* Read a signed LEB128 (DWARF 5 7.6). The value must fit int64_t: from
 * bit 63 on, every payload bit must repeat the sign (read_short, then the
 * sign extended from the last byte's bit 6; else the general loop). */
dwexpr_status dwx_read_sleb(const uint8_t **p, const uint8_t *end,
                            int64_t *out, uint8_t *nbytes)
{
    uint64_t v;
    unsigned bits;
    if (!read_short(p, end, &v, &bits, nbytes))
        return read_sleb_long(p, end, out, nbytes);
    if ((v >> (bits - 1)) & 1) /* the last byte's bit 6: the sign (bits < 64) */
        v |= ~(uint64_t)0 << bits;
    *out = (int64_t)v;
    return DWEXPR_OK;
}

/* Read a SIZE-byte (1..8) unsigned integer in the given byte order. */
dwexpr_status dwx_read_fixed(const uint8_t **p, const uint8_t *end,
                             unsigned size, bool big, uint64_t *out)
{
    const uint8_t *q = *p;
    if (size == 0 || size > 8)
        return DWEXPR_E_USAGE;
    if ((size_t)(end - q) < size)
        return DWEXPR_E_TRUNCATED;
    uint64_t v = 0;
    if (big) {
        for (unsigned i = 0; i < size; i++)
            v = (v << 8) | q[i];
    } else {
        for (unsigned i = size; i-- > 0;)
            v = (v << 8) | q[i];
    }
    *p = q + size;
    *out = v;
    return DWEXPR_OK;
}

/* Write V as unsigned LEB128, padded to PAD_TO bytes with continuation
 * bytes (0x80 ... 0x00); OUT may be NULL to measure. */
size_t dwx_write_uleb(uint8_t *out, uint64_t v, unsigned pad_to)
{
    size_t n = 0;
    do {
        uint8_t b = v & 0x7f;
        v >>= 7;
        if (v || n + 1 < pad_to)
            b |= 0x80;
        if (out)
            out[n] = b;
        n++;
    } while (v);
    while (n < pad_to) {
        if (out)
            out[n] = (n + 1 < pad_to) ? 0x80 : 0x00;
        n++;
    }
    return n;
}

/* Write V as signed LEB128, padded to PAD_TO bytes with sign-carrying
 * continuation bytes (0x80/0xff ..., then 0x00/0x7f); OUT may be NULL. */
size_t dwx_write_sleb(uint8_t *out, int64_t v, unsigned pad_to)
{
    size_t n = 0;
    bool more = true;
    uint8_t fill = v < 0 ? 0x7f : 0x00;
    while (more) {
        uint8_t b = (uint8_t)(v & 0x7f);
        /* arithmetic shift without relying on implementation-defined >> */
        v = v < 0 ? ~(~v >> 7) : v >> 7;
        more = !((v == 0 && !(b & 0x40)) || (v == -1 && (b & 0x40)));
        if (more || n + 1 < pad_to)
            b |= 0x80;
        if (out)
            out[n] = b;
        n++;
    }
    while (n < pad_to) {
        uint8_t b = fill;
        if (n + 1 < pad_to)
            b |= 0x80;
        if (out)
            out[n] = b;
        n++;
    }
    return n;
}
