/* test/cfi/prog_signal.c: probe() runs inside a signal handler, so the
 * stack holds the kernel's signal frame (glibc's __restore_rt, CIE
 * augmentation "S") between the handler and the interrupted code. */
#include <signal.h>

volatile int sink;

/* Where the debugger stops. */
__attribute__((noinline)) void probe(int x)
{
    sink = x;
    __asm__ volatile("" ::: "memory");
}

/* The handler. */
static void handler(int sig)
{
    probe(sig);
}

/* The interrupted function. */
__attribute__((noinline)) void interrupted(void)
{
    raise(SIGUSR1);
    sink++;
}

int main(void)
{
    signal(SIGUSR1, handler);
    interrupted();
    return 0;
}
