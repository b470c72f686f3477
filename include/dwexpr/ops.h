/* dwexpr/ops.h: the one table of DWARF expression operations.
 * Every part of dwexpr (decoder, validator, disassembler, assembler,
 * evaluator, CLI help) reads DWEXPR_OPS; there is no other opcode list. */
#ifndef DWEXPR_OPS_H
#define DWEXPR_OPS_H

#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Operand layouts (DWARF 5 section 7.7.1, Table 7.9). */
#define DWEXPR_OPERAND_LIST(X)                                                 \
    X(NONE)         /* no operands */                                          \
    X(ADDR)         /* address-size constant */                                \
    X(U8) X(S8) X(U16) X(S16) X(U32) X(S32) X(U64) X(S64)                      \
    X(ULEB) X(SLEB)                                                            \
    X(ULEB_SLEB)    /* register, displacement */                               \
    X(ULEB_ULEB)    /* two unsigned LEB128 */                                  \
    X(SKIP)         /* signed 2-byte branch displacement */                    \
    X(BLOCK)        /* ULEB128 length, then that many bytes */                 \
    X(CONST_TYPE)   /* ULEB128 type DIE, 1-byte size, that many bytes */       \
    X(U8_ULEB)      /* 1-byte size, ULEB128 type DIE */                        \
    X(REF)          /* offset-size (address-size in DWARF 2) DIE reference */  \
    X(REF_SLEB)     /* DIE reference, signed LEB128 displacement */            \
    X(ENCODED_ADDR) /* DW_EH_PE encoding byte, then an address in it */

typedef enum dwexpr_operands {
#define DWX_X(k) DWEXPR_OPND_##k,
    DWEXPR_OPERAND_LIST(DWX_X)
#undef DWX_X
    DWEXPR_OPND_COUNT
} dwexpr_operands;

/* DW_OP_LLVM_user: the prefix byte of the current LLVM encoding; a ULEB128
 * sub-operation follows (see DWEXPR_OPS' subop column). */
#define DW_OP_LLVM_user 0xe9
#define DW_OP_lo_user 0xe0
#define DW_OP_hi_user 0xff

/* X(name, code, subop, operands, doc)
 *  name:  without the DW_OP_ prefix
 *  code:  the opcode byte; for DW_OP_LLVM_* the seed's provisional byte
 *         (0 when the operation has none)
 *  subop: for DW_OP_LLVM_* the DW_OP_LLVM_user sub-operation (0: none);
 *         0 for every other operation
 * The order is the enum order: lit0..lit31, reg0..reg31 and breg0..breg31
 * are contiguous. */
