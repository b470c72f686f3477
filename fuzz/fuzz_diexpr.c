/* fuzz/fuzz_diexpr.c: libFuzzer harness for the DIExpression front end
 * (dwexpr/diexpr.h). Input: a unit byte (fuzz_common.h fz_unit), a flags
 * byte (bit 0: #dbg_declare; bits 1-3: location operands 0..7), 2 bytes
 * per operand (kind in the low 2 bits of the first: undef / register /
 * constant / address; value from the second, constants negative when bit
 * 2 is set), then the text: up to 4 expressions separated by '\n'.
 * Invariants: parsing gives OK or E_SYNTAX with an offset inside the text
 * and a message; the canonical text of what parses parses to the same
 * operations (a fixed point); lowering gives OK or a usage-class error
 * with a message, twice the same; the lowered program passes
 * fuzz_frontend.h's checks (decode, asm(disasm) round trip, evaluation). */
#include "fuzz_frontend.h"

#define MAX_EXPRS 4

static void check_reparse(const dwexpr_diexpr *e)
{
    size_t need = dwexpr_diexpr_format(e, NULL, 0);
    char *text = malloc(need + 1);
    FZ_CHECK(text != NULL, "out of memory");
    FZ_CHECK(dwexpr_diexpr_format(e, text, need + 1) == need && strlen(text) == need,
             "format length");
    dwexpr_diexpr *again = NULL;
    dwexpr_error err;
    FZ_CHECK(dwexpr_diexpr_parse(text, &again, &err) == DWEXPR_OK,
             "canonical text '%s' does not parse: %s", text, err.message);
    FZ_CHECK(dwexpr_diexpr_count(again) == dwexpr_diexpr_count(e), "reparse count");
    for (size_t i = 0; i < dwexpr_diexpr_count(e); i++) {
        const dwexpr_diexpr_op *x = dwexpr_diexpr_get(e, i), *y = dwexpr_diexpr_get(again, i);
        FZ_CHECK(x->internal == y->internal && x->id == y->id && x->nops == y->nops &&
                     x->operand[0] == y->operand[0] && x->operand[1] == y->operand[1],
                 "operation %zu of '%s' changes on reparse", i, text);
    }
    dwexpr_diexpr_free(again);
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    dwexpr_unit u = fz_unit(data[0]);
    bool declare = data[1] & 1;
    size_t nargs = (data[1] >> 1) & 7, pos = 2;
    dwexpr_diarg args[8];
    memset(args, 0, sizeof args);
    for (size_t i = 0; i < nargs; i++, pos += 2) {
        uint8_t k = pos < size ? data[pos] : 0, v = pos + 1 < size ? data[pos + 1] : 0;
        args[i].kind = (dwexpr_diarg_kind)(k & 3);
        args[i].value = v;
        if (args[i].kind == DWEXPR_DIARG_ADDR)
            args[i].value = 0x1000 + 8u * v;
        if (args[i].kind == DWEXPR_DIARG_CONST && (k & 4)) {
            args[i].value = (uint64_t)-(int64_t)v;
            args[i].is_signed = v != 0;
        }
    }
    if (pos > size)
        pos = size;
    char *text = malloc(size - pos + 1);
    FZ_CHECK(text != NULL, "out of memory");
    memcpy(text, data + pos, size - pos);
    text[size - pos] = 0;

    dwexpr_diexpr *exprs[MAX_EXPRS] = {0};
    dwexpr_dbg_record recs[MAX_EXPRS];
    size_t n = 0;
    char *line = text;
    for (; n < MAX_EXPRS && line; n++) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = 0;
        dwexpr_error err;
        memset(&err, 0, sizeof err);
        dwexpr_status s = dwexpr_diexpr_parse(line, &exprs[n], &err);
        FZ_CHECK(s == DWEXPR_OK || s == DWEXPR_E_SYNTAX || s == DWEXPR_E_NOMEM,
                 "parse returned %s", dwexpr_status_name(s));
        if (s != DWEXPR_OK) {
            FZ_CHECK(exprs[n] == NULL && err.status == s && err.message[0] &&
                         err.offset >= -1 && err.offset <= (int64_t)strlen(line),
                     "parse error details: offset %lld of %zu, '%s'", (long long)err.offset,
                     strlen(line), err.message);
            goto out;
        }
        check_reparse(exprs[n]);
        recs[n] = (dwexpr_dbg_record){exprs[n], declare ? DWEXPR_DBG_DECLARE : DWEXPR_DBG_VALUE,
                                      args, nargs};
        line = nl ? nl + 1 : NULL;
    }
    dwexpr_lowered *a = NULL, *b = NULL;
    dwexpr_error err;
    memset(&err, 0, sizeof err);
    dwexpr_status s = dwexpr_diexpr_lower(recs, n, &u, &a, &err);
    FZ_CHECK(s == DWEXPR_OK || dwexpr_status_class(s) == DWEXPR_CLASS_USAGE || s == DWEXPR_E_NOMEM,
             "lower returned %s: %s", dwexpr_status_name(s), err.message);
    dwexpr_error err2;
    dwexpr_status s2 = dwexpr_diexpr_lower(recs, n, &u, &b, &err2);
    FZ_CHECK(s == s2, "lowering twice: %s then %s", dwexpr_status_name(s), dwexpr_status_name(s2));
    if (s == DWEXPR_OK) {
        fzf_check_same(a, b);
        fzf_check_lowered(a);
    } else {
        FZ_CHECK(err.message[0] && strcmp(err.message, err2.message) == 0,
                 "lowering error message '%s' / '%s'", err.message, err2.message);
    }
    dwexpr_lowered_free(a);
    dwexpr_lowered_free(b);
out:
    for (size_t i = 0; i < MAX_EXPRS; i++)
        dwexpr_diexpr_free(exprs[i]);
    free(text);
    return 0;
}
