/* adapters/libdwarf/dwexpr_libdwarf.c: opening an ELF file with libdwarf,
 * the unit table (split DWARF .dwo included), one walk over every DIE tree
 * that collects scopes, variables, base types and call sites, attribute
 * values (constants, expressions, location lists, references) and type
 * names (C's notation; Fortran's as GDB prints it) and sizes. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>

#include "ld_int.h"

/* ---- small DIE readers ---- */

/* Attribute AT of D (caller releases with dwarf_dealloc_attribute). */
static bool get_attr(Dwarf_Debug dbg, Dwarf_Die d, Dwarf_Half at, Dwarf_Attribute *a)
{
    Dwarf_Error e = NULL;
    int r = dwarf_attr(d, at, a, &e);
    if (r == DW_DLV_ERROR)
        ld_drop(dbg, e);
    return r == DW_DLV_OK;
}

/* Whether D has attribute AT. */
static bool has_attr(Dwarf_Debug dbg, Dwarf_Die d, Dwarf_Half at)
{
    Dwarf_Bool yes = 0;
    Dwarf_Error e = NULL;
    if (dwarf_hasattr(d, at, &yes, &e) == DW_DLV_ERROR) {
        ld_drop(dbg, e);
        return false;
    }
    return yes != 0;
}

/* The form of A as written (0 on error). */
static Dwarf_Half form_of(Dwarf_Debug dbg, Dwarf_Attribute a)
{
    Dwarf_Half f = 0;
    Dwarf_Error e = NULL;
    if (dwarf_whatform(a, &f, &e) == DW_DLV_ERROR) {
        ld_drop(dbg, e);
        return 0;
    }
    return f;
}

/* The .debug_info offset of D (0 on error); of .debug_types with
 * LD_TYPES_OFF. */
static uint64_t die_offset(Dwarf_Debug dbg, Dwarf_Die d)
{
    Dwarf_Off o = 0;
    Dwarf_Error e = NULL;
    if (dwarf_dieoffset(d, &o, &e) == DW_DLV_ERROR)
        ld_drop(dbg, e);
    return dwarf_get_die_infotypes_flag(d) ? o : o | LD_TYPES_OFF;
}

/* An unsigned reading of a constant or offset-like attribute value. */
static bool attr_u(Dwarf_Debug dbg, Dwarf_Attribute a, Dwarf_Half form, uint64_t *out)
{
    Dwarf_Error e = NULL;
    if (form == DW_FORM_sdata || form == DW_FORM_implicit_const) {
        Dwarf_Signed s;
        if (dwarf_formsdata(a, &s, &e) == DW_DLV_OK) {
            *out = (uint64_t)s;
            return true;
        }
        ld_drop(dbg, e);
        return false;
    }
    Dwarf_Unsigned u;
    if (dwarf_formudata(a, &u, &e) == DW_DLV_OK) {
        *out = u;
        return true;
    }
    ld_drop(dbg, e);
    e = NULL;
    Dwarf_Off o;
    if (dwarf_global_formref(a, &o, &e) == DW_DLV_OK) {
        *out = o;
        return true;
    }
    ld_drop(dbg, e);
    return false;
}

/* An unsigned reading of attribute AT of D (constants, offsets, indices). */
bool ld_die_udata(dwexpr_libdwarf *ld, size_t file, Dwarf_Die d, Dwarf_Half at, uint64_t *out)
{
    Dwarf_Debug dbg = ld->files[file].dbg;
    Dwarf_Attribute a;
    if (!get_attr(dbg, d, at, &a))
        return false;
    bool ok = attr_u(dbg, a, form_of(dbg, a), out);
    dwarf_dealloc_attribute(a);
    return ok;
}

/* The DIE that reference attribute A of D names, as an offset
 * (die_offset's). A unit-relative reference stays in D's section (a type
 * unit of .debug_types refers inside itself); DW_FORM_ref_addr is of
 * .debug_info; DW_FORM_ref_sig8 names a type unit by its signature, the
 * reference being to that unit's type DIE (DWARF 5 3.1.4 "Type Unit
 * Entries", 7.5.5: "the 64-bit type signature"). */
static bool attr_ref(Dwarf_Debug dbg, Dwarf_Die d, Dwarf_Attribute a, uint64_t *out)
{
    const Dwarf_Half f = form_of(dbg, a);
    Dwarf_Error e = NULL;
    int r;
    if (f == DW_FORM_ref_sig8) {
        Dwarf_Sig8 sig;
        if ((r = dwarf_formsig8(a, &sig, &e)) != DW_DLV_OK) {
            if (r == DW_DLV_ERROR)
                ld_drop(dbg, e);
            return false;
        }
        Dwarf_Die t;
        Dwarf_Bool is_info = true;
        e = NULL;
        if ((r = dwarf_find_die_given_sig8(dbg, &sig, &t, &is_info, &e)) != DW_DLV_OK) {
            if (r == DW_DLV_ERROR)
                ld_drop(dbg, e);
            return false;
        }
        *out = die_offset(dbg, t);
        dwarf_dealloc_die(t);
        return true;
    }
    Dwarf_Off o;
    if ((r = dwarf_global_formref(a, &o, &e)) != DW_DLV_OK) {
        if (r == DW_DLV_ERROR)
            ld_drop(dbg, e);
        return false;
    }
    if (f != DW_FORM_ref_addr && f != DW_FORM_GNU_ref_alt && !dwarf_get_die_infotypes_flag(d))
        o |= LD_TYPES_OFF;
    *out = o;
    return true;
}

/* A type declaration that only carries DW_AT_signature (GCC's stub, in a
 * unit, of a type its type unit defines) stands for that type unit's
 * type: the DIE T names, or the type DIE it is a stub of. */
static uint64_t signature_target(dwexpr_libdwarf *ld, size_t file, uint64_t t)
{
    Dwarf_Die d;
    if (ld_offdie(ld, file, t, &d, NULL) != DWEXPR_OK)
        return t;
    Dwarf_Debug dbg = ld->files[file].dbg;
    Dwarf_Attribute a;
    uint64_t o;
    if (get_attr(dbg, d, DW_AT_signature, &a)) {
        if (attr_ref(dbg, d, a, &o))
            t = o;
        dwarf_dealloc_attribute(a);
    }
    dwarf_dealloc_die(d);
    return t;
}

/* Reference attribute AT of D as a DIE offset (die_offset's); a type
 * (DW_AT_type, DW_AT_containing_type) through its signature stub. */
bool ld_die_ref(dwexpr_libdwarf *ld, size_t file, Dwarf_Die d, Dwarf_Half at, uint64_t *out)
{
    Dwarf_Debug dbg = ld->files[file].dbg;
    Dwarf_Attribute a;
    if (!get_attr(dbg, d, at, &a))
        return false;
    const bool ok = attr_ref(dbg, d, a, out);
    dwarf_dealloc_attribute(a);
    if (ok && ld->files[file].type_units && (at == DW_AT_type || at == DW_AT_containing_type))
        *out = signature_target(ld, file, *out);
    if (ok && ld->files[file].decl_types && at == DW_AT_type) {
        /* a Rust or C++ declaration another unit defines (resolve_decls) */
        const uint64_t *def = ld_map_get(&ld->decl_defs, file, *out);
        if (def)
            *out = *def;
    }
    return ok;
}

/* Flag attribute AT of D (false when absent). */
bool ld_die_flag(dwexpr_libdwarf *ld, size_t file, Dwarf_Die d, Dwarf_Half at)
{
    Dwarf_Debug dbg = ld->files[file].dbg;
    Dwarf_Attribute a;
    if (!get_attr(dbg, d, at, &a))
        return false;
    Dwarf_Bool b = 0;
    Dwarf_Error e = NULL;
    if (dwarf_formflag(a, &b, &e) == DW_DLV_ERROR)
        ld_drop(dbg, e);
    dwarf_dealloc_attribute(a);
    return b != 0;
}

/* A string attribute, copied into the pool (NULL if absent). */
static const char *die_string(dwexpr_libdwarf *ld, size_t file, Dwarf_Die d, Dwarf_Half at)
{
    return ld_die_string(ld, file, d, at);
}

const char *ld_die_string(dwexpr_libdwarf *ld, size_t file, Dwarf_Die d, Dwarf_Half at)
{
    Dwarf_Debug dbg = ld->files[file].dbg;
    Dwarf_Attribute a;
    if (!get_attr(dbg, d, at, &a))
        return NULL;
    char *s = NULL;
    Dwarf_Error e = NULL;
    if (dwarf_formstring(a, &s, &e) == DW_DLV_ERROR) {
        ld_drop(dbg, e);
        s = NULL;
    }
    const char *r = ld_pool_strdup(&ld->pool, s);
    dwarf_dealloc_attribute(a);
    return r;
}

static Dwarf_Half die_tag(Dwarf_Debug dbg, Dwarf_Die d)
{
    Dwarf_Half t = 0;
    Dwarf_Error e = NULL;
    if (dwarf_tag(d, &t, &e) == DW_DLV_ERROR)
        ld_drop(dbg, e);
    return t;
}


/* dwarf_siblingof_b that only moves forward: a sibling at or before C
 * (a DW_AT_sibling pointing back, in a damaged unit) ends the chain as
 * DW_DLV_NO_ENTRY instead of looping forever (found by fuzz_libdwarf). */
int ld_sibling(Dwarf_Debug dbg, Dwarf_Die c, Dwarf_Die *next, Dwarf_Error *e)
{
    int r = dwarf_siblingof_b(dbg, c, !c || dwarf_get_die_infotypes_flag(c), next, e);
    if (r == DW_DLV_OK && die_offset(dbg, *next) <= die_offset(dbg, c)) {
        dwarf_dealloc_die(*next);
        *next = NULL;
        return DW_DLV_NO_ENTRY;
    }
    return r;
}

/* See ld_int.h. */
int ld_first_child(Dwarf_Debug dbg, Dwarf_Die d, Dwarf_Die *c)
{
    Dwarf_Error e = NULL;
    const int r = dwarf_child(d, c, &e);
    if (r == DW_DLV_ERROR)
        ld_drop(dbg, e);
    return r;
}

/* See ld_int.h. */
int ld_next_sibling(Dwarf_Debug dbg, Dwarf_Die *c)
{
    Dwarf_Die next = NULL;
    Dwarf_Error e = NULL;
    const int r = ld_sibling(dbg, *c, &next, &e);
    if (r == DW_DLV_ERROR)
        ld_drop(dbg, e);
    dwarf_dealloc_die(*c);
    *c = r == DW_DLV_OK ? next : NULL;
    return r;
}

/* The DIE at OFF of FILE; E_NOT_FOUND when there is none. */
dwexpr_status ld_offdie(dwexpr_libdwarf *ld, size_t file, uint64_t off, Dwarf_Die *out,
                        dwexpr_error *err)
{
    Dwarf_Error e = NULL;
    int r = dwarf_offdie_b(ld->files[file].dbg, off & ~LD_TYPES_OFF, !(off & LD_TYPES_OFF), out,
                           &e);
    if (r == DW_DLV_ERROR) {
        ld_drop(ld->files[file].dbg, e);
        return ld_fail(err, DWEXPR_E_NOT_FOUND, "no DIE at .debug_info offset 0x%llx",
                       (unsigned long long)off);
    }
    if (r != DW_DLV_OK)
        return ld_fail(err, DWEXPR_E_NOT_FOUND, "no DIE at .debug_info offset 0x%llx",
                       (unsigned long long)off);
    return DWEXPR_OK;
}

/* An address attribute (DW_FORM_addr or an indexed form) of D in unit U. */
static bool die_addr(dwexpr_libdwarf *ld, const ld_unit *u, Dwarf_Die d, Dwarf_Half at,
                     uint64_t *out)
{
    Dwarf_Debug dbg = ld->files[u->file].dbg;
    Dwarf_Attribute a;
    if (!get_attr(dbg, d, at, &a))
        return false;
    Dwarf_Half f = form_of(dbg, a);
    Dwarf_Error e = NULL;
    bool ok = false;
    if (dwarf_addr_form_is_indexed(f)) {
        Dwarf_Unsigned idx;
        if (dwarf_get_debug_addr_index(a, &idx, &e) == DW_DLV_OK)
            ok = ld_debug_addr(ld, u, idx, out, NULL) == DWEXPR_OK;
        else
            ld_drop(dbg, e);
    } else if (f == DW_FORM_addr) {
        Dwarf_Addr v;
        if (dwarf_formaddr(a, &v, &e) == DW_DLV_OK) {
            *out = v;
            ok = true;
        } else {
            ld_drop(dbg, e);
        }
    }
    dwarf_dealloc_attribute(a);
    return ok;
}

/* ---- units ---- */

ld_unit *ld_unit_at(const dwexpr_libdwarf *ld, size_t i)
{
    return i < ld->units.n ? (ld_unit *)ld->units.v + i : NULL;
}

/* See ld_int.h. */
dwexpr_status ld_value_die(dwexpr_libdwarf *ld, size_t *unit, uint64_t *die)
{
    const ld_unit *u = ld_unit_at(ld, *unit);
    if (!u)
        return DWEXPR_E_NOT_FOUND;
    const size_t file = u->file;
    uint64_t at = *die;
    size_t au = *unit;
    for (int hop = 0; hop < 8; hop++) {
        Dwarf_Die x;
        dwexpr_libdwarf_attr a;
        if (au == SIZE_MAX)
            return DWEXPR_E_NOT_FOUND;
        /* the attributes first (remembered by attr_get): the DIE itself is
         * read only to follow its references */
        if (dwexpr_libdwarf_attr_get(ld, au, at, DW_AT_location, &a, NULL) == DWEXPR_OK ||
            dwexpr_libdwarf_attr_get(ld, au, at, DW_AT_const_value, &a, NULL) == DWEXPR_OK) {
            *unit = au;
            *die = at;
            return DWEXPR_OK;
        }
        if (ld_offdie(ld, file, at, &x, NULL) != DWEXPR_OK)
            return DWEXPR_E_NOT_FOUND;
        uint64_t o;
        const bool more = ld_die_ref(ld, file, x, DW_AT_specification, &o) ||
                          ld_die_ref(ld, file, x, DW_AT_abstract_origin, &o);
        dwarf_dealloc_die(x);
        if (!more || o == at)
            return DWEXPR_E_NOT_FOUND;
        at = o;
        au = ld_unit_of(ld, file, at);
    }
    return DWEXPR_E_NOT_FOUND;
}

/* Linear search over the unit table (units are few). */
size_t ld_unit_of(const dwexpr_libdwarf *ld, size_t file, uint64_t off)
{
    for (size_t i = 0; i < ld->units.n; i++) {
        const ld_unit *u = ld_unit_at(ld, i);
        if (u->file == file && off >= u->hdr && off < u->end)
            return i;
    }
    return SIZE_MAX;
}

/* DWARF 5 7.27: entry INDEX of the unit's .debug_addr contribution. */
dwexpr_status ld_debug_addr(const dwexpr_libdwarf *ld, const ld_unit *u, uint64_t index,
                            uint64_t *out, dwexpr_error *err)
{
    /* .debug_addr lives in the main file, also for split units (DWARF 5 7.27) */
    ld_section s = ld_elf_section(&ld->files[0].elf, ".debug_addr");
    if (!s.data)
        return ld_fail(err, DWEXPR_E_NOT_FOUND, "no .debug_addr section");
    if (s.compressed)
        return ld_fail(err, DWEXPR_E_TARGET, "compressed .debug_addr is not supported");
    uint64_t base = u->pub.addr_base;
    if (!base && u->pub.unit.version >= 5)
        base = u->pub.unit.offset_size == 8 ? 16 : 8; /* just past the header */
    unsigned as = u->pub.unit.addr_size;
    if (index > s.size / as || base > s.size || (index * as) > s.size - base ||
        s.size - base - index * as < as)
        return ld_fail(err, DWEXPR_E_NOT_FOUND, ".debug_addr has no entry %llu (base 0x%llx)",
                       (unsigned long long)index, (unsigned long long)base);
    ld_cursor c = {s.data + base + index * as, s.data + s.size, ld->files[0].elf.big, false};
    *out = ld_get_u(&c, as);
    return DWEXPR_OK;
}

size_t dwexpr_libdwarf_unit_count(const dwexpr_libdwarf *ld)
{
    return ld ? ld->units.n : 0;
}

const dwexpr_libdwarf_unit *dwexpr_libdwarf_unit_get(const dwexpr_libdwarf *ld, size_t i)
{
    const ld_unit *u = ld ? ld_unit_at(ld, i) : NULL;
    return u ? &u->pub : NULL;
}

uint64_t dwexpr_libdwarf_unit_language(const dwexpr_libdwarf *ld, size_t i)
{
    const ld_unit *u = ld ? ld_unit_at(ld, i) : NULL;
    return u ? u->language : 0;
}

uint16_t dwexpr_libdwarf_machine(const dwexpr_libdwarf *ld)
{
    return ld ? ld->files[0].elf.machine : 0;
}

const char *dwexpr_libdwarf_arch_name(const dwexpr_libdwarf *ld)
{
    return ld ? ld->arch : "generic64";
}

void dwexpr_libdwarf_set_load_bias(dwexpr_libdwarf *ld, uint64_t bias)
{
    if (!ld)
        return;
    ld->load_bias = bias;
    for (size_t i = 0; i < ld->units.n; i++)
        ld_unit_at(ld, i)->pub.unit.load_bias = bias;
}

void dwexpr_libdwarf_set_address_range(dwexpr_libdwarf *ld, uint64_t lo, uint64_t hi)
{
    if (!ld)
        return;
    ld->range_lo = lo;
    ld->range_hi = hi;
}

/* ---- base types ---- */

/* Read base type D (at unit-relative REL of unit UNIT) into T; false if
 * D is not a DW_TAG_base_type. */
static bool read_base_type(dwexpr_libdwarf *ld, size_t file, Dwarf_Die d, uint64_t rel,
                           dwexpr_type *t)
{
    Dwarf_Debug dbg = ld->files[file].dbg;
    if (die_tag(dbg, d) != DW_TAG_base_type)
        return false;
    uint64_t v;
    memset(t, 0, sizeof *t);
    t->die = rel;
    if (ld_die_udata(ld, file, d, DW_AT_bit_size, &v))
        t->bits = (uint32_t)v;
    else if (ld_die_udata(ld, file, d, DW_AT_byte_size, &v))
        t->bits = (uint32_t)(8 * v);
    if (ld_die_udata(ld, file, d, DW_AT_encoding, &v))
        t->encoding = (uint16_t)v;
    t->endian = DW_END_default;
    if (ld_die_udata(ld, file, d, DW_AT_endianity, &v))
        t->endian = (uint8_t)v;
    t->lanes = 1;
    /* seed "DW_AT_LLVM_vector_size": N elements of the type's size */
    if (ld_die_udata(ld, file, d, LD_AT_LLVM_vector_size, &v) ||
        ld_die_udata(ld, file, d, LD_AT_LLVM_vector_size_seed, &v))
        t->lanes = v ? (uint16_t)v : 1;
    /* a float's format is the ELF machine's for its size and name (x86-64:
     * a 16-byte long double is x87's, __float128 binary128) */
    if (t->encoding == DW_ATE_float)
        t->format = dwexpr_arch_float_format(dwexpr_arch_find(ld->arch), t->bits,
                                             die_string(ld, file, d, DW_AT_name));
    return true;
}

/* Cached: a miss is remembered as a type with die UINT64_MAX. */
dwexpr_status ld_base_type(dwexpr_libdwarf *ld, size_t unit, uint64_t off, dwexpr_type *out)
{
    ld_unit *u = ld_unit_at(ld, unit);
    if (!u)
        return DWEXPR_E_NOT_FOUND;
    dwexpr_type *c = ld_map_get(&ld->btype_cache, unit, off);
    if (c) {
        if (c->bits == 0 && c->die == UINT64_MAX)
            return DWEXPR_E_NOT_FOUND;
        *out = *c;
        return DWEXPR_OK;
    }
    c = ld_pool_alloc(&ld->pool, sizeof *c);
    if (!c)
        return DWEXPR_E_NOMEM;
    /* the unit's own list first: the service then answers exactly what
     * dwexpr_libdwarf_base_types lists (libdwarf 20210528 can read a DIE
     * of a damaged unit differently by offset than in the walk: found by
     * fuzz/fuzz_libdwarf.c) */
    bool ok = false;
    const dwexpr_libdwarf_base_type *listed = u->btypes.v;
    for (size_t i = 0; i < u->btypes.n && !ok; i++) {
        if (listed[i].die == off) {
            *c = listed[i].type;
            ok = true;
        }
    }
    Dwarf_Die d;
    if (!ok && off < u->end - u->hdr &&
        ld_offdie(ld, u->file, u->hdr + off, &d, NULL) == DWEXPR_OK) {
        ok = read_base_type(ld, u->file, d, off, c);
        dwarf_dealloc_die(d);
    }
    if (!ok)
        c->die = UINT64_MAX;
    ld_map_put(&ld->btype_cache, unit, off, c);
    if (!ok)
        return DWEXPR_E_NOT_FOUND;
    *out = *c;
    return DWEXPR_OK;
}

size_t dwexpr_libdwarf_base_types(const dwexpr_libdwarf *ld, size_t unit,
                                  const dwexpr_libdwarf_base_type **out)
{
    const ld_unit *u = ld ? ld_unit_at(ld, unit) : NULL;
    if (!u) {
        if (out)
            *out = NULL;
        return 0;
    }
    if (out)
        *out = u->btypes.v;
    return u->btypes.n;
}

/* ---- attribute values ---- */

/* Attributes whose sec_offset / DWARF 2-3 data4/data8 values point to
 * location lists (DWARF 5 7.5.5 classes loclist / loclistsptr). */
static bool location_class(Dwarf_Half at)
{
    switch (at) {
    case DW_AT_location: case DW_AT_frame_base: case DW_AT_string_length:
    case DW_AT_return_addr: case DW_AT_static_link: case DW_AT_use_location:
    case DW_AT_vtable_elem_location: case DW_AT_data_member_location: case DW_AT_segment:
        return true;
    default:
        return false;
    }
}

/* VALUE as SIZE bytes in the target order of FILE, in pool memory. */
static const uint8_t *encode(dwexpr_libdwarf *ld, size_t file, uint64_t value, size_t size)
{
    uint8_t *b = ld_pool_alloc(&ld->pool, size ? size : 1);
    if (!b)
        return NULL;
    bool big = ld->files[file].elf.big;
    for (size_t i = 0; i < size; i++) {
        uint8_t byte = i < 8 ? (uint8_t)(value >> (8 * i)) : ((int64_t)value < 0 ? 0xff : 0);
        b[big ? size - 1 - i : i] = byte;
    }
    return b;
}

/* Size of a fixed-size data form, 0 for the others. */
static size_t data_form_size(Dwarf_Half f)
{
    switch (f) {
    case DW_FORM_data1: return 1;
    case DW_FORM_data2: return 2;
    case DW_FORM_data4: return 4;
    case DW_FORM_data8: return 8;
    default: return 0;
    }
}

/* The type DIE of D (through DW_AT_abstract_origin), 0 if none. */
static uint64_t die_type(dwexpr_libdwarf *ld, size_t file, Dwarf_Die d);

