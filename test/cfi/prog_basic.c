/* test/cfi/prog_basic.c: a chain of calls ending in probe(), for the
 * real-binary unwinding tests (built at -O0/-O2, with and without frame
 * pointers, by run_real.py); level2 uses alloca so its CFA moves to rbp. */
#include <alloca.h>
#include <string.h>

volatile int sink;

/* Where the debugger stops. */
__attribute__((noinline)) void probe(int x)
{
    sink = x;
    __asm__ volatile("" ::: "memory");
}

/* A frame with locals in memory. */
__attribute__((noinline)) int level3(int a)
{
    volatile int v[4] = {a, a + 1, a + 2, a + 3};
    probe(v[a & 3]);
    return v[0] + sink;
}

/* A frame with a dynamic stack allocation. */
__attribute__((noinline)) int level2(int a)
{
    char *p = alloca((size_t)(a & 15) + 16);
    memset(p, a, 16);
    return level3(a * 2 + p[3]) + 1;
}

/* A plain caller. */
__attribute__((noinline)) int level1(int a)
{
    return level2(a + 1) * 3;
}

int main(int argc, char **argv)
{
    (void)argv;
    return level1(argc) & 0;
}
