/* fuzz/fuzz_elf.c: libFuzzer harness for the ELF reader (dwexpr/elf.h).
 * Input: the bytes of an ELF image, opened in memory with
 * dwexpr_elf_open_mem (an exact-size copy), and as a file's head
 * (dwexpr_elf_open_head). Every query of the API runs:
 * sections (by index and by name), segments, notes, the build id, core NT_FILE
 * mappings, the CFI sections (then opened and looked up with lib/cfi.c),
 * symbols, load biases and reads by virtual address. Invariants: no
 * crash, leak or undefined behaviour; everything returned that points
 * into the image lies inside it (names NUL-terminated inside it);
 * statuses are the documented ones; reads by address give the image's
 * bytes; note iteration moves forward. */
#include "fuzz_common.h"

enum { SHT_NOBITS = 8, PT_LOAD = 1, MAX_NOTES = 1 << 14, MAX_SEGS = 8, MAX_NAMES = 8 };

typedef struct img {
    const uint8_t *p;
    size_t n;
} img;

/* True if [Q, Q+LEN) lies inside the image. */
static bool in_img(const img *m, const void *q, uint64_t len)
{
    const uint8_t *b = q;
    return b >= m->p && b <= m->p + m->n && len <= (uint64_t)(m->p + m->n - b);
}

/* A name the library returned: "" (any), or a NUL-terminated string
 * inside the image. */
static void check_name(const img *m, const char *name, const char *what)
{
    FZ_CHECK(name != NULL, "%s: NULL name", what);
    if (name[0] == 0 && !in_img(m, name, 1))
        return; /* the static "" */
    FZ_CHECK(in_img(m, name, 1), "%s: name outside the image", what);
    FZ_CHECK(memchr(name, 0, (size_t)(m->p + m->n - (const uint8_t *)name)) != NULL,
             "%s: name not terminated inside the image", what);
}

/* A section as returned with status S. */
static void check_section(const img *m, dwexpr_status s, const dwexpr_elf_section *sec,
                          const char *what)
{
    FZ_CHECK(s == DWEXPR_OK || s == DWEXPR_E_TRUNCATED, "%s: %s", what, dwexpr_status_name(s));
    check_name(m, sec->name, what);
    bool inside = sec->offset <= m->n && sec->size <= m->n - sec->offset;
    if (sec->type == SHT_NOBITS) {
        FZ_CHECK(s == DWEXPR_OK && sec->data == NULL, "%s: SHT_NOBITS with %s, data %p", what,
                 dwexpr_status_name(s), (const void *)sec->data);
    } else if (s == DWEXPR_OK) {
        FZ_CHECK(inside && sec->data == m->p + sec->offset,
                 "%s: data at offset 0x%llx size 0x%llx of an image of %zu bytes", what,
                 (unsigned long long)sec->offset, (unsigned long long)sec->size, m->n);
    } else {
        FZ_CHECK(!inside, "%s: E_TRUNCATED for a section inside the image", what);
    }
}

