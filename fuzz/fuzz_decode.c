/* fuzz/fuzz_decode.c: libFuzzer harness for decoding and validating
 * expression bytes. Input: one unit byte (fuzz_common.h fz_unit; bit 7
 * selects the x86_64 register names), then the expression bytes. */
#include "fuzz_common.h"

/* Check the public view of a decoded program: operations tile the input,
 * ids and sizes are sane, and each formats without overrunning. */
static void check_ops(const dwexpr_program *prog, const uint8_t *b, size_t len,
                      const dwexpr_unit *u, const dwexpr_arch *arch)
{
    size_t n = dwexpr_program_count(prog), at = 0;
    const dwexpr_unit *pu = dwexpr_program_unit(prog);
    FZ_CHECK(pu != NULL, "no unit");
    FZ_CHECK(pu->addr_size == u->addr_size && pu->offset_size == u->offset_size &&
                 pu->version == u->version && pu->ext_encoding == u->ext_encoding &&
                 pu->big_endian == u->big_endian,
             "program unit differs from the decode unit");
    FZ_CHECK(n <= len, "%zu operations in %zu bytes", n, len);
    for (size_t i = 0; i < n; i++) {
        dwexpr_op view;
        const dwexpr_op *op = dwexpr_program_op(prog, i, &view);
        char text[64];
        FZ_CHECK(op != NULL, "op %zu missing", i);
        FZ_CHECK((unsigned)op->id < DWEXPR_OP_COUNT, "op %zu id %d", i, (int)op->id);
        FZ_CHECK(op->offset == at, "op %zu at offset %u, expected %zu", i, (unsigned)op->offset,
                 at);
        FZ_CHECK(op->size >= 1 && op->size <= len - at, "op %zu size %u at %zu of %zu", i,
                 (unsigned)op->size, at, len);
        if (op->block) {
            FZ_CHECK(op->block >= b + op->offset && op->block_len <= op->size &&
                         op->block + op->block_len <= b + op->offset + op->size,
                     "op %zu block outside its operation", i);
        }
        /* operation byte(s) as the table says */
        const dwexpr_opinfo *in = dwexpr_op_info(op->id);
        FZ_CHECK(in != NULL, "no info for op %zu", i);
        FZ_CHECK(b[at] == in->code || (b[at] == DW_OP_LLVM_user && in->subop && op->size >= 2),
                 "op %zu byte 0x%02x is not %s", i, b[at], in->name);
        /* a short buffer first: a terminated prefix of the whole text */
        size_t want = dwexpr_op_format(op, arch, text, sizeof text);
        char *full = malloc(want + 1);
        FZ_CHECK(full != NULL, "out of memory");
        size_t want2 = dwexpr_op_format(op, arch, full, want + 1);
        FZ_CHECK(want2 == want && strlen(full) == want, "op_format wants %zu then %zu (%zu)",
                 want, want2, strlen(full));
        FZ_CHECK(strlen(text) == (want < sizeof text ? want : sizeof text - 1) &&
                     strncmp(text, full, sizeof text - 1) == 0,
                 "op_format truncation is not a prefix");
        free(full);
        at += op->size;
    }
    FZ_CHECK(at == len, "operations cover %zu of %zu bytes", at, len);
}

/* Decode with the unit of byte 0; check the program, then that the
 * disassembly reassembles to the same bytes. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    dwexpr_unit u = fz_unit(data[0]);
    const dwexpr_arch *arch = (data[0] & 0x80) ? dwexpr_arch_find("x86_64") : NULL;
    size_t len = size - 1;
    /* an exact-size copy, so a sanitizer sees any read past the end */
    uint8_t *b = malloc(len ? len : 1);
    FZ_CHECK(b != NULL, "out of memory");
    memcpy(b, data + 1, len);

    dwexpr_program *prog = NULL;
    dwexpr_error err;
    memset(&err, 0, sizeof err);
    dwexpr_status s = dwexpr_program_decode(b, len, &u, &prog, &err);
    if (s == DWEXPR_OK) {
        FZ_CHECK(prog != NULL, "decode OK without a program");
        check_ops(prog, b, len, &u, arch);
    } else {
        FZ_CHECK(fz_decode_class(s), "decode failed with %s (class %s)", dwexpr_status_name(s),
                 dwexpr_class_name(dwexpr_status_class(s)));
        FZ_CHECK(err.status == s, "err.status %s vs %s", dwexpr_status_name(err.status),
                 dwexpr_status_name(s));
        FZ_CHECK(err.offset >= -1 && err.offset <= (int64_t)len, "error offset %lld of %zu",
                 (long long)err.offset, len);
        FZ_CHECK(memchr(err.message, 0, sizeof err.message) != NULL, "message not terminated");
    }

    char *text = NULL;
    size_t tlen = 0;
    dwexpr_status ds = fz_disasm(b, len, &u, arch, &text, &tlen);
    if (s == DWEXPR_OK)
        FZ_CHECK(ds == DWEXPR_OK, "decodes but disasm fails: %s", dwexpr_status_name(ds));
    if (ds != DWEXPR_OK) {
        FZ_CHECK(fz_decode_class(ds), "disasm failed with %s", dwexpr_status_name(ds));
        FZ_CHECK(s != DWEXPR_OK, "disasm fails (%s) where decode succeeds",
                 dwexpr_status_name(ds));
    } else {
        /* every stream the disassembler prints must reassemble exactly
         * (a bad branch target decodes: it is ill-formed only when taken) */
        FZ_CHECK(s == DWEXPR_OK || dwexpr_status_class(s) == DWEXPR_CLASS_ILL_FORMED,
                 "disasm succeeds where decode fails with %s", dwexpr_status_name(s));
        fz_check_reassembles(text, b, len, &u, arch);
    }
    free(text);
    dwexpr_program_free(prog);
    free(b);
    return 0;
}
