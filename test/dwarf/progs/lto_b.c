/* test/dwarf/progs/lto_b.c: a static helper of the same name, a static
 * global of the same name, inlining across units under LTO. */
extern int c_work(int, int);
static int counter = 22;
int shared_b = 6;

__attribute__((noinline)) static int helper(int y)
{
    int hb = y + counter;
    int r = c_work(hb, y);
    return r * 2 + hb;
}

int b_entry(int z)
{
    int be = z - 1;
    int r = helper(be);
    counter += r;
    return r + be;
}
