/* adapters/libdwarf/lists.c: location and range lists read from the raw
 * sections: DWARF 5 .debug_loclists / .debug_rnglists with every
 * DW_LLE_* / DW_RLE_* kind (DWARF 5 sections 2.6.2 and 2.17.3, 7.7.3,
 * 7.25), DWARF 2-4 .debug_loc / .debug_ranges pairs with base address
 * selection entries, and the GNU split DWARF 4 .debug_loc.dwo kinds.
 * Entries come out with absolute [low, high) addresses. */
#include <stdio.h>
#include <stdlib.h>

#include "ld_int.h"

/* GNU split DWARF 4 .debug_loc.dwo entry kinds (GDB's DW_LLE_GNU_*). */
enum {
    GNU_LLE_end = 0,
    GNU_LLE_base = 1,
    GNU_LLE_start_end = 2,
    GNU_LLE_start_length = 3,
};

/* One entry being collected. */
typedef struct lent {
    dwexpr_loclist_entry e;
    dwexpr_libdwarf_lle raw;
} lent;

/* The raw section NAME of FILE, with bounds; E_NOT_FOUND if absent. */
static dwexpr_status section(const dwexpr_libdwarf *ld, size_t file, const char *name,
                             ld_section *out, dwexpr_error *err)
{
    *out = ld_elf_section(&ld->files[file].elf, name);
    if (!out->present || !out->data)
        return ld_fail(err, DWEXPR_E_ILL_FORMED, "%s has no %s section", ld->files[file].path,
                       name);
    if (out->compressed)
        return ld_fail(err, DWEXPR_E_TARGET, "%s: compressed %s is not supported",
                       ld->files[file].path, name);
    return DWEXPR_OK;
}

/* A cursor at OFF of S; false if OFF is outside. */
static bool at(const ld_section *s, uint64_t off, bool big, ld_cursor *c)
{
    if (off >= s->size)
        return false;
    c->p = s->data + off;
    c->end = s->data + s->size;
    c->big = big;
    c->bad = false;
    return true;
}

/* Size of a DWARF 5 list section header (DWARF 5 7.29, 7.28). */
static uint64_t list_header_size(const ld_unit *u)
{
    return u->pub.unit.offset_size == 8 ? 20 : 12;
}

/* For an index form (loclistx / rnglistx): the list offset from the
 * offsets table at BASE (DWARF 5 7.29: offsets are relative to BASE). */
static dwexpr_status index_offset(const ld_section *s, bool big, const ld_unit *u, uint64_t base,
                                  uint64_t idx, uint64_t *off, const char *name,
                                  dwexpr_error *err)
{
    ld_cursor c;
    unsigned osz = u->pub.unit.offset_size == 8 ? 8 : 4;
    if (idx > s->size / osz || !at(s, base + idx * osz, big, &c))
        return ld_fail(err, DWEXPR_E_ILL_FORMED, "%s: index %llu is outside the offsets table",
                       name, (unsigned long long)idx);
    uint64_t rel = ld_get_u(&c, osz);
    if (c.bad)
        return ld_fail(err, DWEXPR_E_ILL_FORMED, "%s: offsets table truncated", name);
    *off = base + rel;
    return DWEXPR_OK;
}

/* Append an entry to the growing array. */
static dwexpr_status push(ld_vec *v, const lent *e, dwexpr_error *err)
{
    lent *n = ld_vec_push(v);
    if (!n)
        return ld_fail(err, DWEXPR_E_NOMEM, "out of memory");
    *n = *e;
    return DWEXPR_OK;
}

/* Copy the collected entries into pool memory of OUT. */
static dwexpr_status finish(dwexpr_libdwarf *ld, ld_vec *v, dwexpr_libdwarf_attr *out,
                            dwexpr_error *err)
{
    const lent *es = v->v;
    dwexpr_loclist_entry *ents = ld_pool_alloc(&ld->pool, sizeof *ents * (v->n ? v->n : 1));
    dwexpr_libdwarf_lle *raw = ld_pool_alloc(&ld->pool, sizeof *raw * (v->n ? v->n : 1));
    if (!ents || !raw) {
        ld_vec_free(v);
        return ld_fail(err, DWEXPR_E_NOMEM, "out of memory");
    }
    for (size_t i = 0; i < v->n; i++) {
        ents[i] = es[i].e;
        raw[i] = es[i].raw;
    }
    out->entries = ents;
    out->raw = raw;
    out->count = v->n;
    ld_vec_free(v);
    return DWEXPR_OK;
}

