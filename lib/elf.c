/* lib/elf.c: a small ELF32/ELF64 reader (System V gABI "Object Files"):
 * headers, sections, segments, notes, symbols, and the CFI sections for
 * lib/cfi.c. Every offset is checked against the image before use. */
#include <stdio.h>
#include <stdlib.h>
#include "dwx.h"
#include "dwexpr/elf.h"
#if defined(__unix__) || defined(__APPLE__)
#  include <fcntl.h>
#  include <sys/mman.h>
#  include <sys/stat.h>
#  include <unistd.h>
#  define DWX_ELF_MMAP 1
#endif

enum { SHT_SYMTAB = 2, SHT_NOTE = 7, SHT_NOBITS = 8, SHT_DYNSYM = 11, PT_LOAD = 1, PT_NOTE = 4,
       STT_FUNC = 2, STT_GNU_IFUNC = 10, NT_FILE = 0x46494c45, NT_GNU_BUILD_ID = 3 };

struct dwexpr_elf {
    const uint8_t *data;
    size_t size;
    uint8_t *owned;
    void *mapped; /* dwexpr_elf_open_file's mapping of the file (size bytes) */
    bool is64, big;
    uint16_t type, machine;
    uint64_t shoff, phoff;
    uint32_t shnum, phnum, shentsize, phentsize, shstrndx;
};

/* Read an unsigned of SIZE bytes at OFF; 0 past the image (callers check
 * ranges first). */
static uint64_t rd(const dwexpr_elf *e, uint64_t off, unsigned size)
{
    if (off > e->size || e->size - off < size)
        return 0;
    const uint8_t *p = e->data + off;
    uint64_t v = 0;
    dwx_read_fixed(&p, e->data + e->size, size, e->big, &v);
    return v;
}

/* Whether [off, off+len) lies in the image. */
static bool inside(const dwexpr_elf *e, uint64_t off, uint64_t len)
{
    return off <= e->size && len <= e->size - off;
}

static dwexpr_status open_image(const uint8_t *data, size_t size, bool head, dwexpr_elf **out,
                                dwexpr_error *err);

dwexpr_status dwexpr_elf_open_mem(const uint8_t *data, size_t size, dwexpr_elf **out,
                                  dwexpr_error *err)
{
    return open_image(data, size, false, out, err);
}

dwexpr_status dwexpr_elf_open_head(const uint8_t *data, size_t size, dwexpr_elf **out,
                                   dwexpr_error *err)
{
    return open_image(data, size, true, out, err);
}

/* dwexpr_elf_open_mem; HEAD: the image may be the file's first bytes
 * only (dwexpr_elf_open_head): section headers past them are dropped. */
