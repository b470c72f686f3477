/* dwexpr/eval.h: decoding, evaluating, and reading/writing through
 * location descriptions.
 *
 * Memory ownership:
 *  - A dwexpr_program is decoded once (malloc) and evaluated any number of
 *    times; it borrows nothing from the input bytes except block operands,
 *    so the bytes must outlive the program.
 *  - A dwexpr_ctx owns a stack and a scratch arena. Evaluating never calls
 *    malloc once the arena has grown to what the expressions need (it is
 *    reset, not freed, between evaluations); a context made with
 *    dwexpr_ctx_init_static never allocates at all and reports E_NOSPACE.
 *  - Results (values wider than 64 bits, location descriptions, composite
 *    parts) point into the context, or into the program for a result
 *    computed once at decode time (a program that needs nothing from the
 *    target, e.g. DW_OP_reg5 or a DW_OP_piece list of registers); use a
 *    result until the next evaluation on that context, and neither after
 *    the context's destruction nor after the program's.
 *  - A context is used by one thread at a time; distinct contexts are
 *    independent. */
#ifndef DWEXPR_EVAL_H
#define DWEXPR_EVAL_H

#include "ops.h"
#include "target.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Resource bounds; zero fields take the defaults in brackets. */
typedef struct dwexpr_limits {
    uint64_t steps;        /* operations executed, incl. nested [1000000] */
    uint32_t stack;        /* stack entries [1024] */
    uint32_t calls;        /* nesting of call*, entry_value, implicit pointers, frame base [64] */
    uint32_t parts;        /* parts of one composite [4096] */
    uint64_t implicit_bytes; /* bytes of one implicit storage / value [65536] */
    size_t arena_bytes;    /* scratch the context may grow to [64 MiB] */
} dwexpr_limits;

typedef struct dwexpr_ctx dwexpr_ctx;
typedef struct dwexpr_program dwexpr_program;

/* Create a context that may grow its scratch with malloc. LIMITS may be
 * NULL. Returns DWEXPR_OK, E_NOMEM or E_USAGE. */
DWEXPR_API dwexpr_status dwexpr_ctx_new(const dwexpr_limits *limits, dwexpr_ctx **out);
/* Destroy a context made by dwexpr_ctx_new (NULL is fine). */
DWEXPR_API void dwexpr_ctx_free(dwexpr_ctx *ctx);
/* Build a context inside MEM (SIZE bytes, 16-byte aligned) that never
 * allocates; there is nothing to free. E_NOSPACE if SIZE is too small for
 * the context and its stack. */
DWEXPR_API dwexpr_status dwexpr_ctx_init_static(void *mem, size_t size,
                                                const dwexpr_limits *limits,
                                                dwexpr_ctx **out);
/* Details of the last failure on CTX; after a successful evaluation a
 * record with status DWEXPR_OK, offset -1, no operation and an empty
 * message. Never NULL. */
DWEXPR_API const dwexpr_error *dwexpr_ctx_error(const dwexpr_ctx *ctx);

/* One decoded operation (a view for disassemblers and tools). */
typedef struct dwexpr_op {
    dwexpr_opid id;
    uint32_t offset;       /* byte offset in the expression */
    uint32_t size;         /* encoded size in bytes, opcode included */
    uint64_t operand[3];   /* in operand order; signed ones sign-extended */
    uint8_t leb_len[3];    /* encoded length of each LEB128 operand (padding shows) */
    const uint8_t *block;  /* block operand (implicit_value, entry_value, const_type) */
    uint64_t block_len;
} dwexpr_op;

/* Decode and validate LEN bytes in the context of UNIT (address size,
 * offset size, version, DW_OP_LLVM_* encoding). On failure ERR (may be NULL)
 * tells the class, byte offset and operation. Branch targets are resolved
 * here; one outside the expression or inside an operation is kept and is
 * E_BAD_BRANCH (ill-formed) when an evaluation takes that branch (seed
 * "Control Flow Operations"). Nested blocks (entry_value) are decoded too.
 * A program that asks the target nothing (literals, DW_OP_addr, registers
 * as locations, generic arithmetic, stack operations, DW_OP_stack_value,
 * DW_OP_piece) is also evaluated here, once, and dwexpr_eval hands that
 * result out whenever it is what an evaluation would give (default
 * parameters, a target without address-space facts or whose address space
 * 0 has addresses of the unit's size and is neither per thread nor per
 * lane, every register part inside its register by reg_size). A
 * straight-line program that does ask the target is compiled here into
 * the list of its target questions and the arithmetic on their answers,
 * which later evaluations run instead of reading the bytes again; the
 * results are the same. */
