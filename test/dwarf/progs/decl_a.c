/* test/dwarf/progs/decl_a.c (with decl_b.c and decl_c.c): call sites
 * whose DW_AT_call_origin is a declaration (DW_AT_declaration) of a
 * function another unit defines. GDB takes such a callee by the
 * declaration's name: the address of the ELF symbol of that name (a
 * minimal symbol), a global one before a static one. gcc -O2, at the
 * probe (GDB 13):
 *
 *   probe (v=v@entry=25), leaf (z=z@entry=25),
 *   __GI_jumper [tail call] (x=x@entry=24),   (hop's call names the
 *                                             declaration jumper; the
 *                                             definition's linkage name is
 *                                             __GI_jumper, as glibc's
 *                                             hidden_proto makes it)
 *   hop (h=h@entry=14),                       (pick's call names hop)
 *   pick (p=p@entry=7), main                  (main's call names pick:
 *                                             the global one of decl_c.c,
 *                                             not decl_b.c's static pick)
 *
 * Every parameter above is an entry value (DW_OP_entry_value) that only
 * the caller's call site gives. clang 14 -O2 names the callees by
 * declarations too; its jump (DW_AT_call_pc, no return pc) makes no tail
 * call frame: probe (v=25), leaf (z=25), hop (h=<optimized out>),
 * pick (p=p@entry=7), main. */
#include <stdio.h>

#if defined(__clang__)
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE __attribute__((noinline, noclone))
#endif

extern int pick(int p);
extern int jumper(int x);

volatile int sink;

NOINLINE void probe(int v) { sink = v; }

NOINLINE int hop(int h) { int r = jumper(h + 10); return r * 2; }

int main(void)
{
    printf("%d\n", pick(7));
    return 0;
}
