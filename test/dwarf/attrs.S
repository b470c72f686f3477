/* test/dwarf/attrs.S: hand-written DWARF for the adapter tests: a DWARF 5
 * unit with every DW_LLE_* kind, overlapping and default entries, every
 * DW_AT_const_value form, base types with DW_AT_endianity and both
 * DW_AT_LLVM_vector_size codes, and one DIE for each location-bearing
 * attribute (data_member_location, data_location, use_location,
 * vtable_elem_location, static_link, return_addr, call_value / call_data_*,
 * bounds, string_length), plus a DWARF 4 unit with a .debug_loc list and a
 * Fortran unit of types spelled in GDB's Fortran notation. Addresses are
 * constants: nothing here is code. */

#define ULEB .uleb128
#define SLEB .sleb128

        .text
        .globl  main
        .type   main, @function
main:
        xorl    %eax, %eax
        ret
        .size   main, .-main

/* ---------------------------------------------------------------- abbrevs */
        .section .debug_abbrev,"",@progbits
.Labbrev1:
        ULEB 1; ULEB 0x11; .byte 1               /* compile_unit, children */
        ULEB 0x03; ULEB 0x08                     /* name string */
        ULEB 0x11; ULEB 0x01                     /* low_pc addr */
        ULEB 0x73; ULEB 0x17                     /* addr_base sec_offset */
        ULEB 0x8c; ULEB 0x17                     /* loclists_base sec_offset */
        .byte 0, 0
        ULEB 2; ULEB 0x24; .byte 0               /* base_type */
        ULEB 0x03; ULEB 0x08; ULEB 0x0b; ULEB 0x0b; ULEB 0x3e; ULEB 0x0b
        .byte 0, 0
        ULEB 3; ULEB 0x24; .byte 0               /* base_type + endianity */
        ULEB 0x03; ULEB 0x08; ULEB 0x0b; ULEB 0x0b; ULEB 0x3e; ULEB 0x0b
        ULEB 0x65; ULEB 0x0b
        .byte 0, 0
        ULEB 4; ULEB 0x24; .byte 0               /* base_type + LLVM vector size 0x3e13 */
        ULEB 0x03; ULEB 0x08; ULEB 0x0b; ULEB 0x0b; ULEB 0x3e; ULEB 0x0b
        ULEB 0x3e13; ULEB 0x0b
        .byte 0, 0
        ULEB 5; ULEB 0x24; .byte 0               /* base_type + seed vector size 0x3e0c */
        ULEB 0x03; ULEB 0x08; ULEB 0x0b; ULEB 0x0b; ULEB 0x3e; ULEB 0x0b
        ULEB 0x3e0c; ULEB 0x0b
        .byte 0, 0
        ULEB 6; ULEB 0x34; .byte 0               /* variable, loclistx */
        ULEB 0x03; ULEB 0x08; ULEB 0x49; ULEB 0x13; ULEB 0x02; ULEB 0x22
        .byte 0, 0
        ULEB 7; ULEB 0x34; .byte 0               /* variable, exprloc */
        ULEB 0x03; ULEB 0x08; ULEB 0x49; ULEB 0x13; ULEB 0x02; ULEB 0x18
        .byte 0, 0
        ULEB 8; ULEB 0x34; .byte 0               /* const data1 */
        ULEB 0x03; ULEB 0x08; ULEB 0x49; ULEB 0x13; ULEB 0x1c; ULEB 0x0b
        .byte 0, 0
        ULEB 9; ULEB 0x34; .byte 0               /* const data2 */
        ULEB 0x03; ULEB 0x08; ULEB 0x49; ULEB 0x13; ULEB 0x1c; ULEB 0x05
        .byte 0, 0
        ULEB 10; ULEB 0x34; .byte 0              /* const data4 */
        ULEB 0x03; ULEB 0x08; ULEB 0x49; ULEB 0x13; ULEB 0x1c; ULEB 0x06
        .byte 0, 0
        ULEB 11; ULEB 0x34; .byte 0              /* const data8 */
        ULEB 0x03; ULEB 0x08; ULEB 0x49; ULEB 0x13; ULEB 0x1c; ULEB 0x07
        .byte 0, 0
        ULEB 12; ULEB 0x34; .byte 0              /* const sdata */
        ULEB 0x03; ULEB 0x08; ULEB 0x49; ULEB 0x13; ULEB 0x1c; ULEB 0x0d
        .byte 0, 0
        ULEB 13; ULEB 0x34; .byte 0              /* const udata */
        ULEB 0x03; ULEB 0x08; ULEB 0x49; ULEB 0x13; ULEB 0x1c; ULEB 0x0f
        .byte 0, 0
        ULEB 14; ULEB 0x34; .byte 0              /* const block1, no type */
        ULEB 0x03; ULEB 0x08; ULEB 0x1c; ULEB 0x0a
        .byte 0, 0
        ULEB 15; ULEB 0x34; .byte 0              /* const data16, no type */
        ULEB 0x03; ULEB 0x08; ULEB 0x1c; ULEB 0x1e
        .byte 0, 0
        ULEB 16; ULEB 0x34; .byte 0              /* const string, no type */
        ULEB 0x03; ULEB 0x08; ULEB 0x1c; ULEB 0x08
        .byte 0, 0
        ULEB 17; ULEB 0x34; .byte 0              /* const implicit_const -7 */
        ULEB 0x03; ULEB 0x08; ULEB 0x49; ULEB 0x13; ULEB 0x1c; ULEB 0x21; SLEB -7
        .byte 0, 0
        ULEB 18; ULEB 0x13; .byte 1              /* structure_type */
        ULEB 0x03; ULEB 0x08; ULEB 0x0b; ULEB 0x0b
        .byte 0, 0
        ULEB 19; ULEB 0x0d; .byte 0              /* member, constant location */
        ULEB 0x03; ULEB 0x08; ULEB 0x49; ULEB 0x13; ULEB 0x38; ULEB 0x0b
        .byte 0, 0
        ULEB 20; ULEB 0x0d; .byte 0              /* member, expression location */
        ULEB 0x03; ULEB 0x08; ULEB 0x49; ULEB 0x13; ULEB 0x38; ULEB 0x18
        .byte 0, 0
        ULEB 21; ULEB 0x0d; .byte 0              /* member, data_bit_offset */
        ULEB 0x03; ULEB 0x08; ULEB 0x49; ULEB 0x13; ULEB 0x6b; ULEB 0x0b; ULEB 0x0d; ULEB 0x0b
        .byte 0, 0
        ULEB 22; ULEB 0x01; .byte 1              /* array_type + data_location */
        ULEB 0x03; ULEB 0x08; ULEB 0x49; ULEB 0x13; ULEB 0x50; ULEB 0x18
        .byte 0, 0
        ULEB 23; ULEB 0x21; .byte 0              /* subrange: upper exprloc, lower data1 */
        ULEB 0x2f; ULEB 0x18; ULEB 0x22; ULEB 0x0b
        .byte 0, 0
        ULEB 24; ULEB 0x1f; .byte 0              /* ptr_to_member_type */
        ULEB 0x03; ULEB 0x08; ULEB 0x4a; ULEB 0x18; ULEB 0x49; ULEB 0x13
        .byte 0, 0
        ULEB 25; ULEB 0x2e; .byte 1              /* subprogram f1 */
        ULEB 0x03; ULEB 0x08; ULEB 0x11; ULEB 0x01; ULEB 0x12; ULEB 0x06
        ULEB 0x40; ULEB 0x18; ULEB 0x48; ULEB 0x18; ULEB 0x2a; ULEB 0x18
        .byte 0, 0
        ULEB 26; ULEB 0x2e; .byte 0              /* subprogram f2 */
        ULEB 0x03; ULEB 0x08; ULEB 0x11; ULEB 0x01; ULEB 0x12; ULEB 0x06
        ULEB 0x40; ULEB 0x18; ULEB 0x2a; ULEB 0x18
        .byte 0, 0
        ULEB 27; ULEB 0x2e; .byte 0              /* subprogram f3 (no code) */
        ULEB 0x03; ULEB 0x08; ULEB 0x40; ULEB 0x18
        .byte 0, 0
        ULEB 28; ULEB 0x2e; .byte 0              /* virtual function */
        ULEB 0x03; ULEB 0x08; ULEB 0x4d; ULEB 0x18
        .byte 0, 0
        ULEB 29; ULEB 0x48; .byte 1              /* call_site (return_pc, call_origin) */
        ULEB 0x7d; ULEB 0x01; ULEB 0x7f; ULEB 0x13
        .byte 0, 0
        ULEB 30; ULEB 0x49; .byte 0              /* call_site_parameter */
        ULEB 0x02; ULEB 0x18; ULEB 0x7e; ULEB 0x18; ULEB 0x85; ULEB 0x18; ULEB 0x86; ULEB 0x18
        ULEB 0x80; ULEB 0x13
        .byte 0, 0
        ULEB 31; ULEB 0x12; .byte 0              /* string_type */
        ULEB 0x03; ULEB 0x08; ULEB 0x19; ULEB 0x18; ULEB 0x70; ULEB 0x0b
        .byte 0, 0
        ULEB 32; ULEB 0x01; .byte 1              /* array_type */
        ULEB 0x03; ULEB 0x08; ULEB 0x49; ULEB 0x13
        .byte 0, 0
        ULEB 33; ULEB 0x21; .byte 0              /* subrange, count is a reference */
        ULEB 0x37; ULEB 0x13
        .byte 0, 0
        ULEB 34; ULEB 0x36; .byte 0              /* dwarf_procedure */
        ULEB 0x02; ULEB 0x18
        .byte 0, 0
        ULEB 35; ULEB 0x2e; .byte 1              /* subprogram callee */
        ULEB 0x03; ULEB 0x08; ULEB 0x11; ULEB 0x01; ULEB 0x12; ULEB 0x06; ULEB 0x40; ULEB 0x18
        .byte 0, 0
        ULEB 36; ULEB 0x05; .byte 0              /* formal_parameter, exprloc */
        ULEB 0x03; ULEB 0x08; ULEB 0x49; ULEB 0x13; ULEB 0x02; ULEB 0x18
        .byte 0, 0
        ULEB 37; ULEB 0x01; .byte 1              /* array_type + bit_stride */
        ULEB 0x03; ULEB 0x08; ULEB 0x49; ULEB 0x13; ULEB 0x2e; ULEB 0x0b
        .byte 0, 0
        ULEB 38; ULEB 0x21; .byte 0              /* subrange: count, byte_stride data1 */
        ULEB 0x37; ULEB 0x0b; ULEB 0x51; ULEB 0x0b
        .byte 0, 0
        ULEB 39; ULEB 0x21; .byte 0              /* subrange: count data1 */
        ULEB 0x37; ULEB 0x0b
        .byte 0, 0
        ULEB 40; ULEB 0x21; .byte 0              /* subrange: lower data1, upper and byte_stride exprloc */
        ULEB 0x22; ULEB 0x0b; ULEB 0x2f; ULEB 0x18; ULEB 0x51; ULEB 0x18
        .byte 0, 0
        .byte 0
