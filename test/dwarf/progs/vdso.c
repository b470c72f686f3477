/* test/dwarf/progs/vdso.c: polls the time, so that the program is often
 * stopped inside the vDSO (the kernel's ELF image that clock_gettime runs
 * in; it maps no file): check_vars steps GDB into it and writes a core. */
#include <time.h>
volatile long sink;
__attribute__((noinline)) void spin(int rounds)
{
    struct timespec ts;
    long local = rounds * 2;
    for (int i = 0; i < 1000000; i++) {
        clock_gettime(CLOCK_MONOTONIC, &ts);
        sink += ts.tv_nsec + local;
    }
}
int main(int argc, char **argv)
{
    (void)argv;
    spin(argc + 6);
    return 0;
}
