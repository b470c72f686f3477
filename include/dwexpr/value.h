/* dwexpr/value.h: what lives on a DWARF expression stack: typed values and
 * location descriptions (seed "DWARF Expression Value" and "DWARF Location
 * Description"). All of these are plain data the caller may inspect. */
#ifndef DWEXPR_VALUE_H
#define DWEXPR_VALUE_H

#include <stdbool.h>
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* DW_ATE_* base type encodings (DWARF 5 Table 7.11); 0 marks the generic type. */
#define DWEXPR_ATE_GENERIC 0x00
#define DW_ATE_address 0x01
#define DW_ATE_boolean 0x02
#define DW_ATE_complex_float 0x03
#define DW_ATE_float 0x04
#define DW_ATE_signed 0x05
#define DW_ATE_signed_char 0x06
#define DW_ATE_unsigned 0x07
#define DW_ATE_unsigned_char 0x08
#define DW_ATE_imaginary_float 0x09
#define DW_ATE_packed_decimal 0x0a
#define DW_ATE_numeric_string 0x0b
#define DW_ATE_edited 0x0c
#define DW_ATE_signed_fixed 0x0d
#define DW_ATE_unsigned_fixed 0x0e
#define DW_ATE_decimal_float 0x0f
#define DW_ATE_UTF 0x10
#define DW_ATE_UCS 0x11
#define DW_ATE_ASCII 0x12
#define DW_ATE_lo_user 0x80
#define DW_ATE_hi_user 0xff

/* DW_END_* (DWARF 5 Table 7.12). */
#define DW_END_default 0x00
#define DW_END_big 0x01
#define DW_END_little 0x02

/* The format of a DW_ATE_float base type (dwexpr_type.format). DWARF
 * gives only the encoding and the size (DWARF 5 5.1, Table 7.11); which
 * format a size stands for is the architecture's: on x86-64 a 16-byte
 * `long double` is the x87 80-bit extended format plus 6 bytes of padding
 * (System V psABI AMD64 3.1.2, Figure 3.1), a 16-byte `__float128` IEEE
 * binary128. A target fills it (dwexpr_arch_float_format gives an
 * architecture's answer); 0 keeps what dwexpr assumed before the field
 * existed. */
#define DWEXPR_FLOAT_DEFAULT 0  /* not said: IEEE 754 binary32 / binary64 for 32 / 64 bits,
                                   any other size is a format dwexpr does not know */
#define DWEXPR_FLOAT_IEEE 1     /* the IEEE 754-2008 binary interchange format of the size
                                   (binary16, 32, 64, 128) */
#define DWEXPR_FLOAT_X87 2      /* Intel x87 double extended precision: 80 bits (64-bit
                                   significand with its explicit integer bit, 15-bit exponent,
                                   sign) in the low 10 bytes, little-endian; the rest of an 80-,
                                   96- or 128-bit type is padding (zero in results) */

/* A base type. The generic type (seed "DWARF Expression Value") has
 * die == 0, encoding DWEXPR_ATE_GENERIC and bits == 8 * address size. */
typedef struct dwexpr_type {
    uint64_t die;       /* unit-relative offset of the DW_TAG_base_type DIE; 0 for generic */
    uint32_t bits;      /* bit size of one element */
    uint16_t encoding;  /* DW_ATE_*; DWEXPR_ATE_GENERIC for the generic type */
    uint16_t lanes;     /* DW_AT_LLVM_vector_size: element count, 1 for scalars */
    uint8_t endian;     /* DW_END_* */
    uint8_t format;     /* DW_ATE_float: DWEXPR_FLOAT_*; 0 for every other encoding */
} dwexpr_type;

/* True for the integral encodings (seed "DWARF Expression Value"): generic,
 * signed, signed_char, unsigned, unsigned_char, boolean, UTF, lo_user..hi_user. */
DWEXPR_API bool dwexpr_type_is_integral(const dwexpr_type *t);

/* A typed value. Values of at most 64 bits live in `bits`; wider values
 * (vectors, 128-bit integers) point at little-endian bytes owned by the
 * evaluation context that produced them. An implicit pointer value
 * (seed "Implicit Location Description Operations", IPV) carries the
 * DIE, displacement and address space of its implicit pointer storage. */
