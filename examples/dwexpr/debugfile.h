/* examples/dwexpr/debugfile.h: separate debug files, found as GDB finds
 * them (GDB manual, "Debugging Information in Separate Files"): a file
 * stripped of its DWARF (strip -g) names its debug file by build id
 * (.note.gnu.build-id) and by .gnu_debuglink (a file name and the CRC-32
 * of that file). libdwarf 20210528 has no lookup that follows GDB's
 * directories and checks, so `dwexpr vars` uses this one. */
#ifndef DWEXPR_CLI_DEBUGFILE_H
#define DWEXPR_CLI_DEBUGFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <dwexpr.h>

/* GDB's default debug-file-directory. */
#define DEBUGFILE_DEFAULT_DIRS "/usr/lib/debug"

/* Whether image ELF holds DWARF of its own (a .debug_info section with
 * contents). */
bool debugfile_has_dwarf(const dwexpr_elf *elf);

/* The separate debug file of the file PATH (whose image is ELF), looked
 * for in GDB 13's order: by build id, DIR/.build-id/xx/yyyy.debug for
 * each directory DIR of DIRS (':'-separated, GDB's debug-file-directory;
 * the file's own build id must be the same); then by the .gnu_debuglink
 * name N, PATHDIR/N, PATHDIR/.debug/N and DIR/PATHDIR/N for each DIR
 * (PATHDIR: the directory of PATH, then of its real path when PATH is a
 * symbolic link; the file's CRC-32 must be the one the link records).
 * PATH itself is never its own debug file. Returns the path (malloc'ed),
 * or NULL with WHY (CAP bytes) saying what was looked for. */
char *debugfile_find(const char *path, const dwexpr_elf *elf, const char *dirs, char *why,
                     size_t cap);

#endif
