/* lib/cfi.c: the call frame information parser: CIEs and FDEs of
 * .debug_frame (DWARF 5 6.4.1) and .eh_frame (LSB "Exception Frames"),
 * .eh_frame_hdr lookup, pointer encodings, and the call frame instruction
 * decoder. Every read is bounded by the section; rows are in cfi_row.c. */
#include <stdlib.h>
#include "cfi_int.h"

/* ---- bounded reads ---- */

/* A cursor over [p, end) of a section whose first byte is BASE. */
typedef struct cur {
    const uint8_t *p, *end, *base;
} cur;

/* Section offset of the cursor. */
static uint64_t cur_off(const cur *c)
{
    return (uint64_t)(c->p - c->base);
}

/* Fail with S at the cursor's offset. */
#define CFAIL(err, c, s, ...) dwx_fail((err), (s), (int64_t)cur_off(c), -1, __VA_ARGS__)

/* Read a SIZE-byte unsigned (1..8) in the section's byte order. */
static dwexpr_status rd_fixed(const dwexpr_cfi *cfi, cur *c, unsigned size, uint64_t *v,
                              dwexpr_error *err)
{
    if (dwx_read_fixed(&c->p, c->end, size, cfi->sec.big_endian, v))
        return CFAIL(err, c, DWEXPR_E_TRUNCATED, "CFI: %u-byte field runs past the end of its entry",
                     size);
    return DWEXPR_OK;
}

/* Read a ULEB128 (DWARF 5 7.6). */
static dwexpr_status rd_uleb(cur *c, uint64_t *v, dwexpr_error *err)
{
    dwexpr_status s = dwx_read_uleb(&c->p, c->end, v, NULL);
    if (s)
        return CFAIL(err, c, s, "CFI: bad unsigned LEB128 (%s)", dwexpr_strerror(s));
    return DWEXPR_OK;
}

/* Read an SLEB128 (DWARF 5 7.6). */
static dwexpr_status rd_sleb(cur *c, int64_t *v, dwexpr_error *err)
{
    dwexpr_status s = dwx_read_sleb(&c->p, c->end, v, NULL);
    if (s)
        return CFAIL(err, c, s, "CFI: bad signed LEB128 (%s)", dwexpr_strerror(s));
    return DWEXPR_OK;
}

static uint64_t addr_mask(unsigned size)
{
    return size >= 8 ? UINT64_MAX : (((uint64_t)1 << (8 * size)) - 1);
}

/* Bases for a pointer read with a DW_EH_PE_* encoding. */
typedef struct pe_bases {
    uint64_t section_address;      /* address of the section's byte 0 (pcrel) */
    uint64_t text, data, func;     /* textrel, datarel, funcrel */
} pe_bases;

/* Read a pointer in encoding ENC (LSB "DWARF Exception Header Encoding").
 * *INDIRECT is set when the value is the address of the pointer
 * (DW_EH_PE_indirect); the pointer is then fetched from the section when
 * it lies inside it, else the address itself is returned. */
static dwexpr_status rd_encoded(const dwexpr_cfi *cfi, cur *c, uint8_t enc, unsigned asize,
                                const pe_bases *b, uint64_t *out, bool *indirect,
                                dwexpr_error *err)
{
    if (indirect)
        *indirect = false;
    if (enc == DW_EH_PE_omit)
        return CFAIL(err, c, DWEXPR_E_ILL_FORMED, "CFI: pointer with encoding DW_EH_PE_omit");
    uint64_t field = b->section_address + cur_off(c);
    uint8_t app = enc & 0x70;
    if (app == DW_EH_PE_aligned) {
        /* LSB: the value is aligned to the address size */
        uint64_t pad = (asize - (field % asize)) % asize;
        if ((uint64_t)(c->end - c->p) < pad)
            return CFAIL(err, c, DWEXPR_E_TRUNCATED, "CFI: aligned pointer runs past its entry");
        c->p += pad;
        field += pad;
    }
    uint64_t v = 0;
    int64_t sv;
    dwexpr_status s;
    switch (enc & 0x0f) {
    case DW_EH_PE_absptr: s = rd_fixed(cfi, c, asize, &v, err); break;
    case DW_EH_PE_uleb128: s = rd_uleb(c, &v, err); break;
    case DW_EH_PE_udata2: s = rd_fixed(cfi, c, 2, &v, err); break;
    case DW_EH_PE_udata4: s = rd_fixed(cfi, c, 4, &v, err); break;
    case DW_EH_PE_udata8: s = rd_fixed(cfi, c, 8, &v, err); break;
    case DW_EH_PE_sleb128:
        s = rd_sleb(c, &sv, err);
        v = (uint64_t)sv;
        break;
    case DW_EH_PE_sdata2:
        if (!(s = rd_fixed(cfi, c, 2, &v, err)))
            v = (uint64_t)(int64_t)(int16_t)v;
        break;
    case DW_EH_PE_sdata4:
        if (!(s = rd_fixed(cfi, c, 4, &v, err)))
            v = (uint64_t)(int64_t)(int32_t)v;
        break;
    case DW_EH_PE_sdata8: s = rd_fixed(cfi, c, 8, &v, err); break;
    default:
        return CFAIL(err, c, DWEXPR_E_ILL_FORMED, "CFI: unknown pointer encoding 0x%02x", enc);
    }
    if (s)
        return s;
    switch (app) {
    case 0: case DW_EH_PE_aligned: break;
    case DW_EH_PE_pcrel: v += field; break;
    case DW_EH_PE_textrel: v += b->text; break;
    case DW_EH_PE_datarel: v += b->data; break;
    case DW_EH_PE_funcrel: v += b->func; break;
    default:
        return CFAIL(err, c, DWEXPR_E_ILL_FORMED, "CFI: unknown pointer encoding 0x%02x", enc);
    }
    v &= addr_mask(asize);
    if (enc & DW_EH_PE_indirect) {
        if (indirect)
            *indirect = true;
        /* the pointer lives at address v: fetch it if the section holds it */
        uint64_t at = v - cfi->sec.address;
        if (v >= cfi->sec.address && at < cfi->sec.size && cfi->sec.size - at >= asize) {
            const uint8_t *q = cfi->sec.data + at;
            uint64_t w;
            if (!dwx_read_fixed(&q, cfi->sec.data + cfi->sec.size, asize, cfi->sec.big_endian, &w)) {
                v = w;
                if (indirect)
                    *indirect = false;
            }
        }
    }
    *out = v;
    return DWEXPR_OK;
}

