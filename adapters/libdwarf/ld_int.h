/* adapters/libdwarf/ld_int.h: internals of the libdwarf adapter shared by
 * its files (not installed): the opened files and their raw sections, the
 * unit table, scopes, call sites, caches and the allocation pool. */
#ifndef DWEXPR_LD_INT_H
#define DWEXPR_LD_INT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <dwarf.h>
#include <libdwarf.h>

#include <dwexpr/adapter_libdwarf.h>

#if defined(__GNUC__)
#  define LD_HIDDEN __attribute__((visibility("hidden")))
#  define LD_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#  define LD_HIDDEN
#  define LD_PRINTF(a, b)
#endif

/* DWARF constants libdwarf 20210528's dwarf.h may lack. */
#define LD_AT_LLVM_vector_size_seed 0x3e0c   /* seed table */
#define LD_AT_LLVM_vector_size 0x3e13        /* current LLVM */
#define LD_LLE_GNU_view_pair 0x09            /* DW_LLE_GNU_view_pair (gcc) */

/* ---- allocation pool: everything handed out lives until close ---- */
typedef struct ld_chunk ld_chunk;
typedef struct ld_pool {
    ld_chunk *head;
} ld_pool;

LD_HIDDEN void *ld_pool_alloc(ld_pool *p, size_t size);   /* zeroed, 16-aligned; NULL on OOM */
LD_HIDDEN char *ld_pool_strdup(ld_pool *p, const char *s); /* NULL stays NULL */
LD_HIDDEN void ld_pool_free(ld_pool *p);

/* ---- growable arrays of fixed-size elements ---- */
typedef struct ld_vec {
    void *v;
    size_t n, cap, elem;
} ld_vec;
LD_HIDDEN void *ld_vec_push(ld_vec *v);  /* zeroed new element, NULL on OOM */
LD_HIDDEN void ld_vec_free(ld_vec *v);

/* ---- hash map: two 64-bit keys to a pointer ---- */
typedef struct ld_map_slot {
    uint64_t k1, k2;
    void *val;
    bool used;
} ld_map_slot;
typedef struct ld_map {
    ld_map_slot *slots;
    size_t n, cap;
} ld_map;
LD_HIDDEN void *ld_map_get(const ld_map *m, uint64_t k1, uint64_t k2);
LD_HIDDEN bool ld_map_put(ld_map *m, uint64_t k1, uint64_t k2, void *val);
LD_HIDDEN void ld_map_free(ld_map *m);

/* ---- one ELF file (lib/elf.c) ---- */
typedef struct ld_section {
    const uint8_t *data;
    uint64_t size;
    bool present;
    bool compressed;      /* SHF_COMPRESSED that could not be inflated: not readable raw */
} ld_section;

/* A compressed section's contents, inflated on first use. */
typedef struct ld_inflated {
    bool tried;
    uint8_t *data;        /* NULL: could not be inflated */
    uint64_t size;
} ld_inflated;

/* A section ld_elf_section found by name, kept for the next lookup. */
typedef struct ld_section_memo {
    char name[32];        /* "" for a free slot */
    ld_section s;
} ld_section_memo;
#define LD_SECTION_MEMOS 16

typedef struct ld_elf {
    uint8_t *map;
    size_t size;
    bool is64, big;
    uint16_t machine;
    uint64_t shoff;
    uint16_t shnum, shentsize, shstrndx;
    ld_inflated *inflated; /* one per section header */
    ld_section_memo *memo; /* LD_SECTION_MEMOS of them */
} ld_elf;

LD_HIDDEN int ld_elf_open(ld_elf *e, const char *path, char *why, size_t cap);
LD_HIDDEN void ld_elf_close(ld_elf *e);
/* The section called NAME (present false when there is none); a
 * compressed one (SHF_COMPRESSED, zlib) inflated, when it can be. */
LD_HIDDEN ld_section ld_elf_section(const ld_elf *e, const char *name);
/* The next sibling of C, never at or before C (dwexpr_libdwarf.c). */
LD_HIDDEN int ld_sibling(Dwarf_Debug dbg, Dwarf_Die c, Dwarf_Die *next, Dwarf_Error *e);
/* Move *C to its next sibling (ld_sibling), releasing the DIE it held;
 * returns ld_sibling's answer (*C is NULL unless DW_DLV_OK; an error is
 * dropped). */
