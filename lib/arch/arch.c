/* lib/arch/arch.c: the list of built-in architectures and the public
 * queries on them. The evaluator and the text tools only ever go through
 * these functions; no code tests architecture names. */
#include "arch.h"

/* Every built-in architecture; new ones (amdgpu, ...) are appended. */
static const struct dwexpr_arch *const arch_list[] = {
    &dwx_arch_generic32,
    &dwx_arch_generic64,
    &dwx_arch_x86_64,
    &dwx_arch_amdgpu_wave64,
    &dwx_arch_amdgpu_wave32,
};

/* Architecture by its context-file name, NULL if unknown. */
const dwexpr_arch *dwexpr_arch_find(const char *name)
{
    if (!name)
        return NULL;
    for (size_t i = 0; i < sizeof arch_list / sizeof arch_list[0]; i++)
        if (strcmp(arch_list[i]->name, name) == 0)
            return arch_list[i];
    return NULL;
}

/* Default address size of ARCH (8 when ARCH is NULL). */
unsigned dwexpr_arch_addr_size(const dwexpr_arch *arch)
{
    return arch ? arch->addr_size : 8;
}

/* Name of DWARF register REGNO on ARCH, or NULL. */
const char *dwexpr_arch_reg_name(const dwexpr_arch *arch, uint32_t regno)
{
    if (!arch || !arch->reg_name)
        return NULL;
    return arch->reg_name(regno);
}

/* Size in bytes of DWARF register REGNO on ARCH, 0 if unknown. */
uint32_t dwexpr_arch_reg_size(const dwexpr_arch *arch, uint32_t regno)
{
    if (!arch || !arch->reg_size)
        return 0;
    return arch->reg_size(regno, arch->addr_size);
}

/* Format of a DW_ATE_float type of BITS bits named NAME on ARCH: the
 * architecture's answer, else IEEE 754 binary32 / binary64 for 32 / 64
 * bits (what every architecture dwexpr knows uses), else not known. */
uint8_t dwexpr_arch_float_format(const dwexpr_arch *arch, uint32_t bits, const char *name)
{
    uint8_t f = arch && arch->float_format ? arch->float_format(bits, name) : DWEXPR_FLOAT_DEFAULT;
    if (f == DWEXPR_FLOAT_DEFAULT && (bits == 32 || bits == 64))
        f = DWEXPR_FLOAT_IEEE;
    return f;
}
