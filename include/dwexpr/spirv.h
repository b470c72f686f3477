/* dwexpr/spirv.h: SPIR-V debug expressions as a producer-side front end.
 *
 * SPIR-V modules carry variable locations as DebugDeclare / DebugValue
 * instructions of an extended instruction set ("DebugInfo", the older one;
 * "OpenCL.DebugInfo.100"; "NonSemantic.Shader.DebugInfo.100", whose
 * literals are OpConstant ids) pointing at a DebugExpression, a list of
 * DebugOperation instructions (OpenCL.DebugInfo.100 section 3.6 "Debug
 * Operations"). This header reads them from text ("Deref PlusUconst 8
 * StackValue") or from a binary module, and lowers them to DWARF through
 * the DIExpression front end (dwexpr/diexpr.h): every DebugOperation is a
 * DWARF operation, Fragment is DW_OP_LLVM_fragment. Its placement rules
 * are LLVM's, but for one: StackValue may come just before BitPiece as
 * before Fragment (3.6: Fragment "has the same semantics as BitPiece";
 * StackValue then BitPiece is DWARF's value piece). */
#ifndef DWEXPR_SPIRV_H
#define DWEXPR_SPIRV_H

#include "diexpr.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The Debug Operations table (OpenCL.DebugInfo.100 3.6; the DebugInfo set
 * has the same without Fragment): X(name, encoding, operand count, the
 * DWARF operation it lowers to). BitPiece's operands are offset, size (in
 * that order, unlike DW_OP_bit_piece); Fragment lowers to
 * DW_OP_LLVM_fragment (dwexpr/diexpr.h), marked here with DW_OP_piece. */
#define DWEXPR_SPIRV_OPS(X)                 \
    X(Deref, 0, 0, deref)                   \
    X(Plus, 1, 0, plus)                     \
    X(Minus, 2, 0, minus)                   \
    X(PlusUconst, 3, 1, plus_uconst)        \
    X(BitPiece, 4, 2, bit_piece)            \
    X(Swap, 5, 0, swap)                     \
    X(Xderef, 6, 0, xderef)                 \
    X(StackValue, 7, 0, stack_value)        \
    X(Constu, 8, 1, constu)                 \
    X(Fragment, 9, 2, piece)

typedef enum dwexpr_spirv_opcode {
#define DWX_X(n, c, k, d) DWEXPR_SPIRV_OP_##n = c,
    DWEXPR_SPIRV_OPS(DWX_X)
#undef DWX_X
    DWEXPR_SPIRV_OP_COUNT
} dwexpr_spirv_opcode;

/* The extended instruction set a module imports. */
typedef enum dwexpr_spirv_set {
    DWEXPR_SPIRV_SET_NONE = 0,
    DWEXPR_SPIRV_SET_DEBUGINFO,      /* "DebugInfo": no Fragment */
    DWEXPR_SPIRV_SET_OPENCL_100,     /* "OpenCL.DebugInfo.100" */
    DWEXPR_SPIRV_SET_SHADER_100      /* "NonSemantic.Shader.DebugInfo.100": literals are OpConstant ids */
} dwexpr_spirv_set;

/* "OpenCL.DebugInfo.100", ...; NULL for NONE. */
DWEXPR_API const char *dwexpr_spirv_set_name(dwexpr_spirv_set set);

/* One DebugOperation: its encoding and literal operands. */
typedef struct dwexpr_spirv_op {
    uint32_t code;                   /* dwexpr_spirv_opcode */
    uint32_t nops;
    uint32_t operand[2];
} dwexpr_spirv_op;

/* Name of operation CODE ("PlusUconst"), NULL if unknown. */
DWEXPR_API const char *dwexpr_spirv_op_name(uint32_t code);

/* Parse the text form: operation names separated by blanks (or commas),
 * each followed by its literal operands (decimal or 0x-hex, 32 bits).
 * SET decides whether Fragment exists (not in DEBUGINFO). Fills OPS (CAP
 * entries); *COUNT gets the number (E_NOSPACE when larger than CAP).
 * Errors: E_SYNTAX (class usage), ERR->offset = the character offset. */
