/* adapters/libdwarf/elf.c: just enough ELF to reach raw section bytes
 * (.debug_loclists, .debug_loc, .debug_rnglists, .debug_ranges,
 * .debug_addr and their .dwo twins), which libdwarf 20210528 only hands
 * out decoded. The file is mapped read-only; ELF32/ELF64, either order.
 * Compressed sections (SHF_COMPRESSED with zlib, as in the separate
 * debug files of Debian's -dbg packages) are inflated when zlib is
 * there. */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef LD_HAVE_ZLIB
#include <zlib.h>
#endif

#include "ld_int.h"

#define SHF_COMPRESSED_FLAG 0x800
#define ELFCOMPRESS_ZLIB 1
/* Most bytes a compressed section may inflate to (a bound against a
 * header that claims more than any debug section holds), and per byte of
 * its zlib stream (deflate's best ratio is about 1032: a header that
 * claims more is wrong, and is not allocated for). */
#define LD_MAX_INFLATED ((uint64_t)1 << 31)
#define LD_MAX_RATIO 1032

/* An unsigned of SIZE bytes at OFF of E (0 when out of bounds). */
uint64_t ld_read_at(const ld_elf *e, uint64_t off, unsigned size)
{
    ld_cursor c;
    if (off > e->size)
        return 0;
    c.p = e->map + off;
    c.end = e->map + e->size;
    c.big = e->big;
    c.bad = false;
    return ld_get_u(&c, size);
}

/* Map PATH and check its ELF header. Returns 0, or -1 with WHY set. */
int ld_elf_open(ld_elf *e, const char *path, char *why, size_t cap)
{
    memset(e, 0, sizeof *e);
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        snprintf(why, cap, "%s: cannot open", path);
        return -1;
    }
    struct stat sb;
    if (fstat(fd, &sb) != 0 || sb.st_size < 52) {
        close(fd);
        snprintf(why, cap, "%s: not an ELF file", path);
        return -1;
    }
    void *m = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (m == MAP_FAILED) {
        snprintf(why, cap, "%s: cannot map", path);
        return -1;
    }
    e->map = m;
    e->size = (size_t)sb.st_size;
    const uint8_t *h = e->map;
    if (h[0] != 0x7f || h[1] != 'E' || h[2] != 'L' || h[3] != 'F' || (h[4] != 1 && h[4] != 2) ||
        (h[5] != 1 && h[5] != 2)) {
        snprintf(why, cap, "%s: not an ELF file", path);
        ld_elf_close(e);
        return -1;
    }
    e->is64 = h[4] == 2;
    e->big = h[5] == 2;
    e->machine = (uint16_t)ld_read_at(e, 18, 2);
    if (e->is64) {
        e->shoff = ld_read_at(e, 0x28, 8);
        e->shentsize = (uint16_t)ld_read_at(e, 0x3a, 2);
        e->shnum = (uint16_t)ld_read_at(e, 0x3c, 2);
        e->shstrndx = (uint16_t)ld_read_at(e, 0x3e, 2);
    } else {
        e->shoff = ld_read_at(e, 0x20, 4);
        e->shentsize = (uint16_t)ld_read_at(e, 0x2e, 2);
        e->shnum = (uint16_t)ld_read_at(e, 0x30, 2);
        e->shstrndx = (uint16_t)ld_read_at(e, 0x32, 2);
    }
    if (e->shoff >= e->size || e->shentsize < (e->is64 ? 64 : 40) ||
        (uint64_t)e->shnum * e->shentsize > e->size - e->shoff) {
        e->shnum = 0; /* no usable section table */
    }
    if ((e->shnum && !(e->inflated = calloc(e->shnum, sizeof *e->inflated))) ||
        !(e->memo = calloc(LD_SECTION_MEMOS, sizeof *e->memo))) {
        snprintf(why, cap, "%s: out of memory", path);
        ld_elf_close(e);
        return -1;
    }
    return 0;
}

/* Unmap E and release its inflated sections. */
void ld_elf_close(ld_elf *e)
{
    if (e->map)
        munmap(e->map, e->size);
    for (unsigned i = 0; e->inflated && i < e->shnum; i++)
        free(e->inflated[i].data);
    free(e->inflated);
    free(e->memo);
    memset(e, 0, sizeof *e);
}

/* Inflate compressed section I (SIZE bytes at DATA: the compression
 * header, then the zlib stream) into E's cache; false when it cannot be
 * (another algorithm, a bad stream, no zlib in this build). GNU: a
 * .zdebug_* section (GCC's -gz=zlib-gnu, binutils' older
 * --compress-debug-sections): "ZLIB", the inflated size in 8 big-endian
 * bytes, then the zlib stream; else SHF_COMPRESSED's ELF header. */