LD_HIDDEN int ld_next_sibling(Dwarf_Debug dbg, Dwarf_Die *c);
/* The first child of D in *C (dwarf_child; an error is dropped):
 * DW_DLV_OK, DW_DLV_NO_ENTRY or DW_DLV_ERROR. */
LD_HIDDEN int ld_first_child(Dwarf_Debug dbg, Dwarf_Die d, Dwarf_Die *c);
/* An unsigned of SIZE bytes at file offset OFF of E (0 when out of bounds). */
LD_HIDDEN uint64_t ld_read_at(const ld_elf *e, uint64_t off, unsigned size);
/* Checks on raw sections that libdwarf 20210528 does not survive
 * (precheck.c). Returns 0, or -1 with WHY set. */
LD_HIDDEN int ld_precheck(const ld_elf *e, char *why, size_t cap);

/* A bounded reader over section bytes. */
typedef struct ld_cursor {
    const uint8_t *p, *end;
    bool big;
    bool bad;             /* ran past the end */
} ld_cursor;
LD_HIDDEN uint64_t ld_get_u(ld_cursor *c, unsigned size);
LD_HIDDEN uint64_t ld_get_uleb(ld_cursor *c);
LD_HIDDEN int64_t ld_get_sleb(ld_cursor *c);
/* Whether the LEN bytes at P, a DW_AT_data_member_location expression,
 * are a constant displacement, as DWARF 2 (which has no constant form for
 * the attribute) and producers since write a member at a fixed offset:
 * DW_OP_plus_uconst N alone (GCC's -gdwarf-2), or DW_OP_constu N /
 * DW_OP_litN followed by DW_OP_plus; *OFF = N. Such a member is read as
 * the constant case (seed "DW_AT_data_member_location" 1: DW_OP_LLVM_offset
 * N), as GDB reads it (decode_locdesc: the field's bit position), so that
 * a member of an object in registers or in pieces is found: the seed's
 * DW_OP_plus_uconst takes a value, which a register or composite location
 * is not (ill-formed). For a memory location the two readings agree. */
LD_HIDDEN bool ld_constant_displacement(const uint8_t *p, size_t len, uint64_t *off);

/* ---- the files: main ELF and .dwo ---- */
typedef struct ld_file {
    char *path;
    ld_elf elf;
    Dwarf_Debug dbg;
    bool elf_ok;
    bool type_units;       /* it has type units: DW_AT_type may name a signature stub */
    bool decl_types;       /* DW_AT_type may name a Rust or C++ type declaration
                              defined in another unit (ld->decl_defs) */
} ld_file;

/* A DIE of a DWARF 4 .debug_types section (the type units of GCC's
 * -fdebug-types-section) is named by its section offset with this bit
 * set, so that one offset says which section holds it (ld_offdie). */
#define LD_TYPES_OFF ((uint64_t)1 << 47)

/* ---- units ---- */
typedef struct ld_unit {
    dwexpr_libdwarf_unit pub;
    size_t file;           /* index into ld->files of the DIEs */
    uint64_t hdr;          /* unit header offset in that file's .debug_info */
    uint64_t end;          /* offset just past the unit */
    uint64_t dwo_id;
    bool has_dwo_id;
    uint64_t language;     /* DW_AT_language, 0 if absent */
    ld_vec btypes;         /* dwexpr_libdwarf_base_type */
} ld_unit;

/* ---- scopes ---- */
typedef struct ld_scope {
    dwexpr_libdwarf_scope pub;   /* first: the public view */
    size_t file;
    unsigned depth;              /* 0 for a unit */
    bool no_ranges;              /* block without pc information: transparent */
    bool names_done;             /* qualified / linkage below computed (scope_names) */
    const char *qualified;       /* dwexpr_libdwarf_scope_qualified_name */
    const char *linkage;         /* dwexpr_libdwarf_scope_linkage_name */
    uint8_t all_calls;           /* a function's DW_AT_call_all_calls / _all_tail_calls (GNU
                                    too): 0 not read yet, 1 no, 2 yes (tailcall.c) */
} ld_scope;

/* ---- call sites ---- */
typedef struct ld_csparam {
    uint64_t die;
    uint32_t regno;              /* DW_AT_location DW_OP_regN/regx; UINT32_MAX otherwise */
    const uint8_t *loc;          /* DW_AT_location bytes */
    size_t loc_len;
    uint64_t param;              /* DW_AT_call_parameter / DW_AT_abstract_origin, 0 none */
    bool has_value;
    bool has_data_value;         /* DW_AT_call_data_value (GNU: _call_site_data_value) */
} ld_csparam;

