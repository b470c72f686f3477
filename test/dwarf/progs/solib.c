/* test/dwarf/progs/solib.c: a program whose probe is reached through a
 * shared library of its own (solib_lib.c, built with -g as
 * libsolib.so next to it and found through -rpath $ORIGIN): `dwexpr
 * vars` reads each frame with the DWARF of the module its pc is in. */
#include <stdio.h>

#if defined(__clang__)
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE __attribute__((noinline, noclone))
#endif

int lib_run(void (*cb)(int), int n);

volatile int sink;
int g_main = 7;

/* The debugger stops here, called back from the library. */
NOINLINE void probe_s(int depth)
{
    sink = depth;
    __asm__ volatile("" ::: "memory");
}

int main(int argc, char **argv)
{
    (void)argv;
    int n = argc + 2;
    int r = lib_run(probe_s, n);
    printf("%d %d\n", r, g_main);
    return 0;
}