.Labbrev2:
        ULEB 1; ULEB 0x11; .byte 1               /* compile_unit (DWARF 4) */
        ULEB 0x03; ULEB 0x08; ULEB 0x11; ULEB 0x01
        .byte 0, 0
        ULEB 2; ULEB 0x34; .byte 0               /* variable, sec_offset list */
        ULEB 0x03; ULEB 0x08; ULEB 0x02; ULEB 0x17
        .byte 0, 0
        .byte 0

.Labbrev3:
        ULEB 1; ULEB 0x11; .byte 1               /* compile_unit (Fortran) */
        ULEB 0x03; ULEB 0x08; ULEB 0x13; ULEB 0x0b
        .byte 0, 0
        ULEB 2; ULEB 0x24; .byte 0               /* base_type */
        ULEB 0x03; ULEB 0x08; ULEB 0x0b; ULEB 0x0b; ULEB 0x3e; ULEB 0x0b
        .byte 0, 0
        ULEB 3; ULEB 0x34; .byte 0               /* variable, exprloc */
        ULEB 0x03; ULEB 0x08; ULEB 0x49; ULEB 0x13; ULEB 0x02; ULEB 0x18
        .byte 0, 0
        ULEB 4; ULEB 0x26; .byte 0               /* const_type */
        ULEB 0x49; ULEB 0x13
        .byte 0, 0
        ULEB 5; ULEB 0x01; .byte 1               /* array_type */
        ULEB 0x49; ULEB 0x13
        .byte 0, 0
        ULEB 6; ULEB 0x21; .byte 0               /* subrange: upper data1 */
        ULEB 0x2f; ULEB 0x0b
        .byte 0, 0
        ULEB 7; ULEB 0x21; .byte 0               /* subrange: lower, upper sdata */
        ULEB 0x22; ULEB 0x0d; ULEB 0x2f; ULEB 0x0d
        .byte 0, 0
        ULEB 8; ULEB 0x01; .byte 1               /* array_type + ordering */
        ULEB 0x09; ULEB 0x0b; ULEB 0x49; ULEB 0x13
        .byte 0, 0
        ULEB 9; ULEB 0x01; .byte 1               /* array_type + data_location, allocated */
        ULEB 0x49; ULEB 0x13; ULEB 0x50; ULEB 0x18; ULEB 0x4e; ULEB 0x18
        .byte 0, 0
        ULEB 10; ULEB 0x21; .byte 0              /* subrange: lower, upper exprloc */
        ULEB 0x22; ULEB 0x18; ULEB 0x2f; ULEB 0x18
        .byte 0, 0
        ULEB 11; ULEB 0x01; .byte 1              /* array_type + data_location */
        ULEB 0x49; ULEB 0x13; ULEB 0x50; ULEB 0x18
        .byte 0, 0
        ULEB 12; ULEB 0x21; .byte 0              /* subrange: upper ref4 */
        ULEB 0x2f; ULEB 0x13
        .byte 0, 0
        ULEB 13; ULEB 0x21; .byte 0              /* subrange: lower exprloc, upper data1 */
        ULEB 0x22; ULEB 0x18; ULEB 0x2f; ULEB 0x0b
        .byte 0, 0
        ULEB 14; ULEB 0x21; .byte 0              /* subrange: no bounds */
        .byte 0, 0
        ULEB 15; ULEB 0x0f; .byte 0              /* pointer_type */
        ULEB 0x0b; ULEB 0x0b; ULEB 0x49; ULEB 0x13
        .byte 0, 0
        ULEB 16; ULEB 0x13; .byte 0              /* structure_type */
        ULEB 0x03; ULEB 0x08; ULEB 0x0b; ULEB 0x0b
        .byte 0, 0
        ULEB 17; ULEB 0x17; .byte 0              /* union_type */
        ULEB 0x03; ULEB 0x08; ULEB 0x0b; ULEB 0x0b
        .byte 0, 0
        ULEB 18; ULEB 0x12; .byte 0              /* string_type: string_length data1 */
        ULEB 0x19; ULEB 0x0b
        .byte 0, 0
        ULEB 19; ULEB 0x12; .byte 0              /* string_type: string_length exprloc */
        ULEB 0x19; ULEB 0x18
        .byte 0, 0
        ULEB 20; ULEB 0x12; .byte 0              /* string_type: string_length ref4 */
        ULEB 0x19; ULEB 0x13
        .byte 0, 0
        ULEB 21; ULEB 0x12; .byte 0              /* string_type: byte_size */
        ULEB 0x0b; ULEB 0x0b
        .byte 0, 0
        ULEB 22; ULEB 0x15; .byte 1              /* subroutine_type with a result */
        ULEB 0x49; ULEB 0x13
        .byte 0, 0
        ULEB 23; ULEB 0x15; .byte 1              /* subroutine_type (a subroutine) */
        .byte 0, 0
        ULEB 24; ULEB 0x05; .byte 0              /* formal_parameter */
        ULEB 0x49; ULEB 0x13
        .byte 0, 0
        ULEB 25; ULEB 0x34; .byte 0              /* variable, const_value only */
        ULEB 0x03; ULEB 0x08; ULEB 0x49; ULEB 0x13; ULEB 0x1c; ULEB 0x0b
        .byte 0, 0
        ULEB 26; ULEB 0x21; .byte 0              /* subrange: type, lower, upper data1 */
        ULEB 0x49; ULEB 0x13; ULEB 0x22; ULEB 0x0b; ULEB 0x2f; ULEB 0x0b
        .byte 0, 0
        ULEB 27; ULEB 0x21; .byte 0              /* subrange: lower, count data1 */
        ULEB 0x22; ULEB 0x0b; ULEB 0x37; ULEB 0x0b
        .byte 0, 0
        ULEB 28; ULEB 0x01; .byte 1              /* array_type + data_location, rank */
        ULEB 0x49; ULEB 0x13; ULEB 0x50; ULEB 0x18; ULEB 0x71; ULEB 0x18
        .byte 0, 0
        ULEB 29; ULEB 0x45; .byte 0              /* generic_subrange: lower, upper exprloc */
        ULEB 0x22; ULEB 0x18; ULEB 0x2f; ULEB 0x18
        .byte 0, 0
        ULEB 30; ULEB 0x35; .byte 0              /* volatile_type */
        ULEB 0x49; ULEB 0x13
        .byte 0, 0
        ULEB 31; ULEB 0x10; .byte 0              /* reference_type */
        ULEB 0x0b; ULEB 0x0b; ULEB 0x49; ULEB 0x13
        .byte 0, 0
        ULEB 32; ULEB 0x18; .byte 0              /* unspecified_parameters */
        .byte 0, 0
        .byte 0

