/* adapters/libdwarf/tailcall.c: what a call site calls, and whether a
 * function may reach itself through tail calls (a function that ends in a
 * jump to another: DW_TAG_call_site with DW_AT_call_tail_call, GNU
 * DW_AT_GNU_tail_call). GDB takes an entry value from a call site only
 * when the call site calls the frame's function and that function cannot
 * reach itself by tail calls (dwarf_expr_reg_to_entry_parameter,
 * func_verify_no_selftailcall in gdb/dwarf2/loc.c). The rules, as GDB 13
 * applies them:
 *
 * - A call site's target is DW_AT_call_target (GNU:
 *   DW_AT_GNU_call_site_target) when present, else DW_AT_call_origin /
 *   DW_AT_abstract_origin. An expression needs the caller's registers
 *   (unknown without a frame). A reference to a declaration is the
 *   function of its linkage name (else its name); to a DIE with
 *   DW_AT_ranges, every range's start; else its low pc. A DIE without an
 *   address (an abstract instance) names no target.
 * - A function's tail calls are its tail call sites only when it lists
 *   all its calls (DW_AT_call_all_calls, DW_AT_call_all_tail_calls, GNU
 *   forms; through DW_AT_abstract_origin / DW_AT_specification); else it
 *   has none.
 * - A target address must be a function's entry (its one range's start,
 *   else its first DW_AT_ranges entry) for the search to go on through
 *   its tail calls. */
#include <stdlib.h>

#include "ld_int.h"
#include "services.h"

/* Functions one self tail call check visits at most (GDB has no bound;
 * past it the function is taken to reach itself). */
enum { MAX_SELF = 10000 };

uint64_t ld_function_entry(const ld_scope *s)
{
    return s && s->pub.nranges ? s->pub.ranges[0].low : 0;
}

const ld_scope *ld_function_entered(dwexpr_libdwarf *ld, uint64_t addr)
{
    void *known = ld_map_get(&ld->fn_by_entry, addr, 0);
    if (known)
        return known == LD_NO_FUNCTION ? NULL : known;
    const ld_scope *fn = ld_function_at(ld, addr);
    if (!fn || !fn->pub.nranges || ld_function_entry(fn) != addr)
        fn = NULL;
    ld_map_put(&ld->fn_by_entry, addr, 0, fn ? (void *)(uintptr_t)fn : LD_NO_FUNCTION);
    return fn;
}

/* The function (DW_TAG_subprogram) holding scope S: through inlined calls
 * and blocks. */
static const ld_scope *holder(const ld_scope *s)
{
    while (s && s->pub.kind != DWEXPR_LIBDWARF_SCOPE_FUNCTION)
        s = (const ld_scope *)s->pub.parent;
    return s;
}

/* FNV-1a of a name. */
static uint64_t name_hash(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
    return h;
}

/* The function scopes by DIE, made on first use. */
static void fn_dies(dwexpr_libdwarf *ld)
{
    if (ld->fn_dies_done)
        return;
    ld->fn_dies_done = true;
    ld_scope *const *all = ld->scopes.v;
    for (size_t i = 0; i < ld->scopes.n; i++)
        if (all[i]->pub.kind == DWEXPR_LIBDWARF_SCOPE_FUNCTION)
            ld_map_put(&ld->fn_by_die, all[i]->file, all[i]->pub.die, all[i]);
}

/* The function scopes by linkage name (else DWARF name), made on first
 * use: what GDB's minimal symbols answer for a declaration's name. */
static void fn_names(dwexpr_libdwarf *ld)
{
    if (ld->fn_names_done)
        return;
    ld->fn_names_done = true;
    ld_scope *const *all = ld->scopes.v;
    for (size_t i = 0; i < ld->scopes.n; i++) {
        const ld_scope *s = all[i];
        if (s->pub.kind != DWEXPR_LIBDWARF_SCOPE_FUNCTION || !s->pub.nranges)
            continue;
        const char *n = ld_scope_linkage(ld, s);
        if (!n)
            n = s->pub.name;
        if (!n)
            continue;
        uint64_t h = name_hash(n), k = 0;
        while (ld_map_get(&ld->fn_by_name, h, k))
            k++;
        ld_map_put(&ld->fn_by_name, h, k, (void *)(uintptr_t)s);
    }
}

