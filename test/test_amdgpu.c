/* test/test_amdgpu.c: the AMDGPU architecture module (dwexpr/amdgpu.h,
 * lib/arch/amdgpu.c) against AMDGPUUsage "DWARF Register Mapping" and
 * "Address Space Identifier" as amdgpu-and-encodings.md tabulates them:
 * register names and sizes of both wavefront sizes, the register names
 * the assembler accepts, address spaces, the private_lane mapping. */
#include "dwexpr.h"
#include "tap.h"

/* Name of REGNO on ARCH, "(none)" when it has none. */
static const char *nm(const dwexpr_arch *a, uint32_t regno)
{
    const char *s = dwexpr_arch_reg_name(a, regno);
    return s ? s : "(none)";
}

static void test_registers(void)
{
    const dwexpr_arch *w64 = dwexpr_arch_find("amdgpu-wave64");
    const dwexpr_arch *w32 = dwexpr_arch_find("amdgpu-wave32");
    TAP_OK(w64 && w32, "both AMDGPU architectures exist");
    if (!w64 || !w32)
        return;
    CHECK_U64(dwexpr_arch_addr_size(w64), 8, "wave64 address size 8");
    CHECK_U64(dwexpr_arch_addr_size(w32), 8, "wave32 address size 8");
    /* 16 PC_64, 17 EXEC_MASK_64 (wave64), 1 EXEC_MASK_32 (wave32) */
    CHECK_STR(nm(w64, 16), "PC", "16 is PC");
    CHECK_U64(dwexpr_arch_reg_size(w64, 16), 8, "PC is 64 bits");
    CHECK_STR(nm(w64, 0), "PC_32", "0 is PC_32");
    CHECK_U64(dwexpr_arch_reg_size(w64, 0), 4, "PC_32 is 32 bits");
    CHECK_STR(nm(w64, 17), "EXEC", "wave64: 17 is EXEC");
    CHECK_U64(dwexpr_arch_reg_size(w64, 17), 8, "wave64: EXEC is 64 bits");
    CHECK_STR(nm(w64, 1), "(none)", "wave64: 1 (EXEC_MASK_32) is not a register");
    CHECK_STR(nm(w32, 1), "EXEC", "wave32: 1 is EXEC");
    CHECK_U64(dwexpr_arch_reg_size(w32, 1), 4, "wave32: EXEC is 32 bits");
    CHECK_U64(dwexpr_arch_reg_size(w32, 17), 0, "wave32: 17 is not a register");
    CHECK_STR(nm(w64, 768), "VCC", "wave64: 768 is VCC");
    CHECK_U64(dwexpr_arch_reg_size(w64, 768), 8, "wave64: VCC is 64 bits");
    CHECK_STR(nm(w32, 512), "VCC", "wave32: 512 is VCC");
    CHECK_U64(dwexpr_arch_reg_size(w32, 512), 4, "wave32: VCC is 32 bits");
    CHECK_STR(nm(w64, 128), "STATUS", "128 is STATUS");
    /* SGPR0-63 at 32-95, SGPR64-105 at 1088-1129, 32 bits */
    CHECK_STR(nm(w64, 32), "SGPR0", "32 is SGPR0");
    CHECK_STR(nm(w64, 65), "SGPR33", "65 is SGPR33");
    CHECK_STR(nm(w64, 95), "SGPR63", "95 is SGPR63");
    CHECK_STR(nm(w32, 1088), "SGPR64", "1088 is SGPR64");
    CHECK_STR(nm(w64, 1129), "SGPR105", "1129 is SGPR105");
    CHECK_U64(dwexpr_arch_reg_size(w64, 1129), 4, "SGPR105 is 32 bits");
    CHECK_STR(nm(w64, 1130), "(none)", "1130 is not a register");
    CHECK_STR(nm(w64, 96), "(none)", "96 is not a register");
    /* vector registers: lanes x 32 bits */
    CHECK_STR(nm(w64, 2560), "VGPR0", "wave64: 2560 is VGPR0");
    CHECK_STR(nm(w64, 2815), "VGPR255", "wave64: 2815 is VGPR255");
    CHECK_U64(dwexpr_arch_reg_size(w64, 2560), 256, "wave64: a VGPR is 64 x 4 bytes");
    CHECK_STR(nm(w64, 2816), "(none)", "wave64: 2816 is not a register");
    CHECK_STR(nm(w64, 3072), "AGPR0", "wave64: 3072 is AGPR0");
    CHECK_STR(nm(w64, 3327), "AGPR255", "wave64: 3327 is AGPR255");
    CHECK_U64(dwexpr_arch_reg_size(w64, 3327), 256, "wave64: an AGPR is 64 x 4 bytes");
    CHECK_U64(dwexpr_arch_reg_size(w64, 1536), 0, "wave64: 1536 (wave32 VGPR0) is not a register");
    CHECK_STR(nm(w32, 1536), "VGPR0", "wave32: 1536 is VGPR0");
    CHECK_STR(nm(w32, 2047), "VGPR511", "wave32: 2047 is VGPR511");
    CHECK_U64(dwexpr_arch_reg_size(w32, 1536), 128, "wave32: a VGPR is 32 x 4 bytes");
    CHECK_STR(nm(w32, 2048), "AGPR0", "wave32: 2048 is AGPR0");
    CHECK_STR(nm(w32, 2303), "AGPR255", "wave32: 2303 is AGPR255");
    CHECK_STR(nm(w32, 3584), "VGPR512", "wave32: 3584 is VGPR512");
    CHECK_STR(nm(w32, 4095), "VGPR1023", "wave32: 4095 is VGPR1023");
    CHECK_U64(dwexpr_arch_reg_size(w32, 4095), 128, "wave32: VGPR1023 is 128 bytes");
    CHECK_U64(dwexpr_arch_reg_size(w32, 2560), 0, "wave32: 2560 (wave64 VGPR0) is not a register");

    /* the assembler takes the names: regx SGPR33 = 90 41; VGPR255 (2815)
     * = 90 ff 15; EXEC on wave32 = 90 01 */
    uint8_t b[16];
    size_t n = 0;
    dwexpr_error e;
    TAP_OK(dwexpr_asm("DW_OP_regx SGPR33 DW_OP_regx VGPR255", NULL, w64, b, sizeof b, &n, &e) ==
               DWEXPR_OK && n == 5 && b[0] == 0x90 && b[1] == 0x41 && b[2] == 0x90 &&
               b[3] == 0xff && b[4] == 0x15,
           "asm: regx SGPR33, regx VGPR255 on wave64");
    TAP_OK(dwexpr_asm("DW_OP_regx exec", NULL, w32, b, sizeof b, &n, &e) == DWEXPR_OK && n == 2 &&
               b[1] == 0x01,
           "asm: register names are case-insensitive; EXEC is 1 on wave32");
    TAP_OK(dwexpr_asm("DW_OP_regx VGPR256", NULL, w64, b, sizeof b, &n, &e) == DWEXPR_E_SYNTAX,
           "asm: wave64 has no VGPR256");
    /* the disassembler names them: 90 41 -> DW_OP_regx 65 (SGPR33) */
    char text[128];
    static const uint8_t code[] = {0x90, 0x41};
    dwexpr_disasm(code, sizeof code, NULL, w64, text, sizeof text, NULL, &e);
    TAP_OK(strstr(text, "(SGPR33)") != NULL, "disasm names SGPR33: %s", text);
}

