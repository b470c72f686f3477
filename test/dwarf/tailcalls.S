/* test/dwarf/tailcalls.S: hand-written DWARF for the adapter's tail call
 * frames (dwexpr_libdwarf_tail_frames, GDB's call_site_find_chain): a
 * DWARF 5 unit whose functions jump to each other (DW_TAG_call_site with
 * DW_AT_call_tail_call) and a caller, t_caller, with one ordinary call
 * site per case. Addresses are constants: nothing here is code.
 *
 *   t_top  -> t_mid                     (tail calls)
 *   t_mid  -> t_leaf, t_mid -> t_n
 *   t_n    -> t_leaf
 *   t_fork -> t_a, t_fork -> t_b;  t_a -> t_n;  t_b -> t_n
 *   t_u    -> ? (no target), t_u -> t_leaf
 *   t_na   -> t_leaf, but t_na does not say it lists all its calls
 *   t_ind  -> (DW_AT_call_target expression: an indirect jump), t_ind -> t_leaf
 *   t_self -> t_self, t_self -> t_leaf
 *   t_ext  -> puts (a declaration no function here has: a library's),
 *             t_ext -> t_leaf
 *   t_dup (two functions of that name, 0x9d00 and 0x9e00) -> t_leaf
 *   t_other -> t_leaf; the ELF symbol t_sym (no DWARF name) is t_other's
 *             address
 *
 * t_caller's call sites (return address: what it calls):
 *   0x9010: t_top    paths 0x9110 0x9210 | 0x9110 0x9220 0x9310: the
 *                    common start, t_top's jump (0x9110)
 *   0x9020: t_leaf   a direct call: none
 *   0x9030: t_mid    0x9210 | 0x9220 0x9310: nothing in common: none
 *   0x9040: t_fork   0x9710 0x9810 0x9310 | 0x9720 0x9910 0x9310: the
 *                    common end, t_n's jump (0x9310)
 *   0x9050: t_u      an unknown target on the way (besides a path): none
 *   0x9060: t_na     no tail calls listed: none
 *   0x9070: t_n, through a declaration of that name: 0x9310
 *   0x9080: t_ind    an indirect jump on the way (besides a path): none
 *   0x9090: t_a      one path, 0x9810 0x9310: both, youngest first
 *   0x90a0: t_self   0x9b10 0x9b20 | 0x9b20 (a call site is not taken
 *                    twice on a path): the common end, 0x9b20
 *   0x90b0: t_ext    0x9c20 (puts has no tail calls back): 0x9c20
 *   0x90c0: t_dup, through a declaration of that name: ambiguous, none
 *   0x90d0: t_sym, through a declaration of that name: the ELF symbol's
 *                    address, t_other's: 0x9f10 */

#define ULEB .uleb128

        .text
        .globl  main
        .type   main, @function
main:
        xorl    %eax, %eax
        ret
        .size   main, .-main
        /* an ELF symbol that no DWARF function is called (a declaration
         * names it; GDB's minimal symbol) */
        .globl  t_sym
        .type   t_sym, @function
        .set    t_sym, 0x9f00

        .section .debug_abbrev,"",@progbits
.Labbrev:
        ULEB 1; ULEB 0x11; .byte 1               /* compile_unit: name */
        ULEB 0x03; ULEB 0x08
        .byte 0, 0
        ULEB 2; ULEB 0x2e; .byte 1               /* subprogram, all calls listed */
        ULEB 0x03; ULEB 0x08; ULEB 0x11; ULEB 0x01; ULEB 0x12; ULEB 0x06; ULEB 0x7a; ULEB 0x19
        .byte 0, 0
        ULEB 3; ULEB 0x2e; .byte 1               /* subprogram, calls not all listed */
        ULEB 0x03; ULEB 0x08; ULEB 0x11; ULEB 0x01; ULEB 0x12; ULEB 0x06
        .byte 0, 0
        ULEB 4; ULEB 0x48; .byte 0               /* call_site: return_pc, call_origin */
        ULEB 0x7d; ULEB 0x01; ULEB 0x7f; ULEB 0x13
        .byte 0, 0
        ULEB 5; ULEB 0x48; .byte 0               /* call_site + call_tail_call */
        ULEB 0x7d; ULEB 0x01; ULEB 0x7f; ULEB 0x13; ULEB 0x82; ULEB 0x19
        .byte 0, 0
        ULEB 6; ULEB 0x48; .byte 0               /* tail call_site naming nothing */
        ULEB 0x7d; ULEB 0x01; ULEB 0x82; ULEB 0x19
        .byte 0, 0
        ULEB 7; ULEB 0x2e; .byte 0               /* subprogram declaration */
        ULEB 0x03; ULEB 0x08; ULEB 0x3c; ULEB 0x19; ULEB 0x3f; ULEB 0x19
        .byte 0, 0
        ULEB 8; ULEB 0x48; .byte 0               /* tail call_site, call_target exprloc */
        ULEB 0x7d; ULEB 0x01; ULEB 0x83; ULEB 0x18; ULEB 0x82; ULEB 0x19
        .byte 0, 0
        .byte 0

        .section .debug_info,"",@progbits
.Lcu:
        .4byte  .Lcu_end - .Lcu_ver
.Lcu_ver:
        .2byte  5
        .byte   1, 8                    /* DW_UT_compile, address size */
        .4byte  .Labbrev
        ULEB 1; .asciz "tailcalls.c"
.Lt_leaf:
        ULEB 2; .asciz "t_leaf"; .8byte 0x9400; .4byte 0x100
        .byte 0
