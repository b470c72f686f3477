/* lib/status.c: status names, classes and messages, all generated from
 * DWEXPR_STATUS_LIST / DWEXPR_CLASS_LIST, plus dwx_fail(), the one place
 * that fills a dwexpr_error, and the run-time version number. */
#include <stdarg.h>
#include <stdio.h>
#include "dwx.h"

static const struct {
    const char *name;
    const char *msg;
    dwexpr_class cls;
} status_tab[DWEXPR_STATUS_COUNT] = {
#define DWX_X(n, c, m) {#n, m, DWEXPR_CLASS_##c},
    DWEXPR_STATUS_LIST(DWX_X)
#undef DWX_X
};

static const char *const class_tab[DWEXPR_CLASS_COUNT] = {
#define DWX_X(n, s) s,
    DWEXPR_CLASS_LIST(DWX_X)
#undef DWX_X
};

/* Class of S; out-of-range statuses count as usage errors. */
dwexpr_class dwexpr_status_class(dwexpr_status s)
{
    if ((unsigned)s >= DWEXPR_STATUS_COUNT)
        return DWEXPR_CLASS_USAGE;
    return status_tab[s].cls;
}

/* "E_DIV_ZERO"-style name of S (static). */
const char *dwexpr_status_name(dwexpr_status s)
{
    if ((unsigned)s >= DWEXPR_STATUS_COUNT)
        return "E_UNKNOWN_STATUS";
    return status_tab[s].name;
}

/* Default message of S (static). */
const char *dwexpr_strerror(dwexpr_status s)
{
    if ((unsigned)s >= DWEXPR_STATUS_COUNT)
        return "unknown status";
    return status_tab[s].msg;
}

/* Contract name of class C ("ill_formed", ...). */
const char *dwexpr_class_name(dwexpr_class c)
{
    if ((unsigned)c >= DWEXPR_CLASS_COUNT)
        return "unknown";
    return class_tab[c];
}

/* Record a failure in ERR (may be NULL). The opcode is the table's byte;
 * DW_OP_LLVM_* operations report the DW_OP_LLVM_user form
 * (0xe9 * 0x100 + sub-op), the default encoding; the decoder corrects it
 * for units in the provisional encoding. */
dwexpr_status dwx_fail(dwexpr_error *err, dwexpr_status s, int64_t offset,
                       int id, const char *fmt, ...)
{
    if (!err)
        return s;
    err->status = s;
    err->offset = offset;
    err->opcode = -1;
    err->op_name = NULL;
    const dwexpr_opinfo *info = (id >= 0) ? dwexpr_op_info((dwexpr_opid)id) : NULL;
    if (info) {
        err->op_name = info->name;
        if (info->subop)
            err->opcode = DW_OP_LLVM_user * 0x100 + info->subop;
        else
            err->opcode = info->code;
    }
    if (fmt) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
    } else {
        snprintf(err->message, sizeof err->message, "%s", dwexpr_strerror(s));
    }
    return s;
}

/* The version the library was built as. */
unsigned dwexpr_version_number(void)
{
    return DWEXPR_VERSION_NUMBER;
}
