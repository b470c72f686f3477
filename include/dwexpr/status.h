/* dwexpr/status.h: status codes, their classes and error details.
 * Every fallible dwexpr call returns a dwexpr_status; DWEXPR_OK is 0. */
#ifndef DWEXPR_STATUS_H
#define DWEXPR_STATUS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef DWEXPR_API
#  if defined(__GNUC__)
#    define DWEXPR_API __attribute__((visibility("default")))
#  else
#    define DWEXPR_API
#  endif
#endif

/* Error classes, as the outside contract names them. */
#define DWEXPR_CLASS_LIST(X)                                                   \
    X(NONE, "ok")                                                              \
    X(DECODE, "decode")          /* bytes are not an operation stream */      \
    X(ILL_FORMED, "ill_formed")  /* the spec calls the DWARF ill-formed */     \
    X(EVALUATION, "evaluation")  /* the spec's evaluation errors */            \
    X(CONTEXT, "context")        /* a needed context element is missing */    \
    X(LIMIT, "limit")            /* a configured resource bound was hit */     \
    X(TARGET, "target")          /* the target could not answer */            \
    X(USAGE, "usage")            /* the API was called wrongly */

typedef enum dwexpr_class {
#define DWX_X(n, s) DWEXPR_CLASS_##n,
    DWEXPR_CLASS_LIST(DWX_X)
#undef DWX_X
    DWEXPR_CLASS_COUNT
} dwexpr_class;

/* Status list: X(NAME, CLASS, "default message"). Numbers are stable and
 * append-only: add new rows at the end only. */
#define DWEXPR_STATUS_LIST(X)                                                  \
    X(OK, NONE, "success")                                                     \
    X(E_TRUNCATED, DECODE, "operand runs past the end of the expression")      \
    X(E_UNKNOWN_OP, DECODE, "unknown opcode")                                  \
    X(E_VENDOR_OP, DECODE, "unknown vendor operation")                         \
    X(E_LEB_OVERFLOW, DECODE, "LEB128 operand does not fit in 64 bits")        \
    X(E_BAD_SUBOP, DECODE, "unknown or reserved DW_OP_LLVM_user sub-operation") \
    X(E_BAD_OPERAND, DECODE, "operand value out of range")                     \
    X(E_BAD_BRANCH, ILL_FORMED, "branch target is not the start of an operation") \
    X(E_STACK_EMPTY, ILL_FORMED, "not enough entries on the stack")            \
    X(E_NOT_VALUE, ILL_FORMED, "stack entry is not a value")                   \
    X(E_NOT_LOCATION, ILL_FORMED, "stack entry is not a location description") \
    X(E_NOT_INTEGRAL, ILL_FORMED, "value is not of an integral type")          \
    X(E_TYPE_MISMATCH, ILL_FORMED, "operands have different types")            \
    X(E_INCOMPLETE, ILL_FORMED, "incomplete composite location description")   \
    X(E_BAD_TYPE, ILL_FORMED, "operand does not name a usable base type")      \
    X(E_BAD_ASPACE, ILL_FORMED, "unknown address space")                       \
    X(E_PIECE_RANGE, ILL_FORMED, "composite part runs past the end of its storage") \
    X(E_ILL_FORMED, ILL_FORMED, "ill-formed DWARF expression")                 \
    X(E_DIV_ZERO, EVALUATION, "division by zero")                              \
    X(E_UNDEFINED_READ, EVALUATION, "read of undefined storage")               \
    X(E_OUT_OF_RANGE, EVALUATION, "access past the end of a storage")          \
    X(E_BAD_OFFSET, EVALUATION, "bit offset outside its storage")              \
    X(E_IMPLICIT_PTR, EVALUATION, "invalid access to an implicit pointer")     \
    X(E_READ_ONLY, EVALUATION, "storage cannot be written")                    \
    X(E_EVALUATION, EVALUATION, "evaluation error")                            \
    X(E_NO_CONTEXT, CONTEXT, "a required context element is not given")       \
    X(E_UNSUPPORTED, CONTEXT, "the target does not provide this service")      \
    X(E_STEPS, LIMIT, "operation limit reached")                               \
    X(E_STACK_LIMIT, LIMIT, "stack depth limit reached")                       \
    X(E_CALL_DEPTH, LIMIT, "call nesting limit reached")                       \
    X(E_TOO_BIG, LIMIT, "composite or implicit storage too large")             \
    X(E_NOSPACE, LIMIT, "out of scratch memory")                               \
    X(E_TARGET, TARGET, "the target could not complete the access")            \
    X(E_NOT_FOUND, TARGET, "the target has no such entry")                     \
    X(E_USAGE, USAGE, "invalid argument")                                      \
    X(E_NOMEM, LIMIT, "out of memory")                                         \
    X(E_SYNTAX, USAGE, "text form does not parse")                             \
    X(E_INTERRUPTED, LIMIT, "evaluation interrupted")

typedef enum dwexpr_status {
#define DWX_X(n, c, m) DWEXPR_##n,
    DWEXPR_STATUS_LIST(DWX_X)
#undef DWX_X
    DWEXPR_STATUS_COUNT
} dwexpr_status;

/* The class of a status (DWEXPR_CLASS_NONE for DWEXPR_OK). */
DWEXPR_API dwexpr_class dwexpr_status_class(dwexpr_status s);
/* "E_DIV_ZERO"-style name; static string, never NULL. */
DWEXPR_API const char *dwexpr_status_name(dwexpr_status s);
/* Default human message; static string, never NULL. */
DWEXPR_API const char *dwexpr_strerror(dwexpr_status s);
/* Contract class name ("ill_formed", "evaluation", ...); never NULL. */
DWEXPR_API const char *dwexpr_class_name(dwexpr_class c);

/* Details of the last failure: filled by every call that takes one. */
typedef struct dwexpr_error {
    dwexpr_status status;
    int64_t offset;     /* byte offset of the failing operation, -1 if none */
    int opcode;         /* its opcode byte (or DW_OP_LLVM_user sub-op + 0x100*0xe9), -1 if none */
    const char *op_name;/* "DW_OP_deref" or NULL; static storage */
    char message[200];  /* a sentence a person understands */
} dwexpr_error;

#ifdef __cplusplus
}
#endif
#endif
