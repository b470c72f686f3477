/* lib/dwx.h: internals shared by the library's files (not installed).
 * The pre-decoded program, the scratch arena and the context layout. */
#ifndef DWX_H
#define DWX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "dwexpr.h"

/* Whether the host is known to be little-endian. The fast path (lib/fast.c)
 * and the folds it computes (lib/fold.c) keep a unit's words as host
 * integers and read or hand out their bytes by memcpy, right only on such
 * a host: elsewhere dwx_fast_candidate refuses every program and
 * dwexpr_eval_bytes never enters it, so the general path answers. */
#ifndef DWX_HOST_LITTLE /* -DDWX_HOST_LITTLE=0: the general path only */
#  if (defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__) || \
      defined(_M_X64) || defined(_M_IX86) || defined(_M_ARM64)
#    define DWX_HOST_LITTLE 1
#  else
#    define DWX_HOST_LITTLE 0
#  endif
#endif

/* The index of the lowest set bit of X (X != 0). */
static inline unsigned dwx_ctz64(uint64_t x)
{
#if defined(__GNUC__)
    return (unsigned)__builtin_ctzll(x);
#else
    unsigned n = 0;
    while (!(x & 1)) {
        x >>= 1;
        n++;
    }
    return n;
#endif
}

/* N (at most 8) bytes at *P, little-endian (DWARF 5 7.7.1's fixed-size
 * operands), *P moved past them; false when they do not fit before END.
 * Inline: the decoder's table path and the fast path read operands with
 * it. */
static inline bool dwx_fixed_le(const uint8_t **p, const uint8_t *end, unsigned n, uint64_t *v)
{
    if ((size_t)(end - *p) < n)
        return false;
    uint64_t r = 0;
    for (unsigned i = 0; i < n; i++)
        r |= (uint64_t)(*p)[i] << (8 * i);
    *p += n;
    *v = r;
    return true;
}

#if defined(__GNUC__)
#  define DWX_HIDDEN __attribute__((visibility("hidden")))
#  define DWX_LIKELY(x) __builtin_expect(!!(x), 1)
#  define DWX_UNLIKELY(x) __builtin_expect(!!(x), 0)
#  define DWX_ALWAYS_INLINE inline __attribute__((always_inline))
#  define DWX_COLD __attribute__((noinline, cold))
#else
#  define DWX_ALWAYS_INLINE inline
#  define DWX_COLD
#  define DWX_HIDDEN
#  define DWX_LIKELY(x) (x)
#  define DWX_UNLIKELY(x) (x)
#endif

/* ---- LEB128 and fixed-size reads (lib/leb.c) ----
 * Each returns 0 on success, or a status: E_TRUNCATED when the encoding
 * runs past END, E_LEB_OVERFLOW when a value does not fit in 64 bits
 * (extra padding bytes that carry only zero/sign bits are accepted).
 * *P advances past what was read; *NBYTES (may be NULL) gets the length. */
DWX_HIDDEN dwexpr_status dwx_read_uleb(const uint8_t **p, const uint8_t *end,
                                       uint64_t *out, uint8_t *nbytes);
DWX_HIDDEN dwexpr_status dwx_read_sleb(const uint8_t **p, const uint8_t *end,
                                       int64_t *out, uint8_t *nbytes);
/* Little-endian (or big-endian when BIG) unsigned of SIZE (1..8) bytes. */
DWX_HIDDEN dwexpr_status dwx_read_fixed(const uint8_t **p, const uint8_t *end,
                                        unsigned size, bool big, uint64_t *out);
/* Encoders: write to OUT (may be NULL to measure), return the length.
 * PAD_TO > natural length pads with continuation bytes (clang's 4-byte
 * ULEB DIE offsets). */
DWX_HIDDEN size_t dwx_write_uleb(uint8_t *out, uint64_t v, unsigned pad_to);
DWX_HIDDEN size_t dwx_write_sleb(uint8_t *out, int64_t v, unsigned pad_to);

/* Opcode bytes by operation name, from the one table: DWX_CODE_reg0 ... */
enum {
#define DWX_X(n, c, s, o, d) DWX_CODE_##n = c,
    DWEXPR_OPS(DWX_X)
#undef DWX_X
};

