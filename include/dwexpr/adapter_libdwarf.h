/* dwexpr/adapter_libdwarf.h: real DWARF for dwexpr, read with libdwarf.
 * Opens an ELF file (and its split DWARF .dwo files), lists its units,
 * scopes and variables, resolves location lists, supplies the DWARF
 * services of a dwexpr_target (base types, DIEs, .debug_addr, frame bases,
 * call-site entry values) on top of a debugger's own register/memory
 * target, and evaluates every location-bearing attribute with the context
 * the seed prescribes ("Debugging Information Entry Attributes").
 *
 * Addresses: every pc this API takes or gives is a link-time address, as
 * written in the DWARF. A machine target that speaks run-time addresses
 * (a PIE process) is bridged by dwexpr_libdwarf_set_load_bias.
 *
 * Ownership: everything a dwexpr_libdwarf hands out (units, scopes,
 * variables, attribute values, list entries, strings) lives until
 * dwexpr_libdwarf_close. A binding lives until dwexpr_libdwarf_binding_free
 * and must be freed before its dwexpr_libdwarf is closed. Not thread-safe:
 * one thread uses one dwexpr_libdwarf (and its bindings) at a time. */
#ifndef DWEXPR_ADAPTER_LIBDWARF_H
#define DWEXPR_ADAPTER_LIBDWARF_H

#include "eval.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct dwexpr_libdwarf dwexpr_libdwarf;
typedef struct dwexpr_libdwarf_binding dwexpr_libdwarf_binding;

/* ---- opening ---- */

/* Flags of dwexpr_libdwarf_open. */
#define DWEXPR_LIBDWARF_NO_DWO 0x1u   /* do not open split DWARF .dwo files */

/* Open the ELF file PATH and read its DWARF: every compilation unit of
 * .debug_info with its scopes, variables and call sites (split units are
 * read from their .dwo, found through DW_AT_dwo_name / DW_AT_GNU_dwo_name
 * and DW_AT_comp_dir). On success *OUT owns everything; free it with
 * dwexpr_libdwarf_close. Statuses: E_USAGE (NULL arguments), E_NOT_FOUND
 * (no such file, or no DWARF in it), E_TARGET (libdwarf or ELF error; ERR
 * says which), E_NOMEM. ERR may be NULL. */
DWEXPR_API dwexpr_status dwexpr_libdwarf_open(const char *path, unsigned flags,
                                              dwexpr_libdwarf **out, dwexpr_error *err);
/* Release LD and everything it handed out (NULL is fine). */
DWEXPR_API void dwexpr_libdwarf_close(dwexpr_libdwarf *ld);

/* The ELF machine (EM_*) and the dwexpr architecture name for it
 * ("x86_64", "generic64", "generic32", "amdgpu-wave64"). */
DWEXPR_API uint16_t dwexpr_libdwarf_machine(const dwexpr_libdwarf *ld);
DWEXPR_API const char *dwexpr_libdwarf_arch_name(const dwexpr_libdwarf *ld);

/* Set the load bias (run-time minus link-time address) of the module:
 * units get it as dwexpr_unit.load_bias (DW_OP_addr, DW_OP_addrx), and
 * bindings subtract it from the machine target's frame pcs. */
DWEXPR_API void dwexpr_libdwarf_set_load_bias(dwexpr_libdwarf *ld, uint64_t bias);
/* Set the run-time addresses [LO, HI) the module occupies in a process
 * of several modules (the executable and its shared libraries). A
 * binding then takes a frame's pc from the machine target only for
 * frames whose pc (a caller frame's pc - 1) lies there: a frame of
 * another module has no pc for this module's DWARF, so no function,
 * frame base or call site of this module is taken for it (the call
 * site of an entry value is this module's, or none). LO = HI = 0, the
 * default: every frame is this module's. */
DWEXPR_API void dwexpr_libdwarf_set_address_range(dwexpr_libdwarf *ld, uint64_t lo, uint64_t hi);

/* ---- units ---- */

