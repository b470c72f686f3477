/* test/repl/progs/core_prog.c: a program stopped in probe() under gdb for
 * test/repl/core_test.py: a parameter and a local in frame 0, a local of
 * main in frame 1, a global. Run as `core_prog stop`, probe() stops the
 * process itself (SIGSTOP) for the REPL's `attach`. */
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

int stop_self;

int g = 5;

__attribute__((noinline)) int probe(int x)
{
    volatile int y = x * 2;
    if (stop_self)
        kill(getpid(), SIGSTOP);
    printf("%d\n", y);
    return y + g;
}

int main(int argc, char **argv)
{
    (void)argv;
    stop_self = argc > 1;
    int k = 21;
    return probe(k) == 0;
}
