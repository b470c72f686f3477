/* lib/arch/arch.h: the architecture descriptions built into dwexpr (one
 * const struct dwexpr_arch per file under lib/arch/), listed in arch.c.
 * Adding an architecture: define its object in lib/arch/NAME.c, declare
 * it here, and add it to the list in arch.c. */
#ifndef DWX_ARCH_H
#define DWX_ARCH_H

#include "../dwx.h"

DWX_HIDDEN extern const struct dwexpr_arch dwx_arch_generic32;
DWX_HIDDEN extern const struct dwexpr_arch dwx_arch_generic64;
DWX_HIDDEN extern const struct dwexpr_arch dwx_arch_x86_64;
DWX_HIDDEN extern const struct dwexpr_arch dwx_arch_amdgpu_wave64;
DWX_HIDDEN extern const struct dwexpr_arch dwx_arch_amdgpu_wave32;

#endif