/* An expression operand: ULEB length (DWARF 5) or 2-byte length (DWARF
 * 2-4, GNU split), then the bytes. */
static bool expr(ld_cursor *c, bool uleb_len, dwexpr_loclist_entry *e)
{
    uint64_t n = uleb_len ? ld_get_uleb(c) : ld_get_u(c, 2);
    if (c->bad || n > (uint64_t)(c->end - c->p)) {
        c->bad = true;
        return false;
    }
    e->expr = c->p;
    e->expr_len = (size_t)n;
    c->p += n;
    return true;
}

/* DWARF 5 .debug_loclists entries at C (DWARF 5 2.6.2, 7.7.3). */
static dwexpr_status parse_lle5(const dwexpr_libdwarf *ld, const ld_unit *u, ld_cursor *c,
                                const ld_section *s, ld_vec *v, dwexpr_error *err)
{
    unsigned as = u->pub.unit.addr_size;
    uint64_t base = u->pub.base_address;
    dwexpr_status st;
    for (;;) {
        lent e;
        memset(&e, 0, sizeof e);
        e.raw.offset = (uint64_t)(c->p - s->data);
        uint8_t kind = (uint8_t)ld_get_u(c, 1);
        if (c->bad)
            break;
        e.raw.kind = kind;
        uint64_t a = 0, b = 0;
        switch (kind) {
        case DW_LLE_end_of_list:
            return DWEXPR_OK;
        case DW_LLE_base_addressx:
            e.raw.op1 = ld_get_uleb(c);
            if (c->bad)
                break;
            if ((st = ld_debug_addr(ld, u, e.raw.op1, &base, err)))
                return st;
            continue;
        case DW_LLE_startx_endx:
            e.raw.op1 = ld_get_uleb(c);
            e.raw.op2 = ld_get_uleb(c);
            if (c->bad)
                break;
            if ((st = ld_debug_addr(ld, u, e.raw.op1, &a, err)) ||
                (st = ld_debug_addr(ld, u, e.raw.op2, &b, err)))
                return st;
            break;
        case DW_LLE_startx_length:
            e.raw.op1 = ld_get_uleb(c);
            e.raw.op2 = ld_get_uleb(c);
            if (c->bad)
                break;
            if ((st = ld_debug_addr(ld, u, e.raw.op1, &a, err)))
                return st;
            b = a + e.raw.op2;
            break;
        case DW_LLE_offset_pair:
            e.raw.op1 = ld_get_uleb(c);
            e.raw.op2 = ld_get_uleb(c);
            a = base + e.raw.op1;
            b = base + e.raw.op2;
            break;
        case DW_LLE_default_location:
            e.e.is_default = true;
            break;
        case DW_LLE_base_address:
            base = e.raw.op1 = ld_get_u(c, as);
            continue;
        case DW_LLE_start_end:
            a = e.raw.op1 = ld_get_u(c, as);
            b = e.raw.op2 = ld_get_u(c, as);
            break;
        case DW_LLE_start_length:
            a = e.raw.op1 = ld_get_u(c, as);
            e.raw.op2 = ld_get_uleb(c);
            b = a + e.raw.op2;
            break;
        case LD_LLE_GNU_view_pair:
            /* gcc's location views: no expression follows */
            ld_get_uleb(c);
            ld_get_uleb(c);
            continue;
        default:
            return ld_fail(err, DWEXPR_E_ILL_FORMED,
                           "%s: unknown location list entry kind 0x%x at offset 0x%llx",
                           u->pub.split ? ".debug_loclists.dwo" : ".debug_loclists", kind,
                           (unsigned long long)e.raw.offset);
        }
        if (c->bad)
            break;
        e.e.low = a;
        e.e.high = b;
        if (!expr(c, true, &e.e))
            break;
        if ((st = push(v, &e, err)))
            return st;
    }
    return ld_fail(err, DWEXPR_E_ILL_FORMED, "location list runs past the end of its section");
}

