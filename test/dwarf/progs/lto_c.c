/* test/dwarf/progs/lto_c.c: small functions LTO inlines into lto_b.c, and
 * the probe. */
extern volatile int sink; /* a declaration first: the definition names it (DW_AT_specification) */
volatile int sink;
static int counter = 33;

__attribute__((noinline)) int probe(int v)
{
    sink = v;
    __asm__ volatile("" ::: "memory");
    return v;
}

static int mul(int a, int b)
{
    int m = a * b + counter;
    int r = probe(m);
    return r + m;
}

int c_work(int p, int q)
{
    int cw = p ^ q;
    int r = mul(cw, q + 1);
    counter += r;
    return r - cw;
}
