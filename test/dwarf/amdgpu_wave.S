/* test/dwarf/amdgpu_wave.S: hand-written DWARF 5 for an AMDGPU (gfx90a,
 * wave64) object in the shapes of LLVM's heterogeneous debugging
 * extensions (DW_OP_LLVM_user 0xe9 + sub-op): a per-lane slice of a
 * VGPR, a 64-bit variable in two VGPRs (composite with
 * DW_OP_LLVM_piece_end), a private_lane variable addressed from SGPR33,
 * an LDS (local) variable, a parameter at DW_OP_fbreg in private_wave
 * memory and a global. Addresses are constants: no relocations. */
#define ULEB .uleb128
#define SLEB .sleb128

        .text
        .globl  wave_fn
        .type   wave_fn,@function
wave_fn:
        s_endpgm
        .size   wave_fn, .-wave_fn

        .section .debug_abbrev,"",@progbits
        ULEB 1
        ULEB 0x11              /* compile_unit */
        .byte 1
        ULEB 0x03
        ULEB 0x08              /* name string */
        ULEB 0x11
        ULEB 0x01              /* low_pc addr */
        ULEB 0x12
        ULEB 0x07              /* high_pc data8 */
        .byte 0, 0
        ULEB 2
        ULEB 0x24              /* base_type */
        .byte 0
        ULEB 0x03
        ULEB 0x08
        ULEB 0x0b
        ULEB 0x0b              /* byte_size data1 */
        ULEB 0x3e
        ULEB 0x0b              /* encoding data1 */
        .byte 0, 0
        ULEB 3
        ULEB 0x2e              /* subprogram */
        .byte 1
        ULEB 0x03
        ULEB 0x08
        ULEB 0x11
        ULEB 0x01
        ULEB 0x12
        ULEB 0x07
        ULEB 0x40
        ULEB 0x18              /* frame_base exprloc */
        .byte 0, 0
        ULEB 4
        ULEB 0x34              /* variable */
        .byte 0
        ULEB 0x03
        ULEB 0x08
        ULEB 0x49
        ULEB 0x13              /* type ref4 */
        ULEB 0x02
        ULEB 0x18              /* location exprloc */
        .byte 0, 0
        ULEB 5
        ULEB 0x05              /* formal_parameter */
        .byte 0
        ULEB 0x03
        ULEB 0x08
        ULEB 0x49
        ULEB 0x13
        ULEB 0x02
        ULEB 0x18
        .byte 0, 0
        .byte 0

        .section .debug_info,"",@progbits
.Lcu:
        .long .Lcu_end - .Lcu_ver
.Lcu_ver:
        .short 5
        .byte 1                /* DW_UT_compile */
        .byte 8
        .long 0                /* abbrev offset */
        ULEB 1
        .asciz "wave.cl"
        .quad 0x1000
        .quad 0x100
.Lint = . - .Lcu
        ULEB 2
        .asciz "int"
        .byte 4
        .byte 5                /* DW_ATE_signed */
.Llong = . - .Lcu
        ULEB 2
        .asciz "long"
        .byte 8
        .byte 5
.Lfloat = . - .Lcu
        ULEB 2
        .asciz "float"
        .byte 4
        .byte 4                /* DW_ATE_float */
        ULEB 3
        .asciz "wave_fn"
        .quad 0x1000
        .quad 0x100
        /* frame base: SGPR33's contents in private_wave (6) memory */
        ULEB 7
        .byte 0x90, 0x41       /* DW_OP_regx 65 (SGPR33) */
        .byte 0x94, 4          /* DW_OP_deref_size 4 */
        .byte 0x36             /* DW_OP_lit6 */
        .byte 0xe9, 0x02       /* DW_OP_LLVM_form_aspace_address */
        /* k: DW_OP_fbreg 4 (private_wave) */
        ULEB 5
        .asciz "k"
        .long .Lfloat
        ULEB 2
        .byte 0x91, 4
        /* lane_id: this lane's 4 bytes of VGPR0 */
        ULEB 4
        .asciz "lane_id"
        .long .Lint
        ULEB 9
        .byte 0x90, 0x80, 0x14 /* DW_OP_regx 2560 (VGPR0) */
        .byte 0xe9, 0x03       /* DW_OP_LLVM_push_lane */
        .byte 0x34             /* DW_OP_lit4 */
        .byte 0x1e             /* DW_OP_mul */
        .byte 0xe9, 0x04       /* DW_OP_LLVM_offset */
        /* wide: low half in VGPR0, high half in VGPR1, per lane */
        ULEB 4
        .asciz "wide"
        .long .Llong
        ULEB 24
        .byte 0x90, 0x80, 0x14
        .byte 0xe9, 0x03
        .byte 0x34
        .byte 0x1e
        .byte 0xe9, 0x04
        .byte 0x93, 4          /* DW_OP_piece 4 */
        .byte 0x90, 0x81, 0x14 /* DW_OP_regx 2561 (VGPR1) */
        .byte 0xe9, 0x03
        .byte 0x34
        .byte 0x1e
        .byte 0xe9, 0x04
        .byte 0x93, 4
        .byte 0xe9, 0x0a       /* DW_OP_LLVM_piece_end */
        /* priv: private_lane (5) memory at SGPR33 + 8 */
        ULEB 4
        .asciz "priv"
        .long .Lint
        ULEB 9
        .byte 0x90, 0x41
        .byte 0x94, 4
        .byte 0x38             /* DW_OP_lit8 */
        .byte 0x22             /* DW_OP_plus */
        .byte 0x35             /* DW_OP_lit5 */
        .byte 0xe9, 0x02
        /* shared: LDS (local, 3) at 0x10 */
        ULEB 4
        .asciz "shared"
        .long .Lint
        ULEB 5
        .byte 0x40             /* DW_OP_lit16 */
        .byte 0x33             /* DW_OP_lit3 */
        .byte 0xe9, 0x02
        .byte 0x96             /* DW_OP_nop */
        .byte 0                /* end of wave_fn's children */
        /* glob: global memory */
        ULEB 4
        .asciz "glob"
        .long .Lint
        ULEB 9
        .byte 0x03             /* DW_OP_addr */
        .quad 0x2000
        .byte 0                /* end of the unit's children */
.Lcu_end:
