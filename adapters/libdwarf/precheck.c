/* adapters/libdwarf/precheck.c: checks made on the raw ELF sections before
 * libdwarf sees a file. libdwarf 20210528 (Debian 12) frees memory twice
 * when a .debug_rnglists / .debug_loclists unit header is too short for its
 * fields, and walks forever past a DW_AT_sibling that names its own DIE
 * (both found by fuzz/fuzz_libdwarf.c); a debugger opens whatever file it
 * is given, so such files are refused here with a clear message instead. */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>

#include "ld_int.h"

/* Check every unit header of the list section NAME of E, bytes S (DWARF 5
 * 7.28 and 7.29: unit_length, version 5, address_size,
 * segment_selector_size, offset_entry_count, then the offset array, all
 * inside the unit). Returns 0, or -1 with WHY set. */
static int check_list_units(const ld_elf *e, const char *name, ld_section s, char *why,
                            size_t cap)
{
    ld_cursor c = {.p = s.data, .end = s.data + s.size, .big = e->big, .bad = false};
    while (c.p < c.end) {
        uint64_t at = (uint64_t)(c.p - s.data);
        uint64_t len = ld_get_u(&c, 4);
        unsigned offset_size = 4;
        if (len == 0xffffffffu) {
            len = ld_get_u(&c, 8);
            offset_size = 8;
        } else if (len >= 0xfffffff0u) {
            snprintf(why, cap, "%s: unit at 0x%llx has the reserved length 0x%llx", name,
                     (unsigned long long)at, (unsigned long long)len);
            return -1;
        }
        if (c.bad || len > (uint64_t)(c.end - c.p)) {
            snprintf(why, cap, "%s: unit at 0x%llx runs past the end of the section", name,
                     (unsigned long long)at);
            return -1;
        }
        const uint8_t *unit_end = c.p + len;
        ld_cursor h = {.p = c.p, .end = unit_end, .big = e->big, .bad = false};
        uint64_t version = ld_get_u(&h, 2);
        uint64_t addr_size = ld_get_u(&h, 1);
        uint64_t seg_size = ld_get_u(&h, 1);
        uint64_t count = ld_get_u(&h, 4);
        if (h.bad) {
            snprintf(why, cap, "%s: unit at 0x%llx is too short for its header (%llu bytes)",
                     name, (unsigned long long)at, (unsigned long long)len);
            return -1;
        }
        if (version != 5 || (addr_size != 1 && addr_size != 2 && addr_size != 4 &&
                             addr_size != 8) || seg_size != 0) {
            snprintf(why, cap,
                     "%s: unit at 0x%llx has version %llu, address size %llu, segment "
                     "selector size %llu (want 5, 1/2/4/8, 0)",
                     name, (unsigned long long)at, (unsigned long long)version,
                     (unsigned long long)addr_size, (unsigned long long)seg_size);
            return -1;
        }
        if (count > (uint64_t)(unit_end - h.p) / offset_size) {
            snprintf(why, cap, "%s: unit at 0x%llx has %llu offsets, more than it holds", name,
                     (unsigned long long)at, (unsigned long long)count);
            return -1;
        }
        c.p = unit_end;
    }
    return 0;
}

/* Every section with file contents (not SHT_NULL / SHT_NOBITS) lies inside
 * the file: libdwarf 20210528 allocates what a section header claims before
 * checking it against the file (a fuzzed header asked for 1.5 TB). */
static int check_section_table(const ld_elf *e, char *why, size_t cap)
{
    uint64_t shoff = e->is64 ? ld_read_at(e, 0x28, 8) : ld_read_at(e, 0x20, 4);
    uint64_t shnum = ld_read_at(e, e->is64 ? 0x3c : 0x30, 2);
    if (shnum != 0 && e->shnum == 0) {
        snprintf(why, cap, "the section header table (offset 0x%llx, %llu entries) is not "
                 "inside the file", (unsigned long long)shoff, (unsigned long long)shnum);
        return -1;
    }
    for (uint64_t i = 0; i < e->shnum; i++) {
        uint64_t at = e->shoff + i * e->shentsize;
        uint64_t type = ld_read_at(e, at + 4, 4);
        uint64_t off = e->is64 ? ld_read_at(e, at + 0x18, 8) : ld_read_at(e, at + 0x10, 4);
        uint64_t size = e->is64 ? ld_read_at(e, at + 0x20, 8) : ld_read_at(e, at + 0x14, 4);
        if (type == 0 /* SHT_NULL */ || type == 8 /* SHT_NOBITS */ || size == 0)
            continue;
        if (off > e->size || size > e->size - off) {
            snprintf(why, cap, "section %llu (offset 0x%llx, size 0x%llx) is not inside the "
                     "file of 0x%zx bytes", (unsigned long long)i, (unsigned long long)off,
                     (unsigned long long)size, e->size);
            return -1;
        }
    }
    return 0;
}