/* Read attribute AT of DIE (in unit UNIT) into OUT (pool memory). */
static dwexpr_status read_attr(dwexpr_libdwarf *ld, size_t unit, uint64_t die, Dwarf_Half at,
                               dwexpr_libdwarf_attr *out, dwexpr_error *err)
{
    ld_unit *u = ld_unit_at(ld, unit);
    size_t file = u->file;
    Dwarf_Debug dbg = ld->files[file].dbg;
    Dwarf_Die d;
    dwexpr_status st = ld_offdie(ld, file, die, &d, err);
    if (st)
        return st;
    memset(out, 0, sizeof *out);
    out->attr = at;
    out->unit = unit;
    Dwarf_Attribute a;
    if (!get_attr(dbg, d, at, &a)) {
        dwarf_dealloc_die(d);
        out->kind = DWEXPR_LIBDWARF_ATTR_NONE;
        return ld_fail(err, DWEXPR_E_NOT_FOUND, "DIE 0x%llx has no attribute 0x%x",
                       (unsigned long long)die, (unsigned)at);
    }
    Dwarf_Half f = form_of(dbg, a);
    out->form = f;
    Dwarf_Error e = NULL;
    uint64_t v = 0;
    st = DWEXPR_OK;
    switch (f) {
    case DW_FORM_exprloc: {
        Dwarf_Unsigned len = 0;
        Dwarf_Ptr p = NULL;
        if (dwarf_formexprloc(a, &len, &p, &e) != DW_DLV_OK) {
            st = ld_dwfail(dbg, e, err, "exprloc");
            break;
        }
        out->kind = DWEXPR_LIBDWARF_ATTR_EXPR;
        out->data = p;
        out->len = (size_t)len;
        break;
    }
    case DW_FORM_block1: case DW_FORM_block2: case DW_FORM_block4: case DW_FORM_block: {
        Dwarf_Block *blk = NULL;
        if (dwarf_formblock(a, &blk, &e) != DW_DLV_OK) {
            st = ld_dwfail(dbg, e, err, "block");
            break;
        }
        uint8_t *copy = ld_pool_alloc(&ld->pool, blk->bl_len ? blk->bl_len : 1);
        if (copy)
            memcpy(copy, blk->bl_data, blk->bl_len);
        out->data = copy;
        out->len = (size_t)blk->bl_len;
        dwarf_dealloc(dbg, blk, DW_DLA_BLOCK);
        /* DWARF 2/3 location expressions are blocks (DWARF 3 7.5.4) */
        out->kind = at == DW_AT_const_value ? DWEXPR_LIBDWARF_ATTR_CONST
                                            : DWEXPR_LIBDWARF_ATTR_EXPR;
        break;
    }
    case DW_FORM_loclistx:
    case DW_FORM_sec_offset:
        if (!location_class(at) && f == DW_FORM_sec_offset) {
            out->kind = DWEXPR_LIBDWARF_ATTR_OTHER;
            break;
        }
        if (!attr_u(dbg, a, f, &v)) {
            st = ld_fail(err, DWEXPR_E_TARGET, "cannot read the list offset of DIE 0x%llx",
                         (unsigned long long)die);
            break;
        }
        st = ld_read_loclist(ld, u, f, v, out, err);
        break;
    case DW_FORM_data4: case DW_FORM_data8:
        if (u->pub.unit.version <= 3 && location_class(at)) {
            /* DWARF 2/3 loclistptr (DWARF 3 7.5.4) */
            if (!attr_u(dbg, a, f, &v)) {
                st = ld_fail(err, DWEXPR_E_TARGET, "cannot read a list offset");
                break;
            }
            st = ld_read_loclist(ld, u, DW_FORM_sec_offset, v, out, err);
            break;
        }
        /* fall through */
    case DW_FORM_data1: case DW_FORM_data2: case DW_FORM_udata: case DW_FORM_sdata:
    case DW_FORM_implicit_const: {
        if (!attr_u(dbg, a, f, &v)) {
            st = ld_fail(err, DWEXPR_E_TARGET, "cannot read a constant of DIE 0x%llx",
                         (unsigned long long)die);
            break;
        }
        out->kind = DWEXPR_LIBDWARF_ATTR_CONST;
        out->uconst = v;
        out->sconst = (int64_t)v;
        out->is_signed = f == DW_FORM_sdata || f == DW_FORM_implicit_const;
        size_t size = data_form_size(f);
        if (at == DW_AT_const_value) {
            /* DWARF 5 4.1: the constant in the representation of the
             * variable's type, as many bytes as the type has; sdata is
             * signed, udata not, and a fixed-size data form (DWARF 5
             * 7.5.5 leaves its signedness to the consumer) is
             * zero-extended, whatever the type's signedness, as GDB's
             * dwarf2_const_value_data reads it (the form's bits, masked):
             * GCC writes a negative constant as sdata and a non-negative
             * one in the smallest data form it fits unsigned ("int x =
             * 200" is DW_FORM_data1 0xc8, GDB's 200), clang a signed
             * type's as sdata and an unsigned one's in a data form */
            uint64_t type = die_type(ld, file, d);
            uint64_t tb = ld_type_bytes(ld, unit, type);
            size = tb ? (size_t)tb : (size ? size : 8);
        }
        if (!size)
            size = 8;
        out->data = encode(ld, file, v, size);
        out->len = size;
        break;
    }
    case DW_FORM_data16: {
        Dwarf_Form_Data16 d16;
        if (dwarf_formdata16(a, &d16, &e) != DW_DLV_OK) {
            st = ld_dwfail(dbg, e, err, "data16");
            break;
        }
        uint8_t *copy = ld_pool_alloc(&ld->pool, 16);
        if (copy)
            memcpy(copy, d16.fd_data, 16);
        out->kind = DWEXPR_LIBDWARF_ATTR_CONST;
        out->data = copy;
        out->len = 16;
        for (int i = 0; i < 8; i++)
            out->uconst |= (uint64_t)d16.fd_data[ld->files[file].elf.big ? 15 - i : i] << (8 * i);
        out->sconst = (int64_t)out->uconst;
        break;
    }
    case DW_FORM_string: case DW_FORM_strp: case DW_FORM_line_strp: case DW_FORM_strx:
    case DW_FORM_strx1: case DW_FORM_strx2: case DW_FORM_strx3: case DW_FORM_strx4:
    case DW_FORM_GNU_str_index: case DW_FORM_GNU_strp_alt: {
        out->kind = DWEXPR_LIBDWARF_ATTR_OTHER;
        if (at != DW_AT_const_value)
            break;
        char *s = NULL;
        if (dwarf_formstring(a, &s, &e) != DW_DLV_OK) {
            st = ld_dwfail(dbg, e, err, "string");
            break;
        }
        /* a string constant: its bytes and the terminating NUL */
        out->kind = DWEXPR_LIBDWARF_ATTR_CONST;
        out->len = strlen(s) + 1;
        uint8_t *copy = ld_pool_alloc(&ld->pool, out->len);
        if (copy)
            memcpy(copy, s, out->len);
        out->data = copy;
        break;
    }
    case DW_FORM_ref1: case DW_FORM_ref2: case DW_FORM_ref4: case DW_FORM_ref8:
    case DW_FORM_ref_udata: case DW_FORM_ref_addr: case DW_FORM_GNU_ref_alt:
    case DW_FORM_ref_sig8: {
        uint64_t o;
        if (!attr_ref(dbg, d, a, &o)) {
            st = ld_fail(err, DWEXPR_E_ILL_FORMED, "a reference that names no DIE");
            break;
        }
        out->kind = DWEXPR_LIBDWARF_ATTR_REF;
        out->ref = o;
        break;
    }
    default:
        out->kind = DWEXPR_LIBDWARF_ATTR_OTHER;
        break;
    }
    dwarf_dealloc_attribute(a);
    dwarf_dealloc_die(d);
    if (st == DWEXPR_OK && out->kind == DWEXPR_LIBDWARF_ATTR_CONST && !out->data)
        st = ld_fail(err, DWEXPR_E_NOMEM, "out of memory");
    return st;
}

dwexpr_status dwexpr_libdwarf_attr_get(dwexpr_libdwarf *ld, size_t unit, uint64_t die,
                                       uint16_t at, dwexpr_libdwarf_attr *out, dwexpr_error *err)
{
    if (!ld || !out)
        return ld_fail(err, DWEXPR_E_USAGE, "no adapter or output");
    memset(out, 0, sizeof *out);
    ld_unit *u = ld_unit_at(ld, unit);
    if (!u)
        return ld_fail(err, DWEXPR_E_NOT_FOUND, "no unit %zu", unit);
    uint64_t k1 = ((uint64_t)u->file << 48) | die;
    dwexpr_libdwarf_attr *c = ld_map_get(&ld->attrs, k1, at);
    if (c) {
        *out = *c;
        if (c->kind == DWEXPR_LIBDWARF_ATTR_NONE)
            return ld_fail(err, DWEXPR_E_NOT_FOUND, "DIE 0x%llx has no attribute 0x%x",
                           (unsigned long long)die, (unsigned)at);
        return DWEXPR_OK;
    }
    dwexpr_status st = read_attr(ld, unit, die, at, out, err);
    if (st && st != DWEXPR_E_NOT_FOUND)
        return st;
    if (st == DWEXPR_E_NOT_FOUND)
        out->kind = DWEXPR_LIBDWARF_ATTR_NONE;
    c = ld_pool_alloc(&ld->pool, sizeof *c);
    if (c) {
        *c = *out;
        ld_map_put(&ld->attrs, k1, at, c);
    }
    return st;
}

/* ---- types: names and sizes ---- */

typedef struct ld_tinfo {
    const char *name;     /* C spelling */
    uint64_t bytes;       /* 0 unknown */
} ld_tinfo;

/* DW_AT_type of D, else of the DIE its DW_AT_abstract_origin or
 * DW_AT_specification names, followed as far as they go (DWARF 5 2.13,
 * 3.3.8.1: GCC's LTO units give a global's concrete DIE an abstract
 * origin whose specification is the declaration with the type); 0 if
 * none. */
static uint64_t die_type_depth(dwexpr_libdwarf *ld, size_t file, Dwarf_Die d, int depth)
{
    uint64_t t = 0, o;
    if (ld_die_ref(ld, file, d, DW_AT_type, &t))
        return t;
    if (depth < 8 && (ld_die_ref(ld, file, d, DW_AT_abstract_origin, &o) ||
                      ld_die_ref(ld, file, d, DW_AT_specification, &o))) {
        Dwarf_Die od;
        if (ld_offdie(ld, file, o, &od, NULL) == DWEXPR_OK) {
            t = die_type_depth(ld, file, od, depth + 1);
            dwarf_dealloc_die(od);
        }
    }
    return t;
}

static uint64_t die_type(dwexpr_libdwarf *ld, size_t file, Dwarf_Die d)
{
    return die_type_depth(ld, file, d, 0);
}

/* A growable string for type spelling. */
typedef struct sbuf {
    char b[2048]; /* libstdc++'s class names run to several hundred bytes */
} sbuf;

/* DST = A B C D, truncated to CAP bytes. */
static void cat4(char *dst, size_t cap, const char *a, const char *b, const char *c,
                 const char *d)
{
    const char *parts[4] = {a, b, c, d};
    size_t n = 0;
    for (int i = 0; i < 4; i++)
        for (const char *p = parts[i]; *p && n + 1 < cap; p++)
            dst[n++] = *p;
    dst[n] = 0;
}

/* S = A B C. */
static void sset(sbuf *s, const char *a, const char *b, const char *c)
{
    cat4(s->b, sizeof s->b, a, b, c, "");
}

/* Whether FORM is a reference, an expression or a location list: an
 * attribute computed at run time (DWARF 5 2.19), not a constant. A list
 * (DW_FORM_sec_offset, DW_FORM_loclistx: class loclist) is what
 * DW_AT_string_length may be besides (DWARF 5 5.11, Table 7.5): gfortran
 * -O2 -fno-inline gives an out-of-line instance's character(len=*) dummy
 * a type whose length is a list ("DW_OP_lit5; DW_OP_stack_value" over
 * the function), whose offset is no length. */
static bool form_dynamic(Dwarf_Half f)
{
    return f == DW_FORM_exprloc || (f >= DW_FORM_ref1 && f <= DW_FORM_ref_udata) ||
           f == DW_FORM_ref_addr || f == DW_FORM_block1 || f == DW_FORM_block2 ||
           f == DW_FORM_block4 || f == DW_FORM_block || f == DW_FORM_sec_offset ||
           f == DW_FORM_loclistx;
}

/* Constant attribute AT of D: 1 with *OUT (DW_FORM_sdata and
 * DW_FORM_implicit_const sign-extended), 0 when absent, -1 when computed
 * at run time (an expression or a reference) or unreadable. */
static int const_attr(dwexpr_libdwarf *ld, size_t file, Dwarf_Die d, Dwarf_Half at, uint64_t *out)
{
    Dwarf_Debug dbg = ld->files[file].dbg;
    Dwarf_Attribute a;
    if (!get_attr(dbg, d, at, &a))
        return 0;
    Dwarf_Half f = form_of(dbg, a);
    bool ok = !form_dynamic(f) && attr_u(dbg, a, f, out);
    dwarf_dealloc_attribute(a);
    return ok ? 1 : -1;
}

/* Element count of array dimension D (subrange or enumeration) of unit
 * UNIT, 0 unknown. A bound that is an expression or a reference makes the
 * count *DYNAMIC; without DW_AT_lower_bound the lower bound is the
 * language's default (DWARF 5 Table 7.17: 1 for Fortran, 0 for C). */
static uint64_t subrange_count(dwexpr_libdwarf *ld, size_t unit, size_t file, Dwarf_Die d,
                               bool *known, bool *dynamic)
{
    uint64_t v, lo = (uint64_t)ld_default_lower_bound(ld, unit);
    *known = false;
    *dynamic = false;
    int c = const_attr(ld, file, d, DW_AT_count, &v);
    if (c == 0)
        c = const_attr(ld, file, d, DW_AT_upper_bound, &v);
    else if (c == 1) {
        *known = true;
        return v;
    }
    int l = const_attr(ld, file, d, DW_AT_lower_bound, &lo);
    if (c < 0 || l < 0) {
        Dwarf_Attribute a;
        /* a count or bound computed at run time (GDB: "variable length") */
        bool dyn = false;
        const Dwarf_Half ats[3] = {DW_AT_count, DW_AT_upper_bound, DW_AT_lower_bound};
        for (int i = 0; i < 3; i++)
            if (get_attr(ld->files[file].dbg, d, ats[i], &a)) {
                dyn |= form_dynamic(form_of(ld->files[file].dbg, a));
                dwarf_dealloc_attribute(a);
            }
        *dynamic = dyn;
        return 0;
    }
    if (c == 0)
        return 0; /* no upper bound: an array of unknown size ("int []") */
    *known = true;
    return (int64_t)v < (int64_t)lo ? 0 : v - lo + 1;
}

/* How a language qualifies function names (GDB's determine_prefix):
 * C++ and Rust by namespaces and classes (rustc puts a function in the
 * namespaces of its crate and modules, a method or closure in those of
 * its impl or function), Fortran by modules and host procedures, the
 * others not at all. */
enum ld_lang { LANG_PLAIN, LANG_CPLUS, LANG_FORTRAN, LANG_RUST };

/* ld->prefixes keys of qualifiers that are a Fortran host procedure's
 * name: the file index with this bit. */
#define LD_HOST_KEY ((uint64_t)1 << 63)

/* The unit language LANG (DW_AT_language, DWARF 5 Table 7.17) as ld_lang. */
static enum ld_lang lang_kind(uint64_t lang)
{
    switch (lang) {
    case DW_LANG_C_plus_plus: case DW_LANG_C_plus_plus_03: case DW_LANG_C_plus_plus_11:
    case DW_LANG_C_plus_plus_14: case 0x2a /* DW_LANG_C_plus_plus_17 */:
    case 0x2b /* DW_LANG_C_plus_plus_20 */:
        return LANG_CPLUS;
    case DW_LANG_Fortran77: case DW_LANG_Fortran90: case DW_LANG_Fortran95:
    case DW_LANG_Fortran03: case DW_LANG_Fortran08: case 0x2d /* DW_LANG_Fortran18 */:
        return LANG_FORTRAN;
    case DW_LANG_Rust:
        return LANG_RUST;
    default:
        return LANG_PLAIN;
    }
}

/* Whether LANG (DW_AT_language) is C. GDB names a C function by its
 * DW_AT_linkage_name when it has one (an assembler name: glibc's
 * __GI_raise for raise, `int f(void) __asm__("g")`): the symbol's
 * linkage name, which no demangler takes apart, is its print name
 * (dwarf2_physname); C++ ones it demangles (funcname_demangle), Fortran
 * ones it qualifies by module. */
static bool lang_is_c(uint64_t lang);

/* Whether names in language LANG are qualified by the namespaces and
 * classes around their DIEs (GDB's dwarf2_compute_name does so for C++
 * and Rust, among the languages here). */
static bool lang_namespaced(enum ld_lang lang)
{
    return lang == LANG_CPLUS || lang == LANG_RUST;
}

static bool lang_is_c(uint64_t lang)
{
    return lang == DW_LANG_C89 || lang == DW_LANG_C || lang == DW_LANG_C99 ||
           lang == 0x1d /* DW_LANG_C11 */ || lang == 0x2c /* DW_LANG_C17 */;
}

/* PREFIX::NAME in the pool (NAME alone when PREFIX is NULL or empty). */
static const char *qualify(dwexpr_libdwarf *ld, const char *prefix, const char *name)
{
    if (!prefix || !*prefix)
        return ld_pool_strdup(&ld->pool, name);
    size_t a = strlen(prefix), b = strlen(name);
    char *q = ld_pool_alloc(&ld->pool, a + b + 3);
    if (q) {
        memcpy(q, prefix, a);
        memcpy(q + a, "::", 2);
        memcpy(q + a + 2, name, b + 1);
    }
    return q;
}

/* NAME of type DIE T (FILE) qualified as the walk recorded its place
 * (type_prefixes: C++ namespaces and classes); NAME alone elsewhere. */
static const char *type_qualified(dwexpr_libdwarf *ld, size_t file, uint64_t t, const char *name)
{
    const char *prefix = ld_map_get(&ld->prefixes, file, t);
    const char *q = prefix ? qualify(ld, prefix, name) : name;
    return q ? q : name;
}

/* An output buffer of canon_name: false once it is full. */
typedef struct cbuf {
    char *b;
    size_t n, cap;
    bool ok;
} cbuf;

static void cput(cbuf *o, const char *s, size_t len)
{
    if (!o->ok || o->n + len >= o->cap) {
        o->ok = false;
        return;
    }
    memcpy(o->b + o->n, s, len);
    o->n += len;
    o->b[o->n] = 0;
}

static void canon_name(const char *s, size_t len, cbuf *o);

/* Where the template argument starting at S (at most END) ends: its
 * top-level ',' or '>' (nested <>, () and [] skipped). */
static const char *arg_end(const char *s, const char *end)
{
    int depth = 0;
    for (; s < end; s++) {
        if (*s == '<' || *s == '(' || *s == '[')
            depth++;
        else if ((*s == '>' || *s == ')' || *s == ']') && depth > 0)
            depth--;
        else if (depth == 0 && (*s == ',' || *s == '>'))
            return s;
    }
    return end;
}

static void canon_arg(const char *s, const char *end, cbuf *o);

/* A function, function pointer or array type as a template argument:
 * [S, AT) its return or element type, [AT, END) the groups after it:
 * "(*)" / "(&)" declarators kept, parameter lists with each parameter
 * canonicalized (canon_arg) and ", " between them, "[N]" bounds. GDB
 * writes "int (*)(char const*, int)", "void (int const&)", "int const
 * [3]", "int (&) [2]": a space before the first group and before a
 * bound. */
static void canon_declarator(const char *s, const char *at, const char *end, cbuf *o)
{
    canon_arg(s, at, o);
    bool first = true;
    for (const char *q = at; q < end;) {
        if (*q == ' ') {
            q++;
            continue;
        }
        const char close = *q == '(' ? ')' : *q == '[' ? ']' : 0;
        if (!close) {
            canon_name(q, (size_t)(end - q), o); /* something else: as it is */
            return;
        }
        int depth = 0;
        const char *g = q;
        for (; q < end; q++) {
            depth += (*q == '(' || *q == '[' || *q == '<') ? 1
                     : (*q == ')' || *q == ']' || *q == '>') ? -1 : 0;
            if (depth == 0)
                break;
        }
        if (q >= end) {
            canon_name(g, (size_t)(end - g), o); /* unbalanced */
            return;
        }
        q++; /* past the closer */
        if (first || close == ']')
            cput(o, " ", 1);
        first = false;
        /* "(*)", "(&)", "(* const)": a declarator, not parameters */
        bool declarator = close == ')';
        for (const char *k = g + 1; declarator && k < q - 1;) {
            if (*k == '*' || *k == '&' || *k == ' ')
                k++;
            else if (strncmp(k, "const", 5) == 0)
                k += 5;
            else if (strncmp(k, "volatile", 8) == 0)
                k += 8;
            else
                declarator = false;
        }
        if (close == ']' || declarator) {
            cput(o, g, (size_t)(q - g));
            continue;
        }
        /* a parameter list */
        cput(o, "(", 1);
        for (const char *a = g + 1; a < q - 1;) {
            const char *e = arg_end(a, q - 1);
            canon_arg(a, e, o);
            if (e >= q - 1 || *e != ',')
                break;
            cput(o, ", ", 2);
            a = e + 1;
        }
        cput(o, ")", 1);
    }
}

/* "& NAME" in [S, END) (spaces around; NAME without parentheses): the
 * start of NAME, else NULL. */
static const char *address_of(const char *s, const char *end)
{
    while (s < end && *s == ' ')
        s++;
    if (s >= end || *s != '&')
        return NULL;
    for (s++; s < end && *s == ' ';)
        s++;
    if (s >= end || memchr(s, '(', (size_t)(end - s)) || memchr(s, ')', (size_t)(end - s)))
        return NULL;
    return s;
}

/* GCC's spellings of a template argument that is an address constant,
 * "(& ns::v)" (a pointer non-type argument) and "((int const&)(& ns::v))"
 * (a reference one: a cast of it), as GDB's name canonicalization prints
 * them, its parser reading the expression and libiberty's printer
 * writing it: "&ns::v", "(int const&)(&ns::v)" (the parentheses around
 * the whole argument dropped, no space after the unary '&'; GDB 13's
 * "whatis" of a variable of GCC's "A<(& gj)>" is "A<&gj>"). [S, END) is
 * trimmed. False, nothing written, for another shape. */
static bool canon_address_arg(const char *s, const char *end, cbuf *o)
{
    if (end - s < 4 || *s != '(' || end[-1] != ')')
        return false;
    const char *in = s + 1, *in_end = end - 1;
    const char *name = address_of(in, in_end);
    if (name) {
        cput(o, "&", 1);
        canon_name(name, (size_t)(in_end - name), o);
        return true;
    }
    /* "((TYPE)(& NAME))" */
    while (in < in_end && *in == ' ')
        in++;
    if (*in != '(')
        return false;
    const char *type_end = memchr(in, ')', (size_t)(in_end - in));
    if (!type_end || memchr(in + 1, '(', (size_t)(type_end - in - 1)))
        return false;
    const char *op = type_end + 1;
    while (op < in_end && *op == ' ')
        op++;
    const char *op_end = in_end;
    while (op_end > op && op_end[-1] == ' ')
        op_end--;
    if (op_end - op < 3 || *op != '(' || op_end[-1] != ')' ||
        !(name = address_of(op + 1, op_end - 1)))
        return false;
    cput(o, in, (size_t)(type_end + 1 - in));
    cput(o, "(&", 2);
    canon_name(name, (size_t)(op_end - 1 - name), o);
    cput(o, ")", 1);
    return true;
}

/* One template argument [S, END) as GDB's C++ name canonicalization
 * prints it (cp_canonicalize_string, which GDB applies to clang's names;
 * GCC already writes them so): the qualifiers after what they qualify
 * and a pointer's star against its type: "const char *const" is "char
 * const* const", "volatile long" is "long volatile". An argument with
 * parentheses or brackets (a function or array type, a cast) keeps its
 * spelling; the template names inside are canonicalized all the same. */