static dwexpr_status open_image(const uint8_t *data, size_t size, bool head, dwexpr_elf **out,
                                dwexpr_error *err)
{
    if (!data || !out)
        return DWEXPR_E_USAGE;
    *out = NULL;
    /* gABI "ELF Header": e_ident */
    if (size < 16 || memcmp(data, "\177ELF", 4) != 0)
        return dwx_fail(err, DWEXPR_E_ILL_FORMED, 0, -1, "ELF: not an ELF file");
    if ((data[4] != 1 && data[4] != 2) || (data[5] != 1 && data[5] != 2))
        return dwx_fail(err, DWEXPR_E_ILL_FORMED, 4, -1, "ELF: bad class or data encoding");
    dwexpr_elf *e = calloc(1, sizeof *e);
    if (!e)
        return DWEXPR_E_NOMEM;
    e->data = data;
    e->size = size;
    e->is64 = data[4] == 2;
    e->big = data[5] == 2;
    size_t ehsize = e->is64 ? 64 : 52;
    if (size < ehsize) {
        free(e);
        return dwx_fail(err, DWEXPR_E_TRUNCATED, 0, -1, "ELF: header truncated");
    }
    unsigned w = e->is64 ? 8 : 4;
    e->type = (uint16_t)rd(e, 16, 2);
    e->machine = (uint16_t)rd(e, 18, 2);
    e->phoff = rd(e, 24 + w, w);
    e->shoff = rd(e, 24 + 2 * w, w);
    uint64_t b = 24 + 3 * w + 4 + 2;
    e->phentsize = (uint32_t)rd(e, b, 2);
    e->phnum = (uint32_t)rd(e, b + 2, 2);
    e->shentsize = (uint32_t)rd(e, b + 4, 2);
    e->shnum = (uint32_t)rd(e, b + 6, 2);
    e->shstrndx = (uint32_t)rd(e, b + 8, 2);
    unsigned want_sh = e->is64 ? 64 : 40, want_ph = e->is64 ? 56 : 32;
    if (e->shoff && e->shnum == 0 && inside(e, e->shoff, want_sh)) {
        /* gABI: more than 0xff00 sections: the count is in section 0 */
        e->shnum = (uint32_t)rd(e, e->shoff + (e->is64 ? 32 : 20), w);
    }
    if (e->shstrndx == 0xffff && e->shoff && inside(e, e->shoff, want_sh))
        e->shstrndx = (uint32_t)rd(e, e->shoff + (e->is64 ? 44 : 28), 4);
    if (head && e->shnum && !inside(e, e->shoff, (uint64_t)e->shnum * e->shentsize))
        e->shnum = 0;
    if ((e->shnum && (e->shentsize < want_sh ||
                      !inside(e, e->shoff, (uint64_t)e->shnum * e->shentsize))) ||
        (e->phnum && (e->phentsize < want_ph ||
                      !inside(e, e->phoff, (uint64_t)e->phnum * e->phentsize)))) {
        free(e);
        return dwx_fail(err, DWEXPR_E_TRUNCATED, 0, -1,
                        "ELF: section or program headers lie outside the file");
    }
    *out = e;
    return DWEXPR_OK;
}

#if defined(DWX_ELF_MMAP)
/* PATH mapped read-only: a core's bytes are read where they are wanted,
 * not copied (a core of a process with large sparse mappings, such as
 * AddressSanitizer's shadow memory, is terabytes of holes). 1: opened
 * (*OUT set), 0: not a regular file that maps (*REST: the file opened
 * for reading, or NULL: fopen reports why), -1: failed (ERR set). The
 * file is opened once: a FIFO's writer must not lose its reader. */
static int open_mapped(const char *path, dwexpr_elf **out, dwexpr_error *err,
                       dwexpr_status *st, FILE **rest)
{
    *rest = NULL;
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return 0;
    struct stat sb;
    void *m = MAP_FAILED;
    if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size > 0 &&
        (uint64_t)sb.st_size <= SIZE_MAX)
        m = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (m == MAP_FAILED) {
        if (!(*rest = fdopen(fd, "rb")))
            close(fd);
        return 0;
    }
    close(fd);
    *st = dwexpr_elf_open_mem(m, (size_t)sb.st_size, out, err);
    if (*st) {
        munmap(m, (size_t)sb.st_size);
        return -1;
    }
    (*out)->mapped = m;
    return 1;
}
#endif