typedef struct dwexpr_libdwarf_unit {
    dwexpr_unit unit;          /* unit.id is the index of this unit */
    uint64_t offset;           /* unit header offset in .debug_info (the skeleton's
                                  for a split unit) */
    uint64_t die;              /* .debug_info offset of the unit DIE (in the .dwo
                                  for a split unit) */
    uint8_t unit_type;         /* DW_UT_* (DW_UT_compile for DWARF 2-4) */
    const char *name;          /* DW_AT_name, or NULL */
    const char *comp_dir;      /* DW_AT_comp_dir, or NULL */
    const char *producer;      /* DW_AT_producer, or NULL */
    uint64_t base_address;     /* DW_AT_low_pc: the base of list offsets (DWARF 5 3.1.1) */
    uint64_t addr_base;        /* DW_AT_addr_base / DW_AT_GNU_addr_base (0: none) */
    uint64_t loclists_base;    /* DW_AT_loclists_base (0: none) */
    uint64_t rnglists_base;    /* DW_AT_rnglists_base / DW_AT_GNU_ranges_base (0: none) */
    const char *dwo_path;      /* split unit: the .dwo read (or wanted), else NULL */
    bool split;                /* the DIEs come from a .dwo */
    bool dwo_missing;          /* split unit whose .dwo could not be read */
    const char *dwo_error;     /* with dwo_missing: why (the file's error, or that it
                                  holds no unit of this id); NULL otherwise and with
                                  DWEXPR_LIBDWARF_NO_DWO */
} dwexpr_libdwarf_unit;

/* Number of units and unit I (NULL when out of range). */
DWEXPR_API size_t dwexpr_libdwarf_unit_count(const dwexpr_libdwarf *ld);
DWEXPR_API const dwexpr_libdwarf_unit *dwexpr_libdwarf_unit_get(const dwexpr_libdwarf *ld,
                                                                size_t i);

/* DW_AT_language of unit I (DWARF 5 Table 7.17: DW_LANG_Rust is 0x1c;
 * 0 when absent or I is out of range). A debugger names functions and
 * types by their unit's language. */
DWEXPR_API uint64_t dwexpr_libdwarf_unit_language(const dwexpr_libdwarf *ld, size_t i);

/* A base type of a unit, as the base_type service answers it. */
typedef struct dwexpr_libdwarf_base_type {
    uint64_t die;              /* unit-relative offset (DW_OP_convert operands) */
    const char *name;          /* DW_AT_name, or NULL */
    dwexpr_type type;          /* bits, encoding, lanes (DW_AT_LLVM_vector_size), endian */
} dwexpr_libdwarf_base_type;

/* Every DW_TAG_base_type of unit UNIT: *OUT gets the array, the count is
 * returned (0 when the unit has none or does not exist). */
DWEXPR_API size_t dwexpr_libdwarf_base_types(const dwexpr_libdwarf *ld, size_t unit,
                                             const dwexpr_libdwarf_base_type **out);

/* ---- attribute values ---- */

/* The class of an attribute value (DWARF 5 7.5.5), as far as location
 * evaluation cares. */
typedef enum dwexpr_libdwarf_attr_kind {
    DWEXPR_LIBDWARF_ATTR_NONE = 0,   /* absent */
    DWEXPR_LIBDWARF_ATTR_CONST,      /* constant: uconst/sconst and bytes (target order) */
    DWEXPR_LIBDWARF_ATTR_EXPR,       /* exprloc (or a DWARF 2/3 block): expr/len */
    DWEXPR_LIBDWARF_ATTR_LIST,       /* loclist / loclistsptr / sec_offset: entries */
    DWEXPR_LIBDWARF_ATTR_REF,        /* reference: ref (.debug_info offset) */
    DWEXPR_LIBDWARF_ATTR_OTHER       /* flag, string, address, ...: not evaluable */
} dwexpr_libdwarf_attr_kind;

/* One location list entry as it is encoded (for listings and checks). */
typedef struct dwexpr_libdwarf_lle {
    uint16_t kind;             /* DW_LLE_* (DWARF 5 and the GNU split forms), or
                                  DWEXPR_LIBDWARF_LLE_PAIR for a DWARF 2-4 .debug_loc pair */
    uint64_t offset;           /* offset of the entry in its section */
    uint64_t op1, op2;         /* its operands as encoded (indices, offsets, addresses) */
} dwexpr_libdwarf_lle;
#define DWEXPR_LIBDWARF_LLE_PAIR 0x100

typedef struct dwexpr_libdwarf_attr {
    dwexpr_libdwarf_attr_kind kind;
    uint16_t attr;             /* DW_AT_* */
    uint16_t form;             /* DW_FORM_* as written */
    size_t unit;               /* the unit of the DIE */
    /* CONST */
    uint64_t uconst;
    int64_t sconst;
    bool is_signed;            /* sdata / implicit_const: use sconst */
    /* CONST (bytes in target order, block forms and strings included) and EXPR */
    const uint8_t *data;
    size_t len;
    /* LIST: bounded and default entries, matching as the evaluator does:
     * [low, high) absolute, base address entries applied; entries[i]
     * came from encoded entry raw[i]; zero-length ranges are kept */
    const dwexpr_loclist_entry *entries;
    const dwexpr_libdwarf_lle *raw;
    size_t count;
    uint64_t list_offset;      /* offset of the list in its section */
    const char *section;       /* ".debug_loclists", ".debug_loc", "....dwo" */
    /* REF */
    uint64_t ref;
} dwexpr_libdwarf_attr;

/* Attribute AT of the DIE at .debug_info offset DIE of unit UNIT (the
 * .dwo's .debug_info for a split unit). Location lists are read and
 * resolved here (every DW_LLE_* kind, DWARF 4 .debug_loc with base address
 * selection entries, the GNU split .debug_loc.dwo kinds). Statuses:
 * E_NOT_FOUND (no such DIE or attribute: OUT->kind is NONE), E_ILL_FORMED
 * (a list runs past its section, an unknown entry kind, an index outside
 * .debug_addr), E_TARGET (libdwarf error). */
DWEXPR_API dwexpr_status dwexpr_libdwarf_attr_get(dwexpr_libdwarf *ld, size_t unit, uint64_t die,
                                                  uint16_t at, dwexpr_libdwarf_attr *out,
                                                  dwexpr_error *err);

/* The first DIE of unit UNIT (in DIE order) named NAME with tag TAG (0:
 * any tag): *OUT gets its .debug_info offset. E_NOT_FOUND. */
DWEXPR_API dwexpr_status dwexpr_libdwarf_find_die(dwexpr_libdwarf *ld, size_t unit,
                                                  const char *name, uint16_t tag, uint64_t *out);
/* Child number INDEX (0-based, counting only children with tag TAG; TAG 0
 * counts all) of the DIE at PARENT. E_NOT_FOUND. */
DWEXPR_API dwexpr_status dwexpr_libdwarf_child_die(dwexpr_libdwarf *ld, size_t unit,
                                                   uint64_t parent, uint16_t tag, size_t index,
                                                   uint64_t *out);

/* ---- scopes and variables ---- */

typedef enum dwexpr_libdwarf_scope_kind {
    DWEXPR_LIBDWARF_SCOPE_UNIT = 0,
    DWEXPR_LIBDWARF_SCOPE_FUNCTION,   /* concrete DW_TAG_subprogram */
    DWEXPR_LIBDWARF_SCOPE_INLINED,    /* DW_TAG_inlined_subroutine */
    DWEXPR_LIBDWARF_SCOPE_BLOCK       /* DW_TAG_lexical_block */
} dwexpr_libdwarf_scope_kind;

typedef struct dwexpr_libdwarf_range {
    uint64_t low, high;        /* [low, high) */
} dwexpr_libdwarf_range;

typedef struct dwexpr_libdwarf_scope dwexpr_libdwarf_scope;
struct dwexpr_libdwarf_scope {
    dwexpr_libdwarf_scope_kind kind;
    uint64_t die;              /* .debug_info offset */
    size_t unit;
    const char *name;          /* function name (through abstract origin / specification) */
    const dwexpr_libdwarf_scope *parent;   /* NULL for a unit */
    const dwexpr_libdwarf_range *ranges;   /* DW_AT_low_pc/high_pc or DW_AT_ranges */
    size_t nranges;
    uint32_t call_line;        /* inlined: DW_AT_call_line */
};

typedef struct dwexpr_libdwarf_var {
    uint64_t die;              /* .debug_info offset (concrete DIE; the abstract one for a
                                  variable a concrete scope inherits without a DIE) */
    size_t unit;
    const char *name;          /* through DW_AT_abstract_origin / DW_AT_specification */
    bool is_param;             /* DW_TAG_formal_parameter */
    bool artificial;
    uint32_t decl_line;
    uint64_t type;             /* type DIE (.debug_info offset), 0 if none */
    const char *type_name;     /* C spelling: "int", "struct point *", "char [6]"; a
                                  Fortran unit's as GDB prints it: "real(kind=8) (5)" */
    uint64_t bit_size;         /* size of the type in bits; 0 when unknown or dynamic */
    const dwexpr_libdwarf_scope *scope;    /* innermost enclosing scope */
    unsigned block_depth;      /* lexical blocks between it and its function */
    dwexpr_libdwarf_attr loc;  /* DW_AT_location, else DW_AT_const_value, else NONE, of
                                  DIE (an inherited abstract DIE's own: a static
                                  local's DW_OP_addr, as GDB reads it) */
} dwexpr_libdwarf_var;

/* Every variable and parameter with a name (globals, statics, locals,
 * parameters; declarations excluded), in DIE order. */
DWEXPR_API size_t dwexpr_libdwarf_var_count(const dwexpr_libdwarf *ld);
DWEXPR_API const dwexpr_libdwarf_var *dwexpr_libdwarf_var_get(const dwexpr_libdwarf *ld,
                                                              size_t i);