static void test_aspaces(void)
{
    dwexpr_aspace_info a;
    /* 0 none/global 64, 1 generic 64, 2 region 32, 3 local 32 (per
     * work-group: per thread), 5 private_lane 32 per lane, 6 private_wave
     * 32 per wave (thread) */
    static const struct { uint32_t as; unsigned bits; bool thread, lane; } want[] = {
        {0, 64, false, false}, {1, 64, false, false}, {2, 32, false, false},
        {3, 32, true, false}, {5, 32, false, true}, {6, 32, true, false},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        memset(&a, 0xee, sizeof a);
        dwexpr_status st = dwexpr_amdgpu_aspace_info(want[i].as, &a);
        TAP_OK(st == DWEXPR_OK && a.addr_bits == want[i].bits && a.per_thread == want[i].thread &&
                   a.per_lane == want[i].lane,
               "address space %u: %u bits%s%s", want[i].as, want[i].bits,
               want[i].thread ? ", per thread" : "", want[i].lane ? ", per lane" : "");
    }
    CHECK_U64(dwexpr_amdgpu_aspace_info(4, &a), DWEXPR_E_NOT_FOUND, "address space 4 is not defined");
    CHECK_U64(dwexpr_amdgpu_aspace_info(7, NULL), DWEXPR_E_NOT_FOUND, "address space 7 is not defined");
    CHECK_U64(dwexpr_amdgpu_aspace_info(DW_ASPACE_AMDGPU_private_lane, NULL), DWEXPR_OK,
              "OUT may be NULL");

    /* (L/4)*W*4 + N*4 + L%4 */
    CHECK_U64(dwexpr_amdgpu_private_lane_to_wave(0, 0, 64), 0, "lane 0 address 0 -> 0");
    CHECK_U64(dwexpr_amdgpu_private_lane_to_wave(3, 0, 64), 3, "lane 0 address 3 -> 3");
    CHECK_U64(dwexpr_amdgpu_private_lane_to_wave(0, 1, 64), 4, "lane 1 address 0 -> 4");
    CHECK_U64(dwexpr_amdgpu_private_lane_to_wave(4, 0, 64), 256, "lane 0 address 4 -> 256");
    CHECK_U64(dwexpr_amdgpu_private_lane_to_wave(5, 3, 64), 256 + 12 + 1,
              "lane 3 address 5 -> 269");
    CHECK_U64(dwexpr_amdgpu_private_lane_to_wave(0x108, 2, 64), 0x42 * 256 + 8,
              "lane 2 address 0x108 -> 0x4208");
    CHECK_U64(dwexpr_amdgpu_private_lane_to_wave(4, 31, 32), 128 + 124,
              "wave32: lane 31 address 4 -> 252");
    CHECK_U64(dwexpr_amdgpu_lanes(dwexpr_arch_find("amdgpu-wave64")), 64, "wave64 has 64 lanes");
    CHECK_U64(dwexpr_amdgpu_lanes(dwexpr_arch_find("amdgpu-wave32")), 32, "wave32 has 32 lanes");
    CHECK_U64(dwexpr_amdgpu_lanes(dwexpr_arch_find("x86_64")), 0, "x86_64 is no wavefront");
    CHECK_U64(dwexpr_amdgpu_lanes(NULL), 0, "NULL is no wavefront");
    CHECK_U64(dwexpr_amdgpu_exec_regno(dwexpr_arch_find("amdgpu-wave64")), 17, "wave64 EXEC is 17");
    CHECK_U64(dwexpr_amdgpu_exec_regno(dwexpr_arch_find("amdgpu-wave32")), 1, "wave32 EXEC is 1");
    CHECK_U64(dwexpr_amdgpu_exec_regno(dwexpr_arch_find("generic64")), UINT32_MAX,
              "generic64 has no EXEC");
}

int main(void)
{
    test_registers();
    test_aspaces();
    return TAP_DONE();
}