/* Size in bytes of the format part of ENC (0 for LEB128 and invalid). */
static unsigned pe_size(uint8_t enc, unsigned asize)
{
    switch (enc & 0x0f) {
    case DW_EH_PE_absptr: return asize;
    case DW_EH_PE_udata2: case DW_EH_PE_sdata2: return 2;
    case DW_EH_PE_udata4: case DW_EH_PE_sdata4: return 4;
    case DW_EH_PE_udata8: case DW_EH_PE_sdata8: return 8;
    default: return 0;
    }
}

/* ---- entries ---- */

/* The header of the entry at OFF: its length, format and where its body
 * and end are. *TERM is set for an .eh_frame zero terminator. */
static dwexpr_status entry_header(const dwexpr_cfi *cfi, uint64_t off, cur *c, uint64_t *len,
                                  bool *is64, bool *term, dwexpr_error *err)
{
    const dwexpr_cfi_section *sec = &cfi->sec;
    *term = false;
    if (off >= sec->size)
        return DWEXPR_E_NOT_FOUND;
    c->base = sec->data;
    c->p = sec->data + off;
    c->end = sec->data + sec->size;
    uint64_t l;
    dwexpr_status s;
    /* DWARF 5 7.4: initial length, 0xffffffff escapes to 64-bit */
    if ((s = rd_fixed(cfi, c, 4, &l, err)))
        return s;
    *is64 = false;
    if (l == 0xffffffffu) {
        if ((s = rd_fixed(cfi, c, 8, &l, err)))
            return s;
        *is64 = true;
    } else if (l >= 0xfffffff0u) {
        return dwx_fail(err, DWEXPR_E_ILL_FORMED, (int64_t)off, -1,
                        "CFI: reserved initial length 0x%llx", (unsigned long long)l);
    }
    *len = l;
    if (l == 0) {
        *term = true;
        return DWEXPR_OK;
    }
    if (l > (uint64_t)(c->end - c->p))
        return dwx_fail(err, DWEXPR_E_TRUNCATED, (int64_t)off, -1,
                        "CFI: entry length %llu runs past the end of the section",
                        (unsigned long long)l);
    c->end = c->p + l;
    return DWEXPR_OK;
}

/* Parse the CIE at OFF (DWARF 5 6.4.1 "A CIE contains the following
 * fields"; LSB .eh_frame CIE). */
