/* test/dwarf/progs/lists.c: code that makes compilers write many location
 * lists: values moving between registers and the stack across calls,
 * functions in other sections (non-contiguous units: base address
 * entries), a cold path, a switch and a loop-carried value. */
#include <stdio.h>
#include <stdlib.h>

volatile int sink_l;

__attribute__((noinline)) static int step(int x)
{
    sink_l = x;
    return x * 7 + 1;
}

/* In a section of its own: lists of this function need a base address
 * other than the unit's. */
__attribute__((noinline, section(".text.alt"))) int far_away(int a, int b)
{
    int acc = a;
    for (int i = 0; i < b; i++) {
        int t = step(acc + i);
        acc ^= t;
        if (acc < 0)
            acc = -acc;
    }
    return acc + b;
}

__attribute__((noinline, cold)) static void complain(const char *what, long code)
{
    fprintf(stderr, "%s: %ld\n", what, code);
}

__attribute__((noinline)) long mixer(long seed, int rounds, unsigned char mode)
{
    long state = seed;
    unsigned long bits = (unsigned long)seed ^ 0x5555;
    for (int r = 0; r < rounds; r++) {
        switch ((mode + r) & 3) {
        case 0: state = step((int)state) + (long)bits; break;
        case 1: bits = bits * 3 + (unsigned long)step(r); break;
        case 2: state -= (long)(bits >> 3); break;
        default: {
            long tmp = state * 5;
            state = tmp + step((int)(tmp & 0xff));
            break;
        }
        }
        if (__builtin_expect(state == 42, 0))
            complain("unlikely", state);
    }
    return state + (long)bits;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 3;
    long m = mixer(n * 11, n + 4, (unsigned char)n);
    int f = far_away(n, n * 2);
    printf("%ld %d\n", m, f);
    return 0;
}