static void canon_arg(const char *s, const char *end, cbuf *o)
{
    while (s < end && *s == ' ')
        s++;
    while (end > s && end[-1] == ' ')
        end--;
    int nest = 0;
    for (const char *q = s; q < end; q++) {
        nest += *q == '<' ? 1 : *q == '>' ? -1 : 0;
        if (nest == 0 && (*q == '(' || *q == '[')) {
            if (q == s) {
                if (canon_address_arg(s, end, o))
                    return;
                goto as_is; /* a cast: (char)97 */
            }
            canon_declarator(s, q, end, o);
            return;
        }
    }
    bool cv[2] = {false, false}; /* the base's const, volatile */
    char ptrs[64]; /* '*' or '&' per declarator, then 'c' / 'v' for its qualifiers */
    size_t np = 0;
    const char *words[16];
    size_t wlen[16], nw = 0;
    for (const char *q = s; q < end;) {
        if (*q == ' ') {
            q++;
        } else if (*q == '*' || *q == '&') {
            if (np + 1 >= sizeof ptrs)
                goto as_is;
            ptrs[np++] = *q++;
        } else {
            const char *w = q;
            int depth = 0;
            while (q < end && (depth > 0 || (*q != ' ' && *q != '*' && *q != '&'))) {
                depth += *q == '<' ? 1 : *q == '>' ? -1 : 0;
                q++;
            }
            const size_t k = (size_t)(q - w);
            const int qual = k == 5 && strncmp(w, "const", 5) == 0      ? 0
                             : k == 8 && strncmp(w, "volatile", 8) == 0 ? 1 : -1;
            if (qual >= 0 && np == 0) {
                cv[qual] = true;
            } else if (qual >= 0) {
                if (np + 1 >= sizeof ptrs)
                    goto as_is;
                ptrs[np++] = qual == 0 ? 'c' : 'v';
            } else if (np == 0 && nw < 16) {
                words[nw] = w;
                wlen[nw++] = k;
            } else {
                goto as_is; /* a word after a declarator: not a plain type */
            }
        }
    }
    if (nw == 0)
        goto as_is;
    for (size_t i = 0; i < nw; i++) {
        if (i)
            cput(o, " ", 1);
        canon_name(words[i], wlen[i], o);
    }
    if (cv[0])
        cput(o, " const", 6);
    if (cv[1])
        cput(o, " volatile", 9);
    for (size_t i = 0; i < np; i++) {
        if (ptrs[i] == 'c')
            cput(o, " const", 6);
        else if (ptrs[i] == 'v')
            cput(o, " volatile", 9);
        else
            cput(o, &ptrs[i], 1);
    }
    return;
as_is:
    canon_name(s, (size_t)(end - s), o);
}

/* NAME [S, S + LEN) with its template arguments canonicalized
 * (canon_arg), ", " between them and "> >" for nested closers, as GDB
 * prints C++ names. */
static void canon_name(const char *s, size_t len, cbuf *o)
{
    const char *end = s + len;
    while (s < end) {
        const char *lt = memchr(s, '<', (size_t)(end - s));
        if (!lt) {
            cput(o, s, (size_t)(end - s));
            return;
        }
        if (lt - s >= 8 && strncmp(lt - 8, "operator", 8) == 0) {
            /* operator<, <=, <<, <<=, <=>: not a template's arguments */
            const char *q = lt;
            while (q < end && (*q == '<' || *q == '=' || *q == '>'))
                q++;
            cput(o, s, (size_t)(q - s));
            s = q;
            continue;
        }
        cput(o, s, (size_t)(lt + 1 - s));
        s = lt + 1;
        for (;;) {
            const char *e = arg_end(s, end);
            canon_arg(s, e, o);
            if (e >= end)
                return; /* unbalanced: what there is */
            s = e + 1;
            if (*e == ',') {
                cput(o, ", ", 2);
                continue;
            }
            if (o->n && o->b[o->n - 1] == '>')
                cput(o, " ", 1);
            cput(o, ">", 1);
            break;
        }
    }
}

/* Whether GDB 13's C++ name parser fails on N, so that GDB keeps the
 * name as the compiler wrote it (dwarf2_canonicalize_name gives up):
 * GCC's lambda closure types ("f()::<lambda(int)>") and function types
 * in template arguments ("std::function<int(int)>": a parameter list
 * right after a type, not a pointer or reference declarator's "(*)",
 * nor the one after it, nor a cast "(char)97"). */
static bool gdb_unparsed(const char *n)
{
    if (strstr(n, "<lambda("))
        return true;
    int angle = 0;
    for (const char *p = n; *p; p++) {
        if (*p == '<')
            angle++;
        else if (*p == '>' && angle > 0)
            angle--;
        else if (*p == '(' && angle > 0 && p > n &&
                 (isalnum((unsigned char)p[-1]) || p[-1] == '_' || p[-1] == '>') &&
                 p[1] != '*' && p[1] != '&' && strncmp(p, "(anonymous namespace)", 21) != 0)
            return true;
    }
    return false;
}

/* C++ name N with GCC's spellings of integer types in its template
 * arguments as GDB's canonical names print them ("Tmpl<long int>" is
 * "Tmpl<long>"; gdb_base_name's table), integer suffixes in lower case
 * ("4UL" is "4ul"), and clang's spellings of
 * qualified and pointer arguments canonicalized as GDB does (canon_arg),
 * in the pool; N when there is nothing to change. */
static const char *cplus_name(dwexpr_libdwarf *ld, const char *n)
{
    static const char *const map[][2] = {
        {"long long unsigned int", "unsigned long long"},
        {"long long int", "long long"},
        {"long unsigned int", "unsigned long"},
        {"short unsigned int", "unsigned short"},
        {"long int", "long"},
        {"short int", "short"},
    };
    if (!n || !strchr(n, '<') || gdb_unparsed(n))
        return n;
    char buf[4096];
    size_t o = 0;
    for (const char *p = n; *p && o + 1 < sizeof buf;) {
        bool done = false;
        const bool start = p > n && (p[-1] == '<' || p[-1] == ' ' || p[-1] == ',' || p[-1] == '(');
        for (size_t i = 0; start && i < sizeof map / sizeof map[0]; i++) {
            const size_t k = strlen(map[i][0]);
            if (strncmp(p, map[i][0], k) == 0 && strchr(">,*& )[", p[k] ? p[k] : '>')) {
                const size_t r = strlen(map[i][1]);
                if (o + r >= sizeof buf)
                    return n;
                memcpy(buf + o, map[i][1], r);
                o += r;
                p += k;
                done = true;
                break;
            }
        }
        if (!done && (start || (p > n && p[-1] == '-')) && *p >= '0' && *p <= '9') {
            /* an integer argument's suffix as GDB's canonical names print
             * it, lower case (clang's "std::array<int, 4UL>" is GDB's
             * "std::array<int, 4ul>"; the demangler's literal printer) */
            size_t d = 0, x = 0;
            while (p[d] >= '0' && p[d] <= '9')
                d++;
            while (x < 3 && strchr("uUlL", p[d + x] ? p[d + x] : '-'))
                x++;
            if (x && strchr(">,) ", p[d + x] ? p[d + x] : '>') && o + d + x < sizeof buf) {
                memcpy(buf + o, p, d);
                for (size_t i = 0; i < x; i++)
                    buf[o + d + i] = (char)(p[d + i] | 0x20); /* ASCII lower case */
                o += d + x;
                p += d + x;
                done = true;
            }
        }
        if (!done)
            buf[o++] = *p++;
        if (!*p)
            break;
        if (o + 1 >= sizeof buf)
            return n; /* longer than the buffer: as written, not cut */
    }
    buf[o] = 0;
    char canon[4096];
    cbuf cb = {canon, 0, sizeof canon, true};
    canon[0] = 0;
    canon_name(buf, o, &cb);
    const char *best = cb.ok ? canon : buf;
    if (strcmp(best, n) == 0)
        return n;
    const char *c = ld_pool_strdup(&ld->pool, best);
    return c ? c : n;
}

/* A base type's name as GDB prints it: GCC's spellings of the C integer
 * types in GDB's canonical order ("long unsigned int" is "unsigned
 * long", "short int" is "short"); the others as they are. */
static const char *gdb_base_name(const char *name)
{
    static const char *const map[][2] = {
        {"short int", "short"},
        {"short unsigned int", "unsigned short"},
        {"long int", "long"},
        {"long unsigned int", "unsigned long"},
        {"long long int", "long long"},
        {"long long unsigned int", "unsigned long long"},
        {"unsigned __int128", "unsigned int __int128"},
    };
    for (size_t i = 0; name && i < sizeof map / sizeof map[0]; i++)
        if (strcmp(name, map[i][0]) == 0)
            return map[i][1];
    return name;
}

/* Whether parameter C (FIRST: the first) of subroutine type D in a C++
 * unit is the artificial "this" whose pointer GDB shows as const ("const
 * S * const", dwarf2/read.c read_subroutine_type: GCC marks it const only
 * in method definitions): artificial, named by DW_AT_object_pointer, else
 * named "this", else unnamed and first; a pointer not const already. */
static bool this_param(dwexpr_libdwarf *ld, size_t file, Dwarf_Die d, Dwarf_Die c, bool first)
{
    if (!ld_die_flag(ld, file, c, DW_AT_artificial))
        return false;
    Dwarf_Debug dbg = ld->files[file].dbg;
    uint64_t obj, here;
    Dwarf_Error e = NULL;
    Dwarf_Off off = 0;
    if (dwarf_dieoffset(c, &off, &e) != DW_DLV_OK) {
        ld_drop(dbg, e);
        return false;
    }
    here = off;
    const char *name = die_string(ld, file, c, DW_AT_name);
    bool is_this = ld_die_ref(ld, file, d, DW_AT_object_pointer, &obj)
                       ? obj == here
                       : name ? strcmp(name, "this") == 0 : first;
    if (!is_this)
        return false;
    uint64_t t = die_type(ld, file, c);
    Dwarf_Die td;
    if (!t || ld_offdie(ld, file, t, &td, NULL) != DWEXPR_OK)
        return false;
    const bool ptr = die_tag(dbg, td) == DW_TAG_pointer_type;
    dwarf_dealloc_die(td);
    return ptr;
}

/* Qualifiers a type spelling carries down to the type they qualify
 * (spell_q). */
enum { Q_CONST = 1, Q_VOLATILE = 2, Q_RESTRICT = 4, Q_ATOMIC = 8 };

/* The words of qualifiers QS in GDB's order (c_type_print_modifier:
 * const, volatile, restrict, _Atomic), space-separated. */
static void quals_text(unsigned qs, char *buf, size_t cap)
{
    static const char *const words[] = {"const", "volatile", "restrict", "_Atomic"};
    buf[0] = 0;
    for (unsigned i = 0; i < 4; i++)
        if (qs & (1u << i)) {
            size_t n = strlen(buf);
            cat4(buf + n, cap - n, n ? " " : "", words[i], "", "");
        }
}

static uint64_t spell_q(dwexpr_libdwarf *ld, size_t unit, size_t file, uint64_t t,
                        const char *decl, sbuf *out, int depth, unsigned qs);

/* Spell type T of FILE/UNIT around declarator DECL into OUT; returns its size in bytes
 * (0 unknown). Depth-limited against cycles. The spelling is GDB's:
 * "char * const" for a qualified pointer, "const volatile int", C++
 * classes by their qualified names without a keyword. */
static uint64_t spell(dwexpr_libdwarf *ld, size_t unit, size_t file, uint64_t t,
                      const char *decl, sbuf *out, int depth)
{
    return spell_q(ld, unit, file, t, decl, out, depth, 0);
}

/* A template value parameter C (DW_TAG_template_value_parameter with a
 * DW_AT_const_value) as GDB's dwarf2_compute_name writes it (GDB 13.1's
 * "whatis" of clang -gsimple-template-names classes): an integer in
 * decimal, a bool as its number ("H<1>": GDB prints the value with the
 * 'd' format, not as true / false), a plain char as a cast of its
 * literal ("G<(char)'x'>", printable ASCII only), an enumeration's value
 * as its underlying type's. False for anything else (an address, a
 * value GDB would print otherwise): the caller then leaves the name as
 * the producer wrote it. (GDB's 'd' format is signed: it writes an
 * unsigned argument whose top bit is set negative, "A<-294967296>" for
 * A<4000000000u>, a wrong name dwexpr does not copy.) */
static bool template_value(dwexpr_libdwarf *ld, size_t file, Dwarf_Die c, char *out, size_t cap)
{
    Dwarf_Debug dbg = ld->files[file].dbg;
    uint64_t v, t;
    if (!ld_die_udata(ld, file, c, DW_AT_const_value, &v) || !ld_die_ref(ld, file, c, DW_AT_type, &t))
        return false;
    for (int depth = 0; depth < 8; depth++) {
        Dwarf_Die d;
        if (ld_offdie(ld, file, t, &d, NULL) != DWEXPR_OK)
            return false;
        const Dwarf_Half tag = die_tag(dbg, d);
        bool ok = false, next = false;
        uint64_t enc = 0, size = 0;
        if (tag == DW_TAG_const_type || tag == DW_TAG_volatile_type || tag == DW_TAG_typedef) {
            next = ld_die_ref(ld, file, d, DW_AT_type, &t);
        } else if (tag == DW_TAG_base_type && ld_die_udata(ld, file, d, DW_AT_encoding, &enc) &&
                   ld_die_udata(ld, file, d, DW_AT_byte_size, &size) && size >= 1 && size <= 8) {
            const char *bn = die_string(ld, file, d, DW_AT_name);
            const uint64_t m = size == 8 ? ~(uint64_t)0 : ((uint64_t)1 << (8 * size)) - 1;
            v &= m;
            if (enc == DW_ATE_boolean) {
                ok = snprintf(out, cap, "%llu", (unsigned long long)(v != 0)) > 0;
            } else if (bn && strcmp(bn, "char") == 0) {
                /* GDB: a type of no signedness, printed as a cast */
                ok = v >= 0x20 && v < 0x7f && v != '\'' && v != '\\' &&
                     snprintf(out, cap, "(char)'%c'", (int)v) > 0;
            } else if (enc == DW_ATE_signed || enc == DW_ATE_signed_char) {
                const int64_t s = size == 8 || !(v >> (8 * size - 1)) ? (int64_t)v
                                                                      : (int64_t)(v | ~m);
                ok = snprintf(out, cap, "%lld", (long long)s) > 0;
            } else if (enc == DW_ATE_unsigned || enc == DW_ATE_unsigned_char) {
                ok = snprintf(out, cap, "%llu", (unsigned long long)v) > 0;
            }
        } else if (tag == DW_TAG_enumeration_type) {
            /* GDB 13 writes an enumeration's value as its underlying
             * type's number (clang: "Policy<2>"), not by enumerator */
            next = ld_die_ref(ld, file, d, DW_AT_type, &t);
        }
        dwarf_dealloc_die(d);
        if (!next)
            return ok;
    }
    return false;
}

/* NAME of the C++ class D (unit UNIT, FILE) with its template arguments
 * when the producer left them out (clang -gsimple-template-names): as
 * GDB's dwarf2_compute_name rebuilds them from the template parameter
 * children, types spelled, values by template_value, "> >" before a
 * closing '>' (GDB's canonical form then comes from cplus_name). NAME
 * itself when it has its arguments, or has no template parameters, or
 * one of them cannot be written. */
static const char *template_name(dwexpr_libdwarf *ld, size_t unit, size_t file, Dwarf_Die d,
                                 const char *name, int depth)
{
    if (!name || strchr(name, '<') || depth > 16)
        return name;
    Dwarf_Debug dbg = ld->files[file].dbg;
    sbuf *args = malloc(sizeof *args);
    if (!args)
        return name;
    size_t n = 0, count = 0;
    bool ok = true;
    args->b[0] = 0;
    Dwarf_Die c;
    int r = ld_first_child(dbg, d, &c);
    while (r == DW_DLV_OK && ok) {
        const Dwarf_Half tag = die_tag(dbg, c);
        char one[sizeof(sbuf)];
        one[0] = 0;
        if (tag == DW_TAG_template_type_parameter) {
            uint64_t t;
            sbuf *ts = malloc(sizeof *ts);
            if (!ts)
                ok = false;
            else if (ld_die_ref(ld, file, c, DW_AT_type, &t))
                spell(ld, unit, file, t, "", ts, depth + 1);
            else
                snprintf(ts->b, sizeof ts->b, "void");
            if (ts) {
                snprintf(one, sizeof one, "%s", ts->b);
                free(ts);
            }
        } else if (tag == DW_TAG_template_value_parameter) {
            ok = template_value(ld, file, c, one, sizeof one);
        }
        if (ok && one[0]) {
            cat4(args->b + n, sizeof args->b - n, count ? ", " : "", one, "", "");
            n = strlen(args->b);
            count++;
        }
        r = ld_next_sibling(dbg, &c);
    }
    if (r == DW_DLV_OK)
        dwarf_dealloc_die(c);
    const char *out = name;
    if (ok && count && n + 3 < sizeof args->b) {
        const size_t len = strlen(name);
        char *q = ld_pool_alloc(&ld->pool, len + n + 4);
        if (q)
            sprintf(q, "%s<%s%s", name, args->b, args->b[n - 1] == '>' ? " >" : ">");
        out = q ? q : name;
    }
    free(args);
    return out;
}

/* spell, of type T qualified by QS besides its own qualifiers: the
 * qualifier DIEs (DW_TAG_const_type and the like) gather theirs into QS
 * down to the type they qualify, which is spelled with them all, once
 * each and in GDB's order ("int * const volatile", whichever DIE is
 * outside). An array passes them to its element type: GDB applies a
 * const or volatile array type's qualifier to the element
 * (dwarf2/read.c add_array_cv_type, C11 6.7.3p9), where it joins the
 * element's own: GCC's 'const int [2][3]' is DW_TAG_const_type of an
 * array of const int, "const int [2][3]", and 'char *const a[2]' an
 * array of const pointers, "char * const[2]". */
static uint64_t spell_q(dwexpr_libdwarf *ld, size_t unit, size_t file, uint64_t t,
                        const char *decl, sbuf *out, int depth, unsigned qs)
{
    const char *sp = decl[0] ? " " : "";
    char qw[40];
    quals_text(qs, qw, sizeof qw);
    if (t == 0) {
        cat4(out->b, sizeof out->b, qw, qs ? " " : "", "void", "");
        size_t n = strlen(out->b);
        cat4(out->b + n, sizeof out->b - n, sp, decl, "", "");
        return 0;
    }
    if (depth > 24) {
        sset(out, "?", sp, decl);
        return 0;
    }
    Dwarf_Die d;
    if (ld_offdie(ld, file, t, &d, NULL) != DWEXPR_OK) {
        sset(out, "?", sp, decl);
        return 0;
    }
    Dwarf_Debug dbg = ld->files[file].dbg;
    Dwarf_Half tag = die_tag(dbg, d);
    if (qs && tag != DW_TAG_const_type && tag != DW_TAG_volatile_type &&
        tag != DW_TAG_restrict_type && tag != DW_TAG_atomic_type && tag != DW_TAG_array_type) {
        /* the qualified type itself */
        dwarf_dealloc_die(d);
        uint64_t bytes;
        if (tag == DW_TAG_pointer_type) {
            /* a qualified pointer: "char * const p", and "char * const[2]"
             * for an array of them (GDB's spacing: a space before a name
             * or a pointer's parenthesis, none before the bounds) */
            sbuf inner;
            cat4(inner.b, sizeof inner.b, " ", qw, decl[0] && decl[0] != '[' ? " " : "", decl);
            bytes = spell_q(ld, unit, file, t, inner.b, out, depth + 1, 0);
        } else {
            sbuf tmp;
            bytes = spell_q(ld, unit, file, t, decl, &tmp, depth + 1, 0);
            cat4(out->b, sizeof out->b, qw, " ", tmp.b, "");
        }
        return bytes;
    }
    const char *name = die_string(ld, file, d, DW_AT_name);
    const bool cplus = lang_kind(ld_unit_at(ld, unit)->language) == LANG_CPLUS;
    uint64_t bytes = 0, v, target = 0;
    bool has_target = ld_die_ref(ld, file, d, DW_AT_type, &target);
    if (ld_die_udata(ld, file, d, DW_AT_byte_size, &v))
        bytes = v;
    else if (ld_die_udata(ld, file, d, DW_AT_bit_size, &v))
        bytes = (v + 7) / 8;
    sbuf inner;
    switch (tag) {
    case DW_TAG_base_type:
    case DW_TAG_unspecified_type:
        sset(out, name ? gdb_base_name(name) : "?", sp, decl);
        break;
    case DW_TAG_typedef: {
        const char *q = cplus && name ? cplus_name(ld, type_qualified(ld, file, t, name)) : name;
        sset(out, q ? q : "?", sp, decl);
        sbuf tmp;
        uint64_t tb = spell(ld, unit, file, has_target ? target : 0, "", &tmp, depth + 1);
        if (!bytes)
            bytes = tb;
        break;
    }
    case DW_TAG_structure_type: case DW_TAG_union_type: case DW_TAG_enumeration_type:
    case DW_TAG_class_type: {
        const char *kw = tag == DW_TAG_union_type ? "union "
                         : tag == DW_TAG_enumeration_type ? "enum "
                         : tag == DW_TAG_class_type ? "class " : "struct ";
        char nm[sizeof(sbuf)];
        if (cplus && name) /* C++: the class's qualified name, no keyword (GDB) */
            cat4(nm, sizeof nm,
                 cplus_name(ld, type_qualified(ld, file, t,
                                               tag == DW_TAG_enumeration_type
                                                   ? name
                                                   : template_name(ld, unit, file, d, name,
                                                                   depth))),
                 "", "", "");
        else
            cat4(nm, sizeof nm, kw, name ? name : "{...}", "", "");
        sset(out, nm, sp, decl);
        if (!bytes && tag == DW_TAG_enumeration_type && has_target) {
            sbuf tmp;
            bytes = spell(ld, unit, file, target, "", &tmp, depth + 1);
        }
        break;
    }
    case DW_TAG_pointer_type: case DW_TAG_reference_type: case DW_TAG_rvalue_reference_type:
    case DW_TAG_ptr_to_member_type: {
        const char *star = tag == DW_TAG_pointer_type ? "*"
                           : tag == DW_TAG_reference_type ? "&"
                           : tag == DW_TAG_rvalue_reference_type ? "&&" : "::*";
        Dwarf_Half ttag = 0;
        if (has_target) {
            Dwarf_Die td;
            if (ld_offdie(ld, file, target, &td, NULL) == DWEXPR_OK) {
                ttag = die_tag(dbg, td);
                dwarf_dealloc_die(td);
            }
        }
        /* a pointer to member names its class (DW_AT_containing_type,
         * DWARF 5 5.7.10): "int ns::S::*", "int (ns::S::*)(...)" */
        char member_star[sizeof(sbuf)];
        uint64_t cls;
        if (tag == DW_TAG_ptr_to_member_type && ld_die_ref(ld, file, d, DW_AT_containing_type, &cls)) {
            sbuf cn;
            spell(ld, unit, file, cls, "", &cn, depth + 1);
            cat4(member_star, sizeof member_star, cn.b, "::*", "", "");
            star = member_star;
        }
        if (ttag == DW_TAG_array_type || ttag == DW_TAG_subroutine_type)
            cat4(inner.b, sizeof inner.b, "(", star, decl, ")");
        else
            cat4(inner.b, sizeof inner.b, star, decl, "", "");
        spell(ld, unit, file, has_target ? target : 0, inner.b, out, depth + 1);
        /* a pointer to a member function is two words in the Itanium C++
         * ABI (2.3: the function's address or vtable offset + 1, and the
         * adjustment to this), as GDB sizes it; other pointers one */
        if (!bytes)
            bytes = (tag == DW_TAG_ptr_to_member_type && ttag == DW_TAG_subroutine_type ? 2 : 1) *
                    ld_unit_at(ld, unit)->pub.unit.addr_size;
        break;
    }
    case DW_TAG_const_type: case DW_TAG_volatile_type: case DW_TAG_restrict_type:
    case DW_TAG_atomic_type: {
        const unsigned q = tag == DW_TAG_const_type      ? Q_CONST
                           : tag == DW_TAG_volatile_type ? Q_VOLATILE
                           : tag == DW_TAG_restrict_type ? Q_RESTRICT
                                                         : Q_ATOMIC;
        bytes = spell_q(ld, unit, file, has_target ? target : 0, decl, out, depth + 1, qs | q);
        break;
    }
    case DW_TAG_array_type: {
        char dims[256] = "";
        uint64_t counts[16];
        int64_t strides[16]; /* bits, 0: none */
        size_t ndims = 0;
        bool all_known = true;
        Dwarf_Die c;
        int r = ld_first_child(dbg, d, &c);
        while (r == DW_DLV_OK) {
            Dwarf_Half ct = die_tag(dbg, c);
            if (ct == DW_TAG_subrange_type || ct == DW_TAG_enumeration_type) {
                bool known, dynamic;
                uint64_t n = subrange_count(ld, unit, file, c, &known, &dynamic);
                size_t len = strlen(dims);
                if (known)
                    snprintf(dims + len, sizeof dims - len, "[%llu]", (unsigned long long)n);
                else /* GDB's words for a bound computed at run time */
                    snprintf(dims + len, sizeof dims - len, dynamic ? "[variable length]" : "[]");
                all_known &= known;
                /* DWARF 5 5.13: the distance between elements; one computed
                 * at run time leaves the size to dwexpr_libdwarf_type_size */
                uint64_t sv = 0;
                int sk = const_attr(ld, file, c, DW_AT_byte_stride, &sv);
                if (sk == 1)
                    sv *= 8;
                else if (sk == 0)
                    sk = const_attr(ld, file, c, DW_AT_bit_stride, &sv);
                all_known &= sk >= 0 && ndims < 16;
                if (ndims < 16) {
                    counts[ndims] = n;
                    strides[ndims++] = sk == 1 ? (int64_t)sv : 0;
                }
            }
            r = ld_next_sibling(dbg, &c);
        }
        cat4(inner.b, sizeof inner.b, decl, dims, "", "");
        uint64_t eb = spell_q(ld, unit, file, has_target ? target : 0, inner.b, out, depth + 1, qs);
        if (!bytes && all_known) {
            /* from the innermost dimension out (DW_AT_ordering, else the
             * language's order); the array type's stride is the element
             * size (DWARF 5 5.5); a dimension with a stride spans |stride|
             * x count bytes, rounded up (GDB's size of a strided array) */
            uint64_t ord, av = 0;
            const bool colmajor = const_attr(ld, file, d, DW_AT_ordering, &ord) == 1
                                      ? ord == DW_ORD_col_major
                                      : ld_column_major(ld, unit);
            int ak = const_attr(ld, file, d, DW_AT_byte_stride, &av);
            if (ak == 1)
                av *= 8;
            else if (ak == 0)
                ak = const_attr(ld, file, d, DW_AT_bit_stride, &av);
            if (ak >= 0) {
                size_t in = colmajor ? 0 : ndims - 1;
                if (ak == 1 && ndims && !strides[in])
                    strides[in] = (int64_t)av;
                uint64_t total = eb;
                for (size_t k = 0; k < ndims; k++) {
                    size_t i = colmajor ? k : ndims - 1 - k;
                    uint64_t sb = strides[i] < 0 ? (uint64_t)-strides[i] : (uint64_t)strides[i];
                    total = sb ? (sb * counts[i] + 7) / 8 : total * counts[i];
                }
                bytes = total;
            }
        }
        break;
    }
    case DW_TAG_string_type:
        if (lang_kind(ld_unit_at(ld, unit)->language) == LANG_FORTRAN) {
            /* the size (the name is f_base's): a constant
             * DW_AT_string_length or DW_AT_byte_size (1 without either);
             * none for a length computed at run time */
            uint64_t len = 1;
            int k = const_attr(ld, file, d, DW_AT_string_length, &len);
            if (k == 0)
                k = const_attr(ld, file, d, DW_AT_byte_size, &len);
            bytes = k >= 0 ? len : 0;
        }
        sset(out, name ? name : "?", sp, decl);
        break;
    case DW_TAG_subroutine_type: {
        char params[256] = "";
        Dwarf_Die c;
        int r = ld_first_child(dbg, d, &c);
        bool any = false;
        while (r == DW_DLV_OK) {
            Dwarf_Half ct = die_tag(dbg, c);
            size_t len = strlen(params);
            if (ct == DW_TAG_formal_parameter) {
                sbuf p;
                const uint64_t pt = die_type(ld, file, c);
                spell(ld, unit, file, pt, cplus && this_param(ld, file, d, c, !any) ? " const" : "", &p,
                      depth + 1);
                cat4(params + len, sizeof params - len, any ? ", " : "", p.b, "", "");
                any = true;
            } else if (ct == DW_TAG_unspecified_parameters) {
                snprintf(params + len, sizeof params - len, "%s...", any ? ", " : "");
                any = true;
            }
            r = ld_next_sibling(dbg, &c);
        }
        cat4(inner.b, sizeof inner.b, decl, "(", any ? params : "void", ")");
        spell(ld, unit, file, has_target ? target : 0, inner.b, out, depth + 1);
        bytes = 0;
        break;
    }
    default:
        sset(out, name ? name : "?", sp, decl);
        if (!bytes && has_target) {
            sbuf tmp;
            bytes = spell(ld, unit, file, target, "", &tmp, depth + 1);
        }
        break;
    }
    dwarf_dealloc_die(d);
    return bytes;
}

