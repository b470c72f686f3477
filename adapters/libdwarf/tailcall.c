/* adapters/libdwarf/tailcall.c: what a call site calls, and the frames
 * of tail calls. A function that ends in a jump to another (a tail call:
 * DW_TAG_call_site with DW_AT_call_tail_call, GNU DW_AT_GNU_tail_call)
 * leaves no frame on the stack; GDB puts it back from the call sites
 * ("tail call frames", gdb/dwarf2/frame-tailcall.c, call_site_find_chain
 * in gdb/dwarf2/loc.c) and checks entry values against the same
 * information. The rules, as GDB 13 applies them:
 *
 * - A call site's target is DW_AT_call_target (GNU:
 *   DW_AT_GNU_call_site_target) when present, else DW_AT_call_origin /
 *   DW_AT_abstract_origin. An expression needs the caller's registers
 *   (unknown in a chain of tail calls). A reference to a declaration is
 *   the function of its linkage name (else its name): the address of the
 *   ELF symbol of that name (ld_function_named: GDB's minimal symbol; a
 *   definition in another unit, whose DWARF name or linkage name may
 *   differ, as glibc's __pthread_kill, whose definition's linkage name is
 *   __GI___pthread_kill); several functions of that name (no global one,
 *   and static ones in several units) name no target, where GDB takes one
 *   of them. To a DIE with DW_AT_ranges, every range's start; else its
 *   low pc. A DIE without an address (an abstract instance) names no
 *   target. A declaration whose
 *   name none of BINARY's functions has is a shared library's function:
 *   GDB reads the library's DWARF (when its debug info is installed) and
 *   finds no tail calls back into BINARY there; here it is a function
 *   with no address in BINARY and no tail calls.
 * - A function's tail calls are its tail call sites only when it lists
 *   all its calls (DW_AT_call_all_calls, DW_AT_call_all_tail_calls, GNU
 *   forms; through DW_AT_abstract_origin / DW_AT_specification); else it
 *   has none.
 * - A target address must be a function's entry (its one range's start,
 *   else its first DW_AT_ranges entry) for the search to go on through
 *   its tail calls.
 * - The chain between a caller, returning to RET, and a callee (the
 *   function of the frame below) starts at the caller's call site at
 *   RET. If that calls the callee, there are no tail calls. Otherwise
 *   every path through tail call sites (none visited twice on a path)
 *   that ends in one calling the callee is a candidate; the call sites
 *   all candidates share at the start ("callers") and at the end
 *   ("callees") are kept, the ambiguous middle dropped. No candidate, a
 *   direct call among several, nothing shared, or any unknown target on
 *   the way: no tail call frames.
 * - Each kept call site is a frame of the function holding it, at the
 *   call site's return pc, youngest (callee side) first. */
#include <stdlib.h>

#include "ld_int.h"
#include "services.h"

/* Work bounds of one chain search (GDB has none; a search past them is
 * given up as ambiguous). */
enum { MAX_CHAIN = 256, MAX_VISITS = 100000, MAX_SELF = 10000 };

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

/* What a call site's reference names (ref_target's answer). */
enum { DECL_NO, DECL_HERE, DECL_OUTSIDE, DECL_AMBIGUOUS };

/* The target of CS's reference. A definition: its function scope in
 * *FN. A declaration (DECL_HERE): the address its name has in this module
 * in *ADDR (ld_function_named); DECL_OUTSIDE: a name no function here has
 * (a shared library's: cs->outside); DECL_AMBIGUOUS: several have it
 * (cs->ambiguous). */