/* The first function called NAME (linkage name, else DWARF name). */
static const ld_scope *fn_named(dwexpr_libdwarf *ld, const char *name)
{
    fn_names(ld);
    uint64_t h = name_hash(name);
    const ld_scope *s;
    for (uint64_t k = 0; (s = ld_map_get(&ld->fn_by_name, h, k)) != NULL; k++) {
        const char *n = ld_scope_linkage(ld, s);
        if (!n)
            n = s->pub.name;
        if (n && strcmp(n, name) == 0)
            return s;
    }
    return NULL;
}

/* The target of CS's reference: the function scope, or NULL. */
static const ld_scope *ref_target(dwexpr_libdwarf *ld, const ld_callsite *cs, bool *decl)
{
    size_t file = ld_unit_at(ld, cs->unit)->file;
    Dwarf_Die d;
    *decl = false;
    if (ld_offdie(ld, file, cs->target_die, &d, NULL) != DWEXPR_OK)
        return NULL;
    uint64_t spec;
    const char *name = NULL;
    /* GDB's die_is_declaration: DW_AT_declaration without
     * DW_AT_specification */
    if (ld_die_flag(ld, file, d, DW_AT_declaration) &&
        !ld_die_ref(ld, file, d, DW_AT_specification, &spec)) {
        *decl = true;
        name = ld_die_string(ld, file, d, DW_AT_linkage_name);
        if (!name)
            name = ld_die_string(ld, file, d, DW_AT_MIPS_linkage_name);
        if (!name)
            name = ld_die_string(ld, file, d, DW_AT_name);
    }
    dwarf_dealloc_die(d);
    if (*decl)
        return name ? fn_named(ld, name) : NULL;
    fn_dies(ld);
    return ld_map_get(&ld->fn_by_die, file, cs->target_die);
}

dwexpr_status ld_callsite_targets(dwexpr_libdwarf *ld, const ld_callsite *ccs, const uint64_t **out,
                                  size_t *n)
{
    ld_callsite *cs = (ld_callsite *)(uintptr_t)ccs; /* ld->callsites owns it */
    *out = NULL;
    *n = 0;
    if (!cs->resolved) {
        cs->resolved = true;
        cs->target_status = DWEXPR_E_NOT_FOUND;
        bool decl = false;
        const ld_scope *fn = NULL;
        if (cs->target_expr)
            cs->target_status = DWEXPR_E_UNSUPPORTED;
        else if (cs->target_die && (fn = ref_target(ld, cs, &decl)) != NULL && fn->pub.nranges) {
            /* a declaration: the address its name has (the entry); a
             * definition: each of its ranges' starts */
            size_t k = decl ? 1 : fn->pub.nranges;
            uint64_t *t = ld_pool_alloc(&ld->pool, k * sizeof *t);
            if (t) {
                for (size_t i = 0; i < k; i++)
                    t[i] = fn->pub.ranges[i].low;
                cs->targets = t;
                cs->ntargets = k;
                cs->target_status = DWEXPR_OK;
            }
        }
    }
    *out = cs->targets;
    *n = cs->ntargets;
    return cs->target_status;
}

/* Whether function FN lists all its calls (or tail calls), so that its
 * tail call sites are all of them. */
static bool lists_all_calls(dwexpr_libdwarf *ld, const ld_scope *cfn)
{
    ld_scope *fn = (ld_scope *)(uintptr_t)cfn;
    if (fn->all_calls)
        return fn->all_calls == 2;
    fn->all_calls = 1;
    uint64_t off = fn->pub.die;
    for (int hop = 0; hop < 4; hop++) {
        Dwarf_Die d;
        if (ld_offdie(ld, fn->file, off, &d, NULL) != DWEXPR_OK)
            break;
        if (ld_die_flag(ld, fn->file, d, DW_AT_call_all_calls) ||
            ld_die_flag(ld, fn->file, d, DW_AT_GNU_all_call_sites) ||
            ld_die_flag(ld, fn->file, d, DW_AT_call_all_tail_calls) ||
            ld_die_flag(ld, fn->file, d, DW_AT_GNU_all_tail_call_sites))
            fn->all_calls = 2;
        uint64_t o;
        bool more = ld_die_ref(ld, fn->file, d, DW_AT_abstract_origin, &o) ||
                    ld_die_ref(ld, fn->file, d, DW_AT_specification, &o);
        dwarf_dealloc_die(d);
        if (fn->all_calls == 2 || !more || o == off)
            break;
        off = o;
    }
    return fn->all_calls == 2;
}