static uint64_t fnv(const uint8_t *p, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

/* The CFI section FORMAT: inside the image; open it and look up PCS. */
static void check_cfi(const img *m, const dwexpr_elf *e, dwexpr_cfi_format format, uint64_t bias,
                      const uint64_t *pcs, size_t npcs)
{
    const dwexpr_arch *arch = dwexpr_elf_machine(e) == 62 ? dwexpr_arch_find("x86_64") : NULL;
    dwexpr_cfi_section d;
    memset(&d, 0, sizeof d);
    dwexpr_status s = dwexpr_elf_cfi_section(e, format, bias, arch, &d);
    if (s == DWEXPR_E_NOT_FOUND || s == DWEXPR_E_TRUNCATED)
        return;
    FZ_CHECK(s == DWEXPR_OK, "cfi_section: %s", dwexpr_status_name(s));
    FZ_CHECK(d.format == format && d.size > 0 && in_img(m, d.data, d.size),
             "cfi_section: data outside the image");
    FZ_CHECK(d.hdr == NULL || in_img(m, d.hdr, d.hdr_size), "cfi_section: hdr outside the image");
    FZ_CHECK(d.addr_size == (dwexpr_elf_is64(e) ? 8 : 4) && d.bias == bias,
             "cfi_section: address size %u bias 0x%llx", (unsigned)d.addr_size,
             (unsigned long long)d.bias);
    dwexpr_cfi *cfi = NULL;
    dwexpr_error err;
    memset(&err, 0, sizeof err);
    s = dwexpr_cfi_open(&d, &cfi, &err);
    if (s) {
        dwexpr_class c = dwexpr_status_class(s);
        FZ_CHECK(c == DWEXPR_CLASS_DECODE || c == DWEXPR_CLASS_ILL_FORMED || s == DWEXPR_E_NOMEM,
                 "cfi_open of the ELF's section: %s", dwexpr_status_name(s));
        FZ_CHECK(cfi == NULL, "failed cfi_open returns a handle");
        return;
    }
    for (size_t i = 0; i < npcs; i++) {
        static dwexpr_cfi_row row;
        uint64_t pc = pcs[i] + bias;
        s = dwexpr_cfi_row_for_pc(cfi, pc, &row, &err);
        if (s == DWEXPR_OK) {
            FZ_CHECK(row.pc_begin <= pc && pc < row.pc_end && row.count <= DWEXPR_CFI_MAX_RULES,
                     "row [0x%llx, 0x%llx) for pc 0x%llx", (unsigned long long)row.pc_begin,
                     (unsigned long long)row.pc_end, (unsigned long long)pc);
        } else {
            dwexpr_class c = dwexpr_status_class(s);
            FZ_CHECK(s == DWEXPR_E_NOT_FOUND || c == DWEXPR_CLASS_DECODE ||
                         c == DWEXPR_CLASS_ILL_FORMED || c == DWEXPR_CLASS_LIMIT,
                     "row_for_pc: %s", dwexpr_status_name(s));
        }
    }
    dwexpr_cfi_free(cfi);
}

/* What dwexpr_elf_read_vaddr must give: the bytes of the first PT_LOAD
 * whose file part holds each address, chunk by chunk (its algorithm,
 * without pointers). Returns false where it must fail. */
static bool model_read(const img *m, const dwexpr_elf *e, uint64_t addr, uint8_t *out, size_t len)
{
    size_t nseg = dwexpr_elf_segment_count(e);
    while (len) {
        bool got = false;
        for (size_t i = 0; i < nseg && !got; i++) {
            dwexpr_elf_segment s;
            if (dwexpr_elf_get_segment(e, i, &s))
                return false;
            if (s.type != PT_LOAD || addr < s.vaddr || addr - s.vaddr >= s.filesz)
                continue;
            uint64_t in = addr - s.vaddr, n = s.filesz - in;
            if (n > len)
                n = len;
            /* a segment whose file offset wraps lies outside the file */
            if (s.offset > UINT64_MAX - in)
                return false;
            uint64_t off = s.offset + in;
            if (off > m->n || n > m->n - off)
                return false;
            memcpy(out, m->p + off, (size_t)n);
            out += n;
            addr += n;
            len -= (size_t)n;
            got = true;
        }
        if (!got)
            return false;
    }
    return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* an exact-size copy, so a sanitizer sees any read past the end */
    uint8_t *buf = malloc(size ? size : 1);
    FZ_CHECK(buf != NULL, "out of memory");
    memcpy(buf, data, size);
    img m = {buf, size};
    uint64_t hash = fnv(buf, size < 256 ? size : 256);

    dwexpr_elf *e = NULL;
    dwexpr_error err;
    memset(&err, 0, sizeof err);
    /* the same bytes as a file's head (dwexpr_elf_open_head): opens
     * whenever the whole image does; its notes and build id inside */
    dwexpr_elf *h = NULL;
    dwexpr_status hs = dwexpr_elf_open_head(buf, size, &h, NULL);
    FZ_CHECK(hs == DWEXPR_OK || hs == DWEXPR_E_ILL_FORMED || hs == DWEXPR_E_TRUNCATED ||
                 hs == DWEXPR_E_NOMEM, "elf_open_head: %s", dwexpr_status_name(hs));
    FZ_CHECK((hs == DWEXPR_OK) == (h != NULL), "open_head: status and handle disagree");
    if (h) {
        const uint8_t *hid = NULL;
        size_t hidn = 0;
        if (dwexpr_elf_build_id(h, &hid, &hidn) == DWEXPR_OK)
            FZ_CHECK(hidn > 0 && in_img(&m, hid, hidn), "head: build id outside the image");
        dwexpr_elf_free(h);
    }
    dwexpr_status s = dwexpr_elf_open_mem(buf, size, &e, &err);
    FZ_CHECK(s != DWEXPR_OK || hs == DWEXPR_OK || hs == DWEXPR_E_NOMEM,
             "open_mem opens what open_head refuses (%s)", dwexpr_status_name(hs));
    if (s) {
        FZ_CHECK(s == DWEXPR_E_ILL_FORMED || s == DWEXPR_E_TRUNCATED || s == DWEXPR_E_NOMEM,
                 "elf_open_mem: %s", dwexpr_status_name(s));
        FZ_CHECK(e == NULL, "failed open returns a handle");
        if (s != DWEXPR_E_NOMEM)
            FZ_CHECK(err.status == s && memchr(err.message, 0, sizeof err.message),
                     "error record: %s vs %s", dwexpr_status_name(err.status),
                     dwexpr_status_name(s));
        free(buf);
        return 0;
    }
    FZ_CHECK(e != NULL && size >= 52, "open OK without a handle or header (%zu bytes)", size);
    bool is64 = dwexpr_elf_is64(e);
    FZ_CHECK(is64 == (buf[4] == 2) && dwexpr_elf_big_endian(e) == (buf[5] == 2),
             "class / data encoding differ from e_ident");
    FZ_CHECK(!is64 || size >= 64, "ELF64 header in %zu bytes", size);

    /* sections: every header inside the image, data inside or E_TRUNCATED */
    size_t nsec = dwexpr_elf_section_count(e);
    FZ_CHECK(nsec <= size / (is64 ? 64 : 40), "%zu section headers in %zu bytes", nsec, size);
    const char *names[MAX_NAMES];
    size_t nnames = 0;
    uint64_t text_addr = 0, text_size = 0;
    for (size_t i = 0; i < nsec; i++) {
        dwexpr_elf_section sec;
        char what[48];
        snprintf(what, sizeof what, "section %zu", i);
        s = dwexpr_elf_get_section(e, i, &sec);
        check_section(&m, s, &sec, what);
        if (sec.name[0] && nnames < MAX_NAMES) {
            bool dup = false;
            for (size_t k = 0; k < nnames; k++)
                dup |= strcmp(names[k], sec.name) == 0;
            if (!dup)
                names[nnames++] = sec.name;
        }
        if (strcmp(sec.name, ".text") == 0 && !text_size) {
            text_addr = sec.addr;
            text_size = sec.size;
        }
    }
    {
        dwexpr_elf_section sec;
        FZ_CHECK(dwexpr_elf_get_section(e, nsec, &sec) == DWEXPR_E_NOT_FOUND,
                 "a section past the count");
    }
    /* by name: the first section of that name */
    static const char *const fixed[] = {".eh_frame", ".eh_frame_hdr", ".debug_frame", ".text",
                                        ".symtab", ".dynsym", ".got", ".note.gnu.build-id", ""};
    for (size_t k = 0; k < nnames + sizeof fixed / sizeof fixed[0]; k++) {
        const char *name = k < nnames ? names[k] : fixed[k - nnames];
        dwexpr_elf_section sec, first;
        memset(&sec, 0, sizeof sec);
        s = dwexpr_elf_find_section(e, name, &sec);
        if (s == DWEXPR_E_NOT_FOUND)
            continue;
        check_section(&m, s, &sec, name);
        FZ_CHECK(strcmp(sec.name, name) == 0, "find_section(%s) gives %s", name, sec.name);
        for (size_t i = 0; i < nsec; i++) {
            dwexpr_status s2 = dwexpr_elf_get_section(e, i, &first);
            if (strcmp(first.name, name) == 0) {
                FZ_CHECK(s2 == s && first.offset == sec.offset && first.type == sec.type &&
                             first.addr == sec.addr,
                         "find_section(%s) is not section %zu", name, i);
                break;
            }
        }
    }

    /* segments */
    size_t nseg = dwexpr_elf_segment_count(e);
    FZ_CHECK(nseg <= size / (is64 ? 56 : 32), "%zu program headers in %zu bytes", nseg, size);
    uint64_t pcs[4 + MAX_SEGS];
    size_t npcs = 0;
    if (text_size) {
        pcs[npcs++] = text_addr;
        pcs[npcs++] = text_addr + text_size / 2;
        pcs[npcs++] = text_addr + hash % text_size;
    }
    /* the low 32 bits of e_entry (little-endian) */
    pcs[npcs++] = (uint64_t)buf[24] | (uint64_t)buf[25] << 8 | (uint64_t)buf[26] << 16 |
                  (uint64_t)buf[27] << 24;
    size_t nload = 0;
    for (size_t i = 0; i < nseg; i++) {
        dwexpr_elf_segment seg;
        s = dwexpr_elf_get_segment(e, i, &seg);
        FZ_CHECK(s == DWEXPR_OK, "segment %zu: %s", i, dwexpr_status_name(s));
        if (seg.type != PT_LOAD || nload >= MAX_SEGS)
            continue;
        nload++;
        /* the load bias of a mapping of its first page */
        uint64_t start = 0x7f1234560000ull, bias = 0;
        s = dwexpr_elf_load_bias(e, start, seg.offset & ~(uint64_t)0xfff, 4096, &bias);
        FZ_CHECK(s == DWEXPR_OK, "load_bias for segment %zu: %s", i, dwexpr_status_name(s));
        /* reads by virtual address give the image's bytes */
        if (seg.filesz) {
            uint64_t in = (hash >> (i % 32)) % seg.filesz, addr = seg.vaddr + in;
            size_t len = (size_t)(seg.filesz - in < 24 ? seg.filesz - in : 24);
            uint8_t got[24], want[24];
            memset(got, 0, sizeof got);
            s = dwexpr_elf_read_vaddr(e, addr, got, len);
            bool ok = model_read(&m, e, addr, want, len);
            FZ_CHECK((s == DWEXPR_OK) == ok, "read_vaddr(0x%llx, %zu): %s, expected %s",
                     (unsigned long long)addr, len, dwexpr_status_name(s), ok ? "OK" : "failure");
            FZ_CHECK(s != DWEXPR_OK || memcmp(got, want, len) == 0,
                     "read_vaddr(0x%llx) bytes differ from the image", (unsigned long long)addr);
            FZ_CHECK(s == DWEXPR_OK || s == DWEXPR_E_NOT_FOUND, "read_vaddr: %s",
                     dwexpr_status_name(s));
        }
        pcs[npcs++] = seg.vaddr;
    }
    {
        dwexpr_elf_segment seg;
        FZ_CHECK(dwexpr_elf_get_segment(e, nseg, &seg) == DWEXPR_E_NOT_FOUND,
                 "a segment past the count");
    }

    /* notes: inside the image, the iterator moves forward */
    uint64_t it = 0;
    for (unsigned k = 0; k < MAX_NOTES; k++) {
        dwexpr_elf_note note;
        uint64_t before = it;
        s = dwexpr_elf_note_next(e, &it, &note);
        if (s == DWEXPR_E_NOT_FOUND)
            break;
        FZ_CHECK(s == DWEXPR_OK, "note_next: %s", dwexpr_status_name(s));
        FZ_CHECK(it > before, "note iterator 0x%llx -> 0x%llx", (unsigned long long)before,
                 (unsigned long long)it);
        FZ_CHECK(in_img(&m, note.name, note.namesz) && in_img(&m, note.desc, note.descsz),
                 "note %u outside the image", k);
    }
    /* the build id: inside the image */
    const uint8_t *bid = NULL;
    size_t bidn = 0;
    s = dwexpr_elf_build_id(e, &bid, &bidn);
    FZ_CHECK(s == DWEXPR_OK || s == DWEXPR_E_NOT_FOUND, "build_id: %s", dwexpr_status_name(s));
    FZ_CHECK(s || (bidn > 0 && in_img(&m, bid, bidn)), "build id outside the image");
    for (size_t i = 0; i < 16; i++) {
        dwexpr_elf_mapping map;
        s = dwexpr_elf_core_mapping(e, i, &map);
        if (s == DWEXPR_E_NOT_FOUND || s == DWEXPR_E_TRUNCATED)
            break;
        FZ_CHECK(s == DWEXPR_OK, "core_mapping: %s", dwexpr_status_name(s));
        check_name(&m, map.path, "NT_FILE path");
    }

    /* symbols: names inside the image */
    for (size_t i = 0; i < npcs && i < 6; i++) {
        const char *name = NULL;
        uint64_t off = 0;
        s = dwexpr_elf_symbolize(e, pcs[i], &name, &off);
        if (s == DWEXPR_E_NOT_FOUND)
            continue;
        FZ_CHECK(s == DWEXPR_OK, "symbolize: %s", dwexpr_status_name(s));
        check_name(&m, name, "symbol");
        FZ_CHECK(off <= pcs[i], "symbol offset 0x%llx for 0x%llx", (unsigned long long)off,
                 (unsigned long long)pcs[i]);
    }

    /* CFI sections through lib/cfi.c */
    uint64_t bias = (hash & 1) ? (hash & 0xfffff000ull) : 0;
    check_cfi(&m, e, DWEXPR_CFI_EH_FRAME, bias, pcs, npcs < 4 ? npcs : 4);
    check_cfi(&m, e, DWEXPR_CFI_DEBUG_FRAME, bias, pcs, npcs < 4 ? npcs : 4);

    dwexpr_elf_free(e);
    free(buf);
    return 0;
}
