/* dwexpr/elf.h: a small bounds-checked ELF32/ELF64 reader (libc only):
 * sections by name, program headers, notes (core files' NT_FILE and
 * NT_PRSTATUS), function symbols, and the CFI sections as
 * dwexpr_cfi_section descriptions. */
#ifndef DWEXPR_ELF_H
#define DWEXPR_ELF_H

#include "cfi.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct dwexpr_elf dwexpr_elf;

typedef struct dwexpr_elf_section {
    const char *name;              /* inside the image; "" if unnamed */
    uint32_t type;                 /* SHT_* */
    uint64_t flags, addr, offset, size, entsize;
    uint32_t link;
    const uint8_t *data;           /* NULL for SHT_NOBITS */
} dwexpr_elf_section;

typedef struct dwexpr_elf_segment {
    uint32_t type, flags;          /* PT_*, PF_* */
    uint64_t offset, vaddr, filesz, memsz, align;
} dwexpr_elf_segment;

typedef struct dwexpr_elf_note {
    uint32_t type;                 /* NT_* */
    const char *name;              /* not necessarily NUL-terminated: namesz bytes */
    uint32_t namesz;
    const uint8_t *desc;
    uint64_t descsz;
} dwexpr_elf_note;

/* Parse SIZE bytes at DATA (borrowed). Checks the header, and that every
 * section and segment header lies inside the image; sections whose data
 * does not are reported by dwexpr_elf_get_section with E_TRUNCATED. */
DWEXPR_API dwexpr_status dwexpr_elf_open_mem(const uint8_t *data, size_t size, dwexpr_elf **out,
                                             dwexpr_error *err);
/* dwexpr_elf_open_mem of the first SIZE bytes of an ELF file only (its
 * headers, as a core holds the first page of each mapped file): section
 * headers that lie past them are dropped (no sections); the program
 * headers must be there. For the notes of a loaded image (its build id). */
DWEXPR_API dwexpr_status dwexpr_elf_open_head(const uint8_t *data, size_t size, dwexpr_elf **out,
                                              dwexpr_error *err);
/* Open the file PATH and parse it: on POSIX systems a regular file is
 * mapped read-only (shared with the page cache: a core's bytes are read
 * where they are wanted, and a sparse core of terabytes costs nothing;
 * the file must not shrink while open), anything else is read into
 * memory owned by the handle. */
DWEXPR_API dwexpr_status dwexpr_elf_open_file(const char *path, dwexpr_elf **out,
                                              dwexpr_error *err);
DWEXPR_API void dwexpr_elf_free(dwexpr_elf *elf);

/* The image's bytes (*SIZE of them): the file's, as opened. */
DWEXPR_API const uint8_t *dwexpr_elf_image(const dwexpr_elf *elf, size_t *size);
DWEXPR_API bool dwexpr_elf_is64(const dwexpr_elf *elf);
DWEXPR_API bool dwexpr_elf_big_endian(const dwexpr_elf *elf);
/* e_type (ET_EXEC 2, ET_DYN 3, ET_CORE 4) and e_machine (EM_X86_64 62). */
DWEXPR_API uint16_t dwexpr_elf_type(const dwexpr_elf *elf);
DWEXPR_API uint16_t dwexpr_elf_machine(const dwexpr_elf *elf);

DWEXPR_API size_t dwexpr_elf_section_count(const dwexpr_elf *elf);
DWEXPR_API dwexpr_status dwexpr_elf_get_section(const dwexpr_elf *elf, size_t i,
                                            dwexpr_elf_section *out);
/* The first section named NAME: E_NOT_FOUND if none. */
DWEXPR_API dwexpr_status dwexpr_elf_find_section(const dwexpr_elf *elf, const char *name,
                                                 dwexpr_elf_section *out);
DWEXPR_API size_t dwexpr_elf_segment_count(const dwexpr_elf *elf);
DWEXPR_API dwexpr_status dwexpr_elf_get_segment(const dwexpr_elf *elf, size_t i,
                                            dwexpr_elf_segment *out);
/* Notes of every PT_NOTE segment (or SHT_NOTE section when there are no
 * program headers), in order: *ITER starts at 0. E_NOT_FOUND at the end. */
DWEXPR_API dwexpr_status dwexpr_elf_note_next(const dwexpr_elf *elf, uint64_t *iter,
                                              dwexpr_elf_note *out);

/* The GNU build id of the image (its NT_GNU_BUILD_ID note; the note
 * sections first, a separate debug file's program headers need not
 * describe its contents, else the PT_NOTE segments): *ID (inside the
 * image), *LEN bytes. E_NOT_FOUND when it has none. */
DWEXPR_API dwexpr_status dwexpr_elf_build_id(const dwexpr_elf *elf, const uint8_t **id,
                                             size_t *len);

/* The CFI section FORMAT of the image, ready for dwexpr_cfi_open: data,
 * addresses (section address, .eh_frame_hdr, .text and .got bases) and
 * BIAS. E_NOT_FOUND if the image has no such section. */
DWEXPR_API dwexpr_status dwexpr_elf_cfi_section(const dwexpr_elf *elf, dwexpr_cfi_format format,
                                                uint64_t bias, const dwexpr_arch *arch,
                                                dwexpr_cfi_section *out);

/* The function symbol (.symtab, else .dynsym) holding ADDR (unbiased):
 * *NAME (inside the image) and *OFFSET from its start. E_NOT_FOUND. */
DWEXPR_API dwexpr_status dwexpr_elf_symbolize(const dwexpr_elf *elf, uint64_t addr,
                                              const char **name, uint64_t *offset);

/* Load bias of a mapping of this image: the PT_LOAD whose page-aligned
 * file offset is FILE_OFFSET, mapped at START. E_NOT_FOUND. */
DWEXPR_API dwexpr_status dwexpr_elf_load_bias(const dwexpr_elf *elf, uint64_t start,
                                              uint64_t file_offset, uint64_t page_size,
                                              uint64_t *bias);

/* Read LEN bytes at virtual address ADDR from the PT_LOAD segments' file
 * contents (a core file's memory). E_NOT_FOUND when some byte is not in
 * a segment's file part. */
DWEXPR_API dwexpr_status dwexpr_elf_read_vaddr(const dwexpr_elf *elf, uint64_t addr, void *buf,
                                               size_t len);

/* One file mapping of a core's NT_FILE note (Linux). */
typedef struct dwexpr_elf_mapping {
    uint64_t start, end, file_offset; /* bytes */
    const char *path;                 /* NUL-terminated, inside the image */
} dwexpr_elf_mapping;
/* Mapping I of the NT_FILE note; E_NOT_FOUND past the last one. */
DWEXPR_API dwexpr_status dwexpr_elf_core_mapping(const dwexpr_elf *elf, size_t i,
                                                 dwexpr_elf_mapping *out);

#ifdef __cplusplus
}
#endif
#endif