/* ---- DIE trees: a DW_AT_sibling naming its own DIE ----
 *
 * libdwarf 20210528's dwarf_siblingof_b walks the DIEs after a DIE with
 * children (_dwarf_siblingof_internal) and jumps over each DW_AT_sibling
 * it meets; it refuses a sibling before the DIE holding it, but one AT
 * that DIE does not move the walk, which then never ends (a damaged
 * object: 5 minutes and more in one call). dwexpr's own guard
 * (ld_sibling) sees only what dwarf_siblingof_b returns, too late.
 *
 * So every DIE libdwarf can be led to is parsed here, as libdwarf parses
 * it (abbreviations found by code in the unit's table, a nonzero
 * children byte meaning children, DW_FORM_indirect, implicit_const), from
 * each unit's first DIE along both ways a walk moves (the next DIE after
 * the attributes, the DW_AT_sibling target) and into every reference an
 * attribute makes (dwarf_offdie_b starts there). A file where one of them
 * has a DW_AT_sibling equal to its own offset is refused. Each position
 * is parsed once: linear in the size of .debug_info.
 *
 * Relocations: libdwarf applies those of a relocatable object to
 * .debug_info and .debug_abbrev when it loads them (S + A, 4 or 8 bytes
 * as its table of absolute relocation types for the machine says; an
 * entry outside the section, with a bad symbol or of another type is
 * skipped). The check runs on the raw bytes and again on the bytes with
 * every such entry applied. Compressed sections (SHF_COMPRESSED,
 * .zdebug_*) are not checked. An abbreviation table that defines a code
 * twice is refused too: which definition libdwarf uses depends on the
 * order of its lookups. */

/* A section header of E by index. */
typedef struct pc_shdr {
    uint64_t name, type, flags, off, size, link, info, entsize;
} pc_shdr;

static pc_shdr pc_section(const ld_elf *e, unsigned i)
{
    pc_shdr h;
    uint64_t b = e->shoff + (uint64_t)i * e->shentsize;
    h.name = ld_read_at(e, b, 4);
    h.type = ld_read_at(e, b + 4, 4);
    if (e->is64) {
        h.flags = ld_read_at(e, b + 8, 8);
        h.off = ld_read_at(e, b + 0x18, 8);
        h.size = ld_read_at(e, b + 0x20, 8);
        h.link = ld_read_at(e, b + 0x28, 4);
        h.info = ld_read_at(e, b + 0x2c, 4);
        h.entsize = ld_read_at(e, b + 0x38, 8);
    } else {
        h.flags = ld_read_at(e, b + 8, 4);
        h.off = ld_read_at(e, b + 0x10, 4);
        h.size = ld_read_at(e, b + 0x14, 4);
        h.link = ld_read_at(e, b + 0x18, 4);
        h.info = ld_read_at(e, b + 0x1c, 4);
        h.entsize = ld_read_at(e, b + 0x24, 4);
    }
    return h;
}

/* The name of section H (NULL if it cannot be read). */
static const char *pc_name(const ld_elf *e, const pc_shdr *h)
{
    if (e->shstrndx >= e->shnum)
        return NULL;
    pc_shdr st = pc_section(e, e->shstrndx);
    if (st.off > e->size || st.size > e->size - st.off || h->name >= st.size)
        return NULL;
    const char *n = (const char *)e->map + st.off + h->name;
    return memchr(n, 0, st.size - h->name) ? n : NULL;
}