/* -------------------------------------------------------------- .debug_addr */
        .section .debug_addr,"",@progbits
        .4byte  .Laddr_end - .Laddr_start
.Laddr_start:
        .2byte  5
        .byte   8, 0
.Laddr_base:
        .8byte  0x3000, 0x4000, 0x4010, 0x4100
.Laddr_end:

/* ---------------------------------------------------------- .debug_loclists */
        .section .debug_loclists,"",@progbits
        .4byte  .Lll_end - .Lll_start
.Lll_start:
        .2byte  5
        .byte   8, 0
        .4byte  4
.Lll_base:
        .4byte  .Llist0 - .Lll_base, .Llist1 - .Lll_base, .Llist2 - .Lll_base
        .4byte  .Llist3 - .Lll_base
.Llist0:                        /* v_list: every kind, base = unit low_pc 0x1000 */
        .byte 0x04; ULEB 0x0; ULEB 0x10; ULEB 1; .byte 0x50            /* offset_pair: reg0 */
        .byte 0x06; .8byte 0x2000                                       /* base_address */
        .byte 0x04; ULEB 0x0; ULEB 0x10; ULEB 1; .byte 0x51            /* reg1 */
        .byte 0x01; ULEB 0                                              /* base_addressx 0x3000 */
        .byte 0x04; ULEB 0x10; ULEB 0x20; ULEB 1; .byte 0x52           /* reg2 */
        .byte 0x02; ULEB 1; ULEB 2; ULEB 1; .byte 0x53                 /* startx_endx: reg3 */
        .byte 0x03; ULEB 3; ULEB 8; ULEB 1; .byte 0x54                 /* startx_length: reg4 */
        .byte 0x07; .8byte 0x5000, 0x5010; ULEB 1; .byte 0x55          /* start_end: reg5 */
        .byte 0x08; .8byte 0x6000; ULEB 0x10; ULEB 1; .byte 0x56       /* start_length: reg6 */
        .byte 0x05; ULEB 1; .byte 0x57                                  /* default_location: reg7 */
        .byte 0x00
