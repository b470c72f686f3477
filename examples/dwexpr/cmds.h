/* examples/dwexpr/cmds.h: CLI commands that live in their own files and
 * are dispatched from main.c: `dwexpr frames` (cmd_frames.c) and
 * `dwexpr cfi` (cmd_cfi.c). Each takes the arguments after its name and
 * returns the process exit status (0 ok, 1 failure, 2 bad usage). */
#ifndef DWEXPR_CLI_CMDS_H
#define DWEXPR_CLI_CMDS_H

/* dwexpr frames --core CORE [--json] BINARY | --pid PID [--json] */
int cmd_frames(int argc, char **argv);
/* dwexpr cfi BINARY [--pc ADDR] [--json] */
int cmd_cfi(int argc, char **argv);

#ifdef DWEXPR_HAVE_LIBUNWIND
#include <jansson.h>
#include <dwexpr.h>
#include <dwexpr/adapter_libunwind.h>

/* What cmd_frames.c shares with `dwexpr vars` (cmd_vars.c). */

/* One mapped ELF file with its CFI. */
typedef struct frames_module {
    char *path;
    dwexpr_elf *elf;
    uint64_t bias, lo, hi;
    dwexpr_cfi *eh, *dbg;
    dwexpr_elf *symfile;         /* its separate debug file (frames_func_name), or NULL */
    bool symfile_tried;
    uint8_t *image;              /* the bytes ELF reads when no file holds them (the vDSO's) */
} frames_module;

typedef struct frames_modules {
    frames_module *m;
    size_t n;
    const char *debug_dirs;      /* where debug files are looked for (NULL: the default) */
} frames_modules;

/* Open every distinct file of U's mappings and its CFI (files that cannot
 * be read are skipped: their frames cannot be unwound). */
void frames_load_modules(dwexpr_unw *u, const dwexpr_arch *arch, frames_modules *ms);
void frames_free_modules(frames_modules *ms);
/* The function symbol holding ADDR ("??" if none) into BUF: the mapped
 * file's, else its separate debug file's (a static function of a library
 * stripped of .symtab, as GDB finds it with the debug file installed). */
void frames_func_name(frames_modules *ms, uint64_t addr, char *buf, size_t cap);
/* dwexpr's CFI unwinder over U (frame 0 and memory from libunwind's
 * target) with the CFI of MS (.eh_frame first, then .debug_frame), at
 * most MAX frames. */
dwexpr_status frames_unwinder_new(dwexpr_unw *u, const dwexpr_arch *arch,
                                  const frames_modules *ms, uint32_t max, dwexpr_unwinder **out);
/* --core CORE [--thread TID]: U for the core's thread TID (0: its first),
 * or U for process PID (TID must be 0: the thread is the --pid given).
 * U's warning (dwexpr_unw_warning: a core of another program) goes to
 * stderr. */
dwexpr_status frames_open(const char *core, const char *binary, int pid, uint64_t tid,
                          uint32_t max, dwexpr_unw **u, dwexpr_error *err);
/* The JSON members "thread" (the id of the thread U reads) and "threads"
 * (the core's, in its order) and U's warning ("warnings": [TEXT]) into
 * TOP; TOP NULL (the human form): when
 * the core has more than one thread, the line "thread TID (threads: A B
 * ...)" on stdout. */
void frames_threads_out(dwexpr_unw *u, json_t *top);
#endif

#endif
