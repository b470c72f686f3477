/* examples/dwexpr/repl_real.c: the REPL's real process images (built
 * with libdwarf and libunwind): `core CORE BINARY` / `attach PID BINARY`
 * open the stack through the libunwind adapter, bind the binary's DWARF
 * to it (libdwarf adapter), and `var NAME` evaluates a variable's
 * DW_AT_location in the selected frame, as a debugger does. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "repl.h"

/* fuzz/meson.build compiles the CLI's sources without the adapters'
 * dependencies: then there is nothing here */
#ifdef DWEXPR_HAVE_LIBUNWIND
#include <dwexpr/adapter_libdwarf.h>
#include <dwexpr/adapter_libunwind.h>

typedef struct real {
    dwexpr_unw *u;
    dwexpr_libdwarf *ld;
    dwexpr_libdwarf_binding *b;
    dwexpr_target t;
    uint64_t bias;            /* run-time minus link-time address of BINARY */
} real;

static void real_close(void *h)
{
    real *rl = h;
    if (!rl)
        return;
    dwexpr_libdwarf_binding_free(rl->b);
    dwexpr_libdwarf_close(rl->ld);
    dwexpr_unw_close(rl->u);
    free(rl);
}

/* The load bias of BINARY in the image: its mapping at file offset 0
 * (ELF ET_EXEC is not relocated). */
static uint64_t find_bias(const real *rl, const char *binary)
{
    const char *base = strrchr(binary, '/');
    base = base ? base + 1 : binary;
    for (size_t i = 0; i < dwexpr_unw_mapping_count(rl->u); i++) {
        const dwexpr_unw_mapping *m = dwexpr_unw_mapping_at(rl->u, i);
        const char *p = m->path ? strrchr(m->path, '/') : NULL;
        p = p ? p + 1 : m->path;
        if (!p || strcmp(p, base) != 0)
            continue;
        dwexpr_elf *elf;
        uint64_t bias = 0;
        if (dwexpr_elf_open_file(m->path, &elf, NULL) != DWEXPR_OK)
            continue;
        if (dwexpr_elf_load_bias(elf, m->start, m->file_offset, 4096, &bias) != DWEXPR_OK)
            bias = 0;
        if (dwexpr_elf_type(elf) == 2)
            bias = 0;
        dwexpr_elf_free(elf);
        return bias;
    }
    return 0;
}

static void *real_open(const char *core, int pid, const char *binary, char *err, size_t cap)
{
    real *rl = calloc(1, sizeof *rl);
    dwexpr_error e;
    memset(&e, 0, sizeof e);
    if (!rl) {
        snprintf(err, cap, "out of memory");
        return NULL;
    }
    dwexpr_status s = core ? dwexpr_unw_open_core(core, binary, 0, &rl->u, &e)
                           : dwexpr_unw_open_pid(pid, 0, &rl->u, &e);
    if (s != DWEXPR_OK) {
        snprintf(err, cap, "cannot open %s: %s", core ? core : "the process",
                 e.message[0] ? e.message : dwexpr_strerror(s));
        goto fail;
    }
    if ((s = dwexpr_libdwarf_open(binary, 0, &rl->ld, &e)) != DWEXPR_OK) {
        snprintf(err, cap, "cannot read the DWARF of %s: %s", binary,
                 e.message[0] ? e.message : dwexpr_strerror(s));
        goto fail;
    }
    rl->bias = find_bias(rl, binary);
    dwexpr_libdwarf_set_load_bias(rl->ld, rl->bias);
    if (dwexpr_libdwarf_target(rl->ld, dwexpr_unw_target(), rl->u, &rl->t, &rl->b) != DWEXPR_OK) {
        snprintf(err, cap, "cannot bind the DWARF to the process image");
        goto fail;
    }
    return rl;
fail:
    real_close(rl);
    return NULL;
}

static size_t real_frames(void *h)
{
    return dwexpr_unw_frame_count(((real *)h)->u);
}

/* The link-time pc location lists and scopes are matched at: a caller
 * frame holds a return address, so pc - 1 (DWARF 5 2.6.2 note). */
static uint64_t link_pc(const real *rl, size_t frame)
{
    uint64_t pc = dwexpr_unw_frame_at(rl->u, frame)->pc - rl->bias;
    return frame ? pc - 1 : pc;
}

static void real_frame_desc(void *h, size_t frame, char *buf, size_t cap)
{
    real *rl = h;
    const dwexpr_unw_frame *f = dwexpr_unw_frame_at(rl->u, frame);
    const dwexpr_libdwarf_scope *s = dwexpr_libdwarf_scope_at(rl->ld, link_pc(rl, frame));
    const dwexpr_libdwarf_scope *fn = s ? dwexpr_libdwarf_scope_function(s) : NULL;
    snprintf(buf, cap, "#%zu %s pc 0x%" PRIx64 " sp 0x%" PRIx64 "%s", frame,
             fn && fn->name ? fn->name : "??", f->pc, f->sp, f->signal_frame ? " (signal)" : "");
}

static int real_var(void *h, size_t frame, const char *name, dwexpr_ctx *ctx,
                    const dwexpr_eval_params *hook, dwexpr_result *out, dwexpr_error *e,
                    uint64_t *bit_size, char *what, size_t cap)
{
    real *rl = h;
    uint64_t pc = link_pc(rl, frame);
    const dwexpr_libdwarf_scope *at = dwexpr_libdwarf_scope_at(rl->ld, pc);
    const dwexpr_libdwarf_var *v = NULL;
    for (size_t i = 0; i < dwexpr_libdwarf_var_count(rl->ld); i++) {
        const dwexpr_libdwarf_var *c = dwexpr_libdwarf_var_get(rl->ld, i);
        if (c->name && strcmp(c->name, name) == 0 &&
            (at ? dwexpr_libdwarf_var_visible(c, at)
                : !c->scope || c->scope->kind == DWEXPR_LIBDWARF_SCOPE_UNIT))
            v = c;     /* later DIEs are deeper: the innermost wins */
    }
    if (!v) {
        snprintf(what, cap, "no variable %s in scope in frame %zu (pc 0x%" PRIx64 ")", name, frame,
                 pc);
        return -1;
    }
    snprintf(what, cap, "%s %s: %s (%" PRIu64 " bits), frame %zu", v->is_param ? "param" : "variable",
             name, v->type_name ? v->type_name : "?", v->bit_size, frame);
    *bit_size = v->bit_size;
    dwexpr_eval_params where = *hook;
    where.frame = (uint32_t)frame;
    where.has_pc = true;
    where.pc = pc;
    where.ctx |= DWEXPR_CTX_FRAME;
    dwexpr_libdwarf_binding_set_pc(rl->b, (uint32_t)frame, pc);
    return dwexpr_libdwarf_eval_location(rl->b, ctx, v->unit, v->die, &where, out, e) ==
                   DWEXPR_OK ? 0 : 1;
}

static const dwexpr_target *real_target(void *h, void **user)
{
    real *rl = h;
    *user = rl->b;
    return &rl->t;
}

const repl_real_ops repl_real_libunwind = {
    real_open, real_close, real_frames, real_frame_desc, real_var, real_target,
};
#else
typedef int repl_real_unavailable;
#endif
