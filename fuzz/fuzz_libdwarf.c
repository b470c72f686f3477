/* fuzz/fuzz_libdwarf.c: libFuzzer harness for the libdwarf adapter
 * (dwexpr/adapter_libdwarf.h). Input: the bytes of an ELF file with DWARF,
 * handed to dwexpr_libdwarf_open through a memfd (/proc/self/fd/N: the
 * adapter maps the file itself and libdwarf reads it by path); split DWARF
 * lookups are off (DWEXPR_LIBDWARF_NO_DWO) so the input never names a file.
 *
 * Every query of the API runs on what opens: units and base types, every
 * variable (bounded) with its type, scope and enclosing function, then its
 * DW_AT_location evaluated at a pc inside its scope (and, for a location
 * list, at each entry's low pc) against a deterministic mock machine target
 * (registers and memory are a hash of their address), the bytes read
 * through the result, the function's frame base, the first members of a
 * struct type located inside the variable, and the type's size; then the
 * tail call frames between pairs of the first functions.
 *
 * Invariants: no crash, leak or undefined behaviour in dwexpr's code; a
 * failed open has class decode / ill_formed / target (or E_NOMEM) and a
 * message; attribute evaluation fails only with a contract class (never
 * usage); evaluating the same attribute twice gives the same status and
 * the same error record; the step limit holds; the tail call frames of a
 * pair are the same when asked again. */
#define _GNU_SOURCE
#include <sys/mman.h>
#include <unistd.h>

#include <dwexpr/adapter_libdwarf.h>

#include "fuzz_common.h"

enum {
    MAX_VARS = 64,       /* variables evaluated per input */
    MAX_MEMBERS = 4,     /* members located per struct-typed variable */
    MAX_READ_BITS = 512, /* bits read through a location */
    STEP_LIMIT = 20000,
    MAX_TAIL_FUNCTIONS = 6, /* functions whose tail call frames are asked for, pairwise */
    DW_TAG_member = 0x0d,
    DW_TAG_structure_type = 0x13,
    DW_AT_byte_size = 0x0b,
};

/* ---- a deterministic mock machine: contents are a hash of the address ---- */

static uint8_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 29;
    return (uint8_t)x;
}

static dwexpr_status m_reg_size(void *user, uint32_t regno, uint32_t *bytes)
{
    (void)user;
    if (regno > 4096)
        return DWEXPR_E_NOT_FOUND;
    *bytes = regno >= 17 && regno <= 32 ? 16 : 8;
    return DWEXPR_OK;
}

static dwexpr_status m_reg_read(void *user, const dwexpr_regref *r, uint64_t offset, void *buf,
                                size_t len)
{
    (void)user;
    uint32_t size = 0;
    if (m_reg_size(NULL, r->regno, &size) != DWEXPR_OK || offset > size || len > size - offset)
        return DWEXPR_E_TARGET;
    for (size_t i = 0; i < len; i++)
        ((uint8_t *)buf)[i] = mix(((uint64_t)r->regno << 32) ^ (r->frame * 131u) ^ (offset + i));
    return DWEXPR_OK;
}

static dwexpr_status m_mem_read(void *user, const dwexpr_memref *m, void *buf, size_t len)
{
    (void)user;
    if (m->address < 0x1000 || len > (1u << 20))   /* the null page is unmapped */
        return DWEXPR_E_TARGET;
    for (size_t i = 0; i < len; i++)
        ((uint8_t *)buf)[i] = mix(((uint64_t)m->aspace << 56) ^ (m->address + i));
    return DWEXPR_OK;
}

static dwexpr_status m_cfa(void *user, const dwexpr_frameref *f, dwexpr_sld *out)
{
    (void)user;
    memset(out, 0, sizeof *out);
    out->kind = DWEXPR_LOC_MEMORY;
    out->byte_offset = 0x7ffe0000u + 0x100u * f->frame;
    return DWEXPR_OK;
}

static dwexpr_status m_tls(void *user, const dwexpr_frameref *f, uint64_t ta, dwexpr_sld *out)
{
    (void)user;
    (void)f;
    memset(out, 0, sizeof *out);
    out->kind = DWEXPR_LOC_MEMORY;
    out->byte_offset = 0x7f0000000000ull + (ta & 0xffffffffu);
    return DWEXPR_OK;
}

static const dwexpr_target mock_machine = {
    .size = sizeof(dwexpr_target),
    .reg_size = m_reg_size,
    .reg_read = m_reg_read,
    .mem_read = m_mem_read,
    .tls_address = m_tls,
    .cfa = m_cfa,
};

/* ---- checks ---- */