#define DWEXPR_OPS(X) \
    X(addr, 0x03, 0x00, ADDR, "push a memory location in the default address space at a constant address") \
    X(deref, 0x06, 0x00, NONE, "pop a location, push the generic-sized value read from it") \
    X(const1u, 0x08, 0x00, U8, "push a generic value: unsigned 1-byte constant") \
    X(const1s, 0x09, 0x00, S8, "push a generic value: signed 1-byte constant") \
    X(const2u, 0x0a, 0x00, U16, "push a generic value: unsigned 2-byte constant") \
    X(const2s, 0x0b, 0x00, S16, "push a generic value: signed 2-byte constant") \
    X(const4u, 0x0c, 0x00, U32, "push a generic value: unsigned 4-byte constant") \
    X(const4s, 0x0d, 0x00, S32, "push a generic value: signed 4-byte constant") \
    X(const8u, 0x0e, 0x00, U64, "push a generic value: unsigned 8-byte constant") \
    X(const8s, 0x0f, 0x00, S64, "push a generic value: signed 8-byte constant") \
    X(constu, 0x10, 0x00, ULEB, "push a generic value: unsigned LEB128 constant") \
    X(consts, 0x11, 0x00, SLEB, "push a generic value: signed LEB128 constant") \
    X(dup, 0x12, 0x00, NONE, "push a copy of the top entry") \
    X(drop, 0x13, 0x00, NONE, "discard the top entry") \
    X(over, 0x14, 0x00, NONE, "push a copy of entry 1") \
    X(pick, 0x15, 0x00, U8, "push a copy of entry I") \
    X(swap, 0x16, 0x00, NONE, "swap the top two entries") \
    X(rot, 0x17, 0x00, NONE, "rotate the top three entries") \
    X(xderef, 0x18, 0x00, NONE, "pop address and address space, push the generic value read there") \
    X(abs, 0x19, 0x00, NONE, "absolute value") \
    X(and, 0x1a, 0x00, NONE, "bitwise and") \
    X(div, 0x1b, 0x00, NONE, "signed division") \
    X(minus, 0x1c, 0x00, NONE, "subtraction") \
    X(mod, 0x1d, 0x00, NONE, "modulo") \
    X(mul, 0x1e, 0x00, NONE, "multiplication") \
    X(neg, 0x1f, 0x00, NONE, "negation") \
    X(not, 0x20, 0x00, NONE, "bitwise complement") \
    X(or, 0x21, 0x00, NONE, "bitwise or") \
    X(plus, 0x22, 0x00, NONE, "addition") \
    X(plus_uconst, 0x23, 0x00, ULEB, "add an unsigned constant") \
    X(shl, 0x24, 0x00, NONE, "shift left") \
    X(shr, 0x25, 0x00, NONE, "logical shift right") \
    X(shra, 0x26, 0x00, NONE, "arithmetic shift right") \
    X(xor, 0x27, 0x00, NONE, "bitwise exclusive or") \
    X(bra, 0x28, 0x00, SKIP, "pop a value, branch if it is not zero") \
    X(eq, 0x29, 0x00, NONE, "compare equal") \
    X(ge, 0x2a, 0x00, NONE, "compare greater or equal") \
    X(gt, 0x2b, 0x00, NONE, "compare greater") \
    X(le, 0x2c, 0x00, NONE, "compare less or equal") \
    X(lt, 0x2d, 0x00, NONE, "compare less") \
    X(ne, 0x2e, 0x00, NONE, "compare not equal") \
    X(skip, 0x2f, 0x00, SKIP, "branch unconditionally") \
    X(lit0, 0x30, 0x00, NONE, "push the generic value 0") \
    X(lit1, 0x31, 0x00, NONE, "push the generic value 1") \
    X(lit2, 0x32, 0x00, NONE, "push the generic value 2") \
    X(lit3, 0x33, 0x00, NONE, "push the generic value 3") \
    X(lit4, 0x34, 0x00, NONE, "push the generic value 4") \
    X(lit5, 0x35, 0x00, NONE, "push the generic value 5") \
    X(lit6, 0x36, 0x00, NONE, "push the generic value 6") \
    X(lit7, 0x37, 0x00, NONE, "push the generic value 7") \
    X(lit8, 0x38, 0x00, NONE, "push the generic value 8") \
    X(lit9, 0x39, 0x00, NONE, "push the generic value 9") \
    X(lit10, 0x3a, 0x00, NONE, "push the generic value 10") \
    X(lit11, 0x3b, 0x00, NONE, "push the generic value 11") \
    X(lit12, 0x3c, 0x00, NONE, "push the generic value 12") \
    X(lit13, 0x3d, 0x00, NONE, "push the generic value 13") \
    X(lit14, 0x3e, 0x00, NONE, "push the generic value 14") \
    X(lit15, 0x3f, 0x00, NONE, "push the generic value 15") \
    X(lit16, 0x40, 0x00, NONE, "push the generic value 16") \
    X(lit17, 0x41, 0x00, NONE, "push the generic value 17") \
    X(lit18, 0x42, 0x00, NONE, "push the generic value 18") \
    X(lit19, 0x43, 0x00, NONE, "push the generic value 19") \
    X(lit20, 0x44, 0x00, NONE, "push the generic value 20") \
    X(lit21, 0x45, 0x00, NONE, "push the generic value 21") \
    X(lit22, 0x46, 0x00, NONE, "push the generic value 22") \
    X(lit23, 0x47, 0x00, NONE, "push the generic value 23") \
    X(lit24, 0x48, 0x00, NONE, "push the generic value 24") \
    X(lit25, 0x49, 0x00, NONE, "push the generic value 25") \
    X(lit26, 0x4a, 0x00, NONE, "push the generic value 26") \
    X(lit27, 0x4b, 0x00, NONE, "push the generic value 27") \
    X(lit28, 0x4c, 0x00, NONE, "push the generic value 28") \
    X(lit29, 0x4d, 0x00, NONE, "push the generic value 29") \
    X(lit30, 0x4e, 0x00, NONE, "push the generic value 30") \
    X(lit31, 0x4f, 0x00, NONE, "push the generic value 31") \
    X(reg0, 0x50, 0x00, NONE, "push the location of register 0") \
    X(reg1, 0x51, 0x00, NONE, "push the location of register 1") \
    X(reg2, 0x52, 0x00, NONE, "push the location of register 2") \
    X(reg3, 0x53, 0x00, NONE, "push the location of register 3") \
    X(reg4, 0x54, 0x00, NONE, "push the location of register 4") \
    X(reg5, 0x55, 0x00, NONE, "push the location of register 5") \
    X(reg6, 0x56, 0x00, NONE, "push the location of register 6") \
    X(reg7, 0x57, 0x00, NONE, "push the location of register 7") \
    X(reg8, 0x58, 0x00, NONE, "push the location of register 8") \
    X(reg9, 0x59, 0x00, NONE, "push the location of register 9") \
    X(reg10, 0x5a, 0x00, NONE, "push the location of register 10") \
    X(reg11, 0x5b, 0x00, NONE, "push the location of register 11") \
    X(reg12, 0x5c, 0x00, NONE, "push the location of register 12") \
    X(reg13, 0x5d, 0x00, NONE, "push the location of register 13") \
    X(reg14, 0x5e, 0x00, NONE, "push the location of register 14") \
    X(reg15, 0x5f, 0x00, NONE, "push the location of register 15") \
    X(reg16, 0x60, 0x00, NONE, "push the location of register 16") \
    X(reg17, 0x61, 0x00, NONE, "push the location of register 17") \
    X(reg18, 0x62, 0x00, NONE, "push the location of register 18") \
    X(reg19, 0x63, 0x00, NONE, "push the location of register 19") \
    X(reg20, 0x64, 0x00, NONE, "push the location of register 20") \
    X(reg21, 0x65, 0x00, NONE, "push the location of register 21") \
    X(reg22, 0x66, 0x00, NONE, "push the location of register 22") \
    X(reg23, 0x67, 0x00, NONE, "push the location of register 23") \
    X(reg24, 0x68, 0x00, NONE, "push the location of register 24") \
    X(reg25, 0x69, 0x00, NONE, "push the location of register 25") \
    X(reg26, 0x6a, 0x00, NONE, "push the location of register 26") \
    X(reg27, 0x6b, 0x00, NONE, "push the location of register 27") \
    X(reg28, 0x6c, 0x00, NONE, "push the location of register 28") \
    X(reg29, 0x6d, 0x00, NONE, "push the location of register 29") \
    X(reg30, 0x6e, 0x00, NONE, "push the location of register 30") \
    X(reg31, 0x6f, 0x00, NONE, "push the location of register 31") \
    X(breg0, 0x70, 0x00, SLEB, "push a memory location at register 0's contents plus an offset") \
    X(breg1, 0x71, 0x00, SLEB, "push a memory location at register 1's contents plus an offset") \
    X(breg2, 0x72, 0x00, SLEB, "push a memory location at register 2's contents plus an offset") \
    X(breg3, 0x73, 0x00, SLEB, "push a memory location at register 3's contents plus an offset") \
    X(breg4, 0x74, 0x00, SLEB, "push a memory location at register 4's contents plus an offset") \
    X(breg5, 0x75, 0x00, SLEB, "push a memory location at register 5's contents plus an offset") \
    X(breg6, 0x76, 0x00, SLEB, "push a memory location at register 6's contents plus an offset") \
    X(breg7, 0x77, 0x00, SLEB, "push a memory location at register 7's contents plus an offset") \
    X(breg8, 0x78, 0x00, SLEB, "push a memory location at register 8's contents plus an offset") \
    X(breg9, 0x79, 0x00, SLEB, "push a memory location at register 9's contents plus an offset") \
    X(breg10, 0x7a, 0x00, SLEB, "push a memory location at register 10's contents plus an offset") \
    X(breg11, 0x7b, 0x00, SLEB, "push a memory location at register 11's contents plus an offset") \
    X(breg12, 0x7c, 0x00, SLEB, "push a memory location at register 12's contents plus an offset") \
    X(breg13, 0x7d, 0x00, SLEB, "push a memory location at register 13's contents plus an offset") \
    X(breg14, 0x7e, 0x00, SLEB, "push a memory location at register 14's contents plus an offset") \
    X(breg15, 0x7f, 0x00, SLEB, "push a memory location at register 15's contents plus an offset") \
    X(breg16, 0x80, 0x00, SLEB, "push a memory location at register 16's contents plus an offset") \
    X(breg17, 0x81, 0x00, SLEB, "push a memory location at register 17's contents plus an offset") \
    X(breg18, 0x82, 0x00, SLEB, "push a memory location at register 18's contents plus an offset") \
    X(breg19, 0x83, 0x00, SLEB, "push a memory location at register 19's contents plus an offset") \
    X(breg20, 0x84, 0x00, SLEB, "push a memory location at register 20's contents plus an offset") \
    X(breg21, 0x85, 0x00, SLEB, "push a memory location at register 21's contents plus an offset") \
    X(breg22, 0x86, 0x00, SLEB, "push a memory location at register 22's contents plus an offset") \
    X(breg23, 0x87, 0x00, SLEB, "push a memory location at register 23's contents plus an offset") \
    X(breg24, 0x88, 0x00, SLEB, "push a memory location at register 24's contents plus an offset") \
    X(breg25, 0x89, 0x00, SLEB, "push a memory location at register 25's contents plus an offset") \
    X(breg26, 0x8a, 0x00, SLEB, "push a memory location at register 26's contents plus an offset") \
    X(breg27, 0x8b, 0x00, SLEB, "push a memory location at register 27's contents plus an offset") \
    X(breg28, 0x8c, 0x00, SLEB, "push a memory location at register 28's contents plus an offset") \
    X(breg29, 0x8d, 0x00, SLEB, "push a memory location at register 29's contents plus an offset") \
    X(breg30, 0x8e, 0x00, SLEB, "push a memory location at register 30's contents plus an offset") \
    X(breg31, 0x8f, 0x00, SLEB, "push a memory location at register 31's contents plus an offset") \
    X(regx, 0x90, 0x00, ULEB, "push the location of register R") \
    X(fbreg, 0x91, 0x00, SLEB, "push the frame base location plus an offset") \
    X(bregx, 0x92, 0x00, ULEB_SLEB, "push a memory location at register R's contents plus an offset") \
    X(piece, 0x93, 0x00, ULEB, "add a part of S bytes to a composite") \
    X(deref_size, 0x94, 0x00, U8, "pop a location, push the S-byte value read from it") \
    X(xderef_size, 0x95, 0x00, U8, "pop address and address space, push the S-byte value read there") \
    X(nop, 0x96, 0x00, NONE, "no effect") \
    X(push_object_address, 0x97, 0x00, NONE, "push the object's location") \
    X(call2, 0x98, 0x00, U16, "call the expression of a DIE (2-byte unit offset)") \
    X(call4, 0x99, 0x00, U32, "call the expression of a DIE (4-byte unit offset)") \
    X(call_ref, 0x9a, 0x00, REF, "call the expression of a DIE (.debug_info offset)") \
    X(form_tls_address, 0x9b, 0x00, NONE, "pop a TLS offset, push its memory location") \
    X(call_frame_cfa, 0x9c, 0x00, NONE, "push the location of the canonical frame address") \
    X(bit_piece, 0x9d, 0x00, ULEB_ULEB, "add a part of S bits at bit offset B to a composite") \
    X(implicit_value, 0x9e, 0x00, BLOCK, "push an implicit location holding the given bytes") \
    X(stack_value, 0x9f, 0x00, NONE, "pop a value, push an implicit location holding it") \
    X(implicit_pointer, 0xa0, 0x00, REF_SLEB, "push an implicit pointer to a DIE's object plus an offset") \
    X(addrx, 0xa1, 0x00, ULEB, "push a memory location at a .debug_addr entry") \
    X(constx, 0xa2, 0x00, ULEB, "push the generic value of a .debug_addr entry") \
    X(entry_value, 0xa3, 0x00, BLOCK, "push the value an expression had on entry to the frame") \
    X(const_type, 0xa4, 0x00, CONST_TYPE, "push a typed constant") \
    X(regval_type, 0xa5, 0x00, ULEB_ULEB, "push a register's contents as a typed value") \
    X(deref_type, 0xa6, 0x00, U8_ULEB, "pop a location, push the typed value read from it") \
    X(xderef_type, 0xa7, 0x00, U8_ULEB, "pop address and address space, push the typed value read there") \
    X(convert, 0xa8, 0x00, ULEB, "convert the top value to another type") \
    X(reinterpret, 0xa9, 0x00, ULEB, "reinterpret the top value's bits as another type") \
    X(GNU_push_tls_address, 0xe0, 0x00, NONE, "GNU spelling of DW_OP_form_tls_address") \
    X(GNU_uninit, 0xf0, 0x00, NONE, "marks the value as uninitialized; no effect on the stack") \
    X(GNU_encoded_addr, 0xf1, 0x00, ENCODED_ADDR, "push a memory location at an address in a DW_EH_PE encoding") \
    X(GNU_implicit_pointer, 0xf2, 0x00, REF_SLEB, "GNU spelling of DW_OP_implicit_pointer") \
    X(GNU_entry_value, 0xf3, 0x00, BLOCK, "GNU spelling of DW_OP_entry_value") \
    X(GNU_const_type, 0xf4, 0x00, CONST_TYPE, "GNU spelling of DW_OP_const_type") \
    X(GNU_regval_type, 0xf5, 0x00, ULEB_ULEB, "GNU spelling of DW_OP_regval_type") \
    X(GNU_deref_type, 0xf6, 0x00, U8_ULEB, "GNU spelling of DW_OP_deref_type") \
    X(GNU_convert, 0xf7, 0x00, ULEB, "GNU spelling of DW_OP_convert") \
    X(GNU_reinterpret, 0xf9, 0x00, ULEB, "GNU spelling of DW_OP_reinterpret") \
    X(GNU_parameter_ref, 0xfa, 0x00, U32, "push the value of a call-site parameter (4-byte unit offset)") \
    X(GNU_addr_index, 0xfb, 0x00, ULEB, "GNU spelling of DW_OP_addrx") \
    X(GNU_const_index, 0xfc, 0x00, ULEB, "GNU spelling of DW_OP_constx") \
    X(GNU_variable_value, 0xfd, 0x00, REF, "push the value of a variable DIE") \
    X(LLVM_nop, 0x00, 0x01, NONE, "no effect") \
    X(LLVM_form_aspace_address, 0xe1, 0x02, NONE, "pop address space and address, push a memory location") \
    X(LLVM_push_lane, 0xe2, 0x03, NONE, "push the current lane number") \
    X(LLVM_offset, 0xe3, 0x04, NONE, "pop a byte displacement, add it to a location's offset") \
    X(LLVM_offset_uconst, 0xe4, 0x05, ULEB, "add a constant byte displacement to a location's offset") \
    X(LLVM_bit_offset, 0xe5, 0x06, NONE, "pop a bit displacement, add it to a location's offset") \
    X(LLVM_call_frame_entry_reg, 0xe6, 0x07, ULEB, "push the location of register R on entry to the frame") \
    X(LLVM_undefined, 0xe7, 0x08, NONE, "push the undefined location") \
    X(LLVM_aspace_bregx, 0xe8, 0x09, ULEB_SLEB, "pop an address space, push a memory location at register R plus an offset in it") \
    X(LLVM_aspace_implicit_pointer, 0xe9, 0x00, REF_SLEB, "pop an address space, push an implicit pointer in it") \
    X(LLVM_piece_end, 0xea, 0x0a, NONE, "complete the incomplete composite on top") \
    X(LLVM_extend, 0xeb, 0x0b, ULEB_ULEB, "push a composite of C copies of a location, S bits each") \
    X(LLVM_select_bit_piece, 0xec, 0x0c, ULEB_ULEB, "pop mask and two locations, push a composite selecting S-bit parts per mask bit")

/* Operation identifiers: an index into DWEXPR_OPS (not the opcode byte). */
typedef enum dwexpr_opid {
#define DWX_X(n, c, s, o, d) DWEXPR_OP_##n,
    DWEXPR_OPS(DWX_X)
#undef DWX_X
    DWEXPR_OP_COUNT
} dwexpr_opid;

/* One row of the table. */
typedef struct dwexpr_opinfo {
    const char *name;       /* "DW_OP_breg6" */
    uint8_t code;           /* opcode byte (provisional byte for LLVM ops) */
    uint8_t subop;          /* DW_OP_LLVM_user sub-op, 0 if none */
    dwexpr_operands operands;
    const char *doc;        /* one-line description */
} dwexpr_opinfo;

/* The row for ID, or NULL if ID is out of range. */
DWEXPR_API const dwexpr_opinfo *dwexpr_op_info(dwexpr_opid id);
/* Look an operation up by name, with or without the DW_OP_ prefix,
 * case-sensitive after the prefix. Returns DWEXPR_OP_COUNT if unknown. */
DWEXPR_API dwexpr_opid dwexpr_op_by_name(const char *name, size_t len);

#ifdef __cplusplus
}
#endif
#endif