/* The innermost scope (block, inlined call or function) whose ranges hold
 * PC, or NULL. */
DWEXPR_API const dwexpr_libdwarf_scope *dwexpr_libdwarf_scope_at(const dwexpr_libdwarf *ld,
                                                                 uint64_t pc);
/* Every function, inlined call and lexical block of every unit, in DIE
 * order (units are not scopes here): the count, and scope I (NULL when out
 * of range). Functions without variables are included, so a debugger can
 * list every subprogram. */
DWEXPR_API size_t dwexpr_libdwarf_scope_count(const dwexpr_libdwarf *ld);
DWEXPR_API const dwexpr_libdwarf_scope *dwexpr_libdwarf_scope_get(const dwexpr_libdwarf *ld,
                                                                  size_t i);
/* Whether PC is in one of S's ranges (a unit scope holds every pc). */
DWEXPR_API bool dwexpr_libdwarf_scope_has_pc(const dwexpr_libdwarf_scope *s, uint64_t pc);
/* The function or inlined call S belongs to (S itself if it is one),
 * NULL for unit scope. */
DWEXPR_API const dwexpr_libdwarf_scope *dwexpr_libdwarf_scope_function(
    const dwexpr_libdwarf_scope *s);
/* The name a debugger shows for function or inlined scope S, as GDB
 * builds it from the DWARF: C++ names qualified by their namespaces
 * ("(anonymous namespace)" for an unnamed one) and named classes, Rust
 * ones by their namespaces (DW_AT_name: "r1::main::{closure#0}"), Fortran
 * ones by their module or host procedure ("probes::probe_f"), others
 * unqualified. NULL for a unit or block scope or a nameless function.
 * Computed on first use (the DIEs are read again), then kept in LD. */
DWEXPR_API const char *dwexpr_libdwarf_scope_qualified_name(dwexpr_libdwarf *ld,
                                                            const dwexpr_libdwarf_scope *s);
/* DW_AT_linkage_name (or DW_AT_MIPS_linkage_name) of function or inlined
 * scope S, its abstract origin or its declaration; NULL if none. */
DWEXPR_API const char *dwexpr_libdwarf_scope_linkage_name(dwexpr_libdwarf *ld,
                                                          const dwexpr_libdwarf_scope *s);
/* GDB's tail call frames (gdb/dwarf2/frame-tailcall.c): the functions a
 * caller went through by tail calls (jumps: DW_TAG_call_site with
 * DW_AT_call_tail_call) before reaching the function that holds
 * CALLEE_PC, the pc of the frame below the caller (link-time; pc - 1 for
 * a caller frame). RET is the caller frame's return address (link-time):
 * its call site starts the search. Every path of tail call sites from
 * that call site's target to the callee is found; the call sites all
 * paths share at their start and at their end are the frames (those of
 * the functions holding them), the ambiguous middle left out; an
 * ambiguous or unknown path gives none (GDB's call_site_find_chain).
 * PCS[0..min(n, CAP)) get the frames' pcs, the return pcs of their tail
 * call sites (link-time), youngest first. Returns n, 0 when there are
 * none. */
DWEXPR_API size_t dwexpr_libdwarf_tail_frames(dwexpr_libdwarf *ld, uint64_t ret,
                                              uint64_t callee_pc, uint64_t *pcs, size_t cap);
/* The same between a caller in another module, whose DWARF is CALLER
 * (its call site returning to RET, link-time in CALLER), and a callee at
 * CALLEE_PC (link-time in LD): the caller's call site names a declaration
 * of a function CALLER does not have, which LD has by that name (its ELF
 * symbol, as GDB finds it in every module: the executable's call of
 * qsort, which jumps to __qsort_r in libc); the chain of tail calls from
 * there is searched in LD. PCS get link-time pcs of LD. */
DWEXPR_API size_t dwexpr_libdwarf_tail_frames_across(dwexpr_libdwarf *caller, uint64_t ret,
                                                     dwexpr_libdwarf *ld, uint64_t callee_pc,
                                                     uint64_t *pcs, size_t cap);
/* Whether variable V is visible from scope INNER: its scope is INNER or
 * an ancestor of it, or it is a global of INNER's unit. */
DWEXPR_API bool dwexpr_libdwarf_var_visible(const dwexpr_libdwarf_var *v,
                                            const dwexpr_libdwarf_scope *inner);