static dwexpr_status parse_cie(const dwexpr_cfi *cfi, uint64_t off, dwexpr_cfi_cie *cie,
                               dwexpr_error *err)
{
    const dwexpr_cfi_section *sec = &cfi->sec;
    bool eh = sec->format == DWEXPR_CFI_EH_FRAME, term;
    cur c;
    dwexpr_status s;
    memset(cie, 0, sizeof *cie);
    cie->offset = off;
    if ((s = entry_header(cfi, off, &c, &cie->length, &cie->is64, &term, err)))
        return s == DWEXPR_E_NOT_FOUND
                   ? dwx_fail(err, DWEXPR_E_ILL_FORMED, (int64_t)off, -1,
                              "CFI: CIE pointer 0x%llx is outside the section",
                              (unsigned long long)off)
                   : s;
    if (term)
        return dwx_fail(err, DWEXPR_E_ILL_FORMED, (int64_t)off, -1,
                        "CFI: a CIE pointer points at a zero terminator");
    uint64_t id;
    if ((s = rd_fixed(cfi, &c, cie->is64 ? 8 : 4, &id, err)))
        return s;
    uint64_t want = eh ? 0 : (cie->is64 ? UINT64_MAX : 0xffffffffu);
    if (id != want)
        return dwx_fail(err, DWEXPR_E_ILL_FORMED, (int64_t)off, -1,
                        "CFI: entry at 0x%llx is not a CIE", (unsigned long long)off);
    uint64_t v;
    if ((s = rd_fixed(cfi, &c, 1, &v, err)))
        return s;
    cie->version = (uint8_t)v;
    /* DWARF 5 6.4.1: version 4 (3 in DWARF 3, 1 in DWARF 2); .eh_frame uses 1 or 3 */
    if (!(v == 1 || v == 3 || (v == 4 && !eh)))
        return dwx_fail(err, DWEXPR_E_ILL_FORMED, (int64_t)off, -1,
                        "CFI: unsupported CIE version %u", (unsigned)v);
    const uint8_t *nul = memchr(c.p, 0, (size_t)(c.end - c.p));
    if (!nul)
        return CFAIL(err, &c, DWEXPR_E_TRUNCATED, "CFI: CIE augmentation string is not terminated");
    cie->augmentation = (const char *)c.p;
    c.p = nul + 1;
    const char *aug = cie->augmentation;
    cie->addr_size = sec->addr_size;
    if (cie->version == 4) {
        if ((s = rd_fixed(cfi, &c, 1, &v, err)))
            return s;
        cie->addr_size = (uint8_t)v;
        if ((s = rd_fixed(cfi, &c, 1, &v, err)))
            return s;
        cie->segment_size = (uint8_t)v;
        if (!(cie->addr_size == 1 || cie->addr_size == 2 || cie->addr_size == 4 ||
              cie->addr_size == 8) || cie->segment_size > 8)
            return dwx_fail(err, DWEXPR_E_ILL_FORMED, (int64_t)off, -1,
                            "CFI: CIE address size %u / segment selector size %u not supported",
                            cie->addr_size, cie->segment_size);
    }
    if (eh && strcmp(aug, "eh") == 0) {
        /* old GCC: an address-size word (the EH data) follows */
        if ((s = rd_fixed(cfi, &c, cie->addr_size, &v, err)))
            return s;
    }
    if ((s = rd_uleb(&c, &cie->code_align, err)) || (s = rd_sleb(&c, &cie->data_align, err)))
        return s;
    if (cie->version == 1) {
        if ((s = rd_fixed(cfi, &c, 1, &cie->ra_column, err)))
            return s;
    } else if ((s = rd_uleb(&c, &cie->ra_column, err))) {
        return s;
    }
    if (cie->ra_column > UINT32_MAX)
        return dwx_fail(err, DWEXPR_E_ILL_FORMED, (int64_t)off, -1,
                        "CFI: return address column %llu is too large",
                        (unsigned long long)cie->ra_column);
    cie->fde_encoding = DW_EH_PE_absptr;
    cie->lsda_encoding = DW_EH_PE_omit;
    cie->personality_encoding = DW_EH_PE_omit;
    if (aug[0] == 'z') {
        /* LSB: 'z' gives the augmentation data length, then each letter
         * adds its data in order */
        uint64_t alen;
        cie->has_z = true;
        if ((s = rd_uleb(&c, &alen, err)))
            return s;
        if (alen > (uint64_t)(c.end - c.p))
            return CFAIL(err, &c, DWEXPR_E_TRUNCATED,
                         "CFI: CIE augmentation data runs past the end of the entry");
        cur a = c;
        a.end = c.p + alen;
        pe_bases b = {sec->address, sec->text_address, sec->data_address, 0};
        for (const char *q = aug + 1; *q; q++) {
            if (*q == 'R' || *q == 'L' || *q == 'P') {
                if ((s = rd_fixed(cfi, &a, 1, &v, err)))
                    return s;
                if (*q == 'R')
                    cie->fde_encoding = (uint8_t)v;
                else if (*q == 'L')
                    cie->lsda_encoding = (uint8_t)v;
                else {
                    cie->personality_encoding = (uint8_t)v;
                    if ((s = rd_encoded(cfi, &a, (uint8_t)v, cie->addr_size, &b,
                                        &cie->personality, NULL, err)))
                        return s;
                }
            } else if (*q == 'S') {
                cie->signal_frame = true;
            } else if (*q == 'B' || *q == 'G') {
                /* AArch64 B-key / MTE tagged frames: no data */
            } else {
                break; /* unknown: the rest of the data is skipped by its length */
            }
        }
        c.p += alen;
        if (pe_size(cie->fde_encoding, cie->addr_size) == 0 &&
            (cie->fde_encoding & 0x0f) != DW_EH_PE_uleb128 &&
            (cie->fde_encoding & 0x0f) != DW_EH_PE_sleb128)
            return dwx_fail(err, DWEXPR_E_ILL_FORMED, (int64_t)off, -1,
                            "CFI: CIE FDE pointer encoding 0x%02x is not valid",
                            cie->fde_encoding);
    }
    cie->insns = c.p;
    cie->insns_len = (size_t)(c.end - c.p);
    cie->insns_offset = cur_off(&c);
    return DWEXPR_OK;
}

/* Whether the instructions of entries under CIE can be read: DWARF 5
 * 6.4.1 "If a reader encounters an augmentation string that is
 * unexpected, then only the following fields can be read". The seed's
 * "[vendor:vX.Y]" strings keep the layout. */
bool dwx_cfi_aug_known(const dwexpr_cfi *cfi, const dwexpr_cfi_cie *cie)
{
    const char *a = cie->augmentation;
    if (!a || !a[0] || a[0] == 'z' || a[0] == '[')
        return true;
    return cfi->sec.format == DWEXPR_CFI_EH_FRAME && strcmp(a, "eh") == 0;
}

