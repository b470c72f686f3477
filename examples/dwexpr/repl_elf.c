/* examples/dwexpr/repl_elf.c: the REPL's `var` command's look-up (built
 * with libdwarf): a variable's location expression at a pc, through the
 * libdwarf adapter's listing of variables, scopes and location lists. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <dwexpr/adapter_libdwarf.h>

#include "repl.h"

/* DW_AT_frame_base (DWARF 5 Table 7.5). */
#define AT_frame_base 0x40

static uint8_t *copy_bytes(const uint8_t *b, size_t n)
{
    uint8_t *d = malloc(n ? n : 1);
    if (d && n)
        memcpy(d, b, n);
    return d;
}

int repl_elf_var(const char *binary, const char *name, const uint64_t *pc, repl_var *out,
                 char *err, size_t errcap)
{
    dwexpr_libdwarf *ld = NULL;
    dwexpr_error e;
    memset(&e, 0, sizeof e);
    memset(out, 0, sizeof *out);
    if (dwexpr_libdwarf_open(binary, 0, &ld, &e) != DWEXPR_OK) {
        snprintf(err, errcap, "cannot read the DWARF of %s: %s", binary,
                 e.message[0] ? e.message : dwexpr_strerror(e.status));
        return -1;
    }
    const dwexpr_libdwarf_scope *at = pc ? dwexpr_libdwarf_scope_at(ld, *pc) : NULL;
    const dwexpr_libdwarf_var *v = NULL;
    size_t seen = 0;
    for (size_t i = 0; i < dwexpr_libdwarf_var_count(ld); i++) {
        const dwexpr_libdwarf_var *c = dwexpr_libdwarf_var_get(ld, i);
        if (!c->name || strcmp(c->name, name) != 0)
            continue;
        seen++;
        /* with a pc: the innermost visible one (later DIEs are deeper);
         * a global is visible also where no function is */
        if (!pc || (at ? dwexpr_libdwarf_var_visible(c, at)
                       : !c->scope || c->scope->kind == DWEXPR_LIBDWARF_SCOPE_UNIT))
            v = c;
        if (!pc)
            break;
    }
    int rc = -1;
    if (!v) {
        if (seen && pc)
            snprintf(err, errcap, "%s is not in scope at 0x%" PRIx64 " (%zu variables of that name)",
                     name, *pc, seen);
        else
            snprintf(err, errcap, "no variable or parameter named %s in %s", name, binary);
        goto out;
    }
    const dwexpr_libdwarf_scope *fn = dwexpr_libdwarf_scope_function(v->scope);
    out->unit = dwexpr_libdwarf_unit_get(ld, v->unit)->unit;
    snprintf(out->arch, sizeof out->arch, "%s", dwexpr_libdwarf_arch_name(ld));
    out->bit_size = v->bit_size;
    int n = snprintf(out->what, sizeof out->what, "%s %s: %s (%" PRIu64 " bits)%s%s",
                     v->is_param ? "param" : "variable", name,
                     v->type_name ? v->type_name : "?", v->bit_size, fn ? " in " : "",
                     fn && fn->name ? fn->name : "");
    if (v->loc.kind == DWEXPR_LIBDWARF_ATTR_EXPR) {
        out->expr = copy_bytes(v->loc.data, v->loc.len);
        out->len = v->loc.len;
    } else if (v->loc.kind == DWEXPR_LIBDWARF_ATTR_LIST) {
        const dwexpr_loclist_entry *pick = NULL;
        if (!pc) {
            snprintf(err, errcap, "%s has a location list: give a pc (var BINARY %s PC)", name,
                     name);
            goto out;
        }
        /* DWARF 5 2.6.2: the bounded entry holding the pc, else the
         * default; where several hold it the object is in several places,
         * which one expression cannot say: the first is taken, and said */
        size_t holding = 0;
        for (size_t i = 0; i < v->loc.count; i++)
            if (!v->loc.entries[i].is_default && v->loc.entries[i].low <= *pc &&
                *pc < v->loc.entries[i].high && holding++ == 0)
                pick = &v->loc.entries[i];
        for (size_t i = 0; i < v->loc.count && !pick; i++)
            if (v->loc.entries[i].is_default)
                pick = &v->loc.entries[i];
        if (!pick) {
            snprintf(err, errcap, "%s: no location list entry holds 0x%" PRIx64
                                  " (the variable is optimized out there)", name, *pc);
            goto out;
        }
        out->expr = copy_bytes(pick->expr, pick->expr_len);
        out->len = pick->expr_len;
        if (n > 0 && (size_t)n < sizeof out->what) {
            if (pick->is_default)
                snprintf(out->what + n, sizeof out->what - (size_t)n, ", default list entry");
            else
                snprintf(out->what + n, sizeof out->what - (size_t)n,
                         ", list entry [0x%" PRIx64 ", 0x%" PRIx64 ")%s", pick->low, pick->high,
                         holding > 1 ? " (the first of several entries holding the pc: the "
                                       "others are further places)" : "");
        }
    } else {
        snprintf(err, errcap, "%s has no location expression (%s)", name,
                 v->loc.kind == DWEXPR_LIBDWARF_ATTR_CONST ? "a DW_AT_const_value"
                                                          : "optimized out");
        goto out;
    }
    /* the frame base belongs to the concrete function, also for the
     * variables of calls inlined into it */
    const dwexpr_libdwarf_scope *real = v->scope;
    while (real && real->kind != DWEXPR_LIBDWARF_SCOPE_FUNCTION)
        real = real->parent;
    if (real) {
        dwexpr_libdwarf_attr fb;
        if (dwexpr_libdwarf_attr_get(ld, real->unit, real->die, AT_frame_base, &fb, NULL) ==
                DWEXPR_OK && fb.kind == DWEXPR_LIBDWARF_ATTR_EXPR) {
            out->frame_base = copy_bytes(fb.data, fb.len);
            out->fb_len = fb.len;
        }
    }
    rc = out->expr ? 0 : -1;
    if (rc)
        snprintf(err, errcap, "out of memory");
out:
    dwexpr_libdwarf_close(ld);
    return rc;
}
