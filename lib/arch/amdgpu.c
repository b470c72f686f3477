/* lib/arch/amdgpu.c: the AMDGPU architectures amdgpu-wave64 and
 * amdgpu-wave32 (LLVM AMDGPUUsage "DWARF Debug Information"): register
 * numbers, names and sizes, address spaces, private_lane mapping. */
#include "arch.h"

/* ---- register names ----
 * Built at compile time so that reg_name returns static strings (and is
 * safe from any thread): DWX_N10(P, X) names P X0 .. P X9. */
#define DWX_N(p, n) p #n,
#define DWX_N10(p, x) DWX_N(p, x##0) DWX_N(p, x##1) DWX_N(p, x##2) DWX_N(p, x##3) \
    DWX_N(p, x##4) DWX_N(p, x##5) DWX_N(p, x##6) DWX_N(p, x##7) DWX_N(p, x##8) DWX_N(p, x##9)
#define DWX_N100(p, x) DWX_N10(p, x##0) DWX_N10(p, x##1) DWX_N10(p, x##2) DWX_N10(p, x##3) \
    DWX_N10(p, x##4) DWX_N10(p, x##5) DWX_N10(p, x##6) DWX_N10(p, x##7) DWX_N10(p, x##8) \
    DWX_N10(p, x##9)
/* P0 .. P99 */
#define DWX_N0_99(p) DWX_N10(p, ) DWX_N10(p, 1) DWX_N10(p, 2) DWX_N10(p, 3) DWX_N10(p, 4) \
    DWX_N10(p, 5) DWX_N10(p, 6) DWX_N10(p, 7) DWX_N10(p, 8) DWX_N10(p, 9)

/* SGPR0..SGPR105 (SGPR0-63 at 32-95, SGPR64-105 at 1088-1129). */
static const char *const sgpr_names[106] = {
    DWX_N0_99("SGPR")
    DWX_N("SGPR", 100) DWX_N("SGPR", 101) DWX_N("SGPR", 102) DWX_N("SGPR", 103)
    DWX_N("SGPR", 104) DWX_N("SGPR", 105)
};

/* VGPR0..VGPR1023 (wave32 has 1024, wave64 256). */
static const char *const vgpr_names[1024] = {
    DWX_N0_99("VGPR")
    DWX_N100("VGPR", 1) DWX_N100("VGPR", 2) DWX_N100("VGPR", 3) DWX_N100("VGPR", 4)
    DWX_N100("VGPR", 5) DWX_N100("VGPR", 6) DWX_N100("VGPR", 7) DWX_N100("VGPR", 8)
    DWX_N100("VGPR", 9)
    DWX_N10("VGPR", 100) DWX_N10("VGPR", 101)
    DWX_N("VGPR", 1020) DWX_N("VGPR", 1021) DWX_N("VGPR", 1022) DWX_N("VGPR", 1023)
};

/* AGPR0..AGPR255. */
static const char *const agpr_names[256] = {
    DWX_N0_99("AGPR")
    DWX_N100("AGPR", 1)
    DWX_N10("AGPR", 20) DWX_N10("AGPR", 21) DWX_N10("AGPR", 22) DWX_N10("AGPR", 23)
    DWX_N10("AGPR", 24)
    DWX_N("AGPR", 250) DWX_N("AGPR", 251) DWX_N("AGPR", 252) DWX_N("AGPR", 253)
    DWX_N("AGPR", 254) DWX_N("AGPR", 255)
};

/* The register classes of one wavefront size. */
typedef struct amdgpu_wave {
    uint32_t lanes;
    uint32_t exec, vcc;        /* EXEC_MASK_32/64, VCC_32/64 of this size */
    uint32_t vgpr0, nvgpr;     /* first block of VGPRs */
    uint32_t vgpr_hi;          /* VGPR512.. block (wave32), 0 if none */
    uint32_t agpr0;
} amdgpu_wave;

static const amdgpu_wave wave64 = {64, 17, 768, 2560, 256, 0, 3072};
static const amdgpu_wave wave32 = {32, 1, 512, 1536, 512, 3584, 2048};

/* Name of REGNO in wave W (AMDGPUUsage "DWARF Register Mapping"): the
 * mode's own EXEC / VCC / PC get the short names, PC_32 keeps its full
 * name; registers of the other wavefront mode have none. */
static const char *amdgpu_name(const amdgpu_wave *w, uint32_t regno)
{
    if (regno == 0)
        return "PC_32";
    if (regno == 16)
        return "PC";
    if (regno == w->exec)
        return "EXEC";
    if (regno == 128)
        return "STATUS";
    if (regno == w->vcc)
        return "VCC";
    if (regno >= 32 && regno <= 95)
        return sgpr_names[regno - 32];
    if (regno >= 1088 && regno <= 1129)
        return sgpr_names[regno - 1088 + 64];
    if (regno >= w->vgpr0 && regno < w->vgpr0 + w->nvgpr)
        return vgpr_names[regno - w->vgpr0];
    if (w->vgpr_hi && regno >= w->vgpr_hi && regno < w->vgpr_hi + 512)
        return vgpr_names[regno - w->vgpr_hi + 512];
    if (regno >= w->agpr0 && regno < w->agpr0 + 256)
        return agpr_names[regno - w->agpr0];
    return NULL;
}

/* Size of REGNO in bytes in wave W: vector registers are lanes x 32 bits
 * (lane 0 in the least significant dword), PC_64 and EXEC/VCC of wave64
 * 64 bits, the rest 32 bits; 0 for registers the mode does not have. */
static uint32_t amdgpu_size(const amdgpu_wave *w, uint32_t regno)
{
    if (regno == 16)
        return 8;
    if (regno == w->exec || regno == w->vcc)
        return w->lanes / 8;
    if (regno == 0 || regno == 128 || (regno >= 32 && regno <= 95) ||
        (regno >= 1088 && regno <= 1129))
        return 4;
    if ((regno >= w->vgpr0 && regno < w->vgpr0 + w->nvgpr) ||
        (w->vgpr_hi && regno >= w->vgpr_hi && regno < w->vgpr_hi + 512) ||
        (regno >= w->agpr0 && regno < w->agpr0 + 256))
        return 4 * w->lanes;
    return 0;
}

/* reg_name / reg_size hooks of the two architectures. */
static const char *w64_reg_name(uint32_t regno)
{
    return amdgpu_name(&wave64, regno);
}

static const char *w32_reg_name(uint32_t regno)
{
    return amdgpu_name(&wave32, regno);
}

static uint32_t w64_reg_size(uint32_t regno, unsigned addr_size)
{
    (void)addr_size;
    return amdgpu_size(&wave64, regno);
}

static uint32_t w32_reg_size(uint32_t regno, unsigned addr_size)
{
    (void)addr_size;
    return amdgpu_size(&wave32, regno);
}

const struct dwexpr_arch dwx_arch_amdgpu_wave64 = {
    .name = "amdgpu-wave64",
    .addr_size = 8,
    .big_endian = false,
    .reg_name = w64_reg_name,
    .reg_size = w64_reg_size,
};

const struct dwexpr_arch dwx_arch_amdgpu_wave32 = {
    .name = "amdgpu-wave32",
    .addr_size = 8,
    .big_endian = false,
    .reg_name = w32_reg_name,
    .reg_size = w32_reg_size,
};

/* ---- public AMDGPU queries (dwexpr/amdgpu.h) ---- */

dwexpr_status dwexpr_amdgpu_aspace_info(uint32_t as, dwexpr_aspace_info *out)
{
    dwexpr_aspace_info a;
    memset(&a, 0, sizeof a);
    switch (as) {
    case DW_ASPACE_LLVM_none:
    case DW_ASPACE_AMDGPU_generic:
        a.addr_bits = 64;
        break;
    case DW_ASPACE_AMDGPU_region:
        a.addr_bits = 32;     /* GDS: one per device queue, global here */
        break;
    case DW_ASPACE_AMDGPU_local:
    case DW_ASPACE_AMDGPU_private_wave:
        a.addr_bits = 32;     /* depends on the wave (its work-group) */
        a.per_thread = true;
        break;
    case DW_ASPACE_AMDGPU_private_lane:
        a.addr_bits = 32;
        a.per_lane = true;
        break;
    default:
        return DWEXPR_E_NOT_FOUND;
    }
    if (out)
        *out = a;
    return DWEXPR_OK;
}

uint64_t dwexpr_amdgpu_private_lane_to_wave(uint64_t addr, uint32_t lane, uint32_t wave_size)
{
    return (addr / 4) * (uint64_t)wave_size * 4 + (uint64_t)lane * 4 + addr % 4;
}

uint32_t dwexpr_amdgpu_lanes(const dwexpr_arch *arch)
{
    if (arch == &dwx_arch_amdgpu_wave64)
        return 64;
    if (arch == &dwx_arch_amdgpu_wave32)
        return 32;
    return 0;
}

uint32_t dwexpr_amdgpu_exec_regno(const dwexpr_arch *arch)
{
    if (arch == &dwx_arch_amdgpu_wave64)
        return wave64.exec;
    if (arch == &dwx_arch_amdgpu_wave32)
        return wave32.exec;
    return UINT32_MAX;
}