/* The index of the section called NAME, 0 if none. */
static unsigned pc_index(const ld_elf *e, const char *name)
{
    for (unsigned i = 1; i < e->shnum; i++) {
        pc_shdr h = pc_section(e, i);
        const char *n = pc_name(e, &h);
        if (n && strcmp(n, name) == 0)
            return i;
    }
    return 0;
}

/* Bytes libdwarf writes for relocation TYPE on machine M (its
 * _dwarf_is_32bit_abs_reloc, then _dwarf_is_64bit_abs_reloc), 0 for a
 * type it does not apply. */
static unsigned reloc_width(unsigned type, unsigned m)
{
    switch (m) {
    case EM_MIPS:
        if (type == R_MIPS_32 || type == R_MIPS_TLS_DTPREL32)
            return 4;
        return type == R_MIPS_64 || type == R_MIPS_TLS_DTPREL64 ? 8 : 0;
    case EM_SPARC32PLUS:
        if (type == R_SPARC_UA32 || type == R_SPARC_TLS_DTPOFF32)
            return 4;
        return type == R_SPARC_UA64 ? 8 : 0;
    case EM_SPARCV9:
        if (type == R_SPARC_UA32)
            return 4;
        return type == R_SPARC_UA64 || type == R_SPARC_TLS_DTPOFF64 ? 8 : 0;
    case EM_SPARC:
        if (type == R_SPARC_UA32 || type == R_SPARC_TLS_DTPOFF32)
            return 4;
        return type == R_SPARC_UA64 || type == R_SPARC_TLS_DTPOFF64 ? 8 : 0;
    case EM_386:
        return type == R_386_32 || type == R_386_GOTOFF || type == R_386_GOTPC ||
                       type == R_386_PC32 || type == R_386_TLS_LDO_32 ||
                       type == R_386_TLS_DTPOFF32
                   ? 4
                   : 0;
    case EM_SH:
        return type == R_SH_DIR32 || type == R_SH_TLS_DTPOFF32 ? 4 : 0;
    case EM_IA_64:
        if (type == R_IA64_SECREL32LSB || type == R_IA64_DIR32LSB ||
            type == R_IA64_DTPREL32LSB)
            return 4;
        return type == R_IA64_SECREL64LSB || type == R_IA64_DIR64LSB ||
                       type == R_IA64_DTPREL64LSB || type == R_IA64_REL32LSB
                   ? 8
                   : 0;
    case EM_ARM:
        return type == R_ARM_ABS32 || type == R_AARCH64_ABS32 || type == R_ARM_TLS_LDO32 ? 4
                                                                                         : 0;
    case EM_AARCH64:
        if (type == R_ARM_ABS32 || type == R_AARCH64_ABS32 || type == R_ARM_TLS_LDO32)
            return 4;
        return type == R_AARCH64_ABS64 ? 8 : 0;
    case EM_PPC64:
        if (type == R_PPC_ADDR32)
            return 4;
        return type == R_PPC64_ADDR64 || type == R_PPC64_DTPREL64 ? 8 : 0;
    case EM_PPC:
        return type == R_PPC_ADDR32 || type == R_PPC_DTPREL32 ? 4 : 0;
    case EM_S390:
        if (type == R_390_32 || type == R_390_TLS_LDO32)
            return 4;
        return type == R_390_64 || type == R_390_TLS_LDO64 ? 8 : 0;
    case EM_X86_64:
    case EM_K10M:
    case EM_L10M:
        if (type == R_X86_64_PC32 || type == R_X86_64_32 || type == R_X86_64_DTPOFF32)
            return 4;
        return type == R_X86_64_64 || type == R_X86_64_PC64 || type == R_X86_64_DTPOFF64 ? 8 : 0;
    default:
        return 0;
    }
}

/* Apply to the copy BUF (SIZE bytes) of section TARGET every entry of the
 * relocation sections for it that libdwarf would apply: the sections of
 * type SHT_REL / SHT_RELA (or named .rel.* / .rela.*) whose sh_info is
 * TARGET or whose name is .rel/.rela + TNAME. Returns the number applied;
 * with BUF NULL, the number of such sections (nothing applied). */