/* Parse the FDE body after its CIE pointer (DWARF 5 6.4.1 "An FDE
 * contains the following fields"). */
static dwexpr_status parse_fde(const dwexpr_cfi *cfi, cur *c, const dwexpr_cfi_cie *cie,
                               dwexpr_cfi_fde *fde, dwexpr_error *err)
{
    const dwexpr_cfi_section *sec = &cfi->sec;
    dwexpr_status s;
    uint64_t begin, range, v;
    if (sec->format == DWEXPR_CFI_DEBUG_FRAME) {
        if (cie->segment_size && (s = rd_fixed(cfi, c, cie->segment_size, &v, err)))
            return s;
        if ((s = rd_fixed(cfi, c, cie->addr_size, &begin, err)) ||
            (s = rd_fixed(cfi, c, cie->addr_size, &range, err)))
            return s;
    } else {
        pe_bases b = {sec->address, sec->text_address, sec->data_address, 0};
        bool ind;
        if ((s = rd_encoded(cfi, c, cie->fde_encoding, cie->addr_size, &b, &begin, &ind, err)))
            return s;
        if (ind)
            return CFAIL(err, c, DWEXPR_E_ILL_FORMED,
                         "CFI: FDE initial location is indirect outside the section");
        /* the range uses the format only (no base, LSB) */
        if ((s = rd_encoded(cfi, c, cie->fde_encoding & 0x0f, cie->addr_size, &b, &range, NULL,
                            err)))
            return s;
    }
    uint64_t m = addr_mask(cie->addr_size);
    fde->pc_begin = (begin + sec->bias) & m;
    fde->pc_end = fde->pc_begin + range;
    if (range > m || (cie->addr_size < 8 && fde->pc_end > m + 1) || fde->pc_end < fde->pc_begin)
        return dwx_fail(err, DWEXPR_E_ILL_FORMED, (int64_t)fde->offset, -1,
                        "CFI: FDE address range 0x%llx overflows the address space",
                        (unsigned long long)range);
    if (cie->has_z) {
        uint64_t alen;
        if ((s = rd_uleb(c, &alen, err)))
            return s;
        if (alen > (uint64_t)(c->end - c->p))
            return CFAIL(err, c, DWEXPR_E_TRUNCATED,
                         "CFI: FDE augmentation data runs past the end of the entry");
        cur a = *c;
        a.end = c->p + alen;
        if (cie->lsda_encoding != DW_EH_PE_omit) {
            pe_bases b = {sec->address, sec->text_address, sec->data_address, begin};
            if ((s = rd_encoded(cfi, &a, cie->lsda_encoding, cie->addr_size, &b, &fde->lsda, NULL,
                                err)))
                return s;
            fde->has_lsda = fde->lsda != 0;
        }
        c->p += alen;
    }
    fde->insns = c->p;
    fde->insns_len = (size_t)(c->end - c->p);
    fde->insns_offset = cur_off(c);
    return DWEXPR_OK;
}

dwexpr_status dwexpr_cfi_entry_at(const dwexpr_cfi *cfi, uint64_t offset, dwexpr_cfi_entry *out,
                                  uint64_t *next, dwexpr_error *err)
{
    if (!cfi || !out)
        return DWEXPR_E_USAGE;
    const dwexpr_cfi_section *sec = &cfi->sec;
    bool eh = sec->format == DWEXPR_CFI_EH_FRAME, term = false, is64 = false;
    uint64_t len = 0;
    cur c;
    dwexpr_status s;
    /* LSB: a zero length ends .eh_frame; in .debug_frame it is an empty
     * entry to step over (a loop: a section of zeros must not recurse) */
    for (;;) {
        if ((s = entry_header(cfi, offset, &c, &len, &is64, &term, err)))
            return s;
        memset(out, 0, sizeof *out);
        if (!term)
            break;
        if (next)
            *next = eh ? sec->size : cur_off(&c);
        if (eh)
            return DWEXPR_E_NOT_FOUND;
        offset = cur_off(&c);
    }
    if (next)
        *next = (uint64_t)(c.end - sec->data);
    uint64_t idpos = cur_off(&c), id;
    if ((s = rd_fixed(cfi, &c, is64 ? 8 : 4, &id, err)))
        return s;
    bool is_cie = eh ? id == 0 : id == (is64 ? UINT64_MAX : 0xffffffffu);
    if (is_cie) {
        out->is_cie = true;
        return parse_cie(cfi, offset, &out->cie, err);
    }
    /* DWARF 5 6.4.1 CIE_pointer: a section offset; LSB .eh_frame: the
     * distance back from the CIE pointer field */
    uint64_t cie_off = eh ? idpos - id : id;
    if (eh && id > idpos)
        return dwx_fail(err, DWEXPR_E_ILL_FORMED, (int64_t)offset, -1,
                        "CFI: FDE CIE pointer 0x%llx points before the section",
                        (unsigned long long)id);
    if (cie_off == offset)
        return dwx_fail(err, DWEXPR_E_ILL_FORMED, (int64_t)offset, -1,
                        "CFI: FDE points at itself as its CIE");
    if ((s = parse_cie(cfi, cie_off, &out->cie, err))) {
        if (err && err->offset == (int64_t)cie_off && s != DWEXPR_E_NOT_FOUND) {
            char m[sizeof err->message];
            memcpy(m, err->message, sizeof m);
            dwx_fail(err, s, (int64_t)offset, -1, "CFI: FDE's CIE at 0x%llx: %s",
                     (unsigned long long)cie_off, m);
        }
        return s;
    }
    out->fde.offset = offset;
    out->fde.length = len;
    out->fde.is64 = is64;
    out->fde.cie_offset = cie_off;
    return parse_fde(cfi, &c, &out->cie, &out->fde, err);
}

