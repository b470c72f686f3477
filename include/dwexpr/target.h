/* dwexpr/target.h: how dwexpr asks the debugged program for registers,
 * memory, call frames and debug information. One struct of callbacks plus
 * an opaque user pointer; every callback is optional: a missing one makes
 * the operation that needs it fail with class "context" (E_UNSUPPORTED).
 * Registers and memory are read when a location is accessed, not before. */
#ifndef DWEXPR_TARGET_H
#define DWEXPR_TARGET_H

#include "value.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The compilation unit an expression belongs to (seed "DWARF Expression
 * Evaluation Context", current compilation unit). */
typedef enum dwexpr_ext_encoding {
    DWEXPR_EXT_LLVM_USER = 0,   /* DW_OP_LLVM_user 0xe9 + ULEB sub-op (default) */
    DWEXPR_EXT_PROVISIONAL = 1  /* the seed's single bytes 0xe1..0xec */
} dwexpr_ext_encoding;

typedef struct dwexpr_unit {
    uint64_t id;           /* the target's handle for the unit; passed back to callbacks */
    uint8_t addr_size;     /* 1, 2, 4 or 8: size of the generic type */
    uint8_t offset_size;   /* 4 (32-bit DWARF) or 8 (64-bit DWARF) */
    uint16_t version;      /* DWARF version, 2..5 */
    uint8_t ext_encoding;  /* dwexpr_ext_encoding */
    uint8_t big_endian;    /* target byte order for implicit values */
    uint64_t load_bias;    /* added to DW_OP_addr / DW_OP_addrx addresses (relocation) */
} dwexpr_unit;

/* Where a register access goes. */
typedef struct dwexpr_regref {
    uint64_t thread;
    uint32_t frame;        /* 0 = top frame */
    uint32_t regno;        /* DWARF register number */
    uint16_t ctx;          /* DWEXPR_CTX_* that are valid */
} dwexpr_regref;

/* Where a memory access goes. */
typedef struct dwexpr_memref {
    uint32_t aspace;
    uint16_t ctx;          /* DWEXPR_CTX_THREAD / DWEXPR_CTX_LANE when the space is per thread / lane */
    uint64_t thread;
    uint32_t lane;
    uint64_t address;
} dwexpr_memref;

/* Properties of an address space. */
typedef struct dwexpr_aspace_info {
    uint8_t addr_bits;     /* address size in bits (<= 64) */
    bool per_thread;       /* storage differs per thread */
    bool per_lane;         /* storage differs per lane */
} dwexpr_aspace_info;

/* The current frame of an access or query. */
typedef struct dwexpr_frameref {
    uint64_t thread;
    uint32_t frame;
    uint32_t lane;
    uint16_t ctx;          /* DWEXPR_CTX_* that are valid */
} dwexpr_frameref;

/* One location list entry as the target found it (bounded or default). */
typedef struct dwexpr_loclist_entry {
    bool is_default;
    uint64_t low, high;    /* [low, high) program locations; unused for default */
    const uint8_t *expr;
    size_t expr_len;
} dwexpr_loclist_entry;

/* What a DIE offers to DW_OP_call*, DW_OP_implicit_pointer and
 * DW_OP_GNU_variable_value. Memory pointed to must stay valid until the
 * evaluation that asked for it ends. */
typedef enum dwexpr_die_kind {
    DWEXPR_DIE_NONE = 0,       /* neither DW_AT_location nor DW_AT_const_value */
    DWEXPR_DIE_EXPRLOC,        /* DW_AT_location exprloc: expr/expr_len */
    DWEXPR_DIE_LOCLIST,        /* DW_AT_location loclist: entries/count */
    DWEXPR_DIE_CONST_VALUE     /* DW_AT_const_value: bytes/expr_len */
} dwexpr_die_kind;

typedef struct dwexpr_die {
    dwexpr_die_kind kind;
    dwexpr_unit unit;          /* the unit that contains the DIE */
    const uint8_t *expr;       /* exprloc bytes or const_value bytes */
    size_t expr_len;
    const dwexpr_loclist_entry *entries;
    size_t count;
    uint64_t byte_size;        /* DW_AT_byte_size of its type, 0 if unknown */
} dwexpr_die;

/* The frame base of a frame (DW_AT_frame_base): an expression to evaluate
 * in the current context, or a ready location. */
typedef struct dwexpr_frame_base {
    const uint8_t *expr;       /* non-NULL: evaluate this */
    size_t expr_len;
    dwexpr_unit unit;
    dwexpr_sld loc;            /* used when expr is NULL */
} dwexpr_frame_base;

