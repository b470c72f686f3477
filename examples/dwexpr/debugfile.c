/* examples/dwexpr/debugfile.c: separate debug files as GDB 13 finds them
 * (gdb/build-id.c build_id_to_debug_bfd, gdb/symfile.c
 * find_separate_debug_file_by_debuglink): by build id under the debug
 * directories, then by .gnu_debuglink next to the file, in its .debug
 * subdirectory and under the debug directories; each candidate checked
 * as GDB checks it (same build id; same CRC-32; not the file itself). */
#define _XOPEN_SOURCE 700 /* realpath, lstat */
#include "debugfile.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SHT_NOBITS 8

bool debugfile_has_dwarf(const dwexpr_elf *elf)
{
    static const char *const names[] = {".debug_info", ".zdebug_info"};
    for (size_t i = 0; i < 2; i++) {
        dwexpr_elf_section s;
        if (dwexpr_elf_find_section(elf, names[i], &s) == DWEXPR_OK && s.type != SHT_NOBITS &&
            s.size > 0)
            return true;
    }
    return false;
}

/* A 4-byte word of ELF's byte order at P. */
static uint32_t word(const dwexpr_elf *elf, const uint8_t *p)
{
    if (dwexpr_elf_big_endian(elf))
        return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
    return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

/* The build id of ELF (dwexpr_elf_build_id). */
static bool build_id(const dwexpr_elf *elf, const uint8_t **id, size_t *len)
{
    return dwexpr_elf_build_id(elf, id, len) == DWEXPR_OK;
}

/* CRC-32 of the file PATH as GDB's gnu_debuglink_crc32 computes it (the
 * ISO 3309 / zlib polynomial); false if it cannot be read. */
static bool file_crc32(const char *path, uint32_t *out)
{
    static uint32_t table[256];
    if (!table[1])
        for (uint32_t i = 0; i < 256; i++) {
            uint32_t c = i;
            for (int k = 0; k < 8; k++)
                c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
            table[i] = c;
        }
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    uint32_t crc = 0xffffffffu;
    unsigned char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        for (size_t i = 0; i < n; i++)
            crc = table[(crc ^ buf[i]) & 0xff] ^ (crc >> 8);
    bool ok = !ferror(f);
    fclose(f);
    *out = ~crc;
    return ok;
}

/* Whether PATH is a regular file and not the file SELF (GDB never takes
 * a file as its own debug file). */
static bool other_file(const char *path, const struct stat *self)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
           !(st.st_dev == self->st_dev && st.st_ino == self->st_ino);
}

/* CAND, malloc'ed, when it is a debug file with build id ID (N bytes). */
static char *by_build_id(const char *cand, const uint8_t *id, size_t n, const struct stat *self)
{
    if (!other_file(cand, self))
        return NULL;
    dwexpr_elf *elf;
    dwexpr_error e;
    if (dwexpr_elf_open_file(cand, &elf, &e))
        return NULL;
    const uint8_t *have;
    size_t len;
    bool same = build_id(elf, &have, &len) && len == n && memcmp(have, id, n) == 0;
    dwexpr_elf_free(elf);
    return same ? strdup(cand) : NULL;
}

/* CAND, malloc'ed, when it is a file whose CRC-32 is CRC. */
static char *by_crc(const char *cand, uint32_t crc, const struct stat *self)
{
    uint32_t have;
    if (!other_file(cand, self) || !file_crc32(cand, &have) || have != crc)
        return NULL;
    return strdup(cand);
}

/* The next directory of the ':'-separated list at *DIRS into BUF (CAP
 * bytes), advancing *DIRS; false at the end. Empty entries are skipped. */
static bool next_dir(const char **dirs, char *buf, size_t cap)
{
    while (**dirs) {
        const char *s = *dirs, *colon = strchr(s, ':');
        size_t n = colon ? (size_t)(colon - s) : strlen(s);
        *dirs = colon ? colon + 1 : s + n;
        if (n == 0)
            continue;
        if (n >= cap)
            n = cap - 1;
        memcpy(buf, s, n);
        buf[n] = 0;
        return true;
    }
    return false;
}

/* The debug file named NAME with CRC-32 CRC for a file in directory DIR
 * (absolute, with a trailing '/'): DIR/NAME, DIR/.debug/NAME, then
 * DEBUGDIR/DIR/NAME for each directory of DIRS (GDB's
 * find_separate_debug_file). */