/* ---- .eh_frame_hdr (LSB "The .eh_frame_hdr section") ---- */

/* Validate the header and locate its binary search table. */
static dwexpr_status hdr_open(dwexpr_cfi *cfi, dwexpr_error *err)
{
    const dwexpr_cfi_section *sec = &cfi->sec;
    cur c = {sec->hdr, sec->hdr + sec->hdr_size, sec->hdr};
    uint64_t v[4];
    dwexpr_status s;
    for (int i = 0; i < 4; i++)
        if ((s = rd_fixed(cfi, &c, 1, &v[i], err)))
            return dwx_fail(err, s, 0, -1, "eh_frame_hdr: truncated header");
    if (v[0] != 1)
        return dwx_fail(err, DWEXPR_E_ILL_FORMED, 0, -1, "eh_frame_hdr: unsupported version %u",
                        (unsigned)v[0]);
    /* a pcrel/datarel base inside the header section */
    dwexpr_cfi tmp = *cfi;
    tmp.sec.data = sec->hdr;
    tmp.sec.size = sec->hdr_size;
    tmp.sec.address = sec->hdr_address;
    pe_bases b = {sec->hdr_address, sec->text_address, sec->hdr_address, 0};
    unsigned asize = sec->addr_size;
    uint64_t ehp, count;
    if ((s = rd_encoded(&tmp, &c, (uint8_t)v[1], asize, &b, &ehp, NULL, err)))
        return dwx_fail(err, s, (int64_t)cur_off(&c), -1, "eh_frame_hdr: bad eh_frame_ptr");
    if (ehp != sec->address)
        return dwx_fail(err, DWEXPR_E_ILL_FORMED, 4, -1,
                        "eh_frame_hdr: eh_frame_ptr 0x%llx is not the .eh_frame address 0x%llx",
                        (unsigned long long)ehp, (unsigned long long)sec->address);
    if (v[2] == DW_EH_PE_omit || v[3] == DW_EH_PE_omit)
        return DWEXPR_OK; /* no table: use our own index */
    if ((s = rd_encoded(&tmp, &c, (uint8_t)v[2], asize, &b, &count, NULL, err)))
        return dwx_fail(err, s, (int64_t)cur_off(&c), -1, "eh_frame_hdr: bad fde_count");
    unsigned esz = pe_size((uint8_t)v[3], asize);
    if (esz == 0 || (v[3] & 0x70) != DW_EH_PE_datarel || (v[3] & DW_EH_PE_indirect))
        return dwx_fail(err, DWEXPR_E_ILL_FORMED, 3, -1,
                        "eh_frame_hdr: table encoding 0x%02x is not a datarel fixed-size one",
                        (unsigned)v[3]);
    if (count > (uint64_t)(c.end - c.p) / (2u * esz))
        return dwx_fail(err, DWEXPR_E_TRUNCATED, (int64_t)cur_off(&c), -1,
                        "eh_frame_hdr: %llu table entries run past the end of the section",
                        (unsigned long long)count);
    cfi->hdr_table = c.p;
    cfi->hdr_count = (size_t)count;
    cfi->hdr_enc = (uint8_t)v[3];
    cfi->hdr_esz = esz;
    /* LSB: sorted by initial location; every FDE address inside .eh_frame */
    uint64_t prev = 0;
    for (size_t i = 0; i < cfi->hdr_count; i++) {
        uint64_t loc, fde;
        if ((s = dwx_cfi_hdr_entry(cfi, i, &loc, &fde)))
            return dwx_fail(err, s, (int64_t)(c.p - sec->hdr) + (int64_t)(i * 2 * esz), -1,
                            "eh_frame_hdr: bad table entry %zu", i);
        if (i && loc < prev)
            return dwx_fail(err, DWEXPR_E_ILL_FORMED,
                            (int64_t)(c.p - sec->hdr) + (int64_t)(i * 2 * esz), -1,
                            "eh_frame_hdr: table is not sorted at entry %zu", i);
        if (fde < sec->address || fde - sec->address >= sec->size)
            return dwx_fail(err, DWEXPR_E_ILL_FORMED,
                            (int64_t)(c.p - sec->hdr) + (int64_t)(i * 2 * esz), -1,
                            "eh_frame_hdr: entry %zu points outside .eh_frame", i);
        prev = loc;
    }
    return DWEXPR_OK;
}

/* Entry I of the header table: initial location (unbiased) and FDE
 * address. */
