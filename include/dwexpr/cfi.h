/* dwexpr/cfi.h: call frame information (DWARF 5 section 6.4 and the seed's
 * "Call Frame Information"): a .debug_frame / .eh_frame parser, the rule
 * table row for a pc, and an unwinder that turns frame-0 registers and
 * memory into a dwexpr_target answering every frame of the call stack. */
#ifndef DWEXPR_CFI_H
#define DWEXPR_CFI_H

#include "eval.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- call frame instructions (DWARF 5 Table 7.29, seed Table "Call
 * frame instruction encodings") ---- */
#define DW_CFA_advance_loc 0x40        /* high 2 bits; low 6 = delta */
#define DW_CFA_offset 0x80             /* high 2 bits; low 6 = register */
#define DW_CFA_restore 0xc0            /* high 2 bits; low 6 = register */
#define DW_CFA_nop 0x00
#define DW_CFA_set_loc 0x01
#define DW_CFA_advance_loc1 0x02
#define DW_CFA_advance_loc2 0x03
#define DW_CFA_advance_loc4 0x04
#define DW_CFA_offset_extended 0x05
#define DW_CFA_restore_extended 0x06
#define DW_CFA_undefined 0x07
#define DW_CFA_same_value 0x08
#define DW_CFA_register 0x09
#define DW_CFA_remember_state 0x0a
#define DW_CFA_restore_state 0x0b
#define DW_CFA_def_cfa 0x0c
#define DW_CFA_def_cfa_register 0x0d
#define DW_CFA_def_cfa_offset 0x0e
#define DW_CFA_def_cfa_expression 0x0f
#define DW_CFA_expression 0x10
#define DW_CFA_offset_extended_sf 0x11
#define DW_CFA_def_cfa_sf 0x12
#define DW_CFA_def_cfa_offset_sf 0x13
#define DW_CFA_val_offset 0x14
#define DW_CFA_val_offset_sf 0x15
#define DW_CFA_val_expression 0x16
#define DW_CFA_lo_user 0x1c
#define DW_CFA_MIPS_advance_loc8 0x1d
#define DW_CFA_GNU_window_save 0x2d
#define DW_CFA_GNU_args_size 0x2e
#define DW_CFA_GNU_negative_offset_extended 0x2f
#define DW_CFA_LLVM_def_aspace_cfa 0x30
#define DW_CFA_LLVM_def_aspace_cfa_sf 0x31
#define DW_CFA_hi_user 0x3f

/* Pointer encodings of .eh_frame (LSB Core, "DWARF Exception Header
 * Encoding"): low 4 bits the format, bits 4-6 the base, 0x80 indirect. */
#ifndef DW_EH_PE_absptr
#define DW_EH_PE_absptr 0x00
#endif
#ifndef DW_EH_PE_uleb128
#define DW_EH_PE_uleb128 0x01
#endif
#ifndef DW_EH_PE_udata2
#define DW_EH_PE_udata2 0x02
#endif
#ifndef DW_EH_PE_udata4
#define DW_EH_PE_udata4 0x03
#endif
#ifndef DW_EH_PE_udata8
#define DW_EH_PE_udata8 0x04
#endif
#ifndef DW_EH_PE_sleb128
#define DW_EH_PE_sleb128 0x09
#endif
#ifndef DW_EH_PE_sdata2
#define DW_EH_PE_sdata2 0x0a
#endif
#ifndef DW_EH_PE_sdata4
#define DW_EH_PE_sdata4 0x0b
#endif
#ifndef DW_EH_PE_sdata8
#define DW_EH_PE_sdata8 0x0c
#endif
#ifndef DW_EH_PE_pcrel
#define DW_EH_PE_pcrel 0x10
#endif
#ifndef DW_EH_PE_textrel
#define DW_EH_PE_textrel 0x20
#endif
#ifndef DW_EH_PE_datarel
#define DW_EH_PE_datarel 0x30
#endif
#ifndef DW_EH_PE_funcrel
#define DW_EH_PE_funcrel 0x40
#endif
#ifndef DW_EH_PE_aligned
#define DW_EH_PE_aligned 0x50
#endif
#ifndef DW_EH_PE_indirect
#define DW_EH_PE_indirect 0x80
#endif
#ifndef DW_EH_PE_omit
#define DW_EH_PE_omit 0xff
#endif