/* A type DIE, as far as listings need it. */
typedef struct dwexpr_libdwarf_type_info {
    uint16_t tag;              /* DW_TAG_* */
    const char *name;          /* C spelling ("struct point *"; Fortran: GDB's notation) */
    uint64_t bytes;            /* static size; 0 when unknown or dynamic */
    uint64_t target;           /* DW_AT_type: pointee, element, aliased type; 0 none */
    uint16_t encoding;         /* base types (through typedefs and qualifiers): DW_ATE_* */
} dwexpr_libdwarf_type_info;

/* Type TYPE (.debug_info offset in unit UNIT's file). E_NOT_FOUND. */
DWEXPR_API dwexpr_status dwexpr_libdwarf_type_get(dwexpr_libdwarf *ld, size_t unit,
                                                  uint64_t type,
                                                  dwexpr_libdwarf_type_info *out);

/* A data member (DW_TAG_member; also DW_TAG_inheritance) of a structure,
 * union or class type, as listings and readers need it. Its location is
 * dwexpr_libdwarf_eval_member_location's. */
typedef struct dwexpr_libdwarf_member {
    uint64_t die;              /* .debug_info offset */
    uint16_t tag;
    const char *name;          /* NULL for an anonymous member */
    uint64_t type;             /* type DIE, 0 if none */
    const char *type_name;     /* C spelling (Fortran: GDB's notation) */
    uint64_t bit_size;         /* DW_AT_bit_size, else 8 * the type's size (0: unknown) */
    bool bit_field;            /* DW_AT_bit_size present */
    /* DWARF 2-4 bit-fields: DW_AT_bit_offset counts from the most
     * significant bit of the storage unit of DW_AT_byte_size bytes (else
     * the type's size) that DW_AT_data_member_location gives */
    bool has_bit_offset;
    uint64_t bit_offset;
    uint64_t storage_bytes;
    /* the member's byte offset in its containing entity when it is fixed:
     * DW_AT_data_member_location absent (0), a constant, or an expression
     * that is one (DWARF 2's DW_OP_plus_uconst N, which
     * dwexpr_libdwarf_eval_member_location reads as the constant too);
     * false for any other expression (a virtual base's) */
    bool offset_known;
    uint64_t offset;
} dwexpr_libdwarf_member;

/* Member DIE of unit UNIT. E_NOT_FOUND. Enumerate a type's members with
 * dwexpr_libdwarf_child_die (tag DW_TAG_member). */
DWEXPR_API dwexpr_status dwexpr_libdwarf_member_get(dwexpr_libdwarf *ld, size_t unit, uint64_t die,
                                                    dwexpr_libdwarf_member *out);

/* ---- the DWARF services of a target ---- */

/* How DW_OP_entry_value finds the value a register had on entry. */
typedef enum dwexpr_libdwarf_entry_policy {
    /* the caller frame's register when the machine target can recover it
     * (register_location says where), else the caller's
     * DW_TAG_call_site_parameter DW_AT_call_value (issue 6 point 3) */
    DWEXPR_LIBDWARF_EV_REGISTER_FIRST = 0,
    /* the call-site parameter first, the register when there is none (GDB) */
    DWEXPR_LIBDWARF_EV_CALL_SITE_FIRST,
    /* only the caller frame's registers */
    DWEXPR_LIBDWARF_EV_REGISTER_ONLY
} dwexpr_libdwarf_entry_policy;

/* Combine LD's DWARF services with a debugger's MACHINE target (registers,
 * memory, CFA, TLS, unwinding; MACHINE_USER is passed back to it): *OUT
 * gets a target whose base_type, die, debug_addr, frame_base, frame_pc,
 * entry_value and parameter_ref answer from the DWARF, and whose other
 * callbacks forward to MACHINE (left NULL where MACHINE has none). Use it
 * with *OUT_USER as the user pointer. MACHINE may be NULL (static
 * queries). The binding copies MACHINE's callbacks; MACHINE_USER must
 * outlive it. Statuses: E_USAGE, E_NOMEM. */
DWEXPR_API dwexpr_status dwexpr_libdwarf_target(dwexpr_libdwarf *ld, const dwexpr_target *machine,
                                                void *machine_user, dwexpr_target *out,
                                                dwexpr_libdwarf_binding **out_user);
/* Release a binding (NULL is fine). */
DWEXPR_API void dwexpr_libdwarf_binding_free(dwexpr_libdwarf_binding *b);
/* The target and user pointer of B (the same as dwexpr_libdwarf_target gave). */
DWEXPR_API const dwexpr_target *dwexpr_libdwarf_binding_target(const dwexpr_libdwarf_binding *b);
/* The program location of FRAME (link-time), for bindings whose machine
 * target has no frame_pc: selects the frame's function (frame base, call
 * sites). Frames above 0 hold a return address. E_USAGE past 4096 frames. */