static int ref_target(dwexpr_libdwarf *ld, ld_callsite *cs, const ld_scope **fn, uint64_t *addr)
{
    size_t file = ld_unit_at(ld, cs->unit)->file;
    *fn = NULL;
    *addr = 0;
    /* GDB's die_is_declaration: DW_AT_declaration without
     * DW_AT_specification, each looked for as GDB's dwarf2_attr looks:
     * on the DIE, else along its DW_AT_specification /
     * DW_AT_abstract_origin (gcc -flto's call site names a DIE of the
     * LTO unit whose abstract origin is the compile-time unit's
     * declaration of a shared library's function); the name too */
    const char *linkage = NULL, *plain = NULL;
    bool decl = false, spec = false, found = false;
    uint64_t off = cs->target_die;
    for (int hop = 0; hop < 8; hop++) {
        Dwarf_Die d;
        if (ld_offdie(ld, file, off, &d, NULL) != DWEXPR_OK)
            break;
        found = true;
        decl = decl || ld_die_flag(ld, file, d, DW_AT_declaration);
        if (!linkage)
            linkage = ld_die_string(ld, file, d, DW_AT_linkage_name);
        if (!linkage)
            linkage = ld_die_string(ld, file, d, DW_AT_MIPS_linkage_name);
        if (!plain)
            plain = ld_die_string(ld, file, d, DW_AT_name);
        uint64_t o;
        bool more = false;
        if (ld_die_ref(ld, file, d, DW_AT_specification, &o))
            spec = more = true;
        else if (ld_die_ref(ld, file, d, DW_AT_abstract_origin, &o))
            more = true;
        dwarf_dealloc_die(d);
        if (!more || o == off)
            break;
        off = o;
    }
    if (!found)
        return DECL_NO;
    decl = decl && !spec;
    const char *name = linkage ? linkage : plain;
    if (decl) {
        size_t count;
        if (!name)
            return DECL_NO;
        switch (ld_function_named(ld, name, addr, &count)) {
        case LD_NAME_ONE:
            return DECL_HERE;
        case LD_NAME_AMBIGUOUS:
            cs->ambiguous = name;
            return DECL_AMBIGUOUS;
        case LD_NAME_NONE:
            break;
        }
        cs->outside = name;
        return DECL_OUTSIDE;
    }
    fn_dies(ld);
    *fn = ld_map_get(&ld->fn_by_die, file, cs->target_die);
    return DECL_NO;
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
        int decl = DECL_NO;
        const ld_scope *fn = NULL;
        uint64_t addr = 0;
        if (cs->target_expr)
            cs->target_status = DWEXPR_E_UNSUPPORTED;
        else if (cs->target_die)
            decl = ref_target(ld, cs, &fn, &addr);
        if (decl == DECL_OUTSIDE) {
            /* a shared library's function: no address here, and no tail
             * calls that could come back into BINARY */
            cs->target_status = DWEXPR_OK;
        } else if (decl == DECL_HERE) {
            /* a declaration: the address its name has (the entry) */
            uint64_t *t = ld_pool_alloc(&ld->pool, sizeof *t);
            if (t) {
                t[0] = addr;
                cs->targets = t;
                cs->ntargets = 1;
                cs->target_status = DWEXPR_OK;
            }
        } else if (fn && fn->pub.nranges) {
            /* a definition: each of its ranges' starts */
            size_t k = fn->pub.nranges;
            uint64_t *t = ld_pool_alloc(&ld->pool, k * sizeof *t);
            if (t) {
                for (size_t i = 0; i < k; i++)
                    t[i] = fn->pub.ranges[i].low;
                cs->targets = t;
                cs->ntargets = k;
                cs->target_status = DWEXPR_OK;
            }
        }
        /* DECL_AMBIGUOUS: unknown (E_NOT_FOUND), cs->ambiguous says why */
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

/* ---- the chain (GDB's call_site_find_chain) ---- */

typedef struct chain {
    dwexpr_libdwarf *ld;
    uint64_t callee;                      /* entry of the callee's function */
    const ld_callsite *path[MAX_CHAIN];   /* the tail call sites on the way */
    size_t depth;
    const ld_callsite *first[MAX_CHAIN];  /* the first candidate */
    size_t length, callers, callees;
    bool have;
    unsigned visits;
} chain;

/* Keep of the candidates so far only what PATH shares with them at both
 * ends. False when nothing is left: ambiguous. */
static bool candidate(chain *c)
{
    size_t n = c->depth;
    if (!c->have) {
        c->have = true;
        memcpy(c->first, c->path, n * sizeof *c->path);
        c->length = c->callers = c->callees = n;
        return true;
    }
    size_t k = c->callers < n ? c->callers : n;
    for (size_t i = 0; i < k; i++)
        if (c->first[i] != c->path[i]) {
            k = i;
            break;
        }
    c->callers = k;
    k = c->callees < n ? c->callees : n;
    for (size_t i = 0; i < k; i++)
        if (c->first[c->length - 1 - i] != c->path[n - 1 - i]) {
            k = i;
            break;
        }
    c->callees = k;
    /* a direct call (length 0) among others, or nothing in common */
    return c->callers || c->callees;
}

/* Whether call site CS is on the current path (by return pc, as GDB
 * marks them). */
static bool on_path(const chain *c, const ld_callsite *cs)
{
    for (size_t i = 0; i < c->depth; i++)
        if (c->path[i]->return_pc == cs->return_pc)
            return true;
    return false;
}

static bool follow(chain *c, const ld_callsite *cs);

/* Go on from the functions entered at T[0..NT) (what the last call site
 * on the path calls). False stops the search: ambiguous, or a target
 * that cannot be known (GDB's NO_ENTRY_VALUE_ERROR). */
static bool follow_targets(chain *c, const uint64_t *t, size_t nt)
{
    for (size_t i = 0; i < nt; i++)
        if (t[i] == c->callee)
            return candidate(c);
    for (size_t i = 0; i < nt; i++) {
        const ld_scope *fn = ld_function_entered(c->ld, t[i]);
        if (!fn)
            return false;
        size_t n;
        const ld_callsite *const *ts = tails_of(c->ld, fn, &n);
        for (size_t k = 0; k < n; k++) {
            if (on_path(c, ts[k]))
                continue;
            if (c->depth == MAX_CHAIN)
                return false;
            c->path[c->depth++] = ts[k];
            if (!follow(c, ts[k]))
                return false;
            c->depth--;
        }
    }
    return true;
}

/* Follow call site CS (follow_targets). */
static bool follow(chain *c, const ld_callsite *cs)
{
    if (++c->visits > MAX_VISITS)
        return false;
    const uint64_t *t;
    size_t nt;
    if (ld_callsite_targets(c->ld, cs, &t, &nt) != DWEXPR_OK)
        return false;
    return follow_targets(c, t, nt);
}

/* The frames of chain C's search (GDB's pretend_pc): the shared callees
 * (youngest first), then the shared callers; a single path is all of them
 * once. Their return pcs into PCS[0..CAP); returns how many. */
static size_t chain_frames(chain *c, uint64_t *pcs, size_t cap)
{
    size_t n = 0;
    if (!c->have || !c->length)
        return 0;
    if (c->callers == c->length && c->callees == c->length)
        c->callers = 0;
    for (size_t i = 0; i < c->callees; i++, n++)
        if (n < cap)
            pcs[n] = c->first[c->length - 1 - i]->return_pc;
    for (size_t i = c->callers; i-- > 0; n++)
        if (n < cap)
            pcs[n] = c->first[i]->return_pc;
    return n;
}

/* A new chain search in LD towards the function of CALLEE_PC, or NULL. */
static chain *chain_new(dwexpr_libdwarf *ld, uint64_t callee_pc)
{
    const ld_scope *fn = ld_function_at(ld, callee_pc);
    if (!fn || !fn->pub.nranges)
        return NULL;
    chain *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->ld = ld;
    c->callee = ld_function_entry(fn);
    return c;
}

size_t dwexpr_libdwarf_tail_frames(dwexpr_libdwarf *ld, uint64_t ret, uint64_t callee_pc,
                                   uint64_t *pcs, size_t cap)
{
    if (!ld)
        return 0;
    const ld_callsite *cs = ld_callsite_at(ld, ret);
    chain *c = cs ? chain_new(ld, callee_pc) : NULL;
    if (!c)
        return 0;
    size_t n = follow(c, cs) ? chain_frames(c, pcs, cap) : 0;
    free(c);
    return n;
}

size_t dwexpr_libdwarf_tail_frames_across(dwexpr_libdwarf *caller, uint64_t ret,
                                          dwexpr_libdwarf *ld, uint64_t callee_pc,
                                          uint64_t *pcs, size_t cap)
{
    if (!caller || !ld)
        return 0;
    const ld_callsite *cs = ld_callsite_at(caller, ret);
    const uint64_t *t;
    size_t nt, count;
    uint64_t entry;
    /* a declaration of a function the caller's module does not have,
     * which LD's symbol of that name is (GDB looks the name up in every
     * module) */
    if (!cs || ld_callsite_targets(caller, cs, &t, &nt) != DWEXPR_OK || !cs->outside ||
        ld_function_named(ld, cs->outside, &entry, &count) != LD_NAME_ONE)
        return 0;
    chain *c = chain_new(ld, callee_pc);
    if (!c)
        return 0;
    c->visits = 1;
    size_t n = follow_targets(c, &entry, 1) ? chain_frames(c, pcs, cap) : 0;
    free(c);
    return n;
}

bool ld_may_tail_call_self(dwexpr_libdwarf *ld, uint64_t entry)
{
    void *known = ld_map_get(&ld->selftail, entry, 0);
    if (known)
        return known == (void *)2;
    /* every function reachable by tail calls, once (GDB's
     * func_verify_no_selftailcall) */
    uint64_t *pending = malloc((MAX_SELF + 1) * sizeof *pending);
    ld_map seen;
    memset(&seen, 0, sizeof seen);
    bool maybe = !pending;
    size_t n = 0, added = 0;
    if (pending)
        pending[n++] = entry;
    while (n && !maybe) {
        uint64_t a = pending[--n];
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
                    pending[n++] = t[i];
                    added++;
                }
            }
        }
    }
    free(pending);
    ld_map_free(&seen);
    ld_map_put(&ld->selftail, entry, 0, (void *)(uintptr_t)(maybe ? 2 : 1));
    return maybe;
}
