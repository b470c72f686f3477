/* test/dwarf/progs/lto_a.c (with lto_b.c, lto_c.c; gcc -flto): main, a
 * static helper named like one in lto_b.c, a static global. gcc -flto
 * describes each global twice: an early-debug DIE (name, type, no
 * location) and, in the LTO unit, a concrete DIE with DW_AT_abstract_origin
 * and the location; the variable is listed once. */
extern int b_entry(int);
extern int probe(int);
static int counter = 11;
int shared_a = 5;

__attribute__((noinline)) static int helper(int x)
{
    int ha = x * counter;
    int r = b_entry(ha + 1);
    return r + ha;
}

int main(int argc, char **argv)
{
    (void)argv;
    int v = helper(argc + 3);
    counter += v;
    return v == 99;
}