DWEXPR_API dwexpr_status dwexpr_libdwarf_binding_set_pc(dwexpr_libdwarf_binding *b,
                                                        uint32_t frame, uint64_t pc);
/* Whether FRAME's program location is a return address (the frame is a
 * caller: its function, frame base and call sites are looked up at pc -
 * 1). By default frames above 0 are, frame 0 is not; a frame interrupted
 * by a signal is not, a caller frame given as frame 0 is. E_USAGE past
 * 4096 frames, E_NOMEM. */
DWEXPR_API dwexpr_status dwexpr_libdwarf_binding_set_return_address(dwexpr_libdwarf_binding *b,
                                                                     uint32_t frame,
                                                                     bool is_return_address);
/* Choose how DW_OP_entry_value is resolved (default REGISTER_FIRST). */
DWEXPR_API void dwexpr_libdwarf_binding_set_entry_policy(dwexpr_libdwarf_binding *b,
                                                         dwexpr_libdwarf_entry_policy p);
/* The binding of the module of the same process whose addresses hold
 * run-time address PC (USER as given to set_peers), or NULL: how a
 * binding of one module (set_address_range) reaches the DWARF of
 * another. */
typedef dwexpr_libdwarf_binding *(*dwexpr_libdwarf_peer_fn)(void *user, uint64_t pc);
/* Let B ask FN for the binding of another module (NULL: none, the
 * default). An entry value (DW_OP_entry_value, DW_OP_GNU_parameter_ref)
 * of a frame whose caller is in another module then comes from that
 * module's call site, as GDB takes it: the call site must call the
 * frame's function, by address (DW_AT_call_target) or by the name of the
 * declaration it names (DW_AT_call_origin: an executable's call into a
 * shared library); its values are evaluated with the caller's module. */
DWEXPR_API void dwexpr_libdwarf_binding_set_peers(dwexpr_libdwarf_binding *b,
                                                  dwexpr_libdwarf_peer_fn fn, void *user);
/* Keep the entry values B works out (DW_OP_entry_value,
 * DW_OP_GNU_parameter_ref: through call sites, in frames further out)
 * per frame and question, from now until dwexpr_libdwarf_binding_forget
 * (or KEEP false, or the binding is freed): for a debugger that reads
 * many frames at one stop (every frame of a recursion asks again for the
 * entry values of every frame above it, as GCC describes them: quadratic
 * without this). Only while the state the machine target reads (the
 * thread's registers and memory, its frames) does not change: call
 * dwexpr_libdwarf_binding_forget on every resume, register or memory
 * write. Changing a frame's pc (set_pc), return-address flag, the entry
 * policy or the peers forgets them too. Off by default: then the entry
 * values one question asks for (the call-site values of a recursion ask
 * for their caller's entry values, of two parameters or more:
 * exponential if each were worked out again) are kept while it is
 * answered, and forgotten at the next. */
DWEXPR_API void dwexpr_libdwarf_binding_keep_entry_values(dwexpr_libdwarf_binding *b, bool keep);
/* Forget the entry values B kept (dwexpr_libdwarf_binding_keep_entry_values). */
DWEXPR_API void dwexpr_libdwarf_binding_forget(dwexpr_libdwarf_binding *b);
/* A short note on the last DWARF service failure ("" if none). */
DWEXPR_API const char *dwexpr_libdwarf_binding_message(const dwexpr_libdwarf_binding *b);

/* ---- attribute evaluation (seed "Debugging Information Entry Attributes") ----
 *
 * Each function evaluates one attribute of the DIE at .debug_info offset
 * DIE of unit UNIT on CTX with B's target. WHERE gives the focus: thread,
 * lane, lanes, frame, pc (link-time, the one location lists are matched
 * at: a caller frame's pc - 1) and an optional trace hook; its result
 * kind, object and initial stack are ignored and set as the seed says for
 * the attribute. Results point into CTX (valid until its next
 * evaluation), or into LD. Locations passed in (containing object,
 * descriptor, ...) must not live in CTX: evaluate them on another
 * context, or copy them with dwexpr_libdwarf_loc_copy.
 *
 * A location list attribute with several matching entries gives a
 * location with several places; with none, the undefined location; with
 * no pc, class context (E_NO_CONTEXT). Statuses: E_NOT_FOUND (the DIE
 * lacks the attribute), the evaluation's status (ERR has its details:
 * class, offset, operation, message), E_ILL_FORMED when the result breaks
 * the attribute's rule. ERR may be NULL. */