/* A failure of an attribute evaluation: a contract class, never usage. */
static void check_eval_failure(dwexpr_status s, const char *what)
{
    dwexpr_class c = dwexpr_status_class(s);
    FZ_CHECK(c != DWEXPR_CLASS_NONE && c != DWEXPR_CLASS_USAGE, "%s: status %s (class %d)", what,
             dwexpr_status_name(s), (int)c);
}

/* Evaluate DW_AT_location of V at PC twice: same status, same error. On
 * success (a location) read through it and locate a few members. */
static void eval_var_at(dwexpr_libdwarf *ld, dwexpr_libdwarf_binding *b, dwexpr_ctx *ctx,
                        dwexpr_ctx *ctx2, const dwexpr_libdwarf_var *v, bool has_pc, uint64_t pc)
{
    dwexpr_eval_params where;
    memset(&where, 0, sizeof where);
    where.has_pc = has_pc;
    where.pc = pc;
    dwexpr_result r1, r2;
    dwexpr_error e1, e2;
    memset(&e1, 0, sizeof e1);
    memset(&e2, 0, sizeof e2);
    dwexpr_status s1 = dwexpr_libdwarf_eval_location(b, ctx, v->unit, v->die, &where, &r1, &e1);
    dwexpr_status s2 = dwexpr_libdwarf_eval_location(b, ctx2, v->unit, v->die, &where, &r2, &e2);
    FZ_CHECK(s1 == s2, "%s: evaluated twice: %s then %s", v->name ? v->name : "?",
             dwexpr_status_name(s1), dwexpr_status_name(s2));
    if (s1 != DWEXPR_OK) {
        if (s1 != DWEXPR_E_NOT_FOUND)
            check_eval_failure(s1, "eval_location");
        FZ_CHECK(e1.status == e2.status && e1.offset == e2.offset &&
                     strcmp(e1.message, e2.message) == 0,
                 "error records differ: '%s' / '%s'", e1.message, e2.message);
        return;
    }
    FZ_CHECK(r1.kind == r2.kind, "result kinds differ");
    if (r1.kind != DWEXPR_RESULT_LOCATION)
        return;
    FZ_CHECK(r1.loc.count == r2.loc.count, "place counts differ");

    uint64_t bits = v->bit_size ? v->bit_size : 64;
    if (bits > MAX_READ_BITS)
        bits = MAX_READ_BITS;
    uint8_t buf[MAX_READ_BITS / 8], mask[MAX_READ_BITS / 8];
    const dwexpr_target *t = dwexpr_libdwarf_binding_target(b);
    dwexpr_status rs = dwexpr_loc_read(ctx, t, b, &r1.loc, bits, buf, mask);
    if (rs != DWEXPR_OK)
        check_eval_failure(rs, "loc_read");

    /* members of a struct-typed variable, located inside it */
    dwexpr_libdwarf_type_info ti;
    if (!v->type || dwexpr_libdwarf_type_get(ld, v->unit, v->type, &ti) != DWEXPR_OK ||
        ti.tag != DW_TAG_structure_type)
        return;
    dwexpr_loc whole;
    if (dwexpr_libdwarf_loc_copy(&r1.loc, &whole) != DWEXPR_OK)
        return;
    for (size_t i = 0; i < MAX_MEMBERS; i++) {
        uint64_t m;
        if (dwexpr_libdwarf_child_die(ld, v->unit, v->type, DW_TAG_member, i, &m) != DWEXPR_OK)
            break;
        dwexpr_result mr;
        dwexpr_error me;
        dwexpr_status ms =
            dwexpr_libdwarf_eval_member_location(b, ctx, v->unit, m, &whole, &where, &mr, &me);
        if (ms != DWEXPR_OK && ms != DWEXPR_E_NOT_FOUND)
            check_eval_failure(ms, "eval_member_location");
    }
    dwexpr_libdwarf_loc_free(&whole);
}