.Llist1:                        /* v_over: two places on [0x1080, 0x1100) */
        .byte 0x07; .8byte 0x1000, 0x1100; ULEB 1; .byte 0x50
        .byte 0x07; .8byte 0x1080, 0x1200; ULEB 1; .byte 0x51
        .byte 0x00
.Llist2:                        /* v_view: gcc's view pair, then an entry */
        .byte 0x09; ULEB 0; ULEB 1
        .byte 0x08; .8byte 0x7000; ULEB 0x10; ULEB 2; .byte 0x77, 0x00 /* breg7 0 */
        .byte 0x00
.Llist3:                        /* v_bad: entries whose evaluation fails */
        .byte 0x07; .8byte 0x1060, 0x1080; ULEB 1; .byte 0x50          /* reg0 */
        /* [0x1070, 0x1080): lit1; lit0; div (division by zero at 2) */
        .byte 0x07; .8byte 0x1070, 0x1080; ULEB 3; .byte 0x31, 0x30, 0x1b
        /* [0x10a0, 0x10b0): lit0; lit1; lit0; div (division by zero at 3) */
        .byte 0x07; .8byte 0x10a0, 0x10b0; ULEB 4; .byte 0x30, 0x31, 0x30, 0x1b
        .byte 0x00
.Lll_end:

