/* fuzz/fuzz_frontend.h: checks shared by fuzz_diexpr.c and fuzz_spirv.c on
 * a lowered program (dwexpr/diexpr.h): its bytes decode (or fail as
 * decode / ill_formed), disassemble and reassemble to the same bytes, its
 * synthesized DIEs too, and it evaluates against a small hashed target
 * with a class other than usage; evaluating twice gives the same status. */
#ifndef DWX_FUZZ_FRONTEND_H
#define DWX_FUZZ_FRONTEND_H

#include "fuzz_common.h"

/* Registers: 8 bytes of a hash of the register number; memory at
 * 0x1000..0x1fff: bytes of a hash of the address; else unreadable. */
static dwexpr_status fzf_reg_read(void *user, const dwexpr_regref *r, uint64_t off, void *buf,
                                  size_t len)
{
    uint8_t *o = buf;
    if (r->regno > 64 || off > 8 || len > 8 - off)
        return DWEXPR_E_NOT_FOUND;
    for (size_t i = 0; i < len; i++)
        o[i] = (uint8_t)((r->regno * 0x9e3779b1u) >> (8 * ((off + i) % 4)));
    return DWEXPR_OK;
}

static dwexpr_status fzf_reg_size(void *user, uint32_t regno, uint32_t *bytes)
{
    if (regno > 64)
        return DWEXPR_E_NOT_FOUND;
    *bytes = 8;
    return DWEXPR_OK;
}

static dwexpr_status fzf_mem_read(void *user, const dwexpr_memref *m, void *buf, size_t len)
{
    uint8_t *o = buf;
    if (m->aspace != 0 || m->address < 0x1000 || m->address >= 0x2000 || len > 0x2000 - m->address)
        return DWEXPR_E_TARGET;
    for (size_t i = 0; i < len; i++)
        o[i] = (uint8_t)((m->address + i) * 31u);
    return DWEXPR_OK;
}

/* Check a lowered program as the header comment says. */
static inline void fzf_check_lowered(const dwexpr_lowered *l)
{
    size_t len;
    const uint8_t *b = dwexpr_lowered_bytes(l, &len);
    const dwexpr_unit *u = dwexpr_lowered_unit(l);
    dwexpr_program *prog = NULL;
    dwexpr_error err;
    dwexpr_status s = dwexpr_program_decode(b, len, u, &prog, &err);
    FZ_CHECK(s == DWEXPR_OK || fz_decode_class(s), "lowered bytes fail to decode with %s: %s",
             dwexpr_status_name(s), err.message);
    char *dis = NULL;
    size_t dlen = 0;
    if (fz_disasm(b, len, u, NULL, &dis, &dlen) == DWEXPR_OK)
        fz_check_reassembles(dis, b, len, u, NULL);
    else
        FZ_CHECK(s != DWEXPR_OK, "lowered bytes decode but do not disassemble");
    free(dis);
    dwexpr_program_free(prog);
    for (size_t i = 0; i < dwexpr_lowered_die_count(l); i++) {
        const uint8_t *db;
        size_t dn;
        FZ_CHECK(dwexpr_lowered_die(l, i, NULL, &db, &dn) == DWEXPR_OK, "die %zu", i);
        if (fz_disasm(db, dn, u, NULL, &dis, &dlen) == DWEXPR_OK)
            fz_check_reassembles(dis, db, dn, u, NULL);
        free(dis);
    }
    const dwexpr_target t = {.size = sizeof t, .reg_read = fzf_reg_read,
                             .reg_size = fzf_reg_size, .mem_read = fzf_mem_read};
    dwexpr_limits lim = {.steps = 10000};
    dwexpr_ctx *ctx = NULL;
    FZ_CHECK(dwexpr_ctx_new(&lim, &ctx) == DWEXPR_OK, "ctx");
    dwexpr_eval_params p = {.result_kind = DWEXPR_RESULT_LOCATION};
    dwexpr_result res;
    dwexpr_status s1 = dwexpr_lowered_eval(ctx, l, &t, NULL, &p, &res);
    FZ_CHECK(dwexpr_status_class(s1) != DWEXPR_CLASS_USAGE, "lowered eval: %s (%s)",
             dwexpr_status_name(s1), dwexpr_ctx_error(ctx)->message);
    dwexpr_status s2 = dwexpr_lowered_eval(ctx, l, &t, NULL, &p, &res);
    FZ_CHECK(s1 == s2, "evaluating twice: %s then %s", dwexpr_status_name(s1),
             dwexpr_status_name(s2));
    dwexpr_ctx_free(ctx);
}

/* Lowering is deterministic: the same bytes, types and DIEs. */
static inline void fzf_check_same(const dwexpr_lowered *a, const dwexpr_lowered *b)
{
    size_t na, nb;
    const uint8_t *ba = dwexpr_lowered_bytes(a, &na), *bb = dwexpr_lowered_bytes(b, &nb);
    FZ_CHECK(na == nb && memcmp(ba, bb, na) == 0, "lowering twice gives other bytes");
    FZ_CHECK(dwexpr_lowered_type_count(a) == dwexpr_lowered_type_count(b) &&
                 dwexpr_lowered_die_count(a) == dwexpr_lowered_die_count(b),
             "lowering twice synthesizes other entries");
}

#endif
