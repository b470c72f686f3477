/* test/dwarf/progs/sigvars.c: a signal (SIGILL from a ud2 in the loop of
 * worker, on an alternate stack) interrupts worker at a known iteration;
 * the handler stops the process (SIGSTOP) inside probe, for `dwexpr vars`
 * without a debugger. Optimized, worker's parameter n is no longer in rdi
 * there (an entry value of a caller-saved register: only the call site
 * gives it) and the double fac is live in an xmm register, which only the
 * signal frame's saved fpstate holds. check_vars.py works out fac's value
 * at the interruption from the same arithmetic. */
#define _GNU_SOURCE
#include <signal.h>
#include <string.h>
#include <ucontext.h>

volatile int sink;
static char altstack[65536];

/* Where the process stops. */
__attribute__((noinline)) void probe(int tag)
{
    sink = tag;
    raise(SIGSTOP);
}

/* Stops in probe, then steps over the ud2 so worker can finish. */
static void handler(int signo, siginfo_t *si, void *uc)
{
    (void)si;
    probe(signo);
    ((ucontext_t *)uc)->uc_mcontext.gregs[REG_RIP] += 2;
}

/* The interrupted function. */
__attribute__((noinline)) long worker(long n, double scale)
{
    long acc = 1;
    double fac = scale;
    for (long i = 0; i < 2000; i++) {
        long t = i * 3 + n;
        acc = acc * 6364136223846793005L + t;
        fac = fac * 1.0000001 + (double)(acc & 7);
        if (i == 1000)
            __asm__ volatile("ud2" ::"x"(fac));
    }
    return acc + (long)fac;
}

int main(int argc, char **argv)
{
    (void)argv;
    stack_t ss = {.ss_sp = altstack, .ss_size = sizeof altstack, .ss_flags = 0};
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = handler;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigaltstack(&ss, 0);
    sigaction(SIGILL, &sa, 0);
    return worker(argc + 41, 1.25) == 7;
}