/* ---- Fortran type names in GDB's notation (GDB 13 f-typeprint.c) ----
 *
 * GDB prints a Fortran unit's types in its own notation: a base type by
 * its name ("integer(kind=4)"), qualifiers dropped, a derived type as
 * "Type NAME", a pointer as "PTR TO -> ( TARGET )", an array as its
 * element then its dimensions in parentheses, in the source's order:
 * "real(kind=8) (3,4)", "integer(kind=4) (0:4)" (the lower bound written
 * when it is not 1), "(:,:)" for an array whose shape comes from a
 * descriptor, "allocatable" after the element of an allocatable one. The
 * functions below follow the structure of GDB's printer (a base, a prefix
 * and a suffix, print_type) on the DIEs, as str(sym.type) calls it: types
 * not resolved for any frame. */

/* S += A B C, truncated to S's size. */
static void sadd(sbuf *s, const char *a, const char *b, const char *c)
{
    const size_t n = strlen(s->b);
    cat4(s->b + n, sizeof s->b - n, a, b, c, "");
}

/* Whether FORM is a block: an expression (GDB's form_is_block). */
static bool form_block(Dwarf_Half f)
{
    return f == DW_FORM_exprloc || f == DW_FORM_block1 || f == DW_FORM_block2 ||
           f == DW_FORM_block4 || f == DW_FORM_block;
}

/* Whether FORM is a constant class form (GDB's form_is_constant). */
static bool form_constant(Dwarf_Half f)
{
    return f == DW_FORM_data1 || f == DW_FORM_data2 || f == DW_FORM_data4 ||
           f == DW_FORM_data8 || f == DW_FORM_sdata || f == DW_FORM_udata ||
           f == DW_FORM_implicit_const;
}

/* Attribute AT of D as GDB turns it into a dynamic property
 * (attr_to_dynamic_prop): 0 absent; 1 a constant (*V, DW_FORM_sdata
 * sign-extended); 2 computed at run time: an expression, a location list
 * (DW_AT_string_length only), or a reference to a DIE with a
 * DW_AT_location, DW_AT_data_member_location or DW_AT_byte_size; -1 any
 * other value, which GDB refuses (a reference to a DIE without those, as
 * gfortran -Og's length variable with only a DW_AT_const_value): GDB then
 * keeps what it assumes without the attribute. */
static int f_prop(dwexpr_libdwarf *ld, size_t file, Dwarf_Die d, Dwarf_Half at, int64_t *v)
{
    Dwarf_Debug dbg = ld->files[file].dbg;
    Dwarf_Attribute a;
    if (!get_attr(dbg, d, at, &a))
        return 0;
    const Dwarf_Half f = form_of(dbg, a);
    uint64_t u = 0;
    int k = -1;
    if (form_block(f))
        k = 2;
    else if (form_constant(f))
        k = attr_u(dbg, a, f, &u) ? 1 : -1;
    else if (f == DW_FORM_sec_offset || f == DW_FORM_loclistx)
        k = at == DW_AT_string_length ? 2 : -1;
    dwarf_dealloc_attribute(a);
    uint64_t ref;
    if (k == -1 && form_dynamic(f) && ld_die_ref(ld, file, d, at, &ref)) {
        Dwarf_Die td;
        if (ld_offdie(ld, file, ref, &td, NULL) == DWEXPR_OK) {
            Dwarf_Attribute ta;
            if (get_attr(dbg, td, DW_AT_location, &ta)) {
                /* an expression or a list (DWARF 2-3: data4 / data8);
                 * another form GDB refuses */
                const Dwarf_Half tf = form_of(dbg, ta);
                k = form_block(tf) || tf == DW_FORM_sec_offset || tf == DW_FORM_loclistx ||
                            tf == DW_FORM_data4 || tf == DW_FORM_data8
                        ? 2 : -1;
                dwarf_dealloc_attribute(ta);
            } else if (get_attr(dbg, td, DW_AT_data_member_location, &ta) ||
                       get_attr(dbg, td, DW_AT_byte_size, &ta)) {
                k = 2;
                dwarf_dealloc_attribute(ta);
            }
            dwarf_dealloc_die(td);
        }
    }
    *v = (int64_t)u;
    return k;
}

/* T with its qualifiers (const, volatile, restrict, _Atomic) skipped: GDB
 * keeps them as flags of the type, which its Fortran printer ignores
 * (gfortran's hidden character length is a "const integer(kind=8)", which
 * GDB prints "integer(kind=8)"). */
static uint64_t f_unqualified(dwexpr_libdwarf *ld, size_t file, uint64_t t)
{
    for (int depth = 0; t && depth < 16; depth++) {
        Dwarf_Die d;
        if (ld_offdie(ld, file, t, &d, NULL) != DWEXPR_OK)
            break;
        Dwarf_Half tag = die_tag(ld->files[file].dbg, d);
        uint64_t next = 0;
        bool q = tag == DW_TAG_const_type || tag == DW_TAG_volatile_type ||
                 tag == DW_TAG_restrict_type || tag == DW_TAG_atomic_type;
        if (q && !ld_die_ref(ld, file, d, DW_AT_type, &next))
            next = 0;
        dwarf_dealloc_die(d);
        if (!q)
            break;
        t = next;
    }
    return t;
}

/* Tag and name of type T (T unqualified; 0 is void, named "void" as in
 * GDB); false when there is no DIE at T. */
static bool f_die(dwexpr_libdwarf *ld, size_t file, uint64_t t, Dwarf_Half *tag,
                  const char **name, uint64_t *target)
{
    *tag = 0;
    *name = "void";
    *target = 0;
    if (t == 0)
        return true;
    Dwarf_Die d;
    if (ld_offdie(ld, file, t, &d, NULL) != DWEXPR_OK)
        return false;
    *tag = die_tag(ld->files[file].dbg, d);
    *name = die_string(ld, file, d, DW_AT_name);
    if (!ld_die_ref(ld, file, d, DW_AT_type, target))
        *target = 0;
    dwarf_dealloc_die(d);
    return true;
}

/* A bound V in DW_FORM_dataN of subrange D as GDB reads it: sign-extended
 * from the width of the subrange's type when that type is signed
 * (read_subrange_type; without a type GDB takes a signed integer of the
 * address size, on which this changes nothing). */
static int64_t f_bound_signed(dwexpr_libdwarf *ld, size_t file, Dwarf_Die d, int64_t v)
{
    uint64_t bt, size = 0, enc = 0;
    Dwarf_Die b;
    if (!ld_die_ref(ld, file, d, DW_AT_type, &bt) || ld_offdie(ld, file, bt, &b, NULL) != DWEXPR_OK)
        return v;
    if (!ld_die_udata(ld, file, b, DW_AT_byte_size, &size) ||
        !ld_die_udata(ld, file, b, DW_AT_encoding, &enc))
        size = 0;
    dwarf_dealloc_die(b);
    if ((enc != DW_ATE_signed && enc != DW_ATE_signed_char) || size == 0 || size >= 8)
        return v;
    const uint64_t neg = ~(uint64_t)0 << (8 * size - 1);
    return (uint64_t)v & neg ? (int64_t)((uint64_t)v | neg) : v;
}

/* Dimension D (a subrange) as GDB writes it in an array's parentheses
 * (f_type_print_varspec_suffix): ":" when RANK_ONLY; else "LOWER:" when
 * the lower bound is not 1 (absent: the language's, 1), then the upper
 * bound, "*" when there is none (an assumed-size array; also when GDB
 * refuses the attribute), and for one computed at run time the lower
 * bound again (f77_get_upperbound, on a type resolved for no frame: an
 * explicit-shape dummy v(n) is "(1)"). A lower bound computed at run time
 * makes GDB fail ("Lower bound may not be '*' in F77"); dwexpr writes ":"
 * for that dimension. */
static void f_dim(dwexpr_libdwarf *ld, size_t unit, size_t file, Dwarf_Die d, bool rank_only,
                  char *out, size_t cap)
{
    int64_t lo = 0, hi = 0, n = 0;
    int kl = rank_only ? 0 : f_prop(ld, file, d, DW_AT_lower_bound, &lo);
    if (rank_only || kl == 2) {
        snprintf(out, cap, ":");
        return;
    }
    lo = kl == 1 ? f_bound_signed(ld, file, d, lo) : ld_default_lower_bound(ld, unit);
    int kh = f_prop(ld, file, d, DW_AT_upper_bound, &hi);
    if (kh <= 0) { /* GDB then takes DW_AT_count (upper = lower + count - 1) */
        kh = f_prop(ld, file, d, DW_AT_count, &n);
        hi = lo + n - 1;
    } else if (kh == 1)
        hi = f_bound_signed(ld, file, d, hi);
    char low[32] = "";
    if (lo != 1)
        snprintf(low, sizeof low, "%lld:", (long long)lo);
    if (kh == 1)
        snprintf(out, cap, "%s%lld", low, (long long)hi);
    else if (kh == 2)
        snprintf(out, cap, "%s%lld", low, (long long)lo);
    else
        snprintf(out, cap, "%s*", low);
}

/* Whether array D is printed by rank only, ":" for every dimension
 * (f_type_print_varspec_suffix: DW_AT_associated or DW_AT_allocated the
 * constant 0, or any of them or DW_AT_data_location computed at run time:
 * gfortran's allocatable, pointer and assumed-shape arrays), and whether
 * it is allocatable (DW_AT_allocated: GDB's TYPE_IS_ALLOCATABLE). */
static bool f_rank_only(dwexpr_libdwarf *ld, size_t file, Dwarf_Die d, bool *allocatable)
{
    int64_t al = 1, as = 1, dl;
    const int ka = f_prop(ld, file, d, DW_AT_allocated, &al);
    const int ks = f_prop(ld, file, d, DW_AT_associated, &as);
    const int kd = f_prop(ld, file, d, DW_AT_data_location, &dl);
    if (allocatable)
        *allocatable = ka > 0;
    return (ka == 1 && al == 0) || (ks == 1 && as == 0) || ka == 2 || ks == 2 || kd == 2;
}

static void f_suffix(dwexpr_libdwarf *ld, size_t unit, size_t file, uint64_t t, bool after_ptr,
                     int level, bool rank_only, sbuf *out, int depth);
static void f_spell(dwexpr_libdwarf *ld, size_t unit, size_t file, uint64_t t, sbuf *out,
                    int depth);

/* The dimensions of array T (unqualified, unnamed) appended to OUT, as
 * GDB's suffix writes the nested array types it makes of the DIE's
 * subranges: the outermost GDB array is level LEVEL + 1 and opens the
 * parenthesis when that is 1; the dimensions come innermost first, each
 * followed by "," but the outermost's by ")" (the source's order for
 * column-major Fortran, the reverse for DW_ORD_row_major); after the
 * innermost come an array element's dimensions (an array of arrays) or
 * the element's own suffix. */
static void f_array_suffix(dwexpr_libdwarf *ld, size_t unit, size_t file, uint64_t t, int level,
                           bool rank_only, sbuf *out, int depth)
{
    Dwarf_Die d;
    if (depth > 24 || ld_offdie(ld, file, t, &d, NULL) != DWEXPR_OK)
        return;
    Dwarf_Debug dbg = ld->files[file].dbg;
    rank_only |= f_rank_only(ld, file, d, NULL);
    uint64_t ord;
    const bool colmajor = const_attr(ld, file, d, DW_AT_ordering, &ord) == 1
                              ? ord == DW_ORD_col_major
                              : ld_column_major(ld, unit);
    char dims[16][40];
    int n = 0;
    Dwarf_Die c;
    int r = ld_first_child(dbg, d, &c);
    while (r == DW_DLV_OK) {
        /* an assumed-rank array's DW_TAG_generic_subrange is one
         * dimension in GDB until a value gives the rank (DW_AT_rank) */
        const Dwarf_Half ct = die_tag(dbg, c);
        if ((ct == DW_TAG_subrange_type || ct == DW_TAG_generic_subrange) && n < 16)
            f_dim(ld, unit, file, c, rank_only, dims[n++], sizeof dims[0]);
        r = ld_next_sibling(dbg, &c);
    }
    uint64_t elem = 0;
    if (!ld_die_ref(ld, file, d, DW_AT_type, &elem))
        elem = 0;
    dwarf_dealloc_die(d);
    if (level == 0 && n > 0)
        sadd(out, "(", "", "");
    for (int k = 0; k < n; k++) {
        /* k-th printed: GDB level LEVEL + n - k */
        const int lv = level + n - k;
        if (k == 0) {
            Dwarf_Half et;
            const char *en;
            uint64_t etarget;
            const uint64_t ue = f_unqualified(ld, file, elem);
            if (f_die(ld, file, ue, &et, &en, &etarget) && et == DW_TAG_array_type && !en) {
                /* GDB prints an element array's dimensions first */
                f_array_suffix(ld, unit, file, ue, level + n, rank_only, out, depth + 1);
                sadd(out, dims[colmajor ? 0 : n - 1], "", "");
            } else {
                sadd(out, dims[colmajor ? 0 : n - 1], "", "");
                f_suffix(ld, unit, file, elem, false, lv, rank_only, out, depth + 1);
            }
        } else
            sadd(out, dims[colmajor ? k : n - 1 - k], "", "");
        sadd(out, lv == 1 ? ")" : ",", "", "");
    }
}

/* GDB's base of type T (f_type_print_base, show -1): a named type by its
 * name ("Type NAME" for a derived type, "Type, C_Union :: NAME" for a
 * union); an array by its element's base (", allocatable" after it for
 * an allocatable array); "PTR TO -> ( " and the target's base for a
 * pointer; a function by its result's; a character type as
 * "character*N", "character*(*)" for a length computed at run time. The
 * rest (unnamed types GDB's Fortran printer refuses) in the C spelling. */
static void f_base(dwexpr_libdwarf *ld, size_t unit, size_t file, uint64_t t, sbuf *out,
                   int depth)
{
    t = f_unqualified(ld, file, t);
    Dwarf_Half tag;
    const char *name;
    uint64_t target;
    if (depth > 24 || !f_die(ld, file, t, &tag, &name, &target)) {
        sadd(out, "?", "", "");
        return;
    }
    const bool record = tag == DW_TAG_structure_type || tag == DW_TAG_class_type;
    if (name || (t && (record || tag == DW_TAG_union_type))) {
        /* (an unnamed derived type is "Type {...}": GDB 13 crashes
         * printing one, as gfortran's descriptor of a character(len=*)
         * array) */
        const char *shown = name ? name : "{...}";
        sadd(out, record ? "Type " : tag == DW_TAG_union_type ? "Type, C_Union :: " : "", shown, "");
        return;
    }
    Dwarf_Die d;
    switch (tag) {
    case DW_TAG_array_type: {
        f_base(ld, unit, file, target, out, depth + 1);
        bool allocatable = false;
        if (ld_offdie(ld, file, t, &d, NULL) == DWEXPR_OK) {
            f_rank_only(ld, file, d, &allocatable);
            dwarf_dealloc_die(d);
        }
        if (allocatable)
            sadd(out, ", allocatable", "", "");
        break;
    }
    case DW_TAG_subroutine_type:
        f_base(ld, unit, file, target, out, depth + 1);
        break;
    case DW_TAG_pointer_type: case DW_TAG_reference_type:
        sadd(out, tag == DW_TAG_pointer_type ? "PTR TO -> ( " : "REF TO -> ( ", "", "");
        f_base(ld, unit, file, target, out, depth + 1);
        break;
    case DW_TAG_string_type: {
        /* read_tag_string_type: a DW_AT_string_length GDB refuses is a
         * length of 1; without one, DW_AT_byte_size if it is a constant,
         * else 1 */
        int64_t len = 1;
        int k = 0;
        if (ld_offdie(ld, file, t, &d, NULL) == DWEXPR_OK) {
            k = f_prop(ld, file, d, DW_AT_string_length, &len);
            if (k == 0 && f_prop(ld, file, d, DW_AT_byte_size, &len) != 1)
                len = 1;
            else if (k == -1)
                len = 1;
            dwarf_dealloc_die(d);
        }
        char nm[48];
        if (k == 2)
            snprintf(nm, sizeof nm, "character*(*)");
        else
            snprintf(nm, sizeof nm, "character*%llu", (unsigned long long)len);
        sadd(out, nm, "", "");
        break;
    }
    default: {
        sbuf c;
        spell(ld, unit, file, t, "", &c, depth + 1);
        sadd(out, c.b, "", "");
        break;
    }
    }
}

/* GDB's prefix of type T (f_type_print_varspec_prefix): "(" where a
 * pointer to a function opens its function's result. */
static void f_prefix(dwexpr_libdwarf *ld, size_t file, uint64_t t, bool after_ptr, sbuf *out,
                     int depth)
{
    Dwarf_Half tag;
    const char *name;
    uint64_t target;
    if (depth > 24 || !f_die(ld, file, f_unqualified(ld, file, t), &tag, &name, &target) || name)
        return;
    if (tag == DW_TAG_pointer_type)
        f_prefix(ld, file, target, true, out, depth + 1);
    else if (tag == DW_TAG_array_type)
        f_prefix(ld, file, target, false, out, depth + 1);
    else if (tag == DW_TAG_subroutine_type) {
        f_prefix(ld, file, target, false, out, depth + 1);
        if (after_ptr)
            sadd(out, "(", "", "");
    }
}

/* GDB's suffix of type T (f_type_print_varspec_suffix) appended to OUT:
 * an array's dimensions (f_array_suffix; LEVEL the arrays around it,
 * RANK_ONLY inherited from them), " )" closing a pointer, a function's
 * ") " after a pointer's "(" and its parameters in parentheses, "void"
 * for none (GDB takes every Fortran function as prototyped). Nothing for a
 * named type. */