/* ---- the pre-decoded program ----
 * dwx_insn is what the evaluator runs. The decoder folds families:
 *  - x is the operation the evaluator dispatches on: DWEXPR_OP_lit0 for
 *    every litN (a = N) and const*, DWEXPR_OP_reg0 for regN and regx
 *    (a = register), DWEXPR_OP_breg0 for bregN and bregx (a = register,
 *    b = displacement), and the DWARF 5 operation for each GNU twin
 *    (GNU_convert -> convert, GNU_entry_value -> entry_value, ...).
 *  - id is the operation as written (for messages).
 *  - branches (skip, bra): a = index of the target insn (count = end).
 *  - operands otherwise in order in a, b, c; blocks in blk/blen. */
/* A DW_OP_skip / DW_OP_bra whose target is no operation boundary
 * (dwx_insn.a; .b says why, .c is the target): ill-formed when taken
 * (dwx_bad_branch). */
#define DWX_BAD_TARGET UINT64_MAX
enum { DWX_BRANCH_BEFORE = 1, DWX_BRANCH_PAST, DWX_BRANCH_INSIDE };

typedef struct dwx_insn {
    uint16_t x;
    uint16_t id;
    uint32_t offset;
    uint64_t a, b, c;
    const uint8_t *blk;
    uint64_t blen;
    struct dwexpr_program *sub;  /* entry_value: the decoded block */
} dwx_insn;

/* A result folded at decode time (lib/fold.c): handed out by dwexpr_eval
 * under the conditions written there. */
#define DWX_FOLD_GUARDS 8
/* What a fold needs of a binding, as bits (dwx_folded.req; the binding
 * keeps what it has, and dwexpr_eval_bound hands the fold out when it has
 * all of them): bit A (1..8) the plain default space for A-byte addresses
 * and parameters a fold stands for; DWX_REQ_ROOM at most DWX_FOLD_ROOM
 * operations, within the context's limits; DWX_REQ_REG8(R) register R
 * (< 32) holds at least 8 bytes (a register part of at most 64 bits);
 * DWX_REQ_EXACT, which no binding has, sends the fold to the exact checks
 * (more operations, or another register part). */
#define DWX_FOLD_ROOM 64
#define DWX_REQ_EXACT ((uint64_t)1 << 9)
#define DWX_REQ_ROOM ((uint64_t)1 << 10)
#define DWX_REQ_REG8(r) ((uint64_t)1 << (32 + (r)))
#define DWX_REQ_REGS8 (~(uint64_t)0 << 32)
typedef struct dwx_folded {
    /* what a warm evaluation of a folded location reads, together (one
     * cache line with the program's fold pointer, usually) */
    uint64_t req;          /* DWX_REQ_* and address-size bits */
    uint32_t need;         /* steps, stack entries and parts are each <= need */
    uint32_t kind;         /* res.kind */
    dwexpr_loc loc;        /* res.loc when kind is DWEXPR_RESULT_LOCATION */
    uint32_t nguards;      /* at most DWX_FOLD_GUARDS */
    dwexpr_result res;     /* the whole result; points into this block */
    struct {
        uint32_t regno;
        uint64_t bits;     /* a part of this many bits lives in register regno */
    } guard[];             /* nguards of them */
} dwx_folded;

struct dwexpr_program {
    dwexpr_unit unit;
    size_t count;
    dwx_insn *code;        /* count + 1 entries; code[count] is an end marker */
    const uint8_t *bytes;
    size_t len;
    bool heap;             /* allocated by dwexpr_program_decode */
    bool bad_branch;       /* a branch with DWX_BAD_TARGET (ill-formed when taken) */
    uint8_t shape;         /* dwx_shape: set by dwx_decode for the evaluator */
    bool fast;             /* a little-endian unit on a little-endian host
                              (DWX_HOST_LITTLE), made only of what the fast
                              path (lib/fast.c) runs: dwx_fast_candidate */
    uint8_t one;           /* fast ONE / ONE_SV: its producer's kind (dwx_fast_one_kind) */
    const dwx_folded *fold; /* its result when it needs no target (lib/fold.c) */
    const struct dwx_tape *tape; /* compiled for warm evaluation (lib/tape.c), or NULL */
};

/* Program shapes the evaluator answers without its dispatch loop
 * (decode once, evaluate many): the first operation is a "producer" (it
 * needs nothing on the stack and pushes one entry: DW_OP_lit*, const*,
 * addr, addrx, reg*, regx, breg*, bregx, fbreg, call_frame_cfa,
 * entry_value) and is either alone or followed by DW_OP_stack_value; or
 * the AMDGPU per-lane part of a location (DWX_SHAPE_LANE_PART); or a list
 * of DW_OP_piece parts (DWX_SHAPE_PIECES). Both paths call the same
 * operation code; only the stack traffic and the loop are skipped, and a
 * shaped path that meets anything unusual or any failure hands the
 * evaluation to the loop from the start, so results and errors are
 * identical (test/test_shapes.c). */