/* Everything about variable V. */
static void fuzz_var(dwexpr_libdwarf *ld, dwexpr_libdwarf_binding *b, dwexpr_ctx *ctx,
                     dwexpr_ctx *ctx2, const dwexpr_libdwarf_var *v)
{
    FZ_CHECK(v->unit < dwexpr_libdwarf_unit_count(ld), "variable of unit %zu of %zu", v->unit,
             dwexpr_libdwarf_unit_count(ld));
    if (v->name)
        (void)strlen(v->name);
    if (v->type_name)
        (void)strlen(v->type_name);

    const dwexpr_libdwarf_scope *fn = v->scope ? dwexpr_libdwarf_scope_function(v->scope) : NULL;
    uint64_t pc = 0;
    bool has_pc = false;
    if (v->scope && v->scope->nranges > 0) {
        pc = v->scope->ranges[0].low;
        has_pc = true;
        const dwexpr_libdwarf_scope *inner = dwexpr_libdwarf_scope_at(ld, pc);
        if (inner)
            (void)dwexpr_libdwarf_var_visible(v, inner);
        (void)dwexpr_libdwarf_scope_has_pc(v->scope, pc);
    }
    if (has_pc)
        (void)dwexpr_libdwarf_binding_set_pc(b, 0, pc);
    /* the caller returns to the end of the function, where a jump's call
     * site returns: entry values go through the call-site checks */
    if (fn && fn->nranges > 0)
        (void)dwexpr_libdwarf_binding_set_pc(b, 1, fn->ranges[0].high);

    eval_var_at(ld, b, ctx, ctx2, v, has_pc, pc);
    eval_var_at(ld, b, ctx, ctx2, v, false, 0);
    if (v->loc.kind == DWEXPR_LIBDWARF_ATTR_LIST)
        for (size_t i = 0; i < v->loc.count && i < 4; i++)
            if (!v->loc.entries[i].is_default)
                eval_var_at(ld, b, ctx, ctx2, v, true, v->loc.entries[i].low);

    dwexpr_eval_params where;
    memset(&where, 0, sizeof where);
    where.has_pc = has_pc;
    where.pc = pc;
    dwexpr_result r;
    dwexpr_error e;
    if (fn && fn->kind == DWEXPR_LIBDWARF_SCOPE_FUNCTION) {
        dwexpr_status s = dwexpr_libdwarf_eval_frame_base(b, ctx, fn->unit, fn->die, &where, &r, &e);
        if (s != DWEXPR_OK && s != DWEXPR_E_NOT_FOUND)
            check_eval_failure(s, "eval_frame_base");
    }
    if (v->type) {
        uint64_t bytes = 0;
        dwexpr_status s =
            dwexpr_libdwarf_type_size(b, ctx, v->unit, v->type, NULL, &where, &bytes, &e);
        if (s != DWEXPR_OK && s != DWEXPR_E_NOT_FOUND)
            check_eval_failure(s, "type_size");
        int64_t n;
        s = dwexpr_libdwarf_eval_bound(b, ctx, v->unit, v->type, DW_AT_byte_size, NULL, &where,
                                       &n, &e);
        if (s != DWEXPR_OK && s != DWEXPR_E_NOT_FOUND)
            check_eval_failure(s, "eval_bound");
    }
}

/* GDB's tail call frames between the first functions: a caller returning
 * to the end (where a jump's call site returns) or the middle of one, a
 * callee inside another; asked twice, the same answer. */