dwexpr_status dwexpr_elf_open_file(const char *path, dwexpr_elf **out, dwexpr_error *err)
{
    if (!path || !out)
        return DWEXPR_E_USAGE;
    FILE *f = NULL;
#if defined(DWX_ELF_MMAP)
    dwexpr_status st = DWEXPR_OK;
    if (open_mapped(path, out, err, &st, &f))
        return st;
#endif
    if (!f)
        f = fopen(path, "rb");
    if (!f)
        return dwx_fail(err, DWEXPR_E_NOT_FOUND, -1, -1, "cannot open %s", path);
    size_t cap = 1 << 16, n = 0;
    uint8_t *buf = malloc(cap);
    while (buf) {
        if (n == cap) {
            uint8_t *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
        size_t r = fread(buf + n, 1, cap - n, f);
        n += r;
        if (r == 0)
            break;
    }
    bool bad = ferror(f);
    fclose(f);
    if (!buf)
        return DWEXPR_E_NOMEM;
    if (bad) {
        free(buf);
        return dwx_fail(err, DWEXPR_E_TARGET, -1, -1, "cannot read %s", path);
    }
    dwexpr_status s = dwexpr_elf_open_mem(buf, n, out, err);
    if (s) {
        free(buf);
        return s;
    }
    (*out)->owned = buf;
    return DWEXPR_OK;
}

void dwexpr_elf_free(dwexpr_elf *elf)
{
    if (!elf)
        return;
#if defined(DWX_ELF_MMAP)
    if (elf->mapped)
        munmap(elf->mapped, elf->size);
#endif
    free(elf->owned);
    free(elf);
}

const uint8_t *dwexpr_elf_image(const dwexpr_elf *elf, size_t *size)
{
    *size = elf->size;
    return elf->data;
}

bool dwexpr_elf_is64(const dwexpr_elf *elf) { return elf->is64; }
bool dwexpr_elf_big_endian(const dwexpr_elf *elf) { return elf->big; }
uint16_t dwexpr_elf_type(const dwexpr_elf *elf) { return elf->type; }
uint16_t dwexpr_elf_machine(const dwexpr_elf *elf) { return elf->machine; }
size_t dwexpr_elf_section_count(const dwexpr_elf *elf) { return elf->shnum; }
size_t dwexpr_elf_segment_count(const dwexpr_elf *elf) { return elf->phnum; }

/* Section header I without name or data checks. */
static void shdr(const dwexpr_elf *e, size_t i, dwexpr_elf_section *s)
{
    uint64_t h = e->shoff + (uint64_t)i * e->shentsize;
    unsigned w = e->is64 ? 8 : 4;
    memset(s, 0, sizeof *s);
    /* gABI "Sections": sh_name, sh_type, sh_flags, sh_addr, sh_offset,
     * sh_size, sh_link, sh_info, sh_addralign, sh_entsize */
    s->type = (uint32_t)rd(e, h + 4, 4);
    s->flags = rd(e, h + 8, w);
    s->addr = rd(e, h + 8 + w, w);
    s->offset = rd(e, h + 8 + 2 * w, w);
    s->size = rd(e, h + 8 + 3 * w, w);
    s->link = (uint32_t)rd(e, h + 8 + 4 * w, 4);
    s->entsize = rd(e, h + 8 + 4 * w + 8 + w, w);
}

dwexpr_status dwexpr_elf_get_section(const dwexpr_elf *e, size_t i, dwexpr_elf_section *out)
{
    if (!e || !out || i >= e->shnum)
        return DWEXPR_E_NOT_FOUND;
    shdr(e, i, out);
    uint32_t nameoff = (uint32_t)rd(e, e->shoff + (uint64_t)i * e->shentsize, 4);
    out->name = "";
    if (e->shstrndx < e->shnum) {
        dwexpr_elf_section st;
        shdr(e, e->shstrndx, &st);
        if (inside(e, st.offset, st.size) && nameoff < st.size &&
            memchr(e->data + st.offset + nameoff, 0, (size_t)(st.size - nameoff)))
            out->name = (const char *)e->data + st.offset + nameoff;
    }
    if (out->type != SHT_NOBITS) {
        if (!inside(e, out->offset, out->size))
            return DWEXPR_E_TRUNCATED;
        out->data = e->data + out->offset;
    }
    return DWEXPR_OK;
}

dwexpr_status dwexpr_elf_find_section(const dwexpr_elf *e, const char *name,
                                      dwexpr_elf_section *out)
{
    for (size_t i = 0; e && i < e->shnum; i++) {
        dwexpr_elf_section s;
        dwexpr_status st = dwexpr_elf_get_section(e, i, &s);
        if ((st == DWEXPR_OK || st == DWEXPR_E_TRUNCATED) && strcmp(s.name, name) == 0) {
            if (out)
                *out = s;
            return st;
        }
    }
    return DWEXPR_E_NOT_FOUND;
}

dwexpr_status dwexpr_elf_get_segment(const dwexpr_elf *e, size_t i, dwexpr_elf_segment *out)
{
    if (!e || !out || i >= e->phnum)
        return DWEXPR_E_NOT_FOUND;
    uint64_t h = e->phoff + (uint64_t)i * e->phentsize;
    memset(out, 0, sizeof *out);
    out->type = (uint32_t)rd(e, h, 4);
    if (e->is64) {
        /* Elf64_Phdr: type, flags, offset, vaddr, paddr, filesz, memsz, align */
        out->flags = (uint32_t)rd(e, h + 4, 4);
        out->offset = rd(e, h + 8, 8);
        out->vaddr = rd(e, h + 16, 8);
        out->filesz = rd(e, h + 32, 8);
        out->memsz = rd(e, h + 40, 8);
        out->align = rd(e, h + 48, 8);
    } else {
        /* Elf32_Phdr: type, offset, vaddr, paddr, filesz, memsz, flags, align */
        out->offset = rd(e, h + 4, 4);
        out->vaddr = rd(e, h + 8, 4);
        out->filesz = rd(e, h + 16, 4);
        out->memsz = rd(e, h + 20, 4);
        out->flags = (uint32_t)rd(e, h + 24, 4);
        out->align = rd(e, h + 28, 4);
    }
    return DWEXPR_OK;
}

/* The ITER-th note container's range: PT_NOTE segments, else SHT_NOTE
 * sections. */
static bool note_area(const dwexpr_elf *e, size_t k, uint64_t *off, uint64_t *size)
{
    size_t seen = 0;
    for (size_t i = 0; i < e->phnum; i++) {
        dwexpr_elf_segment s;
        dwexpr_elf_get_segment(e, i, &s);
        if (s.type == PT_NOTE && seen++ == k) {
            *off = s.offset;
            *size = s.filesz;
            return true;
        }
    }
    if (e->phnum)
        return false;
    for (size_t i = 0; i < e->shnum; i++) {
        dwexpr_elf_section s;
        shdr(e, i, &s);
        if (s.type == SHT_NOTE && seen++ == k) {
            *off = s.offset;
            *size = s.size;
            return true;
        }
    }
    return false;
}

dwexpr_status dwexpr_elf_note_next(const dwexpr_elf *e, uint64_t *iter, dwexpr_elf_note *out)
{
    /* ITER packs the container index (high 20 bits) and the offset in it */
    for (;;) {
        size_t k = (size_t)(*iter >> 44);
        uint64_t pos = *iter & (((uint64_t)1 << 44) - 1), off, size;
        if (!note_area(e, k, &off, &size))
            return DWEXPR_E_NOT_FOUND;
        if (!inside(e, off, size) || pos + 12 > size) {
            *iter = (uint64_t)(k + 1) << 44;
            continue;
        }
        /* gABI "Note Section": namesz, descsz, type, name, desc (4-aligned) */
        uint64_t p = off + pos;
        uint64_t namesz = rd(e, p, 4), descsz = rd(e, p + 4, 4);
        uint64_t nameal = (namesz + 3) & ~(uint64_t)3, descal = (descsz + 3) & ~(uint64_t)3;
        if (12 + nameal + descal > size - pos) {
            *iter = (uint64_t)(k + 1) << 44;
            continue;
        }
        out->type = (uint32_t)rd(e, p + 8, 4);
        out->name = (const char *)e->data + p + 12;
        out->namesz = (uint32_t)namesz;
        out->desc = e->data + p + 12 + nameal;
        out->descsz = descsz;
        *iter = ((uint64_t)k << 44) | (pos + 12 + nameal + descal);
        return DWEXPR_OK;
    }
}

dwexpr_status dwexpr_elf_build_id(const dwexpr_elf *e, const uint8_t **id, size_t *len)
{
    if (!e || !id || !len)
        return DWEXPR_E_USAGE;
    /* the note sections first: a separate debug file's program headers
     * need not describe its contents */
    for (size_t i = 0; i < e->shnum; i++) {
        dwexpr_elf_section sec;
        if (dwexpr_elf_get_section(e, i, &sec) != DWEXPR_OK || sec.type != SHT_NOTE || !sec.data)
            continue;
        /* gABI "Note Section", as dwexpr_elf_note_next reads it */
        for (uint64_t pos = 0; pos + 12 <= sec.size;) {
            const uint64_t p = sec.offset + pos;
            uint64_t namesz = rd(e, p, 4), descsz = rd(e, p + 4, 4);
            uint64_t nameal = (namesz + 3) & ~(uint64_t)3, descal = (descsz + 3) & ~(uint64_t)3;
            if (12 + nameal + descal > sec.size - pos)
                break;
            if (rd(e, p + 8, 4) == NT_GNU_BUILD_ID && namesz == 4 &&
                memcmp(e->data + p + 12, "GNU", 4) == 0 && descsz > 0) {
                *id = e->data + p + 12 + nameal;
                *len = (size_t)descsz;
                return DWEXPR_OK;
            }
            pos += 12 + nameal + descal;
        }
    }
    uint64_t it = 0;
    dwexpr_elf_note nt;
    while (dwexpr_elf_note_next(e, &it, &nt) == DWEXPR_OK)
        if (nt.type == NT_GNU_BUILD_ID && nt.namesz == 4 && memcmp(nt.name, "GNU", 4) == 0 &&
            nt.descsz > 0) {
            *id = nt.desc;
            *len = (size_t)nt.descsz;
            return DWEXPR_OK;
        }
    return DWEXPR_E_NOT_FOUND;
}

dwexpr_status dwexpr_elf_cfi_section(const dwexpr_elf *e, dwexpr_cfi_format format, uint64_t bias,
                                     const dwexpr_arch *arch, dwexpr_cfi_section *out)
{
    dwexpr_elf_section s, h, t, g;
    const char *name = format == DWEXPR_CFI_EH_FRAME ? ".eh_frame" : ".debug_frame";
    dwexpr_status st = dwexpr_elf_find_section(e, name, &s);
    if (st)
        return st;
    if (!s.data || s.size == 0)
        return DWEXPR_E_NOT_FOUND;
    memset(out, 0, sizeof *out);
    out->format = format;
    out->data = s.data;
    out->size = (size_t)s.size;
    out->address = s.addr;
    out->bias = bias;
    out->addr_size = e->is64 ? 8 : 4;
    out->big_endian = e->big;
    out->arch = arch;
    if (format == DWEXPR_CFI_EH_FRAME && dwexpr_elf_find_section(e, ".eh_frame_hdr", &h) == 0 &&
        h.data) {
        out->hdr = h.data;
        out->hdr_size = (size_t)h.size;
        out->hdr_address = h.addr;
    }
    if (dwexpr_elf_find_section(e, ".text", &t) == 0)
        out->text_address = t.addr;
    if (dwexpr_elf_find_section(e, ".got", &g) == 0)
        out->data_address = g.addr;
    return DWEXPR_OK;
}

/* Search one symbol table section for a function holding ADDR. */
static bool sym_search(const dwexpr_elf *e, uint32_t type, uint64_t addr, const char **name,
                       uint64_t *offset)
{
    bool found = false;
    uint64_t best = 0;
    for (size_t i = 0; i < e->shnum; i++) {
        dwexpr_elf_section s, str;
        if (dwexpr_elf_get_section(e, i, &s) || s.type != type)
            continue;
        if (dwexpr_elf_get_section(e, s.link, &str) || !str.data)
            continue;
        unsigned esz = e->is64 ? 24 : 16;
        for (uint64_t k = 1; k < s.size / esz; k++) {
            uint64_t p = s.offset + k * esz, value, size;
            uint32_t nameoff = (uint32_t)rd(e, p, 4);
            uint8_t info;
            /* Elf64_Sym: name, info, other, shndx, value, size; Elf32_Sym:
             * name, value, size, info, other, shndx */
            if (e->is64) {
                info = (uint8_t)rd(e, p + 4, 1);
                value = rd(e, p + 8, 8);
                size = rd(e, p + 16, 8);
            } else {
                value = rd(e, p + 4, 4);
                size = rd(e, p + 8, 4);
                info = (uint8_t)rd(e, p + 12, 1);
            }
            unsigned st = info & 0xf;
            if ((st != STT_FUNC && st != STT_GNU_IFUNC) || value == 0 || addr < value)
                continue;
            if (!(addr - value < size || (size == 0 && addr == value)))
                continue;
            if (nameoff >= str.size || !memchr(str.data + nameoff, 0, (size_t)(str.size - nameoff)))
                continue;
            /* the nearest symbol below ADDR; of several at one address
             * (aliases: raise and gsignal), the one whose name sorts last,
             * as GDB's minimal symbols do (sorted by address, then name;
             * the last of a run at one address is the one it shows) */
            const char *nm = (const char *)str.data + nameoff;
            if (!found || value > best || (value == best && strcmp(nm, *name) > 0)) {
                found = true;
                best = value;
                *name = nm;
                *offset = addr - value;
            }
        }
    }
    return found;
}

dwexpr_status dwexpr_elf_symbolize(const dwexpr_elf *e, uint64_t addr, const char **name,
                                   uint64_t *offset)
{
    if (sym_search(e, SHT_SYMTAB, addr, name, offset) ||
        sym_search(e, SHT_DYNSYM, addr, name, offset))
        return DWEXPR_OK;
    return DWEXPR_E_NOT_FOUND;
}

dwexpr_status dwexpr_elf_load_bias(const dwexpr_elf *e, uint64_t start, uint64_t file_offset,
                                   uint64_t page_size, uint64_t *bias)
{
    uint64_t pm = page_size ? ~(page_size - 1) : ~(uint64_t)0xfff;
    for (size_t i = 0; i < e->phnum; i++) {
        dwexpr_elf_segment s;
        dwexpr_elf_get_segment(e, i, &s);
        if (s.type == PT_LOAD && (s.offset & pm) == file_offset) {
            *bias = start - (s.vaddr & pm);
            return DWEXPR_OK;
        }
    }
    return DWEXPR_E_NOT_FOUND;
}

dwexpr_status dwexpr_elf_read_vaddr(const dwexpr_elf *e, uint64_t addr, void *buf, size_t len)
{
    uint8_t *out = buf;
    while (len) {
        bool got = false;
        for (size_t i = 0; i < e->phnum && !got; i++) {
            dwexpr_elf_segment s;
            dwexpr_elf_get_segment(e, i, &s);
            if (s.type != PT_LOAD || addr < s.vaddr || addr - s.vaddr >= s.filesz)
                continue;
            uint64_t in = addr - s.vaddr, n = s.filesz - in;
            if (n > len)
                n = len;
            if (s.offset > UINT64_MAX - in || !inside(e, s.offset + in, n))
                return DWEXPR_E_NOT_FOUND; /* a segment outside the file */
            memcpy(out, e->data + s.offset + in, (size_t)n);
            out += n;
            addr += n;
            len -= (size_t)n;
            got = true;
        }
        if (!got)
            return DWEXPR_E_NOT_FOUND;
    }
    return DWEXPR_OK;
}

dwexpr_status dwexpr_elf_core_mapping(const dwexpr_elf *e, size_t i, dwexpr_elf_mapping *out)
{
    uint64_t it = 0;
    dwexpr_elf_note n;
    while (dwexpr_elf_note_next(e, &it, &n) == DWEXPR_OK) {
        if (n.type != NT_FILE || n.namesz < 4 || memcmp(n.name, "CORE", 4) != 0)
            continue;
        /* Linux fs/binfmt_elf.c fill_files_note: count, page_size, then
         * count x (start, end, page offset), then count NUL-terminated names */
        unsigned w = e->is64 ? 8 : 4;
        const uint8_t *p = n.desc, *end = n.desc + n.descsz;
        uint64_t count, page;
        if (dwx_read_fixed(&p, end, w, e->big, &count) || dwx_read_fixed(&p, end, w, e->big, &page))
            return DWEXPR_E_TRUNCATED;
        if (count > (uint64_t)(end - p) / (3 * w))
            return DWEXPR_E_TRUNCATED;
        if (i >= count)
            return DWEXPR_E_NOT_FOUND;
        const uint8_t *q = p + i * 3 * w;
        uint64_t st, en, off;
        dwx_read_fixed(&q, end, w, e->big, &st);
        dwx_read_fixed(&q, end, w, e->big, &en);
        dwx_read_fixed(&q, end, w, e->big, &off);
        const uint8_t *names = p + count * 3 * w;
        for (size_t k = 0; k < i; k++) {
            const uint8_t *z = memchr(names, 0, (size_t)(end - names));
            if (!z)
                return DWEXPR_E_TRUNCATED;
            names = z + 1;
        }
        if (!memchr(names, 0, (size_t)(end - names)))
            return DWEXPR_E_TRUNCATED;
        out->start = st;
        out->end = en;
        out->file_offset = off * page;
        out->path = (const char *)names;
        return DWEXPR_OK;
    }
    return DWEXPR_E_NOT_FOUND;
}