static size_t apply_relocs(const ld_elf *e, unsigned target, const char *tname, uint8_t *buf,
                           uint64_t size)
{
    unsigned symi = 0;
    for (unsigned i = 1; i < e->shnum && !symi; i++)
        if (pc_section(e, i).type == SHT_SYMTAB)
            symi = i;
    if (!symi)
        return 0;
    pc_shdr sym = pc_section(e, symi);
    uint64_t syment = e->is64 ? 24 : 16;
    if (sym.off > e->size || sym.size > e->size - sym.off)
        return 0;
    uint64_t nsyms = sym.size / syment;
    size_t applied = 0;
    for (unsigned i = 1; i < e->shnum; i++) {
        pc_shdr h = pc_section(e, i);
        const char *n = pc_name(e, &h);
        bool rela = h.type == SHT_RELA || (n && strncmp(n, ".rela.", 6) == 0);
        bool rel = !rela && (h.type == SHT_REL || (n && strncmp(n, ".rel.", 5) == 0));
        if (!rel && !rela)
            continue;
        size_t pre = rela ? 5 : 4; /* ".rela" / ".rel" before the target's name */
        if (h.info != target && !(n && strlen(n) > pre && strcmp(n + pre, tname) == 0))
            continue;
        if (h.off > e->size || h.size > e->size - h.off)
            continue;
        if (!buf) {
            applied++;
            continue;
        }
        uint64_t ent = e->is64 ? (rela ? 24 : 16) : (rela ? 12 : 8);
        ld_cursor c = {.p = e->map + h.off, .end = e->map + h.off + h.size, .big = e->big};
        for (uint64_t k = 0; k < h.size / ent; k++) {
            unsigned w = e->is64 ? 8 : 4;
            uint64_t off = ld_get_u(&c, w), info = ld_get_u(&c, w);
            int64_t add = rela ? (int64_t)ld_get_u(&c, w) : 0;
            if (!e->is64 && rela)
                add = (int32_t)add;
            uint64_t type = e->is64 ? (info & 0xffffffffu) : (info & 0xff);
            uint64_t si = e->is64 ? info >> 32 : info >> 8;
            unsigned rw = reloc_width((unsigned)type, e->machine);
            if (c.bad || si >= nsyms || !rw || off >= size || rw > size - off)
                continue;
            uint64_t sv = ld_read_at(e, sym.off + si * syment + (e->is64 ? 8 : 4), w);
            uint64_t present = 0;
            if (rel)
                for (unsigned b = 0; b < rw; b++)
                    present |= (uint64_t)buf[off + (e->big ? rw - 1 - b : b)] << (8 * b);
            uint64_t v = present + sv + (uint64_t)add;
            for (unsigned b = 0; b < rw; b++)
                buf[off + (e->big ? rw - 1 - b : b)] = (uint8_t)(v >> (8 * b));
            applied++;
        }
    }
    return applied;
}

/* One abbreviation: its code, children byte, attribute specifications. */
typedef struct pc_abbrev {
    uint64_t code;
    bool children;
    const uint8_t *specs;
} pc_abbrev;

/* An abbreviation table (the entries at one offset, sorted by code). */
typedef struct pc_table {
    uint64_t off;
    pc_abbrev *a;
    size_t n;
} pc_table;

typedef struct pc_walk {
    const ld_elf *e;
    const uint8_t *info, *abbrev;
    uint64_t info_size, abbrev_size;
    const char *name;
    bool types;                 /* a DWARF 4 .debug_types section (its unit headers) */
    pc_table *tables;
    size_t ntables;
    uint64_t *work;             /* positions to parse */
    size_t nwork, capwork;
    uint8_t *seen;              /* a bit per .debug_info byte */
    char *why;
    size_t cap;
    int bad;                    /* -1: refused (why set), -2: out of memory */
} pc_walk;

typedef struct pc_unit {
    uint64_t start, end, first;  /* header, one past the end, first DIE */
    unsigned version, addr_size, offset_size;
    uint64_t abbrev_off;         /* its abbreviation table */
    size_t table;                /* index in pc_walk.tables, SIZE_MAX: none */
} pc_unit;

static int cmp_abbrev(const void *a, const void *b)
{
    uint64_t x = ((const pc_abbrev *)a)->code, y = ((const pc_abbrev *)b)->code;
    return x < y ? -1 : x > y;
}

