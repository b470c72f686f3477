/* dwexpr/amdgpu.h: AMDGPU target facts (LLVM AMDGPUUsage "DWARF Debug
 * Information"): DWARF register numbers, address spaces and their sizes,
 * the private_lane -> private_wave address mapping, and wavefront sizes. */
#ifndef DWEXPR_AMDGPU_H
#define DWEXPR_AMDGPU_H

#include "eval.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Address spaces (AMDGPUUsage "Address Space Identifier"; seed
 * "Memory Location Description Operations": DW_ASPACE_LLVM_none is the
 * default address space). 4 is not assigned. */
#define DW_ASPACE_LLVM_none 0x0           /* global, 64-bit */
#define DW_ASPACE_AMDGPU_generic 0x1      /* flat, 64-bit */
#define DW_ASPACE_AMDGPU_region 0x2       /* GDS, 32-bit */
#define DW_ASPACE_AMDGPU_local 0x3        /* LDS of the wave's work-group, 32-bit */
#define DW_ASPACE_AMDGPU_private_lane 0x5 /* swizzled scratch of one lane, 32-bit */
#define DW_ASPACE_AMDGPU_private_wave 0x6 /* unswizzled scratch of the wave, 32-bit */

/* DWARF register numbers (AMDGPUUsage "DWARF Register Mapping"). */
#define DWEXPR_AMDGPU_PC_32 0u
#define DWEXPR_AMDGPU_EXEC_MASK_32 1u       /* wave32 */
#define DWEXPR_AMDGPU_PC_64 16u             /* return address column */
#define DWEXPR_AMDGPU_EXEC_MASK_64 17u      /* wave64 */
#define DWEXPR_AMDGPU_SGPR0 32u             /* SGPR0..63 = 32..95 */
#define DWEXPR_AMDGPU_STATUS 128u
#define DWEXPR_AMDGPU_VCC_32 512u           /* wave32 */
#define DWEXPR_AMDGPU_VCC_64 768u           /* wave64 */
#define DWEXPR_AMDGPU_SGPR64 1088u          /* SGPR64..105 = 1088..1129 */
#define DWEXPR_AMDGPU_VGPR0_W32 1536u       /* VGPR0..511 = 1536..2047 */
#define DWEXPR_AMDGPU_AGPR0_W32 2048u       /* AGPR0..255 = 2048..2303 */
#define DWEXPR_AMDGPU_VGPR0_W64 2560u       /* VGPR0..255 = 2560..2815 */
#define DWEXPR_AMDGPU_AGPR0_W64 3072u       /* AGPR0..255 = 3072..3327 */
#define DWEXPR_AMDGPU_VGPR512_W32 3584u     /* VGPR512..1023 = 3584..4095 */

/* Properties of AMDGPU address space AS: address bits, and whether the
 * storage is per thread (local: the wave's work-group; private_wave: the
 * wave) or per lane (private_lane). DWEXPR_OK, or DWEXPR_E_NOT_FOUND for
 * a space AMDGPU does not define (the seed makes its use ill-formed).
 * OUT may be NULL to only test AS. Suits dwexpr_target.aspace_info. */
DWEXPR_API dwexpr_status dwexpr_amdgpu_aspace_info(uint32_t as, dwexpr_aspace_info *out);

/* The private_wave address of byte ADDR of lane LANE's private_lane space
 * in a wave of WAVE_SIZE lanes: (ADDR/4)*WAVE_SIZE*4 + LANE*4 + ADDR%4
 * (dwords of the lanes are interleaved). Not truncated to 32 bits. */
DWEXPR_API uint64_t dwexpr_amdgpu_private_lane_to_wave(uint64_t addr, uint32_t lane,
                                                       uint32_t wave_size);

/* Lanes per wavefront of ARCH: 64 for "amdgpu-wave64", 32 for
 * "amdgpu-wave32", 0 for any other architecture (or NULL). */
DWEXPR_API uint32_t dwexpr_amdgpu_lanes(const dwexpr_arch *arch);

/* The execution mask register of ARCH: EXEC_MASK_64 (17) on wave64,
 * EXEC_MASK_32 (1) on wave32; UINT32_MAX for a non-AMDGPU ARCH. */
DWEXPR_API uint32_t dwexpr_amdgpu_exec_regno(const dwexpr_arch *arch);

#ifdef __cplusplus
}
#endif
#endif