typedef struct ld_callsite {
    uint64_t return_pc;          /* DW_AT_call_return_pc, or DW_AT_low_pc (GNU) */
    uint64_t die;
    size_t unit;
    uint64_t origin;             /* callee DIE, 0 unknown */
    const ld_scope *scope;
    ld_csparam *params;
    size_t nparams;
    /* what it calls, as GDB reads it: DW_AT_call_target (GNU:
     * DW_AT_GNU_call_site_target) when present, else DW_AT_call_origin /
     * DW_AT_abstract_origin */
    const uint8_t *target_expr;  /* an expression (an indirect call), else NULL */
    size_t target_len;
    uint64_t target_die;         /* a reference to the callee's DIE, else 0 */
    bool tail;                   /* DW_AT_call_tail_call / DW_AT_GNU_tail_call: a jump */
    /* ld_callsite_targets' answer, kept once found */
    bool resolved;
    dwexpr_status target_status;
    const uint64_t *targets;
    size_t ntargets;
    const char *outside;         /* a declaration's name no function here has (another module's) */
    const char *ambiguous;       /* a declaration's name several functions here have */
} ld_callsite;

/* A named type DIE: a Rust or C++ type definition or declaration by its
 * qualified name (type_prefixes). */
typedef struct ld_named_type {
    const char *name;
    size_t file;
    uint64_t off;
} ld_named_type;

/* ---- the adapter ---- */
struct dwexpr_libdwarf {
    ld_pool pool;
    ld_file *files;              /* [0] the main file, then .dwo files */
    size_t nfiles, capfiles;
    ld_vec units;                /* ld_unit */
    ld_vec vars;                 /* dwexpr_libdwarf_var */
    ld_vec scopes;               /* ld_scope * (non-unit scopes) */
    ld_vec callsites;            /* ld_callsite, sorted by return_pc after open */
    ld_map attrs;                /* (file<<48|die, at) -> dwexpr_libdwarf_attr */
    ld_map dies;                 /* (file, off) -> dwexpr_die (DIE service) */
    ld_map btype_cache;          /* (unit, unit-relative off) -> dwexpr_type or NULL */
    ld_map tnames;               /* (file, off) -> ld_tinfo */
    ld_map origins;              /* (file, off) -> non-NULL while opening: the abstract
                                    origin of a unit-scope variable's concrete DIE (the
                                    early-debug DIE of a gcc -flto global), not a
                                    variable of its own */
    ld_map prefixes;             /* (file, off) -> const char *: the qualifier of a
                                    DW_TAG_subprogram seen inside a namespace, class,
                                    module or Fortran host procedure (walk) */
    /* GDB's opaque type resolution (check_typedef), for Rust and C++
     * units: a structure, class, union or enumeration declaration
     * (DW_AT_declaration: rustc's for a type another unit defines, g++'s
     * and clang++'s for a class whose vtable another unit holds) stands
     * for the first definition of its qualified name (type_prefixes) */
    bool prefix_decls;           /* type_prefixes indexes named types (a Rust or C++
                                    unit, before resolve_decls) */
    bool decls_done;             /* resolve_decls ran: no more are indexed */
    ld_map type_defs;            /* (hash of the qualified name, k) -> ld_named_type */
    ld_vec decls;                /* ld_named_type: the declarations seen */
    ld_map decl_defs;            /* (file, declaration) -> uint64_t *: its definition */
    ld_map concretes;            /* (file, off of an abstract variable DIE) -> ld_concrete
                                    *: the variables of concrete functions that name it
                                    by DW_AT_abstract_origin (ld_concrete_die) */
    uint64_t load_bias;
    uint64_t range_lo, range_hi; /* run-time addresses of the module; 0, 0: all */
    char arch[24];
    /* tail calls (tailcall.c), built on first use */
    bool tails_done;
    const ld_callsite **tails;   /* tail call sites of functions that list all their calls,
                                    ordered by function */
    size_t ntails;
    bool fn_dies_done;
    ld_map fn_by_die;            /* (file, DIE) -> ld_scope *: functions */
    ld_map selftail;             /* (entry, 0) -> 1 no self tail call, 2 maybe */
    ld_map fn_by_entry;          /* (address, 0) -> the function entered there, or
                                    LD_NO_FUNCTION (ld_function_entered) */
    bool syms_done;              /* symbols.c: the ELF function symbols, read on first use */
    ld_map syms;                 /* (hash of the name, k) -> ld_sym * */
    size_t nsyms;
    bool fn_names_done;          /* symbols.c: the DWARF's function definitions by name */
    ld_map fn_by_name[2];        /* (hash of the linkage name [0] / DW_AT_name [1], k) ->
                                    ld_scope * */
};

