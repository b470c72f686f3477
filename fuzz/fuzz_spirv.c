/* fuzz/fuzz_spirv.c: libFuzzer harness for the SPIR-V front end
 * (dwexpr/spirv.h). Input: a mode byte, then
 *  - bit 0 clear: a SPIR-V module (the rest of the input as bytes);
 *  - bit 0 set: the text form; bits 1-2 pick the instruction set
 *    (DebugInfo, OpenCL.DebugInfo.100, NonSemantic.Shader), bit 3 a
 *    DebugDeclare; the text may hold several expressions separated by '\n'
 *    (fragments of one variable).
 * Bits 4-7 pick the unit (fz_unit of the high nibble) and the initial
 * entry's kind. Invariants: module reading gives OK or a decode-class
 * error (E_NOMEM aside) with a message and an offset inside the module;
 * every entry has a name, known operations with the table's operand
 * counts; the text form gives OK, E_SYNTAX (offset inside the text) or
 * E_NOSPACE, and what parses formats back to text that parses to the same
 * operations; lowering gives OK or a usage-class error, twice the same,
 * and the lowered program passes fuzz_frontend.h's checks. */
#include "fuzz_frontend.h"

#define MAX_OPS 64
#define MAX_EXPRS 4

static void lower_and_check(const dwexpr_spirv_record *r, size_t n, const dwexpr_unit *u)
{
    dwexpr_lowered *a = NULL, *b = NULL;
    dwexpr_error err, err2;
    memset(&err, 0, sizeof err);
    dwexpr_status s = dwexpr_spirv_lower(r, n, u, &a, &err);
    FZ_CHECK(s == DWEXPR_OK || dwexpr_status_class(s) == DWEXPR_CLASS_USAGE || s == DWEXPR_E_NOMEM,
             "spirv lower returned %s: %s", dwexpr_status_name(s), err.message);
    dwexpr_status s2 = dwexpr_spirv_lower(r, n, u, &b, &err2);
    FZ_CHECK(s == s2, "lowering twice: %s then %s", dwexpr_status_name(s), dwexpr_status_name(s2));
    if (s == DWEXPR_OK) {
        fzf_check_same(a, b);
        fzf_check_lowered(a);
    }
    dwexpr_lowered_free(a);
    dwexpr_lowered_free(b);
}

static dwexpr_diarg initial(uint8_t mode, uint64_t v)
{
    dwexpr_diarg a = {(dwexpr_diarg_kind)((mode >> 6) & 3), false, v & 0xff};
    if (a.kind == DWEXPR_DIARG_ADDR)
        a.value = 0x1000 + 8 * (v & 0xff);
    return a;
}

static void module(uint8_t mode, const uint8_t *data, size_t size, const dwexpr_unit *u)
{
    uint8_t *copy = malloc(size ? size : 1);
    FZ_CHECK(copy != NULL, "out of memory");
    memcpy(copy, data, size);
    dwexpr_spirv_module *m = NULL;
    dwexpr_error err;
    memset(&err, 0, sizeof err);
    dwexpr_status s = dwexpr_spirv_module_read(copy, size, &m, &err);
    FZ_CHECK(s == DWEXPR_OK || dwexpr_status_class(s) == DWEXPR_CLASS_DECODE || s == DWEXPR_E_NOMEM,
             "module read returned %s: %s", dwexpr_status_name(s), err.message);
    if (s != DWEXPR_OK) {
        FZ_CHECK(m == NULL && err.message[0] && err.offset >= 0 && err.offset <= (int64_t)size,
                 "module error details: offset %lld of %zu", (long long)err.offset, size);
        free(copy);
        return;
    }
    for (size_t i = 0; i < dwexpr_spirv_module_count(m); i++) {
        const dwexpr_spirv_entry *e = dwexpr_spirv_module_entry(m, i);
        FZ_CHECK(e && e->name && (e->nops == 0 || e->ops), "entry %zu", i);
        FZ_CHECK(4 * e->word < size, "entry %zu word %zu outside the module", i, e->word);
        for (size_t k = 0; k < e->nops; k++)
            FZ_CHECK(dwexpr_spirv_op_name(e->ops[k].code) != NULL && e->ops[k].nops <= 2,
                     "entry %zu operation %zu: code %u", i, k, (unsigned)e->ops[k].code);
        dwexpr_spirv_record r = {e->ops, e->nops, e->is_declare,
                                 initial(mode, e->has_const ? e->const_value : e->operand_id)};
        lower_and_check(&r, 1, u);
    }
    FZ_CHECK(dwexpr_spirv_module_entry(m, dwexpr_spirv_module_count(m)) == NULL, "entry past end");
    dwexpr_spirv_module_free(m);
    free(copy);
}

static void text(uint8_t mode, const uint8_t *data, size_t size, const dwexpr_unit *u)
{
    static const dwexpr_spirv_set sets[4] = {DWEXPR_SPIRV_SET_DEBUGINFO, DWEXPR_SPIRV_SET_OPENCL_100,
                                             DWEXPR_SPIRV_SET_SHADER_100, DWEXPR_SPIRV_SET_NONE};
    dwexpr_spirv_set set = sets[(mode >> 1) & 3];
    char *t = malloc(size + 1);
    FZ_CHECK(t != NULL, "out of memory");
    memcpy(t, data, size);
    t[size] = 0;
    static dwexpr_spirv_op ops[MAX_EXPRS][MAX_OPS];
    dwexpr_spirv_record r[MAX_EXPRS];
    size_t n = 0;
    char *line = t;
    for (; n < MAX_EXPRS && line; n++) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = 0;
        size_t count = 0;
        dwexpr_error err;
        memset(&err, 0, sizeof err);
        dwexpr_status s = dwexpr_spirv_parse(line, set, ops[n], MAX_OPS, &count, &err);
        FZ_CHECK(s == DWEXPR_OK || s == DWEXPR_E_SYNTAX || s == DWEXPR_E_NOSPACE,
                 "parse returned %s", dwexpr_status_name(s));
        if (s == DWEXPR_E_SYNTAX)
            FZ_CHECK(err.message[0] && err.offset >= 0 && err.offset <= (int64_t)strlen(line),
                     "parse error offset %lld", (long long)err.offset);
        if (s == DWEXPR_E_NOSPACE)
            FZ_CHECK(count > MAX_OPS, "E_NOSPACE with %zu operations", count);
        if (s != DWEXPR_OK) {
            free(t);
            return;
        }
        size_t need = dwexpr_spirv_format(ops[n], count, NULL, 0);
        char *back = malloc(need + 1);
        FZ_CHECK(back != NULL, "out of memory");
        dwexpr_spirv_format(ops[n], count, back, need + 1);
        FZ_CHECK(strlen(back) == need, "format length %zu / %zu", strlen(back), need);
        dwexpr_spirv_op again[MAX_OPS];
        size_t c2 = 0;
        FZ_CHECK(dwexpr_spirv_parse(back, set, again, MAX_OPS, &c2, &err) == DWEXPR_OK &&
                     c2 == count && memcmp(again, ops[n], count * sizeof *again) == 0,
                 "'%s' does not parse back to the same operations", back);
        free(back);
        r[n] = (dwexpr_spirv_record){ops[n], count, (mode & 8) != 0, initial(mode, n + 3)};
        line = nl ? nl + 1 : NULL;
    }
    lower_and_check(r, n, u);
    free(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    dwexpr_unit u = fz_unit((uint8_t)(data[0] >> 4));
    if (data[0] & 1)
        text(data[0], data + 1, size - 1, &u);
    else
        module(data[0], data + 1, size - 1, &u);
    return 0;
}