static void fuzz_tail_frames(dwexpr_libdwarf *ld)
{
    const dwexpr_libdwarf_scope *fns[MAX_TAIL_FUNCTIONS];
    size_t nf = 0;
    for (size_t i = 0; i < dwexpr_libdwarf_scope_count(ld) && nf < MAX_TAIL_FUNCTIONS; i++) {
        const dwexpr_libdwarf_scope *s = dwexpr_libdwarf_scope_get(ld, i);
        if (s && s->kind == DWEXPR_LIBDWARF_SCOPE_FUNCTION && s->nranges > 0)
            fns[nf++] = s;
    }
    for (size_t a = 0; a < nf; a++) {
        const dwexpr_libdwarf_range *r = &fns[a]->ranges[0];
        uint64_t rets[2] = {r->high, r->low + (r->high - r->low) / 2};
        for (size_t k = 0; k < 2; k++)
            for (size_t c = 0; c < nf; c++) {
                uint64_t pcs[8], again[8];
                uint64_t callee = fns[c]->ranges[0].low;
                size_t n = dwexpr_libdwarf_tail_frames(ld, rets[k], callee, pcs, 8);
                size_t m = dwexpr_libdwarf_tail_frames(ld, rets[k], callee, again, 8);
                FZ_CHECK(n == m && memcmp(pcs, again, (n < 8 ? n : 8) * sizeof *pcs) == 0,
                         "tail frames 0x%llx -> 0x%llx: %zu, then %zu",
                         (unsigned long long)rets[k], (unsigned long long)callee, n, m);
                /* the same DWARF as another module's (a declaration's
                 * name looked up again): it gives an answer, twice the same */
                n = dwexpr_libdwarf_tail_frames_across(ld, rets[k], ld, callee, pcs, 8);
                m = dwexpr_libdwarf_tail_frames_across(ld, rets[k], ld, callee, again, 8);
                FZ_CHECK(n == m && memcmp(pcs, again, (n < 8 ? n : 8) * sizeof *pcs) == 0,
                         "tail frames across 0x%llx -> 0x%llx: %zu, then %zu",
                         (unsigned long long)rets[k], (unsigned long long)callee, n, m);
            }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 16 || size > (4u << 20))
        return 0;
    int fd = memfd_create("fuzz_libdwarf", 0);
    FZ_CHECK(fd >= 0, "memfd_create failed");
    size_t off = 0;
    while (off < size) {
        ssize_t w = write(fd, data + off, size - off);
        FZ_CHECK(w > 0, "write to memfd failed");
        off += (size_t)w;
    }
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);

    dwexpr_libdwarf *ld = NULL;
    dwexpr_error err;
    memset(&err, 0, sizeof err);
    dwexpr_status s = dwexpr_libdwarf_open(path, DWEXPR_LIBDWARF_NO_DWO, &ld, &err);
    if (s != DWEXPR_OK) {
        dwexpr_class c = dwexpr_status_class(s);
        FZ_CHECK(c == DWEXPR_CLASS_DECODE || c == DWEXPR_CLASS_ILL_FORMED ||
                     c == DWEXPR_CLASS_TARGET || s == DWEXPR_E_NOMEM || s == DWEXPR_E_NOT_FOUND ||
                     s == DWEXPR_E_TOO_BIG,
                 "open: %s", dwexpr_status_name(s));
        FZ_CHECK(err.message[0] != 0, "open failed (%s) without a message", dwexpr_status_name(s));
        FZ_CHECK(ld == NULL, "open failed but returned a handle");
        close(fd);
        return 0;
    }
    (void)dwexpr_libdwarf_machine(ld);
    FZ_CHECK(dwexpr_libdwarf_arch_name(ld) != NULL, "no arch name");

    size_t units = dwexpr_libdwarf_unit_count(ld);
    for (size_t i = 0; i < units; i++) {
        const dwexpr_libdwarf_unit *u = dwexpr_libdwarf_unit_get(ld, i);
        FZ_CHECK(u != NULL, "unit %zu of %zu is NULL", i, units);
        const dwexpr_libdwarf_base_type *bt = NULL;
        size_t n = dwexpr_libdwarf_base_types(ld, i, &bt);
        for (size_t k = 0; k < n; k++) {
            if (bt[k].name)
                (void)strlen(bt[k].name);   /* names are terminated (ASan checks) */
        }
    }
    FZ_CHECK(dwexpr_libdwarf_unit_get(ld, units) == NULL, "unit past the end");

    dwexpr_libdwarf_binding *b = NULL;
    dwexpr_target t;
    s = dwexpr_libdwarf_target(ld, &mock_machine, NULL, &t, &b);
    FZ_CHECK(s == DWEXPR_OK || s == DWEXPR_E_NOMEM, "binding: %s", dwexpr_status_name(s));
    dwexpr_limits lim = {.steps = STEP_LIMIT, .arena_bytes = 8u << 20};
    dwexpr_ctx *ctx = NULL, *ctx2 = NULL;
    if (s == DWEXPR_OK && dwexpr_ctx_new(&lim, &ctx) == DWEXPR_OK &&
        dwexpr_ctx_new(&lim, &ctx2) == DWEXPR_OK) {
        /* the base_type service answers what the unit's listing says */
        for (size_t i = 0; i < units; i++) {
            const dwexpr_libdwarf_unit *u = dwexpr_libdwarf_unit_get(ld, i);
            const dwexpr_libdwarf_base_type *bt = NULL;
            size_t n = dwexpr_libdwarf_base_types(ld, i, &bt);
            for (size_t k = 0; k < n && k < 8 && t.base_type; k++) {
                dwexpr_type ty;
                if (t.base_type(b, &u->unit, bt[k].die, &ty) != DWEXPR_OK)
                    continue;   /* only the answers are compared */
                FZ_CHECK(ty.bits == bt[k].type.bits && ty.encoding == bt[k].type.encoding &&
                             ty.lanes == bt[k].type.lanes,
                         "base type 0x%llx: service %u/%u/%u, listing %u/%u/%u",
                         (unsigned long long)bt[k].die, ty.bits, ty.encoding, ty.lanes,
                         bt[k].type.bits, bt[k].type.encoding, bt[k].type.lanes);
            }
        }
        size_t vars = dwexpr_libdwarf_var_count(ld);
        for (size_t i = 0; i < vars && i < MAX_VARS; i++) {
            const dwexpr_libdwarf_var *v = dwexpr_libdwarf_var_get(ld, i);
            FZ_CHECK(v != NULL, "variable %zu of %zu is NULL", i, vars);
            fuzz_var(ld, b, ctx, ctx2, v);
        }
        FZ_CHECK(dwexpr_libdwarf_var_get(ld, vars) == NULL, "variable past the end");
    }
    fuzz_tail_frames(ld);
    dwexpr_ctx_free(ctx2);
    dwexpr_ctx_free(ctx);
    dwexpr_libdwarf_binding_free(b);
    dwexpr_libdwarf_close(ld);
    close(fd);
    return 0;
}
