/* test/dwarf/progs/stopper.c: stops itself (SIGSTOP) two calls deep, for
 * `dwexpr vars --pid` without a debugger: a parameter, a local on the
 * stack, a global and a thread-local variable to read back. */
#include <signal.h>

int g_stop = 5;
__thread int t_stop = 7;

__attribute__((noinline)) static int stop_here(int x)
{
    volatile int y = x * 2;
    t_stop += x;
    raise(SIGSTOP);
    return y;
}

int main(void)
{
    return stop_here(21) == 0;
}