dwexpr_status dwx_cfi_hdr_entry(const dwexpr_cfi *cfi, size_t i, uint64_t *loc, uint64_t *fde)
{
    const dwexpr_cfi_section *sec = &cfi->sec;
    const uint8_t *p = cfi->hdr_table + i * 2 * cfi->hdr_esz;
    const uint8_t *end = sec->hdr + sec->hdr_size;
    uint64_t a, b;
    if (dwx_read_fixed(&p, end, cfi->hdr_esz, sec->big_endian, &a) ||
        dwx_read_fixed(&p, end, cfi->hdr_esz, sec->big_endian, &b))
        return DWEXPR_E_TRUNCATED;
    if ((cfi->hdr_enc & 0x0f) >= DW_EH_PE_sleb128 && cfi->hdr_esz < 8) {
        unsigned sh = 64 - 8 * cfi->hdr_esz;
        a = (uint64_t)((int64_t)(a << sh) >> sh);
        b = (uint64_t)((int64_t)(b << sh) >> sh);
    }
    *loc = (a + sec->hdr_address) & addr_mask(sec->addr_size);
    *fde = (b + sec->hdr_address) & addr_mask(sec->addr_size);
    return DWEXPR_OK;
}

/* ---- opening and lookup ---- */

static int idx_cmp(const void *a, const void *b)
{
    const dwx_cfi_idx *x = a, *y = b;
    if (x->begin != y->begin)
        return x->begin < y->begin ? -1 : 1;
    return x->offset < y->offset ? -1 : x->offset > y->offset;
}

dwexpr_status dwexpr_cfi_open(const dwexpr_cfi_section *sec, dwexpr_cfi **out, dwexpr_error *err)
{
    if (!sec || !out || (!sec->data && sec->size) ||
        (sec->format != DWEXPR_CFI_DEBUG_FRAME && sec->format != DWEXPR_CFI_EH_FRAME))
        return dwx_fail(err, DWEXPR_E_USAGE, -1, -1, "CFI: bad section description");
    *out = NULL;
    dwexpr_cfi *cfi = calloc(1, sizeof *cfi);
    if (!cfi)
        return DWEXPR_E_NOMEM;
    cfi->sec = *sec;
    if (!cfi->sec.addr_size)
        cfi->sec.addr_size = sec->arch ? (uint8_t)dwexpr_arch_addr_size(sec->arch) : 8;
    if (cfi->sec.addr_size != 4 && cfi->sec.addr_size != 8 && cfi->sec.addr_size != 2 &&
        cfi->sec.addr_size != 1) {
        free(cfi);
        return dwx_fail(err, DWEXPR_E_USAGE, -1, -1, "CFI: address size %u not supported",
                        sec->addr_size);
    }
    dwexpr_status s = DWEXPR_OK;
    size_t cap = 0;
    uint64_t off = 0, next;
    while (off < cfi->sec.size) {
        dwexpr_cfi_entry e;
        s = dwexpr_cfi_entry_at(cfi, off, &e, &next, err);
        if (s == DWEXPR_E_NOT_FOUND) {
            s = DWEXPR_OK;
            break;
        }
        if (s)
            goto fail;
        if (!e.is_cie) {
            if (cfi->count == cap) {
                size_t ncap = cap ? cap * 2 : 64;
                dwx_cfi_idx *n = realloc(cfi->idx, ncap * sizeof *n);
                if (!n) {
                    s = DWEXPR_E_NOMEM;
                    goto fail;
                }
                cfi->idx = n;
                cap = ncap;
            }
            dwx_cfi_idx *x = &cfi->idx[cfi->count++];
            x->begin = e.fde.pc_begin;
            x->end = e.fde.pc_end;
            x->offset = e.fde.offset;
        }
        if (next <= off)
            break;
        off = next;
    }
    if (cfi->count)
        qsort(cfi->idx, cfi->count, sizeof *cfi->idx, idx_cmp);
    if (sec->hdr && sec->hdr_size && sec->format == DWEXPR_CFI_EH_FRAME &&
        (s = hdr_open(cfi, err)))
        goto fail;
    *out = cfi;
    return DWEXPR_OK;
fail:
    free(cfi->idx);
    free(cfi);
    return s;
}

void dwexpr_cfi_free(dwexpr_cfi *cfi)
{
    if (!cfi)
        return;
    free(cfi->idx);
    free(cfi);
}

const dwexpr_cfi_section *dwexpr_cfi_get_section(const dwexpr_cfi *cfi)
{
    return cfi ? &cfi->sec : NULL;
}

size_t dwexpr_cfi_fde_count(const dwexpr_cfi *cfi)
{
    return cfi ? cfi->count : 0;
}

/* The FDE at OFF if it holds PC. */
static dwexpr_status fde_holds(const dwexpr_cfi *cfi, uint64_t off, uint64_t pc,
                               dwexpr_cfi_fde *fde, dwexpr_cfi_cie *cie, dwexpr_error *err)
{
    dwexpr_cfi_entry e;
    dwexpr_status s = dwexpr_cfi_entry_at(cfi, off, &e, NULL, err);
    if (s == DWEXPR_E_NOT_FOUND)
        return dwx_fail(err, DWEXPR_E_ILL_FORMED, (int64_t)off, -1,
                        "eh_frame_hdr: table entry points at the .eh_frame terminator");
    if (s)
        return s;
    if (e.is_cie)
        return dwx_fail(err, DWEXPR_E_ILL_FORMED, (int64_t)off, -1,
                        "eh_frame_hdr: table entry points at a CIE");
    if (pc < e.fde.pc_begin || pc >= e.fde.pc_end)
        return DWEXPR_E_NOT_FOUND;
    if (fde)
        *fde = e.fde;
    if (cie)
        *cie = e.cie;
    return DWEXPR_OK;
}

dwexpr_status dwexpr_cfi_find_fde(const dwexpr_cfi *cfi, uint64_t pc, dwexpr_cfi_fde *fde,
                                  dwexpr_cfi_cie *cie, dwexpr_error *err)
{
    if (!cfi)
        return DWEXPR_E_USAGE;
    if (cfi->hdr_table) {
        /* LSB .eh_frame_hdr: binary search on initial locations */
        uint64_t upc = pc - cfi->sec.bias, loc, fa;
        size_t lo = 0, hi = cfi->hdr_count;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (dwx_cfi_hdr_entry(cfi, mid, &loc, &fa))
                return DWEXPR_E_TRUNCATED;
            if (loc <= upc)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo == 0)
            return DWEXPR_E_NOT_FOUND;
        if (dwx_cfi_hdr_entry(cfi, lo - 1, &loc, &fa))
            return DWEXPR_E_TRUNCATED;
        return fde_holds(cfi, fa - cfi->sec.address, pc, fde, cie, err);
    }
    size_t lo = 0, hi = cfi->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cfi->idx[mid].begin <= pc)
            lo = mid + 1;
        else
            hi = mid;
    }
    /* the nearest few starting at or below PC (FDEs may nest or be empty) */
    for (size_t i = lo, n = 0; i > 0 && n < 16; i--, n++) {
        const dwx_cfi_idx *x = &cfi->idx[i - 1];
        if (pc >= x->begin && pc < x->end)
            return fde_holds(cfi, x->offset, pc, fde, cie, err);
    }
    return DWEXPR_E_NOT_FOUND;
}

/* ---- instruction decoding (DWARF 5 6.4.2, Table 7.29) ---- */

/* Operand layouts. */
enum { K_NONE, K_U, K_UU, K_US, K_S, K_UB, K_B, K_UUU, K_USU, K_A1, K_A2, K_A4, K_A8, K_SET,
       K_BAD };

typedef struct cfa_info {
    const char *name;
    uint8_t kind;
} cfa_info;

static const cfa_info cfa_table[0x40] = {
    [DW_CFA_nop] = {"DW_CFA_nop", K_NONE},
    [DW_CFA_set_loc] = {"DW_CFA_set_loc", K_SET},
    [DW_CFA_advance_loc1] = {"DW_CFA_advance_loc1", K_A1},
    [DW_CFA_advance_loc2] = {"DW_CFA_advance_loc2", K_A2},
    [DW_CFA_advance_loc4] = {"DW_CFA_advance_loc4", K_A4},
    [DW_CFA_offset_extended] = {"DW_CFA_offset_extended", K_UU},
    [DW_CFA_restore_extended] = {"DW_CFA_restore_extended", K_U},
    [DW_CFA_undefined] = {"DW_CFA_undefined", K_U},
    [DW_CFA_same_value] = {"DW_CFA_same_value", K_U},
    [DW_CFA_register] = {"DW_CFA_register", K_UU},
    [DW_CFA_remember_state] = {"DW_CFA_remember_state", K_NONE},
    [DW_CFA_restore_state] = {"DW_CFA_restore_state", K_NONE},
    [DW_CFA_def_cfa] = {"DW_CFA_def_cfa", K_UU},
    [DW_CFA_def_cfa_register] = {"DW_CFA_def_cfa_register", K_U},
    [DW_CFA_def_cfa_offset] = {"DW_CFA_def_cfa_offset", K_U},
    [DW_CFA_def_cfa_expression] = {"DW_CFA_def_cfa_expression", K_B},
    [DW_CFA_expression] = {"DW_CFA_expression", K_UB},
    [DW_CFA_offset_extended_sf] = {"DW_CFA_offset_extended_sf", K_US},
    [DW_CFA_def_cfa_sf] = {"DW_CFA_def_cfa_sf", K_US},
    [DW_CFA_def_cfa_offset_sf] = {"DW_CFA_def_cfa_offset_sf", K_S},
    [DW_CFA_val_offset] = {"DW_CFA_val_offset", K_UU},
    [DW_CFA_val_offset_sf] = {"DW_CFA_val_offset_sf", K_US},
    [DW_CFA_val_expression] = {"DW_CFA_val_expression", K_UB},
    [DW_CFA_MIPS_advance_loc8] = {"DW_CFA_MIPS_advance_loc8", K_A8},
    [DW_CFA_GNU_window_save] = {"DW_CFA_GNU_window_save", K_NONE},
    [DW_CFA_GNU_args_size] = {"DW_CFA_GNU_args_size", K_U},
    [DW_CFA_GNU_negative_offset_extended] = {"DW_CFA_GNU_negative_offset_extended", K_UU},
    [DW_CFA_LLVM_def_aspace_cfa] = {"DW_CFA_LLVM_def_aspace_cfa", K_UUU},
    [DW_CFA_LLVM_def_aspace_cfa_sf] = {"DW_CFA_LLVM_def_aspace_cfa_sf", K_USU},
};

