/* adapters/libdwarf/symbols.c: the function a name stands for in this
 * module, as GDB finds the callee of a call site whose DW_AT_call_origin
 * is a declaration (call_site_target's physname: lookup_minimal_symbol,
 * the ELF symbol of that name). The ELF symbol table of the DWARF file
 * (.symtab, else .dynsym) is read once; a name's function symbols
 * (STT_FUNC, STT_GNU_IFUNC; a default version "NAME@@VER" too) are its
 * candidates, the global and weak ones first, as GDB prefers them, else
 * the local ones (a static function, or a hidden symbol once linked:
 * glibc's __pthread_kill). Several candidates at different addresses are
 * ambiguous (static functions of one name in several units): no address,
 * where GDB takes one of them. A name no symbol has is looked for among
 * the DWARF's function definitions (hand-written DWARF, or a file without
 * a symbol table): by linkage name, else by DW_AT_name. */
#include <stdlib.h>

#include "ld_int.h"

#define STT_FUNC_ 2
#define STT_GNU_IFUNC_ 10
#define STB_LOCAL_ 0
#define SHN_UNDEF_ 0

/* One function symbol. */
typedef struct ld_sym {
    const char *name;      /* in the mapped string table; not terminated at "@@" */
    size_t len;            /* of the name without "@@VER" */
    uint64_t value;
    bool local;
} ld_sym;

/* FNV-1a of LEN bytes of S. */
static uint64_t hash_n(const char *s, size_t len)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)s[i]) * 0x100000001b3ull;
    return h;
}

/* Read symbol table SYM (with string table STR) of E into ld->syms. */
static void read_symbols(dwexpr_libdwarf *ld, const ld_elf *e, ld_section sym, ld_section str)
{
    const unsigned esz = e->is64 ? 24 : 16;
    if (!sym.data || !str.data || sym.compressed || str.compressed)
        return;
    for (uint64_t off = esz; off + esz <= sym.size; off += esz) {
        ld_cursor c = {sym.data + off, sym.data + off + esz, e->big, false};
        uint64_t name, value;
        unsigned info, shndx;
        name = ld_get_u(&c, 4);
        if (e->is64) {
            info = (unsigned)ld_get_u(&c, 1);
            ld_get_u(&c, 1);
            shndx = (unsigned)ld_get_u(&c, 2);
            value = ld_get_u(&c, 8);
        } else {
            value = ld_get_u(&c, 4);
            ld_get_u(&c, 4);
            info = (unsigned)ld_get_u(&c, 1);
            ld_get_u(&c, 1);
            shndx = (unsigned)ld_get_u(&c, 2);
        }
        unsigned type = info & 0xf;
        if (c.bad || shndx == SHN_UNDEF_ || (type != STT_FUNC_ && type != STT_GNU_IFUNC_) ||
            name >= str.size)
            continue;
        const char *n = (const char *)str.data + name;
        size_t len = strnlen(n, str.size - name);
        if (len == str.size - name || !len)
            continue; /* not terminated in the table, or nameless */
        const char *at = strstr(n, "@@");
        if (at)
            len = (size_t)(at - n);
        else if (strchr(n, '@'))
            continue; /* a non-default version: GDB keeps "NAME@VER" */
        ld_sym *s = ld_pool_alloc(&ld->pool, sizeof *s);
        if (!s)
            return;
        s->name = n;
        s->len = len;
        s->value = value;
        s->local = (info >> 4) == STB_LOCAL_;
        uint64_t h = hash_n(n, len), k = 0;
        while (ld_map_get(&ld->syms, h, k))
            k++;
        if (!ld_map_put(&ld->syms, h, k, s))
            return;
        ld->nsyms++;
    }
}

/* The symbol table, read on first use. */
static void symbols(dwexpr_libdwarf *ld)
{
    if (ld->syms_done)
        return;
    ld->syms_done = true;
    if (!ld->nfiles || !ld->files[0].elf_ok)
        return;
    const ld_elf *e = &ld->files[0].elf;
    read_symbols(ld, e, ld_elf_section(e, ".symtab"), ld_elf_section(e, ".strtab"));
    if (!ld->nsyms)
        read_symbols(ld, e, ld_elf_section(e, ".dynsym"), ld_elf_section(e, ".dynstr"));
}

/* Add address A to the LIST of *N distinct addresses (at most 2 kept:
 * enough to tell one from several). */
static void add_addr(uint64_t *list, size_t *n, uint64_t a)
{
    for (size_t i = 0; i < *n && i < 2; i++)
        if (list[i] == a)
            return;
    if (*n < 2)
        list[*n] = a;
    (*n)++;
}

/* The DWARF's function definitions by linkage name (map 0) and by
 * DW_AT_name (map 1), made on first use. */
static void dwarf_names(dwexpr_libdwarf *ld)
{
    if (ld->fn_names_done)
        return;
    ld->fn_names_done = true;
    ld_scope *const *all = ld->scopes.v;
    for (size_t i = 0; i < ld->scopes.n; i++) {
        const ld_scope *sc = all[i];
        if (sc->pub.kind != DWEXPR_LIBDWARF_SCOPE_FUNCTION || !sc->pub.nranges)
            continue;
        for (int by_name = 0; by_name < 2; by_name++) {
            const char *n = by_name ? sc->pub.name : ld_scope_linkage(ld, sc);
            if (!n)
                continue;
            ld_map *m = &ld->fn_by_name[by_name];
            uint64_t h = hash_n(n, strlen(n)), k = 0;
            while (ld_map_get(m, h, k))
                k++;
            ld_map_put(m, h, k, (void *)(uintptr_t)sc);
        }
    }
}

/* NAME among the DWARF's function definitions: by linkage name, else by
 * DW_AT_name. Their entries in LIST (add_addr); returns how many. */
static size_t dwarf_named(dwexpr_libdwarf *ld, const char *name, uint64_t *list)
{
    size_t n = 0;
    dwarf_names(ld);
    uint64_t h = hash_n(name, strlen(name));
    for (int by_name = 0; by_name < 2 && !n; by_name++) {
        const ld_scope *sc;
        for (uint64_t k = 0; (sc = ld_map_get(&ld->fn_by_name[by_name], h, k)) != NULL; k++) {
            const char *have = by_name ? sc->pub.name : ld_scope_linkage(ld, sc);
            if (have && strcmp(have, name) == 0)
                add_addr(list, &n, ld_function_entry(sc));
        }
    }
    return n;
}

ld_name_answer ld_function_named(dwexpr_libdwarf *ld, const char *name, uint64_t *addr,
                                 size_t *count)
{
    uint64_t glob[2], loc[2];
    size_t ng = 0, nl = 0;
    *addr = 0;
    *count = 0;
    symbols(ld);
    size_t len = strlen(name);
    uint64_t h = hash_n(name, len);
    const ld_sym *s;
    for (uint64_t k = 0; (s = ld_map_get(&ld->syms, h, k)) != NULL; k++) {
        if (s->len != len || memcmp(s->name, name, len) != 0)
            continue;
        if (s->local)
            add_addr(loc, &nl, s->value);
        else
            add_addr(glob, &ng, s->value);
    }
    const uint64_t *list = ng ? glob : loc;
    size_t n = ng ? ng : nl;
    uint64_t dw[2];
    if (!n) {
        n = dwarf_named(ld, name, dw);
        list = dw;
    }
    *count = n;
    if (!n)
        return LD_NAME_NONE;
    if (n > 1)
        return LD_NAME_AMBIGUOUS;
    *addr = list[0];
    return LD_NAME_ONE;
}
