/* test/dwarf/progs/recursion.c: a recursion 300 calls deep whose
 * parameters GCC -O2 describes by the caller's entry values
 * (DW_OP_entry_value of the caller's registers in DW_AT_call_value):
 * every frame's n and acc go back through every frame above it to main's
 * constants. check_vars.py reads them all (dwexpr vars keeps each frame's
 * entry values: without that, a quadratic walk of exponentially many
 * call-site values). */
volatile long sink;

/* calls of rec (check_vars.py also builds it 1500 deep: past the
 * frame limits an unwinder or its cross-check may have) */
#ifndef DEPTH
#define DEPTH 300
#endif

__attribute__((noinline)) void probe(long acc)
{
    sink = acc;
}

__attribute__((noinline)) int other(int x)
{
    sink = x;
    return x ^ 5;
}

/* two uses of the caller's entry values per call site (acc * 3 + n), so
 * the chain branches at every frame */
__attribute__((noinline)) int rec(int n, long acc)
{
    if (n == 0) {
        probe(acc);
        return 0;
    }
    int r = rec(n - 1, acc * 3 + n);
    return other(r) + 1;
}

int main(void)
{
    return rec(DEPTH, 1) & 0x7f;
}