/* --------------------------------------------------------------- .debug_loc */
        .section .debug_loc,"",@progbits
.Lloc_old:                      /* v_old (DWARF 4): base = unit low_pc 0x3000 */
        .8byte 0x10, 0x20; .2byte 1; .byte 0x50
        .8byte 0xffffffffffffffff, 0x5000                               /* base selection */
        .8byte 0x0, 0x8; .2byte 1; .byte 0x51
        .8byte 0, 0

/* ------------------------------------------------------------- .debug_info */
        .section .debug_info,"",@progbits
.Lcu1:
        .4byte  .Lcu1_end - .Lcu1_ver
.Lcu1_ver:
        .2byte  5
        .byte   1, 8                    /* DW_UT_compile, address size */
        .4byte  .Labbrev1
        ULEB 1; .asciz "attrs.c"; .8byte 0x1000; .4byte .Laddr_base; .4byte .Lll_base
.Lbt_int:
        ULEB 2; .asciz "int"; .byte 4, 0x05
.Lbt_long:
        ULEB 2; .asciz "long"; .byte 8, 0x05
.Lbt_uchar:
        ULEB 2; .asciz "uchar"; .byte 1, 0x08
.Lbt_be:
        ULEB 3; .asciz "be_u32"; .byte 4, 0x07, 0x01
.Lbt_v4f:
        ULEB 4; .asciz "v4f"; .byte 4, 0x04, 4
.Lbt_v2i:
        ULEB 5; .asciz "v2i"; .byte 4, 0x05, 2
        ULEB 6; .asciz "v_list"; .4byte .Lbt_int - .Lcu1; ULEB 0
        ULEB 6; .asciz "v_over"; .4byte .Lbt_int - .Lcu1; ULEB 1
        ULEB 6; .asciz "v_view"; .4byte .Lbt_int - .Lcu1; ULEB 2
        ULEB 6; .asciz "v_bad"; .4byte .Lbt_int - .Lcu1; ULEB 3
.Lc_data1:
        ULEB 8; .asciz "c_data1"; .4byte .Lbt_uchar - .Lcu1; .byte 0xfe
        ULEB 9; .asciz "c_data2"; .4byte .Lbt_int - .Lcu1; .2byte 0xfffe
.Lc_data4:
        ULEB 10; .asciz "c_data4"; .4byte .Lbt_int - .Lcu1; .4byte 0x12345678
        ULEB 11; .asciz "c_data8"; .4byte .Lbt_long - .Lcu1; .8byte 0x1122334455667788
        ULEB 12; .asciz "c_sdata"; .4byte .Lbt_int - .Lcu1; SLEB -5
        ULEB 13; .asciz "c_udata"; .4byte .Lbt_int - .Lcu1; ULEB 300
        ULEB 14; .asciz "c_block"; .byte 3, 1, 2, 3
        ULEB 15; .asciz "c_data16"; .8byte 0x0706050403020100, 0x0f0e0d0c0b0a0908
        ULEB 16; .asciz "c_string"; .asciz "hi"
        ULEB 17; .asciz "c_implicit"; .4byte .Lbt_int - .Lcu1
        /* v_addrx: DW_OP_addrx 1 */
        ULEB 7; .asciz "v_addrx"; .4byte .Lbt_int - .Lcu1; ULEB 2; .byte 0xa1, 1
        /* v_constx: DW_OP_constx 2; DW_OP_stack_value */
        ULEB 7; .asciz "v_constx"; .4byte .Lbt_long - .Lcu1; ULEB 3; .byte 0xa2, 2, 0x9f
        /* v_call: DW_OP_call4 proc */
        ULEB 7; .asciz "v_call"; .4byte .Lbt_int - .Lcu1; ULEB 5; .byte 0x99; .4byte .Lproc - .Lcu1
        /* v_iptr: DW_OP_implicit_pointer c_data4 1 */
        ULEB 7; .asciz "v_iptr"; .4byte .Lbt_long - .Lcu1; ULEB 6; .byte 0xa0; .4byte .Lc_data4; SLEB 1
        /* v_conv: DW_OP_const1u 0xfb; DW_OP_convert uchar; DW_OP_convert int; stack_value */
        ULEB 7; .asciz "v_conv"; .4byte .Lbt_int - .Lcu1; ULEB 7
        .byte 0x08, 0xfb, 0xa8; ULEB .Lbt_uchar - .Lcu1; .byte 0xa8; ULEB .Lbt_int - .Lcu1; .byte 0x9f
        /* n_elems: DW_OP_addr 0x7600 */
        .Ln_elems:
        ULEB 7; .asciz "n_elems"; .4byte .Lbt_int - .Lcu1; ULEB 9; .byte 0x03; .8byte 0x7600