/* ---- sections and the parsed CFI ---- */

typedef enum dwexpr_cfi_format {
    DWEXPR_CFI_DEBUG_FRAME = 1,    /* DWARF 5 6.4.1; CIE versions 1, 3, 4 */
    DWEXPR_CFI_EH_FRAME = 2        /* LSB .eh_frame; CIE version 1 or 3 */
} dwexpr_cfi_format;

/* Where a CFI section is and how to read it. Addresses are the ones the
 * file gives (link-time); BIAS is added to every code address the
 * section yields (the load bias of a shared object or PIE). */
typedef struct dwexpr_cfi_section {
    dwexpr_cfi_format format;
    const uint8_t *data;           /* the section's bytes (borrowed) */
    size_t size;
    uint64_t address;              /* address of data[0]: DW_EH_PE_pcrel base */
    const uint8_t *hdr;            /* .eh_frame_hdr bytes, or NULL */
    size_t hdr_size;
    uint64_t hdr_address;          /* its address (pcrel / datarel base in it) */
    uint64_t text_address;         /* DW_EH_PE_textrel base (.text) */
    uint64_t data_address;         /* DW_EH_PE_datarel base (.got on x86) */
    uint64_t bias;                 /* added to code addresses */
    uint8_t addr_size;             /* 4 or 8; 0 = from ARCH (8 if none) */
    bool big_endian;
    uint8_t ext_encoding;          /* dwexpr_ext_encoding of DW_OP_LLVM_* in CFI expressions */
    const dwexpr_arch *arch;       /* default register rules; may be NULL */
} dwexpr_cfi_section;

typedef struct dwexpr_cfi dwexpr_cfi;

/* A Common Information Entry (DWARF 5 6.4.1). Pointers point into the
 * section and live as long as it does. */
typedef struct dwexpr_cfi_cie {
    uint64_t offset;               /* of its length field in the section */
    uint64_t length;               /* the length field's value */
    bool is64;                     /* 64-bit DWARF format (DWARF 5 7.4) */
    uint8_t version;
    const char *augmentation;      /* NUL-terminated, inside the section */
    uint8_t addr_size;
    uint8_t segment_size;
    uint64_t code_align;
    int64_t data_align;
    uint64_t ra_column;
    /* .eh_frame augmentation data ('z', 'R', 'P', 'L', 'S') */
    bool has_z;
    uint8_t fde_encoding;          /* 'R'; DW_EH_PE_absptr when absent */
    uint8_t lsda_encoding;         /* 'L'; DW_EH_PE_omit when absent */
    uint8_t personality_encoding;  /* 'P'; DW_EH_PE_omit when absent */
    uint64_t personality;          /* 'P' routine address (biased) */
    bool signal_frame;             /* 'S' */
    const uint8_t *insns;          /* initial instructions */
    size_t insns_len;
    uint64_t insns_offset;         /* section offset of insns[0] */
} dwexpr_cfi_cie;

/* A Frame Description Entry (DWARF 5 6.4.1). */
typedef struct dwexpr_cfi_fde {
    uint64_t offset;
    uint64_t length;
    bool is64;
    uint64_t cie_offset;           /* section offset of its CIE */
    uint64_t pc_begin;             /* initial_location + bias */
    uint64_t pc_end;               /* pc_begin + address_range */
    bool has_lsda;
    uint64_t lsda;
    const uint8_t *insns;
    size_t insns_len;
    uint64_t insns_offset;
} dwexpr_cfi_fde;

/* One entry of the section as dwexpr_cfi_entry_at finds it. For an FDE,
 * CIE is the CIE it points to. */
typedef struct dwexpr_cfi_entry {
    bool is_cie;
    dwexpr_cfi_cie cie;
    dwexpr_cfi_fde fde;
} dwexpr_cfi_entry;

