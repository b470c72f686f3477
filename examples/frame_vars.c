/* examples/frame_vars.c: what a debugger does at a stop. The locations of
 * a scope's variables are decoded once; for each frame the context is
 * bound once (dwexpr_ctx_bind: target, frame, parameters) and every
 * variable is evaluated with dwexpr_eval_bound. Two frames of a static
 * target (8-byte registers, one memory block at 0x1000). */
#include <stdio.h>
#include <string.h>
#include <dwexpr.h>

/* Frame 0's registers (rbx = 3: 7, rbp = 6: 0x1010); its caller, frame 1,
 * had rbp saved at 0x1000 (0x1020) and rbx at 0x1028 (9). Memory: one
 * block at 0x1000. */
static const uint64_t regs[8] = {[3] = 7, [6] = 0x1010};
static const uint8_t mem[48] = {[0] = 0x20, [1] = 0x10, [8] = 0x2a, [0x18] = 0x2b, [0x28] = 9};

static dwexpr_status reg_read(void *user, const dwexpr_regref *r, uint64_t off, void *buf,
                              size_t len)
{
    (void)user;
    if (r->frame != 0 || r->regno >= 8 || off > 8 || len > 8 - off)
        return DWEXPR_E_TARGET;
    memcpy(buf, (const uint8_t *)&regs[r->regno] + off, len); /* little-endian host */
    return DWEXPR_OK;
}

/* Where frame 1's registers are: the save slots (the unwinder's answer). */
static dwexpr_status register_location(void *user, const dwexpr_frameref *f, uint32_t regno,
                                       dwexpr_sld *out)
{
    (void)user;
    if (f->frame != 1 || (regno != 3 && regno != 6))
        return DWEXPR_E_NOT_FOUND;
    memset(out, 0, sizeof *out);
    out->kind = DWEXPR_LOC_MEMORY;
    out->byte_offset = regno == 6 ? 0x1000 : 0x1028;
    return DWEXPR_OK;
}

static dwexpr_status mem_read(void *user, const dwexpr_memref *m, void *buf, size_t len)
{
    (void)user;
    uint64_t off = m->address - 0x1000;
    if (m->aspace != 0 || m->address < 0x1000 || off > sizeof mem || len > sizeof mem - off)
        return DWEXPR_E_TARGET;
    memcpy(buf, mem + off, len);
    return DWEXPR_OK;
}

/* The frame base: DW_OP_breg6 0 (rbp), evaluated in the frame asked about. */
static dwexpr_status frame_base(void *user, const dwexpr_frameref *f, dwexpr_frame_base *out)
{
    (void)user;
    (void)f;
    static const uint8_t breg6[] = {0x76, 0x00};
    memset(out, 0, sizeof *out);
    out->expr = breg6;
    out->expr_len = sizeof breg6;
    return DWEXPR_OK;
}

static void print_result(const char *name, const dwexpr_result *r)
{
    if (r->kind == DWEXPR_RESULT_VALUE) {
        printf("  %s = value 0x%llx\n", name, (unsigned long long)r->value.bits);
        return;
    }
    const dwexpr_sld *s = &r->loc.slds[0];
    switch (s->kind) {
    case DWEXPR_LOC_MEMORY:
        printf("  %s: memory 0x%llx\n", name, (unsigned long long)s->byte_offset);
        break;
    case DWEXPR_LOC_REGISTER:
        printf("  %s: register %u\n", name, (unsigned)s->u.regno);
        break;
    case DWEXPR_LOC_IMPLICIT: { /* DW_OP_stack_value: the value's bytes, little-endian */
        uint64_t v = 0;
        for (uint64_t i = 0; i < 8 && i < s->u.imp.bits / 8; i++)
            v |= (uint64_t)s->u.imp.data[i] << (8 * i);
        printf("  %s = implicit value 0x%llx\n", name, (unsigned long long)v);
        break;
    }
    case DWEXPR_LOC_COMPOSITE:
        printf("  %s: %u pieces\n", name, (unsigned)s->u.comp->count);
        break;
    default:
        printf("  %s: location kind %u\n", name, (unsigned)s->kind);
    }
}

int main(void)
{
    static const struct { const char *name; uint8_t len, bytes[8]; } vars[] = {
        {"i", 1, {0x53}},                         /* DW_OP_reg3 */
        {"p", 2, {0x91, 0x78}},                   /* DW_OP_fbreg -8 */
        {"n", 4, {0x76, 0x78, 0x06, 0x9f}},       /* DW_OP_breg6 -8; DW_OP_deref; DW_OP_stack_value */
        {"pair", 6, {0x53, 0x93, 0x04, 0x56, 0x93, 0x04}}, /* reg3 piece 4, reg6 piece 4 */
    };
    enum { NVARS = sizeof vars / sizeof vars[0] };
    const dwexpr_unit unit = {.addr_size = 8, .offset_size = 4, .version = 5};
    const dwexpr_target target = {.size = sizeof target, .reg_read = reg_read,
                                  .mem_read = mem_read, .frame_base = frame_base,
                                  .register_location = register_location};
    dwexpr_program *progs[NVARS] = {0};
    dwexpr_ctx *ctx = NULL;
    dwexpr_error err;
    int rc = 0;

    for (int i = 0; i < NVARS; i++)
        if (dwexpr_program_decode(vars[i].bytes, vars[i].len, &unit, &progs[i], &err)) {
            fprintf(stderr, "%s: %s\n", vars[i].name, err.message);
            rc = 1;
        }
    if (rc == 0 && dwexpr_ctx_new(NULL, &ctx) != DWEXPR_OK)
        rc = 1;
    for (uint32_t frame = 0; rc == 0 && frame < 2; frame++) {
        /* one binding per frame; the parameters are copied */
        const dwexpr_eval_params params = {.frame = frame, .ctx = DWEXPR_CTX_FRAME};
        dwexpr_ctx_bind(ctx, &target, NULL, &params);
        printf("frame %u\n", (unsigned)frame);
        for (int i = 0; i < NVARS; i++) {
            dwexpr_result res;
            if (dwexpr_eval_bound(ctx, progs[i], &res) != DWEXPR_OK) {
                printf("  %s: %s\n", vars[i].name, dwexpr_ctx_error(ctx)->message);
                continue;
            }
            print_result(vars[i].name, &res);
        }
    }
    dwexpr_ctx_free(ctx);
    for (int i = 0; i < NVARS; i++)
        dwexpr_program_free(progs[i]);
    return rc;
}
