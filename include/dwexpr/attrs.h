/* dwexpr/attrs.h: helpers for the seed's SIMT attributes ("Debugging
 * Information Entry Attributes"): attribute codes of both tables in use,
 * DW_AT_LLVM_lanes, lane_pc, active_lane and augmentation strings. */
#ifndef DWEXPR_ATTRS_H
#define DWEXPR_ATTRS_H

#include "eval.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Attribute codes. The seed's table ("Attribute Encodings") collides with
 * later upstream LLVM attributes; current LLVM uses other codes and has
 * none for active_lane and augmentation. Named DWEXPR_AT_* so that they
 * do not clash with a dwarf.h that defines DW_AT_LLVM_* itself. */
#define DWEXPR_AT_SEED_active_lane 0x3e08
#define DWEXPR_AT_SEED_augmentation 0x3e09
#define DWEXPR_AT_SEED_lanes 0x3e0a
#define DWEXPR_AT_SEED_lane_pc 0x3e0b
#define DWEXPR_AT_SEED_vector_size 0x3e0c
#define DWEXPR_AT_LLVM_memory_space 0x3e0f
#define DWEXPR_AT_LLVM_address_space 0x3e10
#define DWEXPR_AT_LLVM_lanes 0x3e11
#define DWEXPR_AT_LLVM_lane_pc 0x3e12
#define DWEXPR_AT_LLVM_vector_size 0x3e13

/* The attributes, whatever their code. */
typedef enum dwexpr_llvm_attr {
    DWEXPR_LLVM_AT_NONE = 0,          /* not one of these */
    DWEXPR_LLVM_AT_active_lane,
    DWEXPR_LLVM_AT_augmentation,
    DWEXPR_LLVM_AT_lanes,
    DWEXPR_LLVM_AT_lane_pc,
    DWEXPR_LLVM_AT_vector_size,
    DWEXPR_LLVM_AT_memory_space,
    DWEXPR_LLVM_AT_address_space
} dwexpr_llvm_attr;

/* Which code table(s) a producer uses (bit set). */
#define DWEXPR_AT_CODES_SEED 0x1u     /* 0x3e08..0x3e0c */
#define DWEXPR_AT_CODES_CURRENT 0x2u  /* 0x3e0f..0x3e13 */
#define DWEXPR_AT_CODES_ANY 0x3u      /* the two sets do not overlap */

/* The attribute that code CODE stands for in the tables CODES, or
 * DWEXPR_LLVM_AT_NONE. With the seed table, 0x3e08..0x3e0c of a producer
 * that follows upstream LLVM are other (pointer authentication)
 * attributes: pass only the table the producer follows when known. */
DWEXPR_API dwexpr_llvm_attr dwexpr_llvm_attr_from_code(uint64_t code, unsigned codes);
/* The code of ATTR in table CODES (DWEXPR_AT_CODES_SEED or _CURRENT), or 0
 * when that table has none (current LLVM: active_lane, augmentation; seed:
 * memory_space, address_space). */
DWEXPR_API uint64_t dwexpr_llvm_attr_code(dwexpr_llvm_attr attr, unsigned codes);
/* "DW_AT_LLVM_lane_pc"-style name; "?" for DWEXPR_LLVM_AT_NONE. */
DWEXPR_API const char *dwexpr_llvm_attr_name(dwexpr_llvm_attr attr);

/* DW_AT_LLVM_lanes (seed "DW_AT_LLVM_lanes"): lanes per thread. PRESENT
 * false gives the default 1; a value of 0 (or above UINT32_MAX) is
 * ill-formed (DWEXPR_E_ILL_FORMED). */
DWEXPR_API dwexpr_status dwexpr_llvm_lanes(bool present, uint64_t value, uint32_t *out);

/* One entry of an augmentation string (seed "DW_AT_LLVM_augmentation"):
 * [vendor:vX.Y[:options]]. Pointers point into the parsed string. */
typedef struct dwexpr_augmentation {
    const char *vendor;
    size_t vendor_len;
    uint64_t major, minor;    /* vX.Y */
    const char *options;      /* NULL when there is no ":options" */
    size_t options_len;
} dwexpr_augmentation;

/* Parse augmentation string S (LEN bytes) into OUT (CAP entries; may be
 * NULL when CAP is 0). *COUNT gets the number of entries (even beyond
 * CAP, then DWEXPR_E_NOSPACE). An empty string has no entries. A
 * malformed string is DWEXPR_E_SYNTAX with ERR->offset the byte offset
 * of the problem: missing '[' or ']', empty vendor, a version that is not
 * v<major>.<minor> with semantic-versioning numbers (no leading zeros),
 * ']' missing after the options. */
DWEXPR_API dwexpr_status dwexpr_augmentation_parse(const char *s, size_t len,
                                                   dwexpr_augmentation *out, size_t cap,
                                                   size_t *count, dwexpr_error *err);

/* Per-lane program locations from LOC, the result of DW_AT_LLVM_lane_pc
 * (seed "DW_AT_LLVM_lane_pc"): a vector of LANES elements of the generic
 * type of UNIT (8 * addr_size bits each), lane 0 the least significant.
 * PCS[N] gets lane N's program location; DEFINED[N] is false (PCS[N] 0)
 * when any bit of the element is in undefined storage: the lane was not
 * active on entry to the subprogram. Errors as dwexpr_loc_read (reading
 * past a storage, target failures); details in dwexpr_ctx_error(CTX). */
DWEXPR_API dwexpr_status dwexpr_lane_pcs(dwexpr_ctx *ctx, const dwexpr_target *target,
                                         void *user, const dwexpr_unit *unit,
                                         const dwexpr_loc *loc, uint32_t lanes,
                                         uint64_t *pcs, bool *defined);

/* Evaluate a DW_AT_LLVM_lane_pc expression PROG as the seed says (result
 * kind location, no object, empty initial stack; thread, lane, frame and
 * pc from PARAMS) and split the result with dwexpr_lane_pcs. */
DWEXPR_API dwexpr_status dwexpr_eval_lane_pc(dwexpr_ctx *ctx, const dwexpr_program *prog,
                                             const dwexpr_target *target, void *user,
                                             const dwexpr_eval_params *params, uint32_t lanes,
                                             uint64_t *pcs, bool *defined);

/* Evaluate a DW_AT_LLVM_active_lane expression PROG (seed
 * "DW_AT_LLVM_active_lane": result kind value, no object, empty initial
 * stack). *MASK gets bit N set when lane N is active (lanes 0..63). A
 * result that is not an integral value is ill-formed (E_NOT_INTEGRAL). */
DWEXPR_API dwexpr_status dwexpr_eval_active_lane(dwexpr_ctx *ctx, const dwexpr_program *prog,
                                                 const dwexpr_target *target, void *user,
                                                 const dwexpr_eval_params *params,
                                                 uint64_t *mask);

#ifdef __cplusplus
}
#endif
#endif