/* Order tail call sites by function, then DIE. */
static int tail_cmp(const void *a, const void *b)
{
    const ld_callsite *x = *(const ld_callsite *const *)a, *y = *(const ld_callsite *const *)b;
    const ld_scope *fx = holder(x->scope), *fy = holder(y->scope);
    if (fx != fy)
        return (uintptr_t)fx < (uintptr_t)fy ? -1 : 1;
    return x->die < y->die ? -1 : x->die > y->die;
}

/* The tail call sites of function FN (*N of them). */
static const ld_callsite *const *tails_of(dwexpr_libdwarf *ld, const ld_scope *fn, size_t *n)
{
    if (!ld->tails_done) {
        ld->tails_done = true;
        const ld_callsite *cs = ld->callsites.v;
        size_t k = 0;
        for (size_t i = 0; i < ld->callsites.n; i++)
            k += cs[i].tail;
        ld->tails = k ? malloc(k * sizeof *ld->tails) : NULL;
        if (ld->tails) {
            for (size_t i = 0; i < ld->callsites.n; i++) {
                const ld_scope *h = holder(cs[i].scope);
                if (cs[i].tail && h && lists_all_calls(ld, h))
                    ld->tails[ld->ntails++] = &cs[i];
            }
            qsort(ld->tails, ld->ntails, sizeof *ld->tails, tail_cmp);
        }
    }
    *n = 0;
    if (!ld->ntails)
        return NULL;
    size_t lo = 0, hi = ld->ntails;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if ((uintptr_t)holder(ld->tails[mid]->scope) < (uintptr_t)fn)
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t end = lo;
    while (end < ld->ntails && holder(ld->tails[end]->scope) == fn)
        end++;
    *n = end - lo;
    return ld->tails + lo;
}

bool ld_may_tail_call_self(dwexpr_libdwarf *ld, uint64_t entry)
{
    void *known = ld_map_get(&ld->selftail, entry, 0);
    if (known)
        return known == (void *)2;
    /* every function reachable by tail calls, once (GDB's
     * func_verify_no_selftailcall) */
    uint64_t *todo = malloc((MAX_SELF + 1) * sizeof *todo);
    ld_map seen;
    memset(&seen, 0, sizeof seen);
    bool maybe = !todo;
    size_t n = 0, added = 0;
    if (todo)
        todo[n++] = entry;
    while (n && !maybe) {
        uint64_t a = todo[--n];
        const ld_scope *fn = ld_function_entered(ld, a);
        if (!fn) {
            maybe = true;
            break;
        }
        size_t nts;
        const ld_callsite *const *ts = tails_of(ld, fn, &nts);
        for (size_t k = 0; k < nts && !maybe; k++) {
            const uint64_t *t;
            size_t nt;
            if (ld_callsite_targets(ld, ts[k], &t, &nt) != DWEXPR_OK) {
                maybe = true;
                break;
            }
            for (size_t i = 0; i < nt && !maybe; i++) {
                if (t[i] == entry || added == MAX_SELF) {
                    maybe = true;
                } else if (!ld_map_get(&seen, t[i], 0)) {
                    ld_map_put(&seen, t[i], 0, (void *)1);
                    todo[n++] = t[i];
                    added++;
                }
            }
        }
    }
    free(todo);
    ld_map_free(&seen);
    ld_map_put(&ld->selftail, entry, 0, (void *)(uintptr_t)(maybe ? 2 : 1));
    return maybe;
}