/* Parse and validate the whole section SEC (every CIE and FDE, DWARF 5
 * 6.4.1 / LSB .eh_frame) and build the pc index; .eh_frame_hdr, when
 * given and valid, is used for lookups instead (its table is checked to
 * be sorted). Nothing is read outside SEC's bytes on any input. The bytes
 * are borrowed: they must outlive the handle. Returns DWEXPR_OK, E_NOMEM,
 * E_USAGE, or a decode/ill-formed status with ERR (may be NULL) holding
 * the byte offset in the section and a message. */
DWEXPR_API dwexpr_status dwexpr_cfi_open(const dwexpr_cfi_section *sec, dwexpr_cfi **out,
                                         dwexpr_error *err);
/* Release a handle (NULL is fine). */
DWEXPR_API void dwexpr_cfi_free(dwexpr_cfi *cfi);
/* The section description the handle was opened with. */
DWEXPR_API const dwexpr_cfi_section *dwexpr_cfi_get_section(const dwexpr_cfi *cfi);
/* Number of FDEs. */
DWEXPR_API size_t dwexpr_cfi_fde_count(const dwexpr_cfi *cfi);
/* The entry at section OFFSET; *NEXT gets the offset of the one after it
 * (== section size, or a zero terminator's offset + 4, at the end).
 * E_NOT_FOUND at the end of the section. */
DWEXPR_API dwexpr_status dwexpr_cfi_entry_at(const dwexpr_cfi *cfi, uint64_t offset,
                                             dwexpr_cfi_entry *out, uint64_t *next,
                                             dwexpr_error *err);
/* The FDE whose [pc_begin, pc_end) holds PC, and its CIE. E_NOT_FOUND if
 * none. */
DWEXPR_API dwexpr_status dwexpr_cfi_find_fde(const dwexpr_cfi *cfi, uint64_t pc,
                                             dwexpr_cfi_fde *fde, dwexpr_cfi_cie *cie,
                                             dwexpr_error *err);

/* ---- instructions ---- */

/* One decoded call frame instruction (DWARF 5 6.4.2). Register and
 * displacement operands are as encoded (not yet factored). */
typedef struct dwexpr_cfi_insn {
    uint8_t op;                    /* DW_CFA_*; the high-2-bit forms give 0x40/0x80/0xc0 */
    const char *name;              /* "DW_CFA_def_cfa"; static */
    uint64_t offset;               /* section offset */
    uint32_t size;
    uint64_t operand[3];           /* signed ones sign-extended */
    const uint8_t *expr;           /* DW_CFA_*expression block */
    size_t expr_len;
} dwexpr_cfi_insn;

/* Decode the instruction at BYTES[POS] (LEN bytes in all, the first at
 * section offset BASE) for CIE (code/data factors do not matter here;
 * addr_size and the FDE pointer encoding do, for DW_CFA_set_loc). */
DWEXPR_API dwexpr_status dwexpr_cfi_insn_decode(const dwexpr_cfi *cfi, const dwexpr_cfi_cie *cie,
                                                const uint8_t *bytes, size_t len, size_t pos,
                                                uint64_t base, dwexpr_cfi_insn *out,
                                                dwexpr_error *err);

/* ---- the rule table (DWARF 5 6.4.1, seed "Structure of Call Frame
 * Information") ---- */

typedef enum dwexpr_cfi_rule_kind {
    DWEXPR_CFI_UNDEFINED = 0,
    DWEXPR_CFI_SAME_VALUE,
    DWEXPR_CFI_OFFSET,             /* offset(N): saved at CFA + N */
    DWEXPR_CFI_VAL_OFFSET,         /* val_offset(N): value is CFA + N */
    DWEXPR_CFI_REGISTER,           /* register(R) */
    DWEXPR_CFI_EXPRESSION,         /* expression(E): E gives the location */
    DWEXPR_CFI_VAL_EXPRESSION,     /* val_expression(E): E gives the value */
    DWEXPR_CFI_CFA_REG_OFFSET,     /* CFA rule: register R + N in address space AS */
    DWEXPR_CFI_CFA_EXPRESSION,     /* CFA rule: DW_CFA_def_cfa_expression */
    DWEXPR_CFI_NONE                /* CFA rule not (yet) defined */
} dwexpr_cfi_rule_kind;