static bool inflate_section(const ld_elf *e, unsigned i, const uint8_t *data, uint64_t size,
                            bool gnu)
{
    ld_inflated *z = &e->inflated[i];
    if (z->tried)
        return z->data != NULL;
    z->tried = true;
#ifdef LD_HAVE_ZLIB
    /* gABI Elf64_Chdr: ch_type, ch_reserved, ch_size, ch_addralign;
     * Elf32_Chdr: ch_type, ch_size, ch_addralign */
    unsigned hdr = gnu ? 12 : e->is64 ? 24 : 12;
    if (size < hdr)
        return false;
    ld_cursor c = {data, data + size, gnu || e->big, false};
    uint32_t type = ELFCOMPRESS_ZLIB;
    uint64_t out;
    if (gnu) {
        if (memcmp(data, "ZLIB", 4) != 0)
            return false;
        c.p += 4;
        out = ld_get_u(&c, 8);
    } else {
        type = (uint32_t)ld_get_u(&c, 4);
        if (e->is64)
            ld_get_u(&c, 4);
        out = ld_get_u(&c, e->is64 ? 8 : 4);
    }
    if (c.bad || type != ELFCOMPRESS_ZLIB || out > LD_MAX_INFLATED || size - hdr > ULONG_MAX ||
        out / LD_MAX_RATIO > size - hdr)
        return false;
    uint8_t *buf = malloc(out ? (size_t)out : 1);
    uLongf got = (uLongf)out;
    if (!buf || uncompress(buf, &got, data + hdr, (uLong)(size - hdr)) != Z_OK || got != out) {
        free(buf);
        return false;
    }
    z->data = buf;
    z->size = out;
    return true;
#else
    (void)data;
    (void)size;
    (void)gnu;
    return false;
#endif
}

/* Section header I: name offset, flags, file offset, size, type. */
static void shdr(const ld_elf *e, unsigned i, uint64_t *name, uint64_t *flags, uint64_t *off,
                 uint64_t *size, uint64_t *type)
{
    uint64_t b = e->shoff + (uint64_t)i * e->shentsize;
    *name = ld_read_at(e, b, 4);
    *type = ld_read_at(e, b + 4, 4);
    if (e->is64) {
        *flags = ld_read_at(e, b + 8, 8);
        *off = ld_read_at(e, b + 0x18, 8);
        *size = ld_read_at(e, b + 0x20, 8);
    } else {
        *flags = ld_read_at(e, b + 8, 4);
        *off = ld_read_at(e, b + 0x10, 4);
        *size = ld_read_at(e, b + 0x14, 4);
    }
}

/* Look NAME up in the section header string table; GNU: NAME is a
 * .zdebug_* section (inflate_section). */
static ld_section find_named(const ld_elf *e, const char *name, bool gnu)
{
    ld_section s;
    memset(&s, 0, sizeof s);
    if (!e->map || e->shnum == 0 || e->shstrndx >= e->shnum)
        return s;
    uint64_t n, fl, stroff, strsize, ty;
    shdr(e, e->shstrndx, &n, &fl, &stroff, &strsize, &ty);
    if (stroff > e->size || strsize > e->size - stroff)
        return s;
    size_t want = strlen(name);
    for (unsigned i = 1; i < e->shnum; i++) {
        uint64_t off, size;
        shdr(e, i, &n, &fl, &off, &size, &ty);
        if (n >= strsize || strsize - n <= want)
            continue;
        const char *sn = (const char *)e->map + stroff + n;
        if (memcmp(sn, name, want) != 0 || sn[want] != 0)
            continue;
        s.present = true;
        if (ty == 8 /* SHT_NOBITS */) {
            s.data = NULL;
            s.size = 0;
            return s;
        }
        if (off > e->size || size > e->size - off)
            return s; /* truncated file: present, no bytes */
        s.data = e->map + off;
        s.size = size;
        if ((fl & SHF_COMPRESSED_FLAG) || gnu) {
            s.compressed = !inflate_section(e, i, s.data, size, gnu && !(fl & SHF_COMPRESSED_FLAG));
            if (!s.compressed) {
                s.data = e->inflated[i].data;
                s.size = e->inflated[i].size;
            }
        }
        return s;
    }
    return s;
}

/* Section NAME: itself, else for a .debug_* name its GNU-compressed
 * .zdebug_* twin (read inflated, as libdwarf reads the others). */
static ld_section find_section(const ld_elf *e, const char *name)
{
    ld_section s = find_named(e, name, false);
    char z[64];
    if (!s.present && strncmp(name, ".debug_", 7) == 0 && strlen(name) + 2 < sizeof z) {
        snprintf(z, sizeof z, ".zdebug_%s", name + 7);
        s = find_named(e, z, true);
    }
    return s;
}

/* find_section, remembered: the list readers ask for the same few
 * sections once per list. */
ld_section ld_elf_section(const ld_elf *e, const char *name)
{
    size_t n = strlen(name);
    for (unsigned k = 0; e->memo && n < sizeof e->memo[0].name && k < LD_SECTION_MEMOS; k++) {
        ld_section_memo *m = &e->memo[k];
        if (strcmp(m->name, name) == 0)
            return m->s;
        if (!m->name[0]) {
            memcpy(m->name, name, n + 1);
            m->s = find_section(e, name);
            return m->s;
        }
    }
    return find_section(e, name);
}