/* DWARF 2-4 .debug_loc pairs (DWARF 4 2.6.2): offsets from the applicable
 * base address; (max, X) selects base X; (0, 0) ends the list. */
static dwexpr_status parse_loc4(const ld_unit *u, ld_cursor *c, const ld_section *s, ld_vec *v,
                                dwexpr_error *err)
{
    unsigned as = u->pub.unit.addr_size;
    uint64_t maxa = as >= 8 ? ~(uint64_t)0 : (((uint64_t)1 << (8 * as)) - 1);
    uint64_t base = u->pub.base_address;
    dwexpr_status st;
    for (;;) {
        lent e;
        memset(&e, 0, sizeof e);
        e.raw.offset = (uint64_t)(c->p - s->data);
        e.raw.kind = DWEXPR_LIBDWARF_LLE_PAIR;
        uint64_t a = ld_get_u(c, as), b = ld_get_u(c, as);
        if (c->bad)
            break;
        if (a == 0 && b == 0)
            return DWEXPR_OK;
        if (a == maxa) {
            base = b;
            continue;
        }
        e.raw.op1 = a;
        e.raw.op2 = b;
        e.e.low = base + a;
        e.e.high = base + b;
        if (!expr(c, false, &e.e))
            break;
        if ((st = push(v, &e, err)))
            return st;
    }
    return ld_fail(err, DWEXPR_E_ILL_FORMED, "location list runs past the end of .debug_loc");
}

/* GNU split DWARF 4 .debug_loc.dwo (GDB decode_debug_loc_dwo_addresses):
 * addresses are .debug_addr indices and absolute. */
static dwexpr_status parse_gnu_dwo(const dwexpr_libdwarf *ld, const ld_unit *u, ld_cursor *c,
                                   const ld_section *s, ld_vec *v, dwexpr_error *err)
{
    dwexpr_status st;
    uint64_t base = u->pub.base_address;
    for (;;) {
        lent e;
        memset(&e, 0, sizeof e);
        e.raw.offset = (uint64_t)(c->p - s->data);
        uint8_t kind = (uint8_t)ld_get_u(c, 1);
        if (c->bad)
            break;
        e.raw.kind = kind;
        uint64_t a = 0, b = 0;
        switch (kind) {
        case GNU_LLE_end:
            return DWEXPR_OK;
        case GNU_LLE_base:
            e.raw.op1 = ld_get_uleb(c);
            if (c->bad)
                break;
            if ((st = ld_debug_addr(ld, u, e.raw.op1, &base, err)))
                return st;
            continue;
        case GNU_LLE_start_end:
            e.raw.op1 = ld_get_uleb(c);
            e.raw.op2 = ld_get_uleb(c);
            if (c->bad)
                break;
            if ((st = ld_debug_addr(ld, u, e.raw.op1, &a, err)) ||
                (st = ld_debug_addr(ld, u, e.raw.op2, &b, err)))
                return st;
            break;
        case GNU_LLE_start_length:
            e.raw.op1 = ld_get_uleb(c);
            e.raw.op2 = ld_get_u(c, 4);
            if (c->bad)
                break;
            if ((st = ld_debug_addr(ld, u, e.raw.op1, &a, err)))
                return st;
            b = a + e.raw.op2;
            break;
        case LD_LLE_GNU_view_pair:
            ld_get_uleb(c);
            ld_get_uleb(c);
            continue;
        default:
            return ld_fail(err, DWEXPR_E_ILL_FORMED,
                           ".debug_loc.dwo: unknown entry kind 0x%x at offset 0x%llx", kind,
                           (unsigned long long)e.raw.offset);
        }
        if (c->bad)
            break;
        (void)base;
        e.e.low = a;
        e.e.high = b;
        if (!expr(c, false, &e.e))
            break;
        if ((st = push(v, &e, err)))
            return st;
    }
    return ld_fail(err, DWEXPR_E_ILL_FORMED, "location list runs past the end of .debug_loc.dwo");
}