enum dwx_shape {
    DWX_SHAPE_GENERAL = 0,
    DWX_SHAPE_ONE,     /* a producer alone */
    DWX_SHAPE_ONE_SV,  /* a producer; DW_OP_stack_value */
    DWX_SHAPE_REG,     /* DW_OP_reg* / DW_OP_regx alone (a special ONE) */
    DWX_SHAPE_LANE_PART, /* a location producer; DW_OP_LLVM_push_lane;
                           DW_OP_lit*|const*; DW_OP_mul; DW_OP_LLVM_offset */
    DWX_SHAPE_PIECES   /* DW_OP_piece parts, each of nothing, a location
                          producer, or lit*|const*|entry_value; stack_value */
};
/* The shape of a decoded program (lib/eval.c). */
DWX_HIDDEN uint8_t dwx_program_shape(const struct dwexpr_program *prog);

/* Whether PROG is little-endian on a little-endian host (DWX_HOST_LITTLE)
 * and every operation of it is one the fast path runs (lib/fast.c). */
DWX_HIDDEN bool dwx_fast_candidate(const struct dwexpr_program *prog);
/* The kind of PROG's producer the fast path answers directly (lib/fast.c:
 * a dense code for its dispatch; 0 for anything else). Set after shape and
 * fast. */
DWX_HIDDEN uint8_t dwx_fast_one_kind(const struct dwexpr_program *prog);

typedef void *(*dwx_alloc_fn)(void *ud, size_t size);
typedef struct dwx_tape dwx_tape;
/* PROG (decoded, fast: dwx_fast_candidate; not a lone producer) compiled
 * into BUF (CAP bytes, aligned for any object; DWX_TAPE_MAX hold every
 * tape): the tape's size, or 0 when there is none: the fast loop would
 * decline PROG whatever the target answers (a kind it does not model, a
 * stack underflow), it has an implicit pointer or a branch on a
 * condition the target decides other than a selection (lib/tape.c: the
 * fast loop runs those), or it is too long. The tape borrows PROG's bytes and has no
 * pointer into itself (it may be copied). */
enum { DWX_TAPE_MAX = 3072 };
DWX_HIDDEN size_t dwx_tape_compile(const struct dwexpr_program *prog, void *buf, size_t cap);

/* Fold PROG, for which dwx_foldable holds: its result, computed now, in
 * storage from ALLOC (lib/fold.c); prog->fold stays NULL when anything
 * fails (folding is optional). */
DWX_HIDDEN void dwx_fold(struct dwexpr_program *prog, dwx_alloc_fn alloc, void *ud);
/* Whether PROG asks the target nothing and is one dwx_fold may fold
 * (decoded, fast, little-endian); it may still fail to. */
DWX_HIDDEN bool dwx_foldable(const struct dwexpr_program *prog);

/* Decode into caller-provided storage (no allocation): INSNS must have
 * room for LEN entries (an operation is at least one byte) plus one; OPS,
 * when not NULL, for LEN entries, and then every operation is decoded by
 * the general reader (decode_at) and its public view kept there (what
 * test_codec compares the table-driven decode with).
 * Nested entry_value blocks are decoded with ALLOC(ud, size) (which may
 * return NULL: E_NOSPACE), or left for the evaluator to decode when ALLOC is
 * NULL (sub stays NULL). Fills PROG's fields. */
DWX_HIDDEN dwexpr_status dwx_decode(const uint8_t *bytes, size_t len, const dwexpr_unit *unit,
                                    dwx_insn *insns, dwexpr_op *ops,
                                    dwx_alloc_fn alloc, void *ud,
                                    struct dwexpr_program *prog, dwexpr_error *err);

/* dwx_decode without OPS for a unit already normalized and accepted by
 * dwx_unit_check, LEN <= UINT32_MAX and BYTES non-NULL when LEN > 0 (the
 * evaluator's one-shot path). An entry_value block of a single
 * DW_OP_reg0..31 byte (nothing to check) is left undecoded (sub NULL). */
DWX_HIDDEN dwexpr_status dwx_decode_checked(const uint8_t *bytes, size_t len,
                                            const dwexpr_unit *u, dwx_insn *insns,
                                            dwx_alloc_fn alloc, void *ud,
                                            struct dwexpr_program *prog, dwexpr_error *err);