/* A variable DIE (in FILE) that is a direct child of concrete function
 * FN and names an abstract DIE by DW_AT_abstract_origin; NEXT: another
 * such DIE of the same abstract one. */
typedef struct ld_concrete {
    uint64_t die;
    const ld_scope *fn;
    struct ld_concrete *next;
} ld_concrete;

/* GDB's resolve_abstract_p (dwarf2_fetch_die_loc_sect_off): for the
 * abstract variable DIE OFF of FILE, the concrete DIE of the function
 * holding link-time PC; 0 if none. */
LD_HIDDEN uint64_t ld_concrete_die(const dwexpr_libdwarf *ld, size_t file, uint64_t off,
                                   uint64_t pc);

/* Fill ERR with status S and a message; returns S. */
LD_HIDDEN dwexpr_status ld_fail(dwexpr_error *err, dwexpr_status s, const char *fmt, ...)
    LD_PRINTF(3, 4);
/* A libdwarf error: its message into ERR (as E_TARGET), released. */
LD_HIDDEN dwexpr_status ld_dwfail(Dwarf_Debug dbg, Dwarf_Error e, dwexpr_error *err,
                                  const char *what);
/* Drop a libdwarf error object (after DW_DLV_ERROR when the caller does not care). */
LD_HIDDEN void ld_drop(Dwarf_Debug dbg, Dwarf_Error e);

LD_HIDDEN ld_unit *ld_unit_at(const dwexpr_libdwarf *ld, size_t i);
/* The unit of file FILE that holds .debug_info offset OFF, or SIZE_MAX. */
LD_HIDDEN size_t ld_unit_of(const dwexpr_libdwarf *ld, size_t file, uint64_t off);
/* The DIE whose DW_AT_location, else DW_AT_const_value, is the value of
 * variable or parameter DIE of UNIT (*UNIT, *DIE; both updated): DIE
 * itself when it has one, else the first along its DW_AT_specification /
 * DW_AT_abstract_origin chain that has one, as GDB reads a variable
 * (dwarf2_attr follows both): a C++ constant whose definition names the
 * declaration holding its DW_AT_const_value (libstdc++'s
 * __gnu_cxx::__default_lock_policy). E_NOT_FOUND when none has either. */
LD_HIDDEN dwexpr_status ld_value_die(dwexpr_libdwarf *ld, size_t *unit, uint64_t *die);
/* Entry INDEX of .debug_addr for unit U (DW_AT_addr_base). */
LD_HIDDEN dwexpr_status ld_debug_addr(const dwexpr_libdwarf *ld, const ld_unit *u,
                                      uint64_t index, uint64_t *out, dwexpr_error *err);
/* The DIE at OFF of FILE (caller deallocates with dwarf_dealloc_die). */
LD_HIDDEN dwexpr_status ld_offdie(dwexpr_libdwarf *ld, size_t file, uint64_t off, Dwarf_Die *out,
                                  dwexpr_error *err);

/* ---- lists (lists.c) ---- */
/* Read the location list of unit U for attribute form FORM with value V
 * (sec_offset / data4 / data8: an offset; loclistx: an index). */
LD_HIDDEN dwexpr_status ld_read_loclist(dwexpr_libdwarf *ld, const ld_unit *u, uint16_t form,
                                        uint64_t v, dwexpr_libdwarf_attr *out,
                                        dwexpr_error *err);
/* Read the range list of unit U (DW_AT_ranges with FORM and value V) into
 * pool memory. */
LD_HIDDEN dwexpr_status ld_read_ranges(dwexpr_libdwarf *ld, const ld_unit *u, uint16_t form,
                                       uint64_t v, dwexpr_libdwarf_range **out, size_t *n,
                                       dwexpr_error *err);

/* ---- DIE reading helpers (dwexpr_libdwarf.c) ---- */
LD_HIDDEN bool ld_die_udata(dwexpr_libdwarf *ld, size_t file, Dwarf_Die d, Dwarf_Half at,
                            uint64_t *out);
LD_HIDDEN bool ld_die_ref(dwexpr_libdwarf *ld, size_t file, Dwarf_Die d, Dwarf_Half at,
                          uint64_t *out);
