/* adapters/libdwarf/precheck.c: checks made on the raw ELF sections before
 * libdwarf sees a file. libdwarf 20210528 (Debian 12) frees memory twice
 * when a .debug_rnglists / .debug_loclists unit header is too short for its
 * fields (found by fuzz/fuzz_libdwarf.c); a debugger opens whatever file it
 * is given, so such files are refused here with a clear message instead. */
#include <stdio.h>

#include "ld_int.h"

/* Check every unit header of the list section NAME of E (DWARF 5 7.28 and
 * 7.29: unit_length, version 5, address_size, segment_selector_size,
 * offset_entry_count, then the offset array, all inside the unit). Returns
 * 0, or -1 with WHY set. */
static int check_list_section(const ld_elf *e, const char *name, char *why, size_t cap)
{
    ld_section s = ld_elf_section(e, name);
    if (!s.present || s.compressed || s.size == 0)
        return 0;
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

int ld_precheck(const ld_elf *e, char *why, size_t cap)
{
    if (check_section_table(e, why, cap) != 0)
        return -1;
    static const char *const lists[] = {".debug_rnglists", ".debug_loclists",
                                        ".debug_rnglists.dwo", ".debug_loclists.dwo"};
    for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++)
        if (check_list_section(e, lists[i], why, cap) != 0)
            return -1;
    return 0;
}