/* The index in W->tables of the abbreviation table at OFF, parsed as
 * libdwarf reads it (up to a code 0, the end of the section or the first
 * damaged entry). SIZE_MAX when out of memory or refused (a code defined
 * twice: which one libdwarf uses depends on the order of its lookups). */
static size_t table_at(pc_walk *w, uint64_t off)
{
    for (size_t i = 0; i < w->ntables; i++)
        if (w->tables[i].off == off)
            return i;
    pc_table *nt = realloc(w->tables, (w->ntables + 1) * sizeof *nt);
    if (!nt) {
        w->bad = -2;
        return SIZE_MAX;
    }
    w->tables = nt;
    pc_table *t = &w->tables[w->ntables++];
    t->off = off;
    t->a = NULL;
    t->n = 0;
    size_t capa = 0;
    ld_cursor c = {.p = w->abbrev + (off < w->abbrev_size ? off : w->abbrev_size),
                   .end = w->abbrev + w->abbrev_size, .big = w->e->big};
    while (c.p < c.end) {
        uint64_t code = ld_get_uleb(&c);
        if (c.bad || code == 0)
            break;
        uint64_t tag = ld_get_uleb(&c);
        if (c.bad || tag > 0xffff || c.p >= c.end)
            break;
        bool children = *c.p++ != 0;
        const uint8_t *specs = c.p;
        for (;;) {
            uint64_t at = ld_get_uleb(&c), form = ld_get_uleb(&c);
            if (form == DW_FORM_implicit_const)
                (void)ld_get_sleb(&c);
            if (c.bad || (at == 0 && form == 0))
                break;
        }
        if (c.bad)
            break;
        if (t->n == capa) {
            capa = capa ? 2 * capa : 64;
            pc_abbrev *na = realloc(t->a, capa * sizeof *na);
            if (!na) {
                w->bad = -2;
                return SIZE_MAX;
            }
            t->a = na;
        }
        t->a[t->n++] = (pc_abbrev){code, children, specs};
    }
    if (t->n)
        qsort(t->a, t->n, sizeof *t->a, cmp_abbrev);
    for (size_t i = 1; i < t->n; i++)
        if (t->a[i].code == t->a[i - 1].code) {
            snprintf(w->why, w->cap, "%s: abbreviation code %llu is defined twice in the table "
                     "at .debug_abbrev offset 0x%llx", w->name,
                     (unsigned long long)t->a[i].code, (unsigned long long)off);
            w->bad = -1;
            return SIZE_MAX;
        }
    return w->ntables - 1;
}