typedef struct dwexpr_cfi_rule {
    uint8_t kind;                  /* dwexpr_cfi_rule_kind */
    uint32_t regno;                /* register(R); CFA register */
    uint32_t aspace;               /* CFA address space */
    int64_t offset;                /* N, already multiplied by the data alignment factor */
    const uint8_t *expr;           /* expression rules: E (inside the section) */
    size_t expr_len;
    uint64_t expr_offset;          /* section offset of E (for messages) */
} dwexpr_cfi_rule;

#define DWEXPR_CFI_MAX_RULES 160

typedef struct dwexpr_cfi_reg_rule {
    uint32_t regno;
    dwexpr_cfi_rule rule;
} dwexpr_cfi_reg_rule;

/* The row of the rule table that holds a pc: the CFA rule and the rules
 * set by the CIE's and FDE's instructions (registers not listed take the
 * architecture's default, dwexpr_cfi_row_rule). */
typedef struct dwexpr_cfi_row {
    uint64_t pc_begin, pc_end;     /* the addresses this row covers */
    uint64_t fde_begin;            /* the FDE's pc_begin */
    uint64_t fde_offset;
    uint64_t ra_column;
    bool signal_frame;             /* CIE augmentation 'S' */
    uint64_t args_size;            /* DW_CFA_GNU_args_size */
    dwexpr_cfi_rule cfa;
    uint32_t count;
    dwexpr_cfi_reg_rule regs[DWEXPR_CFI_MAX_RULES];
} dwexpr_cfi_row;

/* Run the CIE's initial instructions, then FDE's (may be NULL) up to the
 * row that holds PC (DWARF 5 6.4.2, 6.4.3). Errors (ill-formed rules,
 * truncated operands, restore_state without remember_state, a def_cfa_*
 * that needs a register/offset rule it does not have, an address space
 * the architecture does not define, more than DWEXPR_CFI_MAX_RULES
 * registers: E_TOO_BIG) carry the instruction's section offset. */
DWEXPR_API dwexpr_status dwexpr_cfi_run(const dwexpr_cfi *cfi, const dwexpr_cfi_cie *cie,
                                        const dwexpr_cfi_fde *fde, uint64_t pc,
                                        dwexpr_cfi_row *row, dwexpr_error *err);
/* Find the FDE for PC and run it: E_NOT_FOUND when no FDE holds PC. */
DWEXPR_API dwexpr_status dwexpr_cfi_row_for_pc(const dwexpr_cfi *cfi, uint64_t pc,
                                               dwexpr_cfi_row *row, dwexpr_error *err);
/* The rule for REGNO in ROW: the explicit one, else ARCH's default (seed:
 * "The default rule for all columns before interpretation of the initial
 * instructions is the undefined rule", unless the ABI says otherwise). */
DWEXPR_API dwexpr_cfi_rule dwexpr_cfi_row_rule(const dwexpr_cfi_row *row, const dwexpr_arch *arch,
                                               uint32_t regno);
/* ARCH's default rule for REGNO (x86-64: rbx, rbp, r12-r15 same value,
 * rsp val_offset(0), others undefined); undefined for a NULL ARCH. */
DWEXPR_API dwexpr_cfi_rule dwexpr_cfi_default_rule(const dwexpr_arch *arch, uint32_t regno);
/* Whether operation ID may appear in a CFI expression (seed "Call Frame
 * Instructions": no operations that depend on other debug sections, on an
 * object, on a lane, nor DW_OP_call_frame_cfa / DW_OP_entry_value). */
DWEXPR_API bool dwexpr_cfi_op_allowed(dwexpr_opid id);
/* Name of a rule kind ("offset", "val_expression", ...); static. */
DWEXPR_API const char *dwexpr_cfi_rule_name(int kind);

/* ---- virtual unwinding (DWARF 5 6.4.4, seed "Call Frame Information")
 * ---- */

typedef struct dwexpr_unwinder dwexpr_unwinder;