/* The list of an attribute of unit U: the section by version and split, then the entries. */
dwexpr_status ld_read_loclist(dwexpr_libdwarf *ld, const ld_unit *u, uint16_t form, uint64_t v,
                              dwexpr_libdwarf_attr *out, dwexpr_error *err)
{
    size_t file = u->file;
    bool big = ld->files[file].elf.big;
    const char *name;
    bool v5 = u->pub.unit.version >= 5;
    if (v5)
        name = u->pub.split ? ".debug_loclists.dwo" : ".debug_loclists";
    else
        name = u->pub.split ? ".debug_loc.dwo" : ".debug_loc";
    ld_section s;
    dwexpr_status st = section(ld, file, name, &s, err);
    if (st)
        return st;
    uint64_t off = v;
    if (form == DW_FORM_loclistx) {
        uint64_t base = u->pub.split || !u->pub.loclists_base ? list_header_size(u)
                                                               : u->pub.loclists_base;
        if ((st = index_offset(&s, big, u, base, v, &off, name, err)))
            return st;
    }
    ld_cursor c;
    if (!at(&s, off, big, &c))
        return ld_fail(err, DWEXPR_E_ILL_FORMED, "%s: list offset 0x%llx is outside the section",
                       name, (unsigned long long)off);
    ld_vec vec;
    memset(&vec, 0, sizeof vec);
    vec.elem = sizeof(lent);
    if (v5)
        st = parse_lle5(ld, u, &c, &s, &vec, err);
    else if (u->pub.split)
        st = parse_gnu_dwo(ld, u, &c, &s, &vec, err);
    else
        st = parse_loc4(u, &c, &s, &vec, err);
    if (st) {
        ld_vec_free(&vec);
        return st;
    }
    out->kind = DWEXPR_LIBDWARF_ATTR_LIST;
    out->list_offset = off;
    out->section = name;
    return finish(ld, &vec, out, err);
}

/* ---- range lists ---- */

/* Append [A, B) to V unless empty. */
static dwexpr_status add_range(ld_vec *v, uint64_t a, uint64_t b, dwexpr_error *err)
{
    if (b <= a)
        return DWEXPR_OK;
    dwexpr_libdwarf_range *r = ld_vec_push(v);
    if (!r)
        return ld_fail(err, DWEXPR_E_NOMEM, "out of memory");
    r->low = a;
    r->high = b;
    return DWEXPR_OK;
}

/* DWARF 5 .debug_rnglists entries (DWARF 5 2.17.3, 7.25). */
static dwexpr_status parse_rle5(const dwexpr_libdwarf *ld, const ld_unit *u, ld_cursor *c,
                                ld_vec *v, dwexpr_error *err)
{
    unsigned as = u->pub.unit.addr_size;
    uint64_t base = u->pub.base_address, a, b, x, y;
    dwexpr_status st;
    for (;;) {
        uint8_t kind = (uint8_t)ld_get_u(c, 1);
        if (c->bad)
            break;
        switch (kind) {
        case DW_RLE_end_of_list:
            return DWEXPR_OK;
        case DW_RLE_base_addressx:
            x = ld_get_uleb(c);
            if (c->bad)
                goto bad;
            if ((st = ld_debug_addr(ld, u, x, &base, err)))
                return st;
            break;
        case DW_RLE_startx_endx:
            x = ld_get_uleb(c);
            y = ld_get_uleb(c);
            if (c->bad)
                goto bad;
            if ((st = ld_debug_addr(ld, u, x, &a, err)) || (st = ld_debug_addr(ld, u, y, &b, err)) ||
                (st = add_range(v, a, b, err)))
                return st;
            break;
        case DW_RLE_startx_length:
            x = ld_get_uleb(c);
            y = ld_get_uleb(c);
            if (c->bad)
                goto bad;
            if ((st = ld_debug_addr(ld, u, x, &a, err)) || (st = add_range(v, a, a + y, err)))
                return st;
            break;
        case DW_RLE_offset_pair:
            x = ld_get_uleb(c);
            y = ld_get_uleb(c);
            if ((st = add_range(v, base + x, base + y, err)))
                return st;
            break;
        case DW_RLE_base_address:
            base = ld_get_u(c, as);
            break;
        case DW_RLE_start_end:
            a = ld_get_u(c, as);
            b = ld_get_u(c, as);
            if ((st = add_range(v, a, b, err)))
                return st;
            break;
        case DW_RLE_start_length:
            a = ld_get_u(c, as);
            y = ld_get_uleb(c);
            if ((st = add_range(v, a, a + y, err)))
                return st;
            break;
        default:
            return ld_fail(err, DWEXPR_E_ILL_FORMED, "unknown range list entry kind 0x%x", kind);
        }
        if (c->bad)
            break;
    }
bad:
    return ld_fail(err, DWEXPR_E_ILL_FORMED, "range list runs past the end of its section");
}