static void f_suffix(dwexpr_libdwarf *ld, size_t unit, size_t file, uint64_t t, bool after_ptr,
                     int level, bool rank_only, sbuf *out, int depth)
{
    t = f_unqualified(ld, file, t);
    Dwarf_Half tag;
    const char *name;
    uint64_t target;
    if (depth > 24 || !f_die(ld, file, t, &tag, &name, &target) || name)
        return;
    switch (tag) {
    case DW_TAG_array_type:
        f_array_suffix(ld, unit, file, t, level, rank_only, out, depth + 1);
        break;
    case DW_TAG_pointer_type: case DW_TAG_reference_type:
        f_suffix(ld, unit, file, target, true, level, false, out, depth + 1);
        sadd(out, " )", "", "");
        break;
    case DW_TAG_subroutine_type: {
        f_suffix(ld, unit, file, target, after_ptr, level, false, out, depth + 1);
        sadd(out, after_ptr ? ") (" : "(", "", "");
        Dwarf_Die d, c;
        Dwarf_Debug dbg = ld->files[file].dbg;
        bool any = false;
        if (ld_offdie(ld, file, t, &d, NULL) == DWEXPR_OK) {
            int r = ld_first_child(dbg, d, &c);
            while (r == DW_DLV_OK) {
                if (die_tag(dbg, c) == DW_TAG_formal_parameter) {
                    sbuf p;
                    f_spell(ld, unit, file, die_type(ld, file, c), &p, depth + 1);
                    sadd(out, any ? ", " : "", p.b, "");
                    any = true;
                }
                r = ld_next_sibling(dbg, &c);
            }
            dwarf_dealloc_die(d);
        }
        sadd(out, any ? "" : "void", ")", "");
        break;
    }
    default:
        break;
    }
}

/* Type T of a Fortran unit as GDB 13 prints it (print_type with show -1,
 * as str(gdb.Type) does): the base, a space before the dimensions or
 * parameters of an unnamed array or function (or of one a pointer points
 * to), the prefix and the suffix. "integer(kind=4)", "real(kind=8) (3,4)",
 * "integer(kind=4), allocatable (:)", "PTR TO -> ( Type node )",
 * "character*10 (2)", "PTR TO -> ( real(kind=8) () (void) )" (a procedure
 * pointer). */
static void f_spell(dwexpr_libdwarf *ld, size_t unit, size_t file, uint64_t t, sbuf *out,
                    int depth)
{
    out->b[0] = 0;
    f_base(ld, unit, file, t, out, depth);
    Dwarf_Half tag, ttag = 0;
    const char *name, *tname;
    uint64_t target, tt;
    if (!f_die(ld, file, f_unqualified(ld, file, t), &tag, &name, &target) || name)
        return;
    if ((tag == DW_TAG_pointer_type || tag == DW_TAG_reference_type) &&
        !f_die(ld, file, f_unqualified(ld, file, target), &ttag, &tname, &tt))
        ttag = 0;
    if (tag == DW_TAG_array_type || tag == DW_TAG_subroutine_type ||
        ttag == DW_TAG_array_type || ttag == DW_TAG_subroutine_type)
        sadd(out, " ", "", "");
    f_prefix(ld, file, t, false, out, depth + 1);
    f_suffix(ld, unit, file, t, false, 0, false, out, depth + 1);
}

/* ---- Rust type names in GDB's notation (GDB 13 rust-lang.c) ----
 *
 * GDB prints a Rust unit's types (DW_AT_language DW_LANG_Rust) as
 * rust_internal_print_type does for str(gdb.Type), show -1: a type with
 * a name is its name (a structure, union or enumeration qualified by its
 * namespaces, dwarf2_full_name: "r1::Point", "core::option::Option<i32>",
 * "&str", "(i32, f32, char)"; a base type as rustc names it, "u64");
 * without one, by its shape. GDB gives no name to a pointer type
 * (read_tag_pointer_type ignores DW_AT_name), and cannot tell a Rust
 * reference from a raw pointer: rustc's "&r1::Shape", "*const u8" and
 * Box<i64> are all "*mut TARGET". An array is "[ELEMENT; N]", a function
 * "fn (P1, P2) -> R" (no " -> R" for one returning nothing), the unit type
 * "()". */
static void r_spell(dwexpr_libdwarf *ld, size_t unit, size_t file, uint64_t t, sbuf *out,
                    int depth)
{
    out->b[0] = 0;
    Dwarf_Die d;
    if (t == 0) {
        sset(out, "()", "", ""); /* GDB's void, Rust's unit type */
        return;
    }
    if (depth > 24 || ld_offdie(ld, file, t, &d, NULL) != DWEXPR_OK) {
        sset(out, "?", "", "");
        return;
    }
    Dwarf_Debug dbg = ld->files[file].dbg;
    const Dwarf_Half tag = die_tag(dbg, d);
    const char *name = die_string(ld, file, d, DW_AT_name);
    uint64_t target = 0;
    const bool has_target = ld_die_ref(ld, file, d, DW_AT_type, &target);
    sbuf inner;
    switch (tag) {
    case DW_TAG_structure_type: case DW_TAG_union_type: case DW_TAG_enumeration_type:
    case DW_TAG_class_type: case DW_TAG_typedef:
        /* named types by their full names (type_prefixes) */
        sset(out, name ? type_qualified(ld, file, t, name) : "{...}", "", "");
        break;
    case DW_TAG_pointer_type: case DW_TAG_reference_type: case DW_TAG_rvalue_reference_type:
        /* a pointer's name is not read; its target printed with show 0:
         * by name, else by shape */
        r_spell(ld, unit, file, has_target ? target : 0, &inner, depth + 1);
        sset(out, "*mut ", inner.b, "");
        break;
    case DW_TAG_const_type: case DW_TAG_volatile_type: case DW_TAG_restrict_type:
    case DW_TAG_atomic_type:
        /* no qualifiers in Rust's notation: the type qualified */
        r_spell(ld, unit, file, has_target ? target : 0, out, depth + 1);
        break;
    case DW_TAG_array_type: {
        if (name) { /* read_array_type keeps an array type's name */
            sset(out, name, "", "");
            break;
        }
        /* "[T; N]" per dimension, the outermost first (rustc writes one
         * dimension per array type; nested arrays are arrays of arrays) */
        char dims[16][32];
        size_t ndims = 0;
        Dwarf_Die c;
        int r = ld_first_child(dbg, d, &c);
        while (r == DW_DLV_OK) {
            const Dwarf_Half ct = die_tag(dbg, c);
            if ((ct == DW_TAG_subrange_type || ct == DW_TAG_enumeration_type) && ndims < 16) {
                bool known, dynamic;
                const uint64_t n = subrange_count(ld, unit, file, c, &known, &dynamic);
                /* GDB's words for a bound computed at run time; a bound it
                 * cannot read leaves out the count */
                if (known)
                    snprintf(dims[ndims], sizeof dims[0], "; %llu]", (unsigned long long)n);
                else
                    snprintf(dims[ndims], sizeof dims[0], dynamic ? "; variable length]" : "]");
                ndims++;
            }
            r = ld_next_sibling(dbg, &c);
        }
        /* GDB makes dimensions after the first arrays of arrays: the
         * innermost (last) dimension's count is written first */
        r_spell(ld, unit, file, has_target ? target : 0, &inner, depth + 1);
        char open[17] = "";
        memset(open, '[', ndims);
        open[ndims] = 0;
        sset(out, open, inner.b, "");
        for (size_t k = ndims; k > 0; k--) {
            size_t len = strlen(out->b);
            cat4(out->b + len, sizeof out->b - len, dims[k - 1], "", "", "");
        }
        break;
    }
    case DW_TAG_subroutine_type: {
        char params[1024] = "";
        Dwarf_Die c;
        bool any = false;
        int r = ld_first_child(dbg, d, &c);
        while (r == DW_DLV_OK) {
            if (die_tag(dbg, c) == DW_TAG_formal_parameter) {
                sbuf p;
                r_spell(ld, unit, file, die_type(ld, file, c), &p, depth + 1);
                size_t len = strlen(params);
                cat4(params + len, sizeof params - len, any ? ", " : "", p.b, "", "");
                any = true;
            }
            r = ld_next_sibling(dbg, &c);
        }
        /* rust_internal_print_type writes "fn " and the name it is given
         * (none here) before the parameters: "fn (u32) -> u32" */
        sset(out, "fn (", params, ")");
        if (has_target) { /* returning nothing (no DW_AT_type): no " -> ()" */
            r_spell(ld, unit, file, target, &inner, depth + 1);
            size_t len = strlen(out->b);
            cat4(out->b + len, sizeof out->b - len, " -> ", inner.b, "", "");
        }
        break;
    }
    default:
        sset(out, name ? name : "?", "", "");
        break;
    }
    dwarf_dealloc_die(d);
}

/* Name and size of type T (cached); a Fortran unit's name in GDB's Fortran
 * notation (f_spell), a Rust unit's in GDB's Rust notation (r_spell). */
static const ld_tinfo *tinfo(dwexpr_libdwarf *ld, size_t unit, uint64_t t)
{
    ld_unit *u = ld_unit_at(ld, unit);
    ld_tinfo *ti = ld_map_get(&ld->tnames, u->file, t);
    if (ti)
        return ti;
    ti = ld_pool_alloc(&ld->pool, sizeof *ti);
    if (!ti)
        return NULL;
    sbuf s;
    ti->bytes = spell(ld, unit, u->file, t, "", &s, 0);
    if (lang_kind(u->language) == LANG_FORTRAN) /* GDB's Fortran notation */
        f_spell(ld, unit, u->file, t, &s, 0);
    else if (lang_kind(u->language) == LANG_RUST) /* GDB's Rust notation */
        r_spell(ld, unit, u->file, t, &s, 0);
    ti->name = ld_pool_strdup(&ld->pool, s.b);
    ld_map_put(&ld->tnames, u->file, t, ti);
    return ti;
}

/* The type of the DIE at OFF (through its abstract origin). */
uint64_t ld_die_type(dwexpr_libdwarf *ld, size_t unit, uint64_t off)
{
    ld_unit *u = ld_unit_at(ld, unit);
    Dwarf_Die d;
    if (!u || ld_offdie(ld, u->file, off, &d, NULL) != DWEXPR_OK)
        return 0;
    uint64_t t = die_type(ld, u->file, d);
    dwarf_dealloc_die(d);
    return t;
}

/* Static size of TYPE in bytes (0: none or dynamic). */
uint64_t ld_type_bytes(dwexpr_libdwarf *ld, size_t unit, uint64_t type)
{
    if (!type)
        return 0;
    const ld_tinfo *ti = tinfo(ld, unit, type);
    return ti ? ti->bytes : 0;
}

dwexpr_status dwexpr_libdwarf_type_get(dwexpr_libdwarf *ld, size_t unit, uint64_t type,
                                       dwexpr_libdwarf_type_info *out)
{
    ld_unit *u = ld ? ld_unit_at(ld, unit) : NULL;
    if (!u || !out)
        return DWEXPR_E_USAGE;
    memset(out, 0, sizeof *out);
    Dwarf_Die d;
    if (ld_offdie(ld, u->file, type, &d, NULL) != DWEXPR_OK)
        return DWEXPR_E_NOT_FOUND;
    Dwarf_Debug dbg = ld->files[u->file].dbg;
    out->tag = die_tag(dbg, d);
    uint64_t t;
    if (ld_die_ref(ld, u->file, d, DW_AT_type, &t))
        out->target = t;
    dwarf_dealloc_die(d);
    const ld_tinfo *ti = tinfo(ld, unit, type);
    out->name = ti ? ti->name : "?";
    out->bytes = ti ? ti->bytes : 0;
    /* the encoding of a base type behind typedefs, qualifiers, enums,
     * looked up in the unit that holds it: gcc -flto's LTO unit names the
     * types of the compile-time units (DW_FORM_ref_addr) */
    uint64_t cur = type;
    for (int depth = 0; cur && depth < 16; depth++) {
        dwexpr_type bt;
        const size_t bu = ld_unit_of(ld, u->file, cur);
        const ld_unit *b = bu != SIZE_MAX ? ld_unit_at(ld, bu) : u;
        if (cur >= b->hdr &&
            ld_base_type(ld, bu != SIZE_MAX ? bu : unit, cur - b->hdr, &bt) == DWEXPR_OK) {
            out->encoding = bt.encoding;
            break;
        }
        Dwarf_Die cd;
        if (ld_offdie(ld, u->file, cur, &cd, NULL) != DWEXPR_OK)
            break;
        Dwarf_Half tag = die_tag(dbg, cd);
        uint64_t next = 0;
        bool follow = tag == DW_TAG_typedef || tag == DW_TAG_const_type ||
                      tag == DW_TAG_volatile_type || tag == DW_TAG_restrict_type ||
                      tag == DW_TAG_atomic_type || tag == DW_TAG_enumeration_type;
        if (follow && !ld_die_ref(ld, u->file, cd, DW_AT_type, &next))
            next = 0;
        dwarf_dealloc_die(cd);
        if (!follow)
            break;
        cur = next;
    }
    return DWEXPR_OK;
}

dwexpr_status dwexpr_libdwarf_member_get(dwexpr_libdwarf *ld, size_t unit, uint64_t die,
                                         dwexpr_libdwarf_member *out)
{
    ld_unit *u = ld ? ld_unit_at(ld, unit) : NULL;
    if (!u || !out)
        return DWEXPR_E_USAGE;
    memset(out, 0, sizeof *out);
    Dwarf_Die d;
    if (ld_offdie(ld, u->file, die, &d, NULL) != DWEXPR_OK)
        return DWEXPR_E_NOT_FOUND;
    Dwarf_Debug dbg = ld->files[u->file].dbg;
    out->die = die;
    out->tag = die_tag(dbg, d);
    char *n = NULL;
    Dwarf_Error e = NULL;
    int r = dwarf_diename(d, &n, &e);
    if (r == DW_DLV_ERROR)
        ld_drop(dbg, e);
    if (r == DW_DLV_OK && n) {
        size_t len = strlen(n) + 1;
        char *copy = ld_pool_alloc(&ld->pool, len);
        if (copy) {
            memcpy(copy, n, len);
            out->name = copy;
        }
    }
    uint64_t t;
    if (ld_die_ref(ld, u->file, d, DW_AT_type, &t))
        out->type = t;
    uint64_t v;
    if (ld_die_udata(ld, u->file, d, DW_AT_bit_size, &v)) {
        out->bit_size = v;
        out->bit_field = true;
    }
    if (ld_die_udata(ld, u->file, d, DW_AT_bit_offset, &v)) {
        out->has_bit_offset = true;
        out->bit_offset = v;
    }
    if (ld_die_udata(ld, u->file, d, DW_AT_byte_size, &v))
        out->storage_bytes = v;
    dwarf_dealloc_die(d);
    dwexpr_libdwarf_attr ml;
    const dwexpr_status st = dwexpr_libdwarf_attr_get(ld, unit, die, DW_AT_data_member_location,
                                                      &ml, NULL);
    if (st == DWEXPR_E_NOT_FOUND) {
        out->offset_known = true; /* DWARF 5 5.7.6: where the containing entity starts */
    } else if (st == DWEXPR_OK && ml.kind == DWEXPR_LIBDWARF_ATTR_CONST) {
        out->offset_known = true;
        out->offset = ml.uconst;
    } else if (st == DWEXPR_OK && ml.kind == DWEXPR_LIBDWARF_ATTR_EXPR) {
        out->offset_known = ld_constant_displacement(ml.data, ml.len, &out->offset);
    }
    if (out->type) {
        const ld_tinfo *ti = tinfo(ld, unit, out->type);
        out->type_name = ti ? ti->name : "?";
        if (!out->bit_field)
            out->bit_size = ti ? 8 * ti->bytes : 0;
        if (!out->storage_bytes && ti)
            out->storage_bytes = ti->bytes;
    }
    return DWEXPR_OK;
}

/* Depth-first search under D for a DIE named NAME with tag TAG. */
static bool find_named(dwexpr_libdwarf *ld, size_t file, Dwarf_Die d, const char *name,
                       uint16_t tag, uint64_t *out, int depth)
{
    Dwarf_Debug dbg = ld->files[file].dbg;
    char *n = NULL;
    Dwarf_Error e = NULL;
    int r = dwarf_diename(d, &n, &e);
    if (r == DW_DLV_ERROR)
        ld_drop(dbg, e);
    if (r == DW_DLV_OK && strcmp(n, name) == 0 && (!tag || die_tag(dbg, d) == tag)) {
        *out = die_offset(dbg, d);
        return true;
    }
    if (depth > 200)
        return false;
    Dwarf_Die c;
    e = NULL;
    r = dwarf_child(d, &c, &e);
    if (r == DW_DLV_ERROR)
        ld_drop(dbg, e);
    bool found = false;
    while (r == DW_DLV_OK && !found) {
        found = find_named(ld, file, c, name, tag, out, depth + 1);
        r = ld_next_sibling(dbg, &c);
    }
    if (r == DW_DLV_OK)
        dwarf_dealloc_die(c);
    return found;
}

dwexpr_status dwexpr_libdwarf_find_die(dwexpr_libdwarf *ld, size_t unit, const char *name,
                                       uint16_t tag, uint64_t *out)
{
    ld_unit *u = ld ? ld_unit_at(ld, unit) : NULL;
    if (!u || !name || !out)
        return DWEXPR_E_USAGE;
    Dwarf_Die d;
    if (ld_offdie(ld, u->file, u->pub.die, &d, NULL) != DWEXPR_OK)
        return DWEXPR_E_NOT_FOUND;
    bool found = find_named(ld, u->file, d, name, tag, out, 0);
    dwarf_dealloc_die(d);
    return found ? DWEXPR_OK : DWEXPR_E_NOT_FOUND;
}

dwexpr_status dwexpr_libdwarf_child_die(dwexpr_libdwarf *ld, size_t unit, uint64_t parent,
                                        uint16_t tag, size_t index, uint64_t *out)
{
    ld_unit *u = ld ? ld_unit_at(ld, unit) : NULL;
    if (!u || !out)
        return DWEXPR_E_USAGE;
    Dwarf_Debug dbg = ld->files[u->file].dbg;
    Dwarf_Die d, c;
    if (ld_offdie(ld, u->file, parent, &d, NULL) != DWEXPR_OK)
        return DWEXPR_E_NOT_FOUND;
    int r = ld_first_child(dbg, d, &c);
    bool found = false;
    while (r == DW_DLV_OK) {
        if (!found && (!tag || die_tag(dbg, c) == tag) && index-- == 0) {
            *out = die_offset(dbg, c);
            found = true;
        }
        r = ld_next_sibling(dbg, &c);
    }
    dwarf_dealloc_die(d);
    return found ? DWEXPR_OK : DWEXPR_E_NOT_FOUND;
}

/* ---- the walk over DIE trees ---- */

typedef struct walker {
    dwexpr_libdwarf *ld;
    size_t unit, file;
    Dwarf_Debug dbg;
    dwexpr_error *err;
    enum ld_lang lang;
    const char *prefix;  /* the qualifier of the DIEs being walked; NULL: none */
    bool host;           /* PREFIX is a Fortran host procedure's name */
    bool in_type;        /* inside a class: only functions and nested types count */
} walker;

/* FNV-1a of the string S. */
static uint64_t name_hash(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
    return h;
}

/* A Rust or C++ structure, class, union or enumeration DIE C (at OFF of
 * FILE) named NAME in full: a declaration (DW_AT_declaration, DWARF 5
 * 2.13.1; "an incomplete structure, union or class type", 5.7.1: no byte
 * size, no members) is kept for resolve_decls, the first definition of
 * each name indexed. GDB's check_typedef completes a declared type (a
 * stub: TYPE_STUB) by looking its name up among the definitions of the
 * program (opaque type resolution: lookup_transparent_type, or
 * lookup_symbol in STRUCT_DOMAIN when the declaration lists methods):
 * its size and members, from another unit.
 *   rustc declares in one unit a type another defines (Debian's libstd:
 * a closure's environment, std::rt::lang_start_internal::{closure_env#2},
 * is a declaration in the unit of std::panicking::try<...>).
 *   g++ (-fno-emit-class-debug-always, its default) and clang++
 * (-fno-standalone-debug, its default on Linux) describe a dynamic class
 * whose key function, and so vtable, another unit defines by a
 * declaration in the units that only use it; GDB reads a variable of
 * such a class, a member of it, the target of a pointer or reference to
 * it, with the definition's layout (GDB puts C++ classes in the global
 * block: any unit's definition is found). A signature stub (a declaration
 * with DW_AT_signature) is no declaration here: it stands for its type
 * unit's type already (signature_target). */
static void named_type_seen(dwexpr_libdwarf *ld, size_t file, Dwarf_Die c, uint64_t off,
                            const char *name)
{
    if (!name || ld->decls_done)
        return;
    if (ld_die_flag(ld, file, c, DW_AT_declaration)) {
        Dwarf_Attribute a;
        if (get_attr(ld->files[file].dbg, c, DW_AT_signature, &a)) {
            dwarf_dealloc_attribute(a);
            return;
        }
        ld->decls.elem = sizeof(ld_named_type);
        ld_named_type *d = ld_vec_push(&ld->decls);
        if (d)
            *d = (ld_named_type){name, file, off};
        return;
    }
    const uint64_t h = name_hash(name);
    uint64_t k = 0;
    const ld_named_type *have;
    for (; (have = ld_map_get(&ld->type_defs, h, k)) != NULL; k++)
        if (have->file == file && strcmp(have->name, name) == 0)
            return; /* the first definition stands */
    ld_named_type *d = ld_pool_alloc(&ld->pool, sizeof *d);
    if (d) {
        *d = (ld_named_type){name, file, off};
        ld_map_put(&ld->type_defs, h, k, d);
    }
}

/* Each declaration named_type_seen kept stands for the definition of
 * its name in the same file, if any (ld_die_ref follows it). A
 * declaration no unit defines (a class only pointed to) stays one: GDB's
 * <incomplete type>. */
static void resolve_decls(dwexpr_libdwarf *ld)
{
    ld->decls_done = true;
    const ld_named_type *all = ld->decls.v;
    for (size_t i = 0; i < ld->decls.n; i++) {
        const uint64_t h = name_hash(all[i].name);
        const ld_named_type *def;
        for (uint64_t k = 0; (def = ld_map_get(&ld->type_defs, h, k)) != NULL; k++) {
            if (def->file != all[i].file || strcmp(def->name, all[i].name) != 0)
                continue;
            uint64_t *to = ld_pool_alloc(&ld->pool, sizeof *to);
            if (to) {
                *to = def->off;
                if (ld_map_put(&ld->decl_defs, all[i].file, all[i].off, to))
                    ld->files[all[i].file].decl_types = true;
            }
            break;
        }
    }
    ld_vec_free(&ld->decls);
    ld_map_free(&ld->type_defs);
}

/* Record where the C++ types under PARENT live (ld->prefixes: the
 * qualifier of each class, structure, union, enumeration and typedef DIE
 * inside a namespace or class) before the walk spells variables' types:
 * GDB names them "outer::inner::Box". Types local to a function are not
 * qualified (GDB's determine_prefix), nor the members of an unnamed
 * class. So are the variable declarations there (a static data member,
 * a namespace's variable), whose definitions name them by
 * DW_AT_specification (add_var). */
