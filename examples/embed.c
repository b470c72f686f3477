/* examples/embed.c: the smallest useful embedding of libdwexpr: a static
 * target (8-byte registers, one memory block at 0x1000) and one evaluation
 * of DW_OP_breg6 -8; DW_OP_deref from its bytes. */
#include <stdio.h>
#include <string.h>
#include <dwexpr.h>

static const uint8_t regs[8][8] = {[6] = {0x10, 0x10}};    /* rbp = 0x1010, little-endian */
static const uint8_t mem[16] = {[8] = 0x2a};               /* 0x1008 holds 42 */

/* Register contents from regs[] (no reg_size callback: sizes unknown). */
static dwexpr_status reg_read(void *user, const dwexpr_regref *r, uint64_t off, void *buf, size_t len)
{
    (void)user;
    if (r->regno >= 8 || off > 8 || len > 8 - off)
        return DWEXPR_E_TARGET;
    memcpy(buf, regs[r->regno] + off, len);
    return DWEXPR_OK;
}

/* Memory from mem[], address space 0 only. */
static dwexpr_status mem_read(void *user, const dwexpr_memref *m, void *buf, size_t len)
{
    (void)user;
    uint64_t off = m->address - 0x1000;
    if (m->aspace != 0 || m->address < 0x1000 || off > sizeof mem || len > sizeof mem - off)
        return DWEXPR_E_TARGET;
    memcpy(buf, mem + off, len);
    return DWEXPR_OK;
}

/* Decode, evaluate as a value, print. */
int main(void)
{
    static const uint8_t expr[] = {0x76, 0x78, 0x06};   /* DW_OP_breg6 -8; DW_OP_deref */
    const dwexpr_unit unit = {.addr_size = 8, .offset_size = 4, .version = 5};
    const dwexpr_target target = {.size = sizeof target, .reg_read = reg_read,
                                  .mem_read = mem_read};
    const dwexpr_eval_params params = {.result_kind = DWEXPR_RESULT_VALUE};
    dwexpr_program *prog = NULL;
    dwexpr_ctx *ctx = NULL;
    dwexpr_result res;
    dwexpr_error err;
    int rc = 1;

    if (dwexpr_program_decode(expr, sizeof expr, &unit, &prog, &err) != DWEXPR_OK)
        fprintf(stderr, "decode: %s\n", err.message);
    else if (dwexpr_ctx_new(NULL, &ctx) != DWEXPR_OK)
        fputs("out of memory\n", stderr);
    else if (dwexpr_eval(ctx, prog, &target, NULL, &params, &res) != DWEXPR_OK)
        fprintf(stderr, "eval: %s\n", dwexpr_ctx_error(ctx)->message);
    else
        rc = printf("value 0x%llx (%u bits)\n", (unsigned long long)res.value.bits,
                    res.value.type.bits) < 0;
    dwexpr_ctx_free(ctx);
    dwexpr_program_free(prog);
    return rc;
}
