/* test/repl/progs/core_prog.c: a program stopped in probe() under gdb for
 * test/repl/core_test.py: a parameter and a local in frame 0, a local of
 * main in frame 1, a global. */
#include <stdio.h>

int g = 5;

__attribute__((noinline)) int probe(int x)
{
    volatile int y = x * 2;
    printf("%d\n", y);
    return y + g;
}

int main(void)
{
    int k = 21;
    return probe(k) == 0;
}