/* DWARF 2-4 .debug_ranges pairs (DWARF 4 2.17.3). */
static dwexpr_status parse_ranges4(const ld_unit *u, ld_cursor *c, ld_vec *v, dwexpr_error *err)
{
    unsigned as = u->pub.unit.addr_size;
    uint64_t maxa = as >= 8 ? ~(uint64_t)0 : (((uint64_t)1 << (8 * as)) - 1);
    uint64_t base = u->pub.base_address;
    dwexpr_status st;
    for (;;) {
        uint64_t a = ld_get_u(c, as), b = ld_get_u(c, as);
        if (c->bad)
            break;
        if (a == 0 && b == 0)
            return DWEXPR_OK;
        if (a == maxa) {
            base = b;
            continue;
        }
        if ((st = add_range(v, base + a, base + b, err)))
            return st;
    }
    return ld_fail(err, DWEXPR_E_ILL_FORMED, "range list runs past the end of .debug_ranges");
}

/* The range list of an attribute of unit U (DW_AT_ranges). */
dwexpr_status ld_read_ranges(dwexpr_libdwarf *ld, const ld_unit *u, uint16_t form, uint64_t v,
                             dwexpr_libdwarf_range **out, size_t *n, dwexpr_error *err)
{
    bool v5 = u->pub.unit.version >= 5;
    /* DWARF 4 split units keep their ranges in the main file's .debug_ranges,
     * relative to DW_AT_GNU_ranges_base */
    size_t file = v5 ? u->file : 0;
    bool big = ld->files[file].elf.big;
    const char *name = v5 ? (u->pub.split ? ".debug_rnglists.dwo" : ".debug_rnglists")
                          : ".debug_ranges";
    ld_section s;
    dwexpr_status st = section(ld, file, name, &s, err);
    if (st)
        return st;
    uint64_t off = v;
    if (form == DW_FORM_rnglistx) {
        uint64_t base = u->pub.split || !u->pub.rnglists_base ? list_header_size(u)
                                                               : u->pub.rnglists_base;
        if ((st = index_offset(&s, big, u, base, v, &off, name, err)))
            return st;
    } else if (!v5 && u->pub.split) {
        off += u->pub.rnglists_base;
    }
    ld_cursor c;
    if (!at(&s, off, big, &c))
        return ld_fail(err, DWEXPR_E_ILL_FORMED, "%s: offset 0x%llx is outside the section", name,
                       (unsigned long long)off);
    ld_vec vec;
    memset(&vec, 0, sizeof vec);
    vec.elem = sizeof(dwexpr_libdwarf_range);
    st = v5 ? parse_rle5(ld, u, &c, &vec, err) : parse_ranges4(u, &c, &vec, err);
    if (st) {
        ld_vec_free(&vec);
        return st;
    }
    *n = vec.n;
    *out = ld_pool_alloc(&ld->pool, sizeof **out * (vec.n ? vec.n : 1));
    if (!*out) {
        ld_vec_free(&vec);
        return ld_fail(err, DWEXPR_E_NOMEM, "out of memory");
    }
    if (vec.n)
        memcpy(*out, vec.v, sizeof **out * vec.n);
    ld_vec_free(&vec);
    return DWEXPR_OK;
}