/* The callbacks. Each returns DWEXPR_OK or a status; E_NOT_FOUND means
 * "no such thing" (unknown register, no DIE, ...), E_TARGET "could not
 * access". `size` must be sizeof(dwexpr_target) as the caller compiled
 * it: dwexpr reads only that many bytes, so older callers keep working. */
typedef struct dwexpr_target {
    size_t size;

    /* Size in bytes of register REGNO. */
    dwexpr_status (*reg_size)(void *user, uint32_t regno, uint32_t *bytes);
    /* Read/write LEN bytes at byte OFFSET of a register's storage. */
    dwexpr_status (*reg_read)(void *user, const dwexpr_regref *r, uint64_t offset,
                              void *buf, size_t len);
    dwexpr_status (*reg_write)(void *user, const dwexpr_regref *r, uint64_t offset,
                               const void *buf, size_t len);
    /* Read/write LEN bytes of memory. */
    dwexpr_status (*mem_read)(void *user, const dwexpr_memref *m, void *buf, size_t len);
    dwexpr_status (*mem_write)(void *user, const dwexpr_memref *m, const void *buf, size_t len);
    /* Address space properties; E_NOT_FOUND for an unknown space. When
     * absent, only space 0 exists, with the unit's address size. */
    dwexpr_status (*aspace_info)(void *user, uint32_t aspace, dwexpr_aspace_info *out);
    /* DW_OP_form_tls_address: the memory location of TLS offset TA for
     * the thread of F (DWEXPR_CTX_THREAD in f->ctx when the evaluation
     * names one; dwexpr does not demand one: a target of one thread
     * answers without it, a target of several returns E_NO_CONTEXT). */
    dwexpr_status (*tls_address)(void *user, const dwexpr_frameref *f, uint64_t ta,
                                 dwexpr_sld *out);
    /* DW_OP_call_frame_cfa: the CFA of frame F, a memory location. */
    dwexpr_status (*cfa)(void *user, const dwexpr_frameref *f, dwexpr_sld *out);
    /* Where register REGNO of frame f->frame (> 0) lives, found by
     * unwinding (CFI): a register of a younger frame, memory, an implicit
     * value or undefined. */
    dwexpr_status (*register_location)(void *user, const dwexpr_frameref *f,
                                       uint32_t regno, dwexpr_sld *out);
    /* Optional shortcut for DW_OP_entry_value: the value BLOCK had on
     * entry to frame F. E_NOT_FOUND lets dwexpr evaluate BLOCK itself in
     * the caller frame. */
    dwexpr_status (*entry_value)(void *user, const dwexpr_frameref *f,
                                 const uint8_t *block, size_t len, dwexpr_value *out);
    /* The base type DIE at unit-relative offset DIE of UNIT; E_NOT_FOUND if
     * it is not a DW_TAG_base_type. */
    dwexpr_status (*base_type)(void *user, const dwexpr_unit *unit, uint64_t die,
                               dwexpr_type *out);
    /* A DIE by offset: unit-relative (DW_OP_call2/4) when SECTION_RELATIVE
     * is false, .debug_info-relative otherwise. */
    dwexpr_status (*die)(void *user, const dwexpr_unit *unit, uint64_t offset,
                         bool section_relative, dwexpr_die *out);
    /* Entry INDEX of .debug_addr for UNIT (DW_OP_addrx / DW_OP_constx). */
    dwexpr_status (*debug_addr)(void *user, const dwexpr_unit *unit, uint64_t index,
                                uint64_t *out);
    /* The frame base of frame F (DW_OP_fbreg). */
    dwexpr_status (*frame_base)(void *user, const dwexpr_frameref *f, dwexpr_frame_base *out);
    /* Program location of frame F (selects location list entries). */
    dwexpr_status (*frame_pc)(void *user, const dwexpr_frameref *f, uint64_t *pc);
    /* DW_OP_GNU_parameter_ref: value of the call-site parameter DIE. */
    dwexpr_status (*parameter_ref)(void *user, const dwexpr_frameref *f,
                                   const dwexpr_unit *unit, uint64_t die, dwexpr_value *out);

    /* DWEXPR_TARGET_* promises about the callbacks (0: none). */
    uint32_t flags;
} dwexpr_target;

/* dwexpr_target.flags: reg_size's answer depends on REGNO only, never on
 * USER, the thread, the frame or the moment (an architecture's register
 * file: x86-64's rax is 8 bytes in every thread of every process). A
 * context then remembers the answers for registers 0..63, for as long as
 * the targets it is given have this flag and the same reg_size function:
 * one question per register, not one per evaluation. A target whose
 * register sizes vary (AMDGPU vector registers with the wave size, when
 * one reg_size serves waves of both sizes) leaves it clear. */
#define DWEXPR_TARGET_REG_SIZES_FIXED 0x1u

#ifdef __cplusplus
}
#endif
#endif