static void type_prefixes(dwexpr_libdwarf *ld, size_t file, Dwarf_Debug dbg, Dwarf_Die parent,
                          const char *prefix, int depth)
{
    if (depth > 64)
        return;
    Dwarf_Die c;
    int r = ld_first_child(dbg, parent, &c);
    if (r == DW_DLV_ERROR) {
        return;
    }
    while (r == DW_DLV_OK) {
        const Dwarf_Half t = die_tag(dbg, c);
        const char *n = die_string(ld, file, c, DW_AT_name);
        switch (t) {
        case DW_TAG_namespace: {
            const char *q = qualify(ld, prefix, n ? n : "(anonymous namespace)");
            if (q)
                type_prefixes(ld, file, dbg, c, q, depth + 1);
            break;
        }
        case DW_TAG_variable: case DW_TAG_member:
            if (prefix && *prefix && ld_die_flag(ld, file, c, DW_AT_declaration))
                ld_map_put(&ld->prefixes, file, die_offset(dbg, c), (void *)(uintptr_t)prefix);
            break;
        case DW_TAG_structure_type: case DW_TAG_class_type: case DW_TAG_union_type:
        case DW_TAG_interface_type: case DW_TAG_enumeration_type: case DW_TAG_typedef: {
            /* a definition that completes a declaration elsewhere
             * (DW_AT_specification: "struct A::B {...}" outside A, and
             * GCC's DWARF 4 type units, whose type is defined at the top
             * with its declaration in the namespaces) lives where the
             * declaration does, as GDB's determine_prefix reads it */
            const char *pre = prefix;
            uint64_t spec;
            if (ld_die_ref(ld, file, c, DW_AT_specification, &spec)) {
                const char *sp = ld_map_get(&ld->prefixes, file, spec);
                if (sp)
                    pre = sp;
            }
            /* a signature stub (clang's: no name, DW_AT_signature, the
             * declarations of the static members the unit defines) is
             * its type unit's type, named and placed there (pass 0 of
             * each_unit recorded it) */
            const uint64_t off = die_offset(dbg, c);
            uint64_t sig;
            if (!n && ld->files[file].type_units &&
                (sig = signature_target(ld, file, off)) != off) {
                Dwarf_Die sd;
                if (ld_offdie(ld, file, sig, &sd, NULL) == DWEXPR_OK) {
                    n = die_string(ld, file, sd, DW_AT_name);
                    pre = ld_map_get(&ld->prefixes, file, sig);
                    dwarf_dealloc_die(sd);
                }
            }
            if (pre && *pre)
                ld_map_put(&ld->prefixes, file, off, (void *)(uintptr_t)pre);
            if (ld->prefix_decls && n && t != DW_TAG_typedef)
                named_type_seen(ld, file, c, off, qualify(ld, pre, n));
            if (t != DW_TAG_enumeration_type && t != DW_TAG_typedef) {
                const char *q = n ? qualify(ld, pre, n) : "";
                if (q)
                    type_prefixes(ld, file, dbg, c, q, depth + 1);
            }
            break;
        }
        default:
            break;
        }
        r = ld_next_sibling(dbg, &c);
    }
}

/* The name of D through DW_AT_abstract_origin / DW_AT_specification. */
static const char *resolve_name(walker *w, Dwarf_Die d, int depth)
{
    const char *n = die_string(w->ld, w->file, d, DW_AT_name);
    if (n || depth > 4)
        return n;
    uint64_t o;
    if (ld_die_ref(w->ld, w->file, d, DW_AT_abstract_origin, &o) ||
        ld_die_ref(w->ld, w->file, d, DW_AT_specification, &o)) {
        Dwarf_Die od;
        if (ld_offdie(w->ld, w->file, o, &od, NULL) == DWEXPR_OK) {
            n = resolve_name(w, od, depth + 1);
            dwarf_dealloc_die(od);
        }
    }
    return n;
}

/* A numeric attribute of D or of its origin. */
static bool resolve_udata(walker *w, Dwarf_Die d, Dwarf_Half at, uint64_t *out)
{
    if (ld_die_udata(w->ld, w->file, d, at, out))
        return true;
    uint64_t o;
    if (ld_die_ref(w->ld, w->file, d, DW_AT_abstract_origin, &o) ||
        ld_die_ref(w->ld, w->file, d, DW_AT_specification, &o)) {
        Dwarf_Die od;
        bool ok = false;
        if (ld_offdie(w->ld, w->file, o, &od, NULL) == DWEXPR_OK) {
            ok = ld_die_udata(w->ld, w->file, od, at, out);
            dwarf_dealloc_die(od);
        }
        return ok;
    }
    return false;
}

/* The pc ranges of D: DW_AT_low_pc/high_pc or DW_AT_ranges (pool memory). */
static dwexpr_status die_ranges(walker *w, Dwarf_Die d, dwexpr_libdwarf_range **out, size_t *n)
{
    ld_unit *u = ld_unit_at(w->ld, w->unit);
    uint64_t lo, hi;
    *out = NULL;
    *n = 0;
    if (die_addr(w->ld, u, d, DW_AT_low_pc, &lo)) {
        Dwarf_Attribute a;
        if (!get_attr(w->dbg, d, DW_AT_high_pc, &a))
            return DWEXPR_OK; /* a single address: no range */
        Dwarf_Half f = form_of(w->dbg, a);
        dwarf_dealloc_attribute(a);
        if (f == DW_FORM_addr || dwarf_addr_form_is_indexed(f)) {
            if (!die_addr(w->ld, u, d, DW_AT_high_pc, &hi))
                return DWEXPR_OK;
        } else {
            /* DWARF 4 2.17.2: a constant high_pc is an offset from low_pc */
            uint64_t len;
            if (!ld_die_udata(w->ld, w->file, d, DW_AT_high_pc, &len))
                return DWEXPR_OK;
            hi = lo + len;
        }
        if (hi <= lo)
            return DWEXPR_OK;
        dwexpr_libdwarf_range *r = ld_pool_alloc(&w->ld->pool, sizeof *r);
        if (!r)
            return ld_fail(w->err, DWEXPR_E_NOMEM, "out of memory");
        r->low = lo;
        r->high = hi;
        *out = r;
        *n = 1;
        return DWEXPR_OK;
    }
    Dwarf_Attribute a;
    if (!get_attr(w->dbg, d, DW_AT_ranges, &a))
        return DWEXPR_OK;
    Dwarf_Half f = form_of(w->dbg, a);
    uint64_t v;
    bool ok = attr_u(w->dbg, a, f, &v);
    dwarf_dealloc_attribute(a);
    if (!ok)
        return DWEXPR_OK;
    dwexpr_error tmp;
    if (ld_read_ranges(w->ld, u, f, v, out, n, &tmp) != DWEXPR_OK) {
        *out = NULL;
        *n = 0; /* unreadable ranges: treat as no pc information */
    }
    return DWEXPR_OK;
}

/* A new scope of KIND for DIE D under PARENT. */
static ld_scope *new_scope(walker *w, Dwarf_Die d, dwexpr_libdwarf_scope_kind kind,
                           const ld_scope *parent)
{
    ld_scope *s = ld_pool_alloc(&w->ld->pool, sizeof *s);
    if (!s)
        return NULL;
    s->pub.kind = kind;
    s->pub.die = die_offset(w->dbg, d);
    s->pub.unit = w->unit;
    s->pub.parent = parent ? &parent->pub : NULL;
    s->file = w->file;
    s->depth = parent ? parent->depth + 1 : 0;
    if (kind != DWEXPR_LIBDWARF_SCOPE_UNIT && kind != DWEXPR_LIBDWARF_SCOPE_BLOCK)
        s->pub.name = resolve_name(w, d, 0);
    else if (kind == DWEXPR_LIBDWARF_SCOPE_UNIT)
        s->pub.name = die_string(w->ld, w->file, d, DW_AT_name);
    uint64_t v;
    if (kind == DWEXPR_LIBDWARF_SCOPE_INLINED && ld_die_udata(w->ld, w->file, d, DW_AT_call_line, &v))
        s->pub.call_line = (uint32_t)v;
    if (kind != DWEXPR_LIBDWARF_SCOPE_UNIT) {
        dwexpr_libdwarf_range *r;
        size_t n;
        if (die_ranges(w, d, &r, &n) != DWEXPR_OK)
            return NULL;
        s->pub.ranges = r;
        s->pub.nranges = n;
        s->no_ranges = n == 0;
        ld_scope **slot = ld_vec_push(&w->ld->scopes);
        if (!slot)
            return NULL;
        *slot = s;
    }
    return s;
}

/* Record variable or parameter D of SCOPE; INHERITED: an abstract DIE a
 * concrete scope inherits (inherit), whose location, if it has one, is
 * the variable's: a static local's DW_OP_addr (GDB's new_symbol reads the
 * abstract DIE's DW_AT_location like any other: one object at its
 * address, in every inline and out-of-line instance). */
static dwexpr_status add_var(walker *w, Dwarf_Die d, Dwarf_Half tag, const ld_scope *scope,
                             unsigned blocks, bool inherited)
{
    if (ld_die_flag(w->ld, w->file, d, DW_AT_declaration))
        return DWEXPR_OK;
    const char *name = resolve_name(w, d, 0);
    if (!name)
        return DWEXPR_OK;
    uint64_t spec;
    if (lang_namespaced(w->lang) && scope->pub.kind == DWEXPR_LIBDWARF_SCOPE_UNIT) {
        /* a C++ (or Rust) variable outside functions is named as GDB names it
         * (dwarf2_compute_name, die_needs_namespace): qualified by the
         * namespaces and classes of its declaration (a static data
         * member's class), or of its own place */
        const char *prefix = ld_die_ref(w->ld, w->file, d, DW_AT_specification, &spec)
                                 ? ld_map_get(&w->ld->prefixes, w->file, spec)
                                 : w->prefix;
        if (prefix && *prefix) {
            const char *q = qualify(w->ld, prefix, name);
            if (!q)
                return ld_fail(w->err, DWEXPR_E_NOMEM, "out of memory");
            name = q;
        }
    }
    dwexpr_libdwarf_var *v = ld_vec_push(&w->ld->vars);
    if (!v)
        return ld_fail(w->err, DWEXPR_E_NOMEM, "out of memory");
    v->die = die_offset(w->dbg, d);
    v->unit = w->unit;
    v->name = name;
    v->is_param = tag == DW_TAG_formal_parameter;
    v->artificial = ld_die_flag(w->ld, w->file, d, DW_AT_artificial);
    uint64_t x;
    if (resolve_udata(w, d, DW_AT_decl_line, &x))
        v->decl_line = (uint32_t)x;
    v->type = die_type(w->ld, w->file, d);
    if (!v->type) {
        uint64_t o;
        if (ld_die_ref(w->ld, w->file, d, DW_AT_specification, &o)) {
            Dwarf_Die od;
            if (ld_offdie(w->ld, w->file, o, &od, NULL) == DWEXPR_OK) {
                v->type = die_type(w->ld, w->file, od);
                dwarf_dealloc_die(od);
            }
        }
    }
    const ld_tinfo *ti = tinfo(w->ld, w->unit, v->type);
    v->type_name = ti ? ti->name : "?";
    v->bit_size = ti ? 8 * ti->bytes : 0;
    v->scope = &scope->pub;
    v->block_depth = blocks;
    v->loc.kind = DWEXPR_LIBDWARF_ATTR_NONE;
    uint64_t o;
    if (!inherited && scope->pub.kind == DWEXPR_LIBDWARF_SCOPE_UNIT &&
        ld_die_ref(w->ld, w->file, d, DW_AT_abstract_origin, &o) &&
        !ld_map_put(&w->ld->origins, w->file, o, (void *)1))
        return ld_fail(w->err, DWEXPR_E_NOMEM, "out of memory");
    dwexpr_error e;
    dwexpr_status st = dwexpr_libdwarf_attr_get(w->ld, w->unit, v->die, DW_AT_location, &v->loc, &e);
    if (st == DWEXPR_E_NOT_FOUND)
        st = dwexpr_libdwarf_attr_get(w->ld, w->unit, v->die, DW_AT_const_value, &v->loc, &e);
    size_t vu = w->unit;
    uint64_t vd = v->die;
    if (st == DWEXPR_E_NOT_FOUND && ld_value_die(w->ld, &vu, &vd) == DWEXPR_OK) {
        st = dwexpr_libdwarf_attr_get(w->ld, vu, vd, DW_AT_location, &v->loc, &e);
        if (st == DWEXPR_E_NOT_FOUND)
            st = dwexpr_libdwarf_attr_get(w->ld, vu, vd, DW_AT_const_value, &v->loc, &e);
    }
    if (st == DWEXPR_E_NOT_FOUND) {
        v->loc.kind = DWEXPR_LIBDWARF_ATTR_NONE;
        st = DWEXPR_OK;
    }
    if (st) {
        /* keep the variable; the listing reports the broken attribute */
        v->loc.kind = DWEXPR_LIBDWARF_ATTR_OTHER;
        v->loc.section = ld_pool_strdup(&w->ld->pool, e.message);
    }
    return DWEXPR_OK;
}

/* Record variable D of concrete function FN as a concrete DIE of its
 * abstract origin ORIGIN (ld->concretes). */
static dwexpr_status add_concrete(walker *w, Dwarf_Die d, uint64_t origin, const ld_scope *fn)
{
    ld_concrete *c = ld_pool_alloc(&w->ld->pool, sizeof *c);
    if (!c)
        return ld_fail(w->err, DWEXPR_E_NOMEM, "out of memory");
    c->die = die_offset(w->dbg, d);
    c->fn = fn;
    c->next = ld_map_get(&w->ld->concretes, w->file, origin);
    if (!ld_map_put(&w->ld->concretes, w->file, origin, c))
        return ld_fail(w->err, DWEXPR_E_NOMEM, "out of memory");
    return DWEXPR_OK;
}

uint64_t ld_concrete_die(const dwexpr_libdwarf *ld, size_t file, uint64_t off, uint64_t pc)
{
    for (const ld_concrete *c = ld_map_get(&ld->concretes, file, off); c; c = c->next)
        if (dwexpr_libdwarf_scope_has_pc(&c->fn->pub, pc))
            return c->die;
    return 0;
}

/* The register of a call-site parameter's DW_AT_location (DW_OP_regN /
 * DW_OP_regx), or UINT32_MAX. */
static uint32_t loc_register(const uint8_t *p, size_t n)
{
    if (n == 1 && p[0] >= 0x50 && p[0] <= 0x6f)
        return p[0] - 0x50u;
    if (n >= 2 && p[0] == 0x90) {
        ld_cursor c = {p + 1, p + n, false, false};
        uint64_t r = ld_get_uleb(&c);
        if (!c.bad && c.p == p + n && r < UINT32_MAX)
            return (uint32_t)r;
    }
    return UINT32_MAX;
}

/* Record call site D (DW_TAG_call_site or DW_TAG_GNU_call_site). */
static dwexpr_status add_callsite(walker *w, Dwarf_Die d, const ld_scope *scope)
{
    ld_unit *u = ld_unit_at(w->ld, w->unit);
    ld_callsite cs;
    memset(&cs, 0, sizeof cs);
    if (!die_addr(w->ld, u, d, DW_AT_call_return_pc, &cs.return_pc) &&
        !die_addr(w->ld, u, d, DW_AT_low_pc, &cs.return_pc))
        return DWEXPR_OK; /* no return address: cannot be matched */
    cs.die = die_offset(w->dbg, d);
    cs.unit = w->unit;
    cs.scope = scope;
    if (!ld_die_ref(w->ld, w->file, d, DW_AT_call_origin, &cs.origin))
        ld_die_ref(w->ld, w->file, d, DW_AT_abstract_origin, &cs.origin);
    cs.tail = ld_die_flag(w->ld, w->file, d, DW_AT_call_tail_call) ||
              ld_die_flag(w->ld, w->file, d, DW_AT_GNU_tail_call);
    /* the target as GDB reads it (read_call_site_scope): DW_AT_call_target
     * (an expression, or a reference) wins over the origin; an empty
     * expression names nothing */
    Dwarf_Attribute ta;
    Dwarf_Half tat = DW_AT_call_target;
    bool has_target = get_attr(w->dbg, d, tat, &ta);
    if (!has_target) {
        tat = DW_AT_GNU_call_site_target;
        has_target = get_attr(w->dbg, d, tat, &ta);
    }
    if (has_target) {
        dwarf_dealloc_attribute(ta);
        dwexpr_libdwarf_attr la;
        if (dwexpr_libdwarf_attr_get(w->ld, w->unit, cs.die, tat, &la, NULL) == DWEXPR_OK &&
            la.kind == DWEXPR_LIBDWARF_ATTR_EXPR) {
            cs.target_expr = la.len ? la.data : NULL;
            cs.target_len = la.len;
        } else {
            ld_die_ref(w->ld, w->file, d, tat, &cs.target_die);
        }
    } else {
        cs.target_die = cs.origin;
    }
    ld_vec params;
    memset(&params, 0, sizeof params);
    params.elem = sizeof(ld_csparam);
    Dwarf_Die c;
    int r = ld_first_child(w->dbg, d, &c);
    while (r == DW_DLV_OK) {
        Dwarf_Half t = die_tag(w->dbg, c);
        if (t == DW_TAG_call_site_parameter || t == DW_TAG_GNU_call_site_parameter) {
            ld_csparam *p = ld_vec_push(&params);
            if (p) {
                p->die = die_offset(w->dbg, c);
                p->regno = UINT32_MAX;
                dwexpr_libdwarf_attr la;
                if (dwexpr_libdwarf_attr_get(w->ld, w->unit, p->die, DW_AT_location, &la, NULL) ==
                        DWEXPR_OK &&
                    la.kind == DWEXPR_LIBDWARF_ATTR_EXPR) {
                    p->loc = la.data;
                    p->loc_len = la.len;
                    p->regno = loc_register(la.data, la.len);
                }
                if (!ld_die_ref(w->ld, w->file, c, DW_AT_call_parameter, &p->param))
                    ld_die_ref(w->ld, w->file, c, DW_AT_abstract_origin, &p->param);
                Dwarf_Attribute a;
                if (get_attr(w->dbg, c, DW_AT_call_value, &a) ||
                    get_attr(w->dbg, c, DW_AT_GNU_call_site_value, &a)) {
                    p->has_value = true;
                    dwarf_dealloc_attribute(a);
                }
                if (get_attr(w->dbg, c, DW_AT_call_data_value, &a) ||
                    get_attr(w->dbg, c, DW_AT_GNU_call_site_data_value, &a)) {
                    p->has_data_value = true;
                    dwarf_dealloc_attribute(a);
                }
            }
        }
        r = ld_next_sibling(w->dbg, &c);
    }
    cs.nparams = params.n;
    if (params.n) {
        cs.params = ld_pool_alloc(&w->ld->pool, sizeof *cs.params * params.n);
        if (!cs.params) {
            ld_vec_free(&params);
            return ld_fail(w->err, DWEXPR_E_NOMEM, "out of memory");
        }
        memcpy(cs.params, params.v, sizeof *cs.params * params.n);
    }
    ld_vec_free(&params);
    ld_callsite *slot = ld_vec_push(&w->ld->callsites);
    if (!slot)
        return ld_fail(w->err, DWEXPR_E_NOMEM, "out of memory");
    *slot = cs;
    return DWEXPR_OK;
}

/* Record base type D of the unit. */
static dwexpr_status add_base_type(walker *w, Dwarf_Die d)
{
    ld_unit *u = ld_unit_at(w->ld, w->unit);
    dwexpr_libdwarf_base_type bt;
    memset(&bt, 0, sizeof bt);
    uint64_t off = die_offset(w->dbg, d);
    if (!read_base_type(w->ld, w->file, d, off - u->hdr, &bt.type))
        return DWEXPR_OK;
    bt.die = off - u->hdr;
    bt.name = die_string(w->ld, w->file, d, DW_AT_name);
    dwexpr_libdwarf_base_type *slot = ld_vec_push(&u->btypes);
    if (!slot)
        return ld_fail(w->err, DWEXPR_E_NOMEM, "out of memory");
    *slot = bt;
    return DWEXPR_OK;
}

/* The set of abstract origins the direct children of a concrete scope
 * name (GDB inherit_abstract_dies). */
typedef struct origins {
    uint64_t *v;
    size_t n, cap;
} origins;

/* Remember OFF (on OOM it is dropped: a duplicate var at worst). */
static void origins_add(origins *o, uint64_t off)
{
    if (o->n == o->cap) {
        size_t cap = o->cap ? 2 * o->cap : 16;
        uint64_t *nv = realloc(o->v, cap * sizeof *nv);
        if (!nv)
            return;
        o->v = nv;
        o->cap = cap;
    }
    o->v[o->n++] = off;
}

/* Whether OFF was remembered. */
static bool origins_has(const origins *o, uint64_t off)
{
    for (size_t i = 0; i < o->n; i++)
        if (o->v[i] == off)
            return true;
    return false;
}

/* The walk over a DIE's children (defined below). */
static dwexpr_status walk(walker *w, Dwarf_Die parent, const ld_scope *scope, unsigned blocks,
                          origins *seen, int depth);

/* Variables of the abstract origin ORIGIN that the concrete scope SCOPE
 * does not repeat, as GDB lists them (inherit_abstract_dies): optimized
 * out, but for those the abstract DIE locates itself (add_var: a static
 * local). */
static dwexpr_status inherit(walker *w, uint64_t origin, const origins *seen,
                             const ld_scope *scope, unsigned blocks, int depth)
{
    Dwarf_Die od;
    if (depth > 64 || ld_offdie(w->ld, w->file, origin, &od, NULL) != DWEXPR_OK)
        return DWEXPR_OK;
    Dwarf_Die c;
    int r = ld_first_child(w->dbg, od, &c);
    dwexpr_status st = DWEXPR_OK;
    while (r == DW_DLV_OK && st == DWEXPR_OK) {
        uint64_t off = die_offset(w->dbg, c);
        Dwarf_Half t = die_tag(w->dbg, c);
        if (!origins_has(seen, off)) {
            if (t == DW_TAG_variable || t == DW_TAG_formal_parameter)
                st = add_var(w, c, t, scope, blocks, true);
            else if (t == DW_TAG_lexical_block) {
                /* an abstract block has no pcs: its variables are the
                 * inheriting scope's (GDB: read_lexical_block_scope of the
                 * abstract DIE processes its children in place) */
                origins none = {NULL, 0, 0};
                st = inherit(w, off, &none, scope, blocks, depth + 1);
            }
        }
        r = ld_next_sibling(w->dbg, &c);
    }
    dwarf_dealloc_die(od);
    return st;
}

/* A scope DIE D of KIND: walk its children, then inherit what its
 * abstract origin has that they do not. */
static dwexpr_status scope_die(walker *w, Dwarf_Die d, dwexpr_libdwarf_scope_kind kind,
                               const ld_scope *parent, unsigned blocks, int depth)
{
    ld_scope *s = new_scope(w, d, kind, parent);
    if (!s)
        return ld_fail(w->err, DWEXPR_E_NOMEM, "out of memory");
    unsigned inner = kind == DWEXPR_LIBDWARF_SCOPE_BLOCK ? blocks + 1 : 0;
    origins seen = {NULL, 0, 0};
    /* inside a function: C++ classes local to it start unqualified, a
     * Fortran procedure's contained ones are HOST::NAME (GDB) */
    const char *save = w->prefix;
    const bool was = w->in_type, was_host = w->host;
    w->in_type = false;
    if (kind == DWEXPR_LIBDWARF_SCOPE_FUNCTION) {
        w->prefix = lang_namespaced(w->lang) ? ""
                    : w->lang == LANG_FORTRAN  ? s->pub.name
                                               : NULL;
        w->host = w->lang == LANG_FORTRAN;
    }
    dwexpr_status st = walk(w, d, s, inner, &seen, depth + 1);
    w->prefix = save;
    w->in_type = was;
    w->host = was_host;
    uint64_t o;
    if (st == DWEXPR_OK && ld_die_ref(w->ld, w->file, d, DW_AT_abstract_origin, &o))
        st = inherit(w, o, &seen, s, inner, depth + 1);
    free(seen.v);
    return st;
}

static dwexpr_status walk_abstract(walker *w, Dwarf_Die parent, const ld_scope *scope, int depth);

/* walk_abstract of the abstract function FN, whose functions are
 * qualified as scope_die qualifies a concrete one's: not at all in C++
 * (a function's local classes qualify theirs), by FN's name in Fortran
 * (GDB's determine_prefix: a contained procedure is HOST::NAME). */
static dwexpr_status walk_abstract_fn(walker *w, Dwarf_Die fn, const ld_scope *scope, int depth)
{
    const char *save = w->prefix;
    const bool was_host = w->host;
    w->prefix = lang_namespaced(w->lang)    ? ""
                : w->lang == LANG_FORTRAN ? die_string(w->ld, w->file, fn, DW_AT_name)
                                          : NULL;
    w->host = w->lang == LANG_FORTRAN;
    dwexpr_status st = walk_abstract(w, fn, scope, depth);
    w->prefix = save;
    w->host = was_host;
    return st;
}