static const pc_abbrev *find_abbrev(const pc_table *t, uint64_t code)
{
    size_t lo = 0, hi = t->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (t->a[mid].code == code)
            return &t->a[mid];
        if (t->a[mid].code < code)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

/* Queue position POS of .debug_info (once). */
static void push(pc_walk *w, uint64_t pos)
{
    if (pos >= w->info_size || (w->seen[pos / 8] >> (pos % 8) & 1))
        return;
    w->seen[pos / 8] |= (uint8_t)(1u << (pos % 8));
    if (w->nwork == w->capwork) {
        size_t cap = w->capwork ? 2 * w->capwork : 256;
        uint64_t *nw = realloc(w->work, cap * sizeof *nw);
        if (!nw) {
            w->bad = -2;
            return;
        }
        w->work = nw;
        w->capwork = cap;
    }
    w->work[w->nwork++] = pos;
}

/* Skip the value of FORM at C (libdwarf's _dwarf_get_size_of_val);
 * false for a form libdwarf does not know. */
static bool skip_form(ld_cursor *c, uint64_t form, const pc_unit *u)
{
    uint64_t n;
    switch (form) {
    case DW_FORM_addr: n = u->addr_size; break;
    case DW_FORM_block2: n = ld_get_u(c, 2); break;
    case DW_FORM_block4: n = ld_get_u(c, 4); break;
    case DW_FORM_data2: case DW_FORM_ref2: case DW_FORM_strx2: case DW_FORM_addrx2: n = 2; break;
    case DW_FORM_data4: case DW_FORM_ref4: case DW_FORM_ref_sup4: case DW_FORM_strx4:
    case DW_FORM_addrx4: n = 4; break;
    case DW_FORM_data8: case DW_FORM_ref8: case DW_FORM_ref_sig8: case DW_FORM_ref_sup8: n = 8; break;
    case DW_FORM_data16: n = 16; break;
    case DW_FORM_strx3: case DW_FORM_addrx3: n = 3; break;
    case DW_FORM_string:
        while (c->p < c->end && *c->p)
            c->p++;
        n = 1;
        break;
    case DW_FORM_block: case DW_FORM_exprloc: n = ld_get_uleb(c); break;
    case DW_FORM_block1: n = ld_get_u(c, 1); break;
    case DW_FORM_data1: case DW_FORM_flag: case DW_FORM_ref1: case DW_FORM_strx1:
    case DW_FORM_addrx1: n = 1; break;
    case DW_FORM_sdata: (void)ld_get_sleb(c); n = 0; break;
    case DW_FORM_udata: case DW_FORM_ref_udata: case DW_FORM_strx: case DW_FORM_addrx:
    case DW_FORM_loclistx: case DW_FORM_rnglistx: case DW_FORM_GNU_addr_index:
    case DW_FORM_GNU_str_index:
        (void)ld_get_uleb(c);
        n = 0;
        break;
    case DW_FORM_strp: case DW_FORM_sec_offset: case DW_FORM_line_strp: case DW_FORM_strp_sup:
    case DW_FORM_GNU_ref_alt: case DW_FORM_GNU_strp_alt:
        n = u->offset_size;
        break;
    case DW_FORM_ref_addr: n = u->version == 2 ? u->addr_size : u->offset_size; break;
    case DW_FORM_flag_present: case DW_FORM_implicit_const: n = 0; break;
    default: return false;
    }
    if (c->bad || n > (uint64_t)(c->end - c->p)) {
        c->bad = true;
        return false;
    }
    c->p += n;
    return true;
}

/* The unit of U[0..NU) holding POS, NULL if none. */
static const pc_unit *unit_of(const pc_unit *u, size_t nu, uint64_t pos)
{
    size_t lo = 0, hi = nu;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (pos < u[mid].start)
            hi = mid;
        else if (pos >= u[mid].end)
            lo = mid + 1;
        else
            return &u[mid];
    }
    return NULL;
}

/* Parse the DIE (or null entry) at POS of unit U and queue where a walk
 * goes from it. -1 when its DW_AT_sibling is its own offset. */
static int parse_die(pc_walk *w, const pc_unit *u, uint64_t pos)
{
    if (pos < u->first)
        return 0;
    ld_cursor c = {.p = w->info + pos, .end = w->info + u->end, .big = w->e->big};
    uint64_t code = ld_get_uleb(&c);
    if (c.bad)
        return 0;
    if (code == 0) {
        push(w, pos + 1);
        return 0;
    }
    const pc_abbrev *a =
        u->table < w->ntables ? find_abbrev(&w->tables[u->table], code) : NULL;
    if (!a)
        return 0;
    ld_cursor s = {.p = a->specs, .end = w->abbrev + w->abbrev_size, .big = w->e->big};
    for (;;) {
        uint64_t at = ld_get_uleb(&s), form = ld_get_uleb(&s);
        if (form == DW_FORM_implicit_const)
            (void)ld_get_sleb(&s);
        if (s.bad)
            return 0;
        if (at == 0 && form == 0)
            break;
        for (int k = 0; form == DW_FORM_indirect && k < 8; k++)
            form = ld_get_uleb(&c);
        const uint8_t *val = c.p;
        if (!skip_form(&c, form, u))
            return 0;
        uint64_t ref = UINT64_MAX;
        ld_cursor v = {.p = val, .end = c.p, .big = w->e->big};
        switch (form) {
        case DW_FORM_ref1: ref = ld_get_u(&v, 1); break;
        case DW_FORM_ref2: ref = ld_get_u(&v, 2); break;
        case DW_FORM_ref4: ref = ld_get_u(&v, 4); break;
        case DW_FORM_ref8: ref = ld_get_u(&v, 8); break;
        case DW_FORM_ref_udata: ref = ld_get_uleb(&v); break;
        case DW_FORM_ref_addr: {
            /* a global offset: dwarf_offdie_b may start there (of
             * .debug_info, also from .debug_types: checked there) */
            uint64_t g = ld_get_u(&v, (unsigned)(c.p - val));
            if (!w->types)
                push(w, g);
            break;
        }
        default: break;
        }
        if (ref == UINT64_MAX || ref > u->end - u->start)
            continue;
        if (at == DW_AT_sibling && u->start + ref == pos) {
            snprintf(w->why, w->cap, "%s: the DIE at 0x%llx has a DW_AT_sibling that names "
                     "itself (libdwarf 20210528 can walk past it forever)", w->name,
                     (unsigned long long)pos);
            return -1;
        }
        push(w, u->start + ref);
    }
    push(w, (uint64_t)(c.p - w->info));
    return 0;
}