.Lstruct:
        ULEB 18; .asciz "s"; .byte 16
        ULEB 19; .asciz "m_const"; .4byte .Lbt_int - .Lcu1; .byte 4
        /* DW_OP_LLVM_offset_uconst 2 (DW_OP_LLVM_user 0xe9, sub-op 5) */
        ULEB 20; .asciz "m_llvm"; .4byte .Lbt_int - .Lcu1; ULEB 3; .byte 0xe9, 0x05, 2
        /* DW_OP_plus_uconst 12 */
        ULEB 20; .asciz "m_plus"; .4byte .Lbt_int - .Lcu1; ULEB 2; .byte 0x23, 12
        /* DWARF 2's other constant spellings: DW_OP_constu 4; DW_OP_plus and
         * DW_OP_lit6; DW_OP_plus; and one that is no constant:
         * DW_OP_dup; DW_OP_drop; DW_OP_plus_uconst 4 */
        ULEB 20; .asciz "m_cplus"; .4byte .Lbt_int - .Lcu1; ULEB 3; .byte 0x10, 4, 0x22
        ULEB 20; .asciz "m_lplus"; .4byte .Lbt_int - .Lcu1; ULEB 2; .byte 0x36, 0x22
        ULEB 20; .asciz "m_dup"; .4byte .Lbt_int - .Lcu1; ULEB 4; .byte 0x12, 0x13, 0x23, 4
        ULEB 21; .asciz "m_bits"; .4byte .Lbt_int - .Lcu1; .byte 100, 3
        .byte 0
.Ldesc_arr:
        /* data_location: DW_OP_push_object_address; DW_OP_deref */
        ULEB 22; .asciz "desc_arr"; .4byte .Lbt_int - .Lcu1; ULEB 2; .byte 0x97, 0x06
        /* upper_bound: push_object_address; plus_uconst 8; deref_size 4 */
        ULEB 23; ULEB 5; .byte 0x97, 0x23, 8, 0x94, 4; .byte 1
        .byte 0
.Lptm:
        /* use_location: DW_OP_plus */
        ULEB 24; .asciz "ptm"; ULEB 1; .byte 0x22; .4byte .Lbt_int - .Lcu1
.Lf1:
        /* frame_base reg6; static_link breg6 16; return_addr breg7 8 */
        ULEB 25; .asciz "f1"; .8byte 0x1000; .4byte 0x100
        ULEB 1; .byte 0x56; ULEB 2; .byte 0x76, 16; ULEB 2; .byte 0x77, 8
        /* the call f1 makes returns to 0x1050; it calls callee, whose
         * entry values it gives (a call site naming no callee gives none) */
        ULEB 29; .8byte 0x1050; .4byte .Lcallee - .Lcu1
.Lcsp:
        /* location reg5; call_value lit7; call_data_location breg4 0; call_data_value lit9 */
        ULEB 30; ULEB 1; .byte 0x55; ULEB 1; .byte 0x37; ULEB 2; .byte 0x74, 0; ULEB 1; .byte 0x39
        .4byte .Lparam_p - .Lcu1
        .byte 0
        /* a call returning to 0x1060 that calls f2, not callee: the value
         * it passes is not callee's entry value */
        ULEB 29; .8byte 0x1060; .4byte .Lf2 - .Lcu1
        ULEB 30; ULEB 1; .byte 0x55; ULEB 1; .byte 0x37; ULEB 2; .byte 0x74, 0; ULEB 1; .byte 0x39
        .4byte .Lparam_p - .Lcu1
        .byte 0
        .byte 0
.Lf2:
        /* frame_base call_frame_cfa; return_addr reg0 (ill-formed) */
        ULEB 26; .asciz "f2"; .8byte 0x2000; .4byte 0x100; ULEB 1; .byte 0x9c; ULEB 1; .byte 0x50
.Lf3:
        /* frame_base fbreg 0 (ill-formed) */
        ULEB 27; .asciz "f3"; ULEB 2; .byte 0x91, 0
.Lvfn:
        /* vtable_elem_location: DW_OP_deref; DW_OP_plus_uconst 16 */
        ULEB 28; .asciz "vfn"; ULEB 3; .byte 0x06, 0x23, 16
.Lstr:
        /* string_length: breg5 0; 4 bytes */
        ULEB 31; .asciz "str"; ULEB 2; .byte 0x75, 0; .byte 4
.Lvla:
        ULEB 32; .asciz "vla"; .4byte .Lbt_int - .Lcu1
        ULEB 33; .4byte .Ln_elems - .Lcu1
        .byte 0
        /* strided: 4 ints 8 bytes apart (DW_AT_byte_stride of the subrange) */
        ULEB 32; .asciz "strided"; .4byte .Lbt_int - .Lcu1
        ULEB 38; .byte 4, 8
        .byte 0
        /* packed: 6 uchars 4 bits apart (DW_AT_bit_stride of the array type) */
        ULEB 37; .asciz "packed"; .4byte .Lbt_uchar - .Lcu1; .byte 4
        ULEB 39; .byte 6
        .byte 0
        /* desc_strided: a descriptor's section, data at *object, lower bound
         * 1, upper bound u32 at object + 8 (3), byte stride at object + 16
         * (-16: a negative stride) */
        ULEB 22; .asciz "desc_strided"; .4byte .Lbt_long - .Lcu1; ULEB 2; .byte 0x97, 0x06
        ULEB 40; .byte 1; ULEB 5; .byte 0x97, 0x23, 8, 0x94, 4; ULEB 4; .byte 0x97, 0x23, 16, 0x06
        .byte 0