DWEXPR_API dwexpr_status dwexpr_program_decode(const uint8_t *bytes, size_t len,
                                               const dwexpr_unit *unit,
                                               dwexpr_program **out, dwexpr_error *err);
DWEXPR_API void dwexpr_program_free(dwexpr_program *prog);
/* Number of operations. */
DWEXPR_API size_t dwexpr_program_count(const dwexpr_program *prog);
/* Operation I of PROG, decoded into *BUF: returns BUF, or NULL when PROG
 * or BUF is NULL or I >= the count. A program keeps only what evaluation
 * needs; this view is decoded again from the bytes (which the program
 * borrows) on each call, so it costs a decode of one operation. */
DWEXPR_API const dwexpr_op *dwexpr_program_op(const dwexpr_program *prog, size_t i,
                                              dwexpr_op *buf);
DWEXPR_API const dwexpr_unit *dwexpr_program_unit(const dwexpr_program *prog);

/* One step of an evaluation, as a trace hook sees it. */
typedef struct dwexpr_trace_event {
    unsigned depth;        /* 0 = the top-level expression; >0 inside calls,
                              entry values, frame bases, implicit pointers */
    uint32_t offset;       /* byte offset of the operation in its expression */
    dwexpr_opid id;        /* the operation about to run */
    const dwexpr_op *op;   /* its decoded form, valid during the call (NULL
                              inside nested blocks and for dwexpr_eval_bytes) */
} dwexpr_trace_event;

/* Called before every operation; the stack can be inspected with
 * dwexpr_ctx_stack_depth / dwexpr_ctx_stack_get. Returning non-zero stops
 * the evaluation with E_INTERRUPTED (class limit). */
typedef int (*dwexpr_trace_fn)(void *arg, const dwexpr_ctx *ctx, const dwexpr_trace_event *ev);

/* What one evaluation is for (seed "DWARF Expression Evaluation Context").
 * Zero-initialize, then set what is known. */
typedef struct dwexpr_eval_params {
    dwexpr_result_kind result_kind;  /* 0 = unspecified */
    uint16_t ctx;                    /* DWEXPR_CTX_* given below */
    uint64_t thread;
    uint32_t lane;
    uint32_t lanes;                  /* lanes per thread (wavefront size); 0 = unknown */
    uint32_t frame;                  /* current frame, 0 = top */
    bool has_pc;
    uint64_t pc;                     /* current program location */
    const dwexpr_loc *object;        /* DW_OP_push_object_address; NULL = none */
    const dwexpr_value *initial_values; /* initial stack: values ... */
    const dwexpr_loc *initial_locs;  /* ... or locations, per entry (NULL entry = value) */
    size_t initial_count;
    /* initial stack entry i is initial_locs[i] if initial_locs != NULL and
     * initial_locs[i].count > 0, else initial_values[i] */
    dwexpr_trace_fn trace;           /* optional: called before each operation */
    void *trace_arg;
} dwexpr_eval_params;

/* Number of entries on CTX's stack (during a trace callback, or after a
 * failed evaluation: the stack as the failing operation found it). */
DWEXPR_API size_t dwexpr_ctx_stack_depth(const dwexpr_ctx *ctx);
/* Entry I counted from the top (0 = top) as a result: a value or a
 * location (pointing into CTX, valid until the stack changes). An
 * incomplete composite shows as a location whose composite has
 * complete == false. E_USAGE when I is out of range. */
DWEXPR_API dwexpr_status dwexpr_ctx_stack_get(const dwexpr_ctx *ctx, size_t i,
                                              dwexpr_result *out);

/* Evaluate PROG. On success fills OUT (which points into CTX): its kind
 * and the member of that kind (dwexpr_result: the other member is
 * unspecified). On failure returns the status and dwexpr_ctx_error(ctx)
 * has the details. */
DWEXPR_API dwexpr_status dwexpr_eval(dwexpr_ctx *ctx, const dwexpr_program *prog,
                                     const dwexpr_target *target, void *user,
                                     const dwexpr_eval_params *params, dwexpr_result *out);

