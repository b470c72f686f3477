/* lib/arch/x86_64.c: x86-64 DWARF register numbers, names and sizes
 * (System V psABI, AMD64 supplement, Figure 3.36 "DWARF Register Number
 * Mapping", with the AVX-512 additions). */
#include "arch.h"

/* Names of registers 0..125; NULL entries are unassigned. */
static const char *const x86_64_names[126] = {
    [0] = "rax", [1] = "rdx", [2] = "rcx", [3] = "rbx",
    [4] = "rsi", [5] = "rdi", [6] = "rbp", [7] = "rsp",
    [8] = "r8", [9] = "r9", [10] = "r10", [11] = "r11",
    [12] = "r12", [13] = "r13", [14] = "r14", [15] = "r15",
    [16] = "rip", /* the return address column */
    [17] = "xmm0", [18] = "xmm1", [19] = "xmm2", [20] = "xmm3",
    [21] = "xmm4", [22] = "xmm5", [23] = "xmm6", [24] = "xmm7",
    [25] = "xmm8", [26] = "xmm9", [27] = "xmm10", [28] = "xmm11",
    [29] = "xmm12", [30] = "xmm13", [31] = "xmm14", [32] = "xmm15",
    [33] = "st0", [34] = "st1", [35] = "st2", [36] = "st3",
    [37] = "st4", [38] = "st5", [39] = "st6", [40] = "st7",
    [41] = "mm0", [42] = "mm1", [43] = "mm2", [44] = "mm3",
    [45] = "mm4", [46] = "mm5", [47] = "mm6", [48] = "mm7",
    [49] = "rflags",
    [50] = "es", [51] = "cs", [52] = "ss", [53] = "ds", [54] = "fs", [55] = "gs",
    [58] = "fs.base", [59] = "gs.base",
    [62] = "tr", [63] = "ldtr",
    [64] = "mxcsr", [65] = "fcw", [66] = "fsw",
    [67] = "xmm16", [68] = "xmm17", [69] = "xmm18", [70] = "xmm19",
    [71] = "xmm20", [72] = "xmm21", [73] = "xmm22", [74] = "xmm23",
    [75] = "xmm24", [76] = "xmm25", [77] = "xmm26", [78] = "xmm27",
    [79] = "xmm28", [80] = "xmm29", [81] = "xmm30", [82] = "xmm31",
    [118] = "k0", [119] = "k1", [120] = "k2", [121] = "k3",
    [122] = "k4", [123] = "k5", [124] = "k6", [125] = "k7",
};

/* psABI name of REGNO, NULL if unassigned. */
static const char *x86_64_reg_name(uint32_t regno)
{
    if (regno >= sizeof x86_64_names / sizeof x86_64_names[0])
        return NULL;
    return x86_64_names[regno];
}

/* Size of REGNO in bytes (the full architectural register: xmm 16, x87
 * 10, segment selectors 2, fcw/fsw 2, mxcsr 4); 0 if unassigned. */
static uint32_t x86_64_reg_size(uint32_t regno, unsigned addr_size)
{
    (void)addr_size;
    if (regno <= 16)
        return 8;
    if ((regno >= 17 && regno <= 32) || (regno >= 67 && regno <= 82))
        return 16;
    if (regno >= 33 && regno <= 40)
        return 10;
    if (regno >= 41 && regno <= 49)
        return 8;
    if (regno >= 50 && regno <= 55)
        return 2;
    if (regno == 58 || regno == 59)
        return 8;
    if (regno == 62 || regno == 63)
        return 2;
    if (regno == 64)
        return 4;
    if (regno == 65 || regno == 66)
        return 2;
    if (regno >= 118 && regno <= 125)
        return 8;
    return 0;
}

/* System V psABI AMD64 3.2.1 "Registers": rbx, rbp, r12-r15 are
 * callee-saved (same value unless CFI says otherwise); rsp of the caller
 * is the CFA (3.6.2 / DWARF 5 6.4.4: the CFA is the value of rsp at the
 * call site); all others (incl. rip, column 16) are undefined. */
static int x86_64_cfi_default_rule(uint32_t regno)
{
    switch (regno) {
    case 3: case 6: case 12: case 13: case 14: case 15: return DWEXPR_CFI_SAME_VALUE;
    case 7: return DWEXPR_CFI_VAL_OFFSET;
    default: return DWEXPR_CFI_UNDEFINED;
    }
}

/* See lib/dwx.h: CFA = rsp + 8, the return address at CFA - 8 (what a
 * call leaves, psABI 3.2.2 "The Stack Frame"); the default rules for the
 * others (callee-saved registers keep their values). */
static bool x86_64_no_cfi_row(unsigned addr_size, dwexpr_cfi_row *row)
{
    if (addr_size != 8)
        return false;
    memset(row, 0, sizeof *row);
    row->ra_column = 16;
    row->cfa.kind = DWEXPR_CFI_CFA_REG_OFFSET;
    row->cfa.regno = 7;
    row->cfa.offset = 8;
    row->count = 1;
    row->regs[0].regno = 16;
    row->regs[0].rule.kind = DWEXPR_CFI_OFFSET;
    row->regs[0].rule.offset = -8;
    return true;
}

/* Floating-point formats (System V psABI AMD64 3.1.2, Figure 3.1
 * "Scalar Types"): float and double are IEEE binary32 / binary64;
 * `long double` is the x87 80-bit extended format, stored in 16 bytes
 * (12 on i386, and an 80-bit DW_AT_bit_size names the bare format);
 * `__float128` is IEEE binary128 in 16 bytes too. DWARF tells the two
 * 16-byte types apart only by name: these are the names GCC, gfortran
 * and clang give binary128 (as GDB's x86 float format choice reads them,
 * i386_floatformat_for_type); any other 128-bit float is long double. */
static uint8_t x86_64_float_format(uint32_t bits, const char *name)
{
    static const char *const quad[] = {"__float128", "_Float128", "_Float128x",
                                       "real(kind=16)", "real*16", "REAL*16", "REAL(16)"};
    if (bits == 16 || bits == 32 || bits == 64)
        return DWEXPR_FLOAT_IEEE; /* _Float16, float, double */
    if (bits == 128 && name)
        for (size_t i = 0; i < sizeof quad / sizeof quad[0]; i++)
            if (strcmp(name, quad[i]) == 0)
                return DWEXPR_FLOAT_IEEE;
    if (bits == 80 || bits == 96 || bits == 128)
        return DWEXPR_FLOAT_X87;
    return DWEXPR_FLOAT_DEFAULT;
}

const struct dwexpr_arch dwx_arch_x86_64 = {
    .name = "x86_64",
    .addr_size = 8,
    .big_endian = false,
    .reg_name = x86_64_reg_name,
    .reg_size = x86_64_reg_size,
    .cfi_default_rule = x86_64_cfi_default_rule,
    .no_cfi_row = x86_64_no_cfi_row,
    .float_format = x86_64_float_format,
};