/* The concrete functions inside abstract function PARENT (DW_AT_inline,
 * or a declaration-less one without pcs), at any depth of its lexical
 * blocks: a GNU C nested function of a function that was inlined
 * everywhere is a concrete DW_TAG_subprogram with pcs among the abstract
 * DIE's children (DWARF 5 3.3.8.1 and 3.3.1: a subprogram with pcs is
 * concrete wherever it is). The abstract DIE's variables are no scope's. */
static dwexpr_status walk_abstract(walker *w, Dwarf_Die parent, const ld_scope *scope, int depth)
{
    if (depth > 200)
        return DWEXPR_OK;
    Dwarf_Die c;
    int r = ld_first_child(w->dbg, parent, &c);
    dwexpr_status st = DWEXPR_OK;
    while (r == DW_DLV_OK && st == DWEXPR_OK) {
        const Dwarf_Half t = die_tag(w->dbg, c);
        if (t == DW_TAG_subprogram && !ld_die_flag(w->ld, w->file, c, DW_AT_declaration)) {
            /* qualified as in a concrete function (walk): a Fortran
             * procedure contained in an abstract host by the host's name
             * (walk_abstract_fn), which GCC -flto's concrete DIE of it, in
             * the LTO unit, reaches through DW_AT_abstract_origin */
            if (w->prefix)
                ld_map_put(&w->ld->prefixes, w->host ? w->file | LD_HOST_KEY : w->file,
                           die_offset(w->dbg, c), (void *)(uintptr_t)w->prefix);
            uint64_t lo;
            Dwarf_Attribute a;
            bool concrete = die_addr(w->ld, ld_unit_at(w->ld, w->unit), c, DW_AT_low_pc, &lo);
            if (!concrete && get_attr(w->dbg, c, DW_AT_ranges, &a)) {
                concrete = true;
                dwarf_dealloc_attribute(a);
            }
            st = concrete ? scope_die(w, c, DWEXPR_LIBDWARF_SCOPE_FUNCTION, scope, 0, depth)
                          : walk_abstract_fn(w, c, scope, depth + 1);
        } else if (t == DW_TAG_lexical_block) {
            st = walk_abstract(w, c, scope, depth + 1);
        } else if ((t == DW_TAG_structure_type || t == DW_TAG_class_type ||
                    t == DW_TAG_union_type || t == DW_TAG_interface_type) &&
                   lang_namespaced(w->lang)) {
            /* a C++ class local to the abstract function: its methods are
             * qualified by it alone, as the walk of a concrete function
             * records them (walk, scope_die). GCC -flto leaves every
             * function of the compile-time unit abstract (early debug)
             * and names the methods' declarations there from the LTO
             * unit's concrete DIEs (DW_AT_abstract_origin), whose place
             * GDB's determine_prefix reads: "Local::m" */
            const char *save = w->prefix, *n = die_string(w->ld, w->file, c, DW_AT_name);
            const bool was = w->in_type;
            w->prefix = n ? n : "";
            w->in_type = true;
            st = walk(w, c, scope, 0, NULL, depth + 1);
            w->prefix = save;
            w->in_type = was;
        }
        r = ld_next_sibling(w->dbg, &c);
    }
    if (r == DW_DLV_OK)
        dwarf_dealloc_die(c);
    return st;
}

static dwexpr_status walk(walker *w, Dwarf_Die parent, const ld_scope *scope, unsigned blocks,
                          origins *seen, int depth)
{
    if (depth > 200)
        return DWEXPR_OK;
    Dwarf_Die c;
    int r = ld_first_child(w->dbg, parent, &c);
    if (r == DW_DLV_ERROR) {
        return DWEXPR_OK;
    }
    dwexpr_status st = DWEXPR_OK;
    while (r == DW_DLV_OK && st == DWEXPR_OK) {
        Dwarf_Half t = die_tag(w->dbg, c);
        uint64_t o;
        if (seen && ld_die_ref(w->ld, w->file, c, DW_AT_abstract_origin, &o))
            origins_add(seen, o);
        if (w->in_type && t != DW_TAG_subprogram && t != DW_TAG_structure_type &&
            t != DW_TAG_class_type && t != DW_TAG_union_type && t != DW_TAG_interface_type)
            t = 0; /* a class's data members and the like: not variables of a scope */
        switch (t) {
        case DW_TAG_subprogram: {
            if (w->prefix)
                ld_map_put(&w->ld->prefixes, w->host ? w->file | LD_HOST_KEY : w->file,
                           die_offset(w->dbg, c), (void *)(uintptr_t)w->prefix);
            if (ld_die_flag(w->ld, w->file, c, DW_AT_declaration))
                break;
            uint64_t lo;
            bool concrete = die_addr(w->ld, ld_unit_at(w->ld, w->unit), c, DW_AT_low_pc, &lo);
            if (!concrete) {
                Dwarf_Attribute a;
                if (get_attr(w->dbg, c, DW_AT_ranges, &a)) {
                    concrete = true;
                    dwarf_dealloc_attribute(a);
                }
            }
            if (concrete)
                st = scope_die(w, c, DWEXPR_LIBDWARF_SCOPE_FUNCTION, scope, 0, depth);
            else
                st = walk_abstract_fn(w, c, scope, depth + 1);
            break;
        }
        case DW_TAG_inlined_subroutine:
            st = scope_die(w, c, DWEXPR_LIBDWARF_SCOPE_INLINED, scope, 0, depth);
            break;
        case DW_TAG_lexical_block:
            /* a block without pcs (no DW_AT_low_pc, no DW_AT_ranges: GCC
             * leaves one where it removed the block's code) is no scope
             * of its own: its variables are the enclosing scope's, as GDB
             * reads it (read_lexical_block_scope, "process its children
             * as if there was no wrapping"), at no pc of their own */
            if (!has_attr(w->dbg, c, DW_AT_low_pc) && !has_attr(w->dbg, c, DW_AT_ranges))
                st = walk(w, c, scope, blocks, seen, depth + 1);
            else
                st = scope_die(w, c, DWEXPR_LIBDWARF_SCOPE_BLOCK, scope, blocks, depth);
            break;
        case DW_TAG_common_block:
            /* a Fortran common block (DWARF 5 4.2): its DW_TAG_variable
             * children, each located in the block's storage, are variables
             * of the enclosing scope, as GDB reads them (read_common_block
             * makes each child a symbol of the scope, listed by "info
             * locals" beside the procedure's own); the block itself is no
             * variable (GDB's symbol for it is in COMMON_BLOCK_DOMAIN) */
            st = walk(w, c, scope, blocks, seen, depth + 1);
            break;
        case DW_TAG_variable:
        case DW_TAG_formal_parameter:
            if (scope->pub.kind == DWEXPR_LIBDWARF_SCOPE_FUNCTION && blocks == 0 &&
                ld_die_ref(w->ld, w->file, c, DW_AT_abstract_origin, &o))
                st = add_concrete(w, c, o, scope);
            if (st == DWEXPR_OK)
                st = add_var(w, c, t, scope, blocks, false);
            break;
        case DW_TAG_call_site:
        case DW_TAG_GNU_call_site:
            st = add_callsite(w, c, scope);
            break;
        case DW_TAG_base_type:
            st = add_base_type(w, c);
            break;
        case DW_TAG_namespace:
        case DW_TAG_module: {
            /* GDB's qualifiers: a C++ namespace (unnamed: "(anonymous
             * namespace)") adds to the enclosing one; a Fortran module's
             * procedures are MODULE::NAME */
            const char *save = w->prefix, *n = die_string(w->ld, w->file, c, DW_AT_name);
            if (lang_namespaced(w->lang) && t == DW_TAG_namespace)
                w->prefix = qualify(w->ld, save, n ? n : "(anonymous namespace)");
            else if (w->lang == LANG_FORTRAN && t == DW_TAG_module && n)
                w->prefix = ld_pool_strdup(&w->ld->pool, n);
            const bool was_host = w->host;
            w->host = false;
            st = walk(w, c, scope, blocks, NULL, depth + 1);
            w->prefix = save;
            w->host = was_host;
            break;
        }
        case DW_TAG_structure_type:
        case DW_TAG_class_type:
        case DW_TAG_union_type:
        case DW_TAG_interface_type: {
            /* C++ member functions defined in their class (a lambda's
             * operator(), a local class's methods): scopes of their own,
             * qualified by the class (an unnamed one qualifies nothing,
             * as in GDB) */
            if (!lang_namespaced(w->lang))
                break;
            const char *save = w->prefix, *n = die_string(w->ld, w->file, c, DW_AT_name);
            const bool was = w->in_type;
            w->prefix = n ? qualify(w->ld, save, n) : "";
            w->in_type = true;
            st = walk(w, c, scope, blocks, NULL, depth + 1);
            w->prefix = save;
            w->in_type = was;
            break;
        }
        default:
            break;
        }
        r = ld_next_sibling(w->dbg, &c);
    }
    if (r == DW_DLV_OK)
        dwarf_dealloc_die(c);
    return st;
}

/* ---- opening ---- */

/* Add file PATH (the main one or a .dwo); returns its index or SIZE_MAX
 * with ERR set. */
static void debug_types_prefixes(dwexpr_libdwarf *ld, size_t file);

static size_t add_file(dwexpr_libdwarf *ld, const char *path, dwexpr_error *err)
{
    for (size_t i = 0; i < ld->nfiles; i++)
        if (strcmp(ld->files[i].path, path) == 0)
            return i;
    if (ld->nfiles == ld->capfiles) {
        size_t cap = ld->capfiles ? 2 * ld->capfiles : 4;
        ld_file *nf = realloc(ld->files, cap * sizeof *nf);
        if (!nf) {
            ld_fail(err, DWEXPR_E_NOMEM, "out of memory");
            return SIZE_MAX;
        }
        ld->files = nf;
        ld->capfiles = cap;
    }
    ld_file *f = &ld->files[ld->nfiles];
    memset(f, 0, sizeof *f);
    f->path = ld_pool_strdup(&ld->pool, path);
    char why[300];
    if (!f->path || ld_elf_open(&f->elf, path, why, sizeof why) != 0) {
        ld_fail(err, DWEXPR_E_NOT_FOUND, "%s", f->path ? why : "out of memory");
        return SIZE_MAX;
    }
    f->elf_ok = true;
    if (ld_precheck(&f->elf, why, sizeof why) != 0) {
        ld_fail(err, DWEXPR_E_ILL_FORMED, "%s: %s", path, why);
        ld_elf_close(&f->elf);
        return SIZE_MAX;
    }
    Dwarf_Error e = NULL;
    int r = dwarf_init_path(path, NULL, 0, DW_DLC_READ, DW_GROUPNUMBER_ANY, NULL, NULL, &f->dbg,
                            NULL, 0, NULL, &e);
    if (r != DW_DLV_OK) {
        if (r == DW_DLV_ERROR) {
            /* libdwarf 20210528 refuses an object with two sections of
             * one name outside section groups: GCC's DWARF 4 .dwo with
             * type units (a .debug_types.dwo section per unit) */
            ld_fail(err, DWEXPR_E_TARGET, "%s: libdwarf: %s%s", path, dwarf_errmsg(e),
                    dwarf_errno(e) == DW_DLE_SECTION_DUPLICATION
                        ? " (two sections of one name, which this libdwarf cannot read; GCC "
                          "writes a .dwo so with -fdebug-types-section -gdwarf-4)"
                        : "");
            /* an error made without a dbg is released against NULL
             * (libdwarf's "special no-dbg" errors; leaked before fuzzing
             * found it) */
            dwarf_dealloc_error(NULL, e);
        } else {
            ld_fail(err, DWEXPR_E_NOT_FOUND, "%s has no DWARF", path);
        }
        ld_elf_close(&f->elf);
        return SIZE_MAX;
    }
    if (ld->nfiles > 0) {
        e = NULL;
        if (dwarf_set_tied_dbg(f->dbg, ld->files[0].dbg, &e) == DW_DLV_ERROR)
            ld_drop(f->dbg, e);
    }
    const size_t index = ld->nfiles++;
    debug_types_prefixes(ld, index);
    return index;
}

/* Read the unit attributes of unit DIE D into U. */
static void unit_attrs(dwexpr_libdwarf *ld, ld_unit *u, size_t file, Dwarf_Die d)
{
    uint64_t v;
    const char *s;
    if ((s = die_string(ld, file, d, DW_AT_name)))
        u->pub.name = s;
    if ((s = die_string(ld, file, d, DW_AT_comp_dir)))
        u->pub.comp_dir = s;
    if ((s = die_string(ld, file, d, DW_AT_producer)))
        u->pub.producer = s;
    if (ld_die_udata(ld, file, d, DW_AT_addr_base, &v) ||
        ld_die_udata(ld, file, d, DW_AT_GNU_addr_base, &v))
        u->pub.addr_base = v;
    if (ld_die_udata(ld, file, d, DW_AT_loclists_base, &v))
        u->pub.loclists_base = v;
    if (ld_die_udata(ld, file, d, DW_AT_rnglists_base, &v) ||
        ld_die_udata(ld, file, d, DW_AT_GNU_ranges_base, &v))
        u->pub.rnglists_base = v;
    if (ld_die_udata(ld, file, d, DW_AT_GNU_dwo_id, &v)) {
        u->dwo_id = v;
        u->has_dwo_id = true;
    }
    if (ld_die_udata(ld, file, d, DW_AT_language, &v))
        u->language = v;
}

/* DWARF 5 Table 7.17, by DW_AT_language of the unit. */
int64_t ld_default_lower_bound(const dwexpr_libdwarf *ld, size_t unit)
{
    const ld_unit *u = ld_unit_at(ld, unit);
    switch (u ? u->language : 0) {
    case DW_LANG_Ada83: case DW_LANG_Cobol74: case DW_LANG_Cobol85: case DW_LANG_Fortran77:
    case DW_LANG_Fortran90: case DW_LANG_Pascal83: case DW_LANG_Modula2: case DW_LANG_Ada95:
    case DW_LANG_Fortran95: case DW_LANG_PLI: case DW_LANG_Modula3: case DW_LANG_Julia:
    case DW_LANG_Fortran03: case DW_LANG_Fortran08:
    case 0x2d: /* DW_LANG_Fortran18 */
    case 0x2e: /* DW_LANG_Ada2005 */
    case 0x2f: /* DW_LANG_Ada2012 */
        return 1;
    default:
        return 0;
    }
}

bool ld_column_major(const dwexpr_libdwarf *ld, size_t unit)
{
    const ld_unit *u = ld_unit_at(ld, unit);
    return u && lang_kind(u->language) == LANG_FORTRAN;
}

/* The .dwo path of a skeleton: DW_AT_dwo_name relative to DW_AT_comp_dir. */
static char *dwo_path(const dwexpr_libdwarf_unit *u, const char *name, const char *main_path)
{
    size_t cap = strlen(name) + (u->comp_dir ? strlen(u->comp_dir) : 0) + strlen(main_path) + 4;
    char *p = malloc(cap);
    if (!p)
        return NULL;
    if (name[0] == '/' || !u->comp_dir)
        snprintf(p, cap, "%s", name);
    else
        snprintf(p, cap, "%s/%s", u->comp_dir, name);
    FILE *f = fopen(p, "rb");
    if (f) {
        fclose(f);
        return p;
    }
    /* next to the main file */
    const char *slash = strrchr(main_path, '/');
    const char *base = strrchr(name, '/');
    base = base ? base + 1 : name;
    if (slash)
        snprintf(p, cap, "%.*s/%s", (int)(slash - main_path), main_path, base);
    else
        snprintf(p, cap, "%s", base);
    return p;
}

/* Iterate the units of FILE; for each, call FN. */
typedef dwexpr_status (*unit_fn)(dwexpr_libdwarf *ld, size_t file, Dwarf_Die cu, uint64_t hdr,
                                 uint64_t end, Dwarf_Half version, Dwarf_Half addr_size,
                                 Dwarf_Half offset_size, Dwarf_Half ut, const Dwarf_Sig8 *sig,
                                 void *arg, dwexpr_error *err);

/* One unit header, as dwarf_next_cu_header_d reports it. */
typedef struct uhdr {
    uint64_t hdr, end, die;
    Dwarf_Half version, addr_size, offset_size, ut;
    Dwarf_Sig8 sig;
} uhdr;

/* Move libdwarf's unit iteration of DBG to the next unit (after the last
 * one: back to the first); its header is not needed. */
static void next_header(Dwarf_Debug dbg)
{
    Dwarf_Unsigned len = 0, toff = 0, next = 0;
    Dwarf_Half ver = 0, asz = 0, lsz = 0, ext = 0, ut = 0;
    Dwarf_Off abbr = 0;
    Dwarf_Sig8 sig;
    Dwarf_Error e = NULL;
    if (dwarf_next_cu_header_d(dbg, true, &len, &ver, &abbr, &asz, &lsz, &ext, &sig, &toff, &next,
                               &ut, &e) == DW_DLV_ERROR)
        ld_drop(dbg, e);
}

/* Call FN for every unit of FILE. The headers are collected first: work
 * on the units (opening a .dwo tied to this file) may disturb libdwarf's
 * iteration state. */
static dwexpr_status each_unit(dwexpr_libdwarf *ld, size_t file, unit_fn fn, void *arg,
                               dwexpr_error *err)
{
    Dwarf_Debug dbg = ld->files[file].dbg;
    ld_vec hs;
    memset(&hs, 0, sizeof hs);
    hs.elem = sizeof(uhdr);
    uint64_t hdr = 0;
    dwexpr_status st = DWEXPR_OK;
    for (;;) {
        Dwarf_Unsigned len = 0, toff = 0, next = 0;
        Dwarf_Half ver = 0, asz = 0, lsz = 0, ext = 0, ut = 0;
        Dwarf_Off abbr = 0;
        Dwarf_Sig8 sig;
        Dwarf_Error e = NULL;
        memset(&sig, 0, sizeof sig);
        int r = dwarf_next_cu_header_d(dbg, true, &len, &ver, &abbr, &asz, &lsz, &ext, &sig,
                                       &toff, &next, &ut, &e);
        if (r == DW_DLV_NO_ENTRY)
            break;
        if (r == DW_DLV_ERROR) {
            st = ld_dwfail(dbg, e, err, "reading unit headers");
            break;
        }
        Dwarf_Die cu = NULL;
        e = NULL;
        r = dwarf_siblingof_b(dbg, NULL, true, &cu, &e);
        if (r == DW_DLV_ERROR) {
            st = ld_dwfail(dbg, e, err, "reading a unit DIE");
            break;
        }
        uhdr *h = ld_vec_push(&hs);
        if (!h) {
            if (r == DW_DLV_OK)
                dwarf_dealloc_die(cu);
            st = ld_fail(err, DWEXPR_E_NOMEM, "out of memory");
            break;
        }
        h->hdr = hdr;
        h->end = next;
        h->die = r == DW_DLV_OK ? die_offset(dbg, cu) : UINT64_MAX;
        h->version = ver;
        h->addr_size = asz;
        h->offset_size = lsz;
        h->ut = ut;
        h->sig = sig;
        if (ut == DW_UT_type || ut == DW_UT_split_type)
            ld->files[file].type_units = true;
        if (r == DW_DLV_OK)
            dwarf_dealloc_die(cu);
        if (next <= hdr)
            break; /* no progress: stop rather than loop */
        hdr = next;
    }
    size_t stepped = 0;
    for (size_t i = 0; st == DWEXPR_OK && i < hs.n; i++) {
        const uhdr *h = (const uhdr *)hs.v + i;
        /* libdwarf's iteration again, in step: dwarf_offdie_b finds the
         * unit of an offset by walking its units from the current one (the
         * last one the iteration read) when the offset is past it, else
         * from the first; without this every DIE looked up in a file of
         * many units (libc's debug file: 2000) costs a walk of the list */
        next_header(dbg);
        stepped++;
        Dwarf_Die cu;
        if (h->die == UINT64_MAX || ld_offdie(ld, file, h->die, &cu, NULL) != DWEXPR_OK)
            continue;
        st = fn(ld, file, cu, h->hdr, h->end, h->version, h->addr_size, h->offset_size, h->ut,
                &h->sig, arg, err);
        dwarf_dealloc_die(cu);
    }
    /* the iteration to its end, which starts it again from the first unit:
     * the next each_unit of FILE collects every header */
    for (size_t i = stepped; hs.n && i <= hs.n; i++)
        next_header(dbg);
    ld_vec_free(&hs);
    return st;
}

/* Looking for the split unit of a skeleton in a .dwo. */
typedef struct dwo_find {
    uint64_t id;
    bool has_id;
    bool found;
    uint64_t hdr, end, die;
    Dwarf_Half version;
} dwo_find;

/* An 8-byte signature as a number (byte 0 least significant). */
static uint64_t sig8_u64(const Dwarf_Sig8 *s)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v |= (uint64_t)(unsigned char)s->signature[i] << (8 * i);
    return v;
}

/* each_unit callback: the split unit of a .dwo matching the skeleton's id. */
static dwexpr_status find_split(dwexpr_libdwarf *ld, size_t file, Dwarf_Die cu, uint64_t hdr,
                                uint64_t end, Dwarf_Half version, Dwarf_Half addr_size,
                                Dwarf_Half offset_size, Dwarf_Half ut, const Dwarf_Sig8 *sig,
                                void *arg, dwexpr_error *err)
{
    dwo_find *f = arg;
    Dwarf_Debug dbg = ld->files[file].dbg;
    Dwarf_Half tag = die_tag(dbg, cu);
    if (f->found || (tag != DW_TAG_compile_unit && tag != DW_TAG_partial_unit))
        return DWEXPR_OK;
    uint64_t id = 0;
    bool has = false;
    if (version >= 5 && ut == DW_UT_split_compile) {
        id = sig8_u64(sig);
        has = true;
    } else if (ld_die_udata(ld, file, cu, DW_AT_GNU_dwo_id, &id)) {
        has = true;
    }
    if (f->has_id && has && id != f->id) {
        /* libdwarf reports the signature bytes in file order */
        return DWEXPR_OK;
    }
    f->found = true;
    f->hdr = hdr;
    f->end = end;
    f->die = die_offset(dbg, cu);
    f->version = version;
    (void)addr_size;
    (void)offset_size;
    (void)err;
    return DWEXPR_OK;
}

/* Before any unit is walked: where the C++ (and Rust) types of unit CU
 * live (type_prefixes), for every unit and type unit of the main file. A
 * unit's variables may have types another unit defines: GCC's LTO unit
 * names the types of the compile-time units (early debug), which come
 * after it; type units hold the types of the others. */
static dwexpr_status unit_prefixes(dwexpr_libdwarf *ld, size_t file, Dwarf_Die cu, uint64_t hdr,
                                   uint64_t end, Dwarf_Half version, Dwarf_Half addr_size,
                                   Dwarf_Half offset_size, Dwarf_Half ut, const Dwarf_Sig8 *sig,
                                   void *arg, dwexpr_error *err)
{
    Dwarf_Debug dbg = ld->files[file].dbg;
    const Dwarf_Half tag = die_tag(dbg, cu);
    uint64_t lang;
    if ((tag == DW_TAG_type_unit || tag == DW_TAG_compile_unit || tag == DW_TAG_partial_unit) &&
        ld_die_udata(ld, file, cu, DW_AT_language, &lang) && lang_namespaced(lang_kind(lang))) {
        /* (lang_namespaced: Rust and C++, whose declared types resolve) */
        ld->prefix_decls = true;
        type_prefixes(ld, file, dbg, cu, NULL, 0);
        ld->prefix_decls = false;
    }
    (void)hdr, (void)end, (void)version, (void)addr_size, (void)offset_size, (void)ut;
    (void)sig, (void)arg, (void)err;
    return DWEXPR_OK;
}

/* One unit of the main file: record it, open its .dwo if it is a
 * skeleton, and walk its DIE tree. */