.Lproc:
        /* DW_OP_breg5 8 */
        ULEB 34; ULEB 2; .byte 0x75, 8
.Lcallee:
        ULEB 35; .asciz "callee"; .8byte 0x8000; .4byte 0x100; ULEB 1; .byte 0x9c
.Lparam_p:
        /* p: DW_OP_entry_value(DW_OP_reg5); DW_OP_stack_value */
        ULEB 36; .asciz "p"; .4byte .Lbt_long - .Lcu1; ULEB 4; .byte 0xa3, 1, 0x55, 0x9f
        /* pr: DW_OP_GNU_parameter_ref p; DW_OP_stack_value */
        ULEB 7; .asciz "pr"; .4byte .Lbt_long - .Lcu1; ULEB 6; .byte 0xfa; .4byte .Lparam_p - .Lcu1
        .byte 0x9f
.Lparam_q:
        /* q: DW_OP_entry_value(DW_OP_reg4); DW_OP_stack_value (f1's call site passes only p) */
        ULEB 36; .asciz "q"; .4byte .Lbt_long - .Lcu1; ULEB 4; .byte 0xa3, 1, 0x54, 0x9f
        /* pr_gone: DW_OP_GNU_parameter_ref q; DW_OP_stack_value */
        ULEB 7; .asciz "pr_gone"; .4byte .Lbt_long - .Lcu1; ULEB 6; .byte 0xfa
        .4byte .Lparam_q - .Lcu1; .byte 0x9f
        .byte 0
        .byte 0
.Lcu1_end:

.Lcu2:
        .4byte  .Lcu2_end - .Lcu2_ver
.Lcu2_ver:
        .2byte  4
        .4byte  .Labbrev2
        .byte   8
        ULEB 1; .asciz "old.c"; .8byte 0x3000
        ULEB 2; .asciz "v_old"; .4byte .Lloc_old
        .byte 0
.Lcu2_end:

/* ftypes.f90: a Fortran unit (DW_LANG_Fortran90) whose variables' types
 * dwexpr spells in GDB's Fortran notation (the expected spelling beside
 * each; test_adapter.c checks them) */
#define FVAR(name, type) ULEB 3; .asciz name; .4byte type - .Lcu3; ULEB 9; .byte 0x03; .8byte 0x7800
/* DW_OP_push_object_address; DW_OP_deref: a descriptor's data or bound */
#define DESC ULEB 2; .byte 0x97, 0x06
.Lcu3:
        .4byte  .Lcu3_end - .Lcu3_ver
.Lcu3_ver:
        .2byte  5
        .byte   1, 8
        .4byte  .Labbrev3
        ULEB 1; .asciz "ftypes.f90"; .byte 0x08
.Lf_int:
        ULEB 2; .asciz "integer(kind=4)"; .byte 4, 0x05
.Lf_int1:
        ULEB 2; .asciz "integer(kind=1)"; .byte 1, 0x05
.Lf_real:
        ULEB 2; .asciz "real(kind=8)"; .byte 8, 0x04
.Lf_const:
        ULEB 4; .4byte .Lf_int - .Lcu3
.Lf_volconst:
        ULEB 30; .4byte .Lf_const - .Lcu3
.Lf_arr:                                /* integer(kind=4) (5) */
        ULEB 5; .4byte .Lf_int - .Lcu3
        ULEB 6; .byte 5
        .byte 0
.Lf_low:                                /* integer(kind=4) (0:4,-1:1) */
        ULEB 8; .byte 1; .4byte .Lf_int - .Lcu3
        ULEB 7; SLEB 0; SLEB 4
        ULEB 7; SLEB -1; SLEB 1
        .byte 0
.Lf_row:                                /* row-major: integer(kind=4) (2,3) */
        ULEB 8; .byte 0; .4byte .Lf_int - .Lcu3
        ULEB 6; .byte 3
        ULEB 6; .byte 2
        .byte 0
.Lf_alloc:                              /* real(kind=8), allocatable (:,:) */
        ULEB 9; .4byte .Lf_real - .Lcu3; DESC; DESC
        ULEB 10; DESC; DESC
        ULEB 10; DESC; DESC
        .byte 0
.Lf_shape:                              /* real(kind=8) (:) */
        ULEB 11; .4byte .Lf_real - .Lcu3; DESC
        ULEB 10; DESC; DESC
        .byte 0
.Lf_dynup:                              /* integer(kind=4) (1) */
        ULEB 5; .4byte .Lf_int - .Lcu3
        ULEB 12; .4byte .Lf_n - .Lcu3
        .byte 0
.Lf_dynlow:                             /* integer(kind=4) (:,2) */
        ULEB 8; .byte 1; .4byte .Lf_int - .Lcu3
        ULEB 13; DESC; .byte 3           /* lower bound computed at run time */
        ULEB 6; .byte 2
        .byte 0