/* The units of INFO (as dwarf_next_cu_header_d finds them) into *OUT. */
static size_t read_units(pc_walk *w, pc_unit **out)
{
    size_t n = 0, cap = 0;
    pc_unit *u = NULL;
    uint64_t at = 0;
    while (at < w->info_size && w->bad == 0) {
        ld_cursor c = {.p = w->info + at, .end = w->info + w->info_size, .big = w->e->big};
        uint64_t len = ld_get_u(&c, 4);
        unsigned os = 4;
        if (len == 0xffffffffu) {
            len = ld_get_u(&c, 8);
            os = 8;
        } else if (len >= 0xfffffff0u) {
            break;
        }
        if (c.bad || len == 0 || len > (uint64_t)(c.end - c.p))
            break;
        pc_unit nu = {.start = at, .end = (uint64_t)(c.p - w->info) + len, .offset_size = os};
        ld_cursor h = {.p = c.p, .end = w->info + nu.end, .big = w->e->big};
        nu.version = (unsigned)ld_get_u(&h, 2);
        uint64_t ab;
        if (nu.version == 5) {
            unsigned ut = (unsigned)ld_get_u(&h, 1);
            nu.addr_size = (unsigned)ld_get_u(&h, 1);
            ab = ld_get_u(&h, os);
            if (ut == DW_UT_skeleton || ut == DW_UT_split_compile)
                (void)ld_get_u(&h, 8);
            else if (ut == DW_UT_type || ut == DW_UT_split_type) {
                (void)ld_get_u(&h, 8);
                (void)ld_get_u(&h, os);
            }
        } else if (nu.version >= 2 && nu.version <= 4) {
            ab = ld_get_u(&h, os);
            nu.addr_size = (unsigned)ld_get_u(&h, 1);
            if (w->types) { /* DWARF 4 7.5.1.2: type_signature, type_offset */
                (void)ld_get_u(&h, 8);
                (void)ld_get_u(&h, os);
            }
        } else {
            break;
        }
        if (h.bad)
            break;
        nu.first = (uint64_t)(h.p - w->info);
        nu.abbrev_off = ab;
        nu.table = SIZE_MAX;
        if (n == cap) {
            cap = cap ? 2 * cap : 16;
            pc_unit *nuv = realloc(u, cap * sizeof *nuv);
            if (!nuv) {
                w->bad = -2;
                break;
            }
            u = nuv;
        }
        u[n++] = nu;
        at = nu.end;
    }
    *out = u;
    return n;
}

/* One view of the sections: every unit's DIEs from its first one. */
static int walk_view(pc_walk *w)
{
    pc_unit *u = NULL;
    size_t nu = read_units(w, &u);
    for (size_t i = 0; i < nu && w->bad == 0; i++)
        if (u[i].abbrev_off < w->abbrev_size)
            u[i].table = table_at(w, u[i].abbrev_off);
    w->seen = w->bad ? NULL : calloc(w->info_size / 8 + 1, 1);
    if (!w->seen && w->bad == 0)
        w->bad = -2;
    for (size_t i = 0; i < nu && w->bad == 0; i++)
        push(w, u[i].first);
    while (w->nwork && w->bad == 0) {
        uint64_t pos = w->work[--w->nwork];
        const pc_unit *pu = unit_of(u, nu, pos);
        if (pu && parse_die(w, pu, pos) != 0)
            w->bad = -1;
    }
    free(u);
    free(w->seen);
    w->seen = NULL;
    w->nwork = 0;
    for (size_t i = 0; i < w->ntables; i++)
        free(w->tables[i].a);
    free(w->tables);
    w->tables = NULL;
    w->ntables = 0;
    return w->bad;
}