dwexpr_status dwexpr_cfi_insn_decode(const dwexpr_cfi *cfi, const dwexpr_cfi_cie *cie,
                                     const uint8_t *bytes, size_t len, size_t pos, uint64_t base,
                                     dwexpr_cfi_insn *out, dwexpr_error *err)
{
    if (!cfi || !cie || !out || pos >= len)
        return DWEXPR_E_USAGE;
    memset(out, 0, sizeof *out);
    cur c = {bytes + pos, bytes + len, bytes};
    uint8_t b = *c.p++;
    out->offset = base + pos;
    dwexpr_status s = DWEXPR_OK;
    uint8_t hi = b & 0xc0;
    if (hi) {
        /* DWARF 5 Table 7.29: the high 2 bits hold the opcode */
        out->op = hi;
        out->operand[0] = b & 0x3f;
        if (hi == DW_CFA_advance_loc) {
            out->name = "DW_CFA_advance_loc";
        } else if (hi == DW_CFA_offset) {
            out->name = "DW_CFA_offset";
            s = rd_uleb(&c, &out->operand[1], err);
        } else {
            out->name = "DW_CFA_restore";
        }
    } else {
        const cfa_info *in = &cfa_table[b];
        out->op = b;
        out->name = in->name;
        if (!in->name)
            return dwx_fail(err, DWEXPR_E_UNKNOWN_OP, (int64_t)out->offset, -1,
                            "CFI: unknown call frame instruction 0x%02x", b);
        int64_t sv;
        switch (in->kind) {
        case K_NONE: break;
        case K_U: s = rd_uleb(&c, &out->operand[0], err); break;
        case K_UU:
            if (!(s = rd_uleb(&c, &out->operand[0], err)))
                s = rd_uleb(&c, &out->operand[1], err);
            break;
        case K_US:
            if (!(s = rd_uleb(&c, &out->operand[0], err)) && !(s = rd_sleb(&c, &sv, err)))
                out->operand[1] = (uint64_t)sv;
            break;
        case K_S:
            if (!(s = rd_sleb(&c, &sv, err)))
                out->operand[0] = (uint64_t)sv;
            break;
        case K_UUU:
            if (!(s = rd_uleb(&c, &out->operand[0], err)) &&
                !(s = rd_uleb(&c, &out->operand[1], err)))
                s = rd_uleb(&c, &out->operand[2], err);
            break;
        case K_USU:
            if (!(s = rd_uleb(&c, &out->operand[0], err)) && !(s = rd_sleb(&c, &sv, err))) {
                out->operand[1] = (uint64_t)sv;
                s = rd_uleb(&c, &out->operand[2], err);
            }
            break;
        case K_UB:
        case K_B: {
            /* DW_FORM_exprloc / DW_FORM_block: ULEB length, then bytes */
            if (in->kind == K_UB && (s = rd_uleb(&c, &out->operand[0], err)))
                break;
            uint64_t bl;
            if ((s = rd_uleb(&c, &bl, err)))
                break;
            if (bl > (uint64_t)(c.end - c.p)) {
                s = CFAIL(err, &c, DWEXPR_E_TRUNCATED,
                          "CFI: expression of %llu bytes runs past the end of the instructions",
                          (unsigned long long)bl);
                break;
            }
            out->expr = c.p;
            out->expr_len = (size_t)bl;
            c.p += bl;
            break;
        }
        case K_A1: s = rd_fixed(cfi, &c, 1, &out->operand[0], err); break;
        case K_A2: s = rd_fixed(cfi, &c, 2, &out->operand[0], err); break;
        case K_A4: s = rd_fixed(cfi, &c, 4, &out->operand[0], err); break;
        case K_A8: s = rd_fixed(cfi, &c, 8, &out->operand[0], err); break;
        case K_SET:
            if (cfi->sec.format == DWEXPR_CFI_EH_FRAME) {
                /* LSB: DW_CFA_set_loc's operand uses the FDE encoding */
                pe_bases pb = {cfi->sec.address + base, cfi->sec.text_address,
                               cfi->sec.data_address, 0};
                if (!(s = rd_encoded(cfi, &c, cie->fde_encoding, cie->addr_size, &pb,
                                     &out->operand[0], NULL, err)))
                    out->operand[0] = (out->operand[0] + cfi->sec.bias) & addr_mask(cie->addr_size);
            } else {
                uint64_t seg;
                if (cie->segment_size && (s = rd_fixed(cfi, &c, cie->segment_size, &seg, err)))
                    break;
                if (!(s = rd_fixed(cfi, &c, cie->addr_size, &out->operand[0], err)))
                    out->operand[0] = (out->operand[0] + cfi->sec.bias) & addr_mask(cie->addr_size);
            }
            break;
        default: break;
        }
    }
    if (s) {
        if (err) {
            char m[sizeof err->message];
            memcpy(m, err->message, sizeof m);
            dwx_fail(err, s, (int64_t)out->offset, -1, "%s at 0x%llx: %s",
                     out->name ? out->name : "CFI instruction", (unsigned long long)out->offset,
                     m);
        }
        return s;
    }
    out->size = (uint32_t)(c.p - (bytes + pos));
    return DWEXPR_OK;
}