/* The evaluator's quick decode of a short little-endian expression made
 * only of the operations decode.c's small_one knows (lit*, const1u..4s,
 * constu/consts, reg*, breg*, fbreg, piece with one-byte LEB128s,
 * stack_value, call_frame_cfa), and entry_value of one DW_OP_reg0..31
 * byte (left undecoded, as dwx_decode_checked leaves it): the same insns
 * as dwx_decode_checked into INSNS (room for LEN + 1), end marker
 * included. Returns the count, or 0 when anything else appears (the full
 * decoder then decodes, and reports what is wrong). LEN > 0. */
DWX_HIDDEN size_t dwx_decode_small(const uint8_t *bytes, size_t len, dwx_insn *insns);

/* Whether dwx_unit_check accepts U once normalized (zero fields take the
 * defaults), without copying it. */
static inline bool dwx_unit_fine(const dwexpr_unit *u)
{
    unsigned a = u->addr_size, o = u->offset_size, v = u->version;
    return (a == 0 || a == 1 || a == 2 || a == 4 || a == 8) && (o == 0 || o == 4 || o == 8) &&
           (v == 0 || (v >= 2 && v <= 5)) && u->ext_encoding <= DWEXPR_EXT_PROVISIONAL;
}

/* Decode only the operation at P (for disasm of streams that later fail):
 * fills OP; returns a status (decode class). */
DWX_HIDDEN dwexpr_status dwx_decode_one(const uint8_t *bytes, size_t len, size_t pos,
                                        const dwexpr_unit *unit, dwexpr_op *op,
                                        dwexpr_error *err);

/* Fill ERR (may be NULL) with status S at byte OFFSET for operation ID
 * (DWEXPR_OP_COUNT: none) and a printf-style message. Returns S. */
DWX_HIDDEN dwexpr_status dwx_fail(dwexpr_error *err, dwexpr_status s, int64_t offset,
                                  int id, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/* Unit defaults: addr_size 8, offset_size 4, version 5 for zero fields. */
DWX_HIDDEN dwexpr_unit dwx_unit_normalize(const dwexpr_unit *u);

/* Bytes of a DIE reference operand (DW_OP_call_ref, DW_OP_implicit_pointer)
 * in normalized unit U: the offset size (DWARF 5 7.7.1), the address size
 * in DWARF 2. */
static inline unsigned dwx_ref_size(const dwexpr_unit *u)
{
    return u->version == 2 ? u->addr_size : u->offset_size;
}

/* ---- front ends (lib/diexpr.c, lib/spirv.c) ---- */

/* dwexpr_diexpr_from_ops for the SPIR-V front end's operations: LLVM's
 * rules, except that DW_OP_stack_value may also come just before
 * DW_OP_bit_piece (OpenCL.DebugInfo.100 3.6: StackValue before BitPiece,
 * as before Fragment). */
DWX_HIDDEN dwexpr_status dwx_diexpr_from_spirv_ops(const dwexpr_diexpr_op *ops, size_t n,
                                                   dwexpr_diexpr **out, dwexpr_error *err);

/* ---- architectures (lib/arch/) ---- */
struct dwexpr_arch {
    const char *name;
    unsigned addr_size;
    bool big_endian;
    const char *(*reg_name)(uint32_t regno);
    uint32_t (*reg_size)(uint32_t regno, unsigned addr_size);
    /* CFI default rule of a register no CIE/FDE instruction mentions
     * (DWARF 5 6.4.1: undefined unless the ABI says otherwise): a
     * dwexpr_cfi_rule_kind; DWEXPR_CFI_VAL_OFFSET means val_offset(0),
     * the stack pointer column (the CFA is the caller's stack pointer).
     * NULL: every register is undefined. */
    int (*cfi_default_rule)(uint32_t regno);
    /* The row a debugger assumes for frame 0 when no FDE holds its pc (a
     * leaf written in assembly without CFI, the instruction after a
     * syscall in glibc's clone3): a function that has not moved its
     * stack pointer since the call, so the return address is at the
     * stack pointer (GDB's amd64 frameless case). False (and NULL): no
     * such guess; frame 0 then has no caller. */
    bool (*no_cfi_row)(unsigned addr_size, dwexpr_cfi_row *row);
    /* The format (DWEXPR_FLOAT_*) of a DW_ATE_float base type of BITS
     * bits named NAME (may be NULL), DWEXPR_FLOAT_DEFAULT when the
     * architecture does not say. NULL: only dwexpr_arch_float_format's
     * IEEE binary32 / binary64. */
    uint8_t (*float_format)(uint32_t bits, const char *name);
};

#endif