/* The one-shot path: decode LEN bytes of UNIT into CTX's scratch (no
 * malloc, no dwexpr_program) and evaluate them. The bytes must outlive the
 * result (implicit values point into them). Decode errors are reported
 * like evaluation errors, through dwexpr_ctx_error(ctx). */
DWEXPR_API dwexpr_status dwexpr_eval_bytes(dwexpr_ctx *ctx, const uint8_t *bytes, size_t len,
                                           const dwexpr_unit *unit, const dwexpr_target *target,
                                           void *user, const dwexpr_eval_params *params,
                                           dwexpr_result *out);

/* Bound evaluation: a debugger evaluates many expressions for one frame
 * (every variable of a scope, every stop). dwexpr_ctx_bind checks and
 * keeps TARGET, USER and PARAMS (copied; may be NULL, as for dwexpr_eval;
 * what PARAMS points to must stay valid while bound) once, and
 * asks a target with aspace_info about address space 0 once; then
 * dwexpr_eval_bound and dwexpr_eval_bytes_bound give exactly what
 * dwexpr_eval and dwexpr_eval_bytes with that target, user and parameters
 * give, with less work per call. The binding also remembers the target's
 * reg_size answers (registers 0..31) once asked. While CTX is bound the
 * target struct must not change, nor its answers about address space 0
 * and register sizes; bind again when the frame changes (not from a
 * callback of an evaluation on CTX). Binding resets nothing else
 * (results, the error record); dwexpr_eval and friends still work on a
 * bound context. The
 * bound calls return DWEXPR_E_USAGE for NULL arguments or a context
 * never bound (dwexpr_ctx_error(ctx) says which). */
DWEXPR_API dwexpr_status dwexpr_ctx_bind(dwexpr_ctx *ctx, const dwexpr_target *target,
                                         void *user, const dwexpr_eval_params *params);
/* dwexpr_eval with CTX's binding. */
DWEXPR_API dwexpr_status dwexpr_eval_bound(dwexpr_ctx *ctx, const dwexpr_program *prog,
                                           dwexpr_result *out);
/* dwexpr_eval_bound without the copy: on success *OUT points to the
 * result itself, read-only, which lives in CTX or (a result computed when
 * PROG was decoded) in PROG, and stays valid until the next evaluation on
 * CTX and while PROG lives, as a copied result's places do. On failure
 * *OUT is NULL and dwexpr_ctx_error(ctx) describes the failure (for NULL
 * arguments, as far as there is a context to describe it in). */
DWEXPR_API dwexpr_status dwexpr_eval_bound_ref(dwexpr_ctx *ctx, const dwexpr_program *prog,
                                               const dwexpr_result **out);
/* dwexpr_eval_bytes with CTX's binding. */
DWEXPR_API dwexpr_status dwexpr_eval_bytes_bound(dwexpr_ctx *ctx, const uint8_t *bytes,
                                                 size_t len, const dwexpr_unit *unit,
                                                 dwexpr_result *out);

/* The batch form of dwexpr_eval for the lanes of one wave (seed "DWARF
 * Expression Evaluation Context", current lane): PROG is evaluated for lane
 * LANE_FIRST + i, i < COUNT (at most 64), when bit i of EXEC_MASK is set,
 * with PARAMS (may be NULL) whose lane is replaced and DWEXPR_CTX_LANE
 * added. The program is decoded once (it is), the context is set up once
 * and its stack reused; results are exactly those of COUNT single-lane
 * dwexpr_eval calls, with one exception, the scratch: the batch keeps each
 * lane's result place in it (one dwexpr_sld a lane, taken first), and the
 * scratch a successful lane's evaluation used stays there until the batch
 * ends (its result points into it), so a lane may run out of scratch
 * (E_NOSPACE) where a single evaluation would not, or sooner, at another
 * operation (a failing lane's scratch is given back). RESULTS[i] and STATUSES[i] get lane LANE_FIRST + i's
 * result and status; a lane outside the mask is not evaluated: its result
 * is zeroed (kind 0) and its status DWEXPR_E_NO_CONTEXT. Every result
 * points into CTX and stays valid until the next evaluation on CTX.
 * Returns DWEXPR_OK when every evaluated lane succeeded, else the status
 * of the first lane that failed, which dwexpr_ctx_error(ctx) then
 * describes; E_USAGE for NULL arguments or COUNT > 64. */