typedef struct dwexpr_value {
    dwexpr_type type;
    uint64_t bits;              /* the value's low 64 bits, zero above type size */
    const uint8_t *wide;        /* non-NULL when type.bits * type.lanes > 64 */
    bool is_implicit_pointer;   /* an IPV: bits is meaningless */
    uint32_t ipv_aspace;
    uint64_t ipv_die;           /* .debug_info offset */
    int64_t ipv_disp;
} dwexpr_value;

/* Kinds of location storage (seed "DWARF Location Description"); implicit
 * pointer storage is kept apart from implicit value storage. */
typedef enum dwexpr_loc_kind {
    DWEXPR_LOC_UNDEFINED = 0,
    DWEXPR_LOC_MEMORY,
    DWEXPR_LOC_REGISTER,
    DWEXPR_LOC_IMPLICIT,
    DWEXPR_LOC_IMPLICIT_POINTER,
    DWEXPR_LOC_COMPOSITE
} dwexpr_loc_kind;

/* Which context elements a single location description was created for
 * (seed: "the storage it denotes is that associated with the context
 * element values specified when the location description was created"). */
#define DWEXPR_CTX_THREAD 0x1u
#define DWEXPR_CTX_LANE 0x2u
#define DWEXPR_CTX_FRAME 0x4u

typedef struct dwexpr_composite dwexpr_composite;
typedef struct dwexpr_sld dwexpr_sld;

/* A location description: one or more single location descriptions, all
 * holding the same object (several places). */
typedef struct dwexpr_loc {
    uint32_t count;
    const dwexpr_sld *slds;
} dwexpr_loc;

/* A single location description: a storage plus a bit offset into it.
 * The offset is byte_offset * 8 + bit (bit < 8); for memory, byte_offset
 * is the address. Undefined storage has no offset. */
struct dwexpr_sld {
    uint8_t kind;        /* dwexpr_loc_kind */
    uint8_t bit;         /* 0..7 */
    uint16_t ctx;        /* DWEXPR_CTX_* recorded at creation */
    uint32_t aspace;     /* memory and implicit pointer: address space */
    uint64_t byte_offset;
    uint64_t thread;     /* valid with DWEXPR_CTX_THREAD */
    uint32_t lane;       /* valid with DWEXPR_CTX_LANE */
    uint32_t frame;      /* valid with DWEXPR_CTX_FRAME: 0 = top frame */
    union {
        uint32_t regno;                                    /* register */
        struct { const uint8_t *data; uint64_t bits; } imp;   /* implicit value storage */
        struct { uint64_t die; int64_t disp; uint32_t bits; } ptr; /* implicit pointer storage */
        const dwexpr_composite *comp;                       /* composite storage */
    } u;
};

/* One part of a composite location storage. */
typedef struct dwexpr_part {
    uint64_t bit_size;
    dwexpr_loc loc;
} dwexpr_part;

/* Composite location storage (seed "Composite Location Description
 * Operations"): parts laid end to end, total size = sum of part sizes. */
struct dwexpr_composite {
    uint32_t count;
    uint32_t cap;        /* internal: allocated parts */
    bool complete;
    uint32_t depth;      /* composite nesting depth: 1 + deepest part */
    uint64_t bits;       /* sum of part bit sizes */
    dwexpr_part *parts;
};

/* What an evaluation gives. */
typedef enum dwexpr_result_kind {
    DWEXPR_RESULT_VALUE = 1,
    DWEXPR_RESULT_LOCATION = 2
} dwexpr_result_kind;

/* The result of an evaluation. Only the member of its kind is set: the
 * other one's contents are unspecified (an evaluation may leave them as
 * they were), so read VALUE only when KIND is DWEXPR_RESULT_VALUE and LOC
 * only when it is DWEXPR_RESULT_LOCATION. */
typedef struct dwexpr_result {
    dwexpr_result_kind kind;
    dwexpr_value value;  /* kind == VALUE */
    dwexpr_loc loc;      /* kind == LOCATION */
} dwexpr_result;

#ifdef __cplusplus
}
#endif
#endif