.Lt_n:
        ULEB 2; .asciz "t_n"; .8byte 0x9300; .4byte 0x100
        ULEB 5; .8byte 0x9310; .4byte .Lt_leaf - .Lcu
        .byte 0
.Lt_mid:
        ULEB 2; .asciz "t_mid"; .8byte 0x9200; .4byte 0x100
        ULEB 5; .8byte 0x9210; .4byte .Lt_leaf - .Lcu
        ULEB 5; .8byte 0x9220; .4byte .Lt_n - .Lcu
        .byte 0
.Lt_top:
        ULEB 2; .asciz "t_top"; .8byte 0x9100; .4byte 0x100
        ULEB 5; .8byte 0x9110; .4byte .Lt_mid - .Lcu
        .byte 0
.Lt_a:
        ULEB 2; .asciz "t_a"; .8byte 0x9800; .4byte 0x100
        ULEB 5; .8byte 0x9810; .4byte .Lt_n - .Lcu
        .byte 0
.Lt_b:
        ULEB 2; .asciz "t_b"; .8byte 0x9900; .4byte 0x100
        ULEB 5; .8byte 0x9910; .4byte .Lt_n - .Lcu
        .byte 0
.Lt_fork:
        ULEB 2; .asciz "t_fork"; .8byte 0x9700; .4byte 0x100
        ULEB 5; .8byte 0x9710; .4byte .Lt_a - .Lcu
        ULEB 5; .8byte 0x9720; .4byte .Lt_b - .Lcu
        .byte 0
.Lt_u:
        ULEB 2; .asciz "t_u"; .8byte 0x9500; .4byte 0x100
        ULEB 6; .8byte 0x9510
        ULEB 5; .8byte 0x9520; .4byte .Lt_leaf - .Lcu
        .byte 0
.Lt_na:
        ULEB 3; .asciz "t_na"; .8byte 0x9600; .4byte 0x100
        ULEB 5; .8byte 0x9610; .4byte .Lt_leaf - .Lcu
        .byte 0
.Lt_ind:
        /* call_target: DW_OP_breg0 0 */
        ULEB 2; .asciz "t_ind"; .8byte 0x9a00; .4byte 0x100
        ULEB 8; .8byte 0x9a10; ULEB 2; .byte 0x70, 0
        ULEB 5; .8byte 0x9a20; .4byte .Lt_leaf - .Lcu
        .byte 0
.Lt_self:
        ULEB 2; .asciz "t_self"; .8byte 0x9b00; .4byte 0x100
        ULEB 5; .8byte 0x9b10; .4byte .Lt_self - .Lcu
        ULEB 5; .8byte 0x9b20; .4byte .Lt_leaf - .Lcu
        .byte 0
.Lt_ext:
        ULEB 2; .asciz "t_ext"; .8byte 0x9c00; .4byte 0x100
        ULEB 5; .8byte 0x9c10; .4byte .Ldecl_puts - .Lcu
        ULEB 5; .8byte 0x9c20; .4byte .Lt_leaf - .Lcu
        .byte 0
.Ldecl_puts:
        ULEB 7; .asciz "puts"
.Ldecl_n:
        ULEB 7; .asciz "t_n"
.Lt_dup1:
        ULEB 2; .asciz "t_dup"; .8byte 0x9d00; .4byte 0x100
        ULEB 5; .8byte 0x9d10; .4byte .Lt_leaf - .Lcu
        .byte 0
.Lt_dup2:
        ULEB 2; .asciz "t_dup"; .8byte 0x9e00; .4byte 0x100
        ULEB 5; .8byte 0x9e10; .4byte .Lt_leaf - .Lcu
        .byte 0
.Lt_other:
        ULEB 2; .asciz "t_other"; .8byte 0x9f00; .4byte 0x100
        ULEB 5; .8byte 0x9f10; .4byte .Lt_leaf - .Lcu
        .byte 0
.Ldecl_dup:
        ULEB 7; .asciz "t_dup"
.Ldecl_sym:
        ULEB 7; .asciz "t_sym"
.Lt_caller:
        ULEB 2; .asciz "t_caller"; .8byte 0x9000; .4byte 0x100
        ULEB 4; .8byte 0x9010; .4byte .Lt_top - .Lcu
        ULEB 4; .8byte 0x9020; .4byte .Lt_leaf - .Lcu
        ULEB 4; .8byte 0x9030; .4byte .Lt_mid - .Lcu
        ULEB 4; .8byte 0x9040; .4byte .Lt_fork - .Lcu
        ULEB 4; .8byte 0x9050; .4byte .Lt_u - .Lcu
        ULEB 4; .8byte 0x9060; .4byte .Lt_na - .Lcu
        ULEB 4; .8byte 0x9070; .4byte .Ldecl_n - .Lcu
        ULEB 4; .8byte 0x9080; .4byte .Lt_ind - .Lcu
        ULEB 4; .8byte 0x9090; .4byte .Lt_a - .Lcu
        ULEB 4; .8byte 0x90a0; .4byte .Lt_self - .Lcu
        ULEB 4; .8byte 0x90b0; .4byte .Lt_ext - .Lcu
        ULEB 4; .8byte 0x90c0; .4byte .Ldecl_dup - .Lcu
        ULEB 4; .8byte 0x90d0; .4byte .Ldecl_sym - .Lcu
        .byte 0
        .byte 0
.Lcu_end:

        .section .note.GNU-stack,"",@progbits