DWEXPR_API dwexpr_status dwexpr_eval_lanes(dwexpr_ctx *ctx, const dwexpr_program *prog,
                                           const dwexpr_target *target, void *user,
                                           const dwexpr_eval_params *params,
                                           uint32_t lane_first, uint32_t count,
                                           uint64_t exec_mask, dwexpr_result *results,
                                           dwexpr_status *statuses);

/* Read NBITS bits of object contents through LOC starting at its offset
 * (seed "DW_OP_deref_type": composites concatenate their parts, any one of
 * several places may be read). Bits land in BUF least significant first
 * (bit i of the object is bit i%8 of BUF[i/8]). If UNDEF_MASK is NULL,
 * reading undefined storage is E_UNDEFINED_READ; otherwise such bits are
 * set in UNDEF_MASK (same layout) and read as 0. Reading past the end of a
 * storage is E_OUT_OF_RANGE. */
DWEXPR_API dwexpr_status dwexpr_loc_read(dwexpr_ctx *ctx, const dwexpr_target *target,
                                         void *user, const dwexpr_loc *loc, uint64_t nbits,
                                         uint8_t *buf, uint8_t *undef_mask);
/* Write NBITS bits from BUF through LOC, to every place of every part.
 * Implicit, implicit pointer and undefined storage cannot be written:
 * E_READ_ONLY (class evaluation). Past the end of a storage: E_OUT_OF_RANGE. */
DWEXPR_API dwexpr_status dwexpr_loc_write(dwexpr_ctx *ctx, const dwexpr_target *target,
                                          void *user, const dwexpr_loc *loc, uint64_t nbits,
                                          const uint8_t *buf);

/* ---- text form ---- */

/* Architecture facts used to name registers in text. */
typedef struct dwexpr_arch dwexpr_arch;
/* "generic32", "generic64", "x86_64", ...; NULL if unknown. */
DWEXPR_API const dwexpr_arch *dwexpr_arch_find(const char *name);
/* Default address size of ARCH in bytes. */
DWEXPR_API unsigned dwexpr_arch_addr_size(const dwexpr_arch *arch);
/* Name of a DWARF register ("rbp"), or NULL. */
DWEXPR_API const char *dwexpr_arch_reg_name(const dwexpr_arch *arch, uint32_t regno);
/* Size of a DWARF register in bytes for ARCH, or 0 if unknown. */
DWEXPR_API uint32_t dwexpr_arch_reg_size(const dwexpr_arch *arch, uint32_t regno);
/* The format (DWEXPR_FLOAT_*) of a DW_ATE_float base type of BITS bits
 * named NAME (its DW_AT_name, may be NULL) on ARCH (may be NULL): what a
 * target's base_type callback puts in dwexpr_type.format. IEEE 754
 * binary32 / binary64 for 32 / 64 bits unless the architecture says
 * otherwise; other sizes as the architecture says (x86_64: 80, 96 and 128
 * bits are the x87 extended format, a 128-bit type named as IEEE quad
 * precision, `__float128`, `_Float128`, is binary128);
 * DWEXPR_FLOAT_DEFAULT when not known. */
DWEXPR_API uint8_t dwexpr_arch_float_format(const dwexpr_arch *arch, uint32_t bits,
                                            const char *name);

/* Assemble the text form (contract "dwexpr asm") into OUT (CAP bytes);
 * *LEN gets the size (even when larger than CAP: then E_NOSPACE). ERR's
 * offset is the character offset of the bad token. */
DWEXPR_API dwexpr_status dwexpr_asm(const char *text, const dwexpr_unit *unit,
                                    const dwexpr_arch *arch, uint8_t *out, size_t cap,
                                    size_t *len, dwexpr_error *err);
/* Print operation OP as text (no offset prefix) into BUF (CAP bytes, NUL
 * terminated, truncated if needed). ARCH (may be NULL) adds register
 * names. Returns the length it wanted. */
DWEXPR_API size_t dwexpr_op_format(const dwexpr_op *op, const dwexpr_arch *arch,
                                   char *buf, size_t cap);

#ifdef __cplusplus
}
#endif
#endif