/* DW_AT_location: result kind location, empty stack. A DIE with only
 * DW_AT_const_value gives an implicit location holding the constant. A
 * DIE with neither gives those of the first DIE along its
 * DW_AT_specification / DW_AT_abstract_origin chain that has one, as
 * GDB reads a variable (a C++ constant's definition naming the
 * declaration that holds its DW_AT_const_value). */
DWEXPR_API dwexpr_status dwexpr_libdwarf_eval_location(dwexpr_libdwarf_binding *b,
                                                       dwexpr_ctx *ctx, size_t unit,
                                                       uint64_t die,
                                                       const dwexpr_eval_params *where,
                                                       dwexpr_result *out, dwexpr_error *err);
/* DW_AT_frame_base of a subprogram: one memory location; a register
 * location R is replaced by DW_OP_bregx R 0; an DW_OP_fbreg in it is
 * ill-formed. */
DWEXPR_API dwexpr_status dwexpr_libdwarf_eval_frame_base(dwexpr_libdwarf_binding *b,
                                                         dwexpr_ctx *ctx, size_t unit,
                                                         uint64_t die,
                                                         const dwexpr_eval_params *where,
                                                         dwexpr_result *out, dwexpr_error *err);
/* DW_AT_data_member_location of member DIE, given the location of the
 * beginning of the containing entity (any kind, several places, a bit
 * offset). A constant B is DW_OP_LLVM_offset B on that location. Without
 * the attribute (a union member, DWARF 4 bit-fields with
 * DW_AT_data_bit_offset) the member starts where the entity does, moved
 * by DW_AT_data_bit_offset bits when present. */
DWEXPR_API dwexpr_status dwexpr_libdwarf_eval_member_location(dwexpr_libdwarf_binding *b,
                                                              dwexpr_ctx *ctx, size_t unit,
                                                              uint64_t die,
                                                              const dwexpr_loc *containing,
                                                              const dwexpr_eval_params *where,
                                                              dwexpr_result *out,
                                                              dwexpr_error *err);
/* DW_AT_data_location of type DIE: the object is the descriptor's
 * location, the stack is empty. Without the attribute the data is the
 * descriptor itself (returned as is). */
DWEXPR_API dwexpr_status dwexpr_libdwarf_eval_data_location(dwexpr_libdwarf_binding *b,
                                                            dwexpr_ctx *ctx, size_t unit,
                                                            uint64_t die,
                                                            const dwexpr_loc *descriptor,
                                                            const dwexpr_eval_params *where,
                                                            dwexpr_result *out,
                                                            dwexpr_error *err);
/* DW_AT_use_location of a DW_TAG_ptr_to_member_type: stack = the pointer
 * to member value (first entry), then the location of the containing
 * instance. */
DWEXPR_API dwexpr_status dwexpr_libdwarf_eval_use_location(dwexpr_libdwarf_binding *b,
                                                           dwexpr_ctx *ctx, size_t unit,
                                                           uint64_t die,
                                                           const dwexpr_value *member_ptr,
                                                           const dwexpr_loc *instance,
                                                           const dwexpr_eval_params *where,
                                                           dwexpr_result *out,
                                                           dwexpr_error *err);
/* DW_AT_vtable_elem_location of a virtual function: stack = the location
 * of the object of the enclosing type. */
DWEXPR_API dwexpr_status dwexpr_libdwarf_eval_vtable_elem_location(
    dwexpr_libdwarf_binding *b, dwexpr_ctx *ctx, size_t unit, uint64_t die,
    const dwexpr_loc *object, const dwexpr_eval_params *where, dwexpr_result *out,
    dwexpr_error *err);
/* DW_AT_static_link and DW_AT_return_addr: empty stack; the result must
 * be one memory location (else E_ILL_FORMED). */
DWEXPR_API dwexpr_status dwexpr_libdwarf_eval_static_link(dwexpr_libdwarf_binding *b,
                                                          dwexpr_ctx *ctx, size_t unit,
                                                          uint64_t die,
                                                          const dwexpr_eval_params *where,
                                                          dwexpr_result *out, dwexpr_error *err);
DWEXPR_API dwexpr_status dwexpr_libdwarf_eval_return_addr(dwexpr_libdwarf_binding *b,
                                                          dwexpr_ctx *ctx, size_t unit,
                                                          uint64_t die,
                                                          const dwexpr_eval_params *where,
                                                          dwexpr_result *out, dwexpr_error *err);
/* DW_AT_call_value, DW_AT_call_data_location or DW_AT_call_data_value
 * (AT; the GNU codes DW_AT_GNU_call_site_value / _data_value too) of a
 * call-site parameter DIE: value, location, value. WHERE must be the
 * caller frame at the call site. */