static dwexpr_status main_unit(dwexpr_libdwarf *ld, size_t file, Dwarf_Die cu, uint64_t hdr,
                               uint64_t end, Dwarf_Half version, Dwarf_Half addr_size,
                               Dwarf_Half offset_size, Dwarf_Half ut, const Dwarf_Sig8 *sig,
                               void *arg, dwexpr_error *err)
{
    unsigned flags = *(unsigned *)arg;
    Dwarf_Debug dbg = ld->files[file].dbg;
    Dwarf_Half tag = die_tag(dbg, cu);
    if (tag != DW_TAG_compile_unit && tag != DW_TAG_partial_unit && tag != DW_TAG_skeleton_unit)
        return DWEXPR_OK;
    /* DWARF 5 7.5.1.1: the address size of the target; the evaluator knows
     * 1, 2, 4 and 8 (a header with another one is malformed, found by
     * fuzz/fuzz_libdwarf.c: its expressions could not be decoded) */
    if ((addr_size != 1 && addr_size != 2 && addr_size != 4 && addr_size != 8) ||
        version < 2 || version > 5)
        return ld_fail(err, DWEXPR_E_ILL_FORMED,
                       "unit at 0x%llx: version %u, address size %u (want 2-5 and 1, 2, 4 or 8)",
                       (unsigned long long)hdr, (unsigned)version, (unsigned)addr_size);
    size_t index = ld->units.n;
    ld_unit *u = ld_vec_push(&ld->units);
    if (!u)
        return ld_fail(err, DWEXPR_E_NOMEM, "out of memory");
    u->btypes.elem = sizeof(dwexpr_libdwarf_base_type);
    u->file = file;
    u->hdr = hdr;
    u->end = end;
    u->pub.offset = hdr;
    u->pub.die = die_offset(dbg, cu);
    u->pub.unit_type = version >= 5 ? (uint8_t)ut : DW_UT_compile;
    u->pub.unit.id = index;
    u->pub.unit.addr_size = (uint8_t)addr_size;
    u->pub.unit.offset_size = (uint8_t)(offset_size == 8 ? 8 : 4);
    u->pub.unit.version = version;
    u->pub.unit.big_endian = ld->files[0].elf.big;
    u->pub.unit.ext_encoding = DWEXPR_EXT_LLVM_USER;
    u->pub.unit.load_bias = ld->load_bias;
    unit_attrs(ld, u, file, cu);
    walker w = {ld, index, file, dbg, err, lang_kind(u->language), NULL, false, false};
    uint64_t lo;
    if (die_addr(ld, u, cu, DW_AT_low_pc, &lo))
        u->pub.base_address = lo;
    if (version >= 5 && ut == DW_UT_skeleton) {
        u->dwo_id = sig8_u64(sig);
        u->has_dwo_id = true;
    }
    const char *dwo = die_string(ld, file, cu, DW_AT_dwo_name);
    if (!dwo)
        dwo = die_string(ld, file, cu, DW_AT_GNU_dwo_name);
    if (dwo) {
        char *p = dwo_path(&u->pub, dwo, ld->files[0].path);
        u->pub.dwo_path = ld_pool_strdup(&ld->pool, p);
        free(p);
        u->pub.split = true;
        u->pub.dwo_missing = true;
        if (!(flags & DWEXPR_LIBDWARF_NO_DWO) && u->pub.dwo_path) {
            dwexpr_error tmp;
            size_t df = add_file(ld, u->pub.dwo_path, &tmp);
            u = ld_unit_at(ld, index); /* files may have moved; units have not */
            dwo_find f = {u->dwo_id, u->has_dwo_id, false, 0, 0, 0, 0};
            bool in_dwo = df != SIZE_MAX && each_unit(ld, df, find_split, &f, &tmp) == DWEXPR_OK &&
                          f.found;
            /* why the .dwo did not serve (dwexpr_libdwarf_unit.dwo_error) */
            char why[sizeof tmp.message + 64];
            if (df == SIZE_MAX)
                snprintf(why, sizeof why, "%s", tmp.message);
            else
                snprintf(why, sizeof why, "%s holds no split unit of id 0x%llx",
                         u->pub.dwo_path, (unsigned long long)u->dwo_id);
            if (!in_dwo && u->has_dwo_id) {
                /* a DWARF package next to the file (BINARY.dwp, the name
                 * GDB and the dwp tools use): its split units, found by id */
                char *pk = malloc(strlen(ld->files[0].path) + 5);
                if (pk) {
                    sprintf(pk, "%s.dwp", ld->files[0].path);
                    df = add_file(ld, pk, &tmp);
                    free(pk);
                    u = ld_unit_at(ld, index);
                    if (df != SIZE_MAX && each_unit(ld, df, find_split, &f, &tmp) == DWEXPR_OK &&
                        f.found) {
                        in_dwo = true;
                        u->pub.dwo_path = ld->files[df].path;
                    }
                }
            }
            if (in_dwo) {
                u = ld_unit_at(ld, index);
                u->file = df;
                u->hdr = f.hdr;
                u->end = f.end;
                u->pub.die = f.die;
                u->pub.dwo_missing = false;
                Dwarf_Die sd;
                if (ld_offdie(ld, df, f.die, &sd, NULL) == DWEXPR_OK) {
                    ld_scope *s;
                    w.file = df;
                    w.dbg = ld->files[df].dbg;
                    const char *nm = u->pub.name;
                    unit_attrs(ld, u, df, sd);
                    w.lang = lang_kind(u->language); /* a skeleton may not say */
                    if (nm && !u->pub.name)
                        u->pub.name = nm;
                    /* bases come from the skeleton (DWARF 5 3.1.3) */
                    if (lang_namespaced(w.lang))
                        type_prefixes(ld, df, w.dbg, sd, NULL, 0);
                    s = new_scope(&w, sd, DWEXPR_LIBDWARF_SCOPE_UNIT, NULL);
                    dwexpr_status st =
                        s ? walk(&w, sd, s, 0, NULL, 0) : ld_fail(err, DWEXPR_E_NOMEM, "oom");
                    dwarf_dealloc_die(sd);
                    return st;
                }
            }
            if (u->pub.dwo_missing)
                u->pub.dwo_error = ld_pool_strdup(&ld->pool, why);
        }
        if (!u->pub.dwo_missing)
            return DWEXPR_OK;
    }
    /* (its types' qualifiers: unit_prefixes, before any unit's walk) */
    ld_scope *s = new_scope(&w, cu, DWEXPR_LIBDWARF_SCOPE_UNIT, NULL);
    if (!s)
        return ld_fail(err, DWEXPR_E_NOMEM, "out of memory");
    return walk(&w, cu, s, 0, NULL, 0);
}

/* The type units of FILE's .debug_types (DWARF 4, GCC's
 * -fdebug-types-section): the file has type units, and where the C++
 * types they define live (type_prefixes), before any unit is walked. */
static void debug_types_prefixes(dwexpr_libdwarf *ld, size_t file)
{
    Dwarf_Debug dbg = ld->files[file].dbg;
    for (;;) {
        Dwarf_Unsigned len = 0, toff = 0, next = 0;
        Dwarf_Half ver = 0, asz = 0, lsz = 0, ext = 0, ut = 0;
        Dwarf_Off abbr = 0;
        Dwarf_Sig8 sig;
        Dwarf_Error e = NULL;
        int r = dwarf_next_cu_header_d(dbg, false, &len, &ver, &abbr, &asz, &lsz, &ext, &sig,
                                       &toff, &next, &ut, &e);
        if (r != DW_DLV_OK) {
            if (r == DW_DLV_ERROR)
                ld_drop(dbg, e);
            return;
        }
        ld->files[file].type_units = true;
        Dwarf_Die cu = NULL;
        e = NULL;
        r = dwarf_siblingof_b(dbg, NULL, false, &cu, &e);
        if (r == DW_DLV_ERROR)
            ld_drop(dbg, e);
        if (r != DW_DLV_OK)
            continue;
        uint64_t lang;
        if (ld_die_udata(ld, file, cu, DW_AT_language, &lang) && lang_kind(lang) == LANG_CPLUS) {
            /* the definitions here complete the units' declarations too
             * (named_type_seen; the main file's, before resolve_decls) */
            ld->prefix_decls = true;
            type_prefixes(ld, file, dbg, cu, NULL, 0);
            ld->prefix_decls = false;
        }
        dwarf_dealloc_die(cu);
    }
}

/* Order call sites by return address. */
static int cs_cmp(const void *a, const void *b)
{
    const ld_callsite *x = a, *y = b;
    return x->return_pc < y->return_pc ? -1 : x->return_pc > y->return_pc;
}

/* Drop the unit-scope variables that are the abstract origin of another
 * one: gcc -flto describes a global in the early debug info (a DIE with
 * its name and type, no location) and again in the LTO unit (a concrete
 * DIE with DW_AT_abstract_origin and the location). The variable is the
 * concrete one; GDB lists it once. */
static void drop_origins(dwexpr_libdwarf *ld)
{
    if (ld->origins.n) {
        dwexpr_libdwarf_var *v = ld->vars.v;
        size_t keep = 0;
        for (size_t i = 0; i < ld->vars.n; i++) {
            if (v[i].scope->kind == DWEXPR_LIBDWARF_SCOPE_UNIT &&
                ld_map_get(&ld->origins, ld_unit_at(ld, v[i].unit)->file, v[i].die))
                continue;
            v[keep++] = v[i];
        }
        ld->vars.n = keep;
    }
    ld_map_free(&ld->origins);
}

dwexpr_status dwexpr_libdwarf_open(const char *path, unsigned flags, dwexpr_libdwarf **out,
                                   dwexpr_error *err)
{
    if (!path || !out)
        return ld_fail(err, DWEXPR_E_USAGE, "no path or output");
    *out = NULL;
    dwexpr_libdwarf *ld = calloc(1, sizeof *ld);
    if (!ld)
        return ld_fail(err, DWEXPR_E_NOMEM, "out of memory");
    ld->units.elem = sizeof(ld_unit);
    ld->vars.elem = sizeof(dwexpr_libdwarf_var);
    ld->scopes.elem = sizeof(ld_scope *);
    ld->callsites.elem = sizeof(ld_callsite);
    if (add_file(ld, path, err) == SIZE_MAX) {
        dwexpr_libdwarf_close(ld);
        return err ? err->status : DWEXPR_E_NOT_FOUND;
    }
    const ld_elf *e = &ld->files[0].elf;
    switch (e->machine) {
    case 62: snprintf(ld->arch, sizeof ld->arch, "x86_64"); break;      /* EM_X86_64 */
    case 224: snprintf(ld->arch, sizeof ld->arch, "amdgpu-wave64"); break; /* EM_AMDGPU */
    default: snprintf(ld->arch, sizeof ld->arch, e->is64 ? "generic64" : "generic32"); break;
    }
    dwexpr_status st = each_unit(ld, 0, unit_prefixes, NULL, err);
    resolve_decls(ld);
    if (st == DWEXPR_OK)
        st = each_unit(ld, 0, main_unit, &flags, err);
    if (st) {
        dwexpr_libdwarf_close(ld);
        return st;
    }
    drop_origins(ld);
    if (ld->callsites.n)
        qsort(ld->callsites.v, ld->callsites.n, sizeof(ld_callsite), cs_cmp);
    *out = ld;
    return DWEXPR_OK;
}

void dwexpr_libdwarf_close(dwexpr_libdwarf *ld)
{
    if (!ld)
        return;
    for (size_t i = ld->nfiles; i-- > 0;) {
        Dwarf_Error e = NULL;
        if (ld->files[i].dbg)
            dwarf_finish(ld->files[i].dbg, &e);
        ld_elf_close(&ld->files[i].elf);
    }
    free(ld->files);
    for (size_t i = 0; i < ld->units.n; i++)
        ld_vec_free(&ld_unit_at(ld, i)->btypes);
    ld_vec_free(&ld->units);
    ld_vec_free(&ld->vars);
    ld_vec_free(&ld->scopes);
    ld_vec_free(&ld->callsites);
    ld_map_free(&ld->attrs);
    ld_map_free(&ld->dies);
    ld_map_free(&ld->btype_cache);
    ld_map_free(&ld->tnames);
    ld_map_free(&ld->prefixes);
    ld_map_free(&ld->decl_defs);
    ld_vec_free(&ld->decls);
    ld_map_free(&ld->type_defs);
    ld_map_free(&ld->fn_by_die);
    ld_map_free(&ld->concretes);
    ld_map_free(&ld->selftail);
    ld_map_free(&ld->fn_by_entry);
    ld_map_free(&ld->syms);
    ld_map_free(&ld->fn_by_name[0]);
    ld_map_free(&ld->fn_by_name[1]);
    free(ld->tails);
    ld_map_free(&ld->origins);
    ld_pool_free(&ld->pool);
    free(ld);
}

/* ---- scopes, variables, call sites ---- */

size_t dwexpr_libdwarf_var_count(const dwexpr_libdwarf *ld)
{
    return ld ? ld->vars.n : 0;
}

const dwexpr_libdwarf_var *dwexpr_libdwarf_var_get(const dwexpr_libdwarf *ld, size_t i)
{
    return ld && i < ld->vars.n ? (const dwexpr_libdwarf_var *)ld->vars.v + i : NULL;
}

size_t dwexpr_libdwarf_scope_count(const dwexpr_libdwarf *ld)
{
    return ld ? ld->scopes.n : 0;
}

const dwexpr_libdwarf_scope *dwexpr_libdwarf_scope_get(const dwexpr_libdwarf *ld, size_t i)
{
    if (!ld || i >= ld->scopes.n)
        return NULL;
    ld_scope *const *all = ld->scopes.v;
    return &all[i]->pub;
}

bool dwexpr_libdwarf_scope_has_pc(const dwexpr_libdwarf_scope *s, uint64_t pc)
{
    if (!s)
        return false;
    if (s->kind == DWEXPR_LIBDWARF_SCOPE_UNIT)
        return true;
    const ld_scope *ls = (const ld_scope *)s;
    if (ls->no_ranges)
        return dwexpr_libdwarf_scope_has_pc(s->parent, pc);
    for (size_t i = 0; i < s->nranges; i++)
        if (pc >= s->ranges[i].low && pc < s->ranges[i].high)
            return true;
    return false;
}

/* The deepest scope whose ranges hold PC. */
/* Whether scope S is inside scope A. */
static bool scope_within(const ld_scope *s, const ld_scope *a)
{
    for (const dwexpr_libdwarf_scope *p = s->pub.parent; p; p = p->parent)
        if (p == &a->pub)
            return true;
    return false;
}

/* The innermost scope holding PC. Where scopes that are not nested
 * overlap (GCC -flto -Og: a loop body's concrete block beside the loop's
 * block, whose abstract origin holds the body's), the one GDB's address
 * map of the unit's blocks gives the pc: the first block finished in DIE
 * order, inner blocks before theirs (buildsym's record_block_range sets
 * only addresses no block has yet), i.e. the first scope holding PC in
 * DIE order and then the innermost inside it. */
const ld_scope *ld_scope_at(const dwexpr_libdwarf *ld, uint64_t pc)
{
    const ld_scope *best = NULL;
    ld_scope *const *all = ld->scopes.v; /* in DIE order, a scope before those inside it */
    for (size_t i = 0; i < ld->scopes.n; i++) {
        const ld_scope *s = all[i];
        if (s->no_ranges || (best && s->depth <= best->depth))
            continue;
        if (dwexpr_libdwarf_scope_has_pc(&s->pub, pc) && (!best || scope_within(s, best)))
            best = s;
    }
    return best;
}

const dwexpr_libdwarf_scope *dwexpr_libdwarf_scope_at(const dwexpr_libdwarf *ld, uint64_t pc)
{
    const ld_scope *s = ld ? ld_scope_at(ld, pc) : NULL;
    return s ? &s->pub : NULL;
}

const dwexpr_libdwarf_scope *dwexpr_libdwarf_scope_function(const dwexpr_libdwarf_scope *s)
{
    while (s && s->kind == DWEXPR_LIBDWARF_SCOPE_BLOCK)
        s = s->parent;
    return s && s->kind != DWEXPR_LIBDWARF_SCOPE_UNIT ? s : NULL;
}

/* Fill S's qualified and linkage names as GDB finds them. The qualifier
 * (GDB's determine_prefix) is that of the declaration a
 * DW_AT_specification names (an out-of-class definition: its class),
 * looked for on the DIE and, through DW_AT_abstract_origin, its origins;
 * without one, that of the DIE's abstract origin or its own place. A
 * Fortran host procedure qualifies only a function (an out-of-line
 * procedure, not an inlined call of it: GDB's rule looks at the DIE's
 * own tag). The linkage name is the first
 * DW_AT_linkage_name (DW_AT_MIPS_linkage_name) along DW_AT_specification
 * and DW_AT_abstract_origin. */
/* Whether parameter C of FILE is artificial (a method's "this"): its own
 * DW_AT_artificial or its abstract origin's (a concrete out-of-line
 * instance's parameters carry only DW_AT_abstract_origin). */
static bool param_artificial(dwexpr_libdwarf *ld, size_t file, Dwarf_Die c)
{
    if (ld_die_flag(ld, file, c, DW_AT_artificial))
        return true;
    uint64_t o;
    Dwarf_Die od;
    bool yes = false;
    if (ld_die_ref(ld, file, c, DW_AT_abstract_origin, &o) &&
        ld_offdie(ld, file, o, &od, NULL) == DWEXPR_OK) {
        yes = ld_die_flag(ld, file, od, DW_AT_artificial);
        dwarf_dealloc_die(od);
    }
    return yes;
}

/* NAME followed by the parameter types of function scope S as GDB's
 * c_type_print_args writes a computed physname (dwarf2_compute_name):
 * "(T1, T2)", artificial parameters left out, "(void)" for none, each
 * type as variables' types are named (tinfo); in the pool (NAME when
 * out of memory or S's DIE unreadable). */
static const char *with_param_types(dwexpr_libdwarf *ld, const ld_scope *s, const char *name)
{
    Dwarf_Die d, c;
    if (ld_offdie(ld, s->file, s->pub.die, &d, NULL) != DWEXPR_OK)
        return name;
    char buf[1024];
    size_t n = (size_t)snprintf(buf, sizeof buf, "%s(", name);
    bool any = false;
    int r = ld_first_child(ld->files[s->file].dbg, d, &c);
    while (r == DW_DLV_OK && n < sizeof buf) {
        if (die_tag(ld->files[s->file].dbg, c) == DW_TAG_formal_parameter &&
            !param_artificial(ld, s->file, c)) {
            const ld_tinfo *ti = tinfo(ld, s->pub.unit, die_type(ld, s->file, c));
            n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s", any ? ", " : "",
                                  ti && ti->name ? ti->name : "?");
            any = true;
        }
        r = ld_next_sibling(ld->files[s->file].dbg, &c);
    }
    if (r == DW_DLV_OK)
        dwarf_dealloc_die(c);
    dwarf_dealloc_die(d);
    if (n < sizeof buf)
        n += (size_t)snprintf(buf + n, sizeof buf - n, "%s)", any ? "" : "void");
    if (n >= sizeof buf)
        return name;
    const char *q = ld_pool_strdup(&ld->pool, buf);
    return q ? q : name;
}

static void scope_names(dwexpr_libdwarf *ld, ld_scope *s)
{
    if (s->names_done)
        return;
    s->names_done = true;
    const char *linkage = NULL;
    uint64_t off = s->pub.die, spec = 0, origin = 0;
    bool have_spec = false;
    for (int hop = 0; hop < 8; hop++) {
        Dwarf_Die d;
        if (ld_offdie(ld, s->file, off, &d, NULL) != DWEXPR_OK)
            break;
        if (!linkage)
            linkage = die_string(ld, s->file, d, DW_AT_linkage_name);
        if (!linkage)
            linkage = die_string(ld, s->file, d, DW_AT_MIPS_linkage_name);
        uint64_t o;
        bool more = false;
        if (ld_die_ref(ld, s->file, d, DW_AT_specification, &o)) {
            if (!have_spec) {
                have_spec = true;
                spec = o;
            }
            more = true;
        } else if (ld_die_ref(ld, s->file, d, DW_AT_abstract_origin, &o)) {
            if (hop == 0)
                origin = o;
            more = true;
        }
        dwarf_dealloc_die(d);
        if (!more || o == off)
            break;
        off = o;
    }
    /* GDB's die_specification: the declaration, else the first origin */
    uint64_t at = have_spec ? spec : origin ? origin : s->pub.die;
    const char *prefix = ld_map_get(&ld->prefixes, s->file, at);
    if (!prefix && s->pub.kind == DWEXPR_LIBDWARF_SCOPE_FUNCTION)
        prefix = ld_map_get(&ld->prefixes, s->file | LD_HOST_KEY, at);
    s->linkage = linkage;
    s->qualified = s->pub.name ? qualify(ld, prefix, s->pub.name) : NULL;
    const uint64_t lang = ld_unit_at(ld, s->pub.unit)->language;
    if (s->qualified && lang_kind(lang) == LANG_CPLUS && gdb_unparsed(s->qualified)) {
        /* a name GDB's C++ name parser does not read (gdb_unparsed: GCC's
         * lambda closure types, function types): GDB keeps the name
         * as written (dwarf2_canonicalize_name fails), and without a
         * linkage name its computed physname, DW_AT_name and the
         * parameter types, is the name it shows whole (cp_remove_params
         * fails too): "apply<f()::<lambda(int)> >(struct {...}, int)";
         * an inlined call's name has none (dwarf2_compute_name adds them
         * to a DW_TAG_subprogram's only) */
        if (!linkage && s->pub.kind == DWEXPR_LIBDWARF_SCOPE_FUNCTION)
            s->qualified = with_param_types(ld, s, s->qualified);
    } else if (s->qualified && lang_kind(lang) == LANG_CPLUS) {
        s->qualified = cplus_name(ld, s->qualified);
    } else if (linkage && lang_is_c(lang) && strncmp(linkage, "_Z", 2) != 0)
        s->qualified = linkage; /* GDB's name of a C function with an assembler name */
}

const char *dwexpr_libdwarf_scope_qualified_name(dwexpr_libdwarf *ld,
                                                 const dwexpr_libdwarf_scope *s)
{
    if (!ld || !s || (s->kind != DWEXPR_LIBDWARF_SCOPE_FUNCTION &&
                      s->kind != DWEXPR_LIBDWARF_SCOPE_INLINED))
        return NULL;
    ld_scope *ls = (ld_scope *)(uintptr_t)s; /* the public view is the first member */
    scope_names(ld, ls);
    return ls->qualified;
}

const char *ld_scope_linkage(dwexpr_libdwarf *ld, const ld_scope *s)
{
    scope_names(ld, (ld_scope *)(uintptr_t)s);
    return s->linkage;
}

const char *dwexpr_libdwarf_scope_linkage_name(dwexpr_libdwarf *ld,
                                               const dwexpr_libdwarf_scope *s)
{
    if (!ld || !s || (s->kind != DWEXPR_LIBDWARF_SCOPE_FUNCTION &&
                      s->kind != DWEXPR_LIBDWARF_SCOPE_INLINED))
        return NULL;
    ld_scope *ls = (ld_scope *)(uintptr_t)s;
    scope_names(ld, ls);
    return ls->linkage;
}

bool dwexpr_libdwarf_var_visible(const dwexpr_libdwarf_var *v, const dwexpr_libdwarf_scope *inner)
{
    if (!v || !inner)
        return false;
    if (v->scope->kind == DWEXPR_LIBDWARF_SCOPE_UNIT)
        return v->unit == inner->unit;
    for (const dwexpr_libdwarf_scope *s = inner; s; s = s->parent)
        if (s == v->scope)
            return true;
    return false;
}

/* Binary search of the call sites sorted by return address. */
const ld_callsite *ld_callsite_at(const dwexpr_libdwarf *ld, uint64_t ret)
{
    const ld_callsite *cs = ld->callsites.v;
    size_t lo = 0, hi = ld->callsites.n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cs[mid].return_pc < ret)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < ld->callsites.n && cs[lo].return_pc == ret ? &cs[lo] : NULL;
}
