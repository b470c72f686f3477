/* test/dwarf/progs/ldexpr.c: long double (x87 80-bit extended in 16
 * bytes) variables that gcc -O2 describes by expressions on typed values
 * rather than by a place: work()'s locals are gone when it calls probe()
 * (the psABI empties the x87 stack at calls), so their locations compute
 * them from the parameters in memory (DW_OP_fbreg N; DW_OP_deref_type 16
 * <long double>; ... DW_OP_plus / minus / mul / div / neg, DW_OP_convert
 * of an int, DW_OP_const_type <long double> 16 <bytes>). ldreg()'s are
 * dead where GDB stops (the line marked STOP): they are computed from u,
 * which is in st0 there (DW_OP_regval_type 33 <long double>), and one
 * compares (DW_OP_gt). */
volatile long double vld;
volatile int vi;

__attribute__((noinline)) void probe(void)
{
    __asm__ volatile("" ::: "memory"); /* GDB stops here */
}

__attribute__((noinline)) long double work(long double a, long double b, int n)
{
    long double sum = a + b;
    long double dif = a - b;
    long double pr = a * b;
    long double qu = a / b;
    long double ng = -a;
    long double k = (long double)n * 0.75L;
    vld = a;
    probe();
    vi = n;
    return 1;
}

__attribute__((noinline)) long double ldreg(long double a, long double b, int n)
{
    long double u = a * b + n;
    long double twice = u * 2;
    long double half = u / 4;
    long double neg = -u;
    int big = u > 10;
    vld = u; /* STOP */
    vi = n;
    return 2;
}

int main(int argc, char **argv)
{
    (void)argv;
    long double r = work(argc * 1.25L, 2.5L, 5 + argc);
    r += ldreg(argc * 1.5L, 2.25L, argc + 2);
    return r == 0;
}
