/* lib/arch/generic.c: the generic 32- and 64-bit architectures: no
 * register names, every register is one address-sized word. */
#include "arch.h"

/* Every generic register holds one generic (address-sized) value. */
static uint32_t generic_reg_size(uint32_t regno, unsigned addr_size)
{
    (void)regno;
    return addr_size;
}

const struct dwexpr_arch dwx_arch_generic32 = {
    .name = "generic32",
    .addr_size = 4,
    .big_endian = false,
    .reg_name = NULL,
    .reg_size = generic_reg_size,
};

const struct dwexpr_arch dwx_arch_generic64 = {
    .name = "generic64",
    .addr_size = 8,
    .big_endian = false,
    .reg_name = NULL,
    .reg_size = generic_reg_size,
};