/* How to build an unwinder. */
typedef struct dwexpr_unwind_config {
    size_t size;                   /* sizeof(dwexpr_unwind_config) */
    const dwexpr_arch *arch;       /* default rules, register sizes */
    dwexpr_unit unit;              /* address size, LLVM encoding of CFI expressions */
    uint32_t pc_regno;             /* register holding frame 0's pc (x86-64: 16)
                                      when the inner target has no frame_pc */
    uint32_t max_frames;           /* 0 = 1024 */
    uint64_t thread;               /* the thread (DWEXPR_CTX_THREAD in ctx) */
    uint16_t ctx;
} dwexpr_unwind_config;

/* What the unwinder knows about one frame. */
typedef struct dwexpr_unwind_frame {
    uint32_t index;
    uint64_t pc;                   /* program location (for frames > 0 the return address) */
    bool has_cfa;
    dwexpr_sld cfa;                /* memory location (with its address space) */
    bool has_row;                  /* an FDE holds the pc */
    uint64_t fde_begin;
    bool signal_frame;
    bool outermost;                /* nothing beyond this frame */
    bool guessed;                  /* frame 0 without an FDE: its CFA and caller come
                                      from the architecture's frameless guess (the
                                      return address at the stack pointer), taken
                                      only when that address lies in code with CFI */
    const dwexpr_cfi *cfi;         /* with has_row: the CFI (dwexpr_unwinder_add_cfi)
                                      whose FDE holds the pc */
} dwexpr_unwind_frame;

/* Create an unwinder over INNER (frame-0 registers and all memory; its
 * other callbacks are passed through) and CONFIG. INNER and INNER_USER
 * are borrowed. E_NOMEM / E_USAGE. */
DWEXPR_API dwexpr_status dwexpr_unwinder_new(const dwexpr_unwind_config *config,
                                             const dwexpr_target *inner, void *inner_user,
                                             dwexpr_unwinder **out);
/* Release an unwinder and everything it computed (NULL is fine). */
DWEXPR_API void dwexpr_unwinder_free(dwexpr_unwinder *uw);
/* Add CFI (borrowed, must outlive UW) to search for pcs: several
 * modules, .eh_frame and .debug_frame; searched in the order added.
 * Forgets frames computed so far. E_NOMEM. */
DWEXPR_API dwexpr_status dwexpr_unwinder_add_cfi(dwexpr_unwinder *uw, const dwexpr_cfi *cfi);
/* Frame INDEX (0 = top), computing the frames before it as needed.
 * E_NOT_FOUND past the outermost frame; other statuses with
 * dwexpr_unwinder_error describing why unwinding stopped. */
DWEXPR_API dwexpr_status dwexpr_unwinder_frame(dwexpr_unwinder *uw, uint32_t index,
                                               dwexpr_unwind_frame *out);
/* The row used for frame INDEX: its FDE's, or for a frame 0 without one
 * the architecture's frameless guess (dwexpr_unwind_frame.guessed);
 * E_NOT_FOUND when the frame has no row. */
DWEXPR_API dwexpr_status dwexpr_unwinder_row(dwexpr_unwinder *uw, uint32_t index,
                                             const dwexpr_cfi_row **out);
/* Where register REGNO of frame INDEX lives (seed "Structure of Call
 * Frame Information"): frame 0 gives the register itself; deeper frames
 * give memory, a frame-0 register, an implicit value (val_offset,
 * val_expression), a composite or undefined. The result may point into
 * UW and lives until UW is freed. E_ILL_FORMED for circular
 * DW_OP_LLVM_call_frame_entry_reg dependencies or forbidden operations. */
DWEXPR_API dwexpr_status dwexpr_unwinder_register_location(dwexpr_unwinder *uw, uint32_t index,
                                                           uint32_t regno, dwexpr_sld *out);
/* Details of the last failure. Never NULL. */
DWEXPR_API const dwexpr_error *dwexpr_unwinder_error(const dwexpr_unwinder *uw);
/* The unwinding target: pass it with UW as user to dwexpr_eval /
 * dwexpr_loc_read. It answers cfa, register_location and frame_pc for
 * every frame, reads registers of any frame through their locations, and
 * passes everything else to INNER. Static storage. */
DWEXPR_API const dwexpr_target *dwexpr_unwinder_target(void);

#ifdef __cplusplus
}
#endif
#endif