/* The DIE trees of INFO (with the abbreviations of ABBREV), raw and with
 * libdwarf's relocations. Returns 0, or -1 with WHY set. */
static int check_dies(const ld_elf *e, const char *info, const char *abbrev, bool types,
                      char *why, size_t cap)
{
    ld_section si = ld_elf_section(e, info), sa = ld_elf_section(e, abbrev);
    if (!si.present || !sa.present || si.compressed || sa.compressed || !si.data || !sa.data ||
        si.size == 0)
        return 0;
    pc_walk w = {.e = e, .info = si.data, .abbrev = sa.data, .info_size = si.size,
                 .abbrev_size = sa.size, .name = info, .types = types, .why = why, .cap = cap};
    int r = walk_view(&w);
    uint8_t *ri = NULL, *ra = NULL;
    unsigned ii = pc_index(e, info), ai = pc_index(e, abbrev);
    bool relocated = apply_relocs(e, ii, info, NULL, si.size) > 0 ||
                     apply_relocs(e, ai, abbrev, NULL, sa.size) > 0;
    if (r == 0 && relocated) {
        ri = malloc(si.size);
        ra = malloc(sa.size ? sa.size : 1);
        if (!ri || !ra) {
            r = -2;
        } else {
            memcpy(ri, si.data, si.size);
            memcpy(ra, sa.data, sa.size);
            size_t n = apply_relocs(e, ii, info, ri, si.size) +
                       apply_relocs(e, ai, abbrev, ra, sa.size);
            if (n) {
                w.info = ri;
                w.abbrev = ra;
                r = walk_view(&w);
            }
        }
    }
    free(ri);
    free(ra);
    free(w.work);
    if (r == -2) {
        snprintf(why, cap, "%s: out of memory checking its DIEs", info);
        return -1;
    }
    return r;
}

/* The list section NAME of E as it is and with the relocations libdwarf
 * applies to it (a changed addend made libdwarf 20210528 free a block
 * twice on its error path, as a short unit header does). */
static int check_list_section(const ld_elf *e, const char *name, char *why, size_t cap)
{
    ld_section s = ld_elf_section(e, name);
    if (!s.present || s.compressed || !s.data || s.size == 0)
        return 0;
    if (check_list_units(e, name, s, why, cap) != 0)
        return -1;
    unsigned si = pc_index(e, name);
    if (apply_relocs(e, si, name, NULL, s.size) == 0)
        return 0;
    uint8_t *copy = malloc(s.size);
    if (!copy) {
        snprintf(why, cap, "%s: out of memory checking it", name);
        return -1;
    }
    memcpy(copy, s.data, s.size);
    int r = 0;
    if (apply_relocs(e, si, name, copy, s.size) > 0) {
        ld_section rs = s;
        rs.data = copy;
        r = check_list_units(e, name, rs, why, cap);
        if (r != 0) {
            /* say that the relocations made it so */
            size_t n = strlen(why);
            if (n + 1 < cap)
                snprintf(why + n, cap - n, " (after its relocations)");
        }
    }
    free(copy);
    return r;
}

int ld_precheck(const ld_elf *e, char *why, size_t cap)
{
    if (check_section_table(e, why, cap) != 0)
        return -1;
    static const char *const lists[] = {".debug_rnglists", ".debug_loclists",
                                        ".debug_rnglists.dwo", ".debug_loclists.dwo"};
    for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++)
        if (check_list_section(e, lists[i], why, cap) != 0)
            return -1;
    /* the DIEs libdwarf reads: units, and DWARF 4's type units (GCC's
     * -fdebug-types-section) */
    static const char *const infos[][2] = {{".debug_info", ".debug_abbrev"},
                                           {".debug_info.dwo", ".debug_abbrev.dwo"},
                                           {".debug_types", ".debug_abbrev"},
                                           {".debug_types.dwo", ".debug_abbrev.dwo"}};
    for (size_t i = 0; i < sizeof infos / sizeof infos[0]; i++)
        if (check_dies(e, infos[i][0], infos[i][1], i >= 2, why, cap) != 0)
            return -1;
    return 0;
}