LD_HIDDEN bool ld_die_flag(dwexpr_libdwarf *ld, size_t file, Dwarf_Die d, Dwarf_Half at);
/* The type DIE of the DIE at OFF of unit UNIT's file (through
 * DW_AT_abstract_origin), 0 if none. */
LD_HIDDEN uint64_t ld_die_type(dwexpr_libdwarf *ld, size_t unit, uint64_t off);
/* The base type at unit-relative OFF of unit UNIT (cached). */
LD_HIDDEN dwexpr_status ld_base_type(dwexpr_libdwarf *ld, size_t unit, uint64_t off,
                                     dwexpr_type *out);
/* Size in bytes of type TYPE (section offset in FILE), 0 if unknown. */
LD_HIDDEN uint64_t ld_type_bytes(dwexpr_libdwarf *ld, size_t unit, uint64_t type);
/* The default lower bound of arrays in unit UNIT's language (DWARF 5
 * Table 7.17): 1 for Fortran, Ada, Pascal, ...; 0 otherwise. */
LD_HIDDEN int64_t ld_default_lower_bound(const dwexpr_libdwarf *ld, size_t unit);
/* Whether the unit's language lays arrays out in column-major order
 * (Fortran: DWARF 5 5.5, DW_AT_ordering's default). */
LD_HIDDEN bool ld_column_major(const dwexpr_libdwarf *ld, size_t unit);
/* The call site of the caller whose return address is RET, or NULL. */
LD_HIDDEN const ld_callsite *ld_callsite_at(const dwexpr_libdwarf *ld, uint64_t ret);
/* The innermost scope holding PC (internal view). */
LD_HIDDEN const ld_scope *ld_scope_at(const dwexpr_libdwarf *ld, uint64_t pc);
/* A string attribute of D, copied into the pool (NULL if absent). */
LD_HIDDEN const char *ld_die_string(dwexpr_libdwarf *ld, size_t file, Dwarf_Die d, Dwarf_Half at);
/* The linkage name of function or inlined scope S (dwexpr_libdwarf_scope_linkage_name). */
LD_HIDDEN const char *ld_scope_linkage(dwexpr_libdwarf *ld, const ld_scope *s);

/* ---- tail calls and call-site targets (tailcall.c; GDB's rules) ---- */
/* The functions call site CS calls, as GDB finds them without a frame
 * (call_site_target::iterate_over_addresses): the entry addresses
 * (link-time) in *OUT (pool memory, N of them). Returns
 * DWEXPR_OK (no address for a shared library's function: a declaration
 * whose name no function here has); E_UNSUPPORTED for a DW_AT_call_target
 * expression (it needs the caller frame: CS->target_expr); E_NOT_FOUND
 * when the target is unknown (none given, a DIE without an address, a
 * nameless declaration). */
LD_HIDDEN dwexpr_status ld_callsite_targets(dwexpr_libdwarf *ld, const ld_callsite *cs,
                                            const uint64_t **out, size_t *n);
#define LD_NO_FUNCTION ((void *)1)
/* The function NAME stands for in this module (symbols.c; GDB's
 * lookup_minimal_symbol for a declaration's name): the ELF function
 * symbols of that name, global or weak first, else local; else the DWARF
 * definitions of that linkage name, else DW_AT_name. LD_NAME_ONE: *ADDR
 * (link-time); LD_NAME_AMBIGUOUS: several addresses (*COUNT of them, 2
 * meaning two or more); LD_NAME_NONE: none. */
typedef enum { LD_NAME_NONE, LD_NAME_ONE, LD_NAME_AMBIGUOUS } ld_name_answer;
LD_HIDDEN ld_name_answer ld_function_named(dwexpr_libdwarf *ld, const char *name,
                                           uint64_t *addr, size_t *count);
/* GDB's function entry (block entry pc) of function scope S: its one
 * range's start, else the first DW_AT_ranges entry's. */
LD_HIDDEN uint64_t ld_function_entry(const ld_scope *s);
/* The function whose entry is exactly ADDR (GDB's
 * func_addr_to_tail_call_list), or NULL. Kept once found. */
LD_HIDDEN const ld_scope *ld_function_entered(dwexpr_libdwarf *ld, uint64_t addr);
/* Whether the function entered at ENTRY may call itself through tail
 * calls, or GDB could not tell (a tail call whose target is unknown):
 * GDB's func_verify_no_selftailcall, which then gives up entry values. */
LD_HIDDEN bool ld_may_tail_call_self(dwexpr_libdwarf *ld, uint64_t entry);

#endif