static char *in_dirs(const char *dir, const char *name, uint32_t crc, const char *dirs,
                     const struct stat *self)
{
    char cand[3 * PATH_MAX], dd[PATH_MAX];
    char *found;
    snprintf(cand, sizeof cand, "%s%s", dir, name);
    if ((found = by_crc(cand, crc, self)))
        return found;
    snprintf(cand, sizeof cand, "%s.debug/%s", dir, name);
    if ((found = by_crc(cand, crc, self)))
        return found;
    for (const char *d = dirs; next_dir(&d, dd, sizeof dd);) {
        snprintf(cand, sizeof cand, "%s/%s%s", dd, dir, name);
        if ((found = by_crc(cand, crc, self)))
            return found;
    }
    return NULL;
}

/* The directory of PATH, absolute (relative to the working directory
 * when PATH is relative), with a trailing '/', into BUF. */
static void dir_of(const char *path, char *buf, size_t cap)
{
    char cwd[PATH_MAX] = "";
    if (path[0] != '/' && !getcwd(cwd, sizeof cwd))
        cwd[0] = 0;
    const char *slash = strrchr(path, '/');
    int n = slash ? (int)(slash - path + 1) : 0;
    if (path[0] == '/')
        snprintf(buf, cap, "%.*s", n, path);
    else
        snprintf(buf, cap, "%s/%.*s", cwd, n, path);
}

char *debugfile_find(const char *path, const dwexpr_elf *elf, const char *dirs, char *why,
                     size_t cap)
{
    struct stat self;
    if (stat(path, &self) != 0) {
        snprintf(why, cap, "%s cannot be read", path);
        return NULL;
    }
    if (!dirs)
        dirs = DEBUGFILE_DEFAULT_DIRS;
    char *found = NULL, dd[PATH_MAX], cand[PATH_MAX + 128];
    /* by build id: DEBUGDIR/.build-id/xx/yyyy.debug */
    const uint8_t *id;
    size_t n;
    bool have_id = build_id(elf, &id, &n) && n >= 2;
    if (have_id) {
        for (const char *d = dirs; !found && next_dir(&d, dd, sizeof dd);) {
            int k = snprintf(cand, sizeof cand, "%s/.build-id/%02x/", dd, id[0]);
            for (size_t i = 1; i < n && k > 0 && (size_t)k + 8 < sizeof cand; i++)
                k += snprintf(cand + k, sizeof cand - (size_t)k, "%02x", id[i]);
            snprintf(cand + k, sizeof cand - (size_t)k, ".debug");
            found = by_build_id(cand, id, n, &self);
        }
    }
    if (found)
        return found;
    /* by .gnu_debuglink: a file name, padding to 4 bytes, its CRC-32 */
    dwexpr_elf_section s;
    const char *name = NULL;
    uint32_t crc = 0;
    if (dwexpr_elf_find_section(elf, ".gnu_debuglink", &s) == DWEXPR_OK && s.data && s.size > 4) {
        const char *nul = memchr(s.data, 0, (size_t)s.size);
        size_t at = nul ? ((size_t)(nul - (const char *)s.data) + 4) & ~(size_t)3 : SIZE_MAX;
        if (nul && nul != (const char *)s.data && at + 4 <= s.size) {
            name = (const char *)s.data;
            crc = word(elf, s.data + at);
        }
    }
    if (name) {
        char dir[PATH_MAX], real[PATH_MAX];
        dir_of(path, dir, sizeof dir);
        found = in_dirs(dir, name, crc, dirs, &self);
        /* a symbolic link: again from the directory of the file it names */
        struct stat ls;
        if (!found && lstat(path, &ls) == 0 && S_ISLNK(ls.st_mode) && realpath(path, real)) {
            char rdir[PATH_MAX];
            dir_of(real, rdir, sizeof rdir);
            if (strcmp(rdir, dir) != 0)
                found = in_dirs(rdir, name, crc, dirs, &self);
        }
    }
    if (found)
        return found;
    if (!have_id && !name)
        snprintf(why, cap, "%s has no DWARF, and no build id or .gnu_debuglink to find a debug "
                 "file by", path);
    else if (!name)
        snprintf(why, cap, "%s has no DWARF, and no debug file with its build id is under %s",
                 path, dirs[0] ? dirs : "(no directory)");
    else
        snprintf(why, cap,
                 "%s has no DWARF, and no debug file %s with its CRC is next to it, in .debug/ "
                 "or under %s%s",
                 path, name, dirs[0] ? dirs : "(no directory)",
                 have_id ? " (nor by build id)" : "");
    return NULL;
}