DWEXPR_API dwexpr_status dwexpr_libdwarf_eval_call_attr(dwexpr_libdwarf_binding *b,
                                                        dwexpr_ctx *ctx, size_t unit,
                                                        uint64_t die, uint16_t at,
                                                        const dwexpr_eval_params *where,
                                                        dwexpr_result *out, dwexpr_error *err);
/* A bound or size that may be computed (DWARF 5 2.19): DW_AT_lower_bound,
 * DW_AT_upper_bound, DW_AT_count, DW_AT_byte_size, DW_AT_bit_size,
 * DW_AT_bit_stride, DW_AT_byte_stride, DW_AT_string_length. A constant is
 * returned as is; an expression is evaluated with result kind value and
 * OBJECT (may be NULL) for DW_OP_push_object_address; a reference is the
 * value of the variable or member it names, read through its location;
 * DW_AT_string_length gives a location whose contents
 * (DW_AT_string_length_byte_size/_bit_size, default the generic size) are
 * the length. *VALUE gets the integer. */
DWEXPR_API dwexpr_status dwexpr_libdwarf_eval_bound(dwexpr_libdwarf_binding *b, dwexpr_ctx *ctx,
                                                    size_t unit, uint64_t die, uint16_t at,
                                                    const dwexpr_loc *object,
                                                    const dwexpr_eval_params *where,
                                                    int64_t *value, dwexpr_error *err);

/* The size in bytes of type TYPE of unit UNIT, computing dynamic array
 * bounds and sizes (DW_AT_count, DW_AT_upper_bound, DW_AT_lower_bound,
 * DW_AT_byte_size as expressions or references; VLAs) with
 * dwexpr_libdwarf_eval_bound; OBJECT (may be NULL) is the object of that
 * type. An array dimension with a stride (dwexpr_libdwarf_array_dim)
 * spans |stride| x count, rounded up to bytes (GDB's size of a strided
 * array: a Fortran section data(2:5:2) of real(8) is 32 bytes). *BYTES is
 * 0 when the size cannot be known. */
DWEXPR_API dwexpr_status dwexpr_libdwarf_type_size(dwexpr_libdwarf_binding *b, dwexpr_ctx *ctx,
                                                   size_t unit, uint64_t type,
                                                   const dwexpr_loc *object,
                                                   const dwexpr_eval_params *where,
                                                   uint64_t *bytes, dwexpr_error *err);

/* One dimension of an array type (DWARF 5 5.5, 5.13). */
typedef struct dwexpr_libdwarf_dim {
    uint64_t die;              /* the subrange (or enumeration) DIE */
    int64_t lower;             /* DW_AT_lower_bound, else the language's default (Table 7.17) */
    int64_t count;             /* elements: DW_AT_count, else upper - lower + 1 (>= 0) */
    bool has_count;            /* false: no count or upper bound ("int []") */
    int64_t stride_bits;       /* distance between elements: the subrange's
                                  DW_AT_byte_stride / DW_AT_bit_stride, for the
                                  innermost dimension else the array type's; 0:
                                  none (elements follow one another) */
    bool innermost;            /* the dimension whose elements are adjacent
                                  (the last one in row-major order, the first in
                                  column-major: DW_AT_ordering, else the language's) */
} dwexpr_libdwarf_dim;

/* Dimension INDEX (0-based, in DIE order) of array type ARRAY of unit UNIT,
 * its bounds and strides computed with dwexpr_libdwarf_eval_bound for
 * OBJECT (the object of that type: an expression's
 * DW_OP_push_object_address, e.g. a Fortran descriptor; may be NULL).
 * E_NOT_FOUND when ARRAY has no such dimension; an evaluation error of a
 * bound or stride as that status. */
DWEXPR_API dwexpr_status dwexpr_libdwarf_array_dim(dwexpr_libdwarf_binding *b, dwexpr_ctx *ctx,
                                                   size_t unit, uint64_t array, unsigned index,
                                                   const dwexpr_loc *object,
                                                   const dwexpr_eval_params *where,
                                                   dwexpr_libdwarf_dim *out, dwexpr_error *err);

/* Deep-copy LOC (composites, implicit bytes) into malloc'ed storage that
 * OUT then owns; release it with dwexpr_libdwarf_loc_free. E_NOMEM. */
DWEXPR_API dwexpr_status dwexpr_libdwarf_loc_copy(const dwexpr_loc *loc, dwexpr_loc *out);
DWEXPR_API void dwexpr_libdwarf_loc_free(dwexpr_loc *loc);

#ifdef __cplusplus
}
#endif
#endif