DWEXPR_API dwexpr_status dwexpr_spirv_parse(const char *text, dwexpr_spirv_set set,
                                            dwexpr_spirv_op *ops, size_t cap, size_t *count,
                                            dwexpr_error *err);
/* The text form of N operations into BUF (CAP bytes, NUL terminated).
 * Returns the length it wanted. */
DWEXPR_API size_t dwexpr_spirv_format(const dwexpr_spirv_op *ops, size_t n, char *buf,
                                      size_t cap);

/* One DebugValue / DebugDeclare found in a module. */
typedef struct dwexpr_spirv_entry {
    bool is_declare;                 /* DebugDeclare: the expression gives the address */
    uint32_t id;                     /* its result id */
    size_t word;                     /* word offset of the instruction in the module */
    uint32_t variable_id;            /* the DebugLocalVariable */
    const char *name;                /* its name (OpString); "" when unknown */
    uint32_t operand_id;             /* Value (DebugValue) or Variable (DebugDeclare) */
    const char *operand_name;        /* OpName of the operand, or NULL */
    bool has_const;                  /* the operand is a scalar OpConstant ... */
    uint64_t const_value;            /* ... of this value */
    uint32_t expr_id;                /* the DebugExpression */
    const dwexpr_spirv_op *ops;
    size_t nops;
} dwexpr_spirv_entry;

typedef struct dwexpr_spirv_module dwexpr_spirv_module;

/* Read a SPIR-V binary module (LEN bytes: whole 32-bit words, either byte
 * order, told by the magic number). Finds the debug instruction set, every
 * DebugOperation / DebugExpression / DebugLocalVariable and lists each
 * DebugValue / DebugDeclare. Errors (class decode, ERR->offset = byte
 * offset): E_TRUNCATED (not whole words, header cut short, an instruction
 * running past the end), E_BAD_OPERAND (bad magic, word count 0, a
 * reference to a missing or wrong instruction, an operation with the wrong
 * number of operands), E_UNKNOWN_OP (a DebugOperation the set does not have). */
DWEXPR_API dwexpr_status dwexpr_spirv_module_read(const uint8_t *bytes, size_t len,
                                                  dwexpr_spirv_module **out, dwexpr_error *err);
DWEXPR_API void dwexpr_spirv_module_free(dwexpr_spirv_module *m);
DWEXPR_API dwexpr_spirv_set dwexpr_spirv_module_set(const dwexpr_spirv_module *m);
DWEXPR_API size_t dwexpr_spirv_module_count(const dwexpr_spirv_module *m);
/* Entry I in module order, NULL when out of range. */
DWEXPR_API const dwexpr_spirv_entry *dwexpr_spirv_module_entry(const dwexpr_spirv_module *m,
                                                               size_t i);

/* One expression to lower: its operations, whether a DebugDeclare, and the
 * spec's initial stack entry (3.6: "the address or value of the source
 * variable"): a register holding it, a constant, an address or undef. */
typedef struct dwexpr_spirv_record {
    const dwexpr_spirv_op *ops;
    size_t nops;
    bool is_declare;
    dwexpr_diarg initial;
} dwexpr_spirv_record;

/* Lower N records of one variable (several need a Fragment each) to DWARF
 * for UNIT: the initial entry is pushed first (as DW_OP_LLVM_arg 0 of a
 * DIExpression), then each operation as the DWARF one it names, with the
 * DIExpression rules of dwexpr_diexpr_lower for values and fragments.
 * Errors as dwexpr_diexpr_lower. */
DWEXPR_API dwexpr_status dwexpr_spirv_lower(const dwexpr_spirv_record *recs, size_t n,
                                            const dwexpr_unit *unit, dwexpr_lowered **out,
                                            dwexpr_error *err);

#ifdef __cplusplus
}
#endif
#endif
