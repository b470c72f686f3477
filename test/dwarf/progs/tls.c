/* test/dwarf/progs/tls.c: thread-local variables of the executable and
 * of two shared libraries of its own (tls_lib.c, tls_lib2.c, built as
 * libtls_lib.so and libtls_lib2.so next to it, found through -rpath
 * $ORIGIN), read where the process stops itself in the second library:
 *
 *   raise, tls_lib2_work, tls_lib_run, run, main (or the thread's start)
 *
 * With an argument, a second thread makes that call, with values of its
 * own, while the main thread waits for it. */
#include <pthread.h>
#include <stdio.h>

#if defined(__clang__)
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE __attribute__((noinline, noclone))
#endif

int tls_lib_run(int v);

__thread int m_g = 0x3333;
__thread long m_bss;

/* The calling thread's values from V, then the libraries' call. */
NOINLINE static int run(int v)
{
    static __thread int m_local = 9;
    m_local += v;
    m_g += v * 16;
    m_bss = (long)v << 33;
    return tls_lib_run(v + 10) + m_local;
}

static void *worker(void *arg)
{
    (void)arg;
    return (void *)(long)run(20);
}

int main(int argc, char **argv)
{
    (void)argv;
    long r;
    m_g = 0x5555;
    if (argc > 1) {
        pthread_t t;
        void *out;
        if (pthread_create(&t, NULL, worker, NULL) || pthread_join(t, &out))
            return 1;
        r = (long)out;
    } else {
        r = run(argc);
    }
    printf("%ld\n", r);
    return 0;
}
