/* test/dwarf/progs/nested.c (gcc only): GNU nested functions using their
 * parent's variables (static chain), one called through a pointer by
 * qsort in libc, a nested function inside a nested function. At -O2 the
 * parent is inlined everywhere: its DIE is abstract, and the concrete
 * nested function cmp is its child (check_vars.py). */
#include <stdlib.h>

volatile int sink;

__attribute__((noinline)) void probe(int v)
{
    sink = v;
    __asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) static int outerfn(int base, int *vals, int n)
{
    int calls = 0;
    long weight = base * 3L;
    double bias = base * 0.5;

    int cmp(const void *a, const void *b)
    {
        int x = *(const int *)a, y = *(const int *)b;
        calls++;
        int inner_sq(int k)
        {
            int sq = k * k + base;
            if (calls == 3)
                probe(sq + (int)weight);
            return sq;
        }
        int dx = inner_sq(x % 7), dy = inner_sq(y % 7);
        return (dx > dy) - (dx < dy) + (int)(bias - bias);
    }

    qsort(vals, n, sizeof *vals, cmp);
    return calls + (int)weight;
}

int main(int argc, char **argv)
{
    (void)argv;
    int vals[12];
    for (int i = 0; i < 12; i++)
        vals[i] = (i * 37 + argc) % 23;
    int r = outerfn(argc + 4, vals, 12);
    sink = r + vals[0];
    return 0;
}