.Lf_star:                               /* integer(kind=4) (3,*) */
        ULEB 8; .byte 1; .4byte .Lf_int - .Lcu3
        ULEB 6; .byte 3
        ULEB 14
        .byte 0
.Lf_gone:                               /* integer(kind=4) (*) */
        ULEB 5; .4byte .Lf_int - .Lcu3
        ULEB 12; .4byte .Lf_len_const - .Lcu3
        .byte 0
.Lf_sext:                               /* integer(kind=4) (-2:2) */
        ULEB 5; .4byte .Lf_int - .Lcu3
        ULEB 26; .4byte .Lf_int1 - .Lcu3; .byte 0xfe, 2
        .byte 0
.Lf_count:                              /* integer(kind=4) (0:3) */
        ULEB 5; .4byte .Lf_int - .Lcu3
        ULEB 27; .byte 0, 4
        .byte 0
.Lf_arrarr:                             /* an array of arrays: integer(kind=4) (3,2) */
        ULEB 5; .4byte .Lf_arr3 - .Lcu3
        ULEB 6; .byte 2
        .byte 0
.Lf_arr3:
        ULEB 5; .4byte .Lf_int - .Lcu3
        ULEB 6; .byte 3
        .byte 0
.Lf_ranked:                             /* assumed rank: real(kind=8) (:) */
        ULEB 28; .4byte .Lf_real - .Lcu3; DESC; DESC
        ULEB 29; DESC; DESC
        .byte 0
.Lf_ptr:
        ULEB 15; .byte 8; .4byte .Lf_int - .Lcu3
.Lf_ptrarr:
        ULEB 15; .byte 8; .4byte .Lf_arr - .Lcu3
.Lf_node:
        ULEB 16; .asciz "node"; .byte 8
.Lf_union:
        ULEB 17; .asciz "u"; .byte 8
.Lf_pnode:
        ULEB 15; .byte 8; .4byte .Lf_node - .Lcu3
.Lf_nodes:
        ULEB 5; .4byte .Lf_node - .Lcu3
        ULEB 6; .byte 2
        .byte 0
.Lf_c13:
        ULEB 18; .byte 13
.Lf_cstar:
        ULEB 19; ULEB 2; .byte 0x91, 0x08                        /* fbreg 8 */
.Lf_cgone:
        ULEB 20; .4byte .Lf_len_const - .Lcu3
.Lf_c6:
        ULEB 21; .byte 6
.Lf_names:
        ULEB 5; .4byte .Lf_c6 - .Lcu3
        ULEB 6; .byte 3
        .byte 0
.Lf_fun:                                /* a function of unspecified arguments */
        ULEB 22; .4byte .Lf_real - .Lcu3
        ULEB 32
        .byte 0
.Lf_fp:
        ULEB 15; .byte 8; .4byte .Lf_fun - .Lcu3
.Lf_sub:                                /* a subroutine of two by-reference arguments */
        ULEB 23
        ULEB 24; .4byte .Lf_rint - .Lcu3
        ULEB 24; .4byte .Lf_rshape - .Lcu3
        .byte 0
.Lf_rint:
        ULEB 31; .byte 8; .4byte .Lf_int - .Lcu3
.Lf_rshape:
        ULEB 31; .byte 8; .4byte .Lf_shape - .Lcu3
.Lf_ps:
        ULEB 15; .byte 8; .4byte .Lf_sub - .Lcu3
.Lf_n:
        FVAR("fv_n", .Lf_int)
.Lf_len_const:                          /* no location: GDB refuses a bound or length here */
        ULEB 25; .asciz "fv_len_const"; .4byte .Lf_int - .Lcu3; .byte 5
        FVAR("fv_int", .Lf_int)
        FVAR("fv_const", .Lf_const)
        FVAR("fv_volconst", .Lf_volconst)
        FVAR("fv_arr", .Lf_arr)
        FVAR("fv_low", .Lf_low)
        FVAR("fv_row", .Lf_row)
        FVAR("fv_alloc", .Lf_alloc)
        FVAR("fv_shape", .Lf_shape)
        FVAR("fv_dynup", .Lf_dynup)
        FVAR("fv_dynlow", .Lf_dynlow)
        FVAR("fv_star", .Lf_star)
        FVAR("fv_gone", .Lf_gone)
        FVAR("fv_sext", .Lf_sext)
        FVAR("fv_count", .Lf_count)
        FVAR("fv_arrarr", .Lf_arrarr)
        FVAR("fv_ranked", .Lf_ranked)
        FVAR("fv_ptr", .Lf_ptr)
        FVAR("fv_ptrarr", .Lf_ptrarr)
        FVAR("fv_node", .Lf_node)
        FVAR("fv_union", .Lf_union)
        FVAR("fv_pnode", .Lf_pnode)
        FVAR("fv_nodes", .Lf_nodes)
        FVAR("fv_c13", .Lf_c13)
        FVAR("fv_cstar", .Lf_cstar)
        FVAR("fv_cgone", .Lf_cgone)
        FVAR("fv_names", .Lf_names)
        FVAR("fv_fp", .Lf_fp)
        FVAR("fv_ps", .Lf_ps)
        .byte 0
.Lcu3_end:

        .section .note.GNU-stack,"",@progbits
