/* test/dwarf/progs/x87.c: long double values on the x87 register stack
 * (DW_OP_regx 33-40, st0-st7: 10-byte registers holding 16-byte long
 * doubles) where GDB stops: at the line marked so below, not at a call (the
 * psABI leaves the x87 stack empty across calls, so only frame 0 can hold
 * such a value; main's r is in st0 only from the return address on,
 * outside the pc - 1 a caller frame is matched at). At -O1 and above GCC
 * places two variables in st0 and st1 here (stack-relative ST(i), not
 * the physical R0-R7). GCC's choice of ST(i) is not always the one the
 * value is in (it names the position before an fxch): compare_gdb.py
 * compares the bytes of the register GDB reads, not the source's values. */
volatile long double vld;
volatile double vd;

__attribute__((noinline)) long double ldwork(long double a, long double b, double c)
{
    long double q = a + c;
    long double s = b - c;
    long double u = a * b + c;
    vld = u; /* STOP */
    vld = q;
    vld = s;
    return 2;
}

int main(int argc, char **argv)
{
    (void)argv;
    long double r = ldwork(argc * 1.5L, 2.25L, argc * 0.5);
    vd = (double)r;
    return r == 0;
}
